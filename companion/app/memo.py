"""Controls kept between renders, so that a tap costs what it changes, not the whole screen.

Every render builds the screen again, and the frame's root carries one key, so Flet reconciles the
new tree with the one on screen (a property-level patch). That still costs building every control
and comparing it with the old one: a tap's time grew with the players, cards and log lines shown.
A screen wraps each part in :meth:`Memo.keep` with the values the part shows (its *inputs*): while
they are equal to last render's, the part is the very same control object as before, which Flet's
comparison skips at no cost (neither built nor compared), and only the parts whose inputs changed
are built and compared.

Flet pairs each control of a list with the one of the last render by key, and unkeyed controls
by their place: a kept part that changes place (a part above it appeared or went) would be paired
with whatever held its place before, and the new control there would take over its Flet identity
while the kept part is still on screen under the same one (two controls, one id: the browser's
next patch goes to the wrong one). So a kept part gets its slot as key, unless it has a key
already (an identified control has its identifier: companion.app.ui.tid); a slot names one place
on the screen, so no list holds two kept parts with the same key.

A kept part's handlers run long after the render that built them, so they may read only what its
inputs name, or what stays the same object for the screen's life (the table's draft dicts, which
are emptied in place, never replaced; the context's ``submit`` and ``refresh``). The app clears the
memo whenever what every part depends on changes (another screen, the language, the theme, the
width, going offline) — see ``App.memo``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import flet as ft

C = TypeVar("C", bound=ft.Control)


class Memo:
    """Parts of one screen, by slot: ``keep(slot, inputs, build)``."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Hashable, ft.Control]] = {}
        self.built = 0  # parts built (not kept) since the memo was made: what a render cost
        self.kept = 0

    def keep(self, slot: str, inputs: Hashable, build: Callable[[], C]) -> C:
        """The part built last time in ``slot`` if ``inputs`` equal last time's, else ``build()``
        (kept for the next render). ``slot`` names one place on the screen: a kept control must
        never be shown twice."""
        found = self._kept.get(slot)
        if found is not None and found[0] == inputs:
            self.kept += 1
            return found[1]  # type: ignore[return-value]  # the control this slot's build returned
        control = build()
        if control.key is None:  # see the module's docstring: Flet pairs a kept part by its key
            control.key = slot
        self._kept[slot] = (inputs, control)
        self.built += 1
        return control

    def last(self, slot: str) -> ft.Control | None:
        """The part last built in ``slot``, whatever its inputs were (None if none): for a part the
        screen keeps hidden, which need not follow what it would show until it is shown again (then
        ``keep`` builds it again if its inputs changed meanwhile)."""
        found = self._kept.get(slot)
        return None if found is None else found[1]

    def clear(self) -> None:
        self._kept.clear()


class NoMemo(Memo):
    """Builds every part every time (a screen built once, e.g. in a test or a past game's step)."""

    def keep(self, slot: str, inputs: Hashable, build: Callable[[], C]) -> C:
        self.built += 1
        return build()

    def last(self, slot: str) -> ft.Control | None:
        return None
