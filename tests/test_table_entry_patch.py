"""What an entry sends to the browser: the table is rendered on a Flet page whose connection records
each patch (no browser), then entries are made one after the other. A part the screen kept between
renders (companion.app.memo: the very same control object before and after) must cost nothing: the
diff neither sends it again nor changes it. Flet compares unkeyed controls of a list by their place,
so a part that moves (a log line when a new one comes on top, a block after one that appears) would
be compared with whatever held its place before, and rebuilt in the browser. Every game, every
entry; and no list on screen holds two controls with the same key (the diff would mix them up)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.connection import Connection
from flet.messaging.protocol import configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from companion.app.shell import App
from companion.app.ui import walk
from companion.service import SessionService
from companion.store import Store

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
def _page_context_restored() -> Iterator[None]:
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


@pytest.fixture
def diffs(monkeypatch) -> list[list[dict[str, Any]]]:
    """The operations of every diff Flet computes from now on (what goes to the browser)."""
    seen: list[list[dict[str, Any]]] = []
    from_diff = ObjectPatch.from_diff.__func__  # type: ignore[attr-defined]

    def recording(cls: Any, *args: Any, **kwargs: Any) -> Any:
        patch, added, removed = from_diff(cls, *args, **kwargs)
        seen.append(list(patch.patch))
        return patch, added, removed

    monkeypatch.setattr(ObjectPatch, "from_diff", classmethod(recording))
    return seen


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


def resolve(doc: Any, path: list[Any]) -> Any:
    node = doc
    for part in path:
        node = node[part] if isinstance(node, list) else getattr(node, str(part))
    return node


def sent(page: Any, ops: list[dict[str, Any]]) -> Iterator[Any]:
    """The controls a diff sends or changes: every control in an operation's value (a control
    added, or put in another's place), and the owner of each property or list item changed."""
    for op in ops:
        path = op["path"]
        if op["op"] in ("add", "replace"):
            yield from walk(op["value"])
        if isinstance(path[-1], int):  # an item of a list (added, removed, moved, replaced): the list's owner
            path = path[:-1]
        owner = resolve(page, path[:-1])
        if isinstance(owner, BaseControl):
            yield owner


def duplicate_keys(root: Any) -> list[tuple[str, list[Any]]]:
    found = []
    for node in walk(root):
        for field in dataclasses.fields(node) if isinstance(node, BaseControl) else ():
            items = getattr(node, field.name, None)
            if isinstance(items, list):
                keys = [c.key for c in items if isinstance(c, BaseControl) and c.key is not None]
                if len(keys) != len(set(keys)):
                    found.append((type(node).__name__, keys))
    return found


def shared_ids(root: Any) -> list[list[str]]:
    """Controls on screen that share one Flet id: the browser knows one control by that id, so the
    next patch of either goes astray (a part that did not change on screen although it changed)."""
    by_id: dict[int, list[str]] = {}
    for node in walk(root):
        if isinstance(node, BaseControl):
            by_id.setdefault(node._i, []).append(getattr(node, "identifier", None) or type(node).__name__)
    return [names for names in by_id.values() if len(names) > 1]


def entries(game: str) -> tuple[list[str], dict[str, Any], list[dict[str, Any]]]:
    """Players, start keywords and the first legal entries of a game (the log scrolls: more than six)."""
    if game in ("high-society", "animalement-votre"):
        from tests.test_table_fair import HS_ROUNDS

        return ["Anne", "Bruno", "Chloé"], {"first_player": "Anne"}, HS_ROUNDS + [
            {"type": "pass", "player": "Chloé"}, {"type": "bid", "player": "Anne", "add": [2]},
            {"type": "pass", "player": "Bruno"}]
    if game == "stupide-vautour":
        from tests.test_table_fair import SV_ROUNDS

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

        from tests.test_monte_descend import drive

        players = ["Anne", "Bruno", "Chloé"]
        _, actions = drive(players, take_stacking=False, rng=random.Random(3))
        return players, {"variant": {"take_stacking": False}}, actions[:9]
    if game == "animalia":
        from tests.test_animalia import NAMES, play_random

        _, actions = play_random(3, seed=5)
        return list(NAMES[:3]), {}, actions[:9]
    raise AssertionError(game)


GAMES = ["high-society", "animalement-votre", "stupide-vautour", "boursicocotte", "monte-descend", "animalia"]


@pytest.mark.parametrize("game", GAMES)
def test_an_entry_never_sends_again_a_part_kept_on_screen(tmp_path, diffs, game):
    players, start, actions = entries(game)
    service, app, sid, _session = open_table(tmp_path, game, players, **start)
    page = app.page
    for n, action in enumerate(actions):
        before = {id(c): c for c in walk(app.root)}
        service.submit(sid, action)
        diffs.clear()
        app.render()  # what the table does once an entry is saved
        assert len(diffs) == 1  # one patch for the entry
        kept = {id(c) for c in walk(app.root) if id(c) in before}
        again = [c for c in sent(page, diffs[0]) if id(c) in kept]
        assert not again, (n, action, sorted({getattr(c, "identifier", None) or type(c).__name__ for c in again}))
        assert not duplicate_keys(app.root)
        assert not shared_ids(app.root), (n, action, shared_ids(app.root)[:3])


def test_a_pick_after_the_pad_lost_a_row_is_shown(tmp_path, diffs):
    """Monte & descend's pad loses its row of yellow actions when another colour is chosen: the
    kept parts below it (the series laid so far) move up a place. Paired by place, the confirm line
    took over the kept series' Flet id and the next card laid never showed in the browser."""
    from companion.app import probe

    service, app, sid, _session = open_table(tmp_path, "monte-descend", ["Anne", "Bruno"],
                                             variant={"take_stacking": False})
    for ident in ("md-value-16", "md-confirm", "md-draw", "md-pass", "md-colour-y", "md-value-13", "md-dir-up",
                  "md-confirm", "md-colour-y", "md-value-14", "md-colour-b", "md-value-15"):
        diffs.clear()
        probe.tap(app.root, ident)
        assert not shared_ids(app.root), (ident, shared_ids(app.root)[:3])
    assert len(service.open(sid).log) == 4 and probe.has(app.root, "md-series-1")
    assert "md-series-1" in {getattr(c, "identifier", None) for c in sent(app.page, diffs[-1])}


def test_a_new_log_line_is_the_only_line_sent(tmp_path, diffs):
    """The log shows the latest six entries, the newest on top: an entry adds its line and drops
    the oldest one shown; the five others are the same controls, not sent again."""
    players, start, actions = entries("high-society")
    service, app, sid, _session = open_table(tmp_path, "high-society", players, **start)
    assert len(actions) > 7
    for action in actions:
        service.submit(sid, action)
        diffs.clear()
        app.render()
        lines = [c.identifier for c in sent(app.page, diffs[0]) if isinstance(c, ft.Semantics)
                 and re.fullmatch(r"entry-\d+", c.identifier or "")]
        assert lines == [f"entry-{len(service.open(sid).log) - 1}"]



def new_controls(ops: list[dict[str, Any]]) -> list[Any]:
    """The controls a diff sends whole (added, or put in another's place): the browser builds each."""
    return [c for op in ops if op["op"] in ("add", "replace") for c in walk(op["value"])
            if isinstance(c, BaseControl)]


def test_stupide_vautour_switches_between_reveal_and_play_without_building_either_again(tmp_path, diffs):
    """Stupide Vautour's entry alternates the point cards to reveal and every player's hand: both
    blocks stay on the page and only the one expected is visible, so a reveal or a confirm sends
    what changed (a card out, the picks gone, which block shows), not the 140-300 controls of the
    block that comes into view."""
    from companion.app import probe

    players = ("Anne", "Bruno", "Chloé")
    service, app, sid, _session = open_table(tmp_path, "stupide-vautour", list(players), first_player="Anne")
    sizes: dict[str, int] = {}
    hands: dict[str, int] = {}
    for n, (card, picks) in enumerate(((3, (14, 1, 2)), (-2, (13, 2, 1)), (7, (1, 15, 3)))):
        diffs.clear()
        probe.tap(app.root, f"sv-reveal-{card}")
        assert probe.has(app.root, "sv-play") and not probe.has(app.root, "sv-reveal")
        sizes[f"reveal {card}"] = len(new_controls(diffs[-1]))
        # a hand card no one picked is the very object it was a round ago: kept, not built again
        now = {f"{p}-{c}": id(probe.find(app.root, f"sv-card-{p}-{c}")) for p in players for c in (5, 9)}
        assert not hands or now == hands
        hands = now
        for player, value in zip(players, picks):
            probe.tap(app.root, f"sv-card-{player}-{value}")
        diffs.clear()
        probe.tap(app.root, "sv-confirm")
        assert len(service.open(sid).log) == 2 * (n + 1)
        assert probe.has(app.root, "sv-reveal") and not probe.has(app.root, "sv-play")
        sizes[f"confirm {n + 1}"] = len(new_controls(diffs[-1]))
    assert max(sizes.values()) <= 30, sizes


def test_boursicocotte_payment_in_private_sends_neither_the_public_table_nor_the_draw_picker_again(tmp_path, diffs):
    """A payment is made in the payer's private view, which hides the rest of the game's screen.
    The public parts stay on the page meanwhile, hidden, and the draw picker stays through the
    auction and the payment: opening the view, hiding it, and paying send what changed, not the
    table's blocks or the animals to draw (before: 104 controls sent anew on paying, 33 on hiding)."""
    from companion.app import probe

    service, app, sid, _session = open_table(tmp_path, "boursicocotte", ["Anne", "Bruno", "Chloé"],
                                             first_player="Anne")
    sizes: dict[str, int] = {}
    for ident in ("bc-draw-pig", "bc-bidder-Bruno", "bc-close-sold", "bc-show-me", "bc-hide", "bc-show-me",
                  "bc-cash-10-0", "bc-pay"):
        diffs.clear()
        probe.tap(app.root, ident)
        sent_again = {c.identifier for c in new_controls(diffs[-1]) if isinstance(c, ft.Semantics)}
        assert not {i for i in sent_again if i.startswith(("bc-draw", "bc-table", "bc-players"))}, (ident, sent_again)
        sizes[ident] = len(new_controls(diffs[-1]))
    assert [entry.action["type"] for entry in service.open(sid).log] == ["draw", "bid", "close", "pay"]
    assert probe.has(app.root, "bc-draw") and not probe.has(app.root, "bc-private")
    assert sizes["bc-hide"] == 0 and sizes["bc-pay"] <= 30, sizes


@pytest.mark.parametrize("game", ["high-society", "animalement-votre"])
def test_high_society_switches_between_reveal_and_bid_without_building_either_again(tmp_path, diffs, game):
    """High Society's entry alternates the cards to turn over and the bid panel (money cards,
    figures, confirm, clear, pass): both blocks stay on the page and only the one expected is
    visible, so a reveal, a bid or a pass sends what changed (a card fewer in the deck, the
    figures, which block shows), not the whole block that comes into view."""
    from companion.app import probe

    service, app, sid, _session = open_table(tmp_path, game, ["Anne", "Bruno", "Chloé"], first_player="Anne")
    sizes: dict[str, int] = {}
    taps = [("reveal p7", ["reveal-p7"]), ("bid Anne", ["money-8", "bid-confirm"]),
            ("bid Bruno", ["money-12", "bid-confirm"]), ("pass Chloé", ["pass"]), ("pass Anne", ["pass"]),
            ("reveal p3", ["reveal-p3"]), ("pass Bruno", ["pass"]), ("bid Chloé", ["money-1", "bid-confirm"]),
            ("pass Anne 2", ["pass"]), ("reveal p5", ["reveal-p5"])]
    for name, idents in taps:
        for ident in idents[:-1]:
            probe.tap(app.root, ident)
        before = len(service.open(sid).log)
        diffs.clear()
        probe.tap(app.root, idents[-1])
        assert len(service.open(sid).log) == before + 1, name
        bidding = not name.startswith("pass Anne")  # Anne's pass ends each auction: a card to turn over
        assert probe.has(app.root, "hs-bid") == bidding and probe.has(app.root, "hs-reveal") != bidding, name
        sizes[name] = len(new_controls(diffs[-1]))
    # before: a reveal 85-86, the pass that ends an auction 98-132 (the reveal grid built anew); now
    # a reveal 16-17, that pass 20-48 (the result, the log's lines, nothing of the two blocks)
    assert max(n for name, n in sizes.items() if name.startswith("reveal")) <= 25, sizes
    assert max(sizes.values()) <= 50, sizes


def test_monte_descend_switches_between_pad_and_take_without_building_either_again(tmp_path, diffs):
    """Monte & descend's entry is the card pad, or the take when a yellow « prends » was played (no
    take stacking): both stay on the page and only the one expected is visible, and a yellow's
    actions stay in the pad, hidden under another colour. So the take that gives the turn back to
    the pad sends what changed, not the pad's 95 controls coming into view (nor the take's 19 when
    it comes, nor the actions' 21 when yellow is chosen)."""
    from companion.app import probe

    service, app, sid, _session = open_table(tmp_path, "monte-descend", ["Anne", "Bruno", "Chloé"],
                                             variant={"take_stacking": False})
    taps = [("card", "md-value-16"), ("confirm", "md-confirm"), ("draw", "md-draw"), ("pass", "md-pass"),
            ("colour yellow", "md-colour-y"), ("action", "md-action-take"), ("yellow card", "md-value-17"),
            ("confirm take card", "md-confirm"), ("take", "md-take-confirm"), ("colour red", "md-colour-r"),
            ("red card", "md-value-12"), ("colour yellow again", "md-colour-y")]
    sizes: dict[str, int] = {}
    for name, ident in taps:
        diffs.clear()
        probe.tap(app.root, ident)
        sizes[name] = len(new_controls(diffs[-1]))
        assert probe.has(app.root, "md-take") == (name == "confirm take card"), name
        assert probe.has(app.root, "md-pad") != (name == "confirm take card"), name
        assert probe.has(app.root, "md-action-take") == (name in ("colour yellow", "action", "yellow card",
                                                                   "colour yellow again")), name
    assert len(service.open(sid).log) == 5
    # before: the take 110 (the pad built anew), the yellow chosen 24; now 17 and 3 (the log's
    # line, the hand counts, the switch); the rest is the log's line and the cards laid
    assert sizes["take"] <= 25 and sizes["colour yellow"] <= 5 and sizes["colour yellow again"] <= 5, sizes
    assert max(sizes.values()) <= 40, sizes
