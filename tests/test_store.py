"""The store: connection settings, Alembic migrations (models and migrations agree; an old
database is upgraded with its data intact), the append-only log, and where the database lives."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from companion.paths import ENV_VAR, default_db_path, resolve_db_path
from companion.service import SessionService
from companion.store import Store, migrations_location
from models.tables import metadata
from tests.support.games import hs_designed, hs_long
from tests.support.store import (
    BC_GOING,
    PLAYERS,
    insert_old_games,
    old_database_with_games,
    rows_by_table,
    write_0002_data,
)


def test_every_connection_is_durable_and_checks_foreign_keys(tmp_path):
    store = Store(tmp_path / "a.db")
    try:
        for _ in range(2):  # a pooled connection as well as a new one
            with store.read() as db:
                values = [db.execute(text(f"PRAGMA {p}")).scalar() for p in
                          ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")]
            assert values == ["wal", 2, 1, 10000]  # synchronous 2 = FULL
        with pytest.raises(IntegrityError):
            with store.write() as db:
                db.execute(text("INSERT INTO seats (session_id, position, player_id) VALUES (42, 0, 42)"))
    finally:
        store.close()


def test_write_rolls_back_on_error(database):
    store = Store(database)
    try:
        with pytest.raises(RuntimeError):
            with store.write() as db:
                store.add_player(db, "Anne", datetime.now(timezone.utc))
                raise RuntimeError("boom")
        assert store.table_counts()["players"] == 0
    finally:
        store.close()


def test_new_database_is_at_head_and_matches_the_models(empty_database):
    store = Store(empty_database)  # every migration from nothing, on SQLite and on PostgreSQL
    try:
        assert store.revision() == "0007"
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == [], diff
    finally:
        store.close()


def test_migrations_are_found_inside_the_package():
    location = Path(migrations_location())
    assert (location / "env.py").is_file()
    assert (location / "script.py.mako").is_file()
    assert sorted(p.name for p in (location / "versions").glob("0*.py")) == ["0001_core.py", "0002_results.py",
                                                                                 "0003_setup.py", "0004_summaries.py",
                                                                                 "0005_club.py", "0006_ratings.py", "0007_evenings.py"]


def test_a_database_at_0001_with_data_upgrades_to_head_intact(tmp_path):
    path = tmp_path / "old.db"
    old = Store(path, upgrade=False)
    old.upgrade("0001")
    assert old.revision() == "0001"
    old.close()
    # the data an 0001-era app wrote: a finished game and an unfinished one
    record = hs_designed(PLAYERS, "Anne")
    going = hs_long(PLAYERS, final=False)
    con = sqlite3.connect(path)
    with con:
        assert "results" not in {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        stamp = "2025-12-24 19:00:00.000000"
        insert_old_games(con, stamp, [(1, "high-society", record, "finished", False),
                                       (2, "high-society", going, "in_progress", False)])
        # an undone entry, as 0001 already kept them
        con.execute("INSERT INTO actions (session_id, seq, action, created_at, retracted_at) VALUES "
                    "(2, 999, '{\"type\": \"pass\", \"player\": \"Anne\"}', ?, ?)", (stamp, stamp))
    before = rows_by_table(con, ("players", "sessions", "seats", "actions"))
    con.close()

    store = Store(path)  # what the app does on start
    try:
        assert store.revision() == "0007"
        con = sqlite3.connect(path)
        after = rows_by_table(con, ("players", "sessions", "seats", "actions"), columns_of=before)
        indexes = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        con.close()
        assert after == before
        assert {"ix_results_player", "ix_sessions_status_game", "ix_seats_player"} <= indexes
        service = SessionService(store)  # writes the results of the game finished before 0002
        assert {s.name: (s.games, s.wins) for s in service.history.player_stats()} == {
            "Anne": (1, 1), "Bruno": (1, 0), "Chloé": (1, 0)}
        finished = service.open(1)
        assert finished.status == "finished" and finished.outcome.winners == ("Anne",)
        assert finished.started_at == datetime(2025, 12, 24, 19, tzinfo=timezone.utc)
        resumed = service.open(2)
        assert [e.action for e in resumed.log] == going["actions"]
        # the upgraded database takes new entries and results
        service.submit(2, {"type": "reveal", "card": "half"})
        assert service.open(2).status == "finished"
        assert {s.name: s.games for s in service.history.player_stats()} == {"Anne": 2, "Bruno": 2, "Chloé": 2}
        assert service.repair_results() == []
        assert len(service.history.entries(2)) == len(going["actions"]) + 2
    finally:
        store.close()


def test_a_database_at_0002_with_data_upgrades_to_head_intact(tmp_path):
    path = tmp_path / "old.db"
    old = Store(path, upgrade=False)
    old.upgrade("0002")
    assert old.revision() == "0002"
    old.close()
    records = write_0002_data(path)
    tables = ("players", "sessions", "seats", "actions", "results")
    con = sqlite3.connect(path)
    before = rows_by_table(con, tables)
    assert "setup" not in before["sessions"][0]
    con.close()

    store = Store(path)  # what the app does on start
    try:
        assert store.revision() == "0007"
        con = sqlite3.connect(path)
        after = rows_by_table(con, tables, columns_of=before)
        column = {r[1]: r for r in con.execute("PRAGMA table_info(sessions)")}["setup"]
        setups = con.execute("SELECT setup FROM sessions ORDER BY id").fetchall()
        con.close()
        assert after == before  # every row of every table, column for column
        assert column[3] == 0 and setups == [(None,), (None,)]  # nullable, and NULL for the old games
        service = SessionService(store)
        assert service.repair_results() == []  # the results written under 0002 are kept as they are
        assert {s.name: (s.games, s.wins) for s in service.history.player_stats()} == {
            "Anne": (1, 1), "Bruno": (1, 0), "Chloé": (1, 0)}
        assert service.open(1).outcome.winners == ("Anne",)
        going = service.open(2)
        assert going.assist is True and going.record.start_animals is None
        assert [e.action for e in going.log] == BC_GOING
        assert service.transfer.export() == [records[1], records[2]]
        service.submit(2, {"type": "draw", "card": "hen"})  # the upgraded database takes new entries
        assert len(service.history.entries(2)) == len(BC_GOING) + 2
    finally:
        store.close()


def test_downgrading_0003_keeps_every_game(tmp_path):
    """Dropping the column must not copy and drop the sessions table: with foreign keys on, that
    would delete every seat, action and result through ON DELETE CASCADE."""
    from alembic import command

    from companion.store import alembic_config

    path, tables, before = old_database_with_games(tmp_path, "0002")
    store = Store(path)
    try:
        with store.engine.connect() as conn:
            command.downgrade(alembic_config(conn), "0002")
            conn.commit()
        assert store.revision() == "0002"
        con = sqlite3.connect(path)
        assert rows_by_table(con, tables) == before
        con.close()
    finally:
        store.close()


def test_upgrading_twice_changes_nothing(empty_database):
    path = empty_database
    Store(path).close()
    store = Store(path)
    try:
        assert store.revision() == "0007"
    finally:
        store.close()


def test_the_log_keeps_every_row_in_seq_order(database):
    store = Store(database)
    try:
        service = SessionService(store)
        state = service.start("high-society", PLAYERS)
        sid = state.session_id
        for action in hs_long(PLAYERS, final=False)["actions"][:6]:
            service.submit(sid, action)
        service.undo(sid)
        service.undo(sid)
        with store.read() as db:
            every = store.all_actions(db, sid)
            active = store.active_actions(db, sid)
            assert store.last_seq(db, sid) == 6
            assert store.last_active_seq(db, sid) == 4
        assert [a.seq for a in every] == [1, 2, 3, 4, 5, 6]
        assert [a.seq for a in active] == [1, 2, 3, 4]
        assert all(a.created_at.tzinfo is not None for a in every)
        with pytest.raises(IntegrityError):  # a seq is never used twice
            with store.write() as db:
                db.execute(text("INSERT INTO actions (session_id, seq, action, created_at) "
                                "VALUES (:s, 5, '{}', '2026-01-01 00:00:00')"), {"s": sid})
    finally:
        store.close()


def test_database_path_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {ENV_VAR: "from-env.db"}
    assert resolve_db_path("cli.db", env) == tmp_path / "cli.db"
    assert resolve_db_path(None, env) == tmp_path / "from-env.db"
    assert resolve_db_path(None, {ENV_VAR: "  "}) == default_db_path()
    assert resolve_db_path(None, {}) == default_db_path()
    assert default_db_path().is_absolute() and default_db_path().parent.name == "table-companion"
    assert resolve_db_path("~/x.db", {}) == Path.home() / "x.db"
    assert resolve_db_path(str(tmp_path / "abs.db"), env) == tmp_path / "abs.db"


def test_a_relative_path_stays_put_when_the_working_directory_changes(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    store = Store("games.db")
    try:
        monkeypatch.chdir(tmp_path / "b")  # what Flet may do
        SessionService(store).add_player("Anne")
        assert store.path == tmp_path / "a" / "games.db"
        assert (tmp_path / "a" / "games.db").exists() and not (tmp_path / "b" / "games.db").exists()
    finally:
        store.close()


def test_odd_characters_in_the_path(tmp_path):
    path = tmp_path / "dossier #1 ?x=%20 é" / "parties.db"
    store = Store(path)
    try:
        SessionService(store).add_player("Anne")
        assert path.exists()
    finally:
        store.close()


def _table_rows(store: Store, columns_of: dict[str, list[str]]) -> dict:
    with store.read() as db:
        return {t: [tuple(r) for r in db.execute(text(f"SELECT {', '.join(cols)} FROM {t} ORDER BY 1, 2"))]
                for t, cols in columns_of.items()}


OLD_COLUMNS = {  # the tables and columns of migration 0001
    "players": ["id", "name", "created_at"],
    "sessions": ["id", "game", "variant", "first_player", "assist", "status", "started_at", "finished_at", "updated_at"],
    "seats": ["session_id", "position", "player_id"],
    "actions": ["session_id", "seq", "action", "created_at", "retracted_at"],
}


def test_migrations_with_data_on_any_database(empty_database):
    """Migrations 0001 → head with an old app's rows, down to 0003 and up again, on SQLite and on
    PostgreSQL: every old row kept, and 0004 fills the summaries and the monthly figures (months
    and durations computed by each database's own SQL) as the store keeps them."""
    from alembic import command
    from sqlalchemy import bindparam

    from companion.store import alembic_config
    from models.tables import GameSession

    old = Store(empty_database, upgrade=False)
    old.upgrade("0001")
    start = datetime(2025, 12, 24, 19, tzinfo=timezone.utc)
    later = datetime(2025, 12, 24, 19, 30, tzinfo=timezone.utc)
    moment = GameSession.__table__.c.started_at.type  # times bound as the app writes them
    record, going = hs_designed(PLAYERS, "Anne"), hs_long(PLAYERS, final=False)
    with old.engine.begin() as conn:
        def insert(sql: str, **params):
            times = [bindparam(k, type_=moment) for k in params if k.startswith("t")]
            return conn.execute(text(sql).bindparams(*times), params)

        ids = [insert("INSERT INTO players (name, created_at) VALUES (:n, :t) RETURNING id", n=n, t=start).scalar_one()
               for n in PLAYERS]
        for game, status, actions, when in (("high-society", "finished", record["actions"], later),
                                            ("high-society", "in_progress", going["actions"], start)):
            sid = insert("INSERT INTO sessions (game, variant, first_player, assist, status, started_at, finished_at, "
                         "updated_at) VALUES (:g, '{}', 'Anne', :a, :s, :t0, :t1, :t0) RETURNING id", g=game, a=False,
                         s=status, t0=start, t1=later if status == "finished" else None).scalar_one()
            for position, pid in enumerate(ids):
                insert("INSERT INTO seats (session_id, position, player_id) VALUES (:s, :p, :i)",
                       s=sid, p=position, i=pid)
            for seq, action in enumerate(actions, 1):
                insert("INSERT INTO actions (session_id, seq, action, created_at) VALUES (:s, :q, :a, :t)",
                       s=sid, q=seq, a=json.dumps(action), t=when)
        insert("INSERT INTO actions (session_id, seq, action, created_at, retracted_at) VALUES "
               "(:s, 999, '{\"type\": \"pass\", \"player\": \"Anne\"}', :t, :t2)", s=sid, t=later, t2=later)
    before = _table_rows(old, OLD_COLUMNS)
    old.close()

    store = Store(empty_database)  # what the app does on start
    try:
        assert store.revision() == "0007"
        assert _table_rows(store, OLD_COLUMNS) == before
        with store.read() as db:
            summaries = [tuple(r) for r in db.execute(text(
                "SELECT status, actions, players, winners, duration_s FROM game_summaries ORDER BY session_id"))]
            months = [tuple(r) for r in db.execute(text("SELECT game, month, games, actions_sum FROM game_months"))]
        assert summaries == [("finished", len(record["actions"]), 3, 0, 1800.0),
                             ("in_progress", len(going["actions"]), 3, 0, 0.0)]  # the undone entry not counted
        assert months == [("high-society", "2025-12", 1, len(record["actions"]))]
        service = SessionService(store)  # writes the results the 0001-era game lacks
        assert {s.name: (s.games, s.wins) for s in service.history.player_stats()} == {
            "Anne": (1, 1), "Bruno": (1, 0), "Chloé": (1, 0)}
        with store.engine.connect() as conn:
            command.downgrade(alembic_config(conn), "0003")
            conn.commit()
        assert store.revision() == "0003"
        assert _table_rows(store, OLD_COLUMNS) == before
        store.upgrade()  # 0004 fills again, now with results rows: the players' months too
        with store.read() as db:
            places = [tuple(r) for r in db.execute(text(
                "SELECT p.name, m.month, m.games, m.wins, m.place1 FROM player_months m "
                "JOIN players p ON p.id = m.player_id ORDER BY p.name"))]
        assert places == [("Anne", "2025-12", 1, 1, 1), ("Bruno", "2025-12", 1, 0, 0), ("Chloé", "2025-12", 1, 0, 0)]
        assert SessionService(store).open(2).log[-1].action == going["actions"][-1]
    finally:
        store.close()


def test_a_url_names_a_server_or_a_sqlite_file(tmp_path, monkeypatch):
    """COMPANION_DB and --db take a SQLAlchemy URL as well as a path: it is kept as it is (never a
    folder named "postgresql+psycopg:"), and a sqlite: URL opens its file."""
    from companion.paths import is_url, local_dir
    from companion.store import StoreUnusable

    monkeypatch.chdir(tmp_path)
    club = "postgresql+psycopg://anne@club.local/club"
    assert resolve_db_path(None, {ENV_VAR: f" {club} "}) == club
    assert resolve_db_path(club, {}) == club
    assert resolve_db_path("sqlite:///games.db", {}) == "sqlite:///games.db"
    assert not is_url("C:\\games.db") and not is_url("games.db") and not is_url(tmp_path / "a.db")
    assert local_dir(club) == default_db_path().parent and local_dir(tmp_path / "a.db") == tmp_path
    store = Store("sqlite:///games.db")  # relative to the working directory, like a path
    try:
        assert store.path == tmp_path / "games.db" and store.dialect == "sqlite"
        SessionService(store).add_player("Anne")
    finally:
        store.close()
    assert (tmp_path / "games.db").is_file()
    with pytest.raises(StoreUnusable) as kind:
        Store("mysql://anne@club.local/club")
    assert kind.value.msg.key == "store.kind" and kind.value.msg.params["kind"] == "mysql"
    with pytest.raises(StoreUnusable) as unreachable:  # no server there: said, nothing created
        Store(f"postgresql://anne:secret@/club?host={tmp_path}/nowhere")
    assert unreachable.value.msg.key == "store.unusable" and "secret" not in str(unreachable.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


def test_a_server_database_of_another_program_or_a_newer_version_is_refused(pg_own_url, pg_empty_url):
    """Like a SQLite file's check: nothing is written to a database this version cannot use."""
    import psycopg

    from companion.store import StoreUnusable

    def run(url: str, sql: str) -> None:
        with psycopg.connect(url.replace("postgresql+psycopg", "postgresql"), autocommit=True) as conn:
            conn.execute(sql)

    run(pg_own_url, "UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(StoreUnusable) as newer:
        Store(pg_own_url)
    assert newer.value.msg.key == "store.newer" and newer.value.msg.params["revision"] == "9999"
    run(pg_empty_url, "CREATE TABLE invoices (id integer)")
    with pytest.raises(StoreUnusable) as foreign:
        Store(pg_empty_url)
    assert foreign.value.msg.key == "store.foreign"


def test_tablets_starting_at_once_on_a_new_server_database_all_open_it(pg_empty_url):
    """Three stores open one empty PostgreSQL database at the same moment: one migrates it, the
    others wait and find it migrated (nobody fails on a table another one created)."""
    import threading

    from companion.store import StoreUnusable

    gate = threading.Barrier(3)
    opened: list[Store] = []
    failures: list[StoreUnusable] = []

    def open_it() -> None:
        gate.wait()
        try:
            opened.append(Store(pg_empty_url))
        except StoreUnusable as err:
            failures.append(err)

    threads = [threading.Thread(target=open_it) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert failures == [] and len(opened) == 3
        assert {s.revision() for s in opened} == {"0007"}
        SessionService(opened[0]).add_player("Anne")
        assert [p.name for p in SessionService(opened[2]).players()] == ["Anne"]
    finally:
        for store in opened:
            store.close()
