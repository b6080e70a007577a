"""Entry point for a packaged build (``flet build apk``, through the root main.py):
the database lives in the app's private storage."""

from __future__ import annotations

import os
from pathlib import Path

import flet as ft

from companion.app import ASSETS_DIR
from companion.app.server import export_dir_for, make_error_main, make_main
from companion.app.settings import DeviceSettings
from companion.paths import resolve_db_path


def _db_path() -> Path | str:
    storage = os.environ.get("FLET_APP_STORAGE_DATA")
    if storage:
        return Path(storage).resolve() / "companion.db"
    return resolve_db_path(None)


if __name__ == "__main__":
    from companion.service import StoreUnusable, open_service

    db = _db_path()
    try:
        main = make_main(open_service(db), export_dir_for(db), DeviceSettings.beside(db).path)
    except StoreUnusable as err:  # a clear page, not a traceback; the file is left as it was
        main = make_error_main(err.msg, DeviceSettings.beside(db).path)
    ft.run(main, assets_dir=str(ASSETS_DIR))
