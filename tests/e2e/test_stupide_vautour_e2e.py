"""Stupide Vautour in a real browser: new game, two rounds entered by taps, a card already used is
refused with its rule, the corrected round is accepted, undo brings the round back.

With SCREENSHOTS=1 the table is saved to docs/screenshots/stupide-vautour-table.png (light theme)
and stupide-vautour-table-dark.png.
"""

from __future__ import annotations

import os
import re

import pytest

from models.i18n import Msg
from tests.e2e.harness import ROOT, Screen

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ("Anne", "Bruno", "Chloé")
SHOTS = ROOT / "docs" / "screenshots"


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def pick(screen: Screen, player: str, card: int) -> None:
    screen.click(f"sv-card-{player}-{card}")
    screen.wait_match(re.escape(fr("app.sv.picked", card=card)) + r"(?!\d)", f"sv-picked-{player}")


def play_round(screen: Screen, cards: dict[str, int]) -> None:
    screen.wait_for("sv-play")
    for player, card in cards.items():
        pick(screen, player, card)
    screen.click("sv-confirm")


def test_stupide_vautour_table(tablet: Screen, companion_app):
    screen = tablet
    screen.open(companion_app.url)

    # new game: Stupide Vautour, three players
    screen.set_up_game("stupide-vautour", PLAYERS, ready="variant-ties-highest-unique")
    screen.click("setup-start")
    screen.wait_for("sv-pot")
    screen.wait_text(fr("app.sv.round", n=1, of=15), "sv-round")

    # round 1: the 6; the 14s cancel (one-level), Bruno's 9 takes it
    screen.click("sv-reveal-6")
    screen.wait_for("entry-0")
    screen.wait_text(fr("app.sv.pot_sum", sum="6"), "sv-pot-sum")
    play_round(screen, {"Anne": 14, "Bruno": 9, "Chloé": 14})
    screen.wait_for("entry-1")
    screen.wait_text("Bruno", "sv-award")

    # round 2: a vulture; Anne's 14 is already used: refused with its rule (not saying when it went)
    screen.click("sv-reveal--3")
    screen.wait_for("entry-2")
    screen.wait_text(fr("app.sv.mode.vulture"), "sv-pot-mode")
    play_round(screen, {"Anne": 14, "Bruno": 2, "Chloé": 5})
    screen.wait_for("refusal")
    screen.wait_text("SV-PLAY-USED", "refusal")
    screen.wait_text(fr("rule.SV-PLAY-USED.title"), "refusal")
    assert not screen.exists("entry-3"), "nothing saved"

    # Anne's real card: the rest of the round is still entered
    pick(screen, "Anne", 1)
    screen.click("sv-confirm")
    screen.wait_for("entry-3")
    screen.wait_text("Anne", "sv-award")

    # undo (the frame's): round 2 is open again, with its pot
    screen.click("undo")
    screen.click("undo-confirm-yes")  # undo asks first
    screen.wait_gone("entry-3")
    screen.wait_for("sv-play")
    screen.wait_text(fr("app.sv.pot_sum", sum="-3"), "sv-pot-sum")
    assert not screen.exists("sv-award")

    if os.environ.get("SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        pick(screen, "Anne", 1)
        pick(screen, "Bruno", 2)
        screen.page.mouse.wheel(0, -5000)
        screen.screenshot(SHOTS / "stupide-vautour-table.png")
        screen.click("theme-switch")
        screen.frames(4)
        screen.screenshot(SHOTS / "stupide-vautour-table-dark.png")
