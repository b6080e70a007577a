"""Monte & descend in a real browser: a 3-player match of one deal set up on the new-game screen,
cards entered on the pad, a red 9 on a red 8 refused with its rule and what was allowed, the
corrected card accepted, the turn with the blue of the same value, a series that empties a hand,
and the results.

With SCREENSHOTS=1 the table is saved to docs/screenshots/monte-descend-table.png.
"""

from __future__ import annotations

import os

import pytest

from models.i18n import Msg
from tests.e2e.harness import ROOT, Screen

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
    screen.wait_text(fr("rule.MD-DOWN.text")[:60], "refusal")
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
