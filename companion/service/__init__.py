"""The session service: the only thing the app talks to.

The record is the truth. A session's state is its active entries (non-retracted action rows in
``seq`` order) replayed through the game's engine. Every change is one write transaction,
committed before the new state is returned: an entry the screen shows as accepted is on disk.
A refused or malformed entry raises and writes nothing.

:class:`SessionService` is composed of one part per job, all sharing the store, the lock and the
cache of live sessions (:mod:`.live`):

- :mod:`.sessions` — lifecycle: players, start, open, delete, repair of results rows;
- :mod:`.play` — applying and taking back entries: submit, undo, corrections;
- :mod:`.queries` — history lists and statistics;
- :mod:`.ratings` — skill ratings, rivals and streaks;
- :mod:`.exports` — finished games as CSV rows and BG Stats plays (:mod:`.bgstats`);
- :mod:`.transfer` — import and export of table records;
- :mod:`.players` — profiles: rename, merge, remove;
- :mod:`.club` — a club's shared history: its tables and the season league table of a game;
- :mod:`.evenings` — club evenings: rounds, seating (:mod:`models.seating`), a table's game started from it, standings;
- :mod:`.states` — the typed values returned to screens; :mod:`.errors` — what it refuses;
- :mod:`.records` — a record and the rows the store keeps for it; :mod:`.replay` — the engine fold.

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
from companion.service.live import CACHE_SIZE
from companion.service.play import Play
from companion.service.players import Players
from companion.service.ratings import RatingQueries
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


class SessionService(Evenings, Sessions, Play, Exports, RatingQueries, Transfer, Players, Club):
    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None):
        super().__init__(store, clock)
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
