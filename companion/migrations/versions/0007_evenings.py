"""Club evenings: ``evenings`` (name, method, rounds, seed), the players present
(``evening_players``, from and to which round), each round's tables and their games
(``evening_tables``, linked to the game's session once started), the rounds (``evening_rounds``:
seated, started) and the seating (``evening_seats``; table 0: sits out). See
:mod:`companion.service.evenings`. New tables only: nothing to fill.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _evening_key() -> sa.Column:
    return sa.Column("evening_id", sa.Integer(), sa.ForeignKey("evenings.id", ondelete="CASCADE"), primary_key=True)


def upgrade() -> None:
    op.create_table(
        "evenings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("method", sa.String(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "evening_players",
        _evening_key(),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("first_round", sa.Integer(), nullable=False),
        sa.Column("last_round", sa.Integer(), nullable=True),
    )
    op.create_table(
        "evening_tables",
        _evening_key(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table_no", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("sessions.id", ondelete="SET NULL"), nullable=True),
    )
    op.create_index("ix_evening_tables_session", "evening_tables", ["session_id"], unique=True)
    op.create_table(
        "evening_rounds",
        _evening_key(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "evening_seats",
        _evening_key(),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("evening_seats")
    op.drop_table("evening_rounds")
    op.drop_index("ix_evening_tables_session", table_name="evening_tables")
    op.drop_table("evening_tables")
    op.drop_table("evening_players")
    op.drop_table("evenings")
