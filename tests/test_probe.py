"""The in-process probe sees what a person sees: a control under an invisible one is absent (Flet
does not render it, the browser's accessibility tree has nothing of it), whatever it holds."""

from __future__ import annotations

import flet as ft
import pytest

from companion.app import probe
from companion.app.ui import tid


def _page(hidden: bool) -> tuple[ft.Control, list[str]]:
    tapped: list[str] = []
    block = tid("block", ft.Column([
        ft.Text("secret"),
        tid("go", ft.Container(ft.Text("Go"), on_click=lambda _: tapped.append("go"))),
    ]))
    block.visible = not hidden
    return ft.Column([tid("title", ft.Text("Title")), ft.Container(block)]), tapped


def test_a_control_under_an_invisible_one_is_absent():
    root, tapped = _page(hidden=True)
    assert probe.has(root, "title") and not probe.has(root, "block") and not probe.has(root, "go")
    assert probe.idents(root) == ["title"] and probe.texts(root) == ["Title"]
    with pytest.raises(LookupError):
        probe.find(root, "go")
    with pytest.raises(LookupError):
        probe.tap(root, "go")
    assert tapped == []
    assert probe.kept_hidden(root, "go") and probe.kept_hidden(root, "block")
    assert not probe.kept_hidden(root, "title") and not probe.kept_hidden(root, "nowhere")


def test_a_visible_control_is_found_read_and_tapped():
    root, tapped = _page(hidden=False)
    assert probe.has(root, "go") and "secret" in probe.texts(root)
    probe.tap(root, "go")
    assert tapped == ["go"] and not probe.kept_hidden(root, "go")
