"""Games saved by an older version of the app, for the tests of a corrected rule: the first entry
made through the service, the rest written to the database as that version stored them (it accepted
them), and the same game as a tablet's history offers it to a club (``SourceGame``)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from companion.service import ServiceError, SessionService
from companion.store import LogRow, SourceGame, Store


def text(action: dict) -> str:
    return json.dumps(action, ensure_ascii=False, separators=(",", ":"))


def saved_game(db: Path, game: str, players: list[str], actions: list[dict]) -> int:
    service = SessionService(Store(db))
    sid = service.start(game, players).session_id
    service.submit(sid, actions[0])
    with sqlite3.connect(db) as con:  # the rest as an older version stored it
        for seq, action in enumerate(actions[1:], start=90):
            con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                        (sid, seq, text(action), "2026-01-01T00:00:00+00:00"))
    con.close()
    return sid


def opening_refused(db: Path, sid: int) -> tuple[str, str]:
    """What opening the saved game says (French, English): it no longer replays."""
    with pytest.raises(ServiceError) as err:
        SessionService(Store(db)).open(sid)
    return err.value.msg.render("fr"), err.value.msg.render("en")


def source_game(game: str, players: list[str], actions: list[dict]) -> SourceGame:
    now = datetime(2026, 1, 1)
    return SourceGame(session_id=7, game=game, variant="{}", first_player=players[0], assist=False,
                      status="in_progress", started_at=now, finished_at=None, updated_at=now, setup=None,
                      abandoned_at=None, table_name=None, origin="tablet/7", names=players,
                      profiles=list(range(1, len(players) + 1)),
                      log=[LogRow(i + 1, text(a), now, None) for i, a in enumerate(actions)])
