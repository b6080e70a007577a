"""The engine contract every game's referee follows.

An engine is built from a record's envelope (players, first player, variant, …), then fed the
record's actions one at a time, the way python-chess validates a move before ``push`` and PokerKit
verifies before it does:

- ``check(action)`` validates the action completely against the current state and raises
  :class:`RuleViolation` if the rules refuse it. It never changes anything.
- ``apply(action)`` = ``check`` then ``_perform``: ``_perform`` may assume the action is legal and
  changes the state. Nothing is copied, so an action costs the same early and late in a game.
- ``apply`` returns what happened as :class:`Event` s: sentences to show, each naming the rule ids
  that made it happen (the app's "why?" reads them on every game's log and results).
- ``run(actions)`` is a fold of ``apply`` for a caller that reads no events (the verdict): the
  engine is ``quiet`` meanwhile, and may skip building the events of its most frequent actions.
- ``expected()`` says who must act and with which action types; ``outcome()`` is the result once
  the game is finished; its explanation lines are Events too.
- ``variants`` declares the game's variant keys once (:class:`VariantSpec`): record validation,
  set-up screens, the rules reference and the JSON Schema read that declaration.

Replaying a record is a fold of ``apply`` over its actions (see referee.py).
Engines are pure: no UI, no database, no clock, no randomness.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, ClassVar, Generic, Iterable, Mapping, Sequence, TypeVar

from models.game_spec import GameSpec, RuleSpec, VariantSpec  # declared by the games' specs (models/games/)
from models.i18n import Msg

Score = int | Fraction


class RuleViolation(Exception):
    """An action the rules refuse. ``rule`` is a stable id from the rules reference
    (e.g. ``HS-BID-RAISE``); ``msg`` is the sentence a player reads, in any language."""

    def __init__(self, rule: str, key: str, **params: Any):
        self.rule = rule
        self.msg = Msg(key, params)
        super().__init__(f"{rule}: {self.msg}")

    def message(self, lang: str = "en") -> str:
        return self.msg.render(lang)


@dataclass(frozen=True)
class Event(Msg):
    """Something that happened at the table, as a sentence (a catalogue key and its parameters),
    with the ids of the rules that made it happen (empty only for plain bookkeeping such as
    "Anne bids 12"). Renders like any :class:`Msg`."""

    rules: tuple[str, ...] = ()


_new_object = object.__new__


def event(rules: str | tuple[str, ...], key: str, **params: Any) -> Event:
    """``event("HS-MISFORTUNE", "hs.event.misfortune", player=…)``; ``()`` for plain bookkeeping.

    Engines build one or more Events per action, so this is on the replay's hot path: it fills the
    frozen dataclass's fields directly, which is what its generated ``__init__`` does at about twice
    the cost (the result is the same value: equal to ``Event(key, params, rules)``)."""
    made = _new_object(Event)
    fields = made.__dict__
    fields["key"] = key
    fields["params"] = params
    fields["rules"] = (rules,) if rules.__class__ is str else rules
    return made


def rules_of(messages: Iterable[Msg]) -> tuple[str, ...]:
    """The rule ids behind these sentences (the :class:`Event` s among them), in order, once each:
    what the app's "why?" shows for a log entry or a result."""
    found: dict[str, None] = {}
    for message in messages:
        for rule in getattr(message, "rules", ()):
            found[rule] = None
    return tuple(found)


@dataclass(frozen=True)
class Expectation:
    """What the table must enter next.

    ``players``: who may act (several for simultaneous or any-order actions; empty when the next
    entry is not a player's, e.g. a card revealed, or when the game is over).
    ``types``: the action types accepted now (empty once the game is finished).
    ``prompt``: one sentence for the top of the table screen.
    """

    players: tuple[str, ...]
    types: tuple[str, ...]
    prompt: Msg


class Outcome:
    """The result of a finished game. ``explanation`` (Events: each line names the rules that settled
    it) may be given as a function that builds it: it is then built when first read and kept, as
    python-chess builds an ``Outcome`` lazily, so a caller that needs only the scores (a verdict's
    numbers, a season's statistics) does not pay for the sentences. An engine accepts no action once
    its game is finished, so the sentences read the state as the game ended. ``notes``: a line for
    some players, shown beside their name on the results (High Society's money left, where it
    parted players of equal score). Read-only, equal when every field (the sentences included) is."""

    __slots__ = ("scores", "eliminated", "winners", "replay_required", "ranking", "_explanation", "notes")

    scores: Mapping[str, Score]
    eliminated: tuple[str, ...]
    winners: tuple[str, ...]
    replay_required: bool
    ranking: tuple[tuple[str, int], ...]
    _explanation: tuple[Msg, ...] | Callable[[], Iterable[Msg]]
    notes: Mapping[str, Msg]

    def __init__(self, scores: Mapping[str, Score], eliminated: tuple[str, ...], winners: tuple[str, ...],
                 replay_required: bool, ranking: tuple[tuple[str, int], ...],
                 explanation: tuple[Msg, ...] | Callable[[], Iterable[Msg]],
                 notes: Mapping[str, Msg] | None = None):
        setter = object.__setattr__
        setter(self, "scores", scores)
        setter(self, "eliminated", eliminated)
        setter(self, "winners", winners)
        setter(self, "replay_required", replay_required)
        setter(self, "ranking", ranking)
        setter(self, "_explanation", explanation)
        setter(self, "notes", notes or {})

    @property
    def explanation(self) -> tuple[Msg, ...]:
        made = self._explanation
        if isinstance(made, tuple):
            return made
        built = tuple(made())
        object.__setattr__(self, "_explanation", built)
        return built

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an Outcome is read-only ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Outcome is read-only ({name})")

    def _fields(self) -> tuple[Any, ...]:
        return (self.scores, self.eliminated, self.winners, self.replay_required, self.ranking, self.explanation,
                self.notes)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Outcome:
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # (its scores are a mapping)

    def __repr__(self) -> str:
        return (f"Outcome(scores={self.scores!r}, eliminated={self.eliminated!r}, winners={self.winners!r}, "
                f"replay_required={self.replay_required!r}, ranking={self.ranking!r}, "
                f"explanation={self.explanation!r}, notes={self.notes!r})")


def rank_by(players: Sequence[str], keys: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """Competition ranking (1, 1, 3): higher key first, equal keys share the rank.
    Ties keep seating order for display."""
    ordered = sorted(players, key=lambda p: keys[p], reverse=True)  # stable: ties keep seat order
    ranking: list[tuple[str, int]] = []
    for i, player in enumerate(ordered):
        if i and keys[player] == keys[ordered[i - 1]]:
            ranking.append((player, ranking[-1][1]))
        else:
            ranking.append((player, i + 1))
    return tuple(ranking)


def score_out(value: Score) -> int | float:
    """A score as the verdict writes it: integers stay integers, exact halves become .5."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


A = TypeVar("A")  # a game's action union (its ``models/games/<game>_structs.py``: ``HSAction``…)


class Engine(ABC, Generic[A]):
    """Base of every game's referee, typed with its game's action union (``Engine[HSAction]``), so
    that mypy checks ``_check`` and ``_perform`` against the actions they receive (a method narrows
    the union by its tag, ``if action.type == "bid":``). Subclasses implement ``_check`` (validate,
    change nothing), ``_perform`` (change the state for a legal action), ``expected`` and ``outcome``."""

    games: ClassVar[tuple[str, ...]]
    # the game's spec (models/games/): a subclass that names one gets the four below from it
    spec: ClassVar[GameSpec]
    # every rule id of this game in the rules reference: the ones it refuses with, and the rulings
    # it applies without refusing anything (ties, end of game…)
    rules: ClassVar[tuple[str, ...]]
    # the rules reference, in the rulebook's order (``rules`` is then ``tuple(r.id for r in rule_specs)``)
    rule_specs: ClassVar[tuple[RuleSpec, ...]] = ()
    variants: ClassVar[tuple[VariantSpec, ...]] = ()
    # readings the rulebook rules out, per rule id: regular expressions (any language, any edition's
    # text) that no text of that rule may match, so no ruling ever offers one as its "other reading"
    excluded_readings: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if (spec := cls.__dict__.get("spec")) is not None:
            cls.rule_specs, cls.variants, cls.excluded_readings = spec.rule_specs, spec.variants, spec.excluded_readings
            cls.rules = tuple(rule.id for rule in spec.rule_specs)

    def __init__(self, record: Any):
        self.game: str = record.game
        self.players: tuple[str, ...] = tuple(record.players)
        self.first_player: str = record.starting_player
        self.applied: int = 0  # how many actions were accepted
        # True while :meth:`run` folds actions for a caller that reads no events: an engine may then
        # skip building the events of its most frequent actions (what ``_perform`` returns is dropped)
        self.quiet: bool = False

    # -- the contract -------------------------------------------------------------------------

    def apply(self, action: A) -> tuple[Msg, ...]:
        """Accept the action and return what happened, or raise RuleViolation with the state
        unchanged (``_check`` refuses before ``_perform`` changes anything). ``action`` is a parsed
        record action (``models.record.parse_action``): the caller parses, as python-chess's
        ``push`` takes a ``Move``."""
        self._check(action)
        events = tuple(self._perform(action))
        self.applied += 1
        return events

    def run(self, actions: Iterable[A]) -> None:
        """Apply parsed record actions in order, for a caller that reads none of their events (a
        verdict): the same checks and changes as :meth:`apply`, with the engine ``quiet`` and no
        tuple made per action. Raises the first refusal; ``applied`` then counts the actions
        accepted before it, and the state is as they left it."""
        check, perform = self._check, self._perform
        applied = self.applied
        self.quiet = True
        try:
            for action in actions:
                check(action)
                perform(action)
                applied += 1
        finally:
            self.applied = applied
            self.quiet = False

    def can(self, action: A) -> bool:
        try:
            self.check(action)
        except RuleViolation:
            return False
        return True

    def check(self, action: A) -> None:
        """Raise RuleViolation if the parsed ``action`` would be refused now; change nothing."""
        self._check(action)

    @property
    def finished(self) -> bool:
        return self.outcome() is not None

    def variant_value(self, record: Any, key: str) -> Any:
        """The record's value for a declared variant key, or the declared default."""
        variant = getattr(record, "variant", None)
        chosen = variant.get(key) if isinstance(variant, Mapping) else getattr(variant, key, None)
        if chosen is not None:
            return chosen
        for spec in self.variants:
            if spec.key == key:
                return spec.default_for(self.game, len(self.players))
        raise KeyError(key)

    @abstractmethod
    def _check(self, action: A) -> None:
        """Raise RuleViolation if the action is refused now. Must not change any state."""

    @abstractmethod
    def _perform(self, action: A) -> Iterable[Msg]:
        """Perform an action ``_check`` accepted; return its Events."""

    @abstractmethod
    def expected(self) -> Expectation:
        ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is finished, else None."""

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        """What a table screen may show (subclasses add their game's public state)."""
        return {}
