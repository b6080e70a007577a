"""Table-fair: for every game with a table screen, the shared screen (the game's part,
the prompt, the log) and the result sentences never show a value the physical table keeps hidden
until the rules reveal it — money in hand (High Society, Animalement Vôtre, Boursicocotte), the
cards a player paid with (Boursicocotte), the cards under each player's last one and the running
scores (Stupide Vautour); High card, the tests' game, hides nothing once entered. With the table aid (assist) switched on at set-up, the screen may show
more: the same checks then find the values, so they can fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.support.table_fair import (
    BC_PAYMENT_ANY,
    BC_SALE,
    HS_ROUNDS,
    PLAYERS,
    SV_ROUNDS,
    play,
    said,
)


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "fair.db"))


def shared_screen(service: SessionService, session_id: int) -> str:
    """Everything a player reads on the table screen (game part, prompt, whole log)."""
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=session_id)
    if probe.has(app.root, "log-toggle"):
        probe.tap(app.root, "log-toggle")  # the whole log, not the last entries only
    return "\n".join(probe.texts(app.root))


# -- High Society and Animalement Vôtre: money in hand ---------------------------------------------


@pytest.mark.parametrize("game", ["high-society", "animalement-votre"])
def test_money_left_is_never_on_the_shared_screen(service, game):
    fair = shared_screen(service, play(service, game, HS_ROUNDS, assist=False))
    aided = shared_screen(service, play(service, game, HS_ROUNDS, assist=True))
    for player, left in (("Anne", 106), ("Bruno", 94), ("Chloé", 106)):
        sentence = said("app.hs.money_left", amount=left)
        assert sentence not in fair, player
        assert sentence in aided  # the check can fail
    for hidden in ("94", "106"):
        assert hidden not in fair


# -- Stupide Vautour: the last card per player, no running score -------------------------------------


def test_stupide_vautour_shows_each_players_last_card_and_no_running_score(service):
    fair = shared_screen(service, play(service, "stupide-vautour", SV_ROUNDS, assist=False))
    aided = shared_screen(service, play(service, "stupide-vautour", SV_ROUNDS + [{"type": "reveal", "card": 1}],
                                        assist=True))
    hidden_rounds = [
        said("sv.played_by", player="Anne", card=13), said("sv.played_by", player="Bruno", card=2),
        said("sv.played_by", player="Chloé", card=6), said("sv.played_by", player="Bruno", card=14),
        said("sv.played_by", player="Anne", card=3),
    ]
    for sentence in hidden_rounds:  # cards now under a later one
        assert sentence not in fair, sentence
        assert sentence in aided
    # who took the 10 and the -4 (face down now): not said again; the latest round's award is public
    first_award = said("sv.award.top.high", player="Anne", card=13, points=Msg("sv.points.one", {"card": 10}))
    assert first_award not in fair
    assert first_award in aided
    assert said("sv.award.top.high", player="Bruno", card=12, points=Msg("sv.points.one", {"card": 5})) in fair
    for player, last in (("Anne", 9), ("Bruno", 12), ("Chloé", 7)):
        assert said("sv.played_by", player=player, card=last) in fair  # the top of each stack
    # running scores: Anne 10 - 4 = 6 (her 3 was the lowest on the vulture), Bruno 5, Chloé 0
    for player, score in (("Anne", 6), ("Bruno", 5), ("Chloé", 0)):
        assert said("app.sv.score", score=score) not in fair
        assert said("app.sv.score", score=score) in aided
    assert said("app.sv.log.round_hidden", round=1) in fair
    assert said("app.sv.aid_on") in aided and said("app.sv.aid_on") not in fair  # the aid says so


def test_stupide_vautour_reveals_everything_once_the_game_is_over(service):
    from tests.support.stupide_vautour import full_game

    session = play(service, "stupide-vautour", full_game(), assist=False)
    shown = shared_screen(service, session)
    assert said("app.sv.log.round_hidden", round=1) not in shown
    assert said("sv.played_by", player="Chloé", card=8) in shown  # round 1, now public


def correcting_round_one(service: SessionService, assist: bool) -> tuple[int, str]:
    """Round 1 (under two later rounds) corrected with Bruno's 5 for his 2: everything the table
    reads, opened and previewed (the rest of the round is kept as entered, without being shown)."""
    session = play(service, "stupide-vautour", SV_ROUNDS, assist=assist)
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=session)
    probe.tap(app.root, "correct-1")
    seen = probe.texts(app.root)
    probe.tap(app.root, "fix-sv-card-Bruno-5")
    probe.tap(app.root, "fix-sv-confirm")
    assert probe.has(app.root, "preview")
    seen += probe.texts(app.root)
    probe.tap(app.root, "correction-save")
    return session, "\n".join(seen)


def test_stupide_vautour_correcting_a_past_round_keeps_its_cards_without_showing_them(service):
    fair_id, fair = correcting_round_one(service, assist=False)
    _, aided = correcting_round_one(service, assist=True)
    for player, card in (("Anne", 13), ("Bruno", 2), ("Chloé", 11)):  # round 1: under later cards
        for sentence in (said("sv.played_by", player=player, card=card), said("app.sv.picked", card=card)):
            assert sentence not in fair, sentence
            assert sentence in aided, sentence  # the check can fail
    assert said("app.sv.as_entered") in fair and said("app.sv.picked", card=5) in fair
    assert service.open(fair_id).log[1].action == {"type": "play", "cards": {"Anne": 13, "Bruno": 5, "Chloé": 11}}


def test_stupide_vautour_correcting_a_round_shows_nothing_of_the_round_before_it(service):
    """Correcting round 2's reveal or its cards opens the table as it was before them: round 1
    just played, its award and each player's card on the tiles. Those lie under two later rounds at
    the table now, so without the aid neither is shown (with it, the aid shows them anyway)."""
    for entry, idents in ((2, ("fix-sv-award", "fix-sv-player-Anne", "fix-sv-player-Chloé")),
                          (3, ("fix-sv-player-Anne", "fix-sv-player-Bruno", "fix-sv-player-Chloé"))):
        shown: dict[bool, tuple[list[str], str]] = {}
        for assist in (False, True):
            session = play(service, "stupide-vautour", SV_ROUNDS, assist=assist)
            app = App(service, None)
            app.lang = "en"
            app.go("table", session_id=session)
            probe.tap(app.root, f"correct-{entry}")
            assert probe.has(app.root, "correcting")
            shown[assist] = (probe.idents(app.root), "\n".join(probe.texts(app.root)))
        fair_ids, fair = shown[False]
        aided_ids, aided = shown[True]
        for ident in idents:
            assert ident not in fair_ids, (entry, ident)
            assert ident in aided_ids, (entry, ident)  # the check can fail
        if entry == 2:
            round_one = said("app.sv.last_round", n=1)
            assert round_one not in fair and round_one in aided


def test_the_frame_reads_only_the_log_entries_it_shows(service, monkeypatch):
    """A render's cost does not grow with the game's length: the game's ``table_log`` is asked for
    the latest entries the side column shows, not the whole log (all of it only once asked for), and
    the short log hides the earlier rounds as the whole log does."""
    from companion.app.games import stupide_vautour as screen
    from companion.app.screens.table import LOG_SHORT

    rounds = SV_ROUNDS + [{"type": "reveal", "card": 1}, {"type": "play", "cards": {"Anne": 1, "Bruno": 3, "Chloé": 2}}]
    session = play(service, "stupide-vautour", rounds, assist=False)
    asked: list[int] = []
    table_log = screen.table_log
    monkeypatch.setattr(screen.Screen, "table_log",
                        staticmethod(lambda state, entries: asked.append(len(entries)) or table_log(state, entries)))
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=session)
    short = "\n".join(probe.texts(app.root))
    assert asked and max(asked) == LOG_SHORT < len(rounds)
    assert said("sv.played_by", player="Bruno", card=12) not in short  # round 3, under round 4's cards
    assert said("app.sv.log.round_hidden", round=3) in short
    assert said("sv.played_by", player="Bruno", card=3) in short  # the latest round
    probe.tap(app.root, "log-toggle")
    assert asked[-1] == len(rounds)  # the whole log, once asked for

# -- Boursicocotte: money cards ----------------------------------------------------------------------


def test_boursicocotte_log_says_a_payment_happened_never_the_cards(service):
    session = play(service, "boursicocotte", BC_SALE, assist=False, variant=BC_PAYMENT_ANY)
    shown = shared_screen(service, session)
    assert "Bruno pays Anne the 40 owed" in shown  # the amount the whole table heard
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=session)
    payment = probe.text_of(app.root, f"entry-{len(BC_SALE) - 1}")
    assert "40" in payment and "50" not in payment  # not the card he paid with, nor what he overpaid
    state = service.open(session)
    view = state.engine.player_view()
    for player in PLAYERS:  # nobody's money, in cards or in total
        assert said("app.bc.your_money", total=view["money_total"][player], n=len(view["money"][player])) not in shown
        assert said("app.bc.money_end", total=view["money_total"][player]) not in shown
    for entry in state.log:
        for sentence in (m.render(lang) for m in entry.events for lang in ("fr", "en")):
            assert "50" not in sentence and "[" not in sentence


# -- High card (the tests' game): every card is revealed face up, nothing hidden is entered ----------


def test_high_card_says_the_same_with_or_without_the_aid_which_only_greys_the_cards_played(service):
    rounds = [{"type": "reveal", "cards": {"Anne": 5, "Bruno": 3, "Chloé": 2}}]
    fair, aided = (play(service, "high-card", rounds, assist=assist) for assist in (False, True))
    assert shared_screen(service, fair) == shared_screen(service, aided)
    assert said("hc.event.takes", player="Anne", card=5, round=1) in shared_screen(service, fair)
    enabled = {}
    for sid in (fair, aided):
        app = App(service, None)
        app.go("table", session_id=sid)
        enabled[sid] = probe.is_enabled(app.root, "hc-card-Anne-5")
    assert enabled == {fair: True, aided: False}  # the aid acts: the card Anne played is greyed out
