"""Durable append latency: one entry through the store (service.submit) next to a raw sqlite3
INSERT + COMMIT with the same pragmas (WAL, synchronous=FULL), on the same file system; prints
p50/p99 of each and the ratio store / raw.

    python benchmarks/append_latency.py [--count 300] [--dir DIR]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
import time
from pathlib import Path

import _setup  # noqa: F401
from _setup import hs_long, percentile, summary

from companion.service import SessionService
from companion.store import Store

PLAYERS = ["Anne", "Bruno", "Chloé", "Dario", "Eve"]


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


def store_latencies(path: Path, count: int) -> list[float]:
    store = Store(path)
    try:
        service = SessionService(store)
        script = hs_long(PLAYERS)["actions"]
        out: list[float] = []
        while len(out) < count:
            state = service.start("high-society", PLAYERS)
            for action in script:
                start = time.perf_counter()
                service.submit(state.session_id, action)
                out.append(time.perf_counter() - start)
                if len(out) == count:
                    break
        return out
    finally:
        store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="appends measured on each side")
    parser.add_argument("--dir", default=None, help="directory for both databases (default: a temporary one)")
    args = parser.parse_args(argv)
    print("== durable append latency (WAL, synchronous=FULL) ==")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp_path = Path(tmp)
        print(f"file system of {tmp_path}")
        script = hs_long(PLAYERS)["actions"]
        raw_latencies(tmp_path / "warm.db", script, 20)  # warm the disk path once
        raw = raw_latencies(tmp_path / "raw.db", script, args.count)
        ours = store_latencies(tmp_path / "store.db", args.count)
    print(f"raw sqlite3 INSERT+COMMIT  {summary(raw)}")
    print(f"store (service.submit)     {summary(ours)}")
    for q in (50, 99):
        print(f"ratio store/raw p{q}: {percentile(ours, q) / percentile(raw, q):6.2f}x")


if __name__ == "__main__":
    main()
