"""The engine contract every game's referee follows.

An engine is built from a record's envelope (players, first player, variant, …), then fed the
record's actions one at a time. ``apply`` either accepts an action — and returns what happened, as
sentences to show — or refuses it with :class:`RuleViolation` and leaves the state exactly as it
was. ``expected()`` says who must act and with which action types; ``outcome()`` is the result once
the game is finished. Replaying a record is a fold of ``apply`` over its actions (see referee.py).

Engines are pure: no UI, no database, no clock, no randomness.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Iterable, Mapping, Sequence

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


@dataclass(frozen=True)
class Outcome:
    scores: Mapping[str, Score]
    eliminated: tuple[str, ...]
    winners: tuple[str, ...]
    replay_required: bool
    ranking: tuple[tuple[str, int], ...]
    explanation: tuple[Msg, ...]


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


class Engine(ABC):
    """Base of every game's referee. Subclasses implement ``_apply``, ``expected`` and
    ``outcome``; ``apply`` makes each action all-or-nothing."""

    games: ClassVar[tuple[str, ...]]
    # every rule id of this game in the rules reference: the ones it refuses with, and the rulings
    # it applies without refusing anything (ties, end of game…)
    rules: ClassVar[tuple[str, ...]]

    def __init__(self, record: Any):
        self.game: str = record.game
        self.players: tuple[str, ...] = tuple(record.players)
        self.first_player: str = record.starting_player
        self.history: list[Any] = []

    # -- the contract -------------------------------------------------------------------------

    def apply(self, action: Any) -> tuple[Msg, ...]:
        """Accept the action and return what happened, or raise RuleViolation with the state
        unchanged."""
        saved = copy.deepcopy(self.__dict__)
        try:
            events = tuple(self._apply(action))
        except Exception:  # a refusal, or a defect: either way the state stays as it was
            self.__dict__.clear()
            self.__dict__.update(saved)
            raise
        self.history.append(action)
        return events

    def can(self, action: Any) -> bool:
        try:
            self.check(action)
        except RuleViolation:
            return False
        return True

    def check(self, action: Any) -> None:
        """Raise RuleViolation if ``action`` would be refused now; change nothing."""
        trial = copy.deepcopy(self)
        trial.apply(action)

    @property
    def finished(self) -> bool:
        return self.outcome() is not None

    @abstractmethod
    def _apply(self, action: Any) -> Iterable[Msg]:
        """Validate and perform one action. May raise RuleViolation at any point: the base class
        restores the state."""

    @abstractmethod
    def expected(self) -> Expectation:
        ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is finished, else None."""

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        """What a table screen may show (subclasses add their game's public state)."""
        return {}
