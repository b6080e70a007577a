"""New game: the game and its variants, the players (saved profiles or new ones) in seating order,
who starts, Boursicocotte's short version (the animals dealt face up to each player) and the assist
setting. The service checks everything when the game starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.games import playable_games, screen_for
from models.games import PLAYER_COUNTS, SPEC_OF
from models.names import MAX_LENGTH, BadName, clean_name, find_same, known_as

if TYPE_CHECKING:
    from companion.app.shell import App


@dataclass
class Draft:
    game: str | None = None
    variant: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)     # chosen players, clockwise
    first: str | None = None
    assist: bool = False
    new_name: str = ""
    short: bool = False                                 # the short version: animals dealt at the start
    deal: dict[str, list[str]] = field(default_factory=dict)  # player → animals dealt face up
    dealing: str | None = None                          # whose animals the next tap deals
    renaming: str | None = None                         # the seated player being renamed
    rename_to: str = ""


def deal_choices(game: str | None) -> tuple[str, ...]:
    """The cards a dealt start deals for ``game`` (Boursicocotte's animals, cheapest first: its
    spec's ``cards["start"]``), or () when the game has no dealt start."""
    return tuple(SPEC_OF[game].cards.get("start", ())) if game else ()


def house_choices(game: str, key: str) -> tuple[Any, ...]:
    """The choices of ``key`` that depart from the game's rulebook (house variants)."""
    return next((spec.house_for(game) for spec in SPEC_OF[game].variants if spec.key == key), ())


def variant_choices(game: str, players: int | None = None) -> list[tuple[str, tuple[Any, ...], Any]]:
    """(key, values, default) for every variant key the game's spec declares (its ``variants``)
    that the table picks from a list (a key allowed only with some player counts: once ``players``
    is one of them). The default is what the engine applies when the key is left out."""
    count = players if players is not None else PLAYER_COUNTS[game][0]
    return [(spec.key, tuple(spec.choices), spec.default_for(game, count)) for spec in SPEC_OF[game].variants
            if spec.choices is not None and (spec.games is None or game in spec.games)
            and (spec.players is None or players in spec.players)]


def variant_word(value: Any) -> str:
    """A variant value as catalogue keys and test identifiers spell it ("replay", "true", "3")."""
    import json

    return value if isinstance(value, str) else json.dumps(value)


def number_variants(game: str, players: int) -> list[tuple[str, int, int]]:
    """(key, minimum, default for this many players) for every whole-number variant key of
    ``game`` (e.g. Monte & descend's number of deals), from its spec's VariantSpec."""
    return [(spec.key, spec.minimum or 0, spec.default_for(game, players))
            for spec in SPEC_OF[game].variants if spec.choices is None]


def _assist_keys(game: str | None, on: bool) -> tuple[str, str]:
    """The switch's title and its explanation: what assist means depends on the game (money
    left, cards in hand, choices greyed out)."""
    if not game:
        return "app.setup.assist", "app.setup.assist_on" if on else "app.setup.assist_off"
    return f"app.setup.assist.{game}", f"app.setup.assist_on.{game}" if on else f"app.setup.assist_off.{game}"


def _draft(app: App) -> Draft:
    draft = app.drafts.get("setup")
    if draft is None:
        draft = app.drafts["setup"] = Draft()
        games = playable_games()
        if len(games) == 1:
            draft.game = games[0]
    return draft


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    draft = _draft(app)
    parts: list[ft.Control] = []

    # 1. the game
    games = playable_games()

    def pick_game(game: str) -> ui.Handler:
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
        for key, values, default in variant_choices(draft.game, len(draft.seats) or None):
            chosen = draft.variant.get(key, default)
            house = house_choices(draft.game, key)

            def pick(key: str, value: Any) -> ui.Handler:
                def handler(_: Any) -> None:
                    draft.variant[key] = value
                    app.render()
                return handler

            options = [
                ui.tile(ft.Column([
                    ui.text(app.t(f"variant.{draft.game}.{key}.{variant_word(value)}"), ui.FONT_BODY),
                    *([ui.muted(app.t("app.setup.variant_default"))] if value == default else []),
                    *([ui.muted(app.t("app.rules.kind.house"), ident=f"variant-house-{key}-{variant_word(value)}")]
                      if value in house else []),
                ], spacing=2, tight=True), pick(key, value), ident=f"variant-{key}-{variant_word(value)}",
                    selected=chosen == value and type(chosen) is type(value), width=420, padding=14)
                for value in values
            ]
            rows.append(ui.text(app.t(f"variant.{draft.game}.{key}"), ui.FONT_BODY, weight=ft.FontWeight.W_600))
            rows.append(ui.wrap(options))
        low_count = PLAYER_COUNTS[draft.game][0]
        for key, minimum, default in number_variants(draft.game, max(len(draft.seats), low_count)):
            rows.append(ui.text(app.t(f"variant.{draft.game}.{key}"), ui.FONT_BODY, weight=ft.FontWeight.W_600))
            rows.append(_number_row(app, draft, key, minimum, default))
        if rows:
            parts.append(_section(app.t("app.setup.variants"), ft.Column(rows, spacing=10), "setup-variants"))

    # 3. players: saved profiles, a new one, seating order
    profiles = app.guard(app.service.players) or []

    def toggle(name: str) -> ui.Handler:
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
        if not draft.new_name.strip():
            app.tell(app.t("app.players.name_empty"), "error")
            app.render()
            return
        try:
            name = clean_name(draft.new_name)
        except BadName as err:
            app.tell(app.say(err.msg), "error")
            app.render()
            return
        known = known_as(name, [p.name for p in profiles])  # "anne" (or « ａｎｎｅ ») is the saved Anne
        if known is not None:
            name = known
        else:
            added = app.guard(lambda: app.service.add_player(name))
            if added is None:  # refused: the service's sentence (a look-alike names the other player)
                app.render()
                return
            name = added.name  # as kept (NFKC)
        if find_same(name, draft.seats) is None:
            draft.seats.append(name)
        draft.new_name = ""
        app.notice = None
        app.render()

    name_field = ft.TextField(label=app.t("app.setup.new_player"), value=draft.new_name, on_change=set_name,
                              on_submit=add_new, text_size=ui.FONT_BODY, width=360, max_length=MAX_LENGTH,
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

    # 4. a game's own set-up (Boursicocotte's dealt animals): its screen's build_setup -> (heading, body, ident)
    screen = screen_for(draft.game) if draft.game else None
    own = screen.build_setup(app, draft) if screen is not None else None
    if own is not None:
        parts.append(_section(*own))

    # 5. assist
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

    # 6. start
    def start(_: Any) -> None:
        if draft.game is None:
            app.tell(app.t("app.setup.pick_game"), "error")
            app.render()
            return
        setup = None
        if draft.short and deal_choices(draft.game):
            # every seated player, dealt or not: the record models say what is missing
            setup = {"start_animals": {name: list(draft.deal.get(name, [])) for name in draft.seats}}
        from companion.service import Malformed

        game: str = draft.game
        # only the keys offered for this many players (a key chosen before the seats changed stays out)
        count = len(draft.seats) or None
        offered = {key for key, _, _ in variant_choices(game, count)}
        offered |= {key for key, _, _ in number_variants(game, max(count or 0, PLAYER_COUNTS[game][0]))}
        variant = {key: value for key, value in draft.variant.items() if key in offered}

        def call() -> Any:
            try:
                return app.service.start(
                    game, list(draft.seats), first_player=draft.first or (draft.seats[0] if draft.seats else None),
                    variant=variant or None, assist=draft.assist, setup=setup, table=app.table_name)
            except Malformed as err:   # said in the table's words: what to change on this screen
                app.tell(what_to_fix(app, game, err), "error")
                return None

        state = app.guard(call)
        if state is None:
            app.render()
            return
        app.drafts.pop("setup", None)
        app.announce(state.session_id)
        app.replace("table", session_id=state.session_id)

    # The start stays in view below the set-up, which scrolls above it: at 1280×800 it sat two
    # scrolls down once the players and the options were on screen.
    go = ui.button(app.t("app.setup.start"), start, ident="setup-start", icon=ft.Icons.PLAY_ARROW,
                   kind="primary", height=64 if app.narrow else 80, size=ui.FONT_TITLE - 4)
    return app.t("app.setup.title"), ft.Column([
        ft.Column(parts, spacing=ui.GAP, scroll=ft.ScrollMode.AUTO, expand=True), go,
    ], spacing=ui.GAP, expand=True)


def _number_row(app: App, draft: Draft, key: str, minimum: int, default: int) -> ft.Control:
    """A whole-number variant: − value +; left alone, the engine's default (which may follow the
    number of players) is used and said."""
    chosen = draft.variant.get(key)
    shown = chosen if chosen is not None else default

    def step(delta: int) -> ui.Handler:
        def handler(_: Any) -> None:
            draft.variant[key] = max(minimum, shown + delta)
            app.render()
        return handler

    def reset(_: Any) -> None:
        draft.variant.pop(key, None)
        app.render()

    parts: list[ft.Control] = [
        ui.icon_button(ft.Icons.REMOVE, step(-1), ident=f"variant-{key}-less", tooltip=app.t("app.setup.number_less"),
                       disabled=shown <= minimum),
        ui.text(str(shown), ui.FONT_TITLE, weight=ft.FontWeight.BOLD, ident=f"variant-{key}-value"),
        ui.icon_button(ft.Icons.ADD, step(1), ident=f"variant-{key}-more", tooltip=app.t("app.setup.number_more")),
    ]
    if chosen is None:
        parts.append(ui.muted(app.t(f"variant.{draft.game}.{key}.default")))
    else:
        parts.append(ui.chip(app.t(f"variant.{draft.game}.{key}.default"), reset, ident=f"variant-{key}-default"))
    return ft.Row(parts, wrap=True, spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER)


# The record models' set-up problems, as the set-up screen says them: what to change here, with the
# game's name and the animals' names (never a field name or a game id).
FIXES = {
    "record.blank_player": "app.setup.fix.blank_player",
    "record.player_twice": "app.setup.fix.player_twice",
    "record.first_player": "app.setup.fix.first_player",
    "record.start_player": "app.setup.fix.start_player",
    "record.start_count": "app.setup.fix.start_count",
    "record.start_missing": "app.setup.fix.start_missing",
    "record.start_too_many": "app.setup.fix.start_too_many",
}


def what_to_fix(app: App, game: str, err: Any) -> str:
    """The sentence for a game that cannot start as set up. Problems the screen can cause have their
    own sentence; anything else keeps the service's (already in the table's language)."""
    from models.i18n import Msg

    detail = err.msg.params.get("detail") if isinstance(err.msg.params, dict) else None
    if not isinstance(detail, Msg):
        return app.say(err.msg)
    params = {k: v.strip("'\"") if isinstance(v, str) else v for k, v in detail.params.items()}
    if detail.key == "record.player_count":
        key = "app.setup.fix.too_few" if params["count"] < params["low"] else "app.setup.fix.too_many"
        return app.t(key, game=app.t(f"game.{game}.name"), low=params["low"], high=params["high"],
                     count=params["count"])
    if detail.key not in FIXES:
        return app.say(err.msg)
    if "animal" in params:  # a dealt start's animal (the record names its id): the animal's name
        params["animal"] = Msg(f"bc.animal.{params['animal']}")
    return app.t(FIXES[detail.key], **params)


def _seating(app: App, draft: Draft) -> ft.Control:
    first = draft.first or draft.seats[0]

    def move(name: str, step: int) -> ui.Handler:
        def handler(_: Any) -> None:
            i = draft.seats.index(name)
            j = i + step
            if 0 <= j < len(draft.seats):
                draft.seats[i], draft.seats[j] = draft.seats[j], draft.seats[i]
            app.render()
        return handler

    def make_first(name: str) -> ui.Handler:
        def handler(_: Any) -> None:
            draft.first = name
            app.render()
        return handler

    def remove(name: str) -> ui.Handler:
        def handler(_: Any) -> None:
            draft.seats.remove(name)
            if draft.first == name:
                draft.first = None
            app.render()
        return handler

    def start_rename(name: str) -> ui.Handler:
        def handler(_: Any) -> None:
            draft.renaming, draft.rename_to = name, name
            app.render()
        return handler

    def set_rename(e: Any) -> None:
        draft.rename_to = e.control.value or ""

    def cancel_rename(_: Any) -> None:
        draft.renaming = None
        app.render()

    def rename(_: Any) -> None:
        old, new = draft.renaming, draft.rename_to.strip()
        if old is None or old not in draft.seats:
            draft.renaming = None
        elif not new:
            app.tell(app.t("app.players.name_empty"), "error")
        elif new != old and new in draft.seats:
            app.tell(app.t("app.setup.rename_taken", name=new), "error")
        else:
            draft.seats[draft.seats.index(old)] = new
            if draft.first == old:
                draft.first = new
            if old in draft.deal:
                draft.deal[new] = draft.deal.pop(old)
            if draft.dealing == old:
                draft.dealing = new
            draft.renaming = None
            app.notice = None
        app.render()

    rows = []
    for i, name in enumerate(draft.seats):
        starts = name == first
        if name == draft.renaming:
            rows.append(ui.panel(ft.Row([
                ui.text(str(i + 1), ui.FONT_TITLE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
                ui.tid("seat-rename-field", ft.TextField(
                    label=app.t("app.setup.rename_label", name=name), value=draft.rename_to, on_change=set_rename,
                    on_submit=rename, text_size=ui.FONT_BODY, width=300, max_length=40, autofocus=True)),
                ui.button(app.t("app.setup.rename_ok"), rename, ident="seat-rename-ok", icon=ft.Icons.CHECK,
                          kind="primary", size=ui.FONT_BODY),
                ui.button(app.t("app.common.cancel"), cancel_rename, ident="seat-rename-cancel", kind="text",
                          size=ui.FONT_BODY),
            ], spacing=10, wrap=True, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER), padding=8,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))
            continue
        who: list[ft.Control] = [
            ui.text(str(i + 1), ui.FONT_TITLE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
            ui.text(name, ui.FONT_LABEL, weight=ft.FontWeight.W_600, expand=True, ident=f"seat-{i}"),
            ui.icon_button(ft.Icons.EDIT, start_rename(name), ident=f"seat-rename-{name}",
                           tooltip=app.t("app.setup.rename", name=name)),
        ]
        tools: list[ft.Control] = [
            ui.chip(app.t("app.setup.starts") if starts else app.t("app.setup.make_first"), make_first(name),
                    ident=f"first-{name}", selected=starts,
                    icon=ft.Icons.FLAG if starts else ft.Icons.OUTLINED_FLAG),
            ui.icon_button(ft.Icons.ARROW_UPWARD, move(name, -1), ident=f"seat-up-{name}",
                           tooltip=app.t("app.setup.move_up"), disabled=i == 0),
            ui.icon_button(ft.Icons.ARROW_DOWNWARD, move(name, 1), ident=f"seat-down-{name}",
                           tooltip=app.t("app.setup.move_down"), disabled=i == len(draft.seats) - 1),
            ui.icon_button(ft.Icons.CLOSE, remove(name), ident=f"seat-remove-{name}",
                           tooltip=app.t("app.setup.remove")),
        ]
        # One line on a tablet; on a phone the seat's tools go on a second line (an expanding name
        # cannot sit in a wrapping row).
        line: ft.Control = (ft.Column([ft.Row(who, spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                                       ft.Row(tools, spacing=10, wrap=True, run_spacing=4)], spacing=4)
                            if app.narrow else
                            ft.Row(who + tools, spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        rows.append(ui.panel(line, padding=8, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))
    return ft.Column([ui.muted(app.t("app.setup.seating_help")), *rows], spacing=8)


def _section(heading: str, body: ft.Control, ident: str) -> ft.Control:
    return ui.panel(ft.Column([ui.subtitle(heading), body], spacing=12), ident=ident)
