"""Boursicocotte's builders: records, a recording engine, each action, deals, the rulebook's game of 2460."""

from __future__ import annotations

import json
from typing import Any, Iterable

from models.i18n import LANGUAGES, Msg
from models.record import parse_action, parse_record
from scoring.boursicocotte import BoursicocotteEngine

PLAYERS = ("Anne", "Bruno", "Chloé")


def record(players: Iterable[str] = PLAYERS, actions: Iterable[dict] = (), **extra: Any):
    data = {"format": "table-record/1", "game": "boursicocotte", "players": list(players),
            "actions": list(actions)}
    data.update(extra)
    return parse_record(json.dumps(data, ensure_ascii=False))


class Recorded(BoursicocotteEngine):
    """The engine plus the actions it accepted, so that a test can write its record back (the
    engine itself keeps no history: an action costs the same early and late in a game)."""

    def __init__(self, record: Any):
        super().__init__(record)
        self.history: list[Any] = []

    def apply(self, action: Any) -> tuple[Msg, ...]:
        events = super().apply(action)
        self.history.append(action)
        return events


def engine(players: Iterable[str] = PLAYERS, actions: Iterable[dict] = (), **extra: Any) -> Recorded:
    rec = record(players, actions, **extra)
    eng = Recorded(rec)
    for action in rec.actions:
        eng.apply(action)
    return eng


def act(eng: BoursicocotteEngine, data: dict) -> tuple[Msg, ...]:
    events = eng.apply(parse_action("boursicocotte", data, list(eng.players)))
    for event in events:
        rendered(event)
    return events


def rendered(message: Msg) -> str:
    texts = [message.render(lang) for lang in LANGUAGES]
    assert all(t.strip() for t in texts), message
    return texts[-1]  # English


def draw(card: str) -> dict:
    return {"type": "draw", "card": card}


def bid(player: str, amount: int) -> dict:
    return {"type": "bid", "player": player, "amount": amount}


def close(buy_back: bool = False) -> dict:
    return {"type": "close", "buy_back": buy_back}


def pay(player: str, cards: list[int]) -> dict:
    return {"type": "pay", "player": player, "cards": cards}


def cannot_pay(player: str) -> dict:
    return {"type": "cannot_pay", "player": player}


def challenge(player: str, target: str, animal: str, cards: list[int]) -> dict:
    return {"type": "challenge", "player": player, "target": target, "animal": animal, "cards": cards}


def accept(player: str) -> dict:
    return {"type": "accept", "player": player}


def counter(player: str, cards: list[int]) -> dict:
    return {"type": "counter", "player": player, "cards": cards}


def money(eng: BoursicocotteEngine, player: str) -> list[int]:
    return list(eng.player_view()["money"][player])


def deliver(eng: BoursicocotteEngine, animal: str, owner: str, pay_everything: bool = False) -> None:
    """The player whose turn it is draws ``animal``; it goes to ``owner``: free if the owner is the
    auctioneer (nobody bids), else the owner bids and pays its smallest non-zero card, or — with
    ``pay_everything`` — bids and pays all the money it holds."""
    auctioneer = eng.turn
    act(eng, draw(animal))
    if owner == auctioneer:
        act(eng, close())
        return
    cards = money(eng, owner)
    if pay_everything:
        amount, paid = sum(cards), cards
    else:
        amount = min(c for c in cards if c > 0)
        paid = [amount]
    act(eng, bid(owner, amount))
    act(eng, close())
    act(eng, pay(owner, paid))


def deliver_all(eng: BoursicocotteEngine, wanted: dict[str, list[str]]) -> None:
    """Deliver every listed animal (in list order) to its owner, giving each drawn animal for free
    to the auctioneer whenever they still want one, so that little money changes hands."""
    wanted = {owner: list(animals) for owner, animals in wanted.items()}
    while any(wanted.values()):
        auctioneer = eng.turn
        if wanted.get(auctioneer):
            deliver(eng, wanted[auctioneer].pop(0), auctioneer)
            continue
        buyers = [p for p in eng.players if wanted.get(p)]
        owner = max(buyers, key=lambda p: sum(1 for card in money(eng, p) if card))  # most cards to pay with
        deliver(eng, wanted[owner].pop(0), owner)


def fours(*animals: str) -> list[str]:
    return [animal for animal in animals for _ in range(4)]


TRADE_DEAL = {"Anne": ["dog", "dog", "hen", "cat"], "Bruno": ["dog", "hen", "cat", "goose"],
              "Chloé": ["goose", "sheep", "goat", "pig"]}


def as_record_text(eng: BoursicocotteEngine, **extra: Any) -> str:
    data = {"format": "table-record/1", "game": "boursicocotte", "players": list(eng.players),
            "first_player": eng.first_player, "actions": [a.model_dump(mode="json") for a in eng.history]}
    data.update(extra)
    return json.dumps(data, ensure_ascii=False)


def game_2460() -> BoursicocotteEngine:
    """Anne collects hens, dogs and pigs (the rulebook's 2460 example)."""
    eng = engine()
    deliver_all(eng, {"Anne": fours("hen", "dog", "pig"), "Bruno": fours("donkey", "goose", "cat"),
                      "Chloé": fours("sheep", "goat", "cow", "horse")})
    return eng


SHORT = {"format": "table-record/1", "game": "boursicocotte", "players": ["A", "B", "C"],
         "start_animals": {"A": ["cow", "cow", "hen", "dog"], "B": ["cow", "pig", "hen", "cat"],
                           "C": ["goat", "goat", "goat", "donkey"]},
         "actions": [{"type": "challenge", "player": "A", "target": "B", "animal": "cow", "cards": [10]}]}
