"""What a websocket may cost the server, bounded by the socket guard (companion.app.socket_guard),
driven at the ASGI level with a stand-in for Flet's handler that behaves as Flet 1.0.5's does; the
log that never blocks the server (companion.app.server_log); the private names of the pinned Flet
that companion.app.flet_sessions reads. The same probes against the real server, from devices on a
network of their own: tests/test_lan_probes.py."""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import time
from datetime import datetime, timedelta, timezone

import msgpack
import pytest

from companion.app import flet_sessions, socket_guard
from companion.app import visitors as visitors_module
from companion.app.server_log import log_without_blocking
from companion.app.socket_guard import (
    CONTROL_EVENT,
    REGISTER_CLIENT,
    SMALL_MESSAGE,
    SOCKETS_PER_DEVICE,
    UNANSWERED_END_S,
    UPDATE_CONTROL_PROPS,
    Admission,
    SocketGuard,
    readable,
)
from companion.app.visitors import Visitors

REGISTRATION = {"session_id": "", "page_name": "", "page": {"route": "/", "width": 800, "height": 1000}}


def frame(action: int, body: object) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def register() -> bytes:
    return frame(REGISTER_CLIENT, REGISTRATION)


def click(target: int = 1) -> bytes:
    return frame(CONTROL_EVENT, {"target": target, "name": "click", "data": None})


# -- which frames Flet can read ---------------------------------------------------------------------

def test_flet_gets_a_registration_first_and_once_then_the_messages_a_client_sends():
    assert readable(register(), registered=False) is None
    assert readable(click(), registered=True) is None
    assert readable(frame(UPDATE_CONTROL_PROPS, {"id": 3, "props": {"value": "12"}}), registered=True) is None
    assert readable(b"\x01\x00\x00\x00\x00data", registered=True) is None  # a data channel's frame


@pytest.mark.parametrize("data, registered, why", [
    (b"\x00\xc1", False, "not-msgpack"),  # 0xc1 is no msgpack byte: Flet's read loop died on it
    (b"\x00" + msgpack.packb([REGISTER_CLIENT, {"session_id": ""}])[:-1], False, "not-msgpack"),  # truncated
    (b"\x00" + msgpack.packb([REGISTER_CLIENT]), False, "not-a-message"),
    (frame(REGISTER_CLIENT, {"session_id": "", "page": {}}), False, "wrong-body"),
    (frame(REGISTER_CLIENT, {**REGISTRATION, "extra": 1}), False, "wrong-body"),
    (frame(REGISTER_CLIENT, {**REGISTRATION, "page": "x"}), False, "wrong-registration"),
    (frame(2, {"id": 1}), True, "not-a-client-action"),  # PATCH_CONTROL is the server's
    (frame(99, {}), True, "not-a-client-action"),
    (click(), False, "before-the-registration"),
    (register(), True, "second-registration"),
    (frame(CONTROL_EVENT, {"target": "1", "name": "click", "data": None}), True, "wrong-event"),
    (b"\x01\x00\x00", True, "data-channel"),
    (b"\x07abc", True, "unknown-frame-type"),
    (b"", True, "empty"),
])
def test_a_frame_flet_cannot_read_is_named(data, registered, why):
    assert readable(data, registered) == why


# -- the guard around a stand-in for Flet -----------------------------------------------------------

class FletLike:
    """Flet 1.0.5's handler of a socket, as far as the guard is concerned: it accepts, answers a
    registration (a session), and reads until its client leaves. A frame it cannot read stops its
    read loop for good; when its client leaves (or its loop stops) it ends only if it had a
    session, else it waits for ever. ``slow``: a handler with a session takes that long to end."""

    def __init__(self, slow: float = 0.0) -> None:
        self.slow = slow
        self.ended: list[str] = []
        self.received: list[bytes] = []

    async def __call__(self, scope, receive, send) -> None:
        session = False
        try:
            assert (await receive())["type"] == "websocket.connect"
            await send({"type": "websocket.accept"})
            while (message := await receive())["type"] != "websocket.disconnect":
                self.received.append(message["bytes"])
                try:
                    action, body = msgpack.unpackb(message["bytes"][1:])
                except Exception:
                    break  # Flet's read loop dies
                if action == REGISTER_CLIENT:
                    await send({"type": "websocket.send", "bytes": frame(REGISTER_CLIENT, {"session_id": "s-1"})})
                    session = True
            if not session:
                await asyncio.Event().wait()
            await asyncio.sleep(self.slow)
            self.ended.append("by itself")
        except asyncio.CancelledError:
            self.ended.append("cancelled")
            raise


class Socket:
    """One websocket's client side on ``guard``: what it sends, and what the server sent it."""

    def __init__(self, guard: SocketGuard, address: str = "10.0.0.7") -> None:
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.sent: list[dict] = []
        scope = {"type": "websocket", "client": (address, 50000), "headers": [], "path": "/ws"}
        self.task = asyncio.ensure_future(guard(scope, self.inbox.get, self._send))

    async def _send(self, message) -> None:
        self.sent.append(dict(message))

    def frames(self, *frames: bytes) -> Socket:
        for data in frames:
            self.inbox.put_nowait({"type": "websocket.receive", "bytes": data})
        return self

    def leave(self) -> Socket:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        return self

    @property
    def closed_with(self) -> int | None:
        return next((m["code"] for m in self.sent if m["type"] == "websocket.close"), None)

    async def done(self, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self.task, timeout)


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_frame_flet_cannot_read_ends_the_socket_and_its_handler_though_the_client_stays():
    async def play():
        flet = FletLike()
        guard = SocketGuard(flet, Admission())
        sock = Socket(guard).frames(b"\x00\xc1")  # and the client never closes
        await sock.done()
        return flet, guard, sock

    flet, guard, sock = run(play())
    assert sock.closed_with == 1008
    assert flet.received == [] and flet.ended == ["cancelled"]  # Flet never saw the frame
    assert guard.handlers == 0 and guard.status()["sockets"] == 0


def test_a_socket_that_leaves_before_it_has_a_session_does_not_leave_its_handler_waiting():
    async def play(frames):
        flet = FletLike()
        sock = Socket(SocketGuard(flet, Admission())).frames(*frames).leave()
        await sock.done()
        return flet.ended

    assert run(play([])) == ["cancelled"]
    assert run(play([click()])) == ["cancelled"]  # something other than a registration first


def test_a_socket_that_had_a_session_is_left_to_end_by_itself_however_long_it_takes():
    async def play():
        flet = FletLike(slow=UNANSWERED_END_S * 1.5)
        sock = Socket(SocketGuard(flet, Admission())).frames(register(), click()).leave()
        await sock.done()
        return flet

    flet = run(play())
    assert flet.ended == ["by itself"] and len(flet.received) == 2


def test_a_second_registration_ends_the_socket_and_flet_sees_only_the_first():
    async def play():
        flet = FletLike()
        sock = Socket(SocketGuard(flet, Admission()))
        sock.frames(register(), frame(REGISTER_CLIENT, {**REGISTRATION, "session_id": "bogus00000000001"}))
        await sock.done()
        return flet, sock

    flet, sock = run(play())
    assert sock.closed_with == 1008
    assert flet.received == [register()] and flet.ended == ["by itself"]  # its session ends as any


def test_a_socket_that_does_not_register_in_time_is_ended(monkeypatch):
    monkeypatch.setattr(socket_guard, "REGISTER_WITHIN_S", 0.1)

    async def play():
        flet = FletLike()
        sock = Socket(SocketGuard(flet, Admission()))
        await sock.done()
        return flet, sock

    flet, sock = run(play())
    assert sock.closed_with == 1008 and flet.ended == ["cancelled"]


def test_a_message_over_the_small_limit_is_refused_until_the_device_entered_the_pin():
    big = frame(CONTROL_EVENT, {"target": 5, "name": "result", "data": "x" * SMALL_MESSAGE})

    async def play(admitted: bool):
        admission = Admission()
        if admitted:
            admission.admit("10.0.0.7")
        flet = FletLike()
        sock = Socket(SocketGuard(flet, admission)).frames(register(), big)
        if admitted:
            sock.leave()
        await sock.done()
        return flet, sock

    flet, sock = run(play(admitted=False))
    assert sock.closed_with == 1009 and flet.received == [register()]
    flet, sock = run(play(admitted=True))
    assert sock.closed_with is None and flet.received == [register(), big]


def test_a_device_holds_a_bounded_number_of_sockets_and_the_serving_machine_is_not_counted():
    async def play():
        guard = SocketGuard(FletLike(), Admission())
        mine = [Socket(guard).frames(register()) for _ in range(SOCKETS_PER_DEVICE)]
        await asyncio.sleep(0.05)
        extra = Socket(guard).frames(register())
        await extra.done()
        other = Socket(guard, "10.0.0.8").frames(register())
        local = [Socket(guard, "127.0.0.1").frames(register()) for _ in range(SOCKETS_PER_DEVICE + 2)]
        await asyncio.sleep(0.05)
        status = guard.status()
        for sock in [*mine, other, *local]:
            sock.leave()
        await asyncio.gather(*(sock.done() for sock in [*mine, other, *local]))
        return extra, other, local, status, guard

    extra, other, local, status, guard = run(play())
    assert extra.closed_with == 1013 and not any(m["type"] == "websocket.accept" for m in extra.sent)
    assert other.closed_with is None and all(sock.closed_with is None for sock in local)
    assert status["sockets"] == SOCKETS_PER_DEVICE + 1 + SOCKETS_PER_DEVICE + 2
    assert guard.status()["sockets"] == 0 and guard.handlers == 0


def test_a_device_cannot_open_sockets_faster_than_its_pace():
    now = [0.0]

    async def play():
        guard = SocketGuard(FletLike(), Admission(), clock=lambda: now[0])
        refused = 0
        for _ in range(socket_guard.OPENINGS_PER_MINUTE + 5):
            sock = Socket(guard).leave()
            await sock.done()
            refused += sock.closed_with == 1013
        now[0] += 30.0  # half a minute later: half the openings are back
        again = Socket(guard).leave()
        await again.done()
        return refused, again

    refused, again = run(play())
    assert refused == 5 and again.closed_with is None


def test_the_status_is_the_serving_machine_s_only():
    async def ask(address: str):
        guard = SocketGuard(FletLike(), Admission())
        sent: list[dict] = []

        async def send(message):
            sent.append(dict(message))

        async def receive():
            return {"type": "http.request", "body": b""}

        await guard({"type": "http", "path": "/.status", "client": (address, 1), "headers": []}, receive, send)
        return sent[0]["status"], sent[1]["body"]

    status, body = run(ask("127.0.0.1"))
    assert status == 200 and b'"sessions"' in body and b'"handlers"' in body and b'"memory_kib"' in body
    assert run(ask("10.0.0.7"))[0] == 404


# -- PIN-screen pages ----------------------------------------------------------------------------

class Page:
    def __init__(self) -> None:
        self.session = type("S", (), {"_Session__expires_at": None})()
        self.on_disconnect = self.on_close = None


def test_pin_screen_pages_live_a_minute_after_their_socket_and_are_capped_per_device_and_in_all(monkeypatch):
    ended: list[object] = []
    monkeypatch.setattr(visitors_module, "end", ended.append)
    visitors = Visitors(per_device=2, in_all=3, ttl=60)
    a1, a2, a3, b1, c1 = Page(), Page(), Page(), Page(), Page()
    for page, address in ((a1, "10.0.0.1"), (a2, "10.0.0.1"), (a3, "10.0.0.1")):
        visitors.arrive(page, address)
    assert ended == [a1.session] and visitors.count("10.0.0.1") == 2  # its device's oldest, at once
    visitors.arrive(b1, "10.0.0.2")
    visitors.arrive(c1, "10.0.0.3")
    assert ended == [a1.session, a2.session] and visitors.count() == 3  # then the oldest in all
    b1.on_disconnect(None)
    left = b1.session._Session__expires_at
    assert left is not None and 50 < (left - datetime.now(left.tzinfo)).total_seconds() <= 60
    visitors.forget(c1)  # entered the PIN: no longer a visitor
    c1.on_disconnect(None)
    assert c1.session._Session__expires_at is None


def test_a_pin_screen_page_whose_socket_closed_before_it_was_built_lives_a_minute_too():
    late = Page()
    late.session.expires_at = datetime.now(timezone.utc) + timedelta(hours=1)  # Flet's hour, already set
    Visitors(ttl=60).arrive(late, "10.0.0.1")
    assert (late.session._Session__expires_at - datetime.now(timezone.utc)).total_seconds() <= 60


def test_the_pinned_flet_has_the_private_names_flet_sessions_reads():
    from flet.messaging.session import Session
    from flet_web.fastapi.flet_app_manager import FletAppManager

    assert "self.__expires_at" in inspect.getsource(Session.__init__)
    assert isinstance(vars(FletAppManager()).get("_FletAppManager__sessions"), dict)
    assert flet_sessions.session_count() >= 0


# -- the log ----------------------------------------------------------------------------------------

def test_the_log_never_blocks_the_caller_when_nobody_reads_standard_error():
    read_end, write_end = os.pipe()  # a pipe nobody reads: 64 KiB and it is full
    stream = os.fdopen(write_end, "w", buffering=1)
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    handler, listener = log_without_blocking(stream=stream, capacity=100)
    try:
        started = time.monotonic()
        for n in range(2000):
            logging.getLogger("flet_web.fastapi").warning("Receive loop error %d", n, exc_info=ValueError("x" * 300))
        took = time.monotonic() - started
        assert took < 5.0 and handler.dropped > 0
    finally:
        os.close(read_end)  # the writer thread's next write fails and it goes on
        listener.stop(within=0.5)
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        logging.captureWarnings(False)


def test_the_openings_of_devices_gone_quiet_are_forgotten():
    now = [0.0]
    openings = socket_guard._Openings(lambda: now[0])
    devices = [f"10.1.{n // 250}.{n % 250}" for n in range(4 * socket_guard.SOCKETS_IN_ALL + 10)]
    for address in devices:  # each leaves its bucket half empty
        openings.buckets[address] = (socket_guard.OPENINGS_PER_MINUTE / 2, now[0])
    now[0] += 60.0  # a minute later every one of those buckets is full again
    assert openings.take("10.9.9.9")
    assert list(openings.buckets) == ["10.9.9.9"]
