"""What the parts of the service share, held in one place by :class:`ServiceCore` (the service):
the store, the clock, the lock every change holds, the reads that say when the server is gone
(:data:`Read`), and the cache of live sessions: a session is replayed
once from the database, then kept in memory (its parsed actions, their seq numbers, the log and
the replayed engine) so that an entry applies one action instead of replaying the whole game.

The cached engine is changed in place by each new entry (no copy: an entry costs the same early
and late in a game). The states handed out share it: a state is read at once and not kept (see
:class:`SessionState`). The lists of actions, seqs and log entries only ever grow at their end;
an undo or a correction puts new lists in their place, so the prefixes states hold never change.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from sqlmodel import Session

from companion.service.errors import STORAGE_ERRORS, Offline, ServiceError, unknown_session
from companion.service.records import columns_record, refereed_actions
from companion.service.replay import Fold, fold
from companion.service.states import UTC, Connection, LogEntry, Prefix, SessionState, made, utc
from companion.store import SessionRows, Store, is_disconnect
from models.i18n import Msg, in_words
from models.record import MalformedRecord
from models.structs_base import Action, Record
from models.tables import STATUS_FINISHED, STATUS_IN_PROGRESS
from scoring.base import Engine, Outcome
from scoring.referee import NoReferee

CACHE_SIZE = 16

# the service's read transaction (:meth:`ServiceCore._read`), which a part of the service is given:
# a server that cannot be reached is Offline there, and the service's ``last_connection`` says so
Read = Callable[[], AbstractContextManager[Session]]
Clock = Callable[[], datetime]  # the service's now (:meth:`ServiceCore._now`: an aware UTC time)


@dataclass
class Live:
    session_id: int
    game: str
    variant: dict[str, Any]  # never changed: states get a read-only view of it
    players: tuple[str, ...]
    player_ids: dict[str, int]
    first_player: str
    assist: bool
    started_at: datetime
    updated_at: datetime
    base: Record  # the record with no actions
    engine: Engine
    actions: list[Action] = field(default_factory=list)  # parsed active actions
    seqs: list[int] = field(default_factory=list)  # their seq numbers
    log: list[LogEntry] = field(default_factory=list)
    last_seq: int = 0  # highest seq in the database, retracted rows included
    outcome: Outcome | None = None  # the engine's outcome now

    @property
    def version(self) -> int:
        """The seq of the last active entry, 0 if none (see :attr:`SessionState.version`)."""
        return self.seqs[-1] if self.seqs else 0


def decoded_actions(texts: Sequence[str]) -> list[Any]:
    """The actions' JSON texts decoded in one call. Raises ValueError for texts that are not one
    JSON value each (joined, a damaged row could otherwise pass for several or for none)."""
    data = json.loads("[" + ",".join(texts) + "]") if texts else []
    if not isinstance(data, list) or len(data) != len(texts):
        raise ValueError("the stored entries are not one JSON value each")
    return data


def broken(session_id: int, folded: Fold, game: str) -> ServiceError:
    """A saved session whose entries the engine refuses (``folded`` stopped at one). The refusal is
    in the words of the session's game (Animalement Vôtre's animals) wherever it is shown: the
    screen that shows it cannot open the session to learn its game."""
    assert folded.index is not None and folded.violation is not None
    msg = Msg("service.session.broken", {"session": session_id, "entry": folded.index + 1,
                                         "rule": folded.violation.rule,
                                         "reason": in_words(game, folded.violation.msg)})
    return ServiceError(because(msg, folded.engine, folded.violation.rule))


def because(msg: Msg, engine: Engine | None, rule: str | None = None) -> Msg:
    """``msg`` and, when the engine knows a rule change that can make a saved game replay
    differently (Monte & descend's chaos, Boursicocotte's exact payment; ``rule``: the refusal's
    rule id, if the replay stopped at one), the sentence that says so: the record stays as it was
    entered, it is its verdict that follows the corrected rule."""
    note = getattr(engine, "replay_note", None)
    why = note(rule) if note is not None else None
    return msg if why is None else Msg("service.because", {"what": msg, "why": why})


class ServiceCore:
    """The store, the clock, the lock every change holds, and the cache of live sessions: the
    service itself (:class:`companion.service.SessionService`), which gives each of its parts the
    ones it uses."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None):
        self.store = store
        self._clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self._cache: OrderedDict[int, Live] = OrderedDict()
        # per game, an entry (seq, JSON text) whose commit the server never confirmed: the connection
        # went during it; the next look at the game tells whether the server kept it
        self._unconfirmed: dict[int, tuple[int, str]] = {}
        # what the last look at the database found (connection(), or a call that met no server)
        self.last_connection = Connection.LOCAL if store.path is not None else Connection.CONNECTED

    def connection(self) -> Connection:
        """Whether the games' database can be used now: LOCAL for a SQLite file on this device, else
        CONNECTED or OFFLINE as a ``SELECT 1`` on the club's server finds it (a new connection waits
        a few seconds at most: call it off the UI's thread). Takes no lock: an entry being made by
        another tab does not delay the answer."""
        if self.store.path is not None:
            return Connection.LOCAL
        self.last_connection = Connection.CONNECTED if self.store.reachable() else Connection.OFFLINE
        return self.last_connection

    def last_known(self, session_id: int) -> SessionState:
        """The game as this service last saw it, without asking the database: the last acknowledged
        state, which a screen keeps showing while the server cannot be reached. Offline if this
        process has not kept the game (it must be read from the server)."""
        with self._lock:
            live = self._cache.get(session_id)
            if live is None:
                raise Offline()
            return self._state(live)

    @contextmanager
    def _read(self) -> Iterator[Session]:
        """A read transaction (:meth:`Store.read`) where a server that cannot be reached is
        :class:`Offline`, not the driver's error."""
        try:
            with self.store.read() as db:
                yield db
        except STORAGE_ERRORS as err:
            if is_disconnect(err):
                self.last_connection = Connection.OFFLINE
                raise Offline() from err
            raise

    def _rewind(self, live: Live) -> None:
        """After an entry applied to the cached engine whose transaction then failed: the engine
        again as the acknowledged entries leave it, replayed in memory (no database needed: the
        server may be the very thing that failed). The lists only grow after a commit, so they
        still hold the acknowledged entries; a state handed out earlier keeps the old engine and
        says so if read (StaleState)."""
        folded = fold(live.base, live.actions, data=[entry.action for entry in live.log])
        if folded.violation is not None:  # cannot happen: these entries were accepted
            self._forget(live.session_id)
            return
        live.engine = folded.engine

    def _now(self) -> datetime:
        return utc(self._clock())

    @contextmanager
    def steady(self) -> Iterator[None]:
        """Hold while reading a state's engine from another thread than the one changing the game
        (a screen being built while another tab of the same process enters something): no entry
        changes a live engine meanwhile. Changes made through the service inside are fine."""
        with self._lock:
            yield

    def _live(self, session_id: int) -> Live:
        live = self._cache.get(session_id)
        if live is not None:
            self._cache.move_to_end(session_id)
            return live
        live = self._load(session_id)
        self._remember(live)
        return live

    def _fresh_live(self, session_id: int) -> Live:
        """The live session, read again first if another process changed it (one small query on a
        cache hit): what a screen is shown. The write paths check inside their transaction."""
        live = self._cache.get(session_id)
        return self._live(session_id) if live is None else self._current(live)

    def _current(self, live: Live) -> Live:
        """``live`` if the database still has exactly its entries, else the session read again."""
        with self._read() as db:
            exists, last_seq, last_active = self.store.log_position(db, live.session_id)
        if not exists:
            self._forget(live.session_id)
            raise unknown_session(live.session_id)
        if last_active == live.version:  # the same active entries (see Play._check_fresh)
            live.last_seq = last_seq
            self._cache.move_to_end(live.session_id)
            return live
        self._forget(live.session_id)
        return self._live(live.session_id)

    def _load(self, session_id: int) -> Live:
        """Replay a session from its rows: two queries (the session with its seats, the log),
        one JSON parse and one validation for all the actions, then the engine fold."""
        with self._read() as db:
            rows = self.store.session_rows(db, session_id)
        if rows is None:
            raise unknown_session(session_id)
        return self._replayed(rows)

    def _replayed(self, rows: SessionRows) -> Live:
        session_id = rows.session_id
        try:
            data = decoded_actions(rows.actions)
            record = columns_record(rows.game, rows.variant, rows.first_player, rows.setup, rows.names, data)
            base = record.model_copy(update={"actions": []})
            parsed = refereed_actions(record)
            # the stored texts are the actions' canonical JSON (the service writes nothing else):
            # the log takes the decoded data instead of dumping every model again
            folded = fold(base, parsed, data=data)
            variant = json.loads(rows.variant)
        except NoReferee:
            raise ServiceError(Msg("service.no_referee", {"game": rows.game})) from None
        except (MalformedRecord, ValueError) as err:
            detail = err.msg if isinstance(err, MalformedRecord) else str(err)
            raise ServiceError(Msg("service.session.damaged", {"session": session_id, "detail": detail})) from None
        if folded.violation is not None:
            raise broken(session_id, folded, rows.game)
        return Live(session_id=session_id, game=rows.game, variant=variant, players=tuple(rows.names),
                    player_ids=dict(zip(rows.names, rows.player_ids)), first_player=rows.first_player,
                    assist=rows.assist, started_at=rows.started_at, updated_at=rows.updated_at, base=base,
                    engine=folded.engine, actions=list(parsed), seqs=list(rows.seqs), log=folded.log,
                    last_seq=rows.last_seq, outcome=folded.engine.outcome())

    def _remember(self, live: Live) -> None:
        self._cache[live.session_id] = live
        self._cache.move_to_end(live.session_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _forget(self, session_id: int) -> None:
        self._cache.pop(session_id, None)

    def _state(self, live: Live, *, actions: Sequence[Action] | None = None, folded: Fold | None = None,
               updated_at: datetime | None = None) -> SessionState:
        """The state a screen reads, in O(1): the log and the actions are prefixes of the live
        lists, the record is made only if read. With ``actions`` and ``folded``: a state that is
        not the live one (a correction's preview), from its own lists and engine."""
        if folded is None:
            engine, log, outcome = live.engine, live.log, live.outcome
        else:
            engine, log, outcome = folded.engine, folded.log, folded.engine.outcome()
        chosen = live.actions if actions is None else list(actions)
        return made(
            SessionState, session_id=live.session_id, game=live.game, variant=MappingProxyType(live.variant),
            players=live.players, first_player=live.first_player, assist=live.assist, log=Prefix(log),
            expected=engine.expected(), outcome=outcome,
            status=STATUS_FINISHED if outcome is not None else STATUS_IN_PROGRESS,
            started_at=utc(live.started_at), updated_at=utc(updated_at or live.updated_at),
            version=live.version, base=live.base, actions=Prefix(chosen), live_engine=engine,
            applied=engine.applied)
