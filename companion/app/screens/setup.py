"""New game: the game and its variants, the players (saved profiles or new ones) in seating order,
who starts, and the assist setting. The service checks everything when the game starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Union, get_args, get_origin

import flet as ft

from companion.app import ui
from companion.app.games import playable_games


@dataclass
class Draft:
    game: str | None = None
    variant: dict[str, str] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)     # chosen players, clockwise
    first: str | None = None
    assist: bool = False
    new_name: str = ""


def variant_choices(game: str) -> list[tuple[str, tuple[str, ...], str | None]]:
    """(key, values, default) for every variant key the record format allows for ``game``.
    The default is what the game's engine applies when the key is left out."""
    from models.record import PLAYER_COUNTS, TableRecord, parse_record_data
    from scoring.registry import engine_class

    model = None
    for member in get_args(get_args(TableRecord)[0]):  # the union of record envelopes
        game_field = member.model_fields["game"].annotation
        if game in get_args(game_field):
            model = member.model_fields["variant"].annotation
            break
    if model is None or not hasattr(model, "model_fields"):
        return []
    engine = None
    cls = engine_class(game)
    if cls is not None:
        low = PLAYER_COUNTS[game][0]
        record = parse_record_data({"format": "table-record/1", "game": game,
                                    "players": [f"P{i}" for i in range(low)], "actions": []})
        engine = cls(record)
    choices = []
    for key, info in model.model_fields.items():
        values = _literal_values(info.annotation)
        if not values:
            continue
        default = getattr(engine, key, None) if engine is not None else None
        choices.append((key, values, default if default in values else None))
    return choices


def _literal_values(annotation: Any) -> tuple[str, ...]:
    if get_origin(annotation) is Literal:
        return tuple(v for v in get_args(annotation) if isinstance(v, str))
    if get_origin(annotation) is Union or type(annotation).__name__ == "UnionType":
        for arm in get_args(annotation):
            found = _literal_values(arm)
            if found:
                return found
    return ()


def _assist_keys(game: str | None, on: bool) -> tuple[str, str]:
    """The switch's title and its explanation: what assist means depends on the game (money
    left, cards in hand, choices greyed out)."""
    if not game:
        return "app.setup.assist", "app.setup.assist_on" if on else "app.setup.assist_off"
    return f"app.setup.assist.{game}", f"app.setup.assist_on.{game}" if on else f"app.setup.assist_off.{game}"


def _draft(app) -> Draft:
    draft = app.drafts.get("setup")
    if draft is None:
        draft = app.drafts["setup"] = Draft()
        games = playable_games()
        if len(games) == 1:
            draft.game = games[0]
    return draft


def build(app, **_: Any) -> tuple[str, ft.Control]:
    from models.record import PLAYER_COUNTS

    draft = _draft(app)
    parts: list[ft.Control] = []

    # 1. the game
    games = playable_games()

    def pick_game(game: str):
        def handler(_: Any) -> None:
            if draft.game != game:
                draft.game = game
                draft.variant = {}
            app.render()
        return handler

    game_tiles = []
    for game in games:
        low, high = PLAYER_COUNTS[game]
        body = ft.Column([
            ui.text(app.t(f"game.{game}.name"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
            ui.text(app.t(f"game.{game}.summary"), ui.FONT_SMALL),
            ui.muted(app.t("app.setup.player_range", low=low, high=high)),
        ], spacing=4, tight=True)
        game_tiles.append(ui.tile(body, pick_game(game), ident=f"game-{game}", selected=draft.game == game,
                                  width=380, padding=16))
    parts.append(_section(app.t("app.setup.game"), ui.wrap(game_tiles, spacing=ui.GAP), "setup-game"))

    # 2. variants, each explained in one line
    if draft.game:
        rows: list[ft.Control] = []
        for key, values, default in variant_choices(draft.game):
            chosen = draft.variant.get(key, default)

            def pick(key: str, value: str):
                def handler(_: Any) -> None:
                    draft.variant[key] = value
                    app.render()
                return handler

            options = [
                ui.tile(ft.Column([
                    ui.text(app.t(f"variant.{draft.game}.{key}.{value}"), ui.FONT_BODY),
                    *([ui.muted(app.t("app.setup.variant_default"))] if value == default else []),
                ], spacing=2, tight=True), pick(key, value), ident=f"variant-{key}-{value}",
                    selected=chosen == value, width=420, padding=14)
                for value in values
            ]
            rows.append(ui.text(app.t(f"variant.{draft.game}.{key}"), ui.FONT_BODY, weight=ft.FontWeight.W_600))
            rows.append(ui.wrap(options))
        if rows:
            parts.append(_section(app.t("app.setup.variants"), ft.Column(rows, spacing=10), "setup-variants"))

    # 3. players: saved profiles, a new one, seating order
    profiles = app.guard(app.service.players) or []

    def toggle(name: str):
        def handler(_: Any) -> None:
            if name in draft.seats:
                draft.seats.remove(name)
                if draft.first == name:
                    draft.first = None
            else:
                draft.seats.append(name)
            app.render()
        return handler

    profile_chips = [ui.chip(p.name, toggle(p.name), ident=f"profile-{p.name}", selected=p.name in draft.seats)
                     for p in profiles]
    if not profile_chips:
        profile_chips = [ui.muted(app.t("app.setup.no_profiles"))]

    def set_name(e: Any) -> None:
        draft.new_name = e.control.value or ""

    def add_new(_: Any) -> None:
        name = draft.new_name.strip()
        if not name:
            app.tell(app.t("app.players.name_empty"), "error")
            app.render()
            return
        known = {p.name for p in profiles}
        if name not in known and app.guard(lambda: app.service.add_player(name)) is None:
            app.render()
            return
        if name not in draft.seats:
            draft.seats.append(name)
        draft.new_name = ""
        app.notice = None
        app.render()

    name_field = ft.TextField(label=app.t("app.setup.new_player"), value=draft.new_name, on_change=set_name,
                              on_submit=add_new, text_size=ui.FONT_BODY, width=360, max_length=40,
                              counter=None)
    add_row = ft.Row([
        ui.tid("new-player-name", name_field),
        ui.button(app.t("app.setup.add_player"), add_new, ident="new-player-add", icon=ft.Icons.PERSON_ADD),
    ], wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    parts.append(_section(app.t("app.setup.players"), ft.Column([
        ui.wrap(profile_chips), add_row,
        *([ui.muted(app.t("app.setup.player_count", count=len(draft.seats),
                          low=PLAYER_COUNTS[draft.game][0], high=PLAYER_COUNTS[draft.game][1]),
                    ident="setup-count")] if draft.game else []),
    ], spacing=ui.GAP), "setup-players"))

    if draft.seats:
        parts.append(_section(app.t("app.setup.seating"), _seating(app, draft), "setup-seating"))

    # 4. assist
    def toggle_assist(e: Any) -> None:
        draft.assist = bool(e.control.value)
        app.render()

    assist_title, assist_meaning = _assist_keys(draft.game, draft.assist)
    assist = ft.Row([
        ui.tid("assist-switch", ft.Switch(value=draft.assist, on_change=toggle_assist, scale=1.3)),
        ft.Column([
            ui.text(app.t(assist_title), ui.FONT_BODY, weight=ft.FontWeight.W_600),
            ui.muted(app.t(assist_meaning)),
        ], spacing=2, expand=True),
    ], spacing=ui.GAP)
    parts.append(_section(app.t("app.setup.options"), assist, "setup-options"))

    # 5. start
    def start(_: Any) -> None:
        if draft.game is None:
            app.tell(app.t("app.setup.pick_game"), "error")
            app.render()
            return
        state = app.guard(lambda: app.service.start(
            draft.game, list(draft.seats), first_player=draft.first or (draft.seats[0] if draft.seats else None),
            variant=dict(draft.variant) or None, assist=draft.assist))
        if state is None:
            app.render()
            return
        app.drafts.pop("setup", None)
        app.announce(state.session_id)
        app.replace("table", session_id=state.session_id)

    parts.append(ui.button(app.t("app.setup.start"), start, ident="setup-start", icon=ft.Icons.PLAY_ARROW,
                           kind="primary", height=80, size=ui.FONT_TITLE - 4))
    return app.t("app.setup.title"), ft.Column(parts, spacing=ui.GAP)


def _seating(app, draft: Draft) -> ft.Control:
    first = draft.first or draft.seats[0]

    def move(name: str, step: int):
        def handler(_: Any) -> None:
            i = draft.seats.index(name)
            j = i + step
            if 0 <= j < len(draft.seats):
                draft.seats[i], draft.seats[j] = draft.seats[j], draft.seats[i]
            app.render()
        return handler

    def make_first(name: str):
        def handler(_: Any) -> None:
            draft.first = name
            app.render()
        return handler

    def remove(name: str):
        def handler(_: Any) -> None:
            draft.seats.remove(name)
            if draft.first == name:
                draft.first = None
            app.render()
        return handler

    rows = []
    for i, name in enumerate(draft.seats):
        starts = name == first
        rows.append(ui.panel(ft.Row([
            ui.text(str(i + 1), ui.FONT_TITLE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
            ui.text(name, ui.FONT_LABEL, weight=ft.FontWeight.W_600, expand=True, ident=f"seat-{i}"),
            ui.chip(app.t("app.setup.starts") if starts else app.t("app.setup.make_first"), make_first(name),
                    ident=f"first-{name}", selected=starts,
                    icon=ft.Icons.FLAG if starts else ft.Icons.OUTLINED_FLAG),
            ui.icon_button(ft.Icons.ARROW_UPWARD, move(name, -1), ident=f"seat-up-{name}",
                           tooltip=app.t("app.setup.move_up"), disabled=i == 0),
            ui.icon_button(ft.Icons.ARROW_DOWNWARD, move(name, 1), ident=f"seat-down-{name}",
                           tooltip=app.t("app.setup.move_down"), disabled=i == len(draft.seats) - 1),
            ui.icon_button(ft.Icons.CLOSE, remove(name), ident=f"seat-remove-{name}",
                           tooltip=app.t("app.setup.remove")),
        ], spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER), padding=8,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))
    return ft.Column([ui.muted(app.t("app.setup.seating_help")), *rows], spacing=8)


def _section(heading: str, body: ft.Control, ident: str) -> ft.Control:
    return ui.panel(ft.Column([ui.subtitle(heading), body], spacing=12), ident=ident)
