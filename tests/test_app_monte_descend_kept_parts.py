"""Monte & descend's table screen keeps its parts between taps (companion.app.memo): a tap on the pad
builds again only the pad's part(s) it changes, whatever the number of players, and a kept part's
taps still act on the game as it is now — after an entry, an undo, a refusal, in a correction."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store

NAMES = ("Anne", "Bruno", "Chloé", "David", "Émile", "Fanny")


def start(tmp_path: Path, n: int = 5) -> tuple[SessionService, App, int]:
    service = SessionService(Store(tmp_path / f"md{n}.db"))
    sid = service.start("monte-descend", list(NAMES[:n])).session_id
    service.submit(sid, {"type": "play", "player": "Anne", "cards": ["r15"]})  # Bruno to play
    app = App(service, None)
    app.go("table", session_id=sid)
    return service, app, sid


def shown(app: App, *idents: str) -> dict[str, object]:
    return {ident: probe.find(app.root, ident) for ident in idents}


def actions(service: SessionService, sid: int) -> list[dict]:
    """The saved entries, without the fields an entry leaves out (a play's direction when not chosen)."""
    return [{k: v for k, v in entry.action.items() if v is not None} for entry in service.open(sid).log]


@pytest.fixture
def table(tmp_path: Path) -> tuple[SessionService, App, int]:
    return start(tmp_path)


STILL = ("md-pile", "md-draw", "md-sheet-panel", *(f"md-hand-{p}" for p in NAMES[:5]))


def test_a_colour_then_a_value_build_again_only_the_pad_parts_they_change(table):
    service, app, sid = table
    before = shown(app, *STILL, "md-colour-b", "md-value-1", "md-series-empty", "md-confirm", "md-pad-how")
    probe.tap(app.root, "md-colour-r")
    after = shown(app, *STILL, "md-colour-b", "md-value-1", "md-series-empty", "md-confirm", "md-pad-how")
    changed = {ident for ident in before if after[ident] is not before[ident]}
    assert changed == {"md-colour-b", "md-value-1"}, "the colours and the values, nothing else"
    probe.tap(app.root, "md-value-14")
    again = shown(app, *STILL, "md-colour-b", "md-value-1", "md-confirm", "md-pad-how")
    changed = {ident for ident in again if again[ident] is not after[ident]}
    assert changed == {"md-value-1", "md-confirm"}, "the values (what may follow) and confirm; the series is new"
    assert probe.has(app.root, "md-series-0")


def test_a_tap_costs_the_same_with_two_players_as_with_six(tmp_path):
    cost = {}
    for n in (2, 6):
        _, app, _ = start(tmp_path, n)
        probe.tap(app.root, "md-colour-r")
        built = app.memo.built
        probe.tap(app.root, "md-value-14")
        first = app.memo.built - built
        probe.tap(app.root, "md-value-13")
        cost[n] = (first, app.memo.built - built - first)
    # the red 14 leaves only the 13 to follow (14 tiles change highlight); the 13 then moves it to the 12:
    # two tiles, the series and confirm
    assert cost[2] == cost[6] == (14 + 2, 2 + 2)


def test_kept_parts_still_enter_plays_after_an_entry_an_undo_and_a_refusal(table):
    service, app, sid = table
    probe.tap(app.root, "md-value-15")  # Bruno turns it with the blue 15
    probe.tap(app.root, "md-confirm")
    assert actions(service, sid)[-1] == {"type": "play", "player": "Bruno", "cards": ["b15"]}
    colours = probe.find(app.root, "md-colour-b")
    probe.tap(app.root, "md-value-16")
    assert probe.find(app.root, "md-colour-b") is colours, "kept across the entry"
    probe.tap(app.root, "md-confirm")
    assert actions(service, sid)[-1] == {"type": "play", "player": "Chloé", "cards": ["b16"]}

    probe.tap(app.root, "undo")
    probe.tap(app.dialog, "undo-confirm-yes")
    assert len(actions(service, sid)) == 2
    # a refused card keeps the series; the kept series part takes it out again
    probe.tap(app.root, "md-value-3")
    probe.tap(app.root, "md-confirm")
    assert probe.has(app.root, "refusal") and "MD-UP" in probe.text_of(app.root, "refusal")
    series = probe.find(app.root, "md-series-0")
    probe.tap(app.root, "md-colour-r")
    assert probe.find(app.root, "md-series-0") is series
    probe.tap(app.root, "md-series-0")
    assert not probe.has(app.root, "md-series-0")
    probe.tap(app.root, "md-colour-b")
    probe.tap(app.root, "md-value-17")
    probe.tap(app.root, "md-confirm")
    assert actions(service, sid)[-1] == {"type": "play", "player": "Chloé", "cards": ["b17"]}


def test_a_kept_take_panel_takes_for_the_player_hit_now(tmp_path):
    service = SessionService(Store(tmp_path / "take.db"))
    sid = service.start("monte-descend", ["Anne", "Bruno", "Chloé"]).session_id
    service.submit(sid, {"type": "play", "player": "Anne", "cards": ["y5-take"], "direction": "up"})
    app = App(service, None)
    app.go("table", session_id=sid)
    panel = probe.find(app.root, "md-take")
    probe.tap(app.root, "md-sheet-toggle")
    assert probe.find(app.root, "md-take") is panel
    probe.tap(app.root, "md-take-confirm")  # both others preselected: one tap
    assert actions(service, sid)[-1] == {"type": "take", "player": "Bruno", "from": ["Anne", "Chloé"], "count": 1}
    probe.tap(app.root, "undo")
    probe.tap(app.dialog, "undo-confirm-yes")
    probe.tap(app.root, "md-from-Anne")  # Bruno takes from Chloé first, then from Anne
    probe.tap(app.root, "md-from-Anne")
    probe.tap(app.root, "md-take-confirm")
    assert actions(service, sid)[-1] == {"type": "take", "player": "Bruno", "from": ["Chloé", "Anne"], "count": 1}


def test_a_correction_enters_through_its_own_pad(table):
    service, app, sid = table
    probe.tap(app.root, "md-value-15")
    probe.tap(app.root, "md-confirm")
    probe.tap(app.root, "correct-1")  # Bruno really laid a red 14
    probe.tap(app.root, "fix-md-colour-r")
    probe.tap(app.root, "fix-md-value-14")
    probe.tap(app.root, "fix-md-confirm")
    probe.tap(app.root, "correction-save")
    assert actions(service, sid)[-1] == {"type": "play", "player": "Bruno", "cards": ["r14"]}
    probe.tap(app.root, "md-colour-r")  # the table's own pad, kept or not, plays on from there
    probe.tap(app.root, "md-value-13")
    probe.tap(app.root, "md-confirm")
    assert actions(service, sid)[-1] == {"type": "play", "player": "Chloé", "cards": ["r13"]}
