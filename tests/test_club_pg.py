"""The club's queries (companion/store/club.py, and the store's statistics of one table) are portable:
the same games' rows, copied from a tablet's SQLite database into the test session's PostgreSQL server (tests/pg.py's ``pg_url``: an empty
database at the newest schema, made by the migrations), give the same league tables, table names
and per-table statistics on both, row for row. tests/test_club.py runs the service's club tests
on both databases too; this test compares the two answers to the same rows. Skipped where no
server can start (it fails instead when CI is set)."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from companion.service import SessionService
from companion.store import Store, club
from models.tables import GameSession, GameSummary, Player, Result, Seat
from tests.support.clock import Clock
from tests.support.club import A, B, C, D, E, play
from tests.support.games import hs_designed, hs_long, hs_nobody_wins, sv_game

UTC = timezone.utc


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


def test_the_club_queries_answer_the_same_on_sqlite_and_postgresql(tmp_path, pg_url):
    clock = Clock(datetime(2025, 12, 30, 21, 0, tzinfo=UTC))
    service = SessionService(Store(tmp_path / "tablet.db"), clock=clock)
    server = Store(pg_url)  # its engine: the app's connection settings (times in UTC)
    pg_engine = server.engine
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
                lite_store = service.store
                for by_month in (False, True):
                    assert _same(lite_store.history.player_figures(lite, period, by_month=by_month, table=table),
                                 server.history.player_figures(pg, period, by_month=by_month, table=table))
                figures = lite_store.history.game_figures(lite, period, table=table)
                assert _same(figures, server.history.game_figures(pg, period, table=table))
                for row in figures:
                    if row.top_max is not None:
                        assert lite_store.history.record_holders(lite, row.game, row.top_max, period, table=table) == \
                            server.history.record_holders(pg, row.game, row.top_max, period, table=table)
                ids = {name: pid for pid, name in lite.execute(select(Player.__table__.c.id, Player.__table__.c.name))}
                assert _same(lite_store.history.head_to_head(lite, ids[A], ids[C], period, table=table),
                             server.history.head_to_head(pg, ids[A], ids[C], period, table=table))
        assert checked > 20  # the comparisons were about real lines
    server.close()
    service.store.close()
