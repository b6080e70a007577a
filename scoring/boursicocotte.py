"""Boursicocotte (Kuhhandel / You're Bluffing!): auctions of farm animals, bluffed trades, sets of four.

The referee follows §4.3 of the table-record spec and the Boursicocotte section of
rules-decisions.md. It knows every player's money card by card: the bank pays the starting money
and the donkey money, and the record says which cards are paid in auctions and offered in trades.

Rules the rulebook states, with a house variant a table may prefer:

- Paying (``BC-OVERPAY``): no change is given, so a payer who cannot hand over the exact amount
  pays more; one whose cards make the exact amount must pay it (« si vous ne pouvez pas payer
  exactement … vous devez payer une somme plus importante »). House variant ``payment: "any"``
  (default ``"exact"``): paying more is allowed anyway.
- Money on a tied trade (``BC-TRADE-TIE``): the rulebook swaps the two face-down offers *before*
  they are counted, so on a tie the offers stay exchanged (each keeps what it received) and the
  challenger offers again from the money they now hold. House variant ``trade_tie: "returned"``
  (default ``"exchanged"``): on a tie each player takes their own offer back.
  On a second tie the challenger takes the animals free; the money is handled the same way.

Rulings where the rulebook is silent (each is also in the rules reference, with its other reading):

- An offer has at least one money card (``BC-OFFER-EMPTY``): the rulebook sets no minimum.
- Skipped turns (``BC-SKIP``): once the deck is empty, a player is skipped when they cannot trade:
  every animal they own is in a complete set, they own none, or they hold no money card at all
  (the rulebook says a player without money cannot play, and the app asks an offer for a card).
- Blocked end (``BC-END``): when the deck is empty and nobody able to trade holds a money card,
  the game ends there; animals outside complete sets score nothing. The game also ends, as the
  rulebook says, when every animal is in a complete set of four.
- Equal best score: the win is shared (``BC-SCORE``).
- A bidder who could not pay is left out of the repeated auction (``BC-BID-EXCLUDED``), an
  auctioneer who could not pay the buy-back loses it for that animal (``BC-BUYBACK-LOST``), and
  "I cannot pay" is accepted only when the player's money really falls short (``BC-CAN-PAY``).

A player without a single money card cannot bid, challenge or counter until they receive some
(``BC-NO-MONEY``, from the rulebook); they may still draw an animal on their turn, which is how
they get money back.

``_check`` validates an action completely against :class:`BoursicocotteState` (the stage says what
is awaited: a turn, an auction, a payment, an answer to a trade, a second challenge, the end);
``_perform`` then changes it. Nothing is copied.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from typing import Any, ClassVar, Iterable, Mapping, Sequence, TypedDict

from models.games.boursicocotte import BC_ANIMAL_VALUES, BC_MONEY, BOURSICOCOTTE
from models.games.boursicocotte_structs import BCAction, BCChallenge
from models.i18n import Msg
from scoring.base import Engine, Event, Expectation, Outcome, RuleViolation, event, rank_by

ANIMALS: tuple[str, ...] = tuple(BC_ANIMAL_VALUES)  # cheapest first
VALUES: Mapping[str, int] = BC_ANIMAL_VALUES
COPIES = 4  # cards of each animal
MONEY_VALUES: tuple[int, ...] = BC_MONEY
SUPPLY: Mapping[int, int] = {0: 10, 10: 20, 50: 10, 100: 5, 200: 5, 500: 5}  # all the money in the game
START_MONEY: tuple[int, ...] = (0, 0, 10, 10, 10, 10, 50)
DONKEY_MONEY: tuple[int, ...] = (50, 100, 200, 500)  # paid to every player by the 1st … 4th donkey

# Every id the engine refuses with …
REFUSALS: tuple[str, ...] = tuple(r.id for r in BOURSICOCOTTE.rule_specs if r.refusal)
# … and the rules it applies without refusing anything, rulings included, for the rules reference.
APPLIED_RULES: tuple[str, ...] = tuple(r.id for r in BOURSICOCOTTE.rule_specs if not r.refusal)

_TURN_PROMPTS: dict[tuple[str, ...], str] = {("draw",): "bc.prompt.draw", ("challenge",): "bc.prompt.challenge"}
_ANIMAL_MSGS: dict[str, Msg] = {a: Msg(f"bc.animal.{a}") for a in ANIMALS}


_SILENT: tuple[Event, ...] = ()  # what a quiet engine's frequent actions return

def animal(name: str) -> Msg:
    return _ANIMAL_MSGS[name]


def _cards(money: Mapping[int, int]) -> list[int]:
    return [value for value in MONEY_VALUES for _ in range(money.get(value, 0))]


def _total(money: Mapping[int, int]) -> int:
    return sum(value * count for value, count in money.items())


def can_pay_exactly(money: Mapping[int, int], amount: int) -> bool:
    """Whether some of these money cards (``{value: count}``) add up to exactly ``amount``."""
    reachable = {0}
    for value, count in money.items():
        if value <= 0:
            continue
        for _ in range(count):
            reachable |= {r + value for r in reachable if r + value <= amount}
        if amount in reachable:
            return True
    return amount in reachable


# -- the state ------------------------------------------------------------------------------------

class Phase(StrEnum):
    """What is awaited. A StrEnum: ``player_view()["phase"] == "auction"`` keeps working."""

    TURN = "turn"                          # the player whose turn it is draws or challenges
    AUCTION = "auction"                    # bids, then the auctioneer closes
    PAYMENT = "payment"                    # the debtor pays, or shows that their money falls short
    TRADE_ANSWER = "trade_answer"          # the challenged player accepts or counters
    SECOND_CHALLENGE = "second_challenge"  # after a first tie the challenger offers again
    OVER = "over"


@dataclass(slots=True)
class Auction:
    animal: str
    auctioneer: str
    bids: list[tuple[str, int]] = field(default_factory=list)  # in order; the last is the highest
    excluded: list[str] = field(default_factory=list)  # bidders who could not pay for this animal
    buy_back_lost: bool = False

    @property
    def highest(self) -> tuple[str, int] | None:
        return self.bids[-1] if self.bids else None


@dataclass(slots=True, frozen=True)
class Debt:
    payer: str
    recipient: str
    amount: int
    buy_back: bool  # True: the auctioneer pays and keeps the animal


@dataclass(slots=True)
class Trade:
    challenger: str
    target: str
    animal: str
    offer: list[int]  # face down on the table, out of the challenger's money
    moves: int  # animals that change hands: 2 if both own exactly two, else 1
    ties: int = 0


# One stage per phase, holding exactly what that phase needs.
@dataclass(slots=True, frozen=True)
class TurnStage:
    player: str
    phase: ClassVar[Phase] = Phase.TURN


@dataclass(slots=True, frozen=True)
class AuctionStage:
    auction: Auction
    phase: ClassVar[Phase] = Phase.AUCTION


@dataclass(slots=True, frozen=True)
class PaymentStage:
    auction: Auction
    debt: Debt
    phase: ClassVar[Phase] = Phase.PAYMENT


@dataclass(slots=True, frozen=True)
class AnswerStage:
    trade: Trade
    phase: ClassVar[Phase] = Phase.TRADE_ANSWER


@dataclass(slots=True, frozen=True)
class RechallengeStage:
    trade: Trade
    phase: ClassVar[Phase] = Phase.SECOND_CHALLENGE


@dataclass(slots=True, frozen=True)
class OverStage:
    blocked: bool  # ended because nobody able to trade held money
    phase: ClassVar[Phase] = Phase.OVER


Stage = TurnStage | AuctionStage | PaymentStage | AnswerStage | RechallengeStage | OverStage


@dataclass(slots=True)
class BoursicocotteState:
    stage: Stage
    bank: dict[int, int]  # money cards left in the bank, by value
    money: dict[str, dict[int, int]]  # player -> {money card: count}
    animals: dict[str, dict[str, int]]  # player -> {animal: count}
    deck: dict[str, int]  # animal -> cards left to draw
    deck_count: int
    donkeys: int = 0  # donkeys that have paid out (dealt ones included)
    setup: tuple[Event, ...] = ()  # the short version's deal (donkey money)
    last_trade: tuple[Event, ...] = ()
    last_trade_detail: dict[str, Any] | None = None  # the last trade's cards, for the two traders only


class AuctionView(TypedDict):
    animal: str
    auctioneer: str
    bids: list[tuple[str, int]]
    highest: int | None
    bidder: str | None
    excluded: list[str]
    buy_back_lost: bool


class DebtView(TypedDict):
    payer: str
    recipient: str
    amount: int
    animal: str
    buy_back: bool


class TradeView(TypedDict):
    challenger: str
    target: str
    animal: str
    cards_offered: int
    animals_at_stake: int
    ties: int


class PlayerView(TypedDict):
    """What ``player_view()`` returns (each key is described on :class:`BoursicocotteEngine`)."""

    turn: str | None
    phase: Phase
    auction: AuctionView | None
    debt: DebtView | None
    trade: TradeView | None
    animals: dict[str, dict[str, int]]
    money: dict[str, list[int]]
    money_total: dict[str, int]
    deck: dict[str, int]
    deck_count: int
    donkeys_drawn: int
    next_donkey_money: int | None
    bank: dict[int, int]
    last_trade: tuple[Event, ...]
    last_trade_detail: dict[str, Any] | None
    complete_sets: dict[str, list[str]]
    scores: dict[str, int]
    setup: tuple[Event, ...]
    blocked: bool


class BoursicocotteEngine(Engine[BCAction]):
    """Referee of Boursicocotte.

    The whole state is ``state`` (:class:`BoursicocotteState`). ``player_view()`` — the public,
    read-only state for the table screen (the UI decides who may see each player's money):

    - ``turn``: whose turn it is (the auctioneer or challenger while an auction or trade runs);
      ``None`` once the game is over.
    - ``phase``: :class:`Phase`, a string enum: ``"turn"`` (draw or challenge), ``"auction"`` (bids,
      then ``close``), ``"payment"`` (``pay`` or ``cannot_pay``), ``"trade_answer"`` (``accept`` or
      ``counter``), ``"second_challenge"`` (after a first tie the challenger offers again), ``"over"``.
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
    - ``last_trade``: the last trade's outcome as Events (amounts are not in them: offers are
      secret), until the next turn's first entry (a draw or a challenge); ``last_trade_detail``: ``None`` or ``{"offer": [...], "counter": [...]|None}``,
      for the two traders' eyes only.
    - ``complete_sets``: ``{player: [animals]}``; ``scores``: ``{player: score so far}``.
    - ``setup``: Events about the short version's deal (donkey money); ``blocked``: the game ended
      because nobody able to trade held money.

    Also as attributes: ``phase``, ``turn``, ``auction`` / ``debt`` / ``trade`` (the running ones, or
    None), ``money``, ``animals``, ``deck``, ``bank``, ``donkeys``, ``setup``, ``last_trade``,
    ``last_trade_detail``, ``blocked``; and ``trade_options(player)``, ``can_trade(player)``,
    ``complete_sets(player)``, ``score(player)``, ``deck_count()``, ``bidders()``.
    """

    games = ("boursicocotte",)
    spec = BOURSICOCOTTE  # its rule specs, variants and excluded readings (Engine reads them from it)

    def replay_note(self, rule: str | None = None) -> Msg | None:
        """Why a game saved while overpaying was accepted anyway no longer replays: the rulebook's
        exact payment (``payment: exact``) became the default (None for any other refusal)."""
        if rule != "BC-OVERPAY" or self.payment != "exact":
            return None
        return Msg("bc.replay.overpay")

    def __init__(self, record: Any):
        super().__init__(record)
        variant = getattr(record, "variant", None)
        self.trade_tie: str = getattr(variant, "trade_tie", None) or "exchanged"
        if self.trade_tie not in ("exchanged", "returned"):
            raise ValueError(f"unknown trade_tie {self.trade_tie!r}")
        # "exact": a payer whose cards make the exact amount must pay it; "any": more is allowed anyway
        self.payment: str = getattr(variant, "payment", None) or "exact"
        if self.payment not in ("exact", "any"):
            raise ValueError(f"unknown payment {self.payment!r}")
        self.state = state = BoursicocotteState(
            stage=TurnStage(self.first_player),
            bank=dict(SUPPLY),
            money={p: {v: 0 for v in MONEY_VALUES} for p in self.players},
            animals={p: {a: 0 for a in ANIMALS} for p in self.players},
            deck={a: COPIES for a in ANIMALS},
            deck_count=COPIES * len(ANIMALS),
        )
        for player in self.players:
            for card in START_MONEY:
                self._from_bank(player, card)
        start = getattr(record, "start_animals", None)
        if start:
            setup = [event((), "bc.setup.dealt", count=sum(len(v) for v in start.values()))]
            for player in self.players:
                for dealt in start.get(player, ()):
                    state.deck[dealt] -= 1
                    state.deck_count -= 1
                    state.animals[player][dealt] += 1
            for _ in range(sum(1 for cards in start.values() for a in cards if a == "donkey")):
                setup.append(self._donkey_money())
            state.setup = tuple(setup)
        n = len(self.players)
        self._left: dict[str, str] = {p: self.players[(i + 1) % n] for i, p in enumerate(self.players)}

    # -- public read-only state -----------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.stage.phase

    @property
    def turn(self) -> str | None:
        stage = self.state.stage
        if isinstance(stage, TurnStage):
            return stage.player
        if isinstance(stage, (AuctionStage, PaymentStage)):
            return stage.auction.auctioneer
        if isinstance(stage, (AnswerStage, RechallengeStage)):
            return stage.trade.challenger
        return None

    @property
    def auction(self) -> Auction | None:
        stage = self.state.stage
        return stage.auction if isinstance(stage, (AuctionStage, PaymentStage)) else None

    @property
    def debt(self) -> Debt | None:
        stage = self.state.stage
        return stage.debt if isinstance(stage, PaymentStage) else None

    @property
    def trade(self) -> Trade | None:
        stage = self.state.stage
        return stage.trade if isinstance(stage, (AnswerStage, RechallengeStage)) else None

    @property
    def blocked(self) -> bool:
        stage = self.state.stage
        return isinstance(stage, OverStage) and stage.blocked

    @property
    def finished(self) -> bool:
        return isinstance(self.state.stage, OverStage)

    @property
    def money(self) -> dict[str, dict[int, int]]:
        return self.state.money

    @property
    def animals(self) -> dict[str, dict[str, int]]:
        return self.state.animals

    @property
    def deck(self) -> dict[str, int]:
        return self.state.deck

    @property
    def bank(self) -> dict[int, int]:
        return self.state.bank

    @property
    def donkeys(self) -> int:
        return self.state.donkeys

    @property
    def setup(self) -> tuple[Event, ...]:
        return self.state.setup

    @property
    def last_trade(self) -> tuple[Event, ...]:
        return self.state.last_trade

    @property
    def last_trade_detail(self) -> dict[str, Any] | None:
        return self.state.last_trade_detail

    def complete_sets(self, player: str) -> list[str]:
        owned = self.state.animals[player]
        return [a for a in ANIMALS if owned[a] == COPIES]

    def score(self, player: str) -> int:
        sets = self.complete_sets(player)
        return sum(VALUES[a] for a in sets) * len(sets)

    def deck_count(self) -> int:
        return self.state.deck_count

    def can_trade(self, player: str) -> bool:
        """Owns an animal outside a complete set (then someone else owns that kind too, or will)
        and another player owns that kind."""
        return bool(self.trade_options(player))

    def trade_options(self, player: str) -> list[tuple[str, str]]:
        """(target, animal) pairs the player may challenge over."""
        animals = self.state.animals
        mine = animals[player]
        options = []
        for kind in ANIMALS:
            if mine[kind] == 0:
                continue
            for other in self.players:
                if other != player and 0 < animals[other][kind] < COPIES:
                    options.append((other, kind))
        return options

    def _has_money(self, player: str) -> bool:
        return any(self.state.money[player].values())

    def bidders(self) -> tuple[str, ...]:
        """Who may bid in the running auction, in seat order (not the auctioneer, not a bidder who
        could not pay for this animal, not a player without money)."""
        stage = self.state.stage
        if not isinstance(stage, AuctionStage):
            return ()
        a = stage.auction
        return tuple(p for p in self.players
                     if p != a.auctioneer and p not in a.excluded and self._has_money(p))

    # -- the contract: check --------------------------------------------------------------------

    def _check(self, action: BCAction) -> None:
        stage = self.state.stage
        if isinstance(stage, OverStage):
            raise RuleViolation("BC-OVER", "bc.err.over")
        if isinstance(stage, TurnStage):
            if action.type == "draw":
                return self._check_draw(action.card)
            if action.type == "challenge":
                if action.player != stage.player:
                    raise RuleViolation("BC-TURN", "bc.err.turn", player=action.player, turn=stage.player)
                return self._check_challenge(action)
        elif isinstance(stage, AuctionStage):
            if action.type == "bid":
                return self._check_bid(stage.auction, action.player, action.amount)
            if action.type == "close":
                a = stage.auction
                if action.buy_back:
                    if a.highest is None:
                        raise RuleViolation("BC-CLOSE-NO-BID", "bc.err.close_no_bid", auctioneer=a.auctioneer,
                                            animal=animal(a.animal))
                    if a.buy_back_lost:
                        raise RuleViolation("BC-BUYBACK-LOST", "bc.err.buy_back_lost", auctioneer=a.auctioneer,
                                            animal=animal(a.animal))
                return None
        elif isinstance(stage, PaymentStage):
            if action.type == "pay":
                d = self._payer(stage.debt, action.player)
                cards = action.cards
                self._check_cards(d.payer, cards)
                total: int = sum(cards)
                if total < d.amount:
                    raise RuleViolation("BC-PAY-SHORT", "bc.err.pay_short", player=d.payer, total=total,
                                        amount=d.amount)
                if total > d.amount and self.payment == "exact" and can_pay_exactly(self.state.money[d.payer],
                                                                                      d.amount):
                    # (the sentence quotes the payer's money: the screen shows it in their private view only)
                    raise RuleViolation("BC-OVERPAY", "bc.err.overpay", player=d.payer, total=total,
                                        amount=d.amount)
                return None
            if action.type == "cannot_pay":
                d = self._payer(stage.debt, action.player)
                total = _total(self.state.money[d.payer])
                if total >= d.amount:
                    raise RuleViolation("BC-CAN-PAY", "bc.err.can_pay", player=d.payer, total=total,
                                        amount=d.amount)
                return None
        elif isinstance(stage, AnswerStage):
            if action.type == "accept":
                self._answerer(stage.trade, action.player)
                return None
            if action.type == "counter":
                t = self._answerer(stage.trade, action.player)
                self._check_offer(t.target, action.cards)
                return None
        elif isinstance(stage, RechallengeStage):
            if action.type == "challenge":
                t = stage.trade
                if (action.player, action.target, action.animal) != (t.challenger, t.target, t.animal):
                    self._rechallenge_refused(t)
                return self._check_challenge(action)
        self._wrong_moment(stage, action.type)

    def _wrong_moment(self, stage: Stage, kind: str) -> None:
        """Refuse an action type that does not fit the current phase, saying what is awaited."""
        if isinstance(stage, PaymentStage):
            d = stage.debt
            raise RuleViolation("BC-PAYMENT-DUE", "bc.err.payment_due", payer=d.payer, amount=d.amount,
                                recipient=d.recipient)
        if isinstance(stage, AnswerStage):
            t = stage.trade
            raise RuleViolation("BC-TRADE-OPEN", "bc.err.trade_open", target=t.target,
                                challenger=t.challenger, animal=animal(t.animal))
        if isinstance(stage, RechallengeStage):
            self._rechallenge_refused(stage.trade)
        if kind in ("bid", "close"):
            raise RuleViolation("BC-NO-AUCTION", "bc.err.no_auction")
        if kind in ("pay", "cannot_pay"):
            if isinstance(stage, AuctionStage):
                raise RuleViolation("BC-NO-DEBT", "bc.err.no_debt_yet", animal=animal(stage.auction.animal))
            raise RuleViolation("BC-NO-DEBT", "bc.err.no_debt")
        if kind in ("accept", "counter"):
            raise RuleViolation("BC-NO-TRADE", "bc.err.no_trade")
        if isinstance(stage, AuctionStage):  # draw or challenge while an auction runs
            a = stage.auction
            raise RuleViolation("BC-AUCTION-OPEN", "bc.err.auction_open", animal=animal(a.animal),
                                auctioneer=a.auctioneer)
        raise ValueError(f"not a Boursicocotte action: {kind!r}")

    def _check_draw(self, card: str) -> None:
        if self.state.deck_count == 0:
            raise RuleViolation("BC-DECK-EMPTY", "bc.err.deck_empty", animal=animal(card))
        if self.state.deck[card] == 0:
            raise RuleViolation("BC-DRAW-GONE", "bc.err.draw_gone", animal=animal(card))

    def _check_bid(self, a: Auction, player: str, amount: int) -> None:
        if player == a.auctioneer:
            raise RuleViolation("BC-BID-AUCTIONEER", "bc.err.bid_auctioneer", player=player, animal=animal(a.animal))
        if player in a.excluded:
            raise RuleViolation("BC-BID-EXCLUDED", "bc.err.bid_excluded", player=player, animal=animal(a.animal))
        if not self._has_money(player):
            raise RuleViolation("BC-NO-MONEY", "bc.err.no_money_bid", player=player, animal=animal(a.animal))
        if amount <= 0:
            raise RuleViolation("BC-BID-POSITIVE", "bc.err.bid_positive", player=player, amount=amount)
        highest = a.highest
        if highest is not None and amount <= highest[1]:
            raise RuleViolation("BC-BID-RAISE", "bc.err.bid_raise", player=player, amount=amount,
                                highest=highest[1], bidder=highest[0])

    def _check_cards(self, player: str, cards: Sequence[int]) -> None:
        """Refuse, naming the missing ones, unless the player holds all these money cards."""
        have = self.state.money[player]
        want = Counter(cards)
        if all(have[v] >= n for v, n in want.items()):
            return
        missing = [v for v in MONEY_VALUES for _ in range(max(0, want[v] - have[v]))]
        raise RuleViolation("BC-CARDS-MISSING", "bc.err.cards_missing", player=player,
                            missing=missing, cards=sorted(cards))

    def _check_offer(self, player: str, cards: Sequence[int]) -> None:
        if not self._has_money(player):
            raise RuleViolation("BC-NO-MONEY", "bc.err.no_money_offer", player=player)
        if not cards:
            raise RuleViolation("BC-OFFER-EMPTY", "bc.err.offer_empty", player=player)
        self._check_cards(player, cards)

    def _check_challenge(self, action: BCChallenge) -> None:
        player, target, kind = action.player, action.target, action.animal
        animals = self.state.animals
        if target == player:
            raise RuleViolation("BC-CHALLENGE-SELF", "bc.err.challenge_self", player=player)
        if animals[target][kind] == COPIES:
            raise RuleViolation("BC-CHALLENGE-COMPLETE", "bc.err.challenge_complete", target=target,
                                animal=animal(kind))
        if animals[player][kind] == 0:
            raise RuleViolation("BC-CHALLENGE-OWN", "bc.err.challenge_own", player=player, animal=animal(kind))
        if animals[target][kind] == 0:
            raise RuleViolation("BC-CHALLENGE-TARGET", "bc.err.challenge_target", target=target,
                                animal=animal(kind))
        self._check_offer(player, action.cards)

    def _payer(self, d: Debt, player: str) -> Debt:
        if player != d.payer:
            raise RuleViolation("BC-PAYER", "bc.err.payer", player=player, payer=d.payer, amount=d.amount,
                                recipient=d.recipient)
        return d

    def _answerer(self, t: Trade, player: str) -> Trade:
        if player != t.target:
            raise RuleViolation("BC-ANSWER", "bc.err.answer", player=player, target=t.target,
                                challenger=t.challenger)
        return t

    def _rechallenge_refused(self, t: Trade) -> None:
        raise RuleViolation("BC-RECHALLENGE", "bc.err.rechallenge", challenger=t.challenger, target=t.target,
                            animal=animal(t.animal))

    # -- the contract: perform ------------------------------------------------------------------

    def _perform(self, action: BCAction) -> list[Event] | tuple[Event, ...]:
        stage = self.state.stage
        if action.type == "bid":
            assert isinstance(stage, AuctionStage)
            stage.auction.bids.append((action.player, action.amount))
            if self.quiet:  # the verdict's fold: the same changes, no sentence for the frequent actions
                return _SILENT
            return [event((), "bc.bid", player=action.player, amount=action.amount,
                          animal=animal(stage.auction.animal))]
        if action.type == "draw":
            assert isinstance(stage, TurnStage)
            self._new_turn()
            return self._draw(stage.player, action.card)
        if action.type == "close":
            assert isinstance(stage, AuctionStage)
            return self._close(stage.auction, action.buy_back)
        if action.type == "pay":
            assert isinstance(stage, PaymentStage)
            return self._pay(stage.auction, stage.debt, action.cards)
        if action.type == "cannot_pay":
            assert isinstance(stage, PaymentStage)
            return self._cannot_pay(stage.auction, stage.debt)
        if action.type == "challenge":
            assert isinstance(stage, (TurnStage, RechallengeStage))
            if isinstance(stage, TurnStage):
                self._new_turn()
            return self._challenge(action, stage.trade.ties if isinstance(stage, RechallengeStage) else 0)
        assert isinstance(stage, AnswerStage)
        if action.type == "accept":
            return self._accept(stage.trade)
        return self._counter(stage.trade, action.cards)

    def _new_turn(self) -> None:
        """A turn's first entry: the last trade was the turn before's, and its panel goes."""
        self.state.last_trade = ()
        self.state.last_trade_detail = None

    # money and animals

    def _from_bank(self, player: str, card: int) -> None:
        bank = self.state.bank
        if bank[card] <= 0:  # the supply covers 5 players' start and all four donkeys
            raise AssertionError(f"the bank has no {card} left")
        bank[card] -= 1
        self.state.money[player][card] += 1

    def _donkey_money(self) -> Event:
        state = self.state
        amount = DONKEY_MONEY[state.donkeys]
        state.donkeys += 1
        for player in self.players:
            self._from_bank(player, amount)
        return event("BC-DONKEY", "bc.donkey_money", n=state.donkeys, amount=amount)

    def _take_cards(self, player: str, cards: Iterable[int]) -> None:
        have = self.state.money[player]
        for value in cards:
            have[value] -= 1

    def _give_cards(self, player: str, cards: Iterable[int]) -> None:
        have = self.state.money[player]
        for value in cards:
            have[value] += 1

    def _move_animals(self, giver: str, taker: str, kind: str, count: int) -> None:
        animals = self.state.animals
        animals[giver][kind] -= count
        animals[taker][kind] += count

    # turn: draw

    def _draw(self, player: str, card: str) -> list[Event] | tuple[Event, ...]:
        state = self.state
        state.deck[card] -= 1
        state.deck_count -= 1
        if card == "donkey":
            money = self._donkey_money()
        state.stage = AuctionStage(Auction(card, player))
        if self.quiet:
            return _SILENT
        events = [event((), "bc.drawn", player=player, animal=animal(card))]
        if card == "donkey":
            events.append(money)
        return events

    # auction and payment

    def _close(self, a: Auction, buy_back: bool) -> list[Event]:
        highest = a.highest
        if highest is None:
            self.state.animals[a.auctioneer][a.animal] += 1
            if self.quiet:
                return self._pass_turn(a.auctioneer)
            events = [event("BC-CLOSE-NO-BID", "bc.free", player=a.auctioneer, animal=animal(a.animal))]
            return events + self._pass_turn(a.auctioneer)
        bidder, amount = highest
        if self.quiet:
            self.state.stage = PaymentStage(a, Debt(a.auctioneer, bidder, amount, True) if buy_back
                                            else Debt(bidder, a.auctioneer, amount, False))
            return []
        if buy_back:
            debt = Debt(a.auctioneer, bidder, amount, True)
            done = event("BC-PAYER", "bc.buy_back", auctioneer=a.auctioneer, animal=animal(a.animal),
                         amount=amount, bidder=bidder)
        else:
            debt = Debt(bidder, a.auctioneer, amount, False)
            done = event("BC-PAYER", "bc.sold", bidder=bidder, animal=animal(a.animal), amount=amount,
                         auctioneer=a.auctioneer)
        self.state.stage = PaymentStage(a, debt)
        return [done]

    def _pay(self, a: Auction, d: Debt, cards: Sequence[int]) -> list[Event]:
        total = sum(cards)
        self._take_cards(d.payer, cards)
        self._give_cards(d.recipient, cards)
        owner = a.auctioneer if d.buy_back else d.payer
        self.state.animals[owner][a.animal] += 1
        if self.quiet:
            return self._pass_turn(a.auctioneer)
        if total == d.amount:
            paid = event("BC-PAYER", "bc.paid", payer=d.payer, cards=sorted(cards), recipient=d.recipient,
                         total=total, amount=d.amount)
        else:
            paid = event(("BC-PAY-SHORT", "BC-OVERPAY"), "bc.paid_over", payer=d.payer, cards=sorted(cards), recipient=d.recipient,
                         total=total, amount=d.amount)
        events = [paid, event("BC-PAYER", "bc.gets", player=owner, animal=animal(a.animal))]
        return events + self._pass_turn(a.auctioneer)

    def _cannot_pay(self, a: Auction, d: Debt) -> list[Event]:
        total = _total(self.state.money[d.payer])
        if d.buy_back:
            a.buy_back_lost = True
            done = event(("BC-CAN-PAY", "BC-BUYBACK-LOST"), "bc.cannot_pay_auctioneer", player=d.payer,
                         total=total, amount=d.amount, animal=animal(a.animal))
        else:
            a.excluded.append(d.payer)
            done = event(("BC-CAN-PAY", "BC-BID-EXCLUDED"), "bc.cannot_pay_bidder", player=d.payer,
                         total=total, amount=d.amount, animal=animal(a.animal))
        a.bids.clear()
        self.state.stage = AuctionStage(a)
        return [done]

    # trades

    def _challenge(self, action: BCChallenge, ties: int) -> list[Event]:
        player, target, kind = action.player, action.target, action.animal
        cards: list[int] = list(action.cards)
        self._take_cards(player, cards)
        animals = self.state.animals
        moves = 2 if animals[player][kind] == 2 and animals[target][kind] == 2 else 1
        self.state.stage = AnswerStage(Trade(player, target, kind, cards, moves, ties))
        if self.quiet:
            return []
        if ties:
            return [event("BC-TRADE-TIE", "bc.challenge_again", player=player, target=target, animal=animal(kind),
                          n=len(cards), moves=moves)]
        return [event("BC-CHALLENGE-TARGET", "bc.challenge", player=player, target=target, animal=animal(kind),
                      n=len(cards), moves=moves)]

    def _accept(self, t: Trade) -> list[Event]:
        state = self.state
        self._give_cards(t.target, t.offer)
        self._move_animals(t.target, t.challenger, t.animal, t.moves)
        state.last_trade = (event("BC-TRADE", "bc.accepted", target=t.target, challenger=t.challenger,
                                  n=len(t.offer), moves=t.moves, animal=animal(t.animal)),)
        state.last_trade_detail = {"offer": sorted(t.offer), "counter": None}
        return list(state.last_trade) + self._pass_turn(t.challenger)

    def _counter(self, t: Trade, cards: Sequence[int]) -> list[Event]:
        state = self.state
        counter = list(cards)
        self._take_cards(t.target, counter)
        offered, countered = sum(t.offer), sum(counter)
        tie = offered == countered
        state.last_trade_detail = {"offer": sorted(t.offer), "counter": sorted(counter)}
        if tie and self.trade_tie == "returned":
            self._give_cards(t.challenger, t.offer)
            self._give_cards(t.target, counter)
            money = event("BC-TRADE-TIE", "bc.trade_returned", challenger=t.challenger, target=t.target)
        else:
            self._give_cards(t.challenger, counter)
            self._give_cards(t.target, t.offer)
            money = event(("BC-TRADE", "BC-TRADE-TIE") if tie else "BC-TRADE", "bc.trade_exchanged",
                          challenger=t.challenger, target=t.target, to_challenger=len(counter),
                          to_target=len(t.offer))
        args = {"challenger": t.challenger, "target": t.target, "moves": t.moves, "animal": animal(t.animal)}
        if tie and t.ties == 0:
            t.ties = 1
            state.stage = RechallengeStage(t)
            state.last_trade = (money, event("BC-TRADE-TIE", "bc.trade_tie", **args))
            return list(state.last_trade)
        if tie:
            self._move_animals(t.target, t.challenger, t.animal, t.moves)
            result = event("BC-TRADE-TIE", "bc.trade_second_tie", **args)
        elif offered > countered:
            self._move_animals(t.target, t.challenger, t.animal, t.moves)
            result = event("BC-TRADE", "bc.trade_challenger_wins", **args)
        else:
            self._move_animals(t.challenger, t.target, t.animal, t.moves)
            result = event("BC-TRADE", "bc.trade_target_wins", **args)
        state.last_trade = (money, result)
        return list(state.last_trade) + self._pass_turn(t.challenger)

    # turn order and the end

    def _all_complete(self) -> bool:
        return self.state.deck_count == 0 and all(
            count in (0, COPIES) for owned in self.state.animals.values() for count in owned.values())

    def _pass_turn(self, after: str) -> list[Event]:
        """The turn goes to the left of ``after``; with the deck empty, players who cannot trade
        are skipped, and the game ends when nobody can."""
        state = self.state
        if self._all_complete():
            state.stage = OverStage(False)
            return [event("BC-END", "bc.over")]
        candidate = self._left[after]
        if state.deck_count > 0:
            state.stage = TurnStage(candidate)
            return [] if self.quiet else [event("BC-TURN", "bc.turn", player=candidate)]
        skipped: list[str] = []
        for _ in self.players:
            if self._has_money(candidate) and self.can_trade(candidate):
                state.stage = TurnStage(candidate)
                events = [event("BC-DECK-EMPTY", "bc.turn_trade", player=candidate)]
                if skipped:
                    events.insert(0, event("BC-SKIP", "bc.skipped", players=skipped))
                return events
            skipped.append(candidate)
            candidate = self._left[candidate]
        state.stage = OverStage(True)
        return [event("BC-END", "bc.over_blocked")]

    # -- what is awaited, and the end -----------------------------------------------------------

    def expected(self) -> Expectation:
        stage = self.state.stage
        if isinstance(stage, OverStage):
            return Expectation((), (), Msg("bc.prompt.over"))
        if isinstance(stage, TurnStage):
            player = stage.player
            types: tuple[str, ...] = ()
            if self.state.deck_count > 0:
                types += ("draw",)
            if self._has_money(player) and self.can_trade(player):
                types += ("challenge",)
            key = _TURN_PROMPTS.get(types, "bc.prompt.turn")
            return Expectation((player,), types, Msg(key, {"player": player}))
        if isinstance(stage, AuctionStage):
            a = stage.auction
            bidders = self.bidders()
            types = ("bid", "close") if bidders else ("close",)
            highest = a.highest
            if highest is None:
                prompt = Msg("bc.prompt.auction_open", {"animal": animal(a.animal), "auctioneer": a.auctioneer})
            else:
                prompt = Msg("bc.prompt.auction", {"animal": animal(a.animal), "auctioneer": a.auctioneer,
                                                   "bidder": highest[0], "amount": highest[1]})
            return Expectation(bidders + (a.auctioneer,), types, prompt)
        if isinstance(stage, PaymentStage):
            d = stage.debt
            return Expectation((d.payer,), ("pay", "cannot_pay"),
                               Msg("bc.prompt.pay", {"payer": d.payer, "amount": d.amount, "recipient": d.recipient}))
        t = stage.trade
        if isinstance(stage, AnswerStage):
            types = ("accept", "counter") if self._has_money(t.target) else ("accept",)
            return Expectation((t.target,), types,
                               Msg("bc.prompt.answer", {"target": t.target, "challenger": t.challenger,
                                                        "animal": animal(t.animal), "moves": t.moves}))
        return Expectation((t.challenger,), ("challenge",),
                           Msg("bc.prompt.rechallenge", {"challenger": t.challenger, "target": t.target,
                                                         "animal": animal(t.animal)}))

    def outcome(self) -> Outcome | None:
        stage = self.state.stage
        if not isinstance(stage, OverStage):
            return None
        scores = {p: self.score(p) for p in self.players}
        best = max(scores.values())
        winners = tuple(p for p in self.players if scores[p] == best)
        return Outcome(scores=scores, eliminated=(), winners=winners, replay_required=False,
                       ranking=rank_by(self.players, scores),
                       explanation=partial(self._explain, stage.blocked, scores, winners))

    def _explain(self, blocked: bool, scores: Mapping[str, int], winners: tuple[str, ...]) -> list[Event]:
        """The outcome's sentences (built when read): why it ended, each player's sets, who won."""
        explanation: list[Event] = []
        if blocked:
            explanation.append(event("BC-END", "bc.explain.blocked"))
        for p in self.players:
            sets = self.complete_sets(p)
            if not sets:
                explanation.append(event("BC-SCORE", "bc.explain.no_set", player=p))
                continue
            parts = [Msg("bc.explain.set", {"animal": animal(a), "value": VALUES[a]}) for a in sets]
            explanation.append(event("BC-SCORE", "bc.explain.sets", player=p, sets=parts,
                                     sum=sum(VALUES[a] for a in sets), count=len(sets), score=scores[p]))
        best = scores[winners[0]]
        if len(winners) == 1:
            explanation.append(event("BC-SCORE", "bc.explain.winner", player=winners[0], score=best))
        else:
            explanation.append(event("BC-SCORE", "bc.explain.shared", players=list(winners), score=best))
        return explanation

    def player_view(self, assist: bool = False) -> PlayerView:
        state = self.state
        a, d, t = self.auction, self.debt, self.trade
        highest = a.highest if a is not None else None
        return {
            "turn": self.turn,
            "phase": self.phase,
            "auction": None if a is None else {
                "animal": a.animal, "auctioneer": a.auctioneer, "bids": list(a.bids),
                "highest": highest[1] if highest else None, "bidder": highest[0] if highest else None,
                "excluded": list(a.excluded), "buy_back_lost": a.buy_back_lost,
            },
            "debt": None if d is None or a is None else {
                "payer": d.payer, "recipient": d.recipient, "amount": d.amount, "animal": a.animal,
                "buy_back": d.buy_back,
            },
            "trade": None if t is None else {
                "challenger": t.challenger, "target": t.target, "animal": t.animal,
                "cards_offered": len(t.offer) if self.phase is Phase.TRADE_ANSWER else 0,
                "animals_at_stake": t.moves, "ties": t.ties,
            },
            "animals": {p: {k: n for k, n in state.animals[p].items() if n} for p in self.players},
            "money": {p: _cards(state.money[p]) for p in self.players},
            "money_total": {p: _total(state.money[p]) for p in self.players},
            "deck": dict(state.deck),
            "deck_count": state.deck_count,
            "donkeys_drawn": state.donkeys,
            "next_donkey_money": DONKEY_MONEY[state.donkeys] if state.donkeys < len(DONKEY_MONEY) else None,
            "bank": dict(state.bank),
            "last_trade": state.last_trade,
            "last_trade_detail": state.last_trade_detail,
            "complete_sets": {p: self.complete_sets(p) for p in self.players},
            "scores": {p: self.score(p) for p in self.players},
            "setup": state.setup,
            "blocked": self.blocked,
        }
