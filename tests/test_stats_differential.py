"""Every figure of the history and statistics equals a recount from the games themselves.

A seeded random history is built through the real service on a SQLite file: games of every
refereed kind (complete legal records from ``benchmarks/playouts.py``, their players' names
shuffled from a pool), some imported (one by one and in batches, some unfinished), some played
entry by entry at one of two named tables or none, some left in progress, marked abandoned (and
the mark taken back, or the game finished after all), finished games reopened by an undo (and
some finished again), corrections, deleted games, renamed and merged profiles. Then each public
query of the history and statistics (``service/history.py``, ``club.py``) over several periods (whole
months, cut months, open ends) and table filters is compared with a brute-force recount in plain
Python from ``open(id)`` (status, outcome, active entries), ``history.entries`` (the entries'
times), the seats as the test itself made them and the marks it set."""

from __future__ import annotations

import os
import random
import sys
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from companion.service import SessionService
from companion.service.club import NO_TABLE
from companion.store import Store, fold
from tests.support.clock import Clock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from tests.support.history import GAMES, T0, TABLES, UTC, History, Truth, finished, in_period

# -- the recount ------------------------------------------------------------------------------------


def recount(h: History) -> dict[int, Truth]:
    out = {}
    for sid, g in h.games.items():
        state = h.service.open(sid)
        finished = state.status == "finished"
        assert finished == (state.outcome is not None)
        status = "finished" if finished else "abandoned" if g.abandoned else "in_progress"
        results = None
        cast: frozenset[int] = frozenset()
        if finished:
            o = state.outcome
            ranks = dict(o.ranking)
            results = {g.seats[n]: (float(o.scores[n]), int(ranks[n]), n in o.winners) for n in state.players}
            cast = frozenset(g.seats[n] for n in o.eliminated)
        active = [e["created_at"] for e in h.service.history.entries(sid) if e["retracted_at"] is None]
        assert len(active) == len(state.log)
        last = max(active, default=state.started_at)
        duration = max(0.0, (to_ms(last) - to_ms(state.started_at)) / 1000)
        out[sid] = Truth(sid, g.game, status, state.started_at, g.table,
                         [(g.seats[n], n) for n in state.players], results, len(state.log), duration, cast)
    return out


def approx(value: Any) -> Any:
    """Floats to 9 places, recursively (dataclasses as tuples of their fields)."""
    if isinstance(value, float):
        return round(value, 9)
    if hasattr(value, "__dataclass_fields__"):
        return tuple(approx(getattr(value, f)) for f in value.__dataclass_fields__)
    if isinstance(value, (list, tuple)):
        return tuple(approx(v) for v in value)
    return value


def ms(value: float | None) -> float | None:
    """A duration (or an average of durations, summed in another order) to the microsecond."""
    return None if value is None else round(value, 6)


def to_ms(moment: datetime) -> int:
    """A time in whole milliseconds, rounded as SQLite's ``julianday`` reads a stored time: the
    duration it computes is the difference of the two times so rounded (the ms after the
    rounding of each time, not the rounding of the exact difference; never more than 1 ms)."""
    return ((moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1) + 500) // 1000


def num(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def expected_player(pid: int, name: str, games: list[Truth]) -> tuple:
    mine = [(t.game, t.results[pid]) for t in games if pid in t.results]
    n = len(mine)
    wins = sum(w for _, (_, _, w) in mine)
    by_game = []
    for game in sorted({gm for gm, _ in mine}):
        rows = [r for gm, r in mine if gm == game]
        g, w = len(rows), sum(r[2] for r in rows)
        by_game.append((game, g, w, w / g, num(max(r[0] for r in rows)), sum(r[0] for r in rows) / g))
    places = tuple((p, c) for p in range(1, 7)
                   if (c := sum(1 for _, r in mine if (r[1] == p if p < 6 else r[1] >= 6))))
    return approx((name, n, wins, wins / n if n else 0.0, tuple(by_game), pid,
                   sum(r[0] for _, r in mine) / n if n else None,
                   num(max(r[0] for _, r in mine)) if n else None,
                   sum(r[1] for _, r in mine) / n if n else None, places))


def got_player(p: Any) -> tuple:
    return approx((p.name, p.games, p.wins, p.win_rate,
                   tuple((b.game, b.games, b.wins, b.win_rate, b.best_score, b.average_score) for b in p.by_game),
                   p.id, p.average_score, p.best_score, p.average_place, p.places))


def expected_games(games: list[Truth], names: dict[int, str]) -> list[tuple]:
    out = []
    for game in sorted({t.game for t in games}):
        mine = [t for t in games if t.game == game]  # in time order
        won = [max(s for s, _, w in t.results.values() if w) for t in mine if any(w for _, _, w in t.results.values())]
        # the record: the best score of a player not cast out (a score that could not win holds none)
        best = max((s for t in mine for p, (s, _, _) in t.results.items() if p not in t.out), default=None)
        holders: list[str] = []
        reached = [t for t in mine if any(s == best and p not in t.out for p, (s, _, _) in t.results.items())]
        for t in reached[:20]:
            for who in sorted(names[p] for p, (s, _, _) in t.results.items() if s == best and p not in t.out):
                if who not in holders:
                    holders.append(who)
        wins: dict[int, int] = defaultdict(int)
        for t in mine:
            for p, (_, _, w) in t.results.items():
                wins[p] += w
        most = max(wins.values(), default=0)
        leaders = tuple(sorted(names[p] for p, w in wins.items() if w == most and w)) if most else ()
        spreads = [max(s for s, _, _ in t.results.values()) - min(s for s, _, _ in t.results.values()) for t in mine]
        durations = [t.duration for t in mine if t.duration]
        out.append(approx((game, len(mine), sum(won) / len(won) if won else None,
                           None if best is None else num(best), tuple(holders),
                           leaders, most, sum(spreads) / len(spreads), sum(t.entries for t in mine) / len(mine),
                           ms(sum(durations) / len(durations)) if durations else None)))
    return out


def got_game(g: Any) -> tuple:
    return approx((g.game, g.games, g.average_winning_score, g.best_score, g.best_by, g.top_winners, g.top_wins,
                   g.average_spread, g.average_entries, ms(g.average_duration_s)))


def expected_months(pid: int, games: list[Truth]) -> list[tuple]:
    months: dict[str, list] = {}
    for t in games:
        if pid in t.results:
            score, _, won = t.results[pid]
            m = months.setdefault(t.started_at.astimezone(UTC).strftime("%Y-%m"), [0, 0.0, 0])
            m[0] += 1
            m[1] += score
            m[2] += won
    return [approx((month, g, s / g, w)) for month, (g, s, w) in sorted(months.items())]


def expected_h2h(a: int, b: int, games: list[Truth]) -> tuple:
    per: dict[str, list[int]] = {}
    for t in games:
        if a in t.results and b in t.results:
            (_, ra, wa), (_, rb, wb) = t.results[a], t.results[b]
            row = per.setdefault(t.game, [0] * 6)
            for i, v in enumerate((1, wa, wb, ra < rb, rb < ra, ra == rb)):
                row[i] += int(v)
    by_game = tuple((game, *row) for game, row in sorted(per.items()))
    totals = tuple(sum(r[i] for r in by_game) for i in range(1, 7))
    return totals, by_game


def expected_league(game: str, games: list[Truth], names: dict[int, str]) -> tuple[list[tuple], int]:
    lines: dict[int, list[int]] = {}
    for t in games:
        n = len(t.seats)
        for p, (_, place, won) in t.results.items():
            line = lines.setdefault(p, [0, 0, 0, 0])
            line[0] += 1
            line[1] += won
            line[2] += n - place
            line[3] += place
    key = {p: (-pts, -w, psum / g, g) for p, (g, w, pts, psum) in lines.items()}
    order = sorted(lines, key=lambda p: (key[p], names[p], p))
    rows = []
    for p in order:
        position = 1 + sum(1 for q in lines if key[q] < key[p])
        g, w, pts, psum = lines[p]
        rows.append(approx((position, p, names[p], g, w, pts, psum / g)))
    return rows, len(games)


def expected_summary(t: Truth, names: dict[int, str]) -> tuple:
    seats = []
    for pid, _ in t.seats:
        if t.results is None:
            seats.append((names[pid], None, None, False))
        else:
            score, place, won = t.results[pid]
            seats.append((names[pid], num(score), place, won))
    return approx((t.sid, t.game, tuple(s[0] for s in seats), t.status, t.started_at,
                   tuple(s[0] for s in seats if s[3]), t.entries, ms(t.duration), tuple(seats), t.table))


def got_summary(s: Any) -> tuple:
    return approx((s.session_id, s.game, s.players, s.status, s.started_at, s.winners, s.entries, ms(s.duration_s),
                   tuple((x.name, x.score, x.place, x.winner) for x in s.seats), s.table_name))


def periods(rng: random.Random) -> list[tuple[datetime | None, datetime | None]]:
    out: list[tuple[datetime | None, datetime | None]] = [
        (None, None), (datetime(2026, 2, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)),
        (datetime(2026, 3, 1, tzinfo=UTC), None), (None, datetime(2026, 2, 1, tzinfo=UTC))]
    paris = timezone(timedelta(hours=1))
    out.append((datetime(2026, 3, 1, tzinfo=paris), datetime(2026, 4, 1, tzinfo=paris)))  # not UTC months
    for _ in range(4):
        a = T0 + timedelta(days=rng.uniform(-5, 140), seconds=rng.randint(0, 86399))
        a = a.astimezone(rng.choice((UTC, paris)))
        b = a + timedelta(days=rng.uniform(0, 90))
        out.append(rng.choice([(a, b), (a, None), (None, b)]))
    return out


def check(h: History, rng: random.Random) -> None:
    service = h.service
    truth = recount(h)
    profiles = service.players()
    names = {p.id: p.name for p in profiles}
    ids = [p.id for p in profiles]
    # the history: each game's line, and the filters
    newest = sorted(truth.values(), key=lambda t: (t.started_at, t.sid), reverse=True)
    assert [got_summary(s) for s in service.history.all()] == [expected_summary(t, names) for t in newest]
    assert [s.session_id for s in service.history.unfinished()] == [t.sid for t in newest if t.status == "in_progress"]
    for _ in range(12):
        game = rng.choice((None,) + GAMES)
        status = rng.choice((None, "finished", "in_progress", "abandoned"))
        pid = rng.choice((None, None) + tuple(ids))
        since, until = rng.choice(periods(rng))
        table = rng.choice((None, None, NO_TABLE) + TABLES[1:])
        want = [t.sid for t in newest if (game is None or t.game == game) and (status is None or t.status == status)
                and (pid is None or pid in [p for p, _ in t.seats]) and in_period(t, since, until, table)]
        kw = dict(game=game, status=status, since=since, until=until, table=table,
                  player=None if pid is None else names[pid])
        assert [s.session_id for s in service.history.all(**kw)] == want, kw
        page = service.history.page(**kw, limit=2)
        assert page.total == len(want) and [s.session_id for s in page.items] == want[:2], kw
        if pid is not None:  # a player's page lists their games by profile id
            by_id = service.history.page(**dict(kw, player=None), player_id=pid, limit=3)
            assert (by_id.total, [s.session_id for s in by_id.items]) == (len(want), want[:3]), kw
        word = rng.choice(list(names.values()))[1:3]
        found = {p for p, n in names.items() if fold(word) in fold(n)}
        want = [t.sid for t in newest if found & {p for p, _ in t.seats} and in_period(t, since, until, table)]
        page = service.history.page(search=word.upper(), since=since, until=until, table=table, limit=2)
        assert (page.total, [s.session_id for s in page.items]) == (len(want), want[:2]), (word, since, until, table)
    # the statistics, the player's pages, head to head, the league: over periods and tables
    for since, until in periods(rng):
        for table in (None, NO_TABLE, "Salle A"):
            done = finished(truth, since, until, table)
            where = (since, until, table)
            players, games = service.history.statistics(since, until, table=table)
            assert [got_player(p) for p in players] == [expected_player(p.id, p.name, done) for p in profiles], where
            assert [got_player(p) for p in service.history.player_stats(since, until, table=table)] == \
                [got_player(p) for p in players]
            assert [got_game(g) for g in games] == expected_games(done, names), where
            assert [got_game(g) for g in service.history.game_stats(since, until, table=table)] == [got_game(g) for g in games]
            for pid in rng.sample(ids, min(3, len(ids))):
                assert got_player(service.history.player_profile_stats(pid, since, until, table=table)) == \
                    expected_player(pid, names[pid], done), (where, pid)
                assert [approx(m) for m in service.history.scores_over_time(pid, since, until, table=table)] == \
                    expected_months(pid, done), (where, pid)
            for _ in range(3):
                a, b = rng.sample(ids, 2)
                got = service.history.head_to_head(names[a], names[b], since, until, table=table)
                totals, by_game = expected_h2h(a, b, done)
                assert ((got.games, got.a_wins, got.b_wins, got.a_ahead, got.b_ahead, got.level),
                        tuple(approx(g) for g in got.by_game)) == (totals, by_game), (where, a, b)
            counts: dict[str, int] = defaultdict(int)
            for t in done:
                counts[t.game] += 1
            assert service.club.league_games(since, until, table=table) == \
                sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])), where
            for game in GAMES:
                rows, played = expected_league(game, finished(truth, since, until, table, game), names)
                league = service.club.league(game, since, until, table=table, limit=500)
                assert ([approx((r.position, r.player_id, r.name, r.games, r.wins, r.points, r.average_place))
                         for r in league.rows], league.total, league.games) == (rows, len(rows), played), \
                    (where, game)
                if len(rows) > 2:
                    page = service.club.league(game, since, until, table=table, offset=1, limit=2)
                    assert [approx((r.position, r.player_id)) for r in page.rows] == [r[:2] for r in rows[1:3]]
                    past = service.club.league(game, since, until, table=table, offset=len(rows) + 1)
                    assert (past.rows, past.total, past.games) == ((), len(rows), played)


# STATS_SEEDS=4,5,… runs other histories (a hunt: 90 seeds ran clean)
@pytest.mark.parametrize("seed", [int(s) for s in os.environ.get("STATS_SEEDS", "2,3").split(",")])
def test_every_figure_equals_a_recount_of_the_games(tmp_path, seed):
    store = Store(tmp_path / "companion.db")
    try:
        clock = Clock(T0)
        h = History(SessionService(store, clock=clock), clock, random.Random(seed))
        for _ in range(6):
            h.play_one()
        h.import_some(3)
        for what in ("undo", "abandon", "correct", "merge", "batch", "finish", "rename", "abandon", "delete", "resume"):
            h.step(what)
        check(h, random.Random(seed * 100))
        for _ in range(24):
            h.step()
        h.merge(surely=True)
        check(h, random.Random(seed))
        assert h.done["merged"], h.done
    finally:
        store.close()
