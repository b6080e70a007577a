"""The tablet stays awake while a game is on screen, as the browser sees it.

A headless browser has no screen to dim, so the test watches what the page asks of the device: the
Screen Wake Lock API (``navigator.wakeLock``, which Flet's wakelock service uses in a browser) is
replaced, before the app loads, by a recorder of the locks asked for and released. A lock is asked
for when a game's table comes on screen and released when the players go to another screen; the home
screen asks for none."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RECORDER = """
window.__wake = [];
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
  request: async (type) => {
    window.__wake.push('request ' + type);
    const listeners = [];
    return {
      type, released: false,
      addEventListener: (name, listener) => listeners.push(listener),
      removeEventListener: () => {},
      release: async function () {
        window.__wake.push('release');
        this.released = true;
        listeners.forEach(listener => listener(new Event('release')));
      },
    };
  },
}});
"""


def asked(screen) -> list[str]:
    return screen.page.evaluate("() => window.__wake")


def test_a_game_on_screen_keeps_the_tablet_awake_and_leaving_it_lets_it_sleep(tmp_path, chromium):
    from companion.service import SessionService
    from companion.store import Store
    from tests.e2e.harness import AppProcess, tab

    store = Store(tmp_path / "companion.db")
    sid = SessionService(store).start("stupide-vautour", ["Anne", "Bruno", "Chloé"]).session_id
    store.close()
    server = AppProcess(tmp_path / "companion.db", tmp_path / "app.log").start()
    try:
        with tab(chromium, init_script=RECORDER) as s:
            s.open(server.url)
            s.frames(3)
            assert asked(s) == []  # the home screen lets the tablet sleep

            s.resume(sid)
            s.wait_for("prompt")
            s.until(lambda: asked(s) == ["request screen"], "a screen wake lock asked for at the table")

            s.tap_until("nav-home", lambda: s.exists(f"resume-{sid}"))
            s.until(lambda: asked(s) == ["request screen", "release"], "the lock released on the home screen")

            s.resume(sid)  # back at the table: asked for again
            s.until(lambda: asked(s) == ["request screen", "release", "request screen"],
                    "the lock asked for again")
    finally:
        server.stop()
