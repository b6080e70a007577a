"""History, a past game step by step, export and import, players, rules reference and statistics,
built without a browser against the real service."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from companion.app import probe
from companion.app.format import number
from companion.app.screens.history import Filters, bounds, parse_day
from companion.app.shell import App
from companion.app.ui import walk
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from scoring.referee import replay
from tests.conftest import EXAMPLES
from tests.support.screens import choose

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


def test_the_history_line_lists_players_by_place_and_says_who_was_out_and_why(app, played, service):
    """« 1. David 9 · 2. Anne … · 4. Chloé 11, hors jeu : le moins d'argent restant »: by place,
    the place first, never a seat with its place in brackets; the poorest's score cannot read as
    the best."""
    done, _ = played
    outcome = service.open(done).outcome
    assert outcome is not None and outcome.eliminated
    app.go("history")
    line = probe.text_of(app.root, f"history-{done}")
    by_place = [p for p, _ in sorted(outcome.ranking, key=lambda x: x[1])]
    assert [line.index(f". {p} ") for p in by_place] == sorted(line.index(f". {p} ") for p in by_place)
    for player, place in outcome.ranking:
        if player in outcome.eliminated:
            assert fr("app.history.seat_out", place=place, name=player, score=number(app, outcome.scores[player]),
                      why=fr("game.high-society.out_why")) in line
        else:
            assert fr("app.history.seat_result", place=place, name=player,
                      score=number(app, outcome.scores[player])) in line
    assert "(" + str(dict(outcome.ranking)[by_place[0]]) + ")" not in line  # no place in brackets


def test_history_filters_by_game_player_and_date(app, played, service):
    done, going = played
    probe.tap(app.root, "home-history")
    probe.tap(app.root, "history-filters-toggle")  # the list first, the filters folded
    choose(app, "filter-player", "David")
    assert probe.has(app.root, f"history-{done}") and not probe.has(app.root, f"history-{going}")
    choose(app, "filter-player", "")
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
    probe.tap(app.root, "step-why")
    assert fr("app.past.why_next", prompt=replay(record, upto=3).engine.expected().prompt.render("fr")) in \
        probe.text_of(app.dialog, "why-step-text")
    probe.tap(app.dialog, "why-step-close")
    probe.tap(app.root, "step-last")
    assert not probe.is_enabled(app.root, "step-next")
    probe.tap(app.root, "step-why")  # the last entry settles the game: its rules are shown
    assert "HS-" in probe.text_of(app.dialog, "why-step-text")


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
    assert len(service.history.all()) == 2
    probe.tap(app.root, "past-delete")
    probe.tap(app.dialog, "delete-confirm-yes")
    assert [s.session_id for s in service.history.all()] != [] and done not in [s.session_id for s in service.history.all()]
    assert app.here.screen == "home" or app.here.screen == "history"
    assert fr("app.past.deleted") in probe.text_of(app.root, "notice")


# -- export and import ------------------------------------------------------------------------


def test_export_one_and_all_to_files_whose_path_is_shown(app, played, service, tmp_path):
    done, _ = played
    app.go("past", session_id=done)
    probe.tap(app.root, "export-one")
    files = sorted((tmp_path / "exports").glob("*.json"))
    assert len(files) == 1 and str(files[0]) in probe.text_of(app.root, "notice")
    assert json.loads(files[0].read_text(encoding="utf-8")) == service.transfer.export(done)[0]
    app.go("history")
    probe.tap(app.root, "export-all")
    everything = [f for f in (tmp_path / "exports").glob("*.json") if f != files[0]]
    assert len(everything) == 1
    assert json.loads(everything[0].read_text(encoding="utf-8")) == service.transfer.export()
    assert str(everything[0]) in probe.text_of(app.root, "notice")


def picked(path: Path | None = None, content: bytes | None = None):
    """A file as Flet's picker hands it over in the browser (its bytes, no path)."""
    from flet import FilePickerFile

    data = content if content is not None else path.read_bytes()
    return FilePickerFile(id=1, name=path.name if path else "upload.json", size=len(data), bytes=data)


def test_import_through_the_file_picker(app, service, tmp_path):
    from types import SimpleNamespace

    from companion.app.screens.history import PICKER

    app.go("history")
    button = probe.find(app.root, "import-file").content
    chooser = app.drafts[PICKER]
    assert button.action.file_picker is chooser and button.action.with_data  # the browser reads the file for us
    bad = picked(content=b'{"format": "table-record/1", "game": "high-society"')
    chooser.on_result(SimpleNamespace(files=[bad]))
    assert probe.has(app.root, "notice") and service.history.all() == []  # nothing written
    example = EXAMPLES / "high-society-in-progress.json"
    chooser.on_result(SimpleNamespace(files=[picked(example)]))
    assert fr("app.history.imported_n", count=1) == "1 partie importée." in probe.text_of(app.root, "notice")
    assert len(service.history.all()) == 1
    assert fr("app.history.count", count=1) in probe.text_of(app.root, "history-count")
    two = tmp_path / "two.json"
    two.write_text(json.dumps(service.transfer.export() * 2), encoding="utf-8")
    chooser.on_result(SimpleNamespace(files=[picked(two)]))
    assert fr("app.history.imported_n", count=2) == "2 parties importées." in probe.text_of(app.root, "notice")
    chooser.on_result(SimpleNamespace(files=[]))  # cancelled: nothing happens
    assert len(service.history.all()) == 3


def test_the_history_shows_a_page_then_more(app, service):
    import json as _json

    from companion.app.screens.history import PAGE

    record = _json.loads((EXAMPLES / "high-society-in-progress.json").read_text(encoding="utf-8"))
    ids = service.transfer.import_records(_json.dumps([record] * (PAGE + 3)))
    app.go("history")
    shown = [i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()]
    assert len(shown) == PAGE and shown[0] == f"history-{ids[-1]}"
    assert fr("app.history.count", count=PAGE + 3) in probe.text_of(app.root, "history-count")
    assert probe.text_of(app.root, "history-more") == fr("app.history.more", count=3, shown=PAGE,
                                                         total=PAGE + 3)
    probe.tap(app.root, "history-more")
    shown = [i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()]
    assert len(shown) == PAGE + 3 and not probe.has(app.root, "history-more")


def test_the_history_list_scrolls_itself_so_the_browser_builds_only_the_rows_in_view(app, played):
    """The history is one lazily built list (Flutter lays out only the rows in view, not every row
    "more" has added) and the frame around it does not scroll it again: a second scroll around it
    would build every row. Every other screen scrolls in the frame."""
    import flet as ft

    app.go("history")
    scrolled = [c for c in walk(app.root) if isinstance(c, ft.Column) and c.scroll is not None]
    lists = [c for c in walk(app.root) if isinstance(c, ft.ListView)]
    assert not scrolled and len(lists) == 1 and lists[0].expand
    rows = [i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()]
    items = {getattr(c, "identifier", None) for c in lists[0].controls}
    assert len(played) == len(rows) and set(rows) <= items  # each row an item of the list itself
    app.go("players")
    assert any(isinstance(c, ft.Column) and c.scroll is not None for c in walk(app.root))


def test_the_history_filters_by_status_and_by_a_name_search(app, played, service):
    done, going = played
    app.go("history")
    probe.tap(app.root, "history-filters-toggle")
    probe.tap(app.root, "filter-status-finished")
    assert probe.has(app.root, f"history-{done}") and not probe.has(app.root, f"history-{going}")
    probe.tap(app.root, "filter-status-abandoned")
    assert probe.has(app.root, "history-empty")
    service.history.set_abandoned(going)
    app.render()
    assert probe.has(app.root, f"history-{going}") and not probe.has(app.root, f"history-{done}")
    assert fr("app.history.abandoned") in probe.text_of(app.root, f"history-{going}")
    probe.tap(app.root, "filter-status-all")
    probe.type_into(app.root, "filter-search", "CHLOE", submit=True)
    assert probe.has(app.root, f"history-{done}") and not probe.has(app.root, f"history-{going}")
    probe.type_into(app.root, "filter-search", "nin", submit=True)
    assert probe.has(app.root, f"history-{going}") and not probe.has(app.root, f"history-{done}")


def test_an_unfinished_game_can_be_marked_abandoned_and_taken_back(app, played, service):
    _, going = played
    app.go("past", session_id=going)
    probe.tap(app.root, "past-abandon")
    assert service.history.summary(going).status == "abandoned" and service.history.unfinished() == []
    assert fr("app.past.abandoned") in probe.text_of(app.root, "past-unfinished")
    probe.tap(app.root, "past-resume")  # resuming takes the mark away
    assert app.here.screen == "table" and service.history.summary(going).status == "in_progress"


# -- players ----------------------------------------------------------------------------------


def test_players_screen_adds_and_lists_with_their_record(app, played, service):
    probe.tap(app.root, "home-players")
    assert "David" in probe.text_of(app.root, "player-David")
    assert fr("app.players.figures", games=fr("app.stats.games_n", count=1),
              wins=fr("app.stats.wins_n", count=1), rate=fr("app.format.percent", value=100)) in \
        probe.text_of(app.root, "player-David")
    probe.type_into(app.root, "player-name", "Zoé")
    probe.tap(app.root, "player-add")
    assert "Zoé" in [p.name for p in service.players()]
    assert fr("app.players.no_games") in probe.text_of(app.root, "player-Zoé")
    probe.tap(app.root, "player-David")
    assert app.here.screen == "players" and probe.text_of(app.root, "screen-title") == fr(
        "app.players.page_title", name="David") == "Profil de David"
    assert probe.has(app.root, f"history-{played[0]}")
    assert fr("app.players.recent", name="David", count=1) in probe.text_of(app.root, "player-recent-title")


def test_a_player_is_renamed_and_keeps_their_history(app, played, service):
    done, _ = played
    anne = next(p for p in service.players() if p.name == A)
    app.go("players", player_id=anne.id)
    assert probe.text_of(app.root, "screen-title") == fr("app.players.page_title", name=A) == "Profil d'Anne"
    assert not probe.has(app.root, "player-remove")  # she has a game
    probe.type_into(app.root, "rename-name", "Annie")
    probe.tap(app.root, "rename-run")
    assert fr("app.players.renamed", name="Annie") in probe.text_of(app.root, "notice")
    assert "Annie" in probe.text_of(app.root, f"history-{done}")
    assert service.open(done).players[0] == A  # the record keeps the name written at the table
    probe.tap(app.root, f"history-{done}")
    assert probe.text_of(app.root, "step-label") == fr("app.past.step", k=25, n=25)


def test_two_profiles_are_merged_and_an_unused_one_removed(app, played, service):
    service.add_player("Davide")
    service.add_player("Zoé")
    ids = {p.name: p.id for p in service.players()}
    app.go("players", player_id=ids["Zoé"])
    probe.tap(app.root, "player-remove")
    probe.tap(app.dialog, "remove-confirm-yes")
    assert "Zoé" not in [p.name for p in service.players()]
    assert fr("app.players.removed", name="Zoé") in probe.text_of(app.root, "notice")
    app.go("players", player_id=ids["David"])
    probe.tap(app.root, "merge-run")
    assert fr("app.players.merge_choose") in probe.text_of(app.root, "notice")
    choose(app, "merge-into", "Davide")
    probe.tap(app.root, "merge-run")
    probe.tap(app.dialog, "merge-confirm-yes")
    assert app.here.params["player_id"] == ids["Davide"]
    assert "David" not in [p.name for p in service.players()]
    assert fr("app.players.merged", name="David", into="Davide") in probe.text_of(app.root, "notice")
    assert probe.has(app.root, f"history-{played[0]}")
    assert {p.name: p.wins for p in service.history.player_stats()}["Davide"] == 1


# -- statistics -------------------------------------------------------------------------------


def test_statistics_per_game_per_player_and_head_to_head(app, played, service):
    probe.tap(app.root, "home-stats")
    per_game = probe.text_of(app.root, "stats-game-high-society")
    assert fr("app.stats.games_played", count=1) in per_game
    assert fr("app.stats.average_win", score=4) in per_game
    assert probe.has(app.root, "chart-games") and probe.has(app.root, "chart-players")
    choose(app, "stats-pick-player", "David")
    assert fr("app.stats.player_summary", name=D, games=fr("app.stats.games_n", count=1),
              wins=fr("app.stats.wins_n", count=1), rate=fr("app.format.percent", value=100)) in \
        probe.text_of(app.root, "stats-player-line")
    assert fr("app.stats.top_winner", players=D, wins=fr("app.stats.wins_n", count=1)) in per_game
    assert probe.has(app.root, "chart-win-rate") and probe.has(app.root, "chart-scores")
    assert fr("app.stats.ordinal.1") in probe.text_of(app.root, "stats-player-places")
    choose(app, "stats-pick-rival", "Anne")
    h2h = service.history.head_to_head(D, A)
    assert h2h.games == 1 and probe.text_of(app.root, "stats-h2h") == fr(
        "app.stats.h2h_summary", a=D, b=A, games=fr("app.stats.games_n", count=1), a_wins=h2h.a_wins,
        b_wins=h2h.b_wins,
        a_ahead=h2h.a_ahead, b_ahead=h2h.b_ahead, level=h2h.level)
    menu = probe.find(app.root, "stats-pick-player").content
    assert "Lou" not in [o.key for o in menu.options]  # no finished game in the period: no figures


def test_statistics_with_nothing_finished(app):
    probe.tap(app.root, "home-stats")
    assert probe.has(app.root, "stats-empty")


def test_statistics_over_a_period(app, played):
    probe.tap(app.root, "home-stats")
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    probe.type_into(app.root, "stats-since", tomorrow)
    probe.tap(app.root, "stats-apply")
    assert probe.has(app.root, "stats-empty")
    probe.type_into(app.root, "stats-since", "31/02/2025")
    probe.tap(app.root, "stats-apply")
    assert probe.has(app.root, "stats-bad-date")
    probe.tap(app.root, "stats-period-year")
    assert probe.has(app.root, "stats-game-high-society")


# -- wording ----------------------------------------------------------------------------------


def test_counts_and_names_agree_in_both_languages():
    """One key per sentence: its format specs choose the plural (French: 0 and 1 singular) and
    the elision (« d'Anne », « de Bruno »)."""
    def en(key: str, **params) -> str:
        return Msg(key, params).render("en")

    assert [fr("app.stats.games_n", count=n) for n in (0, 1, 2)] == ["0 partie", "1 partie", "2 parties"]
    assert [en("app.stats.games_n", count=n) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert fr("app.history.more", count=1, shown=25, total=26) == "Afficher 1 partie de plus (25 sur 26)"
    assert en("app.history.more", count=3, shown=25, total=28) == "Show 3 more games (25 of 28)"
    assert en("app.history.entries_n", count=1) == "1 entry" and fr("app.history.entries_n", count=2) == "2 saisies"
    assert fr("app.players.count_n", count=2) == "2 joueurs enregistrés"
    assert fr("app.players.merge_hint", name="Émile") == "Un doublon ? Fusionnez le profil d'Émile dans :"
    assert fr("app.players.recent", name="Bruno", count=3) == "Dernières parties de Bruno (sur 3)"
    assert en("app.players.page_title", name="Anne") == "Anne's profile"
    assert en("app.stats.length", entries="1") == "Average length: 1 entry"
    assert en("app.stats.h2h_summary", a=A, b=B, games=en("app.stats.games_n", count=2), a_wins=1, b_wins=1,
              a_ahead=1, b_ahead=1, level=0) == \
        "2 games together: Anne won 1, Bruno 1; Anne finished ahead 1 time, Bruno 1 time, level 0 times."


# -- the list first, a tap builds what it changes -----------------------------------------------


def _many(service, n: int) -> list[int]:
    record = json.loads((EXAMPLES / "high-society-in-progress.json").read_text(encoding="utf-8"))
    return service.transfer.import_records(json.dumps([record] * n))


def test_the_list_comes_first_and_the_filters_fold_under_one_button(app, played):
    done, going = played
    app.go("history")
    assert probe.has(app.root, f"history-{done}") and not probe.has(app.root, "filter-status-finished")
    assert probe.text_of(app.root, "history-filters-toggle") == fr("app.history.filters")
    probe.tap(app.root, "history-filters-toggle")
    probe.tap(app.root, "filter-status-finished")
    choose(app, "filter-player", D)
    assert probe.text_of(app.root, "history-filters-toggle") == fr("app.history.filters_active", count=2)
    probe.tap(app.root, "history-filters-toggle")  # folded again, the filters still hold
    assert not probe.has(app.root, "filter-player") and not probe.has(app.root, f"history-{going}")
    app.drafts["history"].since_text = "31/02/2025"  # a wrong date unfolds them, to be put right
    app.render()
    assert probe.has(app.root, "bad-date") and probe.has(app.root, "filter-since")


def test_the_csv_button_sits_with_the_filters_above_the_list(app, played):
    """The history's CSV (of the games the filters list) is beside the filters' button, before
    the first game, not after the last one."""
    done, _ = played
    app.go("history")
    ids = probe.idents(app.root)  # in the order the page lays them out
    at = {name: ids.index(name) for name in ("history-filters-toggle", "export-csv", f"history-{done}")}
    assert at["history-filters-toggle"] < at["export-csv"] < at[f"history-{done}"]
    assert not probe.has(probe.find(app.root, "history-tools"), "export-csv")


def test_more_builds_only_the_rows_it_adds_and_kept_rows_still_open_their_game(app, service):
    from companion.app.screens.history import PAGE

    ids = _many(service, PAGE + 3)
    app.go("history")
    first = {i: probe.find(app.root, f"history-{i}") for i in ids[3:]}
    built = app.memo.built
    probe.tap(app.root, "history-more")
    assert app.memo.built - built == 3  # the three rows added, nothing else
    assert all(probe.find(app.root, f"history-{i}") is row for i, row in first.items())
    service.history.set_abandoned(ids[-1])  # a game changed: its row alone is built again
    built = app.memo.built
    app.render()
    assert app.memo.built - built == 1 and probe.find(app.root, f"history-{ids[-1]}") is not first[ids[-1]]
    assert fr("app.history.abandoned") in probe.text_of(app.root, f"history-{ids[-1]}")
    probe.tap(app.root, f"history-{ids[5]}")  # a row kept since the first page opens its own game
    assert app.here.screen == "past" and app.here.params["session_id"] == ids[5]


def test_a_game_shorter_than_a_minute_says_so(app):
    from companion.app.screens.history import duration

    assert [duration(app, s) for s in (0, 12, 59)] == [fr("app.history.under_minute")] * 3
    assert fr("app.history.under_minute") == "moins d'une minute"
    assert Msg("app.history.under_minute", {}).render("en") == "under a minute"
    assert duration(app, 60) == fr("app.history.minutes", count=1) == "1 minute"
    assert fr("app.history.length", entries=fr("app.history.entries_n", count=11),
              duration=duration(app, 20)) == "11 saisies en moins d'une minute"


def test_statistics_average_scores_game_by_game_only(app, service):
    from tests.support.club import play
    from tests.support.games import hs_designed, sv_game

    play(service, hs_designed([A, B, C], A))
    play(service, sv_game([A, B]))
    app.go("stats")
    choose(app, "stats-pick-player", A)
    place = probe.text_of(app.root, "stats-player-place")
    assert "score" not in place.lower()  # no score averaged over games of different scales
    chart = probe.find(app.root, "chart-scores").content
    from companion.app.ui import walk

    lines = [c for c in walk(chart) if type(c).__name__ == "LineChart"][0].data_series
    assert len(lines) == 2  # a line per game played, never one line mixing them


def test_a_pick_in_the_statistics_builds_again_only_what_it_changes(app, played, service):
    probe.tap(app.root, "home-stats")
    kept = {i: probe.find(app.root, i) for i in ("stats-game-high-society", "chart-games", "chart-players")}
    choose(app, "stats-pick-player", "David")
    assert all(probe.find(app.root, i) is part for i, part in kept.items())
    assert fr("app.stats.player_summary", name=D, games=fr("app.stats.games_n", count=1),
              wins=fr("app.stats.wins_n", count=1), rate=fr("app.format.percent", value=100)) in \
        probe.text_of(app.root, "stats-player-line")
    choose(app, "stats-pick-player", "Anne")  # the kept menu still picks
    assert probe.text_of(app.root, "stats-player-line").startswith(f"{A} :")
    probe.tap(app.root, "stats-period-year")  # same figures over this year: the cards are kept
    assert probe.find(app.root, "stats-game-high-society") is kept["stats-game-high-society"]


def test_an_export_goes_where_the_device_at_the_table_gets_it():
    from types import SimpleNamespace

    from companion.app.screens.history import export_route

    phone = SimpleNamespace(web=False, platform=SimpleNamespace(is_mobile=lambda: True))
    desktop = SimpleNamespace(web=False, platform=SimpleNamespace(is_mobile=lambda: False))
    assert [export_route(p) for p in (None, SimpleNamespace(web=True), phone, desktop)] == \
        ["file", "download", "share", "file"]


def test_in_a_browser_an_export_is_a_download_and_nothing_is_written_on_the_server(app, played, service, tmp_path):
    import asyncio
    from types import SimpleNamespace

    from companion.app.screens.history import PICKER

    tasks: list = []
    app.page = SimpleNamespace(web=True, run_task=tasks.append, controls=[], update=lambda: None, width=1280,
                               overlay=[], dialog=None)  # a browser's page, as far as the history reads it
    app.go("history")
    assert probe.text_of(app.root, "history-tools").startswith(fr("app.history.export_download"))
    saved: list = []

    async def save_file(file_name: str, src_bytes: bytes) -> None:
        saved.append((file_name, src_bytes))

    app.drafts[PICKER].save_file = save_file
    probe.tap(app.root, "export-all")
    assert not (tmp_path / "exports").exists() or not list((tmp_path / "exports").glob("*.json"))
    assert len(tasks) == 1
    asyncio.run(tasks[0]())
    (name, data), = saved
    assert name.startswith("table-companion-all-") and json.loads(data) == service.transfer.export()
    assert fr("app.history.downloaded", count=2, file=name) in probe.text_of(app.root, "notice")


def test_more_reads_only_the_next_page(app, service, monkeypatch):
    from companion.app.screens.history import PAGE

    ids = _many(service, 2 * PAGE + 5)
    app.go("history")
    asked: list[tuple[int, int]] = []
    real = service.history.page

    def history_page(**kwargs):
        asked.append((kwargs["offset"], kwargs["limit"]))
        return real(**kwargs)

    monkeypatch.setattr(service.history, "page", history_page)
    probe.tap(app.root, "history-more")
    probe.tap(app.root, "history-more")
    assert asked == [(PAGE, PAGE), (2 * PAGE, PAGE)]  # never the rows already shown again
    shown = [i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()]
    assert shown == [f"history-{i}" for i in reversed(ids)] and not probe.has(app.root, "history-more")
    app.render()  # any other render reads the list again, as many rows as were shown
    assert asked[-1] == (0, 3 * PAGE)
    assert [i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()] == shown
