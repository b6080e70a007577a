"""High Society / Animalement Vôtre referee: rulebook examples, refusals, theft, full games checked by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from models.i18n import LANGUAGES, Msg, dialect, has_text, render
from models.record import parse_action, parse_record_data
from scoring.base import RuleViolation
from scoring.high_society import CARD_ORDER, HighSocietyEngine
from scoring.referee import verdict_for_text
from scoring.registry import engine_class
from tests.conftest import EXAMPLES

EXAMPLE = EXAMPLES / "high-society-in-progress.json"


# -- helpers ----------------------------------------------------------------------------------


def R(card):
    return {"type": "reveal", "card": card}


def B(player, *add):
    return {"type": "bid", "player": player, "add": list(add)}


def P(player):
    return {"type": "pass", "player": player}


def D(player, card):
    return {"type": "discard", "player": player, "card": card}


def record(players, actions, game="high-society", first=None, variant=None):
    data = {"format": "table-record/1", "game": game, "players": players, "actions": actions}
    if first:
        data["first_player"] = first
    if variant:
        data["variant"] = variant
    return parse_record_data(data)


def play(players, actions, **kw):
    """An engine after these actions, and every event they produced (in English)."""
    rec = record(players, actions, **kw)
    engine = HighSocietyEngine(rec)
    events = []
    for action in rec.actions:
        events.extend(m.render("en") for m in engine.apply(action))
    return engine, events


def act(engine, data):
    return [m.render("en") for m in engine.apply(parse_action(engine.game, data, list(engine.players)))]


def refused(engine, data):
    """Apply an action that must be refused; the state must stay exactly as it was."""
    before = dict(engine.player_view())
    history = engine.applied
    with pytest.raises(RuleViolation) as caught:
        engine.apply(parse_action(engine.game, data, list(engine.players)))
    assert dict(engine.player_view()) == before
    assert engine.applied == history
    violation = caught.value
    assert violation.rule in HighSocietyEngine.rules
    for lang in LANGUAGES:
        violation.message(lang)  # renders, every parameter present
    return violation


def verdict(rec_data):
    v, status = verdict_for_text(json.dumps(rec_data))
    return v, status


# -- registration and the shared example ------------------------------------------------------


def test_both_editions_are_registered():
    assert engine_class("high-society") is HighSocietyEngine
    assert engine_class("animalement-votre") is HighSocietyEngine


def test_shared_example_replays_in_progress():
    text = EXAMPLE.read_text(encoding="utf-8")
    v, status = verdict_for_text(text)
    assert status == 0
    assert v.status == "in_progress"
    assert v.applied == len(json.loads(text)["actions"]) == 11
    assert v.error is None and v.result is None
    v_fr, status_fr = verdict_for_text(text, lang="fr")
    assert status_fr == 0 and v_fr.status == "in_progress"


def test_shared_example_state_matches_the_worked_explanation():
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    engine, events = play(data["players"], data["actions"], first=data["first_player"])
    # Marc buys the 6 for 3 + 4; Nina and Lou took their bids back.
    assert "Marc takes Possession 6 for 7." in events
    assert "Nina passes and takes back the 4 they had bid." in events
    assert "Lou passes and takes back the 6 they had bid." in events
    # Nina passes first on the debt: she takes it, Marc's 1 is lost.
    assert "Nina is the first to pass and takes Gambling debt −5, keeping their money." in events
    assert "Marc loses the open bid of 1 to the discard." in events
    assert engine.collections == {"Lou": (), "Marc": ("p6",), "Nina": ("minus5",), "Omar": ()}
    assert engine.spent["Marc"] == {1: 2, 3: 1, 4: 1}
    assert engine.money_left == {"Lou": 106, "Marc": 98, "Nina": 106, "Omar": 106}
    assert engine.card is None and engine.turn is None and engine.round == 2
    assert engine.starter == "Nina"
    exp = engine.expected()
    assert exp.types == ("reveal",)
    assert exp.prompt.render("en") == "Nina reveals the next card (round 3)."
    assert engine.deck_left["x2"] == 3 and "p6" not in engine.deck_left and "minus5" not in engine.deck_left
    assert sum(engine.deck_left.values()) == 14
    assert engine.scores() == {"Lou": 0, "Marc": 6, "Nina": -5, "Omar": 0}
    assert not engine.finished and engine.outcome() is None


# -- rulebook worked examples -----------------------------------------------------------------

AV_PLAYERS = ["Sandra", "Natacha", "Alexandre", "Sylvie"]


def test_auction_reaching_27_animalement_votre():
    engine, events = play(AV_PLAYERS, [R("x2")], game="animalement-votre")
    assert engine.turn == "Sandra"  # the first player reveals and bids first
    act(engine, B("Sandra", 20))
    act(engine, B("Natacha", 25))
    act(engine, P("Alexandre"))
    assert engine.expected().players == ("Sylvie",)
    assert engine.bid_to_beat == 25
    act(engine, B("Sylvie", 25, 1))
    assert engine.turn == "Sandra"
    act(engine, P("Sandra"))
    assert engine.turn == "Natacha"  # Alexandre passed: skipped
    assert engine.bid_to_beat == 26
    act(engine, B("Natacha", 2))
    assert engine.bid_totals["Natacha"] == 27
    last = act(engine, P("Sylvie"))
    assert "Natacha takes ×2 animal for 27." in last
    assert engine.collections["Natacha"] == ("x2",)
    assert engine.spent["Natacha"] == {2: 1, 25: 1}
    assert engine.money_left == {"Sandra": 106, "Natacha": 79, "Alexandre": 106, "Sylvie": 106}
    assert engine.starter == "Natacha" and engine.card is None
    assert engine.reds_revealed == 1


def test_misfortune_example_first_pass_takes_the_minus5():
    engine, _ = play(["Natacha", "Alexandre", "Sandra", "Sylvie"], [R("minus5")], game="animalement-votre")
    act(engine, B("Natacha", 4))
    act(engine, B("Alexandre", 3, 2))  # 5: there is no 5 card
    act(engine, B("Sandra", 3, 4))  # 7
    act(engine, B("Sylvie", 10))
    act(engine, B("Natacha", 8, 1))  # 4 + 8 + 1 = 13
    assert engine.turn == "Alexandre" and engine.bid_to_beat == 13
    events = act(engine, P("Alexandre"))
    assert events[0] == "Alexandre passes and takes back the 5 they had bid."
    assert "Alexandre is the first to pass and takes Cat got your tongue −5, keeping their money." in events
    assert {"Natacha loses the open bid of 13 to the discard.", "Sandra loses the open bid of 7 to the discard.",
            "Sylvie loses the open bid of 10 to the discard."} <= set(events)
    assert engine.collections["Alexandre"] == ("minus5",)
    assert engine.money_left == {"Sandra": 99, "Natacha": 93, "Alexandre": 106, "Sylvie": 96}
    assert engine.spent["Natacha"] == {1: 1, 4: 1, 8: 1}
    assert engine.hands["Alexandre"] == (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
    assert engine.starter == "Alexandre" and engine.passed == ()


def _collect(players, owner, cards, game="high-society"):
    """A game in which ``owner`` receives ``cards`` in order (misfortunes by passing first,
    the others by bidding the smallest free money card while everyone else passes)."""
    engine, _ = play(players, [], game=game, first=owner)
    for card in cards:
        act(engine, R(card))
        if card in ("minus5", "half", "theft"):
            assert engine.turn == owner  # the receiver of the last card reveals and acts first
            act(engine, P(owner))
        else:
            act(engine, B(owner, engine.hands[owner][0]))
            while engine.card is not None:
                act(engine, P(engine.turn))
        assert engine.starter == owner
    return engine


def test_fourteen_point_total_high_society():
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["p3", "p9", "minus5", "x2", "x2", "half"])
    act(engine, R("x2"))  # the fourth red card: the end
    out = engine.outcome()
    assert out.scores["Anne"] == 14
    line = [m.render("en") for m in out.explanation if m.params.get("player") == "Anne" and m.key == "hs.explain.score"]
    assert line == ["Anne: 3 + 9 − 5 = 7, ×2 = 14, ×2 = 28, ×½ = 14"]


def test_seven_point_total_animalement_votre():
    # The camel and the rabbit add up to 12; which cards they are is unknown, both splits score 7.
    for pair in (["p3", "p9"], ["p5", "p7"]):
        engine = _collect(["Sandra", "Natacha", "Sylvie"], "Sandra", pair + ["minus5", "x2", "half"],
                          game="animalement-votre")
        assert engine.scores()["Sandra"] == 7
        calc = next(m for m in _score_lines(engine) if m.params["player"] == "Sandra")
        first, second = (int(c[1:]) for c in pair)
        assert calc.render("en") == f"Sandra: {first} + {second} − 5 = 7, ×2 = 14, ×½ = 7"


def test_three_instead_of_six_animalement_votre():
    engine = _collect(["Sandra", "Natacha", "Sylvie"], "Sandra", ["half", "p2", "p4"], game="animalement-votre")
    assert engine.scores()["Sandra"] == 3
    assert engine.card_label("p2").render("fr") == "Taupe 2"
    assert engine.card_label("p4").render("en") == "Mule 4"
    calc = next(m for m in _score_lines(engine) if m.params["player"] == "Sandra")
    assert calc.render("en") == "Sandra: 2 + 4 = 6, ×½ = 3"


def _score_lines(engine):
    from models.i18n import Msg

    return [Msg("hs.explain.score", {"player": p, "calc": engine.score_breakdown(p)}) for p in engine.players]


def test_halves_and_negatives_are_exact():
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["p7", "half"])
    assert engine.scores()["Anne"] == Fraction(7, 2)
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["p1", "minus5", "x2", "half"])
    assert engine.scores()["Anne"] == -4  # (1 - 5) × 2 × ½, no floor at 0
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["minus5", "x2", "half", "p2"])
    assert engine.scores()["Anne"] == Fraction(-3, 1)
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["minus5", "half"])
    assert engine.scores()["Anne"] == Fraction(-5, 2)
    line = next(m for m in _score_lines(engine) if m.params["player"] == "Anne")
    assert line.render("en") == "Anne: 0 − 5 = -5, ×½ = -2.5"
    assert line.render("fr") == "Anne : 0 − 5 = -5, ×½ = -2,5"


# -- refusals ---------------------------------------------------------------------------------

EX_PLAYERS = ["Lou", "Marc", "Nina", "Omar"]


def _example_engine(upto):
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    engine, _ = play(data["players"], data["actions"][:upto], first=data["first_player"])
    return engine


def test_no_round_open():
    engine = _example_engine(0)
    v = refused(engine, B("Marc", 3))
    assert v.rule == "HS-NO-ROUND"
    assert v.message("en") == "No card is up for auction, so Marc cannot bid or pass: Marc must reveal the next card first."
    assert refused(engine, P("Lou")).rule == "HS-NO-ROUND"


def test_round_open_refuses_a_reveal():
    engine = _example_engine(2)
    v = refused(engine, R("p7"))
    assert v.rule == "HS-ROUND-OPEN"
    assert "Possession 6 is still being auctioned (Nina to play)" in v.message("en")


def test_turn_says_whose_turn_it_is():
    engine = _example_engine(1)  # p6 revealed: Marc bids first
    v = refused(engine, B("Nina", 4))
    assert v.rule == "HS-TURN"
    assert v.message("en") == "It is not Nina's turn: Marc plays now."
    assert v.message("fr") == "Ce n'est pas à Nina de jouer : c'est à Marc."
    engine = _example_engine(2)
    assert refused(engine, P("Lou")).rule == "HS-TURN"  # Nina's turn


def test_passed_player_is_out_of_the_round():
    engine = _example_engine(4)  # Omar passed, Lou to play
    v = refused(engine, B("Omar", 25))
    assert v.rule == "HS-PASSED"
    assert v.message("en") == "Omar already passed on Possession 6 and is out of this round; Lou plays now."


def test_bid_needs_a_card_and_distinct_values():
    engine = _example_engine(1)
    assert refused(engine, B("Marc")).rule == "HS-BID-EMPTY"
    v = refused(engine, B("Marc", 4, 4))
    assert v.rule == "HS-MONEY-DUPLICATE"
    assert v.message("en") == "Marc has only one 4: it cannot be laid twice in the same bid."


def test_money_already_on_the_table():
    engine = _example_engine(5)  # Marc 3, Nina 4, Omar passed, Lou 6: Marc to play
    v = refused(engine, B("Marc", 3, 10))
    assert v.rule == "HS-MONEY-ON-TABLE"
    assert v.message("en") == "Marc's 3 is already in their open bid (3): a raise can only add cards from the hand."


def test_money_spent_says_in_which_round():
    engine = _example_engine(9)  # round 2 (the debt) is open, Marc to bid
    v = refused(engine, B("Marc", 3))
    assert v.rule == "HS-MONEY-SPENT"
    assert v.message("en") == "Marc's 3 is gone: it was paid in round 1."
    assert v.message("fr") == "Marc n'a plus son 3 : il a été payé au tour 1."
    act(engine, B("Marc", 1))
    act(engine, P("Nina"))
    act(engine, R("p2"))  # Nina reveals and starts
    act(engine, P("Nina"))
    act(engine, P("Omar"))
    act(engine, B("Lou", 2))
    v = refused(engine, B("Marc", 1, 6))
    assert v.message("en") == "Marc's 1 is gone: it was paid in round 2."


def test_bid_must_beat_every_other_open_bid():
    engine = _example_engine(2)  # Marc 3: Nina to play
    v = refused(engine, B("Nina", 3))  # equal is not enough
    assert v.rule == "HS-BID-RAISE"
    assert v.message("en") == "A bid of 3 is too low for Nina: it must be more than 3, Marc's bid."
    engine = _example_engine(5)  # Marc 3, Nina 4, Lou 6: Marc adds
    v = refused(engine, B("Marc", 2))  # 3 + 2 = 5, Lou has 6
    assert v.message("en") == "A bid of 5 is too low for Marc: it must be more than 6, Lou's bid."
    assert v.message("fr") == "Une mise de 5 est trop faible pour Marc : il faut plus de 6, la mise de Lou."
    assert engine.bid_to_beat == 6
    assert "bid more than 6 in total, or pass" in engine.expected().prompt.render("en")


def test_reveal_of_a_card_no_longer_in_the_deck():
    engine = _example_engine(8)  # the 6 went in round 1
    v = refused(engine, R("p6"))
    assert v.rule == "HS-REVEAL-GONE"
    assert v.message("en") == "Possession 6 cannot be revealed: it already came up in round 1 and is no longer in the deck."
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["x2", "x2", "x2"])
    assert engine.reds_revealed == 3 and not engine.finished
    v = refused(engine, R("x2"))  # three copies only
    assert v.rule == "HS-REVEAL-GONE"
    assert v.message("en") == "Title ×2 cannot be revealed: all 3 copies are already out of the deck."


def test_fourth_red_card_ends_the_game_and_nothing_follows():
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["x2", "p5", "half", "x2"])
    assert engine.reds_revealed == 3
    events = act(engine, R("x2"))
    assert events == ["Anne reveals Title ×2, the fourth red-bordered card: the game ends at once and this card is "
                      "not auctioned."]
    assert engine.finished and engine.ending_card == "x2" and engine.card is None
    assert engine.collections["Anne"] == ("x2", "p5", "half", "x2")  # the fourth red card is nobody's
    assert engine.expected().types == () and engine.expected().players == ()
    for action in (R("p1"), B("Anne", 25), P("Bruno"), D("Anne", "p5")):
        v = refused(engine, action)
        assert v.rule == "HS-GAME-OVER"
    assert "Title ×2, the fourth red-bordered card, ended it" in v.message("en")


def test_discard_not_due():
    engine = _example_engine(8)
    v = refused(engine, D("Marc", "p6"))
    assert v.rule == "HS-DISCARD-NOT-DUE"


# -- the theft --------------------------------------------------------------------------------


def test_theft_with_possessions_requires_a_discard_first():
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["p3", "x2", "p8"])
    act(engine, R("theft"))
    events = act(engine, P("Anne"))
    assert "Anne owns possessions and must now discard one of them with the theft: Possession 3 and Possession 8." in events
    assert engine.discard_required == "Anne"
    exp = engine.expected()
    assert exp.players == ("Anne",) and exp.types == ("discard",)
    assert exp.prompt.render("en") == "Anne must discard one possession because of the theft: Possession 3 and Possession 8."
    for action in (R("p1"), B("Bruno", 1), P("Anne"), D("Bruno", "p3")):
        v = refused(engine, action)
        assert v.rule == "HS-DISCARD-REQUIRED"
        assert v.message("en") == "Anne must first discard one possession because of the theft (Possession 3 and Possession 8)."
    v = refused(engine, D("Anne", "x2"))
    assert v.rule == "HS-DISCARD-CARD"
    assert v.message("en") == ("Anne cannot discard Title ×2: it is not one of their possessions. "
                               "Choose one of: Possession 3 and Possession 8.")
    assert refused(engine, D("Anne", "p5")).rule == "HS-DISCARD-CARD"
    events = act(engine, D("Anne", "p3"))
    assert events[0] == "Anne discards Possession 3 together with the theft card."
    assert engine.collections["Anne"] == ("x2", "p8")
    assert engine.discarded == ("p3", "theft")
    assert engine.discard_required is None and engine.starter == "Anne"
    assert engine.expected().types == ("reveal",)
    assert engine.scores()["Anne"] == 16
    assert refused(engine, D("Anne", "p8")).rule == "HS-DISCARD-NOT-DUE"


def test_pending_theft_takes_the_next_possession_and_is_paid():
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["theft"])
    assert engine.theft_pending == "Anne" and engine.discard_required is None
    assert engine.collections["Anne"] == ("theft",)
    act(engine, R("x2"))  # a title is not a possession: the theft keeps waiting
    act(engine, B("Anne", 1))
    act(engine, P("Bruno"))
    act(engine, P("Chloé"))
    assert engine.theft_pending == "Anne" and engine.collections["Anne"] == ("theft", "x2")
    act(engine, R("p9"))
    act(engine, B("Anne", 12))
    act(engine, P("Bruno"))
    events = act(engine, P("Chloé"))
    assert events[1:3] == ["Anne takes Possession 9 for 12.",
                           "The waiting theft takes Possession 9 from Anne: both cards leave the game."]
    assert engine.theft_pending is None
    assert engine.collections["Anne"] == ("x2",)
    assert engine.discarded == ("p9", "theft")
    assert engine.spent["Anne"] == {1: 2, 12: 3}  # the possession was still paid for
    assert engine.scores()["Anne"] == 0
    act(engine, R("p10"))  # the theft is spent: the next possession stays
    act(engine, P("Anne"))
    act(engine, P("Bruno"))
    assert engine.collections["Chloé"] == ("p10",)


def test_pending_theft_has_no_effect_if_the_game_ends_first():
    engine = _collect(["Anne", "Bruno", "Chloé"], "Bruno", ["theft", "x2", "x2", "half"])
    act(engine, R("x2"))
    out = engine.outcome()
    assert out.scores["Bruno"] == 0
    texts = [m.render("en") for m in out.explanation]
    assert "The theft waiting for Bruno's next possession never struck: it has no effect." in texts


# -- full games, outcomes checked by hand ------------------------------------------------------

G1 = ["Anne", "Bruno", "Chloé", "David"]
GAME_POOREST = [
    R("p7"), B("Anne", 20), P("Bruno"), B("Chloé", 25), P("David"), B("Anne", 6), P("Chloé"),  # Anne 26
    R("p3"), P("Anne"), B("Bruno", 4), P("Chloé"), B("David", 6), B("Bruno", 3), P("David"),  # Bruno 7
    R("half"), B("Bruno", 1), B("Chloé", 2), P("David"),  # David takes the scandal; Bruno 1, Chloé 2 lost
    R("x2"), B("David", 10), P("Anne"), P("Bruno"), B("Chloé", 12), P("David"),  # Chloé 12
    R("p5"), P("Chloé"), B("David", 1), P("Anne"), P("Bruno"),  # David 1
    R("x2"), P("David"), P("Anne"), B("Bruno", 25), P("Chloé"),  # Bruno 25
    R("x2"),  # fourth red card
]


def test_full_game_the_poorest_is_out_whatever_the_score():
    engine, _ = play(G1, GAME_POOREST)
    assert engine.money_left == {"Anne": 80, "Bruno": 73, "Chloé": 92, "David": 105}
    out = engine.outcome()
    assert out.scores == {"Anne": 7, "Bruno": 6, "Chloé": 0, "David": Fraction(5, 2)}
    assert out.eliminated == ("Bruno",)
    assert out.winners == ("Anne",) and not out.replay_required
    assert out.ranking == (("Anne", 1), ("David", 2), ("Chloé", 3), ("Bruno", 4))
    assert [m.render("en") for m in out.explanation] == [
        "The game ended when Title ×2, the fourth red-bordered card, was revealed; it was not auctioned.",
        "Bruno has the least money left (73) and is out.",
        "Anne: 7",
        "Bruno: 3, ×2 = 6",
        "Chloé: 0, ×2 = 0",
        "David: 5, ×½ = 2.5",
        "Anne has the best score among the players still in (7) and wins.",
    ]
    fr = [m.render("fr") for m in out.explanation]
    assert "Bruno a le moins d'argent restant (73) et est hors jeu." in fr
    assert "David : 5, ×½ = 2,5" in fr
    v, status = verdict({"format": "table-record/1", "game": "high-society", "players": G1, "actions": GAME_POOREST})
    assert status == 0 and v.status == "finished" and v.applied == len(GAME_POOREST)
    assert v.result.scores == {"Anne": 7, "Bruno": 6, "Chloé": 0, "David": 2.5}
    assert [(e.player, e.rank) for e in v.result.ranking] == list(out.ranking)


def test_record_refused_after_the_end_is_illegal_with_index():
    actions = GAME_POOREST + [R("p1")]
    v, status = verdict({"format": "table-record/1", "game": "high-society", "players": G1, "actions": actions})
    assert status == 1 and v.status == "illegal"
    assert v.applied == len(GAME_POOREST) and v.error.index == len(GAME_POOREST)
    assert v.error.rule == "HS-GAME-OVER"


GAME_ALL_EQUAL = [
    R("x2"), P("Anne"), P("Bruno"),  # Chloé free
    R("x2"), P("Chloé"), P("Anne"),  # Bruno free
    R("half"), P("Bruno"),  # Bruno passes first
    R("x2"),
]


def test_full_game_all_players_tied_for_least_money_are_all_out():
    engine, events = play(["Anne", "Bruno", "Chloé"], GAME_ALL_EQUAL)
    assert "Everyone else passed: Chloé takes Title ×2 for free." in events
    out = engine.outcome()
    assert out.eliminated == ("Anne", "Bruno", "Chloé")
    assert out.winners == () and not out.replay_required
    assert out.ranking == (("Anne", 1), ("Bruno", 1), ("Chloé", 1))
    assert ("Every player has the same money left (106): they are all the poorest, all out, and nobody wins."
            in [m.render("en") for m in out.explanation])


GAME_MONEY_TIE = [
    R("p4"), B("Anne", 10), P("Bruno"), P("Chloé"),
    R("p1"), P("Anne"), B("Bruno", 1), P("Chloé"),
    R("p3"), B("Bruno", 2), P("Chloé"), P("Anne"),
    R("p2"), P("Bruno"), B("Chloé", 25), P("Anne"),
    R("x2"), B("Chloé", 1), P("Anne"), P("Bruno"),
    R("x2"), B("Chloé", 3), P("Anne"), P("Bruno"),
    R("half"), P("Chloé"),
    R("x2"),
]


def test_full_game_equal_scores_more_money_wins():
    engine, _ = play(["Anne", "Bruno", "Chloé"], GAME_MONEY_TIE)
    out = engine.outcome()
    assert out.scores == {"Anne": 4, "Bruno": 4, "Chloé": 4}
    assert engine.money_left == {"Anne": 96, "Bruno": 103, "Chloé": 77}
    assert out.eliminated == ("Chloé",)
    assert out.winners == ("Bruno",) and not out.replay_required
    assert out.ranking == (("Bruno", 1), ("Anne", 2), ("Chloé", 3))
    assert ("Anne and Bruno tie for the best score (4); Bruno has the most money left (103, against 96) and wins."
            in [m.render("en") for m in out.explanation])


GAME_FULL_TIE = [
    R("p5"), B("Anne", 6), P("Bruno"), P("Chloé"),
    R("p2"), P("Anne"), B("Bruno", 2), P("Chloé"),
    R("p3"), B("Bruno", 4), P("Chloé"), P("Anne"),
    R("x2"), P("Bruno"), B("Chloé", 25), P("Anne"),
    R("x2"), B("Chloé", 20), P("Anne"), P("Bruno"),
    R("half"), P("Chloé"),
    R("x2"),
]


@pytest.mark.parametrize("game,variant,replay", [
    ("high-society", None, True),
    ("high-society", {"final_tie": "shared"}, False),
    ("animalement-votre", None, False),
    ("animalement-votre", {"final_tie": "replay"}, True),
])
def test_full_game_final_tie_replay_or_shared(game, variant, replay):
    engine, _ = play(["Anne", "Bruno", "Chloé"], GAME_FULL_TIE, game=game, variant=variant)
    out = engine.outcome()
    assert out.scores == {"Anne": 5, "Bruno": 5, "Chloé": 0}
    assert engine.money_left == {"Anne": 100, "Bruno": 100, "Chloé": 61}
    assert out.eliminated == ("Chloé",)
    assert out.ranking == (("Anne", 1), ("Bruno", 1), ("Chloé", 3))
    with dialect(game):  # each edition's own words
        texts = [m.render("en") for m in out.explanation]
    assert "Anne and Bruno tie for the best score (5) with the same money left (100)." in texts
    assert out.replay_required is replay
    if replay and game == "animalement-votre":  # its rulebook shares the win: replaying is the table's house variant
        assert out.winners == ()
        assert ("Nothing separates Anne and Bruno: this table plays the house variant 'replay' (the Animalement "
                "Vôtre rulebook would make them all winners), so nobody wins this one.") in texts
        assert not any("the rules call for a new game" in t for t in texts)
    elif replay:
        assert out.winners == ()
        assert ("Nothing separates Anne and Bruno: the rules call for a new game, so nobody wins this one "
                "(final tie: replay).") in texts
    else:
        assert out.winners == ("Anne", "Bruno")
        assert "Nothing separates Anne and Bruno: they share the win (final tie: shared)." in texts
    data = {"format": "table-record/1", "game": game, "players": ["Anne", "Bruno", "Chloé"], "actions": GAME_FULL_TIE}
    if variant:
        data["variant"] = variant
    v, status = verdict(data)
    assert status == 0 and v.result.replay_required is replay and v.result.winners == list(out.winners)
    assert v.result.explanation == texts


def test_each_edition_states_its_own_final_tie_and_the_other_is_a_house_variant():
    (spec,) = HighSocietyEngine.variants
    assert {g: (spec.default_for(g, 3), spec.house_for(g)) for g in HighSocietyEngine.games} == {
        "high-society": ("replay", ("shared",)), "animalement-votre": ("shared", ("replay",))}
    for lang, house, nobody in (("fr", "variante maison", "autre lecture"), ("en", "house variant", "other reading")):
        hs = Msg("rule.HS-FINAL-TIE.text").render(lang)
        with dialect("animalement-votre"):
            av = Msg("rule.HS-FINAL-TIE.text").render(lang)
        assert hs != av
        for text in (hs, av):
            assert house in text and nobody not in text.lower()
    assert "nouvelle partie" in Msg("rule.HS-FINAL-TIE.text").render("fr")
    with dialect("animalement-votre"):
        assert "fait gagner tous les ex æquo" in Msg("rule.HS-FINAL-TIE.text").render("fr")


def test_animalement_votre_youngest_player_starts():
    with dialect("animalement-votre"):
        assert "plus jeune joueur commence" in Msg("rule.HS-AUCTION.text").render("fr")
        assert "youngest player starts" in Msg("rule.HS-AUCTION.text").render("en")
    assert "choisi par la table" in Msg("rule.HS-AUCTION.text").render("fr")  # High Society's: the table chooses


def test_animal_names_the_rulebook_does_not_give_are_said_to_be_the_apps():
    with dialect("animalement-votre"):
        fr, en = Msg("rule.HS-REVEAL-GONE.text").render("fr"), Msg("rule.HS-REVEAL-GONE.text").render("en")
    assert "taupe (2)" in fr and "mule (4)" in fr and "sont ceux de l'application" in fr
    assert "Poule 1" in fr and "Baleine 10" in fr
    assert "mole (2)" in en and "Whale 10" in en and "are the app's" in en


def test_the_score_is_the_rulebooks_and_its_exactness_a_separate_ruling():
    specs = {spec.id: spec for spec in HighSocietyEngine.rule_specs}
    assert not specs["HS-SCORE"].ruling and specs["HS-SCORE-EXACT"].ruling
    assert not specs["HS-POOREST"].ruling and not specs["HS-FINAL-TIE"].ruling
    # a negative total cites the ruling; a plain one only the rulebook's count
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["p1", "minus5", "x2", "x2", "x2"])
    act(engine, R("half"))  # the fourth red card: the end
    lines = {m.params["player"]: m.rules for m in engine.outcome().explanation if m.key == "hs.explain.score"}
    assert engine.scores()["Anne"] == -32
    assert lines == {"Anne": ("HS-SCORE", "HS-SCORE-EXACT"), "Bruno": ("HS-SCORE",), "Chloé": ("HS-SCORE",)}


def test_animalement_votre_waiting_sickness_takes_the_next_animal_bought_even_a_x2():
    """« la prochaine carte d'animal qu'il achètera »: any animal card bought, a ×2 one too (High
    Society's theft waits for a possession: see test_pending_theft_takes_the_next_possession_and_is_paid)."""
    engine = _collect(["Anne", "Bruno", "Chloé"], "Anne", ["theft"], game="animalement-votre")
    assert engine.theft_pending == "Anne"
    act(engine, R("minus5"))
    act(engine, P("Anne"))  # taken by passing first, not bought: the card keeps waiting
    assert engine.theft_pending == "Anne"
    act(engine, R("x2"))
    act(engine, B("Anne", 1))
    act(engine, P("Bruno"))
    with dialect("animalement-votre"):
        events = act(engine, P("Chloé"))
    assert "“Malade comme un chien” takes ×2 animal, won by Anne: both cards are discarded." in events
    assert engine.theft_pending is None
    assert engine.collections["Anne"] == ("minus5",) and engine.discarded == ("x2", "theft")
    assert engine.reds_revealed == 1  # still a light-blue card towards the end
    act(engine, R("p9"))  # the card is spent: the next animal stays
    act(engine, B("Anne", 12))
    act(engine, P("Bruno"))
    act(engine, P("Chloé"))
    assert engine.collections["Anne"] == ("minus5", "p9")


def test_three_tied_two_richest_cannot_be_separated():
    # Anne 5 (p5, paid 6), Bruno 5 (p2 + p3, paid 6), David 5 (p1 + p4, paid 10): David has less money.
    actions = [
        R("p5"), B("Anne", 6), P("Bruno"), P("Chloé"), P("David"),
        R("p2"), P("Anne"), B("Bruno", 2), P("Chloé"), P("David"),
        R("p3"), B("Bruno", 4), P("Chloé"), P("David"), P("Anne"),
        R("p1"), P("Bruno"), P("Chloé"), B("David", 4), P("Anne"),
        R("p4"), B("David", 6), P("Anne"), P("Bruno"), P("Chloé"),
        R("x2"), P("David"), P("Anne"), P("Bruno"),  # Chloé free
        R("x2"), B("Chloé", 25), P("David"), P("Anne"), P("Bruno"),
        R("half"), P("Chloé"),
        R("x2"),
    ]
    engine, _ = play(G1, actions, variant={"final_tie": "shared"})
    out = engine.outcome()
    assert out.scores == {"Anne": 5, "Bruno": 5, "Chloé": 0, "David": 5}
    assert out.eliminated == ("Chloé",)
    assert out.winners == ("Anne", "Bruno")
    assert out.ranking == (("Anne", 1), ("Bruno", 1), ("David", 3), ("Chloé", 4))
    assert ("Anne, Bruno and David tie for the best score (5); Anne and Bruno have the most money left (100) and "
            "cannot be separated.") in [m.render("en") for m in out.explanation]


# -- catalogue ---------------------------------------------------------------------------------


def test_game_variant_and_card_labels_in_both_languages():
    for lang in LANGUAGES:
        for game in HighSocietyEngine.games:
            for key in (f"game.{game}.name", f"game.{game}.summary",
                        f"variant.{game}.final_tie.replay", f"variant.{game}.final_tie.shared"):
                assert has_text(key, lang), (key, lang)
            for card in CARD_ORDER:
                assert has_text(f"hs.card.{game}.{card}", lang), (game, card, lang)
    av = HighSocietyEngine(record(["A", "B", "C"], [], game="animalement-votre"))
    assert av.card_label("p6").render("en") == "Animal 6"
    assert av.card_label("p1").render("fr") == "Poule 1"
    assert av.card_label("p10").render("fr") == "Baleine 10"
    hs = HighSocietyEngine(record(["A", "B", "C"], []))
    assert hs.card_label("minus5").render("en") == "Gambling debt −5"
    assert hs.card_label("theft").render("fr") == "Vol"


def test_both_catalogue_files_have_the_same_keys():
    root = Path(__file__).resolve().parents[1] / "assets" / "i18n"
    en = json.loads((root / "en" / "high-society.json").read_text(encoding="utf-8"))
    fr = json.loads((root / "fr" / "high-society.json").read_text(encoding="utf-8"))
    assert set(en) == set(fr)


def test_actions_parsed_from_plain_data_are_applied():
    engine = HighSocietyEngine(record(["A", "B", "C"], []))
    act(engine, {"type": "reveal", "card": "p4"})
    act(engine, {"type": "bid", "player": "A", "add": [3]})
    assert engine.bid_totals["A"] == 3
    assert render(engine.expected().prompt, "fr") == "À B de jouer sur Possession 4 : miser plus de 3 au total, ou passer."
