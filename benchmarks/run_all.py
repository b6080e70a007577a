"""Run every benchmark and print the figures (no assertions on time).

    python benchmarks/run_all.py [--quick]

Takes well under a minute on 2 cores (about 10 s with --quick).
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import sys
import time

import _setup  # noqa: F401
import append_latency
import history
import replay_throughput
import resume


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter measures")
    parser.add_argument("--dir", default=None, help="directory for the databases (default: a temporary one)")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, SQLite {sqlite3.sqlite_version}")
    extra = ["--dir", args.dir] if args.dir else []
    start = time.perf_counter()
    replay_throughput.main(["--seconds", "1" if args.quick else "3", *extra])
    print()
    append_latency.main(["--count", "100" if args.quick else "400", *extra])
    print()
    resume.main(["--games", "10" if args.quick else "30", *extra])
    print()
    history.main(["--games", "1000" if args.quick else "10000", "--repeat", "3", *extra])
    print(f"\n(all benchmarks: {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
