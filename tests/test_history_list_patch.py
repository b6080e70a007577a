"""What the history's « more » costs the server: the list is shown on a Flet page whose connection
encodes each message as the server does (no browser), opened from home as a player does. « more »
reads the next page only, and the rows shown are the very controls they were (companion.app.memo):
Flet's diff meets each of them once, as itself, and neither walks inside it nor sends it again; it
sends the rows added."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import DiffBuilder, ObjectPatch
from flet.messaging.connection import Connection
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app import probe
from companion.app.screens.history import PAGE
from companion.app.shell import App
from companion.app.ui import walk
from companion.service import SessionService
from companion.store import Store

ENCODE = configure_encode_object_for_msgpack(BaseControl)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "high-society-in-progress.json"


class Recording(Connection):
    """A page's connection that encodes what would go to the browser (the encoding is also what lets
    the next diff know what the browser holds)."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.pubsubhub = PubSubHub(loop=self.loop)

    def send_message(self, message: Any) -> None:
        msgpack.packb([message.action, message.body], default=ENCODE)


@pytest.fixture
def page() -> Iterator[Any]:
    """A Flet page on a recording connection; the thread's current page put back afterwards."""
    from flet.controls.context import _context_page

    token = _context_page.set(None)
    connection = Recording()
    session = Session(connection)
    page = session.page
    page.width, page.height = 1280, 800
    msgpack.packb(session.get_page_patch(), default=ENCODE)  # the browser's first view of the page
    yield page, session
    _context_page.reset(token)
    pending = asyncio.all_tasks(connection.loop)
    for task in pending:
        task.cancel()
    if pending:
        connection.loop.run_until_complete(asyncio.wait(pending))
    connection.loop.close()


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "history.db"))


def many(service: SessionService, n: int) -> list[int]:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return service.transfer.import_records(json.dumps([record] * n))


def added(ops: list[dict[str, Any]]) -> list[Any]:
    """The controls a diff sends whole (added, or put in another's place)."""
    return [c for op in ops if op["op"] in ("add", "replace") for c in walk(op["value"]) if isinstance(c, BaseControl)]


def rows_in(controls: list[Any]) -> set[str]:
    return {c.identifier for c in controls if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("history-")
            and c.identifier[8:].isdigit()}


def test_more_sends_the_rows_it_adds_and_walks_none_of_the_rows_shown(service, page, monkeypatch):
    ids = many(service, 2 * PAGE + 5)
    app = App(service, page[0])
    app.render()  # home first: the history's list replaces it (Flet's diff of a new tree, as in use)
    probe.tap(app.root, "home-history")
    shown = [probe.find(app.root, f"history-{i}") for i in ids[-PAGE:]]
    inside = {id(c) for row in shown for c in walk(row.content)}
    compared: list[int] = []
    diffs: list[list[dict[str, Any]]] = []
    real_compare = DiffBuilder._compare_dataclasses
    real_diff = ObjectPatch.from_diff.__func__  # type: ignore[attr-defined]

    def compare(self: Any, parent: Any, path: Any, src: Any, dst: Any, frozen: bool) -> None:
        compared.append(id(dst))
        real_compare(self, parent, path, src, dst, frozen)

    def from_diff(cls: Any, *args: Any, **kwargs: Any) -> Any:
        patch, new, gone = real_diff(cls, *args, **kwargs)
        diffs.append(list(patch.patch))
        return patch, new, gone

    monkeypatch.setattr(DiffBuilder, "_compare_dataclasses", compare)
    monkeypatch.setattr(ObjectPatch, "from_diff", classmethod(from_diff))
    probe.tap(app.root, "history-more")
    assert len(diffs) == 1 and compared and not inside & set(compared)
    assert rows_in(added(diffs[0])) == {f"history-{i}" for i in ids[5:PAGE + 5]}  # the next 25
    assert all(probe.find(app.root, f"history-{i}") is row for i, row in zip(ids[-PAGE:], shown))
    rows = [i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()]
    assert rows == [f"history-{i}" for i in reversed(ids[5:])]  # newest first, in order
    diffs.clear()
    probe.tap(app.root, "history-more")  # the last five; no « more » after them
    assert rows_in(added(diffs[0])) == {f"history-{i}" for i in ids[:5]}
    assert not probe.has(app.root, "history-more") and probe.has(app.root, f"history-{ids[0]}")
