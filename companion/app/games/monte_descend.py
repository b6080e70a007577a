"""Monte & descend (AMIGO, 1998) at the table.

The pile is always in view: the top card, the value to follow, the direction as a big arrow
(Material icons: the offline web client has no symbol font), who plays, the deal, the reserve and
how many times it can still be rebuilt, and every player's hand count (hands are hidden: counts are
public at the table). Banners say what the table does now: a skip just passed someone over, a take
is waiting, everyone passes a card to the left (« passe les cartes »), the hands are gathered and
dealt out again (chaos), the player to act has a free play or has just drawn.

Entering a play: the card pad, beside the pile on a tablet so that a turn needs no scrolling (on a
phone it follows the pile: one scroll) — the colour, for a yellow its action, then the value 1–20;
a series is entered card by card — the values that could still follow are highlighted (the
engine's ``fits``) but every value stays on offer: the engine refuses a wrong one with its rule and
what was allowed. The direction question appears only when the first card lets the player choose
(the engine's ``chooses_direction``), and a greyed Confirm then says that it waits for it. One
Confirm sends the play. Draw and Pass (after a draw) are one tap, under the pile; a take is entered
by tapping the players taken from, already selected when there is no choice (the only opponent, or
both others with three players). The score sheet (deals × players, +5 and −n, running totals, who
starts each deal, the final ranking) is one tap away.

Every part is kept between renders while what it shows is the same (companion.app.memo): a tap on
the pad builds the pad's part it changes, whatever the number of players; the handlers of a kept
part read the table's draft when tapped.

Everything shown comes from the engine's documented public state (scoring/monte_descend.py).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from companion.app import ui
from companion.app.games import GameScreen, GameScreenBase, TableContext, TableState
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


# On a tablet the pile and what the table has to do sit in one column and the entry in the other,
# beside it, so that every control a turn needs is in view without scrolling; on a phone they
# follow one another (the entry is one scroll away). The pile's column takes PILE_SHARE of the width.
PILE_SHARE = 2 / 5
PAD_PADDING = 12
VALUE_GAP = 6
VALUE_MIN = 52  # a value tile's least width (48 is the least any tap target gets)
VALUE_H = 52
PER_ROW = (10, 7, 5, 4)


def build(state: State, ctx: TableContext) -> ft.Control:
    """Each part is kept between renders while what it shows is the same (companion.app.memo): a tap
    on the pad builds again only the pad's part it changes, whatever the number of players."""
    engine = state.engine
    t = engine.table
    entering = not ctx.readonly and state.outcome is None and not engine.state.over
    side = entering and not ctx.compact  # the entry beside the pile
    pile = _pile_block(state, ctx)
    take = pad = moves = None
    if entering:
        # The take and the pad stay on the page and only the expected one is visible: a take, or the
        # play that calls for one, switches them and sends what changed, not the whole block coming
        # into view (the pad: 95 controls the browser built anew). The hidden one cannot be reached
        # (Flet does not render an invisible control) and holds nothing the table may not see: the
        # hidden take names the player to act, the count and the others' hand counts (public), no
        # pick; the hidden pad is the empty pad of whoever takes (hands are never shown).
        taking = t.phase is Phase.TAKE
        take = _take_block(state, ctx, shown=taking)
        pad = _pad_block(state, ctx, side, shown=not taking or engine.take_stacking)
        moves = _moves(state, ctx)
    banners = _banners(state, ctx, side=side, taking=entering and t.phase is Phase.TAKE)
    tail = [_hands_block(state, ctx), _sheet_block(state, ctx)]
    if not side:
        parts = [pile, *banners, *_present(take, pad, moves), *tail]
        return ft.Column(parts, spacing=ui.GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    if not engine.take_stacking:  # a take cannot be answered: the take is the entry, in the pad's place
        left, right = [pile, *_present(moves), *banners], [take, pad]
    else:  # with take stacking the take stays under the pile, the pad offers the answer
        left, right = [pile, *_present(moves), *banners, *_present(take)], [pad]
    columns = ft.Row([
        ft.Column(_present(*left), spacing=8, expand=2, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        ft.Column(_present(*right), spacing=12, expand=3, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
    ], spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.START)
    return ft.Column([columns, *tail], spacing=ui.GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _present(*parts: ft.Control | None) -> list[ft.Control]:
    return [p for p in parts if p is not None]


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
    inputs = (t.top, t.direction, t.top_owner, t.number, engine.deals, t.reserve, engine.reshuffles_left,
              None if over else t.turn, ctx.compact)
    return ctx.keep("md-pile", inputs, lambda: _pile(state, ctx))


def _pile(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    t = engine.table
    scale = 0.75 if ctx.compact else 0.85
    if t.top is not None:
        top: ft.Control = ui.tid(ctx.ident("md-top-card"), card_face(ctx, t.top, scale=scale),
                                 label=ctx.say(t.top.msg))
    else:
        top = ui.tid(ctx.ident("md-top-card"), ft.Container(
            ft.Icon(ft.Icons.STYLE, size=48, color=ft.Colors.ON_SURFACE_VARIANT), width=110 * scale,
            height=150 * scale, border=ft.Border.all(3, ft.Colors.OUTLINE), border_radius=12,
            alignment=ft.Alignment.CENTER))
    info: list[ft.Control] = []
    if t.top is not None and t.direction is not None:
        up = t.direction is Direction.UP
        colour = ft.Colors.BLUE_700 if up else ft.Colors.RED_700
        info.append(ui.text(ctx.t("app.md.value", value=t.top.value), ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                            ident=ctx.ident("md-value")))
        info.append(ui.tid(ctx.ident("md-direction"), ft.Row([
            ft.Icon(ft.Icons.ARROW_UPWARD if up else ft.Icons.ARROW_DOWNWARD, size=48, color=colour),
            ft.Text(ctx.t(f"md.dir.{t.direction.value}"), size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD,
                    color=colour),
        ], spacing=4, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)))
        if t.top_owner is not None:
            info.append(ui.muted(ctx.t("app.md.laid_by", player=t.top_owner), ident=ctx.ident("md-laid-by")))
    else:
        info.append(ui.text(ctx.t("app.md.pile_empty"), ui.FONT_BODY, ident=ctx.ident("md-pile-empty")))
    lines: list[ft.Control] = [
        ft.Row([top, ft.Column(info, spacing=4, expand=True)], spacing=14,
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
    ]
    if not engine.state.over:
        lines.append(ui.text(ctx.t("app.md.turn", player=t.turn), ui.FONT_TITLE - 4, weight=ft.FontWeight.BOLD,
                             color=ft.Colors.PRIMARY, ident=ctx.ident("md-turn")))
    lines.append(ft.Row([
        ui.text(ctx.t("app.md.deal", n=t.number, of=engine.deals), ui.FONT_BODY, weight=ft.FontWeight.BOLD,
                ident=ctx.ident("md-deal")),
        ui.muted(ctx.t("app.md.reserve", n=t.reserve), ident=ctx.ident("md-reserve")),
    ], wrap=True, spacing=14, run_spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    lines.append(ui.muted(ctx.t(f"app.md.reshuffles.{engine.reshuffles_left}"), ident=ctx.ident("md-reshuffles")))
    return ui.panel(ft.Column(lines, spacing=6), ident=ctx.ident("md-pile"), padding=12)


def _banners(state: State, ctx: TableContext, *, side: bool, taking: bool) -> list[ft.Control]:
    """What the table has to do now, in the words of the last entry's effect. The take's banner is
    the take panel's own head while it is entered (``taking``)."""
    engine = state.engine
    t = engine.table
    if engine.state.over:
        return []
    specs: list[tuple[str, ft.IconData, str]] = []
    summary = _deal_summary(state, ctx)
    if summary is not None:  # the deal that just ended, until the next deal's first entry
        specs.append(("md-deal-summary", ft.Icons.SCOREBOARD, summary))
    if t.phase is Phase.TAKE and not taking:
        specs.append(("md-banner-take", ft.Icons.BACK_HAND, _take_sentence(state, ctx)))
    if t.skipped is not None:
        specs.append(("md-banner-skip", ft.Icons.BLOCK, ctx.t("app.md.banner.skip", player=t.skipped)))
    if _cards_passed(state):
        specs.append(("md-banner-pass", ft.Icons.SWAP_HORIZ,
                      ctx.t("app.md.banner.pass_two" if len(state.players) == 2 else "app.md.banner.pass",
                            player=t.top_owner, turn=t.turn)))
    if t.chaos is not None:  # the hands to deal out again equally (until the next entry)
        each, under = t.chaos
        if under:
            sentence = ctx.t("app.md.banner.chaos_under", player=t.top_owner, each=ctx.say(_n_cards(each)),
                             under=ctx.say(_n_cards(under)), reserve=t.reserve)
        else:
            sentence = ctx.t("app.md.banner.chaos", player=t.top_owner, each=ctx.say(_n_cards(each)))
        specs.append(("md-banner-chaos", ft.Icons.SHUFFLE, sentence))
    if engine.free_play:
        key = "app.md.banner.first" if t.top is None else "app.md.banner.free"
        specs.append(("md-banner-free", ft.Icons.LOCK_OPEN, ctx.t(key, player=t.turn)))
    if t.phase is Phase.DRAWN:
        specs.append(("md-banner-drawn", ft.Icons.FILE_DOWNLOAD, ctx.t("app.md.banner.drawn", player=t.turn)))
    return [ctx.keep(ident, (sentence, side), partial(_banner, ctx, ident, icon, sentence, side))
            for ident, icon, sentence in specs]


def _deal_summary(state: State, ctx: TableContext) -> str | None:
    """The deal that just ended (who went out, each player's points, the running total), while the
    next deal has had no entry yet: no card on its pile, nothing drawn."""
    engine = state.engine
    t = engine.table
    sheet = engine.state.sheet
    if not sheet or sheet[-1].number != t.number - 1 or t.top is not None or t.phase is not Phase.PLAY:
        return None
    deal = sheet[-1]
    over = (ctx.t("app.md.deal_over", deal=deal.number, player=deal.went_out) if deal.went_out is not None
            else ctx.t("app.md.deal_over_reserve", deal=deal.number))
    points = [Msg("md.player_points", {"player": p, "points": f"+{n}" if n > 0 else str(n)})
              for p, n in deal.points.items()]
    totals = [Msg("md.player_points", {"player": p, "points": str(n)}) for p, n in engine.state.totals.items()]
    return "\n".join((over, ctx.t("app.md.deal_points", points=points), ctx.t("app.md.deal_totals", totals=totals)))


def _cards_passed(state: State) -> bool:
    """A « passe les cartes » has just acted: it lies on top, laid by the player before the one to
    play, who has neither drawn nor played yet (the next entry changes one or the other)."""
    engine = state.engine
    t = engine.table
    top = t.top
    return (top is not None and top.colour is Colour.YELLOW and top.action == "pass" and t.top_owner is not None
            and t.phase is Phase.PLAY and t.turn == engine.left_of(t.top_owner) and not engine.free_play)


def _banner(ctx: TableContext, ident: str, icon: ft.IconData, sentence: str, side: bool = False) -> ft.Control:
    return ui.tid(ctx.ident(ident), ft.Container(ft.Row([
        ft.Icon(icon, size=28 if side else 36, color=ft.Colors.ON_TERTIARY_CONTAINER),
        ft.Text(sentence, size=ui.FONT_BODY if side else ui.FONT_LABEL, weight=ft.FontWeight.BOLD,
                color=ft.Colors.ON_TERTIARY_CONTAINER, expand=True),
    ], spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER), bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=10 if side else 14, border_radius=ui.RADIUS))


def _n_cards(n: int) -> Msg:
    return Msg(f"md.n_cards.{'one' if n == 1 else 'many'}", {"n": n})


def _hands_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    t = engine.table
    tiles: list[ft.Control] = []
    for player in state.players:  # a tile is kept while its count, total and turn are
        current = player == t.turn and not engine.state.over
        inputs = (current, t.hands[player], engine.state.totals[player])
        tiles.append(ctx.keep(f"md-hand-{player}", inputs, partial(_hand_tile, ctx, player, *inputs)))
    return ft.Row(tiles, wrap=True, spacing=12, run_spacing=12)


def _hand_tile(ctx: TableContext, player: str, current: bool, count: int, total: int) -> ft.Control:
    box = ft.Container(ft.Column([
        ft.Row([ft.Icon(ft.Icons.PLAY_ARROW if current else ft.Icons.PERSON, size=26,
                        color=ft.Colors.PRIMARY if current else None),
                ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True)],
               spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ft.Text(ctx.say(_n_cards(count)), size=ui.FONT_TITLE, weight=ft.FontWeight.BOLD),
        ui.muted(ctx.t("app.md.hand_total", total=_signed(total)), ident=ctx.ident(f"md-hand-total-{player}")),
    ], spacing=2, tight=True), padding=12, width=190, border_radius=ui.RADIUS,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if current else ft.Colors.SURFACE_CONTAINER_HIGH,
        border=ft.Border.all(3 if current else 1, ft.Colors.PRIMARY if current else ft.Colors.OUTLINE_VARIANT))
    return ui.tid(ctx.ident(f"md-hand-{player}"), box)


# -- the take --------------------------------------------------------------------------------------


def _take_sentence(state: State, ctx: TableContext) -> str:
    t = state.engine.table
    key = "app.md.banner.take_two" if len(state.players) > 2 else "app.md.banner.take_one"
    return ctx.t(key, player=t.turn, each=ctx.say(_n_cards(t.take_count)))


def _take_block(state: State, ctx: TableContext, *, shown: bool) -> ft.Control:
    """Whom the player takes from: preselected when there is no choice (the only opponent, or both
    others with three players): one tap then. Hidden, it holds no pick and leaves the draft alone."""
    t = state.engine.table
    others = tuple(p for p in state.players if p != t.turn)
    need = min(2, len(others))
    victims: list[str] = (ctx.draft.setdefault("victims", list(others) if len(others) == need else []) if shown
                          else [])
    inputs = (t.turn, t.take_count, tuple((p, t.hands[p]) for p in others), tuple(victims), need == len(others),
              _take_sentence(state, ctx))
    return ctx.keep("md-take", (inputs, shown), lambda: _take(ctx, *inputs, shown=shown))


def _take(ctx: TableContext, player: str, count: int, others: tuple[tuple[str, int], ...],
          victims: tuple[str, ...], no_choice: bool, sentence: str, *, shown: bool) -> ft.Control:
    d = ctx.draft  # the handlers read the draft when tapped: this part may be kept across entries

    def toggle(p: str) -> ui.Handler:
        def handler(_: Any) -> None:
            picked: list[str] = d.setdefault("victims", [])
            if p in picked:
                picked.remove(p)
            else:
                picked.append(p)
            ctx.refresh()
        return handler

    def confirm(_: Any) -> None:
        ctx.submit({"type": "take", "player": player, "from": list(d.get("victims", ())), "count": count})

    chips = [ui.chip(ctx.t("app.md.take_from", player=p, n=n), toggle(p), ident=ctx.ident(f"md-from-{p}"),
                     selected=p in victims, compact=True) for p, n in others]
    lines: list[ft.Control] = [
        ui.tid(ctx.ident("md-banner-take"), ft.Text(sentence, size=ui.FONT_SMALL, weight=ft.FontWeight.W_600,
                                                    color=ft.Colors.ON_TERTIARY_CONTAINER)),
        ui.wrap(chips, spacing=6),
    ]
    each = _n_cards(count)
    lines.append(ui.button(ctx.t("app.md.take_confirm", player=player,
                                 players=tuple(Msg("app.md.take_from_one", {"player": p, "each": each})
                                               for p in victims))
                           if victims
                           else ctx.t("app.md.take_confirm_none", player=player), confirm,
                           ident=ctx.ident("md-take-confirm"), icon=ft.Icons.BACK_HAND, kind="primary",
                           disabled=not victims, size=ui.FONT_BODY))
    if not no_choice:  # under the controls: in view on a tablet whatever the number of players
        lines.append(ui.muted(ctx.t("app.md.take_choose"), ident=ctx.ident("md-take-choose")))
    block = ui.panel(ft.Column(lines, spacing=8), ident=ctx.ident("md-take"), padding=10,
                     bgcolor=ft.Colors.TERTIARY_CONTAINER)
    block.visible = shown
    return block


# -- draw and pass ---------------------------------------------------------------------------------


def _moves(state: State, ctx: TableContext) -> ft.Control | None:
    """Draw (no card fits) or pass (the card drawn does not fit either): one tap, under the pile."""
    types = tuple(state.expected.types)
    player = state.engine.table.turn
    shown = tuple(kind for kind in ("draw", "pass") if kind in types)
    if not shown:
        return None

    def enter(kind: str) -> ui.Handler:
        return lambda _: ctx.submit({"type": kind, "player": player})

    def build() -> ft.Control:
        icons = {"draw": ft.Icons.FILE_DOWNLOAD, "pass": ft.Icons.SKIP_NEXT}
        return ft.Row([ui.button(ctx.t(f"app.md.{kind}", player=player), enter(kind), ident=ctx.ident(f"md-{kind}"),
                                 icon=icons[kind], size=ui.FONT_BODY)
                       for kind in shown], wrap=True, spacing=10, run_spacing=10)
    return ctx.keep("md-moves", (player, shown), build)


# -- the card pad ----------------------------------------------------------------------------------


def _card_id(colour: str, value: int, action: str) -> str:
    return f"y{value}-{action}" if colour == "y" else f"{colour}{value}"


def value_layout(width: float | None) -> tuple[int, float] | None:
    """(values per row, each tile's width) for a pad whose part of the screen is ``width`` wide; None
    when the width is unknown (the values then wrap at a fixed width)."""
    if width is None:
        return None
    inner = width - 2 * PAD_PADDING - 2
    for n in PER_ROW:
        if inner >= n * VALUE_MIN + (n - 1) * VALUE_GAP or n == PER_ROW[-1]:
            return n, float(int((inner - (n - 1) * VALUE_GAP) / n))
    raise AssertionError("unreachable")


def pad_width(ctx: TableContext, side: bool) -> float | None:
    if ctx.width is None:
        return None
    return (ctx.width - ui.GAP) * (1 - PILE_SHARE) if side else ctx.width


def _pad_block(state: State, ctx: TableContext, side: bool, *, shown: bool = True) -> ft.Control:
    """The pad: colour (and a yellow's action), the value, the series so far, the direction when
    the player chooses it, confirm. Each is a part kept while what it shows is the same: its
    handlers read the draft when tapped."""
    engine = state.engine
    t = engine.table
    player = t.turn
    d = ctx.draft
    series: list[str] = d.setdefault("series", [])
    colour: str = d.setdefault("colour", "b")
    action: str = d.setdefault("action", "skip")
    chooses = bool(series) and engine.chooses_direction(series[0])
    direction: str | None = d.get("direction") if chooses else None
    layout = value_layout(pad_width(ctx, side))
    fits = tuple(engine.fits([*series, _card_id(colour, v, action)], direction) for v in MD_VALUES)
    rows: list[ft.Control | None] = [
        ctx.keep("md-pad-colours", (colour, layout), lambda: _colours(ctx, colour, layout)),
        # a yellow's actions stay in the pad, hidden under another colour: choosing yellow shows them
        ctx.keep("md-pad-actions", (action, layout, colour == "y"),
                 lambda: _actions(ctx, action, layout, colour == "y")),
        _values(ctx, colour, action, fits, layout),
        ctx.keep("md-pad-series", tuple(series), lambda: _series(ctx, tuple(series))),
        ctx.keep("md-pad-direction", (player, direction), lambda: _direction(ctx, player, direction))
        if chooses else None,
        ctx.keep("md-pad-confirm", (player, tuple(series), chooses, direction, ctx.compact),
                 lambda: _confirm(ctx, player, tuple(series), chooses, direction)),
        # how to enter, under the controls: the banners and the prompt say who plays and why
        ctx.keep("md-pad-hint", (), lambda: ft.Column([
            ui.muted(ctx.t("app.md.pad_how"), ident=ctx.ident("md-pad-how")),
            ui.muted(ctx.t("app.md.highlight_hint"), ident=ctx.ident("md-highlight-hint"))], spacing=4)),
    ]
    block = ui.panel(ft.Column(_present(*rows), spacing=8), ident=ctx.ident("md-pad"), padding=PAD_PADDING)
    block.visible = shown
    return block


def _set(ctx: TableContext, key: str, value: Any) -> ui.Handler:
    def handler(_: Any) -> None:
        ctx.draft[key] = value
        ctx.refresh()
    return handler


def _choice(ctx: TableContext, label: str, handler: ui.Handler, ident: str, selected: bool,
            icon: ft.IconData | None = None, *, bg: str | None = None, fg: str | None = None,
            height: float = ui.TOUCH_MIN, small: bool = False) -> ft.Control:
    """One of a few equal tiles sharing a row (a colour, an action, a direction)."""
    parts: list[ft.Control] = []
    if icon is not None:
        parts.append(ft.Icon(icon, size=22 if small else 24, color=fg))
    elif selected:
        parts.append(ft.Icon(ft.Icons.CHECK, size=24, color=fg))
    parts.append(ft.Text(label, size=13 if small else ui.FONT_BODY, color=fg, max_lines=2,
                         text_align=ft.TextAlign.CENTER,
                         weight=ft.FontWeight.BOLD if selected else ft.FontWeight.W_500))
    content: ft.Control = (ft.Column(parts, spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                                     alignment=ft.MainAxisAlignment.CENTER) if small
                           else ft.Row(parts, spacing=6, tight=True, alignment=ft.MainAxisAlignment.CENTER,
                                       vertical_alignment=ft.CrossAxisAlignment.CENTER))
    box = ft.Container(content, on_click=handler, height=height, expand=1, alignment=ft.Alignment.CENTER,
                       border_radius=10, padding=ft.Padding.symmetric(horizontal=4),
                       bgcolor=bg or (ft.Colors.PRIMARY_CONTAINER if selected else ft.Colors.SURFACE_CONTAINER_HIGH),
                       border=ft.Border.all(4 if selected else 1,
                                            ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE_VARIANT))
    return ui.tid(ident, box, button=True, selected=selected, label=label)


def _colours(ctx: TableContext, colour: str, layout: Any) -> ft.Control:
    tiles = []
    for c in COLOURS:
        bg, fg = FACE[Colour(c)]
        tiles.append(_choice(ctx, ctx.t(f"app.md.colour.{c}"), _set(ctx, "colour", c), ctx.ident(f"md-colour-{c}"),
                             c == colour, bg=bg, fg=fg))
    return ft.Row(tiles, spacing=VALUE_GAP)


def _actions(ctx: TableContext, action: str, layout: Any, shown: bool) -> ft.Control:
    return ft.Row([_choice(ctx, ctx.t(f"md.action.{a}"), _set(ctx, "action", a), ctx.ident(f"md-action-{a}"),
                           a == action, ACTION_ICONS[a], height=60, small=True) for a in MD_ACTIONS],
                  spacing=VALUE_GAP, visible=shown)


def _values(ctx: TableContext, colour: str, action: str, fits: tuple[bool, ...],
            layout: tuple[int, float] | None) -> ft.Control:
    """The twenty values, each tile kept while its card and highlight are: the second card of a
    series, or a card taken out again, builds only the tiles whose highlight changes."""
    tiles = [ctx.keep(f"md-value-{value}", (_card_id(colour, value, action), possible, layout),
                      partial(_value_tile, ctx, value, _card_id(colour, value, action), possible, layout))
             for value, possible in zip(MD_VALUES, fits)]
    if layout is None:
        return ft.Row(tiles, wrap=True, spacing=VALUE_GAP, run_spacing=VALUE_GAP)
    per_row = layout[0]
    return ft.Column([ft.Row(tiles[i:i + per_row], spacing=VALUE_GAP) for i in range(0, len(tiles), per_row)],
                     spacing=VALUE_GAP, tight=True)


def _value_tile(ctx: TableContext, value: int, card_id: str, possible: bool,
                layout: tuple[int, float] | None) -> ft.Control:
    c = card(card_id)
    bg, fg = FACE[c.colour]

    def add(_: Any) -> None:
        ctx.draft.setdefault("series", []).append(card_id)
        ctx.refresh()

    box = ft.Container(
        ft.Text(str(value), size=24, weight=ft.FontWeight.BOLD if possible else None,
                color=fg if possible else ft.Colors.ON_SURFACE),
        on_click=add, width=layout[1] if layout else 74, height=VALUE_H if layout else ui.TOUCH,
        alignment=ft.Alignment.CENTER, border_radius=10,
        bgcolor=bg if possible else ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=ft.Border.all(3 if possible else 1, ft.Colors.PRIMARY if possible else ft.Colors.OUTLINE_VARIANT))
    return ui.tid(ctx.ident(f"md-value-{value}"), box, button=True, selected=possible, label=ctx.say(c.msg))


def _series(ctx: TableContext, series: tuple[str, ...]) -> ft.Control:
    if not series:
        return ui.muted(ctx.t("app.md.series_empty"), ident=ctx.ident("md-series-empty"))

    def remove(index: int) -> ui.Handler:
        def handler(_: Any) -> None:
            laid = ctx.draft.setdefault("series", [])
            del laid[index:]
            if not laid:
                ctx.draft.pop("direction", None)
            ctx.refresh()
        return handler

    laid: list[ft.Control] = [
        ui.tid(ctx.ident(f"md-series-{i}"), ft.Container(_series_face(ctx, card(c)), on_click=remove(i),
                                                          border_radius=8),
               button=True, label=ctx.t("app.md.remove_from", card=ctx.say(card(c).msg)))
        for i, c in enumerate(series)]
    line = ui.text(ctx.t("app.md.series_line", cards=tuple(card(c).msg for c in series)), ui.FONT_BODY,
                   ident=ctx.ident("md-series-line"), expand=True)
    return ft.Row([ui.tid(ctx.ident("md-series"), ft.Row(laid, wrap=True, spacing=6, run_spacing=6)), line],
                  spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=len(series) > 4)


def _series_face(ctx: TableContext, c: Card) -> ft.Control:
    """A card of the series, small: its value and, for a yellow, its action's icon (tap: take it out)."""
    bg, fg = FACE[c.colour]
    parts: list[ft.Control] = [ft.Text(str(c.value), size=20, weight=ft.FontWeight.BOLD, color=fg)]
    if c.action is not None:
        parts.append(ft.Icon(ACTION_ICONS[c.action], size=16, color=fg))
    return ft.Container(ft.Column(parts, spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                                  alignment=ft.MainAxisAlignment.CENTER),
                        width=48, height=ui.TOUCH_MIN + 4, bgcolor=bg, border_radius=8, alignment=ft.Alignment.CENTER,
                        border=ft.Border.all(2, ft.Colors.OUTLINE))


def _direction(ctx: TableContext, player: str, direction: str | None) -> ft.Control:
    return ui.tid(ctx.ident("md-direction-question"), ft.Column([
        ui.text(ctx.t("app.md.direction_question", player=player), ui.FONT_BODY, weight=ft.FontWeight.W_600),
        ft.Row([
            _choice(ctx, ctx.t("md.dir.up"), _set(ctx, "direction", "up"), ctx.ident("md-dir-up"),
                    direction == "up", ft.Icons.ARROW_UPWARD),
            _choice(ctx, ctx.t("md.dir.down"), _set(ctx, "direction", "down"), ctx.ident("md-dir-down"),
                    direction == "down", ft.Icons.ARROW_DOWNWARD),
        ], spacing=VALUE_GAP),
    ], spacing=4))


def _confirm(ctx: TableContext, player: str, series: tuple[str, ...], chooses: bool,
             direction: str | None) -> ft.Control:
    waiting = chooses and direction is None  # a yellow on a yellow, on the same value or a free play

    def confirm(_: Any) -> None:
        entry: dict[str, Any] = {"type": "play", "player": player, "cards": list(series)}
        if direction is not None:
            entry["direction"] = direction
        ctx.submit(entry)

    def clear(_: Any) -> None:
        ctx.draft.setdefault("series", []).clear()
        ctx.draft.pop("direction", None)
        ctx.refresh()

    parts: list[ft.Control] = [
        ui.button(ctx.t("app.md.confirm", cards=ctx.say(_n_cards(len(series)))) if series
                  else ctx.t("app.md.confirm_none"), confirm, ident=ctx.ident("md-confirm"),
                  icon=None if ctx.compact else ft.Icons.CHECK, kind="primary", disabled=not series or waiting,
                  size=ui.FONT_BODY),
        ui.button(ctx.t("app.md.clear"), clear, ident=ctx.ident("md-clear"),
                  icon=None if ctx.compact else ft.Icons.BACKSPACE, kind="outlined", disabled=not series,
                  size=ui.FONT_BODY),
    ]
    if waiting:
        parts.append(ui.text(ctx.t("app.md.confirm_needs_direction", player=player), ui.FONT_BODY,
                             weight=ft.FontWeight.BOLD, color=ft.Colors.ERROR, ident=ctx.ident("md-confirm-why")))
    return ft.Row(parts, wrap=True, spacing=10, run_spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)


# -- the score sheet -------------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _sheet_block(state: State, ctx: TableContext) -> ft.Control:
    """Kept while the same deals are on it (its toggle reads the draft when tapped)."""
    engine = state.engine
    t = engine.table
    over = engine.state.over
    shown = bool(ctx.draft.get("sheet")) or over or ctx.readonly
    totals = engine.state.totals
    inputs = (shown, over, ctx.readonly, len(engine.state.sheet), t.number, t.starter, engine.deals,
              tuple(totals[p] for p in state.players))
    return ctx.keep("md-sheet-panel", inputs, lambda: _sheet_panel(state, ctx, shown))


def _sheet_panel(state: State, ctx: TableContext, shown: bool) -> ft.Control:
    engine = state.engine
    over = engine.state.over

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


class Screen(GameScreenBase):
    """This game's hooks of the table screen's contract (companion.app.games.GameScreen)."""

    build = staticmethod(build)
    chapters = staticmethod(chapters)


SCREEN: GameScreen = Screen()
