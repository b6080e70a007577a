"""A table on a recorded Flet page: its connection records what is sent, and each game's first entries."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app.shell import App
from companion.app.ui import walk
from companion.service import SessionService
from companion.store import Store
from models.record import PLAYER_COUNTS

ENCODE = configure_encode_object_for_msgpack(BaseControl)
OPEN_LOOPS: list[asyncio.AbstractEventLoop] = []  # the recording pages' loops, closed after each test


class Recording(Connection):
    """A page's connection that keeps what would go to the browser, encoded as the server does
    (the encoding is also what lets the next diff know what the browser holds)."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        OPEN_LOOPS.append(self.loop)
        self.pubsubhub = PubSubHub(loop=self.loop)
        self.sent = 0

    def send_message(self, message: Any) -> None:
        msgpack.packb([message.action, message.body], default=ENCODE)
        self.sent += 1


@pytest.fixture(autouse=True)
def page_context_restored() -> Iterator[None]:
    """A Flet session makes its page the thread's current page (a context variable Flet's services
    register with): put back the one before, so that no later test in this process builds a control
    on a page whose session is gone ("An attempt to fetch destroyed session"); and close the
    recording pages' loops."""
    from flet.controls.context import _context_page

    token = _context_page.set(None)
    yield
    _context_page.reset(token)
    while OPEN_LOOPS:  # what the pages scheduled (the wake lock's switch) is let run, then cancelled
        loop = OPEN_LOOPS.pop()
        loop.run_until_complete(asyncio.sleep(0))
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.wait(pending))
        loop.close()


def open_table(tmp_path: Path, game: str, players: list[str], **start: Any) -> tuple[SessionService, App, int, Any]:
    service = SessionService(Store(tmp_path / f"{game}.db"))
    sid = service.start(game, players, **start).session_id
    connection = Recording()
    session = Session(connection)
    page = session.page
    page.width, page.height = 1280, 800  # a 10-inch tablet in landscape, as the browser tests
    msgpack.packb(session.get_page_patch(), default=ENCODE)  # the browser's first view of the page
    app = App(service, page)
    app.go("table", session_id=sid)
    return service, app, sid, session  # the session: the page holds it weakly


def entries(game: str) -> tuple[list[str], dict[str, Any], list[dict[str, Any]]]:
    """Players, start keywords and the first legal entries of a game (the log scrolls: more than six)."""
    if game in ("high-society", "animalement-votre"):
        from tests.support.table_fair import HS_ROUNDS

        return ["Anne", "Bruno", "Chloé"], {"first_player": "Anne"}, HS_ROUNDS + [
            {"type": "pass", "player": "Chloé"}, {"type": "bid", "player": "Anne", "add": [2]},
            {"type": "pass", "player": "Bruno"}]
    if game == "stupide-vautour":
        from tests.support.table_fair import SV_ROUNDS

        return ["Anne", "Bruno", "Chloé"], {"first_player": "Anne"}, SV_ROUNDS + [
            {"type": "reveal", "card": 1}, {"type": "play", "cards": {"Anne": 1, "Bruno": 3, "Chloé": 2}}]
    if game == "boursicocotte":
        players = ["Anne", "Bruno", "Chloé"]
        actions = []
        for animal, buyer in (("cow", "Bruno"), ("pig", "Chloé"), ("hen", None), ("dog", "Chloé")):
            actions.append({"type": "draw", "card": animal})
            if buyer is None:
                actions.append({"type": "close", "buy_back": False})
                continue
            actions += [{"type": "bid", "player": buyer, "amount": 10}, {"type": "close", "buy_back": False},
                        {"type": "pay", "player": buyer, "cards": [10]}]
        return players, {"first_player": "Anne"}, actions
    if game == "monte-descend":
        import random

        from tests.support.monte_descend import drive

        players = ["Anne", "Bruno", "Chloé"]
        _, actions = drive(players, take_stacking=False, rng=random.Random(3))
        return players, {"variant": {"take_stacking": False}}, actions[:9]
    if game == "animalia":
        from tests.support.animalia import NAMES, play_random

        _, actions = play_random(3, seed=5)
        return list(NAMES[:3]), {}, actions[:9]
    # any other game (the tests' High card): the first entries of a legal game of the benchmarks' playouts
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from playouts import playout

    record = playout(game, 3)
    return record["players"], {k: record[k] for k in ("first_player", "variant") if k in record}, record["actions"][:9]


GAMES = list(PLAYER_COUNTS)  # every registered game, in the registry's order


def new_controls(ops: list[dict[str, Any]]) -> list[Any]:
    """The controls a diff sends whole (added, or put in another's place): the browser builds each."""
    return [c for op in ops if op["op"] in ("add", "replace") for c in walk(op["value"])
            if isinstance(c, BaseControl)]
