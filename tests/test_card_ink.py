"""Cards without the ink ripple (issue 36): a card that is picked shows it at once by its own
selected state, so no tappable card of the shared blocks (companion.app.ui.tile, chip) nor of a
game's table draws Material's ripple; buttons keep theirs. The ripple is ``Container(ink=True)``."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest

from companion.app import ui
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.games import SPECS
from models.record import PLAYER_COUNTS

NAMES = ("Anne", "Bruno", "Chloé", "David", "Émile", "Fanny")


def rippling(root: ft.Control) -> list[ft.Container]:
    """The tappable containers below ``root`` that draw an ink ripple."""
    return [node for node in ui.walk(root) if isinstance(node, ft.Container) and node.on_click is not None and node.ink]


def test_a_tile_and_a_chip_have_no_ripple_and_keep_their_tap_and_selected_state():
    tapped = []
    for control in (ui.tile(ft.Text("3"), tapped.append, ident="t", selected=True),
                    ui.chip("High Society", tapped.append, ident="c", selected=False)):
        box = control.content
        assert isinstance(box, ft.Container) and box.on_click is not None and not box.ink
        box.on_click("tap")
        assert control.button
    assert tapped == ["tap", "tap"]
    assert ui.tile(ft.Text("3"), tapped.append, ident="t", selected=True).selected


def test_rippling_finds_a_container_that_ripples():  # the check below can fail
    assert rippling(ft.Column([ft.Container(ft.Text("x"), on_click=lambda _: None, ink=True)]))


@pytest.mark.parametrize("game", [spec.id for spec in SPECS])
def test_no_card_of_a_games_table_ripples(game, tmp_path: Path):
    service = SessionService(Store(tmp_path / "ink.db"))
    players = list(NAMES[:max(PLAYER_COUNTS[game])])
    sid = service.start(game, players).session_id
    app = App(service, None)
    app.go("table", session_id=sid)
    assert [n for n in ui.walk(app.root) if isinstance(n, ft.Container) and n.on_click is not None], game
    assert rippling(app.root) == []
