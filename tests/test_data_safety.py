"""Data safety on the command line and in the store: an export never overwrites the
database, a folder target leaves nothing behind, and a database this version cannot use (a newer
schema, not SQLite, truncated, a folder) gets one sentence, a non-zero exit and stays untouched.
Import reads only regular files, with a size limit."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from companion import cli
from companion.service import SessionService
from companion.service.transfer import ImportUnreadable, read_import
from companion.store import Store, StoreUnusable
from tests.conftest import EXAMPLES
from tests.support.games import hs_designed

PLAYERS = ["Anne", "Bruno", "Chloé"]


def _db_with_a_game(path: Path) -> Path:
    store = Store(path)
    try:
        SessionService(store).transfer.import_records(json.dumps(hs_designed(PLAYERS, "Anne")))
    finally:
        store.close()
    return path


def _fingerprint(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def _one_sentence(err: str) -> None:
    assert err.strip() and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("how", ["same path", "relative", "symlink", "wal", "shm", "dotted"])
def test_export_refuses_to_write_over_the_database(tmp_path, monkeypatch, capsys, how):
    db = _db_with_a_game(tmp_path / "c.db")
    (tmp_path / "c.db-wal").touch()
    (tmp_path / "c.db-shm").touch()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.json").symlink_to(db)
    (tmp_path / "sub").mkdir()
    target = {"same path": str(db), "relative": "c.db", "symlink": "link.json", "wal": "c.db-wal",
              "shm": str(tmp_path / "c.db-shm"), "dotted": "sub/../c.db"}[how]
    before = {p.name: _fingerprint(p) for p in tmp_path.iterdir() if p.is_file() and not p.is_symlink()}
    assert cli.main(["--db", str(db), "export", "-o", target]) == 2
    out = capsys.readouterr()
    _one_sentence(out.err)
    assert "base de données" in out.err and out.out == ""
    after = {p.name: _fingerprint(p) for p in tmp_path.iterdir() if p.is_file() and not p.is_symlink()}
    assert after == before
    assert not list(tmp_path.rglob("*.partial"))


def test_export_refuses_the_database_reached_through_a_symlinked_db_path(tmp_path, capsys):
    real = _db_with_a_game(tmp_path / "real.db")
    alias = tmp_path / "alias.db"
    alias.symlink_to(real)
    before = _fingerprint(real)
    assert cli.main(["--db", str(alias), "export", "-o", str(real), "--lang", "en"]) == 2
    assert "database itself" in capsys.readouterr().err
    assert _fingerprint(real) == before


def test_export_to_a_folder_is_refused_and_leaves_no_partial_file(tmp_path, capsys):
    db = _db_with_a_game(tmp_path / "c.db")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    assert cli.main(["--db", str(db), "export", "-o", str(out_dir), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    _one_sentence(err)
    assert "folder" in err
    assert list(out_dir.iterdir()) == []
    assert not list(tmp_path.rglob("*.partial"))


def test_export_that_cannot_be_written_cleans_up_its_partial_file(tmp_path, capsys, monkeypatch):
    db = _db_with_a_game(tmp_path / "c.db")
    target = tmp_path / "games.json"

    def refuse(self, other):  # the rename fails after the partial file was written
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "replace", refuse)
    assert cli.main(["--db", str(db), "export", "-o", str(target)]) == 2
    _one_sentence(capsys.readouterr().err)
    assert not target.exists() and not list(tmp_path.rglob("*.partial"))


def test_export_to_a_new_file_still_works(tmp_path, capsys):
    db = _db_with_a_game(tmp_path / "c.db")
    assert cli.main(["--db", str(db), "export", "-o", str(tmp_path / "games.json")]) == 0
    assert json.loads((tmp_path / "games.json").read_text())[0]["players"] == PLAYERS


def _newer(path: Path) -> Path:
    _db_with_a_game(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


def _not_sqlite(path: Path) -> Path:
    path.write_text('{"format": "table-record/1"}\n' * 50)
    return path


def _truncated(path: Path) -> Path:
    _db_with_a_game(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def _garbled(path: Path) -> Path:
    _db_with_a_game(path)
    data = bytearray(path.read_bytes())
    data[200:4096] = b"\xff" * (4096 - 200)  # the first page's schema is gone, the header stays
    path.write_bytes(bytes(data))
    return path


def _foreign(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Anne')")
    conn.commit()
    conn.close()
    return path


BAD_DATABASES = {"another program's": (_foreign, "another program"), "newer": (_newer, "newer version"), "not sqlite": (_not_sqlite, "not a database"),
                 "truncated": (_truncated, "truncated"), "garbled": (_garbled, "damaged")}


@pytest.mark.parametrize("case", list(BAD_DATABASES))
@pytest.mark.parametrize("command", [["export"], ["import", "IMPORT"]])
def test_an_unusable_database_gets_one_sentence_and_stays_untouched(tmp_path, capsys, case, command):
    make, words = BAD_DATABASES[case]
    db = make(tmp_path / "c.db")
    importable = tmp_path / "one.json"
    importable.write_text(json.dumps(hs_designed(PLAYERS, "Anne")))
    before = _fingerprint(db)
    siblings = sorted(p.name for p in tmp_path.iterdir())
    argv = ["--db", str(db), *[str(importable) if a == "IMPORT" else a for a in command], "--lang", "en"]
    assert cli.main(argv) == 2
    out = capsys.readouterr()
    _one_sentence(out.err)
    assert words in out.err and str(db) in out.err
    assert _fingerprint(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == siblings  # no -wal/-shm/-journal left either


def test_a_database_path_that_is_a_folder(tmp_path, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    assert cli.main(["--db", str(folder), "export", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    _one_sentence(err)
    assert "is a folder" in err
    assert list(folder.iterdir()) == []


def test_the_store_refuses_a_newer_schema_before_writing_anything(tmp_path):
    db = _newer(tmp_path / "c.db")
    before = _fingerprint(db)
    with pytest.raises(StoreUnusable) as caught:
        Store(db)
    assert caught.value.msg.key == "store.newer"
    assert "9999_from_the_future" in caught.value.msg.render("fr")
    assert _fingerprint(db) == before


def test_an_existing_good_database_and_an_empty_file_still_open(tmp_path):
    db = _db_with_a_game(tmp_path / "c.db")
    Store(db).close()
    empty = tmp_path / "empty.db"
    empty.touch()
    store = Store(empty)
    try:
        assert store.revision() is not None
    finally:
        store.close()


# -- import: only regular files, with a size limit ------------------------------------------------


def _special_file(tmp_path: Path, special: str) -> str:
    """A path that is no regular file: /dev/zero (endless), a folder, or a FIFO with no writer
    (a plain open() of it would wait for ever)."""
    if special == "folder":
        return str(tmp_path)
    if special == "fifo":
        os.mkfifo(tmp_path / "pipe")
        return str(tmp_path / "pipe")
    return special


@pytest.mark.parametrize("special", ["/dev/zero", "folder", "fifo"])
def test_import_refuses_special_files_without_reading_them(tmp_path, capsys, special):
    db = tmp_path / "c.db"
    path = _special_file(tmp_path, special)
    # a FIFO with no writer would block a plain open() for ever: the test must end by itself
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(cli.main(["--db", str(db), "import", path, "--lang", "en"])),
                              daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert done == [2]
    err = capsys.readouterr().err
    _one_sentence(err)
    assert "not a regular file" in err


def test_import_stops_reading_past_the_size_limit(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 5000)
    with pytest.raises(ImportUnreadable) as caught:
        read_import(str(big), limit=4096)
    assert caught.value.msg.key == "service.import.too_big"

    class Endless:
        """A stream that never ends (like standard input fed from /dev/zero)."""
        read_bytes = 0

        def read(self, n: int = -1) -> bytes:
            assert n > 0  # always a bounded read
            self.read_bytes += n
            return b"0" * n

    endless = Endless()
    with pytest.raises(ImportUnreadable):
        read_import("-", endless, limit=10_000)  # type: ignore[arg-type]
    assert endless.read_bytes <= 10_001
    assert read_import(str(big), limit=5000) == b" " * 5000


# -- replay: the same safe reading as import ------------------------------------------------------


def _replay_in_thread(argv: list[str]) -> int:
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(cli.main(argv)), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert len(done) == 1, "replay did not end by itself"
    return done[0]


@pytest.mark.parametrize("lines", [False, True])
@pytest.mark.parametrize("special", ["/dev/zero", "folder", "fifo"])
def test_replay_refuses_special_files_without_reading_them(tmp_path, capsys, special, lines):
    path = _special_file(tmp_path, special)
    argv = ["replay", *(["--lines"] if lines else []), path]
    assert _replay_in_thread(argv) == 2
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "illegal" and verdict["error"]["rule"] == "RECORD"
    assert "not a regular file" in json.dumps(verdict)


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as out:  # a hole: no disk written, zeros read
        out.truncate(size)
    return path


def test_replay_stops_reading_a_file_past_the_size_limit(tmp_path, capsys):
    from companion.files import READ_LIMIT

    big = _sparse(tmp_path / "big.json", READ_LIMIT + 1)
    assert _replay_in_thread(["replay", str(big)]) == 2
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["status"] == "illegal" and verdict["error"]["rule"] == "RECORD"
    assert f"over {READ_LIMIT // (1024 * 1024)} MB" in json.dumps(verdict)


def test_replay_lines_refuses_an_endless_line_and_keeps_the_verdicts_before_it(tmp_path, capsys):
    from companion.files import READ_LIMIT

    good = json.loads((EXAMPLES / "animalement-votre-finished.json").read_text(encoding="utf-8"))
    path = tmp_path / "season.jsonl"
    path.write_bytes(json.dumps(good).encode() + b"\n")
    with open(path, "ab") as out:
        out.truncate(path.stat().st_size + READ_LIMIT + 1)  # then one line of zeros, with no end
    assert _replay_in_thread(["replay", "--lines", str(path)]) == 2
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(out) == 2 and out[0]["status"] == "finished" and out[0]["line"] == 1
    assert out[1]["error"]["rule"] == "RECORD" and "over" in out[1]["error"]["message"]
