"""Shared by the engines' property tests: a refused action leaves the engine exactly as it was, and
``check`` never changes anything (a deep snapshot of every attribute before and after); and the
reference fold that ``run`` is compared with."""

from __future__ import annotations

import copy
from typing import Any, Collection, Iterable

from models.i18n import Msg
from scoring.base import Engine, RuleViolation


def try_action(engine: Engine, action: Any, refusals: Collection[str], *, apply_legal: bool = True
               ) -> tuple[Msg, ...] | RuleViolation | None:
    """``check`` then ``apply`` the action, asserting the contract on the way.

    Returns the events if it was accepted (None when it was legal and ``apply_legal`` is false: the
    caller keeps its own game going), or the refusal."""
    before = copy.deepcopy(vars(engine))
    try:
        engine.check(action)
        verdict: RuleViolation | None = None
    except RuleViolation as refused:
        verdict = refused
    assert vars(engine) == before, "check changed the engine"
    if verdict is None and not apply_legal:
        return None
    try:
        events = engine.apply(action)
    except RuleViolation as refusal:
        assert verdict is not None, f"check accepted what apply refused: {refusal.rule}"
        assert refusal.rule == verdict.rule and refusal.msg == verdict.msg
        assert refusal.rule in refusals, refusal.rule
        assert vars(engine) == before, "a refusal changed the engine"
        return refusal
    assert verdict is None, f"check refused ({verdict.rule if verdict else ''}) what apply accepted"
    assert engine.applied == before["applied"] + 1
    return events


def fold_with_apply(engine: Engine, actions: Iterable[Any]) -> RuleViolation | None:
    """The reference fold: ``apply`` one action after the other, to the first refusal (returned)."""
    for action in actions:
        try:
            engine.apply(action)
        except RuleViolation as refusal:
            return refusal
    return None
