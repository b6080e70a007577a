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
from functools import lru_cache, partial
from operator import attrgetter, itemgetter
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from models.games.stupide_vautour import STUPIDE_VAUTOUR, SV_HAND, SV_POINT_CARDS
from models.games.stupide_vautour_structs import SVAction
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
_SILENT: tuple[Event, ...] = ()  # what a quiet engine's actions return
_HAND_SET = frozenset(SV_HAND)
# what ``run``'s check of a whole record reads (``_run_whole``): the actions' types in turn from the
# first round, by how many actions there are, and the readers of their fields
_TURNS = [[("reveal", "play")[i % 2] for i in range(n)] for n in range(2 * ROUNDS + 1)]
_KIND, _CARD, _CARDS = attrgetter("type"), attrgetter("card"), attrgetter("cards")


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
    if ties == "one-level":  # the tied best cards set aside, the next level decides (looked at once)
        aside = tuple((p, top) for p in seating if cards.get(p) == top)
        rest = [v for v in played if v != top]
        if not rest:
            return Decision(high, None, None, aside)
        after = max(rest) if high else min(rest)
        second = [p for p in seating if cards.get(p) == after]
        if len(second) == 1:
            return Decision(high, second[0], after, aside)
        return Decision(high, None, None, aside, tuple((p, after) for p in second))
    order = [p for p in seating if p in cards]
    values = sorted(set(cards.values()), reverse=high)  # best first
    holders = {v: [p for p in order if cards[p] == v] for v in values}
    unique = [v for v in values if len(holders[v]) == 1]
    if unique:
        best = unique[0]
        aside = tuple((p, v) for v in values if v != best and (v > best) == high for p in holders[v])
        return Decision(high, holders[best][0], best, aside)
    return Decision(high, None, None, tuple((p, v) for v in values for p in holders[v]))


def _taker(values: Sequence[int], seating: Sequence[str], high: bool, ties: str) -> str | None:
    """``decide(cards, seating, high, ties).winner`` from every player's card in seating order
    (``values``), without the cards set aside on the way: what a verdict's fold reads of a round."""
    pick = max if high else min
    top = pick(values)
    if values.count(top) == 1:
        return seating[values.index(top)]
    if ties == "one-level":  # the tied best cards set aside, the next level decides (looked at once)
        rest = [v for v in values if v != top]
        if not rest:
            return None
        after = pick(rest)
        return seating[values.index(after)] if rest.count(after) == 1 else None
    once = [v for v in values if values.count(v) == 1]  # highest-unique: the best value played once
    return seating[values.index(pick(once))] if once else None


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


# What the last play settled, kept so its sentences (``last_award``) are built only when read:
# (round number, every player's card, the point cards at stake (a list no longer changed), who took
# them (None: carried over, or lost after round 15), the deciding card when it was one best card
# without a tie, else None). A plain tuple: one is made every round.
LastRound = tuple[int, Mapping[str, int], list[int], "str | None", "int | None"]


@dataclass(slots=True)
class StupideVautourState:
    players: tuple[str, ...]
    phase: Phase = Phase.REVEAL
    plays: list[Mapping[str, int]] = field(default_factory=list)  # every player's card, round by round
    used: dict[str, set[int]] = field(default_factory=dict)  # player -> the hand cards they played so far
    revealed: list[int] = field(default_factory=list)  # point cards, in the order turned over (one a round)
    pending: list[int] = field(default_factory=list)  # in play or carried over, in the order they came up
    pending_sum: int = 0
    taken: dict[str, list[int]] = field(default_factory=dict)  # player -> point cards taken, in order
    lost: list[int] = field(default_factory=list)  # never taken (after the 15th round)
    last_round: LastRound | None = None  # what the last play settled (its sentences: ``last_award``)

    @property
    def rounds_played(self) -> int:
        return len(self.plays)


class StupideVautourEngine(Engine[SVAction]):
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
        self.state = StupideVautourState(self.players, taken={p: [] for p in self.players},
                                         used={p: set() for p in self.players})
        # the seats as a set: a play names exactly these players (a dict's keys compare with a set)
        self._seats = frozenset(self.players)

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
        used = self.state.used
        return {p: tuple(c for c in SV_HAND if c not in used[p]) for p in self.players}

    @property
    def last_played(self) -> dict[str, int | None]:
        plays = self.state.plays
        return {p: plays[-1][p] if plays else None for p in self.players}

    @property
    def played_in(self) -> dict[str, dict[int, int]]:
        plays = self.state.plays
        return {p: {cards[p]: number for number, cards in enumerate(plays, start=1)} for p in self.players}

    @property
    def taken(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(cards) for p, cards in self.state.taken.items()}

    @property
    def scores(self) -> dict[str, int]:
        return {p: sum(cards) for p, cards in self.state.taken.items()}

    @property
    def lost(self) -> tuple[int, ...]:
        return tuple(self.state.lost)

    @property
    def last_award(self) -> tuple[Event, ...]:
        """Built from ``state.last_round`` when read: a replay for a verdict never reads it."""
        last = self.state.last_round
        return () if last is None else self._award(last)

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

    def _check(self, action: SVAction) -> None:
        state = self.state
        phase = state.phase
        if phase is _OVER:
            raise RuleViolation(GAME_OVER, "sv.refuse.game_over", rounds=ROUNDS)
        if action.type == "play":
            self._check_play(action.cards)
        elif action.type == "reveal":
            card = action.card
            if phase is _PLAY:
                raise RuleViolation(REVEAL_OPEN, "sv.refuse.reveal_open", round=self.round,
                                    points=points_msg(state.pending))
            if card not in _POINT_SET:
                raise RuleViolation(NO_SUCH_CARD, "sv.refuse.not_a_point_card", card=card)
            if card in state.revealed:
                raise RuleViolation(REVEAL_REPEAT, "sv.refuse.revealed_already", card=card,
                                    round=state.revealed.index(card) + 1)
        else:
            raise ValueError(f"stupide-vautour has no action {action!r}")

    def _check_play(self, cards: Mapping[str, int]) -> None:
        state = self.state
        if state.phase is not _PLAY:
            raise RuleViolation(PLAY_NO_REVEAL, "sv.refuse.no_reveal", round=state.rounds_played + 1)
        if cards.keys() != self._seats:  # (key views compare as sets)
            strangers = [p for p in cards if p not in self._seats]
            if strangers:
                raise RuleViolation(PLAY_PLAYERS, "sv.refuse.stranger", players=tuple(strangers))
            raise RuleViolation(PLAY_PLAYERS, "sv.refuse.missing", round=state.rounds_played + 1,
                                players=tuple(p for p in self.players if p not in cards))
        used = state.used
        if _HAND_SET.issuperset(cards.values()) and not any([card in used[p] for p, card in cards.items()]):
            return  # the usual play: every card a hand card, none played before
        for player in self.players:
            card = cards[player]
            if card not in _HAND_SET:
                raise RuleViolation(NO_SUCH_CARD, "sv.refuse.not_a_hand_card", player=player, card=card)
            if card in used[player]:
                number = next(n for n, play in enumerate(state.plays, start=1) if play[player] == card)
                raise RuleViolation(PLAY_USED, "sv.refuse.played_already", player=player, card=card,
                                    round=number)

    # -- the contract: perform --------------------------------------------------------------

    def _perform(self, action: SVAction) -> list[Event] | tuple[Event, ...]:
        if action.type == "play":
            last = self._play(action.cards)
            return _SILENT if self.quiet else self._play_events(last)
        return self._reveal(action.card)

    def _reveal(self, card: int) -> list[Event] | tuple[Event, ...]:
        state = self.state
        state.revealed.append(card)
        state.phase = _PLAY
        pending = state.pending
        pending.append(card)
        state.pending_sum += card
        if self.quiet:
            return _SILENT
        number = len(state.plays) + 1
        if len(pending) == 1:
            return [event((), _REVEAL_KEY[card >= 0], round=number, card=card)]
        return [event(CARRY_RULE, _JOINS_KEY[state.pending_sum >= 0], round=number, card=card,
                      pending=tuple(pending[:-1]), total=state.pending_sum)]

    def _play(self, cards: Mapping[str, int]) -> LastRound:
        """Play every player's card and settle the points (:meth:`run`'s loop calls it too)."""
        state = self.state
        plays = state.plays
        plays.append(cards)
        used = state.used
        for player, given in cards.items():
            used[player].add(given)
        number = len(plays)
        pending = state.pending
        total = state.pending_sum
        values = list(cards.values())
        top = max(values) if total >= 0 else min(values)
        winner: str | None
        if values.count(top) == 1:  # the usual round: one best card, no tie to settle in either reading
            winner, card = list(cards)[values.index(top)], top
        else:
            winner, card = decide(cards, self.players, total >= 0, self.ties).winner, None
        last = (number, cards, pending, winner, card)
        if winner is not None:
            state.taken[winner].extend(pending)
            state.pending = []
            state.pending_sum = 0
        else:  # carried over: the round's list stays as it was, the next reveal joins a copy
            state.pending = pending.copy()
        if number == ROUNDS:
            state.phase = _OVER
            if state.pending:
                state.lost.extend(state.pending)
                state.pending = []
                state.pending_sum = 0
        else:
            state.phase = _REVEAL
        state.last_round = last
        return last

    def run(self, actions: Iterable[SVAction]) -> None:
        """The verdict's fold (see :meth:`Engine.run`), with the usual reveal and play checked inline:
        the same state as :meth:`apply` leaves (``tests/test_engine_base.py`` compares them), no
        sentence built. Anything unusual (a tie, a refusal) goes through ``_check`` and ``_perform``.
        A fresh engine given a list it accepts whole (a verdict's record, most often) checks it all at
        once first (:meth:`_run_whole`); anything that list does not pass goes action by action."""
        state = self.state
        if not state.revealed and actions.__class__ is list and self._run_whole(actions):
            return
        check, perform, play, reveal = self._check, self._perform, self._play, self._reveal
        seats = self._seats
        used, revealed = state.used, state.revealed
        hand, points = _HAND_SET, _POINT_SET
        applied = self.applied
        self.quiet = True
        try:
            for action in actions:
                phase = state.phase
                if action.type == "play":
                    cards = action.cards
                    if (phase is _PLAY and cards.keys() == seats and hand.issuperset(cards.values())
                            and not any([card in used[p] for p, card in cards.items()])):
                        play(cards)
                        applied += 1
                        continue
                else:
                    card = action.card
                    if phase is _REVEAL and card in points and card not in revealed:
                        reveal(card)
                        applied += 1
                        continue
                check(action)
                perform(action)
                applied += 1
        finally:
            self.applied = applied
            self.quiet = False

    def _run_whole(self, actions: list[SVAction]) -> bool:
        """Fold a fresh engine over ``actions`` when every one of them is accepted, checking them all
        before changing anything: True when done (the state as :meth:`apply` would leave it), False
        (nothing changed) when any action might be refused, for :meth:`run`'s loop to refuse it at its
        place. What is checked is what ``_check`` refuses, for the whole list at once: reveal and
        play in turns from the first round (nothing after the 15th play), point cards revealed once,
        each play naming exactly the players at the table, hand cards only, none played twice by the
        same player."""
        count = len(actions)
        if count > 2 * ROUNDS or list(map(_KIND, actions)) != _TURNS[count]:
            return False
        shown = list(map(_CARD, actions[::2]))
        if not _POINT_SET.issuperset(shown) or len(set(shown)) != len(shown):
            return False
        hands = list(map(_CARDS, actions[1::2]))
        seating = self.players
        if len(seating) < 2:  # (itemgetter reads one key as itself, not in a tuple)
            return False
        # each play names exactly the players at the table: every one of them (or a KeyError), and no
        # more names (a play names at least as many, so no play names more when the sum is no more)
        try:
            rounds = list(map(itemgetter(*seating), hands))  # every round's cards, in seating order
        except KeyError:
            return False
        if sum(map(len, hands)) != len(seating) * len(hands):
            return False
        if rounds:
            cards_of = list(map(set, zip(*rounds)))  # each player's cards, once each (at most a card a round)
            if (sum(map(len, cards_of)) != len(rounds) * len(seating)  # a card played again
                    or not all(map(_HAND_SET.issuperset, cards_of))):
                return False
        state = self.state
        ties, taken = self.ties, state.taken
        pending: list[int] = state.pending
        total = state.pending_sum
        held, winner, best = pending, None, None
        for card, values in zip(shown, rounds):
            pending.append(card)
            total += card
            top = max(values) if total >= 0 else min(values)
            held = pending
            if values.count(top) == 1:  # the usual round, as _play settles it
                winner, best = seating[values.index(top)], top
            else:
                winner, best = _taker(values, seating, total >= 0, ties), None
            if winner is not None:
                taken[winner].extend(pending)
                pending, total = [], 0
            else:  # carried over: the round's list stays as it was, the next reveal joins a copy
                pending = pending.copy()
        number = len(rounds)
        if number:
            state.plays.extend(hands)
            for player, cards in zip(seating, cards_of):
                state.used[player].update(cards)
            state.last_round = (number, hands[-1], held, winner, best)
        state.revealed.extend(shown)
        if number == ROUNDS:
            state.phase = _OVER
            state.lost.extend(pending)
            pending, total = [], 0
        elif len(shown) > number:  # ends on a reveal: the round is open
            pending.append(shown[-1])
            total += shown[-1]
            state.phase = _PLAY
        state.pending, state.pending_sum = pending, total
        self.applied += count
        return True

    def _play_events(self, last: LastRound) -> list[Event]:
        number, cards = last[0], last[1]
        events = [event((), "sv.played", round=number, cards=tuple([_played_by(p, cards[p]) for p in self.players]))]
        events.extend(self._award(last))
        if number == ROUNDS:
            events.append(event(GAME_OVER, "sv.game_over", rounds=ROUNDS))
        return events

    def _award(self, last: LastRound) -> tuple[Event, ...]:
        """The sentences saying who took the points of round ``last`` and why (or the carry-over, or
        the loss after the 15th round)."""
        number, cards, pending, winner, card = last
        total = sum(pending)
        points = points_msg(pending)
        carried = len(pending) > 1
        high = total >= 0
        award: list[Event]
        if card is not None:
            award = [event(_AWARD_RULES[carried], _TOP_KEY[high], player=winner, card=card, points=points)]
        else:
            decision = decide(cards, self.players, high, self.ties)
            award = list(decision_msgs(decision, self.ties, points, carried))
        final = number == ROUNDS
        if winner is None and not final:
            key = "sv.carry.one" if len(pending) == 1 else "sv.carry.many"
            award.append(event(CARRY_RULE, key, points=points, total=total))
        if final and self.state.lost:
            award.append(lost_msg(self.state.lost))
        return tuple(award)

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
        winners, ranking = standings(self.players, scores)
        return Outcome(scores=scores, eliminated=(), winners=winners, replay_required=False, ranking=ranking,
                       explanation=partial(self._explain, scores))

    def _explain(self, scores: Mapping[str, int]) -> list[Event]:
        """The outcome's sentences (built when read): each player's tally, the lost cards, who won."""
        explanation: list[Event] = []
        for player, cards in self.state.taken.items():
            if cards:
                explanation.append(event(END_RULE, "sv.end.tally", player=player, cards=tuple(cards),
                                         score=scores[player]))
            else:
                explanation.append(event(END_RULE, "sv.end.tally_none", player=player))
        if self.state.lost:
            explanation.append(lost_msg(self.state.lost))
        explanation.extend(settle_msgs(self.players, scores))
        return explanation


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
    winners, ranking = standings(players, scores)
    return winners, ranking, settle_msgs(players, scores)


def standings(players: Sequence[str], scores: Mapping[str, int]
              ) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    """Winners and ranking (see :func:`settle`), without the sentences."""
    ordered = sorted(players, key=scores.__getitem__, reverse=True)  # stable: ties keep seat order
    if len(ordered) == 1 or scores[ordered[0]] != scores[ordered[1]]:  # one best score: ranked by score
        ranked: list[tuple[str, int]] = []
        previous = None
        for i, player in enumerate(ordered, start=1):
            score = scores[player]
            ranked.append((player, ranked[-1][1] if score == previous else i))
            previous = score
        return (ordered[0],), tuple(ranked)
    levels = sorted(set(scores.values()), reverse=True)
    at = {v: tuple(p for p in players if scores[p] == v) for v in levels}
    top = at[levels[0]]
    if len(top) == 1 or len(levels) == 1:
        winners = top
        groups = [at[v] for v in levels]
    else:
        winners = at[levels[1]]
        groups = [winners, top] + [at[v] for v in levels[2:]]
    ranking: list[tuple[str, int]] = []
    place = 1
    for group in groups:
        ranking.extend((p, place) for p in group)
        place += len(group)
    return winners, tuple(ranking)


def settle_msgs(players: Sequence[str], scores: Mapping[str, int]) -> tuple[Event, ...]:
    """The sentences explaining :func:`standings`."""
    levels = sorted(set(scores.values()), reverse=True)
    top = tuple(p for p in players if scores[p] == levels[0])
    if len(top) == 1:
        return (event(END_RULE, "sv.end.winner", player=top[0], score=levels[0]),)
    if len(levels) == 1:
        return (event((END_RULE, END_TIE_RULE), "sv.end.all_equal", score=levels[0]),)
    second = tuple(p for p in players if scores[p] == levels[1])
    first = event(END_RULE, "sv.end.top_tie", players=top, score=levels[0])
    if len(second) == 1:
        win = event(END_RULE, "sv.end.second_wins", player=second[0], score=levels[1])
    else:
        win = event((END_RULE, END_TIE_RULE), "sv.end.second_shared", players=second, score=levels[1])
    note = "sv.end.ranking_note" if len(levels) > 2 else "sv.end.ranking_note_short"
    return (first, win, event((END_RULE, END_TIE_RULE), note, players=top, rank=len(second) + 1, winners=len(second)))
