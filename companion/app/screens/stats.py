"""Statistics over a chosen period (a season, a club year: quick choices or two dates), from the
service's SQL figures over the per-game summaries: per game (games played, most frequent winner,
average winning score, record, spread between best and worst, average length), per player (games,
wins, win rate, average and best score, places, per game, scores month by month) and head to
head, with charts where a picture reads faster (games per game, wins per player, win rate per
game, a player's scores over time). A club's view: a filter by table, and the season league table
of each game (points by place) with its chart."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import flet as ft
import flet_charts as fch

from companion.app import ui
from companion.app.club import chip_row, league_section, table_chips
from companion.app.format import names, number, percent
from companion.app.screens.history import PERIODS, Filters, bounds, date_field, duration

if TYPE_CHECKING:
    from companion.app.shell import App


CHART_PLAYERS = 12  # the players with the most wins in the period get a bar each

BAR_COLOURS = (ft.Colors.TEAL_400, ft.Colors.AMBER_600, ft.Colors.INDIGO_300, ft.Colors.DEEP_ORANGE_300,
               ft.Colors.GREEN_400, ft.Colors.PINK_300)


def _chart(app: App, groups: list[tuple[str, list[tuple[float, str]]]], ident: str, *,
           legend: Sequence[str] = (), percent_axis: bool = False) -> ft.Control:
    """A bar chart: one group per label, one bar per (value, tooltip) in it; bars of the same rank
    share a colour, named in ``legend``."""
    top = max([v for _, bars in groups for v, _ in bars] + [1])
    if percent_axis:
        top, step = 100, 25
    else:
        step = max(1, math.ceil(top / 5))
        top = step * math.ceil(top / step)
    chart_groups = [
        fch.BarChartGroup(x=i, rods=[fch.BarChartRod(from_y=0, to_y=value, width=26,
                                                     color=BAR_COLOURS[j % len(BAR_COLOURS)],
                                                     border_radius=6, tooltip=tip)
                                     for j, (value, tip) in enumerate(bars)])
        for i, (_, bars) in enumerate(groups)]
    chart = fch.BarChart(
        groups=chart_groups,
        bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=i, label=ft.Text(label, size=ui.FONT_SMALL))
                                          for i, (label, _) in enumerate(groups)], label_size=36),
        left_axis=fch.ChartAxis(label_size=48, label_spacing=step),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step),
        max_y=top, min_y=0, interactive=True, expand=True,
    )
    keys = ft.Row([ft.Row([ft.Container(width=18, height=18, border_radius=4,
                                        bgcolor=BAR_COLOURS[j % len(BAR_COLOURS)]),
                           ft.Text(name, size=ui.FONT_SMALL)], spacing=6, tight=True)
                   for j, name in enumerate(legend)], spacing=ui.GAP, wrap=True)
    width = min(1100, 160 + 120 * len(groups))
    return ui.tid(ident, ft.Column([keys, ft.Container(chart, height=240, width=width,
                                                       padding=ft.Padding.only(top=12, right=12))],
                                   spacing=6))


def _line_chart(app: App, series: list[tuple[str, list[Any]]], ident: str) -> ft.Control:
    """A player's average score month by month, a line per game (the scores of different games are
    on different scales: never averaged together), a point per month with a finished game."""
    months = sorted({m.month for _, points in series for m in points})
    at = {month: i for i, month in enumerate(months)}
    values = [m.average_score for _, points in series for m in points]
    low, high = min(values + [0]), max(values + [1])
    step = max(1, math.ceil((high - low) / 5))
    chart = fch.LineChart(
        data_series=[fch.LineChartData(
            points=[fch.LineChartDataPoint(x=at[m.month], y=round(m.average_score, 1),
                                           tooltip=app.t("app.stats.month_point", month=m.month, game=game,
                                                         score=number(app, round(m.average_score, 1)),
                                                         games=app.t("app.stats.games_n", count=m.games)))
                    for m in points],
            color=BAR_COLOURS[j % len(BAR_COLOURS)], stroke_width=3, point=True)
            for j, (game, points) in enumerate(series)],
        bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=i, label=ft.Text(month, size=ui.FONT_SMALL))
                                          for i, month in enumerate(months)], label_size=36),
        left_axis=fch.ChartAxis(label_size=48, label_spacing=step),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1, interval=step),
        min_y=step * math.floor(low / step), max_y=step * math.ceil(high / step), min_x=0,
        max_x=max(1, len(months) - 1), interactive=True, expand=True,
    )
    keys = ft.Row([ft.Row([ft.Container(width=18, height=18, border_radius=4, bgcolor=BAR_COLOURS[j % len(BAR_COLOURS)]),
                           ft.Text(game, size=ui.FONT_SMALL)], spacing=6, tight=True)
                   for j, (game, _) in enumerate(series)], spacing=ui.GAP, wrap=True)
    width = min(1100, 200 + 90 * len(months))
    return ui.tid(ident, ft.Column([ui.muted(app.t("app.stats.legend_scores")), keys,
                                    ft.Container(chart, height=240, width=width,
                                                 padding=ft.Padding.only(top=12, right=24))], spacing=6))


def _menu(app: App, ident: str, label: str, value: str, names: list[str], on_pick: Any) -> ft.Control:
    """A dropdown of player names (a club has dozens: one control, not a chip each)."""
    def picked(e: Any) -> None:
        if e.control.value:
            on_pick(e.control.value)

    return ui.tid(ident, ft.Dropdown(label=label, value=value, width=320, text_size=ui.FONT_BODY, on_select=picked,
                                     options=[ft.DropdownOption(key=n, text=n) for n in names]))


def _period_panel(app: App, state: dict[str, Any]) -> tuple[ft.Control, datetime | None, datetime | None, bool]:
    """The season or club period the figures cover: a quick choice or two dates."""
    filters = Filters(period=state.get("period", "all"), since_text=state.get("since", ""),
                      until_text=state.get("until", ""))
    since, until, problem = bounds(filters, date.today())

    def choose(period: str) -> ui.Handler:
        def handler(_: Any) -> None:
            state.update(period=period, since="", until="")
            app.render()
        return handler

    def typed(key: str) -> ui.Handler:
        def handler(e: Any) -> None:
            state[key] = e.control.value or ""
        return handler

    def apply(_: Any) -> None:
        app.render()

    chips = [ui.chip(app.t(f"app.history.period.{p}"), choose(p), ident=f"stats-period-{p}",
                     selected=filters.period == p and not (filters.since_text or filters.until_text),
                     compact=app.narrow)
             for p in PERIODS]
    row = ft.Row([
        date_field(app, "stats-since", "app.history.since", filters.since_text, typed("since"), apply),
        date_field(app, "stats-until", "app.history.until", filters.until_text, typed("until"), apply),
        ui.button(app.t("app.history.apply"), apply, ident="stats-apply", icon=ft.Icons.FILTER_ALT,
                  height=ui.TOUCH_MIN if app.narrow else ui.TOUCH, size=ui.FONT_BODY if app.narrow else ui.FONT_LABEL),
    ], wrap=True, spacing=8 if app.narrow else ui.GAP, run_spacing=8 if app.narrow else 10,
        vertical_alignment=ft.CrossAxisAlignment.CENTER)
    def pick_table(value: str | None) -> None:
        state["table"] = value
        app.render()

    tables = table_chips(app, state.get("table"), pick_table, "stats-table")
    lines: list[ft.Control] = [*([tables] if tables is not None else []), chip_row(app, chips), row]
    if problem is not None:
        lines.append(ui.banner(app.t("app.history.bad_date", which=app.t(f"app.history.{problem}")),
                               ident="stats-bad-date"))
    return (ui.panel(ft.Column(lines, spacing=8 if app.narrow else 12), ident="stats-period",
                     padding=12 if app.narrow else 18), since, until, problem is not None)


def places_text(app: App, places: tuple[tuple[int, int], ...]) -> str:
    ordinals = [app.t("app.stats.place_count", place=app.t(f"app.stats.ordinal.{p if p <= 3 else 'n'}", place=p),
                      count=count) for p, count in places]
    return app.t("app.stats.places", places=" · ".join(ordinals))


def player_figures(app: App, me: Any) -> list[ft.Control]:
    """One player's figures over the period: games, wins, win rate, scores, places, per game."""
    rows: list[ft.Control] = [ui.text(app.t("app.stats.player_summary", name=me.name,
                                            games=app.t("app.stats.games_n", count=me.games),
                                            wins=app.t("app.stats.wins_n", count=me.wins),
                                            rate=percent(app, me.win_rate)),
                                      ui.FONT_LABEL, weight=ft.FontWeight.BOLD, ident="stats-player-line")]
    if me.games:  # scores only game by game (below): the scales of different games do not mix
        rows.append(ui.text(app.t("app.stats.place_line", place=number(app, round(me.average_place or 0, 1))),
                            ui.FONT_BODY, ident="stats-player-place"))
        rows.append(ui.text(places_text(app, me.places), ui.FONT_BODY, ident="stats-player-places"))
    for pg in me.by_game:
        rows.append(ui.text(app.t("app.stats.player_game_summary", game=app.t(f"game.{pg.game}.name"),
                                  games=app.t("app.stats.games_n", count=pg.games),
                                  wins=app.t("app.stats.wins_n", count=pg.wins), rate=percent(app, pg.win_rate),
                                  average=number(app, round(pg.average_score or 0, 1)),
                                  best=number(app, pg.best_score)), ui.FONT_BODY))
    return rows


def _player_panel(app: App, me: Any, since: datetime | None, until: datetime | None,
                  table: str | None) -> ft.Control:
    """One player's figures, win rate per game and scores month by month, game by game."""
    rows = player_figures(app, me)
    if me.by_game:
        rows.append(_chart(app, [(app.t(f"game.{pg.game}.name"),
                                  [(round(pg.win_rate * 100), percent(app, pg.win_rate))]) for pg in me.by_game],
                           "chart-win-rate", legend=[app.t("app.stats.legend_rate")], percent_axis=True))
    by_game = app.guard(lambda: app.service.history.scores_by_game(me.id, since, until, table=table)) or {}
    series = [(app.t(f"game.{pg.game}.name"), by_game.get(pg.game, [])) for pg in me.by_game]
    series = [(name, points) for name, points in series if points]
    if series:
        rows.append(_line_chart(app, series, "chart-scores"))
    return ui.panel(ft.Column(rows, spacing=6), ident="stats-player")


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    state = app.drafts.setdefault("stats", {})
    period, since, until, bad = _period_panel(app, state)
    parts: list[ft.Control] = [period]
    if bad:
        return app.t("app.stats.title"), ft.Column(parts, spacing=ui.GAP)
    table = state.get("table")
    everyone, games = app.guard(lambda: app.service.history.statistics(since, until, table=table)) or ([], [])
    players = [p for p in everyone if p.games]

    if not players and not games:
        parts.append(ui.muted(app.t("app.stats.empty"), ident="stats-empty"))
        return app.t("app.stats.title"), ft.Column(parts, spacing=ui.GAP)

    # -- the season league table of one game (a club's standings) ----------------------------------
    parts += league_section(app, state, since, until, table, _chart)

    # -- per game --------------------------------------------------------------------------------
    def game_card(g: Any) -> ft.Control:
        lines = [ui.text(app.t(f"game.{g.game}.name"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                 ui.text(app.t("app.stats.games_played", count=g.games), ui.FONT_BODY)]
        if g.top_winners:
            lines.append(ui.text(app.t("app.stats.top_winner", players=names(app, g.top_winners),
                                       wins=app.t("app.stats.wins_n", count=g.top_wins)), ui.FONT_BODY))
        if g.average_winning_score is not None:
            lines.append(ui.text(app.t("app.stats.average_win", score=number(app, round(g.average_winning_score, 1))),
                                 ui.FONT_BODY))
        if g.best_score is not None:
            lines.append(ui.text(app.t("app.stats.record", score=number(app, g.best_score),
                                       players=names(app, g.best_by)), ui.FONT_BODY))
        if g.average_spread is not None:
            lines.append(ui.text(app.t("app.stats.spread", score=number(app, round(g.average_spread, 1))),
                                 ui.FONT_BODY))
        if g.average_entries is not None:
            length = app.t("app.stats.length", entries=number(app, round(g.average_entries)))
            if g.average_duration_s:
                length = app.t("app.history.length", entries=length, duration=duration(app, g.average_duration_s))
            lines.append(ui.text(length, ui.FONT_BODY))
        return ui.panel(ft.Column(lines, spacing=4), ident=f"stats-game-{g.game}")

    # A filter's tap builds again only the parts whose figures it changed: each part is kept while
    # the figures it shows are the same (companion.app.memo); a kept menu's pick writes into
    # ``state``, the screen's draft (the same dict for the screen's life: in the inputs by identity).
    game_cards = [app.memo.keep(f"stats-game-{g.game}", g, partial(game_card, g)) for g in games]
    parts.append(ui.subtitle(app.t("app.stats.per_game")))
    parts.append(ui.wrap(game_cards, spacing=ui.GAP))
    if games:
        counts = tuple((g.game, g.games) for g in games)
        parts.append(app.memo.keep("chart-games", counts, lambda: _chart(
            app, [(app.t(f"game.{game}.name"), [(n, app.t("app.stats.games_played", count=n))]) for game, n in counts],
            "chart-games", legend=[app.t("app.stats.legend_games")])))

    # -- per player -------------------------------------------------------------------------------
    if players:
        parts.append(ui.subtitle(app.t("app.stats.per_player")))
        charted = tuple((p.name, p.games, p.wins)
                        for p in sorted(players, key=lambda p: (-p.wins, -p.games, p.name))[:CHART_PLAYERS])
        parts.append(app.memo.keep("chart-players", charted, lambda: _chart(
            app, [(name, [(n, app.t("app.stats.games_of", count=n, name=name)), (w, app.t("app.stats.wins_n", count=w))])
                  for name, n, w in charted], "chart-players",
            legend=[app.t("app.stats.legend_games"), app.t("app.stats.legend_wins")])))
        selected = state.get("player") if state.get("player") in {p.name for p in players} else players[0].name

        def pick(name: str) -> None:
            state["player"] = name
            app.render()

        named = tuple(p.name for p in players)
        parts.append(app.memo.keep("stats-pick-player", (selected, named, id(state)), lambda: _menu(
            app, "stats-pick-player", app.t("app.history.player"), selected, list(named), pick)))
        me = next(p for p in players if p.name == selected)
        parts.append(app.memo.keep("stats-player", (me, since, until, table),
                                   lambda: _player_panel(app, me, since, until, table)))

        # head to head
        others = [p.name for p in players if p.name != selected]
        if others:
            rival = state.get("rival") if state.get("rival") in others else others[0]

            def pick_rival(name: str) -> None:
                state["rival"] = name
                app.render()

            h2h_rows: list[ft.Control] = [
                ui.subtitle(app.t("app.stats.head_to_head", a=selected, b=rival)),
                _menu(app, "stats-pick-rival", app.t("app.stats.rival"), rival, others, pick_rival),
            ]
            h2h = app.guard(lambda: app.service.history.head_to_head(selected, rival, since, until, table=table))
            if h2h is not None:
                if h2h.games:
                    h2h_rows.append(ui.text(app.t("app.stats.h2h_summary", a=selected, b=rival,
                                                  games=app.t("app.stats.games_n", count=h2h.games),
                                                  a_wins=h2h.a_wins, b_wins=h2h.b_wins, a_ahead=h2h.a_ahead,
                                                  b_ahead=h2h.b_ahead, level=h2h.level), ui.FONT_BODY,
                                            ident="stats-h2h"))
                    for hg in h2h.by_game:
                        h2h_rows.append(ui.muted(app.t("app.stats.h2h_game_summary",
                                                       game=app.t(f"game.{hg.game}.name"),
                                                       games=app.t("app.stats.games_n", count=hg.games),
                                                       a_ahead=hg.a_ahead, b_ahead=hg.b_ahead, level=hg.level),
                                                 ui.FONT_BODY))
                else:
                    h2h_rows.append(ui.muted(app.t("app.stats.h2h_none", a=selected, b=rival), ident="stats-h2h"))
            parts.append(ui.panel(ft.Column(h2h_rows, spacing=8), ident="stats-h2h-panel"))
    return app.t("app.stats.title"), ft.Column(parts, spacing=ui.GAP)
