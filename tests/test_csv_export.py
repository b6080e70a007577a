"""The CSV export (``companion export --format csv`` and the history's CSV download, both
``Exports.csv_text``) against CSV injection: a text cell a spreadsheet would run as a formula (it
begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with a leading
apostrophe, so the spreadsheet shows it as text; numbers (a negative score) stay numbers."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

import pytest

from companion.cli import main
from companion.service import SessionService
from companion.service.exports import csv_cell
from companion.store import Store
from tests.support.clock import Clock
from tests.support.games import sv_game

UTC = timezone.utc
FORMULAS = ['=HYPERLINK("http://x","y")', "+1+1", "@SUM(1)", "-2+3", "=cmd|' /C calc'!A0"]
TABLE = "=1+2"
PLAYER, SCORE = 4, 5  # the CSV's columns (score, then place, winner, out, duration)


@pytest.fixture
def service(tmp_path):
    store = Store(tmp_path / "companion.db")
    yield SessionService(store, clock=Clock(datetime(2026, 3, 1, 20, 0, tzinfo=UTC)))
    store.close()


@pytest.fixture
def finished(service):
    """A finished Stupide Vautour game of five players named like formulas, at a table named like
    one, started and played through the service; and one of ordinary names at no table."""
    games = []
    for names, table in ((FORMULAS, TABLE), (["Anne", "Bruno"], None)):
        sid = service.start("stupide-vautour", names, table=table).session_id
        for action in sv_game(names, shift=1)["actions"]:
            service.submit(sid, action)
        summary = service.history.summary(sid)
        assert summary.status == "finished"
        games.append(summary)
    return games


def check(text: str, games) -> None:
    """The CSV read as a spreadsheet library reads it: every formula name and table name is text
    (the apostrophe before it), ordinary names unchanged, every score the number it was."""
    rows = list(csv.reader(io.StringIO(text)))[1:]
    seats = [(s, seat) for s in games for seat in s.seats]
    assert len(rows) == len(seats)
    for row, (game, seat) in zip(rows, seats):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or cell.lstrip("-").isdigit(), row
        if seat.name in FORMULAS:
            assert row[PLAYER] == "'" + seat.name
            assert row[2] == "'" + TABLE
        else:
            assert row[PLAYER] == seat.name and row[2] == ""
        assert int(row[SCORE]) == seat.score  # a number, not "'-6"
    lines = text.splitlines()[1:]  # one line a row: no cell here holds a line break
    negative = [(line, seat) for line, (_, seat) in zip(lines, seats) if seat.score is not None and seat.score < 0]
    assert negative  # the game has a negative score to keep
    for line, seat in negative:  # the raw field: bare digits after a minus, no apostrophe, no quotes
        assert line.rsplit(",", 5)[1] == str(seat.score), line
    assert [(line.rsplit(",", 5)[1], seat.name) for line, seat in negative] == [("-6", FORMULAS[0]), ("-10", "Anne")]

def test_formula_names_come_back_as_text_from_the_history_download(service, finished):
    check(service.exports.csv_text(lang="en", tz=UTC), finished)


def test_the_export_command_writes_formula_names_as_text(service, finished, tmp_path, capsys):
    db = str(tmp_path / "companion.db")
    assert main(["--db", db, "export", "--format", "csv", "--lang", "en"]) == 0
    printed = capsys.readouterr().out
    assert printed == service.exports.csv_text(lang="en")
    check(printed, finished)
    out = tmp_path / "games.csv"
    assert main(["--db", db, "export", "--format", "csv", "-o", str(out), "--lang", "en"]) == 0
    with out.open(newline="", encoding="utf-8") as f:
        assert list(csv.reader(f)) == list(csv.reader(io.StringIO(printed)))
    assert "'=HYPERLINK" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@A1", "\t=1", "\r=1", "-", "=", "'"])
def test_a_text_cell_a_spreadsheet_would_run_gets_an_apostrophe(text):
    assert csv_cell(text) == ("'" + text if text[0] in "=+-@\t\r" else text)


@pytest.mark.parametrize("value", [-10, 0, 7, 2.5, -0.5, None, "", "Anne", "2026-03-01 20:00", "a=b"])
def test_numbers_and_harmless_text_are_written_as_they_are(value):
    assert csv_cell(value) == value
    assert type(csv_cell(value)) is type(value)
