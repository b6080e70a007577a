"""A render's new tree, with every part equal to the one on screen replaced by the one on screen.

A render builds the screen again (parts whose inputs did not change are kept objects already:
companion.app.memo), then hands the tree to Flet, which compares it with the tree on screen. Flet
skips a control that is the very object it showed (a kept part), but compares field by field
every control built again, and every render builds again the frame around the kept parts: the
columns, rows and containers that hold them. That comparison walked the whole page on every tap
(about two thirds of an entry's server time, growing with what else the screen shows).

:func:`reuse` walks the new tree beside the one on screen and gives back, for each control, the
one on screen when the two are equal (same type, key and properties, and children that are equal
in turn), else the new one with its equal children replaced by the ones on screen. What Flet then
compares is only the path from the root to what changed (path copying, as in a persistent data
structure): a tap costs what it changes and the few controls above it, not the page.

Equal means: the same type and key, the same properties (Flet keeps a control's set properties in
its ``_values``; a handler is a property, so a control whose handler is a new closure is never
taken for the one on screen), and children equal in turn, paired as Flet pairs the items of a list
it compares: by key, else by rank among the items without one (so a control on screen is put back
only where Flet will compare it with itself). Nothing on screen is changed: a control on screen
that has a new equal is kept as it is, and moves under the new parent only when the new parent
takes its place (the very object, which Flet's comparison skips). Each control on screen is paired
with one new control at most, so none is shown twice.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import flet as ft
from flet.controls.base_control import BaseControl
from flet.controls.value_types import Prop

_OWN = frozenset({"_values", "_dirty", "_i", "_c", "_internals"})  # Flet's bookkeeping, not a property
_PLAIN: dict[type, tuple[str, ...]] = {}  # per type: its fields that are not properties (e.g. ``controls``)


def _plain_fields(cls: type) -> tuple[str, ...]:
    """A control type's dataclass fields that Flet does not keep in ``_values`` (``controls``,
    ``actions``, ``data``…), found once per type."""
    found = _PLAIN.get(cls)
    if found is None:
        names = []
        for f in dataclasses.fields(cls):
            if f.name in _OWN:
                continue
            described = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
            if not isinstance(described, Prop):
                names.append(f.name)
        found = _PLAIN[cls] = tuple(names)
    return found


def _controls(value: Any) -> bool:
    """Whether a property holds controls (a control, or a list with one)."""
    if isinstance(value, BaseControl):
        return True
    return isinstance(value, list) and any(isinstance(v, BaseControl) for v in value)


def reuse(shown: ft.Control | None, built: ft.Control) -> ft.Control:
    """``built``, or ``shown`` where ``built`` equals it, recursively (see the module's docstring)."""
    if shown is None:
        return built
    got: ft.Control = _reuse(shown, built)
    return got


def _list_keys(items: list[Any]) -> list[tuple[str, Any]]:
    """Each item's place in Flet's pairing of two lists: its key, else its rank among the items
    without a key (things that are not controls: their rank among those)."""
    keys: list[tuple[str, Any]] = []
    unkeyed = other = 0
    for item in items:
        if isinstance(item, BaseControl):
            if item.key is not None:
                keys.append(("k", item.key))
            else:
                keys.append(("pos", unkeyed))
                unkeyed += 1
        else:
            keys.append(("prim", other))
            other += 1
    return keys


def _same_kind(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a.key == b.key


def _reuse(old: Any, new: Any) -> Any:
    if old is new or not _same_kind(old, new):
        return new
    equal = True
    old_values, new_values = old._values, new._values
    if old_values.keys() != new_values.keys():
        equal = False
    for name, value in new_values.items():
        before = old_values.get(name)
        if _controls(value) or _controls(before):
            got = _children(before, value)
            if got is not before:
                equal = False
            elif isinstance(value, BaseControl):
                # the new control holds the one on screen (in case it is itself new). Written in its
                # properties' dict: the setter would compare the two controls field by field
                # (dataclass equality) and, finding them equal, keep the new one
                new_values[name] = before
        elif equal and before != value:
            equal = False
    for name in _plain_fields(type(new)):
        before, value = getattr(old, name), getattr(new, name)
        if _controls(value) or _controls(before):
            got = _children(before, value)
            if got is not before:
                equal = False
            elif isinstance(value, BaseControl):
                object.__setattr__(new, name, before)
        elif equal and before != value:
            equal = False
    return old if equal else new


def _children(before: Any, value: Any) -> Any:
    """A property's controls: ``before`` if equal to ``value``, else ``value``. A list of ``value``
    gets, in place, the items of ``before`` equal to its own (the list is the new control's: not on
    screen yet)."""
    if isinstance(value, BaseControl):
        return _reuse(before, value) if isinstance(before, BaseControl) else value
    if not isinstance(value, list) or not isinstance(before, list):
        return value
    # paired as Flet pairs them in a list of controls it compares: by key, else by place among the
    # items without one
    olds = dict(zip(_list_keys(before), before))
    got = []
    for key, item in zip(_list_keys(value), value):
        old = olds.get(key)
        got.append(_reuse(old, item) if isinstance(item, BaseControl) and old is not None else item)
    same = len(got) == len(before) and all(g is a for g, a in zip(got, before))
    if any(g is not b for g, b in zip(got, value)):
        value[:] = got
    return before if same else value
