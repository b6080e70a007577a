"""A device on the network, as a hostile one would act: run by the LAN tests inside their device
namespace (tests/netns.py), it speaks Flet's own protocol to the app with a raw websocket client
(msgpack frames on /ws: ``[0x00][msgpack [action, body]]``) and prints one JSON answer.

    lan_device.py ready URL                      {"ready": bool}
    lan_device.py get URL ORIGIN PATH...         {"status": {PATH: code}}
    lan_device.py spoof URL                      REGISTER_CLIENT + page props {"client_ip": "127.0.0.1"}
    lan_device.py pins URL [--client-ip=IP] PIN...
                                                 types each PIN into the PIN screen, in turn (the page
                                                 first says it is at IP)

Hostile probes (each prints what the server did; ``--source=IP``: the device's address to use):
    lan_device.py frames URL COUNT HEX           COUNT sockets: each sends the one frame HEX and closes
    lan_device.py sessions URL COUNT             one socket: a registration, then COUNT more with made-up ids
    lan_device.py register-close URL COUNT       COUNT sockets: each registers and closes
    lan_device.py compressed URL COUNT MIB       a registration, then COUNT events of MIB MiB of one byte
                                                 (compressed, if the server agrees: ~15 KB on the wire each)
    lan_device.py big-register URL MIB           a registration carrying a route of MIB MiB, uncompressed
    lan_device.py wrong-pins URL PIN             one wrong PIN as soon as allowed, until refused as locked
    lan_device.py tap URL IDENT                  registers, taps the control IDENT (the serving machine's
                                                 page, from loopback), and says what the page shows after
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

REGISTER_CLIENT, CONTROL_EVENT, UPDATE_CONTROL_PROPS = 1, 3, 4
PAGE_ID = 1  # the page is control 1 of every session


def _status(url: str, origin: str | None) -> int:
    request = urllib.request.Request(url)
    if origin:
        request.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _strings(item, out)


def _identified(value: Any, found: dict[str, int]) -> None:
    """The control id inside each Semantics wrapper with an identifier (ui.tid)."""
    if isinstance(value, dict):
        ident, content = value.get("identifier"), value.get("content")
        if isinstance(ident, str) and isinstance(content, dict) and "_i" in content:
            found[ident] = int(content["_i"])
        for item in value.values():
            _identified(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _identified(item, found)


SOURCE: str | None = None  # the device's address to send from (--source=IP)


class Client:
    def __init__(self, url: str, origin: str | None = None, compression: str | None = "deflate"):
        """A raw client sends no Origin unless asked (a browser always does)."""
        import msgpack
        from websockets.sync.client import connect

        self.msgpack = msgpack
        extra: dict[str, Any] = {"source_address": (SOURCE, 0)} if SOURCE else {}
        self.ws = connect(url.replace("http://", "ws://") + "/ws", origin=origin, open_timeout=20,  # type: ignore[arg-type]
                          compression=compression, max_size=None, **extra)
        self.ids: dict[str, int] = {}

    def frame(self, action: int, body: Any) -> bytes:
        return b"\x00" + self.msgpack.packb([action, body])

    def send(self, *frames: bytes) -> None:
        for frame in frames:  # back to back, before anything is read: one write as far as the server sees
            self.ws.send(frame)

    def register(self, spoof: str | None = None) -> None:
        """Register a new page; ``spoof``: the client_ip the page then says it has."""
        frames = [self.frame(REGISTER_CLIENT, {"session_id": "", "page_name": "",
                                               "page": {"route": "/", "width": 800, "height": 1000}})]
        if spoof:
            frames.append(self.frame(UPDATE_CONTROL_PROPS, {"id": PAGE_ID, "props": {"client_ip": spoof}}))
        self.send(*frames)

    def read(self, seconds: float, until: tuple[str, ...] = ()) -> list[str]:
        """The strings of every message received within ``seconds`` (sooner once one of ``until`` is seen)."""
        texts: list[str] = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.ws.recv(timeout=max(0.05, end - time.monotonic()))
            except TimeoutError:
                break
            if not isinstance(data, bytes) or not data or data[0] != 0:
                continue
            message = self.msgpack.unpackb(data[1:], strict_map_key=False)
            _strings(message, texts)
            _identified(message, self.ids)
            if any(needle in text for needle in until for text in texts):
                break
        return texts

    def type_pin(self, pin: str) -> None:
        field = self.ids["pin-field"]
        self.send(self.frame(UPDATE_CONTROL_PROPS, {"id": field, "props": {"value": pin}}),
                  self.frame(CONTROL_EVENT, {"target": field, "name": "change", "data": pin}),
                  self.frame(CONTROL_EVENT, {"target": field, "name": "submit", "data": None}))


def _closed(client: Client, seconds: float = 5.0) -> int | None:
    """The close code the server ended the socket with within ``seconds`` (None: still open)."""
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            client.ws.recv(timeout=max(0.05, end - time.monotonic()))
    except TimeoutError:
        return None
    except Exception:
        pass
    close = client.ws.protocol.close_rcvd
    return int(close.code) if close is not None else 1006


def _opened(url: str) -> Client | None:
    try:
        return Client(url)
    except Exception:  # refused (HTTP 403) or not answered
        return None


def probe(command: str, url: str, rest: list[str]) -> dict[str, Any]:
    started = time.monotonic()
    if command == "frames":
        count, data = int(rest[0]), bytes.fromhex(rest[1])
        opened = refused = 0
        for _ in range(count):
            client = _opened(url)
            if client is None:
                refused += 1
                continue
            opened += 1
            client.send(data)
            client.ws.close()
        return {"opened": opened, "refused": refused, "seconds": time.monotonic() - started}
    if command == "sessions":
        client = Client(url)
        client.register()
        for n in range(int(rest[0])):
            try:
                client.send(client.frame(REGISTER_CLIENT, {"session_id": f"bogus{n:011d}", "page_name": "",
                                                           "page": {"route": "/", "width": 800, "height": 1000}}))
            except Exception:
                break
        return {"closed": _closed(client)}
    if command == "register-close":
        opened = refused = 0
        for _ in range(int(rest[0])):
            client = _opened(url)
            if client is None:
                refused += 1
                continue
            opened += 1
            client.register()
            client.ws.close()
        return {"opened": opened, "refused": refused}
    if command == "compressed":
        count, size = int(rest[0]), int(float(rest[1]) * 2**20)
        client = Client(url)
        client.register()
        client.read(6.0, until=("pin-field",))
        sent = 0
        try:
            for _ in range(count):
                client.send(client.frame(CONTROL_EVENT, {"target": client.ids.get("pin-field", 2), "name": "change",
                                                         "data": "0" * size}))
                sent += 1
        except Exception:
            pass
        return {"sent": sent, "closed": _closed(client),
                "compressed": bool(client.ws.protocol.extensions)}
    if command == "big-register":
        client = Client(url, compression=None)
        body = {"session_id": "", "page_name": "", "page": {"route": "/" + "a" * int(float(rest[0]) * 2**20)}}
        try:
            client.send(client.frame(REGISTER_CLIENT, body))
        except Exception:
            pass
        return {"closed": _closed(client)}
    if command == "wrong-pins":
        client = Client(url)
        client.register()
        client.read(6.0, until=("pin-field", "pin-problem"))
        wrong = 0
        while wrong < 40 and time.monotonic() - started < 60:
            if "pin-field" not in client.ids:
                return {"wrong": wrong, "locked": True, "seconds": time.monotonic() - started}
            client.type_pin(rest[0])
            client.ids.clear()
            said = " ".join(client.read(2.0, until=("pin-problem",)))
            if "avant d'essayer" in said:  # too soon: not counted
                time.sleep(0.3)
            elif "pin-field" in client.ids:
                wrong += 1
        return {"wrong": wrong, "locked": "pin-field" not in client.ids, "seconds": time.monotonic() - started}
    if command == "tap":
        client = Client(url)
        client.register()
        client.read(8.0, until=(rest[0],))
        client.send(client.frame(CONTROL_EVENT, {"target": client.ids[rest[0]], "name": "click", "data": None}))
        return {"texts": client.read(3.0)}
    raise SystemExit(f"unknown command {command}")


PROBES = ("frames", "sessions", "register-close", "compressed", "big-register", "wrong-pins", "tap")


def main(argv: list[str]) -> dict[str, Any]:
    global SOURCE
    SOURCE = next((arg.split("=", 1)[1] for arg in argv if arg.startswith("--source=")), None)
    argv = [arg for arg in argv if not arg.startswith("--source=")]
    command, url, *rest = argv
    if command in PROBES:
        return probe(command, url, rest)
    if command == "ready":
        try:
            return {"ready": _status(url + "/", None) == 200}
        except OSError:
            return {"ready": False}
    if command == "get":
        origin, *paths = rest
        return {"status": {path: _status(url + path, origin or None) for path in paths}}
    if command == "spoof":
        client = Client(url)
        client.register(spoof="127.0.0.1")
        # what the server sends up to the PIN screen, then for 1 s more: had the page's word been
        # taken, the app itself would follow at once, the server's answer to the same two frames
        texts = client.read(6.0, until=("pin-screen",))
        return {"texts": texts + client.read(1.0)}
    if command == "pins":
        spoof = next((arg.split("=", 1)[1] for arg in rest if arg.startswith("--client-ip=")), None)
        pins = [pin for pin in rest if not pin.startswith("--")]
        client = Client(url)
        client.register(spoof=spoof)
        # the first screen: the PIN field, or what stands in its place (a device locked out, an
        # app that cannot start); each comes whole in one message
        first = client.read(6.0, until=("pin-field", "pin-problem", "startup-error"))
        attempts = []
        for pin in pins:
            if "pin-field" not in client.ids:
                attempts.append({"at": time.monotonic(), "texts": [], "no_field": True})
                continue
            at = time.monotonic()
            client.type_pin(pin)
            attempts.append({"at": at, "texts": client.read(2.0, until=("pin-problem", "home-new"))})
        return {"first": first, "attempts": attempts}
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
