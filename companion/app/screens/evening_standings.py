"""An evening's standings for a big screen (a laptop on a TV): large type, nothing to tap, and it
follows by itself — a table that finishes a game shows within 2 s, without a reload
(:mod:`companion.app.evening_live`: a look at the database every half second). Points per finished game: players − place; ties broken by
wins, then the average place, then the opponents beaten, which a "?" beside the line says; a
player who sat a round out is said so. Opened again any time, it is the evening's final standings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.evening_live import standings_shown, watch

if TYPE_CHECKING:
    from companion.app.shell import App

BIG = 40
NAME = 34


def build(app: App, evening_id: int, **_: Any) -> tuple[str, ft.Control]:
    standings = app.service.evenings.standings(evening_id)
    watch(app, lambda: standings_shown(app.service.evenings.standings(evening_id)), standings_shown(standings))
    lines: list[ft.Control] = []
    for i, row in enumerate(standings.rows):
        figures = app.t("app.evening.line", games=row.games, wins=row.wins)
        if row.sat_out:
            figures += " · " + app.t("app.evening.sat_out_rounds", rounds=", ".join(map(str, row.sat_out)),
                                     count=len(row.sat_out))
        why: list[ft.Control] = []
        if row.decided_by is not None:
            text = app.t(f"app.evening.tie.{row.decided_by}")
            why.append(ui.icon_button(ft.Icons.HELP_OUTLINE, _explain(app, text, f"standings-why-text-{i}"),
                                      ident=f"standings-why-{i}", tooltip=text))
        lines.append(ui.tid(f"standings-row-{i}", ft.Container(ft.Row([
            ui.tid(f"standings-place-{i}", ft.Text(f"{row.position}.", size=BIG, weight=ft.FontWeight.BOLD, width=90)),
            ft.Column([ui.text(row.name, NAME, weight=ft.FontWeight.BOLD, ident=f"standings-name-{i}"),
                       ui.text(figures, ui.FONT_LABEL, color=ft.Colors.ON_SURFACE_VARIANT, ident=f"standings-figures-{i}")],
                      spacing=2, tight=True, expand=True),
            ui.text(app.t("app.evening.points", count=row.points), BIG, weight=ft.FontWeight.BOLD,
                    ident=f"standings-points-{i}"),
            *why,
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=ui.GAP),
            padding=ft.Padding.symmetric(horizontal=18, vertical=10), border_radius=ui.RADIUS,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if row.position == 1 and row.points else ft.Colors.SURFACE_CONTAINER_LOW)))
    rule = app.t("app.evening.rule")
    head = ft.Row([
        ui.text(app.t("app.evening.games_done", count=standings.finished_games, started=standings.games), ui.FONT_TITLE,
                ident="standings-count", expand=True),
        ui.icon_button(ft.Icons.HELP_OUTLINE, _explain(app, rule, "standings-rule-text"), ident="standings-rule",
                       tooltip=rule),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return app.t("app.evening.standings_of", name=standings.name), ft.Column([head, *lines], spacing=10)


def _explain(app: App, text: str, ident: str) -> ui.Handler:
    """The "?": a sentence in a dialog."""
    def handler(_: Any) -> None:
        app.show_dialog(ft.AlertDialog(content=ui.text(text, ui.FONT_LABEL, ident=ident), actions=[
            ui.button(app.t("app.common.close"), lambda _: app.close_dialog(), ident="dialog-close", kind="text")]))
    return handler
