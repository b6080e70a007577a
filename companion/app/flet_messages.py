"""Flet's debug text of every message, built only when it is logged.

flet_web 1.0.5's ``FletApp.send_message`` (flet_web/fastapi/flet_app.py) runs
``transport_log.debug(f"send_message: {message}")`` on every message it sends: the f-string is
built whatever the log level, and ``str(message)`` is the dataclass repr of the message with every
control a patch adds, field by field (a patch adding Stupide Vautour's 75 hand cards: ~435 KB of
text and 7-10 ms, against 3-4 ms for its msgpack; benchmarks/message_text.py measures it per game).

:func:`quiet_message_text` gives ``Message`` a ``__str__`` that is that repr only while the
``flet_transport`` log is on for DEBUG, and a few characters otherwise: the log line is the same
whenever it is written, and not built when it is not. This is the app's one change to Flet's
behaviour for speed; ``tests/test_flet_messages.py`` fails when the pinned Flet's line changes (the
change is then to be looked at again, or dropped).
"""

from __future__ import annotations

import logging
from typing import Any

from flet.messaging.protocol import Message

TRANSPORT_LOG = logging.getLogger("flet_transport")  # flet_web.fastapi.flet_app's transport_log
FLET_STR = Message.__str__  # Flet's own: the dataclass repr
# the line of FletApp.send_message this answers, as flet_web 1.0.5 writes it
FLET_LINE = 'transport_log.debug(f"send_message: {message}")'


def _message_text(message: Any) -> str:
    if TRANSPORT_LOG.isEnabledFor(logging.DEBUG):
        return FLET_STR(message)
    return f"<{getattr(message.action, 'name', message.action)}>"


def quiet_message_text() -> None:
    """Build Flet's per-message debug text only when the transport log writes it (idempotent)."""
    Message.__str__ = _message_text  # type: ignore[method-assign]
