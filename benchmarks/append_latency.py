"""One tap: an action submitted through the session service (with the version its screen showed,
as the app does) and durably committed, next to a raw sqlite3 INSERT + COMMIT with the same
pragmas (WAL, synchronous=FULL) on the same file system. Prints p50/p95 of each, the ratio and
the goal (issue #12: a tap within 1.5x the raw commit), and the tap's p50 early and late in a
200-action game (its cost must not grow with the game).

    python benchmarks/append_latency.py [--count 400] [--dir DIR]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

import _setup  # noqa: F401
from _setup import percentile
from resume import PLAYERS, long_high_society

from companion.service import SessionService
from companion.store import Store

GOAL_RATIO = 1.5
EDGE = 40  # taps counted as "early" (the first ones of a game) and "late" (the last ones)


def raw_latencies(path: Path, actions: list[dict], count: int) -> list[float]:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("PRAGMA foreign_keys=ON")
    con.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL, seq INTEGER NOT NULL, "
                "action TEXT NOT NULL, created_at TEXT NOT NULL, retracted_at TEXT, UNIQUE (session_id, seq))")
    out = []
    for i in range(count):
        text = json.dumps(actions[i % len(actions)], separators=(",", ":"))
        start = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, datetime('now'))",
                    (1, i + 1, text))
        con.execute("COMMIT")
        out.append(time.perf_counter() - start)
    con.close()
    return out


def tap_latencies(path: Path, script: list[dict], count: int) -> tuple[list[float], list[float], list[float],
                                                                      list[float]]:
    """Every tap's time, those of the first and of the last EDGE taps of each game, and every tap's
    CPU time in this process (what the service itself costs, apart from waiting for the disk)."""
    store = Store(path)
    try:
        service = SessionService(store)
        out: list[float] = []
        early: list[float] = []
        late: list[float] = []
        cpu: list[float] = []
        while len(out) < count:
            state = service.start("high-society", PLAYERS)
            for i, action in enumerate(script):
                start, start_cpu = time.perf_counter(), time.process_time()
                state = service.submit(state.session_id, action, seen=state.version)
                took = time.perf_counter() - start
                cpu.append(time.process_time() - start_cpu)
                out.append(took)
                if i < EDGE:
                    early.append(took)
                elif i >= len(script) - EDGE:
                    late.append(took)
                if len(out) == count:
                    break
        return out, early, late, cpu
    finally:
        store.close()


def validation_us(script: list[dict], rounds: int = 20) -> float:
    """CPU µs a tap spends validating its action and writing it back as data (what the service does
    with the screen's dict before the engine sees it), per action of ``script``."""
    from models.record import action_to_data, parse_action

    players = list(PLAYERS)
    for action in script:  # warm
        action_to_data(parse_action("high-society", action, players))
    start = time.process_time()
    for _ in range(rounds):
        for action in script:
            action_to_data(parse_action("high-society", action, players))
    return (time.process_time() - start) / (rounds * len(script)) * 1e6


def ms(values: list[float], q: float) -> float:
    return percentile([v * 1000 for v in values], q)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400, help="commits measured on each side")
    parser.add_argument("--dir", default=None, help="directory for both databases (default: a temporary one)")
    args = parser.parse_args(argv)
    script = long_high_society(200)["actions"]
    print("== one tap: service.submit, durable commit (WAL, synchronous=FULL) ==")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp_path = Path(tmp)
        print(f"file system of {tmp_path}")
        raw_latencies(tmp_path / "warm.db", script, 20)  # warm the disk path once
        # alternate halves so that both sides see the same moments of a noisy machine
        half = max(1, args.count // 2)
        raw = raw_latencies(tmp_path / "raw1.db", script, half)
        taps, early, late, cpu = tap_latencies(tmp_path / "taps1.db", script, half)
        raw += raw_latencies(tmp_path / "raw2.db", script, args.count - half)
        more, more_early, more_late, more_cpu = tap_latencies(tmp_path / "taps2.db", script, args.count - half)
        taps, early, late, cpu = taps + more, early + more_early, late + more_late, cpu + more_cpu
    for name, values in (("raw sqlite3 INSERT+COMMIT", raw), ("tap (service.submit)", taps)):
        print(f"{name:27s} p50 {ms(values, 50):7.3f} ms  p95 {ms(values, 95):7.3f} ms  (n={len(values)})")
    ratio50, ratio95 = ms(taps, 50) / ms(raw, 50), ms(taps, 95) / ms(raw, 95)
    print(f"ratio tap/raw  p50 {ratio50:5.2f}x  p95 {ratio95:5.2f}x   goal <= {GOAL_RATIO}x: "
          f"{'met' if ratio50 <= GOAL_RATIO else 'NOT met'} at p50")
    print(f"tap CPU time in this process  p50 {ms(cpu, 50):7.3f} ms  p95 {ms(cpu, 95):7.3f} ms")
    print(f"of which validating the action (parse_action + action_to_data): {validation_us(script):.1f} µs CPU")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    if early and late:
        print(f"tap p50 in a {len(script)}-action game: first {EDGE} taps {ms(early, 50):7.3f} ms, "
              f"last {EDGE} taps {ms(late, 50):7.3f} ms")


if __name__ == "__main__":
    main()
