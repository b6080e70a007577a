"""Applying and taking back entries: submit an action, undo the last one, preview and save a
correction. Every change is one write transaction, committed before the new state is returned;
a refused or malformed entry raises and writes nothing. ``submit`` works on a copy of the cached
engine, which the cache takes only after the commit."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from companion.service.errors import (
    CorrectionConflict,
    Malformed,
    Refused,
    ServiceError,
    Stale,
    storage_error,
    unknown_session,
)
from companion.service.live import Live, ServiceCore, broken
from companion.service.replay import Fold, fold, result_rows
from companion.service.states import LogEntry, SessionState
from companion.store import dumps
from models.i18n import Msg
from models.record import AnyAction, MalformedRecord, action_to_data, parse_action
from scoring.base import Outcome, RuleViolation


class Play(ServiceCore):
    def submit(self, session_id: int, action: dict[str, Any]) -> SessionState:
        with self._lock:
            try:
                return self._submit(session_id, action)
            except Stale:
                self._forget(session_id)
                return self._submit(session_id, action)

    def _submit(self, session_id: int, action: dict[str, Any]) -> SessionState:
        live = self._live(session_id)
        parsed = self._parse_action(live, action)
        # The parsed actions the engine keeps are frozen models: share them instead of copying.
        engine = copy.deepcopy(live.engine, {id(a): a for a in live.actions})
        index = len(live.actions)
        try:
            events = engine.apply(parsed)
        except RuleViolation as violation:
            raise Refused(violation.rule, violation.msg, index) from None
        data = action_to_data(parsed)
        now = self._now()
        outcome = engine.outcome()
        try:
            with self.store.write() as db:
                self._check_fresh(db, live)
                seq = self.store.append(db, session_id, [dumps(data)], now, after=live.last_seq)
                self._write_status(db, live, outcome, now)
        except (Stale, ServiceError):
            raise
        except SQLAlchemyError as err:
            self._forget(session_id)
            raise storage_error(err) from err
        live.actions.append(parsed)
        live.seqs.append(seq)
        live.log.append(LogEntry(index, data, tuple(events)))
        live.engine = engine
        live.last_seq = seq
        live.updated_at = now
        return self._state(live)

    def undo(self, session_id: int) -> SessionState:
        """Retract the last active entry (the row stays, marked retracted). Reopens a finished
        game: its results rows go."""
        with self._lock:
            try:
                return self._undo(session_id)
            except Stale:
                self._forget(session_id)
                return self._undo(session_id)

    def _undo(self, session_id: int) -> SessionState:
        live = self._live(session_id)
        if not live.actions:
            raise ServiceError(Msg("service.undo.nothing"))
        kept = live.actions[:-1]
        folded = fold(live.base, kept)
        if folded.violation is not None:  # cannot happen with a deterministic engine
            raise broken(live.session_id, folded)
        now = self._now()
        try:
            with self.store.write() as db:
                self._check_fresh(db, live)
                self.store.retract(db, [live.seqs[-1]], session_id, now)
                self._write_status(db, live, folded.engine.outcome(), now)
        except (Stale, ServiceError):
            raise
        except SQLAlchemyError as err:
            self._forget(session_id)
            raise storage_error(err) from err
        live.actions = list(kept)
        live.seqs = live.seqs[:-1]
        live.log = folded.log
        live.engine = folded.engine
        live.updated_at = now
        return self._state(live)

    def preview_correction(self, session_id: int, index: int, action: dict[str, Any]) -> SessionState:
        """The state the session would have with entry ``index`` replaced. Saves nothing."""
        with self._lock:
            live = self._live(session_id)
            actions, folded = self._corrected(live, index, action)
            return self._state(live, actions=actions, folded=folded, updated_at=live.updated_at)

    def correct(self, session_id: int, index: int, action: dict[str, Any]) -> SessionState:
        """Replace entry ``index``: in one transaction the entries from ``index`` on are retracted
        and the corrected one and the later ones appended again."""
        with self._lock:
            try:
                return self._correct(session_id, index, action)
            except Stale:
                self._forget(session_id)
                return self._correct(session_id, index, action)

    def _correct(self, session_id: int, index: int, action: dict[str, Any]) -> SessionState:
        live = self._live(session_id)
        actions, folded = self._corrected(live, index, action)
        if action_to_data(actions[index]) == action_to_data(live.actions[index]):
            return self._state(live)  # nothing changes: nothing to write
        now = self._now()
        try:
            with self.store.write() as db:
                self._check_fresh(db, live)
                self.store.retract(db, live.seqs[index:], session_id, now)
                last = self.store.append(db, session_id, [dumps(action_to_data(a)) for a in actions[index:]], now,
                                         after=live.last_seq)
                self._write_status(db, live, folded.engine.outcome(), now)
        except (Stale, ServiceError):
            raise
        except SQLAlchemyError as err:
            self._forget(session_id)
            raise storage_error(err) from err
        count = len(actions) - index
        live.seqs = live.seqs[:index] + list(range(last - count + 1, last + 1))
        live.actions = list(actions)
        live.log = folded.log
        live.engine = folded.engine
        live.last_seq = last
        live.updated_at = now
        return self._state(live)

    def _corrected(self, live: Live, index: int, action: dict[str, Any]) -> tuple[list[AnyAction], Fold]:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(live.actions):
            raise ServiceError(Msg("service.correction.no_entry", {"entry": _human(index)}))
        parsed = self._parse_action(live, action)
        actions = live.actions[:index] + [parsed] + live.actions[index + 1:]
        folded = fold(live.base, actions)
        if folded.violation is not None:
            assert folded.index is not None
            violation = folded.violation
            if folded.index == index:
                raise Refused(violation.rule, violation.msg, index)
            raise CorrectionConflict(
                folded.index, violation.rule,
                Msg("service.correction.conflict", {"entry": folded.index + 1, "reason": violation.msg}),
                violation.msg)
        return actions, folded

    # -- inside a write transaction -------------------------------------------------------------

    def _check_fresh(self, db: Session, live: Live) -> None:
        """Inside a write transaction: the session still exists and nobody else appended or
        retracted since the cache was filled."""
        exists, last_seq, last_active = self.store.log_position(db, live.session_id)
        if not exists:
            self._forget(live.session_id)
            raise unknown_session(live.session_id)
        if last_seq != live.last_seq:
            raise Stale()  # an entry was appended elsewhere
        if last_active != (live.seqs[-1] if live.seqs else 0):
            raise Stale()  # an entry was undone elsewhere

    def _write_status(self, db: Session, live: Live, outcome: Outcome | None, now: datetime) -> None:
        """Status, results rows and updated_at after a change; ``live`` is still the state before it."""
        if outcome is not None:
            self.store.write_results(db, live.session_id, result_rows(outcome, live.player_ids))
            self.store.set_status(db, live.session_id, True, now)
        elif live.engine.outcome() is not None:  # the change reopens a finished game
            self.store.clear_results(db, live.session_id)
            self.store.set_status(db, live.session_id, False, now)
        else:
            self.store.touch(db, live.session_id, now)
        self.store.refresh_summary(db, live.session_id)  # what lists and statistics read

    def _parse_action(self, live: Live, action: Any) -> AnyAction:
        try:
            return parse_action(live.game, action, list(live.players))
        except MalformedRecord as err:
            raise Malformed(Msg("service.action.malformed", {"detail": err.msg})) from None


def _human(index: Any) -> Any:
    return index + 1 if isinstance(index, int) and not isinstance(index, bool) else index
