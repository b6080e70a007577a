"""High Society / Animalement Vôtre at the table.

Reveal: tap the card turned over, among those left in the deck. Bid: the player whose turn it is
taps the money cards laid down (running total and bid to beat always in view), then confirms.
Pass. Theft: tap the possession to discard.

Table-fair: the money a player still holds is private at the table, so nothing here shows it and all
eleven values are always offered; the engine refuses a value its owner no longer holds, with its
reason. With the assist setting (chosen when the game is set up) the screen shows every player's
money left and greys out the values they no longer hold.

Everything shown comes from the engine's documented public state (scoring/high_society.py).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from companion.app import ui
from companion.app.format import number
from companion.app.games import GameScreen, GameScreenBase, TableContext, TableState
from scoring.high_society import MISFORTUNE, MONEY, POSSESSIONS, RED, REDS_TO_END, HighSocietyEngine

State = TableState[HighSocietyEngine]  # what this screen reads: the table, with this game's engine

CARD_W, CARD_H = 118, 160

# The sentences that say how an auction ended: who took which card for how much, who got the
# misfortune, whose bid is lost, what the theft took. Shown big at the top of the screen until the
# next entry (the log keeps them).
SETTLING = ("hs.event.buy", "hs.event.free", "hs.event.misfortune", "hs.event.bid_lost",
            "hs.event.theft_applied", "hs.event.discard_due", "hs.event.theft_waits", "hs.event.discarded")


def settled(state: State) -> tuple[Any, ...]:
    """The latest entry's settling sentences, while the next card is still to be turned over."""
    if state.engine.card is not None:
        return ()
    return tuple(m for m in state.last if m.key in SETTLING)


def build(state: State, ctx: TableContext) -> ft.Control:
    # What the table must enter comes right under the card on auction; the players' public
    # state (open bids, passes, cards won) follows. An auction that just ended is said first.
    # Each part is kept between renders while what it shows is unchanged (companion.app.memo): a
    # money card's tap builds that card and the bid's figures and buttons, nothing else.
    parts: list[ft.Control] = []
    result = settled(state) if not ctx.readonly else ()
    if result:
        said = tuple(ctx.say(m) for m in result)
        parts.append(ctx.keep("hs-result", said, lambda: _result_block(ctx, said)))
    parts.append(ctx.keep("hs-auction", _auction_inputs(state), lambda: _auction_block(state, ctx)))
    if not ctx.readonly and state.outcome is None:
        types = tuple(state.expected.types)
        engine = state.engine
        discarding = "discard" in types
        if discarding:
            owned = tuple(engine.collections[engine.discard_required or ""])
            parts.append(ctx.keep("hs-discard", (engine.discard_required, owned),
                                  lambda: _discard_block(state, ctx)))
        # The reveal grid and the bid panel both stay on the page and only the expected one is
        # visible: a reveal, or the bid or pass that ends an auction, switches them and sends what
        # changed, not the whole block coming into view (85-130 controls the browser built anew).
        # The hidden one shows nothing and cannot be reached (Flet does not render an invisible
        # control), and holds nothing the table may not see: the cards left in the deck, the bid
        # panel of the player who bids next (its figures are the open bids, its money cards greyed
        # only with the aid, which shows the money left anyway), no pick (the draft is emptied by
        # each entry, and a hidden panel reads none).
        revealing = not discarding and "reveal" in types
        bidding = not discarding and not revealing and ("bid" in types or "pass" in types)
        parts.append(ctx.keep("hs-reveal", (engine.starter, tuple(engine.deck_left.items()), revealing),
                              lambda: _reveal_block(state, ctx, shown=revealing)))
        parts.append(_bid_block(state, ctx, shown=bidding))
    if not ctx.side_panel:
        parts.append(_players_block(state, ctx))
    return ft.Column(parts, spacing=ui.GAP)


def build_side(state: State, ctx: TableContext) -> ft.Control:
    """The players, one compact row each, for the table frame's side column (each kept while what
    it shows is)."""
    return ft.Column([ctx.keep(f"hs-side-{p}", _player_inputs(state, p), partial(_player_row, state, ctx, p))
                      for p in state.players], spacing=6)


def _player_inputs(state: State, player: str) -> tuple[Any, ...]:
    """Everything a player's tile or side row shows (and nothing it does not: the money held is
    private unless the table aid is on)."""
    engine = state.engine
    return (engine.turn == player, engine.discard_required == player, player in engine.passed,
            engine.starter == player and engine.card is None and state.outcome is None, engine.card is not None,
            tuple(engine.bids[player]), tuple(engine.collections[player]), engine.theft_pending == player,
            engine.money_left[player] if state.assist else None)


def _auction_inputs(state: State) -> tuple[Any, ...]:
    engine = state.engine
    return (engine.card, engine.ending_card, engine.round, engine.reds_revealed, sum(engine.deck_left.values()),
            state.outcome is None)


def _result_block(ctx: TableContext, sentences: tuple[str, ...]) -> ft.Control:
    lines: list[ft.Control] = [
        ft.Row([ft.Icon(ft.Icons.GAVEL, size=30, color=ft.Colors.ON_TERTIARY_CONTAINER),
                ft.Text(ctx.t("app.hs.result"), size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ON_TERTIARY_CONTAINER)], spacing=10),
        *[ft.Text(said, size=ui.FONT_LABEL if ctx.compact else ui.FONT_TITLE - 4, weight=ft.FontWeight.W_600,
                  color=ft.Colors.ON_TERTIARY_CONTAINER) for said in sentences],
    ]
    return ui.panel(ft.Column(lines, spacing=6), bgcolor=ft.Colors.TERTIARY_CONTAINER, ident=ctx.ident("hs-result"),
                    padding=10 if ctx.compact else 14)


# -- cards -----------------------------------------------------------------------------------------


def _face(ctx: TableContext, card: str) -> str:
    if card in POSSESSIONS:
        return card[1:]
    return ctx.t(f"app.hs.face.{card}")


def _face_control(ctx: TableContext, card: str, size: float) -> ft.Control:
    if card == "theft":
        return ft.Icon(ft.Icons.BACK_HAND, size=size, color=ft.Colors.BLACK)
    return ft.Text(_face(ctx, card), size=size, weight=ft.FontWeight.BOLD, color=ft.Colors.BLACK,
                   text_align=ft.TextAlign.CENTER)


def _card_colours(card: str) -> tuple[str, str]:
    """(border, background) of a status card: red cards stand out, misfortunes are dark."""
    if card in RED and card in MISFORTUNE:
        return ft.Colors.RED_700, ft.Colors.BLUE_GREY_100
    if card in RED:
        return ft.Colors.RED_700, ft.Colors.AMBER_50
    if card in MISFORTUNE:
        return ft.Colors.BLUE_GREY_700, ft.Colors.BLUE_GREY_100
    return ft.Colors.AMBER_700, ft.Colors.AMBER_50


def card_face(state: State, ctx: TableContext, card: str, *, scale: float = 1.0, copies: int | None = None) -> ft.Control:
    border, bg = _card_colours(card)
    label = ctx.say(state.engine.card_label(card))
    lines: list[ft.Control] = [
        _face_control(ctx, card, 44 * scale),
        ft.Text(label, size=max(13, 15 * scale), color=ft.Colors.BLACK_87, text_align=ft.TextAlign.CENTER,
                max_lines=2),
    ]
    if copies is not None and copies > 1:
        lines.append(ft.Text(ctx.t("app.hs.copies", n=copies), size=14, color=ft.Colors.BLACK_54,
                             text_align=ft.TextAlign.CENTER))
    return ft.Container(
        ft.Column(lines, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER,
                  spacing=2, tight=True),
        width=CARD_W * scale, height=CARD_H * scale, bgcolor=bg, border=ft.Border.all(5 * scale, border),
        border_radius=12 * scale, alignment=ft.Alignment.CENTER, padding=4)


def _small_card(state: State, ctx: TableContext, card: str) -> ft.Control:
    border, bg = _card_colours(card)
    return ft.Container(
        _face_control(ctx, card, 18),
        width=40, height=50, bgcolor=bg, border=ft.Border.all(3, border), border_radius=8,
        alignment=ft.Alignment.CENTER, tooltip=ctx.say(state.engine.card_label(card)))


def _money_chip(value: int, size: float = 18) -> ft.Control:
    return ft.Container(ft.Text(str(value), size=size, weight=ft.FontWeight.BOLD, color=ft.Colors.GREEN_900),
                        bgcolor=ft.Colors.GREEN_100, border=ft.Border.all(2, ft.Colors.GREEN_700),
                        border_radius=6, padding=ft.Padding.symmetric(horizontal=8, vertical=2))


# -- the auction -----------------------------------------------------------------------------------


def _auction_block(state: State, ctx: TableContext) -> ft.Control:
    """A compact strip: the card on auction, the round, how close the end is."""
    engine = state.engine
    shown = engine.card or engine.ending_card
    scale = 0.5 if ctx.compact else 0.72
    if shown is not None:
        card = card_face(state, ctx, shown, scale=scale)
    else:
        card = ft.Container(ft.Icon(ft.Icons.STYLE, size=44, color=ft.Colors.ON_SURFACE_VARIANT),
                            width=CARD_W * scale, height=CARD_H * scale, border=ft.Border.all(3, ft.Colors.OUTLINE),
                            border_radius=10, alignment=ft.Alignment.CENTER)
    reds: list[ft.Control] = [ft.Container(width=24, height=24, border_radius=12,
                         bgcolor=ft.Colors.RED_700 if i < engine.reds_revealed else None,
                         border=ft.Border.all(3, ft.Colors.RED_700)) for i in range(REDS_TO_END)]
    now: list[ft.Control] = []
    big = ui.FONT_LABEL if ctx.compact else ui.FONT_TITLE
    if engine.card is not None:
        now.append(ui.text(ctx.t("app.hs.round", n=engine.round), big, weight=ft.FontWeight.BOLD,
                           ident=ctx.ident("hs-round")))
    elif engine.ending_card is None and state.outcome is None:
        now.append(ui.text(ctx.t("app.hs.next_round", n=engine.round + 1), big,
                           weight=ft.FontWeight.BOLD, ident=ctx.ident("hs-round")))
    if engine.card is not None:
        now.append(ui.text(ctx.t("app.hs.on_auction", card=ctx.say(engine.card_label(engine.card))),
                           ui.FONT_LABEL, ident=ctx.ident("hs-card")))
    elif engine.ending_card is not None:
        now.append(ui.text(ctx.t("app.hs.ended_by", card=ctx.say(engine.card_label(engine.ending_card))),
                           ui.FONT_LABEL))
    counts = [ft.Row(reds, spacing=6),
              ui.muted(ctx.t("app.hs.reds", n=engine.reds_revealed, of=REDS_TO_END)),
              ui.muted(ctx.t("app.hs.deck_left", n=sum(engine.deck_left.values())))]
    if ctx.compact:  # a phone: everything beside the card, one column
        return ui.panel(ft.Row([card, ft.Column(now + counts, spacing=4, expand=True)], spacing=12,
                               vertical_alignment=ft.CrossAxisAlignment.CENTER), padding=10)
    ending = ft.Column(counts, spacing=4, horizontal_alignment=ft.CrossAxisAlignment.END)
    return ui.panel(ft.Row([card, ft.Column(now, spacing=4, expand=True), ending], spacing=20,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER), padding=12)


def _players_block(state: State, ctx: TableContext) -> ft.Control:
    return ft.Row([ctx.keep(f"hs-player-{p}", _player_inputs(state, p), partial(_player_tile, state, ctx, p))
                   for p in state.players], wrap=True, spacing=12, run_spacing=12)


def _player_tile(state: State, ctx: TableContext, player: str) -> ft.Control:
    engine = state.engine
    is_turn = engine.turn == player or engine.discard_required == player
    out = player in engine.passed
    head: list[ft.Control] = []
    if is_turn:
        head.append(ft.Icon(ft.Icons.PLAY_ARROW, color=ft.Colors.PRIMARY, size=30))
    head.append(ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True,
                        color=ft.Colors.ON_SURFACE_VARIANT if out else None))
    if engine.starter == player and engine.card is None and state.outcome is None:
        head.append(ft.Icon(ft.Icons.STYLE, size=24, tooltip=ctx.t("app.hs.reveals_next")))
    lines: list[ft.Control] = [ft.Row(head, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    bid = engine.bids[player]
    if engine.card is not None:
        if out:
            lines.append(ui.muted(ctx.t("app.hs.passed")))
        elif bid:
            lines.append(ft.Row([ui.text(ctx.t("app.hs.open_bid", total=sum(bid)), ui.FONT_BODY,
                                         weight=ft.FontWeight.W_600)]
                                + [_money_chip(v, 15) for v in bid], wrap=True, spacing=4))
        else:
            lines.append(ui.muted(ctx.t("app.hs.no_bid")))
    owned = engine.collections[player]
    if owned:
        lines.append(ft.Row([_small_card(state, ctx, c) for c in owned], wrap=True, spacing=4, run_spacing=4))
    if engine.theft_pending == player:
        lines.append(ui.muted(ctx.t("app.hs.theft_waits")))
    if state.assist:
        lines.append(ui.text(ctx.t("app.hs.money_left", amount=engine.money_left[player]), ui.FONT_BODY,
                             color=ft.Colors.PRIMARY, weight=ft.FontWeight.W_600,
                             ident=ctx.ident(f"hs-money-left-{player}")))
    box = ft.Container(ft.Column(lines, spacing=6), padding=12, width=196,
                       border_radius=ui.RADIUS,
                       bgcolor=ft.Colors.PRIMARY_CONTAINER if is_turn else ft.Colors.SURFACE_CONTAINER_HIGH,
                       border=ft.Border.all(3 if is_turn else 1,
                                            ft.Colors.PRIMARY if is_turn else ft.Colors.OUTLINE_VARIANT),
                       opacity=0.6 if out else 1.0)
    return ui.tid(ctx.ident(f"hs-player-{player}"), box)


def _player_row(state: State, ctx: TableContext, player: str) -> ft.Control:
    engine = state.engine
    is_turn = engine.turn == player or engine.discard_required == player
    out = player in engine.passed
    head: list[ft.Control] = [
        ft.Icon(ft.Icons.PLAY_ARROW if is_turn else ft.Icons.PERSON, size=26,
                color=ft.Colors.PRIMARY if is_turn else ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True,
                color=ft.Colors.ON_SURFACE_VARIANT if out else None),
    ]
    if engine.starter == player and engine.card is None and state.outcome is None:
        head.append(ft.Icon(ft.Icons.STYLE, size=22, tooltip=ctx.t("app.hs.reveals_next")))
    if engine.card is not None:
        bid = engine.bids[player]
        if out:
            head.append(ui.muted(ctx.t("app.hs.passed"), ui.FONT_BODY))
        elif bid:
            head.append(ft.Text(ctx.t("app.hs.bid_total", total=sum(bid)), size=ui.FONT_LABEL,
                                weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY))
        else:
            head.append(ui.muted(ctx.t("app.hs.no_bid"), ui.FONT_BODY))
    lines: list[ft.Control] = [ft.Row(head, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    details: list[ft.Control] = [_small_card(state, ctx, c) for c in engine.collections[player]]
    if engine.card is not None and engine.bids[player] and not out:
        details += [_money_chip(v, 15) for v in engine.bids[player]]
    if details:
        lines.append(ft.Row(details, wrap=True, spacing=4, run_spacing=4))
    if engine.theft_pending == player:
        lines.append(ui.muted(ctx.t("app.hs.theft_waits")))
    if state.assist:
        lines.append(ui.text(ctx.t("app.hs.money_left", amount=engine.money_left[player]), ui.FONT_BODY,
                             color=ft.Colors.PRIMARY, weight=ft.FontWeight.W_600,
                                 ident=ctx.ident(f"hs-money-left-{player}")))
    return ui.tid(ctx.ident(f"hs-player-{player}"), ft.Container(
        ft.Column(lines, spacing=4), padding=ft.Padding.symmetric(horizontal=10, vertical=6),
        border_radius=ui.RADIUS,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if is_turn else ft.Colors.SURFACE_CONTAINER_HIGH,
        border=ft.Border.all(3 if is_turn else 1, ft.Colors.PRIMARY if is_turn else ft.Colors.OUTLINE_VARIANT),
        opacity=0.6 if out else 1.0))


# -- entries ---------------------------------------------------------------------------------------


def _reveal_block(state: State, ctx: TableContext, *, shown: bool) -> ft.Control:
    engine = state.engine

    def reveal(card: str) -> ui.Handler:
        return lambda _: ctx.submit({"type": "reveal", "card": card})

    def tile(card: str, copies: int) -> ft.Control:
        return ui.tid(ctx.ident(f"reveal-{card}"),
                      ft.Container(card_face(state, ctx, card, scale=0.62 if ctx.compact else 0.8, copies=copies),
                                   on_click=reveal(card), border_radius=12),
                      button=True, label=ctx.say(engine.card_label(card)))

    # a card is kept while as many copies are left: a reveal changes one card (or takes it away)
    tiles: list[ft.Control] = [ctx.keep(f"hs-reveal-{card}", copies, partial(tile, card, copies))
                               for card, copies in engine.deck_left.items()]
    block = ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.hs.which_card", player=engine.starter)),
        ft.Row(tiles, wrap=True, spacing=10, run_spacing=10),
    ], spacing=12), ident=ctx.ident("hs-reveal"))
    block.visible = shown
    return block


def _bid_block(state: State, ctx: TableContext, *, shown: bool) -> ft.Control:
    """The bid panel of the player whose turn it is; hidden (``shown`` false), that of the player
    who bids first once the next card is turned over (the one who turns it), so that the switch
    changes little. A hidden panel shows no pick, whatever the draft holds."""
    engine = state.engine
    player = engine.turn if shown else engine.starter
    assert player is not None  # bids are awaited: someone's turn
    chosen: list[int] = ctx.draft.setdefault("add", []) if shown else []
    if shown and ctx.draft.get("player") != player:  # a new turn starts with nothing picked
        chosen.clear()
        ctx.draft["player"] = player
    open_bid = engine.bid_totals[player]
    total = open_bid + sum(chosen)
    holds = set(engine.hands[player]) if state.assist else None
    why_said = ctx.said_why() if shown else None

    def toggle(value: int) -> ui.Handler:
        # a kept money card's tap finds the cards laid in the table's draft when it runs (the same
        # dict for the screen's life; the list is a new one after each entry): kept across turns
        def handler(_: Any) -> None:
            laid: list[int] = ctx.draft.setdefault("add", [])
            if value in laid:
                laid.remove(value)
            else:
                laid.append(value)
            ctx.refresh()
        return handler

    clear = ctx.clearer(chosen)

    def confirm(_: Any) -> None:
        ctx.submit({"type": "bid", "player": player, "add": sorted(chosen)})

    def pass_(_: Any) -> None:
        ctx.submit({"type": "pass", "player": player})

    small = ctx.compact  # a phone: smaller money cards and figures, the buttons before the figures

    def money_card(value: int, selected: bool, why: str | None) -> ft.Control:
        # a value the player no longer holds (table aid) stays greyed and says why at a tap
        return ui.tile(
            ft.Text(str(value), size=24 if small else 28, weight=ft.FontWeight.BOLD), toggle(value),
            ident=ctx.ident(f"money-{value}"), selected=selected, disabled=why is not None,
            why=ctx.why_not(why) if why is not None else None,
            width=56 if small else 60, height=56 if small else 72, padding=2,
            label=ctx.t("app.hs.money_card", value=value))

    laid = set(engine.bids[player])
    money = []
    for value in MONEY:  # a card is kept while it looks the same, turn after turn
        why = None
        if holds is not None and value not in holds:
            why = ctx.t("app.hs.why.laid" if value in laid else "app.hs.why.spent", value=value, player=player)
        selected = value in chosen
        money.append(ctx.keep(f"hs-money-{value}", (selected, why), partial(money_card, value, selected, why)))

    summary = ft.Row([
        _figure(ctx.t("app.hs.figure_open"), number(ctx, open_bid), ctx.ident("bid-open"), small=small),
        _figure(ctx.t("app.hs.figure_adding"), number(ctx, sum(chosen)), ctx.ident("bid-adding"), small=small),
        _figure(ctx.t("app.hs.figure_total"), number(ctx, total), ctx.ident("bid-total"), strong=True, small=small),
        _figure(ctx.t("app.hs.figure_to_beat"), number(ctx, engine.bid_to_beat), ctx.ident("bid-to-beat"),
                small=small),
    ], wrap=True, spacing=8 if small else 12, run_spacing=8 if small else 12)

    tall = 56 if small else 68
    size = ui.FONT_BODY if small else ui.FONT_LABEL
    buttons = ft.Row([
        ui.button(ctx.t("app.hs.bid_confirm", total=total), confirm, ident=ctx.ident("bid-confirm"),
                  icon=ft.Icons.GAVEL, kind="primary", disabled=not chosen, height=tall, size=size),
        ui.button(ctx.t("app.hs.bid_clear"), clear, ident=ctx.ident("bid-clear"), icon=ft.Icons.BACKSPACE,
                  kind="outlined", disabled=not chosen, height=tall, size=size),
        ui.button(ctx.t("app.hs.pass", player=player), pass_, ident=ctx.ident("pass"), icon=ft.Icons.DO_NOT_TOUCH,
                  kind="tonal", height=tall, size=size),
    ], wrap=True, spacing=8 if small else ui.GAP, run_spacing=8 if small else ui.GAP)

    hint_key = "app.hs.lays_assist" if state.assist else "app.hs.lays"
    hint = ctx.keep("hs-lays", (hint_key, player), lambda: ui.muted(ctx.t(hint_key, player=player)))
    pad = ft.Row(money, wrap=True, spacing=6, run_spacing=6)
    said = ui.why_line(why_said, ctx.ident("hs-why"))  # a greyed money card just tapped: why, by the cards
    lines: list[ft.Control] = ([hint, said, pad, buttons, summary] if small else [hint, said, pad, summary, buttons])
    block = ui.panel(ft.Column(lines, spacing=8 if small else 10), ident=ctx.ident("hs-bid"),
                     padding=10 if small else 14)
    block.visible = shown
    return block


def _figure(caption: str, value: str, ident: str, strong: bool = False, small: bool = False) -> ft.Control:
    big = ui.FONT_LABEL if small else ui.FONT_TITLE
    return ui.tid(ident, ft.Container(ft.Column([
        ft.Text(caption, size=14 if small else ui.FONT_SMALL, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(value, size=big + 6 if strong else big, weight=ft.FontWeight.BOLD,
                color=ft.Colors.PRIMARY if strong else None),
    ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=8 if small else 10, vertical=2 if small else 4),
        border_radius=ui.RADIUS, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, width=80 if small else 136))


def _discard_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    player = engine.discard_required
    assert player is not None  # a discard is awaited

    def discard(card: str) -> ui.Handler:
        return lambda _: ctx.submit({"type": "discard", "player": player, "card": card})

    owned = [c for c in engine.collections[player] if c in POSSESSIONS]
    tiles: list[ft.Control] = [ui.tid(ctx.ident(f"discard-{card}"),
                    ft.Container(card_face(state, ctx, card, scale=0.8), on_click=discard(card), border_radius=12),
                    button=True, label=ctx.say(engine.card_label(card)))
             for card in owned]
    return ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.hs.discard_which", player=player)),
        ft.Row(tiles, wrap=True, spacing=10, run_spacing=10),
    ], spacing=12), ident=ctx.ident("hs-discard"))


def chapters(state: Any, entries: Any) -> Any:
    """A past game's chapters (companion.app.chapters): an auction opens with each card revealed."""
    from companion.app.chapters import chapters_of

    return chapters_of(entries, lambda e: "auction" if e.action.get("type") == "reveal" else None)


class Screen(GameScreenBase):
    """This game's hooks of the table screen's contract (companion.app.games.GameScreen)."""

    build = staticmethod(build)
    build_side = staticmethod(build_side)
    chapters = staticmethod(chapters)


SCREEN: GameScreen = Screen()
