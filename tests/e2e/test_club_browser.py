"""A club's view in a real browser (issue #16), on a landscape tablet and on a phone: the club's
database already holds games of two other tablets ("Table 1", "Salle du fond") and of a tablet
with no name; this tablet is given its table name on the home screen, a High Society game is
played on it through the table screen, then the statistics' league table is read for this table
and for another, and the history is filtered by table. On both the league table starts on the
first screen, under the filters. Every step is a tap or typing on the page.
With SCREENSHOTS=1 the league table is written to docs/screenshots/club-league-<size>.png."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.e2e.harness import AppProcess, tab
from tests.e2e.high_society_play import play_designed
from tests.support.games import hs_designed, hs_nobody_wins

pytestmark = [pytest.mark.browser, pytest.mark.slow]

A, B, C, D = "Anne", "Bruno", "Chloé", "David"
SIZES = {"tablet": (1280, 800), "phone": (390, 844)}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def seed(db) -> None:
    """Other tablets' games, as a club's shared database has them (finished a month ago)."""
    service = SessionService(Store(db), clock=lambda: datetime(2026, 10, 20, 20, 0, tzinfo=timezone.utc))

    def play(record: dict, table: str | None) -> None:
        state = service.start(record["game"], record["players"], first_player=record.get("first_player"),
                              table=table)
        for action in record["actions"]:
            service.submit(state.session_id, action)

    play(hs_designed([B, C, A], B), "Table 1")      # Bruno 2 points, Chloé 1, Anne 0
    play(hs_designed([B, A, D], B), "Table 1")      # Bruno 2, Anne 1, David 0
    play(hs_nobody_wins([A, B, C, D]), "Salle du fond")  # 3 points each
    play(hs_designed([D, A, B], D), None)           # a tablet with no name
    service.store.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_tablet_names_its_table_plays_and_reads_the_club_league(chromium, tmp_path, monkeypatch, size):
    db = tmp_path / "club.db"
    seed(db)
    mine = "Table 3" if size == "tablet" else "Salle du fond"  # the phone joins a table that has games
    monkeypatch.delenv("COMPANION_TABLE", raising=False)
    if size == "phone":
        monkeypatch.setenv("COMPANION_TABLE", "Table 4")  # named at start; renamed in the app below
    server = AppProcess(db, tmp_path / "app.log").start()
    width, height = SIZES[size]
    try:
        with tab(chromium, width, height) as s:
            s.open(server.url)

            # -- this tablet's table name, on the home screen ----------------------------------------------
            s.wait_for("table-name-now")
            if size == "phone":
                s.wait_text(fr("app.club.table_named", table="Table 4"), "table-name-now")
            else:
                s.wait_text(fr("app.club.table_unnamed"), "table-name-now")
            s.type_into("table-name-field", f"  {mine} ")
            s.click("table-name-save")
            s.wait_text(fr("app.club.table_saved", table=mine), "notice")
            s.wait_text(fr("app.club.table_named", table=mine), "table-name-now")

            # -- a game played here ----------------------------------------------------------------------------
            s.click("home-new")
            s.click("game-high-society")
            s.wait_for("variant-final_tie-replay")  # the set-up screen of High Society
            for k, name in enumerate((A, B, C), start=1):
                s.click(f"profile-{name}")
                s.wait_text(fr("app.setup.player_count", count=k, low=3, high=5), "setup-count")
            s.click("setup-start")
            s.wait_for("hs-reveal")
            play_designed(s, [A, B, C])

            # -- the statistics: the league table of this table, then of another -----------------------
            s.click("nav-home")
            s.click("home-stats")
            s.wait_for("league-1")
            s.wait_text(fr("app.club.league_points_rule")[:60], "league-points-rule")
            # every table: 5 games; Bruno 2 + 2 + 3 + 0 (+ 1 here) points
            s.wait_text(fr("app.club.league_of", game=fr("game.high-society.name"), count=5), "league-heading")
            s.wait_text(B, "league-1")
            s.wait_text(fr("app.club.league_points", points=8), "league-1")
            # The filters above leave the league table room: its heading is on the first screen, unscrolled
            # (on a phone the filter chips share lines instead of stacking one per line).
            s.scroll_top()

            def heading_on_first_screen() -> bool:
                box = s.box("league-heading")
                return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height

            s.until(heading_on_first_screen, f"the league table's heading within the first {height} px")
            s.click(f"stats-table-{mine}")
            if mine == "Table 3":  # only the game played here: Anne 2 points, Bruno 1, Chloé 0
                s.wait_text(fr("app.club.league_of", game=fr("game.high-society.name"), count=1), "league-heading")
                expected = [(A, 2, 1), (B, 1, 0), (C, 0, 0)]
            else:  # the seeded four-player game (3 points each) and the game played here
                s.wait_text(fr("app.club.league_of", game=fr("game.high-society.name"), count=2), "league-heading")
                expected = [(A, 5, 1), (B, 4, 0), (D, 3, 0), (C, 3, 0)]  # David's place 1 beats Chloé's 2
            for i, (name, points, wins) in enumerate(expected, start=1):
                s.wait_text(name, f"league-{i}")
                s.wait_text(fr("app.club.league_points", points=points), f"league-{i}")
                games = 1 if mine == "Table 3" or name == D else 2
                s.wait_text(fr("app.club.league_figures", games=games, wins=wins, place="X").split(" · place")[0],
                            f"league-{i}")
            assert not s.exists(f"league-{len(expected) + 1}")
            s.wait_for("chart-league")
            if os.environ.get("SCREENSHOTS"):
                SHOTS.mkdir(parents=True, exist_ok=True)
                s.screenshot(SHOTS / f"club-league-{size}.png")
            s.click("stats-table-Table 1")
            s.wait_text(fr("app.club.league_of", game=fr("game.high-society.name"), count=2), "league-heading")
            s.wait_text(B, "league-1")
            s.wait_text(fr("app.club.league_points", points=4), "league-1")
            s.click("stats-table-unnamed")
            s.wait_text(fr("app.club.league_of", game=fr("game.high-society.name"), count=1), "league-heading")
            s.wait_text(D, "league-1")

            # -- the history, filtered by this table ---------------------------------------------------------
            s.click("nav-home")
            s.click("home-history")
            s.wait_text(fr("app.history.count", count=5), "history-count")
            s.click("history-filters-toggle")
            s.click(f"filter-table-{mine}")
            count = 1 if mine == "Table 3" else 2
            s.wait_text(fr("app.history.count", count=count), "history-count")
            s.click("history-filters-toggle")  # folded, as on a phone, to read the list below them
            s.wait_text(fr("app.club.at_table", table=mine), "history-5")
            assert s.exists("history-5") and not s.exists("history-1")
    finally:
        server.stop()
