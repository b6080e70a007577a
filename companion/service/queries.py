"""Reading what was played, without changing anything: lists of sessions (unfinished, history
with filters), every entry ever made in a session, and the statistics (SQL over the results
table, never a replay)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from companion.service.errors import ServiceError, unknown_session
from companion.service.live import ServiceCore
from companion.service.states import (
    GameStats,
    HeadToHead,
    HeadToHeadGame,
    HistoryEntry,
    PlayerGameStats,
    PlayerStats,
    SessionSummary,
    aware,
    utc,
)
from models.i18n import Msg
from models.tables import STATUS_IN_PROGRESS


class Queries(ServiceCore):
    # -- lists ----------------------------------------------------------------------------------

    def unfinished(self) -> list[SessionSummary]:
        with self.store.read() as db:
            return [_summary(r) for r in self.store.summaries(db, status=STATUS_IN_PROGRESS)]

    def history(self, game: str | None = None, player: str | None = None, since: datetime | None = None,
                until: datetime | None = None, status: str | None = None) -> list[SessionSummary]:
        """Sessions newest first; ``since`` (included) and ``until`` (excluded) bound the start time."""
        with self.store.read() as db:
            rows = self.store.summaries(db, status=status, game=game, player=player,
                                        since=None if since is None else utc(since),
                                        until=None if until is None else utc(until))
        return [_summary(r) for r in rows]

    def entries_history(self, session_id: int) -> list[HistoryEntry]:
        """Every entry ever made in the session, retracted ones included, oldest first: for
        disputes. Each: seq, action, created_at, retracted_at (None while active)."""
        with self.store.read() as db:
            if self.store.session(db, session_id) is None:
                raise unknown_session(session_id)
            return [{"seq": r.seq, "action": json.loads(r.action), "created_at": aware(r.created_at),
                     "retracted_at": aware(r.retracted_at)} for r in self.store.all_actions(db, session_id)]

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
        return [GameStats(game, games, average, None if top is None else _num(top), tuple(by_game.get(game, ())))
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
        totals = {f: sum(getattr(g, f) for g in games)
                  for f in ("games", "a_wins", "b_wins", "a_ahead", "b_ahead", "level")}
        return HeadToHead(a, b, **totals, by_game=games)


def _num(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def _summary(row: dict[str, Any]) -> SessionSummary:
    return SessionSummary(session_id=row["id"], game=row["game"], players=tuple(row["players"]),
                          status=row["status"], started_at=utc(row["started_at"]),
                          updated_at=utc(row["updated_at"]), finished_at=aware(row["finished_at"]),
                          winners=tuple(row["winners"]), entries=row["entries"])
