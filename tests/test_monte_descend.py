"""Monte & descend referee: the rulebook's four examples, every refusal, each ruling, the yellow
actions, the take-stacking variant, the reserve, deal points and whole matches through the referee."""

from __future__ import annotations

import copy
import json

import pytest

from models.games.monte_descend import MD_HAND
from models.i18n import LANGUAGES, has_text
from models.record import parse_action
from scoring.base import Event, RuleViolation
from scoring.monte_descend import (
    MonteDescendEngine,
    Phase,
)
from scoring.referee import verdict_for_text
from scoring.registry import engine_class
from tests.conftest import as_text
from tests.support.monte_descend import GAME, draw, drive, engine, pass_, play, record, run, take

TWO = ["Anne", "Bruno"]


# --- builders (the app tests reuse them) --------------------------------------------------------


def refused(eng, action) -> RuleViolation:
    before = copy.deepcopy(eng.state)
    parsed = parse_action(GAME, action, list(eng.players))
    with pytest.raises(RuleViolation) as info:
        eng.check(parsed)
    assert eng.state == before, "check must change nothing"
    with pytest.raises(RuleViolation) as again:
        eng.apply(parsed)
    assert eng.state == before, "a refusal must leave the state exactly as it was"
    assert again.value.rule == info.value.rule
    assert info.value.rule.startswith("MD-")
    for lang in LANGUAGES:
        assert info.value.message(lang)
    return info.value


def en(events):
    return [e.render("en") for e in events]


# --- the registry, rules reference, catalogues ---------------------------------------------------


def test_registered_with_its_rules_and_variants():
    assert engine_class(GAME) is MonteDescendEngine
    assert MonteDescendEngine.rules == tuple(r.id for r in MonteDescendEngine.rule_specs)
    assert len(set(MonteDescendEngine.rules)) == len(MonteDescendEngine.rules)
    sections = [r.section for r in MonteDescendEngine.rule_specs]
    order = ["setup", "turn", "cards", "actions", "play", "series", "end", "advanced"]
    assert sections == sorted(sections, key=order.index), "sections follow the rulebook's order"
    for lang in LANGUAGES:
        for section in order:
            assert has_text(f"section.monte-descend.{section}", lang)
        for key in ("game.monte-descend.name", "game.monte-descend.summary",
                    "variant.monte-descend.take_stacking.false", "variant.monte-descend.take_stacking.true",
                    "variant.monte-descend.deals"):
            assert has_text(key, lang), key
    assert engine().take_stacking is False
    assert engine().deals == 6
    assert engine(["A", "B", "C", "D", "E", "F"]).deals == 12
    assert engine(deals=1, take_stacking=True).deals == 1


def test_the_game_is_called_by_the_name_the_issue_gives():
    from models.i18n import text

    assert text("game.monte-descend.name", "fr") == "Monte & descend (AMIGO, 1998)"
    assert text("game.monte-descend.name", "en") == "Monte & descend (AMIGO, 1998)"


def test_rulings_say_they_are_ours_and_name_their_alternative():
    from models.i18n import text

    rulings = [spec.id for spec in MonteDescendEngine.rule_specs if spec.ruling]
    assert len(rulings) >= 7
    for rule in rulings:
        assert "Our ruling" in text(f"rule.{rule}.text", "en"), rule
        assert "Notre arbitrage" in text(f"rule.{rule}.text", "fr"), rule
        assert any(w in text(f"rule.{rule}.text", "en") for w in ("other reading", "alternative")), rule
    # the next deal's first player and the ranking are the rulebook's, with the app's ruling on ties
    added = [spec.id for spec in MonteDescendEngine.rule_specs if spec.adds_ruling]
    assert added == ["MD-NEXT-START", "MD-RANKING"]
    for rule in added:
        assert "Other reading" in text(f"rule.{rule}.ruling", "en") and "Autre lecture" in text(f"rule.{rule}.ruling", "fr")


def test_a_deal_starts_with_seven_cards_each_and_the_rest_in_the_reserve():
    for n in range(2, 7):
        eng = engine([f"P{i}" for i in range(n)])
        assert eng.table.hands == {p: MD_HAND for p in eng.players}
        assert eng.table.reserve == 64 - 7 * n
        assert eng.card_count() == 64
        assert eng.expected().players == ("P0",) and eng.expected().types == ("play",)


# --- the rulebook's four examples ------------------------------------------------------------------


def test_example_1_red_falls_and_the_blue_of_the_same_value_turns_it_up():
    eng = engine()
    run(eng, play("Pierre", "r8"), play("Sandra", "r3"))
    events = run(eng, play("Jean", "b3"))
    assert eng.table.direction.value == "up"
    assert "turns the direction" in " ".join(en(events))
    assert "MD-SWITCH" in events[0].rules
    # the next cards must climb from 3
    assert refused(eng, play("Pierre", "b2")).rule == "MD-UP"
    run(eng, play("Pierre", "b3"))


def test_example_2_a_yellow_on_the_same_value_and_a_yellow_on_a_yellow_choose_the_direction():
    eng = engine()
    run(eng, play("Pierre", "r15"))
    assert refused(eng, play("Sandra", "y15-chaos")).rule == "MD-DIRECTION"  # the choice must be said
    run(eng, play("Sandra", "y15-chaos", direction="up"))
    assert eng.table.direction.value == "up"
    run(eng, play("Jean", "y6-pass", direction="down"))
    assert eng.table.direction.value == "down" and eng.table.value == 6


def test_example_3_a_series_with_yellows_inside_only_the_last_one_acts():
    eng = engine(first="Sandra")
    run(eng, play("Sandra", "b8"), play("Jean", "b8"))
    # the discard shows a blue 8; Pierre announces 13, 14, 15, 16 going up
    assert refused(eng, play("Pierre", "b13", "y14-skip", "b15", "y16-skip", "r17")).rule == "MD-SERIES-COLOUR"
    assert refused(eng, play("Pierre", "r6")).rule == "MD-SWITCH"
    assert refused(eng, play("Pierre", "r6", "r5")).rule == "MD-SWITCH"
    events = run(eng, play("Pierre", "b13", "y14-skip", "b15", "y16-skip", direction="up"))
    assert eng.table.hands["Pierre"] == 3
    assert eng.table.turn == "Jean", "Sandra misses her turn"
    assert any("MD-ACTION-LAST" in e.rules for e in events)
    assert "Sandra misses a turn" in " ".join(en(events))


def test_example_4_a_series_may_start_with_the_turn_and_empty_the_hand():
    eng = engine(first="Jean", deals=2)
    # Jean lays four cards first, keeping three: the blue 2, 3 and 4
    run(eng, play("Jean", "r9", "r8", "r7", "r6"), play("Pierre", "r4"), play("Sandra", "r2"))
    assert eng.table.hands["Jean"] == 3
    events = run(eng, play("Jean", "b2", "b3", "b4", direction="up"))
    text = " ".join(en(events))
    assert "Jean has no card left and goes out" in text
    line = eng.state.sheet[0]
    assert line.went_out == "Jean"
    assert line.points == {"Pierre": -6, "Sandra": -6, "Jean": 5}
    assert eng.table.number == 2


# --- play rules --------------------------------------------------------------------------------


def test_the_refusal_says_what_would_have_been_allowed():
    eng = engine()
    run(eng, play("Pierre", "r8"))
    violation = refused(eng, play("Sandra", "r9"))
    assert violation.rule == "MD-DOWN"
    assert "on the red 8 going down: a red 8 or lower, a blue 8 to turn, or any yellow" in violation.message("en")
    assert "sur le 8 rouge quand on descend : un 8 rouge ou moins, un 8 bleu pour tourner" in violation.message("fr")


def test_a_yellow_goes_anywhere_and_keeps_the_direction():
    eng = engine()
    run(eng, play("Pierre", "r8"))
    events = run(eng, play("Sandra", "y17-pass"))
    assert eng.table.direction.value == "down" and eng.table.value == 17
    assert "MD-YELLOW" in events[0].rules
    assert refused(eng, play("Jean", "r16", direction="up")).rule == "MD-DIRECTION"
    run(eng, play("Jean", "y3-pass", direction="up"))  # a yellow on a yellow chooses
    assert eng.table.direction.value == "up"


def test_after_a_yellow_the_next_card_follows_its_value_and_the_other_colour_turns_it_ruling():
    eng = engine()
    run(eng, play("Pierre", "b5"), play("Sandra", "y12-chaos"))
    assert refused(eng, play("Jean", "b11")).rule == "MD-UP"
    assert refused(eng, play("Jean", "r11")).rule == "MD-SWITCH"
    events = run(eng, play("Jean", "r12"))
    assert "MD-FOLLOW-YELLOW" in events[0].rules
    assert eng.table.direction.value == "down"
    # the turn on a yellow is the app's ruling, cited beside the rule; a turn on a coloured card is not
    assert ("MD-SWITCH", "MD-YELLOW-SWITCH") in [e.rules for e in events]
    events = run(eng, play("Pierre", "b12"))
    assert ("MD-SWITCH",) in [e.rules for e in events]
    assert not any("MD-YELLOW-SWITCH" in e.rules for e in events)


def test_rule_or_ruling_as_the_rulebook_has_it():
    """The rulebook states these (rules, no other reading); the app decides those (rulings)."""
    specs = {spec.id: spec for spec in MonteDescendEngine.rule_specs}
    rules = ["MD-FOLLOW-YELLOW", "MD-SERIES-COLOUR", "MD-OUT-NO-ACTION", "MD-MATCH-END", "MD-TAKE-LAST",
             "MD-DIRECTION", "MD-FREE", "MD-STACK", "MD-CHAOS"]
    rulings = ["MD-YELLOW-SWITCH", "MD-SKIP-FREE", "MD-STACK-SERIES", "MD-FREE-DIRECTION", "MD-TAKE-ORDER"]
    assert [r for r in rules if specs[r].ruling] == []
    assert [r for r in rulings if not specs[r].ruling] == []
    from models.i18n import text

    for rule in rules:
        for lang, words in (("fr", ("décision", "autre lecture")), ("en", ("ruling", "other reading"))):
            assert not any(w in text(f"rule.{rule}.text", lang).lower() for w in words), (rule, lang)
    # the readings the rulebook rules out are listed, so that no text brings them back
    assert {"MD-OUT-NO-ACTION", "MD-CHAOS", "MD-FOLLOW-YELLOW", "MD-SERIES-COLOUR"} <= set(
        MonteDescendEngine.excluded_readings)


def test_a_direction_where_there_is_no_choice_must_match():
    eng = engine()
    run(eng, play("Pierre", "b5"))
    assert refused(eng, play("Sandra", "b7", direction="down")).rule == "MD-DIRECTION"
    run(eng, play("Sandra", "b7", direction="up"))


def test_series_step_colour_and_end():
    eng = engine()
    run(eng, play("Pierre", "b5"))
    assert refused(eng, play("Sandra", "b6", "b8")).rule == "MD-SERIES"
    assert refused(eng, play("Sandra", "b6", "b6")).rule == "MD-SERIES"
    assert refused(eng, play("Sandra", "b6", "r7")).rule == "MD-SERIES-COLOUR"
    eng2 = engine()
    run(eng2, play("Pierre", "b19"))
    violation = refused(eng2, play("Sandra", "b20", "y1-skip"))
    assert violation.rule == "MD-SERIES" and "nothing can follow" in violation.message("en")
    # a yellow choosing "down" makes a red series
    eng3 = engine()
    run(eng3, play("Pierre", "y10-pass", direction="down"))
    assert refused(eng3, play("Sandra", "y10-skip", "b9", direction="down")).rule == "MD-SERIES-COLOUR"
    run(eng3, play("Sandra", "y10-skip", "r9", "r8", direction="down"))


def test_a_play_of_more_cards_than_held_is_refused():
    eng = engine(TWO)
    violation = refused(eng, play("Anne", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"))
    assert violation.rule == "MD-HAND"
    assert "7 cards" in violation.message("en") and "7 cartes" in violation.message("fr")


def test_turn_order_and_strangers():
    eng = engine()
    assert refused(eng, play("Sandra", "b5")).rule == "MD-TURN"
    assert "C'est à Pierre de jouer, pas à Sandra." == refused(eng, play("Sandra", "b5")).message("fr")


def test_draw_then_only_that_card_or_pass():
    eng = engine()
    run(eng, play("Pierre", "b10"))
    run(eng, draw("Sandra"))
    assert eng.table.phase is Phase.DRAWN and eng.table.hands["Sandra"] == 8
    assert refused(eng, draw("Sandra")).rule == "MD-DRAW"
    assert refused(eng, play("Sandra", "b11", "b12")).rule == "MD-DRAW-ONE"
    assert refused(eng, play("Sandra", "b9")).rule == "MD-UP"
    run(eng, pass_("Sandra"))
    assert eng.table.turn == "Jean"
    assert refused(eng, pass_("Jean")).rule == "MD-PASS"
    run(eng, draw("Jean"), play("Jean", "b11"))
    assert eng.table.turn == "Pierre" and eng.table.hands["Jean"] == 7


def test_free_play_when_the_own_card_is_still_on_top():
    eng = engine()
    run(eng, play("Pierre", "b18"), draw("Sandra"), pass_("Sandra"), draw("Jean"), pass_("Jean"))
    assert eng.free_play and eng.table.turn == "Pierre"
    assert refused(eng, draw("Pierre")).rule == "MD-DRAW"
    events = run(eng, play("Pierre", "r2"))
    assert "MD-FREE" in events[0].rules
    assert eng.table.direction.value == "down"


def test_first_card_of_a_deal_is_a_free_play_ruling():
    eng = engine()
    violation = refused(eng, draw("Pierre"))
    assert violation.rule == "MD-DRAW"
    assert refused(eng, play("Pierre", "y3-skip")).rule == "MD-FREE-DIRECTION"  # a free yellow chooses (ruling)
    events = run(eng, play("Pierre", "y3-skip", direction="down"))
    assert "MD-FIRST-CARD" in events[0].rules and "MD-FREE-DIRECTION" in events[0].rules
    assert "MD-DIRECTION" not in events[0].rules


# --- yellow actions ------------------------------------------------------------------------------


def test_skip_with_two_players_gives_a_free_play_ruling():
    eng = engine(TWO)
    events = run(eng, play("Anne", "b3"), play("Bruno", "y9-skip"))
    assert eng.table.turn == "Bruno" and eng.free_play
    assert eng.table.skipped == "Anne"
    assert "MD-SKIP-FREE" in events[-1].rules and "free play" in en(events)[-1]
    events = run(eng, play("Bruno", "r2"))  # any card: the ruling is cited on the free play
    assert events[0].rules[:2] == ("MD-FREE", "MD-SKIP-FREE")
    # with three players a skip passes one player and the next one follows as usual
    eng = engine()
    events = run(eng, play("Pierre", "b3"), play("Sandra", "y9-skip"))
    assert "MD-SKIP-FREE" not in events[-1].rules and eng.table.turn == "Pierre" and not eng.free_play


def test_take_hits_the_next_player_who_takes_from_two_others_then_plays():
    eng = engine()
    run(eng, play("Pierre", "y5-take", direction="up"))
    assert eng.expected().types == ("take",) and eng.expected().players == ("Sandra",)
    assert refused(eng, play("Sandra", "b6")).rule == "MD-TAKE-FIRST"
    assert refused(eng, draw("Sandra")).rule == "MD-TAKE-FIRST"
    assert refused(eng, take("Sandra", "Jean", count=1)).rule == "MD-TAKE"
    assert refused(eng, take("Sandra", "Jean", "Jean")).rule == "MD-TAKE"
    assert refused(eng, take("Sandra", "Sandra", "Jean")).rule == "MD-TAKE"
    assert refused(eng, take("Sandra", "Pierre", "Jean", count=2)).rule == "MD-TAKE"
    assert refused(eng, take("Jean", "Pierre", "Sandra")).rule == "MD-TURN"
    run(eng, take("Sandra", "Pierre", "Jean"))
    assert eng.table.hands == {"Pierre": 5, "Sandra": 9, "Jean": 6}
    assert eng.table.turn == "Sandra" and eng.expected().types == ("play", "draw")
    assert refused(eng, take("Sandra", "Pierre", "Jean")).rule == "MD-TAKE"


def test_take_with_two_players_is_one_card_from_the_opponent():
    eng = engine(TWO)
    run(eng, play("Anne", "y5-take", direction="up"))
    assert refused(eng, take("Bruno", "Anne", "Anne")).rule == "MD-TAKE"
    run(eng, take("Bruno", "Anne"))
    assert eng.table.hands == {"Anne": 5, "Bruno": 8}


def test_taking_a_last_card_makes_that_player_go_out_ruling():
    eng = engine(first="Jean")
    run(eng, play("Jean", "b1", "b2", "b3", "b4", "b5"), play("Pierre", "b5"), play("Sandra", "b6"))
    run(eng, play("Jean", "y6-take", direction="up"))  # Jean keeps 1 card
    assert eng.table.hands["Jean"] == 1
    events = run(eng, take("Pierre", "Jean", "Sandra"))
    assert "MD-TAKE-LAST" in events[1].rules
    assert "MD-TAKE-ORDER" in events[1].rules, "Sandra, named after Jean, was not taken from: the order decided"
    line = eng.state.sheet[0]
    assert line.went_out == "Jean"
    assert line.left == {"Pierre": 7, "Sandra": 6, "Jean": 0}, "Sandra's card was not taken: the deal ended"
    assert line.points == {"Pierre": -7, "Sandra": -6, "Jean": 5}


def test_the_order_of_a_take_is_cited_only_when_a_later_named_player_was_spared():
    eng = engine(first="Jean")
    run(eng, play("Jean", "b1", "b2", "b3", "b4", "b5"), play("Pierre", "b5"), play("Sandra", "b6"))
    run(eng, play("Jean", "y6-take", direction="up"))
    events = run(eng, take("Pierre", "Sandra", "Jean"))  # Jean named last: both were taken from
    out = [e for e in events if "MD-TAKE-LAST" in e.rules]
    assert out and "MD-TAKE-ORDER" not in out[0].rules
    assert eng.state.sheet[0].left == {"Pierre": 8, "Sandra": 5, "Jean": 0}


def test_pass_cards_keeps_the_counts():
    eng = engine()
    run(eng, play("Pierre", "y5-pass", direction="up"))
    assert eng.table.hands == {"Pierre": 6, "Sandra": 7, "Jean": 7} and eng.table.turn == "Sandra"


def test_chaos_deals_the_hands_out_equally_and_puts_the_rest_under_the_reserve():
    eng = engine()
    run(eng, play("Pierre", "y5-pass", direction="up"))
    reserve = eng.table.reserve
    events = run(eng, play("Sandra", "y5-chaos", direction="down"))  # 6 + 6 + 7 = 19 cards: 6 each, 1 left
    assert "MD-CHAOS" in events[-1].rules
    assert eng.table.hands == {"Pierre": 6, "Sandra": 6, "Jean": 6} and eng.table.turn == "Jean"
    assert eng.table.reserve == reserve + 1 and eng.card_count() == 64
    assert eng.table.chaos == (6, 1)
    assert "6 cards each; the rest goes under the reserve: 1 card left over (reserve: 44)" in en(events)[-1]
    assert "6 cartes chacun ; le reste va sous la réserve : 1 carte en trop (réserve : 44)" in events[-1].render("fr")
    run(eng, draw("Jean"))
    assert eng.table.chaos is None, "the screen's line about the chaos lasts until the next entry"


def test_chaos_with_two_players_one_card_against_six_gives_three_each():
    eng = engine(TWO)
    run(eng, play("Anne", "b1", "b2", "b3", "b4", "b5", "b6"))  # Anne holds 1 card
    events = run(eng, play("Bruno", "y9-chaos"))             # Bruno 6: 7 cards, 3 each, 1 under
    assert eng.table.hands == {"Anne": 3, "Bruno": 3}
    assert eng.table.reserve == 64 - 14 + 1 and eng.card_count() == 64
    assert "3 cards each" in en(events)[-1]
    # Anne really holds three cards: a series of two is hers to lay, and she does not go out
    run(eng, play("Anne", "b9", "b10"))
    assert eng.table.hands == {"Anne": 1, "Bruno": 3} and not eng.state.sheet


def test_an_even_chaos_puts_nothing_under_the_reserve():
    eng = engine(TWO)
    events = run(eng, play("Anne", "b1", "b2"), play("Bruno", "y9-chaos"))  # 5 + 6 = 11: 5 each, 1 under
    assert eng.table.hands == {"Anne": 5, "Bruno": 5}
    eng = engine(TWO)
    events = run(eng, play("Anne", "b1"), play("Bruno", "y9-chaos"))  # 6 + 6 = 12: 6 each, none under
    assert eng.table.hands == {"Anne": 6, "Bruno": 6} and eng.table.reserve == 50
    assert "under the reserve" not in en(events)[-1] and "6 cards each" in en(events)[-1]


def test_the_cards_put_under_the_reserve_are_drawn_before_it_runs_out():
    """The remainder is part of the reserve, drawn last: the reserve is rebuilt one draw later."""
    eng = engine(TWO)
    run(eng, play("Anne", "b1", "b2", "b3", "b4", "b5", "b6"), play("Bruno", "y9-chaos"))
    assert eng.table.reserve == 51
    draws = 0
    while eng.table.runouts == 0:
        p = eng.table.turn
        run(eng, draw(p))  # each player draws a blue 20 and lays it: the hands stay at three
        draws += 1
        if eng.table.runouts == 0:
            run(eng, play(p, "b20"))
    assert draws == 51 and eng.table.number == 1 and eng.card_count() == 64


def test_a_yellow_that_empties_the_hand_does_not_act_ruling():
    eng = engine(TWO, first="Bruno")
    run(eng, play("Bruno", "b1", "b2", "b3", "b4", "b5", "b6"), play("Anne", "b6"))
    events = run(eng, play("Bruno", "y9-skip"))
    assert any("MD-OUT-NO-ACTION" in e.rules for e in events)
    assert eng.state.sheet[0].went_out == "Bruno"


def test_take_stacking_the_answer_grows_the_count():
    eng = engine(take_stacking=True)
    run(eng, play("Pierre", "y5-take", direction="up"))
    assert eng.expected().types == ("take", "play")
    assert refused(eng, play("Sandra", "b6")).rule == "MD-TAKE-FIRST"
    assert refused(eng, draw("Sandra")).rule == "MD-TAKE-FIRST"
    events = run(eng, play("Sandra", "y9-take", direction="up"))
    assert any("MD-STACK" in e.rules for e in events)
    assert not any("MD-STACK-SERIES" in e.rules for e in events), "a single take card: the rule, no ruling"
    assert eng.table.turn == "Jean" and eng.table.take_count == 2
    assert refused(eng, take("Jean", "Pierre", "Sandra", count=1)).rule == "MD-TAKE"
    # Jean answers with a series that ends with a take: the count grows again
    events = run(eng, play("Jean", "b9", "b10", "y11-take"))
    assert any("MD-STACK-SERIES" in e.rules for e in events), "an answer by a series is the app's ruling"
    assert eng.table.turn == "Pierre" and eng.table.take_count == 3
    run(eng, take("Pierre", "Sandra", "Jean", count=3))
    assert eng.table.hands == {"Pierre": 12, "Sandra": 3, "Jean": 1}
    assert eng.card_count() == 64


def test_without_stacking_a_take_cannot_be_answered():
    eng = engine()
    run(eng, play("Pierre", "y5-take", direction="up"))
    assert refused(eng, play("Sandra", "y9-take")).rule == "MD-TAKE-FIRST"


# --- the reserve, deal points, next deal, match end --------------------------------------------------


def _draw_round(eng, players):
    for p in players:
        run(eng, draw(p), pass_(p))


def test_the_reserve_is_rebuilt_once_then_the_deal_ends_ruling():
    eng = engine(TWO, deals=2)
    run(eng, play("Anne", "b20"))
    assert eng.table.reserve == 50 and eng.table.discard == 1
    rebuilt = []
    draws = 0
    while eng.table.number == 1:
        p = eng.table.turn
        events = run(eng, draw(p))  # each player draws a blue 20 and lays it
        draws += 1
        assert eng.card_count() == 64
        if any("MD-RESERVE" in e.rules for e in events) and eng.table.number == 1:
            rebuilt = en(events)
            assert eng.table.reserve == 49 and eng.table.discard == 1 and eng.reshuffles_left == 0
        if eng.table.number == 1:
            run(eng, play(p, "b20"))
    assert draws == 50 + 49
    assert "new reserve (49)" in rebuilt[-1]
    line = eng.state.sheet[0]
    assert line.went_out is None
    assert line.left == {"Anne": 6, "Bruno": 8}, "Bruno drew the last card and keeps it"
    assert line.points == {"Anne": -6, "Bruno": -8}
    assert eng.table.number == 2 and eng.table.reserve == 50


def test_a_reserve_that_cannot_be_rebuilt_ends_the_deal_ruling():
    # Unreachable from a real deal (someone always lays a card before the reserve runs out), so the
    # counts are set by hand: one card left in the reserve, only the top card on the discard pile.
    eng = engine(TWO, deals=2)
    run(eng, play("Anne", "b20"))
    t = eng.table
    t.reserve, t.hands["Anne"] = 1, t.hands["Anne"] + 49
    assert eng.card_count() == 64
    events = run(eng, draw("Bruno"))
    assert "nothing lies under the top card" in " ".join(en(events))
    assert eng.state.sheet[0].went_out is None and eng.state.sheet[0].left == {"Anne": 55, "Bruno": 8}


def test_after_a_draw_the_pad_highlights_no_second_card():
    eng = engine()
    run(eng, play("Pierre", "b10"), draw("Sandra"))
    assert eng.fits(["b11"]) and not eng.fits(["b11", "b12"])


def test_next_deal_fewest_points_start_ties_nearest_left_of_previous_ruling():
    players = ["A", "B", "C", "D"]
    eng = engine(players, deals=3)
    # deal 1: A goes out at once? A needs 7 cards: a series of 7
    events = run(eng, play("A", "b1", "b2", "b3", "b4", "b5", "b6", "b7"))
    assert eng.state.totals == {"A": 5, "B": -7, "C": -7, "D": -7}
    # B, C and D tie on -7: the nearest to the left of A (the previous starter) is B
    assert eng.table.starter == "B" and eng.table.turn == "B"
    assert "MD-NEXT-START" in events[-1].rules
    run(eng, play("B", "r7", "r6", "r5", "r4", "r3", "r2", "r1"))
    assert eng.state.totals == {"A": -2, "B": -2, "C": -14, "D": -14}
    assert eng.table.starter == "C"  # C and D tie: C is nearest to the left of B
    run(eng, play("C", "b14", "b15", "b16", "b17", "b18", "b19", "b20"))
    assert eng.state.over
    outcome = eng.outcome()
    assert outcome.scores == {"A": -9, "B": -9, "C": -9, "D": -21}
    assert outcome.winners == ("A", "B", "C")
    assert outcome.ranking == (("A", 1), ("B", 1), ("C", 1), ("D", 4))
    assert all(isinstance(m, Event) and m.rules for m in outcome.explanation)
    assert "share the win" in outcome.explanation[-1].render("en")
    assert refused(eng, play("D", "b1")).rule == "MD-MATCH-OVER"
    assert eng.expected().types == ()


def test_previous_starter_is_last_among_tied_players():
    eng = engine(TWO, deals=3)
    run(eng, play("Anne", "b1", "b2", "b3", "b4", "b5", "b6", "b7"))
    assert eng.table.starter == "Bruno"
    run(eng, play("Bruno", "b1", "b2", "b3", "b4", "b5", "b6"), draw("Anne"), play("Anne", "b6"),
        play("Bruno", "b20"))
    # 5 - 7 = -2 for Anne, -7 + 5 = -2 for Bruno: tied; the nearest to the left of Bruno is Anne
    assert eng.state.totals == {"Anne": -2, "Bruno": -2}
    assert eng.table.starter == "Anne"


# --- whole matches through the referee (and the command line) ----------------------------------------


@pytest.mark.parametrize("stacking", [False, True])
@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_complete_matches_are_refereed_for_2_to_6_players(count, stacking):
    players = ["Anne", "Bruno", "Chloé", "David", "Élise", "Farid"][:count]
    eng, actions = drive(players, seed=count * 10 + stacking, take_stacking=stacking)
    assert eng.state.over and len(eng.state.sheet) == 2 * count
    data = record(players, actions, take_stacking=stacking)
    verdict, status = verdict_for_text(as_text(data))
    assert (status, verdict.status, verdict.applied) == (0, "finished", len(actions))
    assert verdict.result.scores == eng.state.totals
    assert verdict.result.winners == list(eng.outcome().winners)
    # an extra action after the end is refused with its rule
    data["actions"].append(play(players[0], "b1"))
    verdict, status = verdict_for_text(as_text(data))
    assert (status, verdict.error.rule, verdict.error.index) == (1, "MD-MATCH-OVER", len(actions))


def test_companion_replay_on_a_match_file(tmp_path):
    from tests.support.cli import replay

    players = ["Anne", "Bruno", "Chloé"]
    _, actions = drive(players, seed=7, deals=2, take_stacking=True)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record(players, actions, take_stacking=True, deals=2), ensure_ascii=False))
    status, verdict, _ = replay(str(path), "--lang", "fr")
    assert status == 0 and verdict["status"] == "finished"
    assert sorted(verdict["result"]["scores"]) == sorted(players)
    assert verdict["result"]["explanation"][0].startswith("Donne 1")
    # the same match with a play out of turn inserted: exit 1 and the rule
    bad = list(actions)
    bad.insert(1, play(players[2], "y3-skip", direction="up"))
    path.write_text(json.dumps(record(players, bad, deals=2)))
    status, verdict, _ = replay(str(path))
    assert status == 1 and verdict["error"] == {"index": 1, "rule": "MD-TURN", "message": verdict["error"]["message"]}


def test_malformed_monte_descend_records_exit_2(make_record):
    for actions in ([{"type": "play", "player": "A", "cards": ["b21"]}],
                    [{"type": "play", "player": "A", "cards": []}],
                    [{"type": "take", "player": "A", "from": ["Z"], "count": 1}],
                    [{"type": "play", "player": "A", "cards": ["b2"], "direction": "sideways"}]):
        verdict, status = verdict_for_text(as_text(make_record(GAME, ["A", "B"], actions=actions)))
        assert status == 2 and verdict.error.rule == "RECORD", actions
    for variant in ({"deals": 0}, {"deals": "4"}, {"take_stacking": "yes"}, {"rounds": 3}):
        verdict, status = verdict_for_text(as_text(make_record(GAME, ["A", "B"], variant=variant)))
        assert status == 2, variant


# --- every refusal, at least once --------------------------------------------------------------------

REFUSALS = {
    "MD-HAND": ([], play("Pierre", *[f"b{v}" for v in range(1, 9)])),
    "MD-TURN": ([], draw("Jean")),
    "MD-UP": ([play("Pierre", "b9")], play("Sandra", "b8")),
    "MD-DOWN": ([play("Pierre", "r9")], play("Sandra", "r10")),
    "MD-SWITCH": ([play("Pierre", "r9")], play("Sandra", "b10")),
    "MD-DIRECTION": ([play("Pierre", "r9")], play("Sandra", "y9-skip")),
    "MD-FREE-DIRECTION": ([], play("Pierre", "y9-skip")),
    "MD-TAKE": ([play("Pierre", "r9")], take("Sandra", "Pierre", "Jean")),
    "MD-TAKE-FIRST": ([play("Pierre", "y9-take", direction="up")], play("Sandra", "b10")),
    "MD-DRAW": ([], draw("Pierre")),
    "MD-DRAW-ONE": ([play("Pierre", "r9"), draw("Sandra")], play("Sandra", "r8", "r7")),
    "MD-PASS": ([play("Pierre", "r9")], pass_("Sandra")),
    "MD-SERIES": ([play("Pierre", "r9")], play("Sandra", "r8", "r6")),
    "MD-SERIES-COLOUR": ([play("Pierre", "r9")], play("Sandra", "r8", "b7")),
    "MD-MATCH-OVER": ([play("Pierre", *[f"r{v}" for v in range(7, 0, -1)])], play("Sandra", "b1")),
}


def test_every_refusal_of_the_rules_reference_is_exercised():
    refusals = {r.id for r in MonteDescendEngine.rule_specs if r.refusal}
    assert refusals == set(REFUSALS)


@pytest.mark.parametrize("rule", sorted(REFUSALS))
def test_each_refusal(rule):
    before, action = REFUSALS[rule]
    eng = engine(deals=1)
    run(eng, *before)
    violation = refused(eng, action)
    assert violation.rule == rule
