"""Stupide Vautour referee: rulebook examples, refusals, both tie readings, end rulings."""

import json

import pytest

from models.games.stupide_vautour_actions import SVPlay, SVReveal
from models.i18n import LANGUAGES, Msg, has_text
from models.record import parse_record_data
from scoring.base import RuleViolation
from scoring.referee import verdict_for_text
from scoring.registry import engine_class
from scoring.stupide_vautour import StupideVautourEngine, decide, settle
from tests.conftest import EXAMPLES, as_text

GAME = "stupide-vautour"
RULEBOOK_TABLE = ["Alex", "Chloé", "Camille", "Léo"]


def record(players, actions=(), ties=None):
    data = {"format": "table-record/1", "game": GAME, "players": list(players), "actions": list(actions)}
    if ties:
        data["variant"] = {"ties": ties}
    return data


def engine(players, ties=None):
    return StupideVautourEngine(parse_record_data(record(players, ties=ties)))


def reveal(card):
    return {"type": "reveal", "card": card}


def play(**cards):
    return {"type": "play", "cards": cards}


def run(eng, *actions):
    """Apply dict actions through the record model; return the events of the last one."""
    events = ()
    for action in actions:
        model = SVReveal(**action) if action["type"] == "reveal" else SVPlay(**action)
        events = eng.apply(model)
    return events


def en(msgs):
    return [m.render("en") for m in msgs]


def refused(eng, action):
    before = eng.player_view()
    with pytest.raises(RuleViolation) as info:
        run(eng, action)
    assert eng.player_view() == before, "a refusal must leave the state unchanged"
    for lang in LANGUAGES:
        assert info.value.message(lang)
    return info.value


# --- the registry and the rules reference ---------------------------------------------------


def test_registered_under_its_game_id():
    assert engine_class(GAME) is StupideVautourEngine
    assert StupideVautourEngine.games == (GAME,)


def test_game_and_variant_texts_exist():
    for lang in LANGUAGES:
        for key in ("game.stupide-vautour.name", "game.stupide-vautour.summary",
                    "variant.stupide-vautour.ties.one-level", "variant.stupide-vautour.ties.highest-unique"):
            assert has_text(key, lang), (key, lang)


# --- the rulebook's examples ------------------------------------------------------------------


def test_the_highest_card_takes_the_suricate():
    eng = engine(RULEBOOK_TABLE)
    events = run(eng, reveal(6), play(Alex=3, Chloé=10, Camille=8, Léo=14))
    assert eng.taken["Léo"] == (6,)
    assert eng.scores == {"Alex": 0, "Chloé": 0, "Camille": 0, "Léo": 6}
    assert en(eng.last_award) == ["Léo's 14 is the highest card and takes the 6."]
    assert en(events)[0] == "Round 1 cards: Alex 3, Chloé 10, Camille 8 and Léo 14."
    assert eng.pending == () and eng.pending_mode is None


def test_the_lowest_card_takes_the_vulture():
    eng = engine(RULEBOOK_TABLE)
    run(eng, reveal(-2), play(Alex=5, Chloé=9, Camille=7, Léo=11))
    assert eng.taken["Alex"] == (-2,)
    assert eng.scores["Alex"] == -2
    assert en(eng.last_award) == ["Alex's 5 is the lowest card and takes the -2."]


def test_cancelled_fourteens_give_the_seven_to_the_twelve():
    eng = engine(RULEBOOK_TABLE)
    run(eng, reveal(7), play(Alex=14, Chloé=12, Camille=14, Léo=2))
    assert eng.taken["Chloé"] == (7,)
    assert en(eng.last_award) == ["Alex's 14 and Camille's 14 cancel; Chloé's 12 takes the 7."]
    assert eng.last_award[0].render("fr") == (
        "Égalité, cartes écartées : Alex (14) et Camille (14) ; Chloé prend le 7 avec son 12.")


def test_double_tie_carries_the_four_then_four_and_minus_one_are_played_as_a_suricate():
    eng = engine(RULEBOOK_TABLE)
    run(eng, reveal(4), play(Alex=13, Chloé=9, Camille=13, Léo=9))
    assert not any(eng.taken.values())
    assert eng.pending == (4,)
    assert en(eng.last_award) == [
        "Alex's 13 and Camille's 13 cancel, and the next cards are tied as well: Chloé's 9 and Léo's 9.",
        "Nobody takes the 4: it stays for the next round (pending: 4).",
    ]
    assert en([eng.expected().prompt]) == [
        "Round 2: turn over a point card (14 left in the deck); it joins the 4, still pending."]
    events = run(eng, reveal(-1))
    assert en(events) == ["Round 2: the -1 joins the pending 4: 3 in play, the highest card takes it."]
    assert (eng.pending, eng.pending_sum, eng.pending_mode) == ((4, -1), 3, "suricate")
    run(eng, play(Alex=1, Chloé=2, Camille=3, Léo=15))
    assert eng.taken["Léo"] == (4, -1)
    assert eng.scores["Léo"] == 3
    assert en(eng.last_award) == ["Léo's 15 is the highest card and takes 4 and -1 (3 in all)."]
    assert eng.pending == ()


def test_a_negative_pending_sum_is_played_like_a_vulture():
    eng = engine(["A", "B"])
    run(eng, reveal(2), play(A=7, B=7))
    run(eng, reveal(-5))
    assert (eng.pending_sum, eng.pending_mode) == (-3, "vulture")
    assert en([eng.expected().prompt]) == [
        "Round 2: every player lays one card for 2 and -5 (-3 in all); the lowest card is stuck with it."]
    run(eng, play(A=3, B=4))
    assert eng.taken == {"A": (2, -5), "B": ()}


def test_a_zero_pending_sum_is_played_like_a_suricate():
    eng = engine(["A", "B"])
    run(eng, reveal(3), play(A=7, B=7), reveal(-3))
    assert (eng.pending_sum, eng.pending_mode) == (0, "suricate")
    run(eng, play(A=3, B=4))
    assert eng.taken == {"A": (), "B": (3, -3)}


def test_several_carries_accumulate():
    eng = engine(["A", "B"])
    run(eng, reveal(5), play(A=1, B=1), reveal(-4), play(A=2, B=2), reveal(-3))
    assert eng.pending == (5, -4, -3) and eng.pending_mode == "vulture"
    run(eng, play(A=10, B=9))
    assert eng.taken["B"] == (5, -4, -3)


# --- the shared example -----------------------------------------------------------------------


def test_shared_example_replays_in_progress():
    text = (EXAMPLES / "stupide-vautour-in-progress.json").read_text(encoding="utf-8")
    verdict, status = verdict_for_text(text)
    assert status == 0
    assert verdict.status == "in_progress"
    assert verdict.applied == len(json.loads(text)["actions"]) == 7
    assert verdict.error is None and verdict.result is None


def test_shared_example_state():
    data = json.loads((EXAMPLES / "stupide-vautour-in-progress.json").read_text(encoding="utf-8"))
    eng = StupideVautourEngine(parse_record_data(data))
    for action in parse_record_data(data).actions:
        eng.apply(action)
    assert eng.scores == {"Lou": 0, "Marc": 6, "Nina": 0, "Omar": -2}
    assert (eng.pending, eng.pending_sum, eng.pending_mode) == ((4, -1), 3, "suricate")
    assert eng.round == 4 and eng.round_open and eng.deck_left == 11
    assert eng.last_played == {"Lou": 15, "Marc": 15, "Nina": 15, "Omar": 15}
    assert eng.played_in["Omar"] == {11: 1, 5: 2, 15: 3}
    assert 15 not in eng.hands["Nina"] and len(eng.hands["Nina"]) == 12
    assert eng.expected().players == ("Lou", "Marc", "Nina", "Omar")
    assert eng.expected().types == ("play",)


# --- refusals ---------------------------------------------------------------------------------


def test_a_reveal_while_the_round_is_open_is_refused():
    eng = engine(["Nina", "Omar"])
    run(eng, reveal(6))
    err = refused(eng, reveal(3))
    assert err.rule == "SV-REVEAL-OPEN"
    assert err.message() == ("Round 1 is still open: every player must lay a card for the 6 "
                             "before another point card is turned over.")


def test_a_point_card_revealed_twice_is_refused():
    eng = engine(["Nina", "Omar"])
    run(eng, reveal(6), play(Nina=1, Omar=2), reveal(-3), play(Nina=2, Omar=3))
    err = refused(eng, reveal(6))
    assert err.rule == "SV-REVEAL-REPEAT"
    assert err.message() == "The 6 was already turned over in round 1: each point card comes up only once."
    assert "-3" in refused(eng, reveal(-3)).message()


def test_a_play_before_the_reveal_is_refused():
    eng = engine(["Nina", "Omar"])
    err = refused(eng, play(Nina=1, Omar=2))
    assert err.rule == "SV-PLAY-NO-REVEAL"
    assert "Round 1" in err.message()
    run(eng, reveal(6), play(Nina=1, Omar=2))
    err = refused(eng, play(Nina=3, Omar=4))
    assert err.rule == "SV-PLAY-NO-REVEAL" and "Round 2" in err.message()


def test_a_missing_player_is_refused():
    eng = engine(["Lou", "Nina", "Omar"])
    run(eng, reveal(6))
    err = refused(eng, play(Nina=1))
    assert err.rule == "SV-PLAY-PLAYERS"
    assert err.message() == "Round 1: no card for Lou and Omar; every player lays exactly one card each round."


def test_a_stranger_in_a_hand_built_play_is_refused():
    eng = engine(["Nina", "Omar"])
    run(eng, reveal(6))
    with pytest.raises(RuleViolation) as info:
        eng.apply(SVPlay.model_construct(type="play", cards={"Nina": 1, "Omar": 2, "Zoé": 3}))
    assert info.value.rule == "SV-PLAY-PLAYERS" and "Zoé" in info.value.message()


def test_an_unknown_player_in_a_record_is_malformed():
    data = record(["Nina", "Omar"], [reveal(6), play(Nina=1, Omar=2, Zoé=3)])
    verdict, status = verdict_for_text(as_text(data))
    assert status == 2 and verdict.error.rule == "RECORD" and verdict.error.index == 1


def test_a_card_already_played_is_refused_without_saying_when():
    # when it was played is the players' memory, not what the table shows (only the last cards)
    eng = engine(["Nina", "Omar"])
    for point, n, o in [(1, 1, 2), (2, 2, 3), (3, 3, 4), (4, 9, 5)]:
        run(eng, reveal(point), play(Nina=n, Omar=o))
    run(eng, reveal(5))
    err = refused(eng, play(Nina=9, Omar=6))
    assert err.rule == "SV-PLAY-USED"
    assert err.message() == "Nina already played the 9: it is no longer in hand."
    assert err.message("fr") == "Nina a déjà joué son 9 : il n'est plus dans sa main."


def test_a_used_card_is_refused_in_a_record_verdict():
    actions = [reveal(6), play(Nina=9, Omar=2), reveal(3), play(Nina=4, Omar=9), reveal(1), play(Nina=9, Omar=1)]
    verdict, status = verdict_for_text(as_text(record(["Nina", "Omar"], actions)))
    assert status == 1 and verdict.status == "illegal"
    assert verdict.applied == 5
    assert verdict.error.index == 5 and verdict.error.rule == "SV-PLAY-USED"
    assert verdict.error.message == "Nina already played the 9: it is no longer in hand."


def test_cards_that_do_not_exist_are_refused_when_built_by_hand():
    eng = engine(["Nina", "Omar"])
    with pytest.raises(RuleViolation) as info:
        eng.apply(SVReveal.model_construct(type="reveal", card=0))
    assert info.value.rule == "SV-NO-SUCH-CARD"
    run(eng, reveal(6))
    with pytest.raises(RuleViolation) as info:
        eng.apply(SVPlay.model_construct(type="play", cards={"Nina": 16, "Omar": 2}))
    assert info.value.rule == "SV-NO-SUCH-CARD" and "16" in info.value.message()
    # in a record they are malformed before the engine sees them
    verdict, status = verdict_for_text(as_text(record(["Nina", "Omar"], [reveal(11)])))
    assert status == 2


def full_game(players, ties=None):
    """15 rounds where every player plays the round's number: every point card ties away."""
    points = list(range(1, 11)) + list(range(-1, -6, -1))
    actions = []
    for rnd, point in enumerate(points, start=1):
        actions += [reveal(point), play(**{p: rnd for p in players})]
    return record(players, actions, ties)


def test_nothing_is_accepted_after_the_fifteenth_round():
    data = full_game(["Nina", "Omar"])
    eng = StupideVautourEngine(parse_record_data(data))
    for action in parse_record_data(data).actions:
        eng.apply(action)
    assert eng.finished and eng.expected().types == () and eng.expected().players == ()
    for action in (reveal(6), play(Nina=1, Omar=2)):
        err = refused(eng, action)
        assert err.rule == "SV-GAME-OVER"
        assert err.message() == "The game ended with round 15: no card can be revealed or played any more."
    verdict, status = verdict_for_text(as_text({**data, "actions": data["actions"] + [reveal(3)]}))
    assert status == 1 and verdict.error.rule == "SV-GAME-OVER" and verdict.error.index == 30


def test_check_and_can_change_nothing():
    eng = engine(["Nina", "Omar"])
    assert eng.can(SVReveal(**reveal(6)))
    assert not eng.can(SVPlay(**play(Nina=1, Omar=2)))
    assert eng.revealed == () and eng.expected().types == ("reveal",)


# --- the two tie readings ---------------------------------------------------------------------

FIVE = ["Alex", "Chloé", "Camille", "Léo", "Nina"]
WORKED = dict(Alex=14, Chloé=14, Camille=12, Léo=12, Nina=3)


def test_worked_difference_one_level_carries_over():
    eng = engine(FIVE)
    run(eng, reveal(4), play(**WORKED))
    assert not any(eng.taken.values()) and eng.pending == (4,)
    assert en(eng.last_award)[-1] == "Nobody takes the 4: it stays for the next round (pending: 4)."


def test_worked_difference_highest_unique_gives_it_to_the_three():
    eng = engine(FIVE, ties="highest-unique")
    run(eng, reveal(4), play(**WORKED))
    assert eng.taken["Nina"] == (4,) and eng.pending == ()
    assert en(eng.last_award) == [
        "Set aside because played more than once: Alex's 14, Chloé's 14, Camille's 12 and Léo's 12; "
        "Nina's 3 is the best card played only once and takes the 4."]


def test_default_reading_is_one_level():
    assert engine(FIVE).ties == "one-level"
    assert engine(FIVE, ties="highest-unique").ties == "highest-unique"


@pytest.mark.parametrize("ties", ["one-level", "highest-unique"])
def test_readings_agree_when_the_next_card_is_alone(ties):
    seat = ["A", "B", "C", "D"]
    d = decide({"A": 14, "B": 14, "C": 12, "D": 3}, seat, True, ties)
    assert (d.winner, d.card, d.set_aside) == ("C", 12, (("A", 14), ("B", 14)))
    d = decide({"A": 1, "B": 1, "C": 2, "D": 9}, seat, False, ties)  # a vulture: the next lowest takes
    assert (d.winner, d.card) == ("C", 2)


def test_vulture_ties_mirror_the_suricate_ones():
    seat = ["A", "B", "C", "D", "E"]
    cards = {"A": 1, "B": 1, "C": 2, "D": 2, "E": 9}
    assert decide(cards, seat, False, "one-level").winner is None
    assert decide(cards, seat, False, "one-level").tied_again == (("C", 2), ("D", 2))
    assert decide(cards, seat, False, "highest-unique").winner == "E"


def test_highest_unique_only_mentions_cards_above_the_winner():
    d = decide({"A": 14, "B": 12, "C": 12}, ["A", "B", "C"], True, "highest-unique")
    assert (d.winner, d.set_aside) == ("A", ())
    eng = engine(["A", "B", "C"], ties="highest-unique")
    run(eng, reveal(5), play(A=14, B=12, C=12))
    assert en(eng.last_award) == ["A's 14 is the highest card and takes the 5."]


@pytest.mark.parametrize("ties", ["one-level", "highest-unique"])
def test_everyone_on_the_same_card_means_nobody(ties):
    d = decide({"A": 8, "B": 8}, ["A", "B"], True, ties)
    assert d.winner is None


# --- the end: scores, winners, ranking --------------------------------------------------------


def test_settle_single_winner():
    winners, ranking, why = settle(["A", "B", "C"], {"A": 5, "B": 12, "C": 5})
    assert winners == ("B",)
    assert ranking == (("B", 1), ("A", 2), ("C", 2))
    assert en(why) == ["B has the best score (12) and wins."]


def test_settle_first_place_tie_gives_the_win_to_the_second_best():
    winners, ranking, why = settle(["A", "B", "C", "D"], {"A": 12, "B": 12, "C": 7, "D": -3})
    assert winners == ("C",)
    assert ranking == (("C", 1), ("A", 2), ("B", 2), ("D", 4))
    text = en(why)
    assert text[0].startswith("A and B tie for first place with 12")
    assert text[1] == "C has the second best score (7) and wins."
    assert text[2] == "Ranking: the winner first, then A and B, tied at the top, sharing rank 2, then the others by score."
    _, _, why = settle(["A", "B", "C"], {"A": 12, "B": 12, "C": 7})
    assert en(why)[2] == "Ranking: the winner first, then A and B, tied at the top, sharing rank 2."


def test_settle_second_best_tied_too_shares_the_win():
    winners, ranking, _ = settle(["A", "B", "C", "D", "E"], {"A": 9, "B": 4, "C": 9, "D": 4, "E": 1})
    assert winners == ("B", "D")
    assert ranking == (("B", 1), ("D", 1), ("A", 3), ("C", 3), ("E", 5))


def test_settle_everyone_equal_all_share():
    winners, ranking, why = settle(["A", "B", "C"], {"A": 3, "B": 3, "C": 3})
    assert winners == ("A", "B", "C")
    assert ranking == (("A", 1), ("B", 1), ("C", 1))
    assert "everyone shares the win" in en(why)[0]


def test_the_rulebooks_end_and_ties_are_rules_and_only_what_it_leaves_open_is_a_ruling():
    """« S'il y a encore égalité au score, la carte Points ne peut pas être attribuée » and « c'est le
    joueur avec le deuxième meilleur score qui l'emporte » are the rulebook's: only a shared second
    best score, or nobody below the tie, is the app's ruling (SV-END-TIE); highest-unique is a house
    variant that departs from the rulebook."""
    specs = {spec.id: spec for spec in StupideVautourEngine.rule_specs}
    assert not specs["SV-TIES"].ruling and not specs["SV-END"].ruling and specs["SV-END-TIE"].ruling
    (ties,) = StupideVautourEngine.variants
    assert (ties.default, ties.house) == ("one-level", ("highest-unique",))
    _, _, why = settle(["A", "B", "C"], {"A": 5, "B": 12, "C": 5})
    assert [m.rules for m in why] == [("SV-END",)]
    _, _, why = settle(["A", "B", "C", "D"], {"A": 12, "B": 12, "C": 7, "D": -3})
    assert why[1].rules == ("SV-END",)  # a single second best score: the rulebook's own case
    _, _, why = settle(["A", "B", "C", "D", "E"], {"A": 9, "B": 4, "C": 9, "D": 4, "E": 1})
    assert why[1].rules == ("SV-END", "SV-END-TIE")
    _, _, why = settle(["A", "B", "C"], {"A": 3, "B": 3, "C": 3})
    assert why[0].rules == ("SV-END", "SV-END-TIE")
    ties_en, ties_fr = Msg("rule.SV-TIES.text").render("en"), Msg("rule.SV-TIES.text").render("fr")
    assert "house variant “Unique value”" in ties_en and "variante maison « Valeur unique »" in ties_fr
    assert "reading" not in ties_en and "lecture" not in ties_fr
    assert "ruling" not in Msg("rule.SV-END.title").render("en")


def test_two_players_tied_share_the_win_and_untaken_cards_are_lost():
    data = full_game(["Nina", "Omar"])
    verdict, status = verdict_for_text(as_text(data))
    assert status == 0 and verdict.status == "finished" and verdict.applied == 30
    result = verdict.result
    assert result.scores == {"Nina": 0, "Omar": 0}
    assert result.winners == ["Nina", "Omar"] and not result.replay_required
    assert [(r.player, r.rank) for r in result.ranking] == [("Nina", 1), ("Omar", 1)]
    assert "Lost: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, -2, -3, -4 and -5 were never taken." in result.explanation
    assert result.explanation[-1].startswith("Every player scored 0")


def test_a_full_game_where_the_top_tie_hands_the_win_to_the_second_best():
    # Rounds 1-4 use each player's 1-4 in some order; afterwards everyone plays the same card.
    special = [(10, dict(A=4, B=1, C=2)),   # A takes 10
               (9, dict(A=1, B=4, C=3)),    # B takes 9
               (1, dict(A=2, B=3, C=1)),    # B takes 1
               (5, dict(A=3, B=2, C=4))]    # C takes 5
    actions = []
    for point, cards in special:
        actions += [reveal(point), play(**cards)]
    rest = [2, 3, 4, 6, 7, 8, -1, -2, -3, -4, -5]
    for card, point in zip(range(5, 16), rest):
        actions += [reveal(point), play(A=card, B=card, C=card)]
    verdict, status = verdict_for_text(as_text(record(["A", "B", "C"], actions)))
    assert status == 0 and verdict.status == "finished"
    result = verdict.result
    assert result.scores == {"A": 10, "B": 10, "C": 5}
    assert result.winners == ["C"]
    assert [(r.player, r.rank) for r in result.ranking] == [("C", 1), ("A", 2), ("B", 2)]
    assert result.explanation[:3] == ["A took 10: score 10.", "B took 9 and 1: score 10.", "C took 5: score 5."]
    assert "Lost: 2, 3, 4, 6, 7, 8, -1, -2, -3, -4 and -5 were never taken." in result.explanation
    assert "C has the second best score (5) and wins." in result.explanation
    verdict_fr, _ = verdict_for_text(as_text(record(["A", "B", "C"], actions)), lang="fr")
    assert "C a le deuxième meilleur score (5) et gagne." in verdict_fr.result.explanation


def test_the_last_round_tie_loses_its_points():
    players = ["A", "B"]
    points = list(range(1, 11)) + list(range(-1, -6, -1))
    eng = engine(players)
    for rnd, point in enumerate(points, start=1):
        last = rnd == 15
        run(eng, reveal(point), play(A=rnd, B=15 if last else 15 - rnd))
    assert eng.lost == (-5,)
    assert en(eng.last_award)[-1] == "Lost: the -5 was never taken."
    assert eng.finished and eng.pending == ()


@pytest.mark.parametrize("ties", ["one-level", "highest-unique"])
def test_the_verdicts_fold_refuses_a_card_played_again_as_apply_does(ties):
    """``run`` settles the usual play inline and adds the played cards before it knows whether one was
    played already: a card played again is refused as ``apply`` refuses it, with the state as the
    plays before it left it, and the fold carries on from there."""
    actions = [reveal(5), play(A=3, B=3, C=9), reveal(-2), play(A=4, B=1, C=9), reveal(7)]
    data = record(["A", "B", "C"], actions, ties=ties)
    by_run, by_apply = engine(["A", "B", "C"], ties), engine(["A", "B", "C"], ties)
    parsed = parse_record_data(data).actions
    with pytest.raises(RuleViolation) as ran:
        by_run.run(parsed)
    with pytest.raises(RuleViolation) as applied:
        for action in parsed:
            by_apply.apply(action)
    assert ran.value.rule == applied.value.rule == "SV-PLAY-USED"
    assert ran.value.msg == applied.value.msg and by_run.applied == by_apply.applied == 3
    assert vars(by_run) == vars(by_apply) and by_run.player_view() == by_apply.player_view()
    by_run.run(parse_record_data(record(["A", "B", "C"], [play(A=4, B=1, C=8)])).actions)
    assert by_run.applied == 4 and by_run.played_in["C"] == {9: 1, 8: 2}
    assert en(by_run.last_award) == ["B's 1 is the lowest card and takes the -2."]


@pytest.mark.parametrize("ties", ["one-level", "highest-unique"])
def test_the_verdicts_fold_checks_a_whole_legal_record_at_once_then_settles_it_as_apply_does(ties, monkeypatch):
    """A fresh engine's ``run`` over a list it accepts whole (``_run_whole``) checks it all first, then
    settles every round itself, ties, carries and lost cards included, the plays naming the players in
    any order, and leaves the state ``apply`` leaves; a record that stops after a reveal leaves the
    round open."""
    players = ["A", "B", "C"]
    points = [5, -2, 7, 3, 1, 2, 4, 6, 8, 9, 10, -1, -3, -4, -5]
    rounds = [(3, 3, 1),     # the 3s tied: C's 1 takes the 5
              (2, 2, 5),     # a vulture: the 2s tied, C's 5 takes the -2
              (1, 4, 4),     # the 4s tied, A's 1 takes the 7
              (15, 15, 15),  # every card tied: the 3 is carried over
              (14, 14, 3)]   # the 14s tied, C's 3 takes 3 and 1
    left = [sorted(set(range(1, 16)) - {r[seat] for r in rounds} - {13}) for seat in range(3)]
    rounds += list(zip(*left)) + [(13, 13, 13)]  # the last round tied again: the -5 is lost
    actions = []
    for number, (point, cards) in enumerate(zip(points, rounds)):
        named = dict(zip(players, cards))
        actions += [reveal(point), play(**(dict(reversed(named.items())) if number % 2 else named))]
    for count in (len(actions), 9, 0):
        parsed = parse_record_data(record(players, actions[:count], ties=ties)).actions
        by_apply = engine(players, ties)
        for action in parsed:
            by_apply.apply(action)
        by_run, whole = engine(players, ties), []
        with monkeypatch.context() as patched:
            at_once = StupideVautourEngine._run_whole
            patched.setattr(StupideVautourEngine, "_run_whole", lambda self, got: whole.append(at_once(self, got)) or whole[-1])
            for name in ("_check", "_perform"):
                patched.setattr(StupideVautourEngine, name, lambda *args: pytest.fail("went action by action"))
            by_run.run(parsed)
        assert whole == [True]
        assert vars(by_run) == vars(by_apply) and by_run.applied == count
        assert by_run.outcome() == by_apply.outcome() and by_run.last_award == by_apply.last_award
        if count == len(actions):
            assert by_run.finished and by_run.lost == (-5,) and by_run.taken["C"][:3] == (5, -2, 3)
        elif count == 9:
            assert by_run.round_open and by_run.pending == (3, 1) and by_run.taken["A"] == (7,)
        else:
            assert by_run.player_view() == engine(players, ties).player_view()


@pytest.mark.parametrize("scores,fr_start,en_start", [
    ({"Anne": 10, "Bruno": 10, "Chloé": 5, "David": 1}, "Classement : le gagnant d'abord", "Ranking: the winner first"),
    ({"Anne": 10, "Bruno": 10, "Chloé": 5, "David": 5}, "Classement : les gagnants d'abord",
     "Ranking: the winners first"),
])
def test_the_ranking_note_names_one_winner_in_the_singular(scores, fr_start, en_start):
    """« Classement : le gagnant d'abord » when one player wins, « les gagnants » when several share."""
    from scoring.stupide_vautour import settle_msgs

    note = settle_msgs(list(scores), scores)[-1]
    assert note.render("fr").startswith(fr_start) and note.render("en").startswith(en_start)
