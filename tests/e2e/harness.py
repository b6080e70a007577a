"""Driving the real app in headless Debian chromium (Playwright for Python, never `playwright install`).

The app runs as a subprocess (`companion --db <tmp> run --port <free>`); Playwright for Python
drives /usr/bin/chromium (never `playwright install`). Controls are found by their
``ft.Semantics(identifier=…)``: ``[flt-semantics-identifier="…"]`` once Flutter's accessibility
tree is switched on (a click dispatched on ``flt-semantics-placeholder``).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT = 20.0
# each control's rectangle in the window ([left, top, right, bottom]), or null when it is not on screen
RECTS = """(ids) => ids.map(id => {
  const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  if (!e) return [id, null];
  const r = e.getBoundingClientRect();
  return [id, [r.left, r.top, r.right, r.bottom]];
})"""

# Installed in every tab before its scripts run: a watch on the page's websocket that notes when
# each message from the server arrives (``__arrivals``, performance.now(); the tap benchmark splits
# a tap's time with it) and each time Flet's client tells the server the window's new size (its
# "resize" event, a msgpack string: ``__resizes``, the last at ``__resized``). The server lays the
# screen out again for a phone or a tablet, and a tap sent before its answer may target a control
# the new layout no longer has (see Screen.answered).
WS_WATCH = """
(() => {
  const Native = window.WebSocket;
  window.__arrivals = [];
  window.__resizes = 0;
  window.__resized = 0;
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => window.__arrivals.push(performance.now()));
    }
    send(data) {
      try {
        const bytes = new Uint8Array(data.buffer || data);
        if (String.fromCharCode(...bytes.subarray(0, 256)).includes('\\xa6resize')) {
          window.__resizes++;
          window.__resized = performance.now();
        }
      } catch (e) {}
      return super.send(data);
    }
  }
  window.WebSocket = Watched;
})();
"""


@contextmanager
def chromium_in_namespace(pw: Any, ns: str, folder: Path) -> Iterator[Any]:
    """Debian's chromium run inside the network namespace ``ns`` (tests/netns.py), launched by the
    Playwright driver ``pw`` (the ``playwright_driver`` fixture): Playwright talks to it over the
    pipe it opens, inherited through ``ip netns exec``; the browser's network is the namespace's.
    ``folder``: where the small wrapper script is written."""
    import shlex

    wrapper = folder / f"chromium-in-{ns}"
    wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {shlex.quote(ns)} {shlex.quote(CHROMIUM)} "$@"\n')
    wrapper.chmod(0o755)
    browser = pw.chromium.launch(executable_path=str(wrapper), args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


def listener(port: int) -> int | None:
    """The pid of the process listening on ``port`` on this machine (None if ``ss`` cannot say)."""
    try:
        out = subprocess.run(["ss", "-Hltnp", f"sport = :{port}"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"pid=(\d+)", out)
    return int(found.group(1)) if found else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppProcess:
    """`companion --db DB run [EXTRA…] --port PORT` in the background, its output in a log file
    (``extra``: e.g. ``--lan --pin 135790``; a subclass may serve another command: ``command``)."""

    def __init__(self, db: Path, log_path: Path, extra: Iterable[str] = ()):
        self.db = db
        self.log_path = log_path
        self.extra = tuple(extra)
        self.port = 0
        self.proc: subprocess.Popen | None = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", "companion", "--db", str(self.db), "run", *self.extra, "--port", str(self.port)]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> "AppProcess":
        """Start the app on a free port and wait until it answers. A port found free can be taken by
        another test's app (another worker) before this one binds it: then the answer would come
        from that app, and this one exits. So the app that answers must be this very process
        (``ss`` names the port's listener), else it starts again on another port."""
        for _ in range(3):
            if self._start_on(free_port()):
                return self
        raise RuntimeError(f"the app could not get a port of its own:\n{self.log()}")

    def _start_on(self, port: int) -> bool:
        self.port = port
        env = dict(os.environ)
        for knob in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "COMPANION_DB"):
            env.pop(knob, None)
        env["PYTHONUNBUFFERED"] = "1"
        log = open(self.log_path, "a", encoding="utf-8")
        self.proc = subprocess.Popen(self.command(), cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if listener(self.port) not in (None, self.proc.pid):  # the port went to another app
                    return False
                raise RuntimeError(f"the app exited ({self.proc.returncode}):\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url, timeout=2) as answer:
                    if answer.status == 200 and listener(self.port) in (self.proc.pid, None):
                        return True
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the app did not answer on {self.url}:\n{self.log()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8")[-4000:]
        except OSError:
            return ""


def sel(ident: str) -> str:
    return f'[flt-semantics-identifier="{ident}"]'


def loopback_only(route: Any) -> None:
    """A tab's route: the app must work with no network at all, so every request that is not to
    the app on loopback is refused."""
    if route.request.url.startswith("http://127.0.0.1"):
        route.continue_()
    else:
        route.abort()


@contextmanager
def tab(browser: Any, width: int = 1280, height: int = 800, *, init_script: str | None = None) -> Iterator["Screen"]:
    """A fresh tab in a context of its own, ``width`` × ``height`` (a 10-inch tablet in landscape
    unless told), that reaches nothing but the app (``loopback_only``), its websocket watched
    (``WS_WATCH``); ``init_script`` runs in the page before its own scripts. The context is closed
    on leaving."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.add_init_script(WS_WATCH)
        if init_script is not None:
            page.add_init_script(init_script)
        page.route("**/*", loopback_only)
        yield Screen(page)
    finally:
        context.close()


class Screen:
    """One browser tab on the app, with waits that poll the accessibility tree."""

    def __init__(self, page: Any):
        self.page = page
        self._told: int | None = None  # the resize events sent before the last resize (see resize)

    def open(self, url: str, first: str = "home-new") -> None:
        self.page.goto(url)
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
        self.page.locator("flt-semantics-placeholder").dispatch_event("click")
        self.wait_for(first, timeout=60)

    def tap_until(self, ident: str, done: Callable[[], bool], wait: float = 6.0) -> None:
        """Tap ``ident``; if ``done()`` is still false ``wait`` seconds later, tap once more, as a
        player whose tap did nothing would (on a loaded machine a tap dispatched while Flutter
        rebuilds the screen it lands on, after a resize for instance, can be lost). Never a third
        time: a tap that never works fails on what the test waits for next."""
        self.click(ident)
        if not self.holds(done, wait, step=0.1) and self.exists(ident):
            self.click(ident)

    def tap_until_saved(self, ident: str, saved: Callable[[], bool], wait: float = 6.0) -> None:
        """Tap ``ident`` until the server has saved its entry (``saved()``): see ``tap_until``."""
        self.tap_until(ident, saved, wait)

    def resume(self, sid: int) -> None:
        """Back to the home screen (if not there), then tap the game in progress ``sid``; each tap
        is made once more if its screen did not come (see ``tap_until``). The game's screen has come
        when its bar offers the way home: a sign the game's screen gives, where the tile's absence
        could also be the home screen being laid out again."""
        if self.exists("nav-home"):
            self.tap_until("nav-home", lambda: self.exists(f"resume-{sid}"))
        self.wait_for(f"resume-{sid}")
        self.tap_until(f"resume-{sid}", lambda: self.exists("nav-home"))

    # -- finding -------------------------------------------------------------------------------

    def exists(self, ident: str) -> bool:
        return self.page.locator(sel(ident)).count() > 0

    def wait_for(self, ident: str, timeout: float = TIMEOUT) -> Any:
        self.page.wait_for_selector(sel(ident), state="attached", timeout=timeout * 1000)
        return self.page.locator(sel(ident)).first

    def wait_gone(self, ident: str, timeout: float = TIMEOUT) -> None:
        self.until(lambda: not self.exists(ident), f"{ident} still shown", timeout)

    def text(self, ident: str) -> str:
        node = self.wait_for(ident)
        return " ".join((node.inner_text() or "").split()) + " " + (node.get_attribute("aria-label") or "")

    def body_text(self) -> str:
        return " ".join(self.page.evaluate(
            "() => Array.from(document.querySelectorAll('flt-semantics')).map("
            "e => (e.getAttribute('aria-label') || '') + ' ' + (e.childElementCount ? '' : e.textContent)).join(' ')"
        ).split())

    @staticmethod
    def holds(check: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
        """Whether ``check()`` comes true within ``timeout`` seconds (polled every ``step``; an error
        while the tree is being rebuilt counts as not yet)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if check():
                    return True
            except Exception:  # the tree is being rebuilt
                pass
            time.sleep(step)
        return False

    def until(self, check: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        if not self.holds(check, timeout):
            raise AssertionError(f"timed out: {what}\n--- screen text ---\n{self.body_text()[:3000]}")

    def out_of_view(self, idents: Iterable[str], screens: float = 1.0) -> list[str]:
        """The controls among ``idents`` not wholly inside the window (or not on the screen at all),
        each with its rectangle, read in one call; ``screens``: how many window heights down a
        control's bottom may be (2: within one scroll of the top)."""
        size = self.page.viewport_size or {"width": 0, "height": 0}
        rects = self.page.evaluate(RECTS, list(idents))
        return [f"{ident} {rect and [round(v) for v in rect]}" for ident, rect in rects
                if rect is None or rect[0] < 0 or rect[1] < 0 or rect[2] > size["width"] + 0.5
                or rect[3] > size["height"] * screens + 0.5]

    def in_view(self, idents: Iterable[str], what: str, screens: float = 1.0, timeout: float = 10) -> None:
        """Every control of ``idents`` comes wholly into view (see ``out_of_view``) within ``timeout``
        seconds; else an error that says which did not, and where they are."""
        idents = list(idents)
        if not self.holds(lambda: self.out_of_view(idents, screens) == [], timeout):
            raise AssertionError(f"{what}: not wholly in view: {self.out_of_view(idents, screens)[:8]}")

    def refusal_leaves_in_view(self, tablet: Iterable[str], what: str, rule_text: str,
                               phone: Iterable[str] | None = None) -> None:
        """With a refusal on screen the turn's entry stays usable: the refusal, its rule button and
        ``tablet`` wholly in view at 1280×800; the same (or ``phone``) within one scroll at 390×844;
        then the rule's text (``rule_text``, its start) one tap away, and closed again."""
        refusal = ["refusal", "refusal-rule"]
        self.in_view(refusal + list(tablet), f"{what} at 1280x800")
        self.resize(390, 844)
        self.in_view(refusal + list(tablet if phone is None else phone), f"{what} at 390x844", screens=2)
        self.resize(1280, 800)
        self.click("refusal-rule")
        self.wait_text(rule_text, "refusal-rule-text")
        self.click("refusal-rule-close")
        self.wait_gone("refusal-rule-text")

    def box(self, ident: str) -> dict[str, float] | None:
        """Where the control ``ident`` is on the page (x, y, width, height in CSS pixels), or None."""
        return self.wait_for(ident).bounding_box()

    def enabled(self, ident: str) -> bool | None:
        """What the accessibility tree says of the control ``ident``: True when a tap reaches it
        (a tappable node), False when it is disabled (``aria-disabled`` on a button or a tappable
        card, ``disabled`` on a field) and not tappable, None when it says neither (or is missing)."""
        return self.page.evaluate(
            """(id) => {
                const top = document.querySelector(`[flt-semantics-identifier="${id}"]`);
                if (!top) return null;
                const nodes = [top, ...top.querySelectorAll('*')];
                if (nodes.some(e => e.hasAttribute('flt-tappable'))) return true;
                if (nodes.some(e => e.getAttribute('aria-disabled') === 'true'
                                    || (e.tagName === 'INPUT' && e.disabled))) return false;
                return null;
            }""", ident)

    def wait_enabled(self, ident: str, enabled: bool = True, timeout: float = TIMEOUT) -> None:
        self.until(lambda: self.enabled(ident) is enabled, f"{ident} {'enabled' if enabled else 'disabled'}",
                   timeout)

    def tap_anyway(self, ident: str) -> None:
        """A tap a person makes on the control whatever its state: a click dispatched on its button
        node (which Flutter ignores when the control is disabled)."""
        self.answered()
        self.wait_for(ident)
        target = self.page.locator(f"{sel(ident)}[role], {sel(ident)} [role]").first
        target.dispatch_event("click")

    def wait_text(self, needle: str, ident: str | None = None, timeout: float = TIMEOUT) -> None:
        if ident is None:
            self.until(lambda: needle in self.body_text(), f"text {needle!r} on screen", timeout)
        else:
            self.until(lambda: needle in self.text(ident), f"text {needle!r} in {ident}", timeout)

    def wait_match(self, pattern: str, ident: str, timeout: float = TIMEOUT) -> re.Match:
        found: list[re.Match] = []

        def check() -> bool:
            m = re.search(pattern, self.text(ident))
            if m:
                found.append(m)
            return bool(m)

        self.until(check, f"{pattern!r} in {ident}", timeout)
        return found[-1]

    # -- acting --------------------------------------------------------------------------------

    def click(self, ident: str, timeout: float = TIMEOUT) -> None:
        """Tap the control: a DOM click dispatched on its tappable semantics node, which Flutter turns
        into a tap action on that node. No mouse coordinates are involved, so a layout that moves
        between finding the node and tapping it (a scroll, a rebuilt screen) cannot send the tap to
        a neighbour. Retried if the node is replaced under us."""
        from playwright.sync_api import Error

        tappable = f"{sel(ident)}[flt-tappable], {sel(ident)} [flt-tappable]"
        self.answered()
        for attempt in range(3):
            self.wait_for(ident, timeout)
            try:
                self.page.wait_for_selector(tappable, state="attached", timeout=timeout * 1000)
                self.page.locator(tappable).first.dispatch_event("click", timeout=timeout * 1000)
                return
            except Error:
                if attempt == 2:
                    raise
                time.sleep(0.2)

    def type_into(self, ident: str, value: str) -> None:
        """Focus the field (a DOM focus, no mouse coordinates: a click at a position the canvas has
        not caught up with could land on another control), wait for the focus and two frames, type,
        check the value; retry once."""
        self.answered()
        for attempt in range(2):
            field = self.wait_for(ident).locator("input, textarea").first
            field.focus()
            self.page.wait_for_function("() => document.activeElement && "
                                        "['INPUT', 'TEXTAREA'].includes(document.activeElement.tagName)",
                                        timeout=TIMEOUT * 1000)
            self.frames(2)
            self.page.keyboard.press("Control+A")
            self.page.keyboard.type(value)
            self.frames(2)
            if field.input_value() == value:
                self.settle()  # each key may re-render the screen: tap what the last one shows
                return
        raise AssertionError(f"could not type {value!r} into {ident}")

    def settle(self, quiet: float = 0.25, limit: float = 3.0) -> bool:
        """Wait until the page has not changed for ``quiet`` seconds (no DOM mutation: the server's
        renders have landed), at most ``limit`` seconds; whether it settled."""
        return bool(self.page.evaluate(
            """([quiet, limit]) => new Promise(resolve => {
                let last = performance.now();
                const start = last;
                const seen = new MutationObserver(() => { last = performance.now(); });
                seen.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
                const tick = () => {
                    const now = performance.now();
                    if (now - last >= quiet || now - start >= limit) {
                        seen.disconnect();
                        resolve(now - last >= quiet);
                    } else {
                        setTimeout(tick, 25);
                    }
                };
                setTimeout(tick, 25);
            })""", [quiet * 1000, limit * 1000]))

    def resize(self, width: int, height: int) -> None:
        """The window to ``width`` × ``height``; when that changes its size, three frames are waited
        for Flutter to lay the screen out again, and the next tap waits for the server (``answered``)."""
        if self.page.viewport_size == {"width": width, "height": height}:
            return
        if self._told is None:
            self._told = int(self.page.evaluate("() => window.__resizes || 0"))
        self.page.set_viewport_size({"width": width, "height": height})
        self.frames(3)

    def answered(self) -> None:
        """After a resize, wait until Flet's client has told the server the window's new size and the
        server has answered: it lays the screen out again when the window turns from a tablet's to a
        phone's, or from landscape to portrait, and a tap sent in between targets the controls of
        the old layout (under load, such a tap was lost). A new size of the same kind gets no
        answer: that wait ends after 2 s. Each tap calls it; it costs nothing but after a resize."""
        from playwright.sync_api import TimeoutError as Late

        if self._told is None:
            return
        try:
            self.page.wait_for_function("told => window.__resizes > told && "
                                        "window.__arrivals.at(-1) >= window.__resized",
                                        arg=self._told, timeout=2000)
        except Late:
            pass
        self._told = None

    def frames(self, n: int = 2) -> None:
        for _ in range(n):
            self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")

    def scroll_top(self) -> None:
        """Scroll the screen's content back to its top (the mouse wheel over the content), then
        wait two frames. Two long turns of the wheel: one goes to the innermost list under the
        pointer that can still scroll up (Flutter stops it at its top), and Flutter moves it as it
        receives the turn, so the second finds the list around it; no frame is needed between them."""
        size = self.page.viewport_size or {"width": 1280, "height": 800}
        self.page.mouse.move(size["width"] / 2, size["height"] / 2)
        for _ in range(2):
            self.page.mouse.wheel(0, -100_000)
        self.frames(2)

    def screenshot(self, path: Path, top: bool = True) -> None:
        if top:
            self.scroll_top()
        self.frames(2)
        time.sleep(0.3)
        self.frames(2)
        self.page.screenshot(path=str(path))

    def set_up_game(self, game: str, players: Iterable[str], ready: str) -> None:
        """From the home screen: a new game of ``game`` with these new players, in this seating
        order; waits for ``ready`` (an identifier of the game's set-up options) before seating
        anyone, and leaves the set-up screen ready to start."""
        self.click("home-new")
        self.click(f"game-{game}")
        self.wait_for(ready)
        for name in players:
            self.type_into("new-player-name", name)
            self.click("new-player-add")
            self.wait_for(f"seat-remove-{name}")
