"""Flet's own floor: one button, one text, ``page.update()`` — the least a tap can cost.

Served exactly as the companion serves itself (``companion run``: Flet's ASGI app with no CDN,
under uvicorn with the same websocket implementation), so that benchmarks/tap_browser.py can time
a tap on it the way it times a tap on a game's table and compare the two.

With ``--hand N`` the same button also shows, then hides, N of the app's own cards
(``companion.app.ui.tile``, 15 to a row, as a table shows players' hands: five hands for N = 75):
what a tap that brings them into view costs Flet and the browser when the server does nothing else.

    python benchmarks/floor_app.py PORT [--hand N]
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any

import flet as ft

BUTTON = "floor-button"  # the test identifiers the benchmark finds in the accessibility tree
COUNT = "floor-count"
HAND = "floor-hand"
PER_ROW = 15
CARD_W, CARD_H = 60, 52  # about a hand card of a 10-inch landscape tablet


def main(page: ft.Page, cards: int = 0) -> None:
    from companion.app import ui

    taps = [0]
    label = ft.Text("0", size=24)
    shown: list[ft.Control] = []
    if cards:
        tiles = [ui.tile(ft.Text(str(i % PER_ROW + 1), size=24, weight=ft.FontWeight.BOLD), lambda _: None,
                         ident=f"floor-card-{i}", width=CARD_W, height=CARD_H, padding=4)
                 for i in range(cards)]
        hand = ft.Column([ft.Row(tiles[i:i + PER_ROW], spacing=6) for i in range(0, cards, PER_ROW)],
                         spacing=6, visible=False)
        shown.append(ft.Semantics(identifier=HAND, content=hand))

    def tapped(_: Any) -> None:
        taps[0] += 1
        label.value = str(taps[0])
        if cards:
            hand.visible = not hand.visible
        page.update()

    page.add(ft.Semantics(identifier=BUTTON, content=ft.Button(content=ft.Text("Tap"), on_click=tapped)),
             ft.Semantics(identifier=COUNT, content=label), *shown)


def asgi_app(cards: int = 0) -> Any:
    """Served as the app serves itself, with its renderer (FLET_WEB_RENDERER chooses another)."""
    from companion.app.server import WEB_RENDERER

    return ft.run(functools.partial(main, cards=cards), no_cdn=True, view=ft.AppView.WEB_BROWSER,
                  web_renderer=ft.WebRenderer(WEB_RENDERER), export_asgi_app=True)


def serve(port: int, cards: int = 0) -> None:  # pragma: no cover - a server; the benchmark starts it
    from companion.app.server import run_web

    os.environ["FLET_FORCE_WEB_SERVER"] = "1"
    run_web(asgi_app(cards), "127.0.0.1", port)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    serve(int(sys.argv[1]), int(sys.argv[3]) if sys.argv[2:3] == ["--hand"] else 0)
