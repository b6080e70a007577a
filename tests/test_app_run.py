"""`companion [--db PATH] run`: how the app is served (without starting a server: ft.run and the
web server are replaced by recorders, everything else is real; tests/test_web_guard.py starts a
real one)."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest

from companion import cli
from companion.app import ASSETS_DIR
from companion.app.server import export_dir_for


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
    from companion.app import server

    monkeypatch.setattr(server, "desktop_available", lambda: False)
    cli.main(["--db", str(tmp_path / "c.db"), "run", "--desktop"])
    (_, kwargs), = served
    assert kwargs["view"] == ft.AppView.WEB_BROWSER and kwargs["host"] == "127.0.0.1"
    out = capsys.readouterr()
    assert out.out.strip() == "http://127.0.0.1:8550/"
    assert "flet-desktop" in out.err


def test_desktop_opens_a_window_where_it_can(served, tmp_path, monkeypatch):
    from companion.app import server

    monkeypatch.setattr(server, "desktop_available", lambda: True)
    cli.main(["--db", str(tmp_path / "c.db"), "run", "--desktop"])
    (_, kwargs), = served
    assert kwargs["view"] == ft.AppView.FLET_APP
    assert "host" not in kwargs


def test_desktop_needs_a_display_on_linux(monkeypatch):
    import importlib.util
    import sys

    from companion.app import server

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert server.desktop_available() is False
    monkeypatch.setenv("DISPLAY", ":0")
    assert server.desktop_available() is True
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert server.desktop_available() is False


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


PLAY_AFTER_START = """
import gc, sys, tempfile
from pathlib import Path
import uvicorn
from companion.app import server

def play(asgi, **_):  # in uvicorn's place: what the server has loaded and frozen when it would serve
    frozen = gc.get_freeze_count()
    loaded = set(sys.modules)
    from tests.support.table_entry import GAMES, entries, open_table  # the tests' own helpers
    games = {game: entries(game) for game in GAMES}
    gc.collect()
    helpers = len(gc.get_objects())
    for game, (players, start, actions) in games.items():
        service, table, sid, session = open_table(Path(tempfile.mkdtemp()), game, players, **start)
        for action in actions:
            service.submit(sid, action)
            table.render()
    late = sorted(m for m in set(sys.modules) - loaded
                  if m.partition(".")[0] in ("companion", "scoring", "models") and m != "companion.app.probe")
    gc.collect()
    print(frozen, len(gc.get_objects()) - helpers, late)

uvicorn.run = play
server.serve(Path(tempfile.mkdtemp()) / "c.db", port=8799)
"""


def test_the_server_starts_with_what_play_needs_loaded_and_frozen_out_of_the_collector():
    """serve() loads every screen, game screen and engine before the server starts, and run_web
    freezes what is in memory then: a game played afterwards loads none of the app's modules late
    (the tests' probe apart), and what a full collection scans besides the tests' own helpers (what
    play made) is a small part of the start-up memory, whose scan took 50-60 ms, on a tap now and
    then, before it was frozen."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", PLAY_AFTER_START], cwd=root, capture_output=True, text=True,
                          timeout=120, check=True)
    frozen, made, late = done.stdout.strip().splitlines()[-1].split(" ", 2)
    assert late == "[]"
    assert int(frozen) > 100_000
    assert int(made) < int(frozen) // 3  # six tables, each with its own page and database: about 40,000
