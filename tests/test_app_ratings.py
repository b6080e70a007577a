"""The ratings, rivals and streaks on the screens, "Send to BG Stats", the history's CSV, the LAN
home screen's QR code and the wakelock, built without a browser against the real service: each
figure a screen shows is the service's own (the same rows as ``companion ratings``), each QR code
decodes (zxing-cpp) to exactly its link, and the CSV is byte for byte the command's."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import zxingcpp

from companion import cli
from companion.app import probe
from companion.app.format import number
from companion.app.server import Join, make_main
from companion.app.shell import App
from companion.app.web import PinGate, connected_from
from companion.service import SessionService
from companion.service.bgstats import link
from companion.store import Store
from models.i18n import Msg
from tests.support.ratings import GAMES, A, B, C, D, play_hs, png_pixels


def fr(key: str, **params: Any) -> str:
    return Msg(key, params).render("fr")


def en(key: str, **params: Any) -> str:
    return Msg(key, params).render("en")


@pytest.fixture
def service(tmp_path: Path):
    service = SessionService(Store(tmp_path / "companion.db"))
    yield service
    service.store.close()


@pytest.fixture
def played(service) -> list[int]:
    return [play_hs(service, players, first) for players, first in GAMES]


@pytest.fixture
def app(service, tmp_path) -> App:
    app = App(service, None, export_dir=tmp_path / "exports")
    app.render()
    return app


def pid(service, name: str) -> int:
    return next(p.id for p in service.players() if p.name == name)


def decoded(png: bytes) -> list[str]:
    width, height, grey = png_pixels(png)
    # QR codes only: read for every format, a QR code's modules can also pass for a stacked DataBar
    found = zxingcpp.read_barcodes(memoryview(grey).cast("B", (height, width)), formats=zxingcpp.BarcodeFormat.QRCode)
    return [b.text for b in found]


def image_of(root, ident: str) -> bytes:
    import flet as ft

    [image] = [n for n in probe.walk(probe.find(root, ident)) if isinstance(n, ft.Image)]
    assert isinstance(image.src, bytes)
    return image.src


# -- the league table: a rating column and a sort ------------------------------------------------------


def league_names(app: App) -> list[str]:
    out, i = [], 1
    while probe.has(app.root, f"league-{i}"):
        out.append(probe.texts(probe.find(app.root, f"league-{i}"))[1])  # position, then the name
        i += 1
    return out


def test_the_league_shows_each_rating_and_sorts_by_it_with_mu_and_sigma_behind_a_tap(app, service, played):
    probe.tap(app.root, "home-stats")
    rated = {r.name: r for r in service.ratings.table("high-society")}
    by_points = league_names(app)
    assert set(by_points) == set(rated)
    for i, name in enumerate(by_points, start=1):  # the column: the ordinal, one decimal, as the CLI rounds it
        assert number(app, round(rated[name].ordinal, 1)) in probe.text_of(app.root, f"league-{i}-rating")
    probe.tap(app.root, "league-sort-rating")
    want = [r.name for r in sorted(rated.values(), key=lambda r: -r.ordinal)]
    assert league_names(app) == want and want != by_points  # these games put the two orders apart
    assert probe.text_of(app.root, "league-1").startswith("1.")
    assert not probe.has(app.root, "league-1-detail")
    probe.tap(app.root, "league-1-rating")
    best = rated[want[0]]
    assert probe.text_of(app.root, "league-1-detail") == fr(
        "app.club.rating_detail", mu=number(app, round(best.mu, 2)), sigma=number(app, round(best.sigma, 2)),
        games=best.games)
    probe.tap(app.root, "league-1-rating")
    assert not probe.has(app.root, "league-1-detail")
    probe.tap(app.root, "league-sort-points")
    assert league_names(app) == by_points


def test_the_league_says_its_rating_in_plain_words_and_keeps_the_formula_behind_the_question_mark(app, played):
    """« Cote : … du côté prudent » first, in words; OpenSkill and mu − 3 × sigma only after the "?"."""
    probe.tap(app.root, "home-stats")
    rule = probe.text_of(app.root, "league-rating-rule")
    assert not re.search(r"\b(mu|sigma|OpenSkill)\b", rule), rule
    assert not probe.has(app.root, "league-rating-formula")
    probe.tap(app.root, "league-rating-help")
    formula = probe.text_of(app.root, "league-rating-formula")
    assert formula == fr("app.club.league_rating_formula") and "mu − 3 × sigma" in formula and "OpenSkill" in formula
    probe.tap(app.root, "league-rating-help")
    assert not probe.has(app.root, "league-rating-formula")


# -- a player's page -------------------------------------------------------------------------------------


def test_a_players_page_shows_the_rating_chart_rivals_and_streaks_of_the_service(app, service, played):
    me = pid(service, A)
    app.go("players", player_id=me)
    [mine] = [r for r in service.ratings.table("high-society") if r.player_id == me]
    assert fr("app.players.rating_line", game=fr("game.high-society.name"),
              rating=number(app, round(mine.ordinal, 1))) in probe.text_of(app.root, "player-rating-high-society")
    import flet_charts as fch

    [chart] = [n for n in probe.walk(probe.find(app.root, "rating-chart-high-society")) if isinstance(n, fch.LineChart)]
    history = service.ratings.history(me, "high-society")
    assert [p.y for p in chart.data_series[0].points] == [round(p.ordinal, 2) for p in history]
    assert len(history) == mine.games == 7

    rivals = service.ratings.rivals(me)
    assert [m.name for m in rivals.nemesis] and [m.name for m in rivals.victims]
    shown = probe.text_of(app.root, "player-nemesis")
    assert all(m.name in shown for m in rivals.nemesis)
    assert str(rivals.nemesis[0].beaten) in shown
    assert all(m.name in probe.text_of(app.root, "player-victim") for m in rivals.victims)
    assert all(m.name in probe.text_of(app.root, "player-closest") for m in rivals.closest)

    runs = {r.game: r for r in service.ratings.streaks(me)}
    overall = runs[None]
    assert overall.played == 7 and overall.longest == 2  # won the 1st, 2nd and 8th of the games above
    assert fr("app.players.streak_line", current=overall.current, longest=overall.longest) in probe.text_of(
        app.root, "player-streak-all")
    assert fr("app.players.streak_line", current=runs["high-society"].current,
              longest=runs["high-society"].longest) in probe.text_of(app.root, "player-streak-high-society")

    for what in ("rating", "nemesis", "victim", "closest", "streak", "played"):  # each "?" says what it means
        assert not probe.has(app.root, f"help-{what}-text")
        probe.tap(app.root, f"help-{what}")
        assert probe.text_of(app.root, f"help-{what}-text") == fr(f"app.players.help.{what}")
    probe.tap(app.root, "help-nemesis")
    assert not probe.has(app.root, "help-nemesis-text")


def test_a_player_without_rivals_met_three_times_is_told_so(app, service):
    play_hs(service, [A, B, C], A)
    app.go("players", player_id=pid(service, A))
    assert fr("app.players.nobody_yet") in probe.text_of(app.root, "player-nemesis")
    assert probe.has(app.root, "player-rating-high-society")


# -- "Send to BG Stats" ----------------------------------------------------------------------------------


def test_send_to_bg_stats_shows_a_qr_code_that_decodes_to_the_push_link_and_a_button_with_it(app, service, played):
    sid = played[-1]
    app.go("results", session_id=sid)
    assert not probe.has(app.root, "bgstats-qr")
    probe.tap(app.root, "bgstats-send")
    [play] = service.exports.bgstats_plays(sid, lang="fr")
    url = link(play)
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert decoded(image_of(app.root, "bgstats-qr")) == [url]
    button = probe.find(app.root, "bgstats-open").content
    assert button.url == url
    probe.tap(app.root, "bgstats-send")
    assert not probe.has(app.root, "bgstats-qr")


# -- the history's CSV -----------------------------------------------------------------------------------


def test_the_history_csv_is_the_commands_csv_with_the_filters_on_screen(app, service, played, tmp_path, capsys):
    from tests.support.screens import choose

    probe.tap(app.root, "home-history")
    probe.tap(app.root, "history-filters-toggle")
    choose(app, "filter-player", D)
    probe.tap(app.root, "export-csv")
    [written] = sorted((tmp_path / "exports").glob("*.csv"))
    text = written.read_text(encoding="utf-8")
    assert cli.main(["--db", str(tmp_path / "companion.db"), "export", "--format", "csv", "--player", D]) == 0
    assert capsys.readouterr().out == text
    lines = text.splitlines()
    assert len(lines) == 1 + 3 * 4  # a header, three rows for each of David's four games
    assert fr("app.history.csv_written", count=12, path=str(written)) in probe.text_of(app.root, "notice")
    probe.tap(app.root, "filter-status-abandoned")  # no finished game listed: no CSV
    probe.tap(app.root, "export-csv")
    assert fr("app.history.csv_none") in probe.text_of(app.root, "notice")
    assert len(list((tmp_path / "exports").glob("*.csv"))) == 1


def test_the_history_csv_keeps_the_name_search(app, service, played, tmp_path):
    probe.tap(app.root, "home-history")
    probe.tap(app.root, "history-filters-toggle")
    probe.type_into(app.root, "filter-search", "chlo", submit=True)
    probe.tap(app.root, "export-csv")
    [written] = sorted((tmp_path / "exports").glob("*.csv"))
    rows = written.read_text(encoding="utf-8").splitlines()[1:]
    with_chloe = [s for s in service.history.all(status="finished") if C in s.players]
    assert len(rows) == 3 * len(with_chloe) == 3 * sum(C in players for players, _ in GAMES)
    assert all(any(C in r for r in rows[i:i + 3]) for i in range(0, len(rows), 3))  # each game has Chloé


# -- phones join the table (LAN) -----------------------------------------------------------------------


class Page:
    """What make_main needs of a Flet page."""

    def __init__(self, width: int = 1280, height: int = 800):
        self.controls: list[Any] = []
        self.width, self.height = width, height

    def update(self) -> None:
        pass


def test_the_serving_machine_s_home_shows_the_address_as_a_qr_code_with_the_pin(service):
    gate = PinGate("314159", delay=0)
    join = Join("http://192.168.1.20:8550/", gate.pin)
    local = Page()
    with connected_from("127.0.0.1"):
        make_main(service, gate=gate, join=join)(local)
    root = local.controls[0]
    assert decoded(image_of(root, "join-qr")) == ["http://192.168.1.20:8550/"]
    assert probe.text_of(root, "join-pin") == fr("app.home.join_pin", pin="314159")

    phone = Page(390, 844)  # a phone that scanned it: the PIN screen, then the app, without the code
    with connected_from("192.168.1.66"):
        make_main(service, gate=gate, join=join)(phone)
    assert probe.has(phone.controls[0], "pin-screen") and "314159" not in probe.text_of(phone.controls[0])
    probe.type_into(phone.controls[0], "pin-field", "314159", submit=True)
    assert probe.has(phone.controls[0], "home-new") and not probe.has(phone.controls[0], "home-join")


def test_a_phone_that_joins_while_a_game_is_in_play_lands_on_its_table(service):
    """Scanned, PIN typed: the phone opens the game the table is playing (the latest changed), where
    its player makes a private entry, rather than the home screen."""
    gate = PinGate("314159", delay=0)
    older = service.start("stupide-vautour", ["Anne", "Bruno"]).session_id
    playing = service.start("boursicocotte", ["Anne", "Bruno", "Chloé"]).session_id
    service.submit(older, {"type": "reveal", "card": 5})
    service.submit(playing, {"type": "draw", "card": "pig"})
    phone = Page(390, 844)
    with connected_from("192.168.1.66"):
        make_main(service, gate=gate, join=Join("http://192.168.1.20:8550/", gate.pin))(phone)
    probe.type_into(phone.controls[0], "pin-field", "314159", submit=True)
    root = phone.controls[0]
    assert probe.has(root, "bc-table") and not probe.has(root, "home-new")
    assert probe.text_of(root, "prompt") == service.open(playing).expected.prompt.render("fr")


def test_lan_mode_hands_the_printed_address_and_the_pin_to_the_home_screen(served, tmp_path, capsys):
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--lan", "--pin", "271828"]) == 0
    (main, _), = served
    url = capsys.readouterr().out.strip()
    page = Page()
    with connected_from("127.0.0.1"):
        main(page)
    assert decoded(image_of(page.controls[0], "join-qr")) == [url]
    assert "271828" in probe.text_of(page.controls[0], "join-pin")


def test_without_lan_the_home_screen_shows_no_join_code(served, tmp_path):
    assert cli.main(["--db", str(tmp_path / "c.db"), "run"]) == 0
    (main, _), = served
    page = Page()
    with connected_from("127.0.0.1"):
        main(page)
    assert probe.has(page.controls[0], "home-new") and not probe.has(page.controls[0], "home-join")


# -- the tablet stays awake while a game is on screen -----------------------------------------------------


def test_the_wakelock_is_on_while_a_game_is_on_screen_and_off_elsewhere(service, monkeypatch):
    import flet as ft

    said: list[str] = []

    class Lock:
        async def enable(self) -> None:
            said.append("enable")

        async def disable(self) -> None:
            said.append("disable")

    monkeypatch.setattr(ft, "Wakelock", Lock)
    tasks: list[Any] = []
    app = App(service, None)
    app.page = SimpleNamespace(controls=[], update=lambda: None, width=1280, height=800,  # type: ignore[assignment]
                               run_task=tasks.append)
    app.render()
    assert tasks == []  # home: nothing asked
    state = service.start("stupide-vautour", [A, B])
    app.go("table", session_id=state.session_id)
    app.render()  # a tap on the table: asked once only
    app.home()
    for task in tasks:
        asyncio.run(task())
    assert said == ["enable", "disable"]


# -- French first ----------------------------------------------------------------------------------------


def test_the_new_texts_count_and_elide_as_french_and_english_write_them():
    assert fr("app.club.rating_detail", mu="27,3", sigma="6,1", games=1) == "mu 27,3 ± sigma 6,1 · 1 partie classée"
    assert fr("app.club.rating_detail", mu="27,3", sigma="6,1", games=2).endswith("2 parties classées")
    assert en("app.club.rating_detail", mu="27.3", sigma="6.1", games=1).endswith("1 rated game")
    assert fr("app.players.streak_line", current=0, longest=1) == \
        "Série en cours : 0 victoire · la plus longue : 1 victoire"
    assert fr("app.players.streak_line", current=2, longest=3).endswith("3 victoires")
    assert en("app.players.streak_line", current=0, longest=1) == "Current streak: 0 wins · longest: 1 win"
    assert fr("app.players.played_line", games=1, when="03/05/2026") == "1 partie terminée, la dernière le 03/05/2026"
    assert fr("app.players.played_line", games=2, when="03/05/2026").startswith("2 parties terminées")
    assert fr("app.players.nemesis_is", players="Bruno", beaten=1) == "Bruno — 1 partie finie devant ce profil"
    assert fr("app.history.csv_downloaded", count=2, file="x.csv") == "2 lignes en CSV : x.csv"
    assert fr("app.history.csv_downloaded", count=1, file="x.csv") == "1 ligne en CSV : x.csv"
    assert fr("app.players.rating_point", games=1, when="03/05/2026", rating="4,2") == \
        "Après 1 partie (03/05/2026) : cote 4,2"
    for key in ("app.players.nobody_yet", "app.players.help.rating", "app.players.help.nemesis",
                "app.results.bgstats_scan", "app.home.join_scan", "app.players.help.played"):
        said = fr(key)
        assert not re.search(r"\b(de|que|le|la) [aeiouyéèêàâôîh]", said, re.IGNORECASE), (key, said)  # elided
