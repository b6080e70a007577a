"""The rows of games: players, sessions and their seats, the action log, results (what the
service writes in one transaction per change), and whole games written at once (an import). The
hot path's statements are fixed texts run on the driver's cursor."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Sequence

import msgspec
from sqlalchemy import delete, func, text, update
from sqlmodel import Session, col, select

from companion.store.connection import NAME_LOCKS, Tx, _chunks, _cursor, _driver, _run, _stored_time
from companion.store.summaries import Summaries
from models.names import name_key
from models.tables import STATUS_FINISHED, STATUS_IN_PROGRESS, ActionRow, GameSession, Player, Seat, table

# json.dumps with options other than its defaults builds an encoder on every call: a tap's entry
# costs half as much to write with one made once (the same options, so the same text)
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def dumps(data: Any) -> str:
    """JSON as the store keeps it: compact, UTF-8 text, keys in the order given."""
    return _ENCODE(data)


_ENCODE_STRUCT = msgspec.json.Encoder().encode


def action_text(action: msgspec.Struct) -> str:
    """A parsed action's stored text, encoded straight from its struct (a tap converts its action
    once): the very text :func:`dumps` writes for its data (``msgspec.to_builtins``), which
    ``tests/test_tap_hot_path.py`` checks on every game's actions."""
    return _ENCODE_STRUCT(action).decode()


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
_SEAT_PROFILES = "SELECT player_id FROM seats WHERE session_id = ? ORDER BY position"
# PostgreSQL only (psycopg's style): the game's row locked by a change, the month's by a recount
_LOCK_SESSION = "SELECT 1 FROM sessions WHERE id = %s FOR UPDATE"
_LOG_POSITION = (
    "SELECT EXISTS (SELECT 1 FROM sessions WHERE id = ?), (SELECT MAX(seq) FROM actions WHERE session_id = ?), "
    "(SELECT MAX(seq) FROM actions WHERE session_id = ? AND retracted_at IS NULL)")
# the active entries, plus the last one used if it was retracted (it gives the last seq)
_ACTIVE_LOG = (
    "SELECT seq, action, retracted_at IS NULL FROM actions WHERE session_id = ? "
    "AND (retracted_at IS NULL OR seq = (SELECT MAX(seq) FROM actions WHERE session_id = ?)) ORDER BY seq")


class Games(Summaries):
    """The store's jobs on a game's rows (see :class:`companion.store.Store`)."""

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
        assert row.id is not None
        session_id = row.id
        names = dict(db.execute(text("SELECT id, name FROM players WHERE id IN (%s)"
                                     % ",".join(str(int(p)) for p in player_ids))).all()) if player_ids else {}
        for position, player_id in enumerate(player_ids):
            # the seat keeps the name the record uses now, whatever the profile is called later
            db.add(Seat(session_id=session_id, position=position, player_id=player_id, name=names.get(player_id)))
        db.flush()
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
        return [i for i in db.exec(select(col(GameSession.id)).order_by(col(GameSession.id))) if i is not None]

    def delete_session(self, db: Session, session_id: int) -> bool:
        counted = db.execute(text(self.sql.finished_month), {"s": session_id}).first()
        players = [p for (p,) in db.execute(text("SELECT player_id FROM seats WHERE session_id = :s"),
                                            {"s": session_id})]
        done = db.execute(delete(GameSession).where(col(GameSession.id) == session_id))
        if counted is not None:  # the monthly figures it counted in, without it
            self.refresh_months(db, counted[0], counted[1], players)
        return done.rowcount > 0  # type: ignore[attr-defined]  # a DELETE's CursorResult has it

    def set_status(self, db: Session | Tx, session_id: int, finished: bool, now: datetime) -> None:
        stamp = self._stamp(now)
        _run(db, self._q(_SET_STATUS), (STATUS_FINISHED if finished else STATUS_IN_PROGRESS, stamp if finished else None,
                               stamp, session_id))

    # -- the action log -----------------------------------------------------------------------

    def active_actions(self, db: Session, session_id: int) -> list[ActionRow]:
        return list(db.exec(
            select(ActionRow).where(ActionRow.session_id == session_id, col(ActionRow.retracted_at).is_(None))
            .order_by(col(ActionRow.seq))
        ))

    def all_actions(self, db: Session, session_id: int) -> list[ActionRow]:
        """Every entry ever made, retracted ones included (for disputes)."""
        return list(db.exec(select(ActionRow).where(ActionRow.session_id == session_id).order_by(col(ActionRow.seq))))

    def last_seq(self, db: Session, session_id: int) -> int:
        """The highest ``seq`` used by the session (retracted rows included), 0 if none."""
        value = db.exec(select(func.max(ActionRow.seq)).where(ActionRow.session_id == session_id)).one()
        return value or 0

    def last_active_seq(self, db: Session, session_id: int) -> int:
        value = db.exec(select(func.max(ActionRow.seq)).where(
            ActionRow.session_id == session_id, col(ActionRow.retracted_at).is_(None))).one()
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

    def append(self, db: Session | Tx, session_id: int, actions: Iterable[str], now: datetime,
               after: int | None = None, times: Sequence[Any] | None = None) -> int:
        """Append actions (JSON texts) after seq ``after`` (default: the last seq used); returns
        the new last seq. This is the hot path: one INSERT on the driver's cursor, no ORM unit of
        work and no SQL compilation (the statement text is fixed). ``times``: each row's time as
        :meth:`entry_times` read it (entries written again by a correction keep theirs), else
        ``now``."""
        if after is None:
            assert isinstance(db, Session), "a tap's transaction (Tx) always says after which seq"
            after = self.last_seq(db, session_id)
        seq = after
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

    def touch(self, db: Session | Tx, session_id: int, now: datetime) -> None:
        """``updated_at`` after an entry that changes nothing else about the session (hot path)."""
        _driver(db).execute(self._q(_TOUCH), (self._stamp(now), session_id))

    def entries_added(self, db: Session | Tx, session_id: int, count: int, now: datetime) -> None:
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

    def retract(self, db: Session, seqs: Sequence[int], session_id: int, now: datetime) -> None:
        if not seqs:
            return
        actions = table(ActionRow)
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

    def set_abandoned(self, db: Session, session_id: int, when: datetime | None) -> None:
        sessions = table(GameSession)
        db.execute(update(sessions).where(sessions.c.id == session_id).values(abandoned_at=when))
