"""Entry point for a packaged build (``flet build apk``, through the root main.py):
the database lives in the app's private storage."""

from __future__ import annotations

import os
from pathlib import Path

import flet as ft

from companion.app import ASSETS_DIR, export_dir_for, make_main, open_service, settings_path_for
from companion.paths import resolve_db_path


def _db_path() -> Path:
    storage = os.environ.get("FLET_APP_STORAGE_DATA")
    if storage:
        return Path(storage).resolve() / "companion.db"
    return resolve_db_path(None)


if __name__ == "__main__":
    db = _db_path()
    ft.run(make_main(open_service(db), export_dir_for(db), settings_path_for(db)), assets_dir=str(ASSETS_DIR))
