"""Boursicocotte's table screen keeps its parts between taps (companion.app.memo): a quick raise
builds again only the offer being set, a money card tapped in private only that card; and the kept
parts still act on the game as it is now after an entry, an undo, a refusal, a hide and a correction."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store

PLAYERS = ("Anne", "Bruno", "Chloé", "David", "Emma")


@pytest.fixture
def table(tmp_path: Path) -> tuple[SessionService, App, int]:
    service = SessionService(Store(tmp_path / "kept.db"))
    sid = service.start("boursicocotte", list(PLAYERS), assist=False).session_id
    app = App(service, None, lang="en")
    app.go("table", session_id=sid)
    return service, app, sid


def actions(service: SessionService, sid: int) -> list[dict]:
    return [dict(entry.action) for entry in service.open(sid).log]


def test_a_quick_raise_builds_again_only_the_offer_being_set(table):
    service, app, sid = table
    probe.tap(app.root, "bc-draw-pig")
    probe.tap(app.root, "bc-bidder-Bruno")
    kept = {ident: probe.find(app.root, ident)
            for ident in ("bc-table", "bc-close-sold", "bc-close-buy-back", "bc-lower", "bc-raise-10", "bc-raise-100",
                          *(f"bc-player-{p}" for p in PLAYERS), *(f"bc-bidder-{p}" for p in PLAYERS[1:]))}
    amount, raised = probe.find(app.root, "bc-amount"), probe.find(app.root, "bc-raise-50")
    probe.tap(app.root, "bc-raise-50")
    assert all(probe.find(app.root, ident) is part for ident, part in kept.items()), \
        [ident for ident, part in kept.items() if probe.find(app.root, ident) is not part]
    assert probe.find(app.root, "bc-amount") is not amount
    assert probe.find(app.root, "bc-raise-50") is not raised        # now highlighted
    probe.tap(app.root, "bc-raise-10")                              # a kept raise adds to the amount now shown
    probe.tap(app.root, "bc-bidder-Chloé")                          # a kept chip bids the amount now shown
    assert actions(service, sid)[-1] == {"type": "bid", "player": "Chloé", "amount": 80}
    probe.tap(app.root, "bc-raise-10")                              # after the entry: the 90 proposed + 10
    probe.tap(app.root, "bc-bidder-David")
    assert actions(service, sid)[-1] == {"type": "bid", "player": "David", "amount": 100}


def test_the_next_turn_builds_again_only_the_animal_drawn(table):
    service, app, sid = table
    cards = {i: probe.find(app.root, i) for i in probe.idents(app.root) if i.startswith("bc-draw-")}
    probe.tap(app.root, "bc-draw-pig")
    probe.tap(app.root, "bc-close-free")                            # Anne keeps it; Bruno's turn
    changed = [i for i, card in cards.items() if probe.find(app.root, i) is not card]
    assert changed == ["bc-draw-pig"]                                # its count changed
    probe.tap(app.root, "bc-draw-cat")                              # a kept card still draws
    assert actions(service, sid)[-1] == {"type": "draw", "card": "cat"}


def test_a_money_card_tapped_in_private_builds_again_only_that_card(table):
    service, app, sid = table
    for ident in ("bc-draw-pig", "bc-bidder-Bruno", "bc-close-sold", "bc-show-me"):
        probe.tap(app.root, ident)
    cards = {i: probe.find(app.root, i) for i in probe.idents(app.root) if i.startswith("bc-cash-")}
    assert len(cards) == 7
    probe.tap(app.root, "bc-cash-10-0")
    changed = [i for i, card in cards.items() if probe.find(app.root, i) is not card]
    assert changed == ["bc-cash-10-0"]
    assert probe.find(app.root, "bc-cash-10-0").selected


def test_the_kept_draw_picker_still_draws_after_an_entry_and_its_undo(table):
    service, app, sid = table
    picker = probe.find(app.root, "bc-draw")
    probe.tap(app.root, "bc-draw-pig")
    probe.tap(app.root, "undo")
    app.dialog.actions[1].content.on_click(None)  # yes, undo it
    assert actions(service, sid) == []
    assert probe.find(app.root, "bc-draw") is picker   # the same deck, the same turn: kept
    probe.tap(app.root, "bc-draw-hen")
    assert actions(service, sid) == [{"type": "draw", "card": "hen"}]


def test_kept_money_cards_still_pick_after_a_refusal_and_start_afresh_after_hide(table):
    service, app, sid = table
    for ident in ("bc-draw-pig", "bc-bidder-Bruno", "bc-close-sold", "bc-show-me", "bc-cash-10-0"):
        probe.tap(app.root, ident)
    card = probe.find(app.root, "bc-cash-0-0")
    probe.tap(app.root, "bc-cannot-pay")               # refused: Bruno can pay the 10
    assert probe.has(app.root, "refusal") and len(actions(service, sid)) == 3
    assert probe.find(app.root, "bc-cash-0-0") is card
    assert probe.find(app.root, "bc-cash-10-0").selected, "the card picked before the refusal stays picked"
    probe.tap(app.root, "bc-hide")
    probe.tap(app.root, "bc-show-me")
    assert not probe.find(app.root, "bc-cash-10-0").selected, "hidden: the picks are forgotten"
    probe.tap(app.root, "bc-cash-10-1")                # a card of the new view writes into the new picks
    probe.tap(app.root, "bc-pay")
    assert actions(service, sid)[-1] == {"type": "pay", "player": "Bruno", "cards": [10]}


def test_a_correction_picks_and_pays_through_its_own_kept_parts(tmp_path: Path):
    """Bruno's payment of 10 corrected in private to his 50 (the table pays freely): the editor's
    money cards are its own parts (prefixed), and they write into the editor's picks."""
    service = SessionService(Store(tmp_path / "fix.db"))
    sid = service.start("boursicocotte", list(PLAYERS), assist=False, variant={"payment": "any"}).session_id
    app = App(service, None, lang="en")
    app.go("table", session_id=sid)
    for ident in ("bc-draw-pig", "bc-bidder-Bruno", "bc-close-sold", "bc-show-me", "bc-cash-10-0", "bc-pay"):
        probe.tap(app.root, ident)
    assert actions(service, sid)[3] == {"type": "pay", "player": "Bruno", "cards": [10]}
    if probe.has(app.root, "log-toggle"):
        probe.tap(app.root, "log-toggle")
    probe.tap(app.root, "correct-3")
    probe.tap(app.root, "fix-bc-show-me")
    assert not probe.find(app.root, "fix-bc-cash-10-0").selected
    probe.tap(app.root, "fix-bc-cash-50-0")
    assert probe.find(app.root, "fix-bc-cash-50-0").selected
    probe.tap(app.root, "fix-bc-pay")
    probe.tap(app.root, "correction-save")
    assert actions(service, sid)[3] == {"type": "pay", "player": "Bruno", "cards": [50]}
