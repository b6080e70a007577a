"""Rules reference: every rule of every registered game, by id, with its title and text from the
catalogues; searchable (id, title or text, in the table's language)."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui

if TYPE_CHECKING:
    from companion.app.shell import App


def fold(text: str) -> str:
    """Lower case without accents, so "regle" finds "règle"."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if unicodedata.category(c) != "Mn")


def rule_book(app: App) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """[(games sharing an engine, rule ids)] for every registered engine."""
    from scoring.registry import engine_class, refereed_games

    books: dict[type, list[str]] = {}
    for game in refereed_games():
        cls = engine_class(game)
        if cls is not None:
            books.setdefault(cls, []).append(game)
    return [(tuple(games), tuple(cls.rules)) for cls, games in books.items()]


def matches(app: App, rule: str, query: str) -> bool:
    if not query:
        return True
    hay = fold(" ".join((rule, app.t(f"rule.{rule}.title"), app.t(f"rule.{rule}.text"))))
    return all(word in hay for word in fold(query).split())


def _results(app: App, query: str) -> list[ft.Control]:
    out: list[ft.Control] = []
    found = 0
    for games, rules in rule_book(app):
        shown = [r for r in rules if matches(app, r, query)]
        if not shown:
            continue
        found += len(shown)
        cards = [ui.tid(f"rule-{r}", ft.Container(ft.Column([
            ft.Row([ft.Container(ft.Text(r, size=ui.FONT_SMALL, weight=ft.FontWeight.BOLD,
                                         color=ft.Colors.ON_SECONDARY_CONTAINER),
                                 bgcolor=ft.Colors.SECONDARY_CONTAINER, border_radius=8,
                                 padding=ft.Padding.symmetric(horizontal=10, vertical=4)),
                    ft.Text(app.t(f"rule.{r}.title"), size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True)],
                   spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ui.text(app.t(f"rule.{r}.text"), ui.FONT_BODY, selectable=True),
        ], spacing=6), padding=14, border_radius=ui.RADIUS, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))
            for r in shown]
        title = " / ".join(app.t(f"game.{g}.name") for g in games)
        out.append(ui.panel(ft.Column([ui.title(title), *cards], spacing=10), ident=f"rules-{games[0]}"))
    out.insert(0, ui.muted(app.t("app.rules.found", count=found), ident="rules-count"))
    return out


def build(app: App, query: str = "", **_: Any) -> tuple[str, ft.Control]:
    results = ft.Column(_results(app, query), spacing=ui.GAP)

    def search(e: Any) -> None:
        # Only the results change: the field keeps its focus while the table types.
        value = e.control.value or ""
        app.here.params["query"] = value
        results.controls = _results(app, value)

    field = ui.tid("rules-search", ft.TextField(label=app.t("app.rules.search"), value=query, on_change=search,
                                                prefix_icon=ft.Icons.SEARCH, text_size=ui.FONT_BODY, width=640,
                                                hint_text=app.t("app.rules.search_hint")))
    return app.t("app.rules.title"), ft.Column([field, results], spacing=ui.GAP)
