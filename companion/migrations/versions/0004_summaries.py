"""Per-game summaries for lists and statistics; seats keep the record's name; games can be
marked abandoned.

- ``game_summaries``: one row per session (status, times, number of active entries, duration,
  players, winners, best, worst and winning score), what the history and the statistics read
  instead of the action log; filled here for every game already in the database.
- ``player_months`` and ``game_months``: the statistics' figures per player, game and UTC month
  of finished games, which a period adds up (its first and last days come from the summaries).
- ``seats.name``: the name the game's record uses for the seat, so that a renamed or merged
  profile does not change what a past game replays; filled from the profile names.
- ``sessions.abandoned_at``: an unfinished game a player marked abandoned.

Plain ALTER TABLE ADD COLUMN, not a batch (see 0003: a batch copies and drops the table, and the
cascade would delete every row that hangs on it).

The same on SQLite and PostgreSQL: the fill queries differ only in the month of a time and the
seconds between two times (``_month``, ``_seconds``), and count booleans with CASE (PostgreSQL sums
no booleans). The tables are new and empty, so the fill is a plain INSERT.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None



def _month(column: str) -> str:
    """The UTC month ("YYYY-MM") of a stored time: SQLite keeps "YYYY-MM-DD HH:MM:SS.ffffff" text."""
    if op.get_bind().dialect.name == "postgresql":
        return f"to_char({column} AT TIME ZONE 'UTC', 'YYYY-MM')"
    return f"substr({column}, 1, 7)"


def _seconds(later: str, earlier: str) -> str:
    """Seconds from ``earlier`` to ``later`` (0 if later is earlier), to the millisecond."""
    if op.get_bind().dialect.name == "postgresql":
        return f"GREATEST(0.0, ROUND(CAST(EXTRACT(EPOCH FROM ({later}) - ({earlier})) AS numeric), 3))"
    return f"MAX(0.0, ROUND((julianday({later}) - julianday({earlier})) * 86400.0, 3))"


# The summary of every session, as companion.store computes it at this revision (kept here as
# it is: a migration must not change when the app's code does later).
FILL = """
INSERT INTO game_summaries (session_id, game, status, started_at, finished_at, updated_at,
    last_played_at, actions, duration_s, players, winners, top_score, low_score, win_score)
SELECT s.id, s.game,
    CASE WHEN s.status = 'finished' THEN 'finished'
         WHEN s.abandoned_at IS NOT NULL THEN 'abandoned' ELSE 'in_progress' END,
    s.started_at, s.finished_at, s.updated_at,
    COALESCE(a.last, s.started_at),
    COALESCE(a.n, 0),
    {duration},
    (SELECT COUNT(*) FROM seats st WHERE st.session_id = s.id),
    (SELECT COUNT(*) FROM results r WHERE r.session_id = s.id AND r.winner),
    (SELECT MAX(r.score) FROM results r WHERE r.session_id = s.id),
    (SELECT MIN(r.score) FROM results r WHERE r.session_id = s.id),
    (SELECT MAX(r.score) FROM results r WHERE r.session_id = s.id AND r.winner)
FROM sessions s
LEFT JOIN (SELECT session_id, COUNT(*) AS n, MAX(created_at) AS last FROM actions
           WHERE retracted_at IS NULL GROUP BY session_id) a ON a.session_id = s.id
"""
FILL_PLAYER_MONTHS = """
INSERT INTO player_months (player_id, game, month, games, wins, score_sum, score_max, rank_sum,
    place1, place2, place3, place4, place5, place6)
SELECT r.player_id, g.game, {month} AS month, COUNT(*), SUM(CASE WHEN r.winner THEN 1 ELSE 0 END),
    SUM(r.score), MAX(r.score), SUM(r.rank), SUM(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END),
    SUM(CASE WHEN r.rank = 2 THEN 1 ELSE 0 END), SUM(CASE WHEN r.rank = 3 THEN 1 ELSE 0 END),
    SUM(CASE WHEN r.rank = 4 THEN 1 ELSE 0 END), SUM(CASE WHEN r.rank = 5 THEN 1 ELSE 0 END),
    SUM(CASE WHEN r.rank >= 6 THEN 1 ELSE 0 END)
FROM game_summaries g JOIN results r ON r.session_id = g.session_id
WHERE g.status = 'finished'
GROUP BY r.player_id, g.game, month
"""
FILL_GAME_MONTHS = """
INSERT INTO game_months (game, month, games, win_score_sum, win_score_n, top_max, spread_sum, spread_n,
    actions_sum, duration_sum, duration_n)
SELECT g.game, {month} AS month, COUNT(*), SUM(g.win_score), COUNT(g.win_score),
    MAX(g.top_score), SUM(g.top_score - g.low_score), COUNT(g.top_score), SUM(g.actions),
    SUM(NULLIF(g.duration_s, 0)), COUNT(NULLIF(g.duration_s, 0))
FROM game_summaries g WHERE g.status = 'finished'
GROUP BY g.game, month
"""


def upgrade() -> None:
    op.add_column("sessions", sa.Column("abandoned_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("seats", sa.Column("name", sa.String(), nullable=True))
    op.execute("UPDATE seats SET name = (SELECT p.name FROM players p WHERE p.id = seats.player_id)")
    op.create_table(
        "game_summaries",
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("duration_s", sa.Float(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("winners", sa.Integer(), nullable=False),
        sa.Column("top_score", sa.Float(), nullable=True),
        sa.Column("low_score", sa.Float(), nullable=True),
        sa.Column("win_score", sa.Float(), nullable=True),
    )
    op.create_index("ix_summaries_started", "game_summaries", ["started_at", "session_id"])
    op.create_index("ix_summaries_game_started", "game_summaries", ["game", "started_at"])
    op.create_index("ix_summaries_status_started", "game_summaries", ["status", "started_at"])
    op.create_index("ix_summaries_game_top", "game_summaries", ["game", "top_score", "started_at"])
    op.create_index("ix_summaries_game_status_started", "game_summaries", ["game", "status", "started_at"])
    op.create_table(
        "player_months",
        sa.Column("player_id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(), primary_key=True),
        sa.Column("month", sa.String(), primary_key=True),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in ("games", "wins")),
        sa.Column("score_sum", sa.Float(), nullable=False),
        sa.Column("score_max", sa.Float(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False)
          for name in ("rank_sum", "place1", "place2", "place3", "place4", "place5", "place6")),
    )
    op.create_table(
        "game_months",
        sa.Column("game", sa.String(), primary_key=True),
        sa.Column("month", sa.String(), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("win_score_sum", sa.Float(), nullable=True),
        sa.Column("win_score_n", sa.Integer(), nullable=False),
        sa.Column("top_max", sa.Float(), nullable=True),
        sa.Column("spread_sum", sa.Float(), nullable=True),
        sa.Column("spread_n", sa.Integer(), nullable=False),
        sa.Column("actions_sum", sa.Integer(), nullable=False),
        sa.Column("duration_sum", sa.Float(), nullable=True),
        sa.Column("duration_n", sa.Integer(), nullable=False),
    )
    op.execute(FILL.format(duration=_seconds("COALESCE(a.last, s.started_at)", "s.started_at")))
    op.execute(FILL_PLAYER_MONTHS.format(month=_month("g.started_at")))
    op.execute(FILL_GAME_MONTHS.format(month=_month("g.started_at")))


def downgrade() -> None:
    op.drop_table("game_months")
    op.drop_table("player_months")
    op.drop_index("ix_summaries_game_status_started", table_name="game_summaries")
    op.drop_index("ix_summaries_game_top", table_name="game_summaries")
    op.drop_index("ix_summaries_status_started", table_name="game_summaries")
    op.drop_index("ix_summaries_game_started", table_name="game_summaries")
    op.drop_index("ix_summaries_started", table_name="game_summaries")
    op.drop_table("game_summaries")
    op.drop_column("seats", "name")
    op.drop_column("sessions", "abandoned_at")
