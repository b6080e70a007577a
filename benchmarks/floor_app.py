"""Flet's own floor: one button, one text, ``page.update()`` — the least a tap can cost.

Served exactly as the companion serves itself (``companion run``: Flet's ASGI app with no CDN,
under uvicorn with the same websocket implementation), so that benchmarks/tap_browser.py can time
a tap on it the way it times a tap on a game's table and compare the two.

    python benchmarks/floor_app.py PORT
"""

from __future__ import annotations

import os
import sys
from typing import Any

import flet as ft

BUTTON = "floor-button"  # the test identifiers the benchmark finds in the accessibility tree
COUNT = "floor-count"


def main(page: ft.Page) -> None:
    taps = [0]
    label = ft.Text("0", size=24)

    def tapped(_: Any) -> None:
        taps[0] += 1
        label.value = str(taps[0])
        page.update()

    page.add(ft.Semantics(identifier=BUTTON, content=ft.Button(content=ft.Text("Tap"), on_click=tapped)),
             ft.Semantics(identifier=COUNT, content=label))


def asgi_app() -> Any:
    return ft.run(main, no_cdn=True, view=ft.AppView.WEB_BROWSER, export_asgi_app=True)


def serve(port: int) -> None:  # pragma: no cover - a server; the benchmark starts it
    from companion.app import run_web

    os.environ["FLET_FORCE_WEB_SERVER"] = "1"
    run_web(asgi_app(), "127.0.0.1", port)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    serve(int(sys.argv[1]))
