"""Club evenings: the evenings of the database (open one, or its standings again any time) and a
new one — its name, the players present, the rounds, the game of each table, the seating method.
Any device of the club can create one (a device off the serving machine has given the table PIN
to see anything at all)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

import flet as ft

from companion.app import ui
from companion.app.evening_live import watch
from companion.app.format import when
from models.games import GAMES

if TYPE_CHECKING:
    from companion.app.shell import App

MOST_TABLES = 8
MOST_ROUNDS = 8


def _draft(app: App) -> dict[str, Any]:
    return app.drafts.setdefault("evening-new", {"name": "", "players": "", "rounds": 3, "tables": [GAMES[0]] * 2,
                                                 "method": "mix"})


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    draft = _draft(app)
    sections: list[ft.Control] = [_new_evening(app, draft)]
    evenings = app.guard(app.service.evenings.all) or []
    watch(app, app.service.evenings.all, evenings)
    rows: list[ft.Control] = []
    for e in evenings:
        eid = e.evening_id
        rows.append(ui.panel(ft.Row([
            ft.Column([ui.text(e.name, ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                       ui.muted(app.t("app.evening.summary", rounds=e.rounds, method=app.t(f"app.evening.method.{e.method}"),
                                      when=when(app, e.created_at)))], spacing=4, tight=True, expand=True),
            ui.button(app.t("app.evening.open"), _go(app, "evening", eid),
                      ident=f"evening-open-{eid}", icon=ft.Icons.TABLE_RESTAURANT, kind="primary"),
            ui.button(app.t("app.evening.standings"), _go(app, "evening-standings", eid),
                      ident=f"evening-standings-{eid}", icon=ft.Icons.LEADERBOARD),
        ], wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER), ident=f"evening-{eid}"))
    sections.append(ui.subtitle(app.t("app.evening.list", count=len(evenings)), ident="evenings-count"))
    sections.extend(rows)
    return app.t("app.evening.title"), ft.Column(sections, spacing=ui.GAP)


def evening_chips(app: App, chosen: int | None, on_pick: Callable[[int | None], None], prefix: str) -> ft.Control | None:
    """The history's filter by club evening (None while the database has no evening)."""
    found = app.guard(app.service.evenings.all)
    if not found:
        return None

    def pick(value: int | None) -> ui.Handler:
        def handler(_: Any) -> None:
            on_pick(value)
        return handler

    small = app.narrow
    chips = [ui.chip(app.t("app.evening.all"), pick(None), ident=f"{prefix}-all", selected=chosen is None,
                     compact=small)]
    chips += [ui.chip(e.name, pick(e.evening_id), ident=f"{prefix}-{e.evening_id}", selected=chosen == e.evening_id,
                      icon=ft.Icons.EVENT_SEAT, compact=small) for e in found]
    return ui.wrap(chips, spacing=8 if small else 12)


def _go(app: App, screen: str, evening_id: int) -> ui.Handler:
    def handler(_: Any) -> None:
        app.go(screen, evening_id=evening_id)
    return handler


def _new_evening(app: App, draft: dict[str, Any]) -> ft.Control:
    def field(key: str) -> ui.Handler:
        def handler(e: Any) -> None:
            draft[key] = e.control.value or ""
        return handler

    def set_rounds(n: int) -> ui.Handler:
        def handler(_: Any) -> None:
            draft["rounds"] = n
            app.render()
        return handler

    def set_tables(n: int) -> ui.Handler:
        def handler(_: Any) -> None:
            tables = list(draft["tables"])
            draft["tables"] = (tables + [tables[-1]] * n)[:n]
            app.render()
        return handler

    def set_game(t: int, game: str) -> ui.Handler:
        def handler(_: Any) -> None:
            draft["tables"] = [game if i == t else g for i, g in enumerate(draft["tables"])]
            app.render()
        return handler

    def set_method(method: str) -> ui.Handler:
        def handler(_: Any) -> None:
            draft["method"] = method
            app.render()
        return handler

    def create(_: Any) -> None:
        players = [p.strip() for p in re.split(r"[,\n;]", draft["players"]) if p.strip()]
        made = app.guard(lambda: app.service.evenings.create(draft["name"], players, draft["rounds"],
                                                            list(draft["tables"]), method=draft["method"]))
        if made is None:
            app.render()
            return
        app.drafts.pop("evening-new", None)
        app.announce()
        app.replace("evening", evening_id=made.evening_id)

    narrow = app.narrow
    tables: list[ft.Control] = []
    for t, chosen in enumerate(draft["tables"]):
        tables.append(ft.Column([
            ui.text(app.t("app.evening.table_n", table=t + 1), ui.FONT_BODY, weight=ft.FontWeight.BOLD),
            ui.wrap([ui.chip(app.t(f"game.{g}.name"), set_game(t, g), ident=f"evening-table-{t + 1}-game-{g}",
                             selected=g == chosen, compact=True) for g in GAMES], spacing=8),
        ], spacing=6, tight=True))
    body = ft.Column([
        ui.subtitle(app.t("app.evening.new")),
        ui.tid("evening-name", ft.TextField(label=app.t("app.evening.name"), value=draft["name"], on_change=field("name"),
                                            max_length=60, text_size=ui.FONT_BODY, width=None if narrow else 480)),
        ui.tid("evening-players", ft.TextField(label=app.t("app.evening.players"), value=draft["players"],
                                               on_change=field("players"), multiline=True, min_lines=2,
                                               text_size=ui.FONT_BODY, hint_text=app.t("app.evening.players_hint"))),
        ui.text(app.t("app.evening.rounds"), ui.FONT_BODY, weight=ft.FontWeight.BOLD),
        ui.wrap([ui.chip(str(n), set_rounds(n), ident=f"evening-rounds-{n}", selected=draft["rounds"] == n, compact=True)
                 for n in range(1, MOST_ROUNDS + 1)], spacing=8),
        ui.text(app.t("app.evening.tables"), ui.FONT_BODY, weight=ft.FontWeight.BOLD),
        ui.wrap([ui.chip(str(n), set_tables(n), ident=f"evening-tables-{n}", selected=len(draft["tables"]) == n,
                         compact=True) for n in range(1, MOST_TABLES + 1)], spacing=8),
        *tables,
        ui.text(app.t("app.evening.method"), ui.FONT_BODY, weight=ft.FontWeight.BOLD),
        ui.wrap([ui.chip(app.t(f"app.evening.method.{m}"), set_method(m), ident=f"evening-method-{m}",
                         selected=draft["method"] == m, compact=True) for m in ("mix", "swiss")], spacing=8),
        ui.muted(app.t(f"app.evening.method_help.{draft['method']}"), ui.FONT_BODY),
        ui.button(app.t("app.evening.create"), create, ident="evening-create", icon=ft.Icons.EVENT, kind="primary"),
    ], spacing=ui.GAP)
    return ui.panel(body, ident="evening-new")
