"""The statistics have one SQL implementation, in the store (companion/store/history.py), with an
optional club ``table`` filter: the monthly figures for whole months when no table is asked for,
the summaries and results rows for one table (the monthly figures know no tables). Both paths
give the same figures when every game was played at one table; the rows are named (fields read
by name, not 14-column positional tuples). And the migration (companion/service/migrate.py)
checks, compares and reports, while the store runs its SQL."""

from __future__ import annotations

import ast
from datetime import datetime, timezone
from pathlib import Path

from companion.service import SessionService
from companion.store import GameFigures, PairFigures, PlayerFigures, RecordHolder, Store
from tests.support.clock import Clock
from tests.support.club import A, B, C, D, play
from tests.support.games import hs_designed, hs_long, sv_game

UTC = timezone.utc
ROOT = Path(__file__).resolve().parents[1]


def test_one_table_s_figures_are_the_month_figures_when_every_game_was_played_there(tmp_path):
    clock = Clock(datetime(2025, 11, 20, 21, 0, tzinfo=UTC))
    store = Store(tmp_path / "club.db")
    service = SessionService(store, clock=clock)
    play(service, hs_designed([A, B, C], A), table="Table 1")
    clock.now = datetime(2026, 1, 5, 20, 0, tzinfo=UTC)
    play(service, hs_long([A, C, D]), table="Table 1")
    play(service, sv_game([B, D], shift=1), table="Table 1")
    clock.now = datetime(2026, 2, 9, 20, 0, tzinfo=UTC)
    play(service, hs_designed([B, C, D], B), table="Table 1")
    # whole months (the monthly path without a table) and a period cut inside months
    periods = [(None, None), (datetime(2025, 12, 1, tzinfo=UTC), datetime(2026, 3, 1, tzinfo=UTC)),
               (datetime(2025, 11, 25, tzinfo=UTC), datetime(2026, 2, 10, tzinfo=UTC))]
    with store.read() as db:
        ids = {p.name: p.id for p in store.players(db)}
        for period in periods:
            for by_month in (False, True):
                everywhere = store.history.player_figures(db, period, by_month=by_month)
                assert everywhere and all(isinstance(r, PlayerFigures) for r in everywhere)
                assert store.history.player_figures(db, period, by_month=by_month, table="Table 1") == everywhere
                assert store.history.player_figures(db, period, by_month=by_month, table="Table 2") == []
            figures = store.history.game_figures(db, period)
            assert figures and all(isinstance(r, GameFigures) for r in figures)
            assert store.history.game_figures(db, period, table="Table 1") == figures
            for row in figures:
                best, holders = store.history.record(db, row.game, row.top_max, period)
                assert holders and all(isinstance(h, RecordHolder) for h in holders)
                assert store.history.record(db, row.game, row.top_max, period, table="Table 1") == (best, holders)
            pair = store.history.head_to_head(db, ids[A], ids[C], period)
            assert all(isinstance(r, PairFigures) for r in pair)
            assert store.history.head_to_head(db, ids[A], ids[C], period, table="Table 1") == pair
        # read by name: the whole history of Anne at high-society
        anne = [r for r in store.history.player_figures(db, player_id=ids[A]) if r.game == "high-society"]
        assert len(anne) == 1 and anne[0].games == 2 and anne[0].month is None
        assert sum(anne[0].places) == anne[0].games
        by_month = store.history.player_figures(db, player_id=ids[A], by_month=True)
        assert sorted(r.month for r in by_month) == ["2025-11", "2026-01"]
    store.close()


def _runs_sql(path: Path) -> list[str]:
    """The calls in a module that run SQL (a connection's execute) or build it (SQLAlchemy's text,
    select, insert, update, delete)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("exec", "execute", "executemany") or \
                isinstance(node.func, ast.Name) and node.func.id in ("text", "select", "sa_select", "insert",
                                                                     "update", "delete"):
            found.append(f"{ast.unparse(node.func)} (line {node.lineno})")
    return found


def test_the_migration_runs_no_sql_of_its_own():
    assert _runs_sql(ROOT / "companion" / "service" / "migrate.py") == []


def test_the_club_module_has_no_second_statistics():
    club = ast.parse((ROOT / "companion" / "store" / "club.py").read_text(encoding="utf-8"))
    defined = {node.name for node in club.body if isinstance(node, ast.FunctionDef)}
    assert not defined & {"player_figures", "game_figures", "record_holders", "head_to_head"}
