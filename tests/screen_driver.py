"""A game's table screen driven as the frame drives it, without a page: built from a state, tapped
through its handlers (companion.app.probe), its submissions collected, the draft kept, re-rendered.
With ``advance`` (the game's engine step) the submissions are entered: accepted → the draft is
cleared and the screen rebuilt from the new state; refused → the rule is kept and the draft survives."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

import flet as ft

from companion.app import probe
from companion.app.games import CARRY, TableContext, TableState
from scoring.base import RuleViolation


class ScreenDriver:
    def __init__(self, screen: ModuleType, state: TableState, lang: str = "en", *, readonly: bool = False,
                 prefix: str = "", advance: Callable[[TableState, dict], TableState] | None = None,
                 sep: str | None = None, **context: Any):
        self.screen = screen
        self.sep = sep  # text(): the Text values joined by ``sep``; None: every label too, joined by spaces
        self.state = state
        self.advance = advance
        self.submitted: list[dict] = []
        self.refusals: list[str] = []
        self.refreshes = 0
        self.dismissed = 0
        context.setdefault("correcting", prefix == "fix-")  # as the frame's correction editor sets both
        self.ctx = TableContext(lang=lang, submit=self._submit, refresh=self._refresh, draft={},
                                readonly=readonly, id_prefix=prefix, dismiss=self._dismiss, **context)
        self.root = screen.build(state, self.ctx)

    def _dismiss(self) -> None:
        self.dismissed += 1

    def _refresh(self) -> None:
        self.refreshes += 1
        self.root = self.screen.build(self.state, self.ctx)

    def _submit(self, action: dict) -> None:
        self.submitted.append(action)
        if self.advance is None:
            return
        try:
            self.state = self.advance(self.state, action)
        except RuleViolation as err:
            self.refusals.append(err.rule)
            self._refresh()
            return
        carried = self.ctx.draft.get(CARRY)  # as the frame does (TableContext.submit_keeping)
        self.ctx.draft.clear()
        if isinstance(carried, dict):
            self.ctx.draft.update(carried)
        self._refresh()

    # -- reading the tree ----------------------------------------------------------------------

    def find(self, ident: str) -> ft.Semantics:
        found = [c for c in probe.identified(self.root) if c.identifier == ident]
        assert len(found) == 1, (ident, len(found))
        return found[0]

    def has(self, ident: str) -> bool:
        return probe.has(self.root, ident)

    def idents(self) -> set[str]:
        return set(probe.idents(self.root))

    def tap(self, *idents: str) -> None:
        for ident in idents:
            self.find(ident)  # exactly one such control
            probe.tap(self.root, ident)  # refuses a disabled one

    def enabled(self, ident: str) -> bool:
        self.find(ident)
        return probe.is_enabled(self.root, ident)

    def greyed(self, ident: str) -> bool:
        """Drawn greyed: a choice that cannot be chosen now (a tap may still say why), or disabled."""
        self.find(ident)
        return probe.is_greyed(self.root, ident)

    def text(self, ident: str | None = None) -> str:
        if self.sep is None:
            return probe.text_of(self.root, ident)
        node = self.find(ident) if ident else self.root
        return self.sep.join(c.value for c in probe.shown(node) if isinstance(c, ft.Text) and c.value)
