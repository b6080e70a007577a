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
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import select as sa_select
from sqlalchemy import URL, bindparam, create_engine, delete, event, exists, func, insert, text, update
from sqlalchemy.engine import Engine as SAEngine
from sqlmodel import Session, select

from companion.paths import absolute
from models.tables import (
    STATUS_FINISHED,
    STATUS_IN_PROGRESS,
    ActionRow,
    GameSession,
    GameSummary,
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
        names = dict(db.execute(text("SELECT id, name FROM players WHERE id IN (%s)"
                                     % ",".join(str(int(p)) for p in player_ids))).all()) if player_ids else {}
        for position, player_id in enumerate(player_ids):
            # the seat keeps the name the record uses now, whatever the profile is called later
            db.add(Seat(session_id=row.id, position=position, player_id=player_id, name=names.get(player_id)))
        db.flush()
        assert row.id is not None
        self.refresh_summary(db, row.id)
        return row

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
        done = db.execute(delete(GameSession).where(GameSession.id == session_id))
        return done.rowcount > 0

    def touch(self, db: Session, session_id: int, now: datetime) -> None:
        sessions = GameSession.__table__
        db.execute(update(sessions).where(sessions.c.id == session_id).values(updated_at=now))

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

    def append(self, db: Session, session_id: int, actions: Iterable[str], now: datetime,
               after: int | None = None) -> int:
        """Append actions (JSON texts) after seq ``after`` (default: the last seq used); returns
        the new last seq. One INSERT statement, no ORM unit of work: this is the hot path."""
        seq = self.last_seq(db, session_id) if after is None else after
        rows = []
        for action in actions:
            seq += 1
            rows.append({"session_id": session_id, "seq": seq, "action": action, "created_at": now})
        if rows:
            db.execute(insert(ActionRow.__table__), rows)
        return seq

    def log_position(self, db: Session, session_id: int) -> tuple[bool, int, int]:
        """(session exists, last seq used, last active seq) in one query."""
        row = db.execute(text(
            "SELECT EXISTS (SELECT 1 FROM sessions WHERE id = :s), "
            "(SELECT MAX(seq) FROM actions WHERE session_id = :s), "
            "(SELECT MAX(seq) FROM actions WHERE session_id = :s AND retracted_at IS NULL)"
        ), {"s": session_id}).one()
        return bool(row[0]), row[1] or 0, row[2] or 0

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

    # -- per-game summaries (what lists and statistics read) -----------------------------------

    def refresh_summary(self, db: Session, session_id: int) -> None:
        """Rewrite the session's summary row from its rows (status, active entries, seats,
        results): called in the same transaction as every change to a game. Cheap: one session's
        rows, through their indexes."""
        db.execute(text(SUMMARY_SQL.format(where="WHERE s.id = :s", actions_where="AND session_id = :s")),
                   {"s": session_id})

    def refresh_summaries(self, db: Session, session_ids: Sequence[int] | None = None) -> None:
        """Rewrite the summaries of these sessions (all when None): after a merge, a repair."""
        if session_ids is None:
            db.execute(text(SUMMARY_SQL.format(where="", actions_where="")))
            return
        for chunk in _chunks(list(session_ids), 500):
            marks = ",".join(str(int(i)) for i in chunk)
            db.execute(text(SUMMARY_SQL.format(where=f"WHERE s.id IN ({marks})",
                                               actions_where=f"AND session_id IN ({marks})")))

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
            "SELECT st.session_id, p.name, r.score, r.rank, COALESCE(r.winner, 0) FROM seats st "
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
        return int(db.execute(sa_select(func.count()).select_from(gs).where(*self._history_where(query))).scalar_one())

    def player_ids_matching(self, db: Session, words: str) -> list[int]:
        """Profiles whose name contains ``words``, ignoring case and accents (the players table
        is small: compared in Python, where SQLite's LIKE would miss "é" against "E")."""
        needle = fold(words)
        return [pid for pid, name in db.execute(text("SELECT id, name FROM players")) if needle in fold(name)]

    # -- statistics (SQL over results and summaries) --------------------------------------------

    def player_totals(self, db: Session, period: Period = (None, None),
                      player_id: int | None = None) -> list[tuple[int, str, int, int, float | None,
                                                                   float | None, float | None]]:
        """(player id, name, games, wins, average score, best score, average place) per profile,
        over the finished games started in ``period``; profiles with no game included."""
        where, params = _period(period)
        one = "WHERE p.id = :pid" if player_id is not None else ""
        if player_id is not None:
            params["pid"] = player_id
        sql = text(
            "SELECT p.id, p.name, COUNT(x.session_id), COALESCE(SUM(x.winner), 0), AVG(x.score), MAX(x.score), "
            "AVG(x.rank) FROM players p LEFT JOIN (SELECT r.player_id, r.session_id, r.winner, r.score, r.rank "
            "FROM results r JOIN game_summaries g ON g.session_id = r.session_id "
            f"WHERE g.status = 'finished' {where}) x ON x.player_id = p.id {one} "
            "GROUP BY p.id ORDER BY p.name")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]  # type: ignore[misc]

    def player_places(self, db: Session, period: Period = (None, None),
                      player_id: int | None = None) -> list[tuple[int, int, int]]:
        """(player id, place, how many times) over the finished games of ``period``."""
        where, params = _period(period)
        if player_id is not None:
            where += " AND r.player_id = :pid"
            params["pid"] = player_id
        sql = text("SELECT r.player_id, r.rank, COUNT(*) FROM results r "
                   "JOIN game_summaries g ON g.session_id = r.session_id "
                   f"WHERE g.status = 'finished' {where} GROUP BY r.player_id, r.rank ORDER BY r.player_id, r.rank")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]  # type: ignore[misc]

    def player_game_stats(self, db: Session, period: Period = (None, None),
                          player_id: int | None = None) -> list[tuple[int, str, int, int, float, float]]:
        """(player id, game, games, wins, best score, average score) per player and game."""
        where, params = _period(period)
        if player_id is not None:
            where += " AND r.player_id = :pid"
            params["pid"] = player_id
        sql = text("SELECT r.player_id, g.game, COUNT(*), SUM(r.winner), MAX(r.score), AVG(r.score) FROM results r "
                   "JOIN game_summaries g ON g.session_id = r.session_id "
                   f"WHERE g.status = 'finished' {where} GROUP BY r.player_id, g.game ORDER BY r.player_id, g.game")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]  # type: ignore[misc]

    def game_totals(self, db: Session, period: Period = (None, None)) -> list[tuple[Any, ...]]:
        """(game, games finished, average winning score, best score, average spread between the
        best and worst score, average number of entries, average duration in seconds of the
        games played live (imported ones have none))."""
        where, params = _period(period)
        sql = text(
            "WITH won AS (SELECT r.session_id, MAX(r.score) AS score FROM results r WHERE r.winner "
            "GROUP BY r.session_id) "
            "SELECT g.game, COUNT(*), AVG(won.score), MAX(g.top_score), AVG(g.top_score - g.low_score), "
            "AVG(g.actions), AVG(NULLIF(g.duration_s, 0)) FROM game_summaries g "
            f"LEFT JOIN won ON won.session_id = g.session_id WHERE g.status = 'finished' {where} "
            "GROUP BY g.game ORDER BY g.game")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]

    def winners_by_game(self, db: Session, period: Period = (None, None)) -> list[tuple[str, str, int]]:
        """(game, player, wins), most wins first within each game."""
        where, params = _period(period)
        sql = text("SELECT g.game, p.name, COUNT(*) AS n FROM results r "
                   "JOIN game_summaries g ON g.session_id = r.session_id JOIN players p ON p.id = r.player_id "
                   f"WHERE r.winner AND g.status = 'finished' {where} "
                   "GROUP BY g.game, r.player_id ORDER BY g.game, n DESC, p.name")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]  # type: ignore[misc]

    def best_scorers(self, db: Session, period: Period = (None, None)) -> list[tuple[str, str, float, int]]:
        """(game, player, score, session) for every result equal to its game's best score."""
        where, params = _period(period)
        sql = text(
            "WITH best AS (SELECT g.game AS game, MAX(g.top_score) AS score FROM game_summaries g "
            f"WHERE g.status = 'finished' {where} GROUP BY g.game) "
            "SELECT best.game, p.name, r.score, g.session_id FROM best "
            "JOIN game_summaries g ON g.game = best.game AND g.status = 'finished' AND g.top_score = best.score "
            "JOIN results r ON r.session_id = g.session_id AND r.score = best.score "
            f"JOIN players p ON p.id = r.player_id WHERE 1=1 {where} "
            "ORDER BY best.game, g.started_at, g.session_id, p.name")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]  # type: ignore[misc]

    def scores_by_month(self, db: Session, player_id: int,
                        period: Period = (None, None)) -> list[tuple[str, int, float, int]]:
        """(YYYY-MM, games, average score, wins) of one player's finished games, month by month."""
        where, params = _period(period)
        params["pid"] = player_id
        sql = text("SELECT substr(g.started_at, 1, 7) AS month, COUNT(*), AVG(r.score), SUM(r.winner) "
                   "FROM results r JOIN game_summaries g ON g.session_id = r.session_id "
                   f"WHERE r.player_id = :pid AND g.status = 'finished' {where} GROUP BY month ORDER BY month")
        return [tuple(r) for r in db.execute(_typed(sql, params), params)]  # type: ignore[misc]

    def head_to_head(self, db: Session, a: int, b: int,
                     period: Period = (None, None)) -> list[tuple[str, int, int, int, int, int, int]]:
        """Per game, between profiles ``a`` and ``b``: (game, games together, a's wins, b's wins,
        a ranked ahead, b ranked ahead, ranked level)."""
        where, params = _period(period)
        params.update(a=a, b=b)
        sql = text(
            "SELECT g.game, COUNT(*), SUM(ra.winner), SUM(rb.winner), SUM(ra.rank < rb.rank), "
            "SUM(rb.rank < ra.rank), SUM(ra.rank = rb.rank) "
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


# A session's summary from its rows; ``where`` picks the sessions, ``actions_where`` narrows the
# action count to them (the same query migration 0004 fills the table with).
SUMMARY_SQL = """
INSERT OR REPLACE INTO game_summaries (session_id, game, status, started_at, finished_at, updated_at,
    last_played_at, actions, duration_s, players, winners, top_score, low_score)
SELECT s.id, s.game,
    CASE WHEN s.status = 'finished' THEN 'finished'
         WHEN s.abandoned_at IS NOT NULL THEN 'abandoned' ELSE 'in_progress' END,
    s.started_at, s.finished_at, s.updated_at,
    COALESCE(a.last, s.started_at),
    COALESCE(a.n, 0),
    MAX(0.0, ROUND((julianday(COALESCE(a.last, s.started_at)) - julianday(s.started_at)) * 86400.0, 3)),
    (SELECT COUNT(*) FROM seats st WHERE st.session_id = s.id),
    (SELECT COUNT(*) FROM results r WHERE r.session_id = s.id AND r.winner),
    (SELECT MAX(r.score) FROM results r WHERE r.session_id = s.id),
    (SELECT MIN(r.score) FROM results r WHERE r.session_id = s.id)
FROM sessions s
LEFT JOIN (SELECT session_id, COUNT(*) AS n, MAX(created_at) AS last FROM actions
           WHERE retracted_at IS NULL {actions_where} GROUP BY session_id) a ON a.session_id = s.id
{where}
"""


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
    conn.exec_driver_sql(f"BEGIN {mode}")
