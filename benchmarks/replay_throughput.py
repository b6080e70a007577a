"""Replay throughput: actions per second through an engine alone, and submits per second
through the store (service.submit: parse, apply on the cached engine, durable commit), plus
how fast a session is reopened from its rows.

    python benchmarks/replay_throughput.py [--seconds 3] [--dir DIR]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import _setup  # noqa: F401  (puts the repository on sys.path)
from _setup import hs_long, sv_game

from companion.service import SessionService
from companion.store import Store
from models.record import parse_record_data
from scoring.referee import replay


def engine_throughput(record: dict, seconds: float) -> tuple[float, int]:
    parsed = parse_record_data(record)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done = replay(parsed)
        assert done.violation is None
        actions += done.applied
    return actions / (time.perf_counter() - start), len(parsed.actions)


def store_throughput(directory: Path, seconds: float) -> tuple[float, float, int]:
    store = Store(directory / "throughput.db")
    try:
        service = SessionService(store)
        record = hs_long(["Anne", "Bruno", "Chloé", "Dario", "Eve"])
        submits = 0
        sessions: list[int] = []
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = service.start("high-society", record["players"])
            sessions.append(state.session_id)
            for action in record["actions"]:
                service.submit(state.session_id, action)
                submits += 1
        rate = submits / (time.perf_counter() - start)
        # reopening: a fresh service replays each session from its rows
        fresh = SessionService(store)
        start = time.perf_counter()
        for sid in sessions:
            fresh.open(sid)
        reopen = len(sessions) / (time.perf_counter() - start)
        return rate, reopen, len(record["actions"])
    finally:
        store.close()


def _animalia(players: int) -> dict:
    """A whole 3-season game driven by the engine's own legal choices (tests/test_animalia.py)."""
    from tests.test_animalia import play_random, record

    return record(players, play_random(players, seed=1)[1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each measure")
    parser.add_argument("--dir", default=None, help="directory for the database (default: a temporary one)")
    args = parser.parse_args(argv)
    print("== replay throughput ==")
    games = {
        "high-society, 5 players": hs_long(["Anne", "Bruno", "Chloé", "Dario", "Eve"]),
        "high-society, 3 players": hs_long(["Anne", "Bruno", "Chloé"]),
        "stupide-vautour, 5 players": sv_game(["Anne", "Bruno", "Chloé", "Dario", "Eve"], shift=3),
        "animalia, 6 players": _animalia(6),
    }
    for name, record in games.items():
        rate, length = engine_throughput(record, args.seconds)
        print(f"engine  {name:28s} {rate:10.0f} actions/s  ({length} actions a game)")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        rate, reopen, length = store_throughput(Path(tmp), args.seconds)
    print(f"store   submits (durable commit each) {rate:10.0f} submits/s  ({length} a game)")
    print(f"store   reopen a finished game        {reopen:10.0f} sessions/s (read rows + replay)")


if __name__ == "__main__":
    main()
