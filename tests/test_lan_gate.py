"""The table PIN with ``companion run --lan`` against a device on the network (issue #27).

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
from tests.netns import Lan, Served, lan

PIN = "246810"


@pytest.fixture(scope="module")
def net() -> Iterator[Lan]:
    with lan() as made:
        yield made


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
