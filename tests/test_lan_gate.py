"""The table PIN with ``companion run --lan`` against a device on the network.

The network tests serve the app in a network namespace of their own and act as a device in another
(tests/netns.py: a veth pair with private addresses, nothing routed elsewhere), with a raw websocket
client speaking Flet's protocol (tests/lan_device.py). The app trusts loopback only: the device is
never on 127.x.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.service import SessionService
from companion.store import Store
from tests.netns import Lan, Served

PIN = "246810"


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lan") / "c.db"
    SessionService(Store(db)).start("stupide-vautour", ["Anne", "Bruno"])  # what the history would show
    return db


@pytest.fixture(scope="module")
def server(net: Lan, history: Path) -> Iterator[Served]:
    served = Served(net, history, history.parent / "server.log", "--pin", PIN).wait()
    try:
        yield served
    finally:
        served.stop()


def _joined(texts: list[str]) -> str:
    return " ".join(texts)


@pytest.mark.slow
def test_a_device_that_says_it_is_the_serving_machine_still_sees_only_the_pin_screen(net, server):
    for _ in range(3):
        shown = _joined(net.device("spoof", server.url)["texts"])
        assert "pin-screen" in shown, shown[:2000]
        assert "Anne" not in shown and "Bruno" not in shown and "home-new" not in shown


@pytest.mark.slow
def test_a_device_without_the_pin_reads_nothing_of_the_app(net, server):
    answer = net.device("pins", server.url)
    shown = _joined(answer["first"])
    assert "pin-screen" in shown and "Anne" not in shown and "history" not in shown


WRONG = "Ce n'est pas le code de la table."
WAIT = "avant d'essayer un autre code"


@pytest.mark.slow
def test_a_device_must_wait_longer_after_each_wrong_pin(net, history, tmp_path):
    # a wait of 20 s after the first wrong PIN (the default is 1 s): the two tries straight after it
    # fall inside it however slow the machine is
    served = Served(net, history, tmp_path / "server.log", "--pin", PIN, port=8554,
                    env={"COMPANION_PIN_DELAY_S": "20"}).wait()
    try:
        attempts = net.device("pins", served.url, "000001", "000002", "000003")["attempts"]
    finally:
        served.stop()
    said = [_joined(attempt["texts"]) for attempt in attempts]
    assert WRONG in said[0]
    assert WAIT in said[1] and WAIT in said[2]  # straight after: refused unread, no ~100 PINs a second


@pytest.mark.slow
def test_the_printed_url_opens_the_app_from_another_device(net, server):
    url = server.printed_url()
    assert url == f"{server.url}/"  # the LAN address, not a host name that resolves to loopback
    status = net.device("get", server.url, server.url, "/", "/main.dart.mjs", "/flutter_bootstrap.js")["status"]
    assert set(status.values()) == {200}, status
    foreign = net.device("get", server.url, "http://evil.example", "/main.dart.mjs")["status"]
    assert foreign == {"/main.dart.mjs": 403}


@pytest.mark.slow
def test_one_device_with_a_new_address_on_each_connection_still_counts_as_one(net, history, tmp_path):
    served = Served(net, history, tmp_path / "server.log", "--pin", PIN, port=8551,
                    env={"COMPANION_PIN_DELAY_S": "0"}).wait()
    try:
        for n in range(10):  # each connection says it is another device
            answer = net.device("pins", served.url, f"--client-ip=192.168.7.{n + 10}", "111111")
            said = _joined(answer["attempts"][0]["texts"])
            assert (WRONG if n < 9 else "Trop de codes erronés depuis cet appareil") in said
        answer = net.device("pins", served.url, "--client-ip=192.168.7.99", PIN)
        shown = _joined(answer["first"])
        assert "Trop de codes erronés depuis cet appareil" in shown and "pin-field" not in shown
        assert "Demandez un nouveau code à la table" in shown  # the serving machine lifts the lock
        assert answer["attempts"][0].get("no_field")
        assert "Anne" not in _joined(answer["attempts"][0]["texts"])
    finally:
        served.stop()


@pytest.mark.slow
def test_a_device_without_the_pin_is_not_told_where_the_database_is(net, tmp_path):
    bad = tmp_path / "secret-folder" / "c.db"
    bad.parent.mkdir()
    bad.write_text("not a database " * 100)
    served = Served(net, bad, tmp_path / "server.log", port=8552).wait()
    try:
        shown = _joined(net.device("pins", served.url)["first"])
        assert "startup-error" in shown and "ne peut pas démarrer sur la machine qui la sert" in shown
        assert "secret-folder" not in shown and "SQLite" not in shown
        assert "secret-folder" in served.log()  # the console says it all
    finally:
        served.stop()


@pytest.mark.slow
def test_sigterm_stops_the_app_quickly_with_a_device_connected(net, history, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    served = Served(net, history, tmp_path / "server.log", port=8553).wait()
    holder = subprocess.Popen(net.in_ns(net.device_ns, [sys.executable, "-c", (
        "import sys, time; sys.path.insert(0, %r); from lan_device import Client; "
        "c = Client(%r); c.register(); c.read(20.0, until=('pin-screen',)); print('connected', flush=True); "
        "time.sleep(60)") % (str(Path(__file__).parent), served.url)]), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "connected"  # its page is open
        started = time.monotonic()
        served.proc.send_signal(signal.SIGTERM)
        served.proc.wait(timeout=30)
        assert time.monotonic() - started < 8
    finally:
        holder.kill()
        holder.wait(timeout=20)
        served.stop()
