"""Boursicocotte in a real browser: a new game; an auction (bid by a tap on the bidder, sold) and
its payment in private, where "I can't pay" is refused with its rule and the refusal (which quotes
the payer's money) is gone once the money is paid; a free auction; a trade whose offer and
counter-offer are entered in private, the outcome shown to all; undo brings the counter-offer back.

With SCREENSHOTS=1 the auction is saved to docs/screenshots/boursicocotte-table.png (light theme)
and boursicocotte-table-dark.png, a private payment to boursicocotte-private.png and the covered
screen awaiting the counter-offer to boursicocotte-trade.png.
"""

from __future__ import annotations

import os

import pytest

from models.i18n import Msg
from tests.e2e.harness import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ("Anne", "Bruno", "Chloé")


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def fr_n(key: str, **params) -> str:
    """A French sentence about ``params["n"]`` things (the catalogue writes its plural)."""
    return fr(key, **params)


def test_boursicocotte_auction_payment_trade_refusal_undo(tablet, companion_app):
    s = tablet
    s.open(companion_app.url)
    shots = ROOT / "docs" / "screenshots" if os.environ.get("SCREENSHOTS") else None

    s.set_up_game("boursicocotte", PLAYERS, ready="variant-trade_tie-exchanged")
    s.click("setup-start")
    s.wait_for("bc-draw")
    s.wait_text(fr("app.bc.turn_of", player="Anne"), "bc-turn")

    # Anne turns over a hen; Chloé bids 10 with one tap; sold
    s.click("bc-draw-hen")
    s.wait_for("bc-auction-entry")
    s.click("bc-bidder-Chloé")
    s.wait_text(fr("app.bc.highest", amount=10, player="Chloé"), "bc-highest")
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
        s.page.mouse.wheel(0, -5000)
        s.screenshot(shots / "boursicocotte-table.png")
        s.click("theme-switch")
        s.frames(4)
        s.screenshot(shots / "boursicocotte-table-dark.png")
        s.click("theme-switch")
        s.frames(4)
    s.click("bc-close-sold")

    # the payment is covered until Chloé says who she is
    s.wait_text(fr("app.bc.pass_to", player="Chloé"), "bc-pass")
    assert not s.exists("bc-private") and not s.exists("bc-cash-10-0")
    s.click("bc-show-me")
    s.wait_for("bc-private")
    s.wait_text(fr_n("app.bc.your_money", total=90, n=7), "bc-held")

    # "I can't pay" while she can: refused with the rule's title and text
    s.click("bc-cannot-pay")
    s.wait_for("refusal")
    s.wait_text("BC-CAN-PAY", "refusal")
    s.wait_text(fr("rule.BC-CAN-PAY.title"), "refusal")
    assert s.exists("bc-private"), "nothing saved: the payment is still hers to make"
    if shots:
        s.click("bc-cash-10-0")
        s.wait_text(fr("app.bc.pay", total=10), "bc-pay")
        s.page.mouse.wheel(0, -5000)
        s.screenshot(shots / "boursicocotte-private.png")
        s.click("bc-cash-10-0")
    s.click("bc-cash-10-0")
    s.wait_text(fr("app.bc.pay", total=10), "bc-pay")
    s.click("bc-pay")
    s.wait_for("bc-draw")
    s.wait_gone("refusal")
    s.wait_text(fr("app.bc.turn_of", player="Bruno"), "bc-turn")
    assert not s.exists("bc-private")

    # Bruno turns over a hen, nobody bids: he keeps it
    s.click("bc-draw-hen")
    s.wait_for("bc-close-free")
    s.click("bc-close-free")
    s.wait_for("bc-trade-choice")

    # Chloé challenges Bruno over the hen: her offer in private, then Bruno's counter in private
    s.click("bc-target-Bruno")
    s.click("bc-trade-animal-hen")
    s.click("bc-show-me")
    s.wait_text(fr("app.bc.private_offer", target="Bruno", animal=Msg("bc.animal.hen")), "bc-private-intro")
    s.click("bc-cash-0-0")
    s.wait_text(fr_n("app.bc.put_down", n=1), "bc-offer")
    s.click("bc-offer")
    s.wait_text(fr("app.bc.pass_to", player="Bruno"), "bc-pass")
    s.wait_text(fr_n("app.bc.trade_cards", n=1, player="Chloé"), "bc-trade-cards")
    assert not s.exists("bc-private")
    if shots:
        s.page.mouse.wheel(0, -5000)
        s.screenshot(shots / "boursicocotte-trade.png")
    s.click("bc-show-me")
    s.wait_for("bc-private")
    s.click("bc-cash-10-0")
    s.wait_text(fr_n("app.bc.counter", n=1), "bc-counter")
    s.click("bc-counter")
    s.wait_for("bc-last-trade")
    s.wait_text(fr("app.bc.last_trade"), "bc-last-trade")
    assert not s.exists("bc-private")

    # undo (the frame's): the counter-offer is awaited again, covered
    s.click("undo")
    s.click("undo-confirm-yes")  # undo asks first
    s.wait_for("bc-trade-cards")
    s.wait_text(fr("app.bc.pass_to", player="Bruno"), "bc-pass")
    assert not s.exists("bc-last-trade") and not s.exists("bc-private")
