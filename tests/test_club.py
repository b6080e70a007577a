"""A club's view: every game keeps the name of the table (tablet) it was started at;
the history and the statistics filter by table and season; the season league table of a game
(games, wins, points by place, average place) is SQL over the summaries and results, checked
here on games whose results are known, with ties, filters and unnamed tablets. The app's side:
the table name as a device setting (``--table``, ``COMPANION_TABLE``, the field on home), and the
filters and league table on the history and statistics screens (built without a browser; the
browser test is tests/e2e/test_club_browser.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import text

from companion import cli
from companion.app import probe
from companion.app.shell import App
from companion.service import Malformed, ServiceError, SessionService
from companion.service.club import NO_TABLE, clean_table_name
from companion.store import Store
from models.i18n import Msg
from tests.support.clock import Clock
from tests.support.club import A, B, C, D, E, play
from tests.support.games import hs_designed, hs_long, hs_nobody_wins, sv_game

UTC = timezone.utc


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 3, 10, 20, 0, tzinfo=UTC))


@pytest.fixture
def service(database, clock: Clock) -> Iterator[SessionService]:
    """The service on a SQLite file and on a PostgreSQL database (tests/conftest.py's ``database``):
    the table names, the league table and the filters are proved on both."""
    store = Store(database)
    yield SessionService(store, clock=clock)
    store.close()


@pytest.fixture
def app_service(tmp_path: Path, clock: Clock) -> Iterator[SessionService]:
    """The screens' tests: on SQLite only (they read the same service calls, proved on both above)."""
    store = Store(tmp_path / "club.db")
    yield SessionService(store, clock=clock)
    store.close()


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def lines(league) -> list[tuple]:
    return [(r.position, r.name, r.games, r.wins, r.points, r.average_place) for r in league.rows]


# -- the table a game was started at ---------------------------------------------------------------


def test_a_game_keeps_its_tables_name_by_the_rules_of_names(service):
    named = play(service, hs_designed([A, B, C], A), table="  Salle   du fond ")
    unnamed = play(service, hs_designed([A, B, C], A))
    blank = play(service, hs_designed([A, B, C], A), table="   ")
    with service.store.read() as db:
        kept = dict(db.execute(text("SELECT id, table_name FROM sessions")).all())
    assert kept == {named: "Salle du fond", unnamed: None, blank: None}
    assert {s.session_id: s.table_name for s in service.history.all()} == kept
    assert service.history.summary(named).table_name == "Salle du fond"
    for bad, key in (("Table\x07", "service.table.control"), ("T" * 41, "service.table.too_long")):
        with pytest.raises(Malformed) as refused:
            service.start("high-society", [A, B, C], table=bad)
        assert refused.value.msg.key == key
        assert fr(key, **refused.value.msg.params)  # a French sentence for it
    assert len(service.history.all()) == 3  # a refused name writes nothing
    assert clean_table_name("Table 1") == "Table 1" and clean_table_name("") is None
    assert clean_table_name("x" * 40) == "x" * 40


def test_the_table_names_present_and_whether_some_games_have_none(service):
    assert service.club.table_names() == ([], False)
    play(service, hs_designed([A, B, C], A), table="Table 2")
    assert service.club.table_names() == (["Table 2"], False)
    play(service, hs_designed([A, B, C], A), table="Salle du fond")
    play(service, hs_designed([A, B, C], A), table="Table 2", upto=3)  # in progress: its table counts too
    assert service.club.table_names() == (["Salle du fond", "Table 2"], False)
    play(service, hs_designed([A, B, C], A))
    assert service.club.table_names() == (["Salle du fond", "Table 2"], True)


# -- the league table ----------------------------------------------------------------------------------


def test_league_points_are_players_minus_place_and_bigger_tables_count_more(service):
    # hs_designed: the first player wins alone (1st), the second is 2nd, the third is out (3rd)
    play(service, hs_designed([A, B, C], A), table="Table 1")   # A 2 pts, B 1, C 0
    play(service, hs_designed([B, C, A], B), table="Table 2")   # B 2, C 1, A 0
    play(service, hs_designed([A, C, B], A), table="Table 1")   # A 2, C 1, B 0
    # five players all level (nobody wins, all out): 5 − 1 = 4 points each — the big table counts more
    play(service, hs_nobody_wins([C, D, E, A, B]), table="Table 2")
    league = service.club.league("high-society")
    assert league.games == 4 and league.total == 5
    assert lines(league) == [
        (1, A, 4, 2, 8, 1.5),     # 2 + 0 + 2 + 4; places 1, 3, 1, 1
        (2, B, 4, 1, 7, 1.75),    # 1 + 2 + 0 + 4; places 2, 1, 3, 1
        (3, C, 4, 0, 6, 2.0),     # 0 + 1 + 1 + 4; places 3, 2, 2, 1
        (4, D, 1, 0, 4, 1.0),     # same figures as E: same position, by name
        (4, E, 1, 0, 4, 1.0),
    ]


def test_league_ties_share_the_best_place_and_the_position(service):
    play(service, hs_nobody_wins([A, B, C]))
    league = service.club.league("high-society")
    assert lines(league) == [(1, A, 1, 0, 2, 1.0), (1, B, 1, 0, 2, 1.0), (1, C, 1, 0, 2, 1.0)]
    # Stupide Vautour, two players: the winner 1 point, the other none
    play(service, sv_game([A, B], shift=1))
    sv = service.club.league("stupide-vautour")
    winner = next(s for s in service.history.all(game="stupide-vautour")[0].seats if s.winner).name
    loser = ({A, B} - {winner}).pop()
    assert lines(sv) == [(1, winner, 1, 1, 1, 1.0), (2, loser, 1, 0, 0, 2.0)]


def test_league_counts_finished_games_only_and_shows_nothing_of_one_in_progress(service):
    play(service, hs_designed([A, B, C], A))
    going = play(service, hs_long([C, D, E]), upto=12)  # money laid, nothing finished: no figures
    league = service.club.league("high-society")
    assert league.games == 1 and [r.name for r in league.rows] == [A, B, C]
    assert service.club.league_games() == [("high-society", 1)]
    with service.store.read() as db:
        assert db.execute(text("SELECT COUNT(*) FROM results WHERE session_id = :s"), {"s": going}).scalar_one() == 0


def test_league_filters_by_table_including_the_unnamed_tablets(service):
    play(service, hs_designed([A, B, C], A), table="Table 1")
    play(service, hs_designed([B, C, A], B), table="Table 2")
    play(service, hs_designed([C, A, B], C))  # a tablet with no name
    assert [(r.name, r.points) for r in service.club.league("high-society", table="Table 1").rows] == [(A, 2), (B, 1),
                                                                                                    (C, 0)]
    assert [(r.name, r.points) for r in service.club.league("high-society", table="Table 2").rows] == [(B, 2), (C, 1),
                                                                                                    (A, 0)]
    assert [(r.name, r.points) for r in service.club.league("high-society", table=NO_TABLE).rows] == [(C, 2), (A, 1),
                                                                                                   (B, 0)]
    assert service.club.league("high-society", table="Nowhere").rows == ()
    everyone = service.club.league("high-society")
    assert everyone.games == 3 and {r.points for r in everyone.rows} == {3}  # 2 + 1 + 0 each
    assert [r.wins for r in everyone.rows] == [1, 1, 1]
    assert service.club.league_games(table="Table 2") == [("high-society", 1)]
    assert service.club.league_games(table="Nowhere") == []


def test_league_and_history_filter_by_season(service, clock):
    clock.now = datetime(2025, 9, 20, 20, 0, tzinfo=UTC)
    autumn = play(service, hs_designed([A, B, C], A), table="Table 1")
    clock.now = datetime(2026, 2, 3, 21, 0, tzinfo=UTC)
    winter = play(service, hs_designed([B, C, A], B), table="Table 1")
    clock.now = datetime(2026, 7, 1, 19, 0, tzinfo=UTC)
    summer = play(service, hs_designed([C, A, B], C), table="Table 2")
    season = (datetime(2025, 9, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC))  # until excluded
    league = service.club.league("high-society", *season)
    assert league.games == 2 and [(r.name, r.points) for r in league.rows] == [(B, 3), (A, 2), (C, 1)]
    assert [s.session_id for s in service.history.all(since=season[0], until=season[1])] == [winter, autumn]
    assert [s.session_id for s in service.history.all(since=season[0], table="Table 1")] == [winter, autumn]
    assert [s.session_id for s in service.history.all(until=season[1], table="Table 2")] == []
    assert [s.session_id for s in service.history.all(table="Table 2")] == [summer]
    assert [(r.name, r.games) for r in service.club.league("high-society", since=datetime(2026, 1, 1, tzinfo=UTC),
                                                       table="Table 1").rows] == [(B, 1), (C, 1), (A, 1)]


def test_league_is_paged_and_a_later_page_keeps_the_positions(service):
    play(service, hs_designed([A, B, C], A))
    play(service, hs_nobody_wins([D, E, "Fanny"]))  # three level at 2 points, after A's 2 points and a win
    whole = service.club.league("high-society")
    assert [r.position for r in whole.rows] == [1, 2, 2, 2, 5, 6]
    first = service.club.league("high-society", limit=3)
    assert first.total == 6 and first.has_more and len(first.rows) == 3
    rest = service.club.league("high-society", offset=3, limit=3)
    assert not rest.has_more
    assert lines(first) + lines(rest) == lines(whole)  # the tie across the pages keeps position 2
    past = service.club.league("high-society", offset=10)
    assert past.rows == () and past.total == 6 and not past.has_more
    assert service.club.league("stupide-vautour").total == 0
    with pytest.raises(ServiceError):
        service.club.league("no-such-game")


def test_history_pages_filter_by_table_with_the_other_filters(service):
    one = play(service, hs_designed([A, B, C], A), table="Table 1")
    two = play(service, hs_designed([A, D, E], A), table="Table 2")
    going = play(service, hs_designed([A, B, D], A), table="Table 1", upto=4)
    bare = play(service, hs_designed([B, C, D], B))
    assert [s.session_id for s in service.history.page(table="Table 1").items] == [going, one]
    assert [s.session_id for s in service.history.page(table=NO_TABLE).items] == [bare]
    assert [s.session_id for s in service.history.page(table="Table 1", status="finished").items] == [one]
    assert [s.session_id for s in service.history.page(table="Table 1", player=B).items] == [going, one]
    assert [s.session_id for s in service.history.page(table="Table 2", player=B).items] == []
    assert [s.session_id for s in service.history.page(table="Table 2", search="emile").items] == [two]
    page = service.history.page(table="Table 1", player=A, limit=1)
    assert page.total == 2 and page.has_more and page.items[0].table_name == "Table 1"


def test_the_last_year_preset_is_the_previous_calendar_year():
    from datetime import date

    from companion.app.screens.history import Filters, bounds

    since, until, problem = bounds(Filters(period="last_year"), date(2026, 3, 14))
    assert (since.date(), until.date(), problem) == (date(2025, 1, 1), date(2026, 1, 1), None)
    assert since.hour == until.hour == 0  # local midnights


# -- the statistics of one table ------------------------------------------------------------------------


def test_one_tables_statistics_are_the_statistics_of_its_games(service, tmp_path, clock):
    """Every game at one table: that table's figures (summaries and results) equal the figures of
    the whole database (monthly figures), for every statistic; another table's are empty."""
    clock.now = datetime(2026, 1, 30, 22, 0, tzinfo=UTC)
    play(service, hs_designed([A, B, C], A), table="Table 1")
    clock.now = datetime(2026, 2, 14, 20, 0, tzinfo=UTC)
    play(service, hs_nobody_wins([B, C, D]), table="Table 1")
    play(service, sv_game([A, D], shift=1), table="Table 1")
    play(service, hs_long([A, C, E]), table="Table 1")
    play(service, hs_designed([C, D, E], C), table="Table 1", upto=5)
    periods = [(None, None), (datetime(2026, 2, 1, tzinfo=UTC), None), (None, datetime(2026, 2, 14, 21, tzinfo=UTC))]
    for since, until in periods:
        assert service.history.player_stats(since, until, table="Table 1") == service.history.player_stats(since, until)
        assert service.history.game_stats(since, until, table="Table 1") == service.history.game_stats(since, until)
        for p in service.history.player_stats(since, until):
            assert service.history.scores_over_time(p.id, since, until, table="Table 1") == \
                service.history.scores_over_time(p.id, since, until)
        assert service.history.head_to_head(A, C, since, until, table="Table 1") == service.history.head_to_head(A, C, since, until)
        for table in (None, "Table 1"):  # the screen's one read gives what the two separate ones give
            assert service.history.statistics(since, until, table=table) == \
                (service.history.player_stats(since, until, table=table), service.history.game_stats(since, until, table=table))
    assert service.history.game_stats(table="Table 9") == []
    assert service.history.statistics(table="Table 9")[1] == []
    assert all(p.games == 0 for p in service.history.player_stats(table="Table 9"))
    assert service.history.head_to_head(A, C, table="Table 9").games == 0


def test_another_tables_games_stay_out_of_a_tables_statistics(service):
    play(service, hs_designed([A, B, C], A), table="Table 1")
    play(service, hs_designed([B, C, A], B), table="Table 2")
    figures = {p.name: (p.games, p.wins) for p in service.history.player_stats(table="Table 2")}
    assert figures == {A: (1, 0), B: (1, 1), C: (1, 0)}
    (game,) = service.history.game_stats(table="Table 2")
    assert game.games == 1 and game.top_winners == (B,) and game.best_by == (B,)
    assert service.history.head_to_head(A, B, table="Table 2").b_wins == 1
    assert service.history.head_to_head(A, B, table="Table 1").a_wins == 1


# -- the app: the table name is the device's, the screens filter and rank ------------------------------


def test_the_table_name_is_set_on_home_kept_in_the_settings_and_given_to_new_games(app_service, tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"lang": "fr", "dark": True}), encoding="utf-8")
    app = App(app_service, None, settings_path=settings)
    app.render()
    assert fr("app.club.table_unnamed") in probe.text_of(app.root, "table-name-now")
    probe.type_into(app.root, "table-name-field", "  Salle   du fond ")
    probe.tap(app.root, "table-name-save")
    assert fr("app.club.table_saved", table="Salle du fond") in probe.text_of(app.root, "notice")
    assert fr("app.club.table_named", table="Salle du fond") in probe.text_of(app.root, "table-name-now")
    assert json.loads(settings.read_text(encoding="utf-8")) == {"lang": "fr", "dark": True, "table": "Salle du fond"}
    app.set_lang("en")  # another setting saved keeps the name
    assert json.loads(settings.read_text(encoding="utf-8"))["table"] == "Salle du fond"
    other = App(app_service, None, settings_path=settings)  # another page of the same tablet
    assert other.table_name == "Salle du fond" and other.lang == "en" and other.dark
    # a game started from the set-up screen carries it
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-high-society")
    for name in (A, B, C):
        probe.type_into(app.root, "new-player-name", name)
        probe.tap(app.root, "new-player-add")
    probe.tap(app.root, "setup-start")
    (game,) = app_service.history.all()
    assert game.table_name == "Salle du fond"
    # a bad name is refused with its reason; the old one stays
    app.home()
    probe.type_into(app.root, "table-name-field", "Table\x1b")
    probe.tap(app.root, "table-name-save")
    assert "U+001B" in probe.text_of(app.root, "notice")
    assert app.table_name == "Salle du fond"
    probe.type_into(app.root, "table-name-field", "")  # no name any more
    probe.tap(app.root, "table-name-save")
    assert app.table_name is None and json.loads(settings.read_text(encoding="utf-8"))["table"] is None
    assert "Table : " not in probe.text_of(app.root, "table-name-now")


def test_an_app_without_settings_file_uses_the_name_given_at_start(app_service):
    app = App(app_service, None, table="Table 4")
    assert app.table_name == "Table 4"
    app.set_table_name("Table 5")
    assert app.table_name == "Table 5"


def choose(app, ident: str, key: str) -> None:
    menu = probe.find(app.root, ident).content
    menu.value = key
    menu.on_select(SimpleNamespace(control=menu, data=key))


def test_history_screen_filters_by_table_and_says_each_games_table(app_service):
    one = play(app_service, hs_designed([A, B, C], A), table="Table 1")
    two = play(app_service, hs_designed([B, C, D], B), table="Salle du fond")
    bare = play(app_service, hs_designed([C, D, E], C))
    app = App(app_service, None)
    app.render()
    probe.tap(app.root, "home-history")
    assert fr("app.club.at_table", table="Table 1") in probe.text_of(app.root, f"history-{one}")
    assert "Table" not in probe.text_of(app.root, f"history-{bare}")
    probe.tap(app.root, "history-filters-toggle")
    probe.tap(app.root, "filter-table-Salle du fond")
    assert probe.has(app.root, f"history-{two}") and not probe.has(app.root, f"history-{one}")
    assert fr("app.history.count", count=1) in probe.text_of(app.root, "history-count")
    probe.tap(app.root, "filter-table-unnamed")
    assert probe.has(app.root, f"history-{bare}") and not probe.has(app.root, f"history-{two}")
    choose(app, "filter-player", A)  # the table filter and the player filter together
    assert probe.has(app.root, "history-empty")
    choose(app, "filter-player", "")
    probe.tap(app.root, "filter-table-all")
    assert fr("app.history.count", count=3) in probe.text_of(app.root, "history-count")


def test_a_database_with_no_table_names_shows_no_table_filter(app_service):
    play(app_service, hs_designed([A, B, C], A))
    app = App(app_service, None)
    app.render()
    probe.tap(app.root, "home-history")
    probe.tap(app.root, "history-filters-toggle")
    assert probe.has(app.root, "filter-game-all") and not probe.has(app.root, "filter-table-all")
    probe.tap(app.root, "nav-home")
    probe.tap(app.root, "home-stats")
    assert not probe.has(app.root, "stats-table-all")
    assert probe.has(app.root, "league-1")  # the league table all the same


def test_statistics_screen_shows_the_league_of_a_game_for_a_table(app_service):
    play(app_service, hs_designed([A, B, C], A), table="Table 1")
    play(app_service, hs_designed([B, C, A], B), table="Table 2")
    play(app_service, hs_designed([B, A, C], B), table="Table 2")
    play(app_service, sv_game([D, E], shift=1), table="Table 1")
    app = App(app_service, None)
    app.render()
    probe.tap(app.root, "home-stats")
    assert probe.text_of(app.root, "league-points-rule") == fr("app.club.league_points_rule")
    assert fr("app.club.league_of", game=fr("game.high-society.name"), count=3) in \
        probe.text_of(app.root, "league-heading")
    top = probe.text_of(app.root, "league-1")  # B: 2 + 2 + 1 points, two wins
    assert B in top and fr("app.club.league_points", points=5) in top
    assert fr("app.club.league_figures", games=3, wins=2, place="1,33") in top
    assert probe.has(app.root, "chart-league")
    probe.tap(app.root, "stats-table-Table 1")
    assert fr("app.club.league_of", game=fr("game.high-society.name"), count=1) in \
        probe.text_of(app.root, "league-heading")
    assert A in probe.text_of(app.root, "league-1") and fr("app.club.league_points", points=2) in \
        probe.text_of(app.root, "league-1")
    assert fr("app.stats.games_played", count=1) in probe.text_of(app.root, "stats-game-high-society")
    probe.tap(app.root, "league-game-stupide-vautour")
    assert fr("app.club.league_of", game=fr("game.stupide-vautour.name"), count=1) in \
        probe.text_of(app.root, "league-heading")
    assert not probe.has(app.root, "league-3")
    probe.tap(app.root, "stats-period-last_year")  # nothing last year
    assert probe.has(app.root, "stats-empty")


def test_statistics_league_shows_more_players_on_demand(app_service):
    from companion.app.club import LEAGUE_PAGE

    for i in range(8):  # 24 players, three at a table
        names = [f"Joueur {3 * i + k:02d}" for k in range(3)]
        play(app_service, hs_designed(names, names[0]))
    app = App(app_service, None)
    app.render()
    probe.tap(app.root, "home-stats")
    assert probe.has(app.root, f"league-{LEAGUE_PAGE}") and not probe.has(app.root, f"league-{LEAGUE_PAGE + 1}")
    probe.tap(app.root, "league-more")
    assert probe.has(app.root, "league-24")


# -- the command line ---------------------------------------------------------------------------------------


@pytest.fixture
def served(monkeypatch):
    from companion.app import server

    calls = []

    def fake_serve(db, **kwargs):
        calls.append(kwargs)
        return 0

    monkeypatch.setattr(server, "serve", fake_serve)
    monkeypatch.delenv("COMPANION_TABLE", raising=False)
    return calls


def test_run_takes_the_table_name_from_the_command_line_or_the_environment(served, tmp_path, monkeypatch, capsys):
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--table", " Table   3 "]) == 0
    assert served[-1]["table"] == "Table 3"
    monkeypatch.setenv("COMPANION_TABLE", "Salle du fond")
    assert cli.main(["--db", str(tmp_path / "c.db"), "run"]) == 0
    assert served[-1]["table"] == "Salle du fond"
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--table", "Table 1"]) == 0  # the option wins
    assert served[-1]["table"] == "Table 1"
    monkeypatch.delenv("COMPANION_TABLE")
    assert cli.main(["--db", str(tmp_path / "c.db"), "run"]) == 0
    assert served[-1]["table"] is None
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--table", "x" * 41]) == 2
    assert fr("service.table.too_long", name="x" * 40 + "…", length=41, limit=40) in capsys.readouterr().err
    assert len(served) == 4


def test_serve_saves_the_name_given_at_start_in_the_tablets_settings(tmp_path, monkeypatch):
    import flet as ft

    from companion.app import server

    pages = []
    monkeypatch.setattr(ft, "run", lambda main, **kw: pages.append(main) or ("asgi", main))
    monkeypatch.setattr(server, "run_web", lambda *a: None)
    for knob in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "COMPANION_DB", "FLET_FORCE_WEB_SERVER"):
        monkeypatch.delenv(knob, raising=False)
    (tmp_path / "settings.json").write_text(json.dumps({"lang": "en", "table": "Old"}), encoding="utf-8")
    assert server.serve(tmp_path / "c.db", port=9100, table="Table 7") == 0
    assert json.loads((tmp_path / "settings.json").read_text(encoding="utf-8")) == {"lang": "en", "table": "Table 7"}
