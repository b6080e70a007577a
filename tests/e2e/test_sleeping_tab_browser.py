"""A tablet's tab that slept comes back by itself to the current state of its table (headless chromium).

Tab A (a 10-inch tablet) shows a High Society game on its table screen. It falls asleep as a tablet
does: its network goes with it — the page sees its websocket closed, and the server is told nothing
(the old socket stays open on the server, as when a device's Wi-Fi stops without a word) — and its
scripts stop (the debugger pauses them: ``Page.setWebLifecycleState`` "frozen" has no effect in
headless chromium, its timers run on). Meanwhile tab B, another device, makes two entries through
the UI. Tab A wakes: with no reload and no tap it shows both entries and the new prompt, its
websocket having been opened again (the route saw a second socket); then a tap on A is saved.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from companion.service import SessionService
from companion.store import Store
from tests.e2e.harness import AppProcess, tab

pytestmark = [pytest.mark.browser, pytest.mark.slow]

A, B, C = "Anne", "Bruno", "Chloé"


class Network:
    """Tab A's link to the app's websocket, which the test can cut as a sleeping tablet loses it:
    the page's socket is closed, the server's is left open (it is not told). While asleep, a socket
    the page opens is closed at once (no network)."""

    def __init__(self) -> None:
        self.asleep = False
        self.sockets = 0  # sockets the page opened to the app
        self.pages: list[Any] = []

    def route(self, ws) -> None:
        if self.asleep:
            ws.close()
            return
        self.sockets += 1
        server = ws.connect_to_server()
        # A handler on each side stops Playwright forwarding a close to the other side.
        ws.on_close(lambda code, reason: None)
        server.on_close(lambda code, reason: None)
        self.pages.append(ws)

    def cut(self) -> None:
        self.asleep = True
        for ws in self.pages:
            ws.close()
        self.pages.clear()


def entries(db, sid: int) -> int:
    service = SessionService(Store(db))
    try:
        return len(service.open(sid).log)
    finally:
        service.store.close()


def test_a_tab_that_slept_shows_the_entries_made_meanwhile_and_carries_on(chromium, tmp_path, monkeypatch):
    db = tmp_path / "companion.db"
    seeding = SessionService(Store(db))
    sid = seeding.start("high-society", [A, B, C], first_player=A).session_id
    seeding.store.close()
    monkeypatch.delenv("COMPANION_TABLE", raising=False)
    app = AppProcess(db, tmp_path / "app.log").start()
    try:
        with tab(chromium) as a, tab(chromium) as b:
            network = Network()
            a.page.route_web_socket("**/ws", network.route)
            a.open(app.url)
            a.resume(sid)
            a.wait_for("hs-reveal")
            a.wait_text(A, "prompt")
            assert not a.exists("entry-0") and network.sockets == 1

            # A sleeps: its socket drops (the server is not told), then its scripts stop.
            cdp = a.page.context.new_cdp_session(a.page)
            paused: list[Any] = []
            cdp.on("Debugger.paused", lambda event: paused.append(event))
            network.cut()
            cdp.send("Debugger.enable")
            cdp.send("Debugger.pause")

            # Another device carries the game on: the 10 is revealed, Anne passes.
            b.open(app.url)
            b.resume(sid)
            b.tap_until_saved("reveal-p10", lambda: entries(db, sid) == 1)
            b.wait_for("entry-0")
            b.wait_text(A, "prompt")
            b.tap_until_saved("pass", lambda: entries(db, sid) == 2)
            b.wait_for("entry-1")
            b.wait_text(B, "prompt")
            assert paused, "tab A's scripts never stopped: it did not sleep"
            assert network.sockets == 1  # nothing reached the app from A while it slept

            # A wakes: the network is back, its scripts run again. No reload, no tap.
            network.asleep = False
            woke = time.monotonic()
            cdp.send("Debugger.resume")
            cdp.send("Debugger.disable")
            a.until(lambda: a.exists("entry-1"), "tab A shows the entries made while it slept", timeout=15)
            a.wait_text(B, "prompt")
            came_back = time.monotonic() - woke
            assert a.exists("entry-0")
            assert network.sockets == 2, "tab A did not open its websocket again: the socket never dropped"

            # The table carries on on A: Bruno passes.
            a.tap_until_saved("pass", lambda: entries(db, sid) == 3)
            a.wait_for("entry-2")
            a.wait_text(C, "prompt")
            b.wait_for("entry-2")  # and the other device hears of it
            print(f"tab A showed the current state {came_back:.2f} s after waking")
    finally:
        app.stop()
    assert "Traceback" not in app.log(), app.log()
