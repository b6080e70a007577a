"""Players: the saved profiles with how each is doing, a way to add one; and one player's page
(``player_id``): their figures, their skill rating per game with its chart over time, their rivals
(nemesis, favourite victim, closest rival) and win streaks, each with its definition behind a "?",
their latest games, and the profile's management — rename, merge into another profile (a typo made
two "Anne"s), remove (only a profile with no game)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import flet as ft
import flet_charts as fch

from companion.app import ui
from companion.app.club import rating_detail, rating_text
from companion.app.format import day, names, percent, when

if TYPE_CHECKING:
    from companion.app.shell import App

RECENT = 10  # games listed on a player's page (the history has the rest)


def build(app: App, player_id: int | None = None, **_: Any) -> tuple[str, ft.Control]:
    if player_id is not None:
        return _player_page(app, player_id)
    draft = app.drafts.setdefault("players", {"name": ""})
    profiles = app.guard(app.service.players) or []
    stats = {s.id: s for s in (app.guard(app.service.history.player_stats) or [])}

    def set_name(e: Any) -> None:
        draft["name"] = e.control.value or ""

    def add(_: Any) -> None:
        name = draft["name"].strip()
        if not name:
            app.tell(app.t("app.players.name_empty"), "error")
        elif (added := app.guard(lambda: app.service.add_player(name))) is not None:
            draft["name"] = ""
            app.tell(app.t("app.players.added", name=added.name), "ok")
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

    me = app.service.history.player_profile_stats(player_id)  # an unknown profile: the shell says so
    draft = app.drafts.setdefault(f"player-{player_id}", {"name": me.name, "into": None})
    recent = app.guard(lambda: app.service.history.page(player_id=player_id, limit=RECENT))

    def set_name(e: Any) -> None:
        draft["name"] = e.control.value or ""

    def rename(_: Any) -> None:
        done = app.guard(lambda: app.service.profiles.rename(player_id, draft["name"]))
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
                done = app.guard(lambda: app.service.profiles.merge(player_id, target_id))
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
            if app.guard(lambda: app.service.profiles.remove(player_id)) is None:
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
    parts += _standing(app, player_id, draft)
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


# -- rating, rivals and streaks ----------------------------------------------------------------------

HELPS = ("rating", "nemesis", "victim", "closest", "streak", "played")


def _help(app: App, what: str, opened: set[str]) -> ft.Control:
    """The "?" beside a figure: a tap shows (or hides) its definition under it."""
    def toggle(_: Any) -> None:
        opened.symmetric_difference_update({what})
        app.render()

    return ui.tid(f"help-{what}", ft.IconButton(icon=ft.Icons.HELP_OUTLINE, on_click=toggle, icon_size=26,
                                                tooltip=app.t("app.players.help_tip")))


def _figure(app: App, what: str, lines: list[ft.Control], opened: set[str], ident: str) -> ft.Control:
    """A figure's lines with its "?" and, once tapped, its definition."""
    body: list[ft.Control] = [ft.Row([ft.Column(lines, spacing=2, expand=True), _help(app, what, opened)],
                                     vertical_alignment=ft.CrossAxisAlignment.START)]
    if what in opened:
        body.append(ui.muted(app.t(f"app.players.help.{what}"), ui.FONT_BODY, ident=f"help-{what}-text"))
    return ui.tid(ident, ft.Container(ft.Column(body, spacing=4, tight=True), padding=ft.Padding.symmetric(
        horizontal=10, vertical=6), border_radius=ui.RADIUS, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))


def rating_chart(app: App, game: str, points: list[Any]) -> ft.Control:
    """A player's rating (the ordinal) after each of their rated games at one game."""
    values = [p.ordinal for p in points]
    low, high = math.floor(min(values + [0.0])), math.ceil(max(values + [1.0]))
    step = max(1, math.ceil((high - low) / 4))
    chart = fch.LineChart(
        data_series=[fch.LineChartData(points=[
            fch.LineChartDataPoint(x=i, y=round(p.ordinal, 2), tooltip=app.t(
                "app.players.rating_point", games=p.games, rating=rating_text(app, p), when=day(app, p.finished_at)))
            for i, p in enumerate(points)], color=ft.Colors.TEAL_400, stroke_width=3, point=True)],
        left_axis=fch.ChartAxis(label_size=44, label_spacing=step),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step),
        min_y=step * math.floor(low / step), max_y=step * math.ceil(high / step), min_x=0,
        max_x=max(1, len(points) - 1), interactive=True, expand=True)
    width = min(640, 220 + 24 * len(points))
    return ui.tid(f"rating-chart-{game}", ft.Container(chart, height=150, width=width,
                                                      padding=ft.Padding.only(top=10, right=16)))


def _meeting_names(app: App, found: tuple[Any, ...], key: str) -> str:
    if not found:
        return app.t("app.players.nobody_yet")
    return app.t(key, players=names(app, [m.name for m in found]), beat=found[0].beat, beaten=found[0].beaten,
                 games=found[0].games)


def _standing(app: App, player_id: int, draft: dict[str, Any]) -> list[ft.Control]:
    """Rating per game (with its chart), rivals and streaks: read from the service's rows (never
    a replay), each part kept while its figures are the same."""
    opened: set[str] = draft.setdefault("help", set())
    points = app.guard(lambda: app.service.ratings.history(player_id)) or []
    rivals = app.guard(lambda: app.service.ratings.rivals(player_id))
    runs = app.guard(lambda: app.service.ratings.streaks(player_id)) or []
    shown = tuple(sorted(opened))
    parts: list[ft.Control] = []
    if not points and not runs:
        return parts
    by_game: dict[str, list[Any]] = {}
    for p in points:
        by_game.setdefault(p.game, []).append(p)

    def ratings_panel() -> ft.Control:
        rows: list[ft.Control] = [ft.Row([ui.subtitle(app.t("app.players.ratings"), ident="player-ratings-title"),
                                          _help(app, "rating", opened)], wrap=True)]
        if "rating" in opened:
            rows.append(ui.muted(app.t("app.players.help.rating"), ui.FONT_BODY, ident="help-rating-text"))
        for game, series in by_game.items():
            now = series[-1]
            rows.append(ui.tid(f"player-rating-{game}", ft.Container(ft.Column([
                ui.text(app.t("app.players.rating_line", game=app.t(f"game.{game}.name"), rating=rating_text(app, now)),
                        ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                ui.muted(rating_detail(app, now), ui.FONT_BODY),
                rating_chart(app, game, series),
            ], spacing=2, tight=True), padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                border_radius=ui.RADIUS, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
        return ui.panel(ft.Column(rows, spacing=8), ident="player-ratings")

    if by_game:
        parts.append(app.memo.keep("player-ratings", (tuple(points), shown), ratings_panel))

    def rivals_panel() -> ft.Control:
        assert rivals is not None
        rows: list[ft.Control] = [ui.subtitle(app.t("app.players.rivals"), ident="player-rivals-title")]
        for what, found, key in (("nemesis", rivals.nemesis, "app.players.nemesis_is"),
                                 ("victim", rivals.victims, "app.players.victim_is"),
                                 ("closest", rivals.closest, "app.players.closest_is")):
            rows.append(_figure(app, what, [
                ui.text(app.t(f"app.players.{what}"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                ui.text(_meeting_names(app, found, key), ui.FONT_BODY)], opened, f"player-{what}"))
        return ui.panel(ft.Column(rows, spacing=8), ident="player-rivals")

    if rivals is not None and rivals.meetings:
        parts.append(app.memo.keep("player-rivals", (rivals, shown), rivals_panel))

    def streaks_panel() -> ft.Control:
        rows: list[ft.Control] = [ui.subtitle(app.t("app.players.streaks"), ident="player-streaks-title")]
        for run in runs:
            label = app.t("app.players.every_game") if run.game is None else app.t(f"game.{run.game}.name")
            ident = "player-streak-all" if run.game is None else f"player-streak-{run.game}"
            played = ui.text(app.t("app.players.played_line", games=run.played, when=day(app, run.last_played)),
                             ui.FONT_BODY, expand=run.game is None)
            streak = ui.text(app.t("app.players.streak_line", current=run.current, longest=run.longest), ui.FONT_BODY,
                             expand=run.game is None)
            lines: list[ft.Control] = [ui.text(label, ui.FONT_LABEL, weight=ft.FontWeight.BOLD)]
            if run.game is None:  # the definitions once, beside the figures of every game together
                lines += [ft.Row([played, _help(app, "played", opened)]), ft.Row([streak, _help(app, "streak", opened)])]
                lines += [ui.muted(app.t(f"app.players.help.{w}"), ui.FONT_BODY, ident=f"help-{w}-text")
                          for w in ("played", "streak") if w in opened]
            else:
                lines += [played, streak]
            rows.append(ui.tid(ident, ft.Container(ft.Column(lines, spacing=2, tight=True),
                                                   padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                                                   border_radius=ui.RADIUS, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
        return ui.panel(ft.Column(rows, spacing=8), ident="player-streaks")

    if runs:
        parts.append(app.memo.keep("player-streaks", (tuple(runs), shown), streaks_panel))
    return parts
