"""The connection to the store's database: SQLite (embedded, the default) or PostgreSQL (a club's shared server)
through SQLModel, schema by Alembic — the same tables and the same migrations for both.

SQLite: every connection runs with WAL, foreign keys ON, ``synchronous=FULL`` (a commit that
returned is on disk: a power cut cannot lose an acknowledged entry) and a busy timeout.
Transactions are explicit: :meth:`Store.read` for reading, :meth:`Store.write` for one ``BEGIN
IMMEDIATE`` transaction that commits when the block ends and rolls back if it raises.

PostgreSQL (``Store("postgresql+psycopg://user@host/club")``): several app processes on several
machines write at once, so the database's own means keep them apart, at READ COMMITTED (the
server's default), with the connection's time zone set to UTC:

- a change to a game first locks that game's ``sessions`` row (``SELECT … FOR UPDATE``, see
  :meth:`Store.log_position`), then reads its log position in a new statement (a new snapshot,
  taken after the lock was granted): two devices on one game take turns, and the second one sees
  the first one's entry and is refused (the service's GameChanged). Two tables playing different
  games lock different rows and never wait for each other. The unique constraint
  ``uq_actions_session_seq`` stays the last guard: an append that lost a race anyway fails on it,
  and :func:`is_seq_race` tells the service so;
- the monthly figures (``game_months``, ``player_months``) are shared by every game of a month:
  see :meth:`Store.refresh_months` for how two finishes in the same month keep both counts.

The fixed statements of the hot path run on the driver's cursor on both (sqlite3, psycopg);
:func:`companion.store.summaries.statements` holds each dialect's text (the month of a time and
the seconds between two times differ; everything else is the same SQL)."""

from __future__ import annotations

import re
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, DateTime, create_engine, event, inspect, text
from sqlalchemy.engine import Engine as SAEngine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlmodel import Session

from companion.paths import absolute, hide_passwords, is_url, shown_db
from models.i18n import Msg

BUSY_TIMEOUT_MS = 10_000
NAME_LOCKS = 0x7AB2  # PostgreSQL: the first key of the advisory locks on players' names (Store.lock_names)
MIGRATION_LOCK = 0x7AB1E  # PostgreSQL advisory lock key: one migrating process at a time (Store.upgrade)
SQLITE_MAGIC = b"SQLite format 3\x00"
CONNECT_TIMEOUT_S = 3  # an unreachable server refuses an entry after this long, not the system's minutes
# libpq's settings for a server's connections (see _server_args); ignored on a Unix socket
SERVER_TIMEOUTS = {"connect_timeout": CONNECT_TIMEOUT_S, "keepalives": 1, "keepalives_idle": 10,
                   "keepalives_interval": 3, "keepalives_count": 3, "tcp_user_timeout": 10_000}


class CommitUnknown(Exception):
    """The connection to the club's server was lost during a commit (:meth:`Store.write_direct`):
    the server may have committed the transaction or not, and only reading it again tells.
    ``error`` is the driver's."""

    def __init__(self, error: BaseException):
        self.error = error
        super().__init__(str(error))


class StoreUnusable(Exception):
    """The database file cannot be used by this version (not SQLite, damaged, a directory, written
    by a newer version…). ``msg`` says why in one sentence; the file was not changed."""

    def __init__(self, msg: Msg, offline: bool = False):
        self.msg = msg
        self.offline = offline  # a server that cannot be reached now: it may answer later
        super().__init__(msg.render("en"))


def migrations_location() -> str:
    """The Alembic script directory inside the installed package."""
    return str(resources.files("companion").joinpath("migrations"))


def alembic_config(connection: Any | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", migrations_location())
    if connection is not None:
        config.attributes["connection"] = connection
    return config


class Database:
    """One database: a SQLite file (``Store(path)``, or a ``sqlite:///path`` URL) or a PostgreSQL
    database (``Store("postgresql+psycopg://…")``), its schema and its transactions (the base of
    :class:`companion.store.Store`). Thread-safe as SQLAlchemy's pool is: one connection per use.
    ``path`` is the SQLite file (None on a server), ``dialect`` the database's kind (``sqlite`` or
    ``postgresql``), ``where`` what messages call it (a URL without its password)."""

    def __init__(self, path: str | Path, *, upgrade: bool = True):
        url, path = _target(path)
        self.path: Path | None = None
        self._tap: Any = None  # SQLite: the connection the taps write on (see _sqlite_direct)
        self._tap_lock = threading.Lock()
        self._last_stamp: tuple[datetime | None, Any] = (None, None)
        if url is None:
            self.path = absolute(path)
            self.where = str(self.path)
            check_database_file(self.path)  # before anything (journal mode, migrations) writes to it
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.engine: SAEngine = create_engine(
                URL.create("sqlite", database=str(self.path)),
                connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
            )
            event.listen(self.engine, "connect", _on_connect)
            event.listen(self.engine, "begin", _on_begin)
            self._writer: SAEngine = self.engine.execution_options(sqlite_begin="IMMEDIATE")
            self._time_in = DateTime().dialect_impl(self.engine.dialect).bind_processor(self.engine.dialect)
            self._q: Callable[[str], str] = _same
        else:
            self.where = shown_db(url.render_as_string(hide_password=False))
            # every time the server shows or compares is UTC, as the app's are
            self.engine = create_engine(url, connect_args=_server_args(url), pool_pre_ping=True)
            self._writer = self.engine
            self._time_in = None  # psycopg sends an aware datetime as it is
            self._q = _pyformat
            self._check_server()
        self.dialect: str = self.engine.dialect.name
        if upgrade:
            self.upgrade()

    def _check_server(self) -> None:
        """Like :func:`check_database_file` for a server's database, without writing anything: it
        answers, it is not another program's, and its schema is not from a newer version."""
        try:
            with self.engine.connect() as conn:
                tables = set(inspect(conn).get_table_names())
                revision = MigrationContext.configure(conn).get_current_revision()
        except SQLAlchemyError as err:
            raise StoreUnusable(Msg("store.unusable", {"path": self.where, "detail": _first_line(err)}),
                                offline=is_disconnect(err)) from None
        where = {"path": self.where}
        if tables and "alembic_version" not in tables:
            raise StoreUnusable(Msg("store.foreign", where))
        if revision is not None and revision not in known_revisions():
            raise StoreUnusable(Msg("store.newer", {**where, "revision": revision}))

    # -- schema -------------------------------------------------------------------------------

    def upgrade(self, revision: str = "head") -> None:
        """Bring the schema up to ``revision`` (an older database is upgraded on start). On a
        server, several tablets may start at once on a new database: the migrations run in one
        transaction (PostgreSQL's DDL is transactional) that first takes a transaction-level
        advisory lock, so the second tablet waits, then finds the schema at its revision and
        does nothing (it reads the revision after the lock, in a new snapshot)."""
        try:
            with self.engine.connect() as conn:
                if self.path is None:
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                command.upgrade(alembic_config(conn), revision)
                conn.commit()
        except SQLAlchemyError as err:
            raise StoreUnusable(Msg("store.unusable", {"path": self.where, "detail": _first_line(err)})) from None

    def reachable(self) -> bool:
        """Whether the database answers now (a server: ``SELECT 1`` on a pooled connection, checked
        first by the pool's pre-ping; a new connection waits at most ``CONNECT_TIMEOUT_S``). A
        SQLite file is on this device: always True."""
        if self.path is None:
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("SELECT 1")
            except (SQLAlchemyError, OSError):
                return False
        return True

    def revision(self) -> str | None:
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def close(self) -> None:
        with self._tap_lock:
            self._drop_tap()
        self.engine.dispose()

    # -- transactions -------------------------------------------------------------------------

    @contextmanager
    def read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as db:
            yield db

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction (SQLite: BEGIN IMMEDIATE, no other writer can slip in between a
        read and the write that depends on it; PostgreSQL: READ COMMITTED, the game's row locked
        by the change itself, see :meth:`log_position`). Commits at the end of the block."""
        with Session(self._writer, expire_on_commit=False) as db:
            with db.begin():
                yield db

    @contextmanager
    def write_direct(self) -> Iterator[Tx]:
        """One write transaction like :meth:`write`, on a pooled connection of the driver with no
        ORM session around it (a tap's hot path: the session's begin, commit and close cost about
        as much as the statements). Only the store methods that run on the driver's cursor take
        its :class:`Tx`: the log position, append, touch, entries_added, status, results and
        summaries. Commits at the end of the block (the commit has returned: the entry is on disk)
        and rolls back if the block or the commit raises."""
        if self.path is not None:
            with self._tap_lock:
                yield from self._sqlite_direct()
            return
        fairy = self.engine.raw_connection()
        try:
            driver = fairy.driver_connection
            assert driver is not None
            try:  # psycopg: a transaction begins with the first statement
                yield Tx(driver)
            except BaseException:
                _roll_back(fairy)
                raise
            try:
                self._commit_direct(driver)
            except Exception as err:
                if is_disconnect(err):  # the server may have committed before the connection went
                    fairy.invalidate()
                    raise CommitUnknown(err) from err
                _roll_back(fairy)
                raise
        finally:
            fairy.close()

    @staticmethod
    def _commit_direct(driver: Any) -> None:
        """The commit of :meth:`write_direct` on a server (a seam of its own: the tests lose the
        connection right after the server committed)."""
        driver.commit()

    def _sqlite_direct(self) -> Iterator[Tx]:
        """:meth:`write_direct` on SQLite: one connection held for the taps (under ``_tap_lock``),
        not checked out of the pool and handed back (with the pool's reset) on every tap: BEGIN
        IMMEDIATE serializes the writers of a file anyway. A connection that failed is closed and
        the next tap opens another."""
        if self._tap is None:
            self._tap = self.engine.raw_connection()  # the pool's connect hook has set the pragmas
        driver = self._tap.driver_connection
        try:
            driver.execute(_BEGIN["IMMEDIATE"])
            try:
                yield Tx(driver)
                driver.execute("COMMIT")
            except BaseException:
                if driver.in_transaction:
                    driver.execute("ROLLBACK")
                raise
        except sqlite3.Error:
            self._drop_tap()
            raise

    def _drop_tap(self) -> None:
        tap, self._tap = self._tap, None
        if tap is not None:
            try:
                tap.invalidate()
            except Exception:  # closing a connection that already failed: nothing left to do
                pass

    def _stamp(self, moment: datetime) -> Any:
        """A time as SQLAlchemy's DateTime column writes it (its own bind processor), for the
        statements run on the driver's cursor."""
        if self._time_in is None:
            return moment
        last = self._last_stamp  # a tap stamps one time two or three times: convert it once
        if last[0] is moment:
            return last[1]
        # SQLite's DateTime text ("YYYY-MM-DD HH:MM:SS.ffffff", the fields as they are, no offset)
        # is what isoformat writes for the naive time, at a fifth of the bind processor's cost
        stamp = moment.replace(tzinfo=None).isoformat(" ", "microseconds")
        self._last_stamp = (moment, stamp)
        return stamp

    def _time(self, moment: datetime | None) -> Any:
        return None if moment is None else self._stamp(moment)

    def table_counts(self) -> dict[str, int]:
        """Rows per table: what the import tests compare before and after."""
        with self.read() as db:
            return {name: db.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar_one()
                    for name in ("players", "sessions", "seats", "actions", "results", "game_summaries")}


def _same(sql: str) -> str:
    return sql


_PARAM = re.compile(r"\?|(?<!:):(\w+)")


@lru_cache(maxsize=512)
def _pyformat(sql: str) -> str:
    """A statement written for sqlite3 (``?`` and ``:name``) in psycopg's style (``%s`` and
    ``%(name)s``). The store's statements hold no ``%``, no ``?`` and no ``:`` of their own."""
    return _PARAM.sub(lambda m: "%s" if m.group(0) == "?" else f"%({m.group(1)})s", sql)


def known_revisions() -> set[str]:
    """Every migration revision this version of the app ships."""
    return {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}


def check_database_file(path: Path) -> None:
    """Refuse, without changing a byte of it, a file this version cannot use as its database: a
    directory, a file that is not SQLite, a damaged or truncated one, or one whose schema was
    written by a newer version (an Alembic revision this version does not know). A missing or
    empty file is fine: it becomes a new database."""
    where = {"path": str(path)}
    if path.is_dir():
        raise StoreUnusable(Msg("store.directory", where))
    if not path.exists():
        return
    if not path.is_file():
        raise StoreUnusable(Msg("store.not_a_file", where))
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as err:
        raise StoreUnusable(Msg("store.unreadable", {**where, "detail": err.strerror or str(err)})) from None
    if size == 0:
        return
    if not header.startswith(SQLITE_MAGIC):
        raise StoreUnusable(Msg("store.not_sqlite", where))
    if len(header) < 100:
        raise StoreUnusable(Msg("store.truncated", where))
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The page count in the header is valid when its "version valid for" matches the change counter.
    if header[92:96] == header[24:28] and (size < page_size * pages or size % page_size):
        raise StoreUnusable(Msg("store.truncated", where))
    try:
        # mode=rw: never creates the file; nothing is written by reading the schema and the revision
        conn = sqlite3.connect(f"{path.as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as err:
        raise StoreUnusable(Msg("store.unusable", {**where, "detail": str(err)})) from None
    try:
        tables, revisions = sqlite_schema(conn)
        if tables and not sqlite_intact(conn):
            raise StoreUnusable(Msg("store.damaged", where))
    except sqlite3.DatabaseError as err:
        if "not a database" in str(err):
            raise StoreUnusable(Msg("store.not_sqlite", where)) from None
        raise StoreUnusable(Msg("store.damaged", where)) from None
    finally:
        conn.close()
    if tables and "alembic_version" not in tables:  # another program's SQLite database
        raise StoreUnusable(Msg("store.foreign", where))
    unknown = [r for r in revisions if r not in known_revisions()]
    if unknown:
        raise StoreUnusable(Msg("store.newer", {**where, "revision": ", ".join(unknown)}))


def sqlite_schema(conn: sqlite3.Connection) -> tuple[set[str], list[str]]:
    """(the tables of a SQLite database, the Alembic revisions it is at: none without a version table)."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return tables, [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")] \
        if "alembic_version" in tables else []


def sqlite_intact(conn: sqlite3.Connection) -> bool:
    return conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"


class Tx:
    """A write transaction on a driver connection (:meth:`Store.write_direct`): what ``_cursor``
    needs of a store session."""

    __slots__ = ("info",)

    def __init__(self, driver: sqlite3.Connection):
        self.info = {"driver": driver}


def _target(value: str | Path) -> tuple[URL | None, str | Path]:
    """(the URL of a server's database, None for a SQLite file; the file's path): a ``sqlite:``
    URL stands for its file (``sqlite:///games.db``, ``sqlite:////abs/games.db``)."""
    if not isinstance(value, str) or not is_url(value):
        return None, value
    try:
        url = make_url(value.strip())
    except ArgumentError as err:
        raise StoreUnusable(Msg("store.unusable", {"path": shown_db(value),
                                                   "detail": hide_passwords(str(err), value)})) from None
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            raise StoreUnusable(Msg("store.unusable", {"path": value, "detail": "no file"}))
        return None, url.database
    if url.get_backend_name() != "postgresql":
        raise StoreUnusable(Msg("store.kind", {"path": shown_db(url.render_as_string(hide_password=False)),
                                               "kind": url.get_backend_name()}))
    if url.drivername == "postgresql":  # the driver the app ships with, not psycopg2's default
        url = url.set(drivername="postgresql+psycopg")
    return url, value


def _server_args(url: URL) -> dict[str, Any]:
    """The driver's connection settings for a server: the session's time zone, and how long an
    unreachable server may keep a tablet waiting (a new connection, unacknowledged data on an open
    one, an idle one that died). The URL's own settings (``?connect_timeout=10``) win."""
    args: dict[str, Any] = {"options": "-c timezone=UTC"}
    for name, value in SERVER_TIMEOUTS.items():
        if name not in url.query:
            args[name] = value
    return args


def is_disconnect(err: BaseException) -> bool:
    """Whether ``err`` says the server cannot be reached: no connection could be made, the one in
    use was closed or lost (the server stopped, the network went), or SQLAlchemy invalidated it.
    A refusal by a reachable server (a constraint, a deadlock, a cancelled statement…) is not one,
    nor anything about a SQLite file (on this device: there is no server to lose)."""
    orig = getattr(err, "orig", None) or err
    if isinstance(orig, sqlite3.Error):
        return False
    if getattr(err, "connection_invalidated", False):  # SQLAlchemy's own judgement (dialect.is_disconnect)
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - no server without the driver
        return False
    if not isinstance(orig, (psycopg.OperationalError, psycopg.InterfaceError)):
        return False
    state = getattr(orig, "sqlstate", None)
    # no SQLSTATE: the client's own failure (refused, closed, lost); class 08: connection exception;
    # 57P01–57P03: the server is shutting down, crashed or starting
    return state is None or state.startswith("08") or state in ("57P01", "57P02", "57P03")


def _first_line(err: BaseException) -> str:
    return str(getattr(err, "orig", None) or err).strip().splitlines()[0]


def is_seq_race(err: BaseException) -> bool:
    """Whether ``err`` is an append that lost a race for the game's next seq: the unique constraint
    ``uq_actions_session_seq`` refused it (another device's entry took that seq in between). The
    service answers it as the game having changed on another device."""
    orig = getattr(err, "orig", None) or err
    diag = getattr(orig, "diag", None)
    if diag is not None:  # psycopg
        return getattr(diag, "constraint_name", None) == "uq_actions_session_seq"
    return isinstance(orig, sqlite3.IntegrityError) and "actions.session_id, actions.seq" in str(orig)


def _driver(db: Session | Tx) -> Any:
    """The driver's connection under ``db`` (sqlite3 or psycopg), inside its transaction (looked
    up once per session: a store session is one transaction on one connection). An ORM session's
    pending objects are flushed first, as its own statements would. Both drivers' connections
    run a statement with ``execute`` (on a cursor of their own): the hot path's statements go
    there, without making and closing a cursor of ours for each."""
    if db.__class__ is Tx:
        return db.info["driver"]
    assert isinstance(db, Session)
    if db.new or db.dirty or db.deleted:
        db.flush()
    driver = db.info.get("driver")
    if driver is None:
        driver = db.info["driver"] = db.connection().connection.driver_connection
    assert driver is not None
    return driver


def _cursor(db: Session | Tx) -> Any:
    """A cursor of the driver's connection under ``db`` (see :func:`_driver`)."""
    return _driver(db).cursor()


def _roll_back(fairy: Any) -> None:
    try:
        fairy.driver_connection.rollback()
    except Exception:  # a connection that broke: the pool must not hand it out again
        fairy.invalidate()


def _run(db: Session | Tx, sql: str, params: Any) -> None:
    _driver(db).execute(sql, params)


def _stored_time(value: Any) -> datetime:
    """A DateTime column read with the driver: SQLAlchemy keeps "YYYY-MM-DD HH:MM:SS.ffffff" text
    (UTC, no offset), which reads back as the same naive datetime its own processor would give."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _on_connect(dbapi_connection: Any, _record: Any) -> None:
    # Transactions are begun explicitly (see _on_begin), not by the sqlite3 module's own guesses.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def _on_begin(conn: Any) -> None:
    mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
    # on the driver's connection: every transaction begins here, so SQLAlchemy's statement
    # machinery (a result object for a BEGIN) is a cost paid on every entry for nothing
    conn.connection.driver_connection.execute(_BEGIN[mode])


_BEGIN = {mode: f"BEGIN {mode}" for mode in ("DEFERRED", "IMMEDIATE", "EXCLUSIVE")}
