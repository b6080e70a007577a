"""Reading and driving a screen's controls, as the tests of several screens do."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.app import probe


def shown(root: Any, ident: str) -> bool:
    """``ident`` is on screen: present, and no control around it hidden (the picker stays on the
    page, hidden, while a lot is offered)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None or getattr(node, "visible", True) is False:
            continue
        if isinstance(node, ft.Semantics) and node.identifier == ident:
            return True
        for name in ("content", "controls"):
            value = getattr(node, name, None)
            stack.extend(value if isinstance(value, list) else [value])
    return False


def choose(app, ident: str, key: str) -> None:
    """Pick an option of a dropdown, as Flet reports it."""
    from types import SimpleNamespace

    menu = probe.find(app.root, ident).content
    assert key in [o.key for o in menu.options]
    menu.value = key
    menu.on_select(SimpleNamespace(control=menu, data=key))
