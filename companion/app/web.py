"""Serving the app in web mode safely.

- :class:`OriginGuard` wraps Flet's ASGI app (flet_web's FastAPI app, whose websocket endpoint
  ``/ws`` sends a connected page the list of games and names): a request or websocket whose
  ``Origin`` header names another site is refused (HTTP 403) before it reaches Flet, so a web page
  the tablet's browser visits cannot read the history. Only the app's own origins are allowed —
  loopback, and with ``--lan`` the LAN address printed at start. An explicit list, not the Host
  header: a DNS-rebinding page has a foreign Origin even when its Host points here.
- :class:`PinGate`: with ``--lan`` the app is reachable by anyone on the network, so a table PIN
  is printed at start; a device that has not entered it (the machine serving the app excepted)
  sees only the PIN screen — the app itself, its games and names, is not built for that page. Ten
  wrong PINs from one device lock that device out until the app is restarted (with a new PIN);
  the other devices can still join, so one device cannot shut the table out. Fifty wrong PINs
  from all devices together lock every device out (a bound on guessing from many addresses);
  the machine serving the app needs no PIN either way.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

import flet as ft

from companion.app import ui
from models.i18n import Msg

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PIN_DIGITS = 6
MAX_PIN_FAILURES = 10  # from one device (its address)
MAX_TABLE_FAILURES = 50  # from all devices together
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def allowed_origins(port: int, hosts: Iterable[str] = ()) -> frozenset[str]:
    """The origins the app's own pages have: ``http://HOST:PORT`` for loopback and ``hosts``."""
    names = [*LOOPBACK_HOSTS, *hosts]
    return frozenset(f"http://{name.lower()}:{port}" for name in names if name and name != "0.0.0.0")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class OriginGuard:
    """ASGI middleware: refuse any HTTP request or websocket whose Origin is not one of ``allowed``.
    A request without an Origin header (not sent by a web page of another site) passes."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]):
        self.app = app
        self.allowed = frozenset(origin.lower().rstrip("/") for origin in allowed)

    def allows(self, origin: str | None) -> bool:
        return origin is None or origin.lower().rstrip("/") in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.allows(_header(scope, b"origin")):
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
            else:
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
                await send({"type": "http.response.body", "body": b"Forbidden: foreign origin\n"})
            return
        await self.app(scope, receive, send)


class PinGate:
    """The table PIN shared by every page of one server process. Wrong PINs are counted per device
    (its address: ``client``) and in all; a device is locked out after ``max_failures`` of its own,
    every device after ``max_total`` in all."""

    def __init__(self, pin: str | None = None, max_failures: int = MAX_PIN_FAILURES,
                 max_total: int = MAX_TABLE_FAILURES):
        self.pin = pin if pin is not None else new_pin()
        self.max_failures = max_failures
        self.max_total = max_total
        self.failures: dict[str, int] = {}  # device address -> wrong PINs
        self.total = 0
        self._lock = threading.Lock()

    @property
    def closed(self) -> bool:
        """Every device is locked out (too many wrong PINs in all)."""
        return self.total >= self.max_total

    def locked(self, client: str | None = None) -> bool:
        """Whether this device may not try again (its own wrong PINs, or the gate closed)."""
        return self.closed or self.failures.get(client or "", 0) >= self.max_failures

    def check(self, attempt: str, client: str | None = None) -> bool:
        """Whether ``attempt`` is the PIN; a wrong one counts towards the device's lock and the gate's."""
        with self._lock:
            if self.locked(client):
                return False
            if hmac.compare_digest(attempt.strip().encode(), self.pin.encode()):
                return True
            key = client or ""
            self.failures[key] = self.failures.get(key, 0) + 1
            self.total += 1
            return False

    @staticmethod
    def trusted(client_ip: str | None) -> bool:
        """The machine serving the app (it shows the PIN in its console) needs no PIN."""
        return bool(client_ip) and (client_ip in ("127.0.0.1", "::1") or str(client_ip).startswith("127."))


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def pin_view(gate: PinGate, lang: str, on_open: Callable[[], None],
             refresh: Callable[[ft.Control], None], client: str | None = None) -> ft.Control:
    """The only screen a device sees before it enters the table PIN. ``on_open`` builds the app
    once the PIN is right; ``refresh(view)`` shows the view again (with its message); ``client``:
    the device's address (its wrong PINs are counted apart)."""

    def t(key: str, **params: Any) -> str:
        return Msg(key, params).render(lang)

    typed: dict[str, str] = {"pin": "", "problem": ""}

    def set_pin(e: Any) -> None:
        typed["pin"] = e.control.value or ""

    def enter(_: Any) -> None:
        if gate.check(typed["pin"], client):
            on_open()
            return
        typed["pin"] = ""
        typed["problem"] = "app.pin.wrong"
        refresh(build())

    def lock_key() -> str:
        return "app.pin.locked" if gate.closed else "app.pin.locked_device"

    def build() -> ft.Control:
        parts: list[ft.Control] = [
            ui.title(t("app.pin.title")),
            ui.text(t("app.pin.why"), ui.FONT_BODY),
        ]
        if gate.locked(client):
            parts.append(ui.text(t(lock_key()), ui.FONT_BODY, color=ft.Colors.ERROR, ident="pin-problem"))
        else:
            field = ft.TextField(label=t("app.pin.label"), password=True, on_change=set_pin, on_submit=enter,
                                 keyboard_type=ft.KeyboardType.NUMBER, width=280, text_size=ui.FONT_TITLE)
            parts += [ui.tid("pin-field", field),
                      ui.button(t("app.pin.enter"), enter, ident="pin-enter", icon=ft.Icons.LOCK_OPEN,
                                kind="primary")]
            if typed["problem"]:
                parts.append(ui.text(t(typed["problem"]), ui.FONT_BODY, color=ft.Colors.ERROR, ident="pin-problem"))
        return ui.tid("pin-screen", ft.Container(ft.Column(parts, spacing=ui.GAP), padding=32))

    return build()


def error_view(message: Msg, lang: str) -> ft.Control:
    """The page a device sees when the app cannot start (e.g. a database it cannot use)."""
    return ui.tid("startup-error", ft.Container(ft.Column([
        ui.title(Msg("app.startup.failed").render(lang)),
        ui.text(message.render(lang), ui.FONT_BODY, color=ft.Colors.ERROR, ident="startup-error-text"),
    ], spacing=ui.GAP), padding=32))


def waiting_view(lang: str) -> ft.Control:
    """The page a device sees while the club's server has not answered since the app started."""
    return ui.tid("startup-waiting", ft.Container(ft.Column([
        ui.title(Msg("app.online.offline").render(lang)),
        ui.text(Msg("app.online.waiting").render(lang), ui.FONT_BODY, ident="startup-waiting-text"),
    ], spacing=ui.GAP), padding=32))


def show(page: Any, control: ft.Control) -> None:
    page.controls = [control]
    page.update()
