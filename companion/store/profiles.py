"""The SQL of player profiles (:mod:`companion.service.players` says the rules: rename, merge,
remove): each function runs in the caller's write transaction. A profile's games are its seats and
results rows (``player_id``); a record's names are its seats' ``name`` and stay as they are."""

from __future__ import annotations

from sqlalchemy import text
from sqlmodel import Session

from models.tables import Player


def profile(db: Session, player_id: int) -> Player | None:
    """The profile's row (None: no such profile)."""
    return db.get(Player, player_id)


def other_names(db: Session, player_id: int) -> list[str]:
    """The names of every other profile."""
    return [name for (name,) in db.execute(text("SELECT name FROM players WHERE id != :p"), {"p": player_id})]


def rename(db: Session, player_id: int, name: str) -> None:
    db.execute(text("UPDATE players SET name = :n WHERE id = :p"), {"n": name, "p": player_id})


def game_together(db: Session, source_id: int, target_id: int) -> int | None:
    """The first game both profiles sat at (None: none)."""
    return db.execute(text(
        "SELECT a.session_id FROM seats a JOIN seats b ON b.session_id = a.session_id "
        "WHERE a.player_id = :s AND b.player_id = :t ORDER BY a.session_id LIMIT 1"),
        {"s": source_id, "t": target_id}).scalar()


def move_games(db: Session, source_id: int, target_id: int, source_name: str) -> None:
    """Every seat and result of ``source_id`` made ``target_id``'s; the seats written before 0004
    (no name of their own) first take the source's name, their record's."""
    db.execute(text("UPDATE seats SET name = :n WHERE player_id = :s AND name IS NULL"),
               {"n": source_name, "s": source_id})
    db.execute(text("UPDATE seats SET player_id = :t WHERE player_id = :s"), {"s": source_id, "t": target_id})
    db.execute(text("UPDATE results SET player_id = :t WHERE player_id = :s"), {"s": source_id, "t": target_id})


def games_of(db: Session, player_id: int) -> int:
    """How many seats the profile has (its games)."""
    return db.execute(text("SELECT COUNT(*) FROM seats WHERE player_id = :p"), {"p": player_id}).scalar_one()


def delete(db: Session, player_id: int) -> None:
    db.execute(text("DELETE FROM players WHERE id = :p"), {"p": player_id})
