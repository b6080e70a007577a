"""Import of a season's file: ``SessionService.transfer.import_records`` of N records (High Society games of
4 and 5 players and Stupide Vautour games of 3, a few unfinished, 30 players) into a new database
that already holds the club's profiles, each record checked, replayed, read back and then every
game written in one transaction. On SQLite and, when a PostgreSQL server can be started the way the
tests start one (tests/pgserver.py), on PostgreSQL too.

    python benchmarks/import_records.py [--records 500] [--repeat 3] [--dir DIR] [--no-pg]

Prints figures (the median of the runs, each into a new database); asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import _setup  # noqa: F401  (puts the repository on sys.path)
from _setup import hs_long, sv_game

from companion.service import SessionService
from companion.store import Store

NAMES = ["Anne", "Bruno", "Chloé", "Dario", "Éloi", "Fanny", "Gaël", "Hugo", "Inès", "Jules", "Katia", "Léo",
         "Maëlle", "Nathan", "Océane", "Paul", "Quentin", "Rose", "Sacha", "Théo", "Ugo", "Victor", "Wendy",
         "Xavier", "Yasmine", "Zoé", "Agathe", "Basile", "Capucine", "Denis"]


def season(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """``count`` legal records, as a club's season file holds them (2% unfinished)."""
    rng = random.Random(seed)
    records = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.15:
            records.append(sv_game(rng.sample(NAMES, 3), rng.randrange(3)))
        else:
            players = rng.sample(NAMES, 4 if roll < 0.3 else 5)
            records.append(hs_long(players, rng.choice(players), final=rng.random() >= 0.02))
    return records


def measure(new_target: Callable[[int], Any], text: str, count: int, repeat: int) -> tuple[float, float]:
    """(median wall ms, median CPU ms of this process) per record over ``repeat`` imports, each
    into a new database holding the club's profiles (one small import first)."""
    wall, cpu = [], []
    for run in range(repeat):
        store = Store(new_target(run))
        try:
            service = SessionService(store)
            service.transfer.import_records(json.dumps(season(1, seed=run)))  # the profiles and a game already there
            began, began_cpu = time.perf_counter(), time.process_time()
            ids = service.transfer.import_records(text)
            wall.append((time.perf_counter() - began) * 1000 / count)
            cpu.append((time.process_time() - began_cpu) * 1000 / count)
            assert len(ids) == count
        finally:
            store.close()
    return statistics.median(wall), statistics.median(cpu)


def print_figure(kind: str, figure: tuple[float, float], count: int) -> None:
    wall, cpu = figure
    print(f"import: {wall:.2f} ms per record ({count} records), {kind}; CPU of this process {cpu:.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3, help="imports measured, each into a new database")
    parser.add_argument("--dir", default=None, help="directory for the SQLite databases (default: a temporary one)")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only (no PostgreSQL server started)")
    args = parser.parse_args(argv)
    print("== import of a season's records (checked, replayed, read back, written in one transaction) ==")
    text = json.dumps(season(args.records))
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        print_figure("SQLite", measure(lambda run: Path(tmp) / f"import-{run}.db", text, args.records, args.repeat),
                     args.records)
    if args.no_pg:
        print("PostgreSQL: not measured (--no-pg)")
        return
    from tests.pgserver import Server

    server = Server()
    try:
        problem = server.start()
        if problem is not None:
            print(f"PostgreSQL: not measured ({problem})")
            return
        print_figure("PostgreSQL (a throwaway server on a Unix socket, fsync off)",
                     measure(lambda run: server.new_database(), text, args.records, args.repeat), args.records)
    except Exception as err:  # the SQLite figure is printed already
        print(f"PostgreSQL: failed ({type(err).__name__}: {err})")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
