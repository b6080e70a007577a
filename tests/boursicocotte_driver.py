"""A driver of random Boursicocotte games: from ``expected()``, random legal choices (draws, bids,
closes with or without buy-back, payments, cannot_pay when the money really falls short,
challenges, accepts, counters, second challenges), with random trades budgeted so that every game
ends; and any action of the vocabulary, legal or not. Used by the property tests
(tests/test_boursicocotte_properties.py) and the benchmarks' playouts (benchmarks/playouts.py): a
module without tests of its own, so importing it never defines a property test."""

from __future__ import annotations

import random
from collections import Counter

from scoring.boursicocotte import ANIMALS, BoursicocotteEngine
from tests.support.boursicocotte import accept, bid, cannot_pay, challenge, close, counter, draw, pay


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
