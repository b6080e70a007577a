"""The tablet stays awake while a game is on screen: Flet's ``Wakelock`` service (wakelock_plus:
the Screen Wake Lock API in a browser that has it, the platform's lock in the packaged app), turned
on when the table screen is shown and off when another screen is. Where the platform has no lock,
or the page is gone, nothing happens: the game goes on, the screen may dim as the device decides.

A browser tab that slept reconnects by itself: Flet's web client opens its websocket again and the
server gives it back the same page session (kept ``FLET_SESSION_TIMEOUT`` seconds, an hour by
default), so the tab shows the current state without a reload — also when the server had not yet
noticed the tab's old socket die (companion.app.reconnect). tests/e2e/test_sleeping_tab_browser.py
checks it in chromium."""

from __future__ import annotations

import logging
from typing import Any

import flet as ft

log = logging.getLogger(__name__)
SLOT = "wakelock"  # app.drafts key of the page's Wakelock service and whether it is on


def keep_awake(app: Any, on: bool) -> None:
    """Ask the device to stay awake (``on``) or let it sleep again; only a change is sent."""
    page = getattr(app, "page", None)
    if page is None or not hasattr(page, "run_task"):
        return
    held = app.drafts.get(SLOT)
    if held is None:
        if not on:
            return
        try:
            held = app.drafts[SLOT] = {"lock": ft.Wakelock(), "on": False}
        except Exception:  # no page context to register the service in: nothing to keep awake
            log.warning("no wakelock on this page", exc_info=True)
            return
    if held["on"] == on:
        return
    held["on"] = on
    lock = held["lock"]

    async def switch() -> None:
        try:
            await (lock.enable() if on else lock.disable())
        except Exception:  # the platform has no wake lock (or the page went away)
            log.info("wakelock %s refused", "enable" if on else "disable", exc_info=True)

    page.run_task(switch)
