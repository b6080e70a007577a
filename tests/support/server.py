"""`companion run` without a server: serve() with ft.run and the web server recorded."""

from __future__ import annotations

import flet as ft
import pytest


@pytest.fixture
def served(monkeypatch):
    """(main, kwargs) of each ft.run call; the web server records its host and port there too."""
    from companion.app import server

    calls = []

    def fake_run(main, **kwargs):
        calls.append((main, kwargs))
        return ("asgi", main) if kwargs.get("export_asgi_app") else None

    def fake_web(asgi, host, port):
        calls[-1][1].update(host=host, port=port, guard=asgi)

    monkeypatch.setattr(ft, "run", fake_run)
    monkeypatch.setattr(server, "run_web", fake_web)
    # serve() sets FLET_FORCE_WEB_SERVER: monkeypatch restores the environment afterwards
    for knob in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "COMPANION_DB", "FLET_FORCE_WEB_SERVER"):
        monkeypatch.delenv(knob, raising=False)
    return calls
