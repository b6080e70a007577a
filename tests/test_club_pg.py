"""The club's queries (companion/club.py) are portable: the same games' rows, copied from a tablet's
SQLite database into a throwaway PostgreSQL server, give the same league tables, table names and
per-table statistics on both. The PostgreSQL schema here is the tables' metadata (this test checks
the queries, not the migrations); the server is started like tests/pg.py's (initdb in a temporary
folder, a Unix socket only, stopped at the end) and the test is skipped where none can start (it
fails instead when CI is set)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from companion import club
from companion.service import SessionService
from companion.store import Store
from models.tables import GameSession, GameSummary, Player, Result, Seat, metadata
from tests.test_club import A, B, C, Clock, D, E, play
from tests.test_store_games import hs_designed, hs_long, hs_nobody_wins, sv_game

UTC = timezone.utc


def _tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return versions[-1] if versions else None


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is required in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def pg_engine():
    initdb, pg_ctl = _tool("initdb"), _tool("pg_ctl")
    if initdb is None or pg_ctl is None:
        _unavailable("no PostgreSQL server here (initdb not found)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("the psycopg driver is not installed")
    folder = Path(tempfile.mkdtemp(prefix="companion-club-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the server runs as the postgres user
        import pwd

        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no postgres user")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    control = as_user + [pg_ctl, "-D", str(data)]
    try:
        init = subprocess.run(as_user + [initdb, "-D", str(data), "-U", "club", "--auth=trust", "-E", "UTF8",
                                         "--no-locale", "--no-sync"], capture_output=True, text=True)
        if init.returncode != 0:
            _unavailable(f"initdb failed: {init.stderr.strip()[-300:]}")
        started = subprocess.run(control + ["-l", str(folder / "log"), "-w", "-t", "60", "-o",
                                            f"-c listen_addresses='' -k {folder} -c fsync=off", "start"],
                                 capture_output=True, text=True)
        if started.returncode != 0:
            _unavailable(f"the PostgreSQL server did not start: {started.stderr.strip()[-300:]}")
        engine = create_engine(f"postgresql+psycopg://club@/postgres?host={folder}")
        metadata.create_all(engine)
        yield engine
        engine.dispose()
    finally:
        subprocess.run(control + ["-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def _copy(store: Store, engine) -> None:
    """Every row the club's queries read, from the SQLite store into PostgreSQL."""
    with engine.begin() as target:
        for model in (GameSummary, Result, Seat, GameSession, Player):
            target.execute(model.__table__.delete())
        with store.engine.connect() as source:
            for model in (Player, GameSession, Seat, Result, GameSummary):
                rows = [dict(r._mapping) for r in source.execute(select(model.__table__))]
                if rows:
                    target.execute(model.__table__.insert(), rows)


def _same(a, b) -> bool:
    """Equal, floats to 1e-9 (the two databases may add doubles in another order)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(float(a) - float(b)) < 1e-9
    if hasattr(a, "__dataclass_fields__"):
        return type(a) is type(b) and all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)
    return a == b


def test_the_club_queries_answer_the_same_on_sqlite_and_postgresql(tmp_path, pg_engine):
    clock = Clock(datetime(2025, 12, 30, 21, 0, tzinfo=UTC))
    service = SessionService(Store(tmp_path / "tablet.db"), clock=clock)
    play(service, hs_designed([A, B, C], A), table="Table 1")
    play(service, hs_nobody_wins([C, D, E, A]), table="Salle du fond")
    clock.now = datetime(2026, 2, 2, 20, 0, tzinfo=UTC)
    play(service, hs_designed([B, D, A], B), table="Table 1")
    play(service, hs_long([A, C, E]))
    play(service, sv_game([D, E], shift=1), table="Table 1")
    play(service, hs_designed([C, D, E], C), table="Table 1", upto=6)  # in progress
    _copy(service.store, pg_engine)
    periods = [(None, None), (datetime(2026, 1, 1, tzinfo=UTC), None), (None, datetime(2026, 1, 1, tzinfo=UTC))]
    tables = [None, club.NO_TABLE, "Table 1", "Salle du fond", "Nowhere"]
    with service.store.read() as lite, Session(pg_engine) as pg:
        assert club.table_names(lite) == club.table_names(pg) == (["Salle du fond", "Table 1"], True)
        checked = 0
        for period in periods:
            for table in tables:
                games = club.league_games(lite, period, table)
                assert games == club.league_games(pg, period, table)
                for game in ("high-society", "stupide-vautour"):
                    for offset, limit in ((0, 50), (1, 2)):
                        ours = club.league(lite, game, period, table, offset, limit)
                        assert _same(ours, club.league(pg, game, period, table, offset, limit)), (period, table)
                        checked += len(ours.rows)
                if table is None:
                    continue
                for by_month in (False, True):
                    assert _same(club.player_figures(lite, table, period, by_month=by_month),
                                 club.player_figures(pg, table, period, by_month=by_month))
                figures = club.game_figures(lite, table, period)
                assert _same(figures, club.game_figures(pg, table, period))
                for game, *_rest in figures:
                    top = _rest[3]
                    if top is not None:
                        assert club.record_holders(lite, table, game, top, period) == \
                            club.record_holders(pg, table, game, top, period)
                ids = {name: pid for pid, name in lite.execute(select(Player.__table__.c.id, Player.__table__.c.name))}
                assert _same(club.head_to_head(lite, table, ids[A], ids[C], period),
                             club.head_to_head(pg, table, ids[A], ids[C], period))
        assert checked > 20  # the comparisons were about real lines
