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


def test_the_last_part_of_a_slot_is_there_for_a_hidden_part_whatever_its_inputs():
    memo = Memo()
    assert memo.last("a") is None
    first = memo.keep("a", 1, lambda: ft.Text("one"))
    assert memo.last("a") is first   # hidden, the part need not follow its inputs…
    assert memo.keep("a", 2, lambda: ft.Text("two")) is not first  # …shown again, it is built anew
    memo.clear()
    assert memo.last("a") is None
    never = NoMemo()
    never.keep("a", 1, lambda: ft.Text("one"))
    assert never.last("a") is None


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


# -- the frame around every game: the bar, the prompt, the side panel's tools and log lines ---------

FRAME = ("frame-bar", "prompt", "undo", "table-rules", "log-count")


def frame_parts(app: App) -> dict[str, ft.Control]:
    """The frame's parts on screen, by identifier (the bar by its title), and each log line."""
    parts = {ident: probe.find(app.root, ident) for ident in FRAME[1:]}
    parts["frame-bar"] = probe.find(app.root, "screen-title")
    parts.update({ident: probe.find(app.root, ident) for ident in probe.idents(app.root)
                  if ident.startswith("entry-") and not ident.endswith("-text")})
    return parts


@pytest.fixture
def auction(tmp_path: Path) -> tuple[SessionService, App, int]:
    service = SessionService(Store(tmp_path / "frame.db"))
    sid = service.start("high-society", list(PLAYERS[:4])).session_id
    app = App(service, None)
    app.go("table", session_id=sid)
    probe.tap(app.root, "reveal-p7")
    for value in (4, 6):
        probe.tap(app.root, f"money-{value}")
        probe.tap(app.root, "bid-confirm")
    return service, app, sid


def test_a_pick_on_the_game_keeps_every_part_of_the_frame(auction):
    service, app, sid = auction
    before = frame_parts(app)
    assert {"entry-0", "entry-1", "entry-2"} <= set(before)
    built = app.memo.built
    probe.tap(app.root, "money-8")   # a pick: nothing entered, only the game's pad changes
    after = frame_parts(app)
    assert after.keys() == before.keys()
    assert [k for k in before if after[k] is not before[k]] == []  # neither built nor compared
    assert app.memo.built - built <= 3  # the pad's own parts at most, not the frame's


def test_an_entry_builds_its_own_log_line_and_keeps_the_others(auction):
    service, app, sid = auction
    before = frame_parts(app)
    probe.tap(app.root, "pass")      # Chloé passes: one more entry
    after = frame_parts(app)
    assert len(service.open(sid).log) == 4
    assert after["entry-3"] is not None and "entry-3" not in before
    assert all(after[f"entry-{i}"] is before[f"entry-{i}"] for i in range(3))
    assert after["prompt"] is not before["prompt"] and after["log-count"] is not before["log-count"]
    assert after["undo"] is not before["undo"]   # undo acts on the game as it is now
    assert after["frame-bar"] is before["frame-bar"]


def test_kept_frame_parts_still_act_after_an_undo_a_refusal_and_a_correction(auction):
    service, app, sid = auction
    probe.tap(app.root, "pass")
    probe.tap(app.root, "undo")                  # the undo built after the entry takes back that entry
    probe.tap(app.dialog, "undo-confirm-yes")
    assert len(service.open(sid).log) == 3
    probe.tap(app.root, "redo")
    assert [e.action for e in service.open(sid).log][-1] == {"type": "pass", "player": "Chloé"}
    probe.tap(app.root, "money-2")               # David's 2 does not beat Bruno's 6: refused
    probe.tap(app.root, "bid-confirm")
    assert "HS-BID-RAISE" in probe.text_of(app.root, "refusal")
    kept = probe.find(app.root, "entry-1")
    assert frame_parts(app)["entry-1"] is kept
    probe.tap(app.root, "refusal-close")         # the refusal's close, built on the tap before
    assert not probe.has(app.root, "refusal")
    probe.tap(app.root, "correct-1")             # a kept log line starts the correction of its entry
    assert probe.has(app.root, "correcting")
    assert not probe.is_enabled(app.root, "correct-2")  # lines rebuilt: no second correction meanwhile
    probe.tap(app.root, "fix-money-3")
    probe.tap(app.root, "fix-bid-confirm")
    probe.tap(app.root, "correction-save")
    assert service.open(sid).log[1].action == {"type": "bid", "player": "Anne", "add": [3]}
    assert probe.is_enabled(app.root, "correct-2") and probe.is_enabled(app.root, "undo")


def test_the_bar_follows_the_language_and_the_theme(auction):
    service, app, sid = auction
    bar = probe.find(app.root, "screen-title")
    probe.tap(app.root, "theme-switch")
    assert probe.find(app.root, "screen-title") is not bar
    app.set_lang("en")
    assert probe.text_of(app.root, "screen-title") == Msg("game.high-society.name").render("en")
    assert probe.text_of(app.root, "undo") == Msg("app.table.undo").render("en")
