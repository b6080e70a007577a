"""Boursicocotte table screen: built from replayed engine states, driven through its handlers.

The screen holds no rules: these tests check what it shows from the engine's public state, the
actions it hands to ``ctx.submit``, that money stays private (the shared screen never shows a
player's cards or total; the private entry shows the entering player's own and nobody else's),
and that games entered through it are refereed as the engine says — through a bare engine, through
the session service, and through the real table frame (refusal shown, then covered again).
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.app import probe, ui
from companion.app.games import TableState, state_from_session
from companion.app.games import boursicocotte as screen
from models.i18n import LANGUAGES, Msg
from models.record import parse_action, parse_record_data
from scoring.boursicocotte import ANIMALS, BoursicocotteEngine, animal
from scoring.referee import replay
from tests.conftest import EXAMPLES
from tests.screen_driver import ScreenDriver
from tests.support.boursicocotte import bid, challenge, close, draw, game_2460, pay

GAME = "boursicocotte"
TABLE = ("Anne", "Bruno", "Chloé")


# -- helpers ---------------------------------------------------------------------------------------


def en(key: str, **params: Any) -> str:
    return Msg(key, params).render("en")


def en_n(key: str, **params: Any) -> str:
    """An English sentence about ``params["n"]`` things (the catalogue writes its plural)."""
    return en(key, **params)


def test_counts_read_as_each_language_says_them():
    def said(lang: str, key: str, n: int) -> str:
        return Msg(key, {"n": n, "player": "A", "challenger": "A", "total": 1,
                                                  "animal": "x", "stake": 1}).render(lang)

    assert said("fr", "app.bc.put_down", 1) == "Poser 1 carte"
    assert said("fr", "app.bc.put_down", 0) == "Poser 0 carte"
    assert said("fr", "app.bc.put_down", 2) == "Poser 2 cartes"
    assert said("en", "app.bc.put_down", 1) == "Put down 1 card"
    assert said("en", "app.bc.put_down", 0) == "Put down 0 cards"
    assert "(s)" not in " ".join(said(lang, k, n) for lang in LANGUAGES for n in (1, 2)
                                 for k in ("app.bc.trade_cards", "app.bc.private_counter", "app.bc.your_money",
                                           "app.bc.counter", "app.bc.put_down"))


def record_data(actions=(), players=TABLE, **extra: Any) -> dict:
    data: dict[str, Any] = {"format": "table-record/1", "game": GAME, "players": list(players),
                            "actions": list(actions)}
    data.update(extra)
    return data


def state_of_engine(engine: BoursicocotteEngine, *, assist: bool = False, entries: int | None = None) -> TableState:
    return TableState(game=GAME, variant={}, players=tuple(engine.players), first_player=engine.first_player,
                      assist=assist, engine=engine, expected=engine.expected(), outcome=engine.outcome(),
                      entries=engine.applied if entries is None else entries)


def state_of(actions=(), players=TABLE, *, assist: bool = False, **extra: Any) -> TableState:
    done = replay(parse_record_data(record_data(actions, players, **extra)))
    assert done.violation is None, done.violation
    return state_of_engine(done.engine, assist=assist, entries=done.applied)


def example_actions() -> list[dict]:
    return json.loads((EXAMPLES / "boursicocotte-in-progress.json").read_text(encoding="utf-8"))["actions"]


def texts(root: Any) -> list[str]:
    return [c.value for c in ui.walk(root) if isinstance(c, ft.Text) and c.value]


def _advance(state: TableState, action: dict) -> TableState:
    engine = copy.deepcopy(state.engine)  # the shown state stays as it was
    engine.apply(parse_action(GAME, action, list(engine.players)))
    return state_of_engine(engine, assist=state.assist, entries=state.entries + 1)


def Table(state: TableState, lang: str = "en", readonly: bool = False, prefix: str = "",
          live: bool = False, **context: Any) -> ScreenDriver:
    """The screen plus what a frame does; with ``live`` the submissions go to a copy of the engine;
    ``context``: more of the frame's context (compact, side_panel, memo…)."""
    return ScreenDriver(screen, state, lang, readonly=readonly, prefix=prefix, sep=" | ",
                        advance=_advance if live else None, **context)


def assert_no_money_shown(table: Table, except_for: str | None = None) -> None:
    """Nobody's money (cards or total) is on screen, except ``except_for``'s own in their private
    entry."""
    view = table.state.engine.player_view()
    shown = texts(table.root)

    def held(player: str) -> str:
        return en_n("app.bc.your_money", total=view["money_total"][player], n=len(view["money"][player]))

    for player in table.state.players:
        if player == except_for:
            continue
        total = view["money_total"][player]
        if except_for is None or held(player) != held(except_for):
            assert held(player) not in shown
        assert en("app.bc.money_end", total=total) not in shown
    owner_cards = [i for i in table.idents() if i.startswith("bc-cash-")]
    if except_for is None:
        assert owner_cards == [], owner_cards
        assert not table.has("bc-held") and not table.has("bc-private")
    else:
        assert len(owner_cards) == len(view["money"][except_for])
    assert not [i for i in table.idents() if i.startswith("bc-money-end-")]


# -- registration and catalogues -------------------------------------------------------------------






def test_every_step_of_the_shared_example_builds_in_both_languages():
    actions = example_actions()
    for lang in LANGUAGES:
        for assist in (False, True):
            for upto in range(len(actions) + 1):
                table = Table(state_of(actions[:upto], players=("Lou", "Marc", "Nina"), assist=assist), lang=lang)
                assert table.text()
                assert_no_money_shown(table)


def test_a_finished_game_shows_sets_scores_and_everybodys_money_read_only():
    engine = game_2460()
    assert engine.outcome() is not None
    table = Table(state_of_engine(engine), readonly=True)
    view = engine.player_view()
    assert table.text("bc-score-Anne") == en("app.bc.score", sets=3, score=2460)
    for player in TABLE:
        assert en("app.bc.money_end", total=view["money_total"][player]) in table.text(f"bc-money-end-{player}")
    assert not table.has("bc-draw") and not table.has("bc-auction-entry") and not table.has("bc-cover")
    assert not table.has("bc-money-private")


def test_results_explain_sets_times_count_for_each_player():
    """The shared results screen lists the engine's explanation; its "why?" keeps the lines that
    name the player: here the sets, their sum × their count, and the win."""
    from companion.app.screens.results import mentions

    outcome = game_2460().outcome()
    anne = [m.render("en") for m in outcome.explanation if mentions(m, "Anne")]
    assert anne == ["Anne: complete sets of hen (10), dog (160) and pig (650); 820 × 3 sets = 2460 points."]
    chloe = [m.render("fr") for m in outcome.explanation if mentions(m, "Chloé")]
    assert chloe == ["Chloé : séries complètes mouton (250), chèvre (350), vache (800) et cheval (1\u00a0000) ; "
                     "2\u00a0400 × 4 séries = 9\u00a0600 points.",
                     "Chloé gagne avec 9\u00a0600 points."]


# -- the table: public facts -----------------------------------------------------------------------


def test_start_offers_every_animal_of_the_deck_and_nobody_owns_anything():
    table = Table(state_of())
    assert table.text("bc-turn") == en("app.bc.turn_of", player="Anne")
    assert table.text("bc-deck") == en("app.bc.deck", n=40)
    assert table.text("bc-donkeys") == en("app.bc.donkeys", n=0, of=4, amount=50)
    for kind in ANIMALS:
        assert table.enabled(f"bc-draw-{kind}")
        assert en("app.bc.left", n=4) in table.text(f"bc-draw-{kind}")
    for player in TABLE:
        assert table.text(f"bc-animals-{player}") == en("app.bc.no_animal")
    assert not table.has("bc-trade-choice"), "nobody owns an animal: the engine expects a draw only"


def test_tapping_the_animal_turned_over_records_the_draw():
    table = Table(state_of())
    table.tap("bc-draw-cow")
    assert table.submitted == [draw("cow")]


def test_animals_no_longer_in_the_deck_are_not_offered():
    actions = []
    for _ in range(4):  # the four hens, each taken free by its auctioneer
        actions += [draw("hen"), close()]
    table = Table(state_of(actions))
    assert not table.has("bc-draw-hen")
    assert table.has("bc-draw-goose")
    assert table.text("bc-deck") == en("app.bc.deck", n=36)
    assert "Hen ×2" in table.text("bc-animals-Anne") and "Hen ×1" in table.text("bc-animals-Bruno")


def test_donkey_count_and_next_payout_follow_the_engine():
    table = Table(state_of([draw("donkey"), close()]))
    assert table.text("bc-donkeys") == en("app.bc.donkeys", n=1, of=4, amount=100)


def test_a_donkeys_payout_is_said_in_the_prompt_through_its_auction():
    """The bank's payout is said where the eye is (the prompt), not only in the log below."""
    from companion.app.games import TableContext

    for actions, n, amount in (([draw("donkey")], 1, 50), ([draw("donkey"), close(), draw("donkey")], 2, 100)):
        state = state_of(actions)
        said = screen.prompt(state, TableContext(lang="fr", submit=lambda _: None, refresh=lambda: None))
        assert said is not None and said.startswith(Msg("app.bc.donkey_prompt", {
            "n": n, "amount": amount, "prompt": ""}).render("fr").strip()), said
        assert Msg("bc.prompt.auction_open", {"animal": Msg("bc.animal.donkey"), "auctioneer": "Anne" if n == 1
                                              else state.engine.auction.auctioneer}).render("fr") in said
    state = state_of([draw("hen")])  # any other animal: the engine's prompt alone
    assert screen.prompt(state, TableContext(lang="fr", submit=lambda _: None, refresh=lambda: None)) is None


def test_with_the_frames_side_column_the_players_move_there():
    state = state_of([draw("hen"), close(), draw("cow"), close()])
    table = Table(state)
    table.ctx.side_panel = True
    table._refresh()
    assert not table.has("bc-player-Anne") and table.has("bc-draw")
    side = screen.build_side(state, table.ctx)
    idents = {c.identifier for c in ui.walk(side) if isinstance(c, ft.Semantics)}
    assert {"bc-player-Anne", "bc-player-Bruno", "bc-player-Chloé", "bc-money-private"} <= idents
    assert "Cow ×1" in " ".join(texts(side)) and "Hen ×1" in " ".join(texts(side))
    assert not [i for i in idents if i.startswith("bc-money-end-")]


# -- auctions --------------------------------------------------------------------------------------


def test_auction_shows_the_animal_and_the_running_bid():
    table = Table(state_of([draw("pig"), bid("Bruno", 20), bid("Chloé", 40)]))
    assert table.text("bc-auction") == en("app.bc.auction_of", animal=animal("pig"), auctioneer="Anne")
    assert table.text("bc-highest") == en("app.bc.highest", amount=40, player="Chloé")
    assert table.text("bc-bids") == en("app.bc.bids", bids=["Bruno 20", "Chloé 40"])
    assert "650" in table.text("bc-table")


def test_the_bidders_are_everyone_but_the_auctioneer():
    table = Table(state_of([draw("pig")]))
    assert not table.has("bc-bidder-Anne")
    assert table.has("bc-bidder-Bruno") and table.has("bc-bidder-Chloé")


def test_one_tap_on_the_bidder_bids_one_step_above_the_highest():
    table = Table(state_of([draw("pig"), bid("Bruno", 20)]))
    assert table.text("bc-amount").endswith("30")
    assert table.text("bc-who-bids") == en("app.bc.who_bids", amount=30)
    table.tap("bc-bidder-Chloé")
    assert table.submitted == [bid("Chloé", 30)]


def test_quick_raises_add_to_the_amount_shown_in_the_offer_not_to_the_highest_bid():
    table = Table(state_of([draw("pig"), bid("Bruno", 20)]))
    assert table.text("bc-amount").endswith("30")     # proposed: one step above Bruno's 20
    table.tap("bc-raise-50")
    assert table.text("bc-who-bids") == en("app.bc.who_bids", amount=80)
    assert table.text("bc-amount").endswith("80")
    table.tap("bc-raise-100")
    assert table.text("bc-who-bids") == en("app.bc.who_bids", amount=180)
    table.tap("bc-lower")
    assert table.text("bc-who-bids") == en("app.bc.who_bids", amount=170)
    table.tap("bc-bidder-Bruno")
    assert table.submitted == [bid("Bruno", 170)]


def test_the_first_quick_raise_says_what_it_added_to():
    table = Table(state_of([draw("pig"), bid("Bruno", 20)]))
    before = table.text("bc-amount")
    assert en("app.bc.proposed_bid") in before and not table.has("bc-raised")
    table.tap("bc-raise-10")                  # the 30 shown + 10
    assert table.text("bc-who-bids") == en("app.bc.who_bids", amount=40)
    assert table.text("bc-amount") != before and en("app.bc.new_bid") in table.text("bc-amount")
    assert table.text("bc-raised") == en("app.bc.raised", before=30, step=10, amount=40)
    assert isinstance(table.find("bc-raise-10").content, ft.FilledButton)       # the raise tapped stands out
    assert not isinstance(table.find("bc-raise-20").content, ft.FilledButton)


def test_the_first_bid_starts_at_ten_and_cannot_be_lowered_below_ten():
    table = Table(state_of([draw("hen")]))
    assert table.text("bc-who-bids") == en("app.bc.who_bids", amount=10)
    assert not table.enabled("bc-lower")


def test_a_bid_that_does_not_beat_the_highest_is_refused_by_the_engine():
    table = Table(state_of([draw("pig"), bid("Bruno", 20)]), live=True)
    table.tap("bc-lower")  # 20: not above the 20 already bid
    table.tap("bc-bidder-Chloé")
    assert table.refusals == ["BC-BID-RAISE"]
    assert table.text("bc-who-bids") == en("app.bc.who_bids", amount=20), "the amount set survives"


def test_closing_sold_bought_back_or_free():
    table = Table(state_of([draw("pig"), bid("Bruno", 20)]))
    assert table.text("bc-close-sold") == en("app.bc.sold_to", bidder="Bruno", amount=20)
    assert table.text("bc-close-buy-back") == en("app.bc.buy_back", auctioneer="Anne", amount=20)
    table.tap("bc-close-sold")
    table.tap("bc-close-buy-back")
    assert table.submitted == [close(False), close(True)]
    table = Table(state_of([draw("pig")]))
    assert not table.has("bc-close-sold") and not table.has("bc-close-buy-back")
    assert table.text("bc-close-free") == en("app.bc.free", auctioneer="Anne", animal=animal("pig"))
    table.tap("bc-close-free")
    assert table.submitted == [close(False)]


def test_after_cannot_pay_the_bidder_is_marked_out_and_the_engine_refuses_their_bid():
    actions = [draw("horse"), bid("Bruno", 500), close(), {"type": "cannot_pay", "player": "Bruno"}]
    table = Table(state_of(actions), live=True)
    assert table.text("bc-excluded") == en("app.bc.excluded", players=["Bruno"])
    assert table.text("bc-bidder-Bruno") == en("app.bc.bidder_out", player="Bruno")
    table.tap("bc-bidder-Bruno")
    assert table.refusals == ["BC-BID-EXCLUDED"]
    assist = Table(state_of(actions, assist=True))
    assert not assist.enabled("bc-bidder-Bruno"), "with the assist the excluded bidder is greyed out"


def test_a_lost_buy_back_is_said_and_the_engine_refuses_it():
    actions = [draw("horse"), bid("Bruno", 500), close(True), {"type": "cannot_pay", "player": "Anne"},
               bid("Chloé", 10)]
    table = Table(state_of(actions), live=True)
    assert table.text("bc-buy-back-lost") == en("app.bc.buy_back_lost", player="Anne", animal=animal("horse"))
    table.tap("bc-close-buy-back")
    assert table.refusals == ["BC-BUYBACK-LOST"]


# -- payment: private ------------------------------------------------------------------------------


SOLD = [draw("pig"), bid("Bruno", 20), bid("Chloé", 40), close()]


def test_payment_is_covered_until_the_payer_says_who_they_are():
    table = Table(state_of(SOLD))
    assert table.text("bc-debt") == en("app.bc.debt_sold", payer="Chloé", recipient="Anne", amount=40,
                                       animal=animal("pig"))
    assert en("app.bc.pass_to", player="Chloé") in table.text("bc-pass")
    assert table.text("bc-show-me") == en("app.bc.show_me", player="Chloé")
    assert_no_money_shown(table)
    table.tap("bc-show-me")
    assert table.has("bc-private")
    assert table.text("bc-private-title") == en("app.bc.private_title", player="Chloé")
    assert table.text("bc-held") == en_n("app.bc.your_money", total=90, n=7)
    assert_no_money_shown(table, except_for="Chloé")


def test_the_private_view_hides_the_rest_of_the_table():
    table = Table(state_of(SOLD))
    table.tap("bc-show-me")
    for ident in ("bc-table", "bc-player-Anne", "bc-player-Bruno", "bc-auction-entry", "bc-cover"):
        assert not table.has(ident), ident


def test_paying_by_tapping_the_payers_own_cards():
    table = Table(state_of(SOLD))
    table.tap("bc-show-me")
    assert not table.enabled("bc-pay")
    table.tap("bc-cash-10-0")
    table.tap("bc-cash-10-1")
    table.tap("bc-cash-10-2")
    assert table.text("bc-picked").endswith("30")
    table.tap("bc-cash-10-2")  # a second tap takes a card back
    table.tap("bc-cash-0-0")
    table.tap("bc-cash-10-3")
    table.tap("bc-cash-10-2")
    assert table.text("bc-pay") == en("app.bc.pay", total=40)
    assert table.text("bc-owed").endswith("40")
    table.tap("bc-pay")
    assert table.submitted == [pay("Chloé", [10, 10, 10, 10, 0])]


@pytest.mark.parametrize("assist", [False, True])
def test_a_payment_short_of_the_amount_owed_is_greyed_with_the_reason(assist):
    """Chloé owes 40: « Pay 30 » cannot be the amount owed, so it is greyed and the screen says what
    is missing (with or without the assist: she sees her own cards and the debt is public)."""
    table = Table(state_of(SOLD, assist=assist))
    table.tap("bc-show-me")
    for key in ("10-0", "10-1", "10-2"):
        table.tap(f"bc-cash-{key}")
    assert table.text("bc-pay") == en("app.bc.pay", total=30)
    assert not table.enabled("bc-pay")
    assert table.text("bc-pay-why-not") == en("app.bc.pay_short", missing=10, amount=40)
    table.tap("bc-cash-10-3")
    assert table.enabled("bc-pay") and not table.has("bc-pay-why-not")
    assert table.find("bc-cash-10-0").selected, "the cards stay picked"


def test_an_overpayment_is_greyed_when_the_cards_make_the_exact_amount_unless_the_table_pays_freely():
    """Chloé owes 40 and holds four 10s: handing over 50 is not the rulebook's payment (BC-OVERPAY)."""
    table = Table(state_of(SOLD))
    table.tap("bc-show-me")
    table.tap("bc-cash-50-0")
    assert not table.enabled("bc-pay")
    assert table.text("bc-pay-why-not") == en("app.bc.pay_exact", amount=40)
    free = Table(state_of(SOLD, variant={"payment": "any"}))
    free.tap("bc-show-me")
    free.tap("bc-cash-50-0")
    assert free.enabled("bc-pay") and not free.has("bc-pay-why-not")
    free.tap("bc-pay")
    assert free.submitted == [pay("Chloé", [50])]


def test_a_payment_over_the_amount_is_allowed_when_the_exact_amount_cannot_be_made():
    # Anne buys back at 60 (owing 60 to Chloé): her 50 + 10 make it, so 50 + 10 + 10 is greyed.
    table = Table(state_of([draw("pig"), bid("Chloé", 60), close(True)]))
    table.tap("bc-show-me")
    table.tap("bc-cash-50-0")
    table.tap("bc-cash-10-0")
    table.tap("bc-cash-10-1")
    assert table.text("bc-pay-why-not") == en("app.bc.pay_exact", amount=60)
    spent = Table(state_of([draw("pig"), bid("Chloé", 40), close(), pay("Chloé", [10, 10, 10, 10]),
                            draw("hen"), bid("Chloé", 30), close()]))   # Chloé holds 0, 0, 50: 30 is not exact
    spent.tap("bc-show-me")
    spent.tap("bc-cash-50-0")
    assert spent.enabled("bc-pay") and not spent.has("bc-pay-why-not")


def test_clear_takes_every_picked_card_back():
    table = Table(state_of(SOLD))
    table.tap("bc-show-me")
    table.tap("bc-cash-50-0")
    table.tap("bc-clear")
    assert table.text("bc-picked").endswith("0") and not table.enabled("bc-pay")


def test_an_accepted_payment_covers_the_screen_again():
    table = Table(state_of(SOLD), live=True)
    table.tap("bc-show-me")
    table.tap("bc-cash-10-0")
    table.tap("bc-cash-10-1")
    table.tap("bc-cash-10-2")
    table.tap("bc-cash-10-3")
    table.tap("bc-pay")
    assert table.refusals == []
    assert table.state.engine.phase == "turn"
    assert not table.has("bc-private")
    assert "Pig ×1" in table.text("bc-animals-Chloé")
    assert_no_money_shown(table)


def test_i_cant_pay_is_the_payers_and_the_engine_refuses_it_when_they_can():
    table = Table(state_of(SOLD), live=True)
    assert not table.has("bc-cannot-pay"), "only in the payer's private view"
    table.tap("bc-show-me")
    table.tap("bc-cannot-pay")
    assert table.submitted == [{"type": "cannot_pay", "player": "Chloé"}]
    assert table.refusals == ["BC-CAN-PAY"]
    assist = Table(state_of(SOLD, assist=True))
    assist.tap("bc-show-me")
    assert not assist.enabled("bc-cannot-pay")


def test_i_cant_pay_accepted_when_the_money_falls_short():
    actions = [draw("horse"), bid("Bruno", 500), close()]
    table = Table(state_of(actions), live=True)
    table.tap("bc-show-me")
    table.tap("bc-cannot-pay")
    assert table.refusals == []
    assert table.state.engine.phase == "auction"
    assert table.text("bc-excluded") == en("app.bc.excluded", players=["Bruno"])


def test_hide_covers_again_forgets_the_picked_cards_and_dismisses_the_frames_refusal():
    table = Table(state_of(SOLD))
    table.tap("bc-show-me")
    table.tap("bc-cash-50-0")
    table.tap("bc-hide")
    assert table.dismissed == 1
    assert not table.has("bc-private") and table.has("bc-cover")
    assert_no_money_shown(table)
    table.tap("bc-show-me")
    assert not table.find("bc-cash-50-0").selected


def test_the_buy_back_payer_is_the_auctioneer():
    table = Table(state_of([draw("pig"), bid("Bruno", 30), close(True)]))
    assert table.text("bc-debt") == en("app.bc.debt_buy_back", payer="Anne", recipient="Bruno", amount=30,
                                       animal=animal("pig"))
    assert en("app.bc.pass_to", player="Anne") in table.text("bc-pass")


def test_a_private_view_left_open_does_not_carry_over_to_the_next_step():
    """The draft is the frame's; if it were kept, the private view opened for one step must not
    open for another player or another moment."""
    table = Table(state_of(SOLD))
    table.tap("bc-show-me")
    draft = dict(table.ctx.draft)
    later = Table(state_of(SOLD + [pay("Chloé", [10, 10, 10, 10])] + [draw("hen"), bid("Anne", 10), close()]))
    later.ctx.draft.update(draft)
    later._refresh()
    assert not later.has("bc-private") and later.has("bc-cover")


# -- trades: the choice in public, the offers in private -------------------------------------------

# Anne owns a pig, Bruno a pig and a hen, Chloé a hen; then it is Bruno's turn.
PIGS = [draw("pig"), close(),  # Anne keeps it free
        draw("pig"), close(),  # Bruno keeps it free
        draw("hen"), close(),  # Chloé keeps it free
        draw("hen"), bid("Bruno", 10), close(), pay("Bruno", [10])]
# Anne owns a pig, a cow and a hen, Bruno a pig, Chloé nothing; then it is Bruno's turn.
MIXED = [draw("pig"), close(), draw("pig"), close(),
         draw("cow"), bid("Anne", 10), close(), pay("Anne", [10]),
         draw("hen"), close()]


def test_the_trade_choice_lists_the_other_players_then_the_targets_animals():
    state = state_of(PIGS)
    assert state.engine.turn == "Bruno"
    table = Table(state)
    assert table.has("bc-trade-choice")
    assert not table.has("bc-target-Bruno")
    table.tap("bc-target-Chloé")
    assert table.has("bc-trade-animal-hen") and not table.has("bc-trade-animal-pig")
    table.tap("bc-target-Anne")
    assert table.has("bc-trade-animal-pig") and not table.has("bc-trade-animal-hen")
    assert not table.has("bc-show-me")
    table.tap("bc-trade-animal-pig")
    assert en("app.bc.pass_to", player="Bruno") in table.text("bc-pass")
    assert_no_money_shown(table)


def test_the_trade_chooser_comes_right_under_the_draw_picker():
    table = Table(state_of(PIGS))
    column = table.root.controls[0]  # the public parts (a player's private view would come after them)
    assert isinstance(column, ft.Column)
    order = [getattr(c.content if isinstance(c, ft.Container) else c, "identifier", None) for c in column.controls]
    assert order[:3] == ["bc-table", "bc-draw", "bc-trade-choice"], order


def test_choosing_a_target_changes_the_line_at_the_top_and_folds_the_draw_picker_away():
    table = Table(state_of(PIGS))
    assert table.text("bc-turn") == en("app.bc.turn_of", player="Bruno")
    table.tap("bc-target-Anne")
    assert table.text("bc-turn") == en("app.bc.step_animal", player="Bruno", target="Anne")
    assert not table.has("bc-draw"), "the trade is what the table does now"
    table.tap("bc-trade-animal-pig")
    assert table.text("bc-turn") == en("app.bc.trade_on", challenger="Bruno", target="Anne", animal=animal("pig"))
    table.tap("bc-trade-back")                # draw instead: the picker is back, the line too
    assert table.has("bc-draw") and not table.has("bc-trade-back")
    assert table.text("bc-turn") == en("app.bc.turn_of", player="Bruno")
    assert not table.find("bc-target-Anne").selected


def test_with_the_deck_empty_there_is_no_draw_to_go_back_to():
    state = state_of(PIGS)
    table = Table(dataclasses.replace(state, expected=dataclasses.replace(state.expected, types=("challenge",))))
    assert not table.has("bc-draw")
    assert table.text("bc-trade-choice").startswith(en("app.bc.trade_title_only", player="Bruno"))
    table.tap("bc-target-Anne")
    assert not table.has("bc-draw") and not table.has("bc-trade-back")


@pytest.mark.parametrize("assist", [False, True])
def test_only_legal_targets_and_animals_are_offered_before_any_private_entry(assist):
    """Whom and over which animal is public (the animals lie face up): a challenge the rules forbid
    is not offered at all, with or without the assist, instead of being refused after the money."""
    table = Table(state_of(MIXED, assist=assist))
    assert table.state.engine.turn == "Bruno"
    assert not table.has("bc-target-Chloé"), "Chloé owns no animal Bruno owns"
    table.tap("bc-target-Anne")
    assert table.has("bc-trade-animal-pig")
    assert not table.has("bc-trade-animal-cow"), "Bruno owns no cow"
    assert not table.has("bc-trade-animal-hen")
    assert not table.has("bc-private")


def test_the_legal_challenge_goes_through_in_private():
    table = Table(state_of(MIXED), live=True)
    table.tap("bc-target-Anne")
    table.tap("bc-trade-animal-pig")
    table.tap("bc-show-me")
    table.tap("bc-cash-0-0")
    table.tap("bc-offer")
    assert table.refusals == [] and table.state.engine.phase == "trade_answer"


def test_the_challenger_offers_in_private_and_the_challenge_carries_the_cards():
    table = Table(state_of(PIGS))
    table.tap("bc-target-Anne")
    table.tap("bc-trade-animal-pig")
    table.tap("bc-show-me")
    assert table.text("bc-private-intro") == en("app.bc.private_offer", target="Anne", animal=animal("pig"))
    assert_no_money_shown(table, except_for="Bruno")
    assert not table.enabled("bc-offer")
    table.tap("bc-cash-0-0")
    table.tap("bc-cash-10-0")
    assert table.text("bc-offer") == en_n("app.bc.put_down", n=2)
    table.tap("bc-offer")
    assert table.submitted == [challenge("Bruno", "Anne", "pig", [10, 0])]


def test_the_target_is_covered_sees_the_card_count_and_may_accept_in_public():
    table = Table(state_of(PIGS + [challenge("Bruno", "Anne", "pig", [10, 0])]))
    assert table.text("bc-trade") == en("app.bc.trade_on", challenger="Bruno", target="Anne", animal=animal("pig"))
    assert table.text("bc-trade-cards") == en_n("app.bc.trade_cards", n=2, player="Bruno")
    assert table.text("bc-trade-stake") == en("app.bc.trade_stake", n=1)
    assert en("app.bc.pass_to", player="Anne") in table.text("bc-pass")
    assert_no_money_shown(table)
    table.tap("bc-accept")
    assert table.submitted == [{"type": "accept", "player": "Anne"}]


def test_the_target_counters_in_private():
    table = Table(state_of(PIGS + [challenge("Bruno", "Anne", "pig", [10, 0])]))
    table.tap("bc-show-me")
    assert table.text("bc-private-intro") == en_n("app.bc.private_counter", challenger="Bruno", n=2,
                                                animal=animal("pig"), stake=1)
    assert_no_money_shown(table, except_for="Anne")
    table.tap("bc-cash-50-0")
    table.tap("bc-counter")
    table.tap("bc-accept-private")
    assert table.submitted == [{"type": "counter", "player": "Anne", "cards": [50]},
                               {"type": "accept", "player": "Anne"}]


def test_after_the_trade_everyone_sees_the_outcome_and_no_amount():
    table = Table(state_of(PIGS + [challenge("Bruno", "Anne", "pig", [10, 0])]), live=True)
    table.tap("bc-show-me")
    table.tap("bc-cash-50-0")
    table.tap("bc-counter")
    assert table.refusals == []
    outcome = table.text("bc-last-trade")
    engine = table.state.engine
    for message in engine.player_view()["last_trade"]:
        assert message.render("en") in outcome
    assert "50" not in outcome and "Anne" in outcome
    assert "Pig ×2" in table.text("bc-animals-Anne")
    assert_no_money_shown(table)


def test_a_tie_makes_the_challenger_offer_again_in_private_for_the_same_animal():
    table = Table(state_of(PIGS + [challenge("Bruno", "Anne", "pig", [10]), {"type": "counter", "player": "Anne",
                                                                            "cards": [10]}]))
    assert table.state.engine.phase == "second_challenge"
    assert table.text("bc-trade-tied") == en("app.bc.trade_tied", challenger="Bruno")
    assert en("app.bc.pass_to", player="Bruno") in table.text("bc-pass")
    assert table.has("bc-last-trade")
    table.tap("bc-show-me")
    table.tap("bc-cash-50-0")
    table.tap("bc-offer")
    assert table.submitted == [challenge("Bruno", "Anne", "pig", [50])]


# -- corrections and read-only replays -------------------------------------------------------------


def test_read_only_offers_no_input_and_no_private_view():
    for upto in (1, 4, len(PIGS) + 1):
        actions = (PIGS + [challenge("Bruno", "Anne", "pig", [10, 0])])[:upto]
        table = Table(state_of(actions), readonly=True)
        for ident in ("bc-draw", "bc-auction-entry", "bc-cover", "bc-trade-choice", "bc-private", "bc-show-me"):
            assert not table.has(ident), (upto, ident)
        assert_no_money_shown(table)


def test_a_correction_prefixes_every_identifier():
    table = Table(state_of(SOLD), prefix="fix-")
    assert table.has("fix-bc-show-me") and table.has("fix-bc-table")
    assert not [i for i in table.idents() if i.startswith("bc-")]


# -- a whole game through the screen ---------------------------------------------------------------


def test_the_shared_example_entered_by_taps_is_the_same_record():
    """Every entry of the shared example made through the screen's handlers, as at the table."""
    players = ("Lou", "Marc", "Nina")
    table = Table(state_of(players=players), live=True)

    def pay_with(cards: list[int]) -> None:
        table.tap("bc-show-me")
        seen: dict[int, int] = {}
        for value in cards:
            table.tap(f"bc-cash-{value}-{seen.get(value, 0)}")
            seen[value] = seen.get(value, 0) + 1

    table.tap("bc-draw-pig")
    table.tap("bc-raise-10")  # the 10 proposed + 10
    table.tap("bc-bidder-Marc")
    table.tap("bc-raise-10")  # the 30 proposed + 10
    table.tap("bc-bidder-Nina")
    table.tap("bc-close-sold")
    pay_with([10, 10, 10, 10])
    table.tap("bc-pay")
    table.tap("bc-draw-pig")
    table.tap("bc-raise-20")  # the 10 proposed + 20
    table.tap("bc-bidder-Nina")
    table.tap("bc-close-buy-back")
    pay_with([10, 10, 10])
    table.tap("bc-pay")
    table.tap("bc-target-Marc")
    table.tap("bc-trade-animal-pig")
    pay_with([0, 50])
    table.tap("bc-offer")
    pay_with([0, 10])
    table.tap("bc-counter")
    assert table.refusals == []
    normalised = [dict(a, cards=sorted(a["cards"])) if "cards" in a else a for a in table.submitted]
    expected = [dict(a, cards=sorted(a["cards"])) if "cards" in a else a for a in example_actions()]
    assert normalised == expected
    assert table.state.engine.phase == "turn" and table.state.engine.turn == "Lou"


# -- the real path: the session service and the table frame ----------------------------------------


def _app(tmp_path: Path, lang: str = "en"):
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "bc.db"))
    session = service.start(GAME, list(TABLE), assist=False)
    app = App(service, lang=lang)
    app.go("table", session_id=session.session_id)
    return app, service, session.session_id


def _frame_tap(app: Any, ident: str) -> None:
    found = [c for c in ui.walk(app.root) if isinstance(c, ft.Semantics) and c.identifier == ident]
    assert len(found) == 1, (ident, len(found))
    found[0].content.on_click(None)


def _frame_has(app: Any, ident: str) -> bool:
    return any(isinstance(c, ft.Semantics) and c.identifier == ident for c in ui.walk(app.root))


def _frame_texts(app: Any) -> str:
    return " | ".join(texts(app.root))


def test_through_the_table_frame_a_refusal_quoting_money_is_gone_once_covered(tmp_path):
    """In the real frame: "I can't pay" while able to pay is refused with BC-CAN-PAY, whose
    sentence gives the payer's total; hiding the money must take that sentence away too."""
    app, service, sid = _app(tmp_path)
    for ident in ("bc-draw-pig", "bc-bidder-Bruno"):
        _frame_tap(app, ident)
    _frame_tap(app, "bc-close-sold")
    assert _frame_has(app, "bc-cover")
    _frame_tap(app, "bc-show-me")
    _frame_tap(app, "bc-cannot-pay")
    assert _frame_has(app, "refusal")
    holds = en("bc.err.can_pay", player="Bruno", total=90, amount=10)
    assert holds in _frame_texts(app)
    assert en("rule.BC-CAN-PAY.title") in _frame_texts(app)
    assert len(service.open(sid).log) == 3, "nothing saved"
    _frame_tap(app, "bc-hide")
    assert not _frame_has(app, "refusal"), "the refusal quoting Bruno's money stays on the shared screen"
    assert holds not in _frame_texts(app)
    _frame_tap(app, "bc-show-me")
    _frame_tap(app, "bc-cash-10-0")
    _frame_tap(app, "bc-pay")
    assert len(service.open(sid).log) == 4
    assert _frame_has(app, "bc-draw") and not _frame_has(app, "bc-private")
    _frame_tap(app, "undo")
    app.dialog.actions[1].content.on_click(None)  # yes, undo it
    assert len(service.open(sid).log) == 3
    assert _frame_has(app, "bc-cover") and not _frame_has(app, "bc-private")


def test_through_the_table_frame_an_overpayment_is_greyed_in_the_payers_private_view_only(tmp_path):
    """Bruno owes 10 and holds four 10s: handing over his 50 is not the rulebook's exact payment
    (BC-OVERPAY): « Pay 50 » is greyed with the reason, in his private view only (it quotes what he
    picked); hiding takes it away; nothing is entered until he pays right."""
    app, service, sid = _app(tmp_path)
    for ident in ("bc-draw-pig", "bc-bidder-Bruno"):
        _frame_tap(app, ident)
    _frame_tap(app, "bc-close-sold")
    assert _frame_has(app, "bc-cover") and not _frame_has(app, "bc-pay")  # nothing to pay with in public
    _frame_tap(app, "bc-show-me")
    _frame_tap(app, "bc-cash-50-0")
    assert not probe.is_enabled(app.root, "bc-pay")
    why = en("app.bc.pay_exact", amount=10)
    assert why in _frame_texts(app) and _frame_has(app, "bc-private")
    _frame_tap(app, "bc-hide")
    assert why not in _frame_texts(app)
    _frame_tap(app, "bc-show-me")
    _frame_tap(app, "bc-cash-10-0")
    _frame_tap(app, "bc-pay")
    assert len(service.open(sid).log) == 4 and not _frame_has(app, "bc-private")


def test_through_the_session_service_in_french(tmp_path):
    app, service, sid = _app(tmp_path, lang="fr")
    _frame_tap(app, "bc-draw-hen")
    assert Msg("app.bc.auction_of", {"animal": animal("hen"), "auctioneer": "Anne"}).render("fr") in _frame_texts(app)
    _frame_tap(app, "bc-close-free")
    state = state_from_session(service.open(sid))
    assert state.engine.player_view()["animals"]["Anne"] == {"hen": 1}
    assert Msg("app.bc.animal_count", {"animal": "Poule", "n": 1}).render("fr") in _frame_texts(app)


def test_on_a_phone_the_private_title_has_the_width_and_hide_goes_under_it():
    """Beside « Hide my money » on a 390-wide phone the title had a sliver of width (a letter a line):
    on a phone no row holds both; on a tablet they share one."""
    def rows_with_both(table: Table) -> list[ft.Row]:
        title, hide = table.find("bc-private-title"), table.find("bc-hide")
        return [r for r in ui.walk(table.root) if isinstance(r, ft.Row)
                and any(c is title for c in ui.walk(r)) and any(c is hide for c in ui.walk(r))]

    phone = Table(state_of(SOLD), compact=True)
    phone.tap("bc-show-me")
    assert rows_with_both(phone) == []
    tablet = Table(state_of(SOLD))
    tablet.tap("bc-show-me")
    assert rows_with_both(tablet) != []


def test_no_french_sentence_about_a_named_player_says_il_or_elle():
    """« Bruno doit payer … (ou montrer qu'il ne le peut pas) » assumed Bruno's gender: a sentence
    naming a player says it without « il » / « elle » (the impersonal « il faut », « il manque »,
    « il n'y a », « il reste » say nothing of anyone)."""
    import re

    from tests.conftest import ROOT

    named = re.compile(r"\{(player|payer|target|challenger|auctioneer|bidder|recipient|name|names)\b")
    pronoun = re.compile(r"\b(?:qu'|l')?(?:il|elle)s?\b(?! (?:faut|manque|n'y a|ne reste|reste))", re.IGNORECASE)
    texts = json.loads((ROOT / "assets" / "i18n" / "fr" / "boursicocotte.json").read_text(encoding="utf-8"))
    gendered = {key: text for key, text in texts.items() if named.search(text) and pronoun.search(text)}
    assert gendered == {}


def test_the_frames_prompt_follows_the_challenge_being_chosen(tmp_path):
    """The prompt at the top of the table (the frame's) says what the table does now: whom Bruno
    challenges, then over which animal — not only whose turn it is."""
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "bc.db"))
    sid = service.start("boursicocotte", list(TABLE)).session_id
    for action in PIGS:
        service.submit(sid, action)
    app = App(service, None)
    app.set_lang("en")
    app.go("table", session_id=sid)
    engine_said = service.open(sid).expected.prompt.render("en")
    assert probe.text_of(app.root, "prompt") == engine_said
    probe.tap(app.root, "bc-target-Anne")
    assert probe.text_of(app.root, "prompt") == en("app.bc.step_animal", player="Bruno", target="Anne")
    probe.tap(app.root, "bc-trade-animal-pig")
    assert probe.text_of(app.root, "prompt") == en("app.bc.trade_on", challenger="Bruno", target="Anne",
                                                   animal=animal("pig"))
    probe.tap(app.root, "bc-trade-back")
    assert probe.text_of(app.root, "prompt") == engine_said
