"""The club's SQL: which table (tablet) a game was played at and the season league table per game
(the statistics of one table: :mod:`companion.store.history`, with a ``table`` filter). What a
table name may be is the service's (:mod:`companion.service.club`).

Plain SQLAlchemy Core over ``game_summaries``, ``results``, ``seats``, ``sessions`` and
``players`` — nothing SQLite-only (no ``julianday``, no ``substr`` on dates, booleans counted
with ``CASE``, months with ``extract``, which SQLAlchemy writes for SQLite and PostgreSQL alike),
so that the same queries serve a tablet's SQLite file and a club's PostgreSQL server. Never a
replay, never the action log.

The table filter: ``None`` is every table; :data:`NO_TABLE` (the empty string, which no table
name can be) the games started on a tablet that had no name (``sessions.table_name`` NULL); any
other text, that table's games.

League points, our ruling: in each finished game a player scores ``n − place`` points (``n``
players, the standard competition ranking 1, 1, 3 of the results): one point per player placed
below them, and players tied share the best of their places, so a bigger table gives more points.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Sequence

from sqlalchemy import Float, case, cast, func, literal_column, select
from sqlalchemy.orm import Session

from models.tables import STATUS_FINISHED, GameSession, GameSummary, Player, Result, table

NO_TABLE = ""  # the filter value for games started on a tablet with no name
LEAGUE_LIMIT = 50  # rows of a league table a screen asks for at once

Period = tuple[datetime | None, datetime | None]  # (since included, until excluded) on the start time

_gs = table(GameSummary)
_s = table(GameSession)
_r = table(Result)
_p = table(Player)


@dataclass(frozen=True)
class LeagueRow:
    """One player's line of a league table: ``position`` shares equal lines (1, 1, 3)."""
    position: int
    player_id: int
    name: str
    games: int
    wins: int
    points: int
    average_place: float


@dataclass(frozen=True)
class League:
    """A page of one game's league table over a period (and a table); ``total``: players in it."""
    game: str
    rows: tuple[LeagueRow, ...]
    total: int
    games: int  # finished games counted
    offset: int = 0

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.rows) < self.total


# -- filters ----------------------------------------------------------------------------------------


def _table_clause(table: str | None) -> Any:
    """The condition on ``sessions`` for a table filter (None: no condition)."""
    if table is None:
        return None
    if table == NO_TABLE:
        return _s.c.table_name.is_(None)
    return _s.c.table_name == table


def table_sessions(table: str) -> Any:
    """The ids of the sessions of one table (for ``game_summaries.session_id IN (…)``)."""
    return select(_s.c.id).where(_table_clause(table))


def _finished(game: str | None, period: Period, table: str | None) -> list[Any]:
    where: list[Any] = [_gs.c.status == STATUS_FINISHED]
    if game is not None:
        where.append(_gs.c.game == game)
    since, until = period
    if since is not None:
        where.append(_gs.c.started_at >= since)
    if until is not None:
        where.append(_gs.c.started_at < until)
    if table is not None:
        where.append(_gs.c.session_id.in_(table_sessions(table)))
    return where


def _wins(column: Any) -> Any:
    return func.sum(case((column == True, 1), else_=0))  # noqa: E712 - SQL, not Python


# -- tables ------------------------------------------------------------------------------------------


def table_names(db: Session) -> tuple[list[str], bool]:
    """(the table names present in the database, sorted; whether some games have none)."""
    names = [n for (n,) in db.execute(select(_s.c.table_name).where(_s.c.table_name.is_not(None))
                                      .distinct().order_by(_s.c.table_name))]
    unnamed = db.execute(select(literal_column("1")).where(_s.c.table_name.is_(None)).limit(1)).first() is not None
    return names, unnamed


def table_of(db: Session, session_ids: Sequence[int]) -> dict[int, str | None]:
    """The table name of each of these sessions (a page of a list)."""
    if not session_ids:
        return {}
    return {sid: name for sid, name in db.execute(
        select(_s.c.id, _s.c.table_name).where(_s.c.id.in_(list(session_ids))))}


def set_table(db: Session, session_id: int, table: str | None) -> None:
    """Write the table a game was started at (in the transaction that creates it)."""
    db.execute(_s.update().where(_s.c.id == session_id).values(table_name=table))


# -- the league -----------------------------------------------------------------------------------------


def league(db: Session, game: str, period: Period = (None, None), table: str | None = None,
           offset: int = 0, limit: int = LEAGUE_LIMIT) -> League:
    """One game's league table over the finished games started in ``period`` (at ``table``):
    per player games, wins, points (``n − place`` per game) and average place; best first
    (points, then wins, then the better average place, then fewer games; equal lines share a
    position, and are listed by name). One grouped query with its positions and line count
    (window functions: a later page keeps the positions), a page of it (``offset``, ``limit``),
    and the count of the games."""
    where = _finished(game, period, table)
    games = func.count()
    place_sum = func.sum(_r.c.rank)
    grouped = (select(_r.c.player_id.label("player_id"), games.label("games"), _wins(_r.c.winner).label("wins"),
                      func.sum(_gs.c.players - _r.c.rank).label("points"), place_sum.label("place_sum"),
                      (cast(place_sum, Float) / games).label("average"))
               .select_from(_gs.join(_r, _r.c.session_id == _gs.c.session_id))
               .where(*where).group_by(_r.c.player_id).subquery())
    order = (grouped.c.points.desc(), grouped.c.wins.desc(), grouped.c.average.asc(), grouped.c.games.asc())
    offset, limit = max(0, int(offset)), max(1, int(limit))
    page = db.execute(
        select(func.rank().over(order_by=order), func.count().over(), grouped.c.player_id, _p.c.name,
               grouped.c.games, grouped.c.wins, grouped.c.points, grouped.c.place_sum)
        .join(_p, _p.c.id == grouped.c.player_id)
        .order_by(*order, _p.c.name, grouped.c.player_id).offset(offset).limit(limit)).all()
    if page:
        total = int(page[0][1])
    else:  # past the last line (or none): how many there are
        total = int(db.execute(select(func.count()).select_from(grouped)).scalar_one()) if offset else 0
    played = db.execute(select(func.count()).select_from(_gs).where(*where)).scalar_one()
    rows = tuple(LeagueRow(int(position), int(pid), name, int(g), int(w), int(pts), place_sum * 1.0 / g)
                 for position, _, pid, name, g, w, pts, place_sum in page)
    return League(game, rows, total, int(played), offset)


def league_games(db: Session, period: Period = (None, None), table: str | None = None) -> list[tuple[str, int]]:
    """(game, finished games) of the games played in the period (at the table), most played first."""
    n = func.count()
    return [(g, int(c)) for g, c in db.execute(
        select(_gs.c.game, n).where(*_finished(None, period, table)).group_by(_gs.c.game)
        .order_by(n.desc(), _gs.c.game))]

