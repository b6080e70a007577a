"""This device's settings file has one writer (``companion.app.save_setting``): the app's language
and theme go through it as the table name does, so every setting of the file is kept by the others."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import companion.app
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


def test_language_and_theme_are_written_by_the_one_settings_writer(service, tmp_path, monkeypatch):
    written: list[tuple[Any, str, Any]] = []
    keep = companion.app.save_setting

    def spy(path: Path | None, key: str, value: Any) -> bool:
        written.append((path, key, value))
        return keep(path, key, value)

    monkeypatch.setattr(companion.app, "save_setting", spy)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"table": "Table 3"}), encoding="utf-8")
    app = App(service, None, settings_path=settings)
    app.set_lang("en")
    app.toggle_theme()
    assert [(key, value) for _, key, value in written] == [("lang", "en"), ("dark", False),
                                                            ("lang", "en"), ("dark", True)]
    assert {path for path, _, _ in written} == {settings}
    assert json.loads(settings.read_text(encoding="utf-8")) == {"table": "Table 3", "lang": "en", "dark": True}
