"""Stupide Vautour (game id ``stupide-vautour``): the referee for one game of 15 rounds.

Each round is two actions (table-record spec §4.2): a ``reveal`` turns over a point card, which
joins any point cards still pending from tied rounds; then one ``play`` gives every player's card
at once. After the play the engine decides who takes the pending point cards — their *sum*
decides the direction: ≥ 0 is played like a suricate (the highest card takes them), < 0 like a
vulture (the lowest card takes them) — or carries them over to the next round. Pending cards
still unawarded after the 15th play are lost. The game is finished after the 15th play.

Ties (variant ``ties``, SV-TIES):

- ``one-level`` (default, the rulebook's rule): the tied extreme cards are set aside and the
  next card in the same direction decides; if that next card is tied too, or no card is left,
  nobody takes the points.
- ``highest-unique`` (a house variant that departs from the rulebook): every value played twice
  or more is set aside; the best value played exactly once decides; if every value was played
  more than once, nobody takes the points.

End (SV-END, the rulebook's rule): a player's score is the sum of the point cards they took. A
single best score wins. When first place is tied, the rulebook gives the win to the second best
score. The app's ruling for what the rulebook leaves open (SV-END-TIE): several players at that
second best score share the win, and if nobody is below the tie (every player has the same
score) they all share it.
Ranking: the winners are ranked 1; when the win went to the second best score, the players tied
for first place come next (sharing one rank), then everyone else by score (competition ranks).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from models.games.stupide_vautour import STUPIDE_VAUTOUR, SV_HAND, SV_POINT_CARDS
from models.i18n import Msg
from scoring.base import Engine, Event, Expectation, Outcome, RuleViolation, event

GAME = "stupide-vautour"
ROUNDS = 15
TIES = ("one-level", "highest-unique")
DEFAULT_TIES = "one-level"

# Refusals (each raised by the engine) …
REVEAL_OPEN = "SV-REVEAL-OPEN"          # a reveal while the round's cards are not played yet
REVEAL_REPEAT = "SV-REVEAL-REPEAT"      # a point card that was already revealed
PLAY_NO_REVEAL = "SV-PLAY-NO-REVEAL"    # a play before this round's point card is revealed
PLAY_PLAYERS = "SV-PLAY-PLAYERS"        # not exactly one card per player
PLAY_USED = "SV-PLAY-USED"              # a card that player already played
NO_SUCH_CARD = "SV-NO-SUCH-CARD"        # not a point card / not a hand card (the parser catches it first)
GAME_OVER = "SV-GAME-OVER"              # anything after the 15th round
# … and the rules the engine applies without refusing anything (they settle, they do not refuse).
AWARD_RULE = "SV-AWARD"
TIES_RULE = "SV-TIES"
CARRY_RULE = "SV-CARRY"
END_RULE = "SV-END"
END_TIE_RULE = "SV-END-TIE"  # the ruling: a shared second best score, or nobody below the tie

_POINT_SET = frozenset(SV_POINT_CARDS)
_HAND_SET = frozenset(SV_HAND)


def _m(key: str, **params: Any) -> Msg:
    return Msg(f"sv.{key}", params)


# Messages are immutable: the few that every game repeats are built once, not once per round.
_ONE_POINT: dict[int, Msg] = {c: Msg("sv.points.one", {"card": c}) for c in SV_POINT_CARDS}


@lru_cache(maxsize=1024)
def _played_by(player: str, card: int) -> Msg:
    return Msg("sv.played_by", {"player": player, "card": card})


def points_msg(cards: Sequence[int]) -> Msg:
    """"the 6" for one point card, "4 and -1 (3 in all)" for several."""
    if len(cards) == 1:
        return _ONE_POINT.get(cards[0]) or _m("points.one", card=cards[0])
    return _m("points.many", cards=tuple(cards), total=sum(cards))


def _poss(pairs: Iterable[tuple[str, int]]) -> tuple[Msg, ...]:
    return tuple(_m("poss", player=p, card=c) for p, c in pairs)


class Decision(NamedTuple):  # one per round: a named tuple is several times cheaper to build than a frozen dataclass
    """Who takes the pending point cards, and which cards were set aside on the way.

    ``set_aside``: (player, card) pairs cancelled before the deciding card, in the order they were
    looked at. ``tied_again`` (one-level only): the next level, tied as well. ``winner`` is None
    when nobody takes the points.
    """

    high: bool
    winner: str | None
    card: int | None
    set_aside: tuple[tuple[str, int], ...]
    tied_again: tuple[tuple[str, int], ...] = ()


def decide(cards: Mapping[str, int], seating: Sequence[str], high: bool, ties: str = DEFAULT_TIES) -> Decision:
    """Pure: who takes the points given every player's card. ``high`` is True when the pending
    sum is ≥ 0 (the highest card takes), False for a vulture (the lowest card takes)."""
    if ties not in TIES:
        raise ValueError(f"unknown ties reading {ties!r}")
    played = list(cards.values())
    top = max(played) if high else min(played)
    if played.count(top) == 1:  # the usual round: one best card, nothing set aside in either reading
        return Decision(high, next(p for p, v in cards.items() if v == top), top, ())
    order = [p for p in seating if p in cards]
    values = sorted(set(cards.values()), reverse=high)  # best first
    holders = {v: [p for p in order if cards[p] == v] for v in values}
    if ties == "one-level":
        first = holders[values[0]]
        if len(first) == 1:
            return Decision(high, first[0], values[0], ())
        aside = tuple((p, values[0]) for p in first)
        if len(values) == 1:
            return Decision(high, None, None, aside)
        second = holders[values[1]]
        if len(second) == 1:
            return Decision(high, second[0], values[1], aside)
        return Decision(high, None, None, aside, tuple((p, values[1]) for p in second))
    unique = [v for v in values if len(holders[v]) == 1]
    if unique:
        best = unique[0]
        aside = tuple((p, v) for v in values if v != best and (v > best) == high for p in holders[v])
        return Decision(high, holders[best][0], best, aside)
    return Decision(high, None, None, tuple((p, v) for v in values for p in holders[v]))


# Keys and rule tuples every round uses, by side (True: the pending sum is >= 0, the highest card takes)
# and by whether carried-over cards are in the points.
_REVEAL_KEY = {True: "sv.reveal.suricate", False: "sv.reveal.vulture"}
_JOINS_KEY = {True: "sv.reveal.joins.suricate", False: "sv.reveal.joins.vulture"}
_TOP_KEY = {True: "sv.award.top.high", False: "sv.award.top.low"}
_AWARD_RULES = {False: (AWARD_RULE,), True: (AWARD_RULE, CARRY_RULE)}


def decision_msgs(decision: Decision, ties: str, points: Msg, carried: bool = False) -> tuple[Event, ...]:
    """The sentences saying how ``decision`` was reached (not the carry-over or the loss), each
    naming its rules (``carried``: the points include cards carried over, whose sum set the side)."""
    side = "high" if decision.high else "low"
    award = (AWARD_RULE, CARRY_RULE) if carried else (AWARD_RULE,)
    if not decision.set_aside:
        return (event(award, f"sv.award.top.{side}", player=decision.winner, card=decision.card, points=points),)
    aside = _poss(decision.set_aside)
    tied = (TIES_RULE, *award)
    if ties == "highest-unique":
        if decision.winner is None:
            return (event(TIES_RULE, "sv.award.unique.nobody", aside=aside),)
        return (event(tied, "sv.award.unique", aside=aside, player=decision.winner, card=decision.card,
                      points=points),)
    if decision.winner is not None:
        return (event(tied, "sv.award.after_cancel", cancelled=aside, player=decision.winner, card=decision.card,
                      points=points),)
    if decision.tied_again:
        return (event(TIES_RULE, "sv.award.cancel_twice", cancelled=aside, again=_poss(decision.tied_again)),)
    return (event(TIES_RULE, "sv.award.cancel_all", cancelled=aside),)


def _sign_mode(total: int) -> str:
    return "suricate" if total >= 0 else "vulture"


class Phase(Enum):
    REVEAL = "reveal"  # the round's point card is to be turned over
    PLAY = "play"      # the point card is up: every player's card, all at once
    OVER = "over"      # fifteen rounds played


# The phases as module constants: reading ``Phase.X`` goes through the Enum metaclass, several times
# the cost of a global, and every action tests the phase.
_REVEAL, _PLAY, _OVER = Phase.REVEAL, Phase.PLAY, Phase.OVER


@dataclass(slots=True)
class Seat:
    """One player's cards."""

    played_in: dict[int, int] = field(default_factory=dict)  # hand card -> round it was played in
    last_played: int | None = None  # the card of the last round (None before round 1)
    taken: list[int] = field(default_factory=list)  # point cards taken, in order
    score: int = 0  # their sum


@dataclass(slots=True)
class StupideVautourState:
    seats: dict[str, Seat]
    phase: Phase = Phase.REVEAL
    rounds_played: int = 0
    revealed: list[int] = field(default_factory=list)  # point cards, in the order turned over
    revealed_in: dict[int, int] = field(default_factory=dict)  # point card -> round it came up in
    pending: list[int] = field(default_factory=list)  # in play or carried over, in the order they came up
    pending_sum: int = 0
    lost: list[int] = field(default_factory=list)  # never taken (after the 15th round)
    last_award: tuple[Event, ...] = ()  # the last round's award sentences


class StupideVautourEngine(Engine):
    """The Stupide Vautour referee.

    The whole state is ``state`` (:class:`StupideVautourState`). Public, read-only views for the
    table screen (also gathered by :meth:`player_view`):

    - ``ties``: the tie reading in force (``"one-level"`` or ``"highest-unique"``).
    - ``phase``: :class:`Phase` (reveal, play, over).
    - ``round``: the round in progress, or the next one to start (1 … 15; 15 once finished).
    - ``rounds_played``: how many plays were accepted (0 … 15).
    - ``round_open``: True between a round's reveal and its play.
    - ``revealed``: the point cards revealed so far, in order; ``deck_left``: how many are still
      face down (15 − revealed).
    - ``pending``: the point cards in play or carried over, in the order they came up;
      ``pending_sum``: their sum; ``pending_mode``: ``"suricate"`` (sum ≥ 0: highest card takes),
      ``"vulture"`` (sum < 0: lowest card takes) or None when nothing is pending.
    - ``hands``: player → remaining hand cards, ascending.
    - ``last_played``: player → the card played in the last round (None before round 1).
    - ``played_in``: player → {hand card: round it was played in}.
    - ``taken``: player → point cards taken, in order; ``scores``: player → their sum.
    - ``lost``: point cards never taken (filled after the 15th round).
    - ``last_award``: the last round's award sentences (who took what and why, or the
      carry-over / loss) as :class:`Event` s; empty before round 1.

    ``rule_specs``: the refusals (SV-REVEAL-OPEN, SV-REVEAL-REPEAT, SV-PLAY-NO-REVEAL,
    SV-PLAY-PLAYERS, SV-PLAY-USED, SV-NO-SUCH-CARD, SV-GAME-OVER) and the rules the engine
    applies without refusing anything (SV-AWARD, SV-TIES, SV-CARRY, SV-END), in the rulebook's order.
    A player named twice in one play cannot be expressed in a record (``cards`` is a JSON object
    whose keys are unique) and a name that is not at the table is malformed at parse time; the
    engine still refuses an unknown name under SV-PLAY-PLAYERS if an action is built by hand.
    """

    games = (GAME,)
    spec = STUPIDE_VAUTOUR  # its rule specs, variants and excluded readings (Engine reads them from it)

    def __init__(self, record: Any):
        super().__init__(record)
        variant = getattr(record, "variant", None)
        ties = getattr(variant, "ties", None) if variant is not None else None
        self.ties: str = ties or DEFAULT_TIES
        if self.ties not in TIES:
            raise ValueError(f"unknown ties reading {self.ties!r}")
        self.state = StupideVautourState(seats={p: Seat() for p in self.players})

    # -- read-only state --------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def rounds_played(self) -> int:
        return self.state.rounds_played

    @property
    def round_open(self) -> bool:
        return self.state.phase is _PLAY

    @property
    def round(self) -> int:
        return min(self.state.rounds_played + 1, ROUNDS)

    @property
    def over(self) -> bool:
        return self.state.phase is _OVER

    @property
    def finished(self) -> bool:
        return self.state.phase is _OVER

    @property
    def revealed(self) -> tuple[int, ...]:
        return tuple(self.state.revealed)

    @property
    def deck_left(self) -> int:
        return len(SV_POINT_CARDS) - len(self.state.revealed)

    @property
    def pending(self) -> tuple[int, ...]:
        return tuple(self.state.pending)

    @property
    def pending_sum(self) -> int:
        return self.state.pending_sum

    @property
    def pending_mode(self) -> str | None:
        return _sign_mode(self.state.pending_sum) if self.state.pending else None

    @property
    def hands(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(c for c in SV_HAND if c not in s.played_in) for p, s in self.state.seats.items()}

    @property
    def last_played(self) -> dict[str, int | None]:
        return {p: s.last_played for p, s in self.state.seats.items()}

    @property
    def played_in(self) -> dict[str, dict[int, int]]:
        return {p: dict(s.played_in) for p, s in self.state.seats.items()}

    @property
    def taken(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(s.taken) for p, s in self.state.seats.items()}

    @property
    def scores(self) -> dict[str, int]:
        return {p: s.score for p, s in self.state.seats.items()}

    @property
    def lost(self) -> tuple[int, ...]:
        return tuple(self.state.lost)

    @property
    def last_award(self) -> tuple[Event, ...]:
        return self.state.last_award

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        return {
            "ties": self.ties,
            "phase": self.phase,
            "round": self.round,
            "rounds_played": self.rounds_played,
            "round_open": self.round_open,
            "revealed": self.revealed,
            "deck_left": self.deck_left,
            "pending": self.pending,
            "pending_sum": self.pending_sum,
            "pending_mode": self.pending_mode,
            "hands": self.hands,
            "last_played": self.last_played,
            "played_in": self.played_in,
            "taken": self.taken,
            "scores": self.scores,
            "lost": self.lost,
            "last_award": self.last_award,
        }

    # -- the contract: check ----------------------------------------------------------------

    def _check(self, action: Any) -> None:
        state = self.state
        phase = state.phase
        kind = action.type
        if phase is _OVER:
            raise RuleViolation(GAME_OVER, "sv.refuse.game_over", rounds=ROUNDS)
        if kind == "play":
            self._check_play(action.cards)
        elif kind == "reveal":
            card = action.card
            if phase is _PLAY:
                raise RuleViolation(REVEAL_OPEN, "sv.refuse.reveal_open", round=self.round,
                                    points=points_msg(state.pending))
            if card not in _POINT_SET:
                raise RuleViolation(NO_SUCH_CARD, "sv.refuse.not_a_point_card", card=card)
            if card in state.revealed_in:
                raise RuleViolation(REVEAL_REPEAT, "sv.refuse.revealed_already", card=card,
                                    round=state.revealed_in[card])
        else:
            raise ValueError(f"stupide-vautour has no action {kind!r}")

    def _check_play(self, cards: Mapping[str, int]) -> None:
        state = self.state
        if state.phase is not _PLAY:
            raise RuleViolation(PLAY_NO_REVEAL, "sv.refuse.no_reveal", round=state.rounds_played + 1)
        seats = state.seats
        if cards.keys() != seats.keys():  # (key views compare as sets)
            strangers = [p for p in cards if p not in seats]
            if strangers:
                raise RuleViolation(PLAY_PLAYERS, "sv.refuse.stranger", players=tuple(strangers))
            raise RuleViolation(PLAY_PLAYERS, "sv.refuse.missing", round=state.rounds_played + 1,
                                players=tuple(p for p in self.players if p not in cards))
        for player, seat in seats.items():
            card = cards[player]
            if card not in _HAND_SET:
                raise RuleViolation(NO_SUCH_CARD, "sv.refuse.not_a_hand_card", player=player, card=card)
            if card in seat.played_in:
                raise RuleViolation(PLAY_USED, "sv.refuse.played_already", player=player, card=card,
                                    round=seat.played_in[card])

    # -- the contract: perform --------------------------------------------------------------

    def _perform(self, action: Any) -> list[Event]:
        if action.type == "play":
            return self._play(action.cards)
        return self._reveal(action.card)

    def _reveal(self, card: int) -> list[Event]:
        state = self.state
        number = state.rounds_played + 1
        state.revealed.append(card)
        state.revealed_in[card] = number
        state.phase = _PLAY
        pending = state.pending
        if not pending:
            pending.append(card)
            state.pending_sum = card
            return [event((), _REVEAL_KEY[card >= 0], round=number, card=card)]
        carried = tuple(pending)
        pending.append(card)
        state.pending_sum += card
        return [event(CARRY_RULE, _JOINS_KEY[state.pending_sum >= 0], round=number, card=card,
                      pending=carried, total=state.pending_sum)]

    def _play(self, cards: Mapping[str, int]) -> list[Event]:
        state = self.state
        number = state.rounds_played + 1
        seats = state.seats
        for player, seat in seats.items():
            card = cards[player]
            seat.played_in[card] = number
            seat.last_played = card
        state.rounds_played = number
        last = number == ROUNDS
        state.phase = _OVER if last else _REVEAL

        pending = state.pending
        total = state.pending_sum
        points = points_msg(pending)
        carried = len(pending) > 1
        high = total >= 0
        values = list(cards.values())
        top = max(values) if high else min(values)
        winner: str | None
        if values.count(top) == 1:  # the usual round: one best card, no tie to settle in either reading
            winner = list(cards)[values.index(top)]
            award = [event(_AWARD_RULES[carried], _TOP_KEY[high], player=winner, card=top, points=points)]
        else:
            decision = decide(cards, self.players, high, self.ties)
            winner = decision.winner
            award = list(decision_msgs(decision, self.ties, points, carried))
        if winner is not None:
            seat = seats[winner]
            seat.taken.extend(pending)
            seat.score += total
            state.pending = []
            state.pending_sum = 0
        elif not last:
            key = "sv.carry.one" if len(pending) == 1 else "sv.carry.many"
            award.append(event(CARRY_RULE, key, points=points, total=total))
        if last and state.pending:
            state.lost.extend(state.pending)
            state.pending = []
            state.pending_sum = 0
            award.append(lost_msg(state.lost))
        state.last_award = tuple(award)

        events = [event((), "sv.played", round=number, cards=tuple([_played_by(p, cards[p]) for p in self.players]))]
        events.extend(award)
        if last:
            events.append(event(GAME_OVER, "sv.game_over", rounds=ROUNDS))
        return events

    # -- what next, and the end -------------------------------------------------------------

    def expected(self) -> Expectation:
        state = self.state
        if state.phase is _OVER:
            return Expectation((), (), _m("prompt.over", rounds=ROUNDS))
        if state.phase is _REVEAL:
            if state.pending:
                prompt = _m("prompt.reveal_pending", round=self.round, left=self.deck_left,
                            pending=points_msg(state.pending))
            else:
                prompt = _m("prompt.reveal", round=self.round, left=self.deck_left)
            return Expectation((), ("reveal",), prompt)
        key = "prompt.play.high" if state.pending_sum >= 0 else "prompt.play.low"
        return Expectation(self.players, ("play",), _m(key, round=self.round, points=points_msg(state.pending)))

    def outcome(self) -> Outcome | None:
        if self.state.phase is not _OVER:
            return None
        scores = self.scores
        winners, ranking, verdict = settle(self.players, scores)
        explanation: list[Event] = []
        for player, seat in self.state.seats.items():
            if seat.taken:
                explanation.append(event(END_RULE, "sv.end.tally", player=player, cards=tuple(seat.taken),
                                         score=seat.score))
            else:
                explanation.append(event(END_RULE, "sv.end.tally_none", player=player))
        if self.state.lost:
            explanation.append(lost_msg(self.state.lost))
        explanation.extend(verdict)
        return Outcome(
            scores=scores,
            eliminated=(),
            winners=winners,
            replay_required=False,
            ranking=ranking,
            explanation=tuple(explanation),
        )


def lost_msg(cards: Sequence[int]) -> Event:
    if len(cards) == 1:
        return event(CARRY_RULE, "sv.lost.one", card=cards[0])
    return event(CARRY_RULE, "sv.lost.many", cards=tuple(cards))


def settle(players: Sequence[str], scores: Mapping[str, int]
           ) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...], tuple[Event, ...]]:
    """Winners, ranking and the sentences explaining them, from the final scores.

    - One best score: that player wins; competition ranking by score.
    - First place tied, someone below: the second best score wins (shared if several players
      have it). Ranking: those winners 1, then the players tied for first place (one shared
      rank), then the others by score.
    - Every player equal: they all share the win and rank 1.
    """
    levels = sorted(set(scores.values()), reverse=True)
    at = {v: tuple(p for p in players if scores[p] == v) for v in levels}
    top = at[levels[0]]
    winners: tuple[str, ...]
    if len(top) == 1:
        winners = top
        groups = [at[v] for v in levels]
        explain: tuple[Event, ...] = (event(END_RULE, "sv.end.winner", player=top[0], score=levels[0]),)
    elif len(levels) == 1:
        winners = top
        groups = [top]
        explain = (event((END_RULE, END_TIE_RULE), "sv.end.all_equal", score=levels[0]),)
    else:
        second = at[levels[1]]
        winners = second
        groups = [second, top] + [at[v] for v in levels[2:]]
        first = event(END_RULE, "sv.end.top_tie", players=top, score=levels[0])
        if len(second) == 1:
            win = event(END_RULE, "sv.end.second_wins", player=second[0], score=levels[1])
        else:
            win = event((END_RULE, END_TIE_RULE), "sv.end.second_shared", players=second, score=levels[1])
        note = "sv.end.ranking_note" if len(levels) > 2 else "sv.end.ranking_note_short"
        explain = (first, win, event((END_RULE, END_TIE_RULE), note, players=top, rank=len(second) + 1))
    ranking: list[tuple[str, int]] = []
    place = 1
    for group in groups:
        ranking.extend((p, place) for p in group)
        place += len(group)
    return winners, tuple(ranking), explain
