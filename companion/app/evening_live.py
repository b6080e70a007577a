"""The evening's screens kept true by themselves: each page showing one of them is rebuilt when
another tab of this process announces a change (:meth:`App.announce`: a game's entry, an evening
changed), and the big-screen standings also look at the database every :data:`POLL_S` seconds
(games finished through another process, a club server shared by several), so a finished game
shows within 2 s without a reload. One subscription per page, one poll at a time."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.app.shell import App

log = logging.getLogger("companion.app")

SCREENS = ("evenings", "evening", "evening-table", "evening-standings")
POLL_S = 1.0
_KEY = "evening-live"


def watch(app: App, poll: bool = False) -> None:
    """Rebuild this page's evening screen on the app's news (once per page); with ``poll`` (the
    standings), start the look at the database if none runs."""
    page = app.page
    if page is None:
        return
    kept = app.drafts.setdefault(_KEY, {"subscribed": False, "polling": False, "seen": None})
    if not kept["subscribed"]:
        pubsub = getattr(page, "pubsub", None)
        if pubsub is not None:
            from companion.app.shell import NEWS

            async def on_news(_topic: str, _message: Any) -> None:
                if app.here.screen in SCREENS:
                    app.render()

            pubsub.subscribe_topic(NEWS, on_news)
            kept["subscribed"] = True
    if poll and not kept["polling"] and hasattr(page, "run_task"):
        kept["polling"] = True
        page.run_task(_poll, app, kept)


def seen(app: App, fingerprint: Any) -> None:
    """What the standings screen shows now (the poll rebuilds it when the database says otherwise)."""
    app.drafts.setdefault(_KEY, {"subscribed": False, "polling": False, "seen": None})["seen"] = fingerprint


async def _poll(app: App, kept: dict[str, Any]) -> None:
    try:
        while app.here.screen == "evening-standings" and not getattr(app, "_closed", False):
            await asyncio.sleep(POLL_S)
            if app.here.screen != "evening-standings":
                break
            evening_id = int(app.here.params.get("evening_id") or 0)
            try:
                standings = await asyncio.to_thread(app.service.standings, evening_id)
            except Exception:  # the screen says what is wrong when it is built; the poll goes on
                continue
            if fingerprint(standings) != kept.get("seen") and app.here.screen == "evening-standings":
                app.render()
    except Exception:
        log.warning("the evening's standings stopped refreshing", exc_info=True)
    finally:
        kept["polling"] = False


def fingerprint(standings: Any) -> Any:
    return (standings.evening_id, standings.finished_games, standings.games,
            tuple((r.name, r.points, r.position, r.sat_out) for r in standings.rows))
