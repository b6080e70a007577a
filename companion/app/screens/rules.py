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


def variant_book(game: str) -> list[tuple[str, tuple[tuple[Any, str, bool], ...]]]:
    """[(variant key, ((value, rule id that explains it, is the game's default), …))], from the
    engine's declaration (its ``variants``)."""
    from models.record import PLAYER_COUNTS
    from scoring.registry import engine_class

    engine = engine_class(game)
    book = []
    for spec in engine.variants if engine is not None else ():
        if spec.choices is None or (spec.games is not None and game not in spec.games):
            continue
        default = spec.default_for(game, PLAYER_COUNTS[game][0])
        book.append((spec.key, tuple((value, spec.rules.get(value, ""), value == default) for value in spec.choices)))
    return book


def _variants(app: App, game: str, query: str) -> list[ft.Control]:
    """The game's variants, each value in one line with the rule it changes."""
    from companion.app.screens.setup import variant_word

    rows: list[ft.Control] = []
    for key, values in variant_book(game):
        lines = [(value, rule, default, app.t(f"variant.{game}.{key}.{variant_word(value)}"))
                 for value, rule, default in values]
        if query and not any(matches_text(" ".join((rule, said)), query) for _, rule, _, said in lines):
            continue
        rows.append(ui.text(app.t(f"variant.{game}.{key}"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD))
        for value, rule, default, said in lines:
            rows.append(ui.tid(f"rules-variant-{game}-{key}-{variant_word(value)}", ft.Row([
                ft.Text(rule, size=ui.FONT_SMALL, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_SECONDARY_CONTAINER),
                ui.text(said, ui.FONT_BODY, expand=True),
                *([ui.muted(app.t("app.setup.variant_default"))] if default else []),
            ], spacing=12, wrap=True)))
    if not rows:
        return []
    return [ui.subtitle(app.t("app.rules.variants", game=app.t(f"game.{game}.name"))), *rows]


def matches_text(text: str, query: str) -> bool:
    hay = fold(text)
    return all(word in hay for word in fold(query).split())


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
        variants = [control for g in games for control in _variants(app, g, query)]
        if not shown and not variants:
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
        out.append(ui.panel(ft.Column([ui.title(title), *cards, *variants], spacing=10), ident=f"rules-{games[0]}"))
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
