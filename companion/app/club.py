"""A club's view on the history and statistics screens: this tablet's table name (home), the
filter by table (history and statistics) and the season league table of one game (statistics),
with its chart. The figures come from the service (:mod:`companion.service.club`)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable

import flet as ft

from companion.app import ui
from companion.app.format import number
from companion.service.club import NO_TABLE

if TYPE_CHECKING:
    from companion.app.shell import App

CHART_LEAGUE = 12  # the best lines of the league table get a bar each
LEAGUE_PAGE = 20
LEAGUE_ALL = 500  # the service's most lines at once: a league sorted by rating is ordered here


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
    found = app.guard(app.service.club.table_names)
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
    games = app.guard(lambda: app.service.club.league_games(since, until, table)) or []
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
    by_rating = state.get("league_sort") == "rating"

    def sort_by(key: str) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            state["league_sort"] = key
            state["league_shown"] = LEAGUE_PAGE
            app.render()
        return handler

    parts.append(chip_row(app, [
        ui.chip(app.t("app.club.league_sort_points"), sort_by("points"), ident="league-sort-points",
                selected=not by_rating, compact=app.narrow, icon=ft.Icons.SCOREBOARD),
        ui.chip(app.t("app.club.league_sort_rating"), sort_by("rating"), ident="league-sort-rating",
                selected=by_rating, compact=app.narrow, icon=ft.Icons.TRENDING_UP),
    ]))
    shown = max(LEAGUE_PAGE, int(state.get("league_shown", LEAGUE_PAGE)))
    # sorted by rating: every line of the period (the service's most, 500), ordered here, a page shown
    league = app.guard(lambda: app.service.club.league(game, since, until, table, limit=LEAGUE_ALL if by_rating else shown))
    if league is None:
        return parts
    rated = {r.player_id: r for r in (app.guard(lambda: app.service.ratings.table(game)) or [])}
    rows = list(league.rows)
    positions = [row.position for row in rows]
    if by_rating:
        rows = rating_order(rows, rated)
        positions = rating_positions(rows, rated)
        rows, positions = rows[:shown], positions[:shown]
    opened: set[int] = state.setdefault("league_detail", set())

    def show_formula(_: Any) -> None:
        state["league_formula"] = not state.get("league_formula")
        app.render()

    lines: list[ft.Control] = [
        ui.text(app.t("app.club.league_of", game=app.t(f"game.{game}.name"), count=league.games), ui.FONT_LABEL,
                weight=ft.FontWeight.BOLD, ident="league-heading"),
        ui.muted(app.t("app.club.league_points_rule"), ui.FONT_BODY, ident="league-points-rule"),
        # the rating in plain words; how it is worked out (OpenSkill, mu − 3 × sigma) behind the "?"
        ft.Row([ft.Container(ui.muted(app.t("app.club.league_rating_rule"), ui.FONT_BODY, ident="league-rating-rule"),
                             expand=True),
                ui.tid("league-rating-help", ft.IconButton(icon=ft.Icons.HELP_OUTLINE, on_click=show_formula,
                                                           icon_size=26, tooltip=app.t("app.club.league_rating_help")))],
               vertical_alignment=ft.CrossAxisAlignment.START),
        *([ui.muted(app.t("app.club.league_rating_formula"), ui.FONT_BODY, ident="league-rating-formula")]
          if state.get("league_formula") else []),
    ]
    for i, (row, position) in enumerate(zip(rows, positions), start=1):
        figures = app.t("app.club.league_figures", games=row.games, wins=row.wins,
                        place=number(app, round(row.average_place, 2)))
        rating = rated.get(row.player_id)
        lines.append(ui.tid(f"league-{i}", ft.Container(ft.Row([
            ui.text(app.t("app.club.league_position", position=position), ui.FONT_LABEL,
                    weight=ft.FontWeight.BOLD),
            ft.Column([ui.text(row.name, ui.FONT_LABEL, weight=ft.FontWeight.W_600), ui.muted(figures, ui.FONT_BODY),
                       *([rating_cell(app, rating, row.player_id, opened, f"league-{i}-rating")] if app.narrow else []),
                       *([ui.muted(rating_detail(app, rating), ui.FONT_BODY, ident=f"league-{i}-detail")]
                         if rating is not None and row.player_id in opened else [])],
                      spacing=2, expand=True),
            *([] if app.narrow else [rating_cell(app, rating, row.player_id, opened, f"league-{i}-rating")]),
            ui.text(app.t("app.club.league_points", points=row.points), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
        ], spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(horizontal=10, vertical=6), border_radius=ui.RADIUS,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)))
    if by_rating and len(rows) < len(league.rows):
        def more_rated(_: Any) -> None:
            state["league_shown"] = len(rows) + LEAGUE_PAGE
            app.render()

        lines.append(ui.button(app.t("app.club.league_more", count=min(LEAGUE_PAGE, len(league.rows) - len(rows)),
                                     shown=len(rows), total=len(league.rows)), more_rated, ident="league-more",
                               icon=ft.Icons.EXPAND_MORE))
    if not by_rating and league.has_more:
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


def rating_order(rows: list[Any], rated: dict[int, Any]) -> list[Any]:
    """The league's lines by rating (the ordinal, best first); unrated players last, by points."""
    return sorted(rows, key=lambda r: (r.player_id not in rated, -rated[r.player_id].ordinal if r.player_id in rated
                                       else 0.0, r.position, r.name.casefold()))


def rating_positions(rows: list[Any], rated: dict[int, Any]) -> list[int]:
    """Positions of lines in rating order: equal ordinals share a position (1, 1, 3); the unrated
    share the position after the rated."""
    out: list[int] = []
    for i, row in enumerate(rows):
        key = rated[row.player_id].ordinal if row.player_id in rated else None
        before = rows[i - 1] if i else None
        same = before is not None and (rated[before.player_id].ordinal if before.player_id in rated else None) == key
        out.append(out[-1] if same else i + 1)
    return out


def rating_text(app: App, rating: Any) -> str:
    """A rating as the app shows it: the ordinal (mu − 3 sigma), one decimal."""
    return number(app, round(rating.ordinal, 1))


def rating_detail(app: App, rating: Any) -> str:
    """What is behind the ordinal: mu ± sigma, and the games rated."""
    return app.t("app.club.rating_detail", mu=number(app, round(rating.mu, 2)), sigma=number(app, round(rating.sigma, 2)),
                 games=rating.games)


def rating_cell(app: App, rating: Any, player_id: int, opened: set[int], ident: str) -> ft.Control:
    """The rating column: the ordinal, a tap shows (or hides) mu ± sigma under the name; on a
    phone, a line under the player's figures (a column would leave the name no room)."""
    if rating is None:
        return ui.tid(ident, ft.Container(ui.muted(app.t("app.club.unrated"), ui.FONT_BODY),
                                          width=None if app.narrow else 96))

    def toggle(_: Any) -> None:
        opened.symmetric_difference_update({player_id})
        app.render()

    if app.narrow:
        return ui.tid(ident, ft.Container(ft.Row([
            ft.Icon(ft.Icons.TRENDING_UP, size=20, color=ft.Colors.PRIMARY),
            ui.text(app.t("app.club.rating_inline", rating=rating_text(app, rating)), ui.FONT_BODY,
                    weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)], spacing=6, tight=True),
            on_click=toggle, padding=ft.Padding.symmetric(horizontal=4, vertical=6), border_radius=ui.RADIUS, ink=True))

    return ui.tid(ident, ft.Container(ft.Column([
        ui.text(rating_text(app, rating), ui.FONT_LABEL, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
        ft.Text(app.t("app.club.rating_label"), size=ui.FONT_SMALL),
    ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER), width=96, on_click=toggle,
        tooltip=rating_detail(app, rating), padding=4, border_radius=ui.RADIUS, ink=True))
