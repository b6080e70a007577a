"""The evening's screens kept true by themselves: while a page shows one of them, it reads again
every :data:`POLL_S` seconds (half a second), in a worker thread, what the screen shows (the standings, the
evening's seating and tables) and rebuilds the screen when the database says otherwise — a table
that finishes a game on another tablet (of this process or of another one sharing the club's
database), a swap made by the organiser. The big-screen standings thus show a finished game within
2 s, without a reload. One look at a time per page; it ends when the page leaves these screens."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from companion.app.shell import App

log = logging.getLogger("companion.app")

SCREENS = ("evenings", "evening", "evening-table", "evening-standings")
POLL_S = 0.5
_KEY = "evening-live"


def watch(app: App, read: Callable[[], Any], shown: Any) -> None:
    """The screen being built shows ``shown``, which ``read()`` reads again from the database:
    look every half second and rebuild the screen when the two differ (the look starts if none runs)."""
    kept = app.drafts.setdefault(_KEY, {"polling": False})
    kept.update(read=read, seen=shown, place=_place(app))
    page = app.page
    if page is None or kept["polling"] or not hasattr(page, "run_task"):
        return
    kept["polling"] = True
    page.run_task(_poll, app, kept)


def _place(app: App) -> tuple[str, tuple[tuple[str, Any], ...]]:
    return app.here.screen, tuple(sorted(app.here.params.items()))


async def _poll(app: App, kept: dict[str, Any]) -> None:
    try:
        while app.here.screen in SCREENS and not getattr(app, "_closed", False):
            await asyncio.sleep(POLL_S)
            place, read = kept["place"], kept["read"]
            if _place(app) != place:
                continue  # another screen was built meanwhile: it gave its own read
            try:
                now = await asyncio.to_thread(read)
            except Exception:  # the screen says what is wrong when it is built; the look goes on
                continue
            if _place(app) == place and now != kept["seen"]:
                app.render()
    except Exception:
        log.warning("the evening's screen stopped following the database", exc_info=True)
    finally:
        kept["polling"] = False


def standings_shown(standings: Any) -> Any:
    """What the standings screen shows of the standings (the figures, not the objects)."""
    return (standings.evening_id, standings.finished_games, standings.games, standings.rows)
