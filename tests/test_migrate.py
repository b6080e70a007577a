"""`companion migrate`: a tablet's history copied into the club's database.

The tablet is always a SQLite file; the club's database is the ``club`` fixture: a SQLite file, or
a database of the test session's PostgreSQL server (tests/pg.py), every test running on both (the
tests read it through the store, never through sqlite3, and compare values as :func:`plain` gives
them). The command's own tests also name the SQLite file by a ``sqlite:///`` URL."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select as sa_select
from sqlalchemy import text
from sqlalchemy.engine import make_url

import companion.service.migrate as migration
from companion.cli import main
from companion.service import SessionService
from companion.service.migrate import MigrationUnusable, migrate
from companion.store import Store
from models.names import name_key
from models.tables import TABLES
from tests.conftest import ROOT
from tests.support.boursicocotte import SHORT
from tests.support.club import Club, club_at
from tests.support.games import hs_designed, hs_long, sv_game


@pytest.fixture
def new_club(request, tmp_path):
    """A club's database that does not exist yet: no SQLite file, or a PostgreSQL database with no
    schema (parametrized indirectly: ``sqlite``, ``sqlite-url`` or ``postgresql``)."""
    return club_at(request, tmp_path, request.param, "pg_empty_url")


def rows(store: Store) -> dict[str, list]:
    """Every row of every table, through the store (what "unchanged" means)."""
    with store.read() as db:
        return {t.__tablename__: sorted((tuple(r) for r in db.execute(sa_select(t.__table__))), key=repr)
                for t in TABLES}


def club_rows(club: Club) -> dict[str, list]:
    store = club.store()
    try:
        return rows(store)
    finally:
        store.close()


def files(folder: Path) -> dict[str, str]:
    """Every file of a folder with its digest: the tablet's folder must stay exactly so."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "folder"
            for p in sorted(folder.iterdir())}


PLAYERS = ["anne", "Bruno", "Chloé"]


def make_tablet(path: Path) -> dict[str, int]:
    """A tablet's history: two finished games, a game in progress with an undone entry (kept for
    disputes), an abandoned one, and a table name. Returns the session ids by role."""
    store = Store(path)
    service = SessionService(store)
    finished, vautour = service.transfer.import_records(json.dumps([hs_designed(PLAYERS, "Bruno"), sv_game(["anne", "Dario"])]))
    playing = service.start("high-society", PLAYERS, first_player="Chloé", variant={"final_tie": "shared"})
    for action in hs_designed(PLAYERS, "Chloé")["actions"][:5]:
        service.submit(playing.session_id, action)
    service.undo(playing.session_id)
    abandoned = service.start("stupide-vautour", ["Bruno", "Eve"])
    service.history.set_abandoned(abandoned.session_id, True)
    with store.write() as db:
        db.execute(text("UPDATE sessions SET table_name = 'Table 2'"))
    store.close()
    return {"finished": finished, "vautour": vautour, "playing": playing.session_id,
            "abandoned": abandoned.session_id}


def store_id(store: Store) -> str:
    with store.read() as db:
        return db.execute(text("SELECT value FROM store_info WHERE key = 'store_id'")).scalar_one()


class Seconds(float):
    """A duration the database computed itself (a summary's ``duration_s``, a month's
    ``duration_sum``): SQLite's julianday arithmetic and PostgreSQL's exact interval may round a
    game's last millisecond apart, so a club database on a server compares with the tablet's
    within a millisecond a game (the times it is computed from compare exactly)."""

    games = 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (int, float)) and abs(self - other) <= 0.0011 * self.games

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = float.__hash__


def seconds(value, games: int = 1):
    if value is None:
        return None
    kept = Seconds(value)
    kept.games = games
    return kept


def plain(value):
    """A value as SQLite's driver gives it (times as the stored text, booleans as 0 or 1), so that
    a club database on another server compares with the tablet's."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, bool):
        return int(value)
    return value


def plain_rows(result) -> list[tuple]:
    return [tuple(plain(v) for v in row) for row in result]


def game_rows(store: Store, session_id: int) -> dict:
    """A game as the history keeps it, without the ids that differ between databases."""
    with store.read() as db:
        (session,) = [dict(zip(("game", "variant", "first_player", "assist", "status", "started_at", "finished_at",
                                "updated_at", "setup", "abandoned_at", "table_name"), row)) for row in plain_rows(
            db.execute(text("SELECT game, variant, first_player, assist, status, started_at, finished_at, "
                            "updated_at, setup, abandoned_at, table_name FROM sessions WHERE id = :s"),
                       {"s": session_id}))]
        seats = plain_rows(db.execute(text(
            "SELECT st.position, st.name, p.name FROM seats st JOIN players p ON p.id = st.player_id "
            "WHERE st.session_id = :s ORDER BY st.position"), {"s": session_id}))
        log = plain_rows(db.execute(text(
            "SELECT seq, action, created_at, retracted_at FROM actions WHERE session_id = :s ORDER BY seq"),
            {"s": session_id}))
        results = sorted(plain_rows(db.execute(text(
            "SELECT p.name, r.score, r.rank, r.winner, r.eliminated FROM results r JOIN players p ON p.id = r.player_id "
            "WHERE r.session_id = :s"), {"s": session_id})))
        found = db.execute(text("SELECT * FROM game_summaries WHERE session_id = :s"), {"s": session_id}).one()
        summary = {k: plain(v) for k, v in found._mapping.items()}
        summary["duration_s"] = seconds(summary["duration_s"])
    summary.pop("session_id")
    return {"session": session, "seats": seats, "log": log, "results": results, "summary": summary}


def copies(store: Store) -> dict[str, int]:
    with store.read() as db:
        return {origin: sid for sid, origin in db.execute(text(
            "SELECT id, origin FROM sessions WHERE origin IS NOT NULL"))}


def player_names(store: Store) -> list[str]:
    with store.read() as db:
        return sorted(name for (name,) in db.execute(text("SELECT name FROM players")))


def month_figures(store: Store) -> list[tuple]:
    """The monthly figures with the players' names (ids differ between databases)."""
    with store.read() as db:
        players = plain_rows(db.execute(text(
            "SELECT p.name, m.game, m.month, m.games, m.wins, m.score_sum, m.rank_sum FROM player_months m "
            "JOIN players p ON p.id = m.player_id ORDER BY p.name, m.game, m.month")))
        games = [row[:-2] + (seconds(row[-2], row[-1]), row[-1]) for row in plain_rows(db.execute(text(
            "SELECT game, month, games, win_score_sum, win_score_n, top_max, spread_sum, spread_n, actions_sum, "
            "duration_sum, duration_n FROM game_months ORDER BY game, month")))]
    return sorted(players, key=repr) + sorted(games, key=repr)  # in Python: collations differ between servers


# --- copying --------------------------------------------------------------------------------------


def test_a_copy_into_an_empty_club_database_keeps_every_game_whole(tmp_path, club):
    tablet_path = tmp_path / "tablet" / "companion.db"
    tablet_path.parent.mkdir()
    ids = make_tablet(tablet_path)
    tablet = Store(tablet_path)
    (ids["set-up"],) = SessionService(tablet).transfer.import_records(json.dumps(SHORT))  # a deal kept in the setup column
    tablet.close()
    before = files(tablet_path.parent)
    store = club.store()
    try:
        report = migrate(tablet_path, store)
        assert files(tablet_path.parent) == before  # not a byte changed, no file created beside it
        assert (len(report.copied), report.already, report.conflicts, report.refused) == (5, [], [], [])
        assert report.matched == [] and sorted(report.created) == ["A", "B", "Bruno", "C", "Chloé", "Dario", "Eve",
                                                                   "anne"]
        tablet = Store(tablet_path, upgrade=False)
        try:
            origin = store_id(tablet)
            copied = copies(store)
            assert sorted(copied) == sorted(f"{origin}/{sid}" for sid in ids.values())
            for role, sid in ids.items():
                assert game_rows(store, copied[f"{origin}/{sid}"]) == game_rows(tablet, sid), role
            assert month_figures(store) == month_figures(tablet)
            tablet_export = SessionService(tablet).transfer.export()
        finally:
            tablet.close()
        service = SessionService(store)
        assert service.transfer.export() == tablet_export  # the records replay as on the tablet
        # the undone entry came across, retracted, for disputes
        playing = copied[f"{origin}/{ids['playing']}"]
        with store.read() as db:
            assert [a.retracted_at is not None for a in store.all_actions(db, playing)] == [False] * 4 + [True]
        state = service.open(playing)  # and the game goes on at the club
        assert len(state.log) == 4 and state.players == tuple(PLAYERS)
        service.submit(playing, hs_designed(PLAYERS, "Chloé")["actions"][4])
        by_id = {s.session_id: s for s in service.history.all()}
        assert by_id[copied[f"{origin}/{ids['finished']}"]].status == "finished"
        assert by_id[copied[f"{origin}/{ids['abandoned']}"]].status == "abandoned"
    finally:
        store.close()


def test_players_are_matched_by_name_whatever_the_case(tmp_path, club):
    store = club.store()
    service = SessionService(store)
    service.add_player("Anne")
    service.add_player("Bruno")
    (own,) = service.transfer.import_records(json.dumps(hs_designed(["Anne", "Bruno", "Farid"], "Anne")))
    own_before = game_rows(store, own)
    tablet_path = tmp_path / "tablet.db"
    tablet = Store(tablet_path)
    SessionService(tablet).transfer.import_records(json.dumps([hs_designed(["anne", "BRUNO", "Zoé"], "Zoé")]))
    tablet.close()
    try:
        report = migrate(tablet_path, store)
        assert sorted(report.matched) == [("BRUNO", "Bruno"), ("anne", "Anne")]
        assert report.created == ["Zoé"]
        assert player_names(store) == ["Anne", "Bruno", "Farid", "Zoé"]  # no second Anne
        assert game_rows(store, own) == own_before  # the club's own game is untouched
        (copied,) = copies(store).values()
        game = game_rows(store, copied)
        # the seats keep the record's names; the profiles are the club's
        assert game["seats"] == [(0, "anne", "Anne"), (1, "BRUNO", "Bruno"), (2, "Zoé", "Zoé")]
        assert {name for name, *_ in game["results"]} == {"Anne", "Bruno", "Zoé"}
        with store.read() as db:
            anne = db.execute(text("SELECT games FROM player_months m JOIN players p ON p.id = m.player_id "
                                   "WHERE p.name = 'Anne'")).scalar_one()
        assert anne == 2  # her club game and her tablet game count together
        english = report.render("en")
        assert "anne (tablet) = Anne (club)" in english and "BRUNO (tablet) = Bruno (club)" in english
        assert "1 player created: Zoé." in english
        french = report.render("fr")
        assert "2 joueurs retrouvés dans la base du club" in french and "1 joueur créé : Zoé." in french
    finally:
        store.close()


def test_a_second_run_copies_nothing(tmp_path, club):
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    store = club.store()
    try:
        first = migrate(tablet_path, store)
        after_first = rows(store)
        second = migrate(tablet_path, store)
        assert rows(store) == after_first
        assert (second.copied, second.updated, second.conflicts, second.refused) == ([], [], [], [])
        assert sorted(second.already) == sorted(first.copied)
        assert second.matched == [] and second.created == []
        assert "0 partie copiée." in second.render("fr") and "4 parties déjà présentes" in second.render("fr")
    finally:
        store.close()


def test_a_copy_of_a_copy_adds_nothing(tmp_path, club):
    """A game the source had copied from elsewhere keeps its first origin."""
    tablet_path, relay_path = tmp_path / "tablet.db", tmp_path / "relay.db"
    make_tablet(tablet_path)
    relay = Store(relay_path)
    migrate(tablet_path, relay)
    relay.close()
    store = club.store()
    try:
        assert len(migrate(relay_path, store).copied) == 4
        again = migrate(tablet_path, store)
        assert again.copied == [] and len(again.already) == 4
    finally:
        store.close()


def test_a_game_continued_on_the_tablet_is_brought_up_to_date(tmp_path, club):
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    store = club.store()
    actions = hs_designed(PLAYERS, "Chloé")["actions"]
    try:
        migrate(tablet_path, store)
        tablet = Store(tablet_path)
        service = SessionService(tablet)
        service.undo(ids["playing"])  # an entry the club's copy has, undone on the tablet after the copy
        for action in actions[3:9]:
            service.submit(ids["playing"], action)
        service.undo(ids["playing"])  # and one made and undone since
        service.submit(ids["playing"], actions[8])
        tablet.close()
        report = migrate(tablet_path, store)
        assert report.copied == [] and report.conflicts == [] and len(report.already) == 3
        ((source, copy, added),) = report.updated
        assert source == ids["playing"] and added == 7
        tablet = Store(tablet_path, upgrade=False)
        assert game_rows(store, copy) == game_rows(tablet, ids["playing"])
        tablet.close()
        assert "1 partie continuée sur la tablette" in report.render("fr")
        # then finished on the tablet: finished at the club too, with its results and months
        tablet = Store(tablet_path)
        service = SessionService(tablet)
        for action in actions[9:]:
            service.submit(ids["playing"], action)
        tablet.close()
        assert len(migrate(tablet_path, store).updated) == 1
        tablet = Store(tablet_path, upgrade=False)
        assert game_rows(store, copy) == game_rows(tablet, ids["playing"])
        assert game_rows(store, copy)["session"]["status"] == "finished"
        assert month_figures(store) == month_figures(tablet)
        tablet.close()
        third = migrate(tablet_path, store)
        assert third.updated == [] and len(third.already) == 4
    finally:
        store.close()


def test_a_game_reopened_on_the_tablet_after_the_copy_leaves_the_months_it_counted_in(tmp_path, club):
    """A finished game copied, then its last entry undone on the tablet: the club's copy is brought
    up to date (in progress again), and the monthly figures it counted in no longer count it."""
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    store = club.store()
    try:
        migrate(tablet_path, store)
        counted = month_figures(store)
        tablet = Store(tablet_path)
        SessionService(tablet).undo(ids["finished"])
        tablet.close()
        report = migrate(tablet_path, store)
        assert [s for s, _, _ in report.updated] == [ids["finished"]]
        tablet = Store(tablet_path, upgrade=False)
        try:
            assert month_figures(store) == month_figures(tablet) != counted
            (copy,) = [sid for origin, sid in copies(store).items() if origin.endswith(f"/{ids['finished']}")]
            assert game_rows(store, copy) == game_rows(tablet, ids["finished"])
            assert game_rows(store, copy)["results"] == []
        finally:
            tablet.close()
    finally:
        store.close()


def test_a_game_changed_at_the_club_too_is_a_conflict_and_stays_as_it_is(tmp_path, club, capsys):
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    actions = hs_designed(PLAYERS, "Chloé")["actions"]
    store = club.store()
    try:
        migrate(tablet_path, store)
        (copy,) = [sid for origin, sid in copies(store).items() if origin.endswith(f"/{ids['playing']}")]
        SessionService(store).submit(copy, actions[4])  # entered at the club
        at_club = game_rows(store, copy)
        tablet = Store(tablet_path)
        service = SessionService(tablet)
        service.submit(ids["playing"], actions[4])  # the same entry, at another moment, on the tablet
        service.transfer.import_records(json.dumps(sv_game(["Ugo", "Vera"])))  # and a new game
        tablet.close()
    finally:
        store.close()
    capsys.readouterr()
    assert main(["migrate", "--from", str(tablet_path), "--to", club.arg, "--lang", "en"]) == 1
    out = capsys.readouterr().out
    # seq 5 is the entry undone before the copy: both sides wrote their entry at 6
    assert f"Game no. {ids['playing']} (High Society) in conflict, left as it is in the club's database: the " \
           "entry kept at position 6 of the log is not the same on both sides." in out
    assert "1 game copied." in out
    store = club.store()
    try:
        assert game_rows(store, copy) == at_club  # left as it is
        assert len(copies(store)) == 5  # the new game was copied all the same
    finally:
        store.close()


def test_the_conflict_is_reported_with_its_reason(tmp_path, club, capsys):
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    store = club.store()
    try:
        migrate(tablet_path, store)
        (copy,) = [sid for origin, sid in copies(store).items() if origin.endswith(f"/{ids['playing']}")]
        SessionService(store).undo(copy)  # undone at the club
    finally:
        store.close()
    capsys.readouterr()
    assert main(["migrate", "--from", str(tablet_path), "--to", club.arg]) == 1
    out = capsys.readouterr().out
    assert f"Partie n° {ids['playing']} (High Society) en conflit, laissée telle quelle" in out
    assert "modifiée dans la base du club depuis la copie" in out
    assert "1 partie n'a pas été copiée : voir ci-dessus." in out
    assert main(["migrate", "--from", str(tablet_path), "--to", club.arg, "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert f"Game no. {ids['playing']} (High Society) in conflict" in out and "1 game was not copied" in out


@pytest.mark.parametrize("side", ["tablet", "club"])
def test_an_abandoned_mark_made_on_the_tablet_comes_across_one_made_at_the_club_is_a_conflict(tmp_path, club, side):
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    store = club.store()
    try:
        migrate(tablet_path, store)
        (copy,) = [sid for origin, sid in copies(store).items() if origin.endswith(f"/{ids['playing']}")]
        marked = Store(tablet_path) if side == "tablet" else store
        SessionService(marked).history.set_abandoned(ids["playing"] if side == "tablet" else copy)
        if side == "tablet":
            marked.close()
        before = game_rows(store, copy)
        report = migrate(tablet_path, store)
        if side == "tablet":
            assert [(s, c) for s, c, _ in report.updated] == [(ids["playing"], copy)]
            assert game_rows(store, copy)["summary"]["status"] == "abandoned"
        else:
            assert [(s, r.key) for s, _, r in report.conflicts] == [(ids["playing"], "migrate.conflict.abandoned")]
            assert game_rows(store, copy) == before
    finally:
        store.close()


def test_a_game_that_does_not_replay_is_refused_and_the_others_are_copied(tmp_path, club, capsys):
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    con = sqlite3.connect(tablet_path)
    with con:  # a damaged row: an entry the rules refuse
        con.execute("UPDATE actions SET action = '{\"type\":\"pass\",\"player\":\"Chloé\"}' "
                    "WHERE session_id = ? AND seq = 1", (ids["finished"],))
    con.close()
    assert main(["migrate", "--from", str(tablet_path), "--to", club.arg, "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert f"Game no. {ids['finished']} (High Society) refused, not copied: entry 1 breaks rule HS-" in out
    assert "3 games copied." in out
    store = club.store()
    try:
        assert not any(origin.endswith(f"/{ids['finished']}") for origin in copies(store))
    finally:
        store.close()


def test_two_tablet_profiles_that_are_one_club_player_at_the_same_game_are_refused(tmp_path, club):
    """An old tablet database may hold "anne" and "ANNE" as two profiles: at the club they are one
    player, who cannot sit twice at one game."""
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    con = sqlite3.connect(tablet_path)
    with con:
        con.execute("INSERT INTO players (name, created_at) VALUES ('ANNE', '2026-01-01 00:00:00.000000')")
        con.execute("UPDATE seats SET player_id = (SELECT id FROM players WHERE name = 'ANNE') "
                    "WHERE session_id = ? AND name = 'Bruno'", (ids["finished"],))
    con.close()
    store = club.store()
    try:
        report = migrate(tablet_path, store)
        assert [(sid, reason.key) for sid, _, reason in report.refused] == [(ids["finished"],
                                                                              "migrate.game.same_player")]
        assert len(report.copied) == 3 and "ANNE" not in player_names(store)
    finally:
        store.close()


def test_a_game_whose_status_is_not_its_replay_is_refused(tmp_path, club):
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    con = sqlite3.connect(tablet_path)
    with con:
        con.execute("UPDATE sessions SET status = 'finished' WHERE id = ?", (ids["playing"],))
    con.close()
    store = club.store()
    try:
        report = migrate(tablet_path, store)
        assert [(sid, reason.key) for sid, _, reason in report.refused] == [(ids["playing"], "migrate.game.status")]
    finally:
        store.close()


def test_a_game_being_played_on_the_source_is_read_from_its_write_ahead_log(tmp_path, club):
    """The app still running on the source (its -wal file not yet folded in): the read-only
    reading sees every committed entry."""
    tablet_path = tmp_path / "tablet.db"
    ids = make_tablet(tablet_path)
    running = Store(tablet_path)
    try:
        service = SessionService(running)
        service.submit(ids["playing"], hs_designed(PLAYERS, "Chloé")["actions"][4])
        assert Path(str(tablet_path) + "-wal").stat().st_size > 0
        store = club.store()
        try:
            migrate(tablet_path, store)
            (copy,) = [sid for origin, sid in copies(store).items() if origin.endswith(f"/{ids['playing']}")]
            assert game_rows(store, copy) == game_rows(running, ids["playing"])
        finally:
            store.close()
    finally:
        running.close()


# --- two tablets copied at once into one server's database ------------------------------------------


def at_once(url: str, monkeypatch, sources: list[Path]) -> list[migration.Report]:
    """Migrations of ``sources`` into ``url`` at the same time, one thread and store each, their
    write transactions all begun before any of them goes on (a barrier); their reports, in order.
    Fails if one raised or did not end."""
    barrier = threading.Barrier(len(sources))
    real_write = migration._write

    def write_together(*args):
        barrier.wait(timeout=60)  # every one inside its write transaction
        return real_write(*args)

    monkeypatch.setattr(migration, "_write", write_together)
    reports: dict[int, migration.Report] = {}
    failures: list[BaseException] = []

    def run(number: int, path: Path) -> None:
        store = Store(url)
        try:
            reports[number] = migrate(path, store)
        except BaseException as err:  # reported below, with the thread's failure
            failures.append(err)
        finally:
            store.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(sources)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == [] and not any(t.is_alive() for t in threads)
    return [reports[number] for number in range(len(sources))]


def test_two_tablets_copied_at_once_into_one_server_share_their_players(tmp_path, pg_url, monkeypatch):
    """Two migrations at once (one per thread, each with its own store, as two club members would
    run them): both complete, every game is copied once, and a player both tablets know under two
    spellings ("anne", "Anne") is one club profile, whichever migration came first. Both write
    transactions are begun before either reads the club's players (a barrier): without the locks
    on the names' keys (migrate._lock_names) each would create its own profile."""
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    make_tablet(first)  # anne, Bruno, Chloé, Dario, Eve
    tablet = Store(second)
    SessionService(tablet).transfer.import_records(json.dumps([hs_designed(["Anne", "BRUNO", "chloé"], "Anne"),
                                                      sv_game(["Zoé", "eve"])]))
    tablet.close()
    reports = dict(zip(("first", "second"), at_once(pg_url, monkeypatch, [first, second])))
    assert [len(reports[name].copied) for name in ("first", "second")] == [4, 2]
    assert not reports["first"].problems and not reports["second"].problems
    store = Store(pg_url)
    try:
        names = player_names(store)
        assert sorted(name_key(n) for n in names) == ["anne", "bruno", "chloé", "dario", "eve", "zoé"]
        created = reports["first"].created + reports["second"].created
        assert sorted(created, key=name_key) == sorted(names, key=name_key)  # each created once, by one of them
        matched = reports["first"].matched + reports["second"].matched
        assert len(matched) == 4  # anne, bruno, chloé, eve: found by the one that came second
        assert len(copies(store)) == 6
        counted = month_figures(store)
        with store.write() as db:
            store.refresh_summaries(db)  # a full recount finds the monthly figures both wrote
        assert month_figures(store) == counted
        with store.read() as db:
            anne = db.execute(text("SELECT SUM(m.games) FROM player_months m JOIN players p ON p.id = m.player_id "
                                   "WHERE lower(p.name) = 'anne'")).scalar_one()
        assert anne == 3  # her finished games of both tablets on one profile: High Society twice, Vautour once
    finally:
        store.close()


def test_one_tablet_copied_twice_at_once_is_copied_once(tmp_path, pg_url, monkeypatch):
    """The same tablet copied by two members at the same moment: one run copies its games, the
    other waits for it (the same names' locks) and finds them there."""
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    reports = at_once(pg_url, monkeypatch, [tablet_path, tablet_path])
    assert sorted((len(r.copied), len(r.already), len(r.created), len(r.matched)) for r in reports) == \
        [(0, 4, 0, 0), (4, 0, 5, 0)]
    store = Store(pg_url)
    try:
        assert len(copies(store)) == 4 and player_names(store) == ["Bruno", "Chloé", "Dario", "Eve", "anne"]
    finally:
        store.close()


def test_a_profile_a_tablet_creates_while_a_migration_creates_it_too_is_one_profile(tmp_path, pg_url):
    """The app on a tablet creating "Zoé" (not yet committed) when the migration, which did not see
    her, creates her too: the migration's insert waits for the tablet's commit, then uses her."""
    import psycopg

    tablet_path = tmp_path / "tablet.db"
    tablet = Store(tablet_path)
    SessionService(tablet).transfer.import_records(json.dumps(sv_game(["Zoé", "Yann"])))
    tablet.close()
    url = make_url(pg_url)
    other = psycopg.connect(host=url.query["host"], user=url.username, dbname=url.database)
    try:
        other.execute("INSERT INTO players (name, created_at) VALUES ('Zoé', now())")  # not committed yet
        reports: list[migration.Report] = []

        def run() -> None:
            store = Store(pg_url)
            try:
                reports.append(migrate(tablet_path, store))
            finally:
                store.close()

        thread = threading.Thread(target=run)
        thread.start()
        waiting = False
        with psycopg.connect(host=url.query["host"], user=url.username, dbname=url.database,
                             autocommit=True) as watch:
            for _ in range(600):  # until the migration's insert waits for the tablet's row
                waiting = watch.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                        "AND query LIKE 'INSERT INTO players%%'").fetchone()[0] > 0
                if waiting or not thread.is_alive():
                    break
                time.sleep(0.05)
        other.commit()
        thread.join(timeout=60)
        assert waiting and len(reports) == 1
        (report,) = reports
        assert report.matched == [("Zoé", "Zoé")] and report.created == ["Yann"] and len(report.copied) == 1
    finally:
        other.close()
    store = Store(pg_url)
    try:
        assert player_names(store) == ["Yann", "Zoé"]
    finally:
        store.close()


# --- what is refused, and a failure half-way --------------------------------------------------------


def _older(path: Path) -> None:
    store = Store(path, upgrade=False)
    store.upgrade("0004")
    store.close()


def _newer(path: Path) -> None:
    make_tablet(path)
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE alembic_version SET version_num = '0099'")
    con.close()


def _foreign(path: Path) -> None:
    con = sqlite3.connect(path)
    with con:
        con.execute("CREATE TABLE notes (x)")
    con.close()


@pytest.mark.parametrize("make, needle", [
    (lambda p: p.write_text("pas une base\n", encoding="utf-8"), "is not a Table Companion database"),
    (lambda p: p.write_bytes(b""), "is not a Table Companion database"),
    (lambda p: p.mkdir(), "is a folder"),
    (lambda p: None, "does not exist"),
    (_foreign, "is not a Table Companion database"),
    (_older, "older version of the app (schema 0004)"),
    (_newer, "newer version of the app (schema 0099)"),
], ids=["text", "empty", "folder", "missing", "foreign sqlite", "older", "newer"])
@pytest.mark.parametrize("new_club", ["sqlite", "sqlite-url", "postgresql"], indirect=True)
def test_a_source_that_cannot_be_read_exits_2_and_writes_nothing(tmp_path, new_club, make, needle, capsys):
    source = tmp_path / "tablet" / "companion.db"
    source.parent.mkdir()
    make(source)
    before = files(source.parent)
    capsys.readouterr()
    # in the process (an exception would escape main() and fail the test): the command in a
    # process of its own is test_the_command_reports_in_french_then_english_and_exits_0
    assert main(["migrate", "--from", str(source), "--to", new_club.arg, "--lang", "en"]) == 2
    captured = capsys.readouterr()
    assert needle in captured.err and captured.out == ""
    assert files(source.parent) == before
    assert not new_club.exists()  # the club's database is not even created (on a server: not migrated)


def test_the_club_database_itself_or_the_same_file_is_refused(tmp_path, capsys):
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    assert main(["migrate", "--from", str(tablet_path), "--to", str(tablet_path)]) == 2
    assert "désignent le même fichier" in capsys.readouterr().err
    duplicate = tmp_path / "copy.db"
    duplicate.write_bytes(tablet_path.read_bytes())  # the same database under another name
    assert main(["migrate", "--from", str(duplicate), "--to", str(tablet_path), "--lang", "en"]) == 2
    assert "is the club's database itself" in capsys.readouterr().err


def test_an_unusable_club_database_exits_2(tmp_path, capsys):
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    (tmp_path / "club.db").write_text("not a database", encoding="utf-8")
    assert main(["migrate", "--from", str(tablet_path), "--to", str(tmp_path / "club.db"), "--lang", "en"]) == 2
    assert "is not a database of this app" in capsys.readouterr().err
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")  # a file where the club database's folder should be
    assert main(["migrate", "--from", str(tablet_path), "--to", str(blocked / "club.db"), "--lang", "en"]) == 2
    assert "Cannot use the database" in capsys.readouterr().err
    # a URL of a kind the store cannot open is refused, its password hidden
    assert main(["migrate", "--from", str(tablet_path), "--to", "mysql://club:secret@server/club", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "mysql://club:***@server/club: the club's database must be a SQLite file" in err and "secret" not in err
    assert main(["migrate", "--from", str(tablet_path), "--to", "postgresql+psycopg://club:secret@server"]) == 2
    err = capsys.readouterr().err  # a server but no database named
    assert "postgresql+psycopg://club:***@server : la base du club doit être" in err and "secret" not in err


def test_a_club_server_that_does_not_answer_exits_2_with_its_url_without_password(tmp_path, capsys):
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    before = files(tmp_path)
    nowhere = tmp_path / "no-server"  # no server's socket in that folder
    url = f"postgresql+psycopg://club:s3cr3t-word@/club?host={nowhere}"
    assert main(["migrate", "--from", str(tablet_path), "--to", url, "--lang", "en"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"Cannot use the database postgresql+psycopg://club:***@/club?host={nowhere} (")
    assert str(nowhere) in captured.err and "nothing was changed" in captured.err
    assert "s3cr3t" not in captured.err and captured.out == "" and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1  # one sentence
    assert files(tmp_path) == before


def test_a_club_server_url_is_given_a_time_limit_to_answer():
    """A server that never answers (a dropped connection, a firewall) is refused after a while,
    not waited for forever; a limit the URL sets is kept."""
    from companion.cli import CONNECT_TIMEOUT_S, _migration_target

    assert _migration_target("postgresql+psycopg://club:p%40ss@host/club") == \
        f"postgresql+psycopg://club:p%40ss@host/club?connect_timeout={CONNECT_TIMEOUT_S}"
    assert _migration_target("postgresql://club@/club?connect_timeout=3") == \
        "postgresql://club@/club?connect_timeout=3"


def test_a_database_the_server_does_not_have_exits_2(tmp_path, pg_server, capsys):
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    assert main(["migrate", "--from", str(tablet_path), "--to", pg_server.url("no_such_club"), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Cannot use the database postgresql+psycopg://") and "no_such_club" in err
    assert 'database "no_such_club" does not exist' in err


@pytest.mark.parametrize("where", ["results", "summaries", "read back"])
def test_a_failure_half_way_leaves_the_club_database_unchanged(tmp_path, club, monkeypatch, capsys, where):
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    store = club.store()
    try:
        SessionService(store).transfer.import_records(json.dumps(hs_long(["Anne", "Bruno", "Chloé", "Dario"])))
        before = rows(store)
    finally:
        store.close()
    calls = {"n": 0}

    def second_call_fails(real):
        def wrapper(*args, **kwargs):
            calls["n"] += 1
            if calls["n"] == 2:
                raise sqlite3.OperationalError("disk I/O error")
            return real(*args, **kwargs)
        return wrapper

    if where == "results":
        monkeypatch.setattr(Store, "write_results", second_call_fails(Store.write_results))
    elif where == "summaries":
        monkeypatch.setattr(Store, "refresh_summary", second_call_fails(Store.refresh_summary))
    else:  # the log written is not the tablet's: the read back inside the transaction sees it
        real = Store.insert_log
        monkeypatch.setattr(Store, "insert_log", lambda self, db, sid, log: real(self, db, sid, log[:-1]))
    assert main(["migrate", "--from", str(tablet_path), "--to", club.arg, "--lang", "en"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "the club's database is unchanged" in captured.err
    assert ("disk I/O error" in captured.err) == (where != "read back")
    assert club_rows(club) == before


def test_the_server_lost_half_way_leaves_the_club_database_unchanged(tmp_path, pg_url, monkeypatch, capsys):
    """The connection to the club's server cut in the middle of the write (the server ends it): a
    sentence, exit 2, and the server rolled everything back."""
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    store = Store(pg_url)
    try:
        SessionService(store).transfer.import_records(json.dumps(hs_long(["Anne", "Bruno", "Chloé", "Dario"])))
        before = rows(store)
    finally:
        store.close()
    real = Store.write_results
    calls = {"n": 0}

    def cut(self, db, session_id, results):
        calls["n"] += 1
        if calls["n"] == 2:
            db.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
        return real(self, db, session_id, results)

    monkeypatch.setattr(Store, "write_results", cut)
    assert main(["migrate", "--from", str(tablet_path), "--to", pg_url, "--lang", "en"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("Writing to the club's database failed (")
    assert "the club's database is unchanged" in captured.err and captured.err.count("\n") == 1
    assert calls["n"] == 2
    store = Store(pg_url)
    try:
        assert rows(store) == before
    finally:
        store.close()


def test_the_service_call_raises_a_sentence_not_a_traceback(tmp_path, club):
    store = club.store()
    try:
        with pytest.raises(MigrationUnusable) as caught:
            migrate(tmp_path / "missing.db", store)
        assert caught.value.msg.render("fr").endswith("rien n'a été copié.")
    finally:
        store.close()


# --- the command as a user runs it -------------------------------------------------------------------


@pytest.mark.parametrize("club", ["sqlite-url", "postgresql"], indirect=True)  # a path: the tests above
def test_the_command_reports_in_french_then_english_and_exits_0(tmp_path, club):
    tablet_path = tmp_path / "tablet.db"
    make_tablet(tablet_path)
    store = club.store()
    SessionService(store).add_player("Anne")
    store.close()

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "companion", "migrate", "--from", str(tablet_path),
                               "--to", club.arg, *extra], capture_output=True, cwd=ROOT, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})

    first = run()
    assert first.returncode == 0 and first.stderr == b""
    out = first.stdout.decode()
    assert out.splitlines()[0] == f"Copie de {tablet_path} vers {club.arg} :"
    assert "4 parties copiées." in out
    assert "1 joueur retrouvé dans la base du club : anne (tablette) = Anne (club)." in out
    assert "4 joueurs créés : Bruno, Chloé, Dario et Eve." in out
    second = run("--lang", "en")
    assert second.returncode == 0
    assert second.stdout.decode().splitlines()[1:] == [
        "0 games copied.", "4 games already in the club's database, not copied again.",
        "No player matched in the club's database.", "No player created."]


def test_missing_arguments_exit_2():
    done = subprocess.run([sys.executable, "-m", "companion", "migrate", "--from", "x.db"], capture_output=True,
                          cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and b"--to" in done.stderr and b"Traceback" not in done.stderr
