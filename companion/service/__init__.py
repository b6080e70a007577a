"""The session service: the only thing the app talks to.

The record is the truth. A session's state is its active entries (non-retracted action rows in
``seq`` order) replayed through the game's engine. Every change is one write transaction,
committed before the new state is returned: an entry the screen shows as accepted is on disk.
A refused or malformed entry raises and writes nothing.

The lifecycle of games and their play, which every screen uses, is the service itself
(:class:`SessionService`), over what its parts share (:mod:`.live`: the store, the clock, the lock
and the cache of live sessions):

- :mod:`.sessions` — lifecycle: players, start, open, delete, repair of results rows;
- :mod:`.play` — applying and taking back entries: submit, undo, corrections.

The other jobs are parts it holds, reached by name, each given what it uses of those:

- ``service.history`` (:mod:`.history`) — history lists, statistics, the abandoned mark;
- ``service.ratings`` (:mod:`.ratings`) — skill ratings, rivals and streaks;
- ``service.exports`` (:mod:`.exports`) — finished games as CSV rows and BG Stats plays (:mod:`.bgstats`);
- ``service.transfer`` (:mod:`.transfer`) — import and export of table records;
- ``service.profiles`` (:mod:`.profiles`) — profiles: rename, merge, remove;
- ``service.club`` (:mod:`.club`) — a club's shared history: its tables and the season league table of a game;
- ``service.evenings`` (:mod:`.evenings`) — club evenings: rounds, seating (:mod:`models.seating`), a table's game started from it, standings.

Beside them: :mod:`.states` — the typed values returned to screens; :mod:`.errors` — what it
refuses; :mod:`.records` — a record and the rows the store keeps for it; :mod:`.replay` — the
engine fold.

Errors carry a :class:`models.i18n.Msg` (``.msg``): the app renders it in the table's language.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from companion.service.club import Club, checked_table
from companion.service.errors import (
    CorrectionConflict,
    GameChanged,
    Malformed,
    NotKept,
    Offline,
    Refused,
    ServiceError,
)
from companion.service.evenings import Evenings
from companion.service.exports import Exports
from companion.service.history import History
from companion.service.live import CACHE_SIZE
from companion.service.play import Play
from companion.service.profiles import Profiles
from companion.service.ratings import Ratings
from companion.service.records import ENVELOPE_COLUMNS, setup_fields
from companion.service.sessions import Sessions
from companion.service.states import (
    UTC,
    Connection,
    GameStats,
    HeadToHead,
    HeadToHeadGame,
    HistoryEntry,
    HistoryPage,
    LogEntry,
    MonthScores,
    PlayerGameStats,
    PlayerProfile,
    PlayerStats,
    SeatResult,
    SessionState,
    SessionSummary,
    StaleState,
)
from companion.service.transfer import Transfer
from companion.store import Store, StoreUnusable


class SessionService(Sessions, Play):
    """Games: their lifecycle and their play (:mod:`.sessions`, :mod:`.play`), and the parts for
    the other jobs (see the module)."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None):
        super().__init__(store, clock)
        self.history = History(store, self._read, self._lock, self._now)
        self.ratings = Ratings(store, self._read, self._lock)
        self.exports = Exports(store, self._read, self.history)
        self.transfer = Transfer(store, self._read, self._lock, self._now)
        self.profiles = Profiles(store, self._lock, self._cache)
        self.club = Club(self._read)
        self.evenings = Evenings(store, self._read, self._lock, self._now, self)
        self.repair_results()


def open_service(db_path: Path | str) -> SessionService:
    """The session service on the database at ``db_path`` (a path or a URL: created and migrated if
    needed). ``StoreUnusable`` when the database cannot be used (``offline``: a club's server that
    does not answer), so that the app and the commands open the data without reaching the store."""
    return SessionService(Store(db_path))


__all__ = [
    "CACHE_SIZE", "ENVELOPE_COLUMNS", "UTC", "Connection", "Offline",
    "CorrectionConflict", "GameStats", "HeadToHead", "HeadToHeadGame", "HistoryEntry", "HistoryPage", "LogEntry", "Malformed", "MonthScores",
    "NotKept", "PlayerGameStats", "PlayerProfile", "PlayerStats", "Refused", "SeatResult", "ServiceError", "SessionService",
    "SessionState", "SessionSummary", "StoreUnusable", "open_service", "setup_fields",
    "GameChanged", "StaleState", "checked_table",
]
