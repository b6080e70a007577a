"""Animalia table screen: built from engine states, driven through its handlers.

The screen holds no rules: these tests check what it shows from the engine's public state, the
actions it hands to ``ctx.submit``, that bonus cards and medals stay private on the shared screen,
and that a season entered through it is refereed as the engine says — through a bare engine and
through the real table frame and session service.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.app import probe, ui
from companion.app.games import TableState
from companion.app.games import animalia as screen
from models.games.animalia import ANI_FAMILIES, ANI_MEMBERS
from models.i18n import LANGUAGES, Msg
from models.record import parse_action
from scoring.animalia import AnimaliaEngine, Phase, card
from scoring.base import rules_of
from tests.screen_driver import ScreenDriver
from tests.support.animalia import SEASON, A, B, C, act, at_phase3, engine, give, legal_actions, phase1
from tests.support.screens import shown

GAME = "animalia"


def en(key: str, **params: Any) -> str:
    return Msg(key, params).render("en")


def state_of(eng: AnimaliaEngine, *, assist: bool = False, entries: int | None = None) -> TableState:
    return TableState(game=GAME, variant={}, players=tuple(eng.players), first_player=eng.first_player,
                      assist=assist, engine=eng, expected=eng.expected(), outcome=eng.outcome(),
                      entries=eng.applied if entries is None else entries)


def texts(root: Any) -> list[str]:
    return probe.texts(root)


class Table(ScreenDriver):
    """The screen of ``eng`` plus what a frame does; with ``live`` the submissions go to the engine."""

    def __init__(self, eng: AnimaliaEngine, lang: str = "en", *, live: bool = False, assist: bool = False,
                 readonly: bool = False, prefix: str = ""):
        self.engine = eng

        def advance(_: TableState, action: dict) -> TableState:
            eng.apply(parse_action(GAME, action, list(eng.players)))
            return state_of(eng, assist=assist)

        super().__init__(screen, state_of(eng, assist=assist), lang, readonly=readonly, prefix=prefix,
                         advance=advance if live else None)

    def _refresh(self) -> None:  # the engine may have moved on (an entry made through it directly)
        self.state = state_of(self.engine, assist=self.state.assist)
        super()._refresh()


# -- registration and catalogues -------------------------------------------------------------------


def test_rules_for_reads_the_rules_each_event_names():
    eng = engine(3)
    events = give(eng, "owl", A)
    assert rules_of(events) == ("ANI-DEAL",)


# -- phase 1 -----------------------------------------------------------------------------------------


def test_tapping_the_card_turned_over_records_the_draw_and_cute_animals_are_greyed_out():
    table = Table(engine(3))
    assert table.has("ani-draw") and not table.has("ani-take")
    assert table.greyed("ani-pick-dog-cute")  # 3 players: the cute animals are out
    table.tap("ani-pick-dog-thief")
    assert table.submitted == [{"type": "draw", "card": "dog-thief"}]
    assert table.greyed("ani-pick-dog-cute")
    assert not Table(engine(5)).greyed("ani-pick-dog-cute")


def test_the_lot_is_big_in_the_middle_with_take_and_pass_for_the_player_it_is_offered_to():
    eng = engine(3)
    give(eng, "owl", A)
    eng.apply(act(eng, {"type": "draw", "card": "cat-champion"}))
    table = Table(eng, live=True)
    assert en("ani.card.cat-champion").capitalize() in table.text("ani-lot")
    assert en("app.ani.offered", player=B) == table.text("ani-holder")
    assert not shown(table.root, "ani-draw") and shown(table.root, "ani-lot")  # no picker while the lot is offered
    table.tap("ani-pass")
    assert table.submitted[-1] == {"type": "pass", "player": B}
    assert en("app.ani.offered", player=C) == table.text("ani-holder")
    table.tap("ani-take")
    assert table.submitted[-1] == {"type": "take", "player": C}
    assert eng.collections[(C, 0)] == ["cat-champion"]
    assert table.text("ani-count-Chloé-0") == en("app.ani.count", n=1)
    assert table.text("ani-stars-Chloé-0") == en("ani.n.stars.many", n=3)
    # the cards in collections are no longer in the picker
    assert table.greyed("ani-pick-owl") and table.greyed("ani-pick-cat-champion")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_tap_on_a_greyed_card_of_the_picker_says_why_in_one_line(lang):
    """#38: a card the table can see is not in the deck stays greyed, draws nothing, and says where
    it is, in one line above the picker; the line goes at the next tap."""
    eng = engine(3)
    give(eng, "owl", A)
    table = Table(eng, lang)
    assert not table.has("ani-why")
    table.tap("ani-pick-owl")
    assert table.submitted == [] and table.greyed("ani-pick-owl")
    assert table.text("ani-why") == Msg("app.ani.why.collection", {"who": A}).render(lang)
    if lang == "fr":
        assert table.text("ani-why") == "Déjà dans la collection d'Anne."
    table.tap("ani-pick-dog-cute")
    assert table.text("ani-why") == Msg("app.ani.why.cute", {"count": 3}).render(lang)
    table.tap("ani-pick-dog-thief")
    assert table.submitted == [{"type": "draw", "card": "dog-thief"}]
    table.ctx.refresh()  # the entry's render: the line is gone
    assert not table.has("ani-why")


def test_a_forced_take_offers_no_pass():
    eng = engine(3)
    eng.apply(act(eng, {"type": "draw", "card": "owl"}))
    for p in (A, B, C):
        eng.apply(act(eng, {"type": "pass", "player": p}))
    for name in ("cat-champion", "dog-champion"):
        eng.apply(act(eng, {"type": "draw", "card": name}))
        for p in (A, B, C):
            if eng.holder == p:
                eng.apply(act(eng, {"type": "pass", "player": p}))
    table = Table(eng)
    assert eng.forced and not table.has("ani-pass") and table.has("ani-take")
    assert table.text("ani-holder") == en("app.ani.offered_forced", player=A)


def test_two_players_take_into_row_one_or_row_two():
    eng = engine(2)
    eng.apply(act(eng, {"type": "draw", "card": "owl"}))
    table = Table(eng, live=True)
    assert not table.has("ani-take")
    table.tap("ani-take-row-1")
    assert table.submitted == [{"type": "take", "player": A, "row": 1}]
    assert table.has("ani-collection-Anne-1") and en("ani.who.row", player=A, row=2) in table.text()


def test_powers_steal_give_or_renounce_by_taps():
    eng = engine(3)
    give(eng, "cat-thief", A)
    give(eng, "horse-champion", B)
    give(eng, "dog-champion", C)
    give(eng, "dog-thief", A)
    table = Table(eng, live=True)
    assert table.has("ani-powers") and table.has("ani-renounce-thief")
    assert en("app.ani.powers_aid") in table.text()
    table.tap("ani-steal-Bruno-0-horse-champion")
    assert table.submitted[-1] == {"type": "power", "player": A, "power": "thief", "card": "horse-champion",
                                   "from": B}
    assert eng.collections[(A, 0)][-1] == "horse-champion" and not table.has("ani-powers")
    # a prankster: the card first, then the collection that receives it
    eng2 = engine(3)
    give(eng2, "cat-prankster", A)
    give(eng2, "owl", B)
    give(eng2, "dog-champion", C)
    give(eng2, "dog-prankster", A)
    table = Table(eng2, live=True)
    assert not table.has("ani-give-to-Bruno-0")
    table.tap("ani-give-card-dog-prankster")
    table.tap("ani-give-to-Chloé-0")
    assert table.submitted[-1] == {"type": "power", "player": A, "power": "prankster", "card": "dog-prankster",
                                   "to": C}
    assert eng2.collections[(C, 0)] == ["dog-champion", "dog-prankster"]
    eng3 = engine(3)
    give(eng3, "cat-spy", A)
    give(eng3, "owl", B)
    give(eng3, "dog-champion", C)
    give(eng3, "dog-spy", A)
    table = Table(eng3, live=True)
    table.tap("ani-renounce-spy")
    assert table.submitted == [{"type": "renounce", "player": A, "power": "spy"}] and eng3.pending is None



@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_tap_on_a_full_collection_greyed_for_the_prankster_says_why(lang):
    """#38: with the table aid, a collection that cannot take the prankster's card is greyed; a tap
    on it gives nothing and says why, in one line by the targets, until the next tap."""
    eng = engine(3)
    give(eng, "cat-prankster", B)
    for name in SEASON[A]:
        give(eng, name, A)  # Anne complete (5)
    give(eng, "cat-scruffy", C)
    give(eng, "dog-prankster", B)
    assert eng.pending is not None and eng.pending.actor == B and eng.pending.powers == ["prankster"]
    plain = Table(eng, lang)
    plain.tap("ani-give-card-dog-prankster")
    assert not plain.greyed("ani-give-to-Anne-0")  # table-fair: the engine refuses, with its rule
    table = Table(eng, lang, live=True, assist=True)
    table.tap("ani-give-card-dog-prankster")
    assert table.greyed("ani-give-to-Anne-0") and not table.greyed("ani-give-to-Chloé-0")
    assert not table.has("ani-give-why")
    table.tap("ani-give-to-Anne-0")
    assert table.submitted == [] and table.greyed("ani-give-to-Anne-0")
    assert table.text("ani-give-why") == Msg("app.ani.why.full", {"who": A}).render(lang)
    if lang == "fr":
        assert table.text("ani-give-why") == ("La collection d'Anne est pleine (5 animaux) : "
                                              "elle ne peut pas recevoir la carte.")
    table.tap("ani-give-card-dog-prankster")  # the next tap: the line is gone
    assert not table.has("ani-give-why")
    table.tap("ani-give-to-Chloé-0")
    assert table.submitted == [{"type": "power", "player": B, "power": "prankster", "card": "dog-prankster",
                                "to": C}]
    assert eng.collections[(C, 0)] == ["cat-scruffy", "dog-prankster"]

def test_two_players_the_spy_button_writes_no_row():
    """Table-record §4.4: the spy moves no card, so its action carries no ``row``, also with 2 players."""
    eng = engine(2)
    give(eng, "cat-spy", A, row=1)
    give(eng, "dog-champion", B, row=0)
    give(eng, "dog-spy", A, row=1)
    table = Table(eng, live=True)
    table.tap("ani-use-spy")
    assert table.submitted == [{"type": "power", "player": A, "power": "spy"}] and eng.pending is None


# -- phase 2: bonus cards in private ----------------------------------------------------------------


def test_bonus_cards_are_entered_behind_the_hand_over_screen_and_only_counts_are_shared():
    eng = engine(3)
    phase1(eng, SEASON)
    table = Table(eng, live=True)
    assert table.has("ani-prize") and table.has("ani-cover") and not table.has("ani-private")
    assert en("app.ani.pass_to", player=A) in table.text("ani-pass-tablet")
    assert en("app.ani.prize_first", who=A, stars=en("ani.n.stars.many", n=10), cards=en("ani.n.bonus.many", n=2)) \
        in table.text("ani-prize")
    # the deck holds enough for every card owed: the screen does not say they must come in order
    assert table.text("ani-owed") == en("app.ani.owed_any", players=[A, A, B])
    table.tap("ani-show-me")
    assert table.has("ani-private") and not table.has("ani-collections")
    assert not table.enabled("ani-bonus-confirm")
    table.tap("ani-bonus-pick-cat-thief")
    table.tap("ani-bonus-confirm")
    assert table.submitted == [{"type": "bonus", "player": A, "card": "cat-thief"}]
    # #38: accepted, Anne's view stays open for her second card (what she owes is not all entered)
    assert table.has("ani-private") and not table.has("ani-cover")
    assert table.text("ani-private-title") == en("app.ani.private_title", player=A)
    assert table.text("ani-bonus-intro") == en("app.ani.bonus_intro", cards=en("ani.n.bonus.one", n=1))
    assert en("ani.card.cat-thief").capitalize() in table.text("ani-your-bonus")  # her own, in private
    assert table.greyed("ani-bonus-pick-cat-thief") and not table.enabled("ani-bonus-confirm")
    table.tap("ani-bonus-pick-dog-spy")
    table.tap("ani-bonus-confirm")
    assert table.submitted[-1] == {"type": "bonus", "player": A, "card": "dog-spy"}
    # all she owed is entered: covered again, the tablet goes to Bruno; the shared screen says how
    # many, never which
    assert not table.has("ani-private") and table.has("ani-cover")
    assert en("app.ani.pass_to", player=B) in table.text("ani-pass-tablet")
    assert table.text("ani-bonus-count-Anne") == en("app.ani.bonus_held", cards=en("ani.n.bonus.many", n=2))
    assert en("ani.card.cat-thief").capitalize() not in " ".join(t for t in texts(table.root)
                                                                 if not t.startswith("Thief"))
    table.tap("ani-show-me")
    assert table.text("ani-private-title") == en("app.ani.private_title", player=B)
    assert en("ani.card.cat-thief").capitalize() not in table.text("ani-private")  # Anne's, not his
    table.tap("ani-hide")
    assert not table.has("ani-private")


def test_hide_closes_the_view_between_a_players_two_bonus_cards():
    """#38: the view closes between a player's two bonus cards only when they hide it; "show me"
    opens it again for the same player."""
    eng = engine(3)
    phase1(eng, SEASON)
    table = Table(eng, live=True)
    table.tap("ani-show-me")
    table.tap("ani-bonus-pick-cat-thief", "ani-bonus-confirm")
    assert table.has("ani-private")
    table.tap("ani-hide")
    assert not table.has("ani-private") and en("app.ani.pass_to", player=A) in table.text("ani-pass-tablet")
    table.tap("ani-show-me")
    assert table.text("ani-private-title") == en("app.ani.private_title", player=A)


def test_bonus_cards_held_stay_tappable_in_the_picker_unless_assist():
    eng = at_phase3()
    for p, medals in ((A, {"cat": 2, "dog": 3}), (B, {"horse": 2}), (C, {"rabbit": 2})):
        eng.apply(act(eng, {"type": "medals", "player": p, "medals": medals}))
    assert eng.season == 2 and "dog-spy" in eng.bonus[A]
    table, assisted = Table(eng), Table(eng, assist=True)
    for t in (table, assisted):
        t.tap("ani-season-go")  # the season's tally first, then the picker
    assert not table.greyed("ani-pick-dog-spy")  # greying it would tell the table Anne holds it
    assert assisted.greyed("ani-pick-dog-spy")
    assisted.tap("ani-pick-dog-spy")
    assert assisted.text("ani-why") == en("app.ani.why.deck") and assisted.submitted == []


# -- phase 3: covers, the adviser, medals in private; the tally ----------------------------------------


def test_phase3_private_view_follows_the_advice_and_confirms_covers_and_medals():
    eng = at_phase3()
    table = Table(eng, live=True)
    assert table.has("ani-medals-waiting") and {f"ani-show-{p}" for p in (A, B, C)} <= table.idents()
    table.tap("ani-show-Anne")
    assert table.has("ani-advice") and not table.has("ani-collections")
    assert table.text("ani-advice-why")
    table.tap("ani-advice-0")  # the adviser's best
    best = screen.advise(eng.collections[(A, 0)], eng.bonus[A], eng.medals[A], eng.per).best
    table.tap("ani-medals-confirm")
    covers = [a for a in table.submitted if a["type"] == "cover"]
    assert [(a["bonus"], a["card"]) for a in covers] == list(best.covers)
    assert table.submitted[-1] == {"type": "medals", "player": A, "medals": best.medals}
    assert eng.medals_due(A) == () and not table.has("ani-private")
    assert not table.has("ani-show-Anne") and table.has("ani-show-Bruno")


def test_phase3_covers_by_hand_change_the_medal_choices():
    eng = at_phase3()
    table = Table(eng, live=True)
    table.tap("ani-show-Anne")
    table.tap("ani-cover-bonus-cat-thief")
    table.tap("ani-cover-card-owl")
    assert en("app.ani.covers_planned", covers=[Msg("app.ani.cover_item", {"bonus": card("cat-thief"),
                                                                           "card": card("owl")})]) \
        in table.text("ani-covers-planned")
    assert table.has("ani-choice-0") and not table.has("ani-choice-1")  # 3 cats and 2 dogs only
    table.tap("ani-medals-confirm")
    assert table.submitted == [{"type": "cover", "player": A, "bonus": "cat-thief", "card": "owl"},
                               {"type": "medals", "player": A, "medals": {"cat": 3, "dog": 2}}]
    assert eng.discarded == ["owl"]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_bonus_card_laid_already_says_on_which_card_when_tapped(lang):
    # #38: a greyed choice is never silent; the bonus card laid over the owl says so, and how to undo it.
    eng = at_phase3()
    table = Table(eng, lang, live=True)
    table.tap("ani-show-Anne")
    table.tap("ani-cover-bonus-cat-thief")
    table.tap("ani-cover-card-owl")
    assert table.greyed("ani-cover-bonus-cat-thief") and not table.has("ani-cover-why")
    table.tap("ani-cover-bonus-cat-thief")
    clear = Msg("app.ani.covers_clear").render(lang)
    assert table.text("ani-cover-why") == Msg("app.ani.why.covering", {"card": card("owl"), "clear": clear}).render(lang)
    if lang == "fr":
        assert table.text("ani-cover-why") == "Déjà posée sur la carte chouette : « Annuler les recouvrements » la reprend."
    assert table.submitted == []

def _season_over() -> AnimaliaEngine:
    eng = at_phase3()
    for p, medals in ((A, {"cat": 2, "dog": 3}), (B, {"horse": 2}), (C, {"rabbit": 2})):
        eng.apply(act(eng, {"type": "medals", "player": p, "medals": medals}))
    return eng


def test_the_season_tally_hides_medals_until_reveal():
    eng = _season_over()
    table = Table(eng)
    assert table.has("ani-tally") and table.has("ani-reveal")
    assert not any(i.startswith("ani-tally-Anne") for i in table.idents())
    shared = " ".join(texts(table.root))
    assert en("ani.n.medals.many", n=5) not in shared
    table.tap("ani-reveal")
    line = table.text("ani-tally-Anne")
    assert en("ani.medals.family", count=en("ani.n.medals.many", n=2), family=en("ani.family.cat")) in line
    assert en("ani.n.medals.many", n=5) in line
    table.tap("ani-hide-tally")
    assert not table.has("ani-tally-Anne")


def test_medals_taken_stay_secret_during_phase_three():
    eng = at_phase3()
    eng.apply(act(eng, {"type": "medals", "player": A, "medals": {"cat": 2, "dog": 3}}))
    table = Table(eng)
    assert not table.has("ani-tally") and not table.has("ani-reveal")
    assert all("3" not in t for t in texts(table.root) if "dog" in t.lower() and "medal" in t.lower())


def test_every_step_of_random_games_builds_in_both_languages_and_hides_what_is_private():
    for players, seed in ((2, 1), (3, 2), (5, 3), (6, 4)):
        rng = random.Random(seed)
        eng = engine(players)
        step = 0
        while eng.phase is not Phase.OVER:
            if step % 7 == 0:
                for lang in LANGUAGES:
                    table = Table(eng, lang=lang)
                    assert table.text()
                    assert not table.has("ani-private") and not table.has("ani-your-bonus")
                    assert not any(i.startswith("ani-tally-") and i != "ani-tally-title" for i in table.idents())
            eng.apply(act(eng, rng.choice(legal_actions(eng))))
            step += 1
        table = Table(eng, readonly=True)
        assert table.has("ani-tally") and all(table.has(f"ani-tally-{p}") for p in eng.players)


def test_read_only_and_corrections():
    eng = engine(3)
    eng.apply(act(eng, {"type": "draw", "card": "owl"}))
    table = Table(eng, readonly=True)
    assert not table.has("ani-take") and not table.has("ani-draw")
    prefixed = Table(eng, prefix="fix-")
    assert prefixed.has("fix-ani-take") and not prefixed.has("ani-take")


# -- the real path: the session service and the table frame ----------------------------------------


def _app(tmp_path: Path, lang: str = "en"):
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "ani.db"))
    session = service.start(GAME, [A, B, C], assist=False)
    app = App(service, lang=lang)
    app.go("table", session_id=session.session_id)
    return app, service, session.session_id


def _frame_tap(app: Any, ident: str) -> None:
    found = [c for c in ui.walk(app.root) if isinstance(c, ft.Semantics) and c.identifier == ident]
    assert len(found) == 1, (ident, len(found))
    probe.tap(found[0], ident)


def _frame_has(app: Any, ident: str) -> bool:
    return any(isinstance(c, ft.Semantics) and c.identifier == ident for c in ui.walk(app.root))


def test_through_the_table_frame_a_whole_season(tmp_path):
    app, service, sid = _app(tmp_path)
    solo_taps = 0
    for i in range(5):
        for player in (A, B, C):
            name = SEASON[player][i]
            _frame_tap(app, f"ani-pick-{name}")
            engine_now = service.open(sid).engine
            if name in engine_now.collections[(player, 0)]:  # the last incomplete player: one tap a card
                solo_taps += 1
                continue
            while engine_now.holder != player:
                _frame_tap(app, "ani-pass")
                engine_now = service.open(sid).engine
            _frame_tap(app, "ani-take")
    assert service.open(sid).engine.phase is Phase.BONUS and solo_taps > 0
    for name in ("cat-thief", "dog-spy"):
        _frame_tap(app, "ani-show-me")
        _frame_tap(app, f"ani-bonus-pick-{name}")
        _frame_tap(app, "ani-bonus-confirm")
    _frame_tap(app, "ani-show-me")
    _frame_tap(app, "ani-bonus-pick-horse-prankster")
    _frame_tap(app, "ani-bonus-confirm")
    for player in (A, B, C):
        _frame_tap(app, f"ani-show-{player}")
        _frame_tap(app, "ani-advice-0")
        _frame_tap(app, "ani-medals-confirm")
    state = service.open(sid)
    assert state.engine.season == 2 and state.engine.phase is Phase.DEAL
    assert _frame_has(app, "ani-tally") and not _frame_has(app, "ani-draw")  # the season's end first
    # the table's prompt says so too (the engine already expects season 2's first card)
    assert probe.text_of(app.root, "prompt") == Msg("app.ani.prompt_season_end", {"season": 1, "next": 2}).render(app.lang)
    _frame_tap(app, "ani-season-go")
    assert probe.text_of(app.root, "prompt") == state.expected.prompt.render(app.lang)
    assert _frame_has(app, "ani-tally") and _frame_has(app, "ani-draw")
    # the adviser: covering the owl with the cat gives 5 medals too, so Anne keeps both bonus cards
    assert state.engine.medals[A] == {"cat": 2, "dog": 3} and len(state.engine.bonus[A]) == 2
    assert state.engine.medals[B] == {"horse": 3} and state.engine.bonus[B] == []  # his bonus horse covered a single
    assert state.engine.medals[C] == {"rabbit": 2}


def test_a_finished_game_goes_to_the_results_with_scores_excellence_and_why(tmp_path):
    from companion.app.screens.results import mentions
    from tests.support.animalia import play_random

    eng, actions = play_random(3, seed=5)
    app, service, sid = _app(tmp_path)
    for action in actions[:-1]:
        service.submit(sid, action)
    app.go("table", session_id=sid)
    assert _frame_has(app, "ani-medals-waiting")
    last = actions[-1]
    service.submit(sid, last)
    app.go("results", session_id=sid)
    shown = " | ".join(probe.texts(app.root))
    outcome = eng.outcome()
    assert outcome is not None
    for player in (A, B, C):
        line = [m.render("en") for m in outcome.explanation if mentions(m, player) and m.key == "ani.explain.score"]
        assert len(line) == 1 and line[0] in shown
    assert service.open(sid).outcome.scores == outcome.scores


def test_the_adviser_lists_every_way_on_request():
    eng = at_phase3()
    table = Table(eng, live=True)
    table.tap("ani-show-Anne")
    from scoring.animalia_medals import options

    every = options(eng.collections[(A, 0)], eng.bonus[A], eng.medals[A], eng.per)
    assert len(every) > screen.ADVICE_SHOWN + 1
    shown = [i for i in table.idents() if i.startswith("ani-advice-") and i[len("ani-advice-"):].isdigit()]
    assert len(shown) == screen.ADVICE_SHOWN + 1
    table.tap("ani-advice-all")
    shown = [i for i in table.idents() if i.startswith("ani-advice-") and i[len("ani-advice-"):].isdigit()]
    assert len(shown) == len(every)
    table.tap(f"ani-advice-{len(every) - 1}")  # the last way: follow it, confirm, the engine accepts it
    table.tap("ani-medals-confirm")
    assert table.refusals == [] and eng.medals_due(A) == ()
    assert eng.medals[A] == every[-1].medals


def test_in_a_correction_the_private_view_sends_one_entry():
    eng = at_phase3()
    table = Table(eng, prefix="fix-")
    table.tap("fix-ani-show-Anne")
    table.tap("fix-ani-cover-bonus-cat-thief")
    table.tap("fix-ani-cover-card-owl")
    table.tap("fix-ani-medals-confirm")
    assert table.submitted == [{"type": "cover", "player": A, "bonus": "cat-thief", "card": "owl"}]


# -- the flow: no forced taps, the season's end a moment, the confirm in view ------------------------


def _solo() -> AnimaliaEngine:
    """Anne and Bruno complete; Chloé, the last incomplete player, deals herself card by card."""
    eng = engine(3)
    for i in range(5):
        for player in (A, B):
            give(eng, SEASON[player][i], player)
    give(eng, SEASON[C][0], C)
    assert eng.solo and eng.dealer == C
    return eng


def test_the_last_incomplete_player_enters_each_card_with_one_tap():
    eng = _solo()
    table = Table(eng, live=True)
    assert table.text("ani-draw-title") == en("app.ani.draw_solo", dealer=C)
    for name in SEASON[C][1:]:
        table.tap(f"ani-pick-{name}")  # one tap: drawn and taken, no "take" to tap after it
        assert table.submitted[-2:] == [{"type": "draw", "card": name}, {"type": "take", "player": C}]
        assert eng.collections[(C, 0)][-1] == name
    assert eng.phase is Phase.BONUS and table.refusals == []


def test_a_refused_one_tap_draw_takes_nothing_and_a_correction_draws_only():
    eng = _solo()
    # a card out of the deck unseen by the table (as a bonus card held from an earlier season is):
    # its tile stays tappable, the engine refuses the draw, and no take follows
    eng.deck.discard(SEASON[C][1])
    table = Table(eng, live=True)
    table.tap(f"ani-pick-{SEASON[C][1]}")
    assert table.submitted == [{"type": "draw", "card": SEASON[C][1]}] and table.refusals
    assert "ani-drawn" not in table.ctx.draft and eng.lot == []
    table.tap(f"ani-pick-{SEASON[C][2]}")  # the next tap enters both
    assert table.submitted[-2:] == [{"type": "draw", "card": SEASON[C][2]}, {"type": "take", "player": C}]
    fix = Table(_solo(), prefix="fix-")  # a correction replaces one entry with one entry
    fix.tap(f"fix-ani-pick-{SEASON[C][1]}")
    assert fix.submitted == [{"type": "draw", "card": SEASON[C][1]}]


def test_two_players_the_last_row_with_room_takes_in_one_tap_and_two_rows_still_choose():
    eng = engine(2)
    # Anne fills both rows, Bruno his first: Bruno alone is incomplete, with one row left
    for i in range(5):
        give(eng, SEASON[A][i], A, row=0)
        give(eng, SEASON[B][i], B, row=0)
    for i in range(5):
        give(eng, SEASON[C][i], A, row=1)
    assert eng.solo and eng.dealer == B and eng.fitting_rows(B, 1) == (1,)
    table = Table(eng, live=True)
    table.tap("ani-pick-dog-thief")
    assert table.submitted == [{"type": "draw", "card": "dog-thief"}, {"type": "take", "player": B, "row": 1}]


def test_the_season_s_end_shows_its_tally_first_and_the_next_season_starts_on_a_tap():
    eng = _season_over()
    table = Table(eng, "fr")
    assert eng.season == 2 and not table.has("ani-draw") and table.has("ani-tally")
    assert table.text("ani-season-break") == Msg("app.ani.season_break", {"season": 1, "next": 2}).render("fr")
    table.tap("ani-reveal")  # the tally may be revealed first
    assert table.has("ani-tally-Anne") and table.has("ani-season-go")
    table.tap("ani-season-go")
    assert shown(table.root, "ani-draw") and not table.has("ani-season-go")
    assert table.has("ani-tally-Anne")  # still revealed, below the picker now


def test_the_bonus_confirm_comes_before_the_picker():
    eng = engine(3)
    phase1(eng, SEASON)
    table = Table(eng)
    table.tap("ani-show-me")
    order = [i for i in probe.idents(table.root) if i in ("ani-bonus-confirm", "ani-bonus-pick-owl")]
    assert order == ["ani-bonus-confirm", "ani-bonus-pick-owl"]
    assert table.text("ani-bonus-intro") == Msg("app.ani.bonus_intro", {"cards": Msg("ani.n.bonus.many", {"n": 2})}
                                                ).render("en")


def test_the_adviser_says_why_a_way_spending_more_bonus_cards_for_as_much_comes_after():
    eng = at_phase3()
    # Anne: 2 cats, 2 dogs and the owl; her bonus cat and dog: the owl covered by one gives 5 medals,
    # as the owl counted as a cat or a dog does without covering anything
    table = Table(eng, live=True)
    table.tap("ani-show-Anne")
    advice = screen.advise(eng.collections[(A, 0)], eng.bonus[A], eng.medals[A], eng.per)
    assert advice.best.used == 0 and advice.note is not None
    assert table.text("ani-advice-note") == en("ani.advice.why.cheaper", used=en("ani.n.bonus.zero", n=0))
    dearer = [i for i, n in enumerate(advice.dearer[:screen.ADVICE_SHOWN + 1]) if n]
    assert dearer and all(table.has(f"ani-advice-{i}-dearer") for i in dearer)
    assert not table.has("ani-advice-0-dearer")


def test_on_a_phone_each_familys_seven_cards_sit_under_its_name():
    # #38: at 390×844 a family's seven cards wrap over two lines; inline, the name stood on the first
    # only, and the second line read as the next family's. The name now heads both lines.
    table = Table(engine(3), "fr")
    table.ctx.compact = True
    table._refresh()
    for family in ANI_FAMILIES:
        name = Msg(f"ani.families.{family}").render("fr")
        heads = [c for c in probe.shown(table.root) if isinstance(c, ft.Column) and len(c.controls) == 2
                 and isinstance(c.controls[0], ft.Container) and isinstance(c.controls[0].content, ft.Text)
                 and c.controls[0].content.value.lower() == name.lower()]
        assert len(heads) == 1, family
        under = {n.identifier for n in probe.identified(heads[0].controls[1])}
        assert under == {f"ani-pick-{family}-{member}" for member in ANI_MEMBERS}, family
