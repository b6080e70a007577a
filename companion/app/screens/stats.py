"""Statistics from the service's SQL-backed figures: per player (games, wins, win rate per game,
best score, head to head) and per game (games played, average winning score, records), with charts."""

from __future__ import annotations

from typing import Any

import flet as ft
import flet_charts as fch

from companion.app import ui
from companion.app.format import names, number, percent

BAR_COLOURS = (ft.Colors.TEAL_400, ft.Colors.AMBER_600, ft.Colors.INDIGO_300, ft.Colors.DEEP_ORANGE_300,
               ft.Colors.GREEN_400, ft.Colors.PINK_300)


def _chart(app, bars: list[tuple[str, float, str]], ident: str, max_y: float | None = None) -> ft.Control:
    """A bar chart: one bar per (label, value, tooltip)."""
    top = max_y if max_y is not None else max([v for _, v, _ in bars] + [1])
    groups = [fch.BarChartGroup(x=i, rods=[fch.BarChartRod(from_y=0, to_y=value, width=34,
                                                           color=BAR_COLOURS[i % len(BAR_COLOURS)],
                                                           border_radius=6, tooltip=tip)])
              for i, (_, value, tip) in enumerate(bars)]
    chart = fch.BarChart(
        groups=groups,
        bottom_axis=fch.ChartAxis(labels=[fch.ChartAxisLabel(value=i, label=ft.Text(label, size=ui.FONT_SMALL))
                                          for i, (label, _, _) in enumerate(bars)], label_size=40),
        left_axis=fch.ChartAxis(label_size=44),
        horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
        max_y=top * 1.15 if top else 1, min_y=0, interactive=True, height=260, expand=True,
    )
    return ui.tid(ident, ft.Container(chart, height=280, padding=ft.Padding.only(top=12, right=12)))


def build(app, **_: Any) -> tuple[str, ft.Control]:
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
        parts.append(_chart(app, [(app.t(f"game.{g.game}.name"), g.games, app.t("app.stats.games_played",
                                                                               count=g.games)) for g in games],
                            "chart-games"))

    # -- per player -------------------------------------------------------------------------------
    if players:
        parts.append(ui.subtitle(app.t("app.stats.per_player")))
        parts.append(_chart(app, [(p.name, p.wins, app.t("app.stats.wins_of", wins=p.wins, games=p.games))
                                  for p in players], "chart-wins"))
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
