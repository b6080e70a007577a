"""The rows of club evenings (migration 0007, :mod:`companion.service.evenings` says what they
mean): SQLAlchemy Core over ``evenings``, ``evening_players``, ``evening_tables``,
``evening_rounds`` and ``evening_seats``, portable to PostgreSQL (no SQLite-only function). The
standings read the ``results`` and ``game_summaries`` rows of the evening's finished games, as
the league does (:mod:`companion.store.club`): never a replay."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from models.tables import (
    STATUS_FINISHED,
    Evening,
    EveningPlayer,
    EveningRound,
    EveningSeat,
    EveningTable,
    GameSession,
    GameSummary,
    Player,
    Result,
    table,
)

_e = table(Evening)
_ep = table(EveningPlayer)
_et = table(EveningTable)
_er = table(EveningRound)
_es = table(EveningSeat)
_s = table(GameSession)
_gs = table(GameSummary)
_r = table(Result)
_p = table(Player)


class EveningRow(NamedTuple):
    id: int
    name: str
    method: str
    rounds: int
    seed: int
    created_at: datetime


class PresentRow(NamedTuple):
    player_id: int
    name: str
    position: int
    first_round: int
    last_round: int | None


class TableRow(NamedTuple):
    round: int
    table_no: int
    game: str
    session_id: int | None
    status: str | None  # the game's summary status (None: not started)


class RoundRow(NamedTuple):
    round: int
    seated_at: datetime | None
    started_at: datetime | None


class SeatRow(NamedTuple):
    round: int
    player_id: int
    table_no: int  # 0: sits out
    position: int


class PlaceRow(NamedTuple):
    """A player's place in one finished game of an evening (a ``results`` row)."""
    round: int
    table_no: int
    session_id: int
    player_id: int
    rank: int
    winner: bool
    players: int


class EveningRows(NamedTuple):
    evening: EveningRow
    players: list[PresentRow]
    tables: list[TableRow]
    rounds: list[RoundRow]
    seats: list[SeatRow]


def create_evening(db: Session, name: str, method: str, rounds: int, seed: int, now: datetime) -> int:
    new_id = db.execute(insert(_e).values(name=name, method=method, rounds=rounds, seed=seed, created_at=now)
                        .returning(_e.c.id)).scalar_one()
    db.execute(insert(_er), [{"evening_id": new_id, "round": r} for r in range(1, rounds + 1)])
    return int(new_id)


def lock_evening(db: Session, evening_id: int) -> EveningRow | None:
    """The evening's row, locked until the transaction ends on PostgreSQL (two devices editing one
    evening take turns; SQLite's write transaction is already alone)."""
    row = db.execute(select(_e.c.id, _e.c.name, _e.c.method, _e.c.rounds, _e.c.seed, _e.c.created_at)
                     .where(_e.c.id == evening_id).with_for_update()).first()
    return None if row is None else EveningRow(*row)


def evenings(db: Session) -> list[EveningRow]:
    """Every evening, the newest first."""
    return [EveningRow(*row) for row in db.execute(
        select(_e.c.id, _e.c.name, _e.c.method, _e.c.rounds, _e.c.seed, _e.c.created_at)
        .order_by(_e.c.created_at.desc(), _e.c.id.desc()))]


def evening_rows(db: Session, evening_id: int) -> EveningRows | None:
    row = db.execute(select(_e.c.id, _e.c.name, _e.c.method, _e.c.rounds, _e.c.seed, _e.c.created_at)
                     .where(_e.c.id == evening_id)).first()
    if row is None:
        return None
    players = [PresentRow(*r) for r in db.execute(
        select(_ep.c.player_id, _p.c.name, _ep.c.position, _ep.c.first_round, _ep.c.last_round)
        .join(_p, _p.c.id == _ep.c.player_id).where(_ep.c.evening_id == evening_id).order_by(_ep.c.position))]
    tables = [TableRow(*r) for r in db.execute(
        select(_et.c.round, _et.c.table_no, _et.c.game, _et.c.session_id, _gs.c.status)
        .outerjoin(_gs, _gs.c.session_id == _et.c.session_id)
        .where(_et.c.evening_id == evening_id).order_by(_et.c.round, _et.c.table_no))]
    rounds = [RoundRow(*r) for r in db.execute(
        select(_er.c.round, _er.c.seated_at, _er.c.started_at).where(_er.c.evening_id == evening_id)
        .order_by(_er.c.round))]
    seats = [SeatRow(*r) for r in db.execute(
        select(_es.c.round, _es.c.player_id, _es.c.table_no, _es.c.position).where(_es.c.evening_id == evening_id)
        .order_by(_es.c.round, _es.c.table_no, _es.c.position))]
    return EveningRows(EveningRow(*row), players, tables, rounds, seats)


def set_presence(db: Session, evening_id: int, player_id: int, first_round: int, last_round: int | None) -> None:
    """A player's rounds at the evening (added at the end of the list if new)."""
    done = db.execute(update(_ep).where(_ep.c.evening_id == evening_id, _ep.c.player_id == player_id)
                      .values(first_round=first_round, last_round=last_round))
    if not done.rowcount:  # type: ignore[attr-defined]  # an UPDATE's CursorResult has it
        position = db.execute(select(func.coalesce(func.max(_ep.c.position), -1) + 1)
                              .where(_ep.c.evening_id == evening_id)).scalar_one()
        db.execute(insert(_ep).values(evening_id=evening_id, player_id=player_id, position=position,
                                      first_round=first_round, last_round=last_round))


def set_tables(db: Session, evening_id: int, round_no: int, games: Sequence[str]) -> None:
    """A round's tables and their games, from table 1 (a round not started: no session yet)."""
    db.execute(delete(_et).where(_et.c.evening_id == evening_id, _et.c.round == round_no))
    if games:
        db.execute(insert(_et), [{"evening_id": evening_id, "round": round_no, "table_no": i, "game": g}
                                 for i, g in enumerate(games, start=1)])


def write_seating(db: Session, evening_id: int, round_no: int, tables: Sequence[Sequence[int]],
                  sit_out: Sequence[int], now: datetime | None) -> None:
    """A round's seating (player ids per table from table 1, and who sits out), replacing the
    one it had; ``now`` None: the round has no seating (a ``swiss`` round waiting)."""
    db.execute(delete(_es).where(_es.c.evening_id == evening_id, _es.c.round == round_no))
    rows = [{"evening_id": evening_id, "round": round_no, "player_id": pid, "table_no": t, "position": i}
            for t, players in enumerate(tables, start=1) for i, pid in enumerate(players)]
    rows += [{"evening_id": evening_id, "round": round_no, "player_id": pid, "table_no": 0, "position": i}
             for i, pid in enumerate(sit_out)]
    if rows:
        db.execute(insert(_es), rows)
    db.execute(update(_er).where(_er.c.evening_id == evening_id, _er.c.round == round_no).values(seated_at=now))


def link_session(db: Session, evening_id: int, round_no: int, table_no: int, session_id: int, now: datetime) -> bool:
    """The game started at a table: its session, and the round started (its first table). False
    if the table already has a game (another device started it meanwhile)."""
    done = db.execute(update(_et).where(_et.c.evening_id == evening_id, _et.c.round == round_no,
                                        _et.c.table_no == table_no, _et.c.session_id.is_(None))
                      .values(session_id=session_id))
    if not done.rowcount:  # type: ignore[attr-defined]
        return False
    db.execute(update(_er).where(_er.c.evening_id == evening_id, _er.c.round == round_no,
                                 _er.c.started_at.is_(None)).values(started_at=now))
    return True


def table_session(db: Session, evening_id: int, round_no: int, table_no: int) -> int | None:
    return db.execute(select(_et.c.session_id).where(_et.c.evening_id == evening_id, _et.c.round == round_no,
                                                     _et.c.table_no == table_no)).scalar()


def places(db: Session, evening_id: int) -> list[PlaceRow]:
    """The results rows of the evening's finished games (an unfinished game has none)."""
    return [PlaceRow(int(rnd), int(t), int(sid), int(pid), int(rank), bool(w), int(n)) for rnd, t, sid, pid, rank, w, n
            in db.execute(select(_et.c.round, _et.c.table_no, _et.c.session_id, _r.c.player_id, _r.c.rank,
                                 _r.c.winner, _gs.c.players)
                          .join(_s, _s.c.id == _et.c.session_id)
                          .join(_gs, _gs.c.session_id == _s.c.id)
                          .join(_r, _r.c.session_id == _s.c.id)
                          .where(_et.c.evening_id == evening_id, _s.c.status == STATUS_FINISHED)
                          .order_by(_et.c.round, _et.c.table_no, _r.c.rank, _r.c.player_id))]


def evening_of(db: Session, session_ids: Sequence[int]) -> dict[int, tuple[int, str, int, int]]:
    """For each of these sessions started at an evening: (evening id, its name, round, table)."""
    if not session_ids:
        return {}
    return {int(sid): (int(eid), name, int(rnd), int(t)) for sid, eid, name, rnd, t in db.execute(
        select(_et.c.session_id, _e.c.id, _e.c.name, _et.c.round, _et.c.table_no)
        .join(_e, _e.c.id == _et.c.evening_id).where(_et.c.session_id.in_(list(session_ids))))}


def evening_sessions(evening_id: int) -> Any:
    """The ids of an evening's games (for ``session_id IN (…)``: the history's filter)."""
    return select(_et.c.session_id).where(_et.c.evening_id == evening_id, _et.c.session_id.is_not(None))
