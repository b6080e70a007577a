"""Rivals and streaks of a player, from the ``results`` rows of finished games (never a replay):

- head to head is pairwise: in a game, you beat everyone placed below you (a shared place beats
  nobody of that place). ``store.rivals.meetings`` counts, per opponent, the games together, how
  often you beat them and how often they beat you;
- :func:`rivalry` names, among the opponents met in at least ``AT_LEAST`` games: the nemesis (who
  beat you most often), the favourite victim (whom you beat most often) and the closest rival
  (whose head to head with you is nearest even: the smallest difference between your wins over
  them and theirs over you, per game together; then the most games together). Ties name them all;
  nobody who never beat you is a nemesis, nobody you never beat a victim;
- :func:`streaks`: per game and over every game, the games played, the last one (when it
  finished), the current win streak (the wins since the last game not won) and the longest.
  A win is a game where the player is among the winners."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, Sequence

from sqlmodel import Session

from companion.store.connection import Database, _cursor, _stored_time

AT_LEAST = 3  # games together before an opponent can be a nemesis, a victim or the closest rival


class Meeting(NamedTuple):
    """A player against one opponent: ``games`` together, ``beat`` (the player placed above
    them) and ``beaten`` (they placed above the player)."""
    opponent_id: int
    name: str
    games: int
    beat: int
    beaten: int


class Rivalry(NamedTuple):
    nemesis: tuple[Meeting, ...]
    victims: tuple[Meeting, ...]
    closest: tuple[Meeting, ...]


class Streak(NamedTuple):
    """A player's games at one game (``game`` None: every game together)."""
    game: str | None
    played: int
    last_played: datetime
    current: int
    longest: int


def _most(meetings: Sequence[Meeting], key: Any) -> tuple[Meeting, ...]:
    best = max((key(m) for m in meetings), default=0)
    return tuple(m for m in meetings if best > 0 and key(m) == best)


def rivalry(meetings: Sequence[Meeting], at_least: int = AT_LEAST) -> Rivalry:
    """The nemesis, favourite victim and closest rival among ``meetings`` (see the module)."""
    met = sorted((m for m in meetings if m.games >= at_least), key=lambda m: (m.name.casefold(), m.opponent_id))
    if not met:
        return Rivalry((), (), ())

    def gap(m: Meeting) -> tuple[float, int]:
        return abs(m.beat - m.beaten) / m.games, -m.games

    nearest = min(gap(m) for m in met)
    return Rivalry(_most(met, lambda m: m.beaten), _most(met, lambda m: m.beat),
                   tuple(m for m in met if gap(m) == nearest))


def streaks(games: Sequence[tuple[str, datetime, bool]]) -> list[Streak]:
    """Per game (sorted by game) then overall (last), from the player's finished games as
    (game, finished_at, won), in the order they finished."""
    runs: dict[str | None, list[Any]] = {}  # played, last, current, longest
    for game, finished_at, won in games:
        for key in (game, None):
            run = runs.setdefault(key, [0, finished_at, 0, 0])
            run[0] += 1
            run[1] = finished_at
            run[2] = run[2] + 1 if won else 0
            run[3] = max(run[3], run[2])
    order = sorted(k for k in runs if k is not None) + ([None] if runs else [])
    return [Streak(key, *runs[key]) for key in order]


class Rivals:
    """The store's head-to-head and streak queries, ``store.rivals`` (see
    :class:`companion.store.Store`), on ``database``."""

    def __init__(self, database: Database):
        self.database = database

    def meetings(self, db: Session, player_id: int, game: str | None = None) -> list[Meeting]:
        """Per opponent of ``player_id`` in finished games (of ``game``, or every game)."""
        cursor = _cursor(db)
        try:
            found = cursor.execute(self.database._q(
                "SELECT o.player_id, p.name, COUNT(*), SUM(CASE WHEN me.rank < o.rank THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN o.rank < me.rank THEN 1 ELSE 0 END) FROM results me "
                "JOIN results o ON o.session_id = me.session_id AND o.player_id <> me.player_id "
                "JOIN sessions s ON s.id = me.session_id JOIN players p ON p.id = o.player_id "
                "WHERE me.player_id = ? AND s.status = 'finished'" + ("" if game is None else " AND s.game = ?")
                + " GROUP BY o.player_id, p.name"), (player_id,) if game is None else (player_id, game)).fetchall()
        finally:
            cursor.close()
        return sorted((Meeting(int(o), name, int(n), int(won), int(lost)) for o, name, n, won, lost in found),
                      key=lambda m: (m.name.casefold(), m.opponent_id))

    def player_games(self, db: Session, player_id: int) -> list[tuple[str, datetime, bool]]:
        """The player's finished games as (game, finished_at, won), in the order they finished."""
        cursor = _cursor(db)
        try:
            found = cursor.execute(self.database._q(
                "SELECT s.game, s.finished_at, CASE WHEN r.winner THEN 1 ELSE 0 END FROM results r "
                "JOIN sessions s ON s.id = r.session_id WHERE r.player_id = ? AND s.status = 'finished' "
                "AND s.finished_at IS NOT NULL ORDER BY s.finished_at, s.id"), (player_id,)).fetchall()
        finally:
            cursor.close()
        return [(game, _stored_time(at), bool(won)) for game, at, won in found]
