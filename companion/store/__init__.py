"""The session store (see :mod:`companion.store.connection`): one module per job, :class:`Store`
composed of them — ``connection`` (engines, dialects, URLs, drivers, transactions), ``games``
(players, sessions, seats, the action log, results), ``summaries`` (summaries and monthly
totals), ``ratings`` (skill ratings), ``rivals`` (head to head and streaks), ``history`` (history pages and statistics, per club table too) and ``copies`` (a
migration's reads and writes)."""

from __future__ import annotations

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


class Store(Copies, History, Ratings, Rivals):
    """One database (see :class:`companion.store.connection.Database`) with every job of the
    store: game rows, summaries and monthly totals, history and statistics, a migration's copies."""



__all__ = ["BUSY_TIMEOUT_MS", "CONNECT_TIMEOUT_S", "SQLITE_MAGIC", "ClubGame", "CommitUnknown", "GameFigures",
           "HistoryQuery", "LogRow", "Meeting", "RatingPoint", "RatingRow", "Starts", "NewGame", "PairFigures", "Period", "PlayerFigures", "RecordHolder",
           "ResultRow", "SessionRows", "SourceGame", "Store", "StoreUnusable", "Tx", "_server_args",
           "action_text", "alembic_config", "check_database_file", "dumps", "fold", "is_disconnect", "is_seq_race",
           "known_revisions", "migrations_location"]
