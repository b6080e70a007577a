"""A club: its players, its games played at a named table, and its database (SQLite and PostgreSQL)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from companion.service import SessionService
from companion.store import Store

A, B, C, D, E = "Anne", "Bruno", "Chloé", "David", "Émile"


def play(service: SessionService, record: dict, table: str | None = None, upto: int | None = None) -> int:
    """Start the record's game at ``table`` and enter its actions (the first ``upto``)."""
    state = service.start(record["game"], record["players"], first_player=record.get("first_player"), table=table)
    for action in record["actions"][:upto]:
        service.submit(state.session_id, action)
    return state.session_id


@dataclass
class Club:
    """The club's database: ``arg`` is what ``--to`` names, ``store()`` opens it, ``exists()`` says
    whether anything was created (on PostgreSQL: whether its schema has tables). ``path``: the
    SQLite file, None on PostgreSQL."""

    arg: str
    path: Path | None

    def store(self) -> Store:
        return Store(self.path if self.path is not None else self.arg)

    def exists(self) -> bool:
        if self.path is not None:
            return self.path.exists()
        engine = create_engine(self.arg)
        try:
            with engine.connect() as conn:
                return bool(inspect(conn).get_table_names())
        finally:
            engine.dispose()


def club_at(request, tmp_path, kind: str, pg_fixture: str) -> Club:
    if kind == "postgresql":
        return Club(request.getfixturevalue(pg_fixture), None)
    path = tmp_path / "club" / "club.db"
    path.parent.mkdir()
    return Club(str(path) if kind == "sqlite" else f"sqlite:///{path}", path)


@pytest.fixture(params=["sqlite", "postgresql"])
def club(request, tmp_path):
    """The club's database, empty at the newest schema on PostgreSQL (the session's server)."""
    return club_at(request, tmp_path, request.param, "pg_url")
