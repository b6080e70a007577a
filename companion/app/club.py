"""A club's view on the history and statistics screens: this tablet's table name (home), the
filter by table (history and statistics) and the season league table of one game (statistics),
with its chart. The figures come from the service (:mod:`companion.service.club`)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable

import flet as ft

from companion.app import ui
from companion.app.format import number
from companion.club import NO_TABLE

if TYPE_CHECKING:
    from companion.app.shell import App

CHART_LEAGUE = 12  # the best lines of the league table get a bar each
LEAGUE_PAGE = 20


def table_panel(app: App) -> ft.Control:
    """Home: this tablet's table name, and a field to give or change it (a device setting)."""
    current = app.table_name
    drafts = app.drafts.setdefault("table-name", {"text": current or ""})

    def typed(e: Any) -> None:
        drafts["text"] = e.control.value or ""

    def save(_: Any) -> None:
        wanted = drafts.get("text", "")
        def name_it() -> bool:
            app.set_table_name(wanted)
            return True

        if app.guard(name_it):
            name = app.table_name
            drafts["text"] = name or ""
            app.tell(app.t("app.club.table_saved", table=name) if name else app.t("app.club.table_cleared"), "ok")
        app.render()

    said = app.t("app.club.table_named", table=current) if current else app.t("app.club.table_unnamed")
    return ui.panel(ft.Column([
        ui.text(said, ui.FONT_BODY, ident="table-name-now"),
        ft.Row([
            ui.tid("table-name-field", ft.TextField(label=app.t("app.club.table_field"), value=drafts["text"],
                                                    hint_text=app.t("app.club.table_hint"), width=320,
                                                    max_length=40, on_change=typed, on_submit=save,
                                                    text_size=ui.FONT_BODY)),
            ui.button(app.t("app.club.table_save"), save, ident="table-name-save", icon=ft.Icons.TABLE_RESTAURANT),
        ], wrap=True, spacing=ui.GAP, run_spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
    ], spacing=10), ident="table-name-panel")


def table_chips(app: App, chosen: str | None, on_pick: Callable[[str | None], None], prefix: str) -> ft.Control | None:
    """The filter by table: every table name of the database (and the games of tablets with no
    name); None while the database knows no table name (nothing to filter)."""
    found = app.guard(app.service.table_names)
    if not found or not found[0]:
        return None
    names, unnamed = found

    def pick(value: str | None) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            on_pick(value)
        return handler

    small = app.narrow  # a phone: compact chips, several to a line
    chips = [ui.chip(app.t("app.club.all_tables"), pick(None), ident=f"{prefix}-all", selected=chosen is None,
                     compact=small)]
    chips += [ui.chip(name, pick(name), ident=f"{prefix}-{name}", selected=chosen == name, icon=ft.Icons.TABLE_BAR,
                      compact=small) for name in names]
    if unnamed:
        chips.append(ui.chip(app.t("app.club.no_table"), pick(NO_TABLE), ident=f"{prefix}-unnamed",
                             selected=chosen == NO_TABLE, compact=small))
    return chip_row(app, chips)


def chip_row(app: App, chips: list[ft.Control]) -> ft.Row:
    """A filter's chips, wrapping: closer together on a phone, where they are compact."""
    return ui.wrap(chips, spacing=8 if app.narrow else 12)


def league_section(app: App, state: dict[str, Any], since: datetime | None, until: datetime | None,
                   table: str | None, chart: Callable[..., ft.Control]) -> list[ft.Control]:
    """The season league table of one game over the period and table: a chip per game played
    in it, how points are counted, a line per player (a page, "more" adds the next) and a chart of
    the best lines' points."""
    parts: list[ft.Control] = [ui.subtitle(app.t("app.club.league"), ident="league-title")]
    games = app.guard(lambda: app.service.league_games(since, until, table)) or []
    if not games:
        parts.append(ui.muted(app.t("app.club.league_empty"), ident="league-empty"))
        return parts
    played = [g for g, _ in games]
    game: str = state["league_game"] if state.get("league_game") in played else played[0]

    def pick(g: str) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            state["league_game"] = g
            state["league_shown"] = LEAGUE_PAGE
            app.render()
        return handler

    parts.append(chip_row(app, [ui.chip(app.t(f"game.{g}.name"), pick(g), ident=f"league-game-{g}",
                                        selected=g == game, compact=app.narrow) for g, _ in games]))
    shown = max(LEAGUE_PAGE, int(state.get("league_shown", LEAGUE_PAGE)))
    league = app.guard(lambda: app.service.league(game, since, until, table, limit=shown))
    if league is None:
        return parts
    lines: list[ft.Control] = [
        ui.text(app.t("app.club.league_of", game=app.t(f"game.{game}.name"), count=league.games), ui.FONT_LABEL,
                weight=ft.FontWeight.BOLD, ident="league-heading"),
        ui.muted(app.t("app.club.league_points_rule"), ui.FONT_BODY, ident="league-points-rule"),
    ]
    for i, row in enumerate(league.rows, start=1):
        figures = app.t("app.club.league_figures", games=row.games, wins=row.wins,
                        place=number(app, round(row.average_place, 2)))
        lines.append(ui.tid(f"league-{i}", ft.Container(ft.Row([
            ui.text(app.t("app.club.league_position", position=row.position), ui.FONT_LABEL,
                    weight=ft.FontWeight.BOLD),
            ft.Column([ui.text(row.name, ui.FONT_LABEL, weight=ft.FontWeight.W_600), ui.muted(figures, ui.FONT_BODY)],
                      spacing=2, expand=True),
            ui.text(app.t("app.club.league_points", points=row.points), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
        ], spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(horizontal=10, vertical=6), border_radius=ui.RADIUS,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
    if league.has_more:
        def more(_: Any) -> None:
            state["league_shown"] = len(league.rows) + LEAGUE_PAGE
            app.render()

        lines.append(ui.button(app.t("app.club.league_more", count=min(LEAGUE_PAGE, league.total - len(league.rows)),
                                     shown=len(league.rows), total=league.total), more, ident="league-more",
                               icon=ft.Icons.EXPAND_MORE))
    top = league.rows[:CHART_LEAGUE]
    if top:
        lines.append(chart(app, [(row.name, [(row.points, app.t("app.club.league_points", points=row.points))])
                                 for row in top], "chart-league", legend=[app.t("app.club.legend_points")]))
    parts.append(ui.panel(ft.Column(lines, spacing=8), ident="league-panel"))
    return parts
