"""`companion run --lan` opened in Chromium by a device on the network (issue #27).

The app is served in a network namespace of this module's own and Chromium runs in another
(tests/netns.py: a veth pair with private 10.x addresses, nothing routed anywhere else): Playwright
launches a small wrapper that starts Debian's chromium through ``ip netns exec``, so the browser's
every packet leaves from the device's address, never from loopback (which the app trusts). The tab
also refuses any request that is not to the app's LAN address.

As a person at the device would: the URL the app printed opens the app (nothing refused with 403),
the PIN screen shows and nothing else (no history, no player name), a wrong PIN is refused, a
second one straight after is met with the wait (even the right PIN is not read then), and once the
wait is over the right PIN opens the home screen with the history; a new tab on the same device
starts at the PIN screen again.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.app.socket_guard import SMALL_MESSAGE
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.e2e.harness import Screen, chromium_in_namespace
from tests.netns import Lan, Served

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "246810"
WRONG_PINS = ("000001", "000002")
NAMES = ("Anne", "Bruno")
DELAY_S = 8  # the wait after the first wrong PIN: the next two tries (a few seconds) come within it on a busy machine
# What the page may show before the PIN: its identifiers (anything else, a history tile, a button
# of the app, would be the app itself).
PIN_SCREEN = {"pin-screen", "pin-field", "pin-enter", "pin-problem"}


def fr(key: str, **params: Any) -> str:
    return Msg(key, params).render("fr")


@pytest.fixture(scope="module")
def server(net: Lan, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("lan-browser") / "c.db"
    SessionService(Store(db)).start("stupide-vautour", list(NAMES))  # the game in play, shown once in
    served = Served(net, db, db.parent / "server.log", "--pin", PIN, port=8560,
                    env={"COMPANION_PIN_DELAY_S": str(DELAY_S)})
    try:
        yield served.wait()
    finally:
        served.stop()


@pytest.fixture(scope="module")
def device_browser(net: Lan, playwright_driver: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium running in the device's namespace: the browser's network is the device's."""
    with chromium_in_namespace(playwright_driver, net.device_ns, tmp_path_factory.mktemp("device")) as browser:
        # The browser is in the device's namespace (else its packets to the LAN address would
        # leave the machine by the default route): its processes are listed there.
        inside = subprocess.run(["ip", "netns", "pids", net.device_ns], capture_output=True, text=True,
                                timeout=30, check=True).stdout.split()
        assert inside, "chromium is not running in the device's namespace"
        yield browser


class Tab:
    """A tablet-sized tab of the device's browser on the app; every response it gets is kept, and
    any request to another address than the app's is aborted (and kept, to be looked at)."""

    def __init__(self, browser: Any, base: str):
        self.base = base
        self.context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        self.page = self.context.new_page()
        self.responses: list[tuple[int, str]] = []
        self.elsewhere: list[str] = []
        self.sent: list[int] = []  # the size of every websocket message the page sent
        self.page.on("response", lambda answer: self.responses.append((answer.status, answer.url)))
        self.page.on("websocket", lambda ws: ws.on("framesent", lambda payload: self.sent.append(len(payload))))
        self.page.route("**/*", self._only_the_app)
        self.screen = Screen(self.page)

    def _only_the_app(self, route: Any) -> None:
        if route.request.url.startswith(self.base + "/"):
            route.continue_()
        else:
            self.elsewhere.append(route.request.url)
            route.abort()

    def identifiers(self) -> set[str]:
        return set(self.page.evaluate(
            "() => Array.from(document.querySelectorAll('[flt-semantics-identifier]'))"
            ".map(e => e.getAttribute('flt-semantics-identifier'))"))

    def open(self, url: str) -> None:
        """Open ``url`` as a person would and wait for the PIN screen; if the app never starts,
        say which of its files were refused."""
        try:
            self.screen.open(url, first="pin-screen")
        except Exception as err:
            raise AssertionError(f"the app did not start on the device; refused: {self.refused()}; "
                                 f"asked elsewhere: {self.elsewhere}") from err

    def refused(self) -> list[tuple[int, str]]:
        return [(status, url) for status, url in self.responses if status >= 400]

    def close(self) -> None:
        self.context.close()


def submit(s: Screen, pin: str) -> None:
    """Type the PIN and tap "Rejoindre la table", once more if the tap did nothing (the field still
    holds the PIN: the app empties it after each refused try, and leaves the PIN screen on success)."""
    s.type_into("pin-field", pin)

    def taken() -> bool:  # no wait on a field that may go as it is read
        field = s.page.locator('[flt-semantics-identifier="pin-field"] input')
        return field.count() == 0 or field.first.input_value(timeout=1000) == ""

    s.tap_until("pin-enter", taken)


def pin_typed(s: Screen) -> str:
    """What the PIN field holds (the app shows a new, empty one after each refused try)."""
    return str(s.wait_for("pin-field").locator("input").first.input_value())


def only_the_pin_screen(tab: Tab) -> None:
    s = tab.screen
    shown = s.body_text()
    assert tab.identifiers() <= PIN_SCREEN, tab.identifiers()
    for name in NAMES:
        assert name not in shown, shown
    assert fr("app.pin.title") in shown


def test_a_device_opens_the_printed_url_and_gets_in_only_with_the_pin(server: Served, device_browser: Any):
    printed = server.printed_url()
    assert printed == f"{server.url}/"  # the LAN address, not a host name that resolves to loopback

    tab = Tab(device_browser, server.url)
    try:
        s = tab.screen
        tab.open(printed)
        assert (200, printed) in tab.responses, tab.responses
        assert any(url.endswith("/main.dart.mjs") for _, url in tab.responses), tab.responses
        assert tab.refused() == [], tab.refused()  # the app's own files all load: no 403
        s.wait_for("pin-field")
        only_the_pin_screen(tab)

        submit(s, WRONG_PINS[0])
        s.wait_text(fr("app.pin.wrong"), "pin-problem")
        only_the_pin_screen(tab)

        submit(s, WRONG_PINS[1])  # straight after: the device must wait
        s.wait_text("avant d'essayer un autre code", "pin-problem")
        waited_from = time.monotonic()
        only_the_pin_screen(tab)
        submit(s, PIN)  # even the right PIN is not read during the wait
        s.until(lambda: pin_typed(s) == "", "the PIN screen shown again after the try")
        s.wait_text("avant d'essayer un autre code", "pin-problem")
        time.sleep(1.0)  # what the app would show by now, had it opened
        only_the_pin_screen(tab)

        time.sleep(max(0.0, DELAY_S + 1 - (time.monotonic() - waited_from)))
        submit(s, PIN)
        s.wait_for("sv-reveal", timeout=30)  # straight to the game in play, as a phone that joins is
        s.wait_gone("pin-screen")
        for name in NAMES:  # the players the PIN screen kept hidden
            s.wait_text(name, f"sv-player-{name}")
        assert tab.refused() == [], tab.refused()
        assert tab.elsewhere == [], tab.elsewhere
        # what the browser sends before and at the PIN (its registration the largest) fits well
        # within the socket guard's limit for a device without the PIN
        assert tab.sent and max(tab.sent) < SMALL_MESSAGE // 8, sorted(tab.sent)[-5:]
    finally:
        tab.close()

    again = Tab(device_browser, server.url)  # another tab on the same device: the PIN again
    try:
        again.open(printed)
        again.screen.wait_for("pin-field")
        only_the_pin_screen(again)
        assert again.refused() == [] and again.elsewhere == []
    finally:
        again.close()
