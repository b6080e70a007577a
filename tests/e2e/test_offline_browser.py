"""A club tablet whose server goes away and comes back, in a real browser (issue #16).

The app runs on a PostgreSQL database of this module's own server (tests/pgserver.py's
``Server``; the other tests' server is never stopped). On a landscape tablet: the bar says
« Connecté au serveur du club », an entry is made, the server is stopped; the bar turns to
« Hors ligne », the table keeps
showing the game as it was acknowledged and says why entries are refused, its entry controls
(money cards, pass, undo, correction) are greyed and a tap on them does nothing; the server is
started again, the bar turns back, the controls come back and the next entry is accepted, without
restarting the app. An app started while the server is down says so and opens
by itself once the server answers. Every step is a tap or a read on the page."""

from __future__ import annotations

import pytest

from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.e2e.harness import AppProcess, tab
from tests.pg import started_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

A, B, C = "Anne", "Bruno", "Chloé"
WAIT = 30.0  # the bar follows a check every few seconds; a busy machine may take longer


# Offline these are disabled: the bid's money cards and pass, undo, a correction of an entry.
ENTRY_CONTROLS = ("pass", "money-1", "undo", "correct-0")


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def en(key: str, **params) -> str:
    return Msg(key, params).render("en")


@pytest.fixture(scope="module")
def club_server():
    with started_server("-c synchronous_commit=on") as server:
        yield server


def acknowledged(url: str, session_id: int) -> list[dict]:
    service = SessionService(Store(url))
    try:
        return [dict(e.action) for e in service.open(session_id).log]
    finally:
        service.store.close()


def test_a_tablet_says_offline_refuses_entries_and_carries_on_when_the_server_returns(
        chromium, tmp_path, monkeypatch, club_server):
    url = club_server.new_database()
    seeding = SessionService(Store(url))
    sid = seeding.start("high-society", [A, B, C], first_player=A).session_id
    seeding.store.close()
    monkeypatch.delenv("COMPANION_TABLE", raising=False)
    app = AppProcess(url, tmp_path / "app.log").start()  # --db takes a URL as well as a path
    try:
        with tab(chromium) as s:
            s.open(app.url)
            s.wait_text(fr("app.online.connected"), "connection")
            s.click(f"resume-{sid}")
            s.tap_until_saved("reveal-p10", lambda: len(acknowledged(url, sid)) == 1)
            s.wait_for("entry-0")
            s.wait_text(A, "prompt")

            assert s.enabled("pass") and s.enabled("money-1") and s.enabled("undo") and s.enabled("correct-0")

            club_server.halt("fast")
            s.wait_text(fr("app.online.offline"), "connection", timeout=WAIT)
            s.wait_text(fr("app.online.paused"), "offline-paused")
            s.wait_text(fr("app.online.locked"), "offline-paused")  # why the controls are greyed
            assert s.exists("entry-0") and not s.exists("entry-1")  # the game as it was acknowledged
            s.wait_text(A, "prompt")
            for ident in ENTRY_CONTROLS:
                s.wait_enabled(ident, False)
            assert s.enabled("table-rules")  # the rules need no server
            adding = s.text("bid-adding")
            for ident in ENTRY_CONTROLS:  # a player taps anyway: nothing happens
                s.tap_anyway(ident)
            # A tap that reached the app would show before the answer to a later one: the language switch.
            s.click("lang-switch")
            s.wait_text(en("app.online.offline"), "connection")
            assert not s.exists("problem") and not s.exists("undo-confirm")
            assert s.exists("entry-0") and not s.exists("entry-1")
            s.click("lang-switch")
            s.wait_text(fr("app.online.offline"), "connection")
            assert s.text("bid-adding") == adding  # the money card was not picked
            for ident in ENTRY_CONTROLS:
                assert s.enabled(ident) is False, ident

            club_server.resume()
            s.wait_text(fr("app.online.connected"), "connection", timeout=WAIT)
            s.wait_gone("offline-paused")
            for ident in ENTRY_CONTROLS:  # enabled again without a reload
                s.wait_enabled(ident)
            s.tap_until_saved("pass", lambda: len(acknowledged(url, sid)) == 2)
            s.wait_for("entry-1")
            s.wait_text(B, "prompt")
            assert not s.exists("problem")
            assert app.proc is not None and app.proc.poll() is None  # the same app process throughout
    finally:
        app.stop()
        club_server.resume()
    assert acknowledged(url, sid) == [{"type": "reveal", "card": "p10"}, {"type": "pass", "player": A}]
    log = app.log()
    assert "Traceback" not in log, log


def test_an_app_started_while_the_server_is_down_opens_by_itself_when_it_answers(
        chromium, tmp_path, monkeypatch, club_server):
    url = club_server.new_database()
    monkeypatch.delenv("COMPANION_TABLE", raising=False)
    club_server.halt("fast")
    app = None
    try:
        with tab(chromium) as s:
            app = AppProcess(url, tmp_path / "app.log").start()
            s.open(app.url, first="startup-waiting")
            s.wait_text(fr("app.online.waiting"), "startup-waiting-text")
            assert not s.exists("home-new")

            club_server.resume()
            s.wait_for("home-new", timeout=WAIT)
            s.wait_text(fr("app.online.connected"), "connection", timeout=WAIT)
            assert app.proc is not None and app.proc.poll() is None  # the same app process throughout
    finally:
        if app is not None:
            app.stop()
        club_server.resume()
    assert "Traceback" not in app.log(), app.log()
