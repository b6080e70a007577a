"""Monte & descend table screen: built from a replayed engine state, driven through its handlers.

The screen holds no rules: these tests check what it shows from the engine's public state (the
pile, the direction, banners, hand counts, the score sheet), the actions it hands to
``ctx.submit``, and that entries made through it are refereed as the engine says, refusals included,
through the session service too.
"""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.app import probe, ui
from companion.app.games import (
    TableState,
    state_from_session,
)
from companion.app.games import monte_descend as screen
from models.i18n import LANGUAGES, Msg
from models.record import parse_action, parse_record_data
from scoring.base import rules_of
from scoring.referee import replay
from tests.screen_driver import ScreenDriver
from tests.support.monte_descend import GAME, draw, pass_, play, take

TABLE = ("Anne", "Bruno", "Chloé")


def state_of(actions=(), players=TABLE, **variant: Any) -> TableState:
    data: dict[str, Any] = {"format": "table-record/1", "game": GAME, "players": list(players),
                            "actions": list(actions)}
    if variant:
        data["variant"] = variant
    done = replay(parse_record_data(data))
    assert done.violation is None, done.violation
    engine = done.engine
    return TableState(game=GAME, variant=dict(variant), players=tuple(players), first_player=players[0],
                      assist=False, engine=engine, expected=engine.expected(), outcome=engine.outcome(),
                      entries=done.applied)


def Table(state: TableState, lang: str = "en", readonly: bool = False, prefix: str = "") -> ScreenDriver:
    """The screen plus what a frame would do: collect submissions, keep the draft, re-render."""
    return ScreenDriver(screen, state, lang, readonly=readonly, prefix=prefix)


def en(key: str, **params: Any) -> str:
    return Msg(key, params).render("en")


# -- registration and catalogues -------------------------------------------------------------------






PHASES = [
    [],
    [play("Anne", "r8")],
    [play("Anne", "r8"), draw("Bruno")],
    [play("Anne", "y5-take", direction="up")],
    [play("Anne", "b8"), play("Bruno", "y9-skip")],
    [play("Anne", "b8"), draw("Bruno"), pass_("Bruno"), draw("Chloé"), pass_("Chloé")],
    [play("Anne", *[f"b{v}" for v in range(1, 8)])],
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phase_builds_in_both_languages(lang):
    for actions in PHASES:
        Table(state_of(actions), lang=lang).text()
        Table(state_of(actions, take_stacking=True), lang=lang).text()
    Table(state_of(PHASES[-1], deals=1), lang=lang, readonly=True).text()


# -- the pile --------------------------------------------------------------------------------------


def test_start_shows_an_empty_pile_the_deal_the_reserve_and_the_first_card_banner():
    table = Table(state_of())
    assert table.text("md-deal") == en("app.md.deal", n=1, of=6)
    assert table.text("md-reserve") == en("app.md.reserve", n=43)
    assert table.text("md-reshuffles") == en("app.md.reshuffles.1")
    assert table.has("md-pile-empty") and not table.has("md-value")
    assert table.text("md-turn") == en("app.md.turn", player="Anne")
    assert table.text("md-banner-free") == en("app.md.banner.first", player="Anne")
    assert not table.has("md-draw"), "the first card is free: no drawing"
    for p in TABLE:
        assert table.text(f"md-hand-{p}") == f"{p} 7 cards " + en("app.md.hand_total", total="0")


def test_the_end_of_a_deal_is_summed_up_until_the_next_entry():
    """Who went out, each player's points and the running total stay on screen at the start of the
    next deal, until its first entry; not only in the log and the folded score sheet."""
    out = [play("Anne", *[f"b{v}" for v in range(1, 8)])]
    state = state_of(out)
    deal = state.engine.state.sheet[-1]
    assert deal.went_out == "Anne" and state.engine.table.number == 2
    text = Table(state).text("md-deal-summary")
    assert en("app.md.deal_over", deal=1, player="Anne") in text
    signed = [Msg("md.player_points", {"player": p, "points": f"+{n}" if n > 0 else str(n)})
              for p, n in deal.points.items()]
    assert en("app.md.deal_points", points=signed) in text
    totals = [Msg("md.player_points", {"player": p, "points": str(n)}) for p, n in state.engine.state.totals.items()]
    assert en("app.md.deal_totals", totals=totals) in text
    assert not Table(state_of()).has("md-deal-summary")
    starter = state.engine.table.turn
    assert not Table(state_of([*out, play(starter, "r8")])).has("md-deal-summary")


def test_the_top_card_value_and_direction_arrow():
    table = Table(state_of([play("Anne", "r8")]))
    assert table.text("md-value") == en("app.md.value", value=8)
    assert table.text("md-direction") == en("md.dir.down")
    icons = [c.icon for c in ui.walk(table.find("md-direction")) if isinstance(c, ft.Icon)]
    assert icons == [ft.Icons.ARROW_DOWNWARD]
    assert table.find("md-top-card").label == "red 8"
    assert table.text("md-hand-Anne").startswith("Anne 6 cards")
    assert table.text("md-laid-by") == en("app.md.laid_by", player="Anne")
    table = Table(state_of([play("Anne", "r8"), play("Bruno", "b8")]))
    icons = [c.icon for c in ui.walk(table.find("md-direction")) if isinstance(c, ft.Icon)]
    assert icons == [ft.Icons.ARROW_UPWARD]


def test_banners_for_a_skip_a_take_a_free_play_and_a_draw():
    table = Table(state_of([play("Anne", "b8"), play("Bruno", "y9-skip")]))
    assert table.text("md-banner-skip") == en("app.md.banner.skip", player="Chloé")
    assert table.text("md-turn") == en("app.md.turn", player="Anne")
    table = Table(state_of([play("Anne", "y5-take", direction="up")]))
    assert table.text("md-banner-take") == en("app.md.banner.take_two", player="Bruno", each="1 card")
    table = Table(state_of(PHASES[5]))
    assert table.text("md-banner-free") == en("app.md.banner.free", player="Anne")
    table = Table(state_of([play("Anne", "r8"), draw("Bruno")]))
    assert table.has("md-banner-drawn") and table.has("md-pass") and not table.has("md-draw")


def test_a_skip_with_three_players_is_not_a_free_play():
    state = state_of([play("Anne", "b8"), play("Bruno", "y9-skip")])
    assert state.engine.table.turn == "Anne" and not state.engine.free_play
    table = Table(state)
    assert not table.has("md-banner-free") and table.has("md-draw")


# -- the pad ---------------------------------------------------------------------------------------


def test_a_card_then_confirm_submits_the_play():
    table = Table(state_of([play("Anne", "r8")]))
    assert not table.enabled("md-confirm")
    table.tap("md-colour-r", "md-value-5")
    assert table.text("md-series-line") == en("app.md.series_line", cards="red 5")
    table.tap("md-confirm")
    assert table.submitted == [play("Bruno", "r5")]
    parse_action(GAME, table.submitted[0], list(TABLE))


def test_possible_cards_are_highlighted_and_every_value_stays_on_offer():
    table = Table(state_of([play("Anne", "r8")]))
    table.tap("md-colour-r")
    assert [v for v in range(1, 21) if table.find(f"md-value-{v}").selected] == list(range(1, 9))
    assert all(table.enabled(f"md-value-{v}") for v in range(1, 21)), "table-fair: nothing greyed out"
    table.tap("md-colour-b")
    assert [v for v in range(1, 21) if table.find(f"md-value-{v}").selected] == [8]
    table.tap("md-colour-y")
    assert all(table.find(f"md-value-{v}").selected for v in range(1, 21))


def test_a_series_card_by_card_highlights_what_may_follow():
    table = Table(state_of([play("Anne", "b8")]))
    table.tap("md-colour-b", "md-value-13")
    assert [v for v in range(1, 21) if table.find(f"md-value-{v}").selected] == [14]
    table.tap("md-colour-y", "md-action-skip", "md-value-14", "md-colour-b", "md-value-15", "md-colour-y",
              "md-value-16")
    assert table.text("md-series-line").startswith("Series: blue 13, yellow 14 (skip), blue 15")
    assert not table.has("md-direction-question"), "the blue 13 sets the direction: no question"
    table.tap("md-confirm")
    assert table.submitted == [play("Bruno", "b13", "y14-skip", "b15", "y16-skip")]
    # tapping a card of the series takes it and what follows out
    table.tap("md-series-2")
    assert table.ctx.draft["series"] == ["b13", "y14-skip"]
    table.tap("md-clear")
    assert table.ctx.draft["series"] == [] and not table.enabled("md-confirm")


def test_the_direction_question_only_when_the_player_chooses():
    table = Table(state_of([play("Anne", "r15")]))
    table.tap("md-colour-y", "md-action-chaos", "md-value-15")
    assert table.has("md-direction-question")
    assert not table.enabled("md-confirm"), "the direction must be said first"
    table.tap("md-dir-up", "md-confirm")
    assert table.submitted == [play("Bruno", "y15-chaos", direction="up")]
    table = Table(state_of([play("Anne", "r15")]))
    table.tap("md-colour-y", "md-value-9")
    assert not table.has("md-direction-question"), "a yellow on another value keeps the direction"
    table.tap("md-confirm")
    assert table.submitted == [play("Bruno", "y9-skip")]


def test_draw_and_pass_buttons():
    table = Table(state_of([play("Anne", "r8")]))
    table.tap("md-draw")
    assert table.submitted == [draw("Bruno")]
    table = Table(state_of([play("Anne", "r8"), draw("Bruno")]))
    table.tap("md-pass")
    assert table.submitted == [pass_("Bruno")]


def test_a_take_is_entered_by_tapping_the_players_taken_from():
    four = ("Anne", "Bruno", "Chloé", "David")
    table = Table(state_of([play("Anne", "y5-take", direction="up")], players=four))
    assert not table.has("md-pad"), "without stacking a take cannot be answered"
    assert not table.enabled("md-take-confirm"), "four players: two of three to choose"
    assert table.text("md-take-choose") == en("app.md.take_choose")
    assert table.text("md-from-Anne") == en("app.md.take_from", player="Anne", n=6)
    table.tap("md-from-David", "md-from-Anne")
    assert table.text("md-take-confirm") == "Bruno takes 1 card from David and 1 card from Anne"
    table.tap("md-take-confirm")
    assert table.submitted == [take("Bruno", "David", "Anne")]
    parse_action(GAME, table.submitted[0], list(four))


@pytest.mark.parametrize("players", [("Anne", "Bruno"), TABLE])
def test_a_take_without_a_choice_is_one_tap(players):
    """Two players: the only opponent; three: both others. Nothing to choose: already selected."""
    table = Table(state_of([play("Anne", "y5-take", direction="up")], players=players))
    others = [p for p in players if p != "Bruno"]
    assert all(table.find(f"md-from-{p}").selected for p in others)
    assert not table.has("md-take-choose")
    table.tap("md-take-confirm")
    assert table.submitted == [take("Bruno", *others)]
    french = Table(state_of([play("Anne", "y5-take", direction="up")], players=players), lang="fr")
    assert french.text("md-take-confirm") == "Bruno prend " + " et ".join(f"1 carte à {p}" for p in others)
    # a tap still takes a player out (e.g. to name the other one first)
    table = Table(state_of([play("Anne", "y5-take", direction="up")], players=players))
    table.tap(f"md-from-{others[0]}")
    assert not table.find(f"md-from-{others[0]}").selected


def test_with_take_stacking_the_pad_offers_the_answer_too():
    table = Table(state_of([play("Anne", "y5-take", direction="up")], take_stacking=True))
    assert table.has("md-take") and table.has("md-pad")
    table.tap("md-colour-y", "md-action-take")
    assert all(table.find(f"md-value-{v}").selected for v in range(1, 21))
    table.tap("md-colour-b")  # a run going up on the yellow 5 may still end with a take
    assert not table.find("md-value-4").selected and table.find("md-value-5").selected
    table.tap("md-value-5", "md-confirm")
    assert table.submitted == [play("Bruno", "b5")]  # the engine refuses it: MD-TAKE-FIRST
    engine = table.state.engine
    assert not engine.can(parse_action(GAME, table.submitted[0], list(TABLE)))


def test_read_only_shows_the_state_and_no_input():
    table = Table(state_of([play("Anne", "r8")]), readonly=True)
    assert table.has("md-pile") and table.has("md-sheet")
    assert not table.has("md-pad") and not table.has("md-take")


# -- the score sheet -------------------------------------------------------------------------------


def test_the_score_sheet_is_one_tap_away_with_points_totals_and_starters():
    actions = [play("Anne", *[f"b{v}" for v in range(1, 8)]), play("Bruno", "r5"), play("Chloé", "r4")]
    table = Table(state_of(actions))
    assert not table.has("md-sheet")
    table.tap("md-sheet-toggle")
    assert table.text("md-sheet-1-Anne") == en("app.md.sheet_cell", points="+5", total="+5")
    assert table.text("md-sheet-1-Bruno") == en("app.md.sheet_cell", points="-7", total="-7")
    assert table.text("md-total-Chloé") == "-7"
    assert table.text("md-sheet-starter-1") == "Anne"
    assert table.text("md-sheet-starter-2") == "Bruno", "fewest points, nearest to the left of Anne"
    assert table.text("md-hand-total-Anne") == en("app.md.hand_total", total="+5"), "totals stay in view"
    table.tap("md-sheet-toggle")
    assert not table.has("md-sheet")


def test_after_the_match_the_sheet_shows_the_final_ranking():
    state = state_of([play("Anne", *[f"b{v}" for v in range(1, 8)])], deals=1)
    assert state.outcome is not None
    table = Table(state, readonly=True)
    assert table.has("md-ranking")
    assert table.text("md-rank-Anne") == en("app.md.rank_line", rank=1, player="Anne", total="+5")
    assert table.text("md-rank-Chloé") == en("app.md.rank_line", rank=2, player="Chloé", total="-7")


def test_the_rules_reference_lists_every_md_rule(tmp_path):
    from companion.app.screens import rules
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store
    from scoring.monte_descend import MonteDescendEngine

    app = App(SessionService(Store(tmp_path / "rules.db")), lang="fr")
    assert tuple(e.id for e in rules.entries(GAME)) == MonteDescendEngine.rules
    _, body = rules.build(app, game=GAME, query="MD-")
    shown = {c.identifier for c in ui.walk(body) if isinstance(c, ft.Semantics) and c.identifier.startswith("rule-MD")}
    assert shown == {f"rule-{r}" for r in MonteDescendEngine.rules}


def test_rules_for_reads_the_rules_behind_the_events():
    engine = state_of().engine
    events = engine.apply(parse_action(GAME, play("Anne", "b3"), list(TABLE)))
    assert rules_of(events) == ("MD-FIRST-CARD",)


def test_french_is_the_screens_language_at_the_table():
    table = Table(state_of([play("Anne", "r8")]), lang="fr")
    assert table.text("md-turn") == "À Bruno de jouer"
    assert table.text("md-direction") == "on descend"
    assert table.text("md-hand-Anne").startswith("Anne 6 cartes")


# -- through the session service -------------------------------------------------------------------


def test_through_the_session_service_refusal_then_accepted_entry(tmp_path):
    """The real path: a red 9 on a red 8 comes back refused with MD-DOWN and what was allowed;
    nothing is saved; the corrected card is accepted."""
    from companion.service import Refused, SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "md.db"))
    session = service.start(GAME, list(TABLE), variant={"deals": 1, "take_stacking": True})
    sid = session.session_id
    assert service.open(sid).engine.deals == 1
    refusals: list[Refused] = []
    ctx_draft: dict = {}

    def current() -> Table:
        table = Table(state_from_session(service.open(sid)))
        table.ctx.draft = ctx_draft
        table.ctx.submit = submit
        table.root = screen.build(table.state, table.ctx)
        return table

    def submit(action: dict) -> None:
        try:
            service.submit(sid, action)
        except Refused as err:
            refusals.append(err)
            return
        ctx_draft.clear()

    for ident in ("md-colour-r", "md-value-8", "md-confirm"):
        current().tap(ident)
    for ident in ("md-colour-r", "md-value-9", "md-confirm"):
        current().tap(ident)
    assert [r.rule for r in refusals] == ["MD-DOWN"]
    assert "a red 8 or lower, a blue 8 to turn, or any yellow" in refusals[0].msg.render("en")
    assert len(service.open(sid).log) == 1
    table = current()
    table.tap("md-series-0")  # take the red 9 out, enter the red 3
    for ident in ("md-value-3", "md-confirm"):
        current().tap(ident)
    assert len(service.open(sid).log) == 2
    assert service.open(sid).engine.table.hands == {"Anne": 6, "Bruno": 6, "Chloé": 7}


def test_the_new_game_screen_offers_take_stacking_and_a_number_of_deals(tmp_path):
    from companion.app.screens import setup
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    app = App(SessionService(Store(tmp_path / "setup.db")), lang="en")
    app.drafts["setup"] = setup.Draft(game=GAME, seats=["Anne", "Bruno", "Chloé"])
    _, body = setup.build(app)
    idents = {c.identifier for c in ui.walk(body) if isinstance(c, ft.Semantics)}
    assert {"variant-take_stacking-false", "variant-take_stacking-true", "variant-deals-value"} <= idents
    assert probe.text_of(body, "variant-deals-value") == "6", "twice the number of players by default"
    app.render = lambda: None  # type: ignore[method-assign]
    probe.tap(body, "variant-deals-less")
    probe.tap(body, "variant-take_stacking-true")
    assert app.drafts["setup"].variant == {"deals": 5, "take_stacking": True}


def test_after_a_chaos_the_screen_shows_equal_hands_the_bigger_reserve_and_what_happened():
    # Anne keeps 1 card, Bruno 6 after his chaos: 7 cards, 3 each, 1 under the reserve (50 + 1)
    state = state_of([play("Anne", *[f"b{v}" for v in range(1, 7)]), play("Bruno", "y9-chaos")],
                     players=("Anne", "Bruno"))
    table = Table(state)
    assert table.text("md-hand-Anne").startswith("Anne 3 cards")
    assert table.text("md-hand-Bruno").startswith("Bruno 3 cards")
    assert table.text("md-reserve") == en("app.md.reserve", n=51)
    assert table.text("md-banner-chaos") == en("app.md.banner.chaos_under", player="Bruno", each="3 cards",
                                               under="1 card", reserve=51)
    french = Table(state, lang="fr").text("md-banner-chaos")
    assert french == ("Chaos : Bruno ramasse toutes les mains, les mélange, redonne 3 cartes à chaque joueur "
                      "et glisse le reste sous la réserve : 1 carte (réserve : 51).")
    # an even deal puts nothing under the reserve, and the line goes with the next entry
    state = state_of([play("Anne", "b1"), play("Bruno", "y9-chaos")], players=("Anne", "Bruno"))
    assert Table(state).text("md-banner-chaos") == en("app.md.banner.chaos", player="Bruno", each="6 cards")
    state = state_of([play("Anne", "b1"), play("Bruno", "y9-chaos"), draw("Anne")], players=("Anne", "Bruno"))
    assert not Table(state).has("md-banner-chaos")


def test_a_pass_cards_banner_says_what_the_table_does_until_the_next_entry():
    """The yellow « passe les cartes » acts at the table only: the banner says who gives what to whom."""
    state = state_of([play("Anne", "b8"), play("Bruno", "y9-pass")])
    assert Table(state).text("md-banner-pass") == en("app.md.banner.pass", turn="Chloé")
    french = Table(state, lang="fr").text("md-banner-pass")
    assert "une carte de son choix au voisin de gauche" in french and french.endswith("Chloé joue ensuite.")
    two = state_of([play("Anne", "b8"), play("Bruno", "y9-pass")], players=("Anne", "Bruno"))
    assert Table(two).text("md-banner-pass") == en("app.md.banner.pass_two", player="Bruno", turn="Anne")
    for later in ([draw("Chloé")], [draw("Chloé"), pass_("Chloé")], [play("Chloé", "b10")]):
        assert not Table(state_of([play("Anne", "b8"), play("Bruno", "y9-pass"), *later])).has("md-banner-pass")
    assert not Table(state_of([play("Anne", "b8"), play("Bruno", "y9-skip")])).has("md-banner-pass")


def test_a_greyed_confirm_says_the_direction_is_awaited():
    """A yellow on a yellow: the player chooses the direction; until then Valider says why it waits."""
    table = Table(state_of([play("Anne", "y7-chaos", direction="up")]))
    assert not table.has("md-confirm-why")
    table.tap("md-colour-y", "md-action-skip", "md-value-12")
    assert not table.enabled("md-confirm")
    assert table.text("md-confirm-why") == en("app.md.confirm_needs_direction", player="Bruno")
    french = Table(table.state, lang="fr")
    french.tap("md-colour-y", "md-value-12")
    assert french.text("md-confirm-why") == "Pour valider, Bruno choisit d'abord la direction : on monte ou on descend."
    table.tap("md-dir-down")
    assert table.enabled("md-confirm") and not table.has("md-confirm-why")
    table.tap("md-confirm")
    assert table.submitted == [play("Bruno", "y12-skip", direction="down")]
