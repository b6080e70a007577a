"""Skill ratings (the ``ratings`` table, migration 0006): per game, openskill's Plackett-Luce
model at its defaults (mu 25, sigma 25/3), shown as its ordinal mu - 3 sigma.

The finished games of a game are rated in the order they finished (equal times: by session id),
each from its ``results`` rows: a player's place is their rank, a shared place a tie. Abandoned
and unfinished games have no results and do not count. Each rated game keeps one row per player:
their rating right after it. A change to the history rewrites the rows of that game from the
first game it affects on (:meth:`Ratings.rerate`, ``store.ratings``): a game that finishes now is the last one, so
only its own rows are written; a correction, an undo that reopens a game, a removal, a merge of
players or an import of older games go back to the first game they touch. Never the action log:
only ``sessions`` and ``results`` rows are read. A rename changes no row (rows know profiles by id).

The statements run on the driver's cursor (a finish is rated inside the tap's transaction), in
sqlite3's parameter style, translated for psycopg by ``q``."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from openskill.models import PlackettLuce
from sqlmodel import Session

from companion.store.connection import Database, Tx, _chunks, _cursor, _driver, _stored_time

RATING_LOCKS = 0x7AB3  # PostgreSQL: the first key of the advisory locks on a game's ratings
MODEL = PlackettLuce()  # the defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Starts = dict[str, tuple[Any, int]]  # per game, the (finished_at, session_id) of the first game to rate again

_INSERT = ("INSERT INTO ratings (session_id, player_id, game, finished_at, mu, sigma, ordinal, games) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
_AFTER = " AND ({t} > ? OR ({t} = ? AND {s} >= ?))"  # (finished_at, session id) at or after a start
_FINISHED = ("SELECT s.id, s.finished_at, r.player_id, r.rank FROM sessions s JOIN results r ON r.session_id = s.id "
             "WHERE s.game = ? AND s.status = 'finished' AND s.finished_at IS NOT NULL{after} "
             "ORDER BY s.finished_at, s.id, r.player_id")
# each player's latest row at each game: their most games (one more with each game rated, so the
# last one rated), found through the index on (player_id, game, games)
_LATEST = ("SELECT r.player_id, p.name, r.game, r.mu, r.sigma, r.ordinal, r.games FROM ratings r JOIN "
           "(SELECT player_id, game, MAX(games) AS n FROM ratings {where} GROUP BY player_id, game) m "
           "ON r.player_id = m.player_id AND r.game = m.game AND r.games = m.n JOIN players p ON p.id = r.player_id")


@dataclass(frozen=True)
class RatingRow:
    """A player's rating at one game now (their latest row): ``games`` rated games."""
    player_id: int
    name: str
    game: str
    mu: float
    sigma: float
    ordinal: float
    games: int


class RatingPoint(NamedTuple):
    """A player's rating at one game right after one finished game (a point of the chart)."""
    game: str
    session_id: int
    finished_at: datetime
    mu: float
    sigma: float
    ordinal: float
    games: int


def rate(games: Iterable[tuple[int, Any, Sequence[tuple[int, int]]]], prior: Mapping[int, tuple[float, float, int]],
         game: str) -> list[tuple[Any, ...]]:
    """The ratings rows of ``games`` (session id, finished_at, [(player id, rank)]) rated in
    the order given, each player starting from ``prior`` (mu, sigma, games) or the model's
    defaults. Pure: openskill's arithmetic only."""
    current = {pid: (MODEL.rating(mu=mu, sigma=sigma), n) for pid, (mu, sigma, n) in prior.items()}
    rows: list[tuple[Any, ...]] = []
    for session_id, finished_at, places in games:
        if len(places) < 2:
            continue  # nobody to be rated against
        before = [current.get(pid) or (MODEL.rating(), 0) for pid, _ in places]
        after = MODEL.rate([[r] for r, _ in before], ranks=[rank for _, rank in places])
        for (pid, _), (team,), (_, n) in zip(places, after, before):
            current[pid] = (team, n + 1)
            rows.append((session_id, pid, game, finished_at, team.mu, team.sigma, team.ordinal(), n + 1))
    return rows


def rerate_game(driver: Any, q: Callable[[str], str], game: str, start: tuple[Any, int] | None) -> int:
    """Rate the finished games of ``game`` again from ``start`` (finished_at, session id: that
    game included) on, from each player's rating before it; None: every game. Returns the rows
    written. ``driver``: the driver's connection, inside a write transaction."""
    after = "" if start is None else _AFTER
    bounds: tuple[Any, ...] = () if start is None else (start[0], start[0], start[1])
    driver.execute(q("DELETE FROM ratings WHERE game = ?" + after.format(t="finished_at", s="session_id")),
                   (game, *bounds))
    found = driver.execute(q(_FINISHED.format(after=after.format(t="s.finished_at", s="s.id"))),
                           (game, *bounds)).fetchall()
    if not found:
        return 0
    games: list[tuple[int, Any, list[tuple[int, int]]]] = []
    for sid, finished_at, pid, rank in found:
        if not games or games[-1][0] != sid:
            games.append((sid, finished_at, []))
        games[-1][2].append((pid, rank))
    prior: dict[int, tuple[float, float, int]] = {}
    if start is not None:  # each player's latest row before the start (the later ones are gone)
        players = sorted({pid for _, _, pid, _ in found})
        where = "WHERE game = ?" + (f" AND player_id IN ({','.join(str(int(p)) for p in players)})"
                                    if len(players) <= 500 else "")
        prior = {pid: (mu, sigma, n) for pid, _, _, mu, sigma, _, n in driver.execute(
            q(_LATEST.format(where=where)), (game,)).fetchall()}
    rows = rate(games, prior, game)
    cursor = driver.cursor()
    try:
        cursor.executemany(q(_INSERT), rows)
    finally:
        cursor.close()
    return len(rows)


def earliest(starts: Starts, rows: Iterable[tuple[str, Any, int]]) -> Starts:
    """``starts`` with each (game, finished_at, session id) of ``rows`` where it comes first."""
    for game, finished_at, sid in rows:
        if finished_at is None:
            continue
        key = (finished_at, sid)
        if game not in starts or key < starts[game]:
            starts[game] = key
    return starts


class Ratings:
    """The store's jobs on skill ratings, ``store.ratings`` (see :class:`companion.store.Store`),
    on ``database``."""

    def __init__(self, database: Database):
        self.database = database

    def starts(self, db: Session | Tx, session_ids: Sequence[int]) -> Starts:
        """Where rating must start again after a change to these games: per game, the earliest
        of where they were rated (their rows) and of where they are finished now. Read before
        a game is deleted (its rows go with it), after any other change."""
        starts: Starts = {}
        driver = _driver(db)
        for chunk in _chunks(list(session_ids), 500):
            marks = ",".join(str(int(i)) for i in chunk)
            earliest(starts, driver.execute(
                f"SELECT DISTINCT game, finished_at, session_id FROM ratings WHERE session_id IN ({marks})").fetchall())
            earliest(starts, driver.execute(
                "SELECT game, finished_at, id FROM sessions "
                f"WHERE status = 'finished' AND id IN ({marks})").fetchall())
        return starts

    def player_starts(self, db: Session | Tx, player_ids: Sequence[int]) -> Starts:
        """Per game, the first game these players were rated in (a merge rates again from there)."""
        marks = ",".join(str(int(p)) for p in player_ids)
        return earliest({}, _driver(db).execute(
            f"SELECT game, finished_at, session_id FROM ratings WHERE player_id IN ({marks})").fetchall())

    def rerate(self, db: Session | Tx, starts: Starts) -> None:
        """Rate every game of ``starts`` again from its start (see :func:`rerate_game`)."""
        driver = _driver(db)
        for game in sorted(starts):
            self._lock(driver, game)
            rerate_game(driver, self.database._q, game, starts[game])

    def _lock(self, driver: Any, game: str) -> None:
        """PostgreSQL: lock the ratings of ``game`` until the transaction ends. Two tables
        finishing games of one game at once would each rate theirs from ratings that miss the
        other's (READ COMMITTED: neither sees the other's rows before its commit); with the lock
        the second waits, then its statements (new snapshots) read the first one's rows. Taken
        last in a transaction (after the game's row and its months' locks), in game order, so no
        two transactions wait for each other in a cycle. SQLite: BEGIN IMMEDIATE already
        excludes every other writer."""
        if self.database.path is None:
            driver.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                           (RATING_LOCKS, zlib.crc32(game.encode("utf-8")) - 2 ** 31))

    def rerate_sessions(self, db: Session | Tx, session_ids: Sequence[int]) -> None:
        """After these games changed (finished, reopened, corrected, written by an import or a
        copy): their games rated again from the first one they touch."""
        self.rerate(db, self.starts(db, session_ids))

    def rerate_all(self, db: Session | Tx, games: Iterable[str] | None = None) -> int:
        """Every game (or these) rated again from its first finished game; returns the rows."""
        driver = _driver(db)
        if games is None:
            games = [g for (g,) in driver.execute("SELECT DISTINCT game FROM sessions WHERE status = 'finished'")]
            driver.execute("DELETE FROM ratings")
        written = 0
        for game in sorted(games):
            self._lock(driver, game)
            written += rerate_game(driver, self.database._q, game, None)
        return written

    def table(self, db: Session, game: str | None = None) -> list[RatingRow]:
        """Every rated player's rating now, per game: by game, then best ordinal first (then name)."""
        where = "" if game is None else "WHERE game = ?"
        cursor = _cursor(db)
        try:
            found = cursor.execute(self.database._q(_LATEST.format(where=where)), () if game is None else (game,)).fetchall()
        finally:
            cursor.close()
        rows = [RatingRow(int(pid), name, g, float(mu), float(sigma), float(o), int(n))
                for pid, name, g, mu, sigma, o, n in found]
        return sorted(rows, key=lambda r: (r.game, -r.ordinal, r.name.casefold(), r.player_id))

    def history(self, db: Session, player_id: int, game: str | None = None) -> list[RatingPoint]:
        """A player's rating after each of their rated games, by game, in the order rated."""
        cursor = _cursor(db)
        try:
            found = cursor.execute(self.database._q(
                "SELECT game, session_id, finished_at, mu, sigma, ordinal, games FROM ratings WHERE player_id = ?"
                + ("" if game is None else " AND game = ?") + " ORDER BY game, games"),
                (player_id,) if game is None else (player_id, game)).fetchall()
        finally:
            cursor.close()
        return [RatingPoint(g, int(sid), _stored_time(at), float(mu), float(sigma), float(o), int(n))
                for g, sid, at, mu, sigma, o, n in found]
