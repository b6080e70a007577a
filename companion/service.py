"""The session service: the only thing the app talks to.

The record is the truth. A session's state is its active entries (non-retracted action rows in
``seq`` order) replayed through the game's engine. Every change is one write transaction,
committed before the new state is returned: an entry the screen shows as accepted is on disk.
A refused or malformed entry raises and writes nothing.

A per-session cache keeps the replayed engine so that ``submit`` applies one action instead of
replaying the whole game. The cached engine is never changed once a state holding it was handed
out: ``submit`` works on a copy, and the cache takes the copy only after the commit.

Errors carry a :class:`models.i18n.Msg` (``.msg``): the app renders it in the table's language.
"""

from __future__ import annotations

import copy
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any, Callable, Sequence

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from companion.store import ResultRow, Store, dumps
from models.i18n import Msg
from models.record import (
    RECORD_FORMAT,
    MalformedRecord,
    action_to_data,
    parse_action,
    parse_record_data,
    record_to_data,
)
from models.tables import STATUS_FINISHED, STATUS_IN_PROGRESS
from scoring.base import Engine, Expectation, Outcome, RuleViolation
from scoring.referee import NoReferee, new_engine

UTC = timezone.utc
CACHE_SIZE = 16


# --- errors ------------------------------------------------------------------------------------


def _english(msg: Msg) -> str:
    try:
        return msg.render("en")
    except Exception:  # a missing catalogue text must not hide the error itself
        return f"{msg.key} {dict(msg.params)}"


class ServiceError(Exception):
    """Anything the service refuses to do; ``msg`` says why, in any language."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(_english(msg))


class Refused(ServiceError):
    """The rules refuse an entry. ``index`` is the entry's 0-based place in the record, ``rule``
    the id in the rules reference. ``record`` is the 0-based record number on import, else None."""

    def __init__(self, rule: str, msg: Msg, index: int | None, record: int | None = None):
        self.rule = rule
        self.index = index
        self.record = record
        super().__init__(msg)


class Malformed(ServiceError):
    """The data is not a valid action, game set-up or record. ``index``: the action at fault,
    if known; ``record``: the 0-based record number on import."""

    def __init__(self, msg: Msg, index: int | None = None, record: int | None = None):
        self.index = index
        self.record = record
        super().__init__(msg)


class NotKept(ServiceError):
    """A record the store would not give back whole (an envelope field it has no place for):
    refused before anything is written. ``record``: the 0-based record number on import, else
    None; ``fields``: the envelope fields that would change."""

    def __init__(self, msg: Msg, fields: Sequence[str], record: int | None = None):
        self.fields = tuple(fields)
        self.record = record
        super().__init__(msg)


class CorrectionConflict(ServiceError):
    """A correction would make a later entry illegal: ``index`` is that entry, ``rule`` and
    ``reason`` (the rule's own sentence) say why; ``msg`` is the whole sentence to show."""

    def __init__(self, index: int, rule: str, msg: Msg, reason: Msg):
        self.index = index
        self.rule = rule
        self.reason = reason
        super().__init__(msg)


class _Stale(Exception):
    """The database moved on behind the cache (another process wrote to the session)."""


# --- what the app reads ------------------------------------------------------------------------


@dataclass(frozen=True)
class LogEntry:
    index: int
    action: dict
    events: tuple[Msg, ...]


@dataclass(frozen=True)
class SessionState:
    session_id: int
    game: str
    variant: dict
    players: tuple[str, ...]
    first_player: str
    assist: bool
    record: Any  # the pydantic table record (models.record)
    engine: Engine  # the replayed engine; read its public state, never apply to it
    log: tuple[LogEntry, ...]
    expected: Expectation
    outcome: Outcome | None
    status: str  # "in_progress" | "finished"
    started_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SessionSummary:
    session_id: int
    game: str
    players: tuple[str, ...]
    status: str
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    winners: tuple[str, ...]
    entries: int


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


@dataclass(frozen=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    win_rate: float
    by_game: tuple[PlayerGameStats, ...]


@dataclass(frozen=True)
class GameStats:
    game: str
    games: int
    average_winning_score: float | None  # None when no finished game had a winner
    best_score: int | float | None
    best_by: tuple[str, ...]  # every player who reached the best score (in time order)


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


# --- the cache of live sessions ----------------------------------------------------------------


@dataclass
class _Live:
    session_id: int
    game: str
    variant: dict
    players: tuple[str, ...]
    player_ids: dict[str, int]
    first_player: str
    assist: bool
    started_at: datetime
    updated_at: datetime
    base: Any  # the record with no actions
    actions: list[Any] = field(default_factory=list)  # parsed active actions
    seqs: list[int] = field(default_factory=list)  # their seq numbers
    log: list[LogEntry] = field(default_factory=list)
    engine: Engine | None = None
    last_seq: int = 0  # highest seq in the database, retracted rows included

    @property
    def status(self) -> str:
        return STATUS_FINISHED if self.engine.outcome() is not None else STATUS_IN_PROGRESS

    def record(self, actions: Sequence[Any] | None = None) -> Any:
        return self.base.model_copy(update={"actions": list(self.actions if actions is None else actions)})


@dataclass
class _Fold:
    engine: Engine
    log: list[LogEntry]
    index: int | None = None  # first refused action
    violation: RuleViolation | None = None


def _fold(record: Any, actions: Sequence[Any]) -> _Fold:
    engine = new_engine(record)
    log: list[LogEntry] = []
    for i, action in enumerate(actions):
        try:
            events = engine.apply(action)
        except RuleViolation as violation:
            return _Fold(engine, log, i, violation)
        log.append(LogEntry(i, action_to_data(action), tuple(events)))
    return _Fold(engine, log)


def _score(value: Any) -> float:
    return float(value) if isinstance(value, Fraction) else float(value)


def _num(value: float | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else float(value)


def _utc(moment: datetime) -> datetime:
    """An aware UTC time (a naive one is taken to be UTC already)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else _utc(moment)


# --- the service -------------------------------------------------------------------------------


class SessionService:
    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None):
        self.store = store
        self._clock = clock or (lambda: datetime.now(UTC))
        self._lock = threading.RLock()
        self._cache: OrderedDict[int, _Live] = OrderedDict()
        self.repair_results()

    def _now(self) -> datetime:
        return _utc(self._clock())

    def repair_results(self) -> list[int]:
        """Write the missing results rows of finished games (a database from before migration
        0002 has none) by replaying them once. Returns the sessions repaired."""
        with self.store.read() as db:
            missing = self.store.finished_without_results(db)
        repaired = []
        for session_id in missing:
            with self._lock:
                try:
                    live = self._live(session_id)
                except ServiceError:
                    continue  # not replayable here: opening it will say why
                outcome = live.engine.outcome()
                if outcome is None:
                    continue
                try:
                    with self.store.write() as db:
                        self.store.write_results(db, session_id, self._result_rows(outcome, live.player_ids))
                except SQLAlchemyError:
                    continue
                repaired.append(session_id)
        return repaired

    # -- players --------------------------------------------------------------------------------

    def players(self) -> list[PlayerProfile]:
        with self.store.read() as db:
            return [PlayerProfile(p.id, p.name, _aware(p.created_at)) for p in self.store.players(db)]

    def add_player(self, name: str) -> PlayerProfile:
        clean = (name or "").strip()
        if not clean:
            raise ServiceError(Msg("service.player.blank"))
        with self._lock:
            try:
                with self.store.write() as db:
                    if self.store.player_by_name(db, clean) is not None:
                        raise ServiceError(Msg("service.player.duplicate", {"name": clean}))
                    player = self.store.add_player(db, clean, self._now())
            except IntegrityError:  # another process added the same name in between
                raise ServiceError(Msg("service.player.duplicate", {"name": clean})) from None
            except SQLAlchemyError as err:
                raise self._storage_error(err) from err
        return PlayerProfile(player.id, player.name, _aware(player.created_at))

    # -- starting and opening -------------------------------------------------------------------

    def start(self, game: str, players: Sequence[str], first_player: str | None = None,
              variant: dict | None = None, assist: bool = False, *, setup: dict | None = None) -> SessionState:
        """``setup``: the record envelope's optional set-up fields for this game, e.g. the
        Boursicocotte short version's deal ``{"start_animals": {"Anne": ["cow", …], …}}``; the
        record models check them like the rest."""
        names = [n.strip() if isinstance(n, str) else n for n in players]
        envelope: dict[str, Any] = {"format": RECORD_FORMAT, "game": game, "players": names, "actions": []}
        if first_player is not None:
            envelope["first_player"] = first_player.strip() if isinstance(first_player, str) else first_player
        if variant is not None:
            envelope["variant"] = variant
        if setup is not None:
            if not isinstance(setup, dict):
                raise Malformed(Msg("service.setup.not_fields"))
            for key in setup:
                if key in ENVELOPE_COLUMNS:
                    raise Malformed(Msg("service.setup.reserved", {"field": key}))
            envelope = {**envelope, **setup}
        try:
            record = parse_record_data(envelope)
            engine = new_engine(record)
        except NoReferee:
            raise ServiceError(Msg("service.no_referee", {"game": game})) from None
        except MalformedRecord as err:
            raise Malformed(Msg("service.setup.malformed", {"detail": err.msg})) from None
        now = self._now()
        kept = _kept(record, bool(assist), now)
        lost = _lost(record, kept)
        if lost:
            raise NotKept(Msg("service.setup.not_kept", {"fields": ", ".join(lost)}), lost)
        # the same canonical envelope as a session read back from the database
        record = _stored_record(self.store.session_row(**kept.row), kept.players, [])
        with self._lock:
            try:
                with self.store.write() as db:
                    ids = self.store.ensure_players(db, kept.players, now)
                    row = self.store.create_session(db, **kept.row, player_ids=[ids[n] for n in kept.players])
            except SQLAlchemyError as err:
                raise self._storage_error(err) from err
            live = _Live(session_id=row.id, game=game, variant=kept.row["variant"], players=tuple(record.players),
                         player_ids=ids, first_player=record.starting_player, assist=bool(assist),
                         started_at=now, updated_at=now, base=record, engine=engine)
            self._remember(live)
            return self._state(live)

    def open(self, session_id: int) -> SessionState:
        with self._lock:
            return self._state(self._live(session_id))

    # -- entries --------------------------------------------------------------------------------

    def submit(self, session_id: int, action: dict) -> SessionState:
        with self._lock:
            try:
                return self._submit(session_id, action)
            except _Stale:
                self._forget(session_id)
                return self._submit(session_id, action)

    def _submit(self, session_id: int, action: dict) -> SessionState:
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
        except (_Stale, ServiceError):
            raise
        except SQLAlchemyError as err:
            self._forget(session_id)
            raise self._storage_error(err) from err
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
            except _Stale:
                self._forget(session_id)
                return self._undo(session_id)

    def _undo(self, session_id: int) -> SessionState:
        live = self._live(session_id)
        if not live.actions:
            raise ServiceError(Msg("service.undo.nothing"))
        kept = live.actions[:-1]
        folded = _fold(live.base, kept)
        if folded.violation is not None:  # cannot happen with a deterministic engine
            raise self._broken(live, folded)
        now = self._now()
        try:
            with self.store.write() as db:
                self._check_fresh(db, live)
                self.store.retract(db, [live.seqs[-1]], session_id, now)
                self._write_status(db, live, folded.engine.outcome(), now)
        except (_Stale, ServiceError):
            raise
        except SQLAlchemyError as err:
            self._forget(session_id)
            raise self._storage_error(err) from err
        live.actions = list(kept)
        live.seqs = live.seqs[:-1]
        live.log = folded.log
        live.engine = folded.engine
        live.updated_at = now
        return self._state(live)

    def preview_correction(self, session_id: int, index: int, action: dict) -> SessionState:
        """The state the session would have with entry ``index`` replaced. Saves nothing."""
        with self._lock:
            live = self._live(session_id)
            actions, folded = self._corrected(live, index, action)
            return self._state(live, actions=actions, folded=folded, updated_at=live.updated_at)

    def correct(self, session_id: int, index: int, action: dict) -> SessionState:
        """Replace entry ``index``: in one transaction the entries from ``index`` on are retracted
        and the corrected one and the later ones appended again."""
        with self._lock:
            try:
                return self._correct(session_id, index, action)
            except _Stale:
                self._forget(session_id)
                return self._correct(session_id, index, action)

    def _correct(self, session_id: int, index: int, action: dict) -> SessionState:
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
        except (_Stale, ServiceError):
            raise
        except SQLAlchemyError as err:
            self._forget(session_id)
            raise self._storage_error(err) from err
        count = len(actions) - index
        live.seqs = live.seqs[:index] + list(range(last - count + 1, last + 1))
        live.actions = list(actions)
        live.log = folded.log
        live.engine = folded.engine
        live.last_seq = last
        live.updated_at = now
        return self._state(live)

    def _corrected(self, live: _Live, index: int, action: dict) -> tuple[list[Any], _Fold]:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(live.actions):
            raise ServiceError(Msg("service.correction.no_entry", {"entry": _human(index)}))
        parsed = self._parse_action(live, action)
        actions = live.actions[:index] + [parsed] + live.actions[index + 1:]
        folded = _fold(live.base, actions)
        if folded.violation is not None:
            violation = folded.violation
            if folded.index == index:
                raise Refused(violation.rule, violation.msg, index)
            raise CorrectionConflict(
                folded.index, violation.rule,
                Msg("service.correction.conflict", {"entry": folded.index + 1, "reason": violation.msg}),
                violation.msg)
        return actions, folded

    # -- lists ----------------------------------------------------------------------------------

    def unfinished(self) -> list[SessionSummary]:
        with self.store.read() as db:
            return [self._summary(r) for r in self.store.summaries(db, status=STATUS_IN_PROGRESS)]

    def history(self, game: str | None = None, player: str | None = None, since: datetime | None = None,
                until: datetime | None = None, status: str | None = None) -> list[SessionSummary]:
        """Sessions newest first; ``since`` (included) and ``until`` (excluded) bound the start time."""
        with self.store.read() as db:
            rows = self.store.summaries(db, status=status, game=game, player=player,
                                        since=None if since is None else _utc(since),
                                        until=None if until is None else _utc(until))
        return [self._summary(r) for r in rows]

    def delete(self, session_id: int) -> None:
        with self._lock:
            try:
                with self.store.write() as db:
                    if not self.store.delete_session(db, session_id):
                        raise self._unknown(session_id)
            except SQLAlchemyError as err:
                raise self._storage_error(err) from err
            finally:
                self._forget(session_id)

    def entries_history(self, session_id: int) -> list[dict]:
        """Every entry ever made in the session, retracted ones included, oldest first: for
        disputes. Each: seq, action, created_at, retracted_at (None while active)."""
        with self.store.read() as db:
            if self.store.session(db, session_id) is None:
                raise self._unknown(session_id)
            return [{"seq": r.seq, "action": json.loads(r.action), "created_at": _aware(r.created_at),
                     "retracted_at": _aware(r.retracted_at)} for r in self.store.all_actions(db, session_id)]

    # -- import and export ----------------------------------------------------------------------

    def export(self, session_id: int | None = None) -> list[dict]:
        """Table records (table-record/1) of one session or of all, oldest first."""
        with self.store.read() as db:
            ids = self.store.session_ids(db) if session_id is None else [session_id]
            out = []
            for sid in ids:
                row = self.store.session(db, sid)
                if row is None:
                    raise self._unknown(sid)
                record: dict[str, Any] = {"format": RECORD_FORMAT, "game": row.game}
                variant = json.loads(row.variant)
                if variant:
                    record["variant"] = variant
                record["players"] = self.store.seat_names(db, sid)
                record["first_player"] = row.first_player
                if row.setup:
                    record.update(json.loads(row.setup))
                record["actions"] = [json.loads(a.action) for a in self.store.active_actions(db, sid)]
                out.append(record)
            return out

    def import_records(self, text: str | bytes) -> list[int]:
        """Import one record or a list of records. Everything is checked first (models, a replay
        of each, and that what would be stored reads back as the same record); one bad record and
        nothing is written. Returns the new session ids."""
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as err:
            raise Malformed(Msg("service.import.not_json", {"detail": str(err)})) from None
        items = [data] if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise Malformed(Msg("service.import.not_records"))
        if not items:
            raise Malformed(Msg("service.import.empty"))
        now = self._now()
        checked = []
        for number, item in enumerate(items):
            try:
                record = parse_record_data(item)
                folded = _fold(record, record.actions)
            except NoReferee:
                raise Malformed(Msg("service.import.no_referee", {"record": number + 1, "game": item.get("game")}),
                                record=number) from None
            except MalformedRecord as err:
                raise Malformed(Msg("service.import.malformed", {"record": number + 1, "detail": err.msg}),
                                index=err.index, record=number) from None
            if folded.violation is not None:
                v = folded.violation
                raise Refused(v.rule, Msg("service.import.illegal", {"record": number + 1, "entry": folded.index + 1,
                                                                     "rule": v.rule, "reason": v.msg}),
                              folded.index, record=number)
            # An accepted import must replay to the same record: read back what would be stored.
            kept = _kept(record, False, now)
            lost = _lost(record, kept)
            if lost:
                raise NotKept(Msg("service.import.not_kept", {"record": number + 1, "fields": ", ".join(lost)}),
                              lost, record=number)
            checked.append((kept, folded))
        ids: list[int] = []
        with self._lock:
            try:
                with self.store.write() as db:
                    for kept, folded in checked:
                        player_ids = self.store.ensure_players(db, kept.players, now)
                        row = self.store.create_session(db, **kept.row,
                                                        player_ids=[player_ids[n] for n in kept.players])
                        self.store.append(db, row.id, kept.actions, now, after=0)
                        outcome = folded.engine.outcome()
                        if outcome is not None:
                            self.store.write_results(db, row.id, self._result_rows(outcome, player_ids))
                            self.store.set_status(db, row.id, True, now)
                        ids.append(row.id)
            except SQLAlchemyError as err:
                raise self._storage_error(err) from err
        return ids

    # -- statistics (SQL over the results table, never a replay) -------------------------------

    def player_stats(self) -> list[PlayerStats]:
        with self.store.read() as db:
            per_game = self.store.player_game_stats(db)
            totals = self.store.player_totals(db)
        by_player: dict[str, list[PlayerGameStats]] = {}
        for name, game, games, wins, best in per_game:
            by_player.setdefault(name, []).append(
                PlayerGameStats(game, games, wins, wins / games if games else 0.0, _num(best)))
        return [PlayerStats(name, games, wins, wins / games if games else 0.0, tuple(by_player.get(name, ())))
                for name, games, wins in totals]

    def game_stats(self) -> list[GameStats]:
        with self.store.read() as db:
            totals = self.store.game_totals(db)
            best = self.store.best_scorers(db)
        by_game: dict[str, list[str]] = {}
        for game, name, _score_value, _session in best:
            names = by_game.setdefault(game, [])
            if name not in names:
                names.append(name)
        return [GameStats(game, games, average, _num(top), tuple(by_game.get(game, ())))
                for game, games, average, top in totals]

    def head_to_head(self, a: str, b: str) -> HeadToHead:
        if a == b:
            raise ServiceError(Msg("service.stats.same_player", {"name": a}))
        with self.store.read() as db:
            for name in (a, b):
                if self.store.player_by_name(db, name) is None:
                    raise ServiceError(Msg("service.player.unknown", {"name": name}))
            rows = self.store.head_to_head(db, a, b)
        games = tuple(HeadToHeadGame(*row) for row in rows)
        return HeadToHead(a, b, *(sum(getattr(g, f) for g in games)
                                 for f in ("games", "a_wins", "b_wins", "a_ahead", "b_ahead", "level")),
                          by_game=games)

    # -- internals ------------------------------------------------------------------------------

    def _live(self, session_id: int) -> _Live:
        live = self._cache.get(session_id)
        if live is not None:
            self._cache.move_to_end(session_id)
            return live
        live = self._load(session_id)
        self._remember(live)
        return live

    def _load(self, session_id: int) -> _Live:
        with self.store.read() as db:
            row = self.store.session(db, session_id)
            if row is None:
                raise self._unknown(session_id)
            names = self.store.seat_names(db, session_id)
            actions = self.store.active_actions(db, session_id)
            last_seq = self.store.last_seq(db, session_id)
            player_ids = {n: self.store.player_by_name(db, n).id for n in names}
        live = _Live(session_id=session_id, game=row.game, variant=json.loads(row.variant), players=tuple(names),
                     player_ids=player_ids, first_player=row.first_player, assist=bool(row.assist),
                     started_at=row.started_at, updated_at=row.updated_at, base=None, last_seq=last_seq,
                     seqs=[a.seq for a in actions])
        try:
            record = _stored_record(row, names, [a.action for a in actions])
            live.base = record.model_copy(update={"actions": []})
            parsed = record.actions
            folded = _fold(live.base, parsed)
        except NoReferee:
            raise ServiceError(Msg("service.no_referee", {"game": row.game})) from None
        except (MalformedRecord, ValueError) as err:
            detail = err.msg if isinstance(err, MalformedRecord) else str(err)
            raise ServiceError(Msg("service.session.damaged", {"session": session_id, "detail": detail})) from None
        if folded.violation is not None:
            raise self._broken(live, folded)
        live.actions = list(parsed)
        live.log = folded.log
        live.engine = folded.engine
        return live

    def _remember(self, live: _Live) -> None:
        self._cache[live.session_id] = live
        self._cache.move_to_end(live.session_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _forget(self, session_id: int) -> None:
        self._cache.pop(session_id, None)

    def _check_fresh(self, db: Any, live: _Live) -> None:
        """Inside a write transaction: the session still exists and nobody else appended or
        retracted since the cache was filled."""
        exists, last_seq, last_active = self.store.log_position(db, live.session_id)
        if not exists:
            self._forget(live.session_id)
            raise self._unknown(live.session_id)
        if last_seq != live.last_seq:
            raise _Stale()  # an entry was appended elsewhere
        if last_active != (live.seqs[-1] if live.seqs else 0):
            raise _Stale()  # an entry was undone elsewhere

    def _write_status(self, db: Any, live: _Live, outcome: Outcome | None, now: datetime) -> None:
        """Status, results rows and updated_at after a change; ``live`` is still the state before it."""
        if outcome is not None:
            self.store.write_results(db, live.session_id, self._result_rows(outcome, live.player_ids))
            self.store.set_status(db, live.session_id, True, now)
        elif live.engine.outcome() is not None:  # the change reopens a finished game
            self.store.clear_results(db, live.session_id)
            self.store.set_status(db, live.session_id, False, now)
        else:
            self.store.touch(db, live.session_id, now)

    @staticmethod
    def _result_rows(outcome: Outcome, player_ids: dict[str, int]) -> list[ResultRow]:
        ranks = dict(outcome.ranking)
        return [ResultRow(player_id=player_ids[name], score=_score(outcome.scores[name]), rank=int(ranks[name]),
                          winner=name in outcome.winners, eliminated=name in outcome.eliminated)
                for name in player_ids]

    def _parse_action(self, live: _Live, action: Any) -> Any:
        try:
            return parse_action(live.game, action, list(live.players))
        except MalformedRecord as err:
            raise Malformed(Msg("service.action.malformed", {"detail": err.msg})) from None

    def _state(self, live: _Live, *, actions: Sequence[Any] | None = None, folded: _Fold | None = None,
               updated_at: datetime | None = None) -> SessionState:
        engine = live.engine if folded is None else folded.engine
        log = live.log if folded is None else folded.log
        outcome = engine.outcome()
        return SessionState(
            session_id=live.session_id, game=live.game, variant=copy.deepcopy(live.variant), players=live.players,
            first_player=live.first_player, assist=live.assist, record=live.record(actions), engine=engine,
            log=tuple(log), expected=engine.expected(), outcome=outcome,
            status=STATUS_FINISHED if outcome is not None else STATUS_IN_PROGRESS,
            started_at=_aware(live.started_at), updated_at=_aware(updated_at or live.updated_at))

    @staticmethod
    def _summary(row: dict) -> SessionSummary:
        return SessionSummary(session_id=row["id"], game=row["game"], players=tuple(row["players"]),
                              status=row["status"], started_at=_aware(row["started_at"]),
                              updated_at=_aware(row["updated_at"]), finished_at=_aware(row["finished_at"]),
                              winners=tuple(row["winners"]), entries=row["entries"])

    @staticmethod
    def _unknown(session_id: Any) -> ServiceError:
        return ServiceError(Msg("service.session.unknown", {"session": session_id}))

    @staticmethod
    def _broken(live: _Live, folded: _Fold) -> ServiceError:
        return ServiceError(Msg("service.session.broken", {"session": live.session_id, "entry": folded.index + 1,
                                                           "rule": folded.violation.rule,
                                                           "reason": folded.violation.msg}))

    @staticmethod
    def _storage_error(err: Exception) -> ServiceError:
        detail = str(getattr(err, "orig", None) or err).splitlines()[0]
        return ServiceError(Msg("service.storage.failed", {"detail": detail}))


# Envelope fields the sessions table has a column (or the seats, or the log) for. Any other field
# a record model defines — Boursicocotte's start_animals — goes to the ``setup`` column.
ENVELOPE_COLUMNS = frozenset({"format", "game", "variant", "players", "first_player", "actions"})


def setup_fields(record: Any) -> dict:
    """The record's optional set-up fields beyond those with a column of their own, as JSON data
    ({} when it has none)."""
    return {k: v for k, v in record_to_data(record).items() if k not in ENVELOPE_COLUMNS}


def _envelope(game: str, variant: dict, players: Sequence[str], first_player: str,
              setup: dict | None = None) -> dict:
    """A session's record with no actions, as the store keeps it: first player explicit."""
    envelope = {"format": RECORD_FORMAT, "game": game, "variant": variant, "players": list(players),
                "first_player": first_player}
    envelope.update({k: v for k, v in (setup or {}).items() if k not in ENVELOPE_COLUMNS})
    envelope["actions"] = []
    return envelope


@dataclass(frozen=True)
class _Kept:
    """What the store writes for a record: the sessions row's arguments, the seats' names in
    order, the action log's JSON texts."""
    row: dict
    players: list[str]
    actions: list[str]


def _kept(record: Any, assist: bool, now: datetime) -> _Kept:
    row = {"game": record.game, "variant": record_to_data(record).get("variant", {}),
           "first_player": record.starting_player, "assist": assist, "now": now, "setup": setup_fields(record)}
    return _Kept(row, list(record.players), [dumps(action_to_data(a)) for a in record.actions])


def _stored_record(row: Any, names: Sequence[str], actions: Sequence[str]) -> Any:
    """The record a session's rows stand for: what is replayed when the game is opened.
    Raises MalformedRecord, or ValueError for JSON the store could not have written."""
    setup = json.loads(row.setup) if row.setup else None
    if setup is not None and not isinstance(setup, dict):
        raise ValueError(f"setup: {row.setup!r} is not a JSON object")
    envelope = _envelope(row.game, json.loads(row.variant), names, row.first_player, setup)
    return parse_record_data({**envelope, "actions": [json.loads(a) for a in actions]})


def _lost(record: Any, kept: _Kept) -> list[str]:
    """The envelope fields (or "actions") that would not come back from the store as they are in
    ``record``; [] when it comes back whole. Both are compared in canonical form: first player
    explicit (the default, players[0], if the record leaves it out)."""
    def canonical(parsed: Any) -> Any:
        return parsed.model_copy(update={"first_player": parsed.starting_player})

    try:
        back = canonical(_stored_record(Store.session_row(**kept.row), kept.players, kept.actions))
    except (MalformedRecord, ValueError):
        back = None
    want = canonical(record)
    if back == want:
        return []
    want_data = record_to_data(want)
    got = record_to_data(back) if back is not None else {}
    lost = [key for key in dict.fromkeys([*want_data, *got]) if want_data.get(key) != got.get(key)]
    return lost or list(want_data)  # unequal models with equal JSON: name everything rather than nothing


def _human(index: Any) -> Any:
    return index + 1 if isinstance(index, int) and not isinstance(index, bool) else index
