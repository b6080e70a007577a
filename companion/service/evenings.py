"""Club evenings: several tables playing at once, in rounds, the players moving between tables.

An evening has a name, its players (each present from one round to another: arrivals and
departures between rounds), its rounds and, per round, the game of each table. Each round is
seated by :mod:`models.seating` — ``mix`` (every round planned together for the fewest repeated
pairs, the rounds already started kept as they were) or ``swiss`` (the first round as ``mix``,
each later one from the standings when the organiser asks for it) — and the seating of a round
can be changed (two players swapped) until the round starts, its first table's game being
started from it (:meth:`Evenings.start_table`, which links the game to the evening, the round and
the table). A change to a round (its games, who is present, a swap) seats again the later rounds
not started (``mix``; ``swiss`` rounds wait for the standings).

Standings (:meth:`Evenings.standings`), from the results rows of the evening's finished games
(never a replay; an unfinished game counts nothing): per game ``players − place`` points (the
league's ruling, :mod:`companion.store.club`), ties broken by wins, then the better average place,
then the players beaten (placed strictly below, summed over the games); lines still equal share
their position. The randomness of the seating is the evening's seed, drawn once at its creation.

The service's part ``service.evenings`` (:class:`Evenings`), given the store, the service's reads,
its lock, its clock and the service itself (:class:`.sessions.Sessions`: a table's game is started,
opened or deleted as any other).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from companion.service.errors import STORAGE_ERRORS, Malformed, ServiceError, storage_error
from companion.service.live import Clock, Read
from companion.service.sessions import Sessions
from companion.service.states import SessionState, utc
from companion.store import Store
from companion.store import evenings as rows
from models.games import PLAYER_COUNTS
from models.i18n import Msg
from models.names import BadName, check_distinct, check_new_name, clean_name, known_as, normal_name
from models.seating import (
    METHODS,
    MIX,
    RoundSpec,
    Seating,
    SeatingImpossible,
    plan_mix,
    plan_swiss,
)

MAX_ROUNDS = 20
MAX_TABLES = 20
NAME_LIMIT = 60


@dataclass(frozen=True)
class EveningTableState:
    number: int
    game: str
    players: tuple[str, ...]  # in seating order (empty: not played this round)
    session_id: int | None
    status: str | None  # the game's status (None: not started)


@dataclass(frozen=True)
class EveningRoundState:
    number: int
    tables: tuple[EveningTableState, ...]
    sit_out: tuple[str, ...]
    seated: bool  # its seating is proposed (a swiss round waits for the standings)
    started: bool  # a table's game was started: the seating is fixed
    present: tuple[str, ...]

    @property
    def finished(self) -> bool:
        played = [t for t in self.tables if t.players]
        return bool(played) and all(t.status == "finished" for t in played)


@dataclass(frozen=True)
class EveningPlayerState:
    name: str
    player_id: int
    first_round: int
    last_round: int | None


@dataclass(frozen=True)
class EveningSummary:
    evening_id: int
    name: str
    method: str
    rounds: int
    created_at: datetime


@dataclass(frozen=True)
class EveningState:
    evening_id: int
    name: str
    method: str
    seed: int
    created_at: datetime
    players: tuple[EveningPlayerState, ...]
    rounds: tuple[EveningRoundState, ...]

    @property
    def current(self) -> EveningRoundState:
        """The round to play now: the first one not finished (the last one when all are)."""
        for rnd in self.rounds:
            if not rnd.finished:
                return rnd
        return self.rounds[-1]


@dataclass(frozen=True)
class StandingRow:
    position: int
    player_id: int
    name: str
    points: int
    games: int
    wins: int
    average_place: float | None
    beaten: int
    sat_out: tuple[int, ...]  # the rounds the player sat out
    decided_by: str | None  # against the line above with equal points: "wins", "average", "beaten"; "shared"


@dataclass(frozen=True)
class Standings:
    evening_id: int
    name: str
    rows: tuple[StandingRow, ...]
    finished_games: int
    games: int  # the games started


def standings_of(places: Sequence[rows.PlaceRow], players: Sequence[tuple[int, str]],
                 sat_out: dict[int, tuple[int, ...]]) -> list[StandingRow]:
    """The standings from the results rows of finished games (pure): ``players`` (id, name) in
    the evening's order; see the module's doc for the points and the tie-breaks."""
    figures = {pid: [0, 0, 0, 0, 0] for pid, _ in players}  # points, games, wins, place sum, beaten
    by_game: dict[int, list[rows.PlaceRow]] = {}
    for p in places:
        by_game.setdefault(p.session_id, []).append(p)
    for game in by_game.values():
        for p in game:
            f = figures.setdefault(p.player_id, [0, 0, 0, 0, 0])
            f[0] += p.players - p.rank
            f[1] += 1
            f[2] += p.winner
            f[3] += p.rank
            f[4] += sum(1 for q in game if q.rank > p.rank)
    names = dict(players)

    def key(pid: int) -> tuple[int, int, float, int]:
        points, games, wins, place_sum, beaten = figures[pid]
        return (-points, -wins, place_sum / games if games else float("inf"), -beaten)

    order = sorted(figures, key=lambda pid: (key(pid), names.get(pid, "").casefold(), pid))
    out: list[StandingRow] = []
    for i, pid in enumerate(order):
        points, games, wins, place_sum, beaten = figures[pid]
        decided_by = None
        position = i + 1
        if i and figures[order[i - 1]][0] == points:
            above = key(order[i - 1])
            mine = key(pid)
            decided_by = "wins" if above[1] != mine[1] else "average" if above[2] != mine[2] else \
                "beaten" if above[3] != mine[3] else "shared"
            if decided_by == "shared":
                position = out[-1].position
        out.append(StandingRow(position, pid, names.get(pid, ""), points, games, wins,
                               place_sum / games if games else None, beaten, sat_out.get(pid, ()), decided_by))
    return out


class Evenings:
    """Club evenings, ``service.evenings``; ``sessions``: the service, which starts, opens and
    deletes the tables' games."""

    def __init__(self, store: Store, read: Read, lock: threading.RLock, now: Clock, sessions: Sessions):
        self.store = store
        self._read = read
        self._lock = lock
        self._now = now
        self.sessions = sessions

    # -- reading ----------------------------------------------------------------------------------

    def all(self) -> list[EveningSummary]:
        try:
            with self._read() as db:
                return [EveningSummary(e.id, e.name, e.method, e.rounds, utc(e.created_at)) for e in rows.evenings(db)]
        except STORAGE_ERRORS as err:
            raise storage_error(err) from err

    def get(self, evening_id: int) -> EveningState:
        try:
            with self._read() as db:
                found = rows.evening_rows(db, evening_id)
        except STORAGE_ERRORS as err:
            raise storage_error(err) from err
        if found is None:
            raise ServiceError(Msg("service.evening.unknown", {"evening": evening_id}))
        return _state(found)

    def standings(self, evening_id: int) -> Standings:
        try:
            with self._read() as db:
                found = rows.evening_rows(db, evening_id)
                places = rows.places(db, evening_id) if found is not None else []
        except STORAGE_ERRORS as err:
            raise storage_error(err) from err
        if found is None:
            raise ServiceError(Msg("service.evening.unknown", {"evening": evening_id}))
        state = _state(found)
        ids = {p.name: p.player_id for p in state.players}
        sat_out: dict[int, tuple[int, ...]] = {}
        for rnd in state.rounds:
            if rnd.started:
                for name in rnd.sit_out:
                    sat_out[ids[name]] = sat_out.get(ids[name], ()) + (rnd.number,)
        table = standings_of(places, [(p.player_id, p.name) for p in state.players], sat_out)
        started = sum(1 for rnd in state.rounds for t in rnd.tables if t.session_id is not None)
        return Standings(evening_id, state.name, tuple(table), len({p.session_id for p in places}), started)

    def evening_of(self, session_ids: Sequence[int]) -> dict[int, tuple[int, str, int, int]]:
        """For each of these games started at an evening: (evening id, name, round, table)."""
        try:
            with self._read() as db:
                return rows.evening_of(db, session_ids)
        except STORAGE_ERRORS as err:
            raise storage_error(err) from err

    # -- creating and changing --------------------------------------------------------------------

    def create(self, name: str, players: Sequence[str], rounds: int, games: Sequence[str] | Sequence[Sequence[str]],
               method: str = MIX, seed: int | None = None) -> EveningState:
        """A new evening: ``players`` present from the first round, ``rounds`` rounds, ``games``
        the game of each table (the same every round) or a list per round; its seating proposed
        (every round with ``mix``, the first with ``swiss``)."""
        title = (name or "").strip()
        if not title or len(title) > NAME_LIMIT:
            raise Malformed(Msg("service.evening.name"))
        if method not in METHODS:
            raise Malformed(Msg("service.evening.method", {"method": str(method)}))
        if not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise Malformed(Msg("service.evening.rounds", {"most": MAX_ROUNDS}))
        per_round = _games_per_round(games, rounds)
        names = self._evening_names(players)
        seed = secrets.randbelow(2 ** 31) if seed is None else int(seed) % 2 ** 31
        now = self._now()
        with self._lock:
            try:
                with self.store.write() as db:
                    ids = self.store.ensure_players(db, names, now)
                    evening_id = rows.create_evening(db, title, method, rounds, seed, now)
                    for name in names:
                        rows.set_presence(db, evening_id, ids[name], 1, None)
                    for r, round_games in enumerate(per_round, start=1):
                        rows.set_tables(db, evening_id, r, round_games)
                    self._seat(db, evening_id, 1)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return self.get(evening_id)

    def set_presence(self, evening_id: int, name: str, first_round: int, last_round: int | None) -> EveningState:
        """A player (new to the evening or not) present from ``first_round`` to ``last_round``
        (None: the end): an arrival or a departure between rounds. Refused if it changes a round
        already started; the rounds not started are seated again."""
        (clean,) = self._evening_names([name])
        with self._lock:
            try:
                with self.store.write() as db:
                    state = self._locked(db, evening_id)
                    if not 1 <= first_round <= len(state.rounds) or (
                            last_round is not None and not first_round <= last_round <= len(state.rounds)):
                        raise Malformed(Msg("service.evening.presence"))
                    known = {p.name: p for p in state.players}
                    before = known.get(clean)
                    for rnd in state.rounds:
                        was = before is not None and _present(before.first_round, before.last_round, rnd.number)
                        now_in = _present(first_round, last_round, rnd.number)
                        if rnd.started and was != now_in:
                            raise ServiceError(Msg("service.evening.started", {"round": rnd.number}))
                    ids = self.store.ensure_players(db, [clean], self._now())
                    rows.set_presence(db, evening_id, ids[clean], first_round, last_round)
                    self._seat(db, evening_id, _first_open(state))
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return self.get(evening_id)

    def set_round_games(self, evening_id: int, round_no: int, games: Sequence[str]) -> EveningState:
        """The games of a round's tables (a round not started), then the seating again."""
        _check_games(games)
        with self._lock:
            try:
                with self.store.write() as db:
                    state = self._locked(db, evening_id)
                    self._open_round(state, round_no)
                    rows.set_tables(db, evening_id, round_no, list(games))
                    self._seat(db, evening_id, round_no)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return self.get(evening_id)

    def propose(self, evening_id: int, round_no: int) -> EveningState:
        """Seat a round not started again (``swiss``: from the standings now), and the later ones."""
        with self._lock:
            try:
                with self.store.write() as db:
                    state = self._locked(db, evening_id)
                    self._open_round(state, round_no)
                    self._seat(db, evening_id, round_no, ask=True)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return self.get(evening_id)

    def swap_seats(self, evening_id: int, round_no: int, one: str, two: str) -> EveningState:
        """Two players of a round not started change places (a table's seat or sitting out); the
        later rounds not started are seated again (``mix``)."""
        with self._lock:
            try:
                with self.store.write() as db:
                    state = self._locked(db, evening_id)
                    rnd = self._open_round(state, round_no)
                    if not rnd.seated:
                        raise ServiceError(Msg("service.evening.not_seated", {"round": round_no}))
                    tables = [list(t.players) for t in rnd.tables]
                    out = list(rnd.sit_out)
                    spots = {p: (t, i) for t, players in enumerate(tables) for i, p in enumerate(players)}
                    spots.update({p: (-1, i) for i, p in enumerate(out)})
                    for who in (one, two):
                        if who not in spots:
                            raise ServiceError(Msg("service.evening.not_seated_player", {"player": who,
                                                                                          "round": round_no}))
                    (t1, i1), (t2, i2) = spots[one], spots[two]
                    (tables[t1] if t1 >= 0 else out)[i1] = two
                    (tables[t2] if t2 >= 0 else out)[i2] = one
                    ids = {p.name: p.player_id for p in state.players}
                    rows.write_seating(db, evening_id, round_no, [[ids[p] for p in t] for t in tables],
                                       [ids[p] for p in out], self._now())
                    if state.method == MIX and round_no < len(state.rounds):
                        self._seat(db, evening_id, round_no + 1)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return self.get(evening_id)

    def start_table(self, evening_id: int, round_no: int, table_no: int, order: Sequence[str] | None = None,
                    first_player: str | None = None, table: str | None = None) -> SessionState:
        """Start a table's game from the round's seating (``order``: its players in another seating
        order) and link it to the evening; the round starts with its first table. A table whose
        game was already started gives that game."""
        state = self.get(evening_id)
        if not 1 <= round_no <= len(state.rounds):
            raise ServiceError(Msg("service.evening.no_round", {"round": round_no}))
        rnd = state.rounds[round_no - 1]
        if not rnd.seated:
            raise ServiceError(Msg("service.evening.not_seated", {"round": round_no}))
        if not 1 <= table_no <= len(rnd.tables) or not rnd.tables[table_no - 1].players:
            raise ServiceError(Msg("service.evening.no_table", {"table": table_no, "round": round_no}))
        spot = rnd.tables[table_no - 1]
        if spot.session_id is not None:
            return self.sessions.open(spot.session_id)
        players = list(spot.players)
        if order is not None:
            if sorted(order) != sorted(players):
                raise Malformed(Msg("service.evening.order"))
            players = list(order)
        started = self.sessions.start(spot.game, players, first_player=first_player, table=table)
        with self._lock:
            try:
                with self.store.write() as db:
                    self._locked(db, evening_id)
                    linked = rows.link_session(db, evening_id, round_no, table_no, started.session_id, self._now())
                    other = None if linked else rows.table_session(db, evening_id, round_no, table_no)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        if not linked:  # another device started this table meanwhile: its game is the table's
            self.sessions.delete(started.session_id)
            if other is None:
                raise ServiceError(Msg("service.evening.no_table", {"table": table_no, "round": round_no}))
            return self.sessions.open(other)
        return started

    # -- inside ----------------------------------------------------------------------------------

    def _evening_names(self, players: Sequence[str]) -> list[str]:
        """The players' names as their profiles have them (a new name checked as at a game's start)."""
        if isinstance(players, str) or not isinstance(players, (list, tuple)):
            raise Malformed(Msg("service.evening.players"))
        try:
            typed = [clean_name(n) for n in players]
            check_distinct(typed)
        except BadName as err:
            raise Malformed(err.msg) from None
        with self._read() as db:
            profiles = [p.name for p in self.store.players(db)]
        try:
            names = [known_as(n, profiles) or normal_name(n) for n in typed]
            check_distinct(names, typed)
            for i, n in enumerate(names):
                if n not in profiles:
                    check_new_name(n, [*profiles, *names[:i], *names[i + 1:]])
        except BadName as err:
            raise Malformed(err.msg) from None
        return names

    def _locked(self, db: Session, evening_id: int) -> EveningState:
        if rows.lock_evening(db, evening_id) is None:
            raise ServiceError(Msg("service.evening.unknown", {"evening": evening_id}))
        found = rows.evening_rows(db, evening_id)
        assert found is not None
        return _state(found)

    @staticmethod
    def _open_round(state: EveningState, round_no: int) -> EveningRoundState:
        if not 1 <= round_no <= len(state.rounds):
            raise ServiceError(Msg("service.evening.no_round", {"round": round_no}))
        rnd = state.rounds[round_no - 1]
        if rnd.started:
            raise ServiceError(Msg("service.evening.started", {"round": round_no}))
        return rnd

    def _seat(self, db: Session, evening_id: int, from_round: int, ask: bool = False) -> None:
        """Seat the rounds not started from ``from_round`` on: ``mix`` all of them together, after
        the rounds before as they are; ``swiss`` the first round as ``mix``, a later one from the
        standings when asked (``ask``), the rounds after it left to wait."""
        found = rows.evening_rows(db, evening_id)
        assert found is not None
        state = _state(found)
        ids = {p.name: p.player_id for p in state.players}
        todo = [r for r in state.rounds[from_round - 1:] if not r.started]
        if not todo:
            return
        first = todo[0].number
        history = [Seating(tuple(t.players for t in r.tables), r.sit_out)
                   for r in state.rounds[:first - 1] if r.seated]
        now = self._now()
        if state.method == MIX or first == 1:
            plan_rounds = todo if state.method == MIX else todo[:1]
            specs = [RoundSpec(r.present, tuple(PLAYER_COUNTS[t.game] for t in r.tables)) for r in plan_rounds]
            try:
                plan = plan_mix(specs, seed=state.seed * 1000 + first, history=history)
            except SeatingImpossible:
                raise ServiceError(Msg("service.evening.too_few", {"round": first})) from None
            for r, seating in zip(plan_rounds, plan):
                rows.write_seating(db, evening_id, r.number, [[ids[p] for p in t] for t in seating.tables],
                                   [ids[p] for p in seating.sit_out], now)
            waiting = todo[len(plan_rounds):]
        else:
            waiting = todo
            if ask:
                rnd = todo[0]
                points = {row.name: row.points for row in self.standings_from(db, state)}
                standing = [row.name for row in self.standings_from(db, state)]
                spec = RoundSpec(rnd.present, tuple(PLAYER_COUNTS[t.game] for t in rnd.tables))
                try:
                    seating = plan_swiss(spec, standing, history, points=points, seed=state.seed * 1000 + first)
                except SeatingImpossible:
                    raise ServiceError(Msg("service.evening.too_few", {"round": first})) from None
                rows.write_seating(db, evening_id, rnd.number, [[ids[p] for p in t] for t in seating.tables],
                                   [ids[p] for p in seating.sit_out], now)
                waiting = todo[1:]
        for r in waiting:
            rows.write_seating(db, evening_id, r.number, [], [], None)

    def standings_from(self, db: Session, state: EveningState) -> list[StandingRow]:
        sat_out: dict[int, tuple[int, ...]] = {}
        ids = {p.name: p.player_id for p in state.players}
        for rnd in state.rounds:
            if rnd.started:
                for name in rnd.sit_out:
                    sat_out[ids[name]] = sat_out.get(ids[name], ()) + (rnd.number,)
        return standings_of(rows.places(db, state.evening_id), [(p.player_id, p.name) for p in state.players],
                            sat_out)


def _present(first: int, last: int | None, round_no: int) -> bool:
    return first <= round_no and (last is None or round_no <= last)


def _first_open(state: EveningState) -> int:
    for rnd in state.rounds:
        if not rnd.started:
            return rnd.number
    return len(state.rounds) + 1


def _check_games(games: Sequence[str]) -> None:
    if isinstance(games, str) or not games or len(games) > MAX_TABLES:
        raise Malformed(Msg("service.evening.tables", {"most": MAX_TABLES}))
    for game in games:
        if game not in PLAYER_COUNTS:
            raise ServiceError(Msg("service.no_referee", {"game": str(game)}))


def _games_per_round(games: Sequence[str] | Sequence[Sequence[str]], rounds: int) -> list[list[str]]:
    if isinstance(games, str) or not games:
        raise Malformed(Msg("service.evening.tables", {"most": MAX_TABLES}))
    if all(isinstance(g, str) for g in games):
        per_round = [[str(g) for g in games] for _ in range(rounds)]
    else:
        per_round = [[str(x) for x in g] for g in games]
        if len(per_round) != rounds:
            raise Malformed(Msg("service.evening.tables", {"most": MAX_TABLES}))
    for round_games in per_round:
        _check_games(round_games)
    return per_round


def _state(found: rows.EveningRows) -> EveningState:
    e = found.evening
    names = {p.player_id: p.name for p in found.players}
    started = {r.round: r.started_at is not None for r in found.rounds}
    seated = {r.round: r.seated_at is not None for r in found.rounds}
    rounds = []
    for r in range(1, e.rounds + 1):
        seats = [s for s in found.seats if s.round == r]
        tables = tuple(EveningTableState(t.table_no, t.game,
                                         tuple(names[s.player_id] for s in seats if s.table_no == t.table_no),
                                         t.session_id, t.status)
                       for t in found.tables if t.round == r)
        present = tuple(p.name for p in found.players if _present(p.first_round, p.last_round, r))
        rounds.append(EveningRoundState(r, tables, tuple(names[s.player_id] for s in seats if s.table_no == 0),
                                        seated.get(r, False), started.get(r, False), present))
    return EveningState(e.id, e.name, e.method, e.seed, utc(e.created_at),
                        tuple(EveningPlayerState(p.name, p.player_id, p.first_round, p.last_round)
                              for p in found.players),
                        tuple(rounds))
