"""A tab that slept takes back its page session from the socket the server still holds — only
from a socket of the same device, as the connection proves it (its peer address), never because a
client names a session id (companion.app.reconnect). Driven at the ASGI level, without Flet: the inner
app holds each socket open until it is told the socket went. (A socket closed before it had a session:
tests/test_socket_guard.py.)"""

from __future__ import annotations

import asyncio

import msgpack

from companion.app.reconnect import REGISTER_CLIENT, SessionTakeover, registered_session


def frame(action: int, payload: dict) -> bytes:
    return b"\x00" + msgpack.packb([action, payload])


def test_a_registration_frame_gives_its_session_id_and_nothing_else_does():
    assert registered_session(frame(REGISTER_CLIENT, {"page_name": "", "session_id": "abc"})) == "abc"
    assert registered_session(frame(REGISTER_CLIENT, {"session_id": ""})) is None
    assert registered_session(frame(REGISTER_CLIENT + 1, {"session_id": "abc"})) is None
    assert registered_session(b"\x01" + msgpack.packb([REGISTER_CLIENT, {"session_id": "abc"}])) is None
    assert registered_session(b"\x00not msgpack at all") is None
    assert registered_session(b"") is None


class Inner:
    """Flet's part: answers a registration with the session id asked for, then holds the socket
    until its client disconnects; records which sockets ended and why."""

    def __init__(self) -> None:
        self.ended: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        first = await receive()
        session_id = registered_session(first["bytes"])
        await send({"type": "websocket.send", "bytes": frame(REGISTER_CLIENT, {"session_id": session_id})})
        while (await receive())["type"] != "websocket.disconnect":
            pass
        self.ended.append(scope["name"])


def socket(app, name: str, address: str, session_id: str, agent: bytes = b"Chromium"):
    """One websocket on ``app``: registers for ``session_id`` and then stays silent (a tab asleep)."""
    inbox: asyncio.Queue = asyncio.Queue()
    inbox.put_nowait({"type": "websocket.receive", "bytes": frame(REGISTER_CLIENT, {"session_id": session_id})})
    scope = {"type": "websocket", "client": (address, 50000), "headers": [(b"user-agent", agent)], "name": name}

    async def send(message) -> None:
        pass

    return asyncio.ensure_future(app(scope, inbox.get, send))


async def _play(second_address: str, agent: bytes = b"Chromium") -> list[str]:
    inner = Inner()
    app = SessionTakeover(inner)
    asleep = socket(app, "asleep", "10.0.0.2", "s-1")
    await asyncio.sleep(0.05)
    woken = socket(app, "woken", second_address, "s-1", agent)
    await asyncio.sleep(0.2)
    ended = list(inner.ended)
    for task in (asleep, woken):
        task.cancel()
    await asyncio.gather(asleep, woken, return_exceptions=True)
    return ended


def test_the_same_device_takes_its_session_back_from_the_socket_the_server_still_holds():
    assert asyncio.run(_play("10.0.0.2")) == ["asleep"]


def test_another_address_naming_the_session_ends_nobody_s_socket():
    assert asyncio.run(_play("10.0.0.9")) == []


def test_another_browser_on_the_same_address_ends_nobody_s_socket():
    assert asyncio.run(_play("10.0.0.2", agent=b"Firefox")) == []
