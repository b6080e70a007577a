"""The session store: SQLite (embedded, the default) or PostgreSQL (a club's shared server)
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
:func:`statements` holds each dialect's text (the month of a time and the seconds between two
times differ; everything else is the same SQL).

The store knows rows, not rules: the service decides what to write, the store writes it. Time
comes from the caller (the service's clock) so that the store has no hidden clock either.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import unicodedata
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterable, Iterator, Sequence

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, DateTime, bindparam, create_engine, delete, event, exists, func, inspect, text, update
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine as SAEngine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlmodel import Session, select

from companion.paths import absolute, is_url
from models.i18n import Msg
from models.names import name_key
from models.tables import (
    STATUS_FINISHED,
    STATUS_IN_PROGRESS,
    ActionRow,
    GameSession,
    GameSummary,
    Player,
    Seat,
)

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


def dumps(data: Any) -> str:
    """JSON as the store keeps it: compact, UTF-8 text, keys in the order given."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class SessionRows:
    """What opening a session reads (:meth:`Store.session_rows`): the session row's envelope
    columns, the seated players in seat order, and the active log."""

    session_id: int
    game: str
    variant: str  # JSON text
    first_player: str
    assist: bool
    setup: str | None  # JSON text
    started_at: datetime
    updated_at: datetime
    names: list[str]  # seated players, seat 0 first
    player_ids: list[int]  # their profile ids, in the same order
    seqs: list[int]  # the active entries' seq numbers, in order
    actions: list[str]  # their JSON texts
    last_seq: int  # the highest seq used, retracted rows included (0: none)


@dataclass(frozen=True)
class ResultRow:
    player_id: int
    score: float
    rank: int
    winner: bool
    eliminated: bool


@dataclass(frozen=True)
class NewGame:
    """A whole game :meth:`Store.add_games` writes (an import): its sessions row as
    :meth:`Store.session_row` makes it (not yet in any database), its seats' profile ids in seat
    order, its log's JSON texts, and its results rows when it is finished (None: not finished)."""

    row: GameSession
    player_ids: Sequence[int]
    actions: Sequence[str]
    results: Sequence[ResultRow] | None = None


class Store:
    """One database: a SQLite file (``Store(path)``, or a ``sqlite:///path`` URL) or a PostgreSQL
    database (``Store("postgresql+psycopg://…")``). Thread-safe as SQLAlchemy's pool is: one
    connection per use. ``path`` is the SQLite file (None on a server), ``dialect`` the
    database's kind (``sqlite`` or ``postgresql``), ``where`` what messages call it (a URL
    without its password)."""

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
            self._writer = self.engine.execution_options(sqlite_begin="IMMEDIATE")
            self._time_in = DateTime().dialect_impl(self.engine.dialect).bind_processor(self.engine.dialect)
            self._q: Callable[[str], str] = _same
        else:
            self.where = url.render_as_string(hide_password=True)
            # every time the server shows or compares is UTC, as the app's are
            self.engine = create_engine(url, connect_args=_server_args(url), pool_pre_ping=True)
            self._writer = self.engine
            self._time_in = None  # psycopg sends an aware datetime as it is
            self._q = _pyformat
            self._check_server()
        self.dialect: str = self.engine.dialect.name
        self.sql = statements(self.dialect)
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

    # -- players ------------------------------------------------------------------------------

    def players(self, db: Session) -> list[Player]:
        return list(db.exec(select(Player).order_by(Player.name)))

    def player_by_name(self, db: Session, name: str) -> Player | None:
        return db.exec(select(Player).where(Player.name == name)).first()

    def add_player(self, db: Session, name: str, now: datetime) -> Player:
        player = Player(name=name, created_at=now)
        db.add(player)
        db.flush()
        return player

    def lock_names(self, db: Session, names: Iterable[str]) -> None:
        """PostgreSQL: lock these players' names (their keys, :func:`models.names.name_key`) until
        the transaction ends, before reading the profiles to match them. The players table's
        unique name only tells identical names apart; two tablets (or a tablet and a migration)
        creating "anne" and "Anne" at once would make two profiles. With the lock, the second one
        waits for the first one's commit, then reads (READ COMMITTED: a new snapshot per
        statement) the profile it made. Transaction-level advisory locks, taken in one order so
        no two transactions wait for each other in a cycle; a hash collision only makes one wait
        for nothing. SQLite: the write transaction (BEGIN IMMEDIATE) already excludes every other
        writer."""
        if self.path is not None:
            return
        for number in sorted({zlib.crc32(name_key(name).encode("utf-8")) - 2 ** 31 for name in names}):
            db.execute(text("SELECT pg_advisory_xact_lock(:space, :key)"), {"space": NAME_LOCKS, "key": number})

    def ensure_players(self, db: Session, names: Sequence[str], now: datetime) -> dict[str, int]:
        """Profile ids for these names: the profile whose name is the same (compared without case,
        :func:`models.names.name_key`), else a new profile. Under :meth:`lock_names`, so two
        tablets seating the same new player at once make one profile."""
        self.lock_names(db, names)
        known = {name_key(p.name): p.id for p in self.players(db)}
        ids: dict[str, int] = {}
        for name in names:
            pid = known.get(name_key(name))
            if pid is None:
                player = self.add_player(db, name, now)
                pid = known[name_key(name)] = player.id
            assert pid is not None
            ids[name] = pid
        return ids

    # -- sessions -----------------------------------------------------------------------------

    @staticmethod
    def session_row(*, game: str, variant: dict, first_player: str, assist: bool, now: datetime,
                    setup: dict | None = None) -> GameSession:
        """The sessions row :meth:`create_session` writes, not yet in any database (the service
        reads it back before writing, to check that nothing of a record is lost). ``setup``: the
        envelope's other set-up fields, kept as JSON text, NULL when there are none."""
        return GameSession(game=game, variant=dumps(variant), first_player=first_player, assist=assist,
                           setup=dumps(setup) if setup else None,
                           status=STATUS_IN_PROGRESS, started_at=now, updated_at=now)

    def create_session(self, db: Session, *, game: str, variant: dict, first_player: str, assist: bool,
                       player_ids: Sequence[int], now: datetime, setup: dict | None = None) -> GameSession:
        row = self.session_row(game=game, variant=variant, first_player=first_player, assist=assist, now=now,
                               setup=setup)
        db.add(row)
        db.flush()
        names = dict(db.execute(text("SELECT id, name FROM players WHERE id IN (%s)"
                                     % ",".join(str(int(p)) for p in player_ids))).all()) if player_ids else {}
        for position, player_id in enumerate(player_ids):
            # the seat keeps the name the record uses now, whatever the profile is called later
            db.add(Seat(session_id=row.id, position=position, player_id=player_id, name=names.get(player_id)))
        db.flush()
        assert row.id is not None
        self.refresh_summary(db, row.id, months=False)  # a new game is not finished: no month changes
        return row

    def add_games(self, db: Session, games: Sequence[NewGame], now: datetime) -> list[int]:
        """Write whole games at once (an import), in the order given: the rows that
        :meth:`create_session`, :meth:`append` after seq 0, :meth:`write_results`,
        :meth:`set_status` and :meth:`refresh_summary` (``months=False``) would write for each,
        exactly, in a few statements on the driver's cursor for all of them: the sessions rows
        one by one (SQLite, in process) or in one pipelined batch (psycopg), each id given by the
        database in the order of ``games``; one batch each for seats, entries and results; the
        summaries recounted together. The seats' profiles must exist (:meth:`ensure_players`,
        under its name locks); the monthly figures are the caller's (:meth:`refresh_game_months`,
        once for the import: on PostgreSQL it takes the months' locks, after these rows, in
        order). Returns the new session ids."""
        if not games:
            return []
        stamp = self._stamp(now)
        q = self._q
        insert = q(_NEW_SESSION) + (" RETURNING id" if self.path is None else "")
        profile_ids = sorted({int(p) for game in games for p in game.player_ids})
        cursor = _cursor(db)
        try:
            names: dict[int, str] = {}
            for chunk in _chunks(profile_ids, 500):  # the seat keeps the profile's name, as create_session's
                names.update(cursor.execute(f"SELECT id, name FROM players WHERE id IN "
                                            f"({','.join(str(p) for p in chunk)})").fetchall())
            sessions = []
            for game in games:
                row = game.row
                finished = game.results is not None  # what set_status(finished) makes of the new row
                sessions.append((
                    row.game, row.variant, row.first_player, row.assist,
                    STATUS_FINISHED if finished else row.status, self._stamp(row.started_at),
                    stamp if finished else self._time(row.finished_at),
                    stamp if finished else self._stamp(row.updated_at),
                    row.setup, self._time(row.abandoned_at), row.table_name, row.origin))
            ids: list[int] = []
            if self.path is None:  # psycopg: one pipelined batch, each row's id returned in order
                cursor.executemany(insert, sessions, returning=True)
                while True:
                    ids.append(int(cursor.fetchone()[0]))
                    if not cursor.nextset():
                        break
            else:  # sqlite3 (in process): each row's id as it is inserted
                for values in sessions:
                    cursor.execute(insert, values)
                    ids.append(int(cursor.lastrowid))
            assert len(ids) == len(games)
            seats: list[tuple[Any, ...]] = []
            entries: list[tuple[Any, ...]] = []
            results: list[tuple[Any, ...]] = []
            for sid, game in zip(ids, games):
                seats += [(sid, position, pid, names.get(pid)) for position, pid in enumerate(game.player_ids)]
                entries += [(sid, seq, action, stamp) for seq, action in enumerate(game.actions, 1)]
                results += [(sid, r.player_id, float(r.score), r.rank, bool(r.winner), bool(r.eliminated))
                            for r in game.results or ()]
            self._insert_rows(cursor, "seats (session_id, position, player_id, name)", seats)
            self._insert_rows(cursor, "actions (session_id, seq, action, created_at)", entries)
            self._insert_rows(cursor, "results (session_id, player_id, score, rank, winner, eliminated)", results)
            for chunk in _chunks(ids, 500):
                marks = ",".join(str(i) for i in chunk)
                cursor.execute(self.sql.summary.format(where=f"WHERE s.id IN ({marks})",
                                                       actions_where=f"AND session_id IN ({marks})"))
        finally:
            cursor.close()
        return ids

    def _insert_rows(self, cursor: Any, into: str, rows: Sequence[tuple[Any, ...]]) -> None:
        """Insert many rows into ``table (columns)``: one executemany on SQLite; on PostgreSQL one
        COPY (the same rows, constraints and defaults as INSERTs, without a statement per row,
        which the server pays about 30 µs for)."""
        if not rows:
            return
        if self.path is None:
            with cursor.copy(f"COPY {into} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join("?" * len(rows[0]))
        cursor.executemany(f"INSERT INTO {into} VALUES ({marks})", rows)

    def _time(self, moment: datetime | None) -> Any:
        return None if moment is None else self._stamp(moment)

    def session(self, db: Session, session_id: int) -> GameSession | None:
        return db.get(GameSession, session_id)

    def seat_names(self, db: Session, session_id: int) -> list[str]:
        """The names the session's record uses, in seating order (a seat written before 0004
        has none of its own: its profile's name, which no rename had changed yet)."""
        return [name for name, _ in self.seat_players(db, session_id)]

    def seat_players(self, db: Session, session_id: int) -> list[tuple[str, int]]:
        """(the record's name, the profile id) of each seat, in seating order."""
        rows = db.execute(text(
            "SELECT COALESCE(st.name, p.name), st.player_id FROM seats st JOIN players p ON p.id = st.player_id "
            "WHERE st.session_id = :s ORDER BY st.position"), {"s": session_id})
        return [(name, pid) for name, pid in rows]

    def session_ids(self, db: Session) -> list[int]:
        return list(db.exec(select(GameSession.id).order_by(GameSession.id)))

    def delete_session(self, db: Session, session_id: int) -> bool:
        counted = db.execute(text(self.sql.finished_month), {"s": session_id}).first()
        players = [p for (p,) in db.execute(text("SELECT player_id FROM seats WHERE session_id = :s"),
                                            {"s": session_id})]
        done = db.execute(delete(GameSession).where(GameSession.id == session_id))
        if counted is not None:  # the monthly figures it counted in, without it
            self.refresh_months(db, counted[0], counted[1], players)
        return done.rowcount > 0

    def set_status(self, db: Session | Tx, session_id: int, finished: bool, now: datetime) -> None:
        stamp = self._stamp(now)
        _run(db, self._q(_SET_STATUS), (STATUS_FINISHED if finished else STATUS_IN_PROGRESS, stamp if finished else None,
                               stamp, session_id))

    # -- the action log -----------------------------------------------------------------------

    def active_actions(self, db: Session, session_id: int) -> list[ActionRow]:
        return list(db.exec(
            select(ActionRow).where(ActionRow.session_id == session_id, ActionRow.retracted_at.is_(None))
            .order_by(ActionRow.seq)
        ))

    def all_actions(self, db: Session, session_id: int) -> list[ActionRow]:
        """Every entry ever made, retracted ones included (for disputes)."""
        return list(db.exec(select(ActionRow).where(ActionRow.session_id == session_id).order_by(ActionRow.seq)))

    def last_seq(self, db: Session, session_id: int) -> int:
        """The highest ``seq`` used by the session (retracted rows included), 0 if none."""
        value = db.exec(select(func.max(ActionRow.seq)).where(ActionRow.session_id == session_id)).one()
        return value or 0

    def last_active_seq(self, db: Session, session_id: int) -> int:
        value = db.exec(select(func.max(ActionRow.seq)).where(
            ActionRow.session_id == session_id, ActionRow.retracted_at.is_(None))).one()
        return value or 0

    def session_rows(self, db: Session, session_id: int) -> SessionRows | None:
        """Everything opening a session reads, in two queries on the driver's cursor (plain rows,
        no ORM objects), in the read transaction of ``db``: the session with its seats and players,
        then the active log with the last seq used. None if there is no such session."""
        cursor = _cursor(db)
        try:
            head = cursor.execute(self._q(_SESSION_HEAD), (session_id,)).fetchall()
            if not head:
                return None
            log = cursor.execute(self._q(_ACTIVE_LOG), (session_id, session_id)).fetchall()
        finally:
            cursor.close()
        game, variant, first_player, assist, setup, started_at, updated_at, _, _ = head[0]
        seated = [(name, player_id) for *_, name, player_id in head if name is not None]
        active = [(seq, action) for seq, action, is_active in log if is_active]
        return SessionRows(
            session_id=session_id, game=game, variant=variant, first_player=first_player, assist=bool(assist),
            setup=setup, started_at=_stored_time(started_at), updated_at=_stored_time(updated_at),
            names=[name for name, _ in seated], player_ids=[player_id for _, player_id in seated],
            seqs=[seq for seq, _ in active], actions=[action for _, action in active],
            last_seq=log[-1][0] if log else 0)

    def append(self, db: Session, session_id: int, actions: Iterable[str], now: datetime,
               after: int | None = None, times: Sequence[Any] | None = None) -> int:
        """Append actions (JSON texts) after seq ``after`` (default: the last seq used); returns
        the new last seq. This is the hot path: one INSERT on the driver's cursor, no ORM unit of
        work and no SQL compilation (the statement text is fixed). ``times``: each row's time as
        :meth:`entry_times` read it (entries written again by a correction keep theirs), else
        ``now``."""
        seq = self.last_seq(db, session_id) if after is None else after
        stamp = self._stamp(now)
        rows = []
        for i, action in enumerate(actions):
            seq += 1
            rows.append((session_id, seq, action, stamp if times is None else times[i]))
        if len(rows) == 1:  # a tap
            _driver(db).execute(self._q(_APPEND), rows[0])
        elif rows:
            cursor = _cursor(db)
            try:
                cursor.executemany(self._q(_APPEND), rows)
            finally:
                cursor.close()
        return seq

    def entry_times(self, db: Session | Tx, session_id: int, seqs: Sequence[int]) -> list[Any]:
        """The stored times of these entries, in the order of ``seqs``, as the driver reads them
        (what :meth:`append` takes back in ``times``)."""
        found: dict[int, Any] = {}
        driver = _driver(db)
        for chunk in _chunks(seqs, 500):
            marks = ", ".join("?" * len(chunk))
            for seq, created in driver.execute(
                    self._q(f"SELECT seq, created_at FROM actions WHERE session_id = ? AND seq IN ({marks})"),
                    (session_id, *chunk)).fetchall():
                found[seq] = created
        return [found[seq] for seq in seqs]

    def touch(self, db: Session, session_id: int, now: datetime) -> None:
        """``updated_at`` after an entry that changes nothing else about the session (hot path)."""
        _driver(db).execute(self._q(_TOUCH), (self._stamp(now), session_id))

    def entries_added(self, db: Session, session_id: int, count: int, now: datetime) -> None:
        """After ``count`` entries appended at ``now`` that change nothing else about the game (not
        its status, results, seats or abandoned mark: most taps): ``updated_at`` and the summary
        row brought up to date incrementally, in two fixed statements on the driver's cursor (hot
        path). The summary ends exactly as :meth:`refresh_summary` would write it, without
        counting the game's entries again; with no summary row to update, a full refresh."""
        stamp = self._stamp(now)
        driver = _driver(db)
        driver.execute(self._q(_TOUCH), (stamp, session_id))
        if driver.execute(self.sql.summary_entries, {"now": stamp, "n": count, "s": session_id}).rowcount != 1:
            self.refresh_summary(db, session_id)

    def log_position(self, db: Session | Tx, session_id: int, lock: bool = False) -> tuple[bool, int, int]:
        """(session exists, last seq used, last active seq) in one query (hot path: every change
        checks it inside its write transaction).

        ``lock`` (a change to the game, at the start of its write transaction): on PostgreSQL the
        game's ``sessions`` row is locked first (``FOR UPDATE``, held until the commit), so that a
        second device changing the same game waits for the first one's commit; the position is
        then read by a second statement, whose snapshot is taken after the lock was granted and so
        holds the first device's entries (one statement would read them with the snapshot it took
        before waiting). On SQLite the write transaction (BEGIN IMMEDIATE) already excludes every
        other writer."""
        driver = _driver(db)
        if lock and self.path is None:
            if driver.execute(_LOCK_SESSION, (session_id,)).fetchone() is None:
                return False, 0, 0
        exists, last_seq, last_active = driver.execute(self._q(_LOG_POSITION), (session_id,) * 3).fetchone()
        return bool(exists), last_seq or 0, last_active or 0

    def _stamp(self, moment: datetime) -> Any:
        """A time as SQLAlchemy's DateTime column writes it (its own bind processor), for the
        statements run on the driver's cursor."""
        if self._time_in is None:
            return moment
        last = self._last_stamp  # a tap stamps one time two or three times: convert it once
        if last[0] is moment:
            return last[1]
        stamp = self._time_in(moment)
        self._last_stamp = (moment, stamp)
        return stamp

    def retract(self, db: Session, seqs: Sequence[int], session_id: int, now: datetime) -> None:
        if not seqs:
            return
        actions = ActionRow.__table__
        db.execute(
            update(actions)
            .where(actions.c.session_id == session_id, actions.c.seq.in_(list(seqs)), actions.c.retracted_at.is_(None))
            .values(retracted_at=now)
        )

    # -- results ------------------------------------------------------------------------------

    def seat_profiles(self, db: Session | Tx, session_id: int) -> list[int]:
        """The profile of each seat, in seat order, as the database has it now (a merge on another
        device may have given a seat another profile since the game was opened)."""
        return [p for (p,) in _driver(db).execute(self._q(_SEAT_PROFILES), (session_id,)).fetchall()]

    def write_results(self, db: Session | Tx, session_id: int, rows: Sequence[ResultRow]) -> None:
        self.clear_results(db, session_id)
        cursor = _cursor(db)
        try:
            cursor.executemany(self._q(_RESULT), [(session_id, row.player_id, float(row.score), row.rank, bool(row.winner),
                                          bool(row.eliminated)) for row in rows])
        finally:
            cursor.close()

    def finished_without_results(self, db: Session) -> list[int]:
        """Finished sessions with no results rows (a database older than migration 0002)."""
        return [r[0] for r in db.execute(text(
            "SELECT s.id FROM sessions s WHERE s.status = 'finished' "
            "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.session_id = s.id) ORDER BY s.id"))]

    def clear_results(self, db: Session | Tx, session_id: int) -> None:
        _run(db, self._q("DELETE FROM results WHERE session_id = ?"), (session_id,))

    # -- per-game summaries (what lists and statistics read) -----------------------------------

    def refresh_summary(self, db: Session | Tx, session_id: int, months: bool = True) -> None:
        """Rewrite the session's summary row from its rows (status, active entries, seats,
        results), and when the game is or was finished the monthly figures it counts in: called
        in the same transaction as every change to a game. Cheap: one session's rows and one
        month of its game, through their indexes. ``months=False``: the caller recounts the
        months itself once it has written many games (an import)."""
        # fixed statements on the driver's cursor (no SQL compiled per call): a finish, an undo or
        # a correction runs them inside the tap's transaction
        cursor = _cursor(db)
        try:
            before = cursor.execute(self._q(_SUMMARY_STATUS), (session_id,)).fetchone()
            cursor.execute(self.sql.summary_one, {"s": session_id})
            row = cursor.execute(self.sql.summary_month, (session_id,)).fetchone()
            players = [p for (p,) in cursor.execute(self._q(_SEAT_PLAYERS), (session_id,))] \
                if months and row is not None and STATUS_FINISHED in (before and before[0], row[0]) else None
        finally:
            cursor.close()
        if players is not None:
            self.refresh_months(db, row[1], row[2], players)

    def refresh_summaries(self, db: Session, session_ids: Sequence[int] | None = None) -> None:
        """Rewrite the summaries of these sessions (all when None, and then every monthly figure)."""
        if session_ids is None:
            sql = self.sql
            db.execute(text(sql.summary.format(where="WHERE true", actions_where="")))
            db.execute(text("DELETE FROM player_months"))
            db.execute(text(sql.player_months_insert.format(where="")))
            db.execute(text("DELETE FROM game_months"))
            db.execute(text(sql.game_months_insert.format(where="")))
            return
        for session_id in session_ids:
            self.refresh_summary(db, session_id)

    def refresh_months(self, db: Session | Tx, game: str, month: str,
                       player_ids: Sequence[int] | None = None) -> None:
        """Recount one month of one game: the game's figures, and these players' figures (every
        player's when None). On the driver's cursor (it may run inside a tap's transaction).

        Several tables may finish games of the same game in the same month at once, and each
        recount reads every finished game of that month: under READ COMMITTED two recounts
        running side by side would each miss the other's game (each reads before the other
        commits), and the second insert of the month's row would fail on its primary key. On
        PostgreSQL the month's ``game_months`` row is therefore the lock of that month of that
        game: it is made to exist (an insert that does nothing if it is there; an insert racing
        another one waits for it), then locked ``FOR UPDATE`` before anything is read, and only
        then recounted, in place. The second recount waits for the first one's commit and, its
        statements taking new snapshots, counts both games. The players' rows of that month are
        only ever written under that lock. Locks are taken in (game, month) order everywhere
        (one month for a game that finishes, reopens or goes; sorted months for an import or a
        merge), after the game's own rows: no two recounts can wait for each other in a cycle.
        A lock and not a retry: a finish is rare and short, and a retry would have to replay the
        whole tap's transaction. On SQLite the write transaction already excludes other writers."""
        start, end = _month_bounds(month)
        if self.path is None:
            self._lock_month(db, game, month)
            start, end = (datetime.fromisoformat(t).replace(tzinfo=timezone.utc) for t in (start, end))
        one_month = "AND g.game = :g AND g.started_at >= :a AND g.started_at < :b"
        q = self._q
        if self.path is None:  # recounted in place: the locked row stays the lock until the commit
            _run(db, self.sql.game_month_upsert, {"g": game, "a": start, "b": end})
            _run(db, q("DELETE FROM game_months WHERE game = :g AND month = :m AND NOT EXISTS (SELECT 1 FROM "
                       "game_summaries g WHERE g.status = 'finished' " + one_month + ")"),
                 {"g": game, "m": month, "a": start, "b": end})
        else:
            _run(db, "DELETE FROM game_months WHERE game = :g AND month = :m", {"g": game, "m": month})
            _run(db, self.sql.game_month, {"g": game, "a": start, "b": end})
        if player_ids is None:
            _run(db, q("DELETE FROM player_months WHERE game = :g AND month = :m"), {"g": game, "m": month})
            _run(db, q(self.sql.player_months_insert.format(where=one_month)), {"g": game, "a": start, "b": end})
            return
        if not player_ids:
            return
        marks = ",".join(str(int(p)) for p in player_ids)
        _run(db, q(f"DELETE FROM player_months WHERE game = :g AND month = :m AND player_id IN ({marks})"),
             {"g": game, "m": month})
        _run(db, q(self.sql.player_months_insert.format(
            where=f"AND g.game = :g AND g.started_at >= :a AND g.started_at < :b AND r.player_id IN ({marks})")),
            {"g": game, "a": start, "b": end})

    def _lock_month(self, db: Session | Tx, game: str, month: str) -> None:
        """PostgreSQL: lock the month's ``game_months`` row (see :meth:`refresh_months`), making it
        first if need be. A row another recount deleted while this one waited for it is not
        returned by the lock: made again and locked again."""
        cursor = _cursor(db)
        try:
            while True:
                cursor.execute(_MONTH_PLACEHOLDER, (game, month))
                if cursor.execute(_LOCK_MONTH, (game, month)).fetchone() is not None:
                    return
        finally:
            cursor.close()

    def refresh_game_months(self, db: Session, session_ids: Sequence[int],
                            also: Iterable[tuple[str, str]] = ()) -> None:
        """Recount every month and game these sessions count in (after writing many at once), and
        the (game, month)s of ``also`` (where rewritten games counted before), once each, in
        (game, month) order: on PostgreSQL each recount takes its month's lock (see
        :meth:`refresh_months`), so two such writers never wait for each other in a cycle."""
        touched: set[tuple[str, str]] = set(also)
        for chunk in _chunks(list(session_ids), 500):
            marks = ",".join(str(int(i)) for i in chunk)
            touched.update((g, m) for g, m in db.execute(text(
                f"SELECT DISTINCT game, {self.sql.month('started_at')} FROM game_summaries "
                f"WHERE status = 'finished' AND session_id IN ({marks})")))
        for game, month in sorted(touched):
            self.refresh_months(db, game, month)

    def rebuild_player_months(self, db: Session, player_ids: Sequence[int]) -> None:
        """Recount every month of these players (after a merge moved results between them)."""
        marks = ",".join(str(int(p)) for p in player_ids)
        if self.path is None:  # the months' locks first, in order (see refresh_months)
            for game, month in db.execute(text(
                    "SELECT DISTINCT game, month FROM player_months "
                    f"WHERE player_id IN ({marks}) ORDER BY game, month")).all():
                self._lock_month(db, game, month)
        db.execute(text(f"DELETE FROM player_months WHERE player_id IN ({marks})"))
        db.execute(text(self.sql.player_months_insert.format(where=f"AND r.player_id IN ({marks})")))

    def set_abandoned(self, db: Session, session_id: int, when: datetime | None) -> None:
        sessions = GameSession.__table__
        db.execute(update(sessions).where(sessions.c.id == session_id).values(abandoned_at=when))

    def _history_where(self, query: HistoryQuery) -> list[Any]:
        gs = GameSummary.__table__
        seats = Seat.__table__
        where: list[Any] = []
        if query.status is not None:
            where.append(gs.c.status == query.status)
        if query.game is not None:
            where.append(gs.c.game == query.game)
        if query.since is not None:
            where.append(gs.c.started_at >= query.since)
        if query.until is not None:
            where.append(gs.c.started_at < query.until)
        if query.player_ids is not None:
            where.append(exists().where(seats.c.session_id == gs.c.session_id,
                                        seats.c.player_id.in_(list(query.player_ids))))
        if query.table is not None:  # a club's table (companion.club: NO_TABLE for the unnamed)
            from companion.club import table_sessions

            where.append(gs.c.session_id.in_(table_sessions(query.table)))
        return where

    def history_page(self, db: Session, query: HistoryQuery, offset: int, limit: int) -> list[dict[str, Any]]:
        """One page of summaries, newest first, each with its seats (profile name, score, place,
        winner) in seating order. Reads the summaries and, for the page only, seats and results."""
        gs = GameSummary.__table__
        sql = (sa_select(gs).where(*self._history_where(query))
               .order_by(gs.c.started_at.desc(), gs.c.session_id.desc()).offset(offset).limit(limit))
        return self._with_seats(db, [dict(r._mapping) for r in db.execute(sql)])

    def summary_row(self, db: Session, session_id: int) -> dict[str, Any] | None:
        gs = GameSummary.__table__
        rows = self._with_seats(db, [dict(r._mapping) for r in db.execute(
            sa_select(gs).where(gs.c.session_id == session_id))])
        return rows[0] if rows else None

    def _with_seats(self, db: Session, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not rows:
            return rows
        marks = ",".join(str(int(r["session_id"])) for r in rows)
        seated: dict[int, list[tuple[str, float | None, int | None, bool]]] = {r["session_id"]: [] for r in rows}
        for sid, name, score, rank, won in db.execute(text(
            "SELECT st.session_id, p.name, r.score, r.rank, CASE WHEN r.winner THEN 1 ELSE 0 END FROM seats st "
            "JOIN players p ON p.id = st.player_id "
            "LEFT JOIN results r ON r.session_id = st.session_id AND r.player_id = st.player_id "
            f"WHERE st.session_id IN ({marks}) ORDER BY st.session_id, st.position"
        )):
            seated[sid].append((name, score, rank, bool(won)))
        for row in rows:
            row["seats"] = seated[row["session_id"]]
        return rows

    def history_count(self, db: Session, query: HistoryQuery) -> int:
        gs = GameSummary.__table__
        if query.player_ids is None or query.table is not None:  # the summaries' covering indexes answer
            return int(db.execute(sa_select(func.count()).select_from(gs)
                                  .where(*self._history_where(query))).scalar_one())
        # Driven from the players' seats (their games by primary key), not from every game of the
        # filters: the unary + keeps SQLite from scanning a status or game index instead
        # (PostgreSQL has no unary + on text or times, and plans from its statistics).
        plus = "+" if self.path is not None else ""
        where, params = _period((query.since, query.until), column=f"{plus}g.started_at")
        if query.status is not None:
            where += f" AND {plus}g.status = :status"
            params["status"] = query.status
        if query.game is not None:
            where += f" AND {plus}g.game = :game"
            params["game"] = query.game
        marks = ",".join(str(int(p)) for p in query.player_ids) or "NULL"
        if query.since is not None or query.until is not None:
            # a date range may hold fewer games than these players' seats: count from the smaller
            seated = db.execute(text(f"SELECT COUNT(*) FROM seats WHERE player_id IN ({marks})")).scalar_one()
            dated = db.execute(sa_select(func.count()).select_from(gs).where(
                *self._history_where(replace(query, player_ids=None)))).scalar_one()
            if dated < seated:
                return int(db.execute(sa_select(func.count()).select_from(gs)
                                      .where(*self._history_where(query))).scalar_one())
        sql = text("SELECT COUNT(*) FROM game_summaries g WHERE g.session_id IN "
                   f"(SELECT session_id FROM seats WHERE player_id IN ({marks})) {where}")
        return int(db.execute(_typed(sql, params), params).scalar_one())

    def player_ids_matching(self, db: Session, words: str) -> list[int]:
        """Profiles whose name contains ``words``, ignoring case and accents (the players table
        is small: compared in Python, where SQLite's LIKE would miss "é" against "E")."""
        needle = fold(words)
        return [pid for pid, name in db.execute(text("SELECT id, name FROM players")) if needle in fold(name)]

    # -- statistics: monthly figures for whole months, summaries for the days around them --------

    def player_figures(self, db: Session, period: Period = (None, None), player_id: int | None = None,
                       by_month: bool = False) -> list[tuple[Any, ...]]:
        """(player id, game, [month,] games, wins, score sum, best score, place sum, 1st, 2nd, 3rd,
        4th, 5th, 6th or later) per player and game over the finished games started in ``period``:
        the whole months from ``player_months``, the days before and after them from the
        summaries and results rows."""
        key = 3 if by_month else 2
        one = "" if player_id is None else f" AND player_id = {int(player_id)}"
        rows: list[tuple[Any, ...]] = []
        months, edges = _split(period)
        if months is not None:
            where, params = _month_where(months)
            month = "month, " if by_month else ""
            rows += [tuple(r) for r in db.execute(text(
                f"SELECT player_id, game, {month}SUM(games), SUM(wins), SUM(score_sum), MAX(score_max), "
                "SUM(rank_sum), SUM(place1), SUM(place2), SUM(place3), SUM(place4), SUM(place5), SUM(place6) "
                f"FROM player_months WHERE 1=1 {where}{one} GROUP BY player_id, game{', month' if by_month else ''}"),
                params)]
        for edge in edges:
            where, params = _period(edge)
            if player_id is not None:
                where += f" AND r.player_id = {int(player_id)}"
            raw = db.execute(_typed(text(self.sql.player_months_select.format(where=where)), params), params)
            rows += [tuple(r[:2]) + ((r[2],) if by_month else ()) + tuple(r[3:]) for r in raw]
        return _combine(rows, key, maxima={key + 3})

    def game_figures(self, db: Session, period: Period = (None, None)) -> list[tuple[Any, ...]]:
        """(game, games, winning score sum, games with a winner, best score, spread sum, games with
        scores, entries sum, duration sum, games played live) per game over ``period``."""
        rows: list[tuple[Any, ...]] = []
        months, edges = _split(period)
        if months is not None:
            where, params = _month_where(months)
            rows += [tuple(r) for r in db.execute(text(
                "SELECT game, SUM(games), SUM(win_score_sum), SUM(win_score_n), MAX(top_max), SUM(spread_sum), "
                "SUM(spread_n), SUM(actions_sum), SUM(duration_sum), SUM(duration_n) FROM game_months "
                f"WHERE 1=1 {where} GROUP BY game"), params)]
        for edge in edges:
            where, params = _period(edge)
            rows += [(r[0],) + tuple(r[2:]) for r in db.execute(
                _typed(text(self.sql.game_months_select.format(where=where)), params), params)]
        return _combine(rows, 1, maxima={4})

    def record_holders(self, db: Session, game: str, score: float, period: Period = (None, None),
                       limit: int = 20) -> list[tuple[str, int]]:
        """(player, session) of the results of ``game`` equal to ``score``, the game's best, in
        the period: those of its first ``limit`` games that reached it (oldest first)."""
        where, params = _period(period)
        params.update(game=game, score=score)
        # the first games that reached it, in time order (index game, top_score, started_at): a
        # record reached in hundreds of games names its first holders, not every one
        sql = text("SELECT p.name, x.session_id FROM (SELECT g.session_id, g.started_at FROM game_summaries g "
                   f"WHERE g.game = :game AND g.top_score = :score AND g.status = 'finished' {where} "
                   "ORDER BY g.started_at, g.session_id LIMIT :limit) x "
                   "JOIN results r ON r.session_id = x.session_id AND r.score = :score "
                   "JOIN players p ON p.id = r.player_id ORDER BY x.started_at, x.session_id, p.name")
        params["limit"] = limit
        return [(name, sid) for name, sid in db.execute(_typed(sql, params), params)]

    def head_to_head(self, db: Session, a: int, b: int,
                     period: Period = (None, None)) -> list[tuple[str, int, int, int, int, int, int]]:
        """Per game, between profiles ``a`` and ``b``: (game, games together, a's wins, b's wins,
        a ranked ahead, b ranked ahead, ranked level)."""
        where, params = _period(period)
        params.update(a=a, b=b)
        sql = text(
            "SELECT g.game, COUNT(*), SUM(CASE WHEN ra.winner THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN rb.winner THEN 1 ELSE 0 END), SUM(CASE WHEN ra.rank < rb.rank THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN rb.rank < ra.rank THEN 1 ELSE 0 END), SUM(CASE WHEN ra.rank = rb.rank THEN 1 ELSE 0 END) "
            "FROM results ra JOIN results rb ON rb.session_id = ra.session_id "
            "JOIN game_summaries g ON g.session_id = ra.session_id "
            f"WHERE ra.player_id = :a AND rb.player_id = :b AND g.status = 'finished' {where} "
            "GROUP BY g.game ORDER BY g.game")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]  # type: ignore[misc]

    def table_counts(self) -> dict[str, int]:
        """Rows per table: what the import tests compare before and after."""
        with self.read() as db:
            return {name: db.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar_one()
                    for name in ("players", "sessions", "seats", "actions", "results", "game_summaries")}


Period = tuple[datetime | None, datetime | None]  # (since included, until excluded) on the start time


@dataclass(frozen=True)
class HistoryQuery:
    """What a history list asks for; ``player_ids``: games where one of these profiles sat."""
    game: str | None = None
    status: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    player_ids: tuple[int, ...] | None = None
    table: str | None = None  # games of one table (companion.club.NO_TABLE: of a tablet with no name)


def _same(sql: str) -> str:
    return sql


_PARAM = re.compile(r"\?|(?<!:):(\w+)")


@lru_cache(maxsize=512)
def _pyformat(sql: str) -> str:
    """A statement written for sqlite3 (``?`` and ``:name``) in psycopg's style (``%s`` and
    ``%(name)s``). The store's statements hold no ``%``, no ``?`` and no ``:`` of their own."""
    return _PARAM.sub(lambda m: "%s" if m.group(0) == "?" else f"%({m.group(1)})s", sql)


# The SQL that differs between SQLite and PostgreSQL: the UTC month of a stored time ("YYYY-MM"),
# and the seconds from one time to a later one (0 if it is earlier), rounded to the millisecond.
# SQLite keeps a time as "YYYY-MM-DD HH:MM:SS.ffffff" UTC text; PostgreSQL as timestamptz.
def _month_sqlite(column: str) -> str:
    return f"substr({column}, 1, 7)"


def _month_postgresql(column: str) -> str:
    return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM')"


def _seconds_sqlite(later: str, earlier: str) -> str:
    return f"MAX(0.0, ROUND((julianday({later}) - julianday({earlier})) * 86400.0, 3))"


def _seconds_postgresql(later: str, earlier: str) -> str:
    return f"GREATEST(0.0, ROUND(CAST(EXTRACT(EPOCH FROM ({later}) - ({earlier})) AS numeric), 3))"


# A session's summary from its rows; ``where`` picks the sessions (never empty: "WHERE true" for
# all, since SQLite needs a WHERE before an upsert's ON CONFLICT), ``actions_where`` narrows the
# action count to them (the same query migration 0004 fills the table with). An upsert: the row
# is rewritten in place (SQLite and PostgreSQL alike).
SUMMARY_TEMPLATE = """
INSERT INTO game_summaries (session_id, game, status, started_at, finished_at, updated_at,
    last_played_at, actions, duration_s, players, winners, top_score, low_score, win_score)
SELECT s.id, s.game,
    CASE WHEN s.status = 'finished' THEN 'finished'
         WHEN s.abandoned_at IS NOT NULL THEN 'abandoned' ELSE 'in_progress' END,
    s.started_at, s.finished_at, s.updated_at,
    COALESCE(a.last, s.started_at),
    COALESCE(a.n, 0),
    {duration},
    (SELECT COUNT(*) FROM seats st WHERE st.session_id = s.id),
    (SELECT COUNT(*) FROM results r WHERE r.session_id = s.id AND r.winner),
    (SELECT MAX(r.score) FROM results r WHERE r.session_id = s.id),
    (SELECT MIN(r.score) FROM results r WHERE r.session_id = s.id),
    (SELECT MAX(r.score) FROM results r WHERE r.session_id = s.id AND r.winner)
FROM sessions s
LEFT JOIN (SELECT session_id, COUNT(*) AS n, MAX(created_at) AS last FROM actions
           WHERE retracted_at IS NULL {{actions_where}} GROUP BY session_id) a ON a.session_id = s.id
{{where}}
ON CONFLICT (session_id) DO UPDATE SET game = excluded.game, status = excluded.status,
    started_at = excluded.started_at, finished_at = excluded.finished_at, updated_at = excluded.updated_at,
    last_played_at = excluded.last_played_at, actions = excluded.actions, duration_s = excluded.duration_s,
    players = excluded.players, winners = excluded.winners, top_score = excluded.top_score,
    low_score = excluded.low_score, win_score = excluded.win_score
"""


def _case(condition: str) -> str:
    """1 when ``condition`` holds, else 0: what SUM counts (PostgreSQL sums no booleans)."""
    return f"CASE WHEN {condition} THEN 1 ELSE 0 END"


# Monthly figures (migration 0004): what the statistics add up instead of every result.
PLAYER_MONTHS_TEMPLATE = f"""
SELECT r.player_id, g.game, {{month}} AS month, COUNT(*), SUM({_case("r.winner")}), SUM(r.score),
    MAX(r.score), SUM(r.rank), SUM({_case("r.rank = 1")}), SUM({_case("r.rank = 2")}), SUM({_case("r.rank = 3")}),
    SUM({_case("r.rank = 4")}), SUM({_case("r.rank = 5")}), SUM({_case("r.rank >= 6")})
FROM game_summaries g JOIN results r ON r.session_id = g.session_id
WHERE g.status = 'finished' {{{{where}}}}
GROUP BY r.player_id, g.game, month
"""
PLAYER_MONTHS_COLUMNS = ("INSERT INTO player_months (player_id, game, month, games, wins, score_sum, score_max, "
                         "rank_sum, place1, place2, place3, place4, place5, place6)")
GAME_MONTHS_TEMPLATE = """
SELECT g.game, {month} AS month, COUNT(*), SUM(g.win_score), COUNT(g.win_score),
    MAX(g.top_score), SUM(g.top_score - g.low_score), COUNT(g.top_score), SUM(g.actions),
    SUM(NULLIF(g.duration_s, 0)), COUNT(NULLIF(g.duration_s, 0))
FROM game_summaries g WHERE g.status = 'finished' {{where}}
GROUP BY g.game, month
"""
GAME_MONTHS_COLUMNS = ("INSERT INTO game_months (game, month, games, win_score_sum, win_score_n, top_max, "
                       "spread_sum, spread_n, actions_sum, duration_sum, duration_n)")
_GAME_MONTH_UPDATE = (" ON CONFLICT (game, month) DO UPDATE SET games = excluded.games, "
                      "win_score_sum = excluded.win_score_sum, win_score_n = excluded.win_score_n, "
                      "top_max = excluded.top_max, spread_sum = excluded.spread_sum, spread_n = excluded.spread_n, "
                      "actions_sum = excluded.actions_sum, duration_sum = excluded.duration_sum, "
                      "duration_n = excluded.duration_n")
_ONE_MONTH = "AND g.game = :g AND g.started_at >= :a AND g.started_at < :b"
# The summary after entries appended at :now (see Store.entries_added): what SUMMARY_TEMPLATE
# derives from them, from the row as it was (the right-hand sides read the old values). The last
# entry's time is the latest active created_at (times compare as times on both: SQLite's text in
# STORED_TIME form sorts as time), the start time when there was none; the duration is the
# summary's expression on it.
_LAST_AFTER_ENTRIES = "(CASE WHEN actions = 0 OR :now > last_played_at THEN :now ELSE last_played_at END)"


@lru_cache(maxsize=None)
def statements(dialect: str) -> SimpleNamespace:
    """Every statement whose text depends on the database (``sqlite`` or ``postgresql``). The
    ones run on the driver's cursor are in the driver's own parameter style (sqlite3 takes ``?``
    and ``:name``, psycopg ``%s`` and ``%(name)s``); the others are for SQLAlchemy's ``text()``."""
    pg = dialect == "postgresql"
    month = _month_postgresql if pg else _month_sqlite
    seconds = _seconds_postgresql if pg else _seconds_sqlite
    q = _pyformat if pg else _same
    summary = SUMMARY_TEMPLATE.format(duration=seconds("COALESCE(a.last, s.started_at)", "s.started_at"))
    player_months_select = PLAYER_MONTHS_TEMPLATE.format(month=month("g.started_at"))
    game_months_select = GAME_MONTHS_TEMPLATE.format(month=month("g.started_at"))
    game_month = GAME_MONTHS_COLUMNS + game_months_select.format(where=_ONE_MONTH)
    return SimpleNamespace(
        month=month,
        summary=summary,
        summary_one=q(summary.format(where="WHERE s.id = :s", actions_where="AND session_id = :s")),
        summary_month=q(f"SELECT status, game, {month('started_at')} FROM game_summaries WHERE session_id = ?"),
        summary_entries=q(
            f"UPDATE game_summaries SET updated_at = :now, actions = actions + :n, "
            f"last_played_at = {_LAST_AFTER_ENTRIES}, duration_s = {seconds(_LAST_AFTER_ENTRIES, 'started_at')} "
            "WHERE session_id = :s"),
        finished_month=(f"SELECT game, {month('started_at')} FROM game_summaries "
                        "WHERE session_id = :s AND status = 'finished'"),
        player_months_select=player_months_select,
        player_months_insert=PLAYER_MONTHS_COLUMNS + player_months_select,
        game_months_select=game_months_select,
        game_months_insert=GAME_MONTHS_COLUMNS + game_months_select,
        game_month=q(game_month),
        game_month_upsert=q(game_month + _GAME_MONTH_UPDATE),
    )


STORED_TIME = "%Y-%m-%d %H:%M:%S.%f"  # how the DateTime columns keep a UTC time (text that sorts)


def _month_bounds(month: str) -> tuple[str, str]:
    """The stored-time text bounds [start, end) of a month 'YYYY-MM'."""
    year, number = int(month[:4]), int(month[5:7])
    following = f"{year + 1:04d}-01" if number == 12 else f"{year:04d}-{number + 1:02d}"
    return f"{month}-01 00:00:00.000000", f"{following}-01 00:00:00.000000"


def _month_start(moment: datetime) -> datetime:
    return moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def _next_month(moment: datetime) -> datetime:
    start = _month_start(moment)
    return start.replace(year=start.year + 1, month=1) if start.month == 12 else start.replace(month=start.month + 1)


def _utc_naive(moment: datetime) -> datetime:
    return moment.astimezone(timezone.utc).replace(tzinfo=None) if moment.tzinfo else moment


def _split(period: Period) -> tuple[tuple[str | None, str | None] | None, list[Period]]:
    """The whole UTC months inside ``period`` (first, last; None for unbounded) and the ranges
    before and after them, which the summaries answer. No whole month: all of it is an edge."""
    since, until = (None if m is None else _utc_naive(m) for m in period)
    first = None if since is None else (since if since == _month_start(since) else _next_month(since))
    end = None if until is None else _month_start(until)  # the first month not wholly inside
    if first is not None and end is not None and first >= end:
        return None, [period]
    edges: list[Period] = []
    if since is not None and first is not None and since < first:
        edges.append((period[0], first.replace(tzinfo=timezone.utc)))
    if until is not None and end is not None and end < until:
        edges.append((end.replace(tzinfo=timezone.utc), period[1]))
    last = None
    if end is not None:
        previous = end.replace(year=end.year - 1, month=12) if end.month == 1 else end.replace(month=end.month - 1)
        last = previous.strftime("%Y-%m")
    return (None if first is None else first.strftime("%Y-%m"), last), edges


def _month_where(months: tuple[str | None, str | None]) -> tuple[str, dict[str, Any]]:
    where, params = "", {}
    if months[0] is not None:
        where += " AND month >= :m0"
        params["m0"] = months[0]
    if months[1] is not None:
        where += " AND month <= :m1"
        params["m1"] = months[1]
    return where, params


def _combine(rows: list[tuple[Any, ...]], key: int, maxima: set[int]) -> list[tuple[Any, ...]]:
    """Add up rows that share their first ``key`` values (the columns in ``maxima``: the largest,
    ignoring None), in key order."""
    merged: dict[tuple[Any, ...], list[Any]] = {}
    for row in rows:
        head, values = row[:key], list(row[key:])
        if head not in merged:
            merged[head] = values
            continue
        total = merged[head]
        for i, value in enumerate(values):
            column = key + i
            if value is None:
                continue
            if total[i] is None:
                total[i] = value
            elif column in maxima:
                total[i] = max(total[i], value)
            else:
                total[i] += value
    return [head + tuple(values) for head, values in sorted(merged.items(), key=lambda kv: kv[0])]


def fold(words: str) -> str:
    """Lower case without accents: how a name search compares ("chloe" finds "Chloé")."""
    decomposed = unicodedata.normalize("NFKD", words.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def _period(period: Period, column: str = "g.started_at") -> tuple[str, dict[str, Any]]:
    where, params = "", {}
    since, until = period
    if since is not None:
        where += f" AND {column} >= :since"
        params["since"] = since
    if until is not None:
        where += f" AND {column} < :until"
        params["until"] = until
    return where, params


def _typed(sql: Any, params: dict[str, Any]) -> Any:
    """Times bound as the DateTime column stores them (the same text form), not as sqlite3 adapts them."""
    moment = GameSummary.__table__.c.started_at.type
    names = [n for n in ("since", "until") if n in params]
    return sql.bindparams(*(bindparam(n, type_=moment) for n in names)) if names else sql


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
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        revisions = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")] \
            if "alembic_version" in tables else []
        if tables and conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
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


# the session and its seats (one row per seat; one row with NULL names if it has none)
_SESSION_HEAD = (
    # a seat keeps the record's name (a profile may have been renamed since)
    "SELECT s.game, s.variant, s.first_player, s.assist, s.setup, s.started_at, s.updated_at, "
    "COALESCE(st.name, p.name), p.id "
    "FROM sessions s LEFT JOIN seats st ON st.session_id = s.id LEFT JOIN players p ON p.id = st.player_id "
    "WHERE s.id = ? ORDER BY st.position")
_NEW_SESSION = ("INSERT INTO sessions (game, variant, first_player, assist, status, started_at, finished_at, "
                "updated_at, setup, abandoned_at, table_name, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
_APPEND = "INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)"
_TOUCH = "UPDATE sessions SET updated_at = ? WHERE id = ?"
_SET_STATUS = "UPDATE sessions SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?"
_RESULT = "INSERT INTO results (session_id, player_id, score, rank, winner, eliminated) VALUES (?, ?, ?, ?, ?, ?)"
_SUMMARY_STATUS = "SELECT status FROM game_summaries WHERE session_id = ?"
_SEAT_PLAYERS = "SELECT player_id FROM seats WHERE session_id = ?"
_SEAT_PROFILES = "SELECT player_id FROM seats WHERE session_id = ? ORDER BY position"
# PostgreSQL only (psycopg's style): the game's row locked by a change, the month's by a recount
_LOCK_SESSION = "SELECT 1 FROM sessions WHERE id = %s FOR UPDATE"
_MONTH_PLACEHOLDER = ("INSERT INTO game_months (game, month, games, win_score_n, spread_n, actions_sum, duration_n) "
                      "VALUES (%s, %s, 0, 0, 0, 0, 0) ON CONFLICT (game, month) DO NOTHING")
_LOCK_MONTH = "SELECT 1 FROM game_months WHERE game = %s AND month = %s FOR UPDATE"
_LOG_POSITION = (
    "SELECT EXISTS (SELECT 1 FROM sessions WHERE id = ?), (SELECT MAX(seq) FROM actions WHERE session_id = ?), "
    "(SELECT MAX(seq) FROM actions WHERE session_id = ? AND retracted_at IS NULL)")
# the active entries, plus the last one used if it was retracted (it gives the last seq)
_ACTIVE_LOG = (
    "SELECT seq, action, retracted_at IS NULL FROM actions WHERE session_id = ? "
    "AND (retracted_at IS NULL OR seq = (SELECT MAX(seq) FROM actions WHERE session_id = ?)) ORDER BY seq")


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
        raise StoreUnusable(Msg("store.unusable", {"path": value, "detail": str(err)})) from None
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            raise StoreUnusable(Msg("store.unusable", {"path": value, "detail": "no file"}))
        return None, url.database
    if url.get_backend_name() != "postgresql":
        raise StoreUnusable(Msg("store.kind", {"path": url.render_as_string(hide_password=True),
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
