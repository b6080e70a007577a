"""Ratings, rivals and streaks, "Send to BG Stats" and the LAN join code in Chromium, at tablet
(1280×800) and phone (390×844) sizes, as a person at the serving machine uses them: `companion run
--lan --pin …` opened from the machine itself (loopback, the only device that sees the code), the
home screen's QR code with the PIN beside it; a game in play finished with its last tap and sent to
BG Stats (its QR code and the button that opens the link); the league sorted by rating with mu ±
sigma behind a tap; a player's page with the rating, the nemesis and its "?", and the streaks.

With SCREENSHOTS=1 each step is written to docs/screenshots/ (lan-join-, bgstats-, league-rating-,
player-page-<size>.png) for the README."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.e2e.harness import AppProcess, Screen, tab
from tests.support.games import hs_designed
from tests.support.ratings import GAMES, play_hs

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SIZES = {"tablet": (1280, 800), "phone": (390, 844)}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PIN = "135790"


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def seed(db: Path) -> int:
    """The games of tests/test_app_ratings.py finished, and one more in play one tap from its end."""
    service = SessionService(Store(db))
    try:
        for players, first in GAMES:
            play_hs(service, players, first)
        players = ["Anne", "Bruno", "David"]
        record = hs_designed(players, "Bruno")
        state = service.start("high-society", players, first_player="Bruno")
        for action in record["actions"][:-1]:
            service.submit(state.session_id, action)
        return state.session_id
    finally:
        service.store.close()


def shot(s: Screen, name: str, size: str, top: bool = True) -> None:
    if os.environ.get("SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        s.screenshot(SHOTS / f"{name}-{size}.png", top=top)


def scroll_down(s: Screen, pixels: int) -> None:
    size = s.page.viewport_size or {"width": 1280, "height": 800}
    s.page.mouse.move(size["width"] / 2, size["height"] / 2)
    s.page.mouse.wheel(0, pixels)
    s.frames(4)


def scroll_to(s: Screen, ident: str, room: float = 120) -> None:
    """Scroll down (a wheel's steps) until ``ident`` starts ``room`` pixels under the top bar."""
    for _ in range(40):
        box = s.box(ident)
        if box is not None and box["y"] <= room + 80:
            return
        scroll_down(s, 150)


@pytest.mark.parametrize("size", list(SIZES))
def test_join_code_bg_stats_league_by_rating_and_a_players_rivals(chromium, tmp_path, size):
    db = tmp_path / "companion.db"
    going = seed(db)
    # served on every interface; this test's tab opens it from loopback (the serving machine)
    server = AppProcess(db, tmp_path / "app.log", extra=("--lan", "--pin", PIN)).start()
    width, height = SIZES[size]
    try:
        with tab(chromium, width, height) as s:
            s.open(server.url)

            # -- the serving machine's home: the address as a QR code, the PIN beside it -------------------
            s.wait_for("join-qr")
            s.wait_text(PIN, "join-pin")
            printed = server.log()
            assert any(line.startswith("http://") and line.strip() in s.text("join-url") for line in printed.splitlines())
            box = s.box("join-qr")
            assert box is not None and box["width"] >= 180 and box["height"] >= 180  # big enough to scan
            shot(s, "lan-join", size)

            # -- the game in play: its last tap, then "Send to BG Stats" ----------------------------------------
            s.click(f"resume-{going}")
            s.click("reveal-half")
            s.wait_for("result-headline")
            s.click("bgstats-send")
            s.wait_for("bgstats-qr")
            s.wait_for("bgstats-open")
            assert (s.box("bgstats-qr") or {}).get("width", 0) >= 200
            scroll_to(s, "bgstats-panel" if size == "tablet" else "bgstats-qr")
            shot(s, "bgstats", size, top=False)
            s.click("results-home")

            # -- the league, sorted by rating; mu ± sigma behind a tap ------------------------------------------
            s.click("home-stats")
            s.wait_for("league-panel")
            s.click("league-sort-rating")
            reader = SessionService(Store(db))
            try:
                best = reader.ratings.table("high-society")[0]
            finally:
                reader.store.close()
            s.wait_text(best.name, "league-1")
            s.click("league-1-rating")
            s.wait_for("league-1-detail")
            s.wait_text("±", "league-1-detail")
            scroll_to(s, "league-heading" if size == "tablet" else "league-1")
            shot(s, "league-rating", size, top=False)

            # -- a player's page: rating, nemesis with its "?", streaks -----------------------------------------
            s.click("nav-home")
            s.click("home-players")
            s.click("player-Anne")
            s.wait_for("player-rating-high-society")
            s.wait_for("player-nemesis")
            s.wait_for("player-streak-all")
            scroll_to(s, "player-rivals")
            shot(s, "player-page", size, top=False)
            s.click("help-nemesis")
            s.wait_text(fr("app.players.help.nemesis")[:40], "help-nemesis-text")
    finally:
        server.stop()
