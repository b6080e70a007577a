"""One tap: an action submitted through the session service (with the version its screen showed,
as the app does) and durably committed, next to a raw sqlite3 INSERT + COMMIT with the same
pragmas (WAL, synchronous=FULL) on the same file system. Prints p50/p95 of each, the ratio and
the goal (issue #12: a tap within 1.5x the raw commit), and the tap's p50 early and late in a
200-action game (its cost must not grow with the game).

The two sides take turns commit by commit (a raw commit, then a tap, then a tap, then a raw commit…):
on a shared virtual disk the time of an fsync drifts by tens of percent over seconds, and measuring
each side in blocks of a few hundred commits read that drift as a difference between them (the
same build gave 1.27x and 1.65x a few minutes apart). Taking turns, both sides see the same moments
of the disk.

It measures twice: back to back (each commit right after the previous one: caches warm), then with
a pause before every commit (``--idle-ms``, 10 ms by default), as at a table where taps come seconds
apart: after a pause the CPU's caches have gone cold and the tap's Python costs several times its
warm time (on tmpfs: about 60 µs warm against 400 µs after 10 ms idle), the raw commit much less.

    python benchmarks/append_latency.py [--count 400] [--idle-ms 10] [--idle-count 150] [--dir DIR]

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


class Raw:
    """The baseline: sqlite3 INSERT + COMMIT with the store's pragmas, one row a commit."""

    def __init__(self, path: Path, actions: list[dict]):
        self.con = sqlite3.connect(path, isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.execute("PRAGMA foreign_keys=ON")
        self.con.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL, "
                         "seq INTEGER NOT NULL, action TEXT NOT NULL, created_at TEXT NOT NULL, "
                         "retracted_at TEXT, UNIQUE (session_id, seq))")
        self.texts = [json.dumps(action, separators=(",", ":")) for action in actions]
        self.done = 0
        self.times: list[float] = []

    def commit(self) -> None:
        text = self.texts[self.done % len(self.texts)]
        self.done += 1
        con = self.con
        start = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, datetime('now'))",
                    (1, self.done, text))
        con.execute("COMMIT")
        self.times.append(time.perf_counter() - start)

    def close(self) -> None:
        self.con.close()


class Taps:
    """Taps through the session service, game after game of ``script``: every tap's time, those of
    the first and of the last EDGE taps of each game, and every tap's CPU time in this process
    (what the service itself costs, apart from waiting for the disk)."""

    def __init__(self, path: Path, script: list[dict]):
        self.store = Store(path)
        self.service = SessionService(self.store)
        self.script = script
        self.state = self.service.start("high-society", PLAYERS)
        self.index = 0
        self.times: list[float] = []
        self.early: list[float] = []
        self.late: list[float] = []
        self.cpu: list[float] = []

    def commit(self) -> None:
        if self.index == len(self.script):
            self.state = self.service.start("high-society", PLAYERS)
            self.index = 0
        action, i = self.script[self.index], self.index
        start, start_cpu = time.perf_counter(), time.process_time()
        self.state = self.service.submit(self.state.session_id, action, seen=self.state.version)
        took = time.perf_counter() - start
        self.cpu.append(time.process_time() - start_cpu)
        self.times.append(took)
        if i < EDGE:
            self.early.append(took)
        elif i >= len(self.script) - EDGE:
            self.late.append(took)
        self.index += 1

    def close(self) -> None:
        self.store.close()


def take_turns(raw: Raw, taps: Taps, count: int, idle: float = 0.0) -> None:
    """``count`` commits on each side, in turns whose order alternates (raw, tap, tap, raw, …), so
    that neither side always follows the other's fsync; ``idle`` seconds of sleep before each."""
    for i in range(count):
        first, second = (raw, taps) if i % 2 == 0 else (taps, raw)
        if idle:
            time.sleep(idle)
        first.commit()
        if idle:
            time.sleep(idle)
        second.commit()


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
    parser.add_argument("--count", type=int, default=400, help="commits measured on each side, back to back")
    parser.add_argument("--idle-ms", type=float, default=10.0, help="pause before each commit of the second reading")
    parser.add_argument("--idle-count", type=int, default=150, help="commits measured on each side after a pause")
    parser.add_argument("--dir", default=None, help="directory for both databases (default: a temporary one)")
    args = parser.parse_args(argv)
    script = long_high_society(200)["actions"]
    print("== one tap: service.submit, durable commit (WAL, synchronous=FULL) ==")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp_path = Path(tmp)
        print(f"file system of {tmp_path}")
        for reading, idle, count in (("back to back", 0.0, args.count),
                                     (f"after {args.idle_ms:g} ms idle each", args.idle_ms / 1000, args.idle_count)):
            name = reading.split()[0]
            measure(tmp_path / f"raw-{name}.db", tmp_path / f"taps-{name}.db", script, reading, idle, count)
    print(f"of which validating the action (parse_action + action_to_data): {validation_us(script):.1f} µs CPU, warm")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


def measure(raw_path: Path, taps_path: Path, script: list[dict], reading: str, idle: float, count: int) -> None:
    raw_side, tap_side = Raw(raw_path, script), Taps(taps_path, script)
    try:
        take_turns(raw_side, tap_side, 20)  # warm: the disk path, the engine, the statements
        for kept in (raw_side.times, tap_side.times, tap_side.early, tap_side.late, tap_side.cpu):
            kept.clear()
        take_turns(raw_side, tap_side, count, idle)
    finally:
        raw_side.close()
        tap_side.close()
    raw, taps, cpu = raw_side.times, tap_side.times, tap_side.cpu
    print(f"-- {reading}, in turns --")
    for name, values in (("raw sqlite3 INSERT+COMMIT", raw), ("tap (service.submit)", taps)):
        print(f"{name:27s} p50 {ms(values, 50):7.3f} ms  p95 {ms(values, 95):7.3f} ms  (n={len(values)})")
    ratio50, ratio95 = ms(taps, 50) / ms(raw, 50), ms(taps, 95) / ms(raw, 95)
    print(f"ratio tap/raw  p50 {ratio50:5.2f}x  p95 {ratio95:5.2f}x   goal <= {GOAL_RATIO}x: "
          f"{'met' if ratio50 <= GOAL_RATIO else 'NOT met'} at p50")
    print(f"tap CPU time in this process  p50 {ms(cpu, 50):7.3f} ms  p95 {ms(cpu, 95):7.3f} ms")
    early, late = tap_side.early, tap_side.late
    if early and late:
        print(f"tap p50 in a {len(script)}-action game: first {EDGE} taps {ms(early, 50):7.3f} ms, "
              f"last {EDGE} taps {ms(late, 50):7.3f} ms")


if __name__ == "__main__":
    main()
