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

from sqlalchemy import Column, ForeignKey, Index, Integer, UniqueConstraint
from sqlmodel import Field, SQLModel, col

STATUS_IN_PROGRESS = "in_progress"
STATUS_FINISHED = "finished"


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


class Seat(SQLModel, table=True):
    """Who sits where: ``position`` 0 is the record's ``players[0]``, clockwise."""

    __tablename__ = "seats"

    session_id: int = Field(
        sa_column=Column(Integer, ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    )
    position: int = Field(primary_key=True)
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), nullable=False))

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


# Indexes the statistics and the history need, on tables of migration 0001 (added by 0002).
Index("ix_sessions_status_game", col(GameSession.status), col(GameSession.game))
Index("ix_sessions_started_at", col(GameSession.started_at))
Index("ix_seats_player", col(Seat.player_id))

TABLES = (Player, GameSession, Seat, ActionRow, Result)
metadata = SQLModel.metadata
