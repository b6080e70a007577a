"""One player's private entry on the shared tablet (Animalia's bonus cards and medals, Boursicocotte's
money): "hand the tablet to …", "I am …, show me", the entry in a locked panel, covered again once
accepted (the frame clears the draft) or on "hide", which also takes away the frame's refusal (its
sentence may quote what was private). Identifiers: ``<prefix>-show-me``, ``-private``,
``-private-title``, ``-hide``, ``-cover``; texts: the game's catalogue keys, written out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui

if TYPE_CHECKING:  # a type only: the games import this module
    from companion.app.games import TableContext


@dataclass(frozen=True)
class PrivateView:
    prefix: str            # the test identifiers' prefix, e.g. "bc"
    pass_ident: str        # the identifier of the "hand the tablet to …" banner
    forget: tuple[str, ...]  # draft keys covering the view again clears, beside "open"
    pass_to: str           # catalogue keys: "hand the tablet to {player}", "I am {player}, show me",
    show_me_text: str      # the open view's title, "hide"
    title: str
    hide: str

    def is_open(self, ctx: TableContext, token: str) -> bool:  # token: one player at one point of the game
        return ctx.draft.get("open") == token

    def pass_line(self, ctx: TableContext, player: str, why: str) -> ft.Control:
        """Whom to hand the tablet to, and why."""
        colour = ft.Colors.ON_SECONDARY_CONTAINER
        return ui.tid(ctx.ident(self.pass_ident), ft.Container(ft.Row([
            ft.Icon(ft.Icons.TABLET_ANDROID, size=44, color=colour),
            ft.Column([ft.Text(ctx.t(self.pass_to, player=player), size=ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                               color=colour), ft.Text(why, size=ui.FONT_BODY, color=colour)],
                      spacing=4, expand=True, tight=True),
        ], spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            bgcolor=ft.Colors.SECONDARY_CONTAINER, padding=18, border_radius=ui.RADIUS))

    def show_me(self, ctx: TableContext, player: str, token: str, ident: str | None = None,
                **draft: Any) -> ft.Control:
        """The button that opens ``player``'s view; ``draft`` is set in the draft as it opens."""
        def show(_: Any) -> None:
            ctx.draft.update(draft, open=token)
            ctx.refresh()

        return ui.button(ctx.t(self.show_me_text, player=player), show,
                         ident=ctx.ident(ident or f"{self.prefix}-show-me"), icon=ft.Icons.VISIBILITY,
                         kind="primary", height=80, size=ui.FONT_TITLE - 4)

    def cover(self, ctx: TableContext, player: str, why: str, actions: Sequence[ft.Control]) -> ft.Control:
        """The shared screen while the entry is awaited: who takes the tablet and why, nothing private."""
        return ui.panel(ft.Column([self.pass_line(ctx, player, why), ui.wrap(actions, ui.GAP)], spacing=ui.GAP),
                        ident=ctx.ident(f"{self.prefix}-cover"))

    def cover_again(self, ctx: TableContext) -> None:
        for key in ("open", *self.forget):
            ctx.draft.pop(key, None)
        if ctx.dismiss is not None:
            ctx.dismiss()
        ctx.refresh()

    def screen(self, ctx: TableContext, public: Sequence[ft.Control], private: ft.Control | None) -> ft.Control:
        """The game's part of the table: its public parts, or, while a player's view is open, that
        view alone. The public parts then stay on the page, hidden: they hold only what the shared
        screen shows anyway, and covering the view again shows them without sending them all to the
        browser anew (the same key in both cases pairs them with themselves)."""
        shown = ft.Column(list(public), spacing=ui.GAP, visible=private is None, key=ctx.ident(f"{self.prefix}-public"))
        return ft.Column([shown] if private is None else [shown, private], spacing=ui.GAP)

    def panel(self, ctx: TableContext, player: str, body: Sequence[ft.Control]) -> ft.Control:
        """The open view: a locked title with "hide", then the game's entry. On a phone "hide" goes
        under the title: beside it, the button would leave the title a sliver of the width (a
        letter a line)."""
        title = ft.Row([ft.Icon(ft.Icons.LOCK, size=32 if ctx.compact else 40, color=ft.Colors.PRIMARY),
                        ui.text(ctx.t(self.title, player=player), ui.FONT_LABEL if ctx.compact else ui.FONT_TITLE,
                                weight=ft.FontWeight.BOLD, ident=ctx.ident(f"{self.prefix}-private-title"),
                                expand=True)],
                       spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER, expand=not ctx.compact)
        hide = ui.button(ctx.t(self.hide), lambda _: self.cover_again(ctx), ident=ctx.ident(f"{self.prefix}-hide"),
                         icon=ft.Icons.VISIBILITY_OFF, kind="outlined")
        head: ft.Control = (ft.Column([title, hide], spacing=8) if ctx.compact
                            else ft.Row([title, hide], spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        return ui.panel(ft.Column([head, *body], spacing=8 if ctx.compact else 12),
                        ident=ctx.ident(f"{self.prefix}-private"), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                        padding=10 if ctx.compact else 14)
