"""Results of finished games, and the indexes statistics and history need.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-01
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "results",
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("eliminated", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_results_player", "results", ["player_id", "session_id"])
    op.create_index("ix_results_winner", "results", ["winner", "session_id"])
    op.create_index("ix_sessions_status_game", "sessions", ["status", "game"])
    op.create_index("ix_sessions_started_at", "sessions", ["started_at"])
    op.create_index("ix_seats_player", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player", table_name="seats")
    op.drop_index("ix_sessions_started_at", table_name="sessions")
    op.drop_index("ix_sessions_status_game", table_name="sessions")
    op.drop_index("ix_results_winner", table_name="results")
    op.drop_index("ix_results_player", table_name="results")
    op.drop_table("results")
