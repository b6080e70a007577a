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
from tests.test_boursicocotte import accept, bid, cannot_pay, challenge, close, counter, draw, pay

NAMES = ("Anne", "Bruno", "Chloé", "David", "Emma")
MAX_ACTIONS = 3000


def renders(message: Msg) -> None:
    for lang in LANGUAGES:
        assert message.render(lang).strip(), message


def some_cards(cards: list[int], rnd: random.Random, most: int = 3) -> list[int]:
    return rnd.sample(cards, rnd.randint(1, min(most, len(cards))))


def exact(cards: list[int], amount: int, rnd: random.Random) -> list[int] | None:
    """Some of ``cards`` adding up to exactly ``amount`` (in a random order of search), or None."""
    pool = rnd.sample(cards, len(cards))
    ways: dict[int, list[int]] = {0: []}
    for card in pool:
        for total, used in list(ways.items()):
            if total + card <= amount and total + card not in ways:
                ways[total + card] = used + [card]
    return ways.get(amount)


def cover(cards: list[int], amount: int, rnd: random.Random) -> list[int]:
    """Cards adding up to at least ``amount`` (no change is given, so more is paid when the cards
    cannot make the amount; under the house variant ``payment: any``, sometimes anyway)."""
    pool = sorted(cards, reverse=True) if rnd.random() < 0.5 else rnd.sample(cards, len(cards))
    paid: list[int] = []
    for card in pool:
        if sum(paid) >= amount:
            break
        paid.append(card)
    return paid


class Driver:
    def __init__(self, eng: BoursicocotteEngine, rnd: random.Random):
        self.eng, self.rnd = eng, rnd
        self.free_trades = rnd.randint(0, 12)  # random trades while the deck lasts
        self.free_counters = rnd.randint(0, 8)  # random counters (they may make the smaller holder win)

    def owned(self, player: str, animal: str) -> int:
        return self.eng.animals[player][animal]

    def next_action(self) -> dict:
        eng, rnd = self.eng, self.rnd
        v, exp = eng.player_view(), eng.expected()
        phase = v["phase"]
        if phase == "turn":
            player = v["turn"]
            assert exp.players == (player,)
            if "draw" in exp.types and ("challenge" not in exp.types or self.free_trades <= 0
                                        or rnd.random() < 0.8):
                return draw(rnd.choice([a for a, n in v["deck"].items() for _ in range(n)]))
            assert "challenge" in exp.types
            options = eng.trade_options(player)
            gathering = [(t, a) for t, a in options if self.owned(player, a) >= self.owned(t, a)]
            if "draw" in exp.types:
                self.free_trades -= 1
                target, animal = rnd.choice(options)
            else:
                target, animal = rnd.choice(gathering or options)
            return challenge(player, target, animal, some_cards(v["money"][player], rnd))
        if phase == "auction":
            a = v["auction"]
            bidders = [p for p in exp.players if p != a["auctioneer"]]
            if bidders and len(a["bids"]) < 4 and rnd.random() < 0.7:
                step = rnd.choice([10, 10, 20, 50, 100, 300])
                return bid(rnd.choice(bidders), (a["highest"] or 0) + step)
            return close(bool(a["bids"]) and not a["buy_back_lost"] and rnd.random() < 0.3)
        if phase == "payment":
            d = v["debt"]
            cards = v["money"][d["payer"]]
            if sum(cards) < d["amount"]:
                return cannot_pay(d["payer"])
            fits = exact(cards, d["amount"], rnd)
            if fits is not None and (eng.payment == "exact" or rnd.random() < 0.5):
                return pay(d["payer"], fits)
            return pay(d["payer"], cover(cards, d["amount"], rnd))
        t = eng.trade
        if phase == "second_challenge":
            return challenge(t.challenger, t.target, t.animal, some_cards(v["money"][t.challenger], rnd))
        assert phase == "trade_answer"
        cards = v["money"][t.target]
        if not cards:
            assert exp.types == ("accept",)
            return accept(t.target)
        if t.ties and not Counter(t.offer) - Counter(cards) and rnd.random() < 0.5:
            return counter(t.target, list(t.offer))  # the same cards again: a second tie
        if self.free_counters > 0 and rnd.random() < 0.5:
            self.free_counters -= 1
            return counter(t.target, some_cards(cards, rnd, most=4))
        if self.owned(t.challenger, t.animal) >= self.owned(t.target, t.animal) or sum(cards) <= sum(t.offer):
            return accept(t.target)
        return counter(t.target, cards)  # the bigger holder outbids the offer and gathers the animals

    def random_action(self) -> dict:
        """Any action of the vocabulary, legal or not."""
        rnd, players = self.rnd, list(self.eng.players)
        kind = rnd.choice(["draw", "bid", "close", "pay", "cannot_pay", "challenge", "accept", "counter"])
        cards = [rnd.choice([0, 10, 50, 100, 200, 500]) for _ in range(rnd.randint(0, 3))]
        return {
            "draw": lambda: draw(rnd.choice(ANIMALS)),
            "bid": lambda: bid(rnd.choice(players), rnd.choice([-10, 0, 10, 40, 100, 1000])),
            "close": lambda: close(rnd.random() < 0.5),
            "pay": lambda: pay(rnd.choice(players), cards),
            "cannot_pay": lambda: cannot_pay(rnd.choice(players)),
            "challenge": lambda: challenge(rnd.choice(players), rnd.choice(players), rnd.choice(ANIMALS), cards),
            "accept": lambda: accept(rnd.choice(players)),
            "counter": lambda: counter(rnd.choice(players), cards),
        }[kind]()


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
