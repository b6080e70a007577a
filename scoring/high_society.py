"""High Society and Animalement Vôtre: one referee, two editions (§4.1 of the table-record spec).

The table turns over status cards one by one and auctions them with money cards. The engine knows
whose turn it is, checks every bid against the hand it comes from, settles each round (positive
card: the last bidder left buys it; misfortune: the first to pass takes it), applies the theft,
stops at the fourth red card and computes exact end scores, the poorest players and the tie-breaks.

``_check`` validates an action completely against :class:`HighSocietyState`; ``_perform`` then
changes it. Nothing grows per action except the list of revealed cards (appended to, never copied).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, ClassVar, Mapping, Sequence

from models.games.high_society import HIGH_SOCIETY
from models.games.high_society_structs import HSAction
from models.i18n import Msg, msg
from scoring.base import Engine, Event, Expectation, Outcome, RuleViolation, Score, event

MONEY: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
MONEY_TOTAL = sum(MONEY)  # 106 per player

POSSESSIONS: tuple[str, ...] = tuple(f"p{n}" for n in range(1, 11))
_POSSESSION_SET = frozenset(POSSESSIONS)
STATUS_DECK: Mapping[str, int] = {**{p: 1 for p in POSSESSIONS}, "x2": 3, "half": 1, "minus5": 1, "theft": 1}
CARD_ORDER: tuple[str, ...] = POSSESSIONS + ("x2", "half", "minus5", "theft")
RED = frozenset({"x2", "half"})  # red-bordered (High Society) / light-blue (Animalement Vôtre)
MISFORTUNE = frozenset({"minus5", "half", "theft"})  # auctioned backwards: the first to pass takes it
REDS_TO_END = 4

FINAL_TIE_DEFAULT = {"high-society": "replay", "animalement-votre": "shared"}

# The edition whose waiting theft (« malade comme un chien ») takes the next animal card bought,
# whatever it is (a ×2 animal too); High Society's waits for the next possession.
THEFT_TAKES_ANY_BOUGHT = frozenset({"animalement-votre"})


_POSSESSION_VALUE: Mapping[str, int] = {p: int(p[1:]) for p in POSSESSIONS}


def possession_value(card: str) -> int:
    return _POSSESSION_VALUE.get(card, 0)


def _num(value: int | Fraction) -> int | Fraction:
    # (a type test, not isinstance: Fraction's ABC makes isinstance slow, and outcome() calls this often)
    if type(value) is Fraction and value.denominator == 1:
        return value.numerator
    return value


_SILENT: tuple[Event, ...] = ()  # what a quiet engine's frequent actions return

# The two sentences every round repeats (events are immutable values: built once per player)
@lru_cache(maxsize=1024)
def _passes(player: str) -> Event:
    return event((), "hs.event.pass", player=player)


@lru_cache(maxsize=1024)
def _reveals_next(player: str) -> Event:
    return event("HS-AUCTION", "hs.event.next", player=player)


@lru_cache(maxsize=256)
def _clockwise(players: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    """Each player's opponents, clockwise from their left (shared by every game at that table;
    never mutate it)."""
    n = len(players)
    return {p: tuple(players[(i + k) % n] for k in range(1, n)) for i, p in enumerate(players)}


@lru_cache(maxsize=None)
def _card_labels(edition: str) -> Mapping[str, Msg]:
    """Each card's name in an edition (messages are immutable: built once, shared by every game;
    never mutate the mapping)."""
    return {c: Msg(f"hs.card.{edition}.{c}") for c in CARD_ORDER}


# -- the state ------------------------------------------------------------------------------------

class Phase(Enum):
    REVEAL = "reveal"    # between rounds: the starter turns the next card over
    BIDDING = "bidding"  # a card is up for auction
    DISCARD = "discard"  # the theft's receiver chooses a possession to give up
    OVER = "over"        # the fourth red card came up


@dataclass(slots=True)
class Seat:
    """One player's money and cards."""

    hand: set[int] = field(default_factory=lambda: set(MONEY))  # money in hand
    bid: list[int] = field(default_factory=list)  # open bid, in the order laid
    bid_total: int = 0
    spent: dict[int, int] = field(default_factory=dict)  # money card -> round it was paid in
    kept: list[str] = field(default_factory=list)  # status cards, in the order gained


@dataclass(slots=True)
class AwaitReveal:
    phase: ClassVar[Phase] = Phase.REVEAL


@dataclass(slots=True)
class Bidding:
    card: str
    turn: str
    passed: list[str] = field(default_factory=list)
    phase: ClassVar[Phase] = Phase.BIDDING


@dataclass(slots=True)
class AwaitDiscard:
    player: str
    phase: ClassVar[Phase] = Phase.DISCARD


@dataclass(slots=True)
class GameOver:
    card: str  # the fourth red card
    phase: ClassVar[Phase] = Phase.OVER


Stage = AwaitReveal | Bidding | AwaitDiscard | GameOver


@dataclass(slots=True)
class HighSocietyState:
    stage: Stage
    starter: str  # reveals the next card / revealed the current one
    seats: dict[str, Seat]
    deck: dict[str, int] = field(default_factory=lambda: dict(STATUS_DECK))
    round: int = 0
    revealed: list[tuple[int, str]] = field(default_factory=list)  # (round, card), the ending card last
    reds: int = 0
    discarded: list[str] = field(default_factory=list)
    theft_pending: str | None = None  # whose theft waits for their next possession


class HighSocietyEngine(Engine[HSAction]):
    """Referee of High Society (``high-society``) and Animalement Vôtre (``animalement-votre``).

    The whole state is ``state`` (:class:`HighSocietyState`). Public, read-only views for the table
    screen (never mutate them; everything is derived here so the screen never re-derives a rule).
    Cards are the spec's ids (``"p1"`` … ``"p10"``, ``"x2"``, ``"half"``, ``"minus5"``, ``"theft"``);
    money cards are ints.

    - ``edition``: the game id; ``final_tie``: ``"replay"`` or ``"shared"`` (variant or default).
    - ``phase``: :class:`Phase` (reveal, bidding, discard, over).
    - ``round``: number of the current round (1 for the first card revealed; 0 before any card).
      The card that ends the game does not open a round.
    - ``card``: the card being auctioned now, or None between rounds and once the game is over.
    - ``ending_card``: the fourth red card that ended the game, or None.
    - ``deck_left``: ``{card: copies still in the deck}`` for every card with at least one copy.
    - ``revealed``: ``((round, card), …)`` every card revealed, in order (the ending card last).
    - ``reds_revealed``: how many red cards (``x2`` ×3, ``half``) have been revealed (0 … 4).
    - ``starter``: who reveals the next card / who revealed and opened the current round.
    - ``turn``: whose turn it is to bid or pass, or None when no round is open.
    - ``bids``: ``{player: (money cards in the open bid, in the order laid)}`` (empty tuples too).
    - ``bid_totals``: ``{player: total of the open bid}``.
    - ``bid_to_beat``: the highest open bid of the players other than ``turn`` (0 if none);
      the player whose turn it is must bid more than this.
    - ``passed``: players who passed on the current card, in the order they passed.
    - ``hands``: ``{player: (money cards in hand, ascending)}`` — not on the table, not paid.
    - ``spent``: ``{player: {money card: round in which it was paid}}``.
    - ``money_left``: ``{player: hand + open bid}`` — what is not paid yet (at the end, the hand).
    - ``collections``: ``{player: (status cards kept, in the order gained)}``; a waiting theft card
      stays in its holder's collection until it takes a possession.
    - ``discarded``: status cards out of the game (the theft card and the possession it took).
    - ``theft_pending``: the player whose theft waits for their next possession, or None.
    - ``discard_required``: the player who must choose a possession to discard now, or None.
    - ``scores()``: ``{player: exact current score}`` (int, or Fraction for halves).
    - ``score_breakdown(player)``: the score's computation as a Msg ("3 + 9 − 5 = 7, ×2 = 14, ×½ = 7").
    - ``card_label(card)``: the card's name in this edition, as a Msg.
    - ``player_view()``: all of the above in one dict.

    ``rule_specs`` is the rules reference (refusals, the rules applied without refusing anything
    and the rulings), in the rulebook's order; every event names the rules behind it.
    """

    games = ("high-society", "animalement-votre")
    spec = HIGH_SOCIETY  # its rule specs, variants and excluded readings (Engine reads them from it)

    def __init__(self, record: Any):
        super().__init__(record)
        variant = getattr(record, "variant", None)
        chosen = (None if variant is None  # (most records: no variant, and no ABC isinstance test to pay)
                  else variant.get("final_tie") if isinstance(variant, Mapping) else getattr(variant, "final_tie", None))
        self.edition: str = self.game
        self.final_tie: str = chosen or FINAL_TIE_DEFAULT[self.game]
        self.state = HighSocietyState(stage=AwaitReveal(), starter=self.first_player,
                                      seats={p: Seat() for p in self.players})
        self._others = _clockwise(self.players)
        self._labels = _card_labels(self.edition)
        self._red_name = Msg(f"hs.red.{self.edition}")
        # what a waiting theft takes: the next possession (High Society), or the next animal card
        # bought, ×2 included (Animalement Vôtre)
        self._theft_takes: frozenset[str] = (_POSSESSION_SET | {"x2"} if self.edition in THEFT_TAKES_ANY_BOUGHT
                                             else _POSSESSION_SET)

    # -- public read-only state ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.stage.phase

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def starter(self) -> str:
        return self.state.starter

    @property
    def card(self) -> str | None:
        stage = self.state.stage
        return stage.card if isinstance(stage, Bidding) else None

    @property
    def turn(self) -> str | None:
        stage = self.state.stage
        return stage.turn if isinstance(stage, Bidding) else None

    @property
    def ending_card(self) -> str | None:
        stage = self.state.stage
        return stage.card if isinstance(stage, GameOver) else None

    @property
    def discard_required(self) -> str | None:
        stage = self.state.stage
        return stage.player if isinstance(stage, AwaitDiscard) else None

    @property
    def theft_pending(self) -> str | None:
        return self.state.theft_pending

    @property
    def deck_left(self) -> dict[str, int]:
        deck = self.state.deck
        return {c: deck[c] for c in CARD_ORDER if deck[c] > 0}

    @property
    def revealed(self) -> tuple[tuple[int, str], ...]:
        return tuple(self.state.revealed)

    @property
    def reds_revealed(self) -> int:
        return self.state.reds

    @property
    def bids(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(s.bid) for p, s in self.state.seats.items()}

    @property
    def bid_totals(self) -> dict[str, int]:
        return {p: s.bid_total for p, s in self.state.seats.items()}

    @property
    def bid_to_beat(self) -> int:
        turn = self.turn
        return self._to_beat(turn)[0] if turn is not None else 0

    @property
    def passed(self) -> tuple[str, ...]:
        stage = self.state.stage
        return tuple(stage.passed) if isinstance(stage, Bidding) else ()

    @property
    def hands(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(sorted(s.hand)) for p, s in self.state.seats.items()}

    @property
    def spent(self) -> dict[str, dict[int, int]]:
        return {p: dict(sorted(s.spent.items())) for p, s in self.state.seats.items()}

    @property
    def money_left(self) -> dict[str, int]:
        return {p: sum(s.hand) + s.bid_total for p, s in self.state.seats.items()}

    @property
    def collections(self) -> dict[str, tuple[str, ...]]:
        return {p: tuple(s.kept) for p, s in self.state.seats.items()}

    @property
    def discarded(self) -> tuple[str, ...]:
        return tuple(self.state.discarded)

    @property
    def finished(self) -> bool:
        return isinstance(self.state.stage, GameOver)

    def card_label(self, card: str) -> Msg:
        return self._labels[card]

    def scores(self) -> dict[str, int | Fraction]:
        return {p: _num(self._score_steps(p)[-1][1]) for p in self.players}

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        return {
            "edition": self.edition,
            "final_tie": self.final_tie,
            "phase": self.phase,
            "round": self.round,
            "card": self.card,
            "ending_card": self.ending_card,
            "deck_left": self.deck_left,
            "revealed": self.revealed,
            "reds_revealed": self.reds_revealed,
            "starter": self.starter,
            "turn": self.turn,
            "bids": self.bids,
            "bid_totals": self.bid_totals,
            "bid_to_beat": self.bid_to_beat,
            "passed": self.passed,
            "hands": self.hands,
            "spent": self.spent,
            "money_left": self.money_left,
            "collections": self.collections,
            "discarded": self.discarded,
            "theft_pending": self.theft_pending,
            "discard_required": self.discard_required,
            "scores": self.scores(),
            "finished": self.finished,
        }

    # -- the contract: check ---------------------------------------------------------------------

    def _check(self, action: HSAction) -> None:
        stage = self.state.stage
        if type(stage) is Bidding:  # most actions: a bid or a pass in an open round
            if action.type == "bid" or action.type == "pass":
                player = action.player
                if player != stage.turn:
                    self._bidding(stage, player)  # raises the refusal that says why
                if action.type == "bid":
                    self._check_bid(player, action.add)
                return
        elif type(stage) is GameOver:
            raise RuleViolation("HS-GAME-OVER", "hs.refuse.game_over", card=self.card_label(stage.card),
                                red=self._red_name)
        elif isinstance(stage, AwaitDiscard):
            if not (action.type == "discard" and action.player == stage.player):
                raise RuleViolation("HS-DISCARD-REQUIRED", "hs.refuse.discard_required", player=stage.player,
                                    owned=self._owned_labels(stage.player))
            if action.card not in self.state.seats[action.player].kept or action.card not in _POSSESSION_SET:
                raise RuleViolation("HS-DISCARD-CARD", "hs.refuse.discard_card", player=action.player,
                                    card=self.card_label(action.card), owned=self._owned_labels(action.player))
            return
        if action.type == "reveal":
            self._check_reveal(stage, action.card)
        elif action.type == "bid":
            self._bidding(stage, action.player)
            self._check_bid(action.player, action.add)
        elif action.type == "pass":
            self._bidding(stage, action.player)
        elif action.type == "discard":
            raise RuleViolation("HS-DISCARD-NOT-DUE", "hs.refuse.discard_not_due", player=action.player)
        else:
            raise ValueError(f"not a High Society action: {action!r}")

    def _check_reveal(self, stage: Stage, card: str) -> None:
        if isinstance(stage, Bidding):
            raise RuleViolation("HS-ROUND-OPEN", "hs.refuse.round_open", card=self.card_label(stage.card),
                                player=stage.turn)
        if self.state.deck[card] <= 0:
            rounds = [r for r, c in self.state.revealed if c == card]
            if STATUS_DECK[card] == 1:
                raise RuleViolation("HS-REVEAL-GONE", "hs.refuse.reveal_gone", card=self.card_label(card),
                                    round=rounds[0])
            raise RuleViolation("HS-REVEAL-GONE", "hs.refuse.reveal_gone_all", card=self.card_label(card),
                                copies=STATUS_DECK[card], rounds=rounds)

    def _bidding(self, stage: Stage, player: str) -> Bidding:
        """The open round, if it is ``player``'s turn in it; else the refusal."""
        if not isinstance(stage, Bidding):
            raise RuleViolation("HS-NO-ROUND", "hs.refuse.no_round", player=player, starter=self.state.starter)
        if player != stage.turn:
            if player in stage.passed:
                raise RuleViolation("HS-PASSED", "hs.refuse.passed", player=player,
                                    card=self.card_label(stage.card), turn=stage.turn)
            raise RuleViolation("HS-TURN", "hs.refuse.turn", player=player, turn=stage.turn)
        return stage

    def _check_bid(self, player: str, add: Sequence[int]) -> None:
        """The cards come from the player's hand, once each, and the new total beats every other bid."""
        if not add:
            raise RuleViolation("HS-BID-EMPTY", "hs.refuse.bid_empty", player=player)
        if len(add) > 1 and len(set(add)) != len(add):
            seen: set[int] = set()
            for value in add:
                if value in seen:
                    raise RuleViolation("HS-MONEY-DUPLICATE", "hs.refuse.money_duplicate", player=player,
                                        value=value)
                seen.add(value)
        seat = self.state.seats[player]
        if not seat.hand.issuperset(add):
            self._refuse_money(player, seat, add)
        total = seat.bid_total + sum(add)
        to_beat, leader = self._to_beat(player)
        if total <= to_beat:
            raise RuleViolation("HS-BID-RAISE", "hs.refuse.bid_raise", player=player, total=total,
                                to_beat=to_beat, leader=leader)

    def _refuse_money(self, player: str, seat: Seat, add: Sequence[int]) -> None:
        """Why a card of the bid is not in the player's hand."""
        for value in add:
            if value in seat.hand:
                continue
            if value in seat.bid:
                raise RuleViolation("HS-MONEY-ON-TABLE", "hs.refuse.money_on_table", player=player, value=value,
                                    total=seat.bid_total)
            if value in seat.spent:
                raise RuleViolation("HS-MONEY-SPENT", "hs.refuse.money_spent", player=player, value=value,
                                    round=seat.spent[value])
            raise AssertionError(f"{player}'s {value} is nowhere")  # every card is in hand, on the table or spent

    # -- the contract: perform -------------------------------------------------------------------

    def _perform(self, action: HSAction) -> Sequence[Event]:
        if action.type == "pass":  # the most frequent action, then bids
            return self._pass(action.player)
        if action.type == "bid":
            return self._bid(action.player, action.add)
        if action.type == "reveal":
            return self._reveal(action.card)
        return self._discard(action.player, action.card)

    def _reveal(self, card: str) -> Sequence[Event]:
        state = self.state
        state.deck[card] -= 1
        label = self._labels[card]
        if card in RED:
            state.reds += 1
            if state.reds >= REDS_TO_END:
                state.revealed.append((state.round, card))
                state.stage = GameOver(card)
                return [event("HS-END", "hs.event.reveal_end", player=state.starter, card=label,
                              red=self._red_name)]
        state.round += 1
        state.revealed.append((state.round, card))
        state.stage = Bidding(card, state.starter)
        if self.quiet:
            return _SILENT
        if card in MISFORTUNE:
            return [event("HS-MISFORTUNE", "hs.event.reveal_misfortune", player=state.starter, card=label,
                          round=state.round)]
        return [event((), "hs.event.reveal", player=state.starter, card=label, round=state.round)]

    def _bid(self, player: str, add: Sequence[int]) -> Sequence[Event]:
        stage = self.state.stage
        assert isinstance(stage, Bidding)
        seat = self.state.seats[player]
        seat.hand.difference_update(add)
        seat.bid.extend(add)
        seat.bid_total += sum(add)
        stage.turn = self._next_active(stage, player)
        if self.quiet:
            return _SILENT
        return [event((), "hs.event.bid", player=player, cards=add, total=seat.bid_total)]

    def _pass(self, player: str) -> Sequence[Event]:
        state = self.state
        stage = state.stage
        assert isinstance(stage, Bidding)
        seat = state.seats[player]
        back = seat.bid_total
        stage.passed.append(player)
        if back:
            seat.hand.update(seat.bid)
            seat.bid = []
            seat.bid_total = 0
        card = stage.card
        if card in MISFORTUNE:
            events = [self._passed(player, back),
                      event("HS-MISFORTUNE", "hs.event.misfortune", player=player, card=self._labels[card])]
            for other in self._others[player]:
                lost = self._pay(other)
                if lost:
                    events.append(event("HS-MISFORTUNE", "hs.event.bid_lost", player=other, amount=lost))
            events.extend(self._receive(player, card))
            return events
        if len(stage.passed) == len(self.players) - 1:
            winner = next(p for p in self._others[player] if p not in stage.passed)
            price = self._pay(winner)
            received = self._receive(winner, card)
            if self.quiet:
                return _SILENT
            label = self._labels[card]
            return [self._passed(player, back),
                    event("HS-FREE-CARD", "hs.event.buy", player=winner, card=label, amount=price) if price
                    else event("HS-FREE-CARD", "hs.event.free", player=winner, card=label),
                    *received]
        stage.turn = self._next_active(stage, player)
        return _SILENT if self.quiet else [self._passed(player, back)]

    @staticmethod
    def _passed(player: str, back: int) -> Event:
        """The pass itself: the player's open bid, if any, back to their hand."""
        return event("HS-PASSED", "hs.event.pass_back", player=player, amount=back) if back else _passes(player)

    def _discard(self, player: str, card: str) -> list[Event]:
        state = self.state
        kept = state.seats[player].kept
        kept.remove(card)
        kept.remove("theft")
        state.discarded.extend((card, "theft"))
        state.stage = AwaitReveal()
        return [event("HS-THEFT", "hs.event.discarded", player=player, card=self._labels[card]),
                _reveals_next(state.starter)]

    # -- settlement ------------------------------------------------------------------------------

    def _pay(self, player: str) -> int:
        """The player's open bid goes to the discard; each card remembers the round it went in.
        Returns the amount paid."""
        seat = self.state.seats[player]
        amount = seat.bid_total
        if amount:
            rnd = self.state.round
            for value in seat.bid:
                seat.spent[value] = rnd
            seat.bid = []
            seat.bid_total = 0
        return amount

    def _receive(self, player: str, card: str) -> list[Event]:
        """The player takes the round's card; the round closes and they reveal the next one."""
        state = self.state
        state.starter = player
        state.stage = AwaitReveal()
        kept = state.seats[player].kept
        events: list[Event] = []
        if card == "theft":
            kept.append(card)
            if any(c in _POSSESSION_SET for c in kept):
                state.stage = AwaitDiscard(player)
                events.append(event("HS-THEFT", "hs.event.discard_due", player=player,
                                    owned=self._owned_labels(player)))
                return events
            state.theft_pending = player
            events.append(event("HS-THEFT", "hs.event.theft_waits", player=player))
        elif state.theft_pending == player and card in self._theft_takes:
            kept.remove("theft")
            state.discarded.extend((card, "theft"))
            state.theft_pending = None
            events.append(event("HS-THEFT", "hs.event.theft_applied", player=player, card=self._labels[card]))
        else:
            kept.append(card)
        events.append(_reveals_next(player))
        return events

    # -- what next, and the end ------------------------------------------------------------------

    def expected(self) -> Expectation:
        stage = self.state.stage
        if isinstance(stage, GameOver):
            return Expectation((), (), Msg("hs.prompt.over"))
        if isinstance(stage, AwaitDiscard):
            who = stage.player
            return Expectation((who,), ("discard",),
                               Msg("hs.prompt.discard", {"player": who, "owned": self._owned_labels(who)}))
        if isinstance(stage, AwaitReveal):
            # The starter turns the card over, but a reveal names no player in the record.
            return Expectation((), ("reveal",), Msg("hs.prompt.reveal", {"player": self.state.starter,
                                                                          "round": self.state.round + 1}))
        to_beat, _ = self._to_beat(stage.turn)
        key = "hs.prompt.bid" if to_beat else "hs.prompt.bid_first"
        if stage.card in MISFORTUNE:
            key += "_misfortune"
        return Expectation((stage.turn,), ("bid", "pass"),
                           Msg(key, {"player": stage.turn, "card": self._labels[stage.card], "to_beat": to_beat}))

    def outcome(self) -> Outcome | None:
        stage = self.state.stage
        if not isinstance(stage, GameOver):
            return None
        seats = self.state.seats
        money = {p: sum(seats[p].hand) for p in self.players}  # no round is open at the end
        steps = {p: self._score_steps(p) for p in self.players}  # computed once for scores and sentences
        scores = {p: _num(steps[p][-1][1]) for p in self.players}
        least = min(money.values())
        poorest = tuple(p for p in self.players if money[p] == least)
        remaining = [p for p in self.players if p not in poorest]
        winners: tuple[str, ...] = ()
        replay = False
        if remaining:
            best = max(scores[p] for p in remaining)
            top = [p for p in remaining if scores[p] == best]
            if len(top) == 1:
                winners = (top[0],)
            else:
                most = max(money[p] for p in top)
                leaders = [p for p in top if money[p] == most]
                if len(leaders) == 1:
                    winners = (leaders[0],)
                elif self.final_tie == "shared":
                    winners = tuple(leaders)
                else:
                    replay = True
        ranking = self._ranking(remaining, list(poorest), scores, money)
        # the money left of each player still in whose score another shares: what parted them (or could not)
        shared = [scores[p] for p in remaining]
        notes = {p: Msg("hs.note.money", {"money": money[p]}) for p in remaining if shared.count(scores[p]) > 1}
        return Outcome(
            scores=scores,
            eliminated=poorest,
            winners=winners,
            replay_required=replay,
            ranking=ranking,
            explanation=partial(self._explain, stage.card, money, steps, scores, poorest, remaining),
            notes=notes,
        )

    def _explain(self, card: str, money: Mapping[str, int], steps: Mapping[str, list[tuple[str, Score, int]]],
                 scores: Mapping[str, Score], poorest: tuple[str, ...], remaining: list[str]) -> list[Event]:
        """The outcome's sentences (built when read): the end, the poorest, each score, who won and why."""
        explanation: list[Event] = [event("HS-END", "hs.explain.end", card=self._labels[card], red=self._red_name)]
        if self.state.theft_pending is not None:
            explanation.append(event("HS-THEFT", "hs.explain.theft_void", player=self.state.theft_pending))

        least = money[poorest[0]]
        if len(poorest) == len(self.players):
            explanation.append(event("HS-POOREST", "hs.explain.all_out", money=least))
        elif len(poorest) == 1:
            explanation.append(event("HS-POOREST", "hs.explain.poorest_one", player=poorest[0], money=least))
        else:
            explanation.append(event("HS-POOREST", "hs.explain.poorest_many", players=list(poorest), money=least))

        for p in self.players:
            # a half kept or a total below 0: the app's exact count (the rulebook shows neither)
            exact = scores[p] < 0 or type(scores[p]) is Fraction
            explanation.append(event(("HS-SCORE", "HS-SCORE-EXACT") if exact else "HS-SCORE", "hs.explain.score",
                                     player=p, calc=_breakdown(steps[p])))

        if remaining:
            best = max(scores[p] for p in remaining)
            top = [p for p in remaining if scores[p] == best]
            if len(top) == 1:
                explanation.append(event("HS-FINAL-TIE", "hs.explain.win_one", player=top[0], score=best))
            else:
                most = max(money[p] for p in top)
                leaders = [p for p in top if money[p] == most]
                if len(leaders) == 1:
                    explanation.append(event("HS-FINAL-TIE", "hs.explain.win_money", players=top, score=best,
                                             player=leaders[0], money=most,
                                             others=[money[p] for p in top if p != leaders[0]]))
                else:
                    if len(leaders) == len(top):
                        explanation.append(event("HS-FINAL-TIE", "hs.explain.full_tie", players=top, score=best,
                                                 money=most))
                    else:
                        explanation.append(event("HS-FINAL-TIE", "hs.explain.money_tie", players=top, score=best,
                                                 leaders=leaders, money=most))
                    if self.final_tie == "shared":
                        explanation.append(event("HS-FINAL-TIE", "hs.explain.shared", players=leaders))
                    else:
                        explanation.append(event("HS-FINAL-TIE", "hs.explain.replay", players=leaders))
        return explanation

    # -- helpers ---------------------------------------------------------------------------------

    def _next_active(self, stage: Bidding, player: str) -> str:
        passed = stage.passed
        for other in self._others[player]:
            if other not in passed:
                return other
        return player

    def _to_beat(self, player: str) -> tuple[int, str | None]:
        best, leader = 0, None
        seats = self.state.seats
        for other in self._others[player]:
            total = seats[other].bid_total
            if total > best:
                best, leader = total, other
        return best, leader

    def _owned_labels(self, player: str) -> list[Msg]:
        owned = sorted((c for c in self.state.seats[player].kept if c in _POSSESSION_SET), key=possession_value)
        return [self._labels[c] for c in owned]

    def _score_steps(self, player: str) -> list[tuple[str, int | Fraction, int]]:
        """The score as the rulebook computes it: possessions added, −5, ×2 per title, ×½.
        Each step is (kind, value after it, the possession added or 0)."""
        kept = self.state.seats[player].kept
        value: int | Fraction = 0  # exact: a Fraction only once the scandal halves it
        steps: list[tuple[str, int | Fraction, int]] = [("start", value, 0)]
        for added in sorted(_POSSESSION_VALUE[c] for c in kept if c in _POSSESSION_SET):
            value += added
            steps.append(("plus", value, added))
        if "minus5" in kept:
            value -= 5
            steps.append(("minus5", value, 0))
        for _ in range(kept.count("x2")):
            value *= 2
            steps.append(("x2", value, 0))
        if "half" in kept:
            value = Fraction(value, 2)
            steps.append(("half", value, 0))
        return steps

    def score_breakdown(self, player: str) -> Msg:
        """'3 + 9 − 5 = 7, ×2 = 14, ×½ = 7' as nested catalogue messages (numbers stay localised)."""
        return _breakdown(self._score_steps(player))

    def _ranking(self, remaining: list[str], out: list[str], scores: Mapping[str, Score],
                 money: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
        ordered = sorted(remaining, key=lambda p: (scores[p], money[p]), reverse=True)  # stable: seat order
        ranking: list[tuple[str, int]] = []
        for i, p in enumerate(ordered):
            prev = ordered[i - 1] if i else None
            if prev is not None and (scores[p], money[p]) == (scores[prev], money[prev]):
                ranking.append((p, ranking[-1][1]))
            else:
                ranking.append((p, i + 1))
        ranking.extend((p, len(remaining) + 1) for p in out)
        return tuple(ranking)


def _breakdown(steps: list[tuple[str, int | Fraction, int]]) -> Msg:
    """The breakdown message of a score's steps (see ``score_breakdown``)."""
    calc: Msg | None = None
    terms = 0  # terms added or subtracted since the last '='
    before: int | Fraction = 0
    for kind, value, added in steps[1:]:
        if kind == "plus":
            calc = (msg("hs.calc.num", n=added) if calc is None
                    else msg("hs.calc.plus", left=calc, n=added))
            terms += 1
        elif kind == "minus5":
            terms += 1 if calc is not None else 2
            calc = msg("hs.calc.minus5", left=calc or msg("hs.calc.num", n=0))
        else:
            if calc is None:
                calc = msg("hs.calc.num", n=0)
            elif terms > 1:
                calc = msg("hs.calc.eq", left=calc, value=_num(before))
            terms = 0
            calc = msg("hs.calc.x2" if kind == "x2" else "hs.calc.half", left=calc, value=_num(value))
        before = value
    if calc is None:
        return msg("hs.calc.num", n=0)
    if terms > 1:
        calc = msg("hs.calc.eq", left=calc, value=_num(before))
    return calc
