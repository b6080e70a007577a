"""Property tests over random legal Boursicocotte games.

Each game is driven from ``expected()`` with random legal choices (draws, bids, closes with or
without buy-back, payments, cannot_pay when the money really falls short, challenges, accepts,
counters, second challenges). Random trades are budgeted; once the budget is spent the driver
trades so that animals gather (the player holding more of a kind wins it), which makes every game
end. After every action: money is conserved card by card (players + bank + an offer lying on the
table = the supply), the 40 animals are conserved, every sentence renders in French and English,
and a random action from the vocabulary is either accepted by ``check`` or refused with a known
rule id. Every game must finish within a bound, its scores follow the rulebook's formula, and the
record of the game replays to the same verdict.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.i18n import LANGUAGES, Msg
from models.record import parse_action, parse_record
from scoring.base import RuleViolation
from scoring.boursicocotte import ANIMALS, COPIES, REFUSALS, SUPPLY, VALUES, BoursicocotteEngine
from scoring.referee import verdict_for_text
from tests.all_or_nothing import try_action
from tests.boursicocotte_driver import Driver

NAMES = ("Anne", "Bruno", "Chloé", "David", "Emma")
MAX_ACTIONS = 3000


def renders(message: Msg) -> None:
    for lang in LANGUAGES:
        assert message.render(lang).strip(), message


def check_conservation(eng: BoursicocotteEngine) -> None:
    v = eng.player_view()
    cards = Counter(v["bank"])
    for player in eng.players:
        cards.update(v["money"][player])
    if v["phase"] == "trade_answer":
        cards.update(eng.trade.offer)  # face down on the table
    assert {value: cards[value] for value in SUPPLY} == dict(SUPPLY)
    animals = Counter(v["deck"])
    for player in eng.players:
        animals.update(v["animals"][player])
    if v["phase"] in ("auction", "payment"):
        animals[v["auction"]["animal"]] += 1  # drawn, not yet handed to anyone
    assert {a: animals[a] for a in ANIMALS} == {a: COPIES for a in ANIMALS}
    for player in eng.players:
        sets = v["complete_sets"][player]
        assert v["scores"][player] == sum(VALUES[a] for a in sets) * len(sets)


def play_random_game(seed: int, count: int, short: bool) -> tuple[BoursicocotteEngine, str]:
    rnd = random.Random(seed)
    players = list(NAMES[:count])
    data = {"format": "table-record/1", "game": "boursicocotte", "players": players,
            "first_player": rnd.choice(players), "actions": []}
    if rnd.random() < 0.5:
        data["variant"] = {"trade_tie": rnd.choice(["exchanged", "returned"])}
    if rnd.random() < 0.3:  # the house variant: paying more even when the exact sum is in hand
        data["variant"] = {**data.get("variant", {}), "payment": "any"}
    if short:
        deck = [a for a in ANIMALS for _ in range(COPIES)]
        rnd.shuffle(deck)
        data["start_animals"] = {p: deck[4 * i: 4 * i + 4] for i, p in enumerate(players)}
    eng = BoursicocotteEngine(parse_record(json.dumps(data, ensure_ascii=False)))
    for message in eng.player_view()["setup"]:
        renders(message)
    driver = Driver(eng, rnd)
    actions: list[dict] = []
    while not eng.finished:
        assert len(actions) < MAX_ACTIONS, "the game did not end"
        renders(eng.expected().prompt)
        if rnd.random() < 0.15:
            # a random action: check changes nothing; if refused, apply refuses it too with a listed
            # rule and leaves every attribute exactly as it was (a legal one is left to the driver)
            probe = parse_action("boursicocotte", driver.random_action(), players)
            refused = try_action(eng, probe, REFUSALS, apply_legal=False)
            if isinstance(refused, RuleViolation):
                renders(refused.msg)
        data_action = driver.next_action()
        events = eng.apply(parse_action("boursicocotte", data_action, players))
        actions.append(data_action)
        for message in events:
            renders(message)
        for message in eng.player_view()["last_trade"]:
            renders(message)
        check_conservation(eng)
    data["actions"] = actions
    return eng, json.dumps(data, ensure_ascii=False)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(3, 5), short=st.booleans())
def test_random_legal_games_conserve_everything_and_end(seed, count, short):
    eng, text = play_random_game(seed, count, short)
    out = eng.outcome()
    v = eng.player_view()
    assert eng.expected().types == () and v["phase"] == "over"
    for player in eng.players:
        sets = [a for a, n in v["animals"][player].items() if n == COPIES]
        assert out.scores[player] == sum(VALUES[a] for a in sets) * len(sets)
    assert v["deck_count"] == 0
    all_complete = all(n == COPIES for owned in v["animals"].values() for n in owned.values())
    assert v["blocked"] == (not all_complete)  # a blocked end only when some set is incomplete
    if v["blocked"]:  # nobody could move: whoever still has an incomplete set has no money
        for p in eng.players:
            assert not eng.trade_options(p) or v["money"][p] == []
    best = max(out.scores.values())
    assert out.winners == tuple(p for p in eng.players if out.scores[p] == best)
    ranks = dict(out.ranking)
    for p in eng.players:
        assert ranks[p] == 1 + sum(1 for q in eng.players if out.scores[q] > out.scores[p])
    for message in out.explanation:
        renders(message)
    verdict, status = verdict_for_text(text)
    assert (status, verdict.status, verdict.applied) == (0, "finished", eng.applied)
    assert verdict.result.scores == dict(out.scores)
    assert verdict.result.winners == list(out.winners)


def test_every_rule_id_has_texts_in_both_languages():
    for rule in BoursicocotteEngine.rules:
        for part in ("title", "text"):
            renders(Msg(f"rule.{rule}.{part}"))
