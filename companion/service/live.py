"""The cache of live sessions, which every part of the service shares: a session is replayed
once from the database, then kept in memory (its parsed actions, their seq numbers, the log and
the replayed engine) so that an entry applies one action instead of replaying the whole game.
The cached engine is never changed once a state holding it was handed out."""

from __future__ import annotations

import copy
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

from companion.service.errors import ServiceError, unknown_session
from companion.service.records import refereed_actions, stored_record
from companion.service.replay import Fold, fold
from companion.service.states import UTC, LogEntry, SessionState, utc
from companion.store import Store
from models.i18n import Msg
from models.record import AnyAction, MalformedRecord, TableRecord
from models.tables import STATUS_FINISHED, STATUS_IN_PROGRESS
from scoring.base import Engine
from scoring.referee import NoReferee

CACHE_SIZE = 16


@dataclass
class Live:
    session_id: int
    game: str
    variant: dict[str, Any]
    players: tuple[str, ...]
    player_ids: dict[str, int]
    first_player: str
    assist: bool
    started_at: datetime
    updated_at: datetime
    base: TableRecord  # the record with no actions
    engine: Engine
    actions: list[AnyAction] = field(default_factory=list)  # parsed active actions
    seqs: list[int] = field(default_factory=list)  # their seq numbers
    log: list[LogEntry] = field(default_factory=list)
    last_seq: int = 0  # highest seq in the database, retracted rows included

    def record(self, actions: Sequence[AnyAction] | None = None) -> TableRecord:
        return self.base.model_copy(update={"actions": list(self.actions if actions is None else actions)})


def broken(session_id: int, folded: Fold) -> ServiceError:
    """A saved session whose entries the engine refuses (``folded`` stopped at one)."""
    assert folded.index is not None and folded.violation is not None
    return ServiceError(Msg("service.session.broken", {"session": session_id, "entry": folded.index + 1,
                                                       "rule": folded.violation.rule,
                                                       "reason": folded.violation.msg}))


class ServiceCore:
    """The store, the clock, the lock every change holds, and the cache of live sessions."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None):
        self.store = store
        self._clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self._cache: OrderedDict[int, Live] = OrderedDict()

    def _now(self) -> datetime:
        return utc(self._clock())

    def _live(self, session_id: int) -> Live:
        live = self._cache.get(session_id)
        if live is not None:
            self._cache.move_to_end(session_id)
            return live
        live = self._load(session_id)
        self._remember(live)
        return live

    def _load(self, session_id: int) -> Live:
        with self.store.read() as db:
            row = self.store.session(db, session_id)
            if row is None:
                raise unknown_session(session_id)
            seated = self.store.seat_players(db, session_id)  # the record's names: a profile may be renamed
            names = [name for name, _ in seated]
            actions = self.store.active_actions(db, session_id)
            last_seq = self.store.last_seq(db, session_id)
            player_ids = dict(seated)
        variant = json.loads(row.variant)
        try:
            record = stored_record(row, names, [a.action for a in actions])
            base = record.model_copy(update={"actions": []})
            parsed = refereed_actions(record)
            folded = fold(base, parsed)
        except NoReferee:
            raise ServiceError(Msg("service.no_referee", {"game": row.game})) from None
        except (MalformedRecord, ValueError) as err:
            detail = err.msg if isinstance(err, MalformedRecord) else str(err)
            raise ServiceError(Msg("service.session.damaged", {"session": session_id, "detail": detail})) from None
        if folded.violation is not None:
            raise broken(session_id, folded)
        return Live(session_id=session_id, game=row.game, variant=variant, players=tuple(names),
                    player_ids=player_ids, first_player=row.first_player, assist=bool(row.assist),
                    started_at=row.started_at, updated_at=row.updated_at, base=base, engine=folded.engine,
                    actions=list(parsed), seqs=[a.seq for a in actions], log=folded.log, last_seq=last_seq)

    def _player_id(self, db: Session, name: str) -> int:
        player = self.store.player_by_name(db, name)  # a seat's player always exists
        assert player is not None and player.id is not None
        return player.id

    def _remember(self, live: Live) -> None:
        self._cache[live.session_id] = live
        self._cache.move_to_end(live.session_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _forget(self, session_id: int) -> None:
        self._cache.pop(session_id, None)

    def _state(self, live: Live, *, actions: Sequence[AnyAction] | None = None, folded: Fold | None = None,
               updated_at: datetime | None = None) -> SessionState:
        engine = live.engine if folded is None else folded.engine
        log = live.log if folded is None else folded.log
        outcome = engine.outcome()
        return SessionState(
            session_id=live.session_id, game=live.game, variant=copy.deepcopy(live.variant), players=live.players,
            first_player=live.first_player, assist=live.assist, record=live.record(actions), engine=engine,
            log=tuple(log), expected=engine.expected(), outcome=outcome,
            status=STATUS_FINISHED if outcome is not None else STATUS_IN_PROGRESS,
            started_at=utc(live.started_at), updated_at=utc(updated_at or live.updated_at))

