"""Animalia in a real browser: one whole 3-player season through the real screens.

A new game; phase 1 by taps (each card turned over in the picker, passes, takes, the lot back at
the dealer growing); phase 2 with the bonus cards entered behind the "hand the tablet to …" screen
(the shared screen then says how many, never which); phase 3 with each player's private view (the
adviser's best option, confirmed); season 2 starts with the tally hidden until "reveal".

With SCREENSHOTS=1 the lot on offer is saved to docs/screenshots/animalia-table.png and the medal
adviser to animalia-medals.png.
"""

from __future__ import annotations

import os

import pytest

from models.i18n import Msg
from models.record import parse_action, parse_record_data
from scoring.animalia import AnimaliaEngine, count_msg
from tests.e2e.harness import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ("Anne", "Bruno", "Chloé")
A, B, C = PLAYERS
HANDS = {
    A: ["cat-champion", "cat-dandy", "dog-champion", "dog-dandy", "owl"],
    B: ["horse-champion", "rabbit-champion", "parrot-dandy", "horse-scruffy", "dog-scruffy"],
    C: ["cat-scruffy", "rabbit-scruffy", "parrot-scruffy", "horse-dandy", "rabbit-dandy"],
}


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def phase1_taps() -> list[str]:
    """The taps of phase 1, planned with the engine: each card turned over is passed on until the
    player whose hand it completes takes it; the first lot goes round and grows to two cards."""
    engine = AnimaliaEngine(parse_record_data({"format": "table-record/1", "game": "animalia",
                                                "players": list(PLAYERS), "actions": []}))
    taps: list[str] = []

    def do(ident: str, action: dict) -> None:
        taps.append(ident)
        engine.apply(parse_action("animalia", action, list(PLAYERS)))

    # the first lot goes round the table and comes back to Anne, who draws a second card and takes both
    do("ani-pick-cat-champion", {"type": "draw", "card": "cat-champion"})
    for p in PLAYERS:
        do("ani-pass", {"type": "pass", "player": p})
    do("ani-pick-cat-dandy", {"type": "draw", "card": "cat-dandy"})
    do("ani-take", {"type": "take", "player": A})
    order = [(p, c) for i in range(5) for p in PLAYERS for c in [HANDS[p][i]] if c not in ("cat-champion", "cat-dandy")]
    for player, card in order:
        do(f"ani-pick-{card}", {"type": "draw", "card": card})
        while engine.holder != player:
            do("ani-pass", {"type": "pass", "player": engine.holder})
        do("ani-take", {"type": "take", "player": player})
    assert engine.phase.value == "bonus"
    return taps


def test_animalia_one_whole_season_through_the_real_screens(tablet, companion_app):
    s = tablet
    s.open(companion_app.url)
    shots = ROOT / "docs" / "screenshots" if os.environ.get("SCREENSHOTS") else None

    s.set_up_game("animalia", PLAYERS, ready="new-player-name")
    s.click("setup-start")
    s.wait_for("ani-draw")
    s.wait_text(fr("app.ani.season", season=1), "ani-season")

    taps = phase1_taps()
    for i, ident in enumerate(taps):
        s.click(ident)
        if i == 0:
            s.wait_text(fr("app.ani.offered", player=A), "ani-holder")
            if shots:
                shots.mkdir(parents=True, exist_ok=True)
                s.screenshot(shots / "animalia-table.png")
        if i == 3:  # back at Anne: she must draw one more card
            s.wait_text(fr("app.ani.draw_more", dealer=A), "ani-draw-title")
        # wait for the screen of the next tap before tapping it
        if i + 1 < len(taps):
            s.wait_for(taps[i + 1])

    # phase 2: Anne (10 stars) draws 2 bonus cards, Bruno (6) draws 1, in private
    s.wait_for("ani-prize")
    s.wait_text(fr("app.ani.pass_to", player=A), "ani-pass-tablet")
    for player, card in ((A, "cat-thief"), (A, "dog-spy"), (B, "horse-prankster")):
        s.wait_text(fr("app.ani.pass_to", player=player), "ani-pass-tablet")
        s.click("ani-show-me")
        s.wait_for("ani-private")
        s.click(f"ani-bonus-pick-{card}")
        s.wait_text(fr("app.ani.bonus_confirm", card=Msg(f"ani.card.{card}")), "ani-bonus-confirm")
        s.click("ani-bonus-confirm")
        s.wait_gone("ani-private")
    s.wait_for("ani-medals-waiting")
    s.wait_text(fr("app.ani.bonus_held", cards=count_msg("bonus", 2)), "ani-bonus-count-Anne")
    shared = s.body_text()
    assert fr("ani.card.cat-thief").capitalize() not in shared and "Chat voleur" not in shared

    # phase 3: each player in private follows the adviser and confirms
    for player in PLAYERS:
        s.click(f"ani-show-{player}")
        s.wait_for("ani-advice")
        if shots and player == B:
            s.screenshot(shots / "animalia-medals.png")
        s.click("ani-advice-0")
        if player == B:  # the adviser covers one of his single animals with his bonus horse
            s.wait_for("ani-covers-planned")
        s.click("ani-medals-confirm")
        s.wait_gone("ani-private")

    # season 2: the dealer is left of the last dealer; the tally is hidden until revealed
    s.wait_text(fr("app.ani.season", season=2), "ani-season")
    s.wait_for("ani-reveal")
    assert not s.exists("ani-tally-Anne")
    s.click("ani-reveal")
    s.wait_for("ani-tally-Anne")
    s.wait_text(fr("ani.n.medals.many", n=5), "ani-tally-Anne")
