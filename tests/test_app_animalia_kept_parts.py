"""Animalia's screen keeps its parts between renders (companion.app.memo): a tap builds again only
the parts it changes (the collection a lot goes to, the picker tile of the card turned over), and a
kept part still acts on the game as it is now — after an entry, an undo, a refusal, a correction."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from tests.support.screens import shown

PLAYERS = ("Anne", "Bruno", "Chloé", "David")
A, B, C, D = PLAYERS


def _app(tmp_path: Path, players: tuple[str, ...] = PLAYERS) -> tuple[SessionService, App, int]:
    service = SessionService(Store(tmp_path / "kept.db"))
    sid = service.start("animalia", list(players), assist=False).session_id
    app = App(service, None)
    app.go("table", session_id=sid)
    return service, app, sid


def _find(app: App, ident: str):
    return probe.find(app.root, ident)


@pytest.fixture
def table(tmp_path: Path) -> tuple[SessionService, App, int]:
    return _app(tmp_path)


def test_a_draw_and_a_take_build_again_only_what_they_change(table):
    service, app, sid = table
    tiles = {name: _find(app, f"ani-pick-{name}") for name in ("cat-dandy", "owl", "dog-thief")}
    boxes = {p: _find(app, f"ani-collection-{p}-0") for p in PLAYERS}
    header = _find(app, "ani-header")
    probe.tap(app.root, "ani-pick-dog-thief")  # Anne turns a card over: the lot is offered to her
    assert not shown(app.root, "ani-draw") and probe.kept_hidden(app.root, "ani-pick-owl")  # hidden, kept on the page
    assert all(_find(app, f"ani-collection-{p}-0") is boxes[p] for p in (B, C, D))
    probe.tap(app.root, "ani-pass")
    probe.tap(app.root, "ani-take")  # Bruno takes it
    assert service.open(sid).engine.collections[(B, 0)] == ["dog-thief"]
    after = {p: _find(app, f"ani-collection-{p}-0") for p in PLAYERS}
    # Bruno's changed; Anne's and Bruno's showed whose turn it was; Chloé's and David's were never touched
    assert after[B] is not boxes[B] and after[C] is boxes[C] and after[D] is boxes[D]
    # the picker is back: only the card gone from the deck is a new tile; the others are kept
    assert _find(app, "ani-pick-cat-dandy") is tiles["cat-dandy"] and _find(app, "ani-pick-owl") is tiles["owl"]
    assert _find(app, "ani-pick-dog-thief") is not tiles["dog-thief"]
    assert probe.is_greyed(app.root, "ani-pick-dog-thief")
    assert _find(app, "ani-header") is not header  # the dealer and the deck's count changed


def test_kept_parts_act_on_the_game_as_it_is_after_an_entry_and_an_undo(table):
    service, app, sid = table
    probe.tap(app.root, "ani-pick-cat-champion")
    probe.tap(app.root, "ani-take")  # Anne takes it: Bruno deals
    probe.tap(app.root, "ani-pick-owl")  # a tile kept from before the take
    assert service.open(sid).engine.lot == ["owl"] and service.open(sid).engine.dealer == B
    probe.tap(app.root, "undo")
    probe.tap(app.dialog, "undo-confirm-yes")
    assert service.open(sid).engine.lot == []
    probe.tap(app.root, "ani-pick-horse-spy")  # the kept tiles still draw for the dealer now
    probe.tap(app.root, "ani-take")
    assert service.open(sid).engine.collections[(B, 0)] == ["horse-spy"]
    assert [e.action for e in service.open(sid).log] == [
        {"type": "draw", "card": "cat-champion"}, {"type": "take", "player": A},
        {"type": "draw", "card": "horse-spy"}, {"type": "take", "player": B}]


def test_a_kept_take_button_acts_after_a_refusal(tmp_path):
    # two players: Anne's first row complete, a lot offered to her; "row 1" is refused, "row 2" taken
    service, app, sid = _app(tmp_path, (A, B))
    hands = {A: ["cat-champion", "cat-dandy", "dog-champion", "dog-dandy", "owl"],  # no power among them
             B: ["horse-champion", "horse-dandy", "rabbit-champion", "rabbit-dandy", "parrot-champion"]}
    for i in range(5):
        for player in (A, B):  # each deals to the first row of their own
            service.submit(sid, {"type": "draw", "card": hands[player][i]})
            service.submit(sid, {"type": "take", "player": player, "row": 0})
    assert service.open(sid).engine.dealer == A
    app.go("table", session_id=sid)
    probe.tap(app.root, "ani-pick-parrot-dandy")
    take = _find(app, "ani-take-row-1")
    probe.tap(app.root, "ani-take-row-0")  # Anne's first row is complete: refused, with its rule
    assert probe.has(app.root, "refusal") and _find(app, "ani-take-row-1") is take  # kept through it
    probe.tap(app.root, "ani-take-row-1")
    assert service.open(sid).engine.collections[(A, 1)] == ["parrot-dandy"]


def test_a_correction_s_picker_is_its_own_and_draws_the_card_tapped_there(table):
    service, app, sid = table
    probe.tap(app.root, "ani-pick-cat-champion")
    probe.tap(app.root, "ani-take")
    kept = _find(app, "ani-pick-owl")
    probe.tap(app.root, "correct-0")  # the card turned over was really the owl
    assert probe.has(app.root, "correcting") and _find(app, "fix-ani-pick-owl") is not kept
    probe.tap(app.root, "fix-ani-pick-owl")
    probe.tap(app.root, "correction-save")
    assert [e.action for e in service.open(sid).log] == [{"type": "draw", "card": "owl"},
                                                         {"type": "take", "player": A}]
    probe.tap(app.root, "ani-pick-dog-spy")  # the table's picker, kept or not, draws for Bruno now
    assert service.open(sid).engine.lot == ["dog-spy"] and service.open(sid).engine.dealer == B
