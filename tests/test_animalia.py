"""Animalia's referee: every ANI- refusal, each ruling, the rulebook's examples, replays for 2–6 players."""

from __future__ import annotations

import random
from typing import Any

from models.record import parse_action, parse_record_data
from scoring.animalia import AnimaliaEngine, Phase

NAMES = ["Anne", "Bruno", "Chloé", "David", "Emma", "Farid"]


def record(players: int | list[str] = 3, actions: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    names = NAMES[:players] if isinstance(players, int) else players
    return {"format": "table-record/1", "game": "animalia", "players": names, "actions": actions or [], **extra}


def engine(players: int | list[str] = 3, actions: list[dict[str, Any]] | None = None, **extra: Any) -> AnimaliaEngine:
    rec = parse_record_data(record(players, [], **extra))
    eng = AnimaliaEngine(rec)
    for data in actions or []:
        eng.apply(act(eng, data))
    return eng


def act(eng: AnimaliaEngine, data: dict[str, Any]) -> Any:
    return parse_action("animalia", data, list(eng.players))


def legal_actions(eng: AnimaliaEngine) -> list[dict[str, Any]]:
    """Every action the engine's own state offers now (table-record form)."""
    two = eng.two
    if eng.phase is Phase.OVER:
        return []
    if eng.phase is Phase.POWERS:
        return eng.power_actions()
    if eng.phase is Phase.BONUS:
        return [{"type": "bonus", "player": eng.owed[0], "card": c} for c in sorted(eng.deck)]
    if eng.phase is Phase.MEDALS:
        out: list[dict[str, Any]] = []
        for p in eng.players:
            for r in eng.medals_due(p):
                rows = {"row": r} if two else {}
                for b in eng.bonus[p]:
                    for c in eng.collections[(p, r)]:
                        out.append({"type": "cover", "player": p, "bonus": b, "card": c, **rows})
                for m in eng.medal_choices(p, r):
                    out.append({"type": "medals", "player": p, "medals": m, **rows})
        return out
    if eng.holder is None:
        return [{"type": "draw", "card": c} for c in sorted(eng.deck)]
    p = eng.holder
    out = [{"type": "take", "player": p, **({"row": r} if two else {})} for r in eng.fitting_rows(p, len(eng.lot))]
    if not eng.forced and not eng.solo:
        out.append({"type": "pass", "player": p})
    return out


def play_random(players: int, seed: int, *, elegance: str | None = None, check=None) -> tuple[AnimaliaEngine, list[dict[str, Any]]]:
    """A whole game driven by the engine's legal choices; ``check(engine)`` after every step."""
    rng = random.Random(seed)
    extra = {"variant": {"elegance": elegance}} if elegance else {}
    eng = engine(players, **extra)
    done: list[dict[str, Any]] = []
    while eng.phase is not Phase.OVER:
        options = legal_actions(eng)
        assert options, (eng.phase, eng.expected())
        # prefer medals sometimes, covers sometimes: keep games varied but finite
        data = rng.choice(options)
        eng.apply(act(eng, data))
        done.append(data)
        if check:
            check(eng)
        assert len(done) < 3000
    return eng, done
