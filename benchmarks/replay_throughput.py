"""Replay throughput per game, the way `companion replay` works (JSON text -> validated record ->
fold through the engine -> verdict with its scores), parse + validate alone, a season's file through
`companion replay --lines --jobs N`, the cold start of `companion replay`, and submits / reopenings
through the store.

    python benchmarks/replay_throughput.py [--seconds 2] [--games 20] [--runs 9] [--dir DIR] [--no-store]
                                           [--no-lines] [--season 3000]

Every game of scoring/registry.py at run time, on complete legal games generated with a fixed
seed (benchmarks/playouts.py). Throughput is CPU time of this one process (single core), so the
figures move less when other work shares the machine. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import _setup  # noqa: F401  (puts the repository on sys.path)
from _setup import ROOT, hs_long
from playouts import Stuck, playout

from models.record import parse_record
from scoring.referee import verdict_for_text
from scoring.registry import refereed_games

# games/s, replayed from JSON text on one core: at least the peer engine replaying the same games
# (its figure on the reference machine)
GOALS: dict[str, tuple[float, str]] = {
    "high-society": (3_100, "aisociety ~3,100 games/s"),
    "animalement-votre": (3_100, "same engine as high-society"),
    "stupide-vautour": (18_500, "HolsDerGeier ~18,500 games/s"),
}
# the games without a peer: at least High Society's goal, in actions/s (its peer's games/s times
# High Society's actions a game); High Society's own measured actions/s is printed beside it
NO_PEER = "high-society's goal in actions/s"


@dataclass
class Games:
    game: str
    texts: list[str]
    actions: int  # in all the texts
    players: tuple[int, int]
    note: str = ""

    @property
    def per_game(self) -> float:
        return self.actions / len(self.texts)


def generate(game: str, count: int) -> Games:
    texts, actions, counts, note = [], 0, [], ""
    for seed in range(count):
        try:
            record = playout(game, seed)
        except Stuck as stuck:  # an unfinished legal record still goes through the whole path
            record, note = stuck.record, f"unfinished games: {stuck}"
        texts.append(json.dumps(record, ensure_ascii=False))
        actions += len(record["actions"])
        counts.append(len(record["players"]))
    for text in texts:  # every generated record is legal
        verdict, status = verdict_for_text(text)
        assert status == 0, (game, verdict)
    return Games(game, texts, actions, (min(counts), max(counts)), note)


def rate(work: Callable[[str], Any], games: Games, seconds: float) -> tuple[float, float]:
    """(games/s, actions/s) of ``work(text)`` over the generated games, in CPU time."""
    for text in games.texts:  # warm: validators built, engine imported
        work(text)
    done, rounds = 0.0, 0
    start = time.process_time()
    while True:
        for text in games.texts:
            work(text)
        rounds += 1
        done = time.process_time() - start
        if done >= seconds:
            break
    played = rounds * len(games.texts)
    return played / done, played * games.per_game / done


def _verdict(text: str) -> Any:
    return verdict_for_text(text)


def replay_figures(seconds: float, count: int) -> None:
    print(f"== replay from JSON text, per game ({count} generated games each; CPU time, single core) ==")
    print(f"{'game':18s} {'players':>7s} {'actions':>7s} | {'parse+validate':>24s} | {'full replay -> verdict':>24s} | goal")
    print(f"{'':18s} {'':>7s} {'a game':>7s} | {'games/s':>11s} {'actions/s':>12s} | {'games/s':>11s} "
          f"{'actions/s':>12s} |")
    hs_goal_actions: float | None = None
    hs_actions: float | None = None
    rows = []
    for game in refereed_games():
        games = generate(game, count)
        parse_games, parse_actions = rate(parse_record, games, seconds)
        full_games, full_actions = rate(_verdict, games, seconds)
        rows.append((games, parse_games, parse_actions, full_games, full_actions))
        if game == "high-society":
            hs_goal_actions = GOALS[game][0] * games.per_game
            hs_actions = full_actions
    for games, parse_games, parse_actions, full_games, full_actions in rows:
        if games.game in GOALS:
            target, why = GOALS[games.game]
            goal = f">= {target:,.0f} games/s ({why}): {100 * full_games / target:.1f} % of it"
        elif hs_goal_actions and hs_actions:
            goal = (f"{NO_PEER} (>= {hs_goal_actions:,.0f} actions/s): {100 * full_actions / hs_goal_actions:.1f} %"
                    f" of it; {100 * full_actions / hs_actions:.0f} % of high-society's measured actions/s")
        else:
            goal = NO_PEER
        low, high = games.players
        print(f"{games.game:18s} {f'{low}-{high}':>7s} {games.per_game:7.0f} | {parse_games:11,.0f} "
              f"{parse_actions:12,.0f} | {full_games:11,.0f} {full_actions:12,.0f} | {goal}")
        if games.note:
            print(f"{'':18s} note: {games.note}")


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_start(runs: int) -> None:
    """`companion replay` on a one-action record against `python -c pass`, in fresh processes with
    their bytecode cached as an installed app has it (a private PYTHONPYCACHEPREFIX, warmed once)."""
    print(f"== cold start (median of {runs} runs; wall clock, CPU time in brackets) ==")
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "one.json"
        record.write_text(json.dumps({"format": "table-record/1", "game": "high-society",
                                      "players": ["Anne", "Bruno", "Chloé"],
                                      "actions": [{"type": "reveal", "card": "p7"}]}))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"), PYTHONPATH=str(ROOT))
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "python -c 'import models.record'": [sys.executable, "-c", "import models.record"],
            "companion replay one-action.json": [sys.executable, "-m", "companion", "replay", str(record)],
        }
        timings: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in commands}
        for command in commands.values():  # write the bytecode once
            subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        for _ in range(runs):
            for name, command in commands.items():  # interleaved: the same load for each
                cpu, wall = _child_cpu(), time.perf_counter()
                subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
                timings[name][0].append(time.perf_counter() - wall)
                timings[name][1].append(_child_cpu() - cpu)
    base = statistics.median(timings["python -c pass"][0])
    for name, (walls, cpus) in timings.items():
        wall = statistics.median(walls)
        extra = f"  (+{1000 * (wall - base):.0f} ms over python -c pass)" if name != "python -c pass" else ""
        print(f"{name:34s} {1000 * wall:7.1f} ms  [{1000 * statistics.median(cpus):6.1f} ms]{extra}")
    print("on the reference machine, before the cold start was worked on: companion replay 133 ms, "
          "python -c pass 21 ms")


def season_lines(directory: Path, count: int, jobs_list: list[int], runs: int) -> None:
    """`companion replay --lines FILE --jobs N`: a season's file of ``count`` records (every game's
    generated games in turn), wall clock in a fresh process, best of ``runs``, beside one process."""
    per_game = max(1, count // len(refereed_games()))
    texts = [text for game in refereed_games() for text in generate(game, min(per_game, 50)).texts]
    lines = [texts[i % len(texts)] for i in range(count)]
    path = directory / "season.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"== a season's file: companion replay --lines, {count:,} records of every game "
          f"(wall clock, best of {runs}; {os.cpu_count()} CPUs) ==")
    base: float | None = None
    for jobs in jobs_list:
        best = float("inf")
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "companion", "replay", "--lines", str(path), "--jobs", str(jobs)],
                           env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
            best = min(best, time.perf_counter() - start)
        base = base or best
        print(f"--jobs {jobs:<3d} {best:7.2f} s  {count / best:10,.0f} games/s  ({base / best:.2f}x --jobs 1)")


def store_throughput(directory: Path, seconds: float) -> tuple[float, float, int]:
    from companion.service import SessionService
    from companion.store import Store

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
        rate_ = submits / (time.perf_counter() - start)
        # reopening: a fresh service replays each session from its rows
        fresh = SessionService(store)
        start = time.perf_counter()
        for sid in sessions:
            fresh.open(sid)
        reopen = len(sessions) / (time.perf_counter() - start)
        return rate_, reopen, len(record["actions"])
    finally:
        store.close()



def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time spent on each measure")
    parser.add_argument("--games", type=int, default=20, help="generated games per game id")
    parser.add_argument("--runs", type=int, default=9, help="fresh processes per cold-start measure")
    parser.add_argument("--dir", default=None, help="directory for the database (default: a temporary one)")
    parser.add_argument("--no-store", action="store_true", help="skip the store measures")
    parser.add_argument("--no-lines", action="store_true", help="skip the season's file (--lines --jobs)")
    parser.add_argument("--season", type=int, default=3000, help="records in the season's file")
    args = parser.parse_args(argv)
    replay_figures(args.seconds, args.games)
    print()
    if not args.no_lines:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            season_lines(Path(tmp), args.season, sorted({1, os.cpu_count() or 1}), 3)
        print()
    cold_start(args.runs)
    if not args.no_store:
        print()
        print("== store ==")
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            rate_, reopen, length = store_throughput(Path(tmp), args.seconds)
        print(f"store   submits (durable commit each) {rate_:10.0f} submits/s  ({length} a game)")
        print(f"store   reopen a finished game        {reopen:10.0f} sessions/s (read rows + replay)")


if __name__ == "__main__":
    main()
