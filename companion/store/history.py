"""History pages and statistics: pages of the per-game summaries with their seats, their counts,
and the players' and games' figures — the monthly totals for whole months, the summaries and
results rows for the days around them, or for one club table (``table``: the monthly figures
know no tables). Never a replay, never the action log. A part of the store, ``store.history``,
over the store's database (given to it: its dialect's statements and, on SQLite, its planner's
hints)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any, NamedTuple

from sqlalchemy import bindparam, exists, func, text
from sqlalchemy import select as sa_select
from sqlmodel import Session

from companion.store.club import NO_TABLE, Period, table_sessions
from companion.store.connection import Database
from companion.store.evenings import evening_sessions
from companion.store.summaries import statements
from models.tables import GameSummary, Seat, table


@dataclass(frozen=True)
class HistoryQuery:
    """What a history list asks for; ``player_ids``: games where one of these profiles sat."""
    game: str | None = None
    status: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    player_ids: tuple[int, ...] | None = None
    table: str | None = None  # games of one table (companion.store.club.NO_TABLE: of a tablet with no name)
    evening: int | None = None  # the games of one club evening (companion.store.evenings)

class PlayerFigures(NamedTuple):
    """One player's figures at one game (in one month, by month) over finished games."""
    player_id: int
    game: str
    month: str | None  # "YYYY-MM" (figures by month), else None
    games: int
    wins: int
    score_sum: float
    score_max: float
    rank_sum: int
    places: tuple[int, ...]  # how many times 1st, 2nd, 3rd, 4th, 5th, 6th or later


class GameFigures(NamedTuple):
    """One game's figures over finished games."""
    game: str
    games: int
    win_score_sum: float | None
    win_score_n: int  # games with a winner
    top_max: float | None  # the best score
    spread_sum: float | None  # best minus lowest score, summed
    spread_n: int  # games with scores
    actions_sum: int  # entries
    duration_sum: float | None
    duration_n: int  # games played live (a duration)


class RecordHolder(NamedTuple):
    name: str
    session_id: int


class PairFigures(NamedTuple):
    """Two profiles ``a`` and ``b`` at one game: games together, wins, who ranked ahead."""
    game: str
    games: int
    a_wins: int
    b_wins: int
    a_ahead: int
    b_ahead: int
    level: int  # ranked level


class History:
    """The store's history and statistics queries, ``store.history`` (see
    :class:`companion.store.Store`), on ``database``."""

    def __init__(self, database: Database):
        self.database = database
        self.sql = statements(database.dialect)  # the store's own (one per dialect)

    def _where(self, query: HistoryQuery) -> list[Any]:
        gs = table(GameSummary)
        seats = table(Seat)
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
        if query.table is not None:  # a club's table (companion.store.club: NO_TABLE for the unnamed)
            where.append(gs.c.session_id.in_(table_sessions(query.table)))
        if query.evening is not None:
            where.append(gs.c.session_id.in_(evening_sessions(query.evening)))
        return where

    def page(self, db: Session, query: HistoryQuery, offset: int, limit: int) -> list[dict[str, Any]]:
        """One page of summaries, newest first, each with its seats (profile name, score, place,
        winner, out of the game) in seating order. Reads the summaries and, for the page only, seats and results."""
        gs = table(GameSummary)
        sql = (sa_select(gs).where(*self._where(query))
               .order_by(gs.c.started_at.desc(), gs.c.session_id.desc()).offset(offset).limit(limit))
        return self._with_seats(db, [dict(r._mapping) for r in db.execute(sql)])

    def summary(self, db: Session, session_id: int) -> dict[str, Any] | None:
        gs = table(GameSummary)
        rows = self._with_seats(db, [dict(r._mapping) for r in db.execute(
            sa_select(gs).where(gs.c.session_id == session_id))])
        return rows[0] if rows else None

    def _with_seats(self, db: Session, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not rows:
            return rows
        marks = ",".join(str(int(r["session_id"])) for r in rows)
        seated: dict[int, list[tuple[str, float | None, int | None, bool, bool]]] = {r["session_id"]: [] for r in rows}
        for sid, name, score, rank, won, out in db.execute(text(
            "SELECT st.session_id, p.name, r.score, r.rank, CASE WHEN r.winner THEN 1 ELSE 0 END, "
            "CASE WHEN r.eliminated THEN 1 ELSE 0 END FROM seats st "
            "JOIN players p ON p.id = st.player_id "
            "LEFT JOIN results r ON r.session_id = st.session_id AND r.player_id = st.player_id "
            f"WHERE st.session_id IN ({marks}) ORDER BY st.session_id, st.position"
        )):
            seated[sid].append((name, score, rank, bool(won), bool(out)))
        for row in rows:
            row["seats"] = seated[row["session_id"]]
        return rows

    def count(self, db: Session, query: HistoryQuery) -> int:
        gs = table(GameSummary)
        if query.player_ids is None or query.table is not None or query.evening is not None:  # the summaries' indexes answer
            return int(db.execute(sa_select(func.count()).select_from(gs)
                                  .where(*self._where(query))).scalar_one())
        # Driven from the players' seats (their games by primary key), not from every game of the
        # filters: the unary + keeps SQLite from scanning a status or game index instead
        # (PostgreSQL has no unary + on text or times, and plans from its statistics).
        plus = "+" if self.database.path is not None else ""
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
                *self._where(replace(query, player_ids=None)))).scalar_one()
            if dated < seated:
                return int(db.execute(sa_select(func.count()).select_from(gs)
                                      .where(*self._where(query))).scalar_one())
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
                       by_month: bool = False, table: str | None = None) -> list[PlayerFigures]:
        """Each player's figures at each game (and month, ``by_month``) over the finished games
        started in ``period`` (at ``table``): the whole months from ``player_months``, the days
        before and after them from the summaries and results rows (all of them for one table)."""
        one = "" if player_id is None else f" AND player_id = {int(player_id)}"
        rows: list[tuple[Any, ...]] = []
        months, edges = _split(period) if table is None else (None, [period])
        if months is not None:
            where, params = _month_where(months)
            rows += [tuple(r) for r in db.execute(text(
                f"SELECT player_id, game, {'month' if by_month else 'NULL'}, SUM(games), SUM(wins), SUM(score_sum), "
                "MAX(score_max), SUM(rank_sum), SUM(place1), SUM(place2), SUM(place3), SUM(place4), SUM(place5), "
                f"SUM(place6) FROM player_months WHERE 1=1 {where}{one} "
                f"GROUP BY player_id, game{', month' if by_month else ''}"), params)]
        for edge in edges:
            where, params = _period(edge, table=table)
            if player_id is not None:
                where += f" AND r.player_id = {int(player_id)}"
            select = self.sql.player_months_select if by_month else self.sql.player_totals_select
            raw = db.execute(_typed(text(select.format(where=where)), params), params)
            rows += [tuple(r[:2]) + (r[2] if by_month else None,) + tuple(r[3:]) for r in raw]
        return [PlayerFigures._make((*r[:8], r[8:])) for r in _combine(rows, 3, maxima={6})]

    def game_figures(self, db: Session, period: Period = (None, None), table: str | None = None) -> list[GameFigures]:
        """Each game's figures over the finished games started in ``period`` (at ``table``)."""
        rows: list[tuple[Any, ...]] = []
        months, edges = _split(period) if table is None else (None, [period])
        if months is not None:
            where, params = _month_where(months)
            rows += [tuple(r) for r in db.execute(text(
                "SELECT game, SUM(games), SUM(win_score_sum), SUM(win_score_n), MAX(top_max), SUM(spread_sum), "
                "SUM(spread_n), SUM(actions_sum), SUM(duration_sum), SUM(duration_n) FROM game_months "
                f"WHERE 1=1 {where} GROUP BY game"), params)]
        for edge in edges:
            where, params = _period(edge, table=table)
            rows += [(r[0],) + tuple(r[2:]) for r in db.execute(
                _typed(text(self.sql.game_totals_select.format(where=where)), params), params)]
        return [GameFigures(*r) for r in _combine(rows, 1, maxima={4})]

    def record_holders(self, db: Session, game: str, score: float, period: Period = (None, None),
                       limit: int = 20, table: str | None = None, top: bool = True) -> list[RecordHolder]:
        """The results of ``game`` equal to ``score``, the game's best, in the period (at
        ``table``): those of its first ``limit`` games that reached it (oldest first), a player
        cast out of the game left out (that score could not win: it holds no record). ``top``:
        ``score`` is the best of all in those games (their summaries' ``top_score``: indexed)."""
        where, params = _period(period, table=table)
        params.update(game=game, score=score)
        # the first games that reached it, in time order (index game, top_score, started_at): a
        # record reached in hundreds of games names its first holders, not every one
        sql = text("SELECT p.name, x.session_id FROM (SELECT g.session_id, g.started_at FROM game_summaries g "
                   f"WHERE g.game = :game {'AND g.top_score = :score ' if top else ''}AND g.status = 'finished' {where} "
                   "AND EXISTS (SELECT 1 FROM results e WHERE e.session_id = g.session_id AND e.score = :score "
                   "AND NOT e.eliminated) "
                   "ORDER BY g.started_at, g.session_id LIMIT :limit) x "
                   "JOIN results r ON r.session_id = x.session_id AND r.score = :score AND NOT r.eliminated "
                   "JOIN players p ON p.id = r.player_id ORDER BY x.started_at, x.session_id, p.name")
        params["limit"] = limit
        return [RecordHolder(name, int(sid)) for name, sid in db.execute(_typed(sql, params), params)]

    def record(self, db: Session, game: str, top: float, period: Period = (None, None), limit: int = 20,
               table: str | None = None) -> tuple[float | None, list[RecordHolder]]:
        """The best score of ``game`` in the period by a player not cast out (High Society's
        poorest: a score that could not win holds no record), and its first holders. ``top``: the
        best score of all (the summaries'): most often reached by a player in the game, it is the
        record at once; otherwise the results not cast out are read."""
        holders = self.record_holders(db, game, top, period, limit, table=table)
        if holders:
            return top, holders
        where, params = _period(period, table=table)
        params["game"] = game
        best = db.execute(_typed(text(
            "SELECT MAX(r.score) FROM game_summaries g JOIN results r ON r.session_id = g.session_id "
            f"WHERE g.game = :game AND g.status = 'finished' AND NOT r.eliminated {where}"), params), params).scalar()
        if best is None:
            return None, []
        return float(best), self.record_holders(db, game, float(best), period, limit, table=table, top=False)

    def head_to_head(self, db: Session, a: int, b: int, period: Period = (None, None),
                     table: str | None = None) -> list[PairFigures]:
        """Per game, profiles ``a`` and ``b`` over the finished games they both played in the
        period (at ``table``)."""
        where, params = _period(period, table=table)
        params.update(a=a, b=b)
        sql = text(
            "SELECT g.game, COUNT(*), SUM(CASE WHEN ra.winner THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN rb.winner THEN 1 ELSE 0 END), SUM(CASE WHEN ra.rank < rb.rank THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN rb.rank < ra.rank THEN 1 ELSE 0 END), SUM(CASE WHEN ra.rank = rb.rank THEN 1 ELSE 0 END) "
            "FROM results ra JOIN results rb ON rb.session_id = ra.session_id "
            "JOIN game_summaries g ON g.session_id = ra.session_id "
            f"WHERE ra.player_id = :a AND rb.player_id = :b AND g.status = 'finished' {where} "
            "GROUP BY g.game ORDER BY g.game")
        return [PairFigures(game, *(int(v) for v in r)) for game, *r in db.execute(_typed(sql, params), params)]


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


def _period(period: Period, column: str = "g.started_at", table: str | None = None) -> tuple[str, dict[str, Any]]:
    """The conditions on a summary ``g`` for a period (and a club table: see :mod:`companion.store.club`)."""
    where = ""
    params: dict[str, Any] = {}
    if table is not None:
        where = " AND g.session_id IN (SELECT id FROM sessions WHERE table_name " + \
            ("IS NULL)" if table == NO_TABLE else "= :table)")
        params["table"] = table
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
    moment = table(GameSummary).c.started_at.type
    names = [n for n in ("since", "until") if n in params]
    return sql.bindparams(*(bindparam(n, type_=moment) for n in names)) if names else sql
