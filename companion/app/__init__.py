"""The tablet app (Flet 1.0, web mode): home, new game, table, results, history, players, rules,
statistics. Screens only talk to the session service (companion.service) and render its state.

``serve()`` is what ``companion run`` calls; ``make_main()`` builds the per-browser-session entry
point (one :class:`~companion.app.shell.App` per connected page, one service per process).
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import assets as _assets

if TYPE_CHECKING:
    from companion.service import SessionService

# The assets package's own folder: right for an editable install and for an installed wheel alike.
ASSETS_DIR = Path(_assets.__file__).resolve().parent
DEFAULT_PORT = 8550

log = logging.getLogger("companion.app")


def open_service(db_path: Path) -> SessionService:
    """The session service on the database at ``db_path`` (created and migrated if needed)."""
    from companion.service import SessionService
    from companion.store import Store

    return SessionService(Store(db_path))


def export_dir_for(db_path: Path) -> Path:
    """Exports go beside the database, in the user's data directory (or the --db directory)."""
    return db_path.parent / "exports"


def settings_path_for(db_path: Path) -> Path:
    """The table's language and theme are kept beside the database."""
    return db_path.parent / "settings.json"


def make_main(service: SessionService, export_dir: Path | None = None, settings_path: Path | None = None) -> Callable[[Any], None]:
    def main(page: Any) -> None:
        from companion.app.shell import App

        app = App(service, page, export_dir=export_dir, settings_path=settings_path)
        app.render()

    return main


def lan_address() -> str:
    """This machine's address on the local network, as its host name resolves (no packet is sent;
    the name itself when it does not resolve to a non-loopback address)."""
    name = socket.gethostname()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        return name
    return name if address.startswith("127.") else address


def desktop_available() -> bool:
    """A desktop window needs a display and Flet's desktop client (the flet-desktop package, which
    is not a dependency: its client is downloaded at run time)."""
    import importlib.util

    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def serve(db_path: Path, host: str | None = None, port: int = DEFAULT_PORT, lan: bool = False,
          desktop: bool = False) -> int:
    """Serve the app in web mode until interrupted. Loopback only unless ``lan``. With ``desktop``,
    open a desktop window instead where a display and Flet's desktop client are available."""
    import flet as ft

    bind = host or ("0.0.0.0" if lan else "127.0.0.1")
    service = open_service(db_path)
    if desktop:
        if desktop_available():
            print(f"database: {db_path}", file=sys.stderr, flush=True)
            ft.run(make_main(service, export_dir_for(db_path), settings_path_for(db_path)),
                   view=ft.AppView.FLET_APP, assets_dir=str(ASSETS_DIR))
            return 0
        from models.i18n import DEFAULT_LANGUAGE, Msg

        print(Msg("app.run.no_desktop").render(DEFAULT_LANGUAGE), file=sys.stderr, flush=True)
    # A server without a display must not try to open a browser or a desktop window.
    os.environ["FLET_FORCE_WEB_SERVER"] = "1"
    os.environ.pop("FLET_SERVER_IP", None)
    os.environ.pop("FLET_SERVER_PORT", None)
    shown = lan_address() if bind == "0.0.0.0" else bind
    print(f"http://{shown}:{port}/", flush=True)
    print(f"database: {db_path}", file=sys.stderr, flush=True)
    ft.run(make_main(service, export_dir_for(db_path), settings_path_for(db_path)), host=bind, port=port,
           view=ft.AppView.WEB_BROWSER, assets_dir=str(ASSETS_DIR), no_cdn=True)
    return 0
