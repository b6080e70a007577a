"""A Boursicocotte game saved while the app accepted paying more than owed with the exact sum in
hand: the rulebook's exact payment is now the default (``payment: exact``), so such a game no
longer replays; the app says which game and why, on opening it and when it is copied to a club."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

import pytest

from companion.service import ServiceError, SessionService
from companion.service.migrate import check_game
from companion.store import LogRow, SourceGame, Store
from models.i18n import Msg

# Lou, the auctioneer buying back, holds four 10s and pays a 50 for a bid of 30: accepted before, refused (BC-OVERPAY) now
SAVED = [{"type": "draw", "card": "pig"}, {"type": "bid", "player": "Nina", "amount": 30},
         {"type": "close", "buy_back": True}, {"type": "pay", "player": "Lou", "cards": [50]}]
PLAYERS = ["Lou", "Marc", "Nina"]


def text(action: dict) -> str:
    return json.dumps(action, ensure_ascii=False, separators=(",", ":"))


def saved_game(db, actions: list[dict]) -> int:
    service = SessionService(Store(db))
    sid = service.start("boursicocotte", PLAYERS).session_id
    service.submit(sid, actions[0])
    with sqlite3.connect(db) as con:  # the rest as an older version stored it
        for seq, action in enumerate(actions[1:], start=90):
            con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                        (sid, seq, text(action), "2026-01-01T00:00:00+00:00"))
    con.close()
    return sid


def test_opening_a_saved_overpayment_says_which_game_and_why(tmp_path):
    sid = saved_game(tmp_path / "bc.db", SAVED)
    with pytest.raises(ServiceError) as err:
        SessionService(Store(tmp_path / "bc.db")).open(sid)
    fr, en = err.value.msg.render("fr"), err.value.msg.render("en")
    assert f"La partie {sid} ne peut plus être rejouée : l'entrée 4 est refusée (BC-OVERPAY)" in fr
    assert "variante maison « Paiement libre »" in fr and "restent telles quelles" in fr
    assert f"Game {sid} can no longer be replayed: entry 4 is refused (BC-OVERPAY)" in en
    assert "“Free payment”" in en


def test_another_refusal_is_not_blamed_on_the_exact_payment(tmp_path):
    short = SAVED[:3] + [{"type": "pay", "player": "Lou", "cards": [10, 10]}]  # 20 for 30: short in any rule
    sid = saved_game(tmp_path / "bc.db", short)
    with pytest.raises(ServiceError) as err:
        SessionService(Store(tmp_path / "bc.db")).open(sid)
    en = err.value.msg.render("en")
    assert "BC-PAY-SHORT" in en and "Free payment" not in en


def test_copying_such_a_game_to_a_club_says_why_it_is_refused():
    now = datetime(2026, 1, 1)
    game = SourceGame(session_id=7, game="boursicocotte", variant="{}", first_player="Lou", assist=False,
                      status="in_progress", started_at=now, finished_at=None, updated_at=now, setup=None,
                      abandoned_at=None, table_name=None, origin="tablet/7", names=PLAYERS, profiles=[1, 2, 3],
                      log=[LogRow(i + 1, text(a), now, None) for i, a in enumerate(SAVED)])
    said = check_game(game)
    assert isinstance(said, Msg)
    assert "BC-OVERPAY" in said.render("en") and "Free payment" in said.render("en")
