"""A throwaway PostgreSQL server, for the tests (tests/pg.py's fixtures: the store, service and
migration tests run against SQLite and against it) and for the history benchmark
(benchmarks/history.py). No pytest here: a benchmark runs without the test extras.

One server per test session: ``initdb`` in a temporary folder, started on a Unix socket in that
folder only (no TCP port: ``listen_addresses=''``), with ``fsync=off`` (a test database need not
survive a power cut: the kill -9 tests kill the client, not the server), stopped and removed at
the end. initdb refuses to run as root: as root, the server runs as the ``postgres`` system user
(Debian's package creates it) and owns the folder. The tests connect as the superuser ``companion``
(trust authentication: only this machine's users can reach the socket's folder).

Each test gets a clean database in a few milliseconds: one database migrated once, emptied
before each test (``TRUNCATE`` of every table the app writes, ids restarted; connections a former
test left open are closed first). A test that changes the schema or the revision gets a database
of its own instead (``new_database()``: a copy of the migrated template, or an empty one for the
migration tests), dropped after it. ``CREATE DATABASE`` costs about half a second on a busy
machine: for every test it would double the store tests' time.

When no server can be started (no ``initdb``, no ``postgres`` user…), ``Server.start()`` says why.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROLE = "companion"
TEMPLATE = "companion_template"
SHARED = "companion_tests"
# every table the app writes rows to (alembic_version and store_info stay as the migrations left them)
APP_TABLES = ("players", "sessions", "seats", "actions", "results", "game_summaries", "player_months", "game_months", "ratings",
              "evenings", "evening_players", "evening_tables", "evening_rounds", "evening_seats")


def find_tool(name: str) -> str | None:
    """``initdb``/``pg_ctl`` on PATH, else in Debian's versioned folder (the newest version)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return candidates[-1] if candidates else None


class Server:
    """The running server: ``url(name)`` of one of its databases, ``new_database()`` for a test."""

    def __init__(self, options: str = "") -> None:
        """``options``: more ``-c name=value`` server settings, after (so over) the usual ones."""
        self.folder: Path | None = None
        self.extra = options
        self._pg_ctl: list[str] = []
        self._start: list[str] = []
        self.halted = False
        self._numbers = itertools.count(1)
        self._shared: Any = None  # an open connection to SHARED, which empties it

    def start(self) -> str | None:
        """Start the server; None once it runs, else why it cannot."""
        initdb, pg_ctl = find_tool("initdb"), find_tool("pg_ctl")
        if initdb is None or pg_ctl is None:
            return "no PostgreSQL server here (initdb not found: Debian's postgresql package provides it)"
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return "the psycopg driver is not installed"
        as_user: list[str] = []
        self.folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None:
                return "running as root without runuser: cannot start PostgreSQL as another user"
            try:
                import pwd

                owner = pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no postgres user to run the server"
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            as_user = [runuser, "-u", "postgres", "--"]
        data = self.folder / "data"
        log = self.folder / "server.log"
        init = subprocess.run(as_user + [initdb, "-D", str(data), "-U", ROLE, "--auth=trust", "-E", "UTF8",
                                         "--no-locale", "--no-sync"],
                              capture_output=True, text=True)
        if init.returncode != 0:
            return f"initdb failed: {(init.stderr or init.stdout).strip()[-500:]}"
        options = (f"-c listen_addresses='' -k {self.folder} -c fsync=off -c synchronous_commit=off "
                   f"-c full_page_writes=off -c max_connections=200 {self.extra}")
        self._pg_ctl = as_user + [pg_ctl, "-D", str(data)]
        self._start = self._pg_ctl + ["-l", str(log), "-w", "-t", "60", "-o", options, "start"]
        started = subprocess.run(self._start, capture_output=True, text=True)
        if started.returncode != 0:
            detail = log.read_text(errors="replace")[-500:] if log.exists() else started.stderr
            return f"the PostgreSQL server did not start: {detail.strip()}"
        self._admin(f"CREATE DATABASE {TEMPLATE}")
        from companion.store import Store

        Store(self.url(TEMPLATE)).close()  # migrated once; every test database is a copy
        self._admin(f"CREATE DATABASE {SHARED} TEMPLATE {TEMPLATE}")
        return None

    def clean_database(self) -> str:
        """The shared database, emptied (see the module's docstring)."""
        import psycopg

        if self._shared is None:
            self._shared = psycopg.connect(host=str(self.folder), user=ROLE, dbname=SHARED, autocommit=True)
        self._shared.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = %s AND pid <> pg_backend_pid()", (SHARED,))
        self._shared.execute(f"TRUNCATE {', '.join(APP_TABLES)} RESTART IDENTITY")
        return self.url(SHARED)

    def halt(self, mode: str = "fast") -> None:
        """Stop the server and keep its data (``pg_ctl stop -m fast``: clients are disconnected;
        ``immediate``: killed, as by a crash), to bring it back with :meth:`resume`."""
        if self._shared is not None:
            self._shared.close()
            self._shared = None
        subprocess.run(self._pg_ctl + ["-m", mode, "-w", "stop"], capture_output=True, check=True)
        self.halted = True

    def resume(self) -> None:
        """Start the server :meth:`halt` stopped, on the same data and socket (running: nothing)."""
        if self.halted:
            subprocess.run(self._start, capture_output=True, check=True)
            self.halted = False

    def stop(self) -> None:
        if self._shared is not None:
            self._shared.close()
        if self._pg_ctl:
            subprocess.run(self._pg_ctl + ["-m", "immediate", "stop"], capture_output=True)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{ROLE}@/{database}?host={self.folder}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(host=str(self.folder), user=ROLE, dbname="postgres", autocommit=True) as conn:
            conn.execute(sql)

    def new_database(self, migrated: bool = True) -> str:
        """A new database: at the newest schema (a copy of the template), or empty."""
        name = f"test_{next(self._numbers)}"
        self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE if migrated else 'template0'}")
        return self.url(name)

    def drop(self, url: str) -> None:
        name = url.split("?", 1)[0].rsplit("/", 1)[1]
        self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
