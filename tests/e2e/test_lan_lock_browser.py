"""A table PIN lock, lifted from the serving machine in Chromium: no restart, no game lost.

The app is served with ``--lan --pin`` in a network namespace of this module's own
(tests/netns.py), and the serving machine's browser runs in that same namespace: its page comes
from loopback, the peer the app trusts (no PIN, the join card). A device in the other namespace
(tests/lan_device.py, Flet's protocol spoken raw) types ten wrong PINs and is locked out.

As the person at the serving machine would see it, with the game in play on screen: the lock shows
on its page by itself (no reload: the gate tells the page), saying how many devices are locked;
one tap on « Nouveau code » lifts it, the table screen keeps its game, the new PIN is said, the
join card shows it and says that the PIN given at start no longer works; the locked device gets
in with the new PIN.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.e2e.harness import Screen, chromium_in_namespace, tab
from tests.netns import Lan, Served

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "135790"
PORT = 8570
NAMES = ("Anne", "Bruno")


def fr(key: str, **params: Any) -> str:
    return Msg(key, params).render("fr")


@pytest.fixture(scope="module")
def served(net: Lan, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, int]]:
    db = tmp_path_factory.mktemp("lan-lock") / "c.db"
    sid = SessionService(Store(db)).start("stupide-vautour", list(NAMES)).session_id  # the game in play
    server = Served(net, db, db.parent / "server.log", "--pin", PIN, port=PORT,
                    env={"COMPANION_PIN_DELAY_S": "0"})  # ten wrong PINs in a row, no wait between
    try:
        yield server.wait(), sid
    finally:
        server.stop()


@pytest.fixture(scope="module")
def serving_browser(net: Lan, playwright_driver: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium on the serving machine: in the server's namespace, where the app is loopback."""
    with chromium_in_namespace(playwright_driver, net.server_ns, tmp_path_factory.mktemp("serving")) as browser:
        yield browser


def pin_shown(s: Screen) -> str:
    found = re.search(r"\d{6}", s.text("join-pin"))
    assert found, s.text("join-pin")
    return found.group(0)


def test_the_serving_machine_sees_the_lock_and_lifts_it_with_one_tap(net: Lan, served: tuple[Served, int],
                                                                    serving_browser: Any):
    server, sid = served
    with tab(serving_browser) as s:
        s.open(f"http://127.0.0.1:{PORT}/")
        assert pin_shown(s) == PIN and not s.exists("pin-lock")
        s.resume(sid)  # the game in play on the serving machine's screen
        s.wait_for("sv-reveal")

        locked = net.device("pins", server.url, *["000000"] * 10)
        assert "pin-field" in str(locked["first"]), locked  # the device got the PIN screen…
        said = " ".join(locked["attempts"][-1]["texts"])
        assert "Trop de codes erronés depuis cet appareil" in said, locked  # …and is locked out
        assert "Demandez un nouveau code à la table" in said

        # no reload: the serving machine's page says it by itself, on the game's screen
        s.wait_text(fr("app.pin.locked_here", count=1), "pin-lock", timeout=30)
        assert fr("app.pin.closed_here") not in s.text("pin-lock")
        still = net.device("pins", server.url, PIN)  # locked: not even the right PIN is read
        assert "pin-field" not in still["attempts"][0]["texts"] and still["attempts"][0].get("no_field"), still

        s.tap_until("pin-new", lambda: not s.exists("pin-lock"))
        s.wait_gone("pin-lock")
        notice = re.search(r"Nouveau code de la table : (\d{6})", s.text("notice"))
        assert notice, s.text("notice")
        new = notice.group(1)
        assert new != PIN
        s.wait_for("sv-reveal")  # the game is still on screen, nothing lost
        for name in NAMES:
            s.wait_text(name, f"sv-player-{name}")

        s.tap_until("nav-home", lambda: s.exists("join-pin"))
        s.until(lambda: pin_shown(s) == new, "the join card shows the new PIN")
        s.wait_text(fr("app.pin.replaced_fixed"), "join-pin-replaced")
        assert s.exists(f"resume-{sid}")  # the game is still in play

    old = net.device("pins", server.url, PIN)  # the PIN given at start no longer opens…
    assert fr("app.pin.wrong") in " ".join(old["attempts"][0]["texts"]), old
    joined = net.device("pins", server.url, new)  # …the new one does, for the device locked out before
    texts = " ".join(joined["attempts"][0]["texts"])
    assert "pin-problem" not in texts and "sv-reveal" in texts, joined
