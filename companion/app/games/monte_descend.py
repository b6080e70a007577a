"""Monte & descend (AMIGO, 1998) at the table.

The pile is always in view: the top card large, the value to follow, the direction as a big arrow
(Material icons: the offline web client has no symbol font), who plays, the deal, the reserve and
how many times it can still be rebuilt, and every player's hand count (hands are hidden: counts are
public at the table). Banners say when a skip just passed someone over, when a take is waiting and
when the player to act has a free play.

Entering a play: the card pad (colour, then for a yellow its action, then the value 1–20); a series
is entered card by card — the values that could still follow are highlighted (the engine's
``fits``) but every value stays on offer: the engine refuses a wrong one with its rule and what was
allowed. The direction question appears only when the first card lets the player choose (the
engine's ``chooses_direction``). One Confirm sends the play. Draw and Pass (after a draw) are one
tap; a take is entered by tapping the players taken from. The score sheet (deals × players, +5 and
−n, running totals, who starts each deal, the final ranking) is one tap away.

Everything shown comes from the engine's documented public state (scoring/monte_descend.py).
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.app import ui
from companion.app.games import TableContext, TableState
from models.games.monte_descend import MD_ACTIONS, MD_VALUES
from models.i18n import Msg
from scoring.monte_descend import Card, Colour, Direction, MonteDescendEngine, Phase, card

State = TableState[MonteDescendEngine]  # what this screen reads: the table, with this game's engine

COLOURS = ("b", "r", "y")
# (background, text) per colour: fixed, readable on the light and the dark theme alike
FACE = {
    Colour.BLUE: (ft.Colors.BLUE_700, ft.Colors.WHITE),
    Colour.RED: (ft.Colors.RED_700, ft.Colors.WHITE),
    Colour.YELLOW: (ft.Colors.AMBER_400, ft.Colors.BLACK),
}
ACTION_ICONS = {
    "skip": ft.Icons.BLOCK,
    "take": ft.Icons.BACK_HAND,
    "pass": ft.Icons.SWAP_HORIZ,
    "chaos": ft.Icons.SHUFFLE,
}


def build(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    parts: list[ft.Control] = [_pile_block(state, ctx), *_banners(state, ctx), _hands_block(state, ctx)]
    if not ctx.readonly and state.outcome is None and not engine.state.over:
        phase = engine.table.phase
        if phase is Phase.TAKE:
            parts.append(_take_block(state, ctx))
        if phase is not Phase.TAKE or engine.take_stacking:
            parts.append(_pad_block(state, ctx))
    parts.append(_sheet_block(state, ctx))
    return ft.Column(parts, spacing=ui.GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


# -- cards -----------------------------------------------------------------------------------------


def card_face(ctx: TableContext, c: Card, *, scale: float = 1.0) -> ft.Control:
    bg, fg = FACE[c.colour]
    lines: list[ft.Control] = [ft.Text(str(c.value), size=44 * scale, weight=ft.FontWeight.BOLD, color=fg)]
    if c.colour is Colour.YELLOW and c.action is not None:
        lines.append(ft.Icon(ACTION_ICONS[c.action], size=max(16, 30 * scale), color=fg))
        if scale >= 0.8:
            lines.append(ft.Text(ctx.t(f"md.action.{c.action}"), size=max(12, 15 * scale), color=fg,
                                 text_align=ft.TextAlign.CENTER, max_lines=2))
    else:
        arrow = ft.Icons.ARROW_UPWARD if c.colour is Colour.BLUE else ft.Icons.ARROW_DOWNWARD
        lines.append(ft.Icon(arrow, size=max(16, 30 * scale), color=fg))
    return ft.Container(
        ft.Column(lines, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER,
                  spacing=0, tight=True),
        width=110 * scale, height=150 * scale, bgcolor=bg, border_radius=12 * scale,
        border=ft.Border.all(max(2, 4 * scale), ft.Colors.OUTLINE), alignment=ft.Alignment.CENTER, padding=4)


# -- the pile --------------------------------------------------------------------------------------


def _pile_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    t = engine.table
    over = engine.state.over
    if t.top is not None:
        top: ft.Control = ui.tid(ctx.ident("md-top-card"), card_face(ctx, t.top, scale=1.3),
                                 label=ctx.say(t.top.msg))
    else:
        top = ui.tid(ctx.ident("md-top-card"), ft.Container(
            ft.Icon(ft.Icons.STYLE, size=56, color=ft.Colors.ON_SURFACE_VARIANT), width=143, height=195,
            border=ft.Border.all(3, ft.Colors.OUTLINE), border_radius=14, alignment=ft.Alignment.CENTER))
    info: list[ft.Control] = [ft.Row([
        ui.text(ctx.t("app.md.deal", n=t.number, of=engine.deals), ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                ident=ctx.ident("md-deal")),
        ui.muted(ctx.t("app.md.reserve", n=t.reserve), ident=ctx.ident("md-reserve")),
        ui.muted(ctx.t(f"app.md.reshuffles.{engine.reshuffles_left}"), ident=ctx.ident("md-reshuffles")),
    ], wrap=True, spacing=18, run_spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if t.top is not None and t.direction is not None:
        up = t.direction is Direction.UP
        colour = ft.Colors.BLUE_700 if up else ft.Colors.RED_700
        info.append(ft.Row([
            ui.text(ctx.t("app.md.value", value=t.top.value), ui.FONT_HUGE, weight=ft.FontWeight.BOLD,
                    ident=ctx.ident("md-value")),
            ui.tid(ctx.ident("md-direction"), ft.Row([
                ft.Icon(ft.Icons.ARROW_UPWARD if up else ft.Icons.ARROW_DOWNWARD, size=72, color=colour),
                ft.Text(ctx.t(f"md.dir.{t.direction.value}"), size=ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                        color=colour),
            ], spacing=6, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)),
        ], wrap=True, spacing=24, run_spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        if t.top_owner is not None:
            info.append(ui.muted(ctx.t("app.md.laid_by", player=t.top_owner), ident=ctx.ident("md-laid-by")))
    else:
        info.append(ui.text(ctx.t("app.md.pile_empty"), ui.FONT_LABEL, ident=ctx.ident("md-pile-empty")))
    if not over:
        info.append(ui.text(ctx.t("app.md.turn", player=t.turn), ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                            color=ft.Colors.PRIMARY, ident=ctx.ident("md-turn")))
    return ui.panel(ft.Row([top, ft.Column(info, spacing=8, expand=True)], spacing=24,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER), ident=ctx.ident("md-pile"))


def _banners(state: State, ctx: TableContext) -> list[ft.Control]:
    engine = state.engine
    t = engine.table
    if engine.state.over:
        return []
    out: list[ft.Control] = []
    if t.phase is Phase.TAKE:
        key = "app.md.banner.take_two" if len(state.players) > 2 else "app.md.banner.take_one"
        out.append(_banner(ctx, "md-banner-take", ft.Icons.BACK_HAND,
                           ctx.t(key, player=t.turn, each=ctx.say(_n_cards(t.take_count)))))
    if t.skipped is not None:
        out.append(_banner(ctx, "md-banner-skip", ft.Icons.BLOCK,
                           ctx.t("app.md.banner.skip", player=t.skipped)))
    if t.chaos is not None:  # the hands were just dealt out again equally (until the next entry)
        each, under = t.chaos
        if under:
            sentence = ctx.t("app.md.banner.chaos_under", each=ctx.say(_n_cards(each)),
                             under=ctx.say(_n_cards(under)), reserve=t.reserve)
        else:
            sentence = ctx.t("app.md.banner.chaos", each=ctx.say(_n_cards(each)))
        out.append(_banner(ctx, "md-banner-chaos", ft.Icons.SHUFFLE, sentence))
    if engine.free_play:
        key = "app.md.banner.first" if t.top is None else "app.md.banner.free"
        out.append(_banner(ctx, "md-banner-free", ft.Icons.LOCK_OPEN, ctx.t(key, player=t.turn)))
    if t.phase is Phase.DRAWN:
        out.append(_banner(ctx, "md-banner-drawn", ft.Icons.FILE_DOWNLOAD,
                           ctx.t("app.md.banner.drawn", player=t.turn)))
    return out


def _banner(ctx: TableContext, ident: str, icon: ft.IconData, sentence: str) -> ft.Control:
    return ui.tid(ctx.ident(ident), ft.Container(ft.Row([
        ft.Icon(icon, size=36, color=ft.Colors.ON_TERTIARY_CONTAINER),
        ft.Text(sentence, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_TERTIARY_CONTAINER,
                expand=True),
    ], spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER), bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=14, border_radius=ui.RADIUS))


def _n_cards(n: int) -> Msg:
    return Msg(f"md.n_cards.{'one' if n == 1 else 'many'}", {"n": n})


def _hands_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    t = engine.table
    tiles: list[ft.Control] = []
    for player in state.players:
        current = player == t.turn and not engine.state.over
        box = ft.Container(ft.Column([
            ft.Row([ft.Icon(ft.Icons.PLAY_ARROW if current else ft.Icons.PERSON, size=26,
                            color=ft.Colors.PRIMARY if current else None),
                    ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True)],
                   spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ft.Text(ctx.say(_n_cards(t.hands[player])), size=ui.FONT_TITLE, weight=ft.FontWeight.BOLD),
            ui.muted(ctx.t("app.md.hand_total", total=_signed(engine.state.totals[player])),
                     ident=ctx.ident(f"md-hand-total-{player}")),
        ], spacing=2, tight=True), padding=12, width=190, border_radius=ui.RADIUS,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if current else ft.Colors.SURFACE_CONTAINER_HIGH,
            border=ft.Border.all(3 if current else 1, ft.Colors.PRIMARY if current else ft.Colors.OUTLINE_VARIANT))
        tiles.append(ui.tid(ctx.ident(f"md-hand-{player}"), box))
    return ft.Row(tiles, wrap=True, spacing=12, run_spacing=12)


# -- the take --------------------------------------------------------------------------------------


def _take_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    t = engine.table
    victims: list[str] = ctx.draft.setdefault("victims", [])
    need = min(2, len(state.players) - 1)
    chips = [ui.chip(ctx.t("app.md.take_from", player=p, n=t.hands[p]), ctx.toggler(victims, p),
                     ident=ctx.ident(f"md-from-{p}"), selected=p in victims)
             for p in state.players if p != t.turn]

    def confirm(_: Any) -> None:
        ctx.submit({"type": "take", "player": t.turn, "from": list(victims), "count": t.take_count})

    key = "app.md.take_title_two" if need == 2 else "app.md.take_title_one"
    return ui.panel(ft.Column([
        ui.subtitle(ctx.t(key, player=t.turn, each=ctx.say(_n_cards(t.take_count)))),
        ui.wrap(chips),
        ui.button(ctx.t("app.md.take_confirm", player=t.turn), confirm, ident=ctx.ident("md-take-confirm"),
                  icon=ft.Icons.BACK_HAND, kind="primary", disabled=not victims, height=72),
    ], spacing=12), ident=ctx.ident("md-take"))


# -- the card pad ----------------------------------------------------------------------------------


def _card_id(colour: str, value: int, action: str) -> str:
    return f"y{value}-{action}" if colour == "y" else f"{colour}{value}"


def _pad_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    t = engine.table
    player = t.turn
    d = ctx.draft
    series: list[str] = d.setdefault("series", [])
    colour: str = d.setdefault("colour", "b")
    action: str = d.setdefault("action", "skip")
    chooses = bool(series) and engine.chooses_direction(series[0])
    direction: str | None = d.get("direction") if chooses else None
    drawn = t.phase is Phase.DRAWN

    def set_draft(key: str, value: Any) -> ui.Handler:
        def handler(_: Any) -> None:
            d[key] = value
            ctx.refresh()
        return handler

    def add(card_id: str) -> ui.Handler:
        def handler(_: Any) -> None:
            series.append(card_id)
            ctx.refresh()
        return handler

    def remove(index: int) -> ui.Handler:
        def handler(_: Any) -> None:
            del series[index:]
            if not series:
                d.pop("direction", None)
            ctx.refresh()
        return handler

    def clear(_: Any) -> None:
        series.clear()
        d.pop("direction", None)
        ctx.refresh()

    def confirm(_: Any) -> None:
        entry: dict[str, Any] = {"type": "play", "player": player, "cards": list(series)}
        if direction is not None:
            entry["direction"] = direction
        ctx.submit(entry)

    colour_chips = [ui.chip(ctx.t(f"app.md.colour.{c}"), set_draft("colour", c), ident=ctx.ident(f"md-colour-{c}"),
                            selected=c == colour) for c in COLOURS]
    rows: list[ft.Control] = [
        ui.subtitle(ctx.t("app.md.pad_title_drawn" if drawn else "app.md.pad_title", player=player)),
        ui.wrap(colour_chips),
    ]
    if colour == "y":
        rows.append(ui.wrap([ui.chip(ctx.t(f"md.action.{a}"), set_draft("action", a), ident=ctx.ident(f"md-action-{a}"),
                                     selected=a == action, icon=ACTION_ICONS[a]) for a in MD_ACTIONS]))
    bg, fg = FACE[Colour(colour)]
    values: list[ft.Control] = []
    for value in MD_VALUES:
        card_id = _card_id(colour, value, action)
        possible = engine.fits([*series, card_id], direction)
        box = ft.Container(
            ft.Text(str(value), size=26, weight=ft.FontWeight.BOLD if possible else None,
                    color=fg if possible else ft.Colors.ON_SURFACE),
            on_click=add(card_id), width=74, height=ui.TOUCH, alignment=ft.Alignment.CENTER, border_radius=10,
            ink=True, bgcolor=bg if possible else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border=ft.Border.all(3 if possible else 1, ft.Colors.PRIMARY if possible else ft.Colors.OUTLINE_VARIANT))
        values.append(ui.tid(ctx.ident(f"md-value-{value}"), box, button=True, selected=possible,
                             label=ctx.say(card(card_id).msg)))
    rows.append(ft.Row(values, wrap=True, spacing=6, run_spacing=6))
    rows.append(ui.muted(ctx.t("app.md.highlight_hint"), ident=ctx.ident("md-highlight-hint")))

    # the series entered so far
    if series:
        laid: list[ft.Control] = [ui.tid(ctx.ident(f"md-series-{i}"), ft.Container(card_face(ctx, card(c), scale=0.5),
                                                                  on_click=remove(i), ink=True, border_radius=8),
                       button=True, label=ctx.t("app.md.remove_from", card=ctx.say(card(c).msg)))
                for i, c in enumerate(series)]
        rows.append(ui.tid(ctx.ident("md-series"), ft.Row(laid, wrap=True, spacing=8, run_spacing=8)))
        rows.append(ui.text(ctx.t("app.md.series_line", cards=tuple(card(c).msg for c in series)), ui.FONT_BODY,
                            ident=ctx.ident("md-series-line")))
    else:
        rows.append(ui.muted(ctx.t("app.md.series_empty"), ident=ctx.ident("md-series-empty")))

    if chooses:
        rows.append(ui.tid(ctx.ident("md-direction-question"), ft.Column([
            ui.subtitle(ctx.t("app.md.direction_question", player=player)),
            ui.wrap([
                ui.chip(ctx.t("md.dir.up"), set_draft("direction", "up"), ident=ctx.ident("md-dir-up"),
                        selected=direction == "up", icon=ft.Icons.ARROW_UPWARD),
                ui.chip(ctx.t("md.dir.down"), set_draft("direction", "down"), ident=ctx.ident("md-dir-down"),
                        selected=direction == "down", icon=ft.Icons.ARROW_DOWNWARD),
            ]),
        ], spacing=8)))

    buttons = [
        ui.button(ctx.t("app.md.confirm", cards=ctx.say(_n_cards(len(series)))) if series
                  else ctx.t("app.md.confirm_none"), confirm, ident=ctx.ident("md-confirm"), icon=ft.Icons.CHECK,
                  kind="primary", disabled=not series or (chooses and direction is None), height=72),
        ui.button(ctx.t("app.md.clear"), clear, ident=ctx.ident("md-clear"), icon=ft.Icons.BACKSPACE,
                  kind="outlined", disabled=not series, height=72),
    ]
    types = tuple(state.expected.types)
    if "draw" in types:
        buttons.append(ui.button(ctx.t("app.md.draw", player=player),
                                 lambda _: ctx.submit({"type": "draw", "player": player}),
                                 ident=ctx.ident("md-draw"), icon=ft.Icons.FILE_DOWNLOAD, height=72))
    if "pass" in types:
        buttons.append(ui.button(ctx.t("app.md.pass", player=player),
                                 lambda _: ctx.submit({"type": "pass", "player": player}),
                                 ident=ctx.ident("md-pass"), icon=ft.Icons.SKIP_NEXT, height=72))
    rows.append(ft.Row(buttons, wrap=True, spacing=ui.GAP, run_spacing=ui.GAP))
    return ui.panel(ft.Column(rows, spacing=12), ident=ctx.ident("md-pad"))


# -- the score sheet -------------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _sheet_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    over = engine.state.over
    shown = bool(ctx.draft.get("sheet")) or over or ctx.readonly

    def toggle(_: Any) -> None:
        ctx.draft["sheet"] = not ctx.draft.get("sheet")
        ctx.refresh()

    head: list[ft.Control] = [ui.subtitle(ctx.t("app.md.sheet_title"))]
    if not over and not ctx.readonly:
        head.append(ui.button(ctx.t("app.md.sheet_hide" if shown else "app.md.sheet_show"), toggle,
                              ident=ctx.ident("md-sheet-toggle"), icon=ft.Icons.TABLE_CHART, kind="outlined"))
    parts: list[ft.Control] = [ft.Row(head, wrap=True, spacing=ui.GAP,
                                      vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if shown:
        parts.append(_sheet_table(state, ctx))
    return ui.panel(ft.Column(parts, spacing=12), ident=ctx.ident("md-sheet-panel"))


CELL_W = 130


def _cell(value: str, ident: str | None = None, *, bold: bool = False, colour: str | None = None,
          width: float = CELL_W) -> ft.Control:
    control: ft.Control = ft.Container(ft.Text(value, size=ui.FONT_BODY, weight=ft.FontWeight.BOLD if bold else None,
                                               color=colour), width=width, padding=ft.Padding.symmetric(vertical=6))
    return ui.tid(ident, control) if ident else control


def _sheet_table(state: State, ctx: TableContext) -> ft.Control:
    """Deals × players: each cell the deal's points and the running total; the starter of each deal."""
    engine = state.engine
    players = tuple(state.players)
    sheet = engine.state.sheet
    header = [_cell(ctx.t("app.md.sheet_deal"), bold=True, width=80),
              _cell(ctx.t("app.md.sheet_starter"), bold=True)]
    header += [_cell(p, bold=True) for p in players]
    rows: list[ft.Control] = [ft.Row(header, spacing=8)]
    running = {p: 0 for p in players}
    for line in sheet:
        cells = [_cell(str(line.number), width=80),
                 _cell(line.starter, ctx.ident(f"md-sheet-starter-{line.number}"))]
        for p in players:
            running[p] += line.points[p]
            out = p == line.went_out
            cells.append(_cell(ctx.t("app.md.sheet_cell", points=_signed(line.points[p]), total=_signed(running[p])),
                               ctx.ident(f"md-sheet-{line.number}-{p}"), bold=out,
                               colour=ft.Colors.PRIMARY if out else None))
        rows.append(ft.Row(cells, spacing=8))
    if not engine.state.over:
        t = engine.table
        cells = [_cell(str(t.number), width=80), _cell(t.starter, ctx.ident(f"md-sheet-starter-{t.number}"))]
        cells += [_cell(ctx.t("app.md.sheet_playing")) for _ in players]
        rows.append(ft.Row(cells, spacing=8))
    totals = engine.state.totals
    cells = [_cell(ctx.t("app.md.sheet_total"), bold=True, width=80), _cell("")]
    cells += [_cell(_signed(totals[p]), ctx.ident(f"md-total-{p}"), bold=True) for p in players]
    rows.append(ft.Row(cells, spacing=8))
    parts: list[ft.Control] = [ft.Row([ft.Column(rows, spacing=0)], scroll=ft.ScrollMode.AUTO)]
    if engine.state.over:
        outcome = engine.outcome()
        assert outcome is not None  # the game is over
        lines = [ui.text(ctx.t("app.md.rank_line", rank=rank, player=p, total=_signed(totals[p])), ui.FONT_LABEL,
                         weight=ft.FontWeight.BOLD if rank == 1 else None, ident=ctx.ident(f"md-rank-{p}"))
                 for p, rank in outcome.ranking]
        parts.append(ui.tid(ctx.ident("md-ranking"), ft.Column([ui.subtitle(ctx.t("app.md.ranking")), *lines],
                                                                spacing=4)))
    else:
        parts.append(ui.muted(ctx.t("app.md.sheet_rule", deals=engine.deals), ident=ctx.ident("md-sheet-rule")))
    return ui.tid(ctx.ident("md-sheet"), ft.Column(parts, spacing=10))


def chapters(state: Any, entries: Any) -> Any:
    """A past game's chapters (companion.app.chapters): the first deal, then each one the engine
    opens after a deal's points."""
    from companion.app.chapters import chapters_of, event_keys

    return chapters_of(entries, lambda e: "deal" if "md.event.next_deal" in event_keys(e) else None, first="deal")
