"""« Soirée : table 2, manche 3 »: one table of an evening's round on its tablet — the game and the
players the seating gives it, in their seating order (which the table may change, as at any
set-up: a player moved up, the first player chosen), and one tap that starts the game with the
seats filled in, linked to the evening. A table whose game has started opens it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.evening_live import watch

if TYPE_CHECKING:
    from companion.app.shell import App


def build(app: App, evening_id: int, round: int, table: int, **_: Any) -> tuple[str, ft.Control]:
    state = app.service.evenings.get(evening_id)
    watch(app, lambda: app.service.evenings.get(evening_id), state)
    heading = app.t("app.evening.play", table=table, round=round)
    if not 1 <= round <= len(state.rounds) or not 1 <= table <= len(state.rounds[round - 1].tables):
        return heading, ui.banner(app.t("app.evening.no_table"), ident="evening-table-missing")
    spot = state.rounds[round - 1].tables[table - 1]
    key = f"evening-order-{evening_id}-{round}-{table}"
    draft = app.drafts.setdefault(key, {"order": list(spot.players), "first": None})
    if sorted(draft["order"]) != sorted(spot.players):  # the seating changed meanwhile
        draft["order"], draft["first"] = list(spot.players), None
    order: list[str] = draft["order"]

    def up(i: int) -> ui.Handler:
        def handler(_: Any) -> None:
            order[i - 1], order[i] = order[i], order[i - 1]
            app.render()
        return handler

    def first(player: str) -> ui.Handler:
        def handler(_: Any) -> None:
            draft["first"] = None if draft["first"] == player else player
            app.render()
        return handler

    def start(_: Any) -> None:
        started = app.guard(lambda: app.service.evenings.start_table(evening_id, round, table, order=list(order),
                                                            first_player=draft["first"], table=app.table_name))
        if started is None:
            app.render()
            return
        app.drafts.pop(key, None)
        app.announce(started.session_id)
        app.replace("table", session_id=started.session_id)

    parts: list[ft.Control] = [
        ui.text(app.t(f"game.{spot.game}.name"), ui.FONT_TITLE, weight=ft.FontWeight.BOLD, ident="evening-table-game"),
        ui.muted(app.t("app.evening.evening_name", name=state.name), ui.FONT_BODY),
    ]
    if spot.session_id is not None:
        parts.append(ui.text(app.t("app.evening.already"), ui.FONT_BODY, ident="evening-table-started"))
        parts.append(ui.button(app.t("app.evening.open_game"), lambda _: app.replace("table", session_id=spot.session_id),
                               ident="evening-open-game", icon=ft.Icons.PLAY_ARROW, kind="primary"))
        return heading, ft.Column(parts, spacing=ui.GAP)
    if not spot.players:
        parts.append(ui.banner(app.t("app.evening.no_table"), ident="evening-table-missing"))
        return heading, ft.Column(parts, spacing=ui.GAP)
    rows: list[ft.Control] = []
    for i, player in enumerate(order):
        rows.append(ft.Row([
            ui.text(f"{i + 1}.", ui.FONT_LABEL),
            ui.text(player, ui.FONT_LABEL, weight=ft.FontWeight.BOLD, ident=f"evening-order-{i}", expand=True),
            ui.chip(app.t("app.evening.first"), first(player), ident=f"evening-first-{i}",
                    selected=draft["first"] == player, compact=True),
            ui.icon_button(ft.Icons.ARROW_UPWARD, up(i) if i else None, ident=f"evening-up-{i}",
                           tooltip=app.t("app.evening.up"), disabled=i == 0),
        ], spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    parts += [ui.muted(app.t("app.evening.order_help"), ui.FONT_BODY), ui.panel(ft.Column(rows, spacing=8)),
              ui.button(app.t("app.evening.start"), start, ident="evening-start", icon=ft.Icons.PLAY_ARROW,
                        kind="primary", height=80)]
    return heading, ft.Column(parts, spacing=ui.GAP)
