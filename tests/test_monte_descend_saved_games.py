"""A Monte & descend game saved before chaos dealt the hands out equally: its record stays as it
was entered, and where the corrected rule makes it replay differently, the app says which game and
why (on opening it, and when a tablet's history is copied to a club)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

import pytest

from companion.service import ServiceError, SessionService
from companion.service.migrate import check_game
from companion.store import LogRow, SourceGame, Store
from models.i18n import Msg
from tests.test_monte_descend import draw, pass_, play

# Anne keeps 1 card, Bruno 6 after his chaos. Saved before the fix, the hands stayed 1 and 6; now
# they are 3 and 3 (one card under the reserve), so Bruno's series of four is more than he holds.
BEFORE_FIX = [play("Anne", *[f"b{v}" for v in range(1, 7)]), play("Bruno", "y9-chaos"),
              draw("Anne"), pass_("Anne"), play("Bruno", "b10", "b11", "b12", "b13")]


def text(action: dict) -> str:
    return json.dumps(action, ensure_ascii=False, separators=(",", ":"))


def test_opening_a_saved_game_that_the_corrected_chaos_refuses_says_which_game_and_why(tmp_path):
    db = tmp_path / "md.db"
    service = SessionService(Store(db))
    sid = service.start("monte-descend", ["Anne", "Bruno"]).session_id
    service.submit(sid, BEFORE_FIX[0])
    with sqlite3.connect(db) as con:  # the rest as an older version stored it
        for seq, action in enumerate(BEFORE_FIX[1:], start=90):
            con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                        (sid, seq, text(action), "2026-01-01T00:00:00+00:00"))
    con.close()
    with pytest.raises(ServiceError) as err:
        SessionService(Store(db)).open(sid)
    fr, en = err.value.msg.render("fr"), err.value.msg.render("en")
    assert f"La partie {sid} ne peut plus être rejouée : l'entrée 5 est refusée (MD-HAND)" in fr
    assert "Cette partie compte 1 carte chaos jouée" in fr and "MD-CHAOS" in fr and "parts égales" in fr
    assert f"Game {sid} can no longer be replayed: entry 5 is refused (MD-HAND)" in en
    assert "1 chaos card played" in en and "evenly" in en and "saved entries stay" in en


def test_a_saved_game_without_chaos_is_not_blamed_on_it(tmp_path):
    db = tmp_path / "md.db"
    service = SessionService(Store(db))
    sid = service.start("monte-descend", ["Anne", "Bruno"]).session_id
    service.submit(sid, play("Anne", "b1"))
    with sqlite3.connect(db) as con:  # Bruno lays eight cards: refused whatever the chaos rule
        con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                    (sid, 90, text(play("Bruno", *[f"b{v}" for v in range(2, 10)])), "2026-01-01T00:00:00+00:00"))
    con.close()
    with pytest.raises(ServiceError) as err:
        SessionService(Store(db)).open(sid)
    assert "MD-HAND" in err.value.msg.render("en") and "chaos" not in err.value.msg.render("en").lower()


def source_game(actions: list[dict]) -> SourceGame:
    now = datetime(2026, 1, 1)
    return SourceGame(session_id=7, game="monte-descend", variant="{}", first_player="Anne", assist=False,
                      status="in_progress", started_at=now, finished_at=None, updated_at=now, setup=None,
                      abandoned_at=None, table_name=None, origin="tablet/7", names=["Anne", "Bruno"],
                      profiles=[1, 2], log=[LogRow(i + 1, text(a), now, None) for i, a in enumerate(actions)])


def test_copying_such_a_game_to_a_club_says_why_it_is_refused():
    said = check_game(source_game(BEFORE_FIX))
    assert isinstance(said, Msg)
    en = said.render("en")
    assert "entry 5 breaks rule MD-HAND" in en and "1 chaos card played" in en
    assert not isinstance(check_game(source_game(BEFORE_FIX[:4])), Msg), "the same game before it replays"
