"""The table frame and the High Society screen driven by taps, against the real session service:
entries reach the service, refusals show the rule and save nothing, undo, corrections previewed
(and refused when a later entry would become illegal), the end of the game and its results."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import flet as ft
import pytest

from companion.app import probe
from companion.app.shell import App
from companion.app.ui import walk
from companion.service import SessionService
from companion.store import Store
from models.games.high_society import HS_MONEY
from models.i18n import Msg
from tests.support.table_entry import open_table, page_context_restored  # noqa: F401  (the fixture)

A, B, C, D = "Anne", "Bruno", "Chloé", "David"


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


def table(service: SessionService, tmp_path: Path, *, assist: bool = False, players=(A, B, C, D),
          variant=None) -> tuple[App, int]:
    state = service.start("high-society", list(players), assist=assist, variant=variant)
    app = App(service, None, export_dir=tmp_path / "exports")
    app.go("table", session_id=state.session_id)
    return app, state.session_id


def actions(service: SessionService, sid: int) -> list[dict]:
    return [entry.action for entry in service.open(sid).log]


def bid(app: App, *values: int) -> None:
    for value in values:
        probe.tap(app.root, f"money-{value}")
    probe.tap(app.root, "bid-confirm")


# -- entering ---------------------------------------------------------------------------------


def test_the_frame_shows_the_engines_prompt_and_the_latest_entries(service, tmp_path):
    app, sid = table(service, tmp_path)
    assert probe.text_of(app.root, "prompt") == service.open(sid).expected.prompt.render("fr")
    assert fr("app.table.log_empty") in probe.text_of(app.root, "table-side")
    assert not probe.is_enabled(app.root, "undo")
    probe.tap(app.root, "reveal-p7")
    state = service.open(sid)
    assert actions(service, sid) == [{"type": "reveal", "card": "p7"}]
    assert probe.text_of(app.root, "prompt") == state.expected.prompt.render("fr")
    assert state.log[0].events[0].render("fr") in probe.text_of(app.root, "entry-0")


def test_reveal_offers_exactly_the_cards_left_in_the_deck(service, tmp_path):
    app, sid = table(service, tmp_path)
    offered = {i[len("reveal-"):] for i in probe.idents(app.root) if i.startswith("reveal-")}
    assert offered == {f"p{n}" for n in range(1, 11)} | {"x2", "half", "minus5", "theft"}
    probe.tap(app.root, "reveal-x2")
    bid(app, 1)
    for _ in (B, C, D):
        probe.tap(app.root, "pass")
    # after the round: x2 still has two copies left, shown on its card
    assert "reveal-x2" in probe.idents(app.root)
    assert fr("app.hs.copies", n=2) in probe.text_of(app.root, "reveal-x2")


def test_a_bid_is_built_by_taps_with_the_running_total_in_view(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p5")
    assert not probe.is_enabled(app.root, "bid-confirm")  # nothing laid yet
    probe.tap(app.root, "money-4")
    probe.tap(app.root, "money-10")
    assert probe.text_of(app.root, "bid-adding").endswith("14")
    assert probe.text_of(app.root, "bid-total").endswith("14")
    probe.tap(app.root, "money-4")  # a second tap takes the card back
    assert probe.text_of(app.root, "bid-total").endswith("10")
    probe.tap(app.root, "bid-confirm")
    assert actions(service, sid)[-1] == {"type": "bid", "player": A, "add": [10]}
    # Bruno's turn: his pad starts empty and shows what to beat
    assert probe.text_of(app.root, "bid-adding").endswith("0")
    assert probe.text_of(app.root, "bid-to-beat").endswith("10")
    probe.tap(app.root, "money-12")
    probe.tap(app.root, "bid-clear")
    assert probe.text_of(app.root, "bid-adding").endswith("0")
    probe.tap(app.root, "pass")
    assert actions(service, sid)[-1] == {"type": "pass", "player": B}


def test_a_refused_bid_shows_the_rule_and_saves_nothing(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 4)
    before = actions(service, sid)
    bid(app, 2)  # Bruno's 2 does not beat Anne's 4
    assert actions(service, sid) == before
    shown = probe.text_of(app.root, "refusal")
    assert "HS-BID-RAISE" in shown
    assert fr("rule.HS-BID-RAISE.title") in shown
    assert fr("rule.HS-BID-RAISE.text") not in shown  # the banner stays short: the entry stays in view
    assert "Bruno" in shown  # the engine's own sentence names him
    probe.tap(app.root, "refusal-rule")  # the rule's text one tap away
    assert fr("rule.HS-BID-RAISE.text") in probe.text_of(app.dialog) and "Bruno" in probe.text_of(app.dialog)
    app.close_dialog()
    assert probe.text_of(app.root, "bid-adding").endswith("2")  # his selection is kept to be fixed
    probe.tap(app.root, "money-2")
    bid(app, 6)
    assert actions(service, sid)[-1] == {"type": "bid", "player": B, "add": [6]}
    assert not probe.has(app.root, "refusal")


def test_table_fair_money_is_private_and_every_value_is_offered(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 4)
    for who in (B, C, D):
        probe.tap(app.root, "pass")  # Anne buys the 7 with her 4
    probe.tap(app.root, "reveal-p1")
    assert not any(i.startswith("hs-money-left-") for i in probe.idents(app.root))
    assert all(probe.is_enabled(app.root, f"money-{v}") for v in HS_MONEY)  # her 4 is gone, still offered
    bid(app, 4)
    shown = probe.text_of(app.root, "refusal")
    assert "HS-MONEY-SPENT" in shown
    probe.tap(app.root, "refusal-rule")
    assert fr("rule.HS-MONEY-SPENT.text") in probe.text_of(app.dialog)
    assert len(actions(service, sid)) == 6  # the refused bid is not among them


def test_assist_shows_money_left_and_greys_out_what_is_spent(service, tmp_path):
    app, sid = table(service, tmp_path, assist=True)
    probe.tap(app.root, "reveal-p7")
    bid(app, 4)
    for who in (B, C, D):
        probe.tap(app.root, "pass")
    probe.tap(app.root, "reveal-p1")
    assert probe.text_of(app.root, "hs-money-left-Anne").endswith("102")
    assert probe.text_of(app.root, "hs-money-left-Bruno").endswith("106")
    assert probe.is_greyed(app.root, "money-4")
    assert probe.is_enabled(app.root, "money-3") and not probe.is_greyed(app.root, "money-3")
    # #38: a tap on the greyed card enters nothing and says why, in one line by the money cards
    saved = actions(service, sid)
    probe.tap(app.root, "money-4")
    assert probe.text_of(app.root, "hs-why") == fr("app.hs.why.spent", value=4, player=A)
    assert actions(service, sid) == saved and not probe.has(app.root, "refusal")
    probe.tap(app.root, "money-3")  # the next tap: the line goes
    assert not probe.has(app.root, "hs-why")


def test_undo_takes_back_the_last_entry_only(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 8)
    wrong = " ".join(m.render("fr") for m in service.open(sid).log[-1].events)
    assert "(2 saisies)" in probe.text_of(app.root, "log-count")
    # undo asks first, naming the entry and what it did; "no" leaves the game as it was
    probe.tap(app.root, "undo")
    assert fr("app.table.undo_ask", n=2, what=wrong) in probe.text_of(app.dialog, "undo-confirm")
    probe.tap(app.dialog, "undo-confirm-no")
    assert len(actions(service, sid)) == 2 and app.dialog is None
    undo(app)
    assert actions(service, sid) == [{"type": "reveal", "card": "p7"}]
    assert fr("app.table.undone", n=2, what=wrong) in probe.text_of(app.root, "notice")
    assert "(1 saisie)" in probe.text_of(app.root, "log-count")
    assert A in probe.text_of(app.root, "prompt")
    bid(app, 3)
    assert actions(service, sid)[-1]["add"] == [3]
    assert not probe.has(app.root, "notice")  # an accepted entry clears the old notice
    assert not probe.has(app.root, "redo")    # a new entry: what was undone cannot come back


@pytest.mark.parametrize(("lang", "keep", "go"), [("fr", "Garder", "Annuler la saisie"), ("en", "Keep it", "Undo the entry")])
def test_the_undo_question_answers_keep_or_undo_never_a_bare_cancel(service, tmp_path, lang, keep, go):
    """« Annuler la saisie 2 ? » answered by « Annuler » beside « Oui, annuler cette saisie » reads both
    ways: the answers say what each does."""
    app, sid = table(service, tmp_path)
    app.set_lang(lang)
    probe.tap(app.root, "reveal-p7")
    probe.tap(app.root, "undo")
    no, yes = probe.text_of(app.dialog, "undo-confirm-no"), probe.text_of(app.dialog, "undo-confirm-yes")
    assert (no, yes) == (keep, go)
    assert Msg("app.common.cancel").render(lang) not in no
    probe.tap(app.dialog, "undo-confirm-no")
    assert len(actions(service, sid)) == 1 and app.dialog is None


def undo(app: App) -> None:
    probe.tap(app.root, "undo")
    probe.tap(app.dialog, "undo-confirm-yes")


def test_animalement_votre_undo_speaks_of_animals_in_the_question_and_the_notice(service, tmp_path):
    """The undo question and the notice after it are built on a tap, outside the screen's
    rendering: they still say the entry in the edition's words (animals, « malade comme un chien »)."""
    state = service.start("animalement-votre", [A, B, C])
    app = App(service, None, export_dir=tmp_path / "exports")
    app.go("table", session_id=state.session_id)
    probe.tap(app.root, "reveal-p3")
    bid(app, 1)
    for _ in (B, C):
        probe.tap(app.root, "pass")
    probe.tap(app.root, "reveal-theft")
    probe.tap(app.root, "pass")  # Anne takes « malade comme un chien » and must discard her animal
    probe.tap(app.root, "undo")
    asked = probe.text_of(app.dialog, "undo-confirm")
    assert "malade comme un chien" in asked and "possession" not in asked, asked
    probe.tap(app.dialog, "undo-confirm-yes")
    told = probe.text_of(app.root, "notice")
    assert "malade comme un chien" in told and "possession" not in told, told


def test_redo_enters_again_what_was_just_undone(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 8)
    bid(app, 10)
    entered = actions(service, sid)
    assert not probe.has(app.root, "redo")
    undo(app)
    undo(app)
    assert actions(service, sid) == entered[:1]
    probe.tap(app.root, "redo")          # the most recently undone first: Anne's 8
    assert actions(service, sid) == entered[:2]
    said = " ".join(m.render("fr") for m in service.open(sid).log[-1].events)
    assert fr("app.table.redone", n=2, what=said) in probe.text_of(app.root, "notice")
    probe.tap(app.root, "redo")
    assert actions(service, sid) == entered
    assert not probe.has(app.root, "redo")
    # another tab's entry makes an undone entry stale: no redo offered any more
    undo(app)
    service.submit(sid, {"type": "pass", "player": B})
    app.render()
    assert not probe.has(app.root, "redo")


def test_a_theft_with_possessions_asks_which_possession_to_discard(service, tmp_path):
    app, sid = table(service, tmp_path, players=(A, B, C))
    probe.tap(app.root, "reveal-p3")
    bid(app, 1)
    probe.tap(app.root, "pass")
    probe.tap(app.root, "pass")          # Anne has the 3
    probe.tap(app.root, "reveal-p9")
    bid(app, 2)
    probe.tap(app.root, "pass")
    probe.tap(app.root, "pass")          # and the 9
    probe.tap(app.root, "reveal-theft")
    probe.tap(app.root, "pass")          # the first to pass takes the theft
    offered = sorted(i for i in probe.idents(app.root) if i.startswith("discard-"))
    assert offered == ["discard-p3", "discard-p9"]
    assert A in probe.text_of(app.root, "prompt")
    probe.tap(app.root, "discard-p3")
    assert actions(service, sid)[-1] == {"type": "discard", "player": A, "card": "p3"}


# -- corrections ------------------------------------------------------------------------------


def test_a_correction_is_previewed_then_saved(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 4)
    bid(app, 6)
    probe.tap(app.root, "correct-1")      # Anne really laid 3, not 4
    assert probe.has(app.root, "correcting")
    assert not probe.is_enabled(app.root, "undo")
    assert A in probe.text_of(app.root, "fix-hs-bid")  # the pad as it was: Anne's turn
    probe.tap(app.root, "fix-money-3")
    probe.tap(app.root, "fix-bid-confirm")
    assert probe.has(app.root, "preview")
    assert actions(service, sid)[1]["add"] == [4]  # nothing saved by the preview
    probe.tap(app.root, "correction-save")
    assert actions(service, sid) == [{"type": "reveal", "card": "p7"},
                                     {"type": "bid", "player": A, "add": [3]},
                                     {"type": "bid", "player": B, "add": [6]}]
    assert not probe.has(app.root, "correcting")
    assert fr("app.table.corrected", n=2) in probe.text_of(app.root, "notice")


def test_a_correction_that_breaks_a_later_entry_says_which_and_why_and_saves_nothing(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 4)
    bid(app, 6)
    before = actions(service, sid)
    probe.tap(app.root, "correct-1")
    probe.tap(app.root, "fix-money-10")   # Anne at 10 would make Bruno's 6 too low
    probe.tap(app.root, "fix-bid-confirm")
    shown = probe.text_of(app.root, "conflict")
    assert "HS-BID-RAISE" in shown
    assert fr("app.table.conflict_entry", n=3, what="")[:10] in shown
    assert fr("app.table.nothing_saved") in shown
    assert not probe.has(app.root, "correction-save")
    assert actions(service, sid) == before
    probe.tap(app.root, "correction-cancel")
    assert not probe.has(app.root, "correcting") and probe.has(app.root, "prompt")


def test_a_correction_refused_by_the_rules_shows_the_rule(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 4)
    bid(app, 6)
    before = actions(service, sid)
    probe.tap(app.root, "correct-2")      # Bruno's bid, re-entered as a 2: too low itself
    probe.tap(app.root, "fix-money-2")
    probe.tap(app.root, "fix-bid-confirm")
    shown = probe.text_of(app.root, "refusal")
    assert shown.startswith(fr("app.table.refused_at", n=3, reason="")[:10])
    assert "HS-BID-RAISE" in shown
    probe.tap(app.root, "refusal-rule")
    assert fr("rule.HS-BID-RAISE.text") in probe.text_of(app.dialog)
    app.close_dialog()
    assert actions(service, sid) == before
    probe.tap(app.root, "fix-money-2")
    probe.tap(app.root, "fix-money-8")
    probe.tap(app.root, "fix-bid-confirm")
    preview = probe.text_of(app.root, "preview")
    assert "8" in preview and fr("app.table.then", prompt="")[:6] in preview
    probe.tap(app.root, "correction-save")
    assert actions(service, sid)[2] == {"type": "bid", "player": B, "add": [8]}


# -- the end ----------------------------------------------------------------------------------

PLAN = [("reveal", "p7"), (A, 4), (B, 6), (C, None), (D, None), (A, 3), (B, None),
        ("reveal", "p2"), (A, None), (B, None), (C, None),
        ("reveal", "x2"), (D, 1), (A, None), (B, None), (C, None),
        ("reveal", "x2"), (D, None), (A, None), (B, None),
        ("reveal", "x2"), (C, None), (D, None), (A, None),
        ("reveal", "half")]


def play(app: App, steps) -> None:
    for who, what in steps:
        if who == "reveal":
            probe.tap(app.root, f"reveal-{what}")
        elif what is None:
            assert who in probe.text_of(app.root, "prompt")
            probe.tap(app.root, "pass")
        else:
            assert who in probe.text_of(app.root, "prompt")
            bid(app, what)


def test_the_last_card_leads_to_the_results_with_equal_places_and_reasons(service, tmp_path):
    app, sid = table(service, tmp_path)
    play(app, PLAN)
    assert app.here.screen == "results"
    outcome = service.open(sid).outcome
    assert outcome.winners == (D,)
    assert fr("app.results.winner", player=D) in probe.text_of(app.root, "result-headline")
    assert probe.text_of(app.root, f"rank-{D}").startswith("1.")
    assert probe.text_of(app.root, f"rank-{B}").startswith("2.")
    assert probe.text_of(app.root, f"rank-{C}").startswith("2.")
    anne = probe.text_of(app.root, f"rank-{A}")
    assert anne.startswith("4.") and fr("app.results.out") in anne and "99" in anne
    explained = probe.text_of(app.root, "explanation")
    for sentence in outcome.explanation:
        assert sentence.render("fr") in explained
    probe.tap(app.root, f"why-{D}")
    why = probe.text_of(app.dialog)
    assert "David" in why and "4" in why and "Anne" not in why
    probe.tap(app.dialog, "why-close")
    assert app.dialog is None


def test_the_results_show_each_tied_player_s_money_where_it_decided(service, tmp_path):
    """Bruno and Chloé share a score: the money left was read to part them, and each row says
    theirs, as the « Pourquoi ? » does; David's score alone decided, his row says no money."""
    app, sid = table(service, tmp_path)
    play(app, PLAN)
    outcome = service.open(sid).outcome
    assert outcome.scores[B] == outcome.scores[C] and outcome.notes
    money = service.open(sid).live_engine.money_left
    for player in (B, C):
        assert fr("hs.note.money", money=money[player]) in probe.text_of(app.root, f"rank-{player}")
    assert fr("hs.note.money", money=money[D]) not in probe.text_of(app.root, f"rank-{D}")
    assert set(outcome.notes) == {B, C}


def test_undo_from_the_results_reopens_the_game(service, tmp_path):
    app, sid = table(service, tmp_path)
    play(app, PLAN)
    probe.tap(app.root, "results-undo")
    assert app.here.screen == "results"          # asked first
    probe.tap(app.dialog, "undo-confirm-yes")
    assert app.here.screen == "table"
    assert service.open(sid).outcome is None
    assert probe.has(app.root, "reveal-half")
    probe.tap(app.root, "redo")                   # the last card again: the game is over again
    assert service.open(sid).outcome is not None and app.here.screen == "results"


def test_replay_is_announced_when_nothing_separates_the_best(service, tmp_path):
    app, sid = table(service, tmp_path, players=(A, B, C))
    # Anne takes the scandal and a ×2 for 1: she is the poorest and out; Bruno and Chloé end on 0
    # points with 106 each: the French edition calls for a new game.
    play(app, [("reveal", "half"), (A, None), ("reveal", "x2"), (A, None), (B, None),
               ("reveal", "x2"), (C, None), (A, 1), (B, None), ("reveal", "x2")])
    assert app.here.screen == "results"
    outcome = service.open(sid).outcome
    assert outcome.replay_required and outcome.winners == ()
    headline = probe.text_of(app.root, "result-headline")
    assert headline == fr("app.results.replay", players="Bruno et Chloé")
    assert probe.text_of(app.root, f"rank-{B}").startswith("1.")
    assert probe.text_of(app.root, f"rank-{C}").startswith("1.")


def test_results_in_english(service, tmp_path):
    app, sid = table(service, tmp_path)
    play(app, PLAN)
    probe.tap(app.root, "lang-switch")
    assert probe.text_of(app.root, "result-headline") == Msg("app.results.winner", {"player": D}).render("en")
    assert Msg("app.results.out").render("en") in probe.text_of(app.root, f"rank-{A}")


def test_play_again_keeps_the_table(service, tmp_path):
    app, sid = table(service, tmp_path, variant={"final_tie": "shared"}, assist=True)
    play(app, PLAN)
    probe.tap(app.root, "rematch")
    assert app.here.screen == "setup"
    assert [probe.text_of(app.root, f"seat-{i}") for i in range(4)] == [A, B, C, D]
    assert probe.find(app.root, "variant-final_tie-shared").selected is True
    assert probe.find(app.root, "game-high-society").selected is True


# -- why? -------------------------------------------------------------------------------------


def test_a_settlement_in_the_log_has_a_why_with_the_rule_behind_it(service, tmp_path):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")
    bid(app, 4)
    for _ in (B, C):
        probe.tap(app.root, "pass")
    assert not any(i.startswith("why-entry-") for i in probe.idents(app.root))  # nothing settled yet
    probe.tap(app.root, "pass")                 # David passes: Anne takes the 7 for 4
    assert probe.has(app.root, "why-entry-4")
    assert not probe.has(app.root, "why-entry-1")
    probe.tap(app.root, "why-entry-4")
    why = probe.text_of(app.dialog)
    assert fr("rule.HS-FREE-CARD.text") in why and "HS-FREE-CARD" in why
    for event in service.open(sid).log[4].events:
        assert event.render("fr") in why


def test_the_results_why_names_the_scoring_rules(service, tmp_path):
    app, sid = table(service, tmp_path)
    play(app, PLAN)
    probe.tap(app.root, f"why-{A}")
    why = probe.text_of(app.dialog)
    assert fr("rule.HS-POOREST.text") in why and fr("rule.HS-SCORE.text") in why


def test_every_rule_the_hs_log_and_results_cite_exists(service, tmp_path):
    from scoring.base import rules_of
    from scoring.high_society import HighSocietyEngine

    app, sid = table(service, tmp_path)
    play(app, PLAN)
    state = service.open(sid)
    cited = rules_of([m for entry in state.log for m in entry.events] + list(state.outcome.explanation))
    assert {"HS-FREE-CARD", "HS-POOREST", "HS-SCORE", "HS-END"} <= set(cited)
    assert set(cited) <= set(HighSocietyEngine.rules)


def test_a_defect_while_saving_is_said_and_loses_nothing(service, tmp_path, monkeypatch):
    app, sid = table(service, tmp_path)
    probe.tap(app.root, "reveal-p7")

    def broken(*_args, **_kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service, "submit", broken)
    bid(app, 4)
    assert fr("app.error.unexpected") in probe.text_of(app.root, "problem")
    monkeypatch.undo()
    assert actions(service, sid) == [{"type": "reveal", "card": "p7"}]
    assert probe.text_of(app.root, "bid-adding").endswith("4")  # the taps are still there to retry
    probe.tap(app.root, "bid-confirm")
    assert actions(service, sid)[-1] == {"type": "bid", "player": A, "add": [4]}
    assert not probe.has(app.root, "problem")


class FakePage:
    """Just what the shell touches on a Flet page."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.controls, self.dialogs, self.updates = [], [], 0

    def update(self):
        self.updates += 1

    def run_task(self, handler, *args, **kwargs):  # a scroll back to the top: nothing to scroll here
        handler(*args, **kwargs).close()

    def show_dialog(self, dialog):
        dialog.open = True
        self.dialogs.append(dialog)

    def pop_dialog(self):
        self.dialogs[-1].open = False
        return self.dialogs.pop()


def test_turning_the_tablet_re_lays_the_table(service, tmp_path):
    state = service.start("high-society", [A, B, C])
    page = FakePage(1280, 800)
    app = App(service, page)
    app.go("table", session_id=state.session_id)
    assert page.controls == [app.root] and app.wide
    wide_root = app.root
    page.width, page.height = 800, 1280
    page.on_resize(None)
    assert not app.wide and app.root is not wide_root and page.controls == [app.root]
    updates = page.updates
    page.on_resize(None)  # same orientation: nothing to redo
    assert page.updates == updates


class Hub:
    """Flet's pubsub between tabs, reduced to what the shell uses."""

    def __init__(self):
        self.subscribers = []

    def client(self):
        hub = self

        class Client:
            def subscribe_topic(self, topic, handler):
                hub.subscribers.append((self, topic, handler))

            def send_others_on_topic(self, topic, message):
                import asyncio

                for who, wanted, handler in list(hub.subscribers):
                    if who is not self and wanted == topic:
                        asyncio.run(handler(topic, message))

        return Client()


def test_another_tab_on_the_same_game_follows_the_table(service, tmp_path):
    hub = Hub()
    state = service.start("high-society", [A, B, C])
    pages = [FakePage(1280, 800), FakePage(1280, 800)]
    for page in pages:
        page.pubsub = hub.client()
    here, there = App(service, pages[0]), App(service, pages[1])
    here.go("table", session_id=state.session_id)
    there.go("table", session_id=state.session_id)
    lobby_page = FakePage(1280, 800)
    lobby_page.pubsub = hub.client()
    lobby = App(service, lobby_page)
    lobby.render()
    probe.tap(here.root, "reveal-p7")
    assert probe.text_of(there.root, "prompt") == service.open(state.session_id).expected.prompt.render("fr")
    assert fr("app.home.progress", count=1, when="")[:8] in probe.text_of(lobby.root, f"resume-{state.session_id}")
    probe.tap(there.root, "undo")
    probe.tap(there.dialog, "undo-confirm-yes")
    assert probe.has(here.root, "reveal-p7")


def test_a_phone_gets_the_compact_frame_and_the_game_its_width(service, tmp_path):
    from companion.app import ui
    from companion.app.screens.table import game_width

    state = service.start("stupide-vautour", [A, B, C])
    page = FakePage(1280, 800)
    app = App(service, page)
    app.go("table", session_id=state.session_id)
    assert not app.narrow and isinstance(probe.find(app.root, "lang-switch").content, ft.TextButton)
    assert game_width(app, 9) == pytest.approx((1280 - 32) * 9 / 12 - ui.GAP)
    page.width, page.height = 390, 844
    page.on_resize(None)
    assert app.narrow and not app.wide
    switch = probe.find(app.root, "lang-switch").content
    assert isinstance(switch, ft.IconButton) and switch.width >= ui.TOUCH_MIN   # one line, 48 dp targets
    assert game_width(app) == 390 - 16
    page.width, page.height = 800, 1280
    page.on_resize(None)
    assert not app.narrow and game_width(app) == 800 - 32


# -- the side log's layout -------------------------------------------------------------------------


class SizedPage:
    """Just what the shell reads of a page of a given size (no browser): its width and height."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height, self.controls = width, height, []

    def update(self) -> None:
        pass

    def run_task(self, handler, *args, **kwargs):  # a scroll back to the top: nothing to scroll here
        handler(*args, **kwargs).close()


def _row_holding(root: ft.Control, ident: str) -> ft.Row:
    rows = [node for node in walk(root) if isinstance(node, ft.Row)
            and any(isinstance(c, ft.Semantics) and c.identifier == ident for c in walk(node))]
    return rows[-1]   # the innermost


@pytest.mark.parametrize(("width", "height", "beside"), [(1280, 800, False), (800, 1280, True)])
def test_a_log_sentence_never_shares_a_narrow_line_with_its_buttons(service, tmp_path, width, height, beside):
    """Beside the 15-card hand of Stupide Vautour the side column is narrow: with its number and
    buttons on the same line, a sentence got a few letters a line (« Man/che »). There it goes below
    them, across the column; in portrait (the column as wide as the screen) it stays beside them."""
    sid = service.start("stupide-vautour", ["Anne", "Bruno", "Chloé", "David", "Emma"]).session_id
    service.submit(sid, {"type": "reveal", "card": 8})
    app = App(service, None)
    app.page = SizedPage(width, height)  # type: ignore[assignment]
    app.wide, app.narrow = width >= height, False
    app.go("table", session_id=sid)
    line = probe.find(app.root, "entry-0")
    assert "Manche 1" in probe.text_of(line, "entry-0-text")
    row = _row_holding(line, "correct-0")
    assert any(isinstance(c, ft.Semantics) and c.identifier == "entry-0-text" for c in walk(row)) is beside


def test_on_a_phone_a_cast_out_players_reason_has_the_whole_row_to_itself(service, tmp_path):
    """At 390 wide the place, name, « Hors jeu », points and « Pourquoi ? » left the reason a sliver
    beside the name (one letter a line): on a phone it goes under the row, the "why?" is an icon."""
    app, sid = table(service, tmp_path, players=(A, B, C))
    play(app, [("reveal", "half"), (A, None), ("reveal", "x2"), (A, None), (B, None),
               ("reveal", "x2"), (C, None), (A, 1), (B, None), ("reveal", "x2")])
    reason = service.open(sid).outcome.explanation
    said = next(app.say(m) for m in reason if A in app.say(m) and fr("app.results.out").lower() in app.say(m).lower())
    phone = App(service, FakePage(390, 844))
    phone.go("results", session_id=sid)
    assert phone.narrow
    app = phone
    row = probe.find(app.root, f"rank-{A}").content
    assert isinstance(row, ft.Container) and isinstance(row.content, ft.Column)
    line, under = row.content.controls
    assert isinstance(line, ft.Row) and said in probe.texts(under)
    assert said not in probe.texts(line)
    assert isinstance(probe.find(app.root, f"why-{A}").content, ft.IconButton)


def test_an_entry_draws_the_table_from_what_the_service_returned(service, tmp_path, monkeypatch):
    """After an entry the table is drawn from the state the submit returned: the game is not read
    again. Another tab's entry (a render on its news) reads it once: the shell's look-up of the
    game's words and the screen share the read."""
    app, sid = table(service, tmp_path)
    opened: list[int] = []
    read = service.open
    monkeypatch.setattr(service, "open", lambda session_id: opened.append(session_id) or read(session_id))
    probe.tap(app.root, "reveal-p7")
    assert opened == [] and probe.has(app.root, "entry-0")
    assert len(service.open(sid).log) == 1
    opened.clear()
    app.on_news(sid)  # another tab's entry
    assert opened == [sid]


def test_a_screen_opens_at_its_top_and_a_new_turn_brings_the_announcement_back_into_view(tmp_path):
    """The frame's scrolling column is the same control from screen to screen (Flet reconciles the
    rebuilt root), so it kept the offset the screen before was left at: a screen opened (go, back,
    replace, home) is scrolled to its top, and so is the table after an accepted entry (the next
    turn's announcement in view, wherever the entry was tapped); a pick, a refusal (it is about
    the entry just tapped), a resize or a search typed leave the screen where it is."""
    service, app, sid, session = open_table(tmp_path, "high-society", [A, B, C], first_player=A)
    methods: list[str] = []
    send = session.connection.send_message

    def recording(message):
        body = message.body
        name = getattr(body, "name", None) or (body.get("name") if isinstance(body, dict) else None)
        if name is not None:
            methods.append(name)
        return send(message)

    session.connection.send_message = recording
    loop = session.connection.loop

    def entered() -> int:  # the scrolls to the top sent so far
        loop.run_until_complete(asyncio.sleep(0))  # each is a task of the page
        return methods.count("scroll_to")

    assert entered() == 0  # the page's first screen: at its top already
    probe.tap(app.root, "reveal-p7")  # an entry: the next turn (Anne bids) from the top
    assert entered() == 1
    probe.tap(app.root, "money-1")  # a pick: the screen stays where it is
    assert entered() == 1
    probe.tap(app.root, "bid-confirm")  # Anne bids 1
    assert entered() == 2
    probe.tap(app.root, "money-1")
    probe.tap(app.root, "bid-confirm")  # Bruno bids 1 too: refused, the refusal by the entry
    assert probe.has(app.root, "refusal") and entered() == 2
    app.page.width = 390
    app.render()
    assert entered() == 2  # a resize: the same screen, left where it is
    app.page.width = 1280
    app.go("rules")
    assert entered() == 3  # another screen: at its top
    field = next(c for c in walk(probe.find(app.root, "rules-search")) if isinstance(c, ft.TextField))
    field.on_change(SimpleNamespace(control=SimpleNamespace(value="mise"), data="mise"))  # as Flet passes it
    assert probe.has(app.root, "rules-results") and entered() == 3  # a search typed: the same screen
    app.back()
    assert entered() == 4  # and back on the table: at its top
