"""A tab that slept gets its own page back, even when the server never saw its socket die.

Flet 1.0.5's web client opens its websocket again by itself and asks for its page session by id;
the server gives that session back only if it is *disconnected*. A tablet that sleeps loses its
network without the server being told (no close reaches it): the old socket stays open on the
server until its pings time out (uvicorn: 20 s + 20 s). A tab that wakes before that is given a
brand-new session — the home screen instead of the table it showed. :class:`SessionTakeover`
(ASGI middleware around Flet's app) reads the client's registration (the first frame on a socket:
``[REGISTER_CLIENT, {session_id, …}]``); when a socket from the same device (peer address and
user agent, as Flet itself keys sessions) still holds that session, that old socket is ended
first — Flet disconnects the session as for any dropped socket — and the registration then takes
the session over: the tab shows the current state of its own screen.

A handler whose socket closed before it had a session is ended by the socket guard around this
middleware (companion.app.socket_guard), which also hands this one only frames Flet can read.
"""

from __future__ import annotations

import asyncio
import logging

import msgpack

from companion.app.asgi import ASGIApp, Message, Receive, Scope, Send, header

log = logging.getLogger(__name__)


REGISTER_CLIENT = 1  # flet.messaging.protocol.MessageAction.REGISTER_CLIENT
FLET_FRAME = 0x00    # a websocket binary frame holding one msgpack protocol message
ENDED_WITHIN_S = 5.0  # how long a registration waits for the old socket's session to be let go


def registered_session(frame: bytes) -> str | None:
    """The ``session_id`` of a registration frame (the client's request or the server's answer),
    read without unpacking the rest (the answer carries the whole page); None for any other frame."""
    if not frame or frame[0] != FLET_FRAME:
        return None
    try:
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        unpacker.feed(frame[1:])
        if unpacker.read_array_header() != 2 or unpacker.unpack() != REGISTER_CLIENT:
            return None
        for _ in range(unpacker.read_map_header()):
            if unpacker.unpack() == "session_id":
                value = unpacker.unpack()
                return value if isinstance(value, str) and value else None
            unpacker.skip()
    except Exception:  # not a registration (or not msgpack): nothing to take over
        return None
    return None


class _Socket:
    """One websocket: which page session it holds, whether it was told to end, whether it has."""

    def __init__(self) -> None:
        self.key: tuple[str, str, str] | None = None
        self.ending = asyncio.Event()
        self.ended = asyncio.Event()


class SessionTakeover:
    """ASGI middleware: a registration asking for a session that another socket of the same device
    still holds ends that socket first (see the module's doc). Other traffic passes untouched."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.holders: dict[tuple[str, str, str], _Socket] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client") or ("", 0)
        device = (str(client[0]), header(scope, b"user-agent") or "")
        me = _Socket()
        asked = False   # the client's registration was read
        answered = False  # the server's answer (this socket's session id) was read
        ending = asyncio.ensure_future(me.ending.wait())

        async def receive_() -> Message:
            nonlocal asked
            if me.ending.is_set():
                return {"type": "websocket.disconnect", "code": 1001}
            incoming = asyncio.ensure_future(receive())
            await asyncio.wait({incoming, ending}, return_when=asyncio.FIRST_COMPLETED)
            if not incoming.done():  # another socket took this one's session over
                incoming.cancel()
                return {"type": "websocket.disconnect", "code": 1001}
            message = incoming.result()
            if not asked and message.get("type") == "websocket.receive" and message.get("bytes"):
                asked = True
                session_id = registered_session(message["bytes"])
                if session_id is not None:
                    await self._take_over((*device, session_id), me)
            return message

        async def send_(message: Message) -> None:
            nonlocal answered
            if not answered and message.get("type") == "websocket.send" and message.get("bytes"):
                answered = True
                session_id = registered_session(message["bytes"])
                if session_id is not None:
                    me.key = (*device, session_id)
                    self.holders[me.key] = me
            await send(message)

        try:
            await self.app(scope, receive_, send_)
        finally:
            ending.cancel()
            me.ended.set()
            if me.key is not None and self.holders.get(me.key) is me:
                del self.holders[me.key]

    async def _take_over(self, key: tuple[str, str, str], me: _Socket) -> None:
        old = self.holders.get(key)
        if old is None or old is me:
            return
        log.info("a tab takes its page session back from a socket the server still held")
        old.ending.set()
        try:
            await asyncio.wait_for(old.ended.wait(), ENDED_WITHIN_S)
        except asyncio.TimeoutError:  # Flet then gives the tab a new session, as without this
            log.warning("the old socket did not let its page session go")
