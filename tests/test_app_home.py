"""Home shows the latest games in progress, a page of them, and one tap to the history filtered on
the games in progress: a club's server may hold hundreds, and home reads and builds only a few."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app import probe
from companion.app.screens.history import PAGE
from companion.app.screens.home import RESUME_SHOWN
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "high-society-in-progress.json"


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "home.db"))


def in_progress(service: SessionService, n: int) -> list[int]:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return service.transfer.import_records(json.dumps([record] * n))


def resumable(app: App) -> list[str]:
    return [i for i in probe.idents(app.root) if i.startswith("resume-")]


def test_home_shows_the_latest_games_in_progress_and_opens_the_others_in_the_history(service, monkeypatch):
    ids = in_progress(service, RESUME_SHOWN + 4)
    done = service.start("stupide-vautour", ["Anne", "Bruno"])
    service.history.set_abandoned(done.session_id)  # not in progress: never counted
    asked: list[dict] = []
    real = service.history.page
    monkeypatch.setattr(service.history, "page", lambda **kw: asked.append(kw) or real(**kw))
    app = App(service, None)
    app.render()
    assert [(kw["status"], kw["limit"]) for kw in asked] == [("in_progress", RESUME_SHOWN)]  # one page read
    assert resumable(app) == [f"resume-{i}" for i in list(reversed(ids))[:RESUME_SHOWN]]
    assert probe.text_of(app.root, "home-unfinished-title") == fr("app.home.unfinished", count=len(ids))
    assert fr("app.home.unfinished_all", count=len(ids)) in probe.text_of(app.root, "home-unfinished-all")
    probe.tap(app.root, "home-unfinished-all")
    assert app.here.screen == "history" and app.drafts["history"].status == "in_progress"
    listed = [i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()]
    assert listed == [f"history-{i}" for i in reversed(ids)][:PAGE]  # a page, then « more »
    assert probe.text_of(app.root, "history-count") == fr("app.history.count", count=len(ids))


def test_home_with_few_games_in_progress_shows_them_all_and_no_link(service):
    ids = in_progress(service, RESUME_SHOWN)
    app = App(service, None)
    app.render()
    assert resumable(app) == [f"resume-{i}" for i in reversed(ids)]
    assert not probe.has(app.root, "home-unfinished-all")
    assert probe.text_of(app.root, "home-unfinished-title") == fr("app.home.unfinished", count=RESUME_SHOWN)


def test_a_long_game_name_wraps_in_its_tile_on_a_phone(service):
    # « Monte & descend (AMIGO, 1998) » was cut to « Monte & descend (AMIGO, 1 » at 390×844: the name
    # sat in a row beside the icon with no room to wrap. It takes the row's room and wraps in it.
    import flet as ft

    sid = service.start("monte-descend", ["Anne", "Bruno"]).session_id
    app = App(service, None)
    app.narrow = True
    app.render()
    name = fr("game.monte-descend.name")
    rows = [node for node in probe.shown(probe.find(app.root, f"resume-{sid}")) if isinstance(node, ft.Row)]
    title = [c for row in rows for c in row.controls if isinstance(c, ft.Text) and c.value == name]
    assert len(title) == 1 and title[0].expand, rows
