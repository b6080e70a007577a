"""Stupide Vautour table screen: built from a replayed engine state, driven through its handlers.

The screen holds no rules: these tests check what it shows from the engine's public state, the
actions it hands to ``ctx.submit``, and that a whole game entered through it is refereed as the
engine says (refusals included), both through a bare engine and through the session service.
"""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.app import probe, ui
from companion.app.games import TableState, state_from_session
from companion.app.games import stupide_vautour as screen
from models.games.stupide_vautour import SV_HAND, SV_POINT_CARDS
from models.i18n import LANGUAGES, Msg, catalogue
from models.record import parse_action, parse_record_data
from scoring.base import RuleViolation
from scoring.referee import replay
from tests.screen_driver import ScreenDriver
from tests.support.stupide_vautour import full_game, play, reveal

GAME = "stupide-vautour"
TABLE = ("Anne", "Bruno", "Chloé")


# -- helpers ---------------------------------------------------------------------------------------


def state_of(actions=(), players=TABLE, *, assist=False, ties=None) -> TableState:
    data: dict[str, Any] = {"format": "table-record/1", "game": GAME, "players": list(players),
                            "actions": list(actions)}
    if ties:
        data["variant"] = {"ties": ties}
    done = replay(parse_record_data(data))
    assert done.violation is None, done.violation
    engine = done.engine
    return TableState(game=GAME, variant=dict(data.get("variant", {})), players=tuple(players),
                      first_player=players[0], assist=assist, engine=engine, expected=engine.expected(),
                      outcome=engine.outcome(), entries=done.applied)


def Table(state: TableState, lang: str = "en", readonly: bool = False, prefix: str = "") -> ScreenDriver:
    """The screen plus what a frame would do: collect submissions, keep the draft, re-render."""
    return ScreenDriver(screen, state, lang, readonly=readonly, prefix=prefix, sep=" | ")


def en(key: str, **params: Any) -> str:
    from models.i18n import Msg

    return Msg(key, params).render("en")


# -- registration and catalogues -------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("assist", [False, True])
def test_every_phase_builds_in_both_languages(lang, assist):
    """Start, round open, after a carry-over, after an award, finished (read-only): no missing text."""
    actions = [reveal(5), play(Anne=3, Bruno=3, Chloé=3), reveal(-2), play(Anne=1, Bruno=9, Chloé=4)]
    for upto in range(len(actions) + 1):
        Table(state_of(actions[:upto], assist=assist), lang=lang).text()
    Table(state_of(full_game(), assist=assist), lang=lang, readonly=True).text()


# -- the pot ---------------------------------------------------------------------------------------


def test_start_shows_an_empty_pot_the_round_and_the_fifteen_point_cards():
    table = Table(state_of())
    assert table.text("sv-round") == en("app.sv.round", n=1, of=15)
    assert table.has("sv-pot-empty") and not table.has("sv-pot-sum")
    assert table.text("sv-deck-left") == en("app.sv.deck_left", n=15)
    for card in SV_POINT_CARDS:
        assert table.enabled(f"sv-reveal-{card}") and not table.greyed(f"sv-reveal-{card}")
    assert not table.has("sv-play")


def test_tapping_a_point_card_reveals_it_in_one_tap():
    table = Table(state_of())
    table.tap("sv-reveal--3")
    table.tap("sv-reveal-7")
    assert table.submitted == [reveal(-3), reveal(7)]


def test_cards_already_out_are_dimmed_and_not_offered_again():
    table = Table(state_of([reveal(4), play(Anne=1, Bruno=2, Chloé=3), reveal(-5), play(Anne=5, Bruno=6, Chloé=7)]))
    assert table.greyed("sv-reveal-4") and table.greyed("sv-reveal--5")
    assert table.find("sv-reveal-4").label == en("app.sv.point_card_out", card=4)
    assert table.enabled("sv-reveal-10") and not table.greyed("sv-reveal-10")
    assert table.text("sv-deck-left") == en("app.sv.deck_left", n=13)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tap_on_a_card_already_out_says_why_in_one_line_until_the_next_tap(lang):
    """#38: a greyed point card enters nothing and says why, by the cards; the line goes at the next tap."""
    table = Table(state_of([reveal(4), play(Anne=1, Bruno=2, Chloé=3), reveal(-5), play(Anne=5, Bruno=6, Chloé=7)]),
                  lang=lang)
    assert not table.has("sv-why")
    table.tap("sv-reveal--5")
    assert table.submitted == []
    assert table.text("sv-why") == Msg("app.sv.why.out", {"card": screen.number(table.ctx, -5)}).render(lang)
    assert table.greyed("sv-reveal--5")  # still greyed
    table.tap("sv-reveal-10")
    assert table.submitted == [reveal(10)]
    table.ctx.refresh()  # the screen drawn again (here the entry's): the line is gone
    assert not table.has("sv-why")


def test_a_suricate_pot_says_the_highest_card_takes():
    table = Table(state_of([reveal(6)]))
    assert table.text("sv-pot-sum") == en("app.sv.pot_sum", sum="6")
    assert table.text("sv-pot-mode") == en("app.sv.mode.suricate")


def test_a_vulture_pot_says_the_lowest_card_takes():
    table = Table(state_of([reveal(-4)]))
    assert table.text("sv-pot-sum") == en("app.sv.pot_sum", sum="-4")
    assert table.text("sv-pot-mode") == en("app.sv.mode.vulture")


def test_a_carried_pot_stays_in_view_and_its_sign_follows_the_sum():
    # 3 tied on the 2 (one-level: all tied, nobody takes): the 2 waits; then -5 joins: sum -3, vulture
    actions = [reveal(2), play(Anne=8, Bruno=8, Chloé=8)]
    table = Table(state_of(actions))
    assert table.text("sv-pot-sum") == en("app.sv.pot_sum", sum="2")
    assert table.has("sv-pot-waiting")
    assert en("app.sv.card.suricate") in table.text("sv-pot")
    table = Table(state_of(actions + [reveal(-5)]))
    assert table.text("sv-pot-sum") == en("app.sv.pot_sum", sum="-3")
    assert table.text("sv-pot-mode") == en("app.sv.mode.vulture")
    assert not table.has("sv-pot-waiting")
    pot = table.text("sv-pot")
    assert "2" in pot and "-5" in pot


# -- entering a round ------------------------------------------------------------------------------


def test_one_tap_per_player_then_confirm_submits_every_card():
    table = Table(state_of([reveal(3)]))
    assert table.text("sv-confirm") == en("app.sv.confirm", n=1)
    assert not table.enabled("sv-confirm")
    table.tap("sv-card-Anne-14")
    table.tap("sv-card-Bruno-2")
    assert not table.enabled("sv-confirm")
    assert table.text("sv-missing") == en("app.sv.still_missing", players=("Chloé",))
    table.tap("sv-card-Chloé-14")
    assert table.enabled("sv-confirm") and not table.has("sv-missing")
    assert table.text("sv-picked-Anne") == en("app.sv.picked", card="14")
    table.tap("sv-confirm")
    assert table.submitted == [play(Anne=14, Bruno=2, Chloé=14)]
    assert list(table.submitted[0]["cards"]) == list(TABLE), "cards in seating order"


def test_a_second_tap_changes_or_withdraws_a_players_card():
    table = Table(state_of([reveal(3)]))
    table.tap("sv-card-Anne-14")
    table.tap("sv-card-Anne-9")
    assert table.find("sv-card-Anne-9").selected and not table.find("sv-card-Anne-14").selected
    table.tap("sv-card-Anne-9")
    assert table.text("sv-picked-Anne") == en("app.sv.to_pick")
    table.tap("sv-card-Bruno-1")
    table.tap("sv-clear")
    assert table.ctx.draft["cards"] == {}
    assert not table.enabled("sv-clear")
    assert table.submitted == []


def test_the_draft_of_a_past_round_is_not_carried_into_the_next():
    table = Table(state_of([reveal(3)]))
    table.tap("sv-card-Anne-14")
    later = state_of([reveal(3), play(Anne=14, Bruno=1, Chloé=2), reveal(5)])
    rebuilt = screen.build(later, table.ctx)
    picked = [c for c in ui.walk(rebuilt) if isinstance(c, ft.Semantics) and c.identifier == "sv-picked-Anne"]
    assert picked[0].content.value == en("app.sv.to_pick")


def test_table_fair_by_default_every_value_is_offered_and_nothing_used_is_listed():
    actions = [reveal(3), play(Anne=14, Bruno=1, Chloé=2), reveal(5)]
    table = Table(state_of(actions))
    for player in TABLE:
        for card in SV_HAND:
            assert table.enabled(f"sv-card-{player}-{card}")
    everything = table.text()
    assert not any(table.has(f"sv-hand-left-{p}") or table.has(f"sv-score-{p}") for p in TABLE)
    assert table.has("sv-scores-hidden")
    assert en("app.sv.fair_hint") in everything
    # the table can see each player's last card, and only that
    assert "14" in table.text("sv-player-Anne")


def test_assist_greys_out_used_cards_and_shows_hands_and_scores():
    actions = [reveal(3), play(Anne=14, Bruno=1, Chloé=2), reveal(5)]
    table = Table(state_of(actions, assist=True))
    assert table.greyed("sv-card-Anne-14") and not table.greyed("sv-card-Bruno-14")
    assert table.greyed("sv-card-Bruno-1") and table.greyed("sv-card-Chloé-2")
    table.tap("sv-card-Anne-14")  # #38: a greyed card says why, in one line by the cards
    assert table.text("sv-why") == en("app.sv.why.played", card="14", player="Anne")
    assert not table.ctx.draft.get("cards")  # nothing picked
    table.tap("sv-card-Anne-13")
    assert not table.has("sv-why") and table.ctx.draft["cards"] == {"Anne": 13}
    assert table.text("sv-score-Anne") == en("app.sv.score", score="3")
    assert table.text("sv-score-Bruno") == en("app.sv.score", score="0")
    hand = table.text("sv-hand-left-Anne")
    assert hand == en("app.sv.hand_left", count=14, cards=tuple(c for c in SV_HAND if c != 14))
    assert not table.has("sv-scores-hidden")
    assert en("app.sv.fair_hint") not in table.text()


def test_a_used_card_is_refused_by_the_engine_without_the_round_it_was_played_in():
    """The screen lets the table enter it (table-fair); the engine refuses with SV-PLAY-USED, and
    its sentence does not tell the table when the card went (only the last cards are shown)."""
    actions = [reveal(3), play(Anne=14, Bruno=1, Chloé=2), reveal(5)]
    state = state_of(actions)
    table = Table(state)
    for ident in ("sv-card-Anne-14", "sv-card-Bruno-4", "sv-card-Chloé-6", "sv-confirm"):
        table.tap(ident)
    action = parse_action(GAME, table.submitted[-1], list(TABLE))
    with pytest.raises(RuleViolation) as info:
        state.engine.apply(action)
    assert info.value.rule == "SV-PLAY-USED"
    assert info.value.message("en") == "Anne already played the 14: it is no longer in hand."
    assert info.value.message("fr") == "Anne a déjà joué son 14 : il n'est plus dans sa main."


@pytest.mark.parametrize("lang,words,round_word", [("fr", "n'est plus dans", "manche"),
                                                   ("en", "no longer in hand", "round")])
def test_the_fair_hints_promise_what_the_refusal_of_a_used_card_says(lang, words, round_word):
    """The hint under the rows and the set-up's fair option say how a used card is refused: as the
    refusal does (no longer in the hand), never with the round it went in, a hidden fact."""
    from models.i18n import Msg

    actions = [reveal(3), play(Anne=14, Bruno=1, Chloé=2), reveal(5)]
    state = state_of(actions)
    table = Table(state, lang=lang)
    hint = table.text("sv-fair-hint")
    for ident in ("sv-card-Anne-14", "sv-card-Bruno-4", "sv-card-Chloé-6", "sv-confirm"):
        table.tap(ident)
    with pytest.raises(RuleViolation) as info:
        state.engine.apply(parse_action(GAME, table.submitted[-1], list(TABLE)))
    refusal = info.value.message(lang)
    assert words in refusal and round_word not in refusal.lower()
    for promise in (hint, Msg("app.setup.assist_off.stupide-vautour").render(lang)):
        assert words in promise and round_word not in promise.lower(), promise

def test_after_a_play_the_screen_says_who_took_what_and_why():
    table = Table(state_of([reveal(6), play(Anne=14, Bruno=9, Chloé=14)]))
    award = table.text("sv-award")
    assert en("app.sv.last_round", n=1) in award
    for message in table.state.engine.last_award:
        assert message.render("en") in award
    assert "Bruno" in award  # one-level: the 14s cancel, the 9 takes
    assert table.has("sv-reveal")
    # while the next round is being played the award gives way to the entry rows
    assert not Table(state_of([reveal(6), play(Anne=14, Bruno=9, Chloé=14), reveal(2)])).has("sv-award")


def test_the_ties_reading_in_force_is_shown():
    assert Table(state_of()).text("sv-ties") == en("variant.stupide-vautour.ties.one-level")
    assert Table(state_of(ties="highest-unique")).text("sv-ties") == en("variant.stupide-vautour.ties.highest-unique")


def test_french_is_the_default_language_of_the_screen():
    table = Table(state_of([reveal(3)]), lang="fr")
    assert table.text("sv-confirm") == "Valider la manche 1"
    assert table.text("sv-pot-mode") == catalogue("fr")["app.sv.mode.suricate"]


def test_read_only_and_correction_modes():
    replayed = Table(state_of([reveal(3)]), readonly=True)
    assert not replayed.has("sv-play") and not replayed.has("sv-reveal") and replayed.has("sv-pot")
    fixing = Table(state_of([reveal(3)]), prefix="fix-")
    assert fixing.has("fix-sv-play") and not fixing.has("sv-play")
    fixing.tap("fix-sv-card-Anne-1")
    fixing.tap("fix-sv-card-Bruno-2")
    fixing.tap("fix-sv-card-Chloé-3")
    fixing.tap("fix-sv-confirm")
    assert fixing.submitted == [play(Anne=1, Bruno=2, Chloé=3)]


@pytest.mark.parametrize("width, per_row, beside", [
    (None, 15, False),     # built without a page: 15 to share the row
    (924, 15, True),       # a landscape tablet (1280 wide): the name beside the cards
    (768, 8, False),       # a portrait tablet (800 wide)
    (374, 5, False),       # a phone (390 wide)
])
def test_hand_cards_keep_48_dp_at_every_width(width, per_row, beside):
    players = ("Anne", "Bruno", "Chloé", "David", "Emma")
    state = state_of([reveal(3)], players=players)
    table = Table(state)
    table.ctx.width = width
    table._refresh()
    assert screen.hand_layout(width)[0] == per_row and screen.hand_layout(width)[2] is beside
    for card in SV_HAND:
        node = table.find(f"sv-card-Emma-{card}")
        assert node.content.height >= 48
        if width is None:
            assert node.expand == 1
        else:
            assert node.content.width >= 48
    rows = [c for c in ui.walk(table.find("sv-row-Anne")) if isinstance(c, ft.Row)
            and all(isinstance(x, ft.Semantics) for x in c.controls)]
    assert [len(r.controls) for r in rows] == [min(per_row, 15 - i) for i in range(0, 15, per_row)]
    assert table.find("sv-confirm").content.height >= ui.TOUCH
    idents = probe.idents(table.root)
    assert idents.index("sv-confirm") < idents.index("sv-row-Anne")  # confirm above the rows


def test_the_last_round_picks_each_players_last_card_and_the_table_confirms():
    # Each player holds one card: what the table cannot choose is picked already, one tap confirms
    # (it was 1 + players + 1 taps: the reveal, each card, the confirm).
    actions = full_game()[:-1]        # the last point card is turned over, not yet played
    table = Table(state_of(actions))
    assert "Anne 1" in table.text("sv-last-cards") and "Bruno 15" in table.text("sv-last-cards")
    assert table.enabled("sv-confirm")
    table.tap("sv-confirm")
    assert table.submitted == [full_game()[-1]]
    # a clear leaves the picks empty, as in any round
    table = Table(state_of(actions))
    table.tap("sv-clear")
    assert not table.enabled("sv-confirm")
    # before the last round nothing is picked for the table
    earlier = Table(state_of(full_game()[:-3]))
    assert not earlier.has("sv-last-cards")


# -- whole games through the screen ----------------------------------------------------------------


def drive(actions: list[dict]) -> tuple[list[dict], Any]:
    """Enter ``actions`` only by tapping the screen, each submission applied like the frame does."""
    data = {"format": "table-record/1", "game": GAME, "players": list(TABLE), "actions": []}
    accepted: list[dict] = []
    for action in actions:
        state = state_of(accepted)
        table = Table(state)
        if action["type"] == "reveal":
            table.tap(f"sv-reveal-{action['card']}")
        else:
            if not table.has("sv-last-cards"):  # the last round's cards are picked already
                for player, card in action["cards"].items():
                    table.tap(f"sv-card-{player}-{card}")
            table.tap("sv-confirm")
        assert table.submitted == [action]
        parse_action(GAME, table.submitted[0], list(TABLE))
        accepted.append(table.submitted[0])
    data["actions"] = accepted
    return accepted, replay(parse_record_data(data)).engine


def test_a_whole_game_entered_by_taps_is_refereed_to_the_end():
    accepted, engine = drive(full_game())
    outcome = engine.outcome()
    assert outcome is not None and engine.rounds_played == 15
    final = state_of(accepted)
    table = Table(final, readonly=True)
    assert not table.has("sv-play") and not table.has("sv-reveal")
    for lang in LANGUAGES:
        for message in outcome.explanation:
            assert message.render(lang)


def test_through_the_session_service_refusal_then_accepted_entry(tmp_path):
    """The real path: the service parses the screen's actions; a used card comes back refused
    with SV-PLAY-USED and nothing is saved; the same round re-entered is accepted."""
    from companion.service import Refused, SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "sv.db"))
    session = service.start(GAME, list(TABLE), variant={"ties": "highest-unique"}, assist=False)
    sid = session.session_id
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

    current().tap("sv-reveal-7")
    table = current()
    for ident in ("sv-card-Anne-15", "sv-card-Bruno-15", "sv-card-Chloé-3", "sv-confirm"):
        table.tap(ident)
        table = current()
    # highest-unique: the two 15s are set aside, Chloé's 3 takes the 7
    assert service.open(sid).engine.scores["Chloé"] == 7
    assert current().has("sv-award")
    current().tap("sv-reveal-1")
    table = current()
    for ident in ("sv-card-Anne-15", "sv-card-Bruno-2", "sv-card-Chloé-4", "sv-confirm"):
        table.tap(ident)
        table = current()
    assert [r.rule for r in refusals] == ["SV-PLAY-USED"]
    assert len(service.open(sid).log) == 3, "the refused play is not saved"
    # the draft survived the refusal: fix Anne's card only
    assert table.text("sv-picked-Bruno") == en("app.sv.picked", card="2")
    table.tap("sv-card-Anne-14")
    table = current()
    table.tap("sv-confirm")
    assert len(service.open(sid).log) == 4
    assert service.open(sid).engine.scores["Anne"] == 1


def test_the_new_game_screen_offers_both_tie_readings(tmp_path):
    from companion.app.screens import setup
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    app = App(SessionService(Store(tmp_path / "setup.db")), lang="fr")
    app.drafts["setup"] = setup.Draft(game=GAME)
    _, body = setup.build(app)
    idents = {c.identifier for c in ui.walk(body) if isinstance(c, ft.Semantics)}
    assert {"variant-ties-one-level", "variant-ties-highest-unique"} <= idents


# -- parts kept between taps (companion.app.memo) ---------------------------------------------------


FIVE = ("Anne", "Bruno", "Chloé", "David", "Emma")


def _app_table(tmp_path, *, assist: bool = False):
    """The real frame (App) on a fresh database, a five-player game."""
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "kept.db"))
    sid = service.start(GAME, list(FIVE), assist=assist).session_id
    app = App(service, None)
    app.go("table", session_id=sid)
    return service, app, sid


def _shown(app) -> dict[str, object]:
    idents = ["sv-pot", "sv-round", *[f"sv-player-{p}" for p in FIVE]]
    return {i: probe.find(app.root, i) for i in idents}


def test_a_hand_card_tap_keeps_the_pot_and_every_players_tile(tmp_path):
    service, app, sid = _app_table(tmp_path)
    probe.tap(app.root, "sv-reveal-5")
    before = _shown(app)
    cards = {c: probe.find(app.root, f"sv-card-Anne-{c}") for c in SV_HAND}
    probe.tap(app.root, "sv-card-Anne-15")
    probe.tap(app.root, "sv-card-Bruno-14")
    after = _shown(app)
    assert [i for i in before if after[i] is not before[i]] == []   # kept: neither built nor compared
    now = {c: probe.find(app.root, f"sv-card-Anne-{c}") for c in SV_HAND}
    assert [c for c in SV_HAND if now[c] is not cards[c]] == [15]   # in the row tapped, only the card picked
    probe.tap(app.root, "sv-card-Anne-3")
    assert probe.find(app.root, "sv-card-Anne-15") is not now[15] and probe.find(app.root, "sv-card-Anne-1") is cards[1]
    for i, player in enumerate(FIVE[2:]):
        probe.tap(app.root, f"sv-card-{player}-{10 - i}")
    probe.tap(app.root, "sv-confirm")                               # the round played: pot and tiles change
    played = _shown(app)
    assert all(played[i] is not after[i] for i in played)
    assert "3" in probe.text_of(app.root, "sv-player-Anne")


def test_kept_parts_still_act_after_a_refusal_and_a_correction(tmp_path):
    service, app, sid = _app_table(tmp_path)
    probe.tap(app.root, "sv-reveal-5")
    for i, player in enumerate(FIVE):
        probe.tap(app.root, f"sv-card-{player}-{15 - i}")
    probe.tap(app.root, "sv-confirm")
    probe.tap(app.root, "sv-reveal-3")                              # the kept reveal pad still reveals
    assert service.open(sid).log[-1].action == {"type": "reveal", "card": 3}
    for i, player in enumerate(FIVE):                               # Anne's 15 is used: refused
        probe.tap(app.root, f"sv-card-{player}-{15 if i == 0 else 1 + i}")
    probe.tap(app.root, "sv-confirm")
    assert probe.has(app.root, "refusal") and len(service.open(sid).log) == 3
    probe.tap(app.root, "sv-card-Anne-1")                           # the picks survive: Anne's real card
    probe.tap(app.root, "sv-confirm")
    assert service.open(sid).log[-1].action == {"type": "play", "cards": {"Anne": 1, "Bruno": 2, "Chloé": 3,
                                                                         "David": 4, "Emma": 5}}
    probe.tap(app.root, "sv-reveal-7")
    probe.tap(app.root, "correct-1")                                # round 1: Anne really played her 6
    for i, player in enumerate(FIVE):                               # no aid: the round entered again
        probe.tap(app.root, f"fix-sv-card-{player}-{6 if i == 0 else 15 - i}")
    probe.tap(app.root, "fix-sv-confirm")
    probe.tap(app.root, "correction-save")
    assert service.open(sid).log[1].action["cards"] == {p: 6 if i == 0 else 15 - i for i, p in enumerate(FIVE)}
    for i, player in enumerate(FIVE):                               # the kept rows enter round 3
        probe.tap(app.root, f"sv-card-{player}-{15 if i == 0 else 6 + i}")
    probe.tap(app.root, "sv-confirm")
    assert service.open(sid).log[-1].action == {"type": "play", "cards": {p: 15 if i == 0 else 6 + i
                                                                         for i, p in enumerate(FIVE)}}


def test_with_the_aid_a_kept_players_tile_follows_each_entry(tmp_path):
    service, app, sid = _app_table(tmp_path, assist=True)
    probe.tap(app.root, "sv-reveal-5")
    tile = probe.find(app.root, "sv-player-Anne")
    assert "15" in probe.text_of(app.root, "sv-hand-left-Anne")
    for i, player in enumerate(FIVE):
        probe.tap(app.root, f"sv-card-{player}-{15 - i}")
    assert probe.find(app.root, "sv-player-Anne") is tile           # picks change nothing it shows
    probe.tap(app.root, "sv-confirm")
    assert probe.find(app.root, "sv-player-Anne") is not tile
    assert "15" not in probe.text_of(app.root, "sv-hand-left-Anne")
    from models.i18n import Msg

    assert probe.text_of(app.root, "sv-score-Anne") == Msg("app.sv.score", {"score": "5"}).render("fr")


def test_on_a_phone_a_player_whose_card_is_entered_folds_to_one_line_and_can_change_it():
    """On a phone the next player's cards come up where the last player's were: a round is entered
    without scrolling. The folded line says the card and unfolds on « Changer »."""
    table = ScreenDriver(screen, state_of([reveal(5)]), "fr", sep=" | ", compact=True)
    table.tap("sv-card-Anne-12")
    assert not table.has("sv-card-Anne-1") and table.has("sv-card-Bruno-1")
    assert table.text("sv-picked-Anne") == "pose le 12" and "pose le 12" in table.text("sv-change-Anne")
    assert table.find("sv-change-Anne").label == "Changer la carte d'Anne (12)"
    assert not table.has("sv-deck-left") and not table.has("sv-missing")  # the round and the rows say it
    table.tap("sv-change-Anne")                 # unfolded, nothing picked for Anne
    assert table.has("sv-card-Anne-12") and table.text("sv-picked-Anne") == "à saisir"
    for player, card in (("Anne", 4), ("Bruno", 9), ("Chloé", 2)):
        table.tap(f"sv-card-{player}-{card}")
    table.tap("sv-confirm")
    assert table.submitted[-1] == play(Anne=4, Bruno=9, Chloé=2)
    wide = Table(state_of([reveal(5)]))         # a tablet keeps every row open
    wide.tap("sv-card-Anne-12")
    assert wide.has("sv-card-Anne-1") and not wide.has("sv-change-Anne")
    assert wide.has("sv-deck-left") and wide.has("sv-missing")


def test_hand_cards_are_kept_from_one_round_to_the_next_and_still_pick(tmp_path):
    service, app, sid = _app_table(tmp_path)
    probe.tap(app.root, "sv-reveal-5")
    before = {p: probe.find(app.root, f"sv-card-{p}-1") for p in FIVE}
    for i, player in enumerate(FIVE):
        probe.tap(app.root, f"sv-card-{player}-{15 - i}")
    probe.tap(app.root, "sv-confirm")
    probe.tap(app.root, "sv-reveal-3")           # a new round: the same cards, neither built nor compared
    assert all(probe.find(app.root, f"sv-card-{p}-1") is before[p] for p in FIVE)
    for player in FIVE:
        probe.tap(app.root, f"sv-card-{player}-1")
    probe.tap(app.root, "sv-confirm")
    assert service.open(sid).log[-1].action == {"type": "play", "cards": {p: 1 for p in FIVE}}


# -- the reveal and the play blocks switched, not rebuilt ---------------------------------------------


def test_the_block_not_expected_stays_on_the_page_hidden_and_holds_no_pick():
    """Both entry blocks stay on the page, only the expected one shown: the hidden one cannot be
    read or tapped, and the hand cards hidden while a point card is revealed hold no pick (the
    last round's picks are gone with its entry: nothing the table may not see)."""
    revealing = Table(state_of([reveal(3), play(Anne=14, Bruno=1, Chloé=2)]))
    assert revealing.has("sv-reveal") and probe.kept_hidden(revealing.root, "sv-play")
    assert not revealing.has("sv-card-Anne-14") and en("app.sv.confirm", n=2) not in revealing.text()
    with pytest.raises(LookupError):
        probe.tap(revealing.root, "sv-confirm")
    hidden = probe.kept_hidden
    assert all(hidden(revealing.root, f"sv-card-{p}-{c}") for p in TABLE for c in SV_HAND)
    assert not [c.identifier for c in ui.walk(revealing.root)
                if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("sv-card-") and c.selected]
    playing = Table(state_of([reveal(3), play(Anne=14, Bruno=1, Chloé=2), reveal(5)]))
    assert playing.has("sv-play") and probe.kept_hidden(playing.root, "sv-reveal")
    assert not playing.has("sv-reveal-7") and en("app.sv.which_card") not in playing.text()


def _correcting(tmp_path, name: str, rounds: list[dict], index: int, *, assist: bool):
    """The table (in English) correcting entry ``index`` of a game of ``rounds``, through the real frame."""
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / f"{name}.db"))
    sid = service.start(GAME, list(TABLE), assist=assist).session_id
    for action in rounds:
        service.submit(sid, action)
    app = App(service, None)
    app.lang = "en"
    app.go("table", session_id=sid)
    probe.tap(app.root, f"correct-{index}")
    return service, app, sid


def _page(root: Any) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Everything the page says: its texts, labels and tooltips, and each identified control's
    semantics (identifier, label, selected, value)."""
    return probe.texts(root), [(c.identifier, c.label, c.selected, c.value) for c in probe.identified(root)]


@pytest.mark.parametrize("assist", [True, False])
def test_correcting_one_card_of_a_round_keeps_the_others(tmp_path, assist):
    # Through the real frame: the pencil on a round opens it with its cards as entered, so the table
    # taps the one card that was wrong, then confirms and saves (it was every card again). With the
    # table aid (which shows what was played) the cards are picked; without it they are kept hidden:
    # each row says « as entered » and no card is lit.
    service, app, sid = _correcting(tmp_path, "fix", [reveal(3), play(Anne=14, Bruno=9, Chloé=2), reveal(5)], 1,
                                    assist=assist)
    assert probe.is_enabled(app.root, "fix-sv-confirm")  # the round's cards are entered already
    for player, card in (("Anne", 14), ("Bruno", 9), ("Chloé", 2)):
        said = en("app.sv.picked", card=card) if assist else en("app.sv.as_entered")
        assert probe.text_of(app.root, f"fix-sv-picked-{player}") == said
        assert probe.find(app.root, f"fix-sv-card-{player}-{card}").selected is assist
    assert probe.has(app.root, "fix-sv-kept-hint") is not assist
    probe.tap(app.root, "fix-sv-card-Bruno-10")          # Bruno really laid the 10
    assert probe.text_of(app.root, "fix-sv-picked-Bruno") == en("app.sv.picked", card=10)
    probe.tap(app.root, "fix-sv-confirm")
    assert en("app.table.preview_ok", n=2) in probe.text_of(app.root, "preview")
    probe.tap(app.root, "correction-save")
    assert service.open(sid).log[1].action == play(Anne=14, Bruno=10, Chloé=2)
    assert len(service.open(sid).log) == 3


# round 1 corrected once round 2 is played: its cards lie under round 2's at the table
UNDER = [reveal(3), play(Anne=14, Bruno=9, Chloé=2), reveal(5), play(Anne=1, Bruno=3, Chloé=4), reveal(7)]
# the same game but for round 1's cards (the same award: Anne's highest card takes the 3)
UNDER_TWIN = [reveal(3), play(Anne=13, Bruno=8, Chloé=1), *UNDER[2:]]


def test_without_the_aid_a_past_rounds_correction_shows_none_of_its_cards(tmp_path):
    """(#38) Opened without the table aid, a past round's correction holds its cards but shows none:
    the page (texts, labels, semantics, the « was » line) is the same whatever they were, no card
    is lit, each row says « as entered »; with the aid the same checks find them (they can fail)."""
    _, app, _ = _correcting(tmp_path, "under", UNDER, 1, assist=False)
    _, twin, _ = _correcting(tmp_path, "twin", UNDER_TWIN, 1, assist=False)
    assert _page(app.root) == _page(twin.root)
    shown = "\n".join(probe.texts(app.root))
    cards = {"Anne": 14, "Bruno": 9, "Chloé": 2}
    for player, card in cards.items():
        assert probe.text_of(app.root, f"fix-sv-picked-{player}") == en("app.sv.as_entered")
        assert en("sv.played_by", player=player, card=card) not in shown
        assert en("app.sv.picked", card=card) not in shown
    assert en("app.sv.log.round_hidden", round=1) in probe.text_of(app.root, "correcting")  # the « was » line
    assert not [c.identifier for c in probe.identified(app.root) if c.selected]
    _, aided, _ = _correcting(tmp_path, "aided", UNDER, 1, assist=True)
    seen = "\n".join(probe.texts(aided.root))
    assert all(en("sv.played_by", player=p, card=c) in probe.text_of(aided.root, "correcting")
               for p, c in cards.items())
    assert all(en("app.sv.picked", card=c) in seen for c in cards.values())


def test_without_the_aid_one_card_tapped_replaces_only_that_players_and_the_preview_keeps_them_hidden(tmp_path):
    service, app, sid = _correcting(tmp_path, "one", UNDER, 1, assist=False)
    probe.tap(app.root, "fix-sv-card-Chloé-5")       # Chloé really laid the 5: shown, the table chose it
    assert probe.text_of(app.root, "fix-sv-picked-Chloé") == en("app.sv.picked", card=5)
    assert probe.find(app.root, "fix-sv-card-Chloé-5").selected
    assert probe.text_of(app.root, "fix-sv-picked-Anne") == en("app.sv.as_entered")
    probe.tap(app.root, "fix-sv-clear")              # the clear takes back the taps only
    assert probe.text_of(app.root, "fix-sv-picked-Chloé") == en("app.sv.as_entered")
    assert probe.is_enabled(app.root, "fix-sv-confirm")
    probe.tap(app.root, "fix-sv-card-Chloé-5")
    probe.tap(app.root, "fix-sv-confirm")
    preview = probe.text_of(app.root, "preview")
    assert en("app.table.preview_ok", n=2) in preview   # « every later entry stays valid »
    assert en("app.sv.log.round_hidden", round=1) in preview
    shown = "\n".join(probe.texts(app.root))
    for player, card in (("Anne", 14), ("Bruno", 9), ("Chloé", 5)):
        assert en("sv.played_by", player=player, card=card) not in shown
    probe.tap(app.root, "correction-save")
    log = service.open(sid).log
    assert log[1].action == play(Anne=14, Bruno=9, Chloé=5) and len(log) == 5
    assert [e.action for e in log[2:]] == UNDER[2:]


def test_on_a_phone_a_kept_card_stays_a_row_and_a_tapped_one_folds():
    """A correction without the aid on a phone: the rows kept « as entered » stay open (the table
    finds the wrong card where it is), a card tapped folds to its line; confirm sends every card."""
    state = state_of([reveal(3)])
    table = ScreenDriver(screen, state, "en", sep=" | ", compact=True)
    table.ctx.draft.update(screen.correction_draft(state, play(Anne=14, Bruno=9, Chloé=2)))
    table.ctx.refresh()
    assert all(table.has(f"sv-card-{p}-1") for p in TABLE) and not table.has("sv-change-Anne")
    assert not table.has("sv-last-cards") and table.has("sv-kept-hint")
    table.tap("sv-card-Bruno-10")
    assert table.has("sv-change-Bruno") and not table.has("sv-card-Bruno-1")
    assert "9" not in table.find("sv-change-Bruno").label
    table.tap("sv-confirm")
    assert table.submitted == [play(Anne=14, Bruno=10, Chloé=2)]
