"""Serving the app in web mode safely.

- :class:`OriginGuard` wraps Flet's ASGI app (flet_web's FastAPI app, whose websocket endpoint
  ``/ws`` sends a connected page the list of games and names): a request or websocket whose
  ``Origin`` header names another site is refused (HTTP 403) before it reaches Flet, so a web page
  the tablet's browser visits cannot read the history. Only the app's own origins are allowed —
  loopback, and with ``--lan`` the LAN address printed at start. An explicit list, not the Host
  header: a DNS-rebinding page has a foreign Origin even when its Host points here.
  The guard also records each connection's peer address, as the socket gives it (the ASGI scope's
  ``client``), before any message of the client is read: :func:`peer_address` is what the page's
  entry point sees. Never ``page.client_ip``: Flet lets the client set page properties, so a
  device could say it is 127.0.0.1.
- :class:`PinGate`: with ``--lan`` the app is reachable by anyone on the network, so a table PIN
  is printed at start; a device that has not entered it (the machine serving the app excepted:
  a loopback peer) sees only the PIN screen — the app itself, its games and names, is not built
  for that page. After each wrong PIN a device waits before it may try again, longer each time;
  ten wrong PINs from one device lock that device out; the other devices can still join, so one
  device cannot shut the table out. Fifty wrong PINs from all devices together lock every device
  out (a bound on guessing from many addresses). Neither lock hands the evening to whoever
  guesses fastest: the machine serving the app needs no PIN, is told of each lock at once
  (:meth:`PinGate.listen`: its open pages say so) and lifts them all with a new PIN in one tap
  (:meth:`PinGate.renew`), without a restart; devices already at the table keep playing.
- :func:`lan_addresses`: this machine's addresses on the network (the printed URL and the allowed
  origins), from its interfaces, not from its host name (which Debian maps to 127.0.1.1).
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import math
import re
import secrets
import socket
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from typing import Any, NamedTuple

import flet as ft

from companion.app import ui
from companion.app.asgi import ASGIApp, Receive, Scope, Send, header
from models.i18n import Msg

log = logging.getLogger("companion.app")

PIN_DIGITS = 6
MAX_PIN_FAILURES = 10  # from one device (its address)
MAX_TABLE_FAILURES = 50  # from all devices together
MAX_DEVICES = 4096  # addresses whose wrong PINs are counted apart; one more counts only in all
PIN_DELAY_S = 1.0  # the wait after a device's first wrong PIN; it doubles with each next one…
PIN_DELAY_DOUBLINGS = 5  # …up to 32 times as long
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def allowed_origins(port: int, hosts: Iterable[str] = ()) -> frozenset[str]:
    """The origins the app's own pages have: ``http://HOST:PORT`` for loopback and ``hosts``."""
    names = [*LOOPBACK_HOSTS, *hosts]
    return frozenset(f"http://{name.lower()}:{port}" for name in names if name and name != "0.0.0.0")


_PEER: ContextVar[str | None] = ContextVar("companion_peer", default=None)


def peer_address() -> str | None:
    """The peer address of the connection the current page came in on (None: unknown). Set by
    :class:`OriginGuard` for the whole handling of a websocket; Flet starts the page's entry point
    in a task of that handling, which carries the value."""
    return _PEER.get()


@contextmanager
def connected_from(address: str | None) -> Iterator[None]:
    """Code run inside sees ``address`` as its connection's peer (what OriginGuard does)."""
    token = _PEER.set(address)
    try:
        yield
    finally:
        _PEER.reset(token)


def is_loopback(address: str | None) -> bool:
    """Whether ``address`` is this machine's loopback (an IPv4-mapped one too)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool(ip.is_loopback or (mapped is not None and mapped.is_loopback))


class OriginGuard:
    """ASGI middleware: refuse any HTTP request or websocket whose Origin is not one of ``allowed``.
    A request without an Origin header (not sent by a web page of another site) passes. What
    passes is handled knowing its socket's peer address (:func:`peer_address`)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]):
        self.app = app
        self.allowed = frozenset(origin.lower().rstrip("/") for origin in allowed)

    def allows(self, origin: str | None) -> bool:
        return origin is None or origin.lower().rstrip("/") in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.allows(header(scope, b"origin")):
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # before accept: HTTP 403
            else:
                send = with_page_headers(send)
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
                await send({"type": "http.response.body", "body": b"Forbidden: foreign origin\n"})
            return
        client = scope.get("client")
        with connected_from(str(client[0]) if client else None):
            await self.app(scope, receive, with_page_headers(send) if scope["type"] == "http" else send)


# Every HTTP answer: no page of another site may frame the app (clickjacking), a file is read as
# the type it is sent as, and no other site's script may read an answer (Flet's server says
# ``Access-Control-Allow-Origin: *``; the app's own pages need no CORS).
PAGE_HEADERS = (
    (b"content-security-policy", b"frame-ancestors 'self'"),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"x-content-type-options", b"nosniff"),
)
_DROPPED_HEADERS = {b"access-control-allow-origin", b"access-control-allow-credentials",
                    *(name for name, _ in PAGE_HEADERS)}


def with_page_headers(send: Send) -> Send:
    """``send`` with :data:`PAGE_HEADERS` on the response's start, and no CORS header."""
    async def send_(message: MutableMapping[str, Any]) -> None:
        if message.get("type") == "http.response.start":
            headers = [(bytes(k), bytes(v)) for k, v in message.get("headers", ())
                       if bytes(k).lower() not in _DROPPED_HEADERS]
            message = {**message, "headers": [*headers, *PAGE_HEADERS]}
        await send(message)

    return send_


class GateState(NamedTuple):
    """What the serving machine's pages show of the gate: the PIN, how many devices are locked
    out, whether every device is, whether the PIN printed at start was replaced."""
    pin: str
    locked: int
    closed: bool
    renewed: bool


class PinGate:
    """The table PIN shared by every page of one server process. Wrong PINs are counted per device
    (its peer address: ``client``) and in all; a device is locked out after ``max_failures`` of its
    own, every device after ``max_total`` in all. After its n-th wrong PIN a device must wait
    ``delay * 2**(n-1)`` seconds (at most ``delay * 2**PIN_DELAY_DOUBLINGS``) before it may try
    again: an attempt sooner is refused unread and not counted. At most ``max_devices`` addresses
    are counted apart: a wrong PIN from one more counts only in all (the tables do not grow
    without bound). ``fixed``: the PIN was given at start (``--pin``), so a restart does not
    change it. ``clock``: seconds, for the tests.

    The serving machine lifts the locks: :meth:`renew` draws a new PIN and forgets every count.
    Its pages :meth:`listen` to be told when a device is locked out, the gate closes or the PIN
    changes."""

    def __init__(self, pin: str | None = None, max_failures: int = MAX_PIN_FAILURES,
                 max_total: int = MAX_TABLE_FAILURES, delay: float = PIN_DELAY_S,
                 clock: Callable[[], float] = time.monotonic, max_devices: int = MAX_DEVICES):
        self.fixed = pin is not None
        self.renewed = False  # the PIN printed at start no longer opens (renew)
        self.pin = pin if pin is not None else new_pin()
        self.max_failures = max_failures
        self.max_total = max_total
        self.max_devices = max_devices
        self.delay = delay
        self.clock = clock
        self.failures: dict[str, int] = {}  # device address -> wrong PINs
        self.not_before: dict[str, float] = {}  # device address -> when it may try again
        self.total = 0
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], Callable[[], None] | None]] = []

    @property
    def closed(self) -> bool:
        """Every device is locked out (too many wrong PINs in all)."""
        return self.total >= self.max_total

    def locked(self, client: str | None = None) -> bool:
        """Whether this device may not try again (its own wrong PINs, or the gate closed)."""
        return self.closed or self.failures.get(client or "", 0) >= self.max_failures

    def state(self) -> GateState:
        with self._lock:
            locked = sum(1 for wrong in self.failures.values() if wrong >= self.max_failures)
            return GateState(self.pin, locked, self.closed, self.renewed)

    def wait_left(self, client: str | None = None) -> float:
        """Seconds before this device may try a PIN again (0: now)."""
        return max(0.0, self.not_before.get(client or "", 0.0) - self.clock())

    def attempt(self, attempt: str, client: str | None = None) -> str:
        """``"open"`` when ``attempt`` is the PIN; else why not: ``"locked"``, ``"wait"`` (too soon
        after a wrong PIN: not even compared), ``"wrong"`` (counted towards the locks)."""
        key = client or ""
        with self._lock:
            if self.locked(key):
                return "locked"
            if self.wait_left(key) > 0:
                return "wait"
            if hmac.compare_digest(attempt.strip().encode(), self.pin.encode()):
                return "open"
            self.total += 1
            locks = self.total == self.max_total
            if key in self.failures or len(self.failures) < self.max_devices:
                wrong = self.failures.get(key, 0) + 1
                self.failures[key] = wrong
                self.not_before[key] = self.clock() + self.delay * 2 ** min(wrong - 1, PIN_DELAY_DOUBLINGS)
                locks = locks or wrong == self.max_failures
        if locks:
            self._tell()
        return "wrong"

    def check(self, attempt: str, client: str | None = None) -> bool:
        """Whether ``attempt`` is the PIN; a wrong one counts towards the device's lock and the gate's."""
        return self.attempt(attempt, client) == "open"

    def renew(self) -> str:
        """The serving machine's way out of a lock: a new random PIN (in place of the one printed
        at start, ``--pin``'s too, until the app is restarted), every count and wait forgotten.
        Devices that entered the old PIN keep their pages. Returns the new PIN."""
        with self._lock:
            pin = new_pin()
            while pin == self.pin:
                pin = new_pin()
            self.pin = pin
            self.renewed = True
            self.failures.clear()
            self.not_before.clear()
            self.total = 0
        self._tell()
        return pin

    def listen(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` when a device is locked out, the gate closes or the PIN changes. It
        is called on the thread of the page that caused it, in a context of its own: it should
        only hand the news to its page's event loop (``page.run_task``). A bound method is held
        weakly (the gate does not keep a closed page's app alive)."""
        ref: Callable[[], Callable[[], None] | None]
        if hasattr(listener, "__self__") and hasattr(listener, "__func__"):
            ref = weakref.WeakMethod(listener)
        else:
            ref = lambda: listener  # noqa: E731
        with self._lock:
            self._listeners.append(ref)

    def listeners(self) -> int:
        """How many listeners are still alive."""
        with self._lock:
            self._listeners = [ref for ref in self._listeners if ref() is not None]
            return len(self._listeners)

    def _tell(self) -> None:
        with self._lock:
            alive = [(ref, ref()) for ref in self._listeners]
            self._listeners = [ref for ref, listener in alive if listener is not None]
        for _, listener in alive:
            if listener is None:
                continue
            try:
                copy_context().run(listener)  # what it sets (Flet's current page) stays its own
            except Exception:  # one page gone wrong does not keep the others from knowing
                log.warning("a page could not be told of the table PIN's lock", exc_info=True)

    @staticmethod
    def trusted(client: str | None) -> bool:
        """The machine serving the app (it shows the PIN in its console) needs no PIN: a loopback
        peer. ``client`` must be the socket's peer address, never what the page says."""
        return is_loopback(client)


def valid_pin(pin: str) -> bool:
    """A table PIN given at start: at least :data:`PIN_DIGITS` digits, nothing else."""
    return re.fullmatch(rf"[0-9]{{{PIN_DIGITS},}}", pin) is not None


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
        outcome = gate.attempt(typed["pin"], client)
        if outcome == "open":
            on_open()
            return
        typed["pin"] = ""
        typed["problem"] = "app.pin.wait" if outcome == "wait" else "app.pin.wrong"
        refresh(build())

    def again(_: Any) -> None:  # the table gave a new PIN: the field again, if the lock is lifted
        typed["problem"] = ""
        refresh(build())

    def build() -> ft.Control:
        parts: list[ft.Control] = [
            ui.title(t("app.pin.title")),
            ui.text(t("app.pin.why"), ui.FONT_BODY),
        ]
        if gate.locked(client):
            lock = "app.pin.locked" if gate.closed else "app.pin.locked_device"
            parts += [ui.text(t(lock), ui.FONT_BODY, color=ft.Colors.ERROR, ident="pin-problem"),
                      ui.button(t("app.pin.again"), again, ident="pin-again", icon=ft.Icons.REFRESH)]
        else:
            field = ft.TextField(label=t("app.pin.label"), password=True, on_change=set_pin, on_submit=enter,
                                 keyboard_type=ft.KeyboardType.NUMBER, width=280, text_size=ui.FONT_TITLE)
            parts += [ui.tid("pin-field", field),
                      ui.button(t("app.pin.enter"), enter, ident="pin-enter", icon=ft.Icons.LOCK_OPEN,
                                kind="primary")]
            if typed["problem"]:
                wait = {"count": max(1, math.ceil(gate.wait_left(client)))} if typed["problem"] == "app.pin.wait" else {}
                parts.append(ui.text(t(typed["problem"], **wait), ui.FONT_BODY, color=ft.Colors.ERROR,
                                     ident="pin-problem"))
        return ui.tid("pin-screen", ft.Container(ft.Column(parts, spacing=ui.GAP), padding=32))

    return build()


def lock_banner(state: GateState, lang: str, on_new: Callable[[Any], None]) -> ft.Control:
    """On the serving machine's pages only, while a lock holds: how many devices the table PIN
    locked out, whether it locked out every device, and the one button that lifts it all with a
    new PIN."""

    def t(key: str, **params: Any) -> str:
        return Msg(key, params).render(lang)

    head = t("app.pin.closed_here") if state.closed else t("app.pin.locked_here", count=state.locked)
    details = [t("app.pin.locked_here", count=state.locked)] if state.closed and state.locked else []
    details.append(t("app.pin.lift"))
    return ui.banner(head, ident="pin-lock", details=details, actions=[
        ui.button(t("app.pin.new"), on_new, ident="pin-new", icon=ft.Icons.LOCK_RESET, kind="primary")])


def error_view(message: Msg, lang: str) -> ft.Control:
    """The page a device sees when the app cannot start (e.g. a database it cannot use). A device
    that has not entered the table PIN is shown ``Msg("app.startup.failed_remote")``, a sentence
    that names nothing of this machine."""
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


_ROUTE_PROBE = "198.51.100.1"  # TEST-NET-2: a route to it is looked up, no packet is ever sent
_SIOCGIFADDR = 0x8915


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def _route_source() -> list[str]:
    """The source address the system would use to reach the network (connecting a UDP socket sends
    nothing); none without a route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((_ROUTE_PROBE, 9))
            return [str(probe.getsockname()[0])]
        except OSError:
            return []


def _interface_addresses() -> list[str]:
    """The IPv4 address of each network interface (Linux; elsewhere none)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl
    import struct

    found = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return []
    for name in names:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                answer = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _host_name_addresses() -> list[str]:
    try:
        return list(socket.gethostbyname_ex(socket.gethostname())[2])
    except OSError:
        return []


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the network, the one it would reach the network from
    first; no loopback (a host name mapped to 127.0.1.1 gives nothing). No packet is sent."""
    seen: list[str] = []
    for address in (*_route_source(), *_interface_addresses(), *_host_name_addresses()):
        if _usable(address) and address not in seen:
            seen.append(address)
    return seen


def show(page: Any, control: ft.Control) -> None:
    """Put ``control`` on the page in place of what it showed. Without its key: a view shown again
    (the PIN screen after a try) would have the key of the one it replaces, and with the two paired
    by key the browser never showed the new one's message (tests/e2e/test_lan_browser.py in
    Chromium; paired by place, as without keys, it does)."""
    control.key = None
    page.controls = [control]
    page.update()
