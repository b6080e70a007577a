"""The LAN gate without a network: which device a page is, the growing wait after a
wrong PIN, --pin checked, what the lock and the error page say, passwords hidden, the LAN
addresses. tests/test_lan_gate.py drives the same from a device on a network of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import cli
from companion.app import make_error_main, make_main, probe, web
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


def test_the_lock_says_what_a_restart_does(service):
    for given, expected in ((None, "relancer l'application donne un nouveau code"),
                            ("314159", "le code reste celui donné au lancement")):
        gate = PinGate(given, delay=0)
        page = Page("x")
        with connected_from("192.168.1.66"):
            make_main(service, gate=gate)(page)
            for _ in range(10):
                probe.type_into(page.controls[0], "pin-field", "000000", submit=True)
        assert expected in _shown(page)
        assert ("nouveau code" in _shown(page)) is (given is None)


@pytest.fixture
def served(monkeypatch):
    import flet as ft

    from companion import app

    record: dict[str, Any] = {}
    monkeypatch.setattr(ft, "run", lambda main, **kw: record.update(main=main, **kw))
    monkeypatch.setattr(app, "run_web", lambda asgi, host, port: record.update(guard=asgi, host=host))
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
