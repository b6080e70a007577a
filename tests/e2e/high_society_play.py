"""High Society played through its screen in Chromium, as the browser tests share it."""

from __future__ import annotations

from tests.e2e.harness import Screen


def play_designed(s: Screen, players: list[str]) -> None:
    """tests/support/games.py's hs_designed(players, players[0]) through the High Society screen: the
    first player wins alone, the second is second, the third is out."""
    x, y, z = players
    entries = 0

    def accepted() -> None:
        nonlocal entries
        s.wait_for(f"entry-{entries}")
        entries += 1

    def reveal(card: str) -> None:
        s.click(f"reveal-{card}")
        accepted()

    def bid(player: str, value: int) -> None:
        s.wait_text(player, "prompt")
        s.click(f"money-{value}")
        s.wait_match(r"\b" + str(value) + r"\b", "bid-adding")
        s.click("bid-confirm")
        accepted()

    def pass_(player: str) -> None:
        s.wait_text(player, "prompt")
        s.click("pass")
        accepted()

    reveal("p10")
    bid(x, 1)
    pass_(y)
    pass_(z)
    reveal("x2")
    pass_(x)
    pass_(y)
    reveal("x2")
    pass_(z)
    pass_(x)
    reveal("p1")
    pass_(y)
    bid(z, 25)
    pass_(x)
    reveal("x2")
    pass_(z)
    pass_(x)
    s.click("reveal-half")
    s.wait_for("result-headline")
    s.wait_text(x, "result-headline")
