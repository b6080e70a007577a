"""Players: the saved profiles, how each is doing, and a way to add one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.format import percent, when

if TYPE_CHECKING:
    from companion.app.shell import App


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    draft = app.drafts.setdefault("players", {"name": ""})
    profiles = app.guard(app.service.players) or []
    stats = {s.name: s for s in (app.guard(app.service.player_stats) or [])}

    def set_name(e: Any) -> None:
        draft["name"] = e.control.value or ""

    def add(_: Any) -> None:
        name = draft["name"].strip()
        if not name:
            app.tell(app.t("app.players.name_empty"), "error")
        elif app.guard(lambda: app.service.add_player(name)) is not None:
            draft["name"] = ""
            app.tell(app.t("app.players.added", name=name), "ok")
        app.render()

    add_row = ft.Row([
        ui.tid("player-name", ft.TextField(label=app.t("app.setup.new_player"), value=draft["name"],
                                           on_change=set_name, on_submit=add, width=360, max_length=40,
                                           text_size=ui.FONT_BODY)),
        ui.button(app.t("app.setup.add_player"), add, ident="player-add", icon=ft.Icons.PERSON_ADD, kind="primary"),
    ], wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def open_stats(name: str):
        def handler(_: Any) -> None:
            app.drafts.setdefault("stats", {})["player"] = name
            app.go("stats")
        return handler

    tiles = []
    for p in profiles:
        s = stats.get(p.name)
        line = (app.t("app.players.line", games=s.games, wins=s.wins, rate=percent(app, s.win_rate))
                if s and s.games else app.t("app.players.no_games"))
        tiles.append(ui.tile(ft.Column([
            ft.Row([ft.Icon(ft.Icons.PERSON, size=32, color=ft.Colors.PRIMARY),
                    ui.text(p.name, ui.FONT_LABEL, weight=ft.FontWeight.BOLD)], spacing=8),
            ui.text(line, ui.FONT_BODY),
            ui.muted(app.t("app.players.since", when=when(app, p.created_at))),
        ], spacing=4, tight=True), open_stats(p.name), ident=f"player-{p.name}", width=320, padding=16))
    if not tiles:
        tiles.append(ui.muted(app.t("app.players.none"), ident="players-none"))
    return app.t("app.players.title"), ft.Column([
        ui.panel(add_row, ident="players-add"),
        ui.subtitle(app.t("app.players.count", count=len(profiles))),
        ui.wrap(tiles, spacing=ui.GAP),
    ], spacing=ui.GAP)
