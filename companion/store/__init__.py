"""The session store (see :mod:`companion.store.connection`): one module per job. :class:`Store`
is the database with the rows of games — ``connection`` (engines, dialects, URLs, drivers,
transactions), ``games`` (players, sessions, seats, the action log, results), ``summaries``
(summaries and monthly totals) and ``copies`` (a migration's reads and writes) — and holds the
queries of the other jobs as parts, each over the same database: ``store.history``
(:mod:`.history`: history pages and statistics, per club table too), ``store.ratings``
(:mod:`.ratings`: skill ratings) and ``store.rivals`` (:mod:`.rivals`: head to head and
streaks)."""

from __future__ import annotations

from pathlib import Path

from companion.store.connection import (
    BUSY_TIMEOUT_MS,
    CONNECT_TIMEOUT_S,
    SQLITE_MAGIC,
    CommitUnknown,
    StoreUnusable,
    Tx,
    _server_args,
    alembic_config,
    check_database_file,
    is_disconnect,
    is_seq_race,
    known_revisions,
    migrations_location,
)
from companion.store.copies import ClubGame, Copies, LogRow, SourceGame
from companion.store.games import NewGame, ResultRow, SessionRows, action_text, dumps
from companion.store.history import (
    GameFigures,
    History,
    HistoryQuery,
    PairFigures,
    Period,
    PlayerFigures,
    RecordHolder,
    fold,
)
from companion.store.ratings import RatingPoint, RatingRow, Ratings, Starts
from companion.store.rivals import Meeting, Rivals


class Store(Copies):
    """One database (see :class:`companion.store.connection.Database`) with the store's rows of
    games: players, sessions, the action log, results, summaries and monthly totals, a migration's
    copies; and its parts over that database: ``history`` (pages and statistics), ``ratings``
    (skill ratings: read, and rewritten in the transaction of every change) and ``rivals``
    (head to head and streaks)."""

    def __init__(self, path: str | Path, *, upgrade: bool = True):
        super().__init__(path, upgrade=upgrade)
        self.history = History(self)
        self.ratings = Ratings(self)
        self.rivals = Rivals(self)


__all__ = ["BUSY_TIMEOUT_MS", "CONNECT_TIMEOUT_S", "SQLITE_MAGIC", "ClubGame", "CommitUnknown", "GameFigures",
           "HistoryQuery", "LogRow", "Meeting", "RatingPoint", "RatingRow", "Starts", "NewGame", "PairFigures", "Period", "PlayerFigures", "RecordHolder",
           "ResultRow", "SessionRows", "SourceGame", "Store", "StoreUnusable", "Tx", "_server_args",
           "action_text", "alembic_config", "check_database_file", "dumps", "fold", "is_disconnect", "is_seq_race",
           "known_revisions", "migrations_location"]
