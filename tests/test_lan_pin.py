"""The LAN gate without a network: which device a page is, the growing wait after a
wrong PIN, --pin checked, what the lock and the error page say, passwords hidden, the LAN
addresses; the serving machine told of a lock at once, lifting it with a new PIN, the gate's
tables bounded. tests/test_lan_gate.py drives the same from a device on a network of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import cli
from companion.app import probe, web
from companion.app.server import make_error_main, make_main
from companion.app.web import PinGate, connected_from
from companion.paths import hide_passwords, shown_db
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg


class Page:
    def __init__(self, client_ip: str):
        self.client_ip = client_ip  # what the page says: the client can set it
        self.controls: list[Any] = []
        self.width = self.height = None

    def update(self) -> None:
        pass


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    service = SessionService(Store(tmp_path / "c.db"))
    service.start("stupide-vautour", ["Anne", "Bruno"])
    return service


def _shown(page: Page) -> str:
    return " ".join(probe.texts(page.controls[0]))


def _text(root: Any, ident: str) -> str:
    return " ".join(probe.texts(probe.find(root, ident)))


def test_a_page_that_says_it_is_loopback_is_judged_by_its_connections_peer(service):
    gate = PinGate("314159")
    page = Page("127.0.0.1")
    with connected_from("192.168.1.66"):
        make_main(service, gate=gate)(page)
    assert probe.has(page.controls[0], "pin-screen") and "Anne" not in _shown(page)
    unknown = Page("127.0.0.1")
    make_main(service, gate=gate)(unknown)  # no peer recorded: not the serving machine either
    assert probe.has(unknown.controls[0], "pin-screen")
    for local in ("127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"):
        page = Page("10.0.0.1")
        with connected_from(local):
            make_main(service, gate=gate)(page)
        assert probe.has(page.controls[0], "home-new"), local


def test_the_wait_after_a_wrong_pin_doubles_and_an_early_try_is_not_counted():
    now = [100.0]
    gate = PinGate("314159", delay=1.0, clock=lambda: now[0])
    device = "192.168.1.66"
    assert gate.attempt("000000", device) == "wrong"
    assert gate.wait_left(device) == 1.0
    assert gate.attempt("314159", device) == "wait"  # not even the right PIN, too soon
    assert gate.failures[device] == 1
    waits = []
    for _ in range(7):
        now[0] += gate.wait_left(device)
        assert gate.attempt("000000", device) == "wrong"
        waits.append(gate.wait_left(device))
    assert waits == [2.0, 4.0, 8.0, 16.0, 32.0, 32.0, 32.0]
    assert gate.wait_left("192.168.1.67") == 0 and gate.attempt("314159", "192.168.1.67") == "open"
    now[0] += 32
    assert gate.attempt("314159", device) == "open"


def test_the_pin_screen_says_how_long_to_wait(service):
    now = [0.0]
    gate = PinGate("314159", delay=5.0, clock=lambda: now[0])
    page = Page("x")
    with connected_from("192.168.1.66"):
        make_main(service, gate=gate)(page)
    probe.type_into(page.controls[0], "pin-field", "000000", submit=True)
    probe.type_into(page.controls[0], "pin-field", "314159", submit=True)
    assert "Attendez encore 5 secondes avant d'essayer un autre code." in _shown(page)
    now[0] = 5.0
    probe.type_into(page.controls[0], "pin-field", "314159", submit=True)
    assert probe.has(page.controls[0], "sv-reveal")  # in, on the game in play


def test_the_lock_tells_the_device_to_ask_the_table_for_a_new_code(service):
    for given in (None, "314159"):
        gate = PinGate(given, delay=0)
        page = Page("x")
        with connected_from("192.168.1.66"):
            make_main(service, gate=gate)(page)
            for _ in range(10):
                probe.type_into(page.controls[0], "pin-field", "000000", submit=True)
            assert "Demandez un nouveau code à la table" in _shown(page) and "relancer" not in _shown(page).lower()
            probe.tap(page.controls[0], "pin-again")  # no new PIN yet: still locked
            assert not probe.has(page.controls[0], "pin-field")
            gate.renew()
            probe.tap(page.controls[0], "pin-again")  # the table gave a new PIN: the field again
            probe.type_into(page.controls[0], "pin-field", gate.pin, submit=True)
        assert probe.has(page.controls[0], "sv-reveal")


def test_a_new_pin_lifts_every_lock_and_forgets_every_count():
    now = [0.0]
    gate = PinGate("314159", max_total=30, delay=1.0, clock=lambda: now[0])
    for device in range(3):
        for _ in range(10):
            now[0] += 100
            assert gate.attempt("000000", f"192.168.1.{device}") == "wrong"
    assert gate.closed and gate.state() == ("314159", 3, True, False)
    assert gate.attempt("314159", "192.168.1.50") == "locked"
    pin = gate.renew()
    assert pin != "314159" and gate.pin == pin and len(pin) == 6 and pin.isdigit()
    assert gate.state() == (pin, 0, False, True) and gate.fixed  # fixed: the printed PIN was --pin's
    assert gate.failures == {} and gate.not_before == {} and gate.total == 0
    assert gate.attempt("314159", "192.168.1.0") == "wrong"  # the printed PIN no longer opens…
    now[0] += 100
    assert gate.attempt(pin, "192.168.1.0") == "open"  # …the new one does, from a device locked before
    assert gate.attempt(pin, "192.168.1.2") == "open"


class Listener:
    def __init__(self) -> None:
        self.told = 0

    def hear(self) -> None:
        self.told += 1


def test_listeners_are_told_of_each_lock_and_of_a_new_pin_not_of_each_wrong_pin():
    import gc

    gate = PinGate("314159", max_total=25, delay=0)
    kept, dropped, heard = Listener(), Listener(), []

    def broken() -> None:
        raise RuntimeError("a page gone wrong")

    gate.listen(broken)  # first: the others are told anyway
    gate.listen(kept.hear)
    gate.listen(dropped.hear)
    gate.listen(lambda: heard.append(gate.state()))
    del dropped
    gc.collect()
    assert gate.listeners() == 3  # a bound method is held weakly: a closed page's app goes
    for _ in range(9):
        gate.attempt("000000", "192.168.1.1")
    assert kept.told == 0
    gate.attempt("000000", "192.168.1.1")  # the tenth: that device is locked out
    assert kept.told == 1 and heard[-1].locked == 1 and not heard[-1].closed
    gate.attempt("000000", "192.168.1.1")  # locked: not counted, nothing new
    for _ in range(10):
        gate.attempt("000000", "192.168.1.2")
    assert kept.told == 2
    for _ in range(5):
        gate.attempt("000000", "192.168.1.3")  # the 25th in all closes the gate
    assert kept.told == 3 and heard[-1].closed and heard[-1].locked == 2
    gate.renew()
    assert kept.told == 4 and heard[-1] == (gate.pin, 0, False, True)


def test_the_tables_per_address_are_bounded():
    gate = PinGate("314159", max_total=10_000, delay=5.0, clock=lambda: 0.0, max_devices=3)
    for n in range(10):
        assert gate.attempt("000000", f"10.0.0.{n}") == "wrong"
    assert len(gate.failures) == len(gate.not_before) == 3 and gate.total == 10
    stranger = "10.0.0.9"  # beyond the cap: counted only in all, so neither waits nor is locked on its own
    for _ in range(20):
        assert gate.attempt("000000", stranger) == "wrong"
    assert gate.total == 30 and not gate.locked(stranger) and len(gate.failures) == 3
    assert gate.attempt("000000", "10.0.0.0") == "wait"  # one counted apart still waits
    gate.renew()
    assert gate.attempt("000000", stranger) == "wrong" and stranger in gate.failures


def _serving_page(service: SessionService, gate: PinGate, page: Any = None) -> Any:
    from companion.app.server import Join

    page = page or Page("x")
    with connected_from("127.0.0.1"):
        make_main(service, gate=gate, join=Join("http://192.168.1.20:8550/", gate.pin))(page)
    return page


def test_the_serving_machine_sees_a_lock_at_once_and_lifts_it_with_one_tap(service):
    gate = PinGate("314159", delay=0)
    table = _serving_page(service, gate)
    assert not probe.has(table.controls[0], "pin-lock") and "314159" in _text(table.controls[0], "join-pin")
    playing = Page("x")  # a phone that joined before: its page is left as it is
    with connected_from("192.168.1.21"):
        make_main(service, gate=gate)(playing)
        probe.type_into(playing.controls[0], "pin-field", "314159", submit=True)
    in_play = playing.controls[0]
    assert probe.has(in_play, "sv-reveal")

    pest = Page("x")
    with connected_from("192.168.1.66"):
        make_main(service, gate=gate)(pest)
        for _ in range(10):
            probe.type_into(pest.controls[0], "pin-field", "000000", submit=True)
    banner = _text(table.controls[0], "pin-lock")  # no reload: told by the gate
    assert "1 appareil bloqué après trop de codes erronés." in banner and "Tous les appareils" not in banner

    probe.tap(table.controls[0], "pin-new")
    root = table.controls[0]
    assert not probe.has(root, "pin-lock") and gate.failures == {} and not gate.locked("192.168.1.66")
    assert gate.pin != "314159" and gate.pin in _text(root, "join-pin")
    assert gate.pin in _text(root, "notice")
    assert "Le code donné au lancement (--pin) ne marche plus" in _text(root, "join-pin-replaced")
    assert playing.controls[0] is in_play and probe.has(in_play, "sv-reveal")  # still at the table
    assert [game.entries for game in service.history.unfinished()] == [0]  # the game in play untouched


def test_the_all_devices_lock_says_so_on_the_serving_machine(service):
    gate = PinGate(None, max_total=50, delay=0)
    table = _serving_page(service, gate)
    other = _serving_page(service, gate)  # a second tab on the serving machine is told too
    for device in range(16):  # the probe: sixteen addresses, a few wrong PINs each
        for _ in range(3 if device < 15 else 5):
            gate.attempt("000000", f"192.168.1.{100 + device}")
    for page in (table, other):
        banner = _text(page.controls[0], "pin-lock")
        assert "Tous les appareils sont bloqués" in banner and "appareil bloqué" not in banner
    device = Page("x")
    with connected_from("192.168.1.30"):
        make_main(service, gate=gate)(device)
    assert "l'accès est bloqué pour tous les appareils. Demandez un nouveau code à la table" in _shown(device)
    for _ in range(10):  # more from one more device: refused unread, counted nowhere
        gate.attempt("000000", "192.168.1.31")
    old = gate.pin
    probe.tap(other.controls[0], "pin-new")
    for page in (table, other):
        assert not probe.has(page.controls[0], "pin-lock") and gate.pin in _text(page.controls[0], "join-pin")
    assert gate.pin != old and "Le code affiché au lancement ne marche plus." in _text(table.controls[0],
                                                                                          "join-pin-replaced")
    with connected_from("192.168.1.30"):
        probe.tap(device.controls[0], "pin-again")
        probe.type_into(device.controls[0], "pin-field", gate.pin, submit=True)
    assert probe.has(device.controls[0], "sv-reveal")


def test_a_served_page_hears_of_a_lock_on_its_own_event_loop(service):
    """In Flet the gate's news comes on the thread of the device that caused it: the serving
    machine's page is rebuilt by a task on its own loop (page.run_task), not there and then."""
    import asyncio

    class LoopPage(Page):
        def __init__(self) -> None:
            super().__init__("x")
            self.tasks: list[Any] = []

        def run_task(self, handler: Any) -> None:
            self.tasks.append(handler)

    gate = PinGate("314159", delay=0)
    table = _serving_page(service, gate, LoopPage())
    for _ in range(10):
        gate.attempt("000000", "192.168.1.66")
    assert not probe.has(table.controls[0], "pin-lock") and len(table.tasks) == 1
    asyncio.run(table.tasks.pop()())
    assert probe.has(table.controls[0], "pin-lock")


@pytest.fixture
def served(monkeypatch):
    import flet as ft

    from companion.app import server

    record: dict[str, Any] = {}
    monkeypatch.setattr(ft, "run", lambda main, **kw: record.update(main=main, **kw))
    monkeypatch.setattr(server, "run_web", lambda asgi, host, port: record.update(guard=asgi, host=host))
    for knob in ("FLET_FORCE_WEB_SERVER", "COMPANION_DB", "COMPANION_PIN_DELAY_S"):
        monkeypatch.delenv(knob, raising=False)
    return record


@pytest.mark.parametrize("pin", ["", "   ", "12345", "12345a", "１２３４５６"])
def test_a_pin_of_fewer_than_six_digits_is_refused_with_a_sentence(served, tmp_path, capsys, pin):
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--lan", "--pin", pin]) == 2
    assert "doit compter au moins 6 chiffres" in capsys.readouterr().err
    assert "guard" not in served


def test_a_pin_of_six_digits_or_more_is_taken(served, tmp_path, capsys):
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--lan", "--pin", " 12345678 "]) == 0
    assert "Code de la table : 12345678" in capsys.readouterr().err


def test_a_database_url_with_a_port_that_is_not_a_number_gets_a_sentence(served, capsys):
    url = "postgresql+psycopg://ann:hunter22@club.example:abc/club"
    assert cli.main(["--db", url, "run"]) == 2
    err = capsys.readouterr().err
    assert "Adresse de base de données illisible" in err and "Traceback" not in err and "hunter22" not in err


def test_every_password_of_a_server_url_is_hidden():
    url = "postgresql+psycopg://ann:p%40ss@club.example/club?sslmode=require&password=s3cret-word"
    assert shown_db(url) == "postgresql+psycopg://ann:***@club.example/club?sslmode=require&password=***"
    said = hide_passwords(f"cannot open {url}: password s3cret-word rejected for p@ss", url)
    assert "s3cret" not in said and "p@ss" not in said and "p%40ss" not in said


def test_the_console_and_the_error_page_hide_a_query_password(served, capsys):
    url = "postgresql+psycopg://ann@127.0.0.1:1/club?password=s3cret-word&connect_timeout=2"
    cli.main(["--db", url, "run"])
    err = capsys.readouterr().err
    assert "s3cret-word" not in err and "password=***" in err
    page = Page("x")
    with connected_from("127.0.0.1"):
        make_error_main(Msg("store.unusable", {"path": url, "detail": "no"}), db_path=url)(page)
    assert "s3cret-word" not in _shown(page) and "password=***" in _shown(page)


def test_the_error_page_names_nothing_to_a_device_without_the_pin(tmp_path):
    message = Msg("store.not_sqlite", {"path": str(tmp_path / "secret-folder" / "c.db")})
    gate = PinGate("314159")
    remote, local = Page("127.0.0.1"), Page("x")
    with connected_from("192.168.1.66"):
        make_error_main(message, gate=gate)(remote)
    with connected_from("127.0.0.1"):
        make_error_main(message, gate=gate)(local)
    assert "secret-folder" not in _shown(remote) and "ne peut pas démarrer sur la machine" in _shown(remote)
    assert "secret-folder" in _shown(local)


def test_lan_addresses_come_from_the_interfaces_not_a_host_name_on_loopback(monkeypatch):
    monkeypatch.setattr(web, "_route_source", lambda: [])
    monkeypatch.setattr(web, "_interface_addresses", lambda: ["127.0.0.1", "192.168.1.20", "169.254.3.3"])
    monkeypatch.setattr(web, "_host_name_addresses", lambda: ["127.0.1.1"])
    assert web.lan_addresses() == ["192.168.1.20"]
    monkeypatch.setattr(web, "_route_source", lambda: ["10.0.0.5"])
    assert web.lan_addresses() == ["10.0.0.5", "192.168.1.20"]


def test_lan_prints_the_interfaces_address_and_allows_its_origin(served, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(web, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--lan", "--port", "8600"]) == 0
    assert capsys.readouterr().out.strip() == "http://192.168.1.20:8600/"
    assert {"http://192.168.1.20:8600", "http://10.0.0.5:8600"} <= served["guard"].allowed


def test_the_store_names_a_server_database_without_any_of_its_passwords():
    """What the store says of a database it cannot use (shown on the console and, to the machine
    serving the app, on the error page) hides a query password as well as the user part's."""
    from companion.store import Store, StoreUnusable

    for url in ("mysql://ann:pw-one@127.0.0.1/club?password=pw-two", "postgresql+psycopg://ann@127.0.0.1:1/club?password=pw-two"):
        with pytest.raises(StoreUnusable) as err:
            Store(url)
        for lang in ("fr", "en"):
            said = err.value.msg.render(lang)
            assert "pw-one" not in said and "pw-two" not in said and "***" in said, said
