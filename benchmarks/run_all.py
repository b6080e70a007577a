"""Run every benchmark and print the figures, each beside its goal (no assertions on time).

    python benchmarks/run_all.py [--quick] [--dir DIR] [--no-pg]

Replay throughput for every game of scoring/registry.py (parse + validate alone, the whole
`companion replay` path, and the engines alone on parsed records), the cold start of `companion replay`, the store, and the durable append
latency beside the machine's own raw SQLite INSERT + COMMIT, the import of a season's records
(SQLite and PostgreSQL), a club evening's seating, and the history and statistics
screens at a club's size on SQLite and, when a throwaway PostgreSQL server can be started the way
the tests start one, on PostgreSQL beside it (--no-pg: SQLite only). About a minute on 2 cores
(--quick: shorter measures on fewer generated games), plus the club's database the first time
and its copy into PostgreSQL.
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import sys
import time

import _setup  # noqa: F401
import append_latency
import engine_replay
import evening_seating
import history
import import_records
import replay_throughput
import resume


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter measures")
    parser.add_argument("--dir", default=None, help="directory for the databases (default: a temporary one)")
    parser.add_argument("--no-pg", action="store_true", help="the history on SQLite only (no PostgreSQL server)")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, SQLite {sqlite3.sqlite_version}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (other work skews every figure)")
    extra = ["--dir", args.dir] if args.dir else []
    start = time.perf_counter()
    replay_throughput.main(["--seconds", "0.5" if args.quick else "2", "--games", "5" if args.quick else "20",
                            "--runs", "5" if args.quick else "9", *extra])
    print()
    engine_replay.main(["--seconds", "0.5" if args.quick else "2", "--games", "5" if args.quick else "20"])
    print()
    # whole games always (the goal's measure): --quick makes fewer runs, not fewer taps
    append_latency.main(["--runs", "1" if args.quick else "3", "--idle-count", "50" if args.quick else "150",
                         *extra])
    print()
    resume.main(["--games", "10" if args.quick else "30", *extra])
    print()
    import_records.main(["--records", "100" if args.quick else "500", *extra, *(["--no-pg"] if args.no_pg else [])])
    print()
    history.main(["--games", "1000" if args.quick else "10000", "--repeat", "3", *extra,
                  *(["--no-pg"] if args.no_pg else [])])
    print()
    evening_seating.main(["--seeds", "2" if args.quick else "6"])
    print(f"\n(all benchmarks: {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
