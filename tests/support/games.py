"""Legal games written from the spec (shared/spec/table-record.md, rules-decisions.md), used by the
store, service, import/export tests, the kill -9 child and the benchmarks. They rely on the rules
only (who reveals, who bids first, how a round ends), never on an engine's internals;
tests/test_store_games.py checks that the referee agrees that they are legal and how they end."""

from __future__ import annotations

from typing import Any

from models.record import RECORD_FORMAT

HS_MONEY = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)


def _record(game: str, players: list[str], actions: list[dict], first: str | None = None, **extra: Any) -> dict:
    record: dict[str, Any] = {"format": RECORD_FORMAT, "game": game}
    record.update(extra)
    record["players"] = list(players)
    if first is not None:
        record["first_player"] = first
    record["actions"] = actions
    return record


def hs_designed(players: list[str], first: str) -> dict:
    """Three players X (first), Y, Z clockwise. X buys the 10 for 1; Z and Y get the titles free;
    Z pays 25 for the 1. The scandal is the fourth red card: the game ends.
    Money left X 105, Y 106, Z 81 → Z is out; scores X 10, Y 0 (0 ×2 ×2), Z 2 → X wins alone."""
    s = players.index(first)
    x, y, z = players[s], players[(s + 1) % 3], players[(s + 2) % 3]
    actions = [
        {"type": "reveal", "card": "p10"}, {"type": "bid", "player": x, "add": [1]},
        {"type": "pass", "player": y}, {"type": "pass", "player": z},
        {"type": "reveal", "card": "x2"}, {"type": "pass", "player": x}, {"type": "pass", "player": y},
        {"type": "reveal", "card": "x2"}, {"type": "pass", "player": z}, {"type": "pass", "player": x},
        {"type": "reveal", "card": "p1"}, {"type": "pass", "player": y},
        {"type": "bid", "player": z, "add": [25]}, {"type": "pass", "player": x},
        {"type": "reveal", "card": "x2"}, {"type": "pass", "player": z}, {"type": "pass", "player": x},
        {"type": "reveal", "card": "half"},
    ]
    return _record("high-society", players, actions, first)


def hs_designed_result(players: list[str], first: str) -> dict:
    s = players.index(first)
    x, y, z = players[s], players[(s + 1) % 3], players[(s + 2) % 3]
    return {"scores": {x: 10, y: 0, z: 2}, "winners": [x], "eliminated": [z]}


def hs_nobody_wins(players: list[str]) -> dict:
    """Everybody passes on the three titles, then the scandal ends the game: all keep all their
    money, so all are tied for the least money, all are out and nobody wins."""
    n = len(players)
    actions: list[dict] = []
    start = 0
    for _ in range(3):
        actions.append({"type": "reveal", "card": "x2"})
        for k in range(n - 1):
            actions.append({"type": "pass", "player": players[(start + k) % n]})
        start = (start + n - 1) % n  # the last one left got the title and reveals next
    actions.append({"type": "reveal", "card": "half"})
    return _record("high-society", players, actions)


def hs_long(players: list[str], first: str | None = None, final: bool = True) -> dict:
    """A long legal game: the ten possessions, then the three titles, then the scandal (which
    ends it, if ``final``). Rounds alternate: the starting player buys with their smallest money
    card while everyone else passes (and starts again), or everybody but the last passes and the
    last player left takes the card free (and starts next)."""
    n = len(players)
    hands = {p: list(HS_MONEY) for p in players}
    start = players.index(first) if first else 0
    actions: list[dict] = []
    cards = [f"p{i}" for i in range(1, 11)] + ["x2", "x2", "x2"]
    for round_no, card in enumerate(cards):
        actions.append({"type": "reveal", "card": card})
        starter = players[start]
        if round_no % 2 == 0 and hands[starter]:
            actions.append({"type": "bid", "player": starter, "add": [hands[starter].pop(0)]})
            for k in range(1, n):
                actions.append({"type": "pass", "player": players[(start + k) % n]})
        else:
            for k in range(n - 1):
                actions.append({"type": "pass", "player": players[(start + k) % n]})
            start = (start + n - 1) % n
    if final:
        actions.append({"type": "reveal", "card": "half"})
    return _record("high-society", players, actions, first)


def sv_game(players: list[str], shift: int = 0) -> dict:
    """Stupide Vautour, 15 rounds: every point card once; player i plays (round + i·shift) mod 15
    + 1, so each plays every hand card once."""
    points = [3, -2, 7, 10, -5, 1, 4, -1, 9, 2, -3, 6, 8, -4, 5]
    actions: list[dict] = []
    for r, card in enumerate(points):
        actions.append({"type": "reveal", "card": card})
        actions.append({"type": "play", "cards": {p: (r + i * shift) % 15 + 1 for i, p in enumerate(players)}})
    return _record("stupide-vautour", players, actions)
