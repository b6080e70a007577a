"""Stupide Vautour (game id ``stupide-vautour``): the referee for one game of 15 rounds.

Each round is two actions (table-record spec §4.2): a ``reveal`` turns over a point card, which
joins any point cards still pending from tied rounds; then one ``play`` gives every player's card
at once. After the play the engine decides who takes the pending point cards — their *sum*
decides the direction: ≥ 0 is played like a suricate (the highest card takes them), < 0 like a
vulture (the lowest card takes them) — or carries them over to the next round. Pending cards
still unawarded after the 15th play are lost. The game is finished after the 15th play.

Ties (variant ``ties``, rules-decisions.md):

- ``one-level`` (default, the rulebook we ship): the tied extreme cards are set aside and the
  next card in the same direction decides; if that next card is tied too, or no card is left,
  nobody takes the points.
- ``highest-unique``: every value played twice or more is set aside; the best value played
  exactly once decides; if every value was played more than once, nobody takes the points.

End: a player's score is the sum of the point cards they took. A single best score wins. When
first place is tied, the rulebook gives the win to the second best score; the app's ruling for
what the rulebook leaves open: several players at that second best score share the win, and if
nobody is below the tie (every player has the same score) they all share it.
Ranking: the winners are ranked 1; when the win went to the second best score, the players tied
for first place come next (sharing one rank), then everyone else by score (competition ranks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from models.i18n import Msg
from models.record import SV_HAND, SV_POINT_CARDS
from scoring.base import CopyingEngine, Expectation, Outcome, RuleViolation
from scoring.base import VariantSpec  # the variants, declared once

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
# … and the rulings the rules reference shows (never raised: they settle, they do not refuse).
TIES_RULE = "SV-TIES"
CARRY_RULE = "SV-CARRY"
END_RULE = "SV-END"


def _m(key: str, **params: Any) -> Msg:
    return Msg(f"sv.{key}", params)


def points_msg(cards: Sequence[int]) -> Msg:
    """"the 6" for one point card, "4 and -1 (3 in all)" for several."""
    if len(cards) == 1:
        return _m("points.one", card=cards[0])
    return _m("points.many", cards=tuple(cards), total=sum(cards))


def _poss(pairs: Iterable[tuple[str, int]]) -> tuple[Msg, ...]:
    return tuple(_m("poss", player=p, card=c) for p, c in pairs)


@dataclass(frozen=True)
class Decision:
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


def decision_msgs(decision: Decision, ties: str, points: Msg) -> tuple[Msg, ...]:
    """The sentences saying how ``decision`` was reached (not the carry-over or the loss)."""
    side = "high" if decision.high else "low"
    if not decision.set_aside:
        return (_m(f"award.top.{side}", player=decision.winner, card=decision.card, points=points),)
    aside = _poss(decision.set_aside)
    if ties == "highest-unique":
        if decision.winner is None:
            return (_m("award.unique.nobody", aside=aside),)
        return (_m("award.unique", aside=aside, player=decision.winner, card=decision.card, points=points),)
    if decision.winner is not None:
        return (_m("award.after_cancel", cancelled=aside, player=decision.winner, card=decision.card, points=points),)
    if decision.tied_again:
        return (_m("award.cancel_twice", cancelled=aside, again=_poss(decision.tied_again)),)
    return (_m("award.cancel_all", cancelled=aside),)


def _sign_mode(total: int) -> str:
    return "suricate" if total >= 0 else "vulture"


class StupideVautourEngine(CopyingEngine):
    """The Stupide Vautour referee.

    Public, read-only state for the table screen (also gathered by :meth:`player_view`):

    - ``ties``: the tie reading in force (``"one-level"`` or ``"highest-unique"``).
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
      carry-over / loss) as :class:`Msg`; empty before round 1.

    ``rules`` lists the refusals (SV-REVEAL-OPEN, SV-REVEAL-REPEAT, SV-PLAY-NO-REVEAL,
    SV-PLAY-PLAYERS, SV-PLAY-USED, SV-NO-SUCH-CARD, SV-GAME-OVER) followed by three rulings the
    rules reference shows but the engine never refuses with (SV-TIES, SV-CARRY, SV-END).
    A player named twice in one play cannot be expressed in a record (``cards`` is a JSON object
    whose keys are unique) and a name that is not at the table is malformed at parse time; the
    engine still refuses an unknown name under SV-PLAY-PLAYERS if an action is built by hand.
    """

    games = (GAME,)
    rules = (REVEAL_OPEN, REVEAL_REPEAT, PLAY_NO_REVEAL, PLAY_PLAYERS, PLAY_USED, NO_SUCH_CARD, GAME_OVER,
             TIES_RULE, CARRY_RULE, END_RULE)
    variants = (VariantSpec("ties", ("one-level", "highest-unique"), "one-level",
                            {"one-level": "SV-TIES", "highest-unique": "SV-TIES"}),)

    def __init__(self, record: Any):
        super().__init__(record)
        variant = getattr(record, "variant", None)
        ties = getattr(variant, "ties", None) if variant is not None else None
        self.ties: str = ties or DEFAULT_TIES
        if self.ties not in TIES:
            raise ValueError(f"unknown ties reading {self.ties!r}")
        self.rounds_played: int = 0
        self.round_open: bool = False
        self._revealed: list[int] = []
        self._revealed_in: dict[int, int] = {}
        self._pending: list[int] = []
        self._played_in: dict[str, dict[int, int]] = {p: {} for p in self.players}
        self._last_played: dict[str, int | None] = {p: None for p in self.players}
        self._taken: dict[str, list[int]] = {p: [] for p in self.players}
        self._lost: list[int] = []
        self._last_award: tuple[Msg, ...] = ()

    # -- read-only state --------------------------------------------------------------------

    @property
    def round(self) -> int:
        return min(self.rounds_played + 1, ROUNDS)

    @property
    def over(self) -> bool:
        return self.rounds_played >= ROUNDS

    @property
    def revealed(self) -> tuple[int, ...]:
        return tuple(self._revealed)

    @property
    def deck_left(self) -> int:
        return len(SV_POINT_CARDS) - len(self._revealed)

    @property
    def pending(self) -> tuple[int, ...]:
        return tuple(self._pending)

    @property
    def pending_sum(self) -> int:
        return sum(self._pending)

    @property
    def pending_mode(self) -> str | None:
        return _sign_mode(self.pending_sum) if self._pending else None

    @property
    def hands(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(c for c in SV_HAND if c not in self._played_in[p]) for p in self.players}

    @property
    def last_played(self) -> dict[str, int | None]:
        return dict(self._last_played)

    @property
    def played_in(self) -> dict[str, dict[int, int]]:
        return {p: dict(rounds) for p, rounds in self._played_in.items()}

    @property
    def taken(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(cards) for p, cards in self._taken.items()}

    @property
    def scores(self) -> dict[str, int]:
        return {p: sum(cards) for p, cards in self._taken.items()}

    @property
    def lost(self) -> tuple[int, ...]:
        return tuple(self._lost)

    @property
    def last_award(self) -> tuple[Msg, ...]:
        return self._last_award

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        return {
            "ties": self.ties,
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

    # -- actions ----------------------------------------------------------------------------

    def _apply(self, action: Any) -> Iterable[Msg]:
        kind = getattr(action, "type", None)
        if self.over:
            raise RuleViolation(GAME_OVER, "sv.refuse.game_over", rounds=ROUNDS)
        if kind == "reveal":
            return self._reveal(action.card)
        if kind == "play":
            return self._play(action.cards)
        raise ValueError(f"stupide-vautour has no action {kind!r}")

    def _reveal(self, card: int) -> list[Msg]:
        if self.round_open:
            raise RuleViolation(REVEAL_OPEN, "sv.refuse.reveal_open", round=self.round,
                                points=points_msg(self._pending))
        if card not in SV_POINT_CARDS:
            raise RuleViolation(NO_SUCH_CARD, "sv.refuse.not_a_point_card", card=card)
        if card in self._revealed_in:
            raise RuleViolation(REVEAL_REPEAT, "sv.refuse.revealed_already", card=card,
                                round=self._revealed_in[card])
        number = self.rounds_played + 1
        carried = list(self._pending)
        self._revealed.append(card)
        self._revealed_in[card] = number
        self._pending.append(card)
        self.round_open = True
        mode = _sign_mode(self.pending_sum)
        if not carried:
            return [_m(f"reveal.{mode}", round=number, card=card)]
        return [_m(f"reveal.joins.{mode}", round=number, card=card, pending=tuple(carried),
                   total=self.pending_sum)]

    def _play(self, cards: Mapping[str, int]) -> list[Msg]:
        number = self.rounds_played + 1
        if not self.round_open:
            raise RuleViolation(PLAY_NO_REVEAL, "sv.refuse.no_reveal", round=number)
        strangers = [p for p in cards if p not in self._played_in]
        if strangers:
            raise RuleViolation(PLAY_PLAYERS, "sv.refuse.stranger", players=tuple(strangers))
        missing = [p for p in self.players if p not in cards]
        if missing:
            raise RuleViolation(PLAY_PLAYERS, "sv.refuse.missing", round=number, players=tuple(missing))
        for player in self.players:
            card = cards[player]
            if card not in SV_HAND:
                raise RuleViolation(NO_SUCH_CARD, "sv.refuse.not_a_hand_card", player=player, card=card)
            if card in self._played_in[player]:
                raise RuleViolation(PLAY_USED, "sv.refuse.played_already", player=player, card=card,
                                    round=self._played_in[player][card])

        for player in self.players:
            self._played_in[player][cards[player]] = number
            self._last_played[player] = cards[player]
        self.rounds_played = number
        self.round_open = False

        pending = list(self._pending)
        points = points_msg(pending)
        decision = decide(cards, self.players, self.pending_sum >= 0, self.ties)
        award = list(decision_msgs(decision, self.ties, points))
        if decision.winner is not None:
            self._taken[decision.winner].extend(pending)
            self._pending.clear()
        elif number < ROUNDS:
            key = "carry.one" if len(pending) == 1 else "carry.many"
            award.append(_m(key, points=points, total=sum(pending)))
        if number == ROUNDS and self._pending:
            self._lost.extend(self._pending)
            self._pending.clear()
            award.append(lost_msg(self._lost))
        self._last_award = tuple(award)

        events = [_m("played", round=number,
                     cards=tuple(_m("played_by", player=p, card=cards[p]) for p in self.players))]
        events.extend(award)
        if number == ROUNDS:
            events.append(_m("game_over", rounds=ROUNDS))
        return events

    # -- what next, and the end -------------------------------------------------------------

    def expected(self) -> Expectation:
        if self.over:
            return Expectation((), (), _m("prompt.over", rounds=ROUNDS))
        if not self.round_open:
            if self._pending:
                prompt = _m("prompt.reveal_pending", round=self.round, left=self.deck_left,
                            pending=points_msg(self._pending))
            else:
                prompt = _m("prompt.reveal", round=self.round, left=self.deck_left)
            return Expectation((), ("reveal",), prompt)
        key = "prompt.play.high" if self.pending_sum >= 0 else "prompt.play.low"
        return Expectation(self.players, ("play",), _m(key, round=self.round, points=points_msg(self._pending)))

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        scores = self.scores
        winners, ranking, verdict = settle(self.players, scores)
        explanation: list[Msg] = []
        for player in self.players:
            taken = self._taken[player]
            if taken:
                explanation.append(_m("end.tally", player=player, cards=tuple(taken), score=scores[player]))
            else:
                explanation.append(_m("end.tally_none", player=player))
        if self._lost:
            explanation.append(lost_msg(self._lost))
        explanation.extend(verdict)
        return Outcome(
            scores=scores,
            eliminated=(),
            winners=winners,
            replay_required=False,
            ranking=ranking,
            explanation=tuple(explanation),
        )


def lost_msg(cards: Sequence[int]) -> Msg:
    if len(cards) == 1:
        return _m("lost.one", card=cards[0])
    return _m("lost.many", cards=tuple(cards))


def settle(players: Sequence[str], scores: Mapping[str, int]
           ) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...], tuple[Msg, ...]]:
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
    if len(top) == 1:
        winners = top
        groups = [at[v] for v in levels]
        explain = (_m("end.winner", player=top[0], score=levels[0]),)
    elif len(levels) == 1:
        winners = top
        groups = [top]
        explain = (_m("end.all_equal", score=levels[0]),)
    else:
        second = at[levels[1]]
        winners = second
        groups = [second, top] + [at[v] for v in levels[2:]]
        first = _m("end.top_tie", players=top, score=levels[0])
        if len(second) == 1:
            win = _m("end.second_wins", player=second[0], score=levels[1])
        else:
            win = _m("end.second_shared", players=second, score=levels[1])
        note = "end.ranking_note" if len(levels) > 2 else "end.ranking_note_short"
        explain = (first, win, _m(note, players=top, rank=len(second) + 1))
    ranking: list[tuple[str, int]] = []
    place = 1
    for group in groups:
        ranking.extend((p, place) for p in group)
        place += len(group)
    return winners, tuple(ranking), explain
