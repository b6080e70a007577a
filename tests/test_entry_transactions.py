"""What one entry costs the database, for the device that made it: the table's own submit (a tap's
path: the service, then the screen drawn again) runs one write transaction — the log position, the
row, the summary — and no read after it: the screen is drawn from the state the submit returned.
Every game; every SQL statement the SQLite driver runs is recorded (its trace callback)."""

from __future__ import annotations

import sqlite3
import sqlite3.dbapi2
from typing import Any

import pytest

import companion.app.screens.table as table_screen
from companion.app.games import TableContext
from tests.support.table_entry import GAMES, entries, open_table, page_context_restored  # noqa: F401


@pytest.fixture
def statements(monkeypatch) -> list[str]:
    """Every statement of every SQLite connection opened from now on, as the driver runs it."""
    seen: list[str] = []
    real = sqlite3.dbapi2.connect  # what SQLAlchemy's pysqlite dialect calls

    def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = real(*args, **kwargs)
        connection.set_trace_callback(seen.append)
        return connection

    monkeypatch.setattr(sqlite3.dbapi2, "connect", traced)
    return seen


@pytest.fixture
def contexts(monkeypatch) -> list[TableContext]:
    """The contexts the table hands its game's screen, latest last: their ``submit`` is the one
    the screen's confirm calls."""
    made: list[TableContext] = []

    class Recorded(TableContext):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(table_screen, "TableContext", Recorded)
    return made


def transactions(traced: list[str]) -> list[list[str]]:
    """The statements grouped by transaction (a statement outside BEGIN … COMMIT is one of its own)."""
    groups: list[list[str]] = []
    open_: list[str] | None = None
    for sql in traced:
        verb = sql.split(None, 1)[0].upper()
        if verb == "BEGIN":
            open_ = [sql]
            groups.append(open_)
        elif open_ is not None:
            open_.append(sql)
            if verb in ("COMMIT", "ROLLBACK", "END"):
                open_ = None
        else:
            groups.append([sql])
    return groups


@pytest.mark.parametrize("game", GAMES)
def test_an_entry_is_one_write_transaction_and_no_read_after_it(tmp_path, statements, contexts, game):
    players, start, actions = entries(game)
    service, app, sid, _session = open_table(tmp_path, game, players, **start)
    contexts[-1].submit(actions[0])  # the first entry opens the connection the entries write on
    statements.clear()
    contexts[-1].submit(actions[1])
    groups = transactions(list(statements))
    assert len(service.open(sid).log) == 2  # accepted (read after the measure)
    writes = [g for g in groups if g[0].upper().startswith("BEGIN IMMEDIATE")]
    reads = [g for g in groups if g not in writes]
    assert len(writes) == 1 and writes[0][-1].upper() == "COMMIT", groups
    verbs = [sql.split(None, 1)[0].upper() for sql in writes[0][1:-1]]
    # the log position, the entry's row, the session's and the summary's counts
    assert verbs == ["SELECT", "INSERT", "UPDATE", "UPDATE"], writes[0]
    assert not reads, reads  # nothing read before the write (the cache) nor after it (the state returned)


def test_a_refused_entry_writes_nothing_and_reads_nothing_after(tmp_path, statements, contexts):
    """Refused: the same one transaction, rolled back (the engine judged the entry inside it, on
    the game as the database has it), and the table draws the refusal without reading the game."""
    service, app, sid, _session = open_table(tmp_path, "stupide-vautour", ["Anne", "Bruno"])
    contexts[-1].submit({"type": "reveal", "card": 3})
    statements.clear()
    contexts[-1].submit({"type": "reveal", "card": 4})  # the cards are to be played first
    groups = transactions(list(statements))
    assert len(groups) == 1 and groups[0][0].upper().startswith("BEGIN IMMEDIATE"), groups
    assert groups[0][-1].upper() == "ROLLBACK" and [s.split(None, 1)[0].upper() for s in groups[0][1:-1]] == [
        "SELECT"], groups
    from companion.app import probe

    assert probe.has(app.root, "refusal") and len(service.open(sid).log) == 1
