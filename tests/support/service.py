"""A record played entry by entry through the service, and rows read from its store."""

from __future__ import annotations

from sqlalchemy import text

from companion.service import SessionService, SessionState
from companion.store import Store


def play(service: SessionService, record: dict, assist: bool = False) -> SessionState:
    state = service.start(record["game"], record["players"], record.get("first_player"),
                          record.get("variant"), assist=assist)
    for action in record["actions"]:
        state = service.submit(state.session_id, action)
    return state


def rows(store: Store, sql: str, **params):
    with store.read() as db:
        return [tuple(r) for r in db.execute(text(sql), params)]
