"""Replaying a record is a fold of Engine.apply over its actions; the verdict is what it ends on."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from typing import Any, Iterable, Iterator

from models.i18n import Msg, current_dialect, dialect
from models.record import (
    GAMES,
    MalformedRecord,
    NoReferee,
    RankEntry,
    Sentences,
    Verdict,
    VerdictError,
    VerdictResult,
    parse_record,
)
from scoring.base import Engine, Outcome, RuleViolation, score_out
from scoring.registry import engine_class


@dataclass
class Replay:
    engine: Engine
    applied: int
    violation: RuleViolation | None
    index: int | None  # index of the refused action
    events: list[tuple[Msg, ...]]  # what each accepted action did, in order


def new_engine(record: Any) -> Engine:
    cls = engine_class(record.game)
    if cls is None:
        raise NoReferee(Msg("record.no_referee", {"game": repr(record.game)}))
    return cls(record)


def replay(record: Any, upto: int | None = None) -> Replay:
    """Fold the record's actions (the first ``upto`` of them) into a fresh engine, stopping at
    the first refusal."""
    engine = new_engine(record)
    actions = record.actions if upto is None else record.actions[:upto]
    events: list[tuple[Msg, ...]] = []
    for i, action in enumerate(actions):
        try:
            events.append(engine.apply(action))
        except RuleViolation as violation:
            return Replay(engine, i, violation, i, events)
    return Replay(engine, len(actions), None, None, events)


def result_of(outcome: Outcome, lang: str = "en", words: str | None = None) -> VerdictResult:
    """The verdict's result. Its ``explanation`` is rendered when first read (:class:`Sentences`), in
    ``lang`` and in the words of ``words`` (a game id; default: the ``dialect`` the caller renders in
    now): the scores cost no sentence."""
    return VerdictResult(
        scores={p: s if s.__class__ is int else score_out(s) for p, s in outcome.scores.items()},  # (most are)
        eliminated=list(outcome.eliminated),
        winners=list(outcome.winners),
        replay_required=outcome.replay_required,
        ranking=[RankEntry(player=p, rank=r) for p, r in outcome.ranking],
        explanation=Sentences(partial(_sentences, outcome, lang, words or current_dialect())),
    )


def _sentences(outcome: Outcome, lang: str, words: str | None) -> list[str]:
    with dialect(words):
        return [m.render(lang) for m in outcome.explanation]


def malformed_verdict(error: MalformedRecord, game: str | None = None, lang: str = "en") -> Verdict:
    return Verdict(
        game=game,
        status="illegal",
        applied=0,
        error=VerdictError(index=error.index, rule="RECORD", message=error.render(lang)),
        result=None,
    )


def verdict_of(record: Any, lang: str = "en") -> Verdict:
    """The verdict on a parsed record, its sentences in ``lang`` and in the words of the record's
    edition (Animalement Vôtre's animals), as the app's screens render them."""
    # The same fold as replay(), without the actions' events: the verdict prints none of them.
    engine = new_engine(record)
    try:
        engine.run(record.actions)
    except RuleViolation as violation:
        applied = engine.applied
        with dialect(record.game):
            message = violation.message(lang)
        return Verdict(
            game=record.game,
            status="illegal",
            applied=applied,
            error=VerdictError(index=applied, rule=violation.rule, message=message),
            result=None,
        )
    applied = engine.applied
    outcome = engine.outcome()
    if outcome is None:
        return Verdict(game=record.game, status="in_progress", applied=applied, error=None, result=None)
    return Verdict(game=record.game, status="finished", applied=applied, error=None,
                   result=result_of(outcome, lang, record.game))


def _game_named_in(text: str | bytes) -> str | None:
    try:
        game = json.loads(text).get("game")
    except (ValueError, AttributeError, UnicodeDecodeError, RecursionError):
        return None
    return game if game in GAMES else None


def verdict_for_text(text: str | bytes, lang: str = "en") -> tuple[Verdict, int]:
    """The verdict for a record's text and the exit status the spec gives (0, 1 or 2)."""
    try:
        record = parse_record(text)
        verdict = verdict_of(record, lang)
    except MalformedRecord as error:
        return malformed_verdict(error, _game_named_in(text), lang), 2
    return verdict, (1 if verdict.status == "illegal" else 0)


def verdicts_for_lines(lines: Iterable[bytes], lang: str = "en") -> Iterator[tuple[Verdict, int]]:
    """JSON Lines: one record per line, one verdict per record, in order, each with its exit
    status and ``line`` (1-based). A line holding only white space is no record and gets no
    verdict (a file may end with a newline, or separate seasons with an empty line); every other
    line is one record, and a malformed one gets its malformed verdict (rule RECORD)."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        verdict, status = verdict_for_text(line, lang)
        verdict.line = number
        yield verdict, status


def batch_status(statuses: Iterable[int]) -> int:
    """The exit status of a batch: 2 if any record was malformed, else 1 if any was refused, else 0."""
    seen = set(statuses)
    return 2 if 2 in seen else 1 if 1 in seen else 0

