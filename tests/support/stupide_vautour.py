"""Stupide Vautour's whole game of 15 rounds."""

from __future__ import annotations


def reveal(card: int) -> dict:
    return {"type": "reveal", "card": card}


def play(**cards: int) -> dict:
    return {"type": "play", "cards": cards}


def full_game() -> list[dict]:
    """15 rounds: point cards 10 … -5 in order; Anne plays 15 … 1, Bruno 1 … 15, Chloé 8 first."""
    actions = []
    chloe = [8, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15]
    for i, point in enumerate(list(range(10, 0, -1)) + [-1, -2, -3, -4, -5]):
        actions.append(reveal(point))
        actions.append(play(Anne=15 - i, Bruno=i + 1, Chloé=chloe[i]))
    return actions
