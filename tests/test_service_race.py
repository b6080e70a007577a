"""Two devices writing the same game: two services on one database file (two app
processes), or two tabs on one service. Every change carries what its device has seen; a change
made on a game that another device has changed since is refused with GameChanged (the clear
sentence, and the game as it is now), is never applied to a state its device did not show, and
nothing acknowledged is lost. Deterministic interleavings first (including a write slipped in
between a device's check and its write transaction), then a bounded threaded race, then the app."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import Session

from companion.app import probe
from companion.app.shell import App
from companion.service import (
    GameChanged,
    Refused,
    ServiceError,
    SessionService,
    SessionState,
)
from companion.store import Store, Tx
from models.i18n import Msg
from tests.support.games import hs_long

PLAYERS = ["Anne", "Bruno", "Chloé"]
SCRIPT = hs_long(PLAYERS)["actions"]


class Interleaved(Store):
    """A store whose next write transaction first lets another device write (``before_write``):
    the other device's entry lands after this device checked its entry and before it writes."""

    before_write: Callable[[], Any] | None = None

    @contextmanager
    def write(self) -> Iterator[Session]:
        hook, self.before_write = self.before_write, None
        if hook is not None:
            hook()
        with super().write() as db:
            yield db

    @contextmanager
    def write_direct(self) -> Iterator[Tx]:  # a tap's write transaction
        hook, self.before_write = self.before_write, None
        if hook is not None:
            hook()
        with super().write_direct() as db:
            yield db


@pytest.fixture
def db_path(database: Path | str) -> Path | str:
    """Two devices on one SQLite file, then on one PostgreSQL database (tests/conftest.py)."""
    return database


@pytest.fixture
def devices(db_path: Path) -> Iterator[tuple[SessionService, SessionService, Interleaved]]:
    """Two services on one file, as two app processes would be; the first one's store interleaves."""
    first, second = Interleaved(db_path), Store(db_path)
    try:
        yield SessionService(first), SessionService(second), first
    finally:
        first.close()
        second.close()


def rows(store: Store, session_id: int) -> list[tuple[int, str, bool]]:
    """Every row of the session's log: (seq, action text, retracted)."""
    with store.read() as db:
        return [(seq, action, retracted is not None) for seq, action, retracted in db.execute(text(
            "SELECT seq, action, retracted_at FROM actions WHERE session_id = :s ORDER BY seq"), {"s": session_id})]


def types(state: SessionState) -> list[str]:
    return [entry.action["type"] for entry in state.log]


def assert_clear(err: GameChanged, current: SessionState) -> None:
    """The refusal a device gets: the catalogue sentence, in both languages, and the game now."""
    assert err.msg == Msg("service.changed")
    assert err.msg.render("fr").startswith("La partie a changé sur un autre appareil")
    assert err.msg.render("en").startswith("The game changed on another device")
    assert err.state.version == current.version and err.state.log == current.log
    assert err.seen != err.state.version


# -- deterministic interleavings ---------------------------------------------------------------


def test_the_entry_that_lost_the_race_is_refused_clearly_and_not_tried_on_the_new_game(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    shown_a = a.submit(sid, SCRIPT[0])
    shown_b = b.open(sid)
    assert shown_a.version == shown_b.version
    won = b.submit(sid, SCRIPT[1], seen=shown_b.version)  # Anne bids on device B
    before = rows(a.store, sid)
    # device A still shows the revealed card with no bid: Anne's bid from A is not re-tried after B's
    with pytest.raises(GameChanged) as caught:
        a.submit(sid, {"type": "bid", "player": "Anne", "add": [2]}, seen=shown_a.version)
    assert_clear(caught.value, won)
    assert rows(a.store, sid) == before  # nothing written
    # with the state it was handed, device A goes on: nothing acknowledged is lost
    after = a.submit(sid, SCRIPT[2], seen=caught.value.state.version)
    assert [e.action for e in after.log] == SCRIPT[:3]
    assert [e.action for e in b.open(sid).log] == SCRIPT[:3]


def test_an_entry_from_another_tab_of_the_same_process_is_refused_clearly(db_path):
    store = Store(db_path)
    try:
        service = SessionService(store)
        sid = service.start("high-society", PLAYERS).session_id
        tab_a = tab_b = service.submit(sid, SCRIPT[0])
        won = service.submit(sid, SCRIPT[1], seen=tab_a.version)
        with pytest.raises(GameChanged) as caught:
            service.submit(sid, SCRIPT[1], seen=tab_b.version)  # the same bid, entered twice
        assert_clear(caught.value, won)
        with pytest.raises(GameChanged):
            service.undo(sid, seen=tab_b.version)
        with pytest.raises(GameChanged):
            service.correct(sid, 0, {"type": "reveal", "card": "p2"}, seen=tab_b.version)
        with pytest.raises(GameChanged):
            service.preview_correction(sid, 0, {"type": "reveal", "card": "p2"}, seen=tab_b.version)
        assert [e.action for e in service.open(sid).log] == SCRIPT[:2]
        assert len(rows(store, sid)) == 2
    finally:
        store.close()


def test_undo_takes_back_only_what_the_device_has_shown(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    a.submit(sid, SCRIPT[0])
    shown_a = a.submit(sid, SCRIPT[1])
    latest = b.submit(sid, SCRIPT[2], seen=b.open(sid).version)  # Bruno's entry, made on device B
    with pytest.raises(GameChanged) as caught:
        a.undo(sid, seen=shown_a.version)  # A would take back Bruno's entry, which it never showed
    assert_clear(caught.value, latest)
    assert not any(retracted for *_, retracted in rows(a.store, sid))
    # once shown, it can be undone
    undone = a.undo(sid, seen=caught.value.state.version)
    assert [e.action for e in undone.log] == SCRIPT[:2]
    assert [retracted for *_, retracted in rows(a.store, sid)] == [False, False, True]


def test_two_undos_of_the_same_shown_state_take_back_one_entry(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    for action in SCRIPT[:3]:
        a.submit(sid, action)
    shown_a, shown_b = a.open(sid), b.open(sid)
    undone = b.undo(sid, seen=shown_b.version)
    with pytest.raises(GameChanged) as caught:
        a.undo(sid, seen=shown_a.version)
    assert_clear(caught.value, undone)
    assert [retracted for *_, retracted in rows(a.store, sid)] == [False, False, True]


def test_an_entry_after_an_undo_made_elsewhere_is_refused_clearly(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    a.submit(sid, SCRIPT[0])
    shown_a = a.submit(sid, SCRIPT[1])
    undone = b.undo(sid, seen=b.open(sid).version)
    with pytest.raises(GameChanged) as caught:
        a.submit(sid, SCRIPT[2], seen=shown_a.version)
    assert_clear(caught.value, undone)
    assert [action for _, action, retracted in rows(a.store, sid) if not retracted] == ['{"type":"reveal","card":"p1"}']


def test_a_write_slipped_in_between_the_check_and_the_write_is_caught_in_the_transaction(devices):
    a, b, interleaved = devices
    sid = a.start("high-society", PLAYERS).session_id
    shown_a = a.submit(sid, SCRIPT[0])
    shown_b = b.open(sid)
    landed: list[SessionState] = []
    # A checks Anne's bid on the game it shows (legal), then B's entry lands before A's write
    interleaved.before_write = lambda: landed.append(b.submit(sid, SCRIPT[1], seen=shown_b.version))
    with pytest.raises(GameChanged) as caught:
        a.submit(sid, {"type": "bid", "player": "Anne", "add": [2]}, seen=shown_a.version)
    assert_clear(caught.value, landed[0])
    assert [e.action for e in a.open(sid).log] == SCRIPT[:2]
    # the same for an undo and a correction: nothing is retracted or replaced
    shown_a = a.open(sid)
    interleaved.before_write = lambda: landed.append(b.submit(sid, SCRIPT[2], seen=b.open(sid).version))
    with pytest.raises(GameChanged):
        a.undo(sid, seen=shown_a.version)
    shown_a = a.open(sid)
    interleaved.before_write = lambda: landed.append(b.submit(sid, SCRIPT[3], seen=b.open(sid).version))
    with pytest.raises(GameChanged):
        a.correct(sid, 0, {"type": "reveal", "card": "p2"}, seen=shown_a.version)
    assert [e.action for e in b.open(sid).log] == SCRIPT[:4]
    assert not any(retracted for *_, retracted in rows(a.store, sid))
    # and the cache that missed it was read again: A goes on from the game as it is
    assert [e.action for e in a.submit(sid, SCRIPT[4], seen=a.open(sid).version).log] == SCRIPT[:5]


def test_a_refusal_judged_on_a_game_that_moved_on_is_the_clear_one(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    shown_a = a.submit(sid, SCRIPT[0])
    b.submit(sid, SCRIPT[1], seen=b.open(sid).version)  # Anne bid on B
    # on A's game Bruno is out of turn (Anne bids first): but the game is no longer that one
    with pytest.raises(GameChanged):
        a.submit(sid, {"type": "bid", "player": "Bruno", "add": [3]}, seen=shown_a.version)
    # on the game as it is, a real refusal names its rule
    now = a.open(sid)
    with pytest.raises(Refused) as refused:
        a.submit(sid, {"type": "bid", "player": "Chloé", "add": [3]}, seen=now.version)
    assert refused.value.rule


def test_a_device_that_was_behind_but_has_seen_the_current_game_is_not_refused(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    a.open(sid)  # A's cache: no entry
    current = b.submit(sid, SCRIPT[0])
    # a state handed out by B names the game as it is: A's stale cache is read again, not refused
    done = a.submit(sid, SCRIPT[1], seen=current.version)
    assert [e.action for e in done.log] == SCRIPT[:2]


def test_an_entry_made_and_undone_elsewhere_leaves_the_game_the_device_showed(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    shown_a = a.submit(sid, SCRIPT[0])
    b.submit(sid, SCRIPT[1], seen=b.open(sid).version)
    back = b.undo(sid, seen=b.open(sid).version)
    assert back.version == shown_a.version  # the same active entries: the game A shows is the game
    done = a.submit(sid, SCRIPT[1], seen=shown_a.version)  # not refused, and written after B's seq
    assert [e.action for e in done.log] == SCRIPT[:2]
    assert [(seq, retracted) for seq, _, retracted in rows(a.store, sid)] == [(1, False), (2, True), (3, False)]
    assert done.version == 3
    # the same for an undo
    b.submit(sid, SCRIPT[2], seen=b.open(sid).version)
    b.undo(sid, seen=b.open(sid).version)
    assert [e.action for e in a.undo(sid, seen=done.version).log] == SCRIPT[:1]


# -- a bounded threaded race -------------------------------------------------------------------


@pytest.mark.parametrize("shared", [False, True], ids=["two-processes", "two-tabs"])
def test_racing_devices_lose_nothing_and_get_only_the_clear_refusal(db_path, shared):
    stores = [Store(db_path), Store(db_path)]
    try:
        services = [SessionService(stores[0])] * 2 if shared else [SessionService(s) for s in stores]
        sid = services[0].start("high-society", PLAYERS).session_id
        acked: list[tuple[str, SessionState, SessionState]] = []  # (kind, state shown, state returned)
        refusals: list[GameChanged] = []
        errors: list[BaseException] = []
        gate = threading.Barrier(2)

        def device(service: SessionService, seed: int) -> None:
            rng = random.Random(seed)
            try:
                gate.wait()
                state = service.open(sid)
                for _ in range(30):
                    try:
                        if state.log and (len(state.log) == len(SCRIPT) or rng.random() < 0.3):
                            new = service.undo(sid, seen=state.version)
                            acked.append(("undo", state, new))
                        else:
                            new = service.submit(sid, SCRIPT[len(state.log)], seen=state.version)
                            acked.append(("submit", state, new))
                        state = new
                    except GameChanged as err:
                        refusals.append(err)
                        state = err.state
            except BaseException as err:  # noqa: BLE001  # anything else is a failure, reported below
                errors.append(err)

        threads = [threading.Thread(target=device, args=(services[i], i)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not any(t.is_alive() for t in threads)
        assert errors == []
        assert acked
        for err in refusals:  # every refusal is the clear one, with a game the device had not shown
            assert err.msg == Msg("service.changed") and err.seen != err.state.version
        log = rows(stores[0], sid)
        by_seq = {seq: (action, retracted) for seq, action, retracted in log}
        for kind, shown, new in acked:
            if kind == "submit":  # applied to exactly the game its device showed, and kept
                assert new.log[:-1] == tuple(shown.log) and new.log[-1].action == SCRIPT[len(shown.log)]
                assert new.version in by_seq
            else:  # took back exactly the last entry its device showed
                assert tuple(new.log) == shown.log[:-1]
                assert by_seq[shown.version][1] is True
        submitted = {new.version for kind, _, new in acked if kind == "submit"}
        undone = {shown.version for kind, shown, _ in acked if kind == "undo"}
        assert set(by_seq) == submitted  # no row that was not acknowledged, none lost
        assert {seq for seq, (_, retracted) in by_seq.items() if retracted} == undone
        final = SessionService(stores[1]).open(sid)  # replayed from the file
        assert [e.action for e in final.log] == SCRIPT[:len(final.log)]
        assert final.version == max(submitted - undone, default=0)
    finally:
        for store in stores:
            store.close()


# -- the app: two tablets on one game ------------------------------------------------------------


def test_the_app_shows_the_clear_refusal_and_the_game_as_it_is(db_path, tmp_path):
    stores = [Store(db_path), Store(db_path)]
    try:
        services = [SessionService(s) for s in stores]
        sid = services[0].start("high-society", ["Anne", "Bruno", "Chloé", "David"]).session_id
        tablets = [App(s, None, export_dir=tmp_path / "exports") for s in services]
        for tablet in tablets:
            tablet.go("table", session_id=sid)
        probe.tap(tablets[0].root, "reveal-p7")
        # the second tablet still shows no card: its reveal is refused, the sentence is shown with
        # the game as it is now, and nothing of it is saved
        probe.tap(tablets[1].root, "reveal-p3")
        assert Msg("service.changed").render("fr") in probe.text_of(tablets[1].root, "problem")
        assert "reveal-p3" not in probe.idents(tablets[1].root)  # the card now up is the 7
        assert services[1].open(sid).log[0].events[0].render("fr") in probe.text_of(tablets[1].root, "entry-0")
        assert [e.action for e in services[0].open(sid).log] == [{"type": "reveal", "card": "p7"}]
        # undo on the first tablet would take back an entry it has not shown: refused, nothing goes
        probe.tap(tablets[1].root, "money-1")
        probe.tap(tablets[1].root, "bid-confirm")  # Anne bids 1 on the second tablet
        probe.tap(tablets[0].root, "undo")
        probe.tap(tablets[0].dialog, "undo-confirm-yes")  # undo asks first
        assert Msg("service.changed").render("fr") in probe.text_of(tablets[0].root, "notice")
        assert [e.action["type"] for e in services[0].open(sid).log] == ["reveal", "bid"]
        assert "entry-1" in probe.idents(tablets[0].root)  # now shown, so the next undo may take it
        probe.tap(tablets[0].root, "undo")
        probe.tap(tablets[0].dialog, "undo-confirm-yes")
        assert [e.action["type"] for e in services[1].open(sid).log] == ["reveal"]
    finally:
        for store in stores:
            store.close()


def test_no_internal_error_escapes_a_device_that_was_behind(devices):
    a, b, _ = devices
    sid = a.start("high-society", PLAYERS).session_id
    shown = a.open(sid)
    b.submit(sid, SCRIPT[0])
    b.undo(sid)
    b.submit(sid, SCRIPT[0])
    for call in (lambda: a.submit(sid, SCRIPT[0], seen=shown.version), lambda: a.undo(sid, seen=shown.version),
                 lambda: a.submit(sid, SCRIPT[0]), lambda: a.undo(sid)):
        with pytest.raises(ServiceError) as caught:
            call()
        assert type(caught.value) is GameChanged
        shown_again = a.open(sid)
        assert types(shown_again) == ["reveal"]
        b.undo(sid)
        b.submit(sid, SCRIPT[0])


def test_a_tap_that_enters_several_entries_in_a_row_is_not_refused_by_its_own_entries(db_path, tmp_path, monkeypatch):
    from companion.app.games import TableContext
    from companion.app.games import high_society as screen

    contexts: list[TableContext] = []
    build = screen.build

    def spying_build(state: Any, ctx: TableContext) -> Any:
        contexts.append(ctx)
        return build(state, ctx)

    monkeypatch.setattr(screen.Screen, "build", staticmethod(spying_build))  # what the table calls: SCREEN's
    store = Store(db_path)
    try:
        service = SessionService(store)
        sid = service.start("high-society", PLAYERS).session_id
        tablet = App(service, None, export_dir=tmp_path / "exports")
        tablet.go("table", session_id=sid)
        ctx = contexts[-1]
        # one handler, three entries, each made on the state the one before it made
        for action in SCRIPT[:3]:
            ctx.submit(action)
        assert [e.action for e in service.open(sid).log] == SCRIPT[:3]
        assert not probe.has(tablet.root, "problem")
        # but an entry from another device in between still stops the rest of the tap
        ctx = contexts[-1]
        ctx.submit(SCRIPT[3])
        service.submit(sid, SCRIPT[4])  # another tab
        ctx.submit(SCRIPT[5])
        assert Msg("service.changed").render("fr") in probe.text_of(tablet.root, "problem")
        assert [e.action for e in service.open(sid).log] == SCRIPT[:5]
    finally:
        store.close()


# -- two tables finishing games of the same month at once ----------------------------------------


def test_two_tables_finishing_games_of_one_month_at_once_both_count(db_path):
    """The monthly figures are shared by every game of a month: while one table's finish holds its
    recount uncommitted, another table finishes a game of the same game and month. Both must be
    counted (on PostgreSQL the second recount waits for the first one's month lock, then reads
    its game; on SQLite the second write waits for the first)."""
    import time

    from tests.support.games import hs_designed

    recounted = threading.Event()

    class Pausing(Store):
        def refresh_months(self, db: Any, game: str, month: str, player_ids: Any = None) -> None:
            super().refresh_months(db, game, month, player_ids)
            recounted.set()
            time.sleep(0.5)  # uncommitted for a while: the other table finishes meanwhile

    stores = [Pausing(db_path), Store(db_path)]
    try:
        first, second = (SessionService(s) for s in stores)
        record = hs_designed(PLAYERS, "Anne")
        games = [first.start("high-society", PLAYERS).session_id, second.start("high-society", PLAYERS).session_id]
        for action in record["actions"][:-1]:
            first.submit(games[0], action)
            second.submit(games[1], action)
        failures: list[BaseException] = []

        def finish_first() -> None:
            try:
                first.submit(games[0], record["actions"][-1])
            except BaseException as err:  # noqa: BLE001  # reported below
                failures.append(err)

        thread = threading.Thread(target=finish_first)
        thread.start()
        assert recounted.wait(30)
        assert second.submit(games[1], record["actions"][-1]).status == "finished"
        thread.join(60)
        assert failures == []
        fresh = SessionService(stores[1])
        assert [(g.game, g.games) for g in fresh.history.game_stats()] == [("high-society", 2)]
        assert {p.name: (p.games, p.wins) for p in fresh.history.player_stats()} == {
            "Anne": (2, 2), "Bruno": (2, 0), "Chloé": (2, 0)}
        with stores[1].read() as db:
            kept = [tuple(r) for r in db.execute(text("SELECT * FROM game_months"))]
        with stores[1].write() as db:
            stores[1].refresh_summaries(db)
        with stores[1].read() as db:
            assert [tuple(r) for r in db.execute(text("SELECT * FROM game_months"))] == kept
    finally:
        for store in stores:
            store.close()


def test_an_append_that_loses_the_race_for_its_seq_is_the_clear_refusal(pg_url, monkeypatch):
    """PostgreSQL: should a writer ever miss the game's lock, the unique constraint on the game's
    sequence (uq_actions_session_seq) refuses its append, and the device gets the clear GameChanged,
    not a storage error. Here device A checks the game without the lock, then B's entry lands
    before A's append."""
    stores = [Store(pg_url), Store(pg_url)]
    try:
        a, b = (SessionService(s) for s in stores)
        sid = a.start("high-society", PLAYERS).session_id
        shown_a = a.submit(sid, SCRIPT[0])
        shown_b = b.open(sid)
        landed: list[SessionState] = []
        original = stores[0].log_position

        def unlocked_then_overtaken(db: Any, session_id: int, lock: bool = False) -> tuple[bool, int, int]:
            position = original(db, session_id, lock=False)
            if lock and not landed:
                landed.append(b.submit(sid, SCRIPT[1], seen=shown_b.version))  # commits on its own
            return position

        monkeypatch.setattr(stores[0], "log_position", unlocked_then_overtaken)
        with pytest.raises(GameChanged) as caught:
            a.submit(sid, {"type": "bid", "player": "Anne", "add": [2]}, seen=shown_a.version)
        assert_clear(caught.value, landed[0])
        assert [action for _, action, _ in rows(stores[0], sid)] == [
            '{"type":"reveal","card":"p1"}', '{"type":"bid","player":"Anne","add":[1]}']
    finally:
        for store in stores:
            store.close()


def test_a_change_that_finds_the_game_changed_back_is_made_on_it(devices, monkeypatch):
    """Another device's entry lands between this device's check and its write (refused: the game
    changed), then is undone before this device reads the game again: the game is the one this
    device showed after all, so its entry is made on it rather than refused with that same game."""
    a, b, interleaved = devices
    sid = a.start("high-society", PLAYERS).session_id
    shown_a = a.submit(sid, SCRIPT[0])
    original = interleaved.session_rows
    undone: list[SessionState] = []

    def undone_first(db: Any, session_id: int) -> Any:
        if not undone:  # A reads the game again after its refused write: B has taken its entry back
            undone.append(b.undo(sid, seen=b.open(sid).version))
        return original(db, session_id)

    monkeypatch.setattr(interleaved, "session_rows", undone_first)
    interleaved.before_write = lambda: b.submit(sid, SCRIPT[1], seen=b.open(sid).version)
    done = a.submit(sid, {"type": "bid", "player": "Anne", "add": [2]}, seen=shown_a.version)
    assert undone and undone[0].version == shown_a.version
    assert [e.action for e in done.log] == [SCRIPT[0], {"type": "bid", "player": "Anne", "add": [2]}]
    assert [(seq, retracted) for seq, _, retracted in rows(a.store, sid)] == [(1, False), (2, True), (3, False)]


def test_two_tablets_seating_one_new_player_spelled_two_ways_at_once_make_one_profile(database):
    """Two tablets start games at the same moment with a player nobody has seen yet, written
    "Zoé" on one and "zoé" on the other: the names compare without case, so one profile comes
    out, whichever tablet wrote first, and both games sit on it."""
    stores = [Store(database), Store(database)]
    services = [SessionService(store) for store in stores]
    try:
        for round_ in range(12):
            spellings = (f"Zoé{round_}", f"zoé{round_}")
            barrier = threading.Barrier(2)
            failures: list[BaseException] = []

            def start(service: SessionService, name: str) -> None:
                barrier.wait()
                try:
                    service.start("high-society", ["Anne", "Bruno", name])
                except BaseException as err:  # noqa: BLE001 - reported below
                    failures.append(err)

            workers = [threading.Thread(target=start, args=(s, n)) for s, n in zip(services, spellings)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join(timeout=60)
            assert failures == []
            profiles = [p.name for p in services[0].players() if p.name.casefold() == spellings[0].casefold()]
            assert len(profiles) == 1, profiles
    finally:
        for store in stores:
            store.close()


def test_a_merge_on_another_device_does_not_break_the_entry_that_ends_a_game(devices):
    """Device B merges one of a game's players into another profile while device A's game goes on:
    A's entry that ends the game is saved at once, its results go to the profile the seat belongs
    to now (A's cache still held the merged profile's id: the results' foreign key refused it and
    the player read "the entry could not be saved")."""
    a, b, _ = devices
    record = hs_long(["Anne", "Bruno", "Chloé"])
    state = a.start("high-society", record["players"])
    for action in record["actions"][:-1]:
        state = a.submit(state.session_id, action, seen=state.version)
    b.add_player("Bruna")
    ids = {p.name: p.id for p in b.players()}
    b.profiles.merge(ids["Bruno"], ids["Bruna"])
    state = a.submit(state.session_id, record["actions"][-1], seen=state.version)
    assert state.outcome is not None
    finished = [g for g in b.history.all() if g.session_id == state.session_id]
    assert finished and finished[0].status == "finished"
    assert ids["Bruna"] in {p.id for p in b.players()} and "Bruno" not in {p.name for p in b.players()}
    bruna = b.history.player_profile_stats(ids["Bruna"])
    assert bruna.name == "Bruna" and bruna.games == 1  # the seat's result counts for its profile now


def _two_devices(tmp_path: Path) -> tuple[SessionService, SessionService, SessionState]:
    """Device A shows a game; device B (another process, on the same file) then makes an entry."""
    a = SessionService(Store(tmp_path / "two.db"))
    b = SessionService(Store(tmp_path / "two.db"))
    shown = a.start("high-society", PLAYERS)
    shown = a.submit(shown.session_id, SCRIPT[0], seen=shown.version)
    b.submit(shown.session_id, SCRIPT[1], seen=b.open(shown.session_id).version)
    return a, b, shown


@pytest.mark.parametrize("change", ["undo_nothing", "correct_missing", "correct_same", "correct_refused"])
def test_an_undo_or_correction_judged_on_a_game_another_device_changed_is_game_changed(tmp_path, change):
    """A refusal or a correction that changes nothing, judged on the cache of a game another device
    has changed since, told the device something of a game that is no longer the table's ("nothing
    to undo" when there was an entry, "no entry 2" when there was one, or the old game back as if
    saved): it is GameChanged with the game as it is, as for an entry (submit)."""
    a, b, shown = _two_devices(tmp_path)
    sid = shown.session_id
    if change == "undo_nothing":  # A showed a game before its first entry
        shown = a.start("high-society", PLAYERS)
        sid = shown.session_id
        b.submit(sid, SCRIPT[0], seen=b.open(sid).version)
    changes = {
        "undo_nothing": lambda: a.undo(sid, seen=shown.version),
        "correct_missing": lambda: a.correct(sid, 1, SCRIPT[1], seen=shown.version),
        "correct_same": lambda: a.correct(sid, 0, SCRIPT[0], seen=shown.version),
        "correct_refused": lambda: a.correct(sid, 0, SCRIPT[1], seen=shown.version),  # no bid before a card
    }
    with pytest.raises(GameChanged) as changed:
        changes[change]()
    assert changed.value.state.version == b.open(sid).version != shown.version
    assert [e.action for e in a.open(sid).log] == [e.action for e in b.open(sid).log]
