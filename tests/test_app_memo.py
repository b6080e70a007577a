"""Parts of a screen kept between renders (companion.app.memo): a tap builds again only the parts
whose inputs changed, and a kept part's taps still act on the game as it is now — after an entry, an
undo, a change of language."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest

from companion.app import probe
from companion.app.memo import Memo, NoMemo
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg

PLAYERS = ("Anne", "Bruno", "Chloé", "David", "Emma")


def test_a_part_is_the_same_object_while_its_inputs_are_equal():
    memo, built = Memo(), []

    def part(name: str) -> ft.Control:
        built.append(name)
        return ft.Text(name)

    first = memo.keep("a", (1, "x"), lambda: part("a1"))
    assert memo.keep("a", (1, "x"), lambda: part("a2")) is first
    other = memo.keep("a", (2, "x"), lambda: part("a3"))
    assert other is not first and built == ["a1", "a3"]
    assert memo.keep("b", (2, "x"), lambda: part("b")) is not other  # another slot, its own part
    memo.clear()
    assert memo.keep("a", (2, "x"), lambda: part("a4")) is not other
    never = NoMemo()
    assert never.keep("a", 1, lambda: part("n1")) is not never.keep("a", 1, lambda: part("n2"))


@pytest.fixture
def table(tmp_path: Path) -> tuple[SessionService, App, int]:
    service = SessionService(Store(tmp_path / "memo.db"))
    sid = service.start("stupide-vautour", list(PLAYERS)).session_id
    app = App(service, None)
    app.go("table", session_id=sid)
    return service, app, sid


def test_a_pick_builds_again_only_the_row_it_changes(table):
    service, app, sid = table
    probe.tap(app.root, "sv-reveal-5")
    rows = {p: probe.find(app.root, f"sv-row-{p}") for p in PLAYERS}
    probe.tap(app.root, "sv-card-Anne-15")
    after = {p: probe.find(app.root, f"sv-row-{p}") for p in PLAYERS}
    assert after["Anne"] is not rows["Anne"]
    assert all(after[p] is rows[p] for p in PLAYERS[1:])  # kept: neither built nor compared


def test_kept_rows_still_enter_the_round_after_an_entry_and_an_undo(table):
    service, app, sid = table
    for round_card, base in ((5, 15), (3, 10)):
        probe.tap(app.root, f"sv-reveal-{round_card}")
        for i, player in enumerate(PLAYERS):
            probe.tap(app.root, f"sv-card-{player}-{base - i}")
        probe.tap(app.root, "sv-confirm")
    log = service.open(sid).log
    assert [entry.action for entry in log][-1] == {"type": "play", "cards": {p: 10 - i for i, p in enumerate(PLAYERS)}}
    probe.tap(app.root, "undo")
    probe.tap(app.dialog, "undo-confirm-yes")
    assert len(service.open(sid).log) == 3
    for i, player in enumerate(PLAYERS):  # the rows shown before the entry are the ones kept: they still pick
        probe.tap(app.root, f"sv-card-{player}-{1 + i}")
    probe.tap(app.root, "sv-confirm")
    assert service.open(sid).log[-1].action == {"type": "play", "cards": {p: 1 + i for i, p in enumerate(PLAYERS)}}


def test_nothing_is_kept_across_a_change_of_language(table):
    service, app, sid = table
    probe.tap(app.root, "sv-reveal-5")
    before = probe.find(app.root, "sv-row-Anne")
    app.set_lang("en")
    assert probe.find(app.root, "sv-row-Anne") is not before
    assert probe.text_of(app.root, "sv-picked-Anne") == Msg("app.sv.to_pick").render("en")
