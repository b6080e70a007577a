"""Table-fair beyond the table screen: the other screens a player reads on the shared
tablet during a game — a game of the history replayed step by step while it is still going, its
"why?" — say no more than the table screen does. With the table aid (assist) the same checks find
the hidden values, so they can fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from tests.support.table_fair import BC_PAYMENT_ANY, BC_SALE, SV_ROUNDS, play, said


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "fair.db"))


def past_replay(service, session_id: int) -> str:
    """Everything the past-game screen shows at every step of the replay, and each step's "why?"."""
    app = App(service, None)
    app.lang = "en"
    app.go("past", session_id=session_id)
    seen: list[str] = []
    probe.tap(app.root, "step-first")
    while True:
        seen.extend(probe.texts(app.root))
        if probe.is_enabled(app.root, "step-why"):
            probe.tap(app.root, "step-why")
            seen.extend(probe.texts(app.dialog))
            app.close_dialog()
        if not probe.is_enabled(app.root, "step-next"):
            return "\n".join(seen)
        probe.tap(app.root, "step-next")


def test_stupide_vautour_past_replay_of_a_game_in_progress_hides_earlier_rounds(service):
    fair = past_replay(service, play(service, "stupide-vautour", SV_ROUNDS, assist=False))
    aided = past_replay(service, play(service, "stupide-vautour", SV_ROUNDS, assist=True))
    hidden = [  # rounds 1 and 2: under later cards at the table
        said("sv.played_by", player="Anne", card=13), said("sv.played_by", player="Bruno", card=2),
        said("sv.played_by", player="Chloé", card=11), said("sv.played_by", player="Anne", card=3),
        said("sv.played_by", player="Bruno", card=14), said("sv.played_by", player="Chloé", card=6),
    ]
    for sentence in hidden:
        assert sentence not in fair, sentence
        assert sentence in aided, sentence  # the check can fail
    for player, last in (("Anne", 9), ("Bruno", 12), ("Chloé", 7)):
        assert said("sv.played_by", player=player, card=last) in fair  # the top of each stack is public
    assert said("app.sv.log.round_hidden", round=1) in fair
    assert said("app.past.step_hidden") in fair and said("app.past.step_hidden") not in aided


def test_stupide_vautour_past_replay_shows_every_round_once_the_game_is_over(service):
    from tests.support.stupide_vautour import full_game

    shown = past_replay(service, play(service, "stupide-vautour", full_game(), assist=False))
    assert said("app.past.step_hidden") not in shown
    assert said("sv.played_by", player="Chloé", card=8) in shown  # round 1, public at the end


def sv_correction_conflict(service, assist: bool) -> str:
    """Round 1 corrected with Bruno's 14, which he played in round 2: the frame names the later entry."""
    session = play(service, "stupide-vautour", SV_ROUNDS, assist=assist)
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=session)
    probe.tap(app.root, "correct-1")
    # the round opens with its cards as entered (shown with the aid, kept hidden without it): only
    # Bruno's is tapped
    probe.tap(app.root, "fix-sv-card-Bruno-14")
    probe.tap(app.root, "fix-sv-confirm")
    return probe.text_of(app.root, "conflict")


def test_stupide_vautour_correction_conflict_names_the_later_round_as_the_log_does(service):
    fair = sv_correction_conflict(service, assist=False)
    aided = sv_correction_conflict(service, assist=True)
    assert "SV-PLAY-USED" in fair and "SV-PLAY-USED" in aided
    for sentence in (said("sv.played_by", player="Anne", card=3), said("sv.played_by", player="Chloé", card=6)):
        assert sentence not in fair, sentence   # round 2's other cards, under round 3's at the table
        assert sentence in aided, sentence      # the check can fail
    assert said("app.sv.log.round_hidden", round=2) in fair


# -- Boursicocotte: corrections made in private --------------------------------------------------------

BC_TRADE = BC_SALE + [  # Bruno paid his 40 with his 50: Anne now holds two 50s
    {"type": "draw", "card": "cow"}, {"type": "bid", "player": "Anne", "amount": 10},
    {"type": "close", "buy_back": False}, {"type": "pay", "player": "Anne", "cards": [10]},
    {"type": "draw", "card": "horse"}, {"type": "bid", "player": "Anne", "amount": 10},
    {"type": "close", "buy_back": False}, {"type": "pay", "player": "Anne", "cards": [10]},
    {"type": "challenge", "player": "Anne", "target": "Bruno", "animal": "cow", "cards": [50, 50]},  # face down
]


def correcting_bruno_payment(service, actions: list[dict]) -> App:
    """The table, correcting Bruno's payment (entry 4) in his private view, opened."""
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=play(service, "boursicocotte", actions, assist=False, variant=BC_PAYMENT_ANY))
    if probe.has(app.root, "log-toggle"):
        probe.tap(app.root, "log-toggle")
    probe.tap(app.root, "correct-3")
    probe.tap(app.root, "fix-bc-show-me")
    return app


def test_boursicocotte_a_refused_correction_goes_with_the_private_view(service):
    app = correcting_bruno_payment(service, BC_SALE)
    probe.tap(app.root, "fix-bc-cannot-pay")  # Bruno holds 90: he can pay the 40
    money = said("bc.err.can_pay", player="Bruno", total=90, amount=40)
    assert money in probe.text_of(app.root)  # his own view: he may read it (the check can fail)
    probe.tap(app.root, "fix-bc-hide")
    assert money not in probe.text_of(app.root)  # covered again: not left on the shared screen
    assert not probe.has(app.root, "refusal")


def test_boursicocotte_a_correction_conflict_never_quotes_a_later_secret_offer(service):
    app = correcting_bruno_payment(service, BC_TRADE)
    for k in range(4):  # paid with four 10s instead: Anne would not have had her second 50
        probe.tap(app.root, f"fix-bc-cash-10-{k}")
    probe.tap(app.root, "fix-bc-pay")
    shown = probe.text_of(app.root, "conflict")
    assert "BC-CARDS-MISSING" in shown and said("app.table.nothing_saved") in shown
    offer = said("bc.err.cards_missing", player="Anne", cards=[50, 50], missing=[50])
    assert offer not in shown
    assert "50" not in shown  # neither the cards of Anne's face-down offer nor what is missing
    probe.tap(app.root, "fix-bc-hide")
    assert "50" not in probe.text_of(app.root, "conflict")


def payment_why(service, cards: list[int]) -> str:
    """The "why?" of Bruno's payment of the 40 he owes, paid with ``cards``, on the table screen."""
    session = play(service, "boursicocotte", BC_SALE[:-1] + [{"type": "pay", "player": "Bruno", "cards": cards}],
                   assist=False, variant=BC_PAYMENT_ANY)
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=session)
    probe.tap(app.root, f"why-entry-{len(BC_SALE) - 1}")
    return probe.text_of(app.dialog)


def test_boursicocotte_why_of_a_payment_never_tells_an_overpayment(service):
    exact = payment_why(service, [10, 10, 10, 10])
    over = payment_why(service, [50])  # the table only saw cards change hands face down
    assert "BC-PAYER" in exact
    assert over == exact  # the same words and the same rules, whatever cards were handed over
    assert "BC-OVERPAY" not in over and said("rule.BC-OVERPAY.title") not in over
