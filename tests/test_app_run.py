"""`companion [--db PATH] run`: how the app is served (without starting a server: ft.run and the
web server are replaced by recorders, everything else is real; tests/test_web_guard.py starts a
real one)."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest

from companion import cli
from companion.app import ASSETS_DIR, export_dir_for


@pytest.fixture
def served(monkeypatch):
    """(main, kwargs) of each ft.run call; the web server records its host and port there too."""
    import companion.app as app

    calls = []

    def fake_run(main, **kwargs):
        calls.append((main, kwargs))
        return ("asgi", main) if kwargs.get("export_asgi_app") else None

    def fake_web(asgi, host, port):
        calls[-1][1].update(host=host, port=port, guard=asgi)

    monkeypatch.setattr(ft, "run", fake_run)
    monkeypatch.setattr(app, "run_web", fake_web)
    # serve() sets FLET_FORCE_WEB_SERVER: monkeypatch restores the environment afterwards
    for knob in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "COMPANION_DB", "FLET_FORCE_WEB_SERVER"):
        monkeypatch.delenv(knob, raising=False)
    return calls


def test_run_serves_on_loopback_without_cdn_and_prints_the_url(served, tmp_path, capsys):
    db = tmp_path / "sub" / "c.db"
    assert cli.main(["--db", str(db), "run", "--port", "8765"]) == 0
    (main, kwargs), = served
    assert kwargs["host"] == "127.0.0.1" and kwargs["port"] == 8765
    assert kwargs["no_cdn"] is True
    assert kwargs["view"] == ft.AppView.WEB_BROWSER
    assert Path(kwargs["assets_dir"]).is_absolute() and Path(kwargs["assets_dir"]) == ASSETS_DIR
    assert (ASSETS_DIR / "i18n" / "fr" / "app.json").exists()
    assert capsys.readouterr().out.strip() == "http://127.0.0.1:8765/"
    assert db.exists()  # the database is created (and migrated) before the URL is printed
    assert callable(main)


def test_lan_binds_every_interface_and_prints_a_reachable_address(served, tmp_path, capsys):
    cli.main(["--db", str(tmp_path / "c.db"), "run", "--lan"])
    (_, kwargs), = served
    assert kwargs["host"] == "0.0.0.0" and kwargs["port"] == 8550
    url = capsys.readouterr().out.strip()
    assert url.startswith("http://") and url.endswith(":8550/") and "0.0.0.0" not in url


def test_db_from_the_environment_and_exports_beside_it(served, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "env.db"))
    cli.main(["run", "--port", "9000"])
    assert (tmp_path / "env.db").exists()
    assert export_dir_for(tmp_path / "env.db") == tmp_path / "exports"


def test_run_help_mentions_lan(capsys):
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    assert "--lan" in capsys.readouterr().out


def test_desktop_falls_back_to_the_web_without_a_display_or_client(served, tmp_path, capsys, monkeypatch):
    import companion.app as app

    monkeypatch.setattr(app, "desktop_available", lambda: False)
    cli.main(["--db", str(tmp_path / "c.db"), "run", "--desktop"])
    (_, kwargs), = served
    assert kwargs["view"] == ft.AppView.WEB_BROWSER and kwargs["host"] == "127.0.0.1"
    out = capsys.readouterr()
    assert out.out.strip() == "http://127.0.0.1:8550/"
    assert "flet-desktop" in out.err


def test_desktop_opens_a_window_where_it_can(served, tmp_path, monkeypatch):
    import companion.app as app

    monkeypatch.setattr(app, "desktop_available", lambda: True)
    cli.main(["--db", str(tmp_path / "c.db"), "run", "--desktop"])
    (_, kwargs), = served
    assert kwargs["view"] == ft.AppView.FLET_APP
    assert "host" not in kwargs


def test_desktop_needs_a_display_on_linux(monkeypatch):
    import importlib.util
    import sys

    import companion.app as app

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert app.desktop_available() is False
    monkeypatch.setenv("DISPLAY", ":0")
    assert app.desktop_available() is True
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert app.desktop_available() is False


def test_the_served_page_is_flets_own_with_the_guard_against_outside_requests():
    """assets/index.html (served in preference to Flet's) is exactly Flet's installed page plus the
    guard: an upgraded Flet without a regenerated page fails here (`python -m companion.webpage`)."""
    from companion import webpage as web

    kept = (ASSETS_DIR / "index.html").read_text(encoding="utf-8")
    original = web.flet_index().read_text(encoding="utf-8")
    assert kept == web.guarded(original)
    assert kept.index("HTMLScriptElement.prototype") < kept.index("flutter_bootstrap.js")
    with pytest.raises(ValueError):
        web.guarded("<html></html>")
