"""What a device on the network can cost the server before it has entered the table PIN: bounded.

Flet 1.0.5 trusts its websocket's client: a frame it cannot read (``00 c1``: not msgpack), a message
before the registration, a second registration, stops its read loop for good — the socket's close is
then never seen, and a handler without a session waits for ever; each registration makes a page
session that lives an hour after its socket closes; and uvicorn queues every message the app has
not read yet, with no bound. :class:`SocketGuard` (ASGI middleware around Flet's app) stands between
the socket and Flet:

- it reads the socket itself, always, so a client's close is seen whatever Flet did with the
  frames before it, and it hands Flet only frames Flet can read: binary, Flet's protocol message
  (``[0x00][msgpack [action, body]]``) with an action a client sends and the body that action
  takes, or a data-channel frame; the registration first, and once. Anything else ends the socket
  (close code 1008) and, if the server never answered a registration on it, Flet's handler with it;
- a socket must register within :data:`REGISTER_WITHIN_S` seconds;
- a device (its peer address, as the connection proves it) has at most :data:`SOCKETS_PER_DEVICE`
  sockets open, all devices together :data:`SOCKETS_IN_ALL`, opened no faster than
  :data:`OPENINGS_PER_MINUTE` a minute (the machine serving the app is not counted: loopback);
- a message is at most :data:`SMALL_MESSAGE` bytes (16 KiB) from a device that has not entered the PIN, at
  most :data:`LARGE_MESSAGE` from the serving machine and a device that has (a file picked for
  import travels in one message); messages are never compressed (:func:`uvicorn_options`), so
  what arrives is what is held.

The sizes are enforced by the socket's own protocol (:class:`SizedWebSocketProtocol`: a message over
the limit is refused, close code 1009, before it is read whole); the guard checks them again.
:func:`status` tells the serving machine (loopback only) how many sockets, handlers and page
sessions the server holds, and its memory (``GET /.status``).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import msgpack

from companion.app.asgi import ASGIApp, Message, Receive, Scope, Send
from companion.app.flet_sessions import session_count
from companion.app.web import is_loopback

log = logging.getLogger(__name__)


# What Flet 1.0.5's client sends (flet.messaging.protocol.MessageAction) and the keys of each body:
# the dataclass Flet builds from it takes exactly these (RegisterClientRequestBody & co.).
REGISTER_CLIENT, CONTROL_EVENT, UPDATE_CONTROL_PROPS, INVOKE_METHOD = 1, 3, 4, 5
BODY_KEYS: dict[int, frozenset[str]] = {
    REGISTER_CLIENT: frozenset({"session_id", "page_name", "page"}),
    CONTROL_EVENT: frozenset({"target", "name", "data"}),
    UPDATE_CONTROL_PROPS: frozenset({"id", "props"}),
    INVOKE_METHOD: frozenset({"control_id", "call_id", "result", "error"}),
}
FLET_FRAME, DATA_CHANNEL_FRAME = 0x00, 0x01

# Measured in Chromium (tests/e2e/test_lan_browser.py, which holds it under 2 KiB): the largest
# message a page sends up to and at the PIN is its registration, 465 bytes; a tap's event about 50.
SMALL_MESSAGE = 16 * 1024
LARGE_MESSAGE = 16 * 1024 * 1024  # a file picked for import (uvicorn's own default limit)
SOCKETS_PER_DEVICE = 8
SOCKETS_IN_ALL = 256
OPENINGS_PER_MINUTE = 120  # a device's new sockets (a burst of that many, then two a second)
REGISTER_WITHIN_S = 10.0
# how long Flet's handler of a socket that ended before the server answered a registration may
# take to end by itself before it is cancelled (a registration being answered gets its answer)
UNANSWERED_END_S = 1.0
REFUSED = 1008  # policy violation
TOO_BIG = 1009
STATUS_PATH = "/.status"


class Admission:
    """Which devices may send large messages: the serving machine (loopback) and the addresses
    that entered the table PIN (:meth:`admit`, told by the PIN gate). Each socket's protocol
    registers here, so a device that enters the PIN on a socket already open gets the large limit
    on it at once."""

    def __init__(self) -> None:
        self.admitted: set[str] = set()
        self.protocols: dict[str, set[Any]] = collections.defaultdict(set)

    def trusted(self, address: str | None) -> bool:
        return is_loopback(address) or (address or "") in self.admitted

    def limit(self, address: str | None) -> int:
        return LARGE_MESSAGE if self.trusted(address) else SMALL_MESSAGE

    def admit(self, address: str | None) -> None:
        if not address or is_loopback(address):
            return
        self.admitted.add(address)
        for protocol in self.protocols.get(address, ()):
            protocol.set_limit(LARGE_MESSAGE)


ADMISSION = Admission()  # one per server process, as the PIN gate


def uvicorn_options(admission: Admission = ADMISSION) -> dict[str, Any]:
    """uvicorn's websocket settings for the app: no compression (a small compressed message
    inflates to many megabytes), a protocol that sizes each socket's messages by its device."""
    return {"ws": sized_protocol(admission), "ws_per_message_deflate": False, "ws_max_size": LARGE_MESSAGE}


def sized_protocol(admission: Admission) -> type:
    """uvicorn's websocket protocol (websockets' sans-I/O one, which Flet's own server uses) whose
    message limit is the device's: small until the device is admitted."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class SizedWebSocketProtocol(WebSocketsSansIOProtocol):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.address = str(self.client[0]) if self.client else None
            self.set_limit(admission.limit(self.address))
            admission.protocols[self.address or ""].add(self)

        def set_limit(self, size: int) -> None:
            # websockets' Protocol reads each frame's length before its payload and refuses a
            # message over max_message_size (close 1009) without reading it whole
            self.conn.max_message_size = size

        def connection_lost(self, exc: Exception | None) -> None:
            held = admission.protocols.get(self.address or "")
            if held is not None:
                held.discard(self)
                if not held:
                    admission.protocols.pop(self.address or "", None)
            super().connection_lost(exc)

    return SizedWebSocketProtocol


def readable(frame: bytes, registered: bool) -> str | None:
    """Why Flet could not take ``frame`` as the next client message of a socket, as a short tag
    for the log and the counts (None: it can).
    ``registered``: the socket's registration came already."""
    if not frame:
        return "empty"
    if frame[0] == DATA_CHANNEL_FRAME:
        return None if registered and len(frame) >= 5 else "data-channel"
    if frame[0] != FLET_FRAME:
        return "unknown-frame-type"
    try:
        message = msgpack.unpackb(frame[1:], raw=False, strict_map_key=False)
    except Exception:  # msgpack's own errors, and ext types Flet would build
        return "not-msgpack"
    if not isinstance(message, list) or len(message) != 2 or not isinstance(message[0], int):
        return "not-a-message"
    action, body = message
    keys = BODY_KEYS.get(action)
    if keys is None:
        return "not-a-client-action"
    if not isinstance(body, dict) or set(body) != keys:
        return "wrong-body"
    if action == REGISTER_CLIENT:
        if registered:
            return "second-registration"
        if not isinstance(body["session_id"], (str, type(None))) or not isinstance(body["page_name"], str):
            return "wrong-registration"
        if not isinstance(body["page"], dict):
            return "wrong-registration"
        return None
    if not registered:
        return "before-the-registration"
    if action == CONTROL_EVENT and not (isinstance(body["target"], int) and isinstance(body["name"], str)):
        return "wrong-event"
    if action == UPDATE_CONTROL_PROPS and not (isinstance(body["id"], int) and isinstance(body["props"], dict)):
        return "wrong-update"
    return None


class _Openings:
    """A device's new sockets: a bucket of OPENINGS_PER_MINUTE that refills at that pace."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, address: str) -> bool:
        now = self.clock()
        tokens, when = self.buckets.get(address, (float(OPENINGS_PER_MINUTE), now))
        tokens = min(float(OPENINGS_PER_MINUTE), tokens + (now - when) * OPENINGS_PER_MINUTE / 60.0)
        if tokens < 1.0:
            self.buckets[address] = (tokens, now)
            return False
        if len(self.buckets) > 4 * SOCKETS_IN_ALL:  # a bucket full again by now carries nothing worth keeping
            rate = OPENINGS_PER_MINUTE / 60.0
            self.buckets = {a: (t, w) for a, (t, w) in self.buckets.items()
                            if t + (now - w) * rate < OPENINGS_PER_MINUTE - 1}
        self.buckets[address] = (tokens - 1.0, now)
        return True


class SocketGuard:
    """ASGI middleware: bounds what a websocket may cost (see the module's doc). HTTP passes,
    but for :data:`STATUS_PATH`, answered here to loopback peers only."""

    def __init__(self, app: ASGIApp, admission: Admission = ADMISSION,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.admission = admission
        self.open: collections.Counter[str] = collections.Counter()  # address -> sockets open
        self.handlers = 0  # Flet handlers running
        self.openings = _Openings(clock)
        self.refused: collections.Counter[str] = collections.Counter()  # why -> how many

    def status(self) -> dict[str, int]:
        return {"sockets": sum(self.open.values()), "handlers": self.handlers, "sessions": session_count(),
                "memory_kib": _memory_kib(), "refused": sum(self.refused.values())}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("path") == STATUS_PATH:
            await self._status(scope, send)
            return
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        local = is_loopback(address)
        if not local:
            why = self._admits(address)
            if why is not None:
                self.refused[why] += 1
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1013})  # before accept: HTTP 403
                return
        self.open[address] += 1
        try:
            await self._serve(scope, receive, send, address)
        finally:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]

    def _admits(self, address: str) -> str | None:
        if self.open[address] >= SOCKETS_PER_DEVICE:
            return "sockets-of-the-device"
        if sum(count for peer, count in self.open.items() if not is_loopback(peer)) >= SOCKETS_IN_ALL:
            return "sockets-in-all"
        if not self.openings.take(address):
            return "openings-of-the-device"
        return None

    async def _serve(self, scope: Scope, receive: Receive, send: Send, address: str) -> None:
        inbox: asyncio.Queue[Message] = asyncio.Queue()
        closed = asyncio.Event()  # the socket ended: its client left, or the guard ended it
        state = {"registered": False, "answered": False}

        async def end(code: int, why: str) -> None:
            """Close the socket and tell Flet its client left."""
            if closed.is_set():
                return
            closed.set()
            self.refused[why] += 1
            log.info("a websocket from %s ended: %s", address, why)
            inbox.put_nowait({"type": "websocket.disconnect", "code": code})
            try:
                await send({"type": "websocket.close", "code": code})
            except Exception:  # closed by the other side meanwhile
                pass

        async def pump() -> None:
            """Read the socket for as long as it is open, whatever Flet does with what it is
            handed, and hand Flet only what it can read."""
            while not closed.is_set():
                message = await receive()
                kind = message.get("type")
                if kind == "websocket.disconnect":
                    closed.set()
                    inbox.put_nowait(message)
                    return
                if kind != "websocket.receive":  # websocket.connect
                    inbox.put_nowait(message)
                    continue
                frame = message.get("bytes")
                if frame is None:  # a text frame: Flet's client sends none
                    await end(REFUSED, "text-frame")
                elif len(frame) > self.admission.limit(address):
                    await end(TOO_BIG, "message-too-big")
                elif (why := readable(frame, state["registered"])) is not None:
                    await end(REFUSED, why)
                else:
                    state["registered"] = True
                    inbox.put_nowait(message)

        async def send_(message: Message) -> None:
            """Send, or drop once the socket ended: Flet's send loop then goes on to its end, and
            its handler tells the session it was disconnected (a send that raised there left the
            session connected for good, so it never expired)."""
            if message.get("type") == "websocket.send" and message.get("bytes"):
                state["answered"] = True
            if closed.is_set():
                return
            try:
                await send(message)
            except Exception:  # the client left meanwhile
                closed.set()
                inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})

        async def registration_due() -> None:
            await asyncio.sleep(REGISTER_WITHIN_S)
            if not state["registered"]:
                await end(REFUSED, "no-registration")

        self.handlers += 1
        handler = asyncio.ensure_future(self.app(scope, inbox.get, send_))
        reader = asyncio.ensure_future(pump())
        due = asyncio.ensure_future(registration_due())
        ended = asyncio.ensure_future(closed.wait())
        try:
            await asyncio.wait({handler, ended}, return_when=asyncio.FIRST_COMPLETED)
            # the socket ended: Flet ends a handler that had a session by itself; one that never
            # answered a registration waits for ever on its send loop (at once when it was handed
            # none: no session can come)
            if not handler.done() and not state["registered"]:
                handler.cancel()
            while not handler.done():
                await asyncio.wait({handler}, timeout=UNANSWERED_END_S)
                if not handler.done() and not state["answered"]:
                    handler.cancel()
        finally:
            self.handlers -= 1
            for task in (reader, due, ended):
                task.cancel()
            if not handler.done():
                handler.cancel()
        if not handler.cancelled() and handler.exception() is not None:
            log.debug("a websocket's handler ended with %r", handler.exception())

    async def _status(self, scope: Scope, send: Send) -> None:
        client = scope.get("client")
        if not is_loopback(str(client[0]) if client else None):
            status, body = 404, b"Not Found\n"
        else:
            status, body = 200, json.dumps(self.status()).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json" if status == 200 else b"text/plain"),
                                (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})


def _memory_kib() -> int:
    """This process's resident memory (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
