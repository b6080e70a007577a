"""This device's settings — the table's language, theme and table name — in one JSON file beside the
database (a server's database: in the user's data directory: they belong to this device, not to the
club). Read and written here only; a missing or damaged file means the defaults."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from models.i18n import DEFAULT_LANGUAGE, LANGUAGES

log = logging.getLogger(__name__)


class DeviceSettings:
    """The settings file at ``path`` (None: nothing is kept, as for a test's app)."""

    def __init__(self, path: Path | None):
        self.path = path

    @classmethod
    def beside(cls, db_path: Path | str) -> DeviceSettings:
        from companion.paths import local_dir

        return cls(local_dir(db_path) / "settings.json")

    def read(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def language(self) -> str:
        """The table's language as saved (the default when there is none)."""
        lang = self.read().get("lang")
        return str(lang) if lang in LANGUAGES else DEFAULT_LANGUAGE

    def save(self, **values: Any) -> bool:
        """Keep these settings (the others as they were), in one write; False if the file cannot be
        written."""
        if self.path is None:
            return False
        data = self.read()
        data.update(values)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        except OSError:
            log.warning("cannot save the settings to %s", self.path)
            return False
        return True
