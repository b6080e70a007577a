"""Databases as older versions left them, and the rows of a database table by table."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.store import Store
from models.record import parse_record_data
from scoring.referee import verdict_of
from tests.support.games import hs_designed

PLAYERS = ["Anne", "Bruno", "Chloé"]


def rows_by_table(con: sqlite3.Connection, tables, columns_of: dict | None = None) -> dict:
    """{table: (columns, rows)}; with ``columns_of``, only the columns listed there (what an older
    schema had), so that a column a later migration adds does not hide a change to the others."""
    out = {}
    for t in tables:
        columns = columns_of[t][0] if columns_of else [r[1] for r in con.execute(f"PRAGMA table_info({t})")]
        rows = con.execute(f"SELECT {', '.join(columns)} FROM {t} ORDER BY 1, 2").fetchall()
        out[t] = (columns, rows)
    return out


def insert_old_games(con: sqlite3.Connection, stamp: str, games) -> None:
    """Rows an older app wrote with plain SQL (players, sessions, seats, active actions), for the
    upgrade tests: ``games`` holds (session id, game, record, status, assist)."""
    for i, name in enumerate(PLAYERS, 1):
        con.execute("INSERT INTO players (id, name, created_at) VALUES (?, ?, ?)", (i, name, stamp))
    for sid, game, rec, status, assist in games:
        con.execute("INSERT INTO sessions (id, game, variant, first_player, assist, status, started_at, "
                    "finished_at, updated_at) VALUES (?, ?, '{}', 'Anne', ?, ?, ?, ?, ?)",
                    (sid, game, assist, status, stamp, stamp if status == "finished" else None, stamp))
        for pos in range(3):
            con.execute("INSERT INTO seats VALUES (?, ?, ?)", (sid, pos, pos + 1))
        for seq, action in enumerate(rec["actions"], 1):
            con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                        (sid, seq, json.dumps(action), stamp))


BC_GOING = [{"type": "draw", "card": "pig"}, {"type": "bid", "player": "Bruno", "amount": 20},
            {"type": "close", "buy_back": False}, {"type": "pay", "player": "Bruno", "cards": [10, 10]}]


def write_0002_data(path: Path) -> dict:
    """The rows a 0002-era app wrote: a finished game with its results, a Boursicocotte game under
    way with an undone entry. Returns the record of each session as it should export."""
    record = hs_designed(PLAYERS, "Anne")
    result = verdict_of(parse_record_data(record)).result
    con = sqlite3.connect(path)
    with con:
        stamp = "2026-01-05 20:00:00.000000"
        insert_old_games(con, stamp, [(1, "high-society", record, "finished", False),
                                       (2, "boursicocotte", {"actions": BC_GOING}, "in_progress", True)])
        con.execute("INSERT INTO actions (session_id, seq, action, created_at, retracted_at) VALUES "
                    "(2, 99, '{\"type\": \"draw\", \"card\": \"hen\"}', ?, ?)", (stamp, stamp))
        ranks = {r.player: r.rank for r in result.ranking}
        for i, name in enumerate(PLAYERS, 1):
            con.execute("INSERT INTO results VALUES (1, ?, ?, ?, ?, ?)",
                        (i, result.scores[name], ranks[name], name in result.winners, name in result.eliminated))
    con.close()
    envelope = {"format": "table-record/1", "players": PLAYERS, "first_player": "Anne"}
    return {1: {**envelope, "game": "high-society", "actions": record["actions"]},
            2: {**envelope, "game": "boursicocotte", "actions": BC_GOING}}


def old_database_with_games(tmp_path, revision: str) -> tuple:
    """A database at ``revision`` holding the old-schema games, and its rows by table before
    anything else touches it."""
    path = tmp_path / "a.db"
    old = Store(path, upgrade=False)
    old.upgrade(revision)
    old.close()
    write_0002_data(path)
    tables = ("players", "sessions", "seats", "actions", "results")
    con = sqlite3.connect(path)
    before = rows_by_table(con, tables)
    con.close()
    return path, tables, before


def snapshot(path: Path) -> dict:
    """Every row of every table: 'unchanged' means exactly this."""
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        con.close()
