"""Games played on the table screen, with and without help, and the rounds they enter."""

from __future__ import annotations

from typing import Any

from companion.service import SessionService
from models.i18n import Msg

PLAYERS = ["Anne", "Bruno", "Chloé"]


def said(key: str, **params: Any) -> str:
    return Msg(key, params).render("en")


def play(service: SessionService, game: str, actions: list[dict], *, assist: bool,
         variant: dict | None = None) -> int:
    state = service.start(game, PLAYERS, variant=variant, assist=assist)
    for action in actions:
        service.submit(state.session_id, action)
    return state.session_id


HS_ROUNDS = [
    {"type": "reveal", "card": "p7"},
    {"type": "bid", "player": "Anne", "add": [8]},
    {"type": "bid", "player": "Bruno", "add": [12]},
    {"type": "pass", "player": "Chloé"},
    {"type": "pass", "player": "Anne"},  # Bruno buys the 7 for 12: Bruno 94 left, Anne and Chloé 106
    {"type": "reveal", "card": "p3"},
    {"type": "bid", "player": "Bruno", "add": [1]},
]
SV_ROUNDS = [
    {"type": "reveal", "card": 10}, {"type": "play", "cards": {"Anne": 13, "Bruno": 2, "Chloé": 11}},
    {"type": "reveal", "card": -4}, {"type": "play", "cards": {"Anne": 3, "Bruno": 14, "Chloé": 6}},
    {"type": "reveal", "card": 5}, {"type": "play", "cards": {"Anne": 9, "Bruno": 12, "Chloé": 7}},
]
BC_SALE = [
    {"type": "draw", "card": "cow"},
    {"type": "bid", "player": "Bruno", "amount": 40},
    {"type": "close", "buy_back": False},
    {"type": "pay", "player": "Bruno", "cards": [50]},  # 40 owed, paid with a 50: no change
]
# Bruno could make the 40 with four 10s: paying a 50 anyway is the house variant (the rulebook's
# default, `payment: exact`, refuses it in his private view)
BC_PAYMENT_ANY = {"payment": "any"}
