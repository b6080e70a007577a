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
from collections.abc import Callable
from typing import Any

import pytest

from models.i18n import Msg
from tests.e2e.harness import ROOT, TIMEOUT, AppProcess, Screen, tab

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
    # the refusal hides nothing of the payment: her money and « Payer » in view on the tablet, within
    # one scroll on a phone; the rule's text one tap away
    s.refusal_leaves_in_view(["bc-pay", "bc-cannot-pay", "bc-cash-0-0", "bc-cash-10-0", "bc-cash-50-0"],
                             "the refused payment", fr("rule.BC-CAN-PAY.text")[:40])
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


# -- every control a turn needs in view (1280×800), at most one scroll away (390×844) ---------------

NAMES = ("Anne", "Bruno", "Chloé", "David", "Emma")
COUNTS = (3, 4, 5)
TABLET, PHONE = (1280, 800), (390, 844)


def _owners(service: Any, n: int) -> int:
    """Every player has kept a hen or a goose; it is Anne's turn again, with the deck still full of
    kinds: the draw picker and the trade chooser (a target for each hen owner)."""
    players = list(NAMES[:n])
    sid = service.start("boursicocotte", players, first_player="Anne").session_id
    for i, _ in enumerate(players):
        service.submit(sid, {"type": "draw", "card": "hen" if i < 4 else "goose"})
        service.submit(sid, {"type": "close", "buy_back": False})
    return sid


def _auction(service: Any, n: int) -> int:
    sid = service.start("boursicocotte", list(NAMES[:n]), first_player="Anne").session_id
    service.submit(sid, {"type": "draw", "card": "cow"})
    for i, player in enumerate(NAMES[1:n]):
        service.submit(sid, {"type": "bid", "player": player, "amount": 20 * (i + 1)})
    return sid


def _payment(service: Any, n: int) -> int:
    sid = _auction(service, n)
    service.submit(sid, {"type": "close", "buy_back": False})
    return sid


def _answer(service: Any, n: int) -> int:
    sid = _owners(service, n)
    service.submit(sid, {"type": "challenge", "player": "Anne", "target": "Bruno", "animal": "hen", "cards": [0, 10]})
    return sid


# phase → (how to prepare it, taps before the turn's controls are read, the controls the turn needs)
PHASES: dict[str, tuple[Callable[[Any, int], int], tuple[str, ...], Callable[[int], list[str]]]] = {
    "start": (lambda s, n: s.start("boursicocotte", list(NAMES[:n]), first_player="Anne").session_id, (),
              lambda n: [f"bc-draw-{k}" for k in ("hen", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig",
                                                   "cow", "horse")]),
    "draw-or-trade": (_owners, (), lambda n: ["bc-draw-goat", "bc-draw-horse", "bc-draw-pig"]
                      + [f"bc-target-{p}" for p in NAMES[1:min(n, 4)]]),
    "trade-chosen": (_owners, ("bc-target-Bruno", "bc-trade-animal-hen"),
                     lambda n: ["bc-turn", "bc-trade-animal-hen", "bc-show-me", "bc-trade-back"]
                     + [f"bc-target-{p}" for p in NAMES[1:min(n, 4)]]),
    "auction": (_auction, (), lambda n: ["bc-close-sold", "bc-close-buy-back", "bc-lower", "bc-amount",
                                         *(f"bc-raise-{r}" for r in (10, 20, 50, 100, 200)),
                                         *(f"bc-bidder-{p}" for p in NAMES[1:n])]),
    "payment": (_payment, ("bc-show-me", "bc-cash-10-0"),
                lambda n: ["bc-private-title", "bc-hide", "bc-pay", "bc-cannot-pay", "bc-pay-why-not",
                           "bc-cash-0-0", "bc-cash-50-0"]),
    "answer": (_answer, (), lambda n: ["bc-show-me", "bc-accept"]),
}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: Any) -> Any:
    from companion.service import SessionService
    from companion.store import Store

    folder = tmp_path_factory.mktemp("bc-layout")
    store = Store(folder / "companion.db")
    service = SessionService(store)
    sessions = {(phase, n): make(service, n) for phase, (make, _, _) in PHASES.items() for n in COUNTS}
    store.close()
    server = AppProcess(folder / "companion.db", folder / "app.log").start()
    try:
        yield server, sessions
    finally:
        server.stop()


@pytest.fixture(scope="module")
def screen(chromium: Any, prepared: Any) -> Any:
    server, _ = prepared
    with tab(chromium) as screen:
        screen.open(server.url)
        yield screen


def _boxes(s: Screen, idents: list[str]) -> dict[str, dict[str, float]]:
    out = {}
    for ident in idents:
        found = s.wait_for(ident).bounding_box()
        assert found is not None, ident
        out[ident] = found
    return out


@pytest.mark.parametrize("phase", list(PHASES))
def test_every_control_a_turn_needs_is_in_view_on_a_tablet_and_one_scroll_away_on_a_phone(screen, prepared,
                                                                                          phase: str):
    _, sessions = prepared
    _, taps, needed = PHASES[phase]
    s = screen
    for n in COUNTS:
        sid = sessions[(phase, n)]
        s.resize(TABLET[0], TABLET[1])
        s.resume(sid)
        s.wait_for("prompt")
        for ident in taps:
            s.click(ident)
        idents = ["prompt", *needed(n)]
        for (width, height), name in ((TABLET, "1280×800"), (PHONE, "390×844")):
            s.resize(width, height)
            s.scroll_top()
            if name == "1280×800":  # the page at its top: every control wholly visible
                s.in_view(idents, f"{phase}, {n} players at {name}", timeout=TIMEOUT)
            else:  # at most one scroll: from the top, everything within two screens, and the controls
                # themselves (without the prompt) within one screen's height of each other
                seen: list[str] = []

                def one_scroll() -> bool:
                    boxes = _boxes(s, idents)
                    controls = [b for i, b in boxes.items() if i != "prompt"]
                    top = min(b["y"] for b in controls)
                    bottom = max(b["y"] + b["height"] for b in controls)
                    seen[:] = [f"controls from y={round(top)} to y={round(bottom)}"]
                    return bottom <= 2 * height and bottom - top <= height
                try:
                    s.until(one_scroll, f"{phase}, {n} players at {name}: at most one scroll")
                except AssertionError as err:
                    raise AssertionError(f"{seen}: {err}") from None
            if phase == "payment" and name == "390×844":  # the private title is not a letter a line
                title = _boxes(s, ["bc-private-title"])["bc-private-title"]
                assert title["width"] > 200 and title["height"] < 120, title
        s.resize(TABLET[0], TABLET[1])
        if phase == "payment":   # cover the money again before leaving the table
            s.click("bc-hide")
