"""Home: the latest games in progress (resume any of them; all of them in the history, filtered on
games in progress: a club's server may hold hundreds), the way to everything else, and this
tablet's table name (a club's tables share one history); in LAN mode, on the serving machine only,
the table's address as a QR code with the PIN beside it (the one in force: « Nouveau code » may
have replaced the one printed at start), for phones to join."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.club import table_panel
from companion.app.format import names, when

if TYPE_CHECKING:
    from companion.app.shell import App
    from companion.service import SessionSummary

# the latest games in progress home shows; the others are one tap away in the history. Thirty: a
# club's evening of tables and more (and the browser tests resume up to 30 games from home: Animalia's
# five player counts by six turns)
RESUME_SHOWN = 30


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    from companion.app.screens.history import show_in_progress
    from models.tables import STATUS_IN_PROGRESS

    sections: list[ft.Control] = []
    latest = app.guard(lambda: app.service.history.page(status=STATUS_IN_PROGRESS, limit=RESUME_SHOWN))
    unfinished = latest.items if latest is not None else ()
    if latest is not None and unfinished:
        column: list[ft.Control] = [
            ui.subtitle(app.t("app.home.unfinished", count=latest.total), ident="home-unfinished-title"),
            ui.wrap([_resume_tile(app, summary) for summary in unfinished], spacing=ui.GAP),
        ]
        if latest.has_more:
            column.append(ui.button(app.t("app.home.unfinished_all", count=latest.total),
                                    lambda _: show_in_progress(app), ident="home-unfinished-all",
                                    icon=ft.Icons.HISTORY, kind="outlined"))
        sections.append(ui.panel(ft.Column(column, spacing=ui.GAP), ident="home-unfinished"))

    actions = [
        ("home-new", "app.home.new_game", ft.Icons.PLAY_ARROW, lambda _: app.go("setup"), "primary"),
        ("home-history", "app.home.history", ft.Icons.HISTORY, lambda _: app.go("history"), "tonal"),
        ("home-players", "app.home.players", ft.Icons.GROUP, lambda _: app.go("players"), "tonal"),
        ("home-stats", "app.home.stats", ft.Icons.INSIGHTS, lambda _: app.go("stats"), "tonal"),
        ("home-rules", "app.home.rules", ft.Icons.MENU_BOOK, lambda _: app.go("rules"), "tonal"),
        ("home-evening", "app.home.evening", ft.Icons.EVENT_SEAT, lambda _: app.go("evenings"), "tonal"),
    ]
    buttons: list[ft.Control] = [
        ft.Container(ui.button(app.t(key), handler, ident=ident, icon=icon, kind=kind, height=96,
                               size=ui.FONT_TITLE - 4, expand=True),
                     col={"xs": 12, "sm": 6, "lg": 4})
        for ident, key, icon, handler, kind in actions
    ]
    sections.append(ft.ResponsiveRow(buttons, spacing=ui.GAP, run_spacing=ui.GAP))
    if not unfinished:
        sections.append(ui.muted(app.t("app.home.no_unfinished"), ident="home-no-unfinished"))
    if app.join is not None:
        gate = app.gate.state() if app.gate is not None else None  # a new PIN given here since the start
        sections.insert(0, app.memo.keep("home-join", (app.join, gate, app.narrow), lambda: join_panel(app)))
    sections.append(table_panel(app))  # this tablet's name at a club
    return app.t("app.name"), ft.Column(sections, spacing=ui.GAP * 1.5)


def _resume_tile(app: App, summary: SessionSummary) -> ft.Control:
    sid = summary.session_id
    body = ft.Column([
        ft.Row([ft.Icon(ft.Icons.PLAY_CIRCLE, size=34, color=ft.Colors.PRIMARY),
                # expand: a long name (« Monte & descend (AMIGO, 1998) ») wraps within the tile, not cut
                ui.text(app.t(f"game.{summary.game}.name"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True)],
               spacing=10),
        ui.text(names(app, summary.players), ui.FONT_BODY),
        ui.muted(app.t("app.home.progress", count=summary.entries, when=when(app, summary.updated_at))),
    ], spacing=6, tight=True)
    return ui.tile(body, lambda _: app.go("table", session_id=sid), ident=f"resume-{sid}", width=360,
                   padding=18)


def join_panel(app: App) -> ft.Control:
    """The table's address as a QR code, and the PIN a phone types once it lands on the PIN screen."""
    from companion.app.screens.results import qr_image

    join, gate = app.join, app.gate
    size = 200 if app.narrow else 240
    lines: list[ft.Control] = [
        ui.subtitle(app.t("app.home.join_title")),
        ui.text(app.t("app.home.join_scan"), ui.FONT_BODY),
        ui.text(app.t("app.home.join_pin", pin=gate.pin if gate is not None else join.pin), ui.FONT_TITLE,
                weight=ft.FontWeight.BOLD, ident="join-pin"),
    ]
    if gate is not None and gate.renewed:  # « Nouveau code »: the PIN printed at start no longer opens
        lines.append(ui.muted(app.t("app.pin.replaced_fixed" if gate.fixed else "app.pin.replaced"),
                              ui.FONT_BODY, ident="join-pin-replaced"))
    lines.append(ui.muted(join.url, ui.FONT_BODY, ident="join-url"))
    words = ft.Column(lines, spacing=8, tight=True, expand=not app.narrow)
    qr = qr_image(join.url, "join-qr", size)
    body = ft.Column([words, qr], spacing=ui.GAP) if app.narrow else ft.Row(
        [qr, words], spacing=ui.GAP * 2, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ui.panel(body, ident="home-join")
