"""Statistics from the service's SQL-backed figures: per player (games, wins, win rate per game,
best score, head to head) and per game (games played, average winning score, records), with charts."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import flet as ft
import flet_charts as fch

from companion.app import ui
from companion.app.format import names, number, percent

if TYPE_CHECKING:
    from companion.app.shell import App


BAR_COLOURS = (ft.Colors.TEAL_400, ft.Colors.AMBER_600, ft.Colors.INDIGO_300, ft.Colors.DEEP_ORANGE_300,
               ft.Colors.GREEN_400, ft.Colors.PINK_300)


def _chart(app: App, groups: list[tuple[str, list[tuple[float, str]]]], ident: str, *,
           legend: list[str] = (), percent_axis: bool = False) -> ft.Control:
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


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    state = app.drafts.setdefault("stats", {})
    players = app.guard(app.service.player_stats) or []
    games = app.guard(app.service.game_stats) or []
    parts: list[ft.Control] = []

    if not players and not games:
        return app.t("app.stats.title"), ui.muted(app.t("app.stats.empty"), ident="stats-empty")

    # -- per game --------------------------------------------------------------------------------
    game_cards = []
    for g in games:
        lines = [ui.text(app.t(f"game.{g.game}.name"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                 ui.text(app.t("app.stats.games_played", count=g.games), ui.FONT_BODY)]
        if g.average_winning_score is not None:
            lines.append(ui.text(app.t("app.stats.average_win", score=number(app, round(g.average_winning_score, 1))),
                                 ui.FONT_BODY))
        if g.best_score is not None:
            lines.append(ui.text(app.t("app.stats.record", score=number(app, g.best_score),
                                       players=names(app, g.best_by)), ui.FONT_BODY))
        game_cards.append(ui.panel(ft.Column(lines, spacing=4), ident=f"stats-game-{g.game}"))
    parts.append(ui.subtitle(app.t("app.stats.per_game")))
    parts.append(ui.wrap(game_cards, spacing=ui.GAP))
    if games:
        parts.append(_chart(app, [(app.t(f"game.{g.game}.name"),
                                   [(g.games, app.t("app.stats.games_played", count=g.games))]) for g in games],
                            "chart-games", legend=[app.t("app.stats.legend_games")]))

    # -- per player -------------------------------------------------------------------------------
    if players:
        parts.append(ui.subtitle(app.t("app.stats.per_player")))
        parts.append(_chart(app, [(p.name, [(p.games, app.t("app.stats.games_of", name=p.name, games=p.games)),
                                            (p.wins, app.t("app.stats.wins_of", wins=p.wins, games=p.games))])
                                  for p in players], "chart-players",
                            legend=[app.t("app.stats.legend_games"), app.t("app.stats.legend_wins")]))
        selected = state.get("player") if state.get("player") in {p.name for p in players} else players[0].name

        def pick(name: str):
            def handler(_: Any) -> None:
                state["player"] = name
                app.render()
            return handler

        parts.append(ui.wrap([ui.chip(p.name, pick(p.name), ident=f"stats-player-{p.name}",
                                      selected=p.name == selected) for p in players]))
        me = next(p for p in players if p.name == selected)
        rows = [ui.text(app.t("app.stats.player_line", name=me.name, games=me.games, wins=me.wins,
                              rate=percent(app, me.win_rate)), ui.FONT_LABEL, weight=ft.FontWeight.BOLD,
                        ident="stats-player-line")]
        for pg in me.by_game:
            rows.append(ui.text(app.t("app.stats.player_game_line", game=app.t(f"game.{pg.game}.name"),
                                      games=pg.games, wins=pg.wins, rate=percent(app, pg.win_rate),
                                      best=number(app, pg.best_score)), ui.FONT_BODY))
        if me.by_game:
            rows.append(_chart(app, [(app.t(f"game.{pg.game}.name"),
                                      [(round(pg.win_rate * 100), percent(app, pg.win_rate))]) for pg in me.by_game],
                               "chart-win-rate", legend=[app.t("app.stats.legend_rate")], percent_axis=True))
        parts.append(ui.panel(ft.Column(rows, spacing=6), ident="stats-player"))

        # head to head
        others = [p.name for p in players if p.name != selected]
        if others:
            rival = state.get("rival") if state.get("rival") in others else others[0]

            def pick_rival(name: str):
                def handler(_: Any) -> None:
                    state["rival"] = name
                    app.render()
                return handler

            h2h_rows: list[ft.Control] = [
                ui.subtitle(app.t("app.stats.head_to_head", a=selected, b=rival)),
                ui.wrap([ui.chip(n, pick_rival(n), ident=f"stats-rival-{n}", selected=n == rival) for n in others]),
            ]
            h2h = app.guard(lambda: app.service.head_to_head(selected, rival))
            if h2h is not None:
                if h2h.games:
                    h2h_rows.append(ui.text(app.t("app.stats.h2h_line", a=selected, b=rival, games=h2h.games,
                                                  a_wins=h2h.a_wins, b_wins=h2h.b_wins, a_ahead=h2h.a_ahead,
                                                  b_ahead=h2h.b_ahead, level=h2h.level), ui.FONT_BODY,
                                            ident="stats-h2h"))
                    for hg in h2h.by_game:
                        h2h_rows.append(ui.muted(app.t("app.stats.h2h_game", game=app.t(f"game.{hg.game}.name"),
                                                       games=hg.games, a_ahead=hg.a_ahead, b_ahead=hg.b_ahead,
                                                       level=hg.level), ui.FONT_BODY))
                else:
                    h2h_rows.append(ui.muted(app.t("app.stats.h2h_none", a=selected, b=rival), ident="stats-h2h"))
            parts.append(ui.panel(ft.Column(h2h_rows, spacing=8), ident="stats-h2h-panel"))
    return app.t("app.stats.title"), ft.Column(parts, spacing=ui.GAP)
