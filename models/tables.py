"""The session store's tables (SQLModel on SQLite).

The action log is append-only: a row is never deleted or rewritten while its session exists.
Undo and correction mark rows ``retracted_at``; the *active* record of a session is its
non-retracted rows in ``seq`` order, and the retracted rows stay for disputes. ``results`` is
derived data, written in the same transaction as the action that finished a game and removed
when an undo or a correction reopens it, so statistics are plain SQL over it.

All times are aware UTC datetimes (SQLModel stores them as UTC text, SQLite having no time zone).
The schema is created and upgraded by the Alembic migrations in ``companion/migrations`` —
never by ``metadata.create_all`` — and a test checks that both agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import Column, ForeignKey, Index, Integer, Table, UniqueConstraint
from sqlmodel import Field, SQLModel, col

STATUS_IN_PROGRESS = "in_progress"
STATUS_FINISHED = "finished"
STATUS_ABANDONED = "abandoned"  # only in game_summaries: an unfinished game a player marked abandoned
STATUSES = (STATUS_FINISHED, STATUS_IN_PROGRESS, STATUS_ABANDONED)


class Player(SQLModel, table=True):
    """A player profile, reusable across games."""

    __tablename__ = "players"

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True, nullable=False)
    created_at: datetime = Field(nullable=False)


class GameSession(SQLModel, table=True):
    """One game at the table. ``variant`` is the record's variant object as JSON text; ``setup``
    the envelope's other optional set-up fields as one JSON object (Boursicocotte's
    ``{"start_animals": {...}}``), NULL when the record has none (migration 0003)."""

    __tablename__ = "sessions"

    id: Optional[int] = Field(default=None, primary_key=True)
    game: str = Field(nullable=False)
    variant: str = Field(default="{}", nullable=False)
    first_player: str = Field(nullable=False)
    assist: bool = Field(default=False, nullable=False)
    status: str = Field(default=STATUS_IN_PROGRESS, nullable=False)
    started_at: datetime = Field(nullable=False)
    finished_at: Optional[datetime] = Field(default=None)
    updated_at: datetime = Field(nullable=False)
    setup: Optional[str] = Field(default=None, nullable=True)  # added by 0003: last column
    # added by 0004: when a player marked the unfinished game abandoned (NULL: not abandoned)
    abandoned_at: Optional[datetime] = Field(default=None, nullable=True)
    # added by 0005: the table (tablet) the game was started at, NULL when it had no name
    table_name: Optional[str] = Field(default=None, nullable=True)
    # added by 0005: "<store id>/<session id>" of the database a copied game came from (unique)
    origin: Optional[str] = Field(default=None, nullable=True)


class Seat(SQLModel, table=True):
    """Who sits where: ``position`` 0 is the record's ``players[0]``, clockwise. ``player_id`` is
    the profile (renamed or merged later, the statistics follow it); ``name`` (added by 0004) is
    the name the game's record uses for that seat, as written at the table: the actions name
    players, so a renamed profile must not change the record a past game replays. NULL only in
    rows written before 0004, whose profile name is the record's name."""

    __tablename__ = "seats"

    session_id: int = Field(
        sa_column=Column(Integer, ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    )
    position: int = Field(primary_key=True)
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), nullable=False))
    name: Optional[str] = Field(default=None, nullable=True)

    __table_args__ = (UniqueConstraint("session_id", "player_id", name="uq_seats_session_player"),)


class ActionRow(SQLModel, table=True):
    """One entry made at the table. ``seq`` grows per session and is never reused."""

    __tablename__ = "actions"

    id: Optional[int] = Field(default=None, primary_key=True)
    session_id: int = Field(
        sa_column=Column(Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False)
    )
    seq: int = Field(nullable=False)
    action: str = Field(nullable=False)  # the action as JSON text
    created_at: datetime = Field(nullable=False)
    retracted_at: Optional[datetime] = Field(default=None)

    __table_args__ = (UniqueConstraint("session_id", "seq", name="uq_actions_session_seq"),)


class Result(SQLModel, table=True):
    """A player's result in a finished game (removed again if the game is reopened)."""

    __tablename__ = "results"

    session_id: int = Field(
        sa_column=Column(Integer, ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    )
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), primary_key=True))
    score: float = Field(nullable=False)
    rank: int = Field(nullable=False)
    winner: bool = Field(default=False, nullable=False)
    eliminated: bool = Field(default=False, nullable=False)

    __table_args__ = (
        Index("ix_results_player", "player_id", "session_id"),
        Index("ix_results_winner", "winner", "session_id"),
    )


class GameSummary(SQLModel, table=True):
    """One row per session, what lists and statistics read instead of the action log (0004).

    Derived data, rewritten from the session's rows (sessions, seats, active actions, results) by
    :meth:`companion.store.Store.refresh_summary` in the same transaction as every change to the
    game, and deleted with it. ``status`` is ``finished``, ``in_progress`` or ``abandoned`` (an
    unfinished game with ``sessions.abandoned_at`` set). ``last_played_at``: the last active
    entry's time (the start when none); ``duration_s`` the seconds from start to it (0 for an
    imported game: a record has no times). ``top_score``/``low_score``: the best and worst final
    scores of a finished game (NULL otherwise); per-player scores, places and winners are the
    ``results`` rows."""

    __tablename__ = "game_summaries"

    session_id: int = Field(
        sa_column=Column(Integer, ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    )
    game: str = Field(nullable=False)
    status: str = Field(nullable=False)
    started_at: datetime = Field(nullable=False)
    finished_at: Optional[datetime] = Field(default=None)
    updated_at: datetime = Field(nullable=False)
    last_played_at: datetime = Field(nullable=False)
    actions: int = Field(default=0, nullable=False)
    duration_s: float = Field(default=0.0, nullable=False)
    players: int = Field(default=0, nullable=False)
    winners: int = Field(default=0, nullable=False)
    top_score: Optional[float] = Field(default=None)
    low_score: Optional[float] = Field(default=None)
    win_score: Optional[float] = Field(default=None)  # the best winner's score (NULL: no winner)

    __table_args__ = (
        Index("ix_summaries_started", "started_at", "session_id"),
        Index("ix_summaries_game_started", "game", "started_at"),
        Index("ix_summaries_status_started", "status", "started_at"),
        Index("ix_summaries_game_top", "game", "top_score", "started_at"),
        Index("ix_summaries_game_status_started", "game", "status", "started_at"),
    )


class PlayerMonth(SQLModel, table=True):
    """A player's figures at one game over one UTC month of finished games (0004): what the
    statistics add up for whole months, recounted by the store whenever a game of that month
    finishes, reopens or goes. ``place6`` counts sixth places and below."""

    __tablename__ = "player_months"

    player_id: int = Field(primary_key=True)
    game: str = Field(primary_key=True)
    month: str = Field(primary_key=True)  # YYYY-MM
    games: int = Field(nullable=False)
    wins: int = Field(nullable=False)
    score_sum: float = Field(nullable=False)
    score_max: float = Field(nullable=False)
    rank_sum: int = Field(nullable=False)
    place1: int = Field(nullable=False)
    place2: int = Field(nullable=False)
    place3: int = Field(nullable=False)
    place4: int = Field(nullable=False)
    place5: int = Field(nullable=False)
    place6: int = Field(nullable=False)


class GameMonth(SQLModel, table=True):
    """One game's figures over one UTC month of finished games (0004), like :class:`PlayerMonth`."""

    __tablename__ = "game_months"

    game: str = Field(primary_key=True)
    month: str = Field(primary_key=True)
    games: int = Field(nullable=False)
    win_score_sum: Optional[float] = Field(default=None)
    win_score_n: int = Field(nullable=False)
    top_max: Optional[float] = Field(default=None)
    spread_sum: Optional[float] = Field(default=None)
    spread_n: int = Field(nullable=False)
    actions_sum: int = Field(nullable=False)
    duration_sum: Optional[float] = Field(default=None)
    duration_n: int = Field(nullable=False)


class Rating(SQLModel, table=True):
    """A player's skill rating at one game right after one finished game (0006): openskill's
    Plackett-Luce model at its defaults, the finished games of a game rated in the order they
    finished (equal times: by session id). Derived data: the rows from the first game a change
    affects on are rewritten in its transaction (:mod:`companion.store.ratings`); a player's
    rating now is their latest row. ``finished_at`` is the session's (the order); ``games``:
    the player's rated games at that game so far, this one included; ``ordinal``: mu - 3 sigma."""

    __tablename__ = "ratings"

    session_id: int = Field(
        sa_column=Column(Integer, ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    )
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), primary_key=True))
    game: str = Field(nullable=False)
    finished_at: datetime = Field(nullable=False)
    mu: float = Field(nullable=False)
    sigma: float = Field(nullable=False)
    ordinal: float = Field(nullable=False)
    games: int = Field(nullable=False)

    __table_args__ = (
        Index("ix_ratings_game_finished", "game", "finished_at", "session_id"),
        Index("ix_ratings_player_game", "player_id", "game", "games", unique=True),
    )


class StoreInfo(SQLModel, table=True):
    """Facts about the database itself (0005): ``store_id``, its identity, given once."""

    __tablename__ = "store_info"

    key: str = Field(primary_key=True)
    value: str = Field(nullable=False)


class Evening(SQLModel, table=True):
    """A club evening (0007): several tables playing at once in ``rounds`` rounds, seated by
    ``method`` (``mix`` or ``swiss``, :mod:`models.seating`) from ``seed``, its only randomness."""

    __tablename__ = "evenings"

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(nullable=False)
    method: str = Field(nullable=False)
    rounds: int = Field(nullable=False)
    seed: int = Field(nullable=False)
    created_at: datetime = Field(nullable=False)


class EveningPlayer(SQLModel, table=True):
    """A player present at an evening (0007), from round ``first_round`` to ``last_round``
    included (NULL: to the end); ``position`` is the order they were listed in."""

    __tablename__ = "evening_players"

    evening_id: int = Field(
        sa_column=Column(Integer, ForeignKey("evenings.id", ondelete="CASCADE"), primary_key=True)
    )
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), primary_key=True))
    position: int = Field(nullable=False)
    first_round: int = Field(nullable=False)
    last_round: Optional[int] = Field(default=None, nullable=True)


class EveningTable(SQLModel, table=True):
    """A table of a round (0007): its game and, once started, its game's session (unique; NULL
    again if that game is deleted). A round whose tables have a session has started."""

    __tablename__ = "evening_tables"

    evening_id: int = Field(
        sa_column=Column(Integer, ForeignKey("evenings.id", ondelete="CASCADE"), primary_key=True)
    )
    round: int = Field(primary_key=True)
    table_no: int = Field(primary_key=True)
    game: str = Field(nullable=False)
    session_id: Optional[int] = Field(
        default=None, sa_column=Column(Integer, ForeignKey("sessions.id", ondelete="SET NULL"), nullable=True)
    )

    __table_args__ = (Index("ix_evening_tables_session", "session_id", unique=True),)


class EveningRound(SQLModel, table=True):
    """A round of an evening (0007): ``seated_at`` when its seating was proposed (NULL: not yet,
    a ``swiss`` round waits for the standings), ``started_at`` when its first table started."""

    __tablename__ = "evening_rounds"

    evening_id: int = Field(
        sa_column=Column(Integer, ForeignKey("evenings.id", ondelete="CASCADE"), primary_key=True)
    )
    round: int = Field(primary_key=True)
    seated_at: Optional[datetime] = Field(default=None, nullable=True)
    started_at: Optional[datetime] = Field(default=None, nullable=True)


class EveningSeat(SQLModel, table=True):
    """Where a player sits in a round (0007): ``table_no`` from 1 (0: sits this round out),
    ``position`` the order at the table."""

    __tablename__ = "evening_seats"

    evening_id: int = Field(
        sa_column=Column(Integer, ForeignKey("evenings.id", ondelete="CASCADE"), primary_key=True)
    )
    round: int = Field(primary_key=True)
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), primary_key=True))
    table_no: int = Field(nullable=False)
    position: int = Field(nullable=False)


# Indexes the statistics and the history need, on tables of migration 0001 (added by 0002).
Index("ix_sessions_status_game", col(GameSession.status), col(GameSession.game))
Index("ix_sessions_started_at", col(GameSession.started_at))
Index("ix_seats_player", col(Seat.player_id))
Index("ix_sessions_origin", col(GameSession.origin), unique=True)  # added by 0005
Index("ix_sessions_table_started", col(GameSession.table_name), col(GameSession.started_at))  # 0005

TABLES = (Player, GameSession, Seat, ActionRow, Result, GameSummary, PlayerMonth, GameMonth, StoreInfo, Rating,
          Evening, EveningPlayer, EveningTable, EveningRound, EveningSeat)
metadata = SQLModel.metadata


def table(model: type[SQLModel]) -> Table:
    """The SQLAlchemy table of a model (``table=True``), for the store's SQL Core statements."""
    return model.__table__  # type: ignore[attr-defined]  # set by SQLModel's metaclass, not declared
