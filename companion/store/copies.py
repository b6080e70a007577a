"""The rows of a migration (``companion migrate``, :mod:`companion.service.migrate`): a tablet's
file read in one read-only snapshot, and a club database's copies of its games — read back,
written whole, brought up to date. The migration checks, compares and reports; the SQL is here."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from sqlalchemy import insert, text, update
from sqlalchemy import select as sa_select
from sqlmodel import Session

from companion.store.connection import BUSY_TIMEOUT_MS, _stored_time
from companion.store.games import Games
from models.tables import ActionRow, GameSession, Seat, StoreInfo, table


@dataclass(frozen=True)
class LogRow:
    seq: int
    action: str  # JSON text, as stored
    created_at: datetime  # naive UTC, as the DateTime columns keep it
    retracted_at: datetime | None


@dataclass
class SourceGame:
    session_id: int
    game: str
    variant: str
    first_player: str
    assist: bool
    status: str
    started_at: datetime
    finished_at: datetime | None
    updated_at: datetime
    setup: str | None
    abandoned_at: datetime | None
    table_name: str | None
    origin: str  # what the copy's sessions.origin will be
    names: list[str] = field(default_factory=list)  # seat names (the record's), seat 0 first
    profiles: list[int] = field(default_factory=list)  # the source's profile ids, same order
    log: list[LogRow] = field(default_factory=list)  # every entry, retracted ones included, by seq

    @property
    def envelope(self) -> tuple[Any, ...]:
        return (self.game, self.variant, self.first_player, self.setup, tuple(self.names))


@dataclass(frozen=True)
class ClubGame:
    session_id: int
    envelope: tuple[Any, ...]
    status: str
    finished_at: datetime | None
    updated_at: datetime
    abandoned_at: datetime | None
    log: list[LogRow]
    kept: tuple[Any, ...] = ()  # what only the read back compares: assist, start time, table name


# -- the tablet's file, read-only -------------------------------------------------------------------


def open_tablet(source: Path) -> sqlite3.Connection:
    """A read-only connection to a tablet's file, inside one snapshot (a game being played
    meanwhile is read as it was). With no write-ahead log beside it the file holds every
    committed change: opened immutable, SQLite creates nothing beside it. With one (the app is
    running, or was stopped hard), mode=ro reads the log's committed changes too and never writes."""
    has_log = Path(str(source) + "-wal").exists()
    conn = sqlite3.connect(f"{source.as_uri()}?{'mode=ro' if has_log else 'immutable=1'}", uri=True,
                           timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        conn.execute("BEGIN")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def tablet_store_id(conn: sqlite3.Connection) -> str | None:
    found = conn.execute("SELECT value FROM store_info WHERE key = 'store_id'").fetchone()
    return str(found[0]) if found is not None and found[0] else None


def tablet_games(conn: sqlite3.Connection, store_id: str) -> tuple[dict[int, tuple[str, datetime]], list[SourceGame]]:
    """(source profile id → (name, created_at); every game with its seats and whole log)."""
    players = {pid: (name, _stored_time(created)) for pid, name, created in
               conn.execute("SELECT id, name, created_at FROM players")}
    games: dict[int, SourceGame] = {}
    for (sid, game, variant, first, assist, status, started, finished, updated, setup, abandoned, table_name,
         origin) in conn.execute(
            "SELECT id, game, variant, first_player, assist, status, started_at, finished_at, updated_at, setup, "
            "abandoned_at, table_name, origin FROM sessions ORDER BY id"):
        games[sid] = SourceGame(
            session_id=sid, game=game, variant=variant, first_player=first, assist=bool(assist), status=status,
            started_at=_stored_time(started), finished_at=_maybe_time(finished), updated_at=_stored_time(updated),
            setup=setup, abandoned_at=_maybe_time(abandoned), table_name=table_name, origin=origin or f"{store_id}/{sid}")
    for sid, name, pid in conn.execute(
            "SELECT st.session_id, COALESCE(st.name, p.name), st.player_id FROM seats st "
            "JOIN players p ON p.id = st.player_id ORDER BY st.session_id, st.position"):
        games[sid].names.append(name)
        games[sid].profiles.append(pid)
    for sid, seq, action, created, retracted in conn.execute(
            "SELECT session_id, seq, action, created_at, retracted_at FROM actions ORDER BY session_id, seq"):
        games[sid].log.append(LogRow(seq, action, _stored_time(created), _maybe_time(retracted)))
    return players, list(games.values())


def _maybe_time(value: Any) -> datetime | None:
    return None if value is None else _stored_time(value)


def _naive(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.replace(tzinfo=None)


def _utc(moment: datetime) -> datetime:
    """A stored (naive UTC) time as the tables take it: aware UTC."""
    return moment.replace(tzinfo=timezone.utc) if moment.utcoffset() is None else moment.astimezone(timezone.utc)


def _aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else _utc(moment)


# -- the club's copies ------------------------------------------------------------------------------


class Copies(Games):
    """The store's jobs for a migration into this database (see :class:`companion.store.Store`)."""

    def store_id(self, db: Session) -> str | None:
        """This database's identity (``store_info``), which a copied game's origin starts with."""
        info = table(StoreInfo).c
        return db.execute(sa_select(info.value).where(info.key == "store_id")).scalar()

    def copied_origins(self, db: Session) -> dict[str, int]:
        """The origin of each game copied here → its session id."""
        s = table(GameSession).c
        return {origin: sid for sid, origin in db.execute(sa_select(s.id, s.origin).where(s.origin.is_not(None)))}

    def copied_game(self, db: Session, session_id: int) -> ClubGame:
        """A club game's rows as they are in the database now (read again, not from the ORM's memory)."""
        s = table(GameSession).c
        row = db.execute(sa_select(s.game, s.variant, s.first_player, s.setup, s.status, s.finished_at,
                                   s.updated_at, s.abandoned_at, s.assist, s.started_at, s.table_name)
                         .where(s.id == session_id)).one()
        names = tuple(self.seat_names(db, session_id))
        a = table(ActionRow).c
        log = [LogRow(seq, action, created.replace(tzinfo=None), _naive(retracted))
               for seq, action, created, retracted in db.execute(
                   sa_select(a.seq, a.action, a.created_at, a.retracted_at)
                   .where(a.session_id == session_id).order_by(a.seq))]
        return ClubGame(session_id, (row.game, row.variant, row.first_player, row.setup, names), row.status,
                        _naive(row.finished_at), row.updated_at.replace(tzinfo=None), _naive(row.abandoned_at), log,
                        (bool(row.assist), _naive(row.started_at), row.table_name))

    def copied_profile(self, db: Session, name: str, created: datetime) -> tuple[int, str, bool]:
        """(id, name, whether it was created) of the profile made for a name the club did not have
        when it was read. On PostgreSQL the app on a tablet may be creating the very same name at
        this moment: the insert then waits for it and does nothing, and the profile it made is used."""
        if self.path is not None:  # SQLite: the write transaction excludes every other writer
            player = self.add_player(db, name, _utc(created))
            assert player.id is not None
            return player.id, player.name, True
        made = db.execute(text("INSERT INTO players (name, created_at) VALUES (:n, :t) ON CONFLICT (name) "
                               "DO NOTHING RETURNING id"), {"n": name, "t": _utc(created)}).scalar()
        if made is not None:
            return made, name, True
        return db.execute(text("SELECT id FROM players WHERE name = :n"), {"n": name}).scalar_one(), name, False

    def finished_months(self, db: Session, session_id: int) -> list[tuple[str, str]]:
        """(game, month) the session counts in now: one when it is finished, else none."""
        return [(g, m) for g, m in db.execute(text(self.sql.finished_month), {"s": session_id})]

    def copy_game(self, db: Session, game: SourceGame, profiles: Sequence[int]) -> int:
        """Write a tablet's game whole (its session, seats and log); returns its new session id."""
        row = GameSession(game=game.game, variant=game.variant, first_player=game.first_player, assist=game.assist,
                          status=game.status, started_at=_utc(game.started_at),
                          finished_at=_aware(game.finished_at), updated_at=_utc(game.updated_at),
                          setup=game.setup, abandoned_at=_aware(game.abandoned_at), table_name=game.table_name,
                          origin=game.origin)
        db.add(row)
        db.flush()
        assert row.id is not None
        for position, (name, player_id) in enumerate(zip(game.names, profiles)):
            db.add(Seat(session_id=row.id, position=position, player_id=player_id, name=name))
        db.flush()
        self.insert_log(db, row.id, game.log)
        return row.id

    def insert_log(self, db: Session, session_id: int, rows: Sequence[LogRow]) -> None:
        if rows:
            db.execute(insert(table(ActionRow)), [
                {"session_id": session_id, "seq": r.seq, "action": r.action, "created_at": _utc(r.created_at),
                 "retracted_at": _aware(r.retracted_at)} for r in rows])

    def bring_up_to_date(self, db: Session, club: ClubGame, game: SourceGame) -> int:
        """The club's copy (an earlier state of the game) made the tablet's: the entries it retracted
        since marked so, the new ones appended, the session's status and times. Returns the number
        of entries added."""
        a = table(ActionRow).c
        known = {row.seq: row for row in club.log}
        for row in game.log:
            mine = known.get(row.seq)
            if mine is not None and mine.retracted_at != row.retracted_at:
                db.execute(update(table(ActionRow)).where(a.session_id == club.session_id, a.seq == row.seq)
                           .values(retracted_at=_aware(row.retracted_at)))
        new = [row for row in game.log if row.seq not in known]
        self.insert_log(db, club.session_id, new)
        s = table(GameSession).c
        db.execute(update(table(GameSession)).where(s.id == club.session_id).values(
            status=game.status, finished_at=_aware(game.finished_at), updated_at=_utc(game.updated_at),
            abandoned_at=_aware(game.abandoned_at)))
        return len(new)
