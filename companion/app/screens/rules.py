"""Rules reference, one game at a time: the game's rules in the rulebook's order, grouped by
section, each with its id, title and text, whether it is the rulebook's rule or the app's ruling
where the rulebook is silent (a rule to which the app adds a ruling shows the two parts under their
own labels), and the variant that changes it. Searchable (id, title, text or the rulebook's own
words for the rule, ``rule.<id>.terms``, in the table's language, accents and plurals ignored).
Opened from the home screen (any game) or from a table (that game's rules).

The entries come from the game's spec: ``SPEC_OF[game].rule_specs`` (:class:`models.game_spec.RuleSpec`);
a spec that declares none yet shows its engine's plain ``rules`` ids in one section. A section's heading
is the catalogue key ``section.<game-id>.<section>`` (or that of the first game sharing the engine),
the raw section id when neither exists.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from models.games import GAMES, PLAYER_COUNTS, SPEC_OF
from models.i18n import dialect, has_text

ALL = ""  # the one section of an engine that declares no rule_specs


@dataclass(frozen=True)
class Entry:
    id: str
    section: str
    ruling: bool | None = None     # None: the engine does not say (no rule_specs yet)
    variant: str | None = None
    adds_ruling: bool = False      # the rulebook's rule, with the app's ruling beside it (``rule.<id>.ruling``)

if TYPE_CHECKING:
    from companion.app.shell import App


def fold(text: str) -> str:
    """Lower case without accents, so "regle" finds "règle"."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if unicodedata.category(c) != "Mn")


def engine_games(game: str) -> tuple[str, ...]:
    """The games sharing ``game``'s engine (High Society and Animalement Vôtre), first one first."""
    return tuple(g for g in GAMES if SPEC_OF[g].engine == SPEC_OF[game].engine)


def entries(game: str) -> tuple[Entry, ...]:
    """The game's rules reference in the rulebook's order."""
    specs = SPEC_OF[game].rule_specs
    if specs:
        return tuple(Entry(s.id, s.section, s.ruling, s.variant, s.adds_ruling) for s in specs)
    from scoring.registry import engine_class

    cls = engine_class(game)
    return tuple(Entry(rule, ALL) for rule in cls.rules) if cls is not None else ()


def sections(game: str, shown: tuple[Entry, ...]) -> list[tuple[str, list[Entry]]]:
    """``shown`` grouped by section, sections in the order they first appear (the rulebook's)."""
    grouped: dict[str, list[Entry]] = {}
    for entry in shown:
        grouped.setdefault(entry.section, []).append(entry)
    return list(grouped.items())


def heading_key(game: str, section: str, lang: str) -> str | None:
    """The catalogue key of a section's heading, or None when there is none."""
    for owner in (game, *engine_games(game)):
        key = f"section.{owner}.{section}"
        if has_text(key, lang):
            return key
    return None


def heading(app: App, game: str, section: str) -> str:
    if section == ALL:
        return app.t("app.rules.section_all")
    key = heading_key(game, section, app.lang)
    return app.t(key) if key else section


def variant_book(game: str) -> list[tuple[str, tuple[tuple[Any, str, bool, bool], ...]]]:
    """[(variant key, ((value, rule id that explains it, is the game's default, is a house variant
    that departs from the rulebook), …))], from the game spec's declaration (its ``variants``)."""
    book = []
    for spec in SPEC_OF[game].variants:
        if spec.choices is None or (spec.games is not None and game not in spec.games):
            continue
        default = spec.default_for(game, PLAYER_COUNTS[game][0])
        book.append((spec.key, tuple((value, spec.rules.get(value, ""), value == default, value in spec.house_for(game))
                                     for value in spec.choices)))
    return book


def _variants(app: App, game: str, query: str) -> list[ft.Control]:
    """The game's variants, each value in one line with the rule it changes."""
    from companion.app.screens.setup import variant_word

    rows: list[ft.Control] = []
    for key, values in variant_book(game):
        lines = [(value, rule, default, house, app.t(f"variant.{game}.{key}.{variant_word(value)}"))
                 for value, rule, default, house in values]
        if query and not any(matches_text(" ".join((rule, said)), query) for _, rule, _, _, said in lines):
            continue
        rows.append(ui.text(app.t(f"variant.{game}.{key}"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD))
        for value, rule, default, house, said in lines:
            word = variant_word(value)
            rows.append(ui.tid(f"rules-variant-{game}-{key}-{word}", ft.Row([
                ft.Text(rule, size=ui.FONT_SMALL, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_SECONDARY_CONTAINER),
                ui.text(said, ui.FONT_BODY, expand=True),
                *([ui.muted(app.t("app.setup.variant_default"))] if default else []),
                *([ui.tid(f"rules-house-{game}-{key}-{word}", _badge(
                    app.t("app.rules.kind.house"), ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER))]
                  if house else []),
            ], spacing=12, wrap=True)))
    if not rows:
        return []
    return [ui.subtitle(app.t("app.rules.variants", game=app.t(f"game.{game}.name"))), *rows]


def words(query: str) -> list[str]:
    """The query's words as the search looks for them: folded (no case, no accents), a plural's
    ending left off (« dettes » finds « dette », « Dernières » finds « dernière »)."""
    return [w[:-1] if len(w) > 3 and w[-1] in "sx" else w for w in fold(query).split()]


def matches_text(text: str, query: str) -> bool:
    hay = fold(text)
    return all(word in hay for word in words(query))


def ruling_part(rule: str, lang: str) -> str | None:
    """The catalogue key of the ruling the app adds to the rulebook's rule ``rule``, if it adds one."""
    key = f"rule.{rule}.ruling"
    return key if has_text(key, lang) else None


def rule_paragraphs(app: Any, rule: str) -> list[str]:
    """A rule's text as a refusal or a "why?" quotes it: the rulebook's part, then the app's ruling
    where it adds one, under the ruling's label."""
    paragraphs = [app.t(f"rule.{rule}.text")]
    key = ruling_part(rule, app.lang)
    if key:
        paragraphs.append(app.t("app.rules.ruling_part", kind=app.t("app.rules.kind.ruling"), text=app.t(key)))
    return paragraphs


def matches(app: App, rule: str, query: str) -> bool:
    if not query:
        return True
    key = ruling_part(rule, app.lang)
    terms = f"rule.{rule}.terms"  # the rulebook's own words for the rule's cards and moments, if any
    return matches_text(" ".join((rule, app.t(f"rule.{rule}.title"), app.t(f"rule.{rule}.text"),
                                  app.t(key) if key else "", app.t(terms) if has_text(terms, app.lang) else "")),
                        query)


def _badge(label: str, bg: str, fg: str) -> ft.Control:
    return ft.Container(ft.Text(label, size=ui.FONT_SMALL, weight=ft.FontWeight.BOLD, color=fg),
                        bgcolor=bg, border_radius=8, padding=ft.Padding.symmetric(horizontal=10, vertical=4))


def _card(app: App, game: str, entry: Entry) -> ft.Control:
    badges = [_badge(entry.id, ft.Colors.SECONDARY_CONTAINER, ft.Colors.ON_SECONDARY_CONTAINER)]
    if entry.ruling is not None:
        kind = "app.rules.kind.ruling" if entry.ruling else "app.rules.kind.rule"
        badges.append(ui.tid(f"rule-kind-{entry.id}", _badge(
            app.t(kind), ft.Colors.TERTIARY_CONTAINER if entry.ruling else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            ft.Colors.ON_TERTIARY_CONTAINER if entry.ruling else ft.Colors.ON_SURFACE)))
    # The badges wrap on a narrow screen; the title has its own line (an expanding child cannot sit
    # in a wrapping row: Flutter draws an error box instead).
    lines: list[ft.Control] = [
        ft.Row(badges, spacing=10, run_spacing=6, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ft.Text(app.t(f"rule.{entry.id}.title"), size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
        ui.text(app.t(f"rule.{entry.id}.text"), ui.FONT_BODY),
    ]
    if entry.adds_ruling:  # the app's ruling where the rulebook stops, under its own label
        lines.append(ui.tid(f"rule-ruling-{entry.id}", ft.Column([
            ft.Row([ui.tid(f"rule-ruling-kind-{entry.id}", _badge(
                app.t("app.rules.kind.ruling"), ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER))]),
            ui.text(app.t(f"rule.{entry.id}.ruling"), ui.FONT_BODY),
        ], spacing=6)))
    if entry.variant:
        lines.append(ui.muted(app.t("app.rules.variant", variant=app.t(f"variant.{game}.{entry.variant}")),
                              ident=f"rule-variant-{entry.id}"))
    return ui.tid(f"rule-{entry.id}", ft.Container(ft.Column(lines, spacing=6), padding=14, border_radius=ui.RADIUS,
                                                   bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))


def found_in(app: App, game: str, query: str) -> int:
    """How many of ``game``'s rules and variants hold ``query`` (in the game's own words)."""
    with dialect(game):
        rules = sum(1 for e in entries(game) if matches(app, e.id, query))
        return rules + (1 if _variants(app, game, query) else 0)


def elsewhere(app: App, game: str, query: str) -> list[tuple[str, int]]:
    """The other games whose rules hold ``query``, with how many of their rules do: where a
    search that finds nothing in this game sends the table, one tap away."""
    return [(g, n) for g in GAMES if g != game for n in (found_in(app, g, query),) if n]


def results(app: App, game: str, query: str, on_game: Any = None) -> list[ft.Control]:
    shown = tuple(e for e in entries(game) if matches(app, e.id, query))
    out: list[ft.Control] = [ui.muted(app.t("app.rules.found", count=len(shown)), ident="rules-count")]
    for section, items in sections(game, shown):
        out.append(ui.panel(ft.Column([
            ui.subtitle(heading(app, game, section), ident=f"rules-section-{section or 'all'}"),
            *[_card(app, game, e) for e in items],
        ], spacing=10), ident=f"rules-{section or 'all'}"))
    variants = _variants(app, game, query)  # the variants the table picks at set-up (the engine's declaration)
    if variants:
        out.append(ui.panel(ft.Column(variants, spacing=10), ident="rules-variants"))
    if not shown and not variants:
        out.append(ui.text(app.t("app.rules.none", query=query), ui.FONT_BODY, ident="rules-none"))
        others = elsewhere(app, game, query) if query.strip() else []
        if others and on_game is not None:
            out.append(ui.panel(ft.Column([
                ui.text(app.t("app.rules.elsewhere", query=query), ui.FONT_BODY, ident="rules-elsewhere-text"),
                ui.wrap([ui.chip(app.t("app.rules.elsewhere_game", game=app.t(f"game.{g}.name"), count=n),
                                 on_game(g), ident=f"rules-elsewhere-{g}", icon=ft.Icons.ARROW_FORWARD)
                         for g, n in others]),
            ], spacing=10), ident="rules-elsewhere"))
    return out


def build(app: App, game: str | None = None, query: str = "", **_: Any) -> tuple[str, ft.Control]:
    offered = GAMES
    if game not in offered:
        game = app.drafts.get("rules-game") if app.drafts.get("rules-game") in offered else offered[0]
    assert game is not None
    app.drafts["rules-game"] = game
    with dialect(game):  # the game's own words (Animalement Vôtre's animals), shown and searched
        return _build(app, game, query, offered)


def _build(app: App, game: str, query: str, offered: tuple[str, ...]) -> tuple[str, ft.Control]:

    def search(e: Any) -> None:
        # The whole screen is rebuilt, like after any other change: a tree already on screen is
        # frozen by Flet (changing a column in place is never sent to the browser). The rebuilt
        # field holds the value just typed, so Flet sends it no change and the typing goes on.
        app.here.params["query"] = e.control.value or ""
        app.render()

    def pick(other: str) -> ui.Handler:
        def handler(_: Any) -> None:
            app.here.params.update(game=other, query=app.here.params.get("query", ""))
            app.render()
        return handler

    choice = ui.wrap([ui.chip(app.t(f"game.{g}.name"), pick(g), ident=f"rules-game-{g}", selected=g == game)
                      for g in offered])
    field = ui.tid("rules-search", ft.TextField(label=app.t("app.rules.search"), value=query, on_change=search,
                                                prefix_icon=ft.Icons.SEARCH, text_size=ui.FONT_BODY, expand=True,
                                                hint_text=app.t("app.rules.search_hint")))
    return app.t("app.rules.title_game", game=app.t(f"game.{game}.name")), ft.Column([
        choice, ft.Row([field]), ui.tid("rules-results", ft.Column(results(app, game, query, pick), spacing=ui.GAP))], spacing=ui.GAP)
