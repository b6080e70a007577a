"""The pages of devices that have not entered the table PIN (LAN mode): each shows only the PIN
screen, and none may hold the server's memory for long.

Flet keeps a page session an hour after its socket closed, so that a tablet that slept finds its
page again. A page still on the PIN screen has nothing to find again: it lives
:data:`VISITOR_TTL_S` seconds after its socket closed (a phone that blinks keeps its screen), and a
device holds at most :data:`PAGES_PER_DEVICE` of them, all devices together :data:`PAGES_IN_ALL`:
one more ends the oldest (its device's first) at once. A page whose device enters the PIN leaves the list
and lives as any page of the table.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from companion.app.flet_sessions import end, expire

VISITOR_TTL_S = 60.0
PAGES_PER_DEVICE = 8
PAGES_IN_ALL = 200


class Visitors:
    def __init__(self, per_device: int = PAGES_PER_DEVICE, in_all: int = PAGES_IN_ALL,
                 ttl: float = VISITOR_TTL_S) -> None:
        self.per_device, self.in_all, self.ttl = per_device, in_all, ttl
        self.pages: OrderedDict[int, tuple[str, Any]] = OrderedDict()  # id(page) -> (address, page), oldest first
        self._lock = threading.Lock()

    def arrive(self, page: Any, address: str | None) -> None:
        """A page of a device that has not entered the PIN opens; its socket's close, and its
        session's end, are watched."""
        key = address or ""
        with self._lock:
            self.pages[id(page)] = (key, page)
            mine = [pid for pid, (peer, _) in self.pages.items() if peer == key]
            ended = mine[:max(0, len(mine) - self.per_device)]
            others = [pid for pid in self.pages if pid not in ended]
            ended += others[:max(0, len(others) - self.in_all)]
            gone = [self.pages.pop(pid)[1] for pid in ended]
        for old in gone:
            session = _session(old)
            if session is not None:
                end(session)
        page.on_disconnect = lambda _: self.left(page)
        page.on_close = lambda _: self.forget(page)
        session = _session(page)
        if session is not None and getattr(session, "expires_at", None) is not None:
            self.left(page)  # its socket closed before the page was built: no disconnect event comes

    def left(self, page: Any) -> None:
        """The page's socket closed: its session ends soon unless the device comes back."""
        if id(page) in self.pages:
            expire(_session(page), self.ttl)

    def forget(self, page: Any) -> None:
        """The page's device entered the PIN (the app then sets the page's handlers anew), or its
        session ended: no longer a visitor."""
        with self._lock:
            self.pages.pop(id(page), None)

    def count(self, address: str | None = None) -> int:
        with self._lock:
            return sum(1 for peer, _ in self.pages.values() if address is None or peer == (address or ""))


def _session(page: Any) -> Any:
    try:
        return page.session
    except Exception:  # a page without a live session (Flet raises once it is gone)
        return None


VISITORS = Visitors()  # one per server process, as the PIN gate
