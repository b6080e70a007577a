"""Skill ratings, rivals and streaks, read for the screens and the command line (the rows and
their definitions: :mod:`companion.store.ratings`, :mod:`companion.store.rivals`). Reading only,
never a replay; the ratings themselves are written by every change to the history, in its
transaction (see the service's hooks: a finish, an undo, a correction, a removal, a merge, an
import, a copy). The service's part ``service.ratings`` (:class:`Ratings`), given the store, the
service's reads and its lock."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from companion.service.errors import STORAGE_ERRORS, storage_error
from companion.service.live import Read
from companion.service.states import utc
from companion.store import Meeting, RatingPoint, RatingRow, Store
from companion.store.rivals import Rivalry, Streak, rivalry, streaks


@dataclass(frozen=True)
class Rivals:
    """A player's head to head against each opponent (``meetings``, by name) and what it names."""
    meetings: tuple[Meeting, ...]
    nemesis: tuple[Meeting, ...]
    victims: tuple[Meeting, ...]
    closest: tuple[Meeting, ...]


class Ratings:
    """Skill ratings, rivals and streaks, ``service.ratings``."""

    def __init__(self, store: Store, read: Read, lock: threading.RLock):
        self.store = store
        self._read = read
        self._lock = lock

    def table(self, game: str | None = None) -> list[RatingRow]:
        """Every rated player's rating now, per game (of ``game`` only): by game, best ordinal first."""
        with self._read() as db:
            return self.store.ratings.table(db, game)

    def history(self, player_id: int, game: str | None = None) -> list[RatingPoint]:
        """A player's rating after each of their rated games (a chart over time), by game."""
        with self._read() as db:
            points = self.store.ratings.history(db, player_id, game)
        return [p._replace(finished_at=utc(p.finished_at)) for p in points]

    def rivals(self, player_id: int, game: str | None = None) -> Rivals:
        """Head to head against every opponent, nemesis, favourite victim and closest rival."""
        with self._read() as db:
            meetings = self.store.rivals.meetings(db, player_id, game)
        named: Rivalry = rivalry(meetings)
        return Rivals(tuple(meetings), named.nemesis, named.victims, named.closest)

    def streaks(self, player_id: int) -> list[Streak]:
        """Games played, last played, current and longest win streak: per game, then every game."""
        with self._read() as db:
            games = self.store.rivals.player_games(db, player_id)
        return [s._replace(last_played=utc(s.last_played)) for s in streaks(games)]

    def recompute(self) -> int:
        """Every game rated again from its first finished game (a repair, and the benchmark's
        figure); returns the rows written."""
        with self._lock:
            try:
                with self.store.write() as db:
                    return self.store.ratings.rerate_all(db)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
