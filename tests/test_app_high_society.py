"""The High Society table screen on its own: built from replayed engine states (no service, no
page), what it shows in each phase, and the actions it hands to ctx.submit."""

from __future__ import annotations

import re

import flet as ft
import pytest

from companion.app import probe, ui
from companion.app.games import TableContext, TableState, screen_for
from companion.app.games import high_society as screen
from models.games.high_society import HS_MONEY
from models.i18n import LANGUAGES, Msg
from models.record import parse_record_data
from scoring.base import rules_of
from scoring.referee import replay

A, B, C = "Anne", "Bruno", "Chloé"


def state_of(actions=(), *, game="high-society", assist=False) -> TableState:
    record = parse_record_data({"format": "table-record/1", "game": game, "players": [A, B, C],
                                "actions": list(actions)})
    done = replay(record)
    assert done.violation is None, done.violation
    engine = done.engine
    return TableState(game=game, variant={}, players=(A, B, C), first_player=A, assist=assist, engine=engine,
                      expected=engine.expected(), outcome=engine.outcome(), entries=done.applied)


class Screen:
    def __init__(self, state: TableState, lang="fr", readonly=False, side=False):
        self.state = state
        self.sent: list[dict] = []
        self.ctx = TableContext(lang=lang, submit=self.sent.append, refresh=self.build, readonly=readonly,
                                side_panel=side)
        self.build()

    def build(self) -> None:
        self.root = screen.build(self.state, self.ctx)


def rv(card):
    return {"type": "reveal", "card": card}


def bid(p, *v):
    return {"type": "bid", "player": p, "add": list(v)}


def pas(p):
    return {"type": "pass", "player": p}


PHASES = {
    "reveal": [],
    "bid": [rv("p4")],
    "raise": [rv("p4"), bid(A, 3)],
    "discard": [rv("p3"), bid(A, 1), pas(B), pas(C), rv("theft"), pas(A)],
    "over": [rv("x2"), pas(A), pas(B), rv("x2"), pas(C), pas(A), rv("x2"), pas(B), pas(C), rv("half")],
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("assist", [False, True])
@pytest.mark.parametrize("phase", sorted(PHASES))
def test_every_phase_builds(phase, assist, lang):
    s = Screen(state_of(PHASES[phase], assist=assist), lang=lang)
    assert probe.texts(s.root)
    assert screen_for("high-society") is screen.SCREEN and screen_for("animalement-votre") is screen.SCREEN


def test_reveal_sends_the_card_tapped():
    s = Screen(state_of())
    probe.tap(s.root, "reveal-p10")
    assert s.sent == [rv("p10")]


def test_the_pad_sends_the_cards_tapped_in_order_of_value_and_a_pass():
    s = Screen(state_of(PHASES["raise"]))
    assert probe.text_of(s.root, "bid-to-beat").endswith("3")
    probe.tap(s.root, "money-25")
    probe.tap(s.root, "money-1")
    assert probe.text_of(s.root, "bid-total").endswith("26")
    probe.tap(s.root, "bid-confirm")
    probe.tap(s.root, "pass")
    assert s.sent == [bid(B, 1, 25), pas(B)]


def test_a_raise_counts_the_open_bid():
    s = Screen(state_of([rv("p4"), bid(A, 3), bid(B, 4), pas(C)]))  # Anne again: 3 on the table
    assert probe.text_of(s.root, "bid-open").endswith("3")
    probe.tap(s.root, "money-2")
    assert probe.text_of(s.root, "bid-total").endswith("5")


def test_money_in_hand_is_never_shown_without_assist():
    spent = [rv("p4"), bid(A, 25), pas(B), pas(C), rv("p5")]
    fair = Screen(state_of(spent))
    assert all(probe.is_enabled(fair.root, f"money-{v}") and not probe.is_greyed(fair.root, f"money-{v}")
               for v in HS_MONEY)
    assert not any("money-left" in i for i in probe.idents(fair.root))
    helped = Screen(state_of(spent, assist=True))
    assert probe.is_greyed(helped.root, "money-25")
    assert probe.text_of(helped.root, "hs-money-left-Anne").endswith("81")


@pytest.mark.parametrize("game", ["high-society", "animalement-votre"])
def test_a_tap_on_a_greyed_money_card_says_why_in_one_line(game):
    """#38: with the table aid, a value spent earlier or already in the open bid stays greyed, enters
    nothing, and says why by the money cards (in the edition's words); the line goes at the next tap."""
    from models.i18n import dialect

    with dialect(game):
        s = Screen(state_of([rv("p4"), bid(A, 25), pas(B), pas(C), rv("p5"), bid(A, 3), bid(B, 4), pas(C)], game=game,
                            assist=True))  # Anne again: the 25 spent on the 4, the 3 in her open bid
        assert not probe.has(s.root, "hs-why")
        probe.tap(s.root, "money-25")
        assert probe.text_of(s.root, "hs-why") == Msg("app.hs.why.spent", {"value": 25, "player": A}).render("fr")
        assert probe.is_greyed(s.root, "money-25") and s.sent == []
        probe.tap(s.root, "money-3")
        assert probe.text_of(s.root, "hs-why") == Msg("app.hs.why.laid", {"value": 3, "player": A}).render("fr")
        probe.tap(s.root, "money-8")  # a value she holds: laid, and the line goes
        assert not probe.has(s.root, "hs-why") and s.ctx.draft["add"] == [8]
        if game == "animalement-votre":
            assert "billet" not in Msg("app.hs.why.spent", {"value": 25, "player": A}).render("fr")


def test_the_side_panel_takes_the_players_out_of_the_main_part():
    state = state_of(PHASES["raise"])
    alone = Screen(state)
    with_side = Screen(state, side=True)
    assert probe.has(alone.root, "hs-player-Anne")
    assert not probe.has(with_side.root, "hs-player-Anne")
    side = screen.build_side(state, with_side.ctx)
    assert Msg("app.hs.bid_total", {"total": 3}).render("fr") in probe.text_of(side, "hs-player-Anne")
    assert Msg("app.hs.no_bid").render("fr") in probe.text_of(side, "hs-player-Bruno")


def test_read_only_shows_the_table_and_offers_nothing():
    for phase in ("reveal", "bid", "discard"):
        s = Screen(state_of(PHASES[phase]), readonly=True)
        ids = probe.idents(s.root)
        assert not any(i.startswith(("reveal-", "money-", "discard-", "pass", "bid-")) for i in ids), phase
        assert "hs-player-Anne" in ids


def test_the_theft_offers_only_possessions():
    s = Screen(state_of(PHASES["discard"]))
    assert sorted(i for i in probe.idents(s.root) if i.startswith("discard-")) == ["discard-p3"]
    probe.tap(s.root, "discard-p3")
    assert s.sent == [{"type": "discard", "player": A, "card": "p3"}]


def test_the_ending_card_is_shown_once_the_game_is_over():
    s = Screen(state_of(PHASES["over"]))
    label = Msg("hs.card.high-society.half").render("fr")
    assert Msg("app.hs.ended_by", {"card": label}).render("fr") in probe.text_of(s.root)


def test_animalement_votre_shows_its_own_card_names():
    s = Screen(state_of([rv("p1")], game="animalement-votre"), lang="en")
    assert Msg("hs.card.animalement-votre.p1").render("en") in probe.text_of(s.root, "hs-card")


def test_touch_targets_are_big_enough():
    s = Screen(state_of(PHASES["raise"]))
    for value in HS_MONEY:
        box = probe.find(s.root, f"money-{value}").content
        assert box.width >= 56 and box.height >= 64
    for ident in ("bid-confirm", "pass", "bid-clear"):
        assert probe.find(s.root, ident).content.height >= 64


def test_the_rules_behind_sentences():
    # the sentences of the last entry: Chloé passes, Anne takes the 4 for 3, Anne reveals next
    record = parse_record_data({"format": "table-record/1", "game": "high-society", "players": [A, B, C],
                                "actions": [rv("p4"), bid(A, 3), pas(B), pas(C)]})
    events = replay(record).events
    assert rules_of(events[-1]) == ("HS-FREE-CARD", "HS-AUCTION")
    assert rules_of(events[1]) == ()  # a plain bid settles nothing


def _with_last(actions) -> TableState:
    """The state after ``actions``, with the latest entry's sentences as the frame gives them."""
    record = parse_record_data({"format": "table-record/1", "game": "high-society", "players": [A, B, C],
                                "actions": list(actions)})
    done = replay(record)
    base = state_of(actions)
    return TableState(**{**base.__dict__, "last": tuple(done.events[-1])})


def test_an_auction_just_ended_is_said_big_until_the_next_card():
    # Anne 3, Bruno 4, Chloé passes, Anne passes: Bruno takes the 4 for 4
    s = Screen(_with_last([rv("p4"), bid(A, 3), bid(B, 4), pas(C), pas(A)]))
    shown = probe.text_of(s.root, "hs-result")
    assert Msg("app.hs.result").render("fr") in shown
    assert "Bruno prend " in shown and " pour 4" in shown
    assert "Anne passe" not in shown          # the bookkeeping stays in the log
    idents = probe.idents(s.root)
    assert idents.index("hs-result") < idents.index("hs-reveal")   # where the eye is, above the entry
    # the misfortune: the first to pass takes it, the others' bids are lost
    s = Screen(_with_last([rv("minus5"), bid(A, 2), pas(B)]))
    shown = probe.text_of(s.root, "hs-result")
    assert "Bruno passe en premier et prend" in shown and "Anne perd sa mise de 2" in shown
    # once the next card is turned over, the result is no longer shown (the log keeps it)
    s = Screen(_with_last([rv("p4"), bid(A, 3), bid(B, 4), pas(C), pas(A), rv("p5")]))
    assert not probe.has(s.root, "hs-result")
    # a bid settles nothing: nothing to show
    s = Screen(_with_last([rv("p4"), bid(A, 3)]))
    assert not probe.has(s.root, "hs-result")


def test_on_a_phone_the_pad_keeps_48_dp_and_confirm_comes_before_the_figures():
    s = Screen(state_of(PHASES["raise"]))
    s.ctx.compact = True
    s.build()
    for value in HS_MONEY:
        box = probe.find(s.root, f"money-{value}").content
        assert box.width >= 48 and box.height >= 48
    for ident in ("bid-confirm", "pass", "bid-clear"):
        assert probe.find(s.root, ident).content.height >= 48
    idents = probe.idents(s.root)
    assert idents.index("bid-confirm") < idents.index("bid-total")


# -- parts kept between taps (companion.app.memo) ---------------------------------------------------


# -- the reveal grid and the bid panel switched, not rebuilt ------------------------------------------


def _hidden_money(root) -> dict[int, ft.Semantics]:
    return {int(c.identifier.split("-")[1]): c for c in ui.walk(root)
            if isinstance(c, ft.Semantics) and re.fullmatch(r"money-\d+", c.identifier or "")}


@pytest.mark.parametrize("assist", [False, True])
def test_the_block_not_expected_stays_on_the_page_hidden_and_holds_no_pick(assist):
    """Both entry blocks stay on the page, only the expected one shown: the hidden one cannot be
    read or tapped. The bid panel hidden while a card is turned over is the next bidder's (the one
    who turns it), holds no pick even if the draft still held some, and greys a money card only
    with the aid (which shows the money left anyway): nothing the table may not see."""
    spent = [rv("p4"), bid(A, 25), pas(B), pas(C)]   # Anne took the 4 for 25, she turns the next card
    revealing = Screen(state_of(spent, assist=assist))
    revealing.ctx.draft.update(add=[2, 8], player=A)   # a stale pick: shown nowhere
    revealing.build()
    assert probe.has(revealing.root, "hs-reveal") and probe.kept_hidden(revealing.root, "hs-bid")
    assert not probe.has(revealing.root, "money-8") and probe.kept_hidden(revealing.root, "bid-confirm")
    for ident in ("money-8", "bid-confirm", "bid-clear", "pass"):
        with pytest.raises(LookupError):
            probe.tap(revealing.root, ident)
    assert revealing.sent == []
    assert Msg("app.hs.pass", {"player": A}).render("fr") not in probe.texts(revealing.root)
    money = _hidden_money(revealing.root)
    assert sorted(money) == sorted(HS_MONEY) and not [v for v, c in money.items() if c.selected]
    greyed = sorted(v for v, c in money.items() if any((getattr(n, "opacity", None) or 1) < 1 for n in ui.walk(c)))
    assert greyed == ([25] if assist else [])
    hidden = {c.identifier: c for c in ui.walk(revealing.root) if isinstance(c, ft.Semantics)}
    assert all(probe.text_of(hidden[f"bid-{f}"], f"bid-{f}").endswith("0") for f in ("open", "adding", "total"))
    bidding = Screen(state_of([*spent, rv("p5")], assist=assist))
    assert probe.has(bidding.root, "hs-bid") and probe.kept_hidden(bidding.root, "hs-reveal")
    assert not probe.has(bidding.root, "reveal-p7") and probe.kept_hidden(bidding.root, "reveal-p7")
    assert Msg("app.hs.which_card", {"player": A}).render("fr") not in probe.texts(bidding.root)
    with pytest.raises(LookupError):
        probe.tap(bidding.root, "reveal-p7")
    assert bidding.sent == []


def test_the_theft_hides_both_entry_blocks():
    s = Screen(state_of(PHASES["discard"]))
    assert probe.has(s.root, "hs-discard")
    assert probe.kept_hidden(s.root, "hs-reveal") and probe.kept_hidden(s.root, "hs-bid")


KEPT_TABLE = ("Anne", "Bruno", "Chloé", "David", "Emma")


@pytest.fixture
def kept(tmp_path):
    """The real frame (App) on a fresh database: a five-player game, the 7 on auction, Anne to bid."""
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "kept.db"))
    sid = service.start("high-society", list(KEPT_TABLE), first_player="Anne").session_id
    app = App(service, None)
    app.go("table", session_id=sid)
    probe.tap(app.root, "reveal-p7")
    return service, app, sid


def _parts(app) -> dict[str, object]:
    idents = ["hs-card", *[f"money-{v}" for v in HS_MONEY], *[f"hs-player-{p}" for p in KEPT_TABLE]]
    return {i: probe.find(app.root, i) for i in idents}


def test_a_money_card_tap_builds_again_only_that_card_and_the_bid_figures(kept):
    service, app, sid = kept
    before = _parts(app)
    probe.tap(app.root, "money-4")
    after = _parts(app)
    assert after["money-4"] is not before["money-4"]
    same = [i for i in before if i != "money-4"]
    assert [i for i in same if after[i] is not before[i]] == []   # kept: neither built nor compared
    assert "4" in probe.text_of(app.root, "bid-adding") and "4" in probe.text_of(app.root, "bid-confirm")


def test_kept_money_cards_still_bid_after_an_entry_a_refusal_an_undo_and_a_correction(kept):
    service, app, sid = kept

    def bid(*values: int) -> None:
        for value in values:
            probe.tap(app.root, f"money-{value}")
        probe.tap(app.root, "bid-confirm")

    def last() -> dict:
        return service.open(sid).log[-1].action

    bid(3)
    assert last() == {"type": "bid", "player": "Anne", "add": [3]}
    bid(2)                                        # Bruno at 2 does not beat 3: refused, nothing saved
    assert probe.has(app.root, "refusal") and len(service.open(sid).log) == 2
    probe.tap(app.root, "money-2")                # the pick survives the refusal: take the 2 back
    bid(4)                                        # the same kept cards enter Bruno's real bid
    assert last() == {"type": "bid", "player": "Bruno", "add": [4]}
    probe.tap(app.root, "undo")
    probe.tap(app.dialog, "undo-confirm-yes")
    assert len(service.open(sid).log) == 2
    bid(6)                                        # after the undo, Bruno again, through the kept cards
    assert last() == {"type": "bid", "player": "Bruno", "add": [6]}
    probe.tap(app.root, "correct-1")              # Anne really laid 1
    probe.tap(app.root, "fix-money-1")
    probe.tap(app.root, "fix-bid-confirm")
    probe.tap(app.root, "correction-save")
    assert service.open(sid).log[1].action == {"type": "bid", "player": "Anne", "add": [1]}
    bid(8)                                        # Chloé, through the cards kept before the correction
    assert last() == {"type": "bid", "player": "Chloé", "add": [8]}
    assert "Chloé" in probe.text_of(app.root, "hs-player-Chloé") and "8" in probe.text_of(app.root, "hs-player-Chloé")


def test_a_players_tile_is_built_again_when_what_it_shows_changes(kept):
    service, app, sid = kept
    anne, bruno = probe.find(app.root, "hs-player-Anne"), probe.find(app.root, "hs-player-Bruno")
    probe.tap(app.root, "money-3")
    probe.tap(app.root, "bid-confirm")           # Anne's open bid and the turn move on
    assert probe.find(app.root, "hs-player-Anne") is not anne and probe.find(app.root, "hs-player-Bruno") is not bruno
    assert "3" in probe.text_of(app.root, "hs-player-Anne")
    chloe = probe.find(app.root, "hs-player-Chloé")
    probe.tap(app.root, "pass")                  # Bruno passes: Chloé's tile changes (her turn), Emma's does not
    assert probe.find(app.root, "hs-player-Chloé") is not chloe


def test_money_cards_not_laid_are_kept_from_one_turn_to_the_next_and_still_bid(kept):
    service, app, sid = kept
    one, four = probe.find(app.root, "money-1"), probe.find(app.root, "money-4")
    probe.tap(app.root, "money-4")
    probe.tap(app.root, "bid-confirm")           # Anne's entry: Bruno's turn, nothing laid
    assert probe.find(app.root, "money-1") is one  # neither built nor compared again
    assert probe.find(app.root, "money-4") is not four
    probe.tap(app.root, "money-1")
    probe.tap(app.root, "money-4")
    probe.tap(app.root, "bid-confirm")
    assert service.open(sid).log[-1].action == {"type": "bid", "player": "Bruno", "add": [1, 4]}
