"""What the app reads: the typed, frozen values the service hands to screens (a session's state,
lists of sessions, players, statistics). Every time in them is an aware UTC datetime."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypedDict

from models.i18n import Msg
from models.record import TableRecord
from scoring.base import Engine, Expectation, Outcome

UTC = timezone.utc


def utc(moment: datetime) -> datetime:
    """An aware UTC time (a naive one is taken to be UTC already)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else utc(moment)


@dataclass(frozen=True)
class LogEntry:
    index: int
    action: dict[str, Any]
    events: tuple[Msg, ...]


@dataclass(frozen=True)
class SessionState:
    session_id: int
    game: str
    variant: dict[str, Any]
    players: tuple[str, ...]
    first_player: str
    assist: bool
    record: TableRecord  # the pydantic table record (models.record)
    engine: Engine  # the replayed engine; read its public state, never apply to it
    log: tuple[LogEntry, ...]
    expected: Expectation
    outcome: Outcome | None
    status: str  # "in_progress" | "finished"
    started_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SeatResult:
    """One seat of a listed game: the profile's name today, and for a finished game the final
    score, place (1 = first, equal places shared) and whether the player won."""
    name: str
    score: int | float | None = None
    place: int | None = None
    winner: bool = False


@dataclass(frozen=True)
class SessionSummary:
    """A game in a list, read from its summary row (never a replay). ``players`` and ``winners``
    are the profiles' names today; ``status``: finished, in_progress or abandoned."""
    session_id: int
    game: str
    players: tuple[str, ...]
    status: str
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    winners: tuple[str, ...]
    entries: int
    last_played_at: datetime | None = None
    duration_s: float = 0.0
    seats: tuple[SeatResult, ...] = ()


@dataclass(frozen=True)
class HistoryPage:
    """One page of a filtered history, newest first; ``total``: how many games match."""
    items: tuple[SessionSummary, ...]
    total: int
    offset: int
    limit: int

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.items) < self.total


class HistoryEntry(TypedDict):
    """One entry ever made in a session, retracted ones included (a plain dict): for disputes."""
    seq: int
    action: Any
    created_at: datetime | None
    retracted_at: datetime | None  # None while active


@dataclass(frozen=True)
class PlayerProfile:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class PlayerGameStats:
    game: str
    games: int
    wins: int
    win_rate: float
    best_score: int | float
    average_score: float | None = None


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    win_rate: float
    by_game: tuple[PlayerGameStats, ...]
    id: int = 0
    average_score: float | None = None
    best_score: int | float | None = None
    average_place: float | None = None
    places: tuple[tuple[int, int], ...] = ()  # (place, how many times), best place first


@dataclass(frozen=True)
class MonthScores:
    """One month of a player's finished games: for the scores-over-time chart."""
    month: str  # YYYY-MM
    games: int
    average_score: float
    wins: int


@dataclass(frozen=True)
class GameStats:
    game: str
    games: int
    average_winning_score: float | None  # None when no finished game had a winner
    best_score: int | float | None
    best_by: tuple[str, ...]  # every player who reached the best score (in time order)
    top_winners: tuple[str, ...] = ()  # the players with the most wins at this game
    top_wins: int = 0
    average_spread: float | None = None  # best minus worst final score, on average
    average_entries: float | None = None
    average_duration_s: float | None = None  # over the games played live (imports have no times)


@dataclass(frozen=True)
class HeadToHeadGame:
    game: str
    games: int
    a_wins: int
    b_wins: int
    a_ahead: int  # games where a ranked better than b
    b_ahead: int
    level: int  # games where they shared a rank


@dataclass(frozen=True)
class HeadToHead:
    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    a_ahead: int
    b_ahead: int
    level: int
    by_game: tuple[HeadToHeadGame, ...]
