"""What an entry sends to the browser: the table is rendered on a Flet page whose connection records
each patch (no browser), then entries are made one after the other. A part the screen kept between
renders (companion.app.memo: the very same control object before and after) must cost nothing: the
diff neither sends it again nor changes it. Flet compares unkeyed controls of a list by their place,
so a part that moves (a log line when a new one comes on top, a block after one that appears) would
be compared with whatever held its place before, and rebuilt in the browser. Every game, every
entry; and no list on screen holds two controls with the same key (the diff would mix them up)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch

from companion.app.ui import walk
from tests.support.table_entry import (
    GAMES,
    entries,
    new_controls,
    open_table,
    page_context_restored,  # noqa: F401  (the fixture)
)


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


def _children_of(node: BaseControl) -> list[tuple[str, Any]]:
    """(property, value) of a control's properties that hold controls: a control or a list."""
    found = []
    for field in dataclasses.fields(node):
        if field.name.startswith("_"):
            continue
        value = getattr(node, field.name, None)
        if isinstance(value, BaseControl) or (isinstance(value, list) and any(isinstance(v, BaseControl) for v in value)):
            found.append((field.name, value))
    return found


def _changed_here(old: BaseControl, new: BaseControl) -> bool:
    """Whether a control differs from its predecessor by itself: a property (a handler is one), or
    which controls its lists hold (their count, types or keys), not by what changed below it."""
    if type(old) is not type(new) or old.key != new.key:
        return True
    for field in dataclasses.fields(new):
        if field.name.startswith("_"):
            continue
        before, after = getattr(old, field.name, None), getattr(new, field.name, None)
        if isinstance(after, BaseControl) or isinstance(before, BaseControl):
            if not (isinstance(after, BaseControl) and isinstance(before, BaseControl)) \
                    or (type(before), before.key) != (type(after), after.key):
                return True
        elif isinstance(after, list) and any(isinstance(v, BaseControl) for v in after + (before or [])):
            if not isinstance(before, list) or [(type(v), getattr(v, "key", None)) for v in before] \
                    != [(type(v), getattr(v, "key", None)) for v in after]:
                return True
        elif before != after:
            return True
    return False


@pytest.fixture
def compared(monkeypatch) -> list[tuple[Any, Any]]:
    """The (on screen, new) pairs of controls Flet compares property by property from now on (a
    control that is the very one on screen costs nothing: Flet skips it)."""
    from flet.controls.object_patch import DiffBuilder

    pairs: list[tuple[Any, Any]] = []
    compare = DiffBuilder._compare_dataclasses

    def recording(self: Any, parent: Any, path: Any, src: Any, dst: Any, frozen: bool) -> Any:
        if src is not dst and isinstance(dst, BaseControl):
            pairs.append((src, dst))
        return compare(self, parent, path, src, dst, frozen)

    monkeypatch.setattr(DiffBuilder, "_compare_dataclasses", recording)
    return pairs


@pytest.mark.parametrize("game", GAMES)
def test_an_entry_makes_flet_compare_only_what_changed_and_the_controls_above_it(tmp_path, compared, game):
    """A render builds the frame around the kept parts again; what equals the control on screen is
    the one on screen (companion.app.reuse), so Flet's comparison walks the path from the root to
    what changed, not the page: a tap's cost does not grow with what else is on screen. Every
    control Flet compares has changed by itself or holds one that has; a render that changes
    nothing compares only the controls whose handlers are new and the ones above them."""
    players, start, actions = entries(game)
    service, app, sid, _session = open_table(tmp_path, game, players, **start)
    for n, action in enumerate([*actions, None]):
        if action is not None:
            service.submit(sid, action)
        compared.clear()
        app.render()
        changed = {id(new) for old, new in compared if _changed_here(old, new)}
        above: set[int] = set()

        def mark(node: Any) -> bool:  # whether node or a control below it changed by itself
            below = False
            for _, value in _children_of(node):
                for child in value if isinstance(value, list) else [value]:
                    if isinstance(child, BaseControl) and mark(child):
                        below = True
            if below or id(node) in changed:
                above.add(id(node))
                return True
            return False
        mark(app.root)
        needless = [type(new).__name__ + (f" {new.key}" if new.key else "") for _, new in compared if id(new) not in above]
        assert not needless, (n, action, needless[:8])
        shown = sum(1 for c in walk(app.root) if isinstance(c, BaseControl))
        if action is None:  # nothing changed: at most the few controls whose handlers are built anew
            assert len(compared) <= shown // 8, (len(compared), shown)


def _tappable(root: Any) -> dict[str, Any]:
    """Each identified control on screen that a tap reaches (nothing disabled above it), with the
    control whose handler the tap calls; the bar's buttons (another screen, language, theme) left out."""
    found: dict[str, Any] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, disabled = stack.pop()
        if not isinstance(node, BaseControl) or getattr(node, "visible", True) is False:
            continue
        disabled = disabled or bool(getattr(node, "disabled", False))
        ident = getattr(node, "identifier", None) if isinstance(node, ft.Semantics) else None
        if ident and not disabled and not ident.startswith(("nav-", "lang-", "theme-")):
            target = next((c for c in walk(node) if getattr(c, "on_click", None) is not None
                           and not getattr(c, "disabled", False)), None)
            if target is not None:
                found.setdefault(ident, target)
        for _, value in _children_of(node):
            stack.extend((c, disabled) for c in (value if isinstance(value, list) else [value]))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_tap_leaves_flets_page_wide_update_to_run(tmp_path, game):
    """A browser's tap reaches the app through Flet's session (``dispatch_event``); after a handler
    returns, Flet updates the page itself unless the handler sent its update. Every tap of a game's
    table sends its own (the render: what changed and the controls above it), so Flet's update of
    the page never runs: each tappable control of the table, one after the other, through the event
    path the browser uses, dialogs answered as they come."""
    from flet.messaging.session import Session


    players, start, actions = entries(game)
    service, app, sid, session = open_table(tmp_path, game, players, **start)
    for action in actions[:3]:  # a game under way: more to tap than the first turn offers
        service.submit(sid, action)
    app.render()
    page_wide: list[Any] = []
    auto = Session._Session__auto_update  # type: ignore[attr-defined]

    async def recording(self: Any, control: Any) -> None:
        page_wide.append(control)
        await auto(self, control)

    loop = session.connection.loop
    tapped: list[str] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Session, "_Session__auto_update", recording)
        while len(tapped) < 40:  # each control shown, once; what a tap brings is tapped in turn
            done = {t.split(":")[0] for t in tapped}
            todo = {i: t for i, t in _tappable(app.root).items() if i not in done}
            if not todo:
                break
            # a correction (another mode of the screen) last: until then, the game's own controls
            ident = min(todo, key=lambda i: (i.startswith("correct-"), i))
            target = todo[ident]
            loop.run_until_complete(session.dispatch_event(target._i, "click", None))
            tapped.append(ident)
            assert not page_wide, (ident, [type(c).__name__ for c in page_wide])
            if app.dialog is not None:  # a question (undo?) or a rule's text: its last button answers
                answer = next(c for c in walk(app.dialog.actions[-1]) if getattr(c, "on_click", None) is not None)
                loop.run_until_complete(session.dispatch_event(answer._i, "click", None))
                tapped.append(f"{ident}: {type(answer).__name__}")
                assert not page_wide, (ident, "answered", [type(c).__name__ for c in page_wide])
                assert app.dialog is None, (ident, "the dialog's last button left it open")
    assert len(tapped) >= 10, tapped
