"""A club's shared database: which table a game was played at, and where a copied game came from.

- ``sessions.table_name``: the name of the table (the tablet) a game was started at, so a club's
  history and statistics can be filtered by table. NULL for games from before this revision and
  for a tablet that was given no name.
- ``sessions.origin``: for a game copied from another database (``companion migrate``), the
  source database's identity and the game's id there (``<store id>/<session id>``), unique, so a
  second copy of the same history adds nothing. NULL for a game started or imported here.
- ``store_info``: facts about this database itself; ``store_id`` is its identity, a random hex
  string given once, when the database reaches this revision.

Plain ALTER TABLE ADD COLUMN, not a batch (see 0003).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""
from __future__ import annotations

import uuid

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("table_name", sa.String(), nullable=True))
    op.add_column("sessions", sa.Column("origin", sa.String(), nullable=True))
    op.create_index("ix_sessions_origin", "sessions", ["origin"], unique=True)
    op.create_index("ix_sessions_table_started", "sessions", ["table_name", "started_at"])
    info = op.create_table(
        "store_info",
        sa.Column("key", sa.String(), primary_key=True),
        sa.Column("value", sa.String(), nullable=False),
    )
    op.bulk_insert(info, [{"key": "store_id", "value": uuid.uuid4().hex}])


def downgrade() -> None:
    op.drop_table("store_info")
    op.drop_index("ix_sessions_table_started", table_name="sessions")
    op.drop_index("ix_sessions_origin", table_name="sessions")
    op.drop_column("sessions", "origin")
    op.drop_column("sessions", "table_name")
