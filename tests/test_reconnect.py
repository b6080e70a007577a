"""A tab that slept takes back its page session from the socket the server still holds — only
from a socket of the same device, as the connection proves it (its peer address), never because a
client names a session id (companion.app.reconnect); and a socket closed before it had a session does
not leave Flet's handler waiting for ever. Driven at the ASGI level, without Flet: the inner app
holds each socket open until it is told the socket went; the last test runs the real server."""

from __future__ import annotations

import asyncio
import time

import msgpack
import pytest

from companion.app.reconnect import REGISTER_CLIENT, UNANSWERED_END_S, SessionTakeover, registered_session


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


# -- a socket that leaves before it has a session ---------------------------------------------------

CONTROL_EVENT = 3  # flet.messaging.protocol.MessageAction.CONTROL_EVENT

class Hangs:
    """Flet 1.0.5's handler of a socket: it answers a registration; when its client leaves, it ends
    only if it had answered one (its send loop is stopped for a session only), else it waits for
    ever. ``slow``: a handler that had answered takes that long to end."""

    def __init__(self, slow: float = 0.0) -> None:
        self.slow = slow
        self.ended: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        session = False
        try:
            while (message := await receive())["type"] != "websocket.disconnect":
                action, body = msgpack.unpackb(message["bytes"][1:])
                if action == REGISTER_CLIENT:  # a new session, or the one asked for
                    await send({"type": "websocket.send",
                                "bytes": frame(REGISTER_CLIENT, {"session_id": body["session_id"] or "s-new"})})
                    session = True
            if not session:
                await asyncio.Event().wait()
            await asyncio.sleep(self.slow)
            self.ended.append("by itself")
        except asyncio.CancelledError:
            self.ended.append("cancelled")
            raise


async def _leave(app, frames: list[bytes]) -> None:
    inbox: asyncio.Queue = asyncio.Queue()
    for data in frames:
        inbox.put_nowait({"type": "websocket.receive", "bytes": data})
    inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
    scope = {"type": "websocket", "client": ("10.0.0.7", 50000), "headers": [], "name": "x"}

    async def send(message) -> None:
        pass

    await asyncio.wait_for(app(scope, inbox.get, send), timeout=10)


def test_a_socket_that_leaves_before_it_has_a_session_does_not_leave_its_handler_waiting():
    click = frame(CONTROL_EVENT, {"target": 1, "name": "click"})
    for frames in ([], [click]):  # nothing, or something other than a registration
        inner = Hangs()
        asyncio.run(_leave(SessionTakeover(inner), frames))
        assert inner.ended == ["cancelled"]


def test_a_socket_that_had_a_session_is_left_to_end_by_itself_however_long_it_takes():
    inner = Hangs(slow=UNANSWERED_END_S * 1.5)
    asyncio.run(_leave(SessionTakeover(inner), [frame(REGISTER_CLIENT, {"session_id": ""})]))
    assert inner.ended == ["by itself"]


@pytest.mark.slow
def test_sockets_closed_before_registering_hold_nothing_on_the_server(tmp_path):
    """On the real server: devices that open the websocket and close it at once (no PIN asked
    yet) leave no handler behind, which a stop would otherwise have to cancel after its grace."""
    from websockets.sync.client import connect

    from tests.e2e.harness import AppProcess

    server = AppProcess(tmp_path / "c.db", tmp_path / "app.log").start()
    try:
        for _ in range(5):
            with connect(server.url.replace("http://", "ws://") + "ws", origin=server.url.rstrip("/"),
                         open_timeout=20):
                pass
        time.sleep(UNANSWERED_END_S + 1.0)
    finally:
        server.stop()
    assert "graceful shutdown exceeded" not in server.log(), server.log()
