"""Per-game summaries (migration 0004): kept up to date by every change to a game (submit, undo,
correction, import, abandon, delete), filled for the games of an upgraded database, and what the
history pages, filters and statistics read. Profiles: rename, merge, remove."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from companion.service import ServiceError, SessionService
from companion.store import Store
from models.i18n import Msg
from tests.support.clock import Clock
from tests.support.games import hs_designed, hs_designed_result, hs_long, sv_game
from tests.support.service import play, rows
from tests.support.store import PLAYERS, insert_old_games

T0 = datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc)


@pytest.fixture
def store(database):
    s = Store(database)  # SQLite, then PostgreSQL
    yield s
    s.close()


@pytest.fixture
def clock():
    return Clock(T0)


@pytest.fixture
def service(store, clock):
    return SessionService(store, clock=clock)


def summary_row(store: Store, sid: int) -> dict:
    with store.read() as db:
        row = store.history.summary(db, sid)
    assert row is not None
    return row


# -- kept up to date ------------------------------------------------------------------------------


def test_a_game_is_summarised_from_its_start_to_its_end(service, store, clock):
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    first = summary_row(store, sid)
    assert (first["status"], first["actions"], first["players"], first["winners"]) == ("in_progress", 0, 3, 0)
    assert first["top_score"] is None
    record = hs_designed(PLAYERS, "Anne")
    for k, action in enumerate(record["actions"], 1):
        service.submit(sid, action)
        assert summary_row(store, sid)["actions"] == k
    done = summary_row(store, sid)
    expected = hs_designed_result(PLAYERS, "Anne")
    scores = [s for n, s in expected["scores"].items() if n not in expected["eliminated"]] or \
        list(expected["scores"].values())
    assert done["status"] == "finished" and done["winners"] == len(expected["winners"])
    assert done["top_score"] == max(expected["scores"].values())
    assert done["low_score"] == min(expected["scores"].values()) and scores
    # the clock moved one second per entry (Clock ticks): duration = last entry - start
    assert done["duration_s"] == pytest.approx((done["last_played_at"] - done["started_at"]).total_seconds())
    assert done["duration_s"] > 0
    summary = service.history.summary(sid)
    assert summary.winners == tuple(expected["winners"]) and summary.entries == len(record["actions"])
    assert {s.name: s.score for s in summary.seats} == expected["scores"]


def test_undo_reopens_the_summary_and_a_new_end_closes_it_again(service, store):
    record = hs_long(PLAYERS)
    state = play(service, record)
    sid = state.session_id
    n = len(record["actions"])
    assert summary_row(store, sid)["status"] == "finished"
    service.undo(sid)
    row = summary_row(store, sid)
    assert (row["status"], row["actions"], row["winners"], row["top_score"]) == ("in_progress", n - 1, 0, None)
    assert [s.session_id for s in service.history.unfinished()] == [sid]
    service.undo(sid)
    assert summary_row(store, sid)["actions"] == n - 2
    service.submit(sid, record["actions"][-2])
    service.submit(sid, record["actions"][-1])
    row = summary_row(store, sid)
    assert (row["status"], row["actions"]) == ("finished", n) and row["winners"] >= 1
    assert service.history.unfinished() == []


def test_a_correction_that_reopens_or_ends_the_game_changes_its_summary(service, store):
    record = hs_long(PLAYERS)
    sid = play(service, record).session_id
    last = len(record["actions"]) - 1
    assert record["actions"][last] == {"type": "reveal", "card": "half"}
    state = service.correct(sid, last, {"type": "reveal", "card": "minus5"})  # not a game-ending card
    assert state.status == "in_progress"
    row = summary_row(store, sid)
    assert (row["status"], row["actions"], row["winners"], row["top_score"]) == (
        "in_progress", len(record["actions"]), 0, None)
    assert service.history.page(status="finished").total == 0
    service.correct(sid, last, {"type": "reveal", "card": "half"})
    row = summary_row(store, sid)
    assert row["status"] == "finished" and row["winners"] >= 1
    assert service.history.page(status="finished").total == 1


def all_summaries(store: Store) -> dict[str, list]:
    return {table: rows(store, f"SELECT * FROM {table} ORDER BY 1, 2, 3")
            for table in ("game_summaries", "player_months", "game_months")}


def test_summaries_kept_entry_by_entry_equal_a_full_recount(service, store, clock):
    """A plain entry updates the summary incrementally (no recount of the game's entries); after
    any mix of entries, undos, corrections, ends, reopenings and abandon marks, and a clock that
    goes back, every row is what a full recount from the games' rows writes."""
    long_game = hs_long(PLAYERS)
    moves = long_game["actions"]
    a = service.start("high-society", PLAYERS).session_id
    b = service.start("high-society", PLAYERS).session_id
    c = service.start("stupide-vautour", PLAYERS).session_id
    clock.now = T0 - timedelta(hours=1)  # the clock went back: the first entry is before the start
    service.submit(a, moves[0])
    for action in moves[1:6]:
        service.submit(a, action)
    service.undo(a)
    service.undo(a)
    clock.now = T0 + timedelta(hours=2)
    for action in moves[4:9]:
        service.submit(a, action)
    service.correct(a, 2, moves[2])  # the same entry: nothing to write
    state = service.correct(a, 0, {"type": "reveal", "card": "p9"})  # p1 came up first
    assert state.status == "in_progress"
    clock.now = T0 + timedelta(minutes=30)  # back again, after entries: the last entry time stays
    service.submit(a, moves[9])
    service.submit(b, moves[0])
    clock.now = T0 + timedelta(hours=3)
    for action in moves[1:]:
        service.submit(b, action)  # to the end
    service.undo(b)  # reopens
    for action in moves[-1:]:
        service.submit(b, action)  # ends again
    service.history.set_abandoned(c)
    for action in sv_game(PLAYERS)["actions"][:4]:
        service.submit(c, action)  # entries on an abandoned game
    service.undo(c)
    kept = all_summaries(store)
    assert [r[0] for r in kept["game_summaries"]] == [a, b, c]
    with store.write() as db:
        store.refresh_summaries(db)
    assert all_summaries(store) == kept
    assert summary_row(store, a)["actions"] == 10 and summary_row(store, c)["status"] == "abandoned"
    assert summary_row(store, a)["last_played_at"] > T0 + timedelta(hours=2)


def test_deleting_a_game_deletes_its_summary(service, store):
    sid = play(service, hs_designed(PLAYERS, "Anne")).session_id
    service.delete(sid)
    assert rows(store, "SELECT COUNT(*) FROM game_summaries") == [(0,)]


def test_imported_games_are_summarised_with_no_duration(service, store):
    import json

    ids = service.transfer.import_records(json.dumps([hs_designed(PLAYERS, "Anne"), hs_long(PLAYERS, final=False)]))
    done, going = (summary_row(store, i) for i in ids)
    assert done["status"] == "finished" and done["winners"] == 1 and done["duration_s"] == 0
    assert going["status"] == "in_progress" and going["actions"] == len(hs_long(PLAYERS, final=False)["actions"])
    # the statistics count the imported finished game (monthly figures recounted once at the end)
    assert {p.name: p.games for p in service.history.player_stats()} == {n: 1 for n in PLAYERS}
    assert [g.games for g in service.history.game_stats()] == [1]
    service.transfer.import_records(json.dumps([hs_designed(PLAYERS, "Bruno")] * 3))
    assert {p.name: p.games for p in service.history.player_stats()} == {n: 4 for n in PLAYERS}


def test_abandoning_a_game_is_an_explicit_mark_a_player_can_take_back(service, store):
    going = service.start("high-society", PLAYERS)
    done = play(service, hs_designed(PLAYERS, "Anne"))
    assert service.history.set_abandoned(going.session_id).status == "abandoned"
    assert service.history.unfinished() == []
    assert [s.session_id for s in service.history.all(status="abandoned")] == [going.session_id]
    with pytest.raises(ServiceError) as refused:
        service.history.set_abandoned(done.session_id)
    assert refused.value.msg.key == "service.history.finished_not_abandoned"
    assert service.history.set_abandoned(going.session_id, False).status == "in_progress"
    assert [s.session_id for s in service.history.unfinished()] == [going.session_id]
    # an abandoned game that is finished after all counts as finished
    service.history.set_abandoned(going.session_id)
    for action in hs_designed(PLAYERS, "Anne")["actions"]:
        service.submit(going.session_id, action)
    assert service.history.summary(going.session_id).status == "finished"


# -- an old database ----------------------------------------------------------------------------


def test_an_old_database_is_upgraded_with_a_summary_for_every_game(tmp_path):
    """A 0001-era database (no results, no summaries): after the upgrade every game is listed
    with its entries, players, status and, once the results are repaired on start, its winners."""
    path = tmp_path / "old.db"
    old = Store(path, upgrade=False)
    old.upgrade("0001")
    old.close()
    record = hs_designed(PLAYERS, "Anne")
    going = hs_long(PLAYERS, final=False)
    con = sqlite3.connect(path)
    with con:
        insert_old_games(con, "2025-12-24 19:00:00.000000", [(1, "high-society", record, "finished", False),
                                                               (2, "high-society", going, "in_progress", False)])
        con.execute("UPDATE actions SET created_at = '2025-12-24 19:30:00.000000' WHERE session_id = 1")
        con.execute("INSERT INTO actions (session_id, seq, action, created_at, retracted_at) VALUES "
                    "(2, 999, '{\"type\": \"pass\", \"player\": \"Anne\"}', '2025-12-24 19:00:00', "
                    "'2025-12-24 19:00:00')")
    con.close()
    store = Store(path)
    try:
        assert store.revision() == "0007"
        assert rows(store, "SELECT session_id, status, actions, players, winners, duration_s FROM game_summaries "
                           "ORDER BY session_id") == [
            (1, "finished", len(record["actions"]), 3, 0, 1800.0),  # no results rows yet under 0001
            (2, "in_progress", len(going["actions"]), 3, 0, 0.0)]  # the undone entry is not counted
        assert rows(store, "SELECT name FROM seats ORDER BY session_id, position") == [(n,) for n in PLAYERS * 2]
        service = SessionService(store)  # repairs the missing results, and their summary
        listed = service.history.all()
        assert [(s.session_id, s.status, s.entries, s.players) for s in listed] == [
            (2, "in_progress", len(going["actions"]), tuple(PLAYERS)),
            (1, "finished", len(record["actions"]), tuple(PLAYERS))]
        assert listed[1].winners == ("Anne",) and listed[1].duration_s == 1800.0
        assert service.history.page(player="Bruno", status="finished").total == 1
    finally:
        store.close()


def test_an_0003_database_keeps_its_results_and_gets_summaries(tmp_path):
    from tests.support.store import write_0002_data

    path = tmp_path / "old.db"
    old = Store(path, upgrade=False)
    old.upgrade("0003")
    old.close()
    write_0002_data(path)
    store = Store(path)
    try:
        service = SessionService(store)
        listed = {s.session_id: s for s in service.history.all()}
        assert listed[1].status == "finished" and listed[1].winners == ("Anne",)
        assert listed[2].status == "in_progress" and listed[2].game == "boursicocotte" and listed[2].entries == 4
        assert [g.games for g in service.history.game_stats()] == [1]
    finally:
        store.close()


# -- pages and filters --------------------------------------------------------------------------


@pytest.fixture
def club(service, clock):
    """Seven games over three weeks: ids in start order."""
    ids = []
    games = [hs_designed(PLAYERS, "Anne"), hs_designed(PLAYERS, "Bruno"), sv_game(["Anne", "Dario"], 3),
             hs_long(["Chloé", "Dario", "Éloi"], final=False), hs_designed(["Anne", "Bruno", "Éloi"], "Éloi"),
             sv_game(["Bruno", "Chloé"], 2), hs_long(PLAYERS, final=False)]
    for day, record in enumerate(games):
        clock.now = T0 + timedelta(days=3 * day)
        ids.append(play(service, record).session_id)
    return ids


def test_pages_are_newest_first_and_cover_every_game_once(service, club):
    seen = []
    page = service.history.page(limit=3)
    assert page.total == 7 and page.has_more
    while True:
        seen += [s.session_id for s in page.items]
        if not page.has_more:
            break
        page = service.history.page(offset=page.offset + len(page.items), limit=3)
    assert seen == list(reversed(club))
    assert not service.history.page(offset=7, limit=3).items


def test_each_filter(service, club):
    def ids(**kw):
        return [s.session_id for s in service.history.page(limit=100, **kw).items]

    assert ids(game="stupide-vautour") == [club[5], club[2]]
    assert ids(player="Dario") == [club[3], club[2]]
    assert ids(player="Personne") == []
    assert ids(status="in_progress") == [club[6], club[3]]
    assert ids(status="finished") == [club[5], club[4], club[2], club[1], club[0]]
    assert ids(since=T0 + timedelta(days=6), until=T0 + timedelta(days=12)) == [club[3], club[2]]
    assert ids(search="eloi") == [club[4], club[3]]  # case and accents ignored
    assert ids(search="ÉL") == [club[4], club[3]]
    assert ids(search="zz") == []
    assert ids(search="o", game="high-society", status="finished") == [club[4], club[1], club[0]]
    assert ids(player="Anne", since=T0 + timedelta(days=1)) == [club[6], club[4], club[2], club[1]]
    # totals counted either from the players' seats or from the date range, whichever is smaller
    assert service.history.page(player="Anne", since=T0 + timedelta(days=1), limit=1).total == 4
    assert service.history.page(search="o", since=T0 + timedelta(days=4), until=T0 + timedelta(days=10),
                                limit=1).total == 2
    assert service.history.page(player="Dario", since=T0 - timedelta(days=100), limit=1).total == 2
    page = service.history.page(player="Bruno", limit=2)
    assert page.total == 5 and [s.session_id for s in page.items] == [club[6], club[5]]
    with pytest.raises(ServiceError):
        service.history.page(status="lost")


def test_statistics_over_a_period(service, club):
    everything = {p.name: p for p in service.history.player_stats()}
    anne = everything["Anne"]
    won = [s for s in service.history.all(player="Anne", status="finished") if "Anne" in s.winners]
    assert (anne.games, anne.wins) == (4, len(won)) and anne.win_rate == len(won) / 4
    assert sum(count for _, count in anne.places) == anne.games
    assert anne.best_score is not None and anne.average_score is not None
    assert everything["Éloi"].games == 1
    early = {p.name: p for p in service.history.player_stats(until=T0 + timedelta(days=4))}
    assert early["Anne"].games == 2 and early["Dario"].games == 0
    games = {g.game: g for g in service.history.game_stats()}
    assert games["high-society"].games == 3 and games["stupide-vautour"].games == 2
    hs = games["high-society"]
    assert hs.top_wins >= 1 and hs.top_winners and hs.average_entries > 0
    assert hs.average_spread is not None and hs.average_spread >= 0
    late = {g.game: g for g in service.history.game_stats(since=T0 + timedelta(days=13))}
    assert set(late) == {"stupide-vautour"} and late["stupide-vautour"].games == 1
    months = service.history.scores_over_time(anne.id)
    assert sum(m.games for m in months) == 4 and months[0].month == "2026-03"
    h2h = service.history.head_to_head("Anne", "Bruno", since=T0 + timedelta(days=10))
    assert h2h.games == 1


# -- profiles -----------------------------------------------------------------------------------


def test_renaming_keeps_past_games_replaying_and_lists_the_new_name(service, club):
    anne = next(p for p in service.players() if p.name == "Anne")
    service.profiles.rename(anne.id, "  Annie ")
    assert "Annie" in [p.name for p in service.players()] and "Anne" not in [p.name for p in service.players()]
    fresh = SessionService(service.store)  # replays from the rows, no cache
    past = fresh.open(club[0])
    assert past.players == tuple(PLAYERS) and past.outcome is not None  # the record keeps its names
    assert fresh.transfer.export(club[0])[0]["players"] == PLAYERS
    assert service.history.summary(club[0]).players == ("Annie", "Bruno", "Chloé")
    assert [s.session_id for s in service.history.page(player="Annie", limit=50).items] == [
        club[6], club[4], club[2], club[1], club[0]]
    assert {p.name: p.games for p in service.history.player_stats()}["Annie"] == 4
    # the game in progress goes on with the record's names
    fresh.undo(club[6])
    with pytest.raises(ServiceError) as taken:
        service.profiles.rename(anne.id, "bruno")
    assert taken.value.msg == Msg("service.player.duplicate", {"name": "Bruno"})
    with pytest.raises(ServiceError):
        service.profiles.rename(anne.id, "A\x07nne")
    with pytest.raises(ServiceError):
        service.profiles.rename(anne.id, "   ")


def test_merging_two_profiles_joins_their_games_and_results(service, store):
    first = play(service, hs_designed(["Anne", "Bruno", "Chloé"], "Anne")).session_id
    second = play(service, hs_designed(["Ane", "Bruno", "Chloé"], "Ane")).session_id
    together = play(service, hs_designed(["Anne", "Ane", "Chloé"], "Anne")).session_id
    ids = {p.name: p.id for p in service.players()}
    with pytest.raises(ServiceError) as refused:
        service.profiles.merge(ids["Ane"], ids["Anne"])
    assert refused.value.msg.key == "service.players.merge_together"
    service.delete(together)
    merged = service.profiles.merge(ids["Ane"], ids["Anne"])
    assert merged.name == "Anne" and "Ane" not in [p.name for p in service.players()]
    anne = {p.name: p for p in service.history.player_stats()}["Anne"]
    assert (anne.games, anne.wins) == (2, 2)
    assert [s.session_id for s in service.history.page(player="Anne").items] == [second, first]
    assert SessionService(store).open(second).players == ("Ane", "Bruno", "Chloé")  # its record, as played
    assert service.open(second).outcome is not None
    with pytest.raises(ServiceError):
        service.profiles.merge(ids["Anne"], ids["Anne"])


def test_removing_a_profile_only_without_games(service):
    play(service, hs_designed(PLAYERS, "Anne"))
    zoe = service.add_player("Zoé")
    anne = next(p for p in service.players() if p.name == "Anne")
    with pytest.raises(ServiceError) as refused:
        service.profiles.remove(anne.id)
    assert refused.value.msg.key == "service.players.has_games"
    service.profiles.remove(zoe.id)
    assert "Zoé" not in [p.name for p in service.players()]
    with pytest.raises(ServiceError):
        service.profiles.remove(zoe.id)


# -- monthly figures agree with the games themselves --------------------------------------------


def brute_force(service: SessionService, since=None, until=None) -> dict:
    """Per player: (games, wins, score sum, best, place sum) straight from the listed games."""
    out: dict = {}
    for game in service.history.all(since=since, until=until, status="finished"):
        for seat in game.seats:
            games, wins, total, best, places = out.get(seat.name, (0, 0, 0.0, None, 0))
            out[seat.name] = (games + 1, wins + seat.winner, total + seat.score,
                              seat.score if best is None else max(best, seat.score), places + seat.place)
    return out


def figures(service: SessionService, since=None, until=None) -> dict:
    return {p.name: (p.games, p.wins, round(p.average_score * p.games, 6), p.best_score,
                     round(p.average_place * p.games))
            for p in service.history.player_stats(since, until) if p.games}


def test_statistics_for_any_period_add_up_as_the_games_do(service, clock, store):
    """Games every 9 days over four months: periods that cut months in the middle, hold whole
    months, or none, give what the games themselves give; and still after an undo, a delete
    and a merge."""
    records = [hs_designed(PLAYERS, "Anne"), sv_game(["Anne", "Dario"], 3), hs_long(["Chloé", "Dario", "Éloi"]),
               hs_designed(["Anne", "Bruno", "Éloi"], "Éloi"), sv_game(["Bruno", "Chloé", "Anne"], 2)]
    ids = []
    for k in range(14):
        clock.now = T0 + timedelta(days=9 * k, hours=k)
        ids.append(play(service, records[k % len(records)]).session_id)

    def check() -> None:
        periods = [(None, None), (T0 + timedelta(days=5), None), (None, T0 + timedelta(days=70)),
                   (T0 + timedelta(days=12), T0 + timedelta(days=80)),
                   (T0 + timedelta(days=31), T0 + timedelta(days=40)),
                   (datetime(2026, 4, 1, tzinfo=timezone.utc), datetime(2026, 6, 1, tzinfo=timezone.utc))]
        for since, until in periods:
            expected = {n: (g, w, round(t, 6), b, p)
                        for n, (g, w, t, b, p) in brute_force(service, since, until).items()}
            assert figures(service, since, until) == expected, (since, until)
            games = {g.game: g.games for g in service.history.game_stats(since, until)}
            listed = service.history.all(since=since, until=until, status="finished")
            assert games == {game: sum(1 for s in listed if s.game == game) for game in {s.game for s in listed}}

    check()
    service.undo(ids[3])
    check()
    service.delete(ids[5])
    check()
    dario = next(p for p in service.players() if p.name == "Dario")
    bruno = next(p for p in service.players() if p.name == "Bruno")
    service.profiles.merge(dario.id, bruno.id)  # they never sat together in these games
    check()
    months = service.history.scores_over_time(bruno.id)
    assert sum(m.games for m in months) == figures(service)["Bruno"][0]


def test_downgrading_0004_keeps_every_game(tmp_path):
    """Dropping the summaries and the new columns leaves every row of the 0003 tables as it was."""
    from alembic import command

    from companion.store import alembic_config
    from tests.support.store import old_database_with_games, rows_by_table

    path, tables, before = old_database_with_games(tmp_path, "0003")
    store = Store(path)
    try:
        assert store.revision() == "0007"
        with store.engine.connect() as conn:
            command.downgrade(alembic_config(conn), "0003")
            conn.commit()
        assert store.revision() == "0003"
        con = sqlite3.connect(path)
        assert rows_by_table(con, tables) == before
        assert "game_summaries" not in {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        con.close()
    finally:
        store.close()


def test_a_correction_days_later_keeps_the_games_times(service, store, clock):
    """Correcting an entry of a finished game the next day fixes what was entered, not when the
    game was played: the entries written again keep their times, the game its finish time, and its
    duration and last play stay those of the evening it was played."""
    record = hs_long(PLAYERS)
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    for action in record["actions"]:
        state = service.submit(sid, action)
    assert state.outcome is not None
    before = summary_row(store, sid)
    clock.now += timedelta(days=1)
    corrected = None
    for index, entry in enumerate(state.log):  # a different legal entry that keeps the game finished
        if entry.action["type"] != "bid":
            continue
        for value in (2, 3, 4, 6, 8, 10, 12, 15, 20, 25):
            fixed = {**entry.action, "add": [value]}
            try:
                preview = service.preview_correction(sid, index, fixed)
            except ServiceError:
                continue
            if preview.outcome is not None:
                corrected = service.correct(sid, index, fixed)
                break
        if corrected is not None:
            break
    assert corrected is not None and corrected.outcome is not None
    after = summary_row(store, sid)
    for column in ("finished_at", "last_played_at", "duration_s", "started_at", "actions"):
        assert after[column] == before[column], column
    assert after["updated_at"] != before["updated_at"]  # the correction itself is a change
