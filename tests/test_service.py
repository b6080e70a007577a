"""SessionService: entries saved before they are accepted, refusals that write nothing, undo and
correction by retraction, resume from the database, lists and statistics."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from companion.service import (
    CorrectionConflict,
    GameChanged,
    Malformed,
    Refused,
    ServiceError,
    SessionService,
    SessionState,
    StaleState,
)
from companion.store import Store
from models.i18n import render
from models.record import parse_record_data
from scoring import registry
from scoring.referee import verdict_of
from tests.support.clock import Clock
from tests.support.games import hs_designed, hs_designed_result, hs_long, hs_nobody_wins, sv_game
from tests.support.service import play, rows

PLAYERS = ["Anne", "Bruno", "Chloé"]


@pytest.fixture
def db_path(database):
    """A SQLite file, then a PostgreSQL database (tests/conftest.py): every test runs on both."""
    return database


@pytest.fixture
def store(db_path):
    s = Store(db_path)
    yield s
    s.close()


@pytest.fixture
def service(store):
    return SessionService(store)


def assert_same_state(a: SessionState, b: SessionState):
    assert a.record == b.record
    assert a.log == b.log
    assert a.expected == b.expected
    assert a.outcome == b.outcome
    assert a.status == b.status


# --- entries ----------------------------------------------------------------------------------


def test_submitted_entries_are_in_the_database_and_a_new_service_resumes_them(db_path, service):
    record = hs_long(PLAYERS, final=False)
    state = play(service, record, assist=True)
    assert state.status == "in_progress" and state.outcome is None
    assert [e.action for e in state.log] == record["actions"]
    assert [e.index for e in state.log] == list(range(len(record["actions"])))
    # what a crash leaves: only the file. A new store and service rebuild the same state from it.
    other = Store(db_path)
    try:
        resumed = SessionService(other).open(state.session_id)
    finally:
        other.close()
    assert_same_state(resumed, state)
    assert resumed.assist is True and resumed.players == tuple(PLAYERS)
    assert (resumed.started_at, resumed.updated_at, resumed.version) == (state.started_at, state.updated_at,
                                                                          state.version)
    reference = verdict_of(parse_record_data(record))
    assert reference.status == "in_progress" and reference.applied == len(state.log)


def test_state_is_a_snapshot_later_entries_do_not_change_it(service):
    state = service.start("high-society", PLAYERS)
    first = service.submit(state.session_id, {"type": "reveal", "card": "p3"})
    assert first.engine.applied == 1  # read at once: the engine of the state just returned
    first_expected = first.expected
    second = service.submit(state.session_id, {"type": "bid", "player": "Anne", "add": [2]})
    # what a state holds stays as it was: log, record, what was expected, its version
    assert len(first.log) == 1 and len(first.record.actions) == 1
    assert [e.action["type"] for e in first.log] == ["reveal"]
    assert first.expected == first_expected != second.expected
    assert first.version < second.version
    assert len(second.log) == 2 and second.engine.applied == 2
    # the engine is shared, not copied: a kept state refuses to show an engine that moved on
    with pytest.raises(StaleState):
        _ = first.engine


def test_an_entry_is_applied_to_the_cached_engine_in_place(service):
    state = service.start("high-society", PLAYERS)
    engine = service.submit(state.session_id, {"type": "reveal", "card": "p3"}).engine
    after = service.submit(state.session_id, {"type": "bid", "player": "Anne", "add": [2]})
    assert after.engine is engine and engine.applied == 2  # no copy of the engine per entry


class Defect(Exception):
    pass


def test_an_apply_that_crashes_halfway_writes_nothing_and_drops_the_cache(store, service, monkeypatch):
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    engine = service.submit(sid, {"type": "reveal", "card": "p3"}).engine
    before = store.table_counts()

    original = type(engine).apply

    def broken_apply(self, action):  # the engine breaks halfway through an entry (a defect)
        if self is not engine:
            return original(self, action)
        engine.damaged_by_this_test = True
        raise Defect()

    monkeypatch.setattr(type(engine), "apply", broken_apply)
    with pytest.raises(Defect):
        service.submit(sid, {"type": "bid", "player": "Anne", "add": [2]})
    assert store.table_counts() == before  # the transaction rolled back
    monkeypatch.undo()
    again = service.open(sid)  # replayed from the database, not the broken engine
    assert again.engine is not engine and not hasattr(again.engine, "damaged_by_this_test")
    assert [e.action["type"] for e in again.log] == ["reveal"]
    assert [e.action["type"] for e in service.submit(sid, {"type": "bid", "player": "Anne", "add": [2]}).log] == [
        "reveal", "bid"]


def test_an_entry_is_checked_once_and_a_refusal_writes_nothing_and_keeps_the_cache(store, service, monkeypatch):
    """The engine checks an entry once, in its apply (all or nothing: a refusal changes nothing, as
    tests/all_or_nothing.py proves for every game), inside the write transaction: a refused entry
    rolls it back and the cached engine, untouched, stays."""
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    engine = service.submit(sid, {"type": "reveal", "card": "p3"}).engine
    before = store.table_counts()
    checks: list[Any] = []
    original = type(engine)._check

    def counted(self, action):
        checks.append(action)
        return original(self, action)

    monkeypatch.setattr(type(engine), "_check", counted)
    with pytest.raises(Refused) as refused:
        service.submit(sid, {"type": "bid", "player": "Bruno", "add": [2]})  # Anne's turn
    assert refused.value.rule == "HS-TURN" and len(checks) == 1
    assert store.table_counts() == before
    checks.clear()
    after = service.submit(sid, {"type": "bid", "player": "Anne", "add": [2]})
    assert len(checks) == 1 and after.engine is engine  # checked once; the same engine, kept
    assert [e.action["type"] for e in after.log] == ["reveal", "bid"]


@pytest.mark.parametrize("driver", [False, True], ids=["sqlalchemy", "driver-cursor"])
def test_a_commit_that_fails_after_the_apply_drops_the_cache(store, service, monkeypatch, driver):
    import sqlite3

    from sqlalchemy.exc import OperationalError

    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    engine = service.submit(sid, {"type": "reveal", "card": "p3"}).engine

    def failing_write(db, session_id, *args):
        # the hot path's statements run on the driver's cursor: sqlite3's own errors
        if driver:
            raise sqlite3.OperationalError("disk I/O error")
        raise OperationalError("UPDATE sessions", {}, Exception("disk I/O error"))

    # the write after the apply: the status and summary of a plain entry
    monkeypatch.setattr(store, "entries_added", failing_write)
    with pytest.raises(ServiceError) as caught:
        service.submit(sid, {"type": "bid", "player": "Anne", "add": [2]})
    assert caught.value.msg.key == "service.storage.failed"
    monkeypatch.undo()
    again = service.open(sid)
    assert again.engine is not engine and [e.action["type"] for e in again.log] == ["reveal"]


def test_a_state_made_before_an_undo_keeps_its_own_log(service):
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    service.submit(sid, {"type": "reveal", "card": "p3"})
    two = service.submit(sid, {"type": "bid", "player": "Anne", "add": [2]})
    service.undo(sid)
    three = service.submit(sid, {"type": "bid", "player": "Anne", "add": [3]})
    assert [e.action.get("add") for e in two.log] == [None, [2]]
    assert [e.action.get("add") for e in three.log] == [None, [3]]
    assert two.log[-1].action["add"] == [2] and two.log[-2:] == tuple(two.log)
    assert two.version != three.version and len(two.log) == len(three.log)
    assert two.engine.applied == 2  # an undo puts a new engine in place; this one stays as it was
    assert two.record.actions[-1].add == [2]


def test_refused_entry_raises_with_rule_and_index_and_writes_nothing(store, service):
    state = service.start("high-society", PLAYERS, first_player="Bruno")
    state = service.submit(state.session_id, {"type": "reveal", "card": "p5"})
    before = store.table_counts()
    updated = state.updated_at
    # Anne bids out of turn: Bruno, who revealed, bids first.
    with pytest.raises(Refused) as caught:
        service.submit(state.session_id, {"type": "bid", "player": "Anne", "add": [3]})
    assert caught.value.index == 1
    assert caught.value.rule
    assert render(caught.value.msg, "fr") and render(caught.value.msg, "en")
    # a card that was already revealed cannot be revealed again, later either
    service.submit(state.session_id, {"type": "pass", "player": "Bruno"})
    with pytest.raises(Refused):
        service.submit(state.session_id, {"type": "reveal", "card": "p5"})
    after = service.open(state.session_id)
    assert len(after.log) == 2
    counts = store.table_counts()
    assert counts["actions"] == before["actions"] + 1
    assert after.updated_at > updated


@pytest.mark.parametrize("action", [
    {"type": "bid", "player": "Zoé", "add": [1]},          # not a player
    {"type": "bid", "player": "Anne", "add": [5]},         # 5 is not a money card
    {"type": "bid", "player": "Anne"},                     # missing field
    {"type": "shout", "player": "Anne"},                   # unknown type
    {"type": "reveal", "card": "p7", "extra": 1},          # unknown field
    "reveal p7",                                           # not an object
])
def test_malformed_action_is_refused_with_a_sentence_and_writes_nothing(store, service, action):
    state = service.start("high-society", PLAYERS)
    before = store.table_counts()
    with pytest.raises(Malformed) as caught:
        service.submit(state.session_id, action)
    assert caught.value.msg.key == "service.action.malformed"
    assert caught.value.msg.params["detail"]
    assert "{" not in render(caught.value.msg, "fr").split(":")[0]
    assert store.table_counts() == before


def test_a_finished_game_refuses_further_entries(service):
    state = play(service, hs_designed(PLAYERS, "Anne"))
    assert state.status == "finished"
    with pytest.raises(Refused):
        service.submit(state.session_id, {"type": "reveal", "card": "p2"})


# --- starting ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game, players, first, variant", [
    ("chess", PLAYERS, None, None),
    ("high-society", ["Anne", "Bruno"], None, None),                 # 3 to 5 players
    ("high-society", ["Anne", "Anne", "Bruno"], None, None),          # twice the same
    ("high-society", ["Anne", "  ", "Bruno"], None, None),            # blank name
    ("high-society", PLAYERS, "Zoé", None),                           # not seated
    ("high-society", PLAYERS, None, {"final_tie": "coin"}),          # unknown value
    ("stupide-vautour", PLAYERS, None, {"speed": "fast"}),            # unknown key
])
def test_start_refuses_a_bad_setup_with_a_reason_and_writes_nothing(store, service, game, players, first, variant):
    before = store.table_counts()
    with pytest.raises(Malformed) as caught:
        service.start(game, players, first_player=first, variant=variant)
    assert caught.value.msg.key == "service.setup.malformed"
    assert render(caught.value.msg, "en").startswith("This game cannot be set up")
    assert store.table_counts() == before


def test_start_refuses_a_game_without_referee(store, service, monkeypatch):
    monkeypatch.delitem(registry._ENGINES, "animalia")  # every game has one now: take one out
    with pytest.raises(ServiceError) as caught:
        service.start("animalia", PLAYERS)
    assert caught.value.msg.key == "service.no_referee"
    assert store.table_counts()["sessions"] == 0


def test_start_creates_missing_profiles_and_reuses_existing_ones(service):
    service.add_player("Anne")
    state = service.start("stupide-vautour", ["Anne", " Dario "], variant={"ties": "highest-unique"})
    assert state.players == ("Anne", "Dario")
    assert state.variant == {"ties": "highest-unique"}
    assert state.first_player == "Anne"
    assert [p.name for p in service.players()] == ["Anne", "Dario"]
    reopened = service.open(state.session_id)
    assert reopened.variant == {"ties": "highest-unique"}
    assert reopened.record.variant.ties == "highest-unique"


DEAL = {"Anne": ["cow", "cow", "hen", "dog"], "Bruno": ["cow", "pig", "hen", "cat"],
        "Chloé": ["goat", "goat", "goat", "donkey"]}


def test_start_keeps_the_short_version_deal_in_the_database(db_path, store, service):
    state = service.start("boursicocotte", PLAYERS, setup={"start_animals": DEAL})
    assert state.record.start_animals == DEAL
    view = state.engine.player_view()
    assert view["animals"]["Chloé"] == {"goat": 3, "donkey": 1}
    assert view["donkeys_drawn"] == 1  # the dealt donkey paid out
    assert rows(store, "SELECT setup FROM sessions") == [(json.dumps({"start_animals": DEAL}, ensure_ascii=False,
                                                                       separators=(",", ":")),)]
    other = SessionService(Store(db_path))  # another process: nothing from the cache
    reopened = other.open(state.session_id)
    assert reopened.record == state.record
    assert reopened.engine.player_view()["animals"] == view["animals"]
    # Anne and Bruno both own a cow only because of the deal
    other.submit(state.session_id, {"type": "challenge", "player": "Anne", "target": "Bruno", "animal": "cow",
                                    "cards": [10]})
    (record,) = other.transfer.export(state.session_id)
    assert record["start_animals"] == DEAL
    assert list(record) == ["format", "game", "players", "first_player", "start_animals", "actions"]
    other.store.close()


def test_a_game_without_set_up_fields_stores_none(store, service):
    service.start("boursicocotte", PLAYERS)
    service.start("high-society", PLAYERS, setup={})
    assert rows(store, "SELECT setup FROM sessions") == [(None,), (None,)]
    assert all("start_animals" not in r for r in service.transfer.export())


@pytest.mark.parametrize("game, setup, key, words", [
    ("boursicocotte", {"start_animals": {**DEAL, "Bruno": ["cow", "cow", "cow", "cat"]}}, "service.setup.malformed",
     "more than the 4 cards of cow"),                                  # five cows dealt
    ("boursicocotte", {"start_animals": {**DEAL, "Anne": ["cow", "hen", "dog"]}}, "service.setup.malformed",
     "4 animals each, not 3"),
    ("boursicocotte", {"start_animals": {"Anne": DEAL["Anne"], "Bruno": DEAL["Bruno"]}},
     "service.setup.malformed", "no animals listed for"),
    ("boursicocotte", {"start_animals": {**DEAL, "Zoé": ["hen"] * 4}}, "service.setup.malformed",
     "not one of the players"),
    ("boursicocotte", {"start_animals": {**DEAL, "Anne": ["cow", "cow", "hen", "unicorn"]}},
     "service.setup.malformed", "unicorn"),
    ("high-society", {"start_animals": DEAL}, "service.setup.malformed", "unknown field"),
    ("boursicocotte", {"players": ["Anne", "Bruno", "Chloé", "Dario"]}, "service.setup.reserved", "players"),
    ("boursicocotte", ["start_animals"], "service.setup.not_fields", "short version"),
])
def test_start_refuses_a_bad_deal_with_a_reason_and_writes_nothing(store, service, game, setup, key, words):
    before = store.table_counts()
    with pytest.raises(Malformed) as caught:
        service.start(game, PLAYERS, setup=setup)
    assert caught.value.msg.key == key
    assert words in render(caught.value.msg, "en")
    render(caught.value.msg, "fr")
    assert store.table_counts() == before


def test_add_player_refuses_blank_and_duplicate_names(service):
    profile = service.add_player("  Anne ")
    assert profile.name == "Anne" and profile.created_at.tzinfo is not None
    with pytest.raises(ServiceError) as blank:
        service.add_player("   ")
    assert blank.value.msg.key == "service.player.blank"
    with pytest.raises(ServiceError) as twice:
        service.add_player("Anne")
    assert twice.value.msg.key == "service.player.duplicate"
    assert "Anne" in render(twice.value.msg, "fr")
    assert [p.name for p in service.players()] == ["Anne"]


def test_unknown_session(service):
    for call in (lambda: service.open(99), lambda: service.submit(99, {"type": "reveal", "card": "p1"}),
                 lambda: service.undo(99), lambda: service.delete(99), lambda: service.transfer.export(99)):
        with pytest.raises(ServiceError) as caught:
            call()
        assert caught.value.msg.key == "service.session.unknown"


# --- undo -------------------------------------------------------------------------------------


def test_undo_retracts_the_last_entry_and_keeps_the_row(store, service):
    record = hs_long(PLAYERS, final=False)
    state = play(service, record)
    undone = service.undo(state.session_id)
    assert [e.action for e in undone.log] == record["actions"][:-1]
    shorter = dict(record, actions=record["actions"][:-1])
    assert undone.record.actions == parse_record_data(shorter).actions
    assert undone.record.starting_player == "Anne"
    history = service.history.entries(state.session_id)
    assert len(history) == len(record["actions"])
    assert history[-1]["retracted_at"] is not None
    assert all(h["retracted_at"] is None for h in history[:-1])
    # the undone entry can be entered again; it gets a new row
    again = service.submit(state.session_id, record["actions"][-1])
    assert_same_state(again, state)
    assert store.table_counts()["actions"] == len(record["actions"]) + 1
    # the fresh replay agrees with the cached one
    assert_same_state(SessionService(store).open(state.session_id), again)


def test_undo_with_nothing_to_undo(service):
    state = service.start("high-society", PLAYERS)
    with pytest.raises(ServiceError) as caught:
        service.undo(state.session_id)
    assert caught.value.msg.key == "service.undo.nothing"


def test_undo_reopens_a_finished_game_and_removes_its_results(store, service):
    record = hs_designed(PLAYERS, "Anne")
    state = play(service, record)
    sid = state.session_id
    assert state.status == "finished"
    assert rows(store, "SELECT status, finished_at IS NOT NULL FROM sessions WHERE id=:i", i=sid) == [("finished", 1)]
    assert len(rows(store, "SELECT * FROM results WHERE session_id=:i", i=sid)) == 3
    reopened = service.undo(sid)
    assert reopened.status == "in_progress" and reopened.outcome is None
    assert rows(store, "SELECT status, finished_at FROM sessions WHERE id=:i", i=sid) == [("in_progress", None)]
    assert rows(store, "SELECT * FROM results WHERE session_id=:i", i=sid) == []
    assert [s.session_id for s in service.history.unfinished()] == [sid]
    finished = service.submit(sid, record["actions"][-1])
    assert finished.status == "finished"
    assert len(rows(store, "SELECT * FROM results WHERE session_id=:i", i=sid)) == 3


# --- correction -------------------------------------------------------------------------------


def _bid_round(first="Anne"):
    # Anne reveals and bids 2, Bruno 3, Chloé passes, Anne passes: Bruno buys the 7 for 3.
    return [
        {"type": "reveal", "card": "p7"},
        {"type": "bid", "player": "Anne", "add": [2]},
        {"type": "bid", "player": "Bruno", "add": [3]},
        {"type": "pass", "player": "Chloé"},
        {"type": "pass", "player": "Anne"},
        {"type": "reveal", "card": "p2"},
    ]


def test_correction_replaces_an_entry_keeps_the_later_ones_and_the_old_rows(store, service):
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    for action in _bid_round():
        state = service.submit(sid, action)
    corrected = {"type": "bid", "player": "Bruno", "add": [4]}  # Bruno bid 4, not 3
    preview = service.preview_correction(sid, 2, corrected)
    assert preview.log[2].action == corrected
    assert len(preview.log) == len(state.log)
    assert store.table_counts()["actions"] == 6  # a preview saves nothing
    assert service.open(sid).log[2].action == {"type": "bid", "player": "Bruno", "add": [3]}
    saved = service.correct(sid, 2, corrected)
    assert_same_state(saved, preview)
    assert [e.action for e in saved.log] == _bid_round()[:2] + [corrected] + _bid_round()[3:]
    history = service.history.entries(sid)
    assert len(history) == 6 + 4  # entries 2..5 retracted and appended again
    assert [h["seq"] for h in history] == list(range(1, 11))
    assert [h["retracted_at"] is not None for h in history] == [False, False] + [True] * 4 + [False] * 4
    assert_same_state(SessionService(store).open(sid), saved)


def test_correction_that_makes_a_later_entry_illegal_saves_nothing(store, service):
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    for action in _bid_round():
        state = service.submit(sid, action)
    before = store.table_counts()
    exported = service.transfer.export(sid)
    # If Bruno had passed instead of bidding, Chloé's pass ends the round (only Anne is left):
    # Anne's pass at entry 4 is then out of turn.
    with pytest.raises(CorrectionConflict) as caught:
        service.correct(sid, 2, {"type": "pass", "player": "Bruno"})
    assert caught.value.index == 4
    assert caught.value.rule
    assert caught.value.msg.key == "service.correction.conflict"
    assert caught.value.msg.params["entry"] == 5
    assert render(caught.value.msg, "fr") and render(caught.value.msg, "en")
    with pytest.raises(CorrectionConflict):
        service.preview_correction(sid, 2, {"type": "pass", "player": "Bruno"})
    assert store.table_counts() == before
    assert service.transfer.export(sid) == exported
    assert_same_state(service.open(sid), state)
    assert_same_state(SessionService(store).open(sid), state)


def test_correction_that_is_itself_illegal_or_malformed_or_out_of_range(store, service):
    state = service.start("high-society", PLAYERS)
    sid = state.session_id
    for action in _bid_round():
        service.submit(sid, action)
    before = store.table_counts()
    with pytest.raises(Refused) as refused:  # Bruno cannot bid 2: Anne's 2 must be beaten
        service.correct(sid, 2, {"type": "bid", "player": "Bruno", "add": [2]})
    assert refused.value.index == 2
    with pytest.raises(Malformed):
        service.correct(sid, 2, {"type": "bid", "player": "Bruno", "add": [7]})
    for index in (-1, 6, 40):
        with pytest.raises(ServiceError) as caught:
            service.correct(sid, index, {"type": "pass", "player": "Bruno"})
        assert caught.value.msg.key == "service.correction.no_entry"
    assert store.table_counts() == before


def test_correction_can_finish_or_reopen_a_game(store, service):
    record = hs_designed(PLAYERS, "Anne")
    state = play(service, record)
    sid = state.session_id
    # the last reveal was not the scandal but a possession: the game goes on
    reopened = service.correct(sid, len(record["actions"]) - 1, {"type": "reveal", "card": "p4"})
    assert reopened.status == "in_progress"
    assert rows(store, "SELECT COUNT(*) FROM results WHERE session_id=:i", i=sid) == [(0,)]
    assert rows(store, "SELECT status FROM sessions WHERE id=:i", i=sid) == [("in_progress",)]
    finished = service.correct(sid, len(record["actions"]) - 1, {"type": "reveal", "card": "half"})
    assert finished.status == "finished"
    assert rows(store, "SELECT COUNT(*) FROM results WHERE session_id=:i", i=sid) == [(3,)]


# --- two services on one database (two app processes) ------------------------------------------


def test_a_stale_cache_is_noticed_and_nothing_is_tried_on_a_game_the_device_did_not_show(db_path, store, service):
    other_store = Store(db_path)
    other = SessionService(other_store)
    try:
        state = service.start("high-society", PLAYERS)
        sid = state.session_id
        shown = other.open(sid)  # the other device shows the game with no entry yet
        service.submit(sid, {"type": "reveal", "card": "p9"})
        # its entry was made on the empty game, not on the saved one: the clear refusal, with the game now
        with pytest.raises(GameChanged) as caught:
            other.submit(sid, {"type": "reveal", "card": "p8"}, seen=shown.version)
        now = caught.value.state
        assert [e.action for e in now.log] == [{"type": "reveal", "card": "p9"}]
        assert caught.value.seen == shown.version != now.version
        # from the state it was handed, the device goes on
        seen = other.submit(sid, {"type": "bid", "player": "Anne", "add": [1]}, seen=now.version)
        assert [e.action["type"] for e in seen.log] == ["reveal", "bid"]
        # an undo made elsewhere is noticed too, also by a caller that gives no version
        service_shown = service.open(sid)
        other.undo(sid, seen=seen.version)
        with pytest.raises(GameChanged):
            service.submit(sid, {"type": "bid", "player": "Bruno", "add": [2]}, seen=service_shown.version)
        assert [e.action["type"] for e in service.open(sid).log] == ["reveal"]
        service.submit(sid, {"type": "bid", "player": "Anne", "add": [2]})
        with pytest.raises(GameChanged):
            other.submit(sid, {"type": "bid", "player": "Bruno", "add": [3]})  # other's cache is behind
        assert [e.action for e in other.open(sid).log][1:] == [{"type": "bid", "player": "Anne", "add": [2]}]
    finally:
        other_store.close()


# --- results, lists and statistics -------------------------------------------------------------


def test_results_rows_follow_the_outcome(store, service):
    record = hs_designed(PLAYERS, "Bruno")
    state = play(service, record)
    expected = hs_designed_result(PLAYERS, "Bruno")
    got = rows(store, "SELECT p.name, r.score, r.rank, r.winner, r.eliminated FROM results r "
                      "JOIN players p ON p.id = r.player_id WHERE r.session_id = :i", i=state.session_id)
    by_name = {name: (score, rank, winner, eliminated) for name, score, rank, winner, eliminated in got}
    assert {n: v[0] for n, v in by_name.items()} == expected["scores"]
    assert [n for n, v in by_name.items() if v[2]] == expected["winners"]
    assert [n for n, v in by_name.items() if v[3]] == expected["eliminated"]
    assert dict(state.outcome.ranking) == {n: v[1] for n, v in by_name.items()}
    assert all(isinstance(v[0], float) for v in by_name.values())


def test_unfinished_and_history_filters(service, store):
    clock = Clock(datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc))
    svc = SessionService(store, clock=clock)
    done = play(svc, hs_designed(PLAYERS, "Chloé"))
    clock.now = datetime(2026, 3, 8, 20, 0, tzinfo=timezone.utc)
    going = play(svc, hs_long(["Anne", "Dario", "Eve"], final=False))
    clock.now = datetime(2026, 3, 9, 20, 0, tzinfo=timezone.utc)
    vautour = play(svc, sv_game(["Anne", "Bruno"], shift=3))
    assert [s.session_id for s in svc.history.unfinished()] == [going.session_id]
    everything = svc.history.all()
    assert [s.session_id for s in everything] == [vautour.session_id, going.session_id, done.session_id]
    first = everything[-1]
    assert first.status == "finished" and first.winners == ("Chloé",)
    assert first.players == tuple(PLAYERS) and first.entries == 18
    assert first.started_at == datetime(2026, 3, 1, 20, 0, 1, tzinfo=timezone.utc)
    assert first.finished_at is not None and first.finished_at >= first.started_at
    assert [s.session_id for s in svc.history.all(game="stupide-vautour")] == [vautour.session_id]
    assert [s.session_id for s in svc.history.all(player="Dario")] == [going.session_id]
    assert [s.session_id for s in svc.history.all(player="Bruno")] == [vautour.session_id, done.session_id]
    week = svc.history.all(since=datetime(2026, 3, 2, tzinfo=timezone.utc), until=datetime(2026, 3, 9, tzinfo=timezone.utc))
    assert [s.session_id for s in week] == [going.session_id]
    # a naive bound is taken as UTC
    assert [s.session_id for s in svc.history.all(until=datetime(2026, 3, 2))] == [done.session_id]
    assert [s.session_id for s in svc.history.all(status="finished")] == [vautour.session_id, done.session_id]


def test_delete_removes_the_session_and_everything_that_hangs_on_it(store, service):
    kept = play(service, hs_designed(PLAYERS, "Anne"))
    gone = play(service, hs_designed(PLAYERS, "Bruno"))
    service.delete(gone.session_id)
    assert [s.session_id for s in service.history.all()] == [kept.session_id]
    for table in ("seats", "actions", "results"):
        assert rows(store, f"SELECT COUNT(*) FROM {table} WHERE session_id=:i", i=gone.session_id) == [(0,)]
    assert [p.name for p in service.players()] == sorted(PLAYERS)  # profiles stay
    with pytest.raises(ServiceError):
        service.open(gone.session_id)


def _finished_games(service):
    """Three designed High Society games (each player wins once), one game nobody wins, and
    two Stupide Vautour games; returns the verdicts computed independently of the store."""
    records = [hs_designed(PLAYERS, first) for first in PLAYERS]
    records.append(hs_nobody_wins(["Anne", "Bruno", "Chloé", "Dario"]))
    records.append(sv_game(["Anne", "Dario"], shift=4))
    records.append(sv_game(["Bruno", "Dario", "Anne"], shift=5))
    for record in records:
        assert play(service, record).status == "finished"
    play(service, hs_long(PLAYERS, final=False))  # unfinished: in no statistic
    return [(r, verdict_of(parse_record_data(r)).result) for r in records]


def test_player_stats(service):
    games = _finished_games(service)
    stats = {s.name: s for s in service.history.player_stats()}
    assert set(stats) == {"Anne", "Bruno", "Chloé", "Dario"}
    for name, s in stats.items():
        played = [(r, res) for r, res in games if name in r["players"]]
        won = [(r, res) for r, res in played if name in res.winners]
        assert (s.games, s.wins) == (len(played), len(won))
        assert s.win_rate == pytest.approx(len(won) / len(played))
        for g in s.by_game:
            mine = [(r, res) for r, res in played if r["game"] == g.game]
            assert g.games == len(mine)
            assert g.wins == sum(name in res.winners for _, res in mine)
            assert g.best_score == max(res.scores[name] for _, res in mine)
        assert sorted(g.game for g in s.by_game) == sorted({r["game"] for r, _ in played})
    # the designed games by hand: each of Anne, Bruno, Chloé wins one of the three with 10
    hs = {s.name: next(g for g in s.by_game if g.game == "high-society") for s in stats.values()}
    assert (hs["Anne"].games, hs["Anne"].wins, hs["Anne"].best_score) == (4, 1, 10)
    assert (hs["Dario"].games, hs["Dario"].wins, hs["Dario"].win_rate) == (1, 0, 0.0)


def test_player_stats_lists_profiles_without_games(service):
    service.add_player("Zoé")
    assert [(s.name, s.games, s.wins, s.win_rate, s.by_game) for s in service.history.player_stats()] == [("Zoé", 0, 0, 0.0, ())]


def test_game_stats(service):
    games = _finished_games(service)
    stats = {g.game: g for g in service.history.game_stats()}
    assert set(stats) == {"high-society", "stupide-vautour"}
    for game, g in stats.items():
        mine = [res for r, res in games if r["game"] == game]
        assert g.games == len(mine)
        winning = [max(res.scores[w] for w in res.winners) for res in mine if res.winners]
        assert g.average_winning_score == pytest.approx(sum(winning) / len(winning))
        best = max(max(res.scores.values()) for res in mine)
        assert g.best_score == best
        assert set(g.best_by) == {p for res in mine for p, s in res.scores.items() if s == best}
    hs = stats["high-society"]
    assert (hs.games, hs.average_winning_score, hs.best_score) == (4, 10.0, 10)
    assert hs.best_by == ("Anne", "Bruno", "Chloé")  # in the order they reached it


def test_head_to_head(service):
    games = _finished_games(service)
    h = service.history.head_to_head("Anne", "Dario")
    together = [(r, res) for r, res in games if {"Anne", "Dario"} <= set(r["players"])]
    assert h.games == len(together) == 3
    assert h.a_wins == sum("Anne" in res.winners for _, res in together)
    assert h.b_wins == sum("Dario" in res.winners for _, res in together)
    rank = lambda res, p: next(e.rank for e in res.ranking if e.player == p)  # noqa: E731
    assert h.a_ahead == sum(rank(res, "Anne") < rank(res, "Dario") for _, res in together)
    assert h.b_ahead == sum(rank(res, "Dario") < rank(res, "Anne") for _, res in together)
    assert h.a_ahead + h.b_ahead + h.level == h.games
    assert {g.game: g.games for g in h.by_game} == {"high-society": 1, "stupide-vautour": 2}
    reverse = service.history.head_to_head("Dario", "Anne")
    assert (reverse.a_wins, reverse.b_wins, reverse.a_ahead, reverse.b_ahead) == (h.b_wins, h.a_wins, h.b_ahead, h.a_ahead)
    ab = service.history.head_to_head("Anne", "Bruno")
    assert (ab.games, ab.a_wins, ab.b_wins) == (5, 1 + sum("Anne" in res.winners for r, res in games
                                                          if r["game"] == "stupide-vautour" and "Bruno" in r["players"]), 1)
    with pytest.raises(ServiceError):
        service.history.head_to_head("Anne", "Nobody")
    with pytest.raises(ServiceError):
        service.history.head_to_head("Anne", "Anne")


def test_statistics_follow_undo(service):
    state = play(service, hs_designed(PLAYERS, "Anne"))
    assert {s.name: s.wins for s in service.history.player_stats()}["Anne"] == 1
    service.undo(state.session_id)
    assert {s.name: s.games for s in service.history.player_stats()} == {"Anne": 0, "Bruno": 0, "Chloé": 0}
    assert service.history.game_stats() == []


def test_every_service_message_has_both_languages():
    from models.i18n import catalogue

    en = {k for k in catalogue("en") if k.startswith("service.")}
    fr = {k for k in catalogue("fr") if k.startswith("service.")}
    assert en == fr and len(en) > 10
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    files = [*sorted((root / "companion" / "service").glob("*.py")), root / "companion" / "cli.py"]
    source = "".join(path.read_text(encoding="utf-8") for path in files)

    used = set(re.findall(r'"(service\.[a-z_.]+)"', source))
    assert used and used <= en, used - en


def test_one_service_used_from_several_threads(service):
    import threading

    players = [["Anne", "Bruno", "Chloé"], ["Dario", "Eve", "Farid"], ["Anne", "Eve", "Gus"]]
    errors: list[BaseException] = []
    ids: list[int] = []

    def table(names):
        try:
            state = service.start("high-society", names)
            ids.append(state.session_id)
            for action in hs_long(names)["actions"]:
                service.submit(state.session_id, action)
                service.history.all()
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=table, args=(names,)) for names in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    fresh = SessionService(service.store)
    assert len(ids) == 3
    for sid in ids:
        assert fresh.open(sid).status == "finished"
    assert sorted(len(fresh.open(i).log) for i in ids) == [len(hs_long(n)["actions"]) for n in players]
