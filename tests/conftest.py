"""Shared fixtures. First of all, the tests' own game is registered: ``COMPANION_GAMES`` names
``tests.high_card`` (models.outside_games) before anything imports ``models.games``, so every list of
games the tests read from the registry has it, and every subprocess a test starts inherits it."""

import os

os.environ["COMPANION_GAMES"] = "tests.high_card"

import json  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"  # the project's own example records (examples/README.md says what each shows)


@pytest.fixture
def make_record():
    """Build a table-record/1 dict: make_record("high-society", ["A", "B", "C"], actions=[...])."""

    def build(game, players, actions=(), **extra):
        data = {"format": "table-record/1", "game": game, "players": list(players), "actions": list(actions)}
        data.update(extra)
        return data

    return build


def as_text(data) -> str:
    return json.dumps(data, ensure_ascii=False)


def example_table(folder: Path = EXAMPLES) -> dict[str, dict[str, str]]:
    """examples/README.md's table (or another folder's, a game's registered from outside the app):
    file name → {exit, status, applied, winners} as written there."""
    rows: dict[str, dict[str, str]] = {}
    head: list[str] = []
    for line in (folder / "README.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if not head:
            head = cells
        elif set("".join(cells)) <= set("- "):
            continue
        else:
            row = dict(zip(head, cells))
            rows[row["file"]] = row
    return rows


# PostgreSQL: a throwaway server per test session (tests/pg.py)
# fixtures several test modules ask for (tests/support/)
from tests.netns import net  # noqa: E402,F401  (the LAN tests' network namespaces, one per module)
from tests.pg import pg_empty_url, pg_own_url, pg_server, pg_url  # noqa: E402,F401
from tests.support.club import club  # noqa: E402,F401  (a club's database, SQLite and PostgreSQL)
from tests.support.server import served  # noqa: E402,F401  (serve() with ft.run and the web server recorded)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """Where a store test's database lives, once per kind: a SQLite file in the test's folder (not
    created yet), or the URL of an empty PostgreSQL database at the newest schema. ``Store(database)``
    opens either."""
    if request.param == "sqlite":
        return tmp_path / "companion.db"
    return request.getfixturevalue("pg_url")


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """Like ``database``, but a PostgreSQL database without any schema (the migration tests)."""
    if request.param == "sqlite":
        return tmp_path / "companion.db"
    return request.getfixturevalue("pg_empty_url")


PG_FIXTURES = {"pg_server", "pg_url", "pg_empty_url", "pg_own_url"}


def pytest_collection_modifyitems(items):
    """A test that runs against PostgreSQL (it asks for a server, or is the ``postgresql`` case of
    ``database``) is marked ``postgresql`` and ``slow``, and a test in ``tests/e2e/`` ``browser`` and
    ``slow``: a quick local loop (``-m "not slow"``) skips them, the README's test command runs them."""
    for item in items:
        if item.nodeid.startswith("tests/e2e/") or "/tests/e2e/" in str(item.path):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        params = getattr(getattr(item, "callspec", None), "params", {})
        if PG_FIXTURES & set(getattr(item, "fixturenames", ())) or "postgresql" in params.values():
            item.add_marker(pytest.mark.postgresql)
            item.add_marker(pytest.mark.slow)
