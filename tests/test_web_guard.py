"""Web mode security: a real server on loopback refuses a websocket (and HTTP) whose
Origin is another site, and accepts the app's own; with --lan a device must enter the table PIN
before anything of the app is built for it. Bounded in time; the server is stopped by the test."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from companion import cli
from companion.app import probe
from companion.app.server import make_error_main, make_main
from companion.app.web import OriginGuard, PinGate, allowed_origins, connected_from
from companion.service import SessionService
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 90  # seconds: a cold start on a busy 2-core machine


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, origin: str | None = None, host: str | None = None) -> int:
    request = urllib.request.Request(url)
    if origin:
        request.add_header("Origin", origin)
    if host:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("web")
    db = folder / "c.db"
    service = SessionService(Store(db))
    service.start("stupide-vautour", ["Anne", "Bruno"])  # something the history would show
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "--db", str(db), "run", "--port", str(port)],
                            cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert proc.poll() is None, (folder / "server.log").read_text()
            try:
                if _get(base + "/") == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)
        log.close()


def _ws(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://127.0.0.1.evil.example:8550",
                                    "http://127.0.0.1:1"])
def test_a_websocket_from_a_foreign_origin_is_refused(server, origin):
    with pytest.raises(InvalidStatus) as refused, connect(_ws(server), origin=origin,  # type: ignore[arg-type]
                                                           open_timeout=20):
        pass
    assert refused.value.response.status_code == 403


def test_a_websocket_from_the_apps_own_origin_is_accepted(server):
    port = server.rsplit(":", 1)[1]
    for origin in (server, f"http://localhost:{port}"):
        with connect(_ws(server), origin=origin, open_timeout=20) as ws:  # type: ignore[arg-type]
            assert ws.protocol.state.name == "OPEN"


def test_http_from_a_foreign_origin_is_refused_too(server):
    assert _get(server + "/") == 200
    assert _get(server + "/", origin="http://evil.example") == 403
    # DNS rebinding: the foreign page's Host points here, its Origin still names the other site
    port = server.rsplit(":", 1)[1]
    assert _get(server + "/", origin=f"http://evil.example:{port}", host=f"evil.example:{port}") == 403


def _headers(url: str, origin: str | None = None) -> dict[str, str]:
    request = urllib.request.Request(url)
    if origin:
        request.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as err:
        return {k.lower(): v for k, v in err.headers.items()}


@pytest.mark.parametrize("path, origin", [("/", None), ("/flutter_bootstrap.js", None), ("/", "http://evil.example"),
                                          ("/no-such-page", None)])
def test_no_other_site_may_frame_the_app_or_read_its_answers(server, path, origin):
    headers = _headers(server + path, origin)
    assert headers["content-security-policy"] == "frame-ancestors 'self'"
    assert headers["x-frame-options"] == "SAMEORIGIN"
    assert headers["x-content-type-options"] == "nosniff"
    assert "access-control-allow-origin" not in headers


def test_allowed_origins_are_an_explicit_list():
    allowed = allowed_origins(8550, ["192.168.1.20", "0.0.0.0", "Tablette"])
    assert allowed == {"http://127.0.0.1:8550", "http://localhost:8550", "http://[::1]:8550",
                       "http://192.168.1.20:8550", "http://tablette:8550"}
    guard = OriginGuard(lambda *a: None, allowed)  # type: ignore[arg-type, return-value]
    assert guard.allows(None) and guard.allows("http://192.168.1.20:8550/")
    assert not guard.allows("http://192.168.1.20:8551") and not guard.allows("http://evil.example")


# -- the table PIN -----------------------------------------------------------------------------------


class Page:
    """What make_main needs of a Flet page (``client_ip``: what the page says, not trusted)."""

    def __init__(self, client_ip: str):
        self.client_ip = client_ip
        self.controls: list[Any] = []
        self.width = self.height = None
        self.updates = 0

    def update(self) -> None:
        self.updates += 1


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    service = SessionService(Store(tmp_path / "c.db"))
    service.start("stupide-vautour", ["Anne", "Bruno"])
    return service


def _open(main: Any, page: Page) -> None:
    """``main`` run for ``page`` on a connection whose peer is the page's address."""
    with connected_from(page.client_ip):
        main(page)


def _shown(page: Page) -> str:
    return " ".join(probe.texts(page.controls[0]))


def test_a_device_on_the_lan_sees_only_the_pin_screen_until_it_enters_the_pin(service):
    gate = PinGate("314159", delay=0)
    page = Page("192.168.1.20")
    _open(make_main(service, gate=gate), page)
    root = page.controls[0]
    assert probe.has(root, "pin-screen") and not probe.has(root, "home-new")
    assert "Anne" not in _shown(page) and "Bruno" not in _shown(page)
    probe.type_into(root, "pin-field", "000000")
    probe.tap(root, "pin-enter")
    root = page.controls[0]
    assert probe.has(root, "pin-problem") and not probe.has(root, "home-new")
    probe.type_into(root, "pin-field", "314159", submit=True)
    assert not probe.has(page.controls[0], "pin-screen")
    assert probe.has(page.controls[0], "sv-reveal")  # straight to the game in play


def test_the_serving_machine_needs_no_pin_and_ten_wrong_pins_lock_out_only_that_device(service):
    gate = PinGate("314159", delay=0)
    local = Page("127.0.0.1")
    _open(make_main(service, gate=gate), local)
    assert probe.has(local.controls[0], "home-new")

    pest = Page("192.168.1.66")
    _open(make_main(service, gate=gate), pest)
    for _ in range(10):
        probe.type_into(pest.controls[0], "pin-field", "111111", submit=True)
    root = pest.controls[0]
    assert not probe.has(root, "pin-field")  # this device may not try again…
    assert "Trop de codes erronés depuis cet appareil" in _shown(pest)
    assert not gate.check("314159", "192.168.1.66")  # …not even with the right PIN, until the table gives a new one

    guest = Page("192.168.1.21")  # …but another device still joins the table
    _open(make_main(service, gate=gate), guest)
    probe.type_into(guest.controls[0], "pin-field", "314159", submit=True)
    assert probe.has(guest.controls[0], "sv-reveal")  # in, on the game in play
    assert probe.has(local.controls[0], "home-new")


def test_fifty_wrong_pins_from_all_devices_together_lock_every_device_out(service):
    gate = PinGate("314159", delay=0)
    for device in range(5):
        for _ in range(10):
            assert not gate.check("111111", f"192.168.1.{100 + device}")
    assert gate.closed and not gate.check("314159", "192.168.1.21")  # a guess from many addresses is bounded
    page = Page("192.168.1.21")
    _open(make_main(service, gate=gate), page)
    assert probe.has(page.controls[0], "pin-problem") and not probe.has(page.controls[0], "pin-field")
    assert "l'accès est bloqué" in _shown(page)
    local = Page("127.0.0.1")  # the serving machine still opens the app (and gives a new PIN)
    _open(make_main(service, gate=gate), local)
    assert probe.has(local.controls[0], "home-new")


def test_lan_prints_the_warning_and_a_pin_and_gates_the_pages(tmp_path, monkeypatch, capsys):
    import flet as ft

    from companion.app import server

    served: dict[str, Any] = {}
    monkeypatch.setattr(ft, "run", lambda main, **kw: served.update(main=main, **kw))
    monkeypatch.setattr(server, "run_web", lambda asgi, host, port: served.update(guard=asgi, host=host, port=port))
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    assert cli.main(["--db", str(tmp_path / "c.db"), "run", "--lan", "--pin", "246802", "--port", "8600"]) == 0
    err = capsys.readouterr().err
    assert "246802" in err and "toute personne sur ce réseau" in err
    assert served["host"] == "0.0.0.0"
    assert "http://127.0.0.1:8600" in served["guard"].allowed
    page = Page("10.0.0.7")
    _open(served["main"], page)
    assert probe.has(page.controls[0], "pin-screen")


def test_loopback_serving_has_no_pin(tmp_path, monkeypatch, capsys):
    import flet as ft

    from companion.app import server

    served: dict[str, Any] = {}
    monkeypatch.setattr(ft, "run", lambda main, **kw: served.update(main=main, **kw))
    monkeypatch.setattr(server, "run_web", lambda asgi, host, port: served.update(guard=asgi, host=host, port=port))
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    assert cli.main(["--db", str(tmp_path / "c.db"), "run"]) == 0
    assert served["host"] == "127.0.0.1" and "PIN" not in capsys.readouterr().err
    page = Page("127.0.0.1")
    _open(served["main"], page)
    assert probe.has(page.controls[0], "home-new")


def test_an_unusable_database_shows_a_clear_page_and_exits_2(tmp_path, monkeypatch, capsys):
    import flet as ft

    from companion.app import server

    bad = tmp_path / "c.db"
    bad.write_text(json.dumps({"not": "a database"}) * 20)
    before = bad.read_bytes()
    served: dict[str, Any] = {}
    monkeypatch.setattr(ft, "run", lambda main, **kw: served.update(main=main, **kw))
    monkeypatch.setattr(server, "run_web", lambda asgi, host, port: served.update(guard=asgi))
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    assert cli.main(["--db", str(bad), "run"]) == 2
    err = capsys.readouterr().err
    assert "SQLite" in err and "Traceback" not in err
    page = Page("127.0.0.1")
    _open(served["main"], page)
    assert probe.has(page.controls[0], "startup-error")
    assert "SQLite" in probe.text_of(page.controls[0], "startup-error-text")
    assert bad.read_bytes() == before


def test_the_error_page_is_in_the_saved_language(tmp_path):
    from models.i18n import Msg

    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"lang": "en"}))
    page = Page("127.0.0.1")
    make_error_main(Msg("store.not_sqlite", {"path": "x.db"}), settings)(page)
    assert "not an SQLite file" in probe.text_of(page.controls[0], "startup-error-text")
