"""Skill ratings: ``ratings``, one row per player of each rated game, their openskill rating
(Plackett-Luce at its defaults) right after it, per game (see :mod:`companion.store.ratings`).

Filled here for every finished game already in the database, in the order they finished, by the
store's own rating of a game (openskill's model at its defaults: the same numbers whatever the
app's version; a change of model would be a migration of its own, which rates again).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from companion.store.connection import _pyformat, _same
    from companion.store.ratings import rerate_game

    op.create_table(
        "ratings",
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_index("ix_ratings_game_finished", "ratings", ["game", "finished_at", "session_id"])
    op.create_index("ix_ratings_player_game", "ratings", ["player_id", "game", "games"], unique=True)
    bind = op.get_bind()
    driver = bind.connection.driver_connection
    assert driver is not None  # a live connection: alembic runs on it
    q = _pyformat if bind.dialect.name == "postgresql" else _same
    for (game,) in driver.execute("SELECT DISTINCT game FROM sessions WHERE status = 'finished' ORDER BY game").fetchall():
        rerate_game(driver, q, game, None)


def downgrade() -> None:
    op.drop_index("ix_ratings_player_game", table_name="ratings")
    op.drop_index("ix_ratings_game_finished", table_name="ratings")
    op.drop_table("ratings")
