"""Boursicocotte (Kuhhandel / You're Bluffing!): auctions of farm animals, bluffed trades, sets of four.

The referee follows §4.3 of the table-record spec and the Boursicocotte section of
rules-decisions.md. It knows every player's money card by card: the bank pays the starting money
and the donkey money, and the record says which cards are paid in auctions and offered in trades.

Rulings where the rulebook is silent (each is also in the rules reference, with its alternative):

- Money on a tied trade (``BC-TRADE-TIE``): the rulebook swaps the two face-down offers *before*
  they are counted, so on a tie the offers stay exchanged (each keeps what it received) and the
  challenger offers again from the money they now hold. Alternative reading: on a tie each player
  takes their own offer back: the record's variant ``trade_tie: "returned"`` (default
  ``"exchanged"``).
  On a second tie the challenger takes the animals free; the money is handled the same way.
- Skipped turns (``BC-SKIP``): once the deck is empty, a player is skipped when they cannot trade:
  every animal they own is in a complete set, they own none, or they hold no money card at all
  (an offer needs at least one card, and the rulebook says a player without money cannot play).
- Blocked end (``BC-END``): when the deck is empty and nobody able to trade holds a money card,
  the game ends there; animals outside complete sets score nothing. The game also ends, as the
  rulebook says, when every animal is in a complete set of four.
- Equal best score: the win is shared (``BC-SCORE``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from models.i18n import Msg
from models.record import BC_ANIMAL_VALUES, BC_MONEY
from scoring.base import CopyingEngine, Expectation, Outcome, RuleViolation, rank_by
from scoring.base import VariantSpec  # the variants, declared once

ANIMALS: tuple[str, ...] = tuple(BC_ANIMAL_VALUES)  # cheapest first
VALUES: Mapping[str, int] = BC_ANIMAL_VALUES
COPIES = 4  # cards of each animal
MONEY_VALUES: tuple[int, ...] = BC_MONEY
SUPPLY: Mapping[int, int] = {0: 10, 10: 20, 50: 10, 100: 5, 200: 5, 500: 5}  # all the money in the game
START_MONEY: tuple[int, ...] = (0, 0, 10, 10, 10, 10, 50)
DONKEY_MONEY: tuple[int, ...] = (50, 100, 200, 500)  # paid to every player by the 1st … 4th donkey

# Every id the engine refuses with …
REFUSALS: tuple[str, ...] = (
    "BC-OVER", "BC-TURN", "BC-NO-AUCTION", "BC-NO-DEBT", "BC-NO-TRADE", "BC-AUCTION-OPEN",
    "BC-PAYMENT-DUE", "BC-TRADE-OPEN", "BC-RECHALLENGE", "BC-DECK-EMPTY", "BC-DRAW-GONE",
    "BC-BID-AUCTIONEER", "BC-BID-EXCLUDED", "BC-BID-POSITIVE", "BC-BID-RAISE",
    "BC-CLOSE-NO-BID", "BC-BUYBACK-LOST", "BC-PAYER", "BC-CARDS-MISSING", "BC-PAY-SHORT",
    "BC-CAN-PAY", "BC-CHALLENGE-SELF", "BC-CHALLENGE-COMPLETE", "BC-CHALLENGE-OWN",
    "BC-CHALLENGE-TARGET", "BC-OFFER-EMPTY", "BC-ANSWER",
)
# … and the rules it applies without refusing anything, rulings included, for the rules reference.
APPLIED_RULES: tuple[str, ...] = (
    "BC-DONKEY", "BC-TRADE", "BC-TRADE-TIE", "BC-SKIP", "BC-END", "BC-SCORE",
)

PHASES = ("turn", "auction", "payment", "trade_answer", "second_challenge", "over")


def animal(name: str) -> Msg:
    return Msg(f"bc.animal.{name}")


def _cards(money: Mapping[int, int]) -> list[int]:
    return [value for value in MONEY_VALUES for _ in range(money.get(value, 0))]


def _total(money: Mapping[int, int]) -> int:
    return sum(value * count for value, count in money.items())


class _History(list):
    """The accepted actions. They are frozen records, so a snapshot (``Engine.apply`` and ``check``
    deep-copy the engine) can share them: copying the list alone keeps each action O(state), not
    O(game length)."""

    def __deepcopy__(self, memo: dict) -> "_History":
        return _History(self)


@dataclass
class Auction:
    animal: str
    auctioneer: str
    bids: list[tuple[str, int]] = field(default_factory=list)  # in order; the last is the highest
    excluded: list[str] = field(default_factory=list)  # bidders who could not pay for this animal
    buy_back_lost: bool = False

    @property
    def highest(self) -> tuple[str, int] | None:
        return self.bids[-1] if self.bids else None


@dataclass
class Debt:
    payer: str
    recipient: str
    amount: int
    buy_back: bool  # True: the auctioneer pays and keeps the animal


@dataclass
class Trade:
    challenger: str
    target: str
    animal: str
    offer: list[int]  # face down on the table, out of the challenger's money
    moves: int  # animals that change hands: 2 if both own exactly two, else 1
    ties: int = 0


class BoursicocotteEngine(CopyingEngine):
    """Referee of Boursicocotte.

    ``player_view()`` — the public, read-only state for the table screen (the UI decides who may
    see each player's money):

    - ``turn``: whose turn it is (the auctioneer or challenger while an auction or trade runs);
      ``None`` once the game is over.
    - ``phase``: ``"turn"`` (draw or challenge), ``"auction"`` (bids, then ``close``),
      ``"payment"`` (``pay`` or ``cannot_pay``), ``"trade_answer"`` (``accept`` or ``counter``),
      ``"second_challenge"`` (after a first tie the challenger offers again), ``"over"``.
    - ``auction``: ``None`` or ``{"animal", "auctioneer", "bids": [(player, amount), …],
      "highest": amount | None, "bidder": player | None, "excluded": [players],
      "buy_back_lost": bool}``.
    - ``debt``: ``None`` or ``{"payer", "recipient", "amount", "animal", "buy_back"}``.
    - ``trade``: ``None`` or ``{"challenger", "target", "animal", "cards_offered": count of
      face-down cards, "animals_at_stake": 1 or 2, "ties": 0 or 1}``.
    - ``animals``: ``{player: {animal: count}}`` (only animals owned).
    - ``money``: ``{player: [cards, lowest first]}``; ``money_total``: ``{player: sum}``.
    - ``deck``: ``{animal: cards left to draw}``; ``deck_count``: cards left in all.
    - ``donkeys_drawn``: donkeys that have paid out (dealt ones included); ``next_donkey_money``:
      what the next donkey pays each player, or ``None``.
    - ``bank``: ``{value: cards}`` left in the bank.
    - ``last_trade``: the last trade's outcome as Msgs (amounts are not in them: offers are
      secret); ``last_trade_detail``: ``None`` or ``{"offer": [...], "counter": [...]|None}``,
      for the two traders' eyes only.
    - ``complete_sets``: ``{player: [animals]}``; ``scores``: ``{player: score so far}``.
    - ``setup``: Msgs about the short version's deal (donkey money); ``blocked``: the game ended
      because nobody able to trade held money.
    """

    games = ("boursicocotte",)
    rules = REFUSALS + APPLIED_RULES
    variants = (VariantSpec("trade_tie", ("exchanged", "returned"), "exchanged",
                            {"exchanged": "BC-TRADE-TIE", "returned": "BC-TRADE-TIE"}),)

    def __init__(self, record: Any):
        super().__init__(record)
        self.history = _History()
        variant = getattr(record, "variant", None)
        self.trade_tie: str = getattr(variant, "trade_tie", None) or "exchanged"
        if self.trade_tie not in ("exchanged", "returned"):
            raise ValueError(f"unknown trade_tie {self.trade_tie!r}")
        self.bank: dict[int, int] = dict(SUPPLY)
        self.money: dict[str, dict[int, int]] = {p: {v: 0 for v in MONEY_VALUES} for p in self.players}
        for player in self.players:
            for card in START_MONEY:
                self._from_bank(player, card)
        self.animals: dict[str, dict[str, int]] = {p: {a: 0 for a in ANIMALS} for p in self.players}
        self.deck: dict[str, int] = {a: COPIES for a in ANIMALS}
        self.donkeys: int = 0
        self.setup: list[Msg] = []
        start = getattr(record, "start_animals", None)
        if start:
            for player in self.players:
                for dealt in start.get(player, ()):
                    self.deck[dealt] -= 1
                    self.animals[player][dealt] += 1
            self.setup.append(Msg("bc.setup.dealt", {"count": sum(len(v) for v in start.values())}))
            for _ in range(sum(1 for cards in start.values() for a in cards if a == "donkey")):
                self.setup.append(self._donkey_money())
        self.turn: str | None = self.first_player
        self.phase: str = "turn"
        self.auction: Auction | None = None
        self.debt: Debt | None = None
        self.trade: Trade | None = None
        self.last_trade: tuple[Msg, ...] = ()
        self.last_trade_detail: dict[str, Any] | None = None
        self.blocked: bool = False

    # -- money and animals --------------------------------------------------------------------

    def _from_bank(self, player: str, card: int) -> None:
        if self.bank[card] <= 0:  # the supply covers 5 players' start and all four donkeys
            raise AssertionError(f"the bank has no {card} left")
        self.bank[card] -= 1
        self.money[player][card] += 1

    def _donkey_money(self) -> Msg:
        amount = DONKEY_MONEY[self.donkeys]
        self.donkeys += 1
        for player in self.players:
            self._from_bank(player, amount)
        return Msg("bc.donkey_money", {"n": self.donkeys, "amount": amount})

    def _take_cards(self, player: str, cards: list[int]) -> None:
        """Remove these cards from the player's money, or refuse naming the missing ones."""
        want = Counter(cards)
        have = self.money[player]
        missing = [v for v in MONEY_VALUES for _ in range(max(0, want[v] - have[v]))]
        if missing:
            raise RuleViolation("BC-CARDS-MISSING", "bc.err.cards_missing", player=player,
                                missing=missing, cards=sorted(cards))
        for value in cards:
            have[value] -= 1

    def _give_cards(self, player: str, cards: Iterable[int]) -> None:
        for value in cards:
            self.money[player][value] += 1

    def _move_animals(self, giver: str, taker: str, kind: str, count: int) -> None:
        self.animals[giver][kind] -= count
        self.animals[taker][kind] += count

    def complete_sets(self, player: str) -> list[str]:
        return [a for a in ANIMALS if self.animals[player][a] == COPIES]

    def score(self, player: str) -> int:
        sets = self.complete_sets(player)
        return sum(VALUES[a] for a in sets) * len(sets)

    def deck_count(self) -> int:
        return sum(self.deck.values())

    def can_trade(self, player: str) -> bool:
        """Owns an animal outside a complete set (then someone else owns that kind too, or will)
        and another player owns that kind."""
        return bool(self.trade_options(player))

    def trade_options(self, player: str) -> list[tuple[str, str]]:
        """(target, animal) pairs the player may challenge over."""
        options = []
        for kind in ANIMALS:
            if self.animals[player][kind] == 0:
                continue
            for other in self.players:
                if other != player and 0 < self.animals[other][kind] < COPIES:
                    options.append((other, kind))
        return options

    def _has_money(self, player: str) -> bool:
        return any(self.money[player].values())

    # -- turn order and the end ---------------------------------------------------------------

    def _next_seat(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def _all_complete(self) -> bool:
        return self.deck_count() == 0 and all(
            count in (0, COPIES) for owned in self.animals.values() for count in owned.values())

    def _pass_turn(self, after: str) -> list[Msg]:
        """The turn goes to the left of ``after``; with the deck empty, players who cannot trade
        are skipped, and the game ends when nobody can."""
        self.phase, self.auction, self.debt, self.trade = "turn", None, None, None
        if self._all_complete():
            return self._end(blocked=False)
        candidate = self._next_seat(after)
        if self.deck_count() > 0:
            self.turn = candidate
            return [Msg("bc.turn", {"player": candidate})]
        skipped: list[str] = []
        for _ in self.players:
            if self.can_trade(candidate) and self._has_money(candidate):
                self.turn = candidate
                events = [Msg("bc.turn_trade", {"player": candidate})]
                if skipped:
                    events.insert(0, Msg("bc.skipped", {"players": skipped}))
                return events
            skipped.append(candidate)
            candidate = self._next_seat(candidate)
        return self._end(blocked=True)

    def _end(self, blocked: bool) -> list[Msg]:
        self.phase, self.turn, self.blocked = "over", None, blocked
        return [Msg("bc.over_blocked" if blocked else "bc.over")]

    # -- the contract -------------------------------------------------------------------------

    def _apply(self, action: Any) -> Iterable[Msg]:
        kind = action.type
        if self.phase == "over":
            raise RuleViolation("BC-OVER", "bc.err.over")
        handler = {
            ("turn", "draw"): self._turn_draw,
            ("turn", "challenge"): self._turn_challenge,
            ("auction", "bid"): self._auction_bid,
            ("auction", "close"): self._auction_close,
            ("payment", "pay"): self._payment_pay,
            ("payment", "cannot_pay"): self._payment_cannot_pay,
            ("trade_answer", "accept"): self._trade_answer_accept,
            ("trade_answer", "counter"): self._trade_answer_counter,
            ("second_challenge", "challenge"): self._second_challenge_challenge,
        }.get((self.phase, kind))
        if handler is None:
            self._wrong_moment(kind)
        return handler(action)

    def _wrong_moment(self, kind: str) -> None:
        """Refuse an action type that does not fit the current phase, saying what is awaited."""
        if self.phase == "payment":
            d = self.debt
            raise RuleViolation("BC-PAYMENT-DUE", "bc.err.payment_due", payer=d.payer, amount=d.amount,
                                recipient=d.recipient)
        if self.phase == "trade_answer":
            t = self.trade
            raise RuleViolation("BC-TRADE-OPEN", "bc.err.trade_open", target=t.target,
                                challenger=t.challenger, animal=animal(t.animal))
        if self.phase == "second_challenge":
            self._rechallenge_refused()
        if kind in ("bid", "close"):
            raise RuleViolation("BC-NO-AUCTION", "bc.err.no_auction")
        if kind in ("pay", "cannot_pay"):
            if self.phase == "auction":
                raise RuleViolation("BC-NO-DEBT", "bc.err.no_debt_yet", animal=animal(self.auction.animal))
            raise RuleViolation("BC-NO-DEBT", "bc.err.no_debt")
        if kind in ("accept", "counter"):
            raise RuleViolation("BC-NO-TRADE", "bc.err.no_trade")
        # draw or challenge while an auction runs
        a = self.auction
        raise RuleViolation("BC-AUCTION-OPEN", "bc.err.auction_open", animal=animal(a.animal),
                            auctioneer=a.auctioneer)

    # -- turn: draw ---------------------------------------------------------------------------

    def _turn_draw(self, action: Any) -> list[Msg]:
        card = action.card
        if self.deck_count() == 0:
            raise RuleViolation("BC-DECK-EMPTY", "bc.err.deck_empty", animal=animal(card))
        if self.deck[card] == 0:
            raise RuleViolation("BC-DRAW-GONE", "bc.err.draw_gone", animal=animal(card))
        self.deck[card] -= 1
        events = [Msg("bc.drawn", {"player": self.turn, "animal": animal(card)})]
        if card == "donkey":
            events.append(self._donkey_money())
        self.auction = Auction(card, self.turn)
        self.phase = "auction"
        return events

    # -- auction ------------------------------------------------------------------------------

    def _auction_bid(self, action: Any) -> list[Msg]:
        a, player, amount = self.auction, action.player, action.amount
        if player == a.auctioneer:
            raise RuleViolation("BC-BID-AUCTIONEER", "bc.err.bid_auctioneer", player=player, animal=animal(a.animal))
        if player in a.excluded:
            raise RuleViolation("BC-BID-EXCLUDED", "bc.err.bid_excluded", player=player, animal=animal(a.animal))
        if amount <= 0:
            raise RuleViolation("BC-BID-POSITIVE", "bc.err.bid_positive", player=player, amount=amount)
        if a.highest is not None and amount <= a.highest[1]:
            raise RuleViolation("BC-BID-RAISE", "bc.err.bid_raise", player=player, amount=amount,
                                highest=a.highest[1], bidder=a.highest[0])
        a.bids.append((player, amount))
        return [Msg("bc.bid", {"player": player, "amount": amount, "animal": animal(a.animal)})]

    def _auction_close(self, action: Any) -> list[Msg]:
        a = self.auction
        if a.highest is None:
            if action.buy_back:
                raise RuleViolation("BC-CLOSE-NO-BID", "bc.err.close_no_bid", auctioneer=a.auctioneer,
                                    animal=animal(a.animal))
            self.animals[a.auctioneer][a.animal] += 1
            events = [Msg("bc.free", {"player": a.auctioneer, "animal": animal(a.animal)})]
            return events + self._pass_turn(a.auctioneer)
        bidder, amount = a.highest
        if action.buy_back:
            if a.buy_back_lost:
                raise RuleViolation("BC-BUYBACK-LOST", "bc.err.buy_back_lost", auctioneer=a.auctioneer,
                                    animal=animal(a.animal))
            self.debt = Debt(a.auctioneer, bidder, amount, True)
            event = Msg("bc.buy_back", {"auctioneer": a.auctioneer, "animal": animal(a.animal),
                                        "amount": amount, "bidder": bidder})
        else:
            self.debt = Debt(bidder, a.auctioneer, amount, False)
            event = Msg("bc.sold", {"bidder": bidder, "animal": animal(a.animal), "amount": amount,
                                    "auctioneer": a.auctioneer})
        self.phase = "payment"
        return [event]

    # -- payment ------------------------------------------------------------------------------

    def _check_payer(self, player: str) -> Debt:
        d = self.debt
        if player != d.payer:
            raise RuleViolation("BC-PAYER", "bc.err.payer", player=player, payer=d.payer, amount=d.amount,
                                recipient=d.recipient)
        return d

    def _payment_pay(self, action: Any) -> list[Msg]:
        d = self._check_payer(action.player)
        cards = list(action.cards)
        total = sum(cards)
        self._take_cards(d.payer, cards)
        if total < d.amount:
            raise RuleViolation("BC-PAY-SHORT", "bc.err.pay_short", player=d.payer, total=total, amount=d.amount)
        self._give_cards(d.recipient, cards)
        a = self.auction
        owner = a.auctioneer if d.buy_back else d.payer
        self.animals[owner][a.animal] += 1
        paid = "bc.paid" if total == d.amount else "bc.paid_over"
        events = [Msg(paid, {"payer": d.payer, "cards": sorted(cards), "recipient": d.recipient,
                             "total": total, "amount": d.amount}),
                  Msg("bc.gets", {"player": owner, "animal": animal(a.animal)})]
        return events + self._pass_turn(a.auctioneer)

    def _payment_cannot_pay(self, action: Any) -> list[Msg]:
        d = self._check_payer(action.player)
        total = _total(self.money[d.payer])
        if total >= d.amount:
            raise RuleViolation("BC-CAN-PAY", "bc.err.can_pay", player=d.payer, total=total, amount=d.amount)
        a = self.auction
        if d.buy_back:
            a.buy_back_lost = True
            key = "bc.cannot_pay_auctioneer"
        else:
            a.excluded.append(d.payer)
            key = "bc.cannot_pay_bidder"
        a.bids.clear()
        self.debt = None
        self.phase = "auction"
        return [Msg(key, {"player": d.payer, "total": total, "amount": d.amount, "animal": animal(a.animal)})]

    # -- trades -------------------------------------------------------------------------------

    def _turn_challenge(self, action: Any) -> list[Msg]:
        if action.player != self.turn:
            raise RuleViolation("BC-TURN", "bc.err.turn", player=action.player, turn=self.turn)
        return self._challenge(action, ties=0)

    def _second_challenge_challenge(self, action: Any) -> list[Msg]:
        t = self.trade
        if (action.player, action.target, action.animal) != (t.challenger, t.target, t.animal):
            self._rechallenge_refused()
        return self._challenge(action, ties=t.ties)

    def _rechallenge_refused(self) -> None:
        t = self.trade
        raise RuleViolation("BC-RECHALLENGE", "bc.err.rechallenge", challenger=t.challenger, target=t.target,
                            animal=animal(t.animal))

    def _challenge(self, action: Any, ties: int) -> list[Msg]:
        player, target, kind = action.player, action.target, action.animal
        if target == player:
            raise RuleViolation("BC-CHALLENGE-SELF", "bc.err.challenge_self", player=player)
        if self.animals[target][kind] == COPIES:
            raise RuleViolation("BC-CHALLENGE-COMPLETE", "bc.err.challenge_complete", target=target,
                                animal=animal(kind))
        if self.animals[player][kind] == 0:
            raise RuleViolation("BC-CHALLENGE-OWN", "bc.err.challenge_own", player=player, animal=animal(kind))
        if self.animals[target][kind] == 0:
            raise RuleViolation("BC-CHALLENGE-TARGET", "bc.err.challenge_target", target=target,
                                animal=animal(kind))
        cards = list(action.cards)
        if not cards:
            raise RuleViolation("BC-OFFER-EMPTY", "bc.err.offer_empty", player=player)
        self._take_cards(player, cards)
        both_two = self.animals[player][kind] == 2 and self.animals[target][kind] == 2
        self.trade = Trade(player, target, kind, cards, 2 if both_two else 1, ties)
        self.phase = "trade_answer"
        key = "bc.challenge_again" if ties else "bc.challenge"
        return [Msg(key, {"player": player, "target": target, "animal": animal(kind), "n": len(cards),
                          "moves": self.trade.moves})]

    def _check_target(self, player: str) -> Trade:
        t = self.trade
        if player != t.target:
            raise RuleViolation("BC-ANSWER", "bc.err.answer", player=player, target=t.target,
                                challenger=t.challenger)
        return t

    def _trade_answer_accept(self, action: Any) -> list[Msg]:
        t = self._check_target(action.player)
        self._give_cards(t.target, t.offer)
        self._move_animals(t.target, t.challenger, t.animal, t.moves)
        outcome = [Msg("bc.accepted", {"target": t.target, "challenger": t.challenger, "n": len(t.offer),
                                       "moves": t.moves, "animal": animal(t.animal)})]
        self.last_trade = tuple(outcome)
        self.last_trade_detail = {"offer": sorted(t.offer), "counter": None}
        return outcome + self._pass_turn(t.challenger)

    def _trade_answer_counter(self, action: Any) -> list[Msg]:
        t = self._check_target(action.player)
        counter = list(action.cards)
        if not counter:
            raise RuleViolation("BC-OFFER-EMPTY", "bc.err.offer_empty", player=t.target)
        self._take_cards(t.target, counter)
        offered, countered = sum(t.offer), sum(counter)
        tie = offered == countered
        self.last_trade_detail = {"offer": sorted(t.offer), "counter": sorted(counter)}
        if tie and self.trade_tie == "returned":
            self._give_cards(t.challenger, t.offer)
            self._give_cards(t.target, counter)
            money = Msg("bc.trade_returned", {"challenger": t.challenger, "target": t.target})
        else:
            self._give_cards(t.challenger, counter)
            self._give_cards(t.target, t.offer)
            money = Msg("bc.trade_exchanged", {"challenger": t.challenger, "target": t.target,
                                               "to_challenger": len(counter), "to_target": len(t.offer)})
        args = {"challenger": t.challenger, "target": t.target, "moves": t.moves, "animal": animal(t.animal)}
        if tie and t.ties == 0:
            t.ties = 1
            self.phase = "second_challenge"
            self.last_trade = (money, Msg("bc.trade_tie", args))
            return list(self.last_trade)
        if tie:
            self._move_animals(t.target, t.challenger, t.animal, t.moves)
            result = Msg("bc.trade_second_tie", args)
        elif offered > countered:
            self._move_animals(t.target, t.challenger, t.animal, t.moves)
            result = Msg("bc.trade_challenger_wins", args)
        else:
            self._move_animals(t.challenger, t.target, t.animal, t.moves)
            result = Msg("bc.trade_target_wins", args)
        self.last_trade = (money, result)
        return list(self.last_trade) + self._pass_turn(t.challenger)

    # -- what is awaited ----------------------------------------------------------------------

    def bidders(self) -> tuple[str, ...]:
        """Who may bid in the running auction, in seat order."""
        a = self.auction
        if a is None or self.phase != "auction":
            return ()
        return tuple(p for p in self.players if p != a.auctioneer and p not in a.excluded)

    def expected(self) -> Expectation:
        if self.phase == "over":
            return Expectation((), (), Msg("bc.prompt.over"))
        if self.phase == "turn":
            types = []
            if self.deck_count() > 0:
                types.append("draw")
            if self.can_trade(self.turn) and self._has_money(self.turn):
                types.append("challenge")
            key = {("draw",): "bc.prompt.draw", ("challenge",): "bc.prompt.challenge"}.get(
                tuple(types), "bc.prompt.turn")
            return Expectation((self.turn,), tuple(types), Msg(key, {"player": self.turn}))
        if self.phase == "auction":
            a = self.auction
            bidders = self.bidders()
            types = ("bid", "close") if bidders else ("close",)
            if a.highest is None:
                prompt = Msg("bc.prompt.auction_open", {"animal": animal(a.animal), "auctioneer": a.auctioneer})
            else:
                prompt = Msg("bc.prompt.auction", {"animal": animal(a.animal), "auctioneer": a.auctioneer,
                                                   "bidder": a.highest[0], "amount": a.highest[1]})
            return Expectation(bidders + (a.auctioneer,), types, prompt)
        if self.phase == "payment":
            d = self.debt
            return Expectation((d.payer,), ("pay", "cannot_pay"),
                               Msg("bc.prompt.pay", {"payer": d.payer, "amount": d.amount, "recipient": d.recipient}))
        t = self.trade
        if self.phase == "trade_answer":
            types = ("accept", "counter") if self._has_money(t.target) else ("accept",)
            return Expectation((t.target,), types,
                               Msg("bc.prompt.answer", {"target": t.target, "challenger": t.challenger,
                                                        "animal": animal(t.animal), "moves": t.moves}))
        return Expectation((t.challenger,), ("challenge",),
                           Msg("bc.prompt.rechallenge", {"challenger": t.challenger, "target": t.target,
                                                         "animal": animal(t.animal)}))

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        scores = {p: self.score(p) for p in self.players}
        best = max(scores.values())
        winners = tuple(p for p in self.players if scores[p] == best)
        explanation: list[Msg] = []
        if self.blocked:
            explanation.append(Msg("bc.explain.blocked"))
        for p in self.players:
            sets = self.complete_sets(p)
            if not sets:
                explanation.append(Msg("bc.explain.no_set", {"player": p}))
                continue
            parts = [Msg("bc.explain.set", {"animal": animal(a), "value": VALUES[a]}) for a in sets]
            explanation.append(Msg("bc.explain.sets", {
                "player": p, "sets": parts, "sum": sum(VALUES[a] for a in sets), "count": len(sets),
                "score": scores[p]}))
        if len(winners) == 1:
            explanation.append(Msg("bc.explain.winner", {"player": winners[0], "score": best}))
        else:
            explanation.append(Msg("bc.explain.shared", {"players": list(winners), "score": best}))
        return Outcome(scores=scores, eliminated=(), winners=winners, replay_required=False,
                       ranking=rank_by(self.players, scores), explanation=tuple(explanation))

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        a, d, t = self.auction, self.debt, self.trade
        return {
            "turn": self.turn,
            "phase": self.phase,
            "auction": None if a is None else {
                "animal": a.animal, "auctioneer": a.auctioneer, "bids": list(a.bids),
                "highest": a.highest[1] if a.highest else None, "bidder": a.highest[0] if a.highest else None,
                "excluded": list(a.excluded), "buy_back_lost": a.buy_back_lost,
            },
            "debt": None if d is None else {
                "payer": d.payer, "recipient": d.recipient, "amount": d.amount, "animal": a.animal,
                "buy_back": d.buy_back,
            },
            "trade": None if t is None else {
                "challenger": t.challenger, "target": t.target, "animal": t.animal,
                "cards_offered": len(t.offer) if self.phase == "trade_answer" else 0,
                "animals_at_stake": t.moves, "ties": t.ties,
            },
            "animals": {p: {k: n for k, n in self.animals[p].items() if n} for p in self.players},
            "money": {p: _cards(self.money[p]) for p in self.players},
            "money_total": {p: _total(self.money[p]) for p in self.players},
            "deck": dict(self.deck),
            "deck_count": self.deck_count(),
            "donkeys_drawn": self.donkeys,
            "next_donkey_money": DONKEY_MONEY[self.donkeys] if self.donkeys < len(DONKEY_MONEY) else None,
            "bank": dict(self.bank),
            "last_trade": self.last_trade,
            "last_trade_detail": self.last_trade_detail,
            "complete_sets": {p: self.complete_sets(p) for p in self.players},
            "scores": {p: self.score(p) for p in self.players},
            "setup": tuple(self.setup),
            "blocked": self.blocked,
        }
