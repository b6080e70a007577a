"""Animalia's builders: records and engines, legal actions, random playouts, a season's hands."""

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
        return [{"type": "bonus", "player": p, "card": c} for p in eng.bonus_players() for c in sorted(eng.deck)]
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


def play_random(players: int, seed: int, *, elegance: str | None = None,
                check: Any = None) -> tuple[AnimaliaEngine, list[dict[str, Any]]]:
    """A whole game driven by the engine's legal choices; ``check(engine)`` after every step."""
    rng = random.Random(seed)
    extra: dict[str, Any] = {"variant": {"elegance": elegance}} if elegance else {}
    eng = engine(players, **extra)
    done: list[dict[str, Any]] = []
    while eng.phase is not Phase.OVER:
        options = legal_actions(eng)
        assert options, (eng.phase, eng.expected())
        data = rng.choice(options)
        eng.apply(act(eng, data))
        done.append(data)
        if check:
            check(eng)
        assert len(done) < 3000
    return eng, done


A, B, C = NAMES[:3]


def do(eng: AnimaliaEngine, **data: Any) -> list[Any]:
    return list(eng.apply(act(eng, data)))


def snapshot(eng: AnimaliaEngine) -> Any:
    return (eng.phase, eng.season, eng.dealer, eng.holder, eng.forced, eng.solo, sorted(eng.deck), list(eng.lot),
            {k: list(v) for k, v in eng.collections.items()}, {k: list(v) for k, v in eng.bonus.items()},
            repr(eng.pending), list(eng.owed), list(eng.discarded), list(eng.set_aside),
            [dict(t.medals) for t in eng.tallies], {k: dict(v) for k, v in eng.medals.items()}, eng.applied)


def give(eng: AnimaliaEngine, card: str, taker: str, row: int | None = None) -> list[Any]:
    """The dealer turns ``card`` over and the lot is passed until ``taker`` takes it."""
    events = do(eng, type="draw", card=card)
    while eng.holder != taker:
        events += do(eng, type="pass", player=eng.holder)
        if eng.holder is None:
            raise AssertionError(f"{taker} was never offered {card}")
    rows = {"row": row if row is not None else eng.fitting_rows(taker, len(eng.lot))[0]} if eng.two else {}
    return events + do(eng, type="take", player=taker, **rows)


# Anne 10 stars (first: 2 bonus cards), Bruno 6 (second: 1), Chloé 1; no power is activated.
SEASON = {
    A: ["cat-champion", "cat-dandy", "dog-champion", "dog-dandy", "owl"],
    B: ["horse-champion", "rabbit-champion", "parrot-dandy", "horse-scruffy", "dog-scruffy"],
    C: ["cat-scruffy", "rabbit-scruffy", "parrot-scruffy", "horse-dandy", "rabbit-dandy"],
}


def phase1(eng: AnimaliaEngine, hands: dict[str, list[str]]) -> None:
    for i in range(5):
        for player, cards in hands.items():
            give(eng, cards[i], player)


def at_phase3() -> AnimaliaEngine:
    eng = engine(3)
    phase1(eng, SEASON)
    do(eng, type="bonus", player=A, card="cat-thief")
    do(eng, type="bonus", player=A, card="dog-spy")
    do(eng, type="bonus", player=B, card="horse-prankster")
    return eng
