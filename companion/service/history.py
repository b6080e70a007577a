"""Reading what was played, without changing anything: pages of the history (filters by game,
player, name search, start date and status), every entry ever made in a session, and the
statistics — all SQL over the per-game summaries and the results rows, never a replay nor a scan
of the action log. Also the one thing about a game that is not in its record: a player may mark
an unfinished game abandoned (and take the mark back). The service's part ``service.history``
(:class:`History`), given the store, the service's reads, its lock and its clock."""

from __future__ import annotations

import json
import threading
from datetime import datetime
from typing import Any

from companion.service.errors import STORAGE_ERRORS, ServiceError, storage_error, unknown_session
from companion.service.live import Clock, Read
from companion.service.states import (
    GameStats,
    HeadToHead,
    HeadToHeadGame,
    HistoryEntry,
    HistoryPage,
    MonthScores,
    PlayerGameStats,
    PlayerStats,
    SeatResult,
    SessionSummary,
    aware,
    utc,
)
from companion.store import HistoryQuery, Period, PlayerFigures, Store, club
from models.i18n import Msg
from models.tables import STATUS_FINISHED, STATUS_IN_PROGRESS, STATUSES

PAGE_SIZE = 25


def _period(since: datetime | None, until: datetime | None) -> Period:
    return (None if since is None else utc(since), None if until is None else utc(until))


class History:
    """The history and the statistics, ``service.history``."""

    def __init__(self, store: Store, read: Read, lock: threading.RLock, now: Clock):
        self.store = store
        self._read = read
        self._lock = lock
        self._now = now

    # -- lists ----------------------------------------------------------------------------------

    def unfinished(self) -> list[SessionSummary]:
        """Games in progress (abandoned ones aside), newest first."""
        return list(self.page(status=STATUS_IN_PROGRESS, limit=500).items)

    def all(self, game: str | None = None, player: str | None = None, since: datetime | None = None,
            until: datetime | None = None, status: str | None = None,
            table: str | None = None, search: str = "", evening: int | None = None) -> list[SessionSummary]:
        """Every matching session, newest first (for a screen, use :meth:`page`);
        ``since`` (included) and ``until`` (excluded) bound the start time; ``search``: the
        history's search on player names."""
        out: list[SessionSummary] = []
        offset = 0
        while True:
            page = self.page(game=game, player=player, since=since, until=until, status=status,
                             table=table, search=search, evening=evening, offset=offset, limit=1000)
            out.extend(page.items)
            if not page.has_more:
                return out
            offset += len(page.items)

    def page(self, *, game: str | None = None, player: str | None = None, player_id: int | None = None,
             search: str = "", since: datetime | None = None, until: datetime | None = None,
             status: str | None = None, table: str | None = None, offset: int = 0,
             limit: int = PAGE_SIZE, evening: int | None = None) -> HistoryPage:
        """One page of the history. ``player``: a profile's exact name (or ``player_id``);
        ``search``: words found in a seated player's name, ignoring case and accents; ``status``:
        finished, in_progress or abandoned; ``table``: the games started at that table (a club's
        tablet; ``club.NO_TABLE``: at a tablet with no name); ``evening``: the games of that club
        evening. Each game says its table."""
        if status is not None and status not in STATUSES:
            raise ServiceError(Msg("service.history.status", {"status": status}))
        offset, limit = max(0, int(offset)), max(1, int(limit))
        with self._read() as db:
            ids: set[int] | None = None
            if player is not None:
                found = self.store.player_by_name(db, player)
                ids = {found.id} if found is not None and found.id is not None else set()
            if player_id is not None:
                ids = {player_id} if ids is None else ids & {player_id}
            if search.strip():
                matching = set(self.store.history.player_ids_matching(db, search))
                ids = matching if ids is None else ids & matching
            since_utc, until_utc = _period(since, until)
            query = HistoryQuery(game=game, status=status, since=since_utc, until=until_utc,
                                 player_ids=None if ids is None else tuple(sorted(ids)), table=table, evening=evening)
            if ids is not None and not ids:
                return HistoryPage((), 0, offset, limit)
            rows = self.store.history.page(db, query, offset, limit)
            total = self.store.history.count(db, query) if (offset or len(rows) == limit) else offset + len(rows)
            tables = club.table_of(db, [r["session_id"] for r in rows])
        return HistoryPage(tuple(_summary(r, tables.get(r["session_id"])) for r in rows), total, offset, limit)

    def entries(self, session_id: int) -> list[HistoryEntry]:
        """Every entry ever made in the session, retracted ones included, oldest first: for
        disputes. Each: seq, action, created_at, retracted_at (None while active)."""
        with self._read() as db:
            if self.store.session(db, session_id) is None:
                raise unknown_session(session_id)
            return [{"seq": r.seq, "action": json.loads(r.action), "created_at": aware(r.created_at),
                     "retracted_at": aware(r.retracted_at)} for r in self.store.all_actions(db, session_id)]

    # -- abandoned games --------------------------------------------------------------------------

    def set_abandoned(self, session_id: int, abandoned: bool = True) -> SessionSummary:
        """Mark an unfinished game abandoned (nobody will finish it: it leaves the games to
        resume and counts as abandoned in the history), or take the mark back. A finished game
        cannot be abandoned. The record itself is unchanged."""
        with self._lock:
            try:
                with self.store.write() as db:
                    row = self.store.session(db, session_id)
                    if row is None:
                        raise unknown_session(session_id)
                    if abandoned and row.status == STATUS_FINISHED:
                        raise ServiceError(Msg("service.history.finished_not_abandoned", {"session": session_id}))
                    self.store.set_abandoned(db, session_id, self._now() if abandoned else None)
                    self.store.refresh_summary(db, session_id)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return self.summary(session_id)

    def summary(self, session_id: int) -> SessionSummary:
        """One game's summary row, as the history lists it."""
        with self._read() as db:
            row = self.store.history.summary(db, session_id)
            tables = club.table_of(db, [session_id])
        if row is None:
            raise unknown_session(session_id)
        return _summary(row, tables.get(session_id))

    # -- statistics (SQL over summaries and results, never a replay) ------------------------------

    def player_stats(self, since: datetime | None = None, until: datetime | None = None,
                     table: str | None = None) -> list[PlayerStats]:
        """Every profile's figures over the finished games started in [since, until) (at one
        club table: ``table``, see :mod:`companion.store.club`)."""
        return self._player_stats(_period(since, until), None, table)

    def player_profile_stats(self, player_id: int, since: datetime | None = None,
                             until: datetime | None = None, table: str | None = None) -> PlayerStats:
        found = self._player_stats(_period(since, until), player_id, table)
        if not found:
            raise ServiceError(Msg("service.player.unknown", {"name": player_id}))
        return found[0]

    def statistics(self, since: datetime | None = None, until: datetime | None = None,
                   table: str | None = None) -> tuple[list[PlayerStats], list[GameStats]]:
        """What the statistics screen shows: :meth:`player_stats` and :meth:`game_stats` together,
        from one read of the players' figures (the dearest query, the same for both)."""
        period = _period(since, until)
        with self._read() as db:
            players = self.store.players(db)
            figures = self.store.history.player_figures(db, period, None, table=table)
            games = self._game_stats(db, period, table, figures, {p.id: p.name for p in players})
        return _player_stats([(p.id, p.name) for p in players], figures), games

    def _player_stats(self, period: Period, player_id: int | None, table: str | None = None) -> list[PlayerStats]:
        with self._read() as db:
            profiles = [(p.id, p.name) for p in self.store.players(db) if player_id is None or p.id == player_id]
            figures = self.store.history.player_figures(db, period, player_id, table=table)
        return _player_stats(profiles, figures)

    def scores_over_time(self, player_id: int, since: datetime | None = None,
                         until: datetime | None = None, table: str | None = None,
                         game: str | None = None) -> list[MonthScores]:
        """A player's average score and wins month by month (UTC months), at one ``game`` (every
        game together when None: the wins add up, the scores of different games do not)."""
        with self._read() as db:
            rows = self.store.history.player_figures(db, _period(since, until), player_id, by_month=True, table=table)
        return _months([row for row in rows if game is None or row.game == game])

    def scores_by_game(self, player_id: int, since: datetime | None = None, until: datetime | None = None,
                       table: str | None = None) -> dict[str, list[MonthScores]]:
        """A player's average score and wins month by month, game by game (one read): the
        statistics' chart draws a line per game, never one mixing their scales."""
        with self._read() as db:
            rows = self.store.history.player_figures(db, _period(since, until), player_id, by_month=True, table=table)
        games: dict[str, list[Any]] = {}
        for row in rows:
            games.setdefault(row.game, []).append(row)
        return {game: _months(mine) for game, mine in games.items()}

    def game_stats(self, since: datetime | None = None, until: datetime | None = None,
                   table: str | None = None) -> list[GameStats]:
        period = _period(since, until)
        with self._read() as db:
            names = {p.id: p.name for p in self.store.players(db)}
            return self._game_stats(db, period, table, self.store.history.player_figures(db, period, None, table=table), names)

    def _game_stats(self, db: Any, period: Period, table: str | None, winners: list[PlayerFigures],
                    names: dict[int | None, str]) -> list[GameStats]:
        """Each game's figures; ``winners``: the players' figures over the same games (who won most)."""
        figures = self.store.history.game_figures(db, period, table=table)
        # a player cast out of a game (High Society's poorest) holds no record with its score
        records = {f.game: self.store.history.record(db, f.game, f.top_max, period, table=table)
                   for f in figures if f.top_max is not None}
        top: dict[str, tuple[int, list[str]]] = {}
        for row in sorted(winners, key=lambda r: (r.game, -r.wins, names.get(r.player_id, ""))):
            if not row.wins:
                continue
            most, leaders = top.setdefault(row.game, (row.wins, []))
            if row.wins == most:
                leaders.append(names.get(row.player_id, ""))
        out = []
        for f in figures:
            best, holders = records.get(f.game, (None, []))
            by: list[str] = []
            for holder in holders:
                if holder.name not in by:
                    by.append(holder.name)
            most, leaders = top.get(f.game, (0, []))
            out.append(GameStats(f.game, f.games, _mean(f.win_score_sum, f.win_score_n),
                                 None if best is None else _num(best), tuple(by), top_winners=tuple(leaders),
                                 top_wins=most, average_spread=_mean(f.spread_sum, f.spread_n),
                                 average_entries=_mean(f.actions_sum, f.games),
                                 average_duration_s=_mean(f.duration_sum, f.duration_n)))
        return out

    def head_to_head(self, a: str, b: str, since: datetime | None = None,
                     until: datetime | None = None, table: str | None = None) -> HeadToHead:
        if a == b:
            raise ServiceError(Msg("service.stats.same_player", {"name": a}))
        with self._read() as db:
            ids = []
            for name in (a, b):
                found = self.store.player_by_name(db, name)
                if found is None or found.id is None:
                    raise ServiceError(Msg("service.player.unknown", {"name": name}))
                ids.append(found.id)
            rows = self.store.history.head_to_head(db, ids[0], ids[1], _period(since, until), table=table)
        games = tuple(HeadToHeadGame(**row._asdict()) for row in rows)
        totals = {f: sum(getattr(g, f) for g in games)
                  for f in ("games", "a_wins", "b_wins", "a_ahead", "b_ahead", "level")}
        return HeadToHead(a, b, **totals, by_game=games)


def _months(rows: list[Any]) -> list[MonthScores]:
    months: dict[str, list[float]] = {}
    for row in rows:
        total = months.setdefault(row.month or "", [0, 0, 0.0])
        total[0] += row.games
        total[1] += row.wins
        total[2] += row.score_sum
    return [MonthScores(month, int(g), s / g, int(w)) for month, (g, w, s) in sorted(months.items())]


def _mean(total: float | None, count: int) -> float | None:
    return total / count if count and total is not None else None


def _player_stats(profiles: list[tuple[int | None, str]], figures: list[PlayerFigures]) -> list[PlayerStats]:
    per_game: dict[int, list[PlayerFigures]] = {}
    for row in figures:
        per_game.setdefault(row.player_id, []).append(row)
    out = []
    for pid, name in profiles:
        assert pid is not None
        rows = per_game.get(pid, [])
        games = sum(r.games for r in rows)
        wins = sum(r.wins for r in rows)
        score_sum = sum(r.score_sum for r in rows)
        rank_sum = sum(r.rank_sum for r in rows)
        places = tuple((place, sum(r.places[place - 1] for r in rows)) for place in range(1, 7))
        by_game = tuple(PlayerGameStats(r.game, r.games, r.wins, r.wins / r.games if r.games else 0.0,
                                        _num(r.score_max), r.score_sum / r.games if r.games else None) for r in rows)
        out.append(PlayerStats(name, games, wins, wins / games if games else 0.0, by_game, id=pid,
                               average_score=score_sum / games if games else None,
                               best_score=_num(max(r.score_max for r in rows)) if rows else None,
                               average_place=rank_sum / games if games else None,
                               places=tuple((p, c) for p, c in places if c)))
    return out


def _num(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def _summary(row: dict[str, Any], table: str | None = None) -> SessionSummary:
    seats = tuple(SeatResult(name, None if score is None else _num(score), rank, won, out)
                  for name, score, rank, won, out in row.get("seats", ()))
    return SessionSummary(session_id=row["session_id"], game=row["game"], players=tuple(s.name for s in seats),
                          status=row["status"], started_at=utc(row["started_at"]),
                          updated_at=utc(row["updated_at"]), finished_at=aware(row["finished_at"]),
                          winners=tuple(s.name for s in seats if s.winner), entries=row["actions"],
                          last_played_at=aware(row["last_played_at"]), duration_s=float(row["duration_s"]),
                          seats=seats, table_name=table)


__all__ = ["PAGE_SIZE", "STATUS_IN_PROGRESS", "History"]
