"""The browser tap benchmark's own clock, in the browser it times (benchmarks/tap_browser.py): taps
on Flet's floor app are timed from the click to the screen showing the new count, and each splits
into the server's reply (the first websocket message after the click, noted by the page's wrapped
WebSocket) and the drawing after it. Nothing is asserted about how fast."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import tap_browser  # noqa: E402
from floor_app import BUTTON, COUNT  # noqa: E402


def test_a_timed_tap_splits_into_the_servers_reply_and_the_drawing(chromium, tmp_path):
    browser = tap_browser.Browser(chromium)
    argv = [sys.executable, str(ROOT / "benchmarks" / "floor_app.py"), "{port}"]
    with tap_browser.Server(argv, tmp_path / "floor.log") as server:
        with browser.screen() as screen:
            screen.open(server.url, first=BUTTON)
            measure = tap_browser.time_taps(screen, server, [tap_browser.Tap(BUTTON, "tap", COUNT)] * 3, "floor")
            shown = screen.page.evaluate(f'document.querySelector(\'[flt-semantics-identifier="{COUNT}"]\').textContent')
    assert measure.error is None and len(measure.times) == 3
    assert "3" in shown  # each timed tap reached the server and came back on the screen
    assert len(measure.replies) == 3 and len(measure.drawings) == 3
    for total, reply, drawing in zip(measure.times, measure.replies, measure.drawings):
        assert 0 < reply < total and drawing > 0 and abs(reply + drawing - total) < 1e-6


def test_the_renderer_served_is_the_apps_unless_flets_variable_says_another(chromium, tmp_path):
    """The floor is served as the app serves itself (companion.app.server.WEB_RENDERER: "auto",
    skwasm in Chromium); FLET_WEB_RENDERER=canvaskit, the README's switch, gives CanvasKit. The
    page itself says which runs."""
    browser = tap_browser.Browser(chromium)
    argv = [sys.executable, str(ROOT / "benchmarks" / "floor_app.py"), "{port}"]
    ran = {}
    for renderer in (None, "canvaskit"):
        with tap_browser.Server(argv, tmp_path / f"floor-{renderer}.log", renderer) as server:
            with browser.screen() as screen:
                screen.open(server.url, first=BUTTON)
                ran[renderer] = tap_browser.renderer_of(screen)
    assert ran[None].startswith(tap_browser.served_in_chromium()), ran
    assert ran["canvaskit"].startswith("canvaskit"), ran


def test_a_tap_without_the_accessibility_tree_is_timed_to_the_servers_reply_and_reaches_the_app(chromium, tmp_path):
    """With the tree off (as a player's browser has it) a touch tap at the point the tree gave is
    timed to two frames after the server's first message; the taps reached the app: the count
    says so once the tree is switched on."""
    browser = tap_browser.Browser(chromium)
    argv = [sys.executable, str(ROOT / "benchmarks" / "floor_app.py"), "{port}"]
    with tap_browser.Server(argv, tmp_path / "floor.log") as server:
        with browser.screen() as screen:
            screen.open(server.url, first=BUTTON)
            point = tap_browser.centre(screen, BUTTON)
        with browser.screen() as screen:
            tap_browser.open_without_semantics(screen, server.url)
            assert not screen.exists(BUTTON)
            measure = tap_browser.ws_pass(screen, [point] * 3, "floor, semantics off")
            screen.page.locator("flt-semantics-placeholder").dispatch_event("click")
            screen.wait_for(COUNT)
            screen.wait_text("3", COUNT)
    assert measure.error is None and len(measure.times) == 3
    for total, reply in zip(measure.times, measure.replies):
        assert 0 < reply < total
