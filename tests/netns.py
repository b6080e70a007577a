"""A small network of its own for the LAN tests: two network namespaces joined by a veth pair with
private addresses, the app served in one (``server``), a device on the network in the other
(``device``). Nothing is routed anywhere else: each namespace has only its loopback and its end of
the pair, so no test can send a packet outside them. Torn down (namespaces and pair) after use.

Needs root and ``ip`` (Debian's iproute2). Where namespaces cannot be made, the tests skip with the
reason; with the environment variable CI set they fail instead (CI runs as root).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEVICE_SCRIPT = Path(__file__).resolve().parent / "lan_device.py"
START_TIMEOUT = 90  # seconds: a cold start on a busy 2-core machine


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the LAN tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


DEVICE_ADDRESSES = 19  # the device's namespace holds this many addresses: as many devices to the server


class Lan:
    """The two namespaces and their addresses (a /24 of 10.0.0.0/8 chosen from the process id: the
    server's, then the devices'; they exist only inside the two namespaces)."""

    def __init__(self) -> None:
        tag = os.getpid() % 60000
        self.server_ns, self.device_ns = f"tc-srv-{tag}", f"tc-dev-{tag}"
        a, b = 200 + tag // 16384, (tag // 64) % 256
        self.server_ip = f"10.{a}.{b}.1"
        self.device_ips = [f"10.{a}.{b}.{2 + n}" for n in range(DEVICE_ADDRESSES)]
        self.device_ip = self.device_ips[0]
        self._veth = (f"tcs{tag}", f"tcd{tag}")

    def make(self) -> None:
        srv, dev = self._veth
        _ip("netns", "add", self.server_ns)
        _ip("netns", "add", self.device_ns)
        _ip("link", "add", srv, "type", "veth", "peer", "name", dev)
        _ip("link", "set", srv, "netns", self.server_ns)
        _ip("link", "set", dev, "netns", self.device_ns)
        for ns, link, addresses in ((self.server_ns, srv, [self.server_ip]), (self.device_ns, dev, self.device_ips)):
            for address in addresses:
                _ip("-n", ns, "addr", "add", f"{address}/24", "dev", link)
            _ip("-n", ns, "link", "set", link, "up")
            _ip("-n", ns, "link", "set", "lo", "up")

    def remove(self) -> None:
        for ns in (self.server_ns, self.device_ns):  # a namespace takes its end of the pair with it
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)

    def in_ns(self, ns: str, argv: list[str]) -> list[str]:
        return ["ip", "netns", "exec", ns, *argv]

    def device(self, *args: str, timeout: float = 120, source: str | None = None) -> dict:
        """Run tests/lan_device.py in the device's namespace (from ``source``, one of
        ``device_ips``; the first by default); its JSON answer."""
        return self._run(self.device_ns, [*args, *([f"--source={source}"] if source else [])], timeout)

    def device_start(self, *args: str, source: str | None = None) -> subprocess.Popen:
        """tests/lan_device.py started in the device's namespace, not waited for (``answer``)."""
        argv = [sys.executable, str(DEVICE_SCRIPT), *args, *([f"--source={source}"] if source else [])]
        return subprocess.Popen(self.in_ns(self.device_ns, argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})

    @staticmethod
    def answer(started: subprocess.Popen, timeout: float = 120) -> dict:
        out, err = started.communicate(timeout=timeout)
        assert started.returncode == 0, err
        return dict(json.loads(out))

    def serving(self, *args: str, timeout: float = 60) -> dict:
        """tests/lan_device.py on the serving machine itself (its namespace, loopback)."""
        return self._run(self.server_ns, list(args), timeout)

    def _run(self, ns: str, args: list[str], timeout: float) -> dict:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(self.in_ns(ns, [sys.executable, str(DEVICE_SCRIPT), *args]),
                              capture_output=True, text=True, timeout=timeout, env=env)
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))


@contextmanager
def lan() -> Iterator[Lan]:
    if sys.platform != "linux" or os.geteuid() != 0:
        unavailable("network namespaces need root on Linux")
    if shutil.which("ip") is None:
        unavailable("`ip` is missing (apt-get install iproute2)")
    net = Lan()
    try:
        net.make()
    except (subprocess.CalledProcessError, OSError) as err:
        net.remove()
        detail = getattr(err, "stderr", b"") or b""
        unavailable(f"cannot make a network namespace here: {detail.decode(errors='replace').strip() or err}")
    try:
        yield net
    finally:
        net.remove()


@pytest.fixture(scope="module")
def net() -> Iterator[Lan]:
    """The LAN tests' network, one per test module (tests/conftest.py offers it to every test)."""
    with lan() as made:
        yield made


class Served:
    """`companion --db DB run --lan` in the server's namespace, its output in a log file; with
    ``unread_stderr``, its standard error a pipe that nobody reads (as under a launcher that
    stalls: 64 KiB and a write blocks)."""

    def __init__(self, net: Lan, db: Path, log_path: Path, *extra: str, port: int = 8550,
                 env: dict[str, str] | None = None, unread_stderr: bool = False):
        self.net, self.port, self.log_path = net, port, log_path
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env or {})}
        for knob in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "COMPANION_DB"):
            env.pop(knob, None)
        self.stdout = log_path.with_suffix(".out")
        with log_path.open("w") as err, self.stdout.open("w") as out:
            self.proc = subprocess.Popen(
                net.in_ns(net.server_ns, [sys.executable, "-m", "companion", "--db", str(db), "run", "--lan",
                                          "--port", str(port), *extra]),
                cwd=str(db.parent), env=env, stdout=out, stderr=subprocess.PIPE if unread_stderr else err)

    @property
    def url(self) -> str:
        return f"http://{self.net.server_ip}:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text() + self.stdout.read_text()

    def wait(self) -> Served:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log()
            if self.net.device("ready", self.url)["ready"]:
                return self
            time.sleep(0.5)
        raise AssertionError(f"the server did not start:\n{self.log()}")

    def status(self, timeout: float = 10.0) -> dict:
        """What the server holds (sockets, handlers, page sessions, memory in KiB), asked from the
        serving machine itself (loopback, in its namespace), with how long the answer took; a
        server that does not answer within ``timeout`` gives {"answered": False}."""
        code = ("import json, sys, time, urllib.request; t = time.monotonic(); "
                f"a = json.load(urllib.request.urlopen('http://127.0.0.1:{self.port}/.status', timeout={timeout})); "
                "a['seconds'] = time.monotonic() - t; print(json.dumps(a))")
        done = subprocess.run(self.net.in_ns(self.net.server_ns, [sys.executable, "-c", code]),
                              capture_output=True, text=True, timeout=timeout + 30)
        if done.returncode != 0:
            return {"answered": False}
        return {"answered": True, **json.loads(done.stdout)}

    def printed_url(self) -> str:
        return self.stdout.read_text().strip().splitlines()[0]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=20)
