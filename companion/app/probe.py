"""Looking into a built control tree without a browser: find a control by its test identifier,
read the text under it, tap it, type into it. Used by the pure-Python UI tests (no page needed:
handlers are plain functions of the control tree).

Only what is shown counts: a control under an invisible one (``visible=False``, itself included)
is absent, as in the browser — Flet does not render it, nothing of it reaches the accessibility
tree, so no one can read or tap it."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, Iterator

import flet as ft

from companion.app.ui import walk


def _invisible(node: Any) -> bool:
    return getattr(node, "visible", True) is False


def shown(root: Any) -> Iterator[Any]:
    """Every control below (and including) ``root`` that is on screen: not under an invisible one."""
    return walk(root, skip=_invisible)


def identified(root: Any) -> Iterator[ft.Semantics]:
    for node in shown(root):
        if isinstance(node, ft.Semantics) and node.identifier:
            yield node


def idents(root: Any) -> list[str]:
    return [node.identifier for node in identified(root) if node.identifier]


def find(root: Any, ident: str) -> ft.Semantics:
    for node in identified(root):
        if node.identifier == ident:
            return node
    raise LookupError(f"no control {ident!r}; present: {', '.join(idents(root))}")


def has(root: Any, ident: str) -> bool:
    return any(node.identifier == ident for node in identified(root))


def kept_hidden(root: Any, ident: str) -> bool:
    """``ident`` is on the page but not on screen: under an invisible control (kept for later)."""
    return not has(root, ident) and any(isinstance(node, ft.Semantics) and node.identifier == ident
                                        for node in walk(root))


def texts(root: Any) -> list[str]:
    """Every string a player reads under ``root``: Text values, button and field labels, tooltips."""
    out: list[str] = []
    for node in shown(root):
        if isinstance(node, ft.Text) and node.value:
            out.append(str(node.value))
        for name in ("label", "tooltip", "hint_text", "helper_text", "error_text"):
            value = getattr(node, name, None)
            if isinstance(value, str) and value and not (isinstance(node, ft.Semantics) and name == "label"):
                out.append(value)
    return out


def text_of(root: Any, ident: str | None = None) -> str:
    return " ".join(texts(find(root, ident) if ident else root))


def _target(node: Any, handler: str) -> Any:
    """The first control at or below ``node`` that has ``handler`` set."""
    for inner in shown(node):
        if getattr(inner, handler, None) is not None:
            return inner
    raise LookupError(f"nothing under {getattr(node, 'identifier', node)!r} handles {handler}")


def is_enabled(root: Any, ident: str) -> bool:
    """Whether a tap on ``ident`` would reach a handler: a handler below it, and nothing disabled on
    the way (Flet passes ``disabled`` down from a control to every control below it)."""
    node = find(root, ident)
    if any(getattr(above, "disabled", False) and above is not node and any(n is node for n in walk(above))
           for above in walk(root)):
        return False
    for inner in shown(node):
        if getattr(inner, "disabled", False):
            return False
        if getattr(inner, "on_click", None) is not None:
            return True
    return False


def is_greyed(root: Any, ident: str) -> bool:
    """Whether the choice ``ident`` is drawn greyed: dimmed (a card that cannot be chosen, which may
    still answer a tap with why) or disabled."""
    if not is_enabled(root, ident):
        return True
    return any((getattr(node, "opacity", None) or 1.0) < 1.0 for node in shown(find(root, ident)))


def tap(root: Any, ident: str) -> None:
    """Call the tap handler of the control ``ident`` as Flet would (refusing a disabled one)."""
    handler(root, ident)()


def handler(root: Any, ident: str) -> Callable[[], None]:
    """The tap on the control ``ident``, found now and made when called (refusing a disabled one):
    for a benchmark, which times the app's work, not the search of the tree for the control."""
    node = find(root, ident)
    if not is_enabled(root, ident):
        raise AssertionError(f"{ident} is disabled")
    target = _target(node, "on_click")
    return lambda: target.on_click(SimpleNamespace(control=target, data=getattr(target, "data", None)))


def type_into(root: Any, ident: str, value: str, submit: bool = False) -> None:
    field = _target(find(root, ident), "on_change")
    field.value = value
    field.on_change(SimpleNamespace(control=field, data=value))
    if submit and field.on_submit is not None:
        field.on_submit(SimpleNamespace(control=field, data=value))


def switch(root: Any, ident: str, value: bool) -> None:
    control = _target(find(root, ident), "on_change")
    control.value = value
    control.on_change(SimpleNamespace(control=control, data=str(value).lower()))
