"""Players: the saved profiles with how each is doing, a way to add one; and one player's page
(``player_id``): their figures, their latest games, and the profile's management — rename, merge
into another profile (a typo made two "Anne"s), remove (only a profile with no game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.format import percent, when

if TYPE_CHECKING:
    from companion.app.shell import App

RECENT = 10  # games listed on a player's page (the history has the rest)


def build(app: App, player_id: int | None = None, **_: Any) -> tuple[str, ft.Control]:
    if player_id is not None:
        return _player_page(app, player_id)
    draft = app.drafts.setdefault("players", {"name": ""})
    profiles = app.guard(app.service.players) or []
    stats = {s.id: s for s in (app.guard(app.service.player_stats) or [])}

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

    def open_page(pid: int) -> ui.Handler:
        def handler(_: Any) -> None:
            app.go("players", player_id=pid)
        return handler

    tiles = []
    for p in profiles:
        s = stats.get(p.id)
        line = (app.t("app.players.figures", games=app.t("app.stats.games_n", count=s.games),
                      wins=app.t("app.stats.wins_n", count=s.wins), rate=percent(app, s.win_rate))
                if s and s.games else app.t("app.players.no_games"))
        tiles.append(ui.tile(ft.Column([
            ft.Row([ft.Icon(ft.Icons.PERSON, size=32, color=ft.Colors.PRIMARY),
                    ui.text(p.name, ui.FONT_LABEL, weight=ft.FontWeight.BOLD)], spacing=8),
            ui.text(line, ui.FONT_BODY),
            ui.muted(app.t("app.players.since", when=when(app, p.created_at))),
        ], spacing=4, tight=True), open_page(p.id), ident=f"player-{p.name}", width=320, padding=16))
    if not tiles:
        tiles.append(ui.muted(app.t("app.players.none"), ident="players-none"))
    return app.t("app.players.title"), ft.Column([
        ui.panel(add_row, ident="players-add"),
        ui.subtitle(app.t("app.players.count_n", count=len(profiles))),
        ui.wrap(tiles, spacing=ui.GAP),
    ], spacing=ui.GAP)


def _player_page(app: App, player_id: int) -> tuple[str, ft.Control]:
    from companion.app.screens.history import _row
    from companion.app.screens.stats import player_figures

    me = app.service.player_profile_stats(player_id)  # an unknown profile: the shell says so
    draft = app.drafts.setdefault(f"player-{player_id}", {"name": me.name, "into": None})
    recent = app.guard(lambda: app.service.history_page(player_id=player_id, limit=RECENT))

    def set_name(e: Any) -> None:
        draft["name"] = e.control.value or ""

    def rename(_: Any) -> None:
        done = app.guard(lambda: app.service.rename_player(player_id, draft["name"]))
        if done is not None:
            draft["name"] = done.name
            app.announce()
            app.tell(app.t("app.players.renamed", name=done.name), "ok")
        app.render()

    def set_into(e: Any) -> None:
        draft["into"] = e.control.value or None

    def merge(_: Any) -> None:
        target = next((p for p in others if p.name == draft["into"]), None)
        if target is None:
            app.tell(app.t("app.players.merge_choose"), "error")
            app.render()
            return
        merge_into(target.id, target.name)(None)

    def merge_into(target_id: int, target_name: str) -> ui.Handler:
        def handler(_: Any) -> None:
            def really() -> None:
                done = app.guard(lambda: app.service.merge_players(player_id, target_id))
                if done is None:
                    app.render()
                    return
                app.announce()
                app.replace("players", player_id=target_id)
                app.tell(app.t("app.players.merged", name=me.name, into=done.name), "ok")
                app.render()
            app.confirm(app.t("app.players.merge_question", name=me.name, into=target_name), really,
                        ident="merge-confirm", yes_key="app.players.merge")
        return handler

    def remove(_: Any) -> None:
        def really() -> None:
            if app.guard(lambda: app.service.remove_player(player_id)) is None:
                app.render()
                return
            app.back()
            app.tell(app.t("app.players.removed", name=me.name), "ok")
            app.render()
        app.confirm(app.t("app.players.remove_question", name=me.name), really, ident="remove-confirm",
                    yes_key="app.players.remove", danger=True)

    others = [p for p in (app.guard(app.service.players) or []) if p.id != player_id]
    manage: list[ft.Control] = [
        ui.subtitle(app.t("app.players.manage")),
        ft.Row([
            ui.tid("rename-name", ft.TextField(label=app.t("app.players.new_name"), value=draft["name"],
                                               on_change=set_name, on_submit=rename, width=320, max_length=40,
                                               text_size=ui.FONT_BODY)),
            ui.button(app.t("app.players.rename"), rename, ident="rename-run", icon=ft.Icons.EDIT),
        ], wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
    ]
    if others:
        manage.append(ui.muted(app.t("app.players.merge_hint", name=me.name)))
        manage.append(ft.Row([
            ui.tid("merge-into", ft.Dropdown(label=app.t("app.players.merge_into"), value=draft["into"], width=320,
                                             text_size=ui.FONT_BODY, on_select=set_into,
                                             options=[ft.DropdownOption(key=p.name, text=p.name) for p in others])),
            ui.button(app.t("app.players.merge"), merge, ident="merge-run", icon=ft.Icons.MERGE_TYPE),
        ], wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    if recent is not None and recent.total == 0:
        manage.append(ui.button(app.t("app.players.remove"), remove, ident="player-remove", icon=ft.Icons.DELETE,
                                kind="danger"))
    else:
        manage.append(ui.muted(app.t("app.players.remove_no")))

    parts: list[ft.Control] = [ui.panel(ft.Column(player_figures(app, me), spacing=6), ident="player-figures")]
    if recent is not None:
        parts.append(ui.subtitle(app.t("app.players.recent", name=me.name, count=recent.total),
                                 ident="player-recent-title"))
        parts.append(ft.Column([_row(app, s) for s in recent.items], spacing=10))

        def all_games(_: Any) -> None:
            from companion.app.screens.history import Filters

            app.drafts["history"] = Filters(player=me.name)
            app.go("history")

        if recent.has_more:
            parts.append(ui.button(app.t("app.players.all_games"), all_games, ident="player-all-games",
                                   icon=ft.Icons.HISTORY))
    parts.append(ui.panel(ft.Column(manage, spacing=10), ident="player-manage"))
    return app.t("app.players.page_title", name=me.name), ft.Column(parts, spacing=ui.GAP)
