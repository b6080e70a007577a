"""Animalia's referee: every ANI- refusal, each ruling, the rulebook's examples, replays for 2–6 players."""

from __future__ import annotations

import random
from typing import Any

import pytest

from models.i18n import catalogue
from models.record import parse_action, parse_record_data
from scoring.animalia import AnimaliaEngine, Phase
from scoring.base import RuleViolation
from tests.support.animalia import (
    NAMES,
    SEASON,
    A,
    B,
    C,
    act,
    at_phase3,
    do,
    engine,
    give,
    legal_actions,
    phase1,
    play_random,
    record,
    snapshot,
)

# -- helpers for scripted scenes ------------------------------------------------------------------


def refused(eng: AnimaliaEngine, rule: str, **data: Any) -> RuleViolation:
    """The action is refused with ``rule`` and leaves the state exactly as it was."""
    before = snapshot(eng)
    with pytest.raises(RuleViolation) as caught:
        eng.apply(act(eng, data))
    assert caught.value.rule == rule, caught.value
    assert snapshot(eng) == before
    for lang in ("fr", "en"):
        assert caught.value.message(lang)
    return caught.value


def keys(events: list[Any]) -> list[str]:
    return [e.key for e in events]


def rules_of(events: list[Any]) -> set[str]:
    return {r for e in events for r in e.rules}


# -- set-up and phase 1 ------------------------------------------------------------------------------


def test_cute_animals_are_out_with_two_to_four_players_and_in_with_five():
    for n in (2, 3, 4):
        eng = engine(n)
        refused(eng, "ANI-SETUP-CUTE", type="draw", card="dog-cute")
        assert len(eng.deck) == 31
    eng = engine(5)
    assert len(eng.deck) == 36
    do(eng, type="draw", card="dog-cute")


def test_the_lot_goes_left_then_grows_to_three_and_the_dealer_must_take_it():
    eng = engine(3)
    assert eng.expected().types == ("draw",)
    do(eng, type="draw", card="cat-champion")
    assert eng.expected().players == (A,) and eng.expected().types == ("take", "pass")
    do(eng, type="pass", player=A)
    do(eng, type="pass", player=B)
    events = do(eng, type="pass", player=C)
    assert "ani.event.back_draw" in keys(events) and eng.holder is None
    refused(eng, "ANI-TURN", type="take", player=A)
    events = do(eng, type="draw", card="dog-dandy")
    assert keys(events) == ["ani.event.grows"] and eng.holder == A
    for p in (A, B, C):
        do(eng, type="pass", player=p)
    do(eng, type="draw", card="horse-spy")
    for p in (A, B):
        do(eng, type="pass", player=p)
    events = do(eng, type="pass", player=C)
    assert "ani.event.back_forced_three" in keys(events) and eng.forced
    assert eng.expected().types == ("take",)
    refused(eng, "ANI-FORCED-TAKE", type="pass", player=A)
    events = do(eng, type="take", player=A)
    assert eng.collections[(A, 0)] == ["cat-champion", "dog-dandy", "horse-spy"]
    assert eng.dealer == B and "ani.event.dealer" in keys(events)


def test_refusals_of_the_turn_and_of_the_deck():
    eng = engine(3)
    refused(eng, "ANI-TURN", type="pass", player=A)  # nothing drawn yet
    do(eng, type="draw", card="owl")
    refused(eng, "ANI-TURN", type="take", player=B)
    refused(eng, "ANI-TURN", type="draw", card="cat-spy")  # the lot is offered
    refused(eng, "ANI-PHASE", type="bonus", player=A, card="cat-spy")
    refused(eng, "ANI-PHASE", type="medals", player=A, medals={})
    refused(eng, "ANI-POWER-NOT-ACTIVE", type="power", player=A, power="spy")
    do(eng, type="take", player=A)
    error = refused(eng, "ANI-NOT-IN-DECK", type="draw", card="owl")
    assert "collection" in error.message("en")


def test_mael_the_dealer_with_four_cards_must_take_the_card_everyone_passed():
    eng = engine(3)
    # four rounds: Anne deals again, holding 4 cards
    for i in range(4):
        for player in (A, B, C):
            give(eng, SEASON[player][i], player)
    assert eng.dealer == A and len(eng.collections[(A, 0)]) == 4
    do(eng, type="draw", card="owl")
    do(eng, type="pass", player=A)
    do(eng, type="pass", player=B)
    events = do(eng, type="pass", player=C)
    assert "ani.event.back_forced_complete" in keys(events)
    refused(eng, "ANI-FORCED-TAKE", type="pass", player=A)
    do(eng, type="take", player=A)
    assert len(eng.collections[(A, 0)]) == 5


def test_noemi_with_three_cards_is_skipped_by_a_lot_of_three_and_complete_players_are_skipped():
    eng = engine(3)
    for i in range(3):
        for player in (A, B, C):
            give(eng, SEASON[player][i], player)
    # Anne deals: a lot of 1 goes round, then 2 cards: back at Anne it completes her collection
    do(eng, type="draw", card="dog-dandy")
    for p in (A, B, C):
        do(eng, type="pass", player=p)
    do(eng, type="draw", card="owl")
    do(eng, type="pass", player=A)
    assert eng.holder == B  # 3 + 2 = 5: Bruno may hold it
    do(eng, type="pass", player=B)
    events = do(eng, type="pass", player=C)
    assert "ani.event.back_forced_complete" in keys(events)  # the 2-card lot completes Anne's collection
    do(eng, type="take", player=A)
    assert len(eng.collections[(A, 0)]) == 5 and eng.dealer == B
    # Bruno deals a lot of one: Anne (complete) is skipped
    do(eng, type="draw", card="horse-scruffy")
    do(eng, type="pass", player=B)
    events = do(eng, type="pass", player=C)
    assert "ani.event.skipped" in keys(events) and events[0].params["players"] == [A]
    assert eng.holder is None  # back at Bruno (3 cards + 1 does not complete): he draws again
    do(eng, type="draw", card="dog-scruffy")
    assert eng.holder == B
    do(eng, type="pass", player=B)
    events = do(eng, type="pass", player=C)
    assert "ani.event.back_forced_complete" in keys(events)  # 3 + 2 completes Bruno's collection
    refused(eng, "ANI-FORCED-TAKE", type="pass", player=B)


def test_a_lot_of_three_skips_noemi_who_holds_three_cards():
    eng = engine(3)
    give(eng, "cat-champion", A)  # Anne deals
    for name in ("rabbit-scruffy", "parrot-scruffy", "cat-scruffy"):  # Chloé gets 3 cards
        give(eng, name, C)
    assert eng.dealer == B and len(eng.collections[(C, 0)]) == 3
    do(eng, type="draw", card="owl")
    do(eng, type="pass", player=B)
    do(eng, type="pass", player=C)
    do(eng, type="pass", player=A)
    do(eng, type="draw", card="dog-champion")
    for p in (B, C, A):
        do(eng, type="pass", player=p)
    do(eng, type="draw", card="horse-champion")
    events = do(eng, type="pass", player=B)
    assert "ani.event.skipped" in keys(events) and events[0].params["players"] == [C]
    assert eng.holder == A
    refused(eng, "ANI-TURN", type="take", player=C)
    do(eng, type="pass", player=A)
    assert eng.holder == B and eng.forced  # Chloé skipped again; a lot of 3 back at the dealer


def test_a_full_collection_cannot_take_a_lot_that_does_not_fit():
    eng = engine(2)
    for i in range(4):
        give(eng, SEASON[A][i], A, row=0)
    give(eng, "horse-champion", B, row=0)
    assert eng.dealer == B
    do(eng, type="draw", card="parrot-dandy")
    do(eng, type="pass", player=B)
    do(eng, type="pass", player=A)
    do(eng, type="draw", card="parrot-champion")
    do(eng, type="pass", player=B)
    refused(eng, "ANI-FULL", type="take", player=A, row=0)
    do(eng, type="take", player=A, row=1)
    assert eng.collections[(A, 1)] == ["parrot-dandy", "parrot-champion"]


def test_the_last_incomplete_player_takes_card_by_card():
    eng = engine(3)
    for i in range(5):
        for player in (A, B):
            give(eng, SEASON[player][i], player)
    give(eng, SEASON[C][0], C)
    assert eng.solo and eng.dealer == C
    do(eng, type="draw", card=SEASON[C][1])
    assert eng.expected().types == ("take",) and eng.expected().players == (C,)
    refused(eng, "ANI-LAST", type="pass", player=C)
    for i in range(1, 5):
        if i > 1:
            do(eng, type="draw", card=SEASON[C][i])
        events = do(eng, type="take", player=C)
    assert "ani.event.phase1_done" in keys(events) and eng.phase is Phase.BONUS


# -- powers -------------------------------------------------------------------------------------------


def _thief_ready() -> AnimaliaEngine:
    """Anne holds a thief; Bruno and Chloé hold cards; Anne takes a second thief."""
    eng = engine(3)
    give(eng, "cat-thief", A)
    give(eng, "horse-champion", B)
    give(eng, "dog-champion", C)
    return eng


def test_a_thief_taken_beside_a_thief_activates_and_steals_into_the_collection():
    eng = _thief_ready()
    events = give(eng, "dog-thief", A)
    assert eng.phase is Phase.POWERS and "ani.event.activated" in keys(events)
    assert eng.expected().types == ("power", "renounce")
    refused(eng, "ANI-POWER-NOW", type="draw", card="owl")
    refused(eng, "ANI-POWER-NOT-ACTIVE", type="power", player=A, power="spy")
    refused(eng, "ANI-POWER-NOT-ACTIVE", type="renounce", player=B, power="thief")
    refused(eng, "ANI-POWER-MOVE", type="power", player=A, power="thief", card="horse-champion")
    refused(eng, "ANI-POWER-MOVE", type="power", player=A, power="thief", card="horse-champion", to=B)
    refused(eng, "ANI-POWER-OWN", type="power", player=A, power="thief", card="cat-thief", **{"from": A})
    refused(eng, "ANI-POWER-CARD", type="power", player=A, power="thief", card="dog-champion", **{"from": B})
    events = do(eng, type="power", player=A, power="thief", card="horse-champion", **{"from": B})
    assert eng.collections[(A, 0)] == ["cat-thief", "dog-thief", "horse-champion"]
    assert eng.collections[(B, 0)] == []
    assert "ANI-POWER-TEXTS" in rules_of(events) and eng.phase is Phase.DEAL and eng.dealer == B


def test_two_alike_in_one_lot_activate_once_and_a_stolen_card_activates_nothing():
    eng = engine(3)
    give(eng, "cat-prankster", B)  # Anne deals, Bruno takes
    give(eng, "dog-champion", C)   # Bruno deals, Chloé takes
    # Chloé deals a lot of two pranksters... through draws back at the dealer
    do(eng, type="draw", card="dog-prankster")
    for p in (C, A, B):
        do(eng, type="pass", player=p)
    do(eng, type="draw", card="horse-prankster")
    do(eng, type="pass", player=C)
    events = do(eng, type="take", player=A)
    assert eng.pending is not None and eng.pending.powers == ["prankster"]  # once (ruling ANI-POWER-ONCE)
    assert "ANI-POWER-ONCE" in rules_of(events)
    refused(eng, "ANI-POWER-MOVE", type="power", player=A, power="prankster", card="dog-prankster", **{"from": B})
    refused(eng, "ANI-POWER-OWN", type="power", player=A, power="prankster", card="dog-prankster", to=A)
    refused(eng, "ANI-POWER-CARD", type="power", player=A, power="prankster", card="cat-prankster", to=C)
    do(eng, type="power", player=A, power="prankster", card="dog-prankster", to=B)
    # Bruno now holds two pranksters, but a given card never activates a power
    assert eng.collections[(B, 0)] == ["cat-prankster", "dog-prankster"]
    assert eng.pending is None and eng.phase is Phase.DEAL


def test_spy_moves_nothing_and_renounce_gives_a_power_up():
    eng = engine(3)
    give(eng, "cat-spy", A)
    give(eng, "owl", B)
    give(eng, "dog-champion", C)
    give(eng, "dog-spy", A)
    refused(eng, "ANI-POWER-MOVE", type="power", player=A, power="spy", card="owl", **{"from": B})
    events = do(eng, type="power", player=A, power="spy")
    assert keys(events)[0] == "ani.event.spy"
    eng2 = engine(3)
    give(eng2, "cat-spy", A)
    give(eng2, "owl", B)
    give(eng2, "dog-champion", C)
    give(eng2, "dog-spy", A)
    events = do(eng2, type="renounce", player=A, power="spy")
    assert keys(events)[0] == "ani.event.renounce" and eng2.pending is None


def test_a_power_that_would_overfill_a_collection_can_only_be_renounced():
    eng = engine(3)
    # Bruno completes a collection; Anne then takes a second prankster
    order = [(A, "cat-prankster"), (B, "horse-champion"), (C, "dog-champion"),
             (A, "cat-champion"), (B, "rabbit-champion"), (C, "dog-dandy"),
             (A, "cat-dandy"), (B, "parrot-dandy"), (C, "owl"),
             (A, "cat-scruffy"), (B, "horse-scruffy"), (C, "rabbit-scruffy"),
             (A, "dog-prankster")]
    for player, name in order[:-1]:
        give(eng, name, player)
    give(eng, "dog-scruffy", B)  # Bruno complete (5)
    give(eng, "horse-dandy", C)  # Chloé complete (5)
    assert eng.dealer == A
    give(eng, "dog-prankster", A)  # Anne: 5 cards, prankster activated; every other collection is full
    assert eng.pending is not None
    error = refused(eng, "ANI-POWER-GIVE-ROOM", type="power", player=A, power="prankster", card="dog-prankster",
                    to=B)
    assert "toutes les autres collections" in error.message("fr") and "abandonné" in error.message("fr")
    assert [a["type"] for a in eng.power_actions()] == ["renounce"]
    do(eng, type="renounce", player=A, power="prankster")
    assert eng.phase is Phase.BONUS


def test_a_prankster_refused_a_full_collection_is_told_which_collections_can_take_the_card():
    eng = engine(3)
    give(eng, "cat-prankster", A)
    for name in ("horse-champion", "rabbit-champion", "parrot-dandy", "horse-scruffy", "dog-scruffy"):
        give(eng, name, B)  # Bruno complete (5)
    for name in ("dog-champion", "dog-dandy", "owl"):
        give(eng, name, C)  # Chloé: 3 cards
    give(eng, "dog-prankster", A)
    assert eng.pending is not None and eng.pending.powers == ["prankster"]
    error = refused(eng, "ANI-POWER-GIVE-ROOM", type="power", player=A, power="prankster", card="dog-prankster",
                    to=B)
    fr, en = error.message("fr"), error.message("en")
    assert "Bruno a déjà 5 animaux" in fr and "Chloé" in fr and "abandonn" not in fr, fr
    assert "Chloé" in en and "given up" not in en, en
    rule = catalogue("fr")["rule.ANI-POWER-GIVE-ROOM.text"]
    assert "farceur" in rule and "voleur" not in rule  # its other reading speaks of the prankster
    do(eng, type="power", player=A, power="prankster", card="dog-prankster", to=C)
    assert eng.collections[(C, 0)][-1] == "dog-prankster"


def test_a_thief_whose_own_collection_is_full_can_only_renounce():
    eng = engine(3)
    for name in ("cat-thief", "cat-champion", "cat-dandy", "cat-scruffy"):
        give(eng, name, A)
    give(eng, "horse-champion", B)
    give(eng, "dog-thief", A)  # Anne: 5 cards, thief activated
    assert eng.pending is not None and eng.pending.powers == ["thief"]
    error = refused(eng, "ANI-POWER-ROOM", type="power", player=A, power="thief", card="horse-champion",
                    **{"from": B})
    assert "Anne a déjà 5 animaux" in error.message("fr") and "voleur" in error.message("fr")
    rule = catalogue("fr")["rule.ANI-POWER-ROOM.text"]
    assert "voleur" in rule and "farceur" not in rule


def test_two_players_a_prankster_refused_a_full_row_is_told_the_other_row():
    eng = engine(2)
    give(eng, "cat-prankster", A, row=0)
    for name in ("horse-champion", "rabbit-champion", "parrot-dandy", "horse-scruffy", "dog-scruffy"):
        give(eng, name, B, row=0)
    give(eng, "dog-prankster", A, row=0)
    assert eng.pending is not None and eng.pending.row == 0
    error = refused(eng, "ANI-POWER-GIVE-ROOM", type="power", player=A, power="prankster", card="dog-prankster",
                    row=0, to=B, to_row=0)
    fr = error.message("fr")
    assert "Bruno (rangée 2)" in fr and "Anne" not in fr.split(":", 1)[1] and "abandonn" not in fr, fr
    do(eng, type="power", player=A, power="prankster", card="dog-prankster", row=0, to=B, to_row=1)


def test_a_robbed_complete_collection_rejoins_when_the_thief_has_room():
    eng = engine(3)
    order = [(A, "cat-thief"), (B, "horse-champion"), (C, "dog-champion"),
             (A, "cat-champion"), (B, "rabbit-champion"), (C, "dog-dandy"),
             (A, "horse-scruffy"), (B, "parrot-dandy"), (C, "owl"),
             (B, "rabbit-dandy"), (B, "dog-scruffy")]
    for player, name in order:
        give(eng, name, player)
    assert len(eng.collections[(B, 0)]) == 5
    give(eng, "dog-thief", A)  # Anne: 4 cards, thief activated
    events = do(eng, type="power", player=A, power="thief", card="horse-champion", **{"from": B})
    assert "ani.event.rejoins" in keys(events) and "ANI-ROBBED" in rules_of(events)
    assert len(eng.collections[(A, 0)]) == 5 and len(eng.collections[(B, 0)]) == 4
    assert eng.incomplete(B)
    give(eng, "parrot-champion", B)  # Bruno is offered lots again, and completes his collection once more
    assert len(eng.collections[(B, 0)]) == 5


# -- phase 2: elegance and bonus cards ----------------------------------------------------------------


def test_salome_counts_seven_elegance_points():
    from scoring.animalia import stars_of

    salome = ["dog-champion", "cat-champion", "horse-dandy", "rabbit-scruffy", "parrot-thief"]
    assert sum(stars_of(c) for c in salome) == 7


def test_first_draws_two_second_one_and_while_the_deck_suffices_in_any_order():
    """Ruling ANI-BONUS-ORDER: the deck holds enough for the three cards owed, so the table may enter
    Bruno's card before Anne's two; a player owed nothing is refused."""
    eng = engine(3)
    phase1(eng, SEASON)
    assert eng.phase is Phase.BONUS
    assert [(z.player, z.stars, z.place, z.cards) for z in eng.prizes] == [(A, 10, 1, 2), (B, 6, 2, 1), (C, 1, 0, 0)]
    assert eng.owed == [A, A, B] and eng.expected().players == (A, B)
    no = refused(eng, "ANI-BONUS-ORDER", type="bonus", player=C, card="cat-thief")
    assert "Chloé" in no.message("fr") and "aucune carte-bonus" in no.message("fr")
    refused(eng, "ANI-NOT-IN-DECK", type="bonus", player=A, card="owl")
    refused(eng, "ANI-PHASE", type="draw", card="cat-thief")
    do(eng, type="bonus", player=B, card="horse-prankster")
    assert eng.owed == [A, A] and eng.expected().players == (A,)
    refused(eng, "ANI-BONUS-ORDER", type="bonus", player=B, card="cat-spy")  # Bruno has his card
    events = do(eng, type="bonus", player=A, card="cat-thief")
    text = events[0].render("en")
    assert "thief" not in text and "1 bonus card" in text  # hidden: only the count is said
    do(eng, type="bonus", player=A, card="dog-spy")
    assert eng.phase is Phase.MEDALS and eng.bonus == {A: ["cat-thief", "dog-spy"], B: ["horse-prankster"], C: []}


def test_when_the_deck_cannot_serve_everyone_the_elegance_order_decides():
    """Ruling ANI-BONUS-ORDER: 2 cards left for 3 owed: Anne (first place) draws both, Bruno goes
    without, and an entry for Bruno before them is refused."""
    eng = engine(3)
    spare = sorted(eng.deck - {c for cards in SEASON.values() for c in cards})
    held = spare[2:]  # held by Chloé from an earlier season: the deck keeps only 2 cards
    eng.bonus[C] = list(held)
    eng.deck -= set(held)
    phase1(eng, SEASON)
    assert eng.owed == [A, A, B] and len(eng.deck) == 2 and eng.expected().players == (A,)
    out = refused(eng, "ANI-BONUS-ORDER", type="bonus", player=B, card=spare[0])
    assert "Anne" in out.message("fr") and "2 cartes" in out.message("fr")
    do(eng, type="bonus", player=A, card=spare[0])
    refused(eng, "ANI-BONUS-ORDER", type="bonus", player=B, card=spare[1])
    events = do(eng, type="bonus", player=A, card=spare[1])
    assert "ani.event.bonus_short" in keys(events) and eng.bonus[B] == [] and eng.phase is Phase.MEDALS


def _elegance(hands: dict[str, list[str]], players: int = 3, **extra: Any) -> AnimaliaEngine:
    eng = engine(players, **extra)
    phase1(eng, hands)
    return eng


def test_several_seconds_draw_one_each():
    hands = {A: SEASON[A], B: SEASON[B], C: ["horse-dandy", "rabbit-dandy", "parrot-champion", "cat-scruffy", "rabbit-scruffy"]}
    eng = _elegance(hands)  # Anne 10, Bruno 6, Chloé 2+2+3-1-1 = 5
    assert eng.owed == [A, A, B]
    hands[C] = ["horse-dandy", "rabbit-dandy", "parrot-champion", "cat-scruffy", "parrot-spy"]  # Chloé 6 too
    eng = _elegance(hands)
    assert eng.owed == [A, A, B, C]
    assert [z.place for z in eng.prizes] == [1, 2, 2]


def test_several_firsts_draw_one_each_and_there_is_no_second():
    hands = {A: SEASON[A], B: ["horse-champion", "rabbit-champion", "parrot-dandy", "parrot-champion", "dog-scruffy"],
             C: SEASON[C]}
    eng = _elegance(hands)  # Anne 10, Bruno 10, Chloé 1
    assert eng.owed == [A, B]
    assert [z.place for z in eng.prizes] == [1, 1, 0]


def test_two_players_rows_compete_alone_or_added():
    rows = {A: (["cat-champion", "cat-dandy", "dog-champion", "dog-dandy", "owl"],
                ["horse-champion", "horse-dandy", "rabbit-scruffy", "parrot-scruffy", "cat-scruffy"]),
            B: (["rabbit-champion", "rabbit-dandy", "parrot-champion", "horse-scruffy", "dog-scruffy"],
                ["parrot-dandy", "dog-spy", "cat-spy", "horse-spy", "rabbit-spy"])}

    def play(**extra: Any) -> AnimaliaEngine:
        eng = engine(2, **extra)
        for i in range(5):
            for p in (A, B):
                for r in (0, 1):
                    give(eng, rows[p][r][i], p, row=r)
                    if eng.pending is not None:
                        do(eng, type="renounce", player=p, power=eng.pending.powers[0])
        return eng

    eng = play()  # rows: A0 10, A1 2, B0 6, B1 2 → A0 first (2 cards), B0 second (1)
    assert eng.owed == [A, A, B]
    assert [(z.player, z.row, z.place) for z in eng.prizes] == [(A, 0, 1), (A, 1, 0), (B, 0, 2), (B, 1, 0)]
    eng = play(variant={"elegance": "player"})  # A 12, B 8
    assert eng.owed == [A, A, B] and [z.row for z in eng.prizes] == [None, None]
    assert [z.stars for z in eng.prizes] == [12, 8]


def test_the_elegance_player_variant_is_for_two_players_only():
    from models.record import MalformedRecord

    with pytest.raises(MalformedRecord):
        parse_record_data(record(3, variant={"elegance": "player"}))
    parse_record_data(record(3, variant={"elegance": "collection"}))


def test_two_players_a_lot_that_fills_one_row_while_the_other_has_more_room_makes_the_dealer_draw():
    """Ruling ANI-FORCED-ROWS: Anne deals with rows of 4 and 0 cards: a single card back at her would
    fill row 1 but row 2 has more room, so she draws; a lot of 3 must still be taken."""
    eng = engine(2)
    plain = sorted(c for c in eng.deck if power_of(c) is None)  # 16 cards: no power is activated
    for i in range(8):  # Anne and Bruno deal in turn and each take their own card into row 0
        give(eng, plain[i], A if i % 2 == 0 else B, row=0)
    assert len(eng.collections[(A, 0)]) == 4 and eng.collections[(A, 1)] == [] and eng.dealer == A
    do(eng, type="draw", card=plain[8])
    do(eng, type="pass", player=A)
    events = do(eng, type="pass", player=B)
    assert eng.holder is None and not eng.forced  # before: a forced take (it completes row 1)
    assert "ani.event.back_draw_rows" in keys(events) and "ANI-FORCED-ROWS" in rules_of(events)
    do(eng, type="draw", card=plain[9])
    do(eng, type="pass", player=A)
    do(eng, type="pass", player=B)
    assert eng.holder is None  # 2 cards: row 2 could still hold 3
    do(eng, type="draw", card=plain[10])
    do(eng, type="pass", player=A)
    do(eng, type="pass", player=B)
    refused(eng, "ANI-FORCED-TAKE", type="pass", player=A)  # 3 cards: the rulebook's own rule
    do(eng, type="take", player=A, row=1)
    assert eng.collections[(A, 1)] == plain[8:11]


def test_two_players_a_lot_back_at_a_dealer_whose_rows_have_no_room_for_one_card_more_must_be_taken():
    """Ruling ANI-FORCED-ROWS: rows of 4 and 4, a single card back at the dealer: take it; the
    refusals say she must take it, never that she may pass."""
    eng = engine(2)
    plain = sorted(c for c in eng.deck if power_of(c) is None)
    for i in range(16):  # 4 cards in each row of each player; Anne deals again
        give(eng, plain[i], A if i % 2 == 0 else B, row=(i // 2) % 2)
    assert [len(eng.collections[(A, r)]) for r in (0, 1)] == [4, 4] and eng.dealer == A
    last = sorted(eng.deck)[0]
    do(eng, type="draw", card=last)
    do(eng, type="pass", player=A)
    events = do(eng, type="pass", player=B)
    assert eng.holder == A and eng.forced and "ani.event.back_forced_rows" in keys(events)
    why = refused(eng, "ANI-FORCED-ROWS", type="pass", player=A)
    assert "aucune de ses rangées" in why.message("fr") and "none of the dealer's rows" in why.message("en")
    no_draw = refused(eng, "ANI-TURN", type="draw", card=sorted(eng.deck)[0])
    assert "passe" not in no_draw.message("fr") and "doit d'abord prendre" in no_draw.message("fr")
    assert "pass" not in no_draw.message("en") and "must first take" in no_draw.message("en")
    do(eng, type="take", player=A, row=1)
    assert eng.collections[(A, 1)][-1] == last


def test_two_players_the_spy_is_written_without_a_row_and_a_row_given_anyway_is_ignored():
    """Spec §4.4: ``{"type": "power", "player": "Anne", "power": "spy"}``, also with 2 players."""
    from models.record import MalformedRecord

    eng = engine(2)
    give(eng, "cat-spy", A, row=1)
    give(eng, "dog-champion", B, row=0)
    give(eng, "dog-spy", A, row=1)
    assert eng.pending is not None and eng.pending.powers == ["spy"]
    assert {"type": "power", "player": A, "power": "spy"} in eng.power_actions()
    spy = [{"type": "draw", "card": "cat-spy"}, {"type": "take", "player": A, "row": 1},
           {"type": "draw", "card": "dog-champion"}, {"type": "take", "player": B, "row": 0},
           {"type": "draw", "card": "dog-spy"}, {"type": "take", "player": A, "row": 1}]
    for written in ({}, {"row": 1}, {"row": 0}):  # no row; the right row; a wrong row: all the same spy
        rec = parse_record_data(record(2, spy + [{"type": "power", "player": A, "power": "spy", **written}]))
        replayed = AnimaliaEngine(rec)
        for action in rec.actions:
            replayed.apply(action)
        assert replayed.pending is None and replayed.dealer == B
    with pytest.raises(MalformedRecord, match="only with 2 players"):
        parse_action("animalia", {"type": "power", "player": A, "power": "spy", "row": 0}, [A, B, C])
    parse_action("animalia", {"type": "power", "player": A, "power": "spy"}, [A, B, C])


def test_a_bonus_card_laid_over_an_earlier_cover_is_the_cover_again_ruling():
    eng = at_phase3()
    first = do(eng, type="cover", player=A, bonus="cat-thief", card="owl")
    assert rules_of(first) == {"ANI-COVER"}
    again = do(eng, type="cover", player=A, bonus="dog-spy", card="cat-thief")
    assert rules_of(again) == {"ANI-COVER", "ANI-COVER-AGAIN"}
    assert "cat-thief" in eng.discarded and "dog-spy" in eng.collections[(A, 0)]
    spec = {s.id: s for s in AnimaliaEngine.rule_specs}["ANI-COVER-AGAIN"]
    assert spec.ruling and spec.section == "phase3"


def test_row_is_required_exactly_with_two_players():
    from models.record import MalformedRecord

    with pytest.raises(MalformedRecord, match="required with 2 players"):
        parse_record_data(record(2, [{"type": "draw", "card": "owl"}, {"type": "take", "player": A}]))
    with pytest.raises(MalformedRecord, match="only with 2 players"):
        parse_record_data(record(3, [{"type": "draw", "card": "owl"}, {"type": "take", "player": A, "row": 0}]))
    with pytest.raises(MalformedRecord):
        parse_action("animalia", {"type": "power", "player": A, "power": "spy", "row": 0, "from_row": 1}, [A, B])


# -- phase 3: covers and medals --------------------------------------------------------------------


def test_covers_and_medals_in_any_order_then_a_new_season():
    eng = at_phase3()
    assert set(eng.expected().players) == {A, B, C} and eng.expected().types == ("cover", "medals")
    assert eng.medal_choices(A) == [{"cat": 2, "dog": 3}, {"cat": 3, "dog": 2}, {"cat": 2, "dog": 2}]
    refused(eng, "ANI-COVER-BONUS", type="cover", player=C, bonus="cat-thief", card="cat-scruffy")
    refused(eng, "ANI-COVER-CARD", type="cover", player=A, bonus="cat-thief", card="horse-champion")
    refused(eng, "ANI-MEDALS-CHOICE", type="medals", player=A, medals={"cat": 3, "dog": 3})
    refused(eng, "ANI-PHASE", type="pass", player=A)
    events = do(eng, type="cover", player=A, bonus="cat-thief", card="owl")
    assert "ANI-COVER" in rules_of(events) and eng.discarded == ["owl"]
    assert eng.medal_choices(A) == [{"cat": 3, "dog": 2}]
    assert eng.pending is None  # a covering card activates nothing
    do(eng, type="medals", player=C, medals={"rabbit": 2, "parrot": 0})  # a zero is the same as leaving it out
    events = do(eng, type="medals", player=A, medals={"cat": 3, "dog": 2})
    assert "3" not in events[0].render("en")  # medals stay secret
    refused(eng, "ANI-MEDALS-DONE", type="medals", player=A, medals={"cat": 3, "dog": 2})
    refused(eng, "ANI-MEDALS-DONE", type="cover", player=A, bonus="dog-spy", card="cat-champion")
    events = do(eng, type="medals", player=B, medals={"horse": 2})
    assert "ani.event.season_start" in keys(events)
    assert eng.season == 2 and eng.phase is Phase.DEAL
    assert eng.dealer == A  # left of Chloé, the last dealer of season 1 (she took her last card alone)
    assert eng.bonus == {A: ["dog-spy"], B: ["horse-prankster"], C: []}
    assert "dog-spy" not in eng.deck and "owl" in eng.deck and len(eng.deck) == 29
    assert eng.medals == {A: {"cat": 3, "dog": 2}, B: {"horse": 2}, C: {"rabbit": 2}}
    refused(eng, "ANI-NOT-IN-DECK", type="draw", card="horse-prankster")


def test_three_seasons_then_scores_excellence_and_nothing_more():
    eng = engine(3)
    for season in range(3):
        phase1(eng, SEASON)
        while eng.phase is Phase.BONUS:
            do(eng, type="bonus", player=eng.owed[0], card=min(eng.deck))
        for p in (A, B, C):
            do(eng, type="medals", player=p, medals=eng.medal_choices(p)[0])
    assert eng.finished and eng.expected().types == ()
    out = eng.outcome()
    assert out is not None
    # Anne: 2 cats + 3 dogs each season = 6 cats, 9 dogs → 15 medals + 2 prizes = 25;
    # Bruno 3 × 2 horses = 6 + 1 prize = 11; Chloé 3 × 2 rabbits = 11
    assert out.scores == {A: 25, B: 11, C: 11}
    assert out.winners == (A,) and out.ranking == ((A, 1), (B, 2), (C, 2))
    assert all(e.rules for e in out.explanation)
    refused(eng, "ANI-OVER", type="draw", card="owl")


def test_tie_goes_to_the_biggest_family_then_is_shared():
    from scoring.animalia_medals import excellence

    eng = engine(3)
    eng.phase = Phase.OVER  # scoring only: the medals as three seasons left them
    eng.medals = {A: {"cat": 4, "dog": 4}, B: {"cat": 6, "dog": 2}, C: {"horse": 2}}
    out = eng.outcome()
    assert out is not None and excellence(eng.medals[B], 5) == 1
    assert out.scores == {A: 8, B: 13, C: 2}
    eng.medals = {A: {"cat": 4, "dog": 4}, B: {"cat": 6, "horse": 2}, C: {"horse": 3, "dog": 3, "cat": 2}}
    out = eng.outcome()
    assert out is not None and out.scores == {A: 8, B: 13, C: 8}
    eng.medals = {A: {"cat": 4, "dog": 4}, B: {"cat": 5, "horse": 3}, C: {"horse": 4, "dog": 4}}
    out = eng.outcome()  # Anne 8, Bruno 13, Chloé 8: Anne and Chloé tie on 8 with a family of 4
    assert out is not None and out.ranking == ((B, 1), (A, 2), (C, 2))
    eng.medals = {A: {"cat": 4, "dog": 3}, B: {"cat": 2, "horse": 5}, C: {"horse": 3, "dog": 4}}
    out = eng.outcome()  # 7, 12, 7
    eng.medals = {A: {"cat": 6, "dog": 1}, B: {"horse": 4, "dog": 3}, C: {"rabbit": 7}}
    out = eng.outcome()  # Anne 7+5 = 12, Bruno 7, Chloé 7+5 = 12: Chloé's family of 7 wins
    assert out is not None and out.winners == (C,) and out.ranking[0] == (C, 1)
    assert "ani.explain.tie_family" in keys(list(out.explanation))
    eng.medals = {A: {"cat": 6, "dog": 1}, B: {"horse": 4, "dog": 3}, C: {"rabbit": 6, "dog": 1}}
    out = eng.outcome()
    assert out is not None and out.winners == (A, C) and "ani.explain.tie_shared" in keys(list(out.explanation))


def test_the_rulebook_final_tallies():
    eng = engine(3)
    eng.medals = {A: {"cat": 5, "dog": 3, "horse": 2}, B: {"rabbit": 6, "horse": 7},
                  C: {"dog": 11, "cat": 4}}  # Luana 10, Fanny 13, Salomé 15 medals
    assert [eng.score(p) for p in (A, B, C)] == [15, 23, 25]
    two = engine(2)
    two.medals = {A: {"dog": 7, "cat": 6}, B: {"dog": 13}}
    assert [two.score(p) for p in (A, B)] == [13 + 5, 13 + 5]  # per 7 with 2 players


# -- the deck runs out (ruling ANI-DECK-OUT) --------------------------------------------------------


def test_a_deck_that_runs_out_ends_phase_one_and_gives_no_more_bonus_cards():
    eng = engine(6)  # 36 cards, 30 needed
    hands = {p: [] for p in NAMES}
    cards = sorted(c for c in eng.deck if power_of(c) is None)  # 21 cards without powers
    eng.bonus[NAMES[5]] = [c for c in sorted(eng.deck) if power_of(c) is not None][:12]  # held from before
    for c in eng.bonus[NAMES[5]]:
        eng.deck.discard(c)
    assert len(eng.deck) == 24
    for i, name in enumerate(cards[:20]):
        hands[NAMES[i % 5]].append(name)
    for i in range(4):
        for p in NAMES[:5]:
            give(eng, hands[p][i], p)
    # 4 cards left; Farid and the others still need cards; the lot goes round until the deck is empty
    left = sorted(eng.deck)
    assert len(left) == 4
    events: list[Any] = []
    while eng.phase is Phase.DEAL:
        if eng.holder is None:
            events += do(eng, type="draw", card=min(eng.deck))
        elif eng.forced or eng.solo:
            events += do(eng, type="take", player=eng.holder)
        else:
            events += do(eng, type="pass", player=eng.holder)
    assert "ani.event.deck_out" in keys(events) and "ANI-DECK-OUT" in rules_of(events)
    assert eng.deck == set() and eng.phase is Phase.MEDALS
    assert eng.set_aside == ["rabbit-thief"] and eng.lot == []  # the lot in play, set aside
    assert [len(eng.collections[(p, 0)]) for p in NAMES] == [4, 4, 5, 5, 5, 0]  # kept as they are
    assert "ani.event.bonus_short" in keys(events) and eng.bonus[NAMES[0]] == []
    located = eng.locations()
    assert sorted(located) == sorted(eng.in_game)


def power_of(name: str) -> str | None:
    from scoring.animalia import power_of as of

    return of(name)


# -- every refusal at least once; replays ----------------------------------------------------------


def test_every_refusal_is_exercised_by_these_tests():
    import pathlib
    import re

    text = pathlib.Path(__file__).read_text(encoding="utf-8")
    used = set(re.findall(r'refused\(\w+, "(ANI-[A-Z-]+)"', text))
    declared = {r.id for r in AnimaliaEngine.rule_specs if r.refusal}
    assert declared - used == set()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_companion_replay_refers_whole_games(players, tmp_path):
    import json

    from scoring.referee import verdict_for_text

    for seed, elegance in ((players, None), (players + 10, "player" if players == 2 else "collection")):
        eng, actions = play_random(players, seed, elegance=elegance)
        data = record(players, actions, **({"variant": {"elegance": elegance}} if elegance else {}))
        verdict, status = verdict_for_text(json.dumps(data))
        assert status == 0 and verdict.status == "finished", verdict.error
        assert verdict.result is not None and verdict.result.scores == eng.outcome().scores
        # the same record stopped midway is in progress; an illegal entry is refused with its rule
        half = {**data, "actions": actions[: len(actions) // 2]}
        assert verdict_for_text(json.dumps(half))[0].status == "in_progress"
        bad = {**data, "actions": actions + [{"type": "draw", "card": "owl"}]}
        verdict, status = verdict_for_text(json.dumps(bad))
        assert status == 1 and verdict.error is not None and verdict.error.rule == "ANI-OVER"


def test_companion_replay_on_the_command_line(tmp_path):
    import json
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    _, actions = play_random(4, 7)
    path = tmp_path / "animalia.json"
    path.write_text(json.dumps(record(4, actions)), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, cwd=ROOT, check=False,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    verdict = json.loads(done.stdout)
    assert done.returncode == 0 and verdict["status"] == "finished" and verdict["applied"] == len(actions)
    assert len(verdict["result"]["explanation"]) == 5


def test_two_players_a_power_serves_the_row_that_activated_it():
    eng = engine(2)
    give(eng, "cat-thief", A, row=1)
    give(eng, "dog-champion", B, row=0)
    give(eng, "horse-champion", B, row=1)
    give(eng, "dog-thief", A, row=1)
    assert eng.pending is not None and eng.pending.row == 1
    refused(eng, "ANI-POWER-ROW", type="power", player=A, power="thief", card="dog-champion", row=0,
            **{"from": B, "from_row": 0})
    refused(eng, "ANI-POWER-CARD", type="power", player=A, power="thief", card="dog-champion", row=1,
            **{"from": B, "from_row": 1})
    do(eng, type="power", player=A, power="thief", card="dog-champion", row=1, **{"from": B, "from_row": 0})
    assert eng.collections[(A, 1)] == ["cat-thief", "dog-thief", "dog-champion"] and eng.collections[(B, 0)] == []


def test_two_players_the_last_player_with_an_incomplete_row_takes_card_by_card():
    eng = engine(2)
    hands = {(A, 0): SEASON[A], (A, 1): SEASON[B], (B, 0): SEASON[C][:3]}
    for i in range(5):
        for (p, r), cards in hands.items():
            if i < len(cards):
                give(eng, cards[i], p, row=r)
    assert not eng.incomplete(A) and eng.solo and eng.dealer == B
    do(eng, type="draw", card="parrot-champion")
    refused(eng, "ANI-LAST", type="pass", player=B)
    do(eng, type="take", player=B, row=1)
    assert eng.collections[(B, 1)] == ["parrot-champion"] and eng.holder is None and eng.dealer == B


def test_records_with_every_action_shape_survive_the_store_import_and_export(tmp_path):
    """Optional fields (``row``, ``from``, ``from_row``, ``to``, ``to_row``) come back exactly."""
    import json

    from companion.service import SessionService
    from companion.store import Store

    wanted = {"thief", "prankster", "spy"}
    records = []
    for players in (2, 3):
        found: set[str] = set()
        seed = 0
        while not wanted <= found:
            _, actions = play_random(players, seed)
            kinds = {a["power"] for a in actions if a["type"] == "power"}
            if kinds - found:
                found |= kinds
                records.append(record(players, actions))
            seed += 1
    service = SessionService(Store(tmp_path / "ani.db"))
    ids = service.transfer.import_records(json.dumps(records))
    exported = service.transfer.export()
    assert len(ids) == len(records) == len(exported)
    by_actions = sorted(json.dumps(r["actions"], sort_keys=True) for r in exported)
    assert by_actions == sorted(json.dumps(r["actions"], sort_keys=True) for r in records)


def test_the_log_never_names_a_bonus_card_drawn_or_the_medals_taken():
    for players, seed in ((2, 3), (4, 4), (6, 5)):
        rng = random.Random(seed)
        eng = engine(players)
        while eng.phase is not Phase.OVER:
            data = rng.choice(legal_actions(eng))
            events = eng.apply(act(eng, data))
            if data["type"] == "bonus":
                for e in events:
                    assert card(data["card"]) not in _all_params(e), e
            if data["type"] == "medals":
                said = " ".join(e.render("en") for e in events if e.key == "ani.event.medals")
                assert "medal" not in said.replace("taken their medals", "")


def card(name: str) -> Any:
    from scoring.animalia import card as named

    return named(name)


def _all_params(message: Any) -> list[Any]:
    out: list[Any] = []
    for value in message.params.values():
        out.append(value)
        if isinstance(value, (list, tuple)):
            out.extend(value)
        if hasattr(value, "params"):
            out.extend(_all_params(value))
    return out
