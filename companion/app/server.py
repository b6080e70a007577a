"""The server's boot: what ``companion run`` calls (``serve()``: the database opened, the PIN gate in
LAN mode, every screen preloaded, the memory frozen, the web server with its guards) and the entry
point of each connected page (``make_main()``: one :class:`~companion.app.shell.App` per page, one
service per process); the pages shown when the database cannot be used or the club's server does
not answer yet. The app reaches the data through the service only: the database is opened by
:func:`companion.service.open_service`."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from companion.app import ASSETS_DIR
from companion.app.settings import DeviceSettings
from companion.paths import shown_db

if TYPE_CHECKING:
    from companion.app.web import PinGate
    from companion.service import SessionService
    from models.i18n import Msg

DEFAULT_PORT = 8550
PIN_DELAY_ENV = "COMPANION_PIN_DELAY_S"  # the wait after a first wrong PIN, in seconds (default 1)
# how long a PIN-screen page lives after its socket closed, in seconds (default: visitors.VISITOR_TTL_S)
VISITOR_TTL_ENV = "COMPANION_VISITOR_TTL_S"
# The renderer the browser's Flutter client draws with (Flet's WebRenderer value). "auto" starts skwasm
# where the browser can run it (Chromium: WasmGC and WebGL; multi-threaded, the page being
# cross-origin isolated) and CanvasKit elsewhere (Safari, an iPad): skwasm was measured 2–4× faster
# than CanvasKit on a touch tap here (README, Benchmarks: benchmarks/tap_browser.py serves each screen
# with both). "skwasm" itself would leave Safari with no renderer at all. Flet's own environment
# variable chooses another for a table that wants it: FLET_WEB_RENDERER=canvaskit companion run.
WEB_RENDERER = "auto"

log = logging.getLogger("companion.app")


def export_dir_for(db_path: Path | str) -> Path:
    """Exports go beside the database, in the user's data directory (or the --db directory); with
    a server's database (a URL), in the user's data directory."""
    from companion.paths import local_dir

    return local_dir(db_path) / "exports"


@dataclass(frozen=True)
class Join:
    """How a phone joins the table in LAN mode: the address printed at start and the table PIN,
    shown as a QR code on the serving machine's home screen (the physical table is the trust
    boundary: whoever sees that screen may join)."""
    url: str
    pin: str


def make_main(service: SessionService, export_dir: Path | None = None, settings_path: Path | None = None,
              gate: PinGate | None = None, table: str | None = None, join: Join | None = None) -> Callable[[Any], None]:
    """The entry point of one connected page. With a ``gate`` (LAN mode) a device other than the
    serving machine first sees only the PIN screen; the app is built once the PIN is right. Which
    device it is: the connection's peer address (companion.app.web.peer_address), never the page's
    ``client_ip``, which the client can set. ``table``: the table name given at start
    (``--table``), for a page when no settings file keeps one. ``join``: the LAN address and PIN,
    given to the serving machine's pages only (a device that entered the PIN does not need it), with
    the gate's locks and the button that lifts them (a new PIN)."""
    def main(page: Any) -> None:
        from companion.app.web import peer_address

        open_page(page, peer_address())

    def open_page(page: Any, client: str | None) -> None:
        from companion.app.shell import App

        def open_app() -> None:
            if gate is not None and not gate.trusted(client):  # the PIN was entered on this page
                from companion.app.socket_guard import ADMISSION
                from companion.app.visitors import VISITORS

                VISITORS.forget(page)
                ADMISSION.admit(client)
            app = App(service, page, export_dir=export_dir, settings_path=settings_path, table=table)
            if gate is not None and gate.trusted(client):
                app.join = join
                app.watch_gate(gate)  # its locks shown as they happen, lifted with a new PIN
            elif gate is not None:  # a phone that joined with the PIN: straight to the game in play, if any
                playing = app.guard(service.history.unfinished) or []
                if playing:
                    app.go("table", session_id=max(playing, key=lambda game: game.updated_at).session_id)
                    return
            app.render()

        if gate is not None and not gate.trusted(client):
            from companion.app.visitors import VISITORS
            from companion.app.web import pin_view, show

            VISITORS.arrive(page, client)  # its session ends soon after its socket, and is capped
            lang = DeviceSettings(settings_path).language()
            show(page, pin_view(gate, lang, open_app, lambda view: show(page, view),
                                client=client))
            return
        open_app()

    main.open_page = open_page  # type: ignore[attr-defined]  # for a page whose peer is already known
    return main


class Waiting:
    """The service on a club's server that did not answer when the app started: opened by the first
    page that finds the server answering, then shared by every page (one service per process)."""

    def __init__(self, db_path: Path | str):
        self.db_path = db_path
        self.service: SessionService | None = None
        self._lock = threading.Lock()

    def get(self) -> SessionService | None:
        """The service, or None while the server does not answer (StoreUnusable for anything else:
        a server that answers with a database the app cannot use)."""
        from companion.service import StoreUnusable, open_service

        with self._lock:
            if self.service is None:
                try:
                    self.service = open_service(self.db_path)
                except StoreUnusable as err:
                    if not err.offline:
                        raise
                    return None
            return self.service


WAIT_EVERY_S = 3.0  # how often a page waiting for the club's server tries it again


def make_waiting_main(waiting: Waiting, export_dir: Path | None = None, settings_path: Path | None = None,
                      gate: PinGate | None = None, table: str | None = None,
                      join: Join | None = None) -> Callable[[Any], None]:
    """The entry point of a page while the club's server has not answered since the app started: it
    says so, tries again every few seconds (in a worker thread: a connection may wait for its
    timeout) and opens the app as soon as the server answers; no restart needed."""
    def main(page: Any) -> None:
        from companion.app.web import error_view, peer_address, show, waiting_view
        from companion.service import StoreUnusable

        client = peer_address()  # here, in the connection's context: the task below runs elsewhere
        lang = DeviceSettings(settings_path).language()
        show(page, waiting_view(lang))
        closed = threading.Event()
        page.on_close = lambda _: closed.set()

        async def wait() -> None:
            while not closed.is_set():
                try:
                    service = await asyncio.to_thread(waiting.get)
                except StoreUnusable as err:
                    show(page, error_view(startup_message(err.msg, waiting.db_path, gate, client), lang))
                    return
                if service is not None:
                    opened = make_main(service, export_dir, settings_path, gate=gate, table=table, join=join)
                    opened.open_page(page, client)  # type: ignore[attr-defined]
                    return
                await asyncio.sleep(WAIT_EVERY_S)

        page.run_task(wait)

    return main


def make_error_main(message: Msg, settings_path: Path | None = None, gate: PinGate | None = None,
                    db_path: Path | str | None = None) -> Callable[[Any], None]:
    """The entry point when the app cannot start: every page shows why, in one sentence; with a
    ``gate`` (LAN mode), a device other than the serving machine only that the app cannot start
    (the sentence may name the database)."""
    def main(page: Any) -> None:
        from companion.app.web import error_view, peer_address, show

        shown = startup_message(message, db_path, gate, peer_address())
        show(page, error_view(shown, DeviceSettings(settings_path).language()))

    return main


def startup_message(message: Msg, db_path: Path | str | None, gate: PinGate | None, client: str | None) -> Msg:
    """Why the app cannot start, as the device at ``client`` may read it: a generic sentence for a
    device that has not entered the table PIN, else ``message`` without any password."""
    from models.i18n import Msg

    if gate is not None and not gate.trusted(client):
        return Msg("app.startup.failed_remote")
    return hidden_passwords(message, db_path)


def hidden_passwords(message: Msg, db_path: Path | str | None) -> Msg:
    """``message`` with every password of the database URL ``db_path`` replaced by ``***``."""
    from companion.paths import hide_passwords
    from models.i18n import Msg

    if not isinstance(db_path, str):
        return message
    return Msg(message.key, {name: hide_passwords(value, db_path) if isinstance(value, str) else value
                             for name, value in message.params.items()})


def lan_address() -> str:
    """The address a device on the network opens the app at: this machine's first LAN address
    (see companion.app.web.lan_addresses; no packet is sent), else its host name."""
    from companion.app.web import lan_addresses

    found = lan_addresses()
    return found[0] if found else socket.gethostname()


def desktop_available() -> bool:
    """A desktop window needs a display and Flet's desktop client (the flet-desktop package, which
    is not a dependency: its client is downloaded at run time)."""
    import importlib.util

    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def serve(db_path: Path | str, host: str | None = None, port: int = DEFAULT_PORT, lan: bool = False,
          desktop: bool = False, pin: str | None = None, table: str | None = None) -> int:
    """Serve the app in web mode until interrupted. Loopback only unless ``lan``; with ``lan``,
    print that anyone on the network can reach it and the table PIN other devices must enter
    (``pin``, or a new random one). With ``desktop``, open a desktop window instead where a
    display and Flet's desktop client are available. A database the app cannot use: one sentence
    on standard error, and every page shows it; the exit status is then 2. A club's server that
    does not answer yet: the same sentence, and every page waits for it (see make_waiting_main). ``table``: this
    tablet's table name (``--table``, ``COMPANION_TABLE``), saved in its settings, where the app's
    own field changes it later."""
    import flet as ft

    from companion.paths import readable_url
    from companion.service import StoreUnusable, open_service
    from models.i18n import DEFAULT_LANGUAGE, Msg

    bind = host or ("0.0.0.0" if lan else "127.0.0.1")
    device = DeviceSettings.beside(db_path)
    settings, lang = device.path, device.language()
    status = 0
    gate = None
    if bind not in ("127.0.0.1", "localhost", "::1"):
        from companion.app.web import PinGate, valid_pin

        if pin is not None and not valid_pin(pin.strip()):
            print(Msg("app.run.bad_pin").render(lang), file=sys.stderr, flush=True)
            return 2
        delay = os.environ.get(PIN_DELAY_ENV)  # the tests' knob: a stronger gate is never weakened by a device
        gate = PinGate(pin.strip() if pin is not None else None)
        if delay:
            gate.delay = float(delay)
        ttl = os.environ.get(VISITOR_TTL_ENV)  # the tests' knob, as the delay's
        if ttl:
            from companion.app.visitors import VISITORS

            VISITORS.ttl = float(ttl)
    if isinstance(db_path, str) and not readable_url(db_path):
        print(Msg("app.run.bad_db_url", {"url": shown_db(db_path)}).render(lang),
              file=sys.stderr, flush=True)
        return 2
    if table is not None:
        device.save(table=table)
    shown = lan_address() if bind == "0.0.0.0" else bind
    join = Join(f"http://{shown}:{port}/", gate.pin) if gate is not None else None
    service: SessionService | None = None
    waiting: Waiting | None = None
    try:
        service = open_service(db_path)
        main = make_main(service, export_dir_for(db_path), settings, gate=gate, table=table, join=join)
    except StoreUnusable as err:
        print(hidden_passwords(err.msg, db_path).render(lang), file=sys.stderr, flush=True)
        if err.offline:  # the club's server does not answer yet: every page waits for it
            waiting = Waiting(db_path)
            main = make_waiting_main(waiting, export_dir_for(db_path), settings, gate=gate, table=table, join=join)
        else:
            main, status = make_error_main(err.msg, settings, gate=gate, db_path=db_path), 2
    if desktop:
        if desktop_available():
            print(f"database: {shown_db(db_path)}", file=sys.stderr, flush=True)
            ft.run(main, view=ft.AppView.FLET_APP, assets_dir=str(ASSETS_DIR))
            return status
        print(Msg("app.run.no_desktop").render(DEFAULT_LANGUAGE), file=sys.stderr, flush=True)
    # A server without a display must not try to open a browser or a desktop window.
    os.environ["FLET_FORCE_WEB_SERVER"] = "1"
    os.environ.pop("FLET_SERVER_IP", None)
    os.environ.pop("FLET_SERVER_PORT", None)
    hosts = [bind, shown]
    if gate is not None:
        from companion.app.web import lan_addresses

        hosts += [socket.gethostname(), *(lan_addresses() if bind == "0.0.0.0" else ())]
    print(f"http://{shown}:{port}/", flush=True)
    print(f"database: {shown_db(db_path)}", file=sys.stderr, flush=True)
    if gate is not None:
        print(Msg("app.run.lan_warning", {"url": f"http://{shown}:{port}/"}).render(lang), file=sys.stderr, flush=True)
        print(Msg("app.run.pin", {"pin": gate.pin}).render(lang), file=sys.stderr, flush=True)
    preload()
    run_web(web_app(main, port, hosts), bind, port)
    return status


def preload() -> None:
    """Import now what a page imports on its way to a game (the shell, every screen, every game's
    screen and engine, the pydantic models of the records, Unicode's look-alike tables that a new
    player's name is checked against):
    served, they are in memory before it is frozen (settle_memory), and the first tablet that opens
    a game does not wait for them."""
    from companion.app import flet_messages, games, screens, shell, wake  # noqa: F401  (imported for what they load)
    from models import record_models  # noqa: F401  (imported for what it loads)
    from models.names import skeleton
    from scoring.registry import engine_class, refereed_games

    skeleton("")
    for name in screens.SCREENS:
        screens.SCREENS[name]
    for game in games.SCREENS:
        games.screen_for(game)
    for game in refereed_games():
        engine_class(game)


def settle_memory() -> None:
    """What is in memory when the server starts stays there for its whole life: the modules, the
    catalogues, the app (about 140,000 objects the garbage collector tracks). Python's full
    collection scanned them all, 50–60 ms with the server's event loop held, and such a collection
    fell on a tap now and then. Frozen (``gc.freeze``: kept out of every collection), they leave a
    full collection only what the pages made since."""
    import gc

    gc.collect()
    gc.freeze()


def web_app(main: Callable[[Any], None], port: int, hosts: list[str]) -> Any:
    """Flet's ASGI app for ``main`` (flet_web's FastAPI app: static client + websocket), wrapped
    in the origin check: only the app's own origins (loopback, and ``hosts``) may connect; in the
    socket guard: what a websocket may cost is bounded, and Flet gets only frames it can read
    (socket_guard); a tab that slept takes back its page session from a socket the server still
    holds (reconnect); the loading screen before the first page says nothing in English (boot_message)."""
    import flet as ft

    from companion.app.boot_message import BootMessage
    from companion.app.reconnect import SessionTakeover
    from companion.app.socket_guard import SocketGuard
    from companion.app.web import OriginGuard, allowed_origins

    inner = ft.run(main, assets_dir=str(ASSETS_DIR), no_cdn=True, view=ft.AppView.WEB_BROWSER,
                   web_renderer=ft.WebRenderer(WEB_RENDERER), export_asgi_app=True)
    return OriginGuard(SocketGuard(SessionTakeover(BootMessage(inner))), allowed_origins(port, hosts))


STOP_WITHIN_S = 3  # on SIGTERM or SIGINT: open connections are closed after this long at most


def run_web(app: Any, host: str, port: int) -> None:  # pragma: no cover - replaced in the unit tests
    """Serve an ASGI app until interrupted or terminated (SIGINT, SIGTERM: what a service manager
    sends), as Flet itself serves it; a stop does not wait for open pages longer than STOP_WITHIN_S.
    Websocket messages are sized by device and never compressed (socket_guard.uvicorn_options); the
    log never blocks the server (server_log)."""
    import uvicorn

    from companion.app.server_log import log_without_blocking
    from companion.app.socket_guard import uvicorn_options

    _, listener = log_without_blocking()
    settle_memory()
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", log_config=None,
                    timeout_graceful_shutdown=STOP_WITHIN_S, **uvicorn_options())
    finally:
        listener.stop()
