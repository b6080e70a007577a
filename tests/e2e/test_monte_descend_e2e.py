"""Monte & descend in a real browser: a 3-player match of one deal set up on the new-game screen,
cards entered on the pad, a red 9 on a red 8 refused with its rule and what was allowed, the
corrected card accepted, the turn with the blue of the same value, a series that empties a hand,
and the results.

Every control a turn needs is in view on a tablet (1280×800) with the page at its top, for 2 to 6
players: the hardest play (a yellow on a yellow: the direction too), a take, a take that may be
answered, the card just drawn; on a phone (390×844) a turn needs one scroll at most.

With SCREENSHOTS=1 the table is saved to docs/screenshots/monte-descend-table.png (and -landscape,
-phone).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from models.i18n import Msg
from tests.e2e.harness import ROOT, Screen, tab

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ("Anne", "Bruno", "Chloé")
SHOTS = ROOT / "docs" / "screenshots"


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def lay(screen: Screen, colour: str, *values: int) -> None:
    screen.wait_for("md-pad")
    screen.click(f"md-colour-{colour}")
    for value in values:
        screen.click(f"md-value-{value}")
    screen.wait_for(f"md-series-{len(values) - 1}")
    screen.click("md-confirm")


def test_monte_descend_match(tablet: Screen, companion_app):
    screen = tablet
    screen.open(companion_app.url)

    # new game: three players, one deal (the default is twice the number of players)
    screen.set_up_game("monte-descend", PLAYERS, ready="variant-take_stacking-true")
    screen.wait_text("6", "variant-deals-value")
    for left in (5, 4, 3, 2, 1):
        screen.click("variant-deals-less")
        screen.wait_text(str(left), "variant-deals-value")
    screen.click("setup-start")
    screen.wait_for("md-pile")
    screen.wait_text(fr("app.md.deal", n=1, of=1), "md-deal")
    screen.wait_text(fr("app.md.banner.first", player="Anne"), "md-banner-free")

    # Anne opens with a red 8: going down
    lay(screen, "r", 8)
    screen.wait_for("entry-0")
    screen.wait_text(fr("app.md.value", value=8), "md-value")
    screen.wait_text(fr("md.dir.down"), "md-direction")
    screen.wait_text(fr("app.md.turn", player="Bruno"), "md-turn")

    # Bruno's red 9 is refused: the rule, its title, and what would have been allowed
    lay(screen, "r", 9)
    screen.wait_for("refusal")
    screen.wait_text("MD-DOWN", "refusal")
    screen.wait_text(fr("rule.MD-DOWN.title"), "refusal")
    screen.wait_text("un 8 rouge ou moins, un 8 bleu pour tourner", "refusal")
    # the refusal hides nothing of the turn: the pad and « Valider » in view on the tablet, within
    # one scroll on a phone; the rule's text one tap away
    screen.refusal_leaves_in_view(["md-series-0", *COLOURS, *VALUES, "md-confirm"], "the refused series",
                                  fr("rule.MD-DOWN.text")[:60])
    assert not screen.exists("entry-1"), "nothing saved"

    # the series is still entered: take the 9 out, lay the red 3
    screen.click("md-series-0")
    screen.wait_gone("md-series-0")
    screen.click("md-value-3")
    screen.wait_for("md-series-0")
    screen.click("md-confirm")
    screen.wait_for("entry-1")
    screen.wait_gone("refusal")

    # Chloé turns it with the blue 3
    lay(screen, "b", 3)
    screen.wait_for("entry-2")
    screen.wait_text(fr("md.dir.up"), "md-direction")

    # the score sheet is one tap away
    screen.click("md-sheet-toggle")
    screen.wait_text(fr("app.md.sheet_playing"), "md-sheet")
    screen.wait_text("Anne", "md-sheet-starter-1")

    if os.environ.get("SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        screen.screenshot(SHOTS / "monte-descend-table.png")

    # Anne lays her last six cards in one series and goes out: the match (one deal) is over
    lay(screen, "b", 4, 5, 6, 7, 8, 9)
    screen.wait_for("result-headline", timeout=30)
    screen.wait_for("rank-Anne")
    screen.wait_text(fr("md.explain.winner", player="Anne", total="+5"), "explanation")


# -- every control a turn needs, in view ------------------------------------------------------------

NAMES = ("Anne", "Bruno", "Chloé", "David", "Émile", "Fanny")
TABLET, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
COLOURS = ("md-colour-b", "md-colour-r", "md-colour-y")
ACTIONS = ("md-action-skip", "md-action-take", "md-action-pass", "md-action-chaos")
VALUES = tuple(f"md-value-{v}" for v in range(1, 21))
# the hardest turn: a yellow on a yellow, so the player also says the direction, and Valider says it waits
YELLOW_TURN = (*COLOURS, *ACTIONS, *VALUES, "md-series-0", "md-dir-up", "md-dir-down", "md-confirm", "md-clear",
               "md-confirm-why", "md-draw")


def _md(service: Any, n: int, first: dict, stacking: bool = False) -> int:
    sid = service.start("monte-descend", list(NAMES[:n]), variant={"take_stacking": stacking}).session_id
    service.submit(sid, first)
    return sid


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Any:
    """Games at a turn of each kind, for 2 to 6 players, entered through the service before the app starts."""
    from companion.service import SessionService
    from companion.store import Store
    from tests.e2e.harness import AppProcess

    folder = tmp_path_factory.mktemp("md-layout")
    store = Store(folder / "companion.db")
    service = SessionService(store)
    chaos = {"type": "play", "player": "Anne", "cards": ["y15-chaos"], "direction": "down"}
    take = {"type": "play", "player": "Anne", "cards": ["y5-take"], "direction": "up"}
    sessions = {("yellow", n): _md(service, n, chaos) for n in range(2, 7)}
    sessions |= {("take", n): _md(service, n, take) for n in range(2, 7)}
    sessions |= {("stack", n): _md(service, n, take, stacking=True) for n in (3, 6)}
    drawn = _md(service, 4, {"type": "play", "player": "Anne", "cards": ["r8"]})
    service.submit(drawn, {"type": "draw", "player": "Bruno"})
    sessions["drawn", 4] = drawn
    store.close()
    server = AppProcess(folder / "companion.db", folder / "app.log").start()
    try:
        yield server, sessions
    finally:
        server.stop()


def _open(screen: Screen, sid: int) -> None:
    screen.resume(sid)
    screen.wait_text(fr("game.monte-descend.name"), "screen-title")
    screen.wait_for("md-pile")


def _enter_yellow_on_yellow(screen: Screen) -> None:
    screen.click("md-colour-y")
    screen.click("md-action-chaos")
    screen.click("md-value-15")
    screen.wait_for("md-confirm-why")


def _all_in_view(screen: Screen, idents: tuple[str, ...], what: str) -> None:
    screen.in_view(idents, what, timeout=5)


def _in_view_at_the_top(screen: Screen, idents: tuple[str, ...], what: str) -> None:
    screen.frames(3)
    screen.scroll_top()
    _all_in_view(screen, idents, what)


def test_every_turns_controls_are_in_view_on_a_tablet(chromium, tables):
    server, sessions = tables
    with tab(chromium, **TABLET) as screen:
        screen.open(server.url)
        for n in range(2, 7):
            _open(screen, sessions["yellow", n])
            _enter_yellow_on_yellow(screen)
            _in_view_at_the_top(screen, ("prompt", "md-top-card", *YELLOW_TURN), f"yellow on yellow, {n} players")
            if os.environ.get("SCREENSHOTS") and n == 4:
                SHOTS.mkdir(parents=True, exist_ok=True)
                screen.screenshot(SHOTS / "monte-descend-landscape.png")
            _open(screen, sessions["take", n])
            victims = tuple(f"md-from-{p}" for p in NAMES[:n] if p != "Bruno")
            _in_view_at_the_top(screen, ("md-banner-take", *victims, "md-take-confirm"), f"take, {n} players")
        for n in (3, 6):
            _open(screen, sessions["stack", n])
            victims = tuple(f"md-from-{p}" for p in NAMES[:n] if p != "Bruno")
            _in_view_at_the_top(screen, (*victims, "md-take-confirm", *COLOURS, *VALUES, "md-confirm"),
                                f"take or answer it, {n} players")
        _open(screen, sessions["drawn", 4])
        _in_view_at_the_top(screen, ("md-banner-drawn", "md-pass", *COLOURS, *VALUES, "md-confirm"), "after a draw")


def test_a_turn_on_a_phone_needs_one_scroll_at_most(chromium, tables):
    server, sessions = tables
    with tab(chromium, **PHONE) as screen:
        screen.open(server.url)
        for n in (2, 6):
            _open(screen, sessions["yellow", n])
            _enter_yellow_on_yellow(screen)
            screen.frames(3)
            screen.scroll_top()
            _all_in_view(screen, ("prompt", "md-top-card"), "the pile at the top")
            # one scroll: the pad's first control to just under the app bar, then the whole turn is in view
            bar = screen.page.locator('[flt-semantics-identifier="screen-title"]').first.bounding_box()
            first = screen.page.locator('[flt-semantics-identifier="md-colour-b"]').first.bounding_box()
            assert bar is not None and first is not None
            screen.page.mouse.move(PHONE["width"] / 2, PHONE["height"] / 2)
            screen.page.mouse.wheel(0, first["y"] - (bar["y"] + bar["height"]) - 12)
            screen.frames(4)
            _all_in_view(screen, YELLOW_TURN, f"the turn after one scroll, {n} players")
            if os.environ.get("SCREENSHOTS") and n == 6:
                SHOTS.mkdir(parents=True, exist_ok=True)
                screen.screenshot(SHOTS / "monte-descend-phone.png", top=False)
