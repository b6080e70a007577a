"""What a stranger on the network can cost the server before it has entered the table PIN: the
probes that froze, grew or locked the app (issue of 2026-12-06), run again from devices on a network
of the tests' own (tests/netns.py: the app in one namespace, 19 device addresses in another; no
address outside them), against ``companion run --lan`` whose standard error is a pipe nobody reads.

After each probe the serving machine still answers (loopback, in its namespace: the server's own
status, ``GET /.status``), and what the server holds — sockets, Flet's handlers, page sessions, its
memory — comes back to where it was once the probe's sockets are closed; a device with the PIN still
gets in. Each probe held nothing of this before the socket guard (companion.app.socket_guard): 300
frames ``00 c1`` froze the server for good, 50 made-up registrations on one socket left 50 sessions,
100 "register, close" kept 100 PIN-screen sessions an hour, a compressed or plain 15 MiB message was
read whole, and fifty wrong PINs from 16 addresses locked every device out until a restart."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from companion.app.socket_guard import SOCKETS_PER_DEVICE
from companion.app.visitors import PAGES_PER_DEVICE
from companion.service import SessionService
from companion.store import Store
from tests.netns import Lan, Served

PIN = "246810"
TTL_S = 3  # COMPANION_VISITOR_TTL_S: how long a PIN-screen page lives after its socket (a minute by default)
SETTLE_S = 30  # Flet evicts expired sessions every 10 s
MEMORY_KIB = 6 * 1024  # "within a few MiB of where it was"
ANSWER_S = 5.0  # the serving machine's answer: milliseconds here; frozen, it never came

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("probes") / "c.db"
    SessionService(Store(path)).start("stupide-vautour", ["Anne", "Bruno"])
    return path


def _settled(served: Served, sessions: int, handlers: int = 0) -> dict:
    """The server's status once it holds no more than ``sessions`` page sessions and ``handlers``
    handlers, and no socket (or after SETTLE_S, whatever it holds then)."""
    deadline = time.monotonic() + SETTLE_S
    while True:
        status = served.status()
        assert status["answered"], "the serving machine got no answer"
        if (status["sockets"] == 0 and status["handlers"] <= handlers and status["sessions"] <= sessions) \
                or time.monotonic() > deadline:
            return status
        time.sleep(0.5)


def _in(answer: dict) -> bool:
    """The device got the app: the game in play, whose players only the app names."""
    return any("Anne" in " ".join(attempt["texts"]) for attempt in answer["attempts"])


def _joins(net: Lan, served: Served, source: str, pin: str = PIN) -> bool:
    return _in(net.device("pins", served.url, pin, source=source))


def test_a_device_without_the_pin_cannot_freeze_or_grow_the_server(net, db, tmp_path):
    served = Served(net, db, tmp_path / "server.log", "--pin", PIN, port=8561, unread_stderr=True,
                    env={"COMPANION_VISITOR_TTL_S": str(TTL_S)}).wait()
    try:
        assert _joins(net, served, net.device_ips[-1])  # a device at the table, and a warm server
        base = _settled(served, sessions=1)
        steps: dict[str, dict] = {}

        # 0 and 2: frames Flet cannot read, from three devices, each socket closed after its frame
        # (before: Flet logged a traceback each; 192 filled the unread pipe and the server froze)
        probes = [net.device_start("frames", served.url, "100", "00c1", source=ip) for ip in net.device_ips[:3]]
        during = served.status()
        steps["frames"] = {"answers": [net.answer(p) for p in probes], "during": during,
                           "after": _settled(served, base["sessions"])}
        # 1: made-up registrations on one socket, and "register then close" from two devices
        steps["sessions"] = {"answer": net.device("sessions", served.url, "50", source=net.device_ips[3])}
        steps["register-close"] = {
            "answers": [net.device("register-close", served.url, "100", source=ip) for ip in net.device_ips[4:6]],
            "peak": served.status()}
        steps["sessions"]["after"] = steps["register-close"]["after"] = _settled(served, base["sessions"])
        # 3: a compressed flood, and a plain 15 MiB registration
        steps["compressed"] = {"answer": net.device("compressed", served.url, "20", "15", source=net.device_ips[6])}
        steps["big"] = {"answer": net.device("big-register", served.url, "15", source=net.device_ips[7]),
                        "after": _settled(served, base["sessions"])}
        joins_after = _joins(net, served, net.device_ips[-1])
    finally:
        served.stop()

    frames = steps["frames"]
    assert frames["during"]["answered"] and frames["during"]["seconds"] < ANSWER_S, frames
    assert all(a["opened"] + a["refused"] == 100 for a in frames["answers"]), frames
    assert sum(a["opened"] for a in frames["answers"]) >= 3 * SOCKETS_PER_DEVICE, frames  # each got its sockets
    for name, step in steps.items():
        after = step.get("after")
        if after is None:
            continue
        assert after["seconds"] < ANSWER_S, (name, after)
        assert (after["sockets"], after["handlers"]) == (0, 0), (name, after)
        assert after["sessions"] <= base["sessions"], (name, base, after)
        assert after["memory_kib"] - base["memory_kib"] < MEMORY_KIB, (name, base, after)
    assert steps["sessions"]["answer"]["closed"] == 1008  # a second registration ends the socket
    assert all(a["opened"] == 100 for a in steps["register-close"]["answers"])
    assert steps["register-close"]["peak"]["sessions"] <= base["sessions"] + 1 + 2 * PAGES_PER_DEVICE
    assert steps["compressed"]["answer"]["compressed"] is False
    assert steps["compressed"]["answer"]["closed"] is not None  # ended at the first big message
    assert steps["big"]["answer"]["closed"] is not None
    assert joins_after


def test_sixteen_devices_guessing_cannot_lock_the_table_out_for_the_evening(net, db, tmp_path):
    served = Served(net, db, tmp_path / "server.log", "--pin", PIN, port=8562,
                    env={"COMPANION_PIN_DELAY_S": "0.5"}).wait()
    try:
        guessers = [net.device_start("wrong-pins", served.url, "000000", source=ip) for ip in net.device_ips[:16]]
        answers = [net.answer(g) for g in guessers]
        locked_out = net.device("pins", served.url, PIN, source=net.device_ips[16])
        lifted = net.serving("tap", f"http://127.0.0.1:{served.port}", "pin-new")  # the serving machine's page: « Nouveau code »
        shown = " ".join(lifted["texts"])
        new_pins = set(re.findall(r"\b\d{6}\b", shown)) - {PIN}
        assert len(new_pins) == 1, shown[:3000]
        new_pin = new_pins.pop()
        old_refused = net.device("pins", served.url, PIN, source=net.device_ips[17])
        joined = _joins(net, served, net.device_ips[18], new_pin)
        status = served.status()
    finally:
        served.stop()

    # the 50th wrong PIN is answered with the lock itself, not counted as wrong by its device
    assert sum(a["wrong"] for a in answers) >= 49 and all(a["locked"] for a in answers), answers
    assert "pin-field" not in " ".join(locked_out["first"])  # every device locked out, as before…
    assert "pin-problem" in " ".join(old_refused["attempts"][0]["texts"])  # …until a new PIN: the old one is refused
    assert joined
    assert status["answered"]
