"""Applying and taking back entries: submit an action, undo the last one, preview and save a
correction. Every change is one write transaction, committed before the new state is returned;
a refused or malformed entry raises and writes nothing.

An entry costs the same early and late in a game: ``submit`` checks the action on the cached
engine (``Engine.check`` changes nothing), then in one write transaction makes sure the database
is still what the cache says, appends the row, applies the action to the cached engine (no copy)
and writes the status the new outcome gives. The action is applied before the commit, not after
it, because the finished status and the results rows belong to the same transaction and depend on
the outcome; if the apply raises (a defect: ``check`` accepted it) the transaction rolls back, so
nothing is written, and the cache entry is dropped so that the next call replays from the
database. The cache entry is dropped too if the commit fails after the apply.

Two devices on one game: every change takes what the device has seen (``seen``: the
:attr:`SessionState.version` of the state it showed). If the game is no longer that — another tab
of this process or another process wrote in between — the change is refused with
:class:`GameChanged`, which carries the current state; nothing is ever re-tried on a state the
device did not show. Without ``seen`` (a caller that shows no state: tests, benchmarks, the
command line) the game must still be the one this service last saw."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlmodel import Session

from companion.service.errors import (
    STORAGE_ERRORS,
    CorrectionConflict,
    GameChanged,
    Malformed,
    Offline,
    Refused,
    ServiceError,
    Stale,
    storage_error,
    unknown_session,
)
from companion.service.live import Live, ServiceCore, broken
from companion.service.replay import Fold, fold, result_rows
from companion.service.states import Connection, LogEntry, SessionState, made
from companion.store import CommitUnknown, Tx, action_text, dumps, is_disconnect, is_seq_race
from models.i18n import Msg
from models.record import MalformedRecord, action_to_data, parse_action
from models.structs_base import Action
from scoring.base import Outcome, RuleViolation

OFFLINE_ENTRY = "service.offline.entry"
# the connection went during the commit: the entry may be on the server (told on the next look at the game)
OFFLINE_ENTRY_UNKNOWN = "service.offline.entry.unknown"
ATTEMPTS = 3  # a change whose game came back to what its device showed is made again, at most this often


class _Again(Exception):
    """The change found the game changed, but the game read again is the very one its device showed
    (``state.version == seen``: an entry made and undone on another device while this change
    waited for it): nothing was written, and the change may be made again on that game."""

    def __init__(self, state: SessionState, seen: int):
        self.state = state
        self.seen = seen


def _offline_says(change: Callable[[], SessionState], key: str) -> SessionState:
    """``change()``, where an :class:`Offline` raised says what was not done (``key``: the entry,
    the undo…). A plain try: a tap pays nothing for it."""
    try:
        return change()
    except Offline as err:
        if err.msg.key.startswith(key):  # the key itself, or a more precise one of its own
            raise
        raise Offline(Msg(key)) from err.__cause__


def _again(change: Callable[[], SessionState]) -> SessionState:
    """``change()``, made again while it meets the game it was shown (see :class:`_Again`)."""
    for _ in range(ATTEMPTS - 1):
        try:
            return change()
        except _Again:
            continue
    try:
        return change()
    except _Again as again:  # still unsettled: say so, with the game as it is
        raise GameChanged(again.state, again.seen) from None


class Play(ServiceCore):
    def submit(self, session_id: int, action: dict[str, Any], *, seen: int | None = None) -> SessionState:
        """Accept an entry and return the new state (the entry is on disk), or raise: Refused
        (a rule), Malformed, GameChanged (``seen`` is not the game's version any more)."""
        return _offline_says(lambda: _again(lambda: self._submit(session_id, action, seen)), OFFLINE_ENTRY)

    def _submit(self, session_id: int, action: dict[str, Any], seen: int | None) -> SessionState:
        """One write transaction: the game is still the cache's, the engine applies the action
        (checked once: :meth:`Engine.apply` is all or nothing, a refusal leaves the engine as it
        was and the transaction writes nothing), the row is appended, the status written. The
        state returned is what the device that tapped draws next: it reads nothing after this."""
        with self._lock:
            live = self._as_seen(self._live(session_id), seen)
            parsed = self._parse_action(live, action)
            index = len(live.actions)
            text = action_text(parsed)  # the stored text, straight from the parsed action
            now = self._now()
            applied = False
            try:
                with self.store.write_direct() as db:
                    self._check_fresh(db, live)
                    applied = True  # from here on the cached engine may be ahead of the database
                    try:
                        events = live.engine.apply(parsed)
                    except RuleViolation as violation:  # refused: apply changed nothing (all or nothing)
                        applied = False
                        raise Refused(violation.rule, violation.msg, index) from None
                    seq = self.store.append(db, session_id, [text], now, after=live.last_seq)
                    outcome = live.engine.outcome()
                    self._write_status(db, live, outcome, now, appended=1)
            except Stale:
                raise self._changed(session_id, live, seen) from None
            except CommitUnknown:  # the server may have kept it: the cache stays the acknowledged game
                self._rewind(live)
                self.last_connection = Connection.OFFLINE
                self._unconfirmed[session_id] = (seq, text)
                raise Offline(Msg(OFFLINE_ENTRY_UNKNOWN)) from None
            except STORAGE_ERRORS as err:
                if is_disconnect(err):  # the server went: not acknowledged; the cache stays the acknowledged game
                    if applied:
                        self._rewind(live)
                    self.last_connection = Connection.OFFLINE
                    raise Offline(Msg(OFFLINE_ENTRY)) from err
                self._forget(session_id)
                if is_seq_race(err):  # another device's entry took the seq: nothing of ours was written
                    raise self._changed(session_id, live, seen) from None
                raise storage_error(err) from err
            except BaseException:
                if applied:
                    self._forget(session_id)
                raise
            live.actions.append(parsed)
            live.seqs.append(seq)
            live.log.append(made(LogEntry, index=index, action=action_to_data(parsed), events=events))
            live.last_seq = seq
            live.updated_at = now
            live.outcome = outcome
            return self._state(live)

    def undo(self, session_id: int, *, seen: int | None = None) -> SessionState:
        """Retract the last active entry (the row stays, marked retracted). Reopens a finished
        game: its results rows go. With ``seen``, only the last entry of the state the device
        showed: if another device changed the game since, GameChanged and nothing is retracted.
        The engine has no inverse of an entry: an undo replays the entries before it."""
        return _offline_says(lambda: _again(lambda: self._undo(session_id, seen)), "service.offline.undo")

    def _undo(self, session_id: int, seen: int | None) -> SessionState:
        with self._lock:
            live = self._as_seen(self._live(session_id), seen)
            if not live.actions:
                self._judged_on_current(live, seen)  # another device's entry: GameChanged, not "nothing"
                raise ServiceError(Msg("service.undo.nothing"))
            kept = live.actions[:-1]
            folded = fold(live.base, kept, data=[e.action for e in live.log[:-1]])
            if folded.violation is not None:  # cannot happen with a deterministic engine
                raise broken(live.session_id, folded, live.game)
            outcome = folded.engine.outcome()
            now = self._now()
            with self._rewriting(live, seen) as db:
                self.store.retract(db, [live.seqs[-1]], session_id, now)
                self._write_status(db, live, outcome, now)
            live.actions = list(kept)
            live.seqs = live.seqs[:-1]
            live.log = folded.log
            live.engine = folded.engine
            live.updated_at = now
            live.outcome = outcome
            return self._state(live)

    def preview_correction(self, session_id: int, index: int, action: dict[str, Any], *,
                           seen: int | None = None) -> SessionState:
        """The state the session would have with entry ``index`` replaced. Saves nothing."""
        with self._lock:
            live = self._as_seen(self._live(session_id), seen)
            actions, folded = self._corrected(live, index, action)
            return self._state(live, actions=actions, folded=folded, updated_at=live.updated_at)

    def correct(self, session_id: int, index: int, action: dict[str, Any], *,
                seen: int | None = None) -> SessionState:
        """Replace entry ``index``: in one transaction the entries from ``index`` on are retracted
        and the corrected one and the later ones appended again."""
        return _offline_says(lambda: _again(lambda: self._correct(session_id, index, action, seen)),
                             "service.offline.correction")

    def _correct(self, session_id: int, index: int, action: dict[str, Any], seen: int | None) -> SessionState:
        with self._lock:
            live = self._as_seen(self._live(session_id), seen)
            try:
                actions, folded = self._corrected(live, index, action)
            except Malformed:  # the entry itself, whatever the game
                raise
            except ServiceError:  # refused, or no such entry, judged on the cache: GameChanged if the game moved on
                self._judged_on_current(live, seen)
                raise
            if action_to_data(actions[index]) == live.log[index].action:
                self._judged_on_current(live, seen)  # nothing to write: but the state returned must be the game
                return self._state(live)
            outcome = folded.engine.outcome()
            now = self._now()
            with self._rewriting(live, seen) as db:
                # the entries written again keep their times: a correction fixes what was entered,
                # not when the game was played (its duration and last play stay the table's)
                times = self.store.entry_times(db, session_id, live.seqs[index:])
                self.store.retract(db, live.seqs[index:], session_id, now)
                last = self.store.append(db, session_id, [dumps(e.action) for e in folded.log[index:]], now,
                                         after=live.last_seq, times=times)
                self._write_status(db, live, outcome, now)
            count = len(actions) - index
            live.seqs = live.seqs[:index] + list(range(last - count + 1, last + 1))
            live.actions = list(actions)
            live.log = folded.log
            live.engine = folded.engine
            live.last_seq = last
            live.updated_at = now
            live.outcome = outcome
            return self._state(live)

    @contextmanager
    def _rewriting(self, live: Live, seen: int | None) -> Iterator[Session]:
        """One write transaction on the game as this device showed it (undo, correction): the
        database must still hold the cached entries (else GameChanged, nothing written); a storage
        failure drops the cache and says so."""
        try:
            with self.store.write() as db:
                self._check_fresh(db, live)
                yield db
        except Stale:
            raise self._changed(live.session_id, live, seen) from None
        except STORAGE_ERRORS as err:
            if is_disconnect(err):  # nothing changed in the cache yet: it stays the acknowledged game
                self.last_connection = Connection.OFFLINE
                raise Offline() from err
            self._forget(live.session_id)
            if is_seq_race(err):  # see submit
                raise self._changed(live.session_id, live, seen) from None
            raise storage_error(err) from err

    def _corrected(self, live: Live, index: int, action: dict[str, Any]) -> tuple[list[Action], Fold]:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(live.actions):
            raise ServiceError(Msg("service.correction.no_entry", {"entry": _human(index)}))
        parsed = self._parse_action(live, action)
        actions = live.actions[:index] + [parsed] + live.actions[index + 1:]
        data = [e.action for e in live.log]
        data[index] = action_to_data(parsed)
        folded = fold(live.base, actions, data=data)
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

    # -- what the device has seen ---------------------------------------------------------------

    def _as_seen(self, live: Live, seen: int | None) -> Live:
        """The live session if it is the game the device showed (``seen``), else GameChanged with
        the game as it is now. The cache is read again first if it is behind the database."""
        if seen is None or seen == live.version:
            return live
        live = self._current(live)
        if seen == live.version:  # the cache was behind what the device had been shown
            return live
        raise GameChanged(self._state(live), seen)

    def _judged_on_current(self, live: Live, seen: int | None) -> None:
        """Before a refusal: if the database moved on behind the cache, the entry was judged on a
        game that is no longer the table's, so say that instead (GameChanged)."""
        fresh = self._current(live)
        shown = live.version if seen is None else seen
        if fresh is not live and fresh.version != shown:  # the same version: the same entries, judged right
            raise GameChanged(self._state(fresh), shown)

    def _changed(self, session_id: int, live: Live, seen: int | None) -> GameChanged:
        """Another process wrote between the cache and our write transaction: read the game again
        and refuse with it. Nothing was written. If the game read again is the one the device
        showed after all (changed and changed back in between: another device's entry undone),
        :class:`_Again` instead: the change is made again on it."""
        self._forget(session_id)
        fresh = self._live(session_id)
        state = self._state(fresh)
        shown = live.version if seen is None else seen
        if state.version == shown:
            raise _Again(state, shown)
        if self._unconfirmed_was_kept(live, fresh):
            return GameChanged(state, shown, Msg("service.changed.own_entry", {"entry": fresh.log[-1].events[0]}))
        return GameChanged(state, shown)

    def _unconfirmed_was_kept(self, before: Live, fresh: Live) -> bool:
        """Whether the one entry the game gained since ``before`` is this device's own whose commit
        was never confirmed (the connection went while the server committed it): then the game
        did not change on another device, the entry was saved after all. Forgets that entry."""
        unconfirmed = self._unconfirmed.pop(fresh.session_id, None)
        if unconfirmed is None or len(fresh.actions) != len(before.actions) + 1 or not fresh.log[-1].events:
            return False
        seq, text = unconfirmed
        return fresh.seqs[-1] == seq and dumps(fresh.log[-1].action) == text

    # -- inside a write transaction -------------------------------------------------------------

    def _check_fresh(self, db: Session | Tx, live: Live) -> None:
        """At the start of a write transaction: the session still exists and its active entries are still
        the cache's (the same last active seq means the same entries: a seq is never reused and a
        retracted entry never comes back). Entries made and undone elsewhere since leave the game as
        it was but use seqs: the cache takes the last seq used, and the change goes ahead."""
        # lock: on a server, the game's row is locked until the commit (Store.log_position)
        exists, last_seq, last_active = self.store.log_position(db, live.session_id, lock=True)
        if not exists:
            self._forget(live.session_id)
            raise unknown_session(live.session_id)
        if last_active != live.version:
            raise Stale()  # the active entries changed elsewhere
        if self._unconfirmed:  # the game is as acknowledged: an entry whose commit went unconfirmed was not kept
            self._unconfirmed.pop(live.session_id, None)
        live.last_seq = last_seq

    def _write_status(self, db: Session | Tx, live: Live, outcome: Outcome | None, now: datetime,
                      appended: int = 0) -> None:
        """Status, results rows, updated_at, the summary (what lists and statistics read) and the
        ratings from this game on (when it is, or was, finished) after a change; ``live.outcome`` is still the outcome before it. ``appended``: the change only
        appended that many entries (a submit). While the game goes on, a submit costs two fixed
        UPDATEs whatever the game's length (the summary brought up to date incrementally); results
        rows only when it ends. A change of status, an undo or a correction rewrites the summary
        from the game's rows."""
        if outcome is not None:
            # each seat's profile as the database has it now: another device may have merged one
            live.player_ids = dict(zip(live.players, self.store.seat_profiles(db, live.session_id)))
            self.store.write_results(db, live.session_id, result_rows(outcome, live.player_ids))
            if live.outcome is None:
                self.store.set_status(db, live.session_id, True, now)
            else:  # corrected and still finished: it finished when it did
                self.store.touch(db, live.session_id, now)
        elif live.outcome is not None:  # the change reopens a finished game
            self.store.clear_results(db, live.session_id)
            self.store.set_status(db, live.session_id, False, now)
        elif appended:  # most taps: nothing but the entries changes
            self.store.entries_added(db, live.session_id, appended, now)
            return
        else:
            self.store.touch(db, live.session_id, now)
        self.store.refresh_summary(db, live.session_id)
        if outcome is not None or live.outcome is not None:  # finished, reopened or corrected finished
            self.store.ratings.rerate_sessions(db, [live.session_id])

    def _parse_action(self, live: Live, action: Any) -> Action:
        try:
            return parse_action(live.game, action, list(live.players))
        except MalformedRecord as err:
            raise Malformed(Msg("service.action.malformed", {"detail": err.msg})) from None


def _human(index: Any) -> Any:
    return index + 1 if isinstance(index, int) and not isinstance(index, bool) else index
