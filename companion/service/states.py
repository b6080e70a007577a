"""What the app reads: the typed, frozen values the service hands to screens (a session's state,
lists of sessions, players, statistics). Every time in them is an aware UTC datetime."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from enum import Enum
from functools import cached_property
from typing import Any, TypedDict, TypeVar, overload

from models.i18n import Msg
from models.structs_base import Action, Record
from scoring.base import Engine, Expectation, Outcome

UTC = timezone.utc


class Connection(str, Enum):
    """Where the games are kept, as :meth:`SessionService.connection` finds it: ``LOCAL`` a SQLite
    file on this device (always there), ``CONNECTED`` the club's server answers, ``OFFLINE`` it does
    not (entries are refused until it does)."""

    LOCAL = "local"
    CONNECTED = "connected"
    OFFLINE = "offline"


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


T = TypeVar("T")
F = TypeVar("F")


def made(cls: type[F], /, **values: Any) -> F:
    """An instance of the frozen dataclass ``cls`` with these field values, made without its
    generated ``__init__`` (a frozen dataclass sets each field through ``object.__setattr__``: for
    a :class:`SessionState`, made on every tap, that cost as much as the rest of the state). Only
    for dataclasses with no ``__post_init__`` and no field that has a default factory; every
    field must be given (checked, but only while the checks run: ``python -O`` skips them). The
    instance stays frozen: setting a field raises as it would."""
    assert values.keys() == _field_names(cls), f"{cls.__name__}: not every field given"
    instance = object.__new__(cls)
    instance.__dict__.update(values)
    return instance


_FIELD_NAMES: dict[type, frozenset[str]] = {}


def _field_names(cls: type) -> frozenset[str]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in fields(cls))
    return names


class Prefix(Sequence[T]):
    """The first ``length`` items of a list, without copying them: O(1) to make, whatever the
    list's length. Sound because the service only ever appends to the lists it shares this way
    (an undo or a correction puts a new list in their place), so a prefix never changes."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[T], length: int | None = None):
        self._items = items
        self._length = len(items) if length is None else length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[i] for i in range(self._length)[index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("log index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[T]:
        items = self._items
        for i in range(self._length):
            yield items[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(other) == self._length and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  # equal to lists and tuples, so not hashable

    def __repr__(self) -> str:
        return f"Prefix({list(self)!r})"


class StaleState(RuntimeError):
    """A defect in the caller: the engine of a :class:`SessionState` was read after a later entry
    changed it. A state is read at once (a screen built from it) and not kept."""


@dataclass(frozen=True)
class SessionState:
    """A session as one device is shown it.

    Everything in it is a snapshot — the log, what is expected, the outcome, the record, the
    version — except ``engine``: that is the session's live engine, shared, not copied (copying it
    on every entry is what made an entry's cost grow with the game). A state is read at once, by the
    screen built from it, and not kept: once a later entry changes the engine, reading ``engine``
    raises :class:`StaleState` rather than showing the wrong game.

    ``version`` is what the device has seen: the ``seq`` of the last active entry (0 when there is
    none). It names one list of active entries for good (a seq is never reused and a retracted
    entry never comes back), so ``submit``, ``undo`` and ``correct`` take it back as ``seen`` and
    refuse with :class:`~companion.service.errors.GameChanged` if the game is no longer that.
    """

    session_id: int
    game: str
    variant: Mapping[str, Any]  # read-only
    players: tuple[str, ...]
    first_player: str
    assist: bool
    log: Sequence[LogEntry]  # every active entry's index, action data and events, in order
    expected: Expectation
    outcome: Outcome | None
    status: str  # "in_progress" | "finished"
    started_at: datetime
    updated_at: datetime
    version: int
    base: Record = field(repr=False, compare=False)  # the record without its actions
    actions: Sequence[Action] = field(repr=False, compare=False)  # the parsed active actions
    live_engine: Engine = field(repr=False, compare=False)
    applied: int = field(repr=False, compare=False)  # live_engine.applied when the state was made

    @property
    def stale(self) -> bool:
        """Whether a later entry changed the engine since the state was made (``engine`` would
        raise): a caller handed a state a little later (the screen drawn from what ``submit``
        returned) reads the game again instead."""
        return self.live_engine.applied != self.applied

    @property
    def engine(self) -> Engine:
        """The replayed engine: read its public state, never apply to it, and only at once."""
        if self.live_engine.applied != self.applied:
            raise StaleState(f"game {self.session_id}: this state's engine was changed by a later entry; "
                             "read a state at once, do not keep it")
        return self.live_engine

    @cached_property
    def record(self) -> Record:
        """The table record (a msgspec struct of models.structs), made on first use."""
        return self.base.model_copy(update={"actions": list(self.actions)})


@dataclass(frozen=True)
class SeatResult:
    """One seat of a listed game: the profile's name today, and for a finished game the final
    score, place (1 = first, equal places shared), whether the player won and whether the game
    cast the player out (High Society's poorest: the score then wins nothing)."""
    name: str
    score: int | float | None = None
    place: int | None = None
    winner: bool = False
    out: bool = False


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
    table_name: str | None = None  # the club table it was started at (None: a tablet with no name)


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
