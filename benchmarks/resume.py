"""Resuming a saved game: a fresh service opens a 200-action High Society game from its rows
(read the rows, parse the actions, replay them through the engine), and the time each part takes.

    python benchmarks/resume.py [--games 30] [--actions 200] [--dir DIR]

The goal (issue #12): open + replay of a 200-action game under 10 ms. Prints figures; asserts
nothing about time.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import _setup  # noqa: F401  (puts the repository on sys.path)
from _setup import percentile

from companion.service import SessionService
from companion.store import Store
from models.record import RECORD_FORMAT, parse_action, parse_record_data
from scoring.referee import new_engine, verdict_of

GOAL_MS = 10.0
PLAYERS = ["Anne", "Bruno", "Chloé", "Dario", "Eve"]
MONEY = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
# possessions first, then the misfortunes, the titles, and the scandal that would end the game
REVEALS = [f"p{i}" for i in range(1, 11)] + ["minus5", "theft", "x2", "x2", "x2", "half"]


def long_high_society(length: int = 200, players: list[str] = PLAYERS, raises: int = 14) -> dict[str, Any]:
    """See :func:`_long_high_society`: made once per process (the benchmarks share it)."""
    return json.loads(_long_high_society(length, tuple(players), raises))


@functools.cache
def _long_high_society(length: int, players: tuple[str, ...], raises: int) -> str:
    """A legal High Society record of exactly ``length`` actions, still in progress: cards are
    revealed in a fixed order and each round is a bidding war of single money cards (the smallest
    that the rules accept) until ``raises`` bids were made, then everyone passes. The engine only
    says which entries it accepts (``Engine.can``); the choices are the table's."""
    record: dict[str, Any] = {"format": RECORD_FORMAT, "game": "high-society", "players": list(players),
                              "actions": []}
    engine = new_engine(parse_record_data(record))
    actions: list[dict[str, Any]] = record["actions"]
    reveals = iter(REVEALS)
    bids = 0

    def first_legal(candidates: list[dict[str, Any]]) -> dict[str, Any] | None:
        for data in candidates:
            if engine.can(parse_action("high-society", data, list(players))):
                return data
        return None

    while len(actions) < length:
        expected = engine.expected()
        if not expected.types:
            raise RuntimeError(f"the game ended after {len(actions)} actions")
        if "reveal" in expected.types:
            choice = first_legal([{"type": "reveal", "card": next(reveals)}])
            bids = 0
        elif "discard" in expected.types:
            (player,) = expected.players
            choice = first_legal([{"type": "discard", "player": player, "card": f"p{i}"} for i in range(1, 11)])
        else:
            (player,) = expected.players
            choice = None
            if bids < raises:
                choice = first_legal([{"type": "bid", "player": player, "add": [v]} for v in MONEY])
                bids += choice is not None
            choice = choice or {"type": "pass", "player": player}
        if choice is None:
            raise RuntimeError(f"no legal entry after {len(actions)} actions")
        engine.apply(parse_action("high-society", choice, list(players)))
        actions.append(choice)
    verdict = verdict_of(parse_record_data(record))
    assert verdict.status == "in_progress" and verdict.applied == length, verdict
    return json.dumps(record)


def resume_times(directory: Path, record: dict[str, Any], games: int) -> tuple[list[float], list[float]]:
    """Open each of ``games`` saved copies of the record once, in a fresh service (a cold cache):
    the wall-clock time of each, and the CPU time of this process (less sensitive to a machine
    shared with other work, since a resume reads from the page cache and computes)."""
    store = Store(directory / "resume.db")
    try:
        ids = SessionService(store).transfer.import_records(json.dumps([record] * games))
        fresh = SessionService(store)
        fresh.open(ids[0])  # the first open of a process pays for imports and compiled queries
        wall, cpu = [], []
        for sid in ids[1:]:
            start, start_cpu = time.perf_counter(), time.process_time()
            state = fresh.open(sid)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            assert len(state.log) == len(record["actions"])
        return wall, cpu
    finally:
        store.close()


def breakdown(directory: Path, record: dict[str, Any], rounds: int) -> dict[str, float]:
    """Where an open's time goes, part by part, as the service does it (CPU time, p50 in ms):
    the two queries, the one JSON decode of all actions, the one validation of the record, and
    the engine fold with its log."""
    from companion.service.live import decoded_actions
    from companion.service.records import columns_record, refereed_actions
    from companion.service.replay import fold

    store = Store(directory / "parts.db")
    try:
        (sid,) = SessionService(store).transfer.import_records(json.dumps([record]))
        parts: dict[str, list[float]] = {"SQL (2 queries)": [], "JSON decode": [], "validation": [],
                                         "engine fold + log": []}
        for _ in range(rounds):
            start = time.process_time()
            with store.read() as db:
                rows = store.session_rows(db, sid)
            assert rows is not None
            lap = time.process_time()
            parts["SQL (2 queries)"].append(lap - start)
            data = decoded_actions(rows.actions)
            start, lap = lap, time.process_time()
            parts["JSON decode"].append(lap - start)
            parsed = columns_record(rows.game, rows.variant, rows.first_player, rows.setup, rows.names, data)
            start, lap = lap, time.process_time()
            parts["validation"].append(lap - start)
            folded = fold(parsed.model_copy(update={"actions": []}), refereed_actions(parsed), data=data)
            parts["engine fold + log"].append(time.process_time() - lap)
            assert folded.violation is None
        return {name: percentile([t * 1000 for t in values], 50) for name, values in parts.items()}
    finally:
        store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="saved games opened, one at a time")
    parser.add_argument("--actions", type=int, default=200, help="actions per game")
    parser.add_argument("--dir", default=None, help="directory for the database (default: a temporary one)")
    args = parser.parse_args(argv)
    record = long_high_society(args.actions)
    print(f"== resume a saved {args.actions}-action game (open + replay, cold cache) ==")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        wall, cpu = resume_times(Path(tmp), record, args.games + 1)
        parts = breakdown(Path(tmp), record, max(5, args.games))
    for name, values in (("wall clock", wall), ("CPU time", cpu)):
        p50, p95 = percentile([t * 1000 for t in values], 50), percentile([t * 1000 for t in values], 95)
        print(f"resume {args.actions} actions, {name:10s}  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  (n={len(values)})"
              f"   goal < {GOAL_MS:.0f} ms: {'met' if p50 < GOAL_MS else 'NOT met'} at p50")
    print("where it goes (CPU time, p50): " + ", ".join(f"{name} {value:.2f} ms" for name, value in parts.items()))
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
