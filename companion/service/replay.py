"""Replaying a session's actions through its engine (the log of what happened, or the first
refused action), and the results rows a finished game's outcome writes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.service.states import LogEntry
from companion.store import ResultRow
from models.record import action_to_data
from models.structs_base import Action, Record
from scoring.base import Engine, Outcome, RuleViolation
from scoring.referee import new_engine


@dataclass
class Fold:
    engine: Engine
    log: list[LogEntry]
    index: int | None = None  # first refused action
    violation: RuleViolation | None = None


def fold(record: Record, actions: Sequence[Action], data: Sequence[dict[str, Any]] | None = None) -> Fold:
    """Apply ``actions`` to a new engine for ``record``'s envelope, stopping at the first refused
    one. ``data``: the actions as JSON data when the caller has it already (decoded from the
    store's canonical texts), so that the log does not dump every model again."""
    engine = new_engine(record)
    log: list[LogEntry] = []
    for i, action in enumerate(actions):
        try:
            events = engine.apply(action)
        except RuleViolation as violation:
            return Fold(engine, log, i, violation)
        log.append(LogEntry(i, action_to_data(action) if data is None else data[i], tuple(events)))
    return Fold(engine, log)


def _score(value: Any) -> float:
    return float(value) if isinstance(value, Fraction) else float(value)


def result_rows(outcome: Outcome, player_ids: dict[str, int]) -> list[ResultRow]:
    ranks = dict(outcome.ranking)
    return [ResultRow(player_id=player_ids[name], score=_score(outcome.scores[name]), rank=int(ranks[name]),
                      winner=name in outcome.winners, eliminated=name in outcome.eliminated)
            for name in player_ids]
