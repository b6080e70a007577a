"""Sessions keep the record envelope's optional set-up fields (Boursicocotte's ``start_animals``).

A record may carry set-up fields beyond players, first player and variant; without a place for
them an imported short-version game was stored without its deal and no longer replayed. The new
column holds them as one JSON object (``{"start_animals": {...}}``), NULL when there are none, so
every session written before this migration reads exactly as before.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-15
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


# Plain ALTER TABLE ADD/DROP COLUMN, not a batch: on SQLite a batch would copy and drop the
# sessions table, and with foreign keys on, dropping it deletes every seat, action and result
# (ON DELETE CASCADE).


def upgrade() -> None:
    op.add_column("sessions", sa.Column("setup", sa.String(), nullable=True))


def downgrade() -> None:
    op.drop_column("sessions", "setup")
