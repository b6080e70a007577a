"""This device's settings file is read and written by one component (``DeviceSettings``): the app's
language and theme go through it as the table name does, in one write each time, so every setting of
the file is kept by the others; the language at start is read once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.settings import DeviceSettings
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


def test_language_and_theme_are_written_by_the_one_settings_component(service, tmp_path, monkeypatch):
    written: list[tuple[Any, dict[str, Any]]] = []
    keep = DeviceSettings.save

    def spy(self: DeviceSettings, **values: Any) -> bool:
        written.append((self.path, values))
        return keep(self, **values)

    monkeypatch.setattr(DeviceSettings, "save", spy)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"table": "Table 3"}), encoding="utf-8")
    app = App(service, None, settings_path=settings)
    app.set_lang("en")
    app.toggle_theme()
    assert [values for _, values in written] == [{"lang": "en", "dark": False}, {"lang": "en", "dark": True}]
    assert {path for path, _ in written} == {settings}
    assert json.loads(settings.read_text(encoding="utf-8")) == {"table": "Table 3", "lang": "en", "dark": True}


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"lang": "de"}', None])
def test_a_missing_damaged_or_foreign_file_means_the_defaults(tmp_path, content):
    path = tmp_path / "settings.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert DeviceSettings(path).language() == "fr"
    assert DeviceSettings(path).save(table="Table 1") and DeviceSettings(path).read()["table"] == "Table 1"
    assert DeviceSettings(None).read() == {} and not DeviceSettings(None).save(lang="en")


def test_serving_reads_the_saved_language_once(tmp_path, monkeypatch):
    """`companion run` says what it says at start in the saved language, read once, not per sentence."""
    import companion.app.server

    reads: list[Path | None] = []
    keep = DeviceSettings.read

    def spy(self: DeviceSettings) -> dict[str, Any]:
        reads.append(self.path)
        return keep(self)

    monkeypatch.setattr(DeviceSettings, "read", spy)
    monkeypatch.setattr(companion.app.server, "run_web", lambda *args, **kwargs: None)
    (tmp_path / "settings.json").write_text(json.dumps({"lang": "en"}), encoding="utf-8")
    assert companion.app.server.serve(tmp_path / "games.db", lan=True, port=8765) == 0
    assert len(reads) == 1
