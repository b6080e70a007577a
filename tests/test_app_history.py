"""History, a past game step by step, export and import, players, rules reference and statistics,
built without a browser against the real service."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from companion.app import probe
from companion.app.screens.history import Filters, bounds, parse_day
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from scoring.referee import replay
from tests.conftest import EXAMPLES

A, B, C, D = "Anne", "Bruno", "Chloé", "David"


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def bid(p, *v):
    return {"type": "bid", "player": p, "add": list(v)}


def pas(p):
    return {"type": "pass", "player": p}


def rv(c):
    return {"type": "reveal", "card": c}


GAME = [rv("p7"), bid(A, 4), bid(B, 6), pas(C), pas(D), bid(A, 3), pas(B),
        rv("p2"), pas(A), pas(B), pas(C),
        rv("x2"), bid(D, 1), pas(A), pas(B), pas(C),
        rv("x2"), pas(D), pas(A), pas(B),
        rv("x2"), pas(C), pas(D), pas(A),
        rv("half")]


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


@pytest.fixture
def played(service):
    """One finished High Society game (David wins) and one in progress."""
    done = service.start("high-society", [A, B, C, D])
    for action in GAME:
        service.submit(done.session_id, action)
    going = service.start("high-society", ["Lou", "Marc", "Nina"])
    service.submit(going.session_id, rv("p4"))
    return done.session_id, going.session_id


@pytest.fixture
def app(service, tmp_path) -> App:
    app = App(service, None, export_dir=tmp_path / "exports")
    app.render()
    return app


# -- history ------------------------------------------------------------------------------------


def test_history_lists_every_game_with_its_result(app, played):
    done, going = played
    probe.tap(app.root, "home-history")
    assert fr("app.history.count", count=2) in probe.text_of(app.root, "history-count")
    assert fr("app.history.won_by", players=D) in probe.text_of(app.root, f"history-{done}")
    assert fr("app.history.in_progress") in probe.text_of(app.root, f"history-{going}")


def test_history_filters_by_game_player_and_date(app, played, service):
    done, going = played
    probe.tap(app.root, "home-history")
    probe.tap(app.root, "filter-player-David")
    assert probe.has(app.root, f"history-{done}") and not probe.has(app.root, f"history-{going}")
    probe.tap(app.root, "filter-player-all")
    probe.tap(app.root, "filter-game-animalement-votre")
    assert probe.has(app.root, "history-empty")
    probe.tap(app.root, "filter-game-high-society")
    assert fr("app.history.count", count=2) in probe.text_of(app.root, "history-count")
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    probe.type_into(app.root, "filter-since", tomorrow)
    probe.tap(app.root, "filter-apply")
    assert probe.has(app.root, "history-empty")
    probe.type_into(app.root, "filter-since", "")
    probe.type_into(app.root, "filter-until", date.today().strftime("%d/%m/%Y"))
    probe.tap(app.root, "filter-apply")
    assert fr("app.history.count", count=2) in probe.text_of(app.root, "history-count")
    probe.type_into(app.root, "filter-until", "2025-02-30")
    probe.tap(app.root, "filter-apply")
    assert fr("app.history.until") in probe.text_of(app.root, "bad-date")
    probe.tap(app.root, "filter-period-week")  # a period clears the typed dates
    assert fr("app.history.count", count=2) in probe.text_of(app.root, "history-count")


def test_date_bounds():
    today = date(2025, 3, 14)
    since, until, problem = bounds(Filters(period="week"), today)
    assert since.date() == date(2025, 3, 8) and until is None and problem is None
    since, until, problem = bounds(Filters(since_text="2025-03-01", until_text="01/03/2025"), today)
    assert since.date() == date(2025, 3, 1) and until.date() == date(2025, 3, 2) and problem is None
    assert bounds(Filters(since_text="yesterday"), today)[2] == "since"
    assert parse_day("2024-02-29") == date(2024, 2, 29) and parse_day("2025-02-29") is None


def test_a_past_game_replays_step_by_step(app, played, service):
    done, _ = played
    probe.tap(app.root, "home-history")
    probe.tap(app.root, f"history-{done}")
    assert app.here.screen == "past"
    assert fr("app.results.winner", player=D) in probe.text_of(app.root, "past-result-headline")
    assert probe.text_of(app.root, "step-label") == fr("app.past.step", k=25, n=25)
    record = service.open(done).record
    probe.tap(app.root, "step-first")
    assert probe.text_of(app.root, "step-label") == fr("app.past.step", k=0, n=25)
    assert not probe.is_enabled(app.root, "step-prev")
    for k in (1, 2, 3):
        probe.tap(app.root, "step-next")
        expected = replay(record, upto=k)
        assert probe.text_of(app.root, "step-events") == " ".join(m.render("fr") for m in expected.events[-1])
        assert probe.text_of(app.root, "step-prompt") == expected.engine.expected().prompt.render("fr")
    # the game's own screen, read-only: the state shown, nothing to tap
    assert probe.has(app.root, "past-hs-player-Anne")
    assert not probe.has(app.root, "money-1") and not probe.has(app.root, "past-money-1")
    probe.tap(app.root, "step-last")
    assert not probe.is_enabled(app.root, "step-next")


def test_an_unfinished_game_from_the_history_resumes_at_the_table(app, played):
    _, going = played
    probe.tap(app.root, "home-history")
    probe.tap(app.root, f"history-{going}")
    assert probe.has(app.root, "past-unfinished")
    probe.tap(app.root, "past-resume")
    assert app.here.screen == "table"


def test_delete_asks_first(app, played, service):
    done, _ = played
    app.go("past", session_id=done)
    probe.tap(app.root, "past-delete")
    probe.tap(app.dialog, "delete-confirm-no")
    assert len(service.history()) == 2
    probe.tap(app.root, "past-delete")
    probe.tap(app.dialog, "delete-confirm-yes")
    assert [s.session_id for s in service.history()] != [] and done not in [s.session_id for s in service.history()]
    assert app.here.screen == "home" or app.here.screen == "history"
    assert fr("app.past.deleted") in probe.text_of(app.root, "notice")


# -- export and import ------------------------------------------------------------------------


def test_export_one_and_all_to_files_whose_path_is_shown(app, played, service, tmp_path):
    done, _ = played
    app.go("past", session_id=done)
    probe.tap(app.root, "export-one")
    files = sorted((tmp_path / "exports").glob("*.json"))
    assert len(files) == 1 and str(files[0]) in probe.text_of(app.root, "notice")
    assert json.loads(files[0].read_text(encoding="utf-8")) == service.export(done)[0]
    app.go("history")
    probe.tap(app.root, "export-all")
    everything = [f for f in (tmp_path / "exports").glob("*.json") if f != files[0]]
    assert len(everything) == 1
    assert json.loads(everything[0].read_text(encoding="utf-8")) == service.export()
    assert str(everything[0]) in probe.text_of(app.root, "notice")


def test_import_from_a_path(app, service, tmp_path):
    app.go("history")
    probe.tap(app.root, "import-run")
    assert fr("app.history.import_no_path") in probe.text_of(app.root, "notice")
    probe.type_into(app.root, "import-path", str(tmp_path / "nowhere.json"))
    probe.tap(app.root, "import-run")
    assert str(tmp_path / "nowhere.json") in probe.text_of(app.root, "notice")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "table-record/1", "game": "high-society"', encoding="utf-8")
    probe.type_into(app.root, "import-path", str(bad))
    probe.tap(app.root, "import-run")
    assert probe.has(app.root, "notice") and service.history() == []  # nothing written
    example = EXAMPLES / "high-society-in-progress.json"
    probe.type_into(app.root, "import-path", str(example))
    probe.tap(app.root, "import-run")
    assert fr("app.history.imported", count=1) in probe.text_of(app.root, "notice")
    assert len(service.history()) == 1
    assert fr("app.history.count", count=1) in probe.text_of(app.root, "history-count")


# -- players ----------------------------------------------------------------------------------


def test_players_screen_adds_and_lists_with_their_record(app, played, service):
    probe.tap(app.root, "home-players")
    assert "David" in probe.text_of(app.root, "player-David")
    assert fr("app.players.line", games=1, wins=1, rate=fr("app.format.percent", value=100)) in \
        probe.text_of(app.root, "player-David")
    probe.type_into(app.root, "player-name", "Zoé")
    probe.tap(app.root, "player-add")
    assert "Zoé" in [p.name for p in service.players()]
    assert fr("app.players.no_games") in probe.text_of(app.root, "player-Zoé")
    probe.tap(app.root, "player-David")
    assert app.here.screen == "stats"
    assert probe.find(app.root, "stats-player-David").selected is True


# -- statistics -------------------------------------------------------------------------------


def test_statistics_per_game_per_player_and_head_to_head(app, played, service):
    probe.tap(app.root, "home-stats")
    per_game = probe.text_of(app.root, "stats-game-high-society")
    assert fr("app.stats.games_played", count=1) in per_game
    assert fr("app.stats.average_win", score=4) in per_game
    assert probe.has(app.root, "chart-games") and probe.has(app.root, "chart-players")
    probe.tap(app.root, "stats-player-David")
    assert fr("app.stats.player_line", name=D, games=1, wins=1, rate=fr("app.format.percent", value=100)) in \
        probe.text_of(app.root, "stats-player-line")
    assert probe.has(app.root, "chart-win-rate")
    probe.tap(app.root, "stats-rival-Anne")
    h2h = service.head_to_head(D, A)
    assert probe.text_of(app.root, "stats-h2h") == fr(
        "app.stats.h2h_line", a=D, b=A, games=h2h.games, a_wins=h2h.a_wins, b_wins=h2h.b_wins,
        a_ahead=h2h.a_ahead, b_ahead=h2h.b_ahead, level=h2h.level)
    probe.tap(app.root, "stats-rival-Lou")  # never finished a game with David
    assert fr("app.stats.h2h_none", a=D, b="Lou") in probe.text_of(app.root, "stats-h2h")


def test_statistics_with_nothing_finished(app):
    probe.tap(app.root, "home-stats")
    assert probe.has(app.root, "stats-empty")
