"""The tap goal: taps of whole games through the session service, each durably committed, back to
back, against a raw sqlite3 INSERT + COMMIT with the same pragmas (WAL, synchronous=FULL) on the
same disk. Goal: the taps within 1.5x the raw commit.

What is measured, exactly as the goal says:

* the taps of whole games of every refereed game (held-out playouts: seeds no other benchmark
  uses), the tap that ends a game and writes its results, summary, months and ratings included;
  starting a game is not a tap and is not timed;
* on a fresh database (a new file for each run; the code is warmed on another file first);
* back to back, in alternating blocks: ``--block`` taps, then as many raw commits, then raw
  commits first, and so on, so that both sides meet the disk's drift over seconds alike.

It prints each side's p50 / p95 / mean, the ratio beside the goal, each game's p50 and the ending
taps' p50, for every run and the best run. Then, as information only, the same with a pause before
every commit (``--idle-ms``): at a table taps come seconds apart, and after a pause the CPU's caches
are cold (the tap's Python costs several times its warm time, the raw commit much less).

    python benchmarks/append_latency.py [--games 1] [--count TAPS] [--block 50] [--runs 3] [--idle-ms 10]
                                        [--idle-count 150] [--only GAME …] [--dir DIR]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _setup  # noqa: F401
from _setup import percentile
from playouts import playout

from companion.service import SessionService
from companion.store import Store
from scoring.registry import refereed_games

GOAL_RATIO = 1.5
HELD_OUT = 50_000  # first seed of the games played here: no other benchmark plays them


def held_out_games(per_game: int, only: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """``per_game`` complete games of every refereed game (or of the games ``only`` names), taken
    in turns (one of each game, then the next of each…) so that any run of whole games mixes them."""
    by_game = [[playout(game, HELD_OUT + i) for i in range(per_game)] for game in only or refereed_games()]
    return [games[i] for i in range(per_game) for games in by_game]


class Raw:
    """The baseline: sqlite3 INSERT + COMMIT with the store's pragmas, one row a commit."""

    def __init__(self, path: Path, texts: list[str]):
        self.con = sqlite3.connect(path, isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.execute("PRAGMA foreign_keys=ON")
        self.con.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL, "
                         "seq INTEGER NOT NULL, action TEXT NOT NULL, created_at TEXT NOT NULL, "
                         "retracted_at TEXT, UNIQUE (session_id, seq))")
        self.texts = texts
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


@dataclass
class Taps:
    """Taps through the session service, whole game after whole game of ``games`` (started again
    from the first when all were played): every tap's time, by game, the ending taps' apart, and
    every tap's CPU time in this process."""

    path: Path
    games: list[dict[str, Any]]
    times: list[float] = field(default_factory=list)
    by_game: dict[str, list[float]] = field(default_factory=dict)
    endings: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    finished: int = 0

    def __post_init__(self) -> None:
        self.store = Store(self.path)
        self.service = SessionService(self.store)
        self._taps = self._script()

    def _script(self) -> Iterator[tuple[str, dict[str, Any], bool]]:
        while True:
            for record in self.games:
                actions = record["actions"]
                self.state = self.service.start(record["game"], record["players"], record.get("first_player"),
                                                record.get("variant"), setup=record.get("setup"))
                for i, action in enumerate(actions):
                    yield record["game"], action, i == len(actions) - 1

    def commit(self) -> None:
        game, action, ending = next(self._taps)
        start, start_cpu = time.perf_counter(), time.process_time()
        self.state = self.service.submit(self.state.session_id, action, seen=self.state.version)
        took = time.perf_counter() - start
        self.cpu.append(time.process_time() - start_cpu)
        self.times.append(took)
        self.by_game.setdefault(game, []).append(took)
        if ending:
            assert self.state.outcome is not None, f"{game}: the last tap did not end the game"
            self.endings.append(took)
            self.finished += 1

    def close(self) -> None:
        self.store.close()


def in_blocks(raw: Raw, taps: Taps, count: int, block: int, idle: float = 0.0) -> None:
    """``count`` commits on each side, in blocks of ``block`` whose order alternates (taps then
    raw, raw then taps…); ``idle`` seconds of sleep before each commit."""
    done, turn = 0, 0
    while done < count:
        size = min(block, count - done)
        for side in ((taps, raw) if turn % 2 == 0 else (raw, taps)):
            for _ in range(size):
                if idle:
                    time.sleep(idle)
                side.commit()
        done += size
        turn += 1


def us(values: list[float], q: float) -> float:
    return percentile([v * 1e6 for v in values], q)


def mean_us(values: list[float]) -> float:
    return sum(values) / len(values) * 1e6 if values else float("nan")


@dataclass
class Run:
    raw: list[float]
    taps: Taps

    @property
    def ratio(self) -> float:
        return us(self.taps.times, 50) / us(self.raw, 50)


def measure(directory: Path, games: list[dict[str, Any]], texts: list[str], count: int, block: int,
            idle: float, name: str) -> Run:
    """One run on fresh databases: the code warmed first on throwaway ones."""
    warm_raw, warm_taps = Raw(directory / f"warm-raw-{name}.db", texts), Taps(directory / f"warm-taps-{name}.db", games)
    try:
        in_blocks(warm_raw, warm_taps, 2 * block, block)
    finally:
        warm_raw.close()
        warm_taps.close()
    raw, taps = Raw(directory / f"raw-{name}.db", texts), Taps(directory / f"taps-{name}.db", games)
    try:
        in_blocks(raw, taps, count, block, idle)
    finally:
        raw.close()
        taps.close()
    return Run(raw.times, taps)


def report(run: Run, label: str) -> None:
    raw, taps = run.raw, run.taps
    print(f"-- {label} --")
    for name, values in (("raw sqlite3 INSERT+COMMIT", raw), ("tap (service.submit)", taps.times)):
        print(f"{name:27s} p50 {us(values, 50):6.0f} µs  p95 {us(values, 95):6.0f} µs  "
              f"mean {mean_us(values):6.0f} µs  (n={len(values)})")
    mean_ratio = mean_us(taps.times) / mean_us(raw)
    print(f"ratio tap/raw  p50 {run.ratio:4.2f}x  mean {mean_ratio:4.2f}x   goal <= {GOAL_RATIO}x: "
          f"{'met' if run.ratio <= GOAL_RATIO else 'NOT met'} at p50")
    print(f"tap CPU time in this process  p50 {us(taps.cpu, 50):6.0f} µs  p95 {us(taps.cpu, 95):6.0f} µs")
    print("tap p50 by game: " + ", ".join(f"{game} {us(values, 50):.0f} µs (n={len(values)})"
                                          for game, values in taps.by_game.items()))
    if taps.endings:
        print(f"the {len(taps.endings)} taps that ended a game (results, summary, months, ratings written): "
              f"p50 {us(taps.endings, 50):.0f} µs, max {max(taps.endings) * 1e6:.0f} µs")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=None,
                        help="commits measured on each side in a run (default: every tap of the games, whole)")
    parser.add_argument("--block", type=int, default=50, help="commits in a block before the other side's")
    parser.add_argument("--runs", type=int, default=3, help="runs back to back, each on fresh databases")
    parser.add_argument("--idle-ms", type=float, default=10.0, help="pause before each commit of the idle reading")
    parser.add_argument("--idle-count", type=int, default=150, help="commits measured on each side after a pause")
    parser.add_argument("--games", type=int, default=1, help="held-out games of each game, played in turn")
    parser.add_argument("--only", nargs="*", default=(), choices=refereed_games(),
                        help="these games only (information: the goal is over every game)")
    parser.add_argument("--dir", default=None, help="directory for the databases (default: a temporary one)")
    args = parser.parse_args(argv)
    games = held_out_games(args.games, tuple(args.only))
    texts = [json.dumps(action, ensure_ascii=False, separators=(",", ":"))
             for record in games for action in record["actions"]]
    count = args.count or len(texts)
    print("== the tap goal: taps of whole games (endings included), service.submit, durable commit "
          "(WAL, synchronous=FULL), fresh database, alternating blocks ==")
    print(f"{len(games)} held-out games of {len(args.only or refereed_games())} games, {len(texts)} taps; "
          f"blocks of {args.block}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp_path = Path(tmp)
        print(f"file system of {tmp_path}")
        runs = []
        for i in range(args.runs):
            runs.append(measure(tmp_path, games, texts, count, args.block, 0.0, f"run{i}"))
            report(runs[-1], f"back to back, run {i + 1} of {args.runs}")
        best = min(runs, key=lambda run: run.ratio)
        print(f"== figure beside goal: tap/raw p50 {best.ratio:.2f}x best of {len(runs)} "
              f"(runs {', '.join(f'{run.ratio:.2f}x' for run in runs)}), "
              f"tap {us(best.taps.times, 50):.0f} µs against raw {us(best.raw, 50):.0f} µs; "
              f"goal <= {GOAL_RATIO}x: {'met' if best.ratio <= GOAL_RATIO else 'NOT met'} ==")
        idle = measure(tmp_path, games, texts, args.idle_count, min(args.block, args.idle_count), args.idle_ms / 1000,
                       "idle")
        report(idle, f"information only: after {args.idle_ms:g} ms idle before each commit")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
