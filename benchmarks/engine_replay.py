"""Engine-side replay throughput: records parsed once beforehand, then only the fold through the
engine and the verdict (what `companion replay` does after parsing), per game.

    python benchmarks/engine_replay.py [--seconds 2] [--games 20] [--game GAME]

Separates the engines' cost from the record parser's (benchmarks/replay_throughput.py measures the
whole path from JSON text). CPU time of this one process; prints figures, asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, Callable

import _setup  # noqa: F401  (puts the repository on sys.path)
from playouts import Stuck, playout

from models.record import parse_record
from scoring.referee import replay, verdict_of
from scoring.registry import refereed_games


def records_of(game: str, count: int) -> list[Any]:
    records = []
    for seed in range(count):
        try:
            data = playout(game, seed)
        except Stuck as stuck:
            data = stuck.record
        records.append(parse_record(json.dumps(data, ensure_ascii=False)))
    return records


def per_game_us(work: Callable[[Any], Any], records: list[Any], seconds: float) -> float:
    for record in records:
        work(record)
    rounds, start = 0, time.process_time()
    while True:
        for record in records:
            work(record)
        rounds += 1
        done = time.process_time() - start
        if done >= seconds:
            return 1e6 * done / (rounds * len(records))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game", action="append", help="only this game id (repeatable)")
    args = parser.parse_args(argv)
    print(f"== engine only: parsed records -> verdict ({args.games} games each; CPU time) ==")
    print(f"{'game':18s} {'actions':>7s} | {'fold µs/game':>12s} | {'verdict µs/game':>15s} {'games/s':>9s} "
          f"{'actions/s':>10s} {'µs/action':>9s}")
    for game in args.game or refereed_games():
        records = records_of(game, args.games)
        actions = sum(len(r.actions) for r in records) / len(records)
        fold = per_game_us(replay, records, args.seconds)
        whole = per_game_us(verdict_of, records, args.seconds)
        print(f"{game:18s} {actions:7.0f} | {fold:12.1f} | {whole:15.1f} {1e6 / whole:9,.0f} "
              f"{1e6 * actions / whole:10,.0f} {whole / actions:9.2f}")


if __name__ == "__main__":
    main()
