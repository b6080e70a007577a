"""Stupide Vautour in a real browser: new game, two rounds entered by taps, a card already used is
refused with its rule, the corrected round is accepted, undo brings the round back.

Every turn in view, at every player count: on a 10-inch tablet in landscape (1280×800) the point
cards to reveal, then every player's fifteen hand cards and « Valider », are wholly in view with the
page at its top; on a phone (390×844) a whole round is entered without scrolling (a player whose
card is entered folds to one line, so the next player's cards come up where the eye is).

With SCREENSHOTS=1 the table is saved to docs/screenshots/stupide-vautour-table.png (light theme)
and stupide-vautour-table-dark.png.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from companion.service import SessionService
from companion.store import Store
from models.games.stupide_vautour import SV_HAND, SV_POINT_CARDS
from models.i18n import Msg
from models.record import PLAYER_COUNTS
from tests.e2e.harness import ROOT, AppProcess, Screen, tab

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

    # #38: the 6 is out, greyed; a tap on it enters nothing and says why, in one line by the cards
    screen.click("sv-reveal-6")
    screen.wait_text(fr("app.sv.why.out", card="6"), "sv-why")
    assert not screen.exists("entry-2")

    # round 2: a vulture; Anne's 14 is already used: refused with its rule (not saying when it went)
    screen.click("sv-reveal--3")
    screen.wait_for("entry-2")
    screen.wait_gone("sv-why")  # the entry takes the line away
    screen.wait_text(fr("app.sv.mode.vulture"), "sv-pot-mode")
    play_round(screen, {"Anne": 14, "Bruno": 2, "Chloé": 5})
    screen.wait_for("refusal")
    screen.wait_text("SV-PLAY-USED", "refusal")
    screen.wait_text(fr("rule.SV-PLAY-USED.title"), "refusal")
    assert not screen.exists("entry-3"), "nothing saved"
    # the refusal hides nothing of the round: every row and « Valider » in view on the tablet, within
    # one scroll on a phone; the rule's text one tap away
    screen.refusal_leaves_in_view(["sv-confirm"] + [f"sv-card-{p}-{c}" for p in PLAYERS for c in SV_HAND],
                                  "the refused round", fr("rule.SV-PLAY-USED.text")[:40],
                                  phone=["sv-confirm"] + [f"sv-change-{p}" for p in PLAYERS])

    # Anne's real card: the rest of the round is still entered. #38: the round confirmed with the
    # page scrolled down, the next turn's announcement comes back into view (it stayed cut off)
    pick(screen, "Anne", 1)
    screen.page.mouse.move(640, 600)
    screen.page.mouse.wheel(0, 100_000)
    assert screen.holds(lambda: screen.out_of_view(["prompt"]) != [], 5), "the page did not scroll"
    screen.click("sv-confirm")
    screen.wait_for("entry-3")
    screen.wait_text("Anne", "sv-award")
    screen.in_view(["prompt", "sv-reveal-7"], "the next turn after a round confirmed scrolled down")

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


# -- every turn in view --------------------------------------------------------------------------

NAMES = ("Anne", "Bruno", "Chloé", "David", "Emma")
COUNTS = list(PLAYER_COUNTS["stupide-vautour"])  # the fewest and the most players: the others lie between


@pytest.fixture(scope="module")
def rounds(tmp_path_factory) -> Any:
    """One game per player count, its first point card turned over, and one still to reveal."""
    folder = tmp_path_factory.mktemp("sv-layout")
    store = Store(folder / "companion.db")
    service = SessionService(store)
    games = {}
    for n in COUNTS:
        reveal = service.start("stupide-vautour", list(NAMES[:n])).session_id
        play = service.start("stupide-vautour", list(NAMES[:n])).session_id
        service.submit(play, {"type": "reveal", "card": 8})
        games[n] = (reveal, play)
    store.close()
    server = AppProcess(folder / "companion.db", folder / "app.log").start()
    try:
        yield server, games
    finally:
        server.stop()


def _open(screen: Screen, sid: int) -> None:
    screen.resume(sid)
    screen.wait_for("prompt")


def test_every_turn_is_in_view_on_a_tablet_and_a_round_needs_no_scroll_on_a_phone(chromium, rounds):
    server, games = rounds
    with tab(chromium) as screen:
        screen.open(server.url)
        for n in COUNTS:
            reveal_sid, play_sid = games[n]
            players = NAMES[:n]
            reveal = [f"sv-reveal-{c}" for c in SV_POINT_CARDS]
            cards = [f"sv-card-{p}-{c}" for p in players for c in SV_HAND]
            sizes = ((1280, 800), (390, 844))
            screen.resize(1280, 800)
            _open(screen, reveal_sid)
            for width, height in sizes:
                screen.resize(width, height)
                screen.scroll_top()
                screen.in_view(reveal, f"{n} players at {width}x{height}: the point cards to reveal")
            screen.resize(1280, 800)
            _open(screen, play_sid)
            screen.wait_for("sv-play")
            for width, height in sizes:
                screen.resize(width, height)
                screen.scroll_top()
                if width > 1000:  # a tablet: every row, and the confirm, at once
                    screen.in_view(cards + ["sv-confirm", "sv-clear"],
                                   f"{n} players at {width}x{height}: every hand card and the confirm")
                    continue
                # a phone: each player's cards come up in view in turn, the confirm stays in view
                for i, player in enumerate(players):
                    screen.in_view([f"sv-card-{player}-{c}" for c in SV_HAND] + ["sv-confirm"],
                                   f"{n} players at {width}x{height}: {player}'s cards")
                    screen.click(f"sv-card-{player}-{i + 1}")
                    screen.wait_for(f"sv-change-{player}")
                screen.in_view(["sv-confirm"] + [f"sv-change-{p}" for p in players],
                               f"{n} players at {width}x{height}: the round entered, the confirm")
                screen.wait_enabled("sv-confirm")
                for player in players:  # leave the draft empty for the next game
                    screen.click(f"sv-change-{player}")
                    screen.wait_for(f"sv-card-{player}-1")
