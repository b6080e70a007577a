"""Skill ratings at a club's size: on the 10,000-game database of benchmarks/history.py (built
once and cached under /tmp), the full recompute of every game's ratings (goal: under 2 s), a
finish's update (the last game rated again), a correction of the first game (everything after it
rated again), the league table of ratings and a player's page (ratings over time, rivals, streaks).

    python benchmarks/ratings.py [--games 10000] [--repeat 5] [--rebuild]

Prints figures; asserts nothing about time. The statistics screen's own figures (goal 150 ms)
are benchmarks/history.py's."""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

import _setup  # noqa: F401  (puts the repository on sys.path)
from history import cached_database, timed

from companion.service import SessionService
from companion.store import Store

GOAL_MS = {"full recompute": 2000.0, "league of ratings": 150.0, "a player's page": 150.0}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true", help="build the cached database again")
    args = parser.parse_args(argv)
    print("== skill ratings at a club's size ==")
    print(f"load average when starting: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    path, built = cached_database(args.games, args.rebuild)
    print(f"built in {built:.1f} s" if built is not None else "database from the cache")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "club.db"
        shutil.copyfile(path, work)
        store = Store(work)
        try:
            service = SessionService(store)
            rows = service.ratings.recompute()
            with store.read() as db:
                ids = store.session_ids(db)
                finished = [sid for sid in ids if store.session(db, sid).status == "finished"]
            player = service.ratings.table("high-society")[0].player_id

            def rerate(session_id: int) -> None:
                with store.write() as db:
                    store.ratings.rerate_sessions(db, [session_id])

            def page() -> None:
                service.ratings.history(player)
                service.ratings.rivals(player)
                service.ratings.streaks(player)

            figures = {
                "full recompute": timed(service.ratings.recompute, args.repeat),
                "a finish (the last game)": timed(lambda: rerate(finished[-1]), args.repeat),
                "a correction of the first game": timed(lambda: rerate(finished[0]), args.repeat),
                "league of ratings": timed(service.ratings.table, args.repeat),
                "a player's page": timed(page, args.repeat),
            }
        finally:
            store.close()
    print(f"{len(finished):,} finished games of {len(ids):,}, {rows:,} rating rows")
    print(f"{'':34} {'median':>9} {'worst':>9} {'cpu':>9}   goal")
    for name, (median, worst, cpu, _) in figures.items():
        goal = GOAL_MS.get(name)
        print(f"{name:34} {median:8.1f}ms {worst:8.1f}ms {cpu:8.1f}ms   "
              + ("" if goal is None else f"{goal:.0f} ms {'ok' if median <= goal else 'OVER'}"))


if __name__ == "__main__":
    main()
