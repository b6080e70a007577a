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
