"""The one place that reads Flet 1.0.5's page sessions beyond its public API.

Flet keeps every page session in ``flet_web.fastapi.flet_app_manager.app_manager`` and lets one
live for its whole timeout (an hour by default, the same for every page) after its socket closed.
A page that never got past the PIN screen must not keep its memory that long, and the serving
machine's status counts them: :func:`expire` shortens one session's life, :func:`session_count`
counts them, :func:`end` ends one at once. They read private names of the pinned Flet (``Session.__expires_at``, the manager's
``__sessions``); tests/test_socket_guard.py fails when the pinned Flet no longer has them.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from typing import Any


def _sessions() -> dict[str, Any]:
    from flet_web.fastapi.flet_app_manager import app_manager

    found = getattr(app_manager, "_FletAppManager__sessions", None)
    return found if isinstance(found, dict) else {}


def session_count() -> int:
    """How many page sessions the server holds (connected or not yet expired)."""
    return len(_sessions())


def end(session: Any) -> None:
    """End ``session`` now, as Flet ends an expired one (its page's close event included), rather
    than at the evictor's next round."""
    from flet_web.fastapi.flet_app_manager import app_manager

    key = next((key for key, held in _sessions().items() if held is session), None)
    if key is None:
        return
    try:
        asyncio.get_running_loop().create_task(app_manager.delete_session(key))
    except RuntimeError:  # no event loop here (a worker thread): the evictor ends it within 10 s
        expire(session, 0)


def expire(session: Any, seconds: float) -> None:
    """Let ``session`` live at most ``seconds`` more while it is disconnected (Flet evicts expired
    sessions every 10 s). A session that reconnects meanwhile is kept, as Flet keeps it."""
    if session is None or not hasattr(session, "_Session__expires_at"):
        return
    when = datetime.now(timezone.utc) + timedelta(seconds=seconds)
    current = session._Session__expires_at
    if current is None or current > when:
        session._Session__expires_at = when
