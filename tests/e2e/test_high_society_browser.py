"""A whole High Society game entered through the real app in headless chromium.

Four new players are created on the new-game screen; the game is played to the end through the
table screen (one bid is refused and the rule's text shows; one entry is undone); the result
screen is checked; the game is found in the history and replayed step by step; then the app is
restarted on the same database and the game is still there.

Every turn in view: at every player count, on a 10-inch tablet in landscape (1280×800) and on a
phone (390×844), the controls of a reveal, a bid and a discard are wholly in view with the page at
its top.

With SCREENSHOTS=1 the table and results screens are written to docs/screenshots/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from models.i18n import text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
A, B, C, D = "Anne", "Bruno", "Chloé", "David"


class Game:
    """Enters table actions through the High Society screen and waits for the log to grow."""

    def __init__(self, screen):
        self.s = screen
        self.entries = 0

    def _accepted(self) -> None:
        self.s.wait_for(f"entry-{self.entries}")
        self.entries += 1

    def _turn(self, player: str) -> None:
        self.s.wait_text(player, "prompt")

    def reveal(self, card: str) -> None:
        self.s.click(f"reveal-{card}")
        self._accepted()

    def lay(self, player: str, *values: int) -> None:
        self._turn(player)
        self.s.wait_for("bid-confirm")
        self.pick(*values)
        self.s.click("bid-confirm")

    def pick(self, *values: int) -> None:
        """Tap money cards one by one, each time waiting for the running sum to show it."""
        running = 0
        for value in values:
            self.s.click(f"money-{value}")
            running += value
            self.s.wait_match(r"\b" + str(running) + r"\b", "bid-adding")

    def bid(self, player: str, *values: int) -> None:
        self.lay(player, *values)
        self._accepted()

    def pass_(self, player: str) -> None:
        self._turn(player)
        self.s.click("pass")
        self._accepted()


def test_a_high_society_game_from_set_up_to_history(tablet, companion_app):
    s = tablet
    s.open(companion_app.url)

    # -- set-up: High Society, four new players, Anne starts -------------------------------------
    s.set_up_game("high-society", (A, B, C, D), ready="variant-final_tie-replay")
    s.wait_text("4", "setup-count")
    s.in_view(["setup-start"], "the start with four players seated, no scroll")  # it was two scrolls down
    s.click("setup-start")
    s.wait_for("hs-reveal")
    s.wait_text(A, "prompt")

    g = Game(s)
    # Round 1: the 7 goes to Anne for 7.
    g.reveal("p7")
    g.bid(A, 4)
    # Bruno's 2 does not beat Anne's 4: refused with the rule, nothing saved.
    g.lay(B, 2)
    s.wait_for("refusal")
    s.wait_text("HS-BID-RAISE", "refusal")
    # the refusal hides nothing of the bid: the money, « Miser » and « Passer » in view on the tablet,
    # within one scroll on a phone; the rule's text one tap away
    from models.games.high_society import HS_MONEY
    s.refusal_leaves_in_view(["bid-confirm", "bid-clear", "pass"] + [f"money-{v}" for v in HS_MONEY],
                             "the refused bid", text("rule.HS-BID-RAISE.text", "fr")[:40])
    assert not s.exists(f"entry-{g.entries}"), "a refused bid must not be logged"
    s.click("bid-clear")
    g.bid(B, 6)
    g.pass_(C)
    g.pass_(D)
    # Anne lays an 8 by mistake; the entry is undone and she lays the 3 she meant.
    g.bid(A, 8)
    s.wait_match(r"\b12\b", "hs-player-Anne")  # the wrong total, 4 + 8, is on the table
    s.click("undo")
    s.click("undo-confirm-yes")  # undo asks first
    s.wait_gone(f"entry-{g.entries - 1}")
    g.entries -= 1
    s.wait_text(text("app.table.undone", "fr", n=g.entries + 1, what="")[:12], "notice")
    g.bid(A, 3)
    if os.environ.get("SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        g._turn(B)
        g.pick(4, 6)
        s.screenshot(SHOTS / "table-high-society.png")
        s.click("bid-clear")
    g.pass_(B)

    # Round 2: everybody passes, David takes the 2 for free.
    g.reveal("p2")
    g.pass_(A)
    g.pass_(B)
    g.pass_(C)
    # Rounds 3-5: the three ×2 cards.
    g.reveal("x2")
    g.bid(D, 1)
    g.pass_(A)
    g.pass_(B)
    g.pass_(C)
    g.reveal("x2")
    g.pass_(D)
    g.pass_(A)
    g.pass_(B)
    g.reveal("x2")
    g.pass_(C)
    g.pass_(D)
    g.pass_(A)
    # The scandal is the fourth red card: the game ends at once.
    s.click("reveal-half")

    # -- results ------------------------------------------------------------------------------------
    s.wait_for("result-headline")
    s.wait_text(D, "result-headline")
    assert re.search(r"1\.", s.text(f"rank-{D}"))
    assert re.search(r"2\.", s.text(f"rank-{B}")) and re.search(r"2\.", s.text(f"rank-{C}")), "equal places"
    assert text("app.results.out", "fr") in s.text(f"rank-{A}")
    assert "99" in s.text("explanation")  # Anne has the least money left and is out
    s.click(f"why-{D}")
    s.wait_text(D, "why-text")
    s.click("why-close")
    s.wait_gone("why-text")
    if os.environ.get("SCREENSHOTS"):
        s.screenshot(SHOTS / "results-high-society.png")

    # -- history: the game is there, replayed step by step --------------------------------------
    s.click("results-history")
    s.wait_for("history-1")
    s.wait_text(D, "history-1")
    s.click("history-1")
    s.wait_for("past-result-headline")
    s.wait_text(D, "past-result-headline")
    s.wait_text("25", "step-label")
    s.click("step-first")
    s.wait_text("0", "step-label")
    s.click("step-next")
    s.wait_text("1", "step-label")
    s.wait_text(text("hs.card.high-society.p7", "fr"), "step-events")

    # -- restart the app on the same database: the game is still in the history -------------------
    companion_app.stop()
    companion_app.start()
    s.open(companion_app.url)
    s.click("home-history")
    s.wait_for("history-1")
    s.wait_text(D, "history-1")


# -- every turn in view --------------------------------------------------------------------------

NAMES = ("Anne", "Bruno", "Chloé", "David", "Emma")
REVEALS = "() => Array.from(document.querySelectorAll('[flt-semantics-identifier^=\"reveal-\"]'))" \
          ".map(e => e.getAttribute('flt-semantics-identifier'))"


def _turns(service, game: str, n: int) -> dict[str, int]:
    """Three games at ``n`` players: a card to reveal, a bid to enter, a possession to discard."""
    players = list(NAMES[:n])
    reveal = service.start(game, players, first_player="Anne").session_id
    bid = service.start(game, players, first_player="Anne").session_id
    for action in ({"type": "reveal", "card": "p7"}, {"type": "bid", "player": "Anne", "add": [3]}):
        service.submit(bid, action)
    discard = service.start(game, players, first_player="Anne").session_id
    service.submit(discard, {"type": "reveal", "card": "p7"})
    service.submit(discard, {"type": "bid", "player": "Anne", "add": [1]})
    for player in players[1:]:
        service.submit(discard, {"type": "pass", "player": player})   # Anne takes the 7, then reveals
    service.submit(discard, {"type": "reveal", "card": "theft"})
    service.submit(discard, {"type": "pass", "player": "Anne"})      # and takes the theft: she discards
    return {"reveal": reveal, "bid": bid, "discard": discard}


@pytest.fixture(scope="module")
def turns(tmp_path_factory):
    from companion.service import SessionService
    from companion.store import Store
    from models.record import PLAYER_COUNTS
    from tests.e2e.harness import AppProcess

    folder = tmp_path_factory.mktemp("hs-layout")
    store = Store(folder / "companion.db")
    service = SessionService(store)
    games = {(game, n): _turns(service, game, n) for game in ("high-society", "animalement-votre")
             for n in PLAYER_COUNTS[game]}  # the fewest and the most players: the others lie between
    store.close()
    server = AppProcess(folder / "companion.db", folder / "app.log").start()
    try:
        yield server, games
    finally:
        server.stop()


def test_every_turns_controls_are_in_view_on_a_tablet_and_a_phone(chromium, turns):
    """With the page at its top, every control a turn needs is wholly in view, with the fewest and
    the most players, on a 10-inch tablet in landscape (1280×800) and on a phone (390×844): the cards to reveal;
    the eleven money cards, the confirm, the clear and the pass; the possessions to discard."""
    from models.games.high_society import HS_MONEY
    from tests.e2e.harness import tab

    server, games = turns
    needs = {"bid": [f"money-{v}" for v in HS_MONEY] + ["bid-confirm", "bid-clear", "pass"],
             "discard": ["discard-p7"]}
    with tab(chromium) as s:
        page = s.page
        s.open(server.url)
        for (game, n), sids in games.items():
            for turn, sid in sids.items():
                s.resume(sid)
                s.wait_for("hs-reveal" if turn == "reveal" else "hs-bid" if turn == "bid" else "hs-discard")
                idents = needs.get(turn) or page.evaluate(REVEALS)
                assert len(idents) > 5 or turn == "discard", idents
                for width, height in ((1280, 800), (390, 844)):
                    s.resize(width, height)
                    s.scroll_top()
                    s.in_view(idents, f"{game}, {n} players, {turn} at {width}x{height}")
                s.resize(1280, 800)
