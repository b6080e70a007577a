"""High card, the tests' own game (tests/high_card/, registered by COMPANION_GAMES, which the app's
process inherits), played in a real browser from the home screen to its result: set up, a round, a
battle, a card already played refused with its rule, the game to its end, the result read."""

from __future__ import annotations

import pytest

from models.i18n import Msg
from tests.e2e.harness import Screen

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ("Anne", "Bruno")


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def enter(screen: Screen, kind: str, cards: dict[str, int]) -> None:
    screen.wait_for(f"hc-{kind}")
    for player, card in cards.items():
        screen.click(f"hc-card-{player}-{card}")
        screen.wait_text(fr("app.hc.picked", card=card), f"hc-picked-{player}")
    screen.click("hc-confirm")


def test_high_card_played_to_its_result(tablet: Screen, companion_app):
    screen = tablet
    screen.open(companion_app.url)
    screen.set_up_game("high-card", PLAYERS, ready="variant-ties-battle")
    screen.click("setup-start")
    screen.wait_text(fr("app.hc.round", n=1), "hc-round")

    # both reveal a 5: a battle of the two, Bruno's 2 beats Anne's 1
    enter(screen, "reveal", {"Anne": 5, "Bruno": 5})
    screen.wait_for("entry-0")
    screen.wait_text(fr("app.hc.battle", players=PLAYERS), "hc-round")
    enter(screen, "battle", {"Anne": 1, "Bruno": 2})
    screen.wait_for("entry-1")
    screen.wait_text(fr("hc.event.takes", player="Bruno", card=2, round=1), "hc-last")

    # Anne's 5 is already played: refused with its rule, nothing saved
    enter(screen, "reveal", {"Anne": 5, "Bruno": 3})
    screen.wait_text("HC-CARD-USED", "refusal")
    assert not screen.exists("entry-2")
    screen.click("hc-card-Anne-4")
    screen.wait_text(fr("app.hc.picked", card=4), "hc-picked-Anne")
    screen.click("hc-confirm")
    screen.wait_for("entry-2")
    screen.wait_text(fr("hc.event.takes", player="Anne", card=4, round=2), "hc-last")

    enter(screen, "reveal", {"Anne": 3, "Bruno": 4})
    screen.wait_for("entry-3")
    enter(screen, "reveal", {"Anne": 2, "Bruno": 1})  # Anne's last card: the game ends, two rounds each

    screen.wait_for("result-headline", timeout=30)
    screen.wait_text(fr("app.results.winners", players=PLAYERS), "result-headline")
    screen.wait_for("rank-Anne")
    screen.wait_text(fr("hc.end.shared", players=PLAYERS, n=2), "explanation")
