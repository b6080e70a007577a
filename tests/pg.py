"""The PostgreSQL fixtures of the tests (tests/pgserver.py starts the server): the store, service
and migration tests run against SQLite and against it (the ``database`` fixture of
tests/conftest.py).

When no server can be started (no ``initdb``, no ``postgres`` user…), the PostgreSQL variants are
skipped with the reason; with the environment variable ``CI`` set they fail instead: CI must run them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.pgserver import APP_TABLES, ROLE, SHARED, TEMPLATE, Server, find_tool

__all__ = ["APP_TABLES", "ROLE", "SHARED", "TEMPLATE", "Server", "find_tool",
           "pg_server", "pg_url", "pg_own_url", "pg_empty_url", "started_server"]


@contextmanager
def started_server(*options: str) -> Iterator[Server]:
    """A throwaway server with these extra options, stopped at the end. One that cannot start
    skips the test, or fails it in CI (where PostgreSQL is installed by scripts/test)."""
    server = Server(*options)
    try:
        problem = server.start()
        if problem is not None:
            if os.environ.get("CI"):
                pytest.fail(f"PostgreSQL is required in CI: {problem}")
            pytest.skip(problem)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    with started_server() as server:
        yield server


@pytest.fixture
def pg_url(pg_server: Server) -> str:
    """An empty PostgreSQL database at the newest schema, for one test (it must leave the schema
    and the revision as they are: else use ``pg_own_url``)."""
    return pg_server.clean_database()


@pytest.fixture
def pg_own_url(pg_server: Server) -> Iterator[str]:
    """A PostgreSQL database at the newest schema that the test may change as it likes."""
    url = pg_server.new_database()
    yield url
    pg_server.drop(url)


@pytest.fixture
def pg_empty_url(pg_server: Server) -> Iterator[str]:
    """A fresh, empty PostgreSQL database (no schema yet), for one test."""
    url = pg_server.new_database(migrated=False)
    yield url
    pg_server.drop(url)
