"""Per-game summaries and monthly totals: the ``game_summaries`` row of each session (what lists
and statistics read), rewritten in the transaction of every change to a game, and the monthly
figures (``game_months``, ``player_months``) a finished game counts in. :func:`statements` holds
each dialect's text of them (the month of a time and the seconds between two times differ;
everything else is the same SQL)."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import cached_property, lru_cache
from types import SimpleNamespace
from typing import Any, Iterable, Sequence

from sqlalchemy import text
from sqlmodel import Session

from companion.store.connection import Database, Tx, _chunks, _cursor, _pyformat, _run, _same
from models.tables import STATUS_FINISHED

_SUMMARY_STATUS = "SELECT status FROM game_summaries WHERE session_id = ?"
_SEAT_PLAYERS = "SELECT player_id FROM seats WHERE session_id = ?"
# PostgreSQL only (psycopg's style): the month's row locked by a recount
_MONTH_PLACEHOLDER = ("INSERT INTO game_months (game, month, games, win_score_n, spread_n, actions_sum, duration_n) "
                      "VALUES (%s, %s, 0, 0, 0, 0, 0) ON CONFLICT (game, month) DO NOTHING")
_LOCK_MONTH = "SELECT 1 FROM game_months WHERE game = %s AND month = %s FOR UPDATE"


class Summaries(Database):
    """The store's jobs on summaries and monthly figures (see :class:`companion.store.Store`)."""

    @cached_property
    def sql(self) -> SimpleNamespace:
        """Every statement whose text depends on this database's dialect (:func:`statements`)."""
        return statements(self.dialect)

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
        bounds: tuple[Any, Any] = (start, end)
        if self.path is None:
            self._lock_month(db, game, month)
            bounds = (datetime.fromisoformat(start).replace(tzinfo=timezone.utc),
                      datetime.fromisoformat(end).replace(tzinfo=timezone.utc))
        one_month = "AND g.game = :g AND g.started_at >= :a AND g.started_at < :b"
        q = self._q
        if self.path is None:  # recounted in place: the locked row stays the lock until the commit
            _run(db, self.sql.game_month_upsert, {"g": game, "a": bounds[0], "b": bounds[1]})
            _run(db, q("DELETE FROM game_months WHERE game = :g AND month = :m AND NOT EXISTS (SELECT 1 FROM "
                       "game_summaries g WHERE g.status = 'finished' " + one_month + ")"),
                 {"g": game, "m": month, "a": bounds[0], "b": bounds[1]})
        else:
            _run(db, "DELETE FROM game_months WHERE game = :g AND month = :m", {"g": game, "m": month})
            _run(db, self.sql.game_month, {"g": game, "a": bounds[0], "b": bounds[1]})
        if player_ids is None:
            _run(db, q("DELETE FROM player_months WHERE game = :g AND month = :m"), {"g": game, "m": month})
            _run(db, q(self.sql.player_months_insert.format(where=one_month)), {"g": game, "a": bounds[0], "b": bounds[1]})
            return
        if not player_ids:
            return
        marks = ",".join(str(int(p)) for p in player_ids)
        _run(db, q(f"DELETE FROM player_months WHERE game = :g AND month = :m AND player_id IN ({marks})"),
             {"g": game, "m": month})
        _run(db, q(self.sql.player_months_insert.format(
            where=f"AND g.game = :g AND g.started_at >= :a AND g.started_at < :b AND r.player_id IN ({marks})")),
            {"g": game, "a": bounds[0], "b": bounds[1]})

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
        # the same figures over a whole period, not month by month (a club table's statistics)
        player_totals_select=PLAYER_MONTHS_TEMPLATE.format(month="NULL").replace("g.game, month\n", "g.game\n"),
        game_totals_select=GAME_MONTHS_TEMPLATE.format(month="NULL").replace("g.game, month\n", "g.game\n"),
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
