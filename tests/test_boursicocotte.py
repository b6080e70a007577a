"""Boursicocotte referee: the rulebook's examples, the shared example record, every refusal with
its rule id, cannot_pay for bidder and auctioneer, the short version, trades and their ties, the
end (complete sets, blocked end, shared win) and the catalogue texts."""

from __future__ import annotations

import json

import pytest

from models.i18n import LANGUAGES, Msg, has_text
from models.record import parse_action, parse_record
from scoring.base import RuleViolation
from scoring.boursicocotte import ANIMALS, APPLIED_RULES, BoursicocotteEngine, can_pay_exactly
from scoring.boursicocotte import REFUSALS as ENGINE_REFUSALS
from scoring.referee import replay, verdict_for_text
from scoring.registry import engine_class
from tests.conftest import EXAMPLES
from tests.support.boursicocotte import (
    PLAYERS,
    TRADE_DEAL,
    accept,
    act,
    as_record_text,
    bid,
    cannot_pay,
    challenge,
    close,
    counter,
    deliver,
    deliver_all,
    draw,
    engine,
    fours,
    game_2460,
    money,
    pay,
    record,
    rendered,
)

# -- helpers (also used by test_boursicocotte_properties.py) ------------------------------------


def view(eng: BoursicocotteEngine) -> dict:
    return dict(eng.player_view())


START = [0, 0, 10, 10, 10, 10, 50]
COMPLETE_DEAL = {"Anne": ["hen", "cat", "goose", "sheep"], "Bruno": ["cow", "cow", "cow", "cow"],
                 "Chloé": ["hen", "cat", "goose", "sheep"]}


# -- scripted whole games -------------------------------------------------------------------------


def game_deck_empty(blocked: bool) -> BoursicocotteEngine:
    """Chloé starts. 36 animals are delivered, then the last four: Chloé's hen to Anne (who pays
    all her money), Anne's goose to Anne, Bruno's hen to Bruno, Chloé's hen to Bruno (who pays all
    his money if ``blocked``). Anne is left with 1 hen, Bruno with 3; everything else is complete."""
    eng = engine(first_player="Chloé")
    wanted = {"Anne": ["goose"] * 3 + fours("cat"), "Bruno": ["hen"] + fours("dog", "sheep"),
              "Chloé": fours("donkey", "goat", "pig", "cow", "horse")}
    deliver_all(eng, wanted)
    assert view(eng)["deck_count"] == 4
    assert eng.turn == "Chloé"
    deliver(eng, "hen", "Anne", pay_everything=True)
    deliver(eng, "goose", "Anne")
    deliver(eng, "hen", "Bruno")
    deliver(eng, "hen", "Bruno", pay_everything=blocked)
    return eng


def finished_game() -> BoursicocotteEngine:
    eng = game_deck_empty(blocked=True)
    assert eng.finished
    return eng


# -- registry, start, the shared example --------------------------------------------------------

def test_the_engine_is_registered():
    assert engine_class("boursicocotte") is BoursicocotteEngine


def test_start_money_comes_from_the_bank():
    eng = engine()
    v = view(eng)
    assert all(v["money"][p] == START for p in PLAYERS)
    assert v["bank"] == {0: 4, 10: 8, 50: 7, 100: 5, 200: 5, 500: 5}
    assert v["deck_count"] == 40 and v["turn"] == "Anne" and v["phase"] == "turn"
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Anne",), ("draw",))
    assert engine(first_player="Chloé").turn == "Chloé"


def test_shared_example_replays_in_progress():
    text = (EXAMPLES / "boursicocotte-in-progress.json").read_text(encoding="utf-8")
    verdict, status = verdict_for_text(text)
    assert (status, verdict.status, verdict.error, verdict.result) == (0, "in_progress", None, None)
    assert verdict.applied == 11
    done = replay(parse_record(text))
    v = view(done.engine)
    # Nina bought a pig for 40 (four 10s to Lou); Marc bought the second back for 30 paying three
    # 10s (the exact amount, which his cards make); Nina won Marc's pig with 50 + 0 against 10 + 0,
    # the offers were exchanged; Lou's turn.
    assert v["animals"] == {"Lou": {}, "Marc": {}, "Nina": {"pig": 2}}
    assert v["money"]["Lou"] == [0, 0] + [10] * 8 + [50]
    assert v["money"]["Marc"] == [0, 0, 50, 50]
    assert v["money"]["Nina"] == [0, 0, 10, 10, 10, 10]
    assert (v["turn"], v["phase"], v["deck"]["pig"]) == ("Lou", "turn", 2)
    texts = [rendered(m) for events in done.events for m in events]
    assert "Nina offered more and wins the trade: Marc hands over 1 × pig." in texts
    assert texts[-1] == "It is Lou's turn."


# -- auctions -----------------------------------------------------------------------------------

def test_a_sale_pays_the_auctioneer_and_passes_the_turn_left():
    eng = engine(variant={"payment": "any"})  # the house variant: a 50 for 40 although four 10s would do
    act(eng, draw("cow"))
    act(eng, bid("Chloé", 20))
    act(eng, bid("Bruno", 40))
    exp = eng.expected()
    assert exp.players == ("Bruno", "Chloé", "Anne") and exp.types == ("bid", "close")
    assert rendered(exp.prompt) == ("Auction of the cow: Bruno leads with 40. Raise it, or Anne closes "
                                    "(and may buy back).")
    act(eng, close())
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Bruno",), ("pay", "cannot_pay"))
    assert view(eng)["debt"] == {"payer": "Bruno", "recipient": "Anne", "amount": 40, "animal": "cow",
                                 "buy_back": False}
    events = act(eng, pay("Bruno", [50]))
    # table-fair: the payment is said, the amount owed (public: the bid), never the cards
    assert rendered(events[0]) == ("Bruno pays Anne the 40 owed; the cards change hands unseen by the table "
                                   "(no change is given).")
    v = view(eng)
    assert v["animals"]["Bruno"] == {"cow": 1}
    assert v["money"]["Bruno"] == [0, 0, 10, 10, 10, 10]
    assert v["money"]["Anne"] == START + [50]
    assert (v["turn"], v["phase"]) == ("Bruno", "turn")


def test_no_bid_gives_the_animal_free_to_the_auctioneer():
    eng = engine()
    act(eng, draw("hen"))
    act(eng, close(False))
    assert view(eng)["animals"]["Anne"] == {"hen": 1}
    assert view(eng)["money"]["Anne"] == START
    assert eng.turn == "Bruno"


def test_rulebook_buy_back_of_120():
    # Alphonse auctions a hen, Marcel ends the bidding at 120, Alphonse keeps it and pays 120.
    players = ("Alphonse", "Marcel", "Gaston")
    deal = {"Alphonse": ["donkey", "cat", "goose", "sheep"], "Marcel": ["cat", "goose", "sheep", "goat"],
            "Gaston": ["goat", "pig", "cow", "horse"]}
    eng = engine(players, start_animals=deal)
    assert view(eng)["money"]["Alphonse"] == START + [50]  # the dealt donkey paid everybody 50
    act(eng, draw("hen"))
    act(eng, bid("Gaston", 60))
    act(eng, bid("Marcel", 120))
    events = act(eng, close(True))
    assert rendered(events[0]) == "Alphonse uses the buy-back on the hen and owes 120 to Marcel."
    assert eng.expected().players == ("Alphonse",)
    act(eng, pay("Alphonse", [50, 50, 10, 10]))
    v = view(eng)
    assert v["animals"]["Alphonse"]["hen"] == 1 and "hen" not in v["animals"]["Marcel"]
    assert v["money"]["Alphonse"] == [0, 0, 10, 10]
    assert v["money"]["Marcel"] == [0, 0, 10, 10, 10, 10, 10, 10, 50, 50, 50, 50]
    assert eng.turn == "Marcel"


def test_cannot_pay_as_bidder_restarts_the_auction_without_them():
    eng = engine()
    act(eng, draw("cow"))
    act(eng, bid("Bruno", 500))
    act(eng, close())
    events = act(eng, cannot_pay("Bruno"))
    assert rendered(events[0]) == ("Bruno shows all their money (90), which does not cover 500: the cow is "
                                   "auctioned again without Bruno.")
    v = view(eng)
    assert v["phase"] == "auction" and v["debt"] is None
    assert v["auction"]["excluded"] == ["Bruno"] and v["auction"]["highest"] is None
    assert v["money"]["Bruno"] == START  # showing money costs nothing
    assert eng.expected().players == ("Chloé", "Anne")
    with pytest.raises(RuleViolation) as refused:
        act(eng, bid("Bruno", 10))
    assert refused.value.rule == "BC-BID-EXCLUDED"
    act(eng, bid("Chloé", 700))
    act(eng, close())
    act(eng, cannot_pay("Chloé"))
    exp = eng.expected()  # nobody left to bid: the auctioneer can only close, and takes it free
    assert (exp.players, exp.types) == (("Anne",), ("close",))
    act(eng, close())
    assert view(eng)["animals"]["Anne"] == {"cow": 1}
    assert view(eng)["deck"]["cow"] == 3
    assert eng.turn == "Bruno"


def test_cannot_pay_as_auctioneer_loses_the_buy_back_for_this_animal():
    eng = engine()
    act(eng, draw("cow"))
    act(eng, bid("Bruno", 100))
    act(eng, close(True))
    assert view(eng)["debt"]["payer"] == "Anne"
    events = act(eng, cannot_pay("Anne"))
    assert rendered(events[0]) == ("Anne shows all their money (90), which does not cover 100: the cow is "
                                   "auctioned again and Anne can no longer buy it back.")
    v = view(eng)
    assert v["auction"]["buy_back_lost"] and v["auction"]["excluded"] == []
    act(eng, bid("Bruno", 60))
    with pytest.raises(RuleViolation) as refused:
        act(eng, close(True))
    assert refused.value.rule == "BC-BUYBACK-LOST"
    act(eng, close(False))
    act(eng, pay("Bruno", [50, 10]))
    v = view(eng)
    assert v["animals"]["Bruno"] == {"cow": 1} and v["money"]["Anne"] == sorted(START + [10, 50])
    # the next animal's auction gives the buy-back back
    act(eng, draw("pig"))
    act(eng, bid("Anne", 10))
    act(eng, close(True))
    assert view(eng)["debt"] == {"payer": "Bruno", "recipient": "Anne", "amount": 10, "animal": "pig",
                                 "buy_back": True}


def test_donkeys_pay_everybody_50_100_200_500():
    eng = engine(("Anne", "Bruno", "Chloé", "David", "Emma"))
    for expected_card in (50, 100, 200, 500):
        events = act(eng, draw("donkey"))
        assert rendered(events[1]) == f"Donkey number {[50, 100, 200, 500].index(expected_card) + 1}: the bank " \
                                      f"gives every player a {expected_card} money card."
        act(eng, close())
    v = view(eng)
    assert all(v["money"][p] == START + [50, 100, 200, 500] for p in eng.players)
    assert v["bank"] == {0: 0, 10: 0, 50: 0, 100: 0, 200: 0, 500: 0}  # five players empty the bank
    assert v["donkeys_drawn"] == 4 and v["next_donkey_money"] is None
    with pytest.raises(RuleViolation) as refused:
        act(eng, draw("donkey"))
    assert refused.value.rule == "BC-DRAW-GONE"


def test_short_version_deals_animals_and_pays_dealt_donkeys():
    deal = {"Anne": ["donkey", "hen", "cat", "dog"], "Bruno": ["donkey", "hen", "cat", "dog"],
            "Chloé": ["cow", "cow", "cow", "cow"]}
    eng = engine(start_animals=deal)
    v = view(eng)
    assert all(v["money"][p] == START + [50, 100] for p in PLAYERS)
    assert v["bank"][50] == 4 and v["bank"][100] == 2
    assert v["deck_count"] == 28 and v["deck"]["donkey"] == 2 and v["deck"]["cow"] == 0
    assert v["donkeys_drawn"] == 2 and v["next_donkey_money"] == 200
    assert v["complete_sets"]["Chloé"] == ["cow"] and v["scores"]["Chloé"] == 800
    assert [rendered(m) for m in v["setup"]] == [
        "Short version: 12 animals were dealt face up before the first turn.",
        "Donkey number 1: the bank gives every player a 50 money card.",
        "Donkey number 2: the bank gives every player a 100 money card."]
    exp = eng.expected()
    assert exp.types == ("draw", "challenge")  # Anne shares hens, cats and dogs with Bruno
    events = act(eng, draw("donkey"))
    assert rendered(events[1]) == "Donkey number 3: the bank gives every player a 200 money card."
    assert view(eng)["money"]["Chloé"] == START + [50, 100, 200]
    # the same deal through the referee
    verdict, status = verdict_for_text(as_record_text(eng, start_animals=deal))
    assert (status, verdict.status, verdict.applied) == (0, "in_progress", 1)


# -- trades -------------------------------------------------------------------------------------

def test_rulebook_trade_60_loses_to_100():
    # Marcel and Alphonse own two dogs each; Marcel offers 0, 0, 10, 50; Alphonse counters 50, 50.
    players = ("Marcel", "Alphonse", "Gaston")
    deal = {"Marcel": ["dog", "dog", "hen", "cat"], "Alphonse": ["dog", "dog", "donkey", "goose"],
            "Gaston": ["hen", "cat", "goose", "sheep"]}
    eng = engine(players, start_animals=deal)
    assert view(eng)["money"]["Alphonse"] == START + [50]
    events = act(eng, challenge("Marcel", "Alphonse", "dog", [0, 0, 10, 50]))
    assert rendered(events[0]) == ("Marcel challenges Alphonse over the dog with 4 face-down money cards; "
                                   "animals at stake: 2.")
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Alphonse",), ("accept", "counter"))
    events = act(eng, counter("Alphonse", [50, 50]))
    texts = [rendered(m) for m in events]
    assert texts[:2] == ["The offers are swapped: Marcel receives 2 cards, Alphonse receives 4 cards.",
                         "Alphonse offered more and wins the trade: Marcel hands over 2 × dog."]
    assert not any("60" in t or "100" in t for t in texts)  # the amounts stay secret
    v = view(eng)
    assert v["animals"]["Alphonse"]["dog"] == 4 and "dog" not in v["animals"]["Marcel"]
    assert v["complete_sets"]["Alphonse"] == ["dog"]
    assert v["money"]["Marcel"] == [10, 10, 10, 50, 50, 50]
    assert v["money"]["Alphonse"] == [0, 0, 0, 0, 10, 10, 10, 10, 10, 50]
    assert v["last_trade"] == tuple(events[:2])
    assert v["last_trade_detail"] == {"offer": [0, 0, 10, 50], "counter": [50, 50]}
    assert eng.turn == "Alphonse"



def test_the_last_trade_shows_until_the_next_turns_first_entry():
    # Alphonse won the dog trade; it is his turn: the trade is said until he draws or challenges.
    players = ("Marcel", "Alphonse", "Gaston")
    deal = {"Marcel": ["dog", "dog", "hen", "cat"], "Alphonse": ["dog", "dog", "donkey", "goose"],
            "Gaston": ["hen", "cat", "goose", "sheep"]}
    for first in (draw("horse"), challenge("Alphonse", "Gaston", "goose", [0])):
        eng = engine(players, start_animals=deal)
        act(eng, challenge("Marcel", "Alphonse", "dog", [0, 0, 10, 50]))
        act(eng, counter("Alphonse", [50, 50]))
        assert view(eng)["last_trade"] and view(eng)["last_trade_detail"]
        act(eng, first)
        assert (view(eng)["last_trade"], view(eng)["last_trade_detail"]) == ((), None), first

def test_accepting_gives_the_offer_and_one_animal_unless_both_own_two():
    eng = engine(start_animals=TRADE_DEAL)  # Anne 2 dogs, Bruno 1
    act(eng, challenge("Anne", "Bruno", "dog", [10, 0]))
    assert view(eng)["trade"] == {"challenger": "Anne", "target": "Bruno", "animal": "dog",
                                  "cards_offered": 2, "animals_at_stake": 1, "ties": 0}
    events = act(eng, accept("Bruno"))
    assert rendered(events[0]) == "Bruno accepts the 2 cards offered and hands 1 × dog to Anne."
    v = view(eng)
    assert v["animals"]["Anne"]["dog"] == 3 and "dog" not in v["animals"]["Bruno"]
    assert v["money"]["Bruno"] == [0, 0, 0, 10, 10, 10, 10, 10, 50]
    assert v["money"]["Anne"] == [0, 10, 10, 10, 50]
    assert eng.turn == "Bruno"


def test_challenger_wins_with_the_bigger_offer():
    eng = engine(start_animals=TRADE_DEAL)
    act(eng, challenge("Anne", "Bruno", "hen", [50]))
    act(eng, counter("Bruno", [10, 10, 0]))
    v = view(eng)
    assert v["animals"]["Anne"]["hen"] == 2 and "hen" not in v["animals"]["Bruno"]
    assert v["money"]["Anne"] == [0, 0, 0, 10, 10, 10, 10, 10, 10]
    assert v["money"]["Bruno"] == [0, 10, 10, 50, 50]


def test_a_tie_is_replayed_and_a_second_tie_gives_the_animals_free():
    eng = engine(start_animals=TRADE_DEAL)
    act(eng, challenge("Anne", "Bruno", "dog", [10, 0]))
    events = act(eng, counter("Bruno", [10]))
    assert rendered(events[-1]) == "Both offers are worth the same: Anne must challenge Bruno over the dog once more."
    v = view(eng)
    # ruling: the offers were exchanged before the count, and stay exchanged
    assert v["money"]["Anne"] == [0, 10, 10, 10, 10, 50]
    assert v["money"]["Bruno"] == [0, 0, 0, 10, 10, 10, 10, 50]
    assert v["phase"] == "second_challenge" and v["trade"]["ties"] == 1
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Anne",), ("challenge",))
    for wrong in (draw("cow"), challenge("Anne", "Bruno", "hen", [10]), challenge("Anne", "Chloé", "dog", [10]),
                  challenge("Bruno", "Anne", "dog", [10]), accept("Bruno")):
        with pytest.raises(RuleViolation) as refused:
            act(eng, wrong)
        assert refused.value.rule == "BC-RECHALLENGE"
    events = act(eng, challenge("Anne", "Bruno", "dog", [50]))
    assert rendered(events[0]) == "Anne challenges Bruno again over the dog, with 1 face-down money card."
    events = act(eng, counter("Bruno", [50]))
    assert rendered(events[1]) == "The offers are equal a second time: Anne takes 1 × dog from Bruno for free."
    v = view(eng)
    assert v["animals"]["Anne"]["dog"] == 3 and "dog" not in v["animals"]["Bruno"]
    assert v["money"]["Anne"] == [0, 10, 10, 10, 10, 50]
    assert v["money"]["Bruno"] == [0, 0, 0, 10, 10, 10, 10, 50]
    assert (v["turn"], v["phase"], v["trade"]) == ("Bruno", "turn", None)


def test_a_tie_then_a_decided_trade():
    eng = engine(start_animals=TRADE_DEAL)
    act(eng, challenge("Anne", "Bruno", "cat", [10]))
    act(eng, counter("Bruno", [10]))
    act(eng, challenge("Anne", "Bruno", "cat", [10]))
    act(eng, counter("Bruno", [50]))
    v = view(eng)
    assert v["animals"]["Bruno"]["cat"] == 2 and "cat" not in v["animals"]["Anne"]


def test_variant_where_tied_offers_go_back_to_their_owners():
    eng = engine(start_animals=TRADE_DEAL, variant={"trade_tie": "returned"})
    assert eng.trade_tie == "returned" and engine().trade_tie == "exchanged"
    act(eng, challenge("Anne", "Bruno", "dog", [10, 0]))
    events = act(eng, counter("Bruno", [10]))
    assert rendered(events[0]) == "The offers are equal: Anne and Bruno each take their own cards back."
    assert view(eng)["money"]["Anne"] == START and view(eng)["money"]["Bruno"] == START
    act(eng, challenge("Anne", "Bruno", "dog", [50]))
    events = act(eng, counter("Bruno", [50]))  # second tie: the cards go back, Anne takes the dog free
    assert [rendered(m) for m in events[:2]] == [
        "The offers are equal: Anne and Bruno each take their own cards back.",
        "The offers are equal a second time: Anne takes 1 × dog from Bruno for free."]
    v = view(eng)
    assert v["money"]["Anne"] == START and v["money"]["Bruno"] == START
    assert v["animals"]["Anne"]["dog"] == 3 and "dog" not in v["animals"]["Bruno"]
    text = as_record_text(eng, start_animals=TRADE_DEAL, variant={"trade_tie": "returned"})
    verdict, status = verdict_for_text(text)
    assert (status, verdict.status) == (0, "in_progress")
    verdict, status = verdict_for_text(text.replace('"returned"', '"split"'))
    assert (status, verdict.error.rule) == (2, "RECORD")


def test_a_target_without_money_can_only_accept_and_empty_deck_skips_players():
    eng = game_deck_empty(blocked=False)
    v = view(eng)
    assert v["deck_count"] == 0 and v["money"]["Anne"] == [] and v["animals"]["Anne"]["hen"] == 1
    # Anne (no money) was skipped; Bruno (3 hens and money) must trade
    assert (v["turn"], v["phase"]) == ("Bruno", "turn")
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Bruno",), ("challenge",))
    assert rendered(exp.prompt) == "Bruno: the deck is empty, challenge another player to a trade."
    card = min(v["money"]["Bruno"])
    act(eng, challenge("Bruno", "Anne", "hen", [card]))
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Anne",), ("accept",))
    with pytest.raises(RuleViolation) as refused:
        act(eng, counter("Anne", [10]))
    assert refused.value.rule == "BC-NO-MONEY"  # no money card at all: she cannot take part, only accept
    events = act(eng, accept("Anne"))
    assert rendered(events[-1]) == "Every animal is in a complete set of four: the game is over."
    out = eng.outcome()
    assert dict(out.scores) == {"Anne": 260, "Bruno": 1260, "Chloé": 16500}
    assert out.winners == ("Chloé",)
    assert view(eng)["money"]["Anne"] == [card]


def test_the_skip_is_announced():
    eng = game_deck_empty(blocked=False)
    # replay the same record to see what its last action (Bruno paying for the last hen) said
    done = replay(parse_record(as_record_text(eng)))
    assert done.violation is None and eng.history[-1].type == "pay"
    texts = [rendered(m) for m in done.events[-1]]
    assert texts[-2:] == ["Turn skipped (nothing left to trade, or no money card): Anne.",
                          "The deck is empty: it is Bruno's turn to trade."]


# -- the end ------------------------------------------------------------------------------------

def test_rulebook_score_of_2460():
    eng = game_2460()
    out = eng.outcome()
    assert out is not None and eng.expected().types == ()
    assert dict(out.scores) == {"Anne": 2460, "Bruno": 1890, "Chloé": 9600}
    assert out.winners == ("Chloé",) and out.ranking == (("Chloé", 1), ("Anne", 2), ("Bruno", 3))
    texts = [rendered(m) for m in out.explanation]
    assert "Anne: complete sets of hen (10), dog (160) and pig (650); 820 × 3 sets = 2460 points." in texts
    assert texts[-1] == "Chloé wins with 9600 points."
    assert out.explanation[0].render("fr") == ("Anne : séries complètes poule (10), chien (160) et cochon (650) ; "
                                               "820 × 3 séries = 2\u00a0460 points.")
    verdict, status = verdict_for_text(as_record_text(eng))
    assert (status, verdict.status, verdict.applied) == (0, "finished", len(eng.history))
    assert verdict.result.scores == {"Anne": 2460, "Bruno": 1890, "Chloé": 9600}
    assert [(r.player, r.rank) for r in verdict.result.ranking] == [("Chloé", 1), ("Anne", 2), ("Bruno", 3)]


def test_equal_best_scores_share_the_win():
    eng = engine()
    deliver_all(eng, {"Anne": fours("donkey", "hen", "goose", "pig"), "Bruno": fours("sheep", "goat", "horse"),
                      "Chloé": fours("cat", "dog", "cow")})
    out = eng.outcome()
    assert dict(out.scores) == {"Anne": 4800, "Bruno": 4800, "Chloé": 3150}
    assert out.winners == ("Anne", "Bruno")
    assert out.ranking == (("Anne", 1), ("Bruno", 1), ("Chloé", 3))
    texts = [rendered(m) for m in out.explanation]
    assert texts[-1] == "Anne and Bruno share the win with 4800 points each."
    assert Msg("bc.explain.shared", {"players": ["Anne", "Bruno"], "score": 4800}).render("fr") == \
        "Anne et Bruno se partagent la victoire avec 4\u00a0800 points chacun."


def test_blocked_end_when_nobody_able_to_trade_has_money():
    eng = game_deck_empty(blocked=True)
    v = view(eng)
    assert v["phase"] == "over" and v["blocked"] and v["turn"] is None
    assert v["money"]["Anne"] == [] and v["money"]["Bruno"] == []
    assert v["animals"]["Anne"]["hen"] == 1 and v["animals"]["Bruno"]["hen"] == 3
    out = eng.outcome()
    assert dict(out.scores) == {"Anne": 260, "Bruno": 820, "Chloé": 16500}
    texts = [rendered(m) for m in out.explanation]
    assert texts[0].startswith("The game stopped because nobody able to trade had any money left")
    verdict, status = verdict_for_text(as_record_text(eng))
    assert (status, verdict.status) == (0, "finished")


# -- refusals -----------------------------------------------------------------------------------

def _fresh(actions=(), deal=None):
    return lambda: engine(actions=actions, **({"start_animals": deal} if deal else {}))


SALE = [draw("cow"), bid("Bruno", 10), close()]
# Bruno spends every money card he has on Anne's cow: he then holds none at all.
BRUNO_BROKE = [draw("cow"), bid("Bruno", 90), close(), pay("Bruno", [0, 0, 10, 10, 10, 10, 50])]
REFUSALS = [
    ("BC-OVER", finished_game, draw("hen"), "already over"),
    ("BC-OVER", finished_game, challenge("Bruno", "Anne", "hen", [0]), "already over"),
    ("BC-TURN", _fresh(deal=TRADE_DEAL), challenge("Bruno", "Anne", "dog", [10]), "not Bruno's turn: only Anne"),
    ("BC-TURN", lambda: game_deck_empty(False), challenge("Chloé", "Anne", "hen", [10]), "only Bruno"),
    ("BC-NO-AUCTION", _fresh(), bid("Bruno", 10), "No auction"),
    ("BC-NO-AUCTION", _fresh(), close(), "No auction"),
    ("BC-NO-DEBT", _fresh(), cannot_pay("Anne"), "Nobody owes"),
    ("BC-NO-DEBT", _fresh([draw("cow"), bid("Bruno", 10)]), pay("Bruno", [10]), "auction of the cow must be closed"),
    ("BC-NO-TRADE", _fresh(), accept("Bruno"), "No trade offer"),
    ("BC-NO-TRADE", _fresh([draw("cow")]), counter("Bruno", [10]), "No trade offer"),
    ("BC-AUCTION-OPEN", _fresh([draw("cow")]), draw("pig"), "auction of the cow is still open"),
    ("BC-AUCTION-OPEN", _fresh([draw("cow")], TRADE_DEAL), challenge("Anne", "Bruno", "dog", [10]), "then Anne closes"),
    ("BC-PAYMENT-DUE", _fresh(SALE), draw("pig"), "Bruno must first pay 10 to Anne"),
    ("BC-PAYMENT-DUE", _fresh(SALE), bid("Chloé", 20), "Bruno must first pay 10 to Anne"),
    ("BC-TRADE-OPEN", _fresh([challenge("Anne", "Bruno", "dog", [10])], TRADE_DEAL), draw("cow"),
     "Bruno must first answer Anne's offer for the dog"),
    ("BC-RECHALLENGE", _fresh([challenge("Anne", "Bruno", "dog", [10]), counter("Bruno", [10])], TRADE_DEAL),
     accept("Bruno"), "Anne must challenge Bruno again over the dog"),
    ("BC-DECK-EMPTY", lambda: game_deck_empty(False), draw("hen"), "deck is empty"),
    ("BC-DRAW-GONE", _fresh(deal=COMPLETE_DEAL), draw("cow"), "All four cow cards"),
    ("BC-BID-AUCTIONEER", _fresh([draw("cow")]), bid("Anne", 10), "Anne is auctioning the cow"),
    ("BC-BID-EXCLUDED", _fresh([draw("cow"), bid("Bruno", 500), close(), cannot_pay("Bruno")]), bid("Bruno", 600),
     "Bruno could not pay for the cow"),
    ("BC-BID-POSITIVE", _fresh([draw("cow")]), bid("Bruno", 0), "Bruno bid 0"),
    ("BC-BID-POSITIVE", _fresh([draw("cow")]), bid("Bruno", -10), "Bruno bid -10"),
    ("BC-BID-RAISE", _fresh([draw("cow"), bid("Bruno", 20)]), bid("Chloé", 20),
     "Chloé bid 20, which does not beat the 20 already bid by Bruno"),
    ("BC-BID-RAISE", _fresh([draw("cow"), bid("Bruno", 20)]), bid("Bruno", 10), "already bid by Bruno"),
    ("BC-CLOSE-NO-BID", _fresh([draw("cow")]), close(True), "Nobody bid on the cow"),
    ("BC-BUYBACK-LOST", _fresh([draw("cow"), bid("Bruno", 100), close(True), cannot_pay("Anne"), bid("Bruno", 10)]),
     close(True), "Anne could not pay an earlier buy-back"),
    ("BC-PAYER", _fresh(SALE), pay("Chloé", [10]), "Chloé owes nothing now: it is Bruno who must pay 10 to Anne"),
    ("BC-PAYER", _fresh(SALE), cannot_pay("Anne"), "it is Bruno who must pay"),
    ("BC-CARDS-MISSING", _fresh([draw("cow"), bid("Bruno", 100), close()]), pay("Bruno", [100]),
     "Bruno does not hold all the cards needed to hand over 100: 100 missing"),
    ("BC-CARDS-MISSING", _fresh(deal=TRADE_DEAL), challenge("Anne", "Bruno", "dog", [50, 50, 0]),
     "Anne does not hold all the cards needed to hand over 0, 50 and 50: 50 missing"),
    ("BC-CARDS-MISSING", _fresh([challenge("Anne", "Bruno", "dog", [10])], TRADE_DEAL), counter("Bruno", [200]),
     "Bruno does not hold all the cards needed to hand over 200: 200 missing"),
    ("BC-PAY-SHORT", _fresh([draw("cow"), bid("Bruno", 20), close()]), pay("Bruno", [10, 0]),
     "Bruno hands over 10, less than the 20 owed"),
    ("BC-OVERPAY", _fresh([draw("cow"), bid("Bruno", 40), close()]), pay("Bruno", [50]),
     "Bruno can hand over exactly the 40 owed with their cards"),
    ("BC-CAN-PAY", _fresh([draw("cow"), bid("Bruno", 90), close()]), cannot_pay("Bruno"),
     "Bruno holds 90, enough for the 90 owed"),
    ("BC-CHALLENGE-SELF", _fresh(deal=TRADE_DEAL), challenge("Anne", "Anne", "dog", [10]), "Anne cannot challenge"),
    ("BC-CHALLENGE-COMPLETE", _fresh(deal=COMPLETE_DEAL), challenge("Anne", "Bruno", "cow", [10]),
     "Bruno owns all four of the cow"),
    ("BC-CHALLENGE-OWN", _fresh(deal=TRADE_DEAL), challenge("Anne", "Chloé", "goose", [10]), "Anne owns no goose"),
    ("BC-CHALLENGE-TARGET", _fresh(deal=TRADE_DEAL), challenge("Anne", "Chloé", "dog", [10]), "Chloé owns no dog"),
    ("BC-OFFER-EMPTY", _fresh(deal=TRADE_DEAL), challenge("Anne", "Bruno", "dog", []), "Anne must put down"),
    ("BC-OFFER-EMPTY", _fresh([challenge("Anne", "Bruno", "dog", [10])], TRADE_DEAL), counter("Bruno", []),
     "Bruno must put down"),
    ("BC-ANSWER", _fresh([challenge("Anne", "Bruno", "dog", [10])], TRADE_DEAL), accept("Chloé"),
     "Only Bruno answers Anne's offer, not Chloé"),
    ("BC-ANSWER", _fresh([challenge("Anne", "Bruno", "dog", [10])], TRADE_DEAL), counter("Anne", [10]),
     "Only Bruno answers"),
    ("BC-NO-MONEY", _fresh(BRUNO_BROKE + [draw("pig"), close(), draw("hen")]), bid("Bruno", 10),
     "Bruno holds no money card at all and cannot bid on the hen"),
    ("BC-NO-MONEY", _fresh(BRUNO_BROKE, TRADE_DEAL), challenge("Bruno", "Anne", "dog", [10]),
     "Bruno holds no money card at all and cannot make an offer"),
    ("BC-NO-MONEY", _fresh(BRUNO_BROKE + [draw("pig"), close(), challenge("Chloé", "Bruno", "goose", [10])],
                           TRADE_DEAL), counter("Bruno", [10]),
     "Bruno holds no money card at all and cannot make an offer"),
]


@pytest.mark.parametrize("rule, build, action, needle", REFUSALS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(REFUSALS)])
def test_refusal(rule, build, action, needle):
    eng = build()
    before, history = view(eng), len(eng.history)
    with pytest.raises(RuleViolation) as refused:
        act(eng, action)
    assert refused.value.rule == rule
    assert rule in ENGINE_REFUSALS
    english = refused.value.message("en")
    assert needle in english, english
    assert refused.value.message("fr").strip()
    assert view(eng) == before and len(eng.history) == history  # a refusal changes nothing
    assert not eng.can(parse_action("boursicocotte", action, list(eng.players)))


def test_every_refusal_id_is_exercised_by_a_refusal_test():
    assert {r[0] for r in REFUSALS} == set(ENGINE_REFUSALS)
    assert BoursicocotteEngine.rules == tuple(r.id for r in BoursicocotteEngine.rule_specs)
    assert set(BoursicocotteEngine.rules) == set(ENGINE_REFUSALS) | set(APPLIED_RULES)
    assert len(set(BoursicocotteEngine.rules)) == len(BoursicocotteEngine.rules)
    assert all(r.startswith("BC-") for r in BoursicocotteEngine.rules)


def test_a_player_without_money_sits_out_until_a_donkey_pays_and_the_auction_goes_on():
    eng = engine(actions=BRUNO_BROKE + [draw("pig"), close(), draw("hen")])
    assert money(eng, "Bruno") == []
    assert eng.expected().players == ("Anne", "Chloé")  # Chloé auctions: only Anne may bid now
    with pytest.raises(RuleViolation) as refused:
        act(eng, bid("Bruno", 10))
    assert refused.value.rule == "BC-NO-MONEY"
    assert "Bruno n'a plus aucune carte d'argent" in refused.value.message("fr")
    act(eng, bid("Anne", 10))  # the auction goes on without him
    act(eng, close())
    act(eng, pay("Anne", [10]))
    # Anne's turn: Bruno may still draw on his own turn, and a donkey pays every player
    act(eng, draw("donkey"))
    assert money(eng, "Bruno") == [50]
    act(eng, bid("Bruno", 50))
    assert eng.player_view()["auction"]["bidder"] == "Bruno"


def test_a_broke_player_still_draws_on_his_turn():
    eng = engine(actions=BRUNO_BROKE)
    assert eng.expected().players == ("Bruno",) and eng.expected().types == ("draw",)
    act(eng, draw("pig"))
    assert eng.auction is not None and eng.auction.auctioneer == "Bruno"


def test_an_illegal_record_names_the_rule_and_the_action():
    rec = record(actions=[draw("cow"), bid("Bruno", 30), bid("Chloé", 30)])
    text = json.dumps(rec.model_dump(mode="json", exclude_none=True), ensure_ascii=False)
    verdict, status = verdict_for_text(text)
    assert (status, verdict.status, verdict.applied) == (1, "illegal", 2)
    assert verdict.error.index == 2 and verdict.error.rule == "BC-BID-RAISE"
    assert verdict.error.message == "Chloé bid 30, which does not beat the 30 already bid by Bruno."


# -- expectations and texts ---------------------------------------------------------------------

def test_expected_follows_every_phase():
    eng = engine(start_animals=TRADE_DEAL)
    assert eng.expected().types == ("draw", "challenge")
    assert rendered(eng.expected().prompt) == "Anne: draw an animal for auction, or challenge another player to a trade."
    act(eng, draw("horse"))
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Bruno", "Chloé", "Anne"), ("bid", "close"))
    assert rendered(exp.prompt) == ("Auction of the horse: anyone but Anne may bid; Anne closes the bidding.")
    act(eng, bid("Chloé", 30))
    act(eng, close())
    assert rendered(eng.expected().prompt) == "Chloé must pay 30 to Anne, or show that their money falls short."
    act(eng, pay("Chloé", [10, 10, 10]))
    act(eng, challenge("Bruno", "Anne", "cat", [0]))
    exp = eng.expected()
    assert (exp.players, exp.types) == (("Anne",), ("accept", "counter"))
    assert exp.prompt.render("fr") == ("Anne : acceptez l'offre de Bruno pour l'animal chat (1 en jeu) "
                                       "ou faites une contre-offre.")
    finished = finished_game()
    exp = finished.expected()
    assert (exp.players, exp.types) == ((), ()) and rendered(exp.prompt) == "The game is over."


def test_every_engine_text_exists_in_both_languages():
    import re
    from pathlib import Path

    import scoring.boursicocotte as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'"(bc\.[a-z_.]+[a-z_])"', source)) - {"bc.animal"}
    keys |= {f"bc.animal.{a}" for a in ANIMALS}
    keys |= {f"rule.{r}.{part}" for r in BoursicocotteEngine.rules for part in ("title", "text")}
    keys |= {"game.boursicocotte.name", "game.boursicocotte.summary",
             "variant.boursicocotte.trade_tie",
             "variant.boursicocotte.trade_tie.exchanged", "variant.boursicocotte.trade_tie.returned"}
    assert len(keys) > 100
    missing = [(k, lang) for k in sorted(keys) for lang in LANGUAGES if not has_text(k, lang)]
    assert missing == []


def test_french_animal_names():
    names = [Msg(f"bc.animal.{a}").render("fr") for a in ANIMALS]
    assert names == ["poule", "oie", "chat", "chien", "mouton", "chèvre", "âne", "cochon", "vache", "cheval"]


def test_rule_texts_give_the_rulings_and_their_other_readings():
    """BC-OFFER-EMPTY is a ruling; the skips, the end and the scoring are the rulebook's rules to
    which the app adds a ruling, in their own part (``.ruling``)."""
    for rule, part in (("BC-OFFER-EMPTY", "text"), ("BC-SKIP", "ruling"), ("BC-END", "ruling"), ("BC-SCORE", "ruling")):
        assert "Other reading" in Msg(f"rule.{rule}.{part}").render("en"), rule
        assert "Autre lecture" in Msg(f"rule.{rule}.{part}").render("fr"), rule
    assert "Ruling" in Msg("rule.BC-OFFER-EMPTY.text").render("en")
    assert "Arbitrage" in Msg("rule.BC-OFFER-EMPTY.text").render("fr")
    assert "2,460" in Msg("rule.BC-SCORE.text").render("en") and "2\u00a0460" in Msg("rule.BC-SCORE.text").render("fr")


def test_the_tied_trade_and_overpaying_are_rules_with_a_house_variant_not_an_other_reading():
    """The offers are swapped before they are counted (so they stay swapped on a tie), and « si vous
    ne pouvez pas payer exactement … » asks for the exact sum when the cards make it: both are the
    rulebook's; taking one's offer back and overpaying anyway are house variants."""
    specs = {spec.id: spec for spec in BoursicocotteEngine.rule_specs}
    house = {spec.key: (spec.default, spec.house) for spec in BoursicocotteEngine.variants}
    assert house == {"trade_tie": ("exchanged", ("returned",)), "payment": ("exact", ("any",))}
    for rule, key in (("BC-TRADE-TIE", "trade_tie"), ("BC-OVERPAY", "payment")):
        assert not specs[rule].ruling and specs[rule].variant == key, rule
        en, fr = Msg(f"rule.{rule}.text").render("en"), Msg(f"rule.{rule}.text").render("fr")
        assert "house variant" in en and "variante maison" in fr, rule
        assert "reading" not in en and "lecture" not in fr, rule
    # the minimum of one card per offer is the app's, and the end and the skips say so
    assert specs["BC-OFFER-EMPTY"].ruling and specs["BC-OFFER-EMPTY"].refusal
    for rule in ("BC-END", "BC-SKIP"):
        fr = Msg(f"rule.{rule}.ruling").render("fr")
        assert "BC-OFFER-EMPTY" in fr and "la règle d'au moins une carte" not in fr, rule


# -- paying: the exact sum when the payer's cards make it ----------------------------------------

@pytest.mark.parametrize("money, amount, exactly", [
    ({0: 2, 10: 4, 50: 1}, 40, True),
    ({0: 2, 10: 4, 50: 1}, 60, True),
    ({0: 2, 10: 4, 50: 1}, 90, True),
    ({0: 2, 10: 4, 50: 1}, 100, False),
    ({0: 2, 50: 1}, 30, False),
    ({10: 1, 50: 2, 100: 1}, 160, True),
    ({10: 1, 50: 2, 100: 1}, 120, False),
    ({0: 3}, 10, False),
])
def test_can_pay_exactly(money, amount, exactly):
    assert can_pay_exactly(money, amount) is exactly


def test_the_exact_sum_must_be_paid_when_the_cards_make_it():
    eng = engine(actions=[draw("cow"), bid("Bruno", 40), close()])
    for cards in ([50], [50, 0], [10, 10, 50], [50, 10]):
        with pytest.raises(RuleViolation) as refused:
            act(eng, pay("Bruno", cards))
        assert refused.value.rule == "BC-OVERPAY"
    events = act(eng, pay("Bruno", [10, 0, 10, 10, 10]))  # a 0 added changes no sum
    assert events[0].key == "bc.paid" and money(eng, "Bruno") == [0, 50]


def test_more_is_paid_only_when_the_cards_cannot_make_the_sum():
    # Bruno pays 40 with his four 10s, then buys his own pig back for 30 holding 0, 0 and 50: the 50
    # it is, no change
    eng = engine(actions=[draw("cow"), bid("Bruno", 40), close(), pay("Bruno", [10, 10, 10, 10]),
                          draw("pig"), bid("Chloé", 30), close(True)])
    events = act(eng, pay("Bruno", [50]))
    assert "BC-OVERPAY" in events[0].rules
    assert money(eng, "Bruno") == [0, 0]
    # the same buy-back: an auctioneer whose cards make the sum pays it exactly too
    eng = engine(actions=[draw("pig"), bid("Bruno", 30), close(True)])
    with pytest.raises(RuleViolation, match="BC-OVERPAY"):
        act(eng, pay("Anne", [50]))


def test_the_house_variant_lets_a_payer_hand_over_more_anyway():
    eng = engine(actions=[draw("cow"), bid("Bruno", 40), close()], variant={"payment": "any"})
    act(eng, pay("Bruno", [50]))
    assert money(eng, "Bruno") == [0, 0, 10, 10, 10, 10]
