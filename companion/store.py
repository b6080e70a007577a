"""The session store: SQLite through SQLModel, schema by Alembic.

Every connection runs with WAL, foreign keys ON, ``synchronous=FULL`` (a commit that returned is
on disk: a power cut cannot lose an acknowledged entry) and a busy timeout. Transactions are
explicit: :meth:`Store.read` for reading, :meth:`Store.write` for one ``BEGIN IMMEDIATE``
transaction that commits when the block ends and rolls back if it raises.

The store knows rows, not rules: the service decides what to write, the store writes it. Time
comes from the caller (the service's clock) so that the store has no hidden clock either.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    URL,
    DateTime,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    text,
    update,
)
from sqlalchemy.engine import Engine as SAEngine
from sqlmodel import Session, select

from companion.paths import absolute
from models.tables import (
    STATUS_FINISHED,
    STATUS_IN_PROGRESS,
    ActionRow,
    GameSession,
    Player,
    Result,
    Seat,
)

BUSY_TIMEOUT_MS = 10_000


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


class Store:
    """One SQLite database file. Thread-safe as SQLAlchemy's pool is: one connection per use."""

    def __init__(self, path: str | Path, *, upgrade: bool = True):
        self.path = absolute(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.engine: SAEngine = create_engine(
            URL.create("sqlite", database=str(self.path)),
            connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},
        )
        event.listen(self.engine, "connect", _on_connect)
        event.listen(self.engine, "begin", _on_begin)
        self._writer = self.engine.execution_options(sqlite_begin="IMMEDIATE")
        self._time_in = DateTime().dialect_impl(self.engine.dialect).bind_processor(self.engine.dialect)
        if upgrade:
            self.upgrade()

    # -- schema -------------------------------------------------------------------------------

    def upgrade(self, revision: str = "head") -> None:
        """Bring the schema up to ``revision`` (an older database is upgraded on start)."""
        with self.engine.connect() as conn:
            command.upgrade(alembic_config(conn), revision)
            conn.commit()

    def revision(self) -> str | None:
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions -------------------------------------------------------------------------

    @contextmanager
    def read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as db:
            yield db

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction (BEGIN IMMEDIATE: no other writer can slip in between a read
        and the write that depends on it). Commits at the end of the block."""
        with Session(self._writer, expire_on_commit=False) as db:
            with db.begin():
                yield db

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

    def ensure_players(self, db: Session, names: Sequence[str], now: datetime) -> dict[str, int]:
        """Profile ids for these names, creating the missing profiles."""
        ids: dict[str, int] = {}
        for name in names:
            player = self.player_by_name(db, name) or self.add_player(db, name, now)
            ids[name] = player.id
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
        for position, player_id in enumerate(player_ids):
            db.add(Seat(session_id=row.id, position=position, player_id=player_id))
        db.flush()
        return row

    def session(self, db: Session, session_id: int) -> GameSession | None:
        return db.get(GameSession, session_id)

    def seat_names(self, db: Session, session_id: int) -> list[str]:
        rows = db.exec(
            select(Player.name).join(Seat, Seat.player_id == Player.id)
            .where(Seat.session_id == session_id).order_by(Seat.position)
        )
        return list(rows)

    def session_ids(self, db: Session) -> list[int]:
        return list(db.exec(select(GameSession.id).order_by(GameSession.id)))

    def delete_session(self, db: Session, session_id: int) -> bool:
        done = db.execute(delete(GameSession).where(GameSession.id == session_id))
        return done.rowcount > 0

    def set_status(self, db: Session, session_id: int, finished: bool, now: datetime) -> None:
        sessions = GameSession.__table__
        db.execute(
            update(sessions).where(sessions.c.id == session_id).values(
                status=STATUS_FINISHED if finished else STATUS_IN_PROGRESS,
                finished_at=now if finished else None,
                updated_at=now,
            )
        )

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
            head = cursor.execute(_SESSION_HEAD, (session_id,)).fetchall()
            if not head:
                return None
            log = cursor.execute(_ACTIVE_LOG, (session_id, session_id)).fetchall()
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
               after: int | None = None) -> int:
        """Append actions (JSON texts) after seq ``after`` (default: the last seq used); returns
        the new last seq. This is the hot path: one INSERT on the driver's cursor, no ORM unit of
        work and no SQL compilation (the statement text is fixed)."""
        seq = self.last_seq(db, session_id) if after is None else after
        stamp = self._stamp(now)
        rows = []
        for action in actions:
            seq += 1
            rows.append((session_id, seq, action, stamp))
        if rows:
            cursor = _cursor(db)
            try:
                cursor.executemany(_APPEND, rows)
            finally:
                cursor.close()
        return seq

    def touch(self, db: Session, session_id: int, now: datetime) -> None:
        """``updated_at`` after an entry that changes nothing else about the session (hot path)."""
        cursor = _cursor(db)
        try:
            cursor.execute(_TOUCH, (self._stamp(now), session_id))
        finally:
            cursor.close()

    def log_position(self, db: Session, session_id: int) -> tuple[bool, int, int]:
        """(session exists, last seq used, last active seq) in one query (hot path: every change
        checks it inside its write transaction)."""
        cursor = _cursor(db)
        try:
            exists, last_seq, last_active = cursor.execute(_LOG_POSITION, (session_id,) * 3).fetchone()
        finally:
            cursor.close()
        return bool(exists), last_seq or 0, last_active or 0

    def _stamp(self, moment: datetime) -> Any:
        """A time as SQLAlchemy's DateTime column writes it (its own bind processor), for the
        statements run on the driver's cursor."""
        return self._time_in(moment) if self._time_in is not None else moment

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

    def write_results(self, db: Session, session_id: int, rows: Sequence[ResultRow]) -> None:
        self.clear_results(db, session_id)
        for row in rows:
            db.add(Result(session_id=session_id, player_id=row.player_id, score=row.score, rank=row.rank,
                          winner=row.winner, eliminated=row.eliminated))
        db.flush()

    def finished_without_results(self, db: Session) -> list[int]:
        """Finished sessions with no results rows (a database older than migration 0002)."""
        return [r[0] for r in db.execute(text(
            "SELECT s.id FROM sessions s WHERE s.status = 'finished' "
            "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.session_id = s.id) ORDER BY s.id"))]

    def clear_results(self, db: Session, session_id: int) -> None:
        results = Result.__table__
        db.execute(delete(results).where(results.c.session_id == session_id))

    # -- reading many sessions at once --------------------------------------------------------

    def summaries(self, db: Session, *, status: str | None = None, game: str | None = None,
                  player: str | None = None, since: datetime | None = None,
                  until: datetime | None = None) -> list[dict[str, Any]]:
        """Sessions newest first, with their entry count, seated names and winners."""
        where = ["1=1"]
        params: dict[str, Any] = {}
        if status is not None:
            where.append("s.status = :status")
            params["status"] = status
        if game is not None:
            where.append("s.game = :game")
            params["game"] = game
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM seats st JOIN players p ON p.id = st.player_id "
                         "WHERE st.session_id = s.id AND p.name = :player)")
            params["player"] = player
        if since is not None:
            where.append("s.started_at >= :since")
            params["since"] = since
        if until is not None:
            where.append("s.started_at < :until")
            params["until"] = until
        sql = text(
            "SELECT s.id, s.game, s.status, s.started_at, s.updated_at, s.finished_at, "
            "(SELECT COUNT(*) FROM actions a WHERE a.session_id = s.id AND a.retracted_at IS NULL) AS entries "
            f"FROM sessions s WHERE {' AND '.join(where)} ORDER BY s.started_at DESC, s.id DESC"
        )
        # Times compare as the DateTime column stores them (same text form), not as sqlite3 adapts them.
        moment = GameSession.__table__.c.started_at.type
        sql = sql.bindparams(*(bindparam(name, type_=moment) for name in ("since", "until") if name in params))
        sql = sql.columns(started_at=GameSession.__table__.c.started_at.type,
                  updated_at=GameSession.__table__.c.updated_at.type,
                  finished_at=GameSession.__table__.c.finished_at.type)
        rows = [dict(r._mapping) for r in db.execute(sql, params)]
        if not rows:
            return rows
        ids = [r["id"] for r in rows]
        seated: dict[int, list[str]] = {i: [] for i in ids}
        winners: dict[int, list[str]] = {i: [] for i in ids}
        for chunk in _chunks(ids, 500):
            marks = ",".join(str(int(i)) for i in chunk)
            for sid, name, won in db.execute(text(
                "SELECT st.session_id, p.name, COALESCE(r.winner, 0) FROM seats st "
                "JOIN players p ON p.id = st.player_id "
                "LEFT JOIN results r ON r.session_id = st.session_id AND r.player_id = st.player_id "
                f"WHERE st.session_id IN ({marks}) ORDER BY st.session_id, st.position"
            )):
                seated[sid].append(name)
                if won:
                    winners[sid].append(name)
        for row in rows:
            row["players"] = seated[row["id"]]
            row["winners"] = winners[row["id"]]
        return rows

    # -- statistics (SQL over the results table) ----------------------------------------------

    def player_game_stats(self, db: Session) -> list[tuple[str, str, int, int, float]]:
        """(player, game, games, wins, best score) for every player and game they finished."""
        return [tuple(r) for r in db.execute(text(
            "SELECT p.name, s.game, COUNT(*), SUM(r.winner), MAX(r.score) "
            "FROM results r JOIN players p ON p.id = r.player_id JOIN sessions s ON s.id = r.session_id "
            "WHERE s.status = 'finished' GROUP BY p.id, s.game ORDER BY p.name, s.game"
        ))]

    def player_totals(self, db: Session) -> list[tuple[str, int, int]]:
        """(player, games, wins) for every profile, 0 games included."""
        return [tuple(r) for r in db.execute(text(
            "SELECT p.name, COUNT(s.id), COALESCE(SUM(CASE WHEN s.id IS NOT NULL THEN r.winner END), 0) "
            "FROM players p LEFT JOIN results r ON r.player_id = p.id "
            "LEFT JOIN sessions s ON s.id = r.session_id AND s.status = 'finished' "
            "GROUP BY p.id ORDER BY p.name"
        ))]

    def game_totals(self, db: Session) -> list[tuple[str, int, float | None, float | None]]:
        """(game, games finished, average winning score, best score)."""
        return [tuple(r) for r in db.execute(text(
            "WITH won AS (SELECT session_id, MAX(score) AS score FROM results WHERE winner GROUP BY session_id), "
            "best AS (SELECT session_id, MAX(score) AS score FROM results GROUP BY session_id) "
            "SELECT s.game, COUNT(*), AVG(won.score), MAX(best.score) FROM sessions s "
            "LEFT JOIN won ON won.session_id = s.id LEFT JOIN best ON best.session_id = s.id "
            "WHERE s.status = 'finished' GROUP BY s.game ORDER BY s.game"
        ))]

    def best_scorers(self, db: Session) -> list[tuple[str, str, float, int]]:
        """(game, player, score, session) for every result equal to its game's best score."""
        return [tuple(r) for r in db.execute(text(
            "WITH best AS (SELECT s.game AS game, MAX(r.score) AS score FROM results r "
            "JOIN sessions s ON s.id = r.session_id WHERE s.status = 'finished' GROUP BY s.game) "
            "SELECT best.game, p.name, r.score, s.id FROM best "
            "JOIN sessions s ON s.game = best.game AND s.status = 'finished' "
            "JOIN results r ON r.session_id = s.id AND r.score = best.score "
            "JOIN players p ON p.id = r.player_id ORDER BY best.game, s.started_at, s.id, p.name"
        ))]

    def head_to_head(self, db: Session, a: str, b: str) -> list[tuple[str, int, int, int, int, int, int]]:
        """Per game: (game, games together, a's wins, b's wins, a ranked ahead, b ranked ahead,
        ranked level)."""
        return [tuple(r) for r in db.execute(text(
            "SELECT s.game, COUNT(*), SUM(ra.winner), SUM(rb.winner), SUM(ra.rank < rb.rank), "
            "SUM(rb.rank < ra.rank), SUM(ra.rank = rb.rank) "
            "FROM results ra JOIN results rb ON rb.session_id = ra.session_id "
            "JOIN players pa ON pa.id = ra.player_id JOIN players pb ON pb.id = rb.player_id "
            "JOIN sessions s ON s.id = ra.session_id "
            "WHERE pa.name = :a AND pb.name = :b AND s.status = 'finished' GROUP BY s.game ORDER BY s.game"
        ), {"a": a, "b": b})]

    def table_counts(self) -> dict[str, int]:
        """Rows per table: what the import tests compare before and after."""
        with self.read() as db:
            return {name: db.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar_one()
                    for name in ("players", "sessions", "seats", "actions", "results")}


# the session and its seats (one row per seat; one row with NULL names if it has none)
_SESSION_HEAD = (
    "SELECT s.game, s.variant, s.first_player, s.assist, s.setup, s.started_at, s.updated_at, p.name, p.id "
    "FROM sessions s LEFT JOIN seats st ON st.session_id = s.id LEFT JOIN players p ON p.id = st.player_id "
    "WHERE s.id = ? ORDER BY st.position")
_APPEND = "INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)"
_TOUCH = "UPDATE sessions SET updated_at = ? WHERE id = ?"
_LOG_POSITION = (
    "SELECT EXISTS (SELECT 1 FROM sessions WHERE id = ?), (SELECT MAX(seq) FROM actions WHERE session_id = ?), "
    "(SELECT MAX(seq) FROM actions WHERE session_id = ? AND retracted_at IS NULL)")
# the active entries, plus the last one used if it was retracted (it gives the last seq)
_ACTIVE_LOG = (
    "SELECT seq, action, retracted_at IS NULL FROM actions WHERE session_id = ? "
    "AND (retracted_at IS NULL OR seq = (SELECT MAX(seq) FROM actions WHERE session_id = ?)) ORDER BY seq")


def _cursor(db: Session) -> Any:
    """A cursor of the sqlite3 connection under ``db``, inside its transaction (the connection is
    looked up once per session: a store session is one transaction on one connection)."""
    driver = db.info.get("driver")
    if driver is None:
        driver = db.info["driver"] = db.connection().connection.driver_connection
    assert driver is not None
    return driver.cursor()


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
