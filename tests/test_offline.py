"""A tablet on a club's server that goes away and comes back: entries are refused with
their own sentence while the server cannot be reached, nothing acknowledged is lost, the cached game
stays the acknowledged one, and the same service carries on once the server is back.

The server is one of this module's own (tests/pgserver.py's ``Server``), stopped and started
again by the tests: the shared one of the other tests is never stopped. It commits
synchronously, as a club's server does, so that a crash (``pg_ctl stop -m immediate``) keeps
every acknowledged entry."""

from __future__ import annotations

import sqlite3

import pytest

from companion.service import Connection, GameChanged, Offline, ServiceError, SessionService
from companion.store import Store, is_disconnect
from models.i18n import Msg
from tests.pg import started_server

A, B, C = "Anne", "Bruno", "Chloé"
OPENING = [{"type": "reveal", "card": "p10"}, {"type": "bid", "player": A, "add": [1]},
           {"type": "pass", "player": B}]
NEXT = {"type": "pass", "player": C}
ENTRY_FR = ("Le serveur du club ne répond pas : cette entrée n'est pas enregistrée. "
            "Réessayez quand la tablette sera reconnectée.")


@pytest.fixture(scope="module")
def own_server():
    with started_server("-c synchronous_commit=on") as server:
        yield server


@pytest.fixture(scope="module")
def own_url(own_server):
    """One database for the module's tests (each plays a game of its own in it)."""
    return own_server.new_database()


@pytest.fixture
def club(own_server, own_url):
    """A new service on the module's database, whose server is running again after the test."""
    service = SessionService(Store(own_url))
    try:
        yield own_server, service, own_url
    finally:
        service.store.close()
        own_server.resume()


def acknowledged(url: str, session_id: int) -> list[dict]:
    """The game's active entries as another process reads them from the server."""
    other = SessionService(Store(url))
    try:
        return [dict(e.action) for e in other.open(session_id).log]
    finally:
        other.store.close()


def started(service: SessionService) -> int:
    state = service.start("high-society", [A, B, C], first_player=A)
    for action in OPENING:
        state = service.submit(state.session_id, action)
    return state.session_id


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_entries_are_refused_while_the_server_is_down_and_the_same_service_carries_on(club, mode):
    server, service, url = club
    sid = started(service)
    assert service.connection() is Connection.CONNECTED
    before = service.open(sid)
    prompt = before.expected.prompt

    server.halt(mode)
    assert service.connection() is Connection.OFFLINE
    with pytest.raises(Offline) as caught:
        service.submit(sid, NEXT, seen=before.version)
    assert caught.value.msg.key == "service.offline.entry"
    assert caught.value.msg.render("fr") == ENTRY_FR
    assert caught.value.msg.render("en").startswith("The club server does not answer: this entry is not saved.")
    with pytest.raises(Offline) as undone:
        service.undo(sid, seen=before.version)
    assert undone.value.msg.key == "service.offline.undo"
    with pytest.raises(Offline) as opened:  # reading the game asks the server too
        service.open(sid)
    assert opened.value.msg.key == "service.offline"
    with pytest.raises(Offline):
        service.history.page()
    assert service.last_connection is Connection.OFFLINE

    shown = service.last_known(sid)  # what the screen keeps showing: the acknowledged game
    assert shown.version == before.version and [dict(e.action) for e in shown.log] == OPENING
    assert shown.expected.prompt == prompt and shown.engine.applied == len(OPENING)

    server.resume()
    assert service.connection() is Connection.CONNECTED
    assert acknowledged(url, sid) == OPENING  # nothing acknowledged was lost, nothing refused was kept
    after = service.submit(sid, NEXT, seen=before.version)  # the pool reconnects by itself
    assert [dict(e.action) for e in after.log] == OPENING + [NEXT]
    assert acknowledged(url, sid) == OPENING + [NEXT]
    again = service.undo(sid, seen=after.version)
    assert again.version == before.version


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_a_server_lost_inside_an_entry_s_transaction_leaves_the_cache_at_the_acknowledged_game(
        club, monkeypatch, mode):
    """The server stops after the entry was appended and applied to the cached engine, before the
    commit: the entry is refused as offline and the cached engine is the acknowledged game again."""
    server, service, url = club
    sid = started(service)
    before = service.open(sid)
    engine_before = before.engine
    real = service.store.entries_added

    def server_goes(db, *args, **kwargs):
        server.halt(mode)
        return real(db, *args, **kwargs)

    monkeypatch.setattr(service.store, "entries_added", server_goes)
    with pytest.raises(Offline) as caught:
        service.submit(sid, NEXT, seen=before.version)
    assert caught.value.msg.key == "service.offline.entry"
    monkeypatch.undo()
    assert engine_before.applied == len(OPENING) + 1  # the entry did reach the cached engine…
    shown = service.last_known(sid)
    assert shown.engine is not engine_before and shown.engine.applied == len(OPENING)  # …which was rewound
    assert shown.version == before.version and shown.expected.prompt == before.expected.prompt

    server.resume()
    assert acknowledged(url, sid) == OPENING
    assert service.open(sid).engine.applied == len(OPENING)
    after = service.submit(sid, NEXT, seen=before.version)
    assert after.engine.applied == len(OPENING) + 1
    assert acknowledged(url, sid) == OPENING + [NEXT]


def test_an_entry_whose_commit_the_server_kept_but_never_confirmed_is_told_as_the_device_s_own(club, monkeypatch):
    """The connection goes right after the server committed the entry: the tablet cannot know, so
    it says the entry may be saved (not that it is not), keeps showing the acknowledged game, and
    once the server is back the next tap meets the entry as its own, not as another device's."""
    import psycopg

    server, service, url = club
    sid = started(service)
    before = service.open(sid)

    def committed_then_lost(driver):
        driver.commit()
        server.halt("immediate")
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(service.store, "_commit_direct", committed_then_lost)
    with pytest.raises(Offline) as caught:
        service.submit(sid, NEXT, seen=before.version)
    monkeypatch.undo()
    assert caught.value.msg.key == "service.offline.entry.unknown"
    assert "peut-être gardé cette entrée" in caught.value.msg.render("fr")
    assert service.last_connection is Connection.OFFLINE
    shown = service.last_known(sid)  # the acknowledged game: the entry was never confirmed
    assert shown.version == before.version and shown.engine.applied == len(OPENING)

    server.resume()
    assert acknowledged(url, sid) == OPENING + [NEXT]  # the server had kept it
    retry = {"type": "bid", "player": C, "add": [2]}  # a tap made on the game the screen still shows
    with pytest.raises(GameChanged) as changed:
        service.submit(sid, retry, seen=before.version)
    assert changed.value.msg.key == "service.changed.own_entry"
    assert changed.value.msg.render("fr") == (
        "Votre entrée avait bien été enregistrée avant la coupure de connexion. Chloé passe. "
        "Voici la partie à jour ; vérifiez la table avant de continuer.")
    assert [dict(e.action) for e in changed.value.state.log] == OPENING + [NEXT]
    assert acknowledged(url, sid) == OPENING + [NEXT]  # the refused tap wrote nothing

    # another device's entry after that is another device's again
    other = SessionService(Store(url))
    try:
        other.submit(sid, {"type": "reveal", "card": "p9"})
    finally:
        other.store.close()
    with pytest.raises(GameChanged) as elsewhere:
        service.submit(sid, {"type": "reveal", "card": "p8"}, seen=changed.value.state.version)
    assert elsewhere.value.msg.key == "service.changed"


def test_an_entry_whose_commit_never_reached_the_server_goes_through_when_tapped_again(club, monkeypatch):
    """The connection goes before the server committed: the tablet says the same (it cannot tell the
    two apart), and once the server is back the same tap is simply saved, with no warning."""
    server, service, url = club
    sid = started(service)
    before = service.open(sid)
    real = service.store._commit_direct

    def lost_before(driver):
        server.halt("immediate")
        real(driver)

    monkeypatch.setattr(service.store, "_commit_direct", lost_before)
    with pytest.raises(Offline) as caught:
        service.submit(sid, NEXT, seen=before.version)
    monkeypatch.undo()
    assert caught.value.msg.key == "service.offline.entry.unknown"
    server.resume()
    assert acknowledged(url, sid) == OPENING
    after = service.submit(sid, NEXT, seen=before.version)
    assert [dict(e.action) for e in after.log] == OPENING + [NEXT]
    assert acknowledged(url, sid) == OPENING + [NEXT]


def test_an_undo_whose_transaction_the_server_drops_undoes_nothing(club, monkeypatch):
    """The ORM path (undo, corrections): the server stops inside the undo's transaction."""
    server, service, url = club
    sid = started(service)
    before = service.open(sid)
    real = service.store.retract

    def server_goes(db, *args, **kwargs):
        server.halt("immediate")
        return real(db, *args, **kwargs)

    monkeypatch.setattr(service.store, "retract", server_goes)
    with pytest.raises(Offline) as caught:
        service.undo(sid, seen=before.version)
    assert caught.value.msg.key == "service.offline.undo"
    monkeypatch.undo()
    shown = service.last_known(sid)
    assert shown.version == before.version and shown.engine.applied == len(OPENING)
    server.resume()
    assert acknowledged(url, sid) == OPENING
    assert [dict(e.action) for e in service.undo(sid, seen=before.version).log] == OPENING[:-1]
    assert acknowledged(url, sid) == OPENING[:-1]


def test_a_game_this_process_never_read_is_offline_too_and_comes_back(club):
    server, service, url = club
    sid = started(service)
    fresh = SessionService(Store(url))  # another tablet, which has not opened the game yet
    try:
        server.halt("fast")
        with pytest.raises(Offline):
            fresh.last_known(sid)
        with pytest.raises(Offline):
            fresh.open(sid)
        with pytest.raises(Offline) as started_offline:
            fresh.start("high-society", [A, B, C])
        assert started_offline.value.msg.key == "service.offline"
        server.resume()
        assert [dict(e.action) for e in fresh.open(sid).log] == OPENING
    finally:
        fresh.store.close()


def test_a_sqlite_database_is_on_this_tablet(tmp_path):
    service = SessionService(Store(tmp_path / "companion.db"))
    try:
        assert service.last_connection is Connection.LOCAL
        assert service.connection() is Connection.LOCAL
    finally:
        service.store.close()


def test_a_server_s_connections_give_up_in_seconds_unless_its_url_says_otherwise():
    from sqlalchemy.engine import make_url

    from companion.store import CONNECT_TIMEOUT_S, _server_args

    args = _server_args(make_url("postgresql+psycopg://club@tables.example/club"))
    assert args["connect_timeout"] == CONNECT_TIMEOUT_S and args["tcp_user_timeout"] > 0 and args["keepalives"] == 1
    assert args["options"] == "-c timezone=UTC"
    own = _server_args(make_url("postgresql+psycopg://club@tables.example/club?connect_timeout=20"))
    assert "connect_timeout" not in own and own["keepalives"] == 1  # the URL's own value reaches the driver


def test_only_a_server_that_cannot_be_reached_is_offline():
    import psycopg
    import psycopg.errors
    from sqlalchemy.exc import OperationalError

    assert is_disconnect(psycopg.OperationalError("connection failed: No such file or directory"))
    assert is_disconnect(psycopg.errors.AdminShutdown("terminating connection due to administrator command"))
    assert is_disconnect(OperationalError("SELECT 1", {}, psycopg.OperationalError("server closed the connection")))
    assert not is_disconnect(psycopg.errors.DeadlockDetected("deadlock detected"))
    assert not is_disconnect(psycopg.errors.UniqueViolation("duplicate key"))
    assert not is_disconnect(sqlite3.OperationalError("database is locked"))
    closed = OperationalError("SELECT 1", {}, sqlite3.ProgrammingError("Cannot operate on a closed database."),
                              connection_invalidated=True)
    assert not is_disconnect(closed)  # SQLAlchemy calls it a disconnect: a SQLite file has no server to lose
    assert not is_disconnect(OperationalError("UPDATE sessions", {}, Exception("disk I/O error")))
    offline = Offline()
    assert isinstance(offline, ServiceError) and offline.msg == Msg("service.offline")


# -- the app, without a browser (the browser test is tests/e2e/test_offline_browser.py) ----------------


def fr(key: str) -> str:
    return Msg(key).render("fr")


def test_the_table_keeps_the_acknowledged_game_while_offline_and_takes_entries_again(club):
    from companion.app import probe
    from companion.app.shell import App

    server, service, url = club
    sid = started(service)
    app = App(service)
    app.go("table", session_id=sid)
    assert fr("app.online.connected") in probe.text_of(app.root, "connection")
    assert not probe.has(app.root, "offline-paused")

    server.halt("fast")
    probe.tap(app.root, "pass")  # Chloé passes: the server is gone
    assert app.offline and fr("app.online.offline") in probe.text_of(app.root, "connection")
    assert fr("service.offline.entry") in probe.text_of(app.root, "problem")
    assert fr("app.online.paused") in probe.text_of(app.root, "offline-paused")
    assert fr("app.online.locked") in probe.text_of(app.root, "offline-paused")
    assert probe.has(app.root, f"entry-{len(OPENING) - 1}") and not probe.has(app.root, f"entry-{len(OPENING)}")
    app.render()  # rebuilt while offline: the game as last acknowledged, not an error
    assert not probe.has(app.root, "screen-error") and probe.has(app.root, f"entry-{len(OPENING) - 1}")
    locked = ("pass", "undo", f"correct-{len(OPENING) - 1}")  # no tap can reach a refusal
    assert [ident for ident in locked if probe.is_enabled(app.root, ident)] == []
    assert probe.is_enabled(app.root, "table-rules")  # reading the rules needs no server

    server.resume()
    assert app.show_link(service.connection())  # what the page's watch does every few seconds
    assert fr("app.online.connected") in probe.text_of(app.root, "connection")
    assert not probe.has(app.root, "offline-paused")
    assert [ident for ident in locked if not probe.is_enabled(app.root, ident)] == []
    probe.tap(app.root, "pass")
    assert probe.has(app.root, f"entry-{len(OPENING)}") and not probe.has(app.root, "problem")
    assert acknowledged(url, sid) == OPENING + [NEXT]


def test_a_tablet_on_its_own_sqlite_file_shows_no_connection(tmp_path):
    from companion.app import probe
    from companion.app.shell import App

    service = SessionService(Store(tmp_path / "companion.db"))
    try:
        app = App(service)
        app.render()
        assert probe.has(app.root, "home-new") and not probe.has(app.root, "connection") and not app.offline
    finally:
        service.store.close()
