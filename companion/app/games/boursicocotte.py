"""Boursicocotte (Kuhhandel) at the table.

Public (face up at the table, so always shown): the animal up for auction, the bids called out,
who owes whom how much, the trade under way (who challenges whom over which animal, how many cards
lie face down), every player's animals, the deck, the donkeys drawn, the last trade's outcome.

Private: each player's money. It is never shown on the shared screen. A player sees their own
cards only during their own private entry — paying (or "I can't pay"), making an offer, making a
counter-offer: the screen first says "Pass the tablet to Bruno", Bruno taps "I am Bruno, show me",
taps the cards he hands over or puts face down, and the screen is covered again as soon as the entry
is accepted (or when he taps "Hide my money"). Hiding also dismisses the frame's refusal, whose
sentence may quote his money. Money is shown for all only once the game is over.

Entries: draw = tap the animal turned over among those left in the deck; bid = set the amount with
the quick raises, then tap who bid it (any player but the auctioneer, any order); close = sold, or
bought back, or taken free when nobody bid; trade = the challenger picks the target and one of the
target's animals in public, then makes the offer in private.

No rules here: the engine refuses what is illegal and the frame shows the rule. With the assist
setting (chosen at set-up) choices the engine's public state says are impossible are greyed out.
Everything shown comes from the engine's documented ``player_view()`` (scoring/boursicocotte.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Mapping

import flet as ft

from companion.app import ui
from companion.app.format import Speaker, number
from companion.app.games import TableContext, TableState
from companion.app.private_view import PrivateView
from scoring.base import event
from scoring.boursicocotte import ANIMALS, COPIES, DONKEY_MONEY, VALUES, BoursicocotteEngine, PlayerView, animal

State = TableState[BoursicocotteEngine]  # what this screen reads: the table, with this game's engine

RAISES = (10, 20, 50, 100, 200)
STEP = 10  # the smallest money card above 0: the default raise and the fine adjustment
CARD_W, CARD_H = 132, 150

# (border, background) of each animal's card: fixed light colours with black text, readable on
# the light and the dark theme alike.
ANIMAL_COLOURS: Mapping[str, tuple[str, str]] = {
    "hen": (ft.Colors.AMBER_800, ft.Colors.AMBER_50),
    "goose": (ft.Colors.LIGHT_BLUE_700, ft.Colors.LIGHT_BLUE_50),
    "cat": (ft.Colors.ORANGE_800, ft.Colors.ORANGE_50),
    "dog": (ft.Colors.BROWN_500, ft.Colors.BROWN_50),
    "sheep": (ft.Colors.BLUE_GREY_400, ft.Colors.GREY_100),
    "goat": (ft.Colors.LIME_800, ft.Colors.LIME_50),
    "donkey": (ft.Colors.BLUE_GREY_700, ft.Colors.BLUE_GREY_50),
    "pig": (ft.Colors.PINK_400, ft.Colors.PINK_50),
    "cow": (ft.Colors.GREEN_800, ft.Colors.GREEN_50),
    "horse": (ft.Colors.DEEP_ORANGE_900, ft.Colors.DEEP_ORANGE_50),
}

# Entries made in a player's private view: the frame never quotes a refusal of one of them on the
# shared screen (a correction's conflict), since it may name the money it held.
PRIVATE_ENTRIES = ("pay", "cannot_pay", "challenge", "counter")
PRIVATE = PrivateView("bc", "bc-pass", ("cards",), "app.bc.pass_to", "app.bc.show_me", "app.bc.private_title",
                      "app.bc.hide")


def table_log(state: State, entries: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The log as the shared screen shows it: a payment is the amount owed changing hands, the same
    sentence and the same rules (its "why?") whether the cards handed over made the exact sum or
    more — the table saw them face down, so it does not know of an overpayment."""
    out: list[tuple[Any, ...]] = []
    for entry in entries:
        out.append(tuple(
            event("BC-PAYER", "bc.paid", payer=m.params["payer"], recipient=m.params["recipient"],
                  amount=m.params["amount"]) if m.key in ("bc.paid", "bc.paid_over") else m
            for m in entry.events))
    return out


def build(state: State, ctx: TableContext) -> ft.Control:
    view = state.engine.player_view()
    live = not ctx.readonly and state.outcome is None
    if live:
        step = _private_step(state, ctx, view)
        if step is not None and PRIVATE.is_open(ctx, _token(state, view, step[0])):
            # the private entry hides everything else the screen would show
            return _private_block(state, ctx, view, *step)
    parts: list[ft.Control] = [_table_block(state, ctx, view)]
    if live:
        phase = view["phase"]
        types = tuple(state.expected.types)
        if phase == "turn":
            if "draw" in types:
                parts.append(_draw_block(state, ctx, view))
            if "challenge" in types:
                parts.append(_trade_choice_block(state, ctx, view))
        elif phase == "auction":
            parts.append(_auction_entry_block(state, ctx, view))
        elif phase in ("payment", "trade_answer", "second_challenge"):
            player, kind = _private_step(state, ctx, view)  # type: ignore[misc]
            parts.append(_cover_block(state, ctx, view, player, kind))
    if view["last_trade"] and view["phase"] != "trade_answer":
        parts.append(_last_trade_block(ctx, view))
    if not ctx.side_panel:
        parts.append(_players_block(state, ctx, view))
    return ft.Column(parts, spacing=ui.GAP)


def build_side(state: State, ctx: TableContext) -> ft.Control:
    """The players' animals (public), one compact row each, for the table frame's side column."""
    view = state.engine.player_view()
    over = state.outcome is not None
    rows: list[ft.Control] = [_player_tile(state, ctx, view, p, width=None) for p in state.players]
    if not over:
        rows.append(ui.muted(ctx.t("app.bc.money_private"), ident=ctx.ident("bc-money-private")))
    return ft.Column(rows, spacing=6)


# -- small pieces ----------------------------------------------------------------------------------


def _name(ctx: Speaker, kind: str) -> str:
    said = ctx.say(animal(kind))
    return said[:1].upper() + said[1:]


def animal_card(ctx: Speaker, kind: str, *, scale: float = 1.0, left: int | None = None) -> ft.Control:
    border, bg = ANIMAL_COLOURS[kind]
    lines: list[ft.Control] = [
        ft.Text(_name(ctx, kind), size=max(15, 22 * scale), weight=ft.FontWeight.BOLD, color=ft.Colors.BLACK,
                text_align=ft.TextAlign.CENTER, max_lines=1),
        ft.Text(number(ctx, VALUES[kind]), size=max(20, 40 * scale), weight=ft.FontWeight.BOLD, color=border,
                text_align=ft.TextAlign.CENTER),
    ]
    if left is not None:
        lines.append(ft.Text(ctx.t("app.bc.left", n=left), size=max(14, 16 * scale), color=ft.Colors.BLACK_87,
                             text_align=ft.TextAlign.CENTER))
    return ft.Container(
        ft.Column(lines, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER,
                  spacing=0, tight=True),
        width=CARD_W * scale, height=CARD_H * scale, bgcolor=bg, border=ft.Border.all(max(3, 5 * scale), border),
        border_radius=12 * scale, alignment=ft.Alignment.CENTER, padding=4)


def _animal_chip(ctx: Speaker, kind: str, count: int, complete: bool) -> ft.Control:
    border, bg = ANIMAL_COLOURS[kind]
    parts: list[ft.Control] = []
    if complete:
        parts.append(ft.Icon(ft.Icons.STARS, size=22, color=border))
    parts.append(ft.Text(ctx.t("app.bc.animal_count", animal=_name(ctx, kind), n=count), size=ui.FONT_BODY,
                         weight=ft.FontWeight.BOLD if complete else ft.FontWeight.W_500, color=ft.Colors.BLACK))
    return ft.Container(ft.Row(parts, tight=True, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                        bgcolor=bg, border=ft.Border.all(3 if complete else 2, border), border_radius=8,
                        padding=ft.Padding.symmetric(horizontal=10, vertical=4))


def _money_chip(ctx: Speaker, value: int) -> ft.Control:
    return ft.Container(ft.Text(number(ctx, value), size=18, weight=ft.FontWeight.BOLD, color=ft.Colors.GREEN_900),
                        bgcolor=ft.Colors.GREEN_100, border=ft.Border.all(2, ft.Colors.GREEN_700),
                        border_radius=6, padding=ft.Padding.symmetric(horizontal=8, vertical=2))


def _figure(caption: str, value: str, ident: str, strong: bool = False) -> ft.Control:
    return ui.tid(ident, ft.Container(ft.Column([
        ft.Text(caption, size=ui.FONT_SMALL, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(value, size=ui.FONT_HUGE if strong else ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                color=ft.Colors.PRIMARY if strong else None),
    ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=8, vertical=4), border_radius=ui.RADIUS,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, width=150))


def _row(controls: list[ft.Control], spacing: float = ui.GAP) -> ft.Row:
    return ft.Row(controls, wrap=True, spacing=spacing, run_spacing=spacing,
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


# -- what is on the table --------------------------------------------------------------------------


def _table_block(state: State, ctx: TableContext, view: PlayerView) -> ft.Control:
    """The animal up for auction, the bids, the debt or the trade under way; the deck."""
    auction, debt, trade = view["auction"], view["debt"], view["trade"]
    info: list[ft.Control] = []
    scale = 0.6 if ctx.compact else 1.0
    if auction is not None:
        shown: ft.Control = animal_card(ctx, auction["animal"], scale=scale)
        if debt is not None:
            key = "app.bc.debt_buy_back" if debt["buy_back"] else "app.bc.debt_sold"
            info.append(ui.text(ctx.t(key, payer=debt["payer"], recipient=debt["recipient"],
                                      amount=debt["amount"], animal=animal(debt["animal"])), ui.FONT_TITLE - 4,
                                weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY, ident=ctx.ident("bc-debt")))
        elif auction["highest"] is not None:
            info.append(ui.text(ctx.t("app.bc.highest", amount=auction["highest"], player=auction["bidder"]),
                                ui.FONT_TITLE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY,
                                ident=ctx.ident("bc-highest")))
        else:
            info.append(ui.text(ctx.t("app.bc.no_bid"), ui.FONT_TITLE, ident=ctx.ident("bc-highest")))
        info.append(ui.text(ctx.t("app.bc.auction_of", animal=animal(auction["animal"]),
                                  auctioneer=auction["auctioneer"]), ui.FONT_BODY, ident=ctx.ident("bc-auction")))
        if auction["bids"] and debt is None:
            calls = [ctx.t("app.bc.bid_item", player=p, amount=a) for p, a in auction["bids"]]
            info.append(ui.muted(ctx.t("app.bc.bids", bids=calls), ident=ctx.ident("bc-bids")))
        if auction["excluded"]:
            info.append(ui.text(ctx.t("app.bc.excluded", players=auction["excluded"]), ui.FONT_BODY,
                                ident=ctx.ident("bc-excluded")))
        if auction["buy_back_lost"]:
            info.append(ui.text(ctx.t("app.bc.buy_back_lost", player=auction["auctioneer"],
                                      animal=animal(auction["animal"])), ui.FONT_BODY,
                                ident=ctx.ident("bc-buy-back-lost")))
    elif trade is not None:
        shown = animal_card(ctx, trade["animal"], scale=scale)
        info.append(ui.text(ctx.t("app.bc.trade_on", challenger=trade["challenger"], target=trade["target"],
                                  animal=animal(trade["animal"])), ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                            ident=ctx.ident("bc-trade")))
        if view["phase"] == "trade_answer":
            offered = trade["cards_offered"]
            info.append(ui.text(ctx.t("app.bc.trade_cards", n=offered,
                                      player=trade["challenger"]),
                                ui.FONT_LABEL, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY,
                                ident=ctx.ident("bc-trade-cards")))
            info.append(ui.text(ctx.t("app.bc.trade_stake", n=trade["animals_at_stake"]), ui.FONT_BODY,
                                ident=ctx.ident("bc-trade-stake")))
        if trade["ties"]:
            info.append(ui.text(ctx.t("app.bc.trade_tied", challenger=trade["challenger"]), ui.FONT_BODY,
                                ident=ctx.ident("bc-trade-tied")))
    else:
        shown = ft.Container(ft.Icon(ft.Icons.STYLE, size=60, color=ft.Colors.ON_SURFACE_VARIANT),
                             width=CARD_W, height=CARD_H, border=ft.Border.all(3, ft.Colors.OUTLINE),
                             border_radius=12, alignment=ft.Alignment.CENTER)
        if state.outcome is not None:
            info.append(ui.text(ctx.t("app.bc.over"), ui.FONT_TITLE, weight=ft.FontWeight.BOLD))
        elif view["turn"] is not None:
            info.append(ui.text(ctx.t("app.bc.turn_of", player=view["turn"]), ui.FONT_TITLE,
                                weight=ft.FontWeight.BOLD, ident=ctx.ident("bc-turn")))
    info.append(ui.muted(ctx.t("app.bc.deck", n=view["deck_count"]), ident=ctx.ident("bc-deck")))
    if view["next_donkey_money"] is not None:
        info.append(ui.muted(ctx.t("app.bc.donkeys", n=view["donkeys_drawn"], of=len(DONKEY_MONEY),
                                   amount=view["next_donkey_money"]), ident=ctx.ident("bc-donkeys")))
    else:
        info.append(ui.muted(ctx.t("app.bc.donkeys_all"), ident=ctx.ident("bc-donkeys")))
    if state.entries == 0:
        info.extend(ui.muted(ctx.say(m)) for m in view["setup"])
    return ui.panel(ft.Row([shown, ft.Column(info, spacing=4 if ctx.compact else 6, expand=True)],
                           spacing=12 if ctx.compact else 24, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                    ident=ctx.ident("bc-table"), padding=10 if ctx.compact else 18)


def _last_trade_block(ctx: TableContext, view: PlayerView) -> ft.Control:
    """The outcome of the last trade, for everyone: the engine's sentences never give amounts."""
    return ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.bc.last_trade")),
        *[ft.Text(ctx.say(m), size=ui.FONT_LABEL, color=ft.Colors.ON_TERTIARY_CONTAINER) for m in view["last_trade"]],
    ], spacing=8), bgcolor=ft.Colors.TERTIARY_CONTAINER, ident=ctx.ident("bc-last-trade"))


def _players_block(state: State, ctx: TableContext, view: PlayerView) -> ft.Control:
    """Each player's animals (face up at the table). Money only once the game is over."""
    tiles = [_player_tile(state, ctx, view, p, width=260) for p in state.players]
    parts: list[ft.Control] = [ft.Row(tiles, wrap=True, spacing=12, run_spacing=12,
                                      vertical_alignment=ft.CrossAxisAlignment.START)]
    if state.outcome is None:
        parts.append(ui.muted(ctx.t("app.bc.money_private"), ident=ctx.ident("bc-money-private")))
    return ft.Column(parts, spacing=8)


def _player_tile(state: State, ctx: TableContext, view: PlayerView, player: str, width: float | None) -> ft.Control:
    over = state.outcome is not None
    is_turn = view["turn"] == player
    head: list[ft.Control] = [
        ft.Icon(ft.Icons.PLAY_ARROW if is_turn else ft.Icons.PERSON, size=26,
                color=ft.Colors.PRIMARY if is_turn else ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True),
    ]
    owned = view["animals"][player]
    complete = set(view["complete_sets"][player])
    lines: list[ft.Control] = [ft.Row(head, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if complete or over:
        lines.append(ui.text(ctx.t("app.bc.score_so_far" if not over else "app.bc.score",
                                   score=view["scores"][player], sets=len(complete)), ui.FONT_BODY,
                             weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY, ident=ctx.ident(f"bc-score-{player}")))
    if owned:
        lines.append(ui.tid(ctx.ident(f"bc-animals-{player}"), ft.Row(
            [_animal_chip(ctx, kind, owned[kind], kind in complete) for kind in ANIMALS if kind in owned],
            wrap=True, spacing=6, run_spacing=6)))
    else:
        lines.append(ui.muted(ctx.t("app.bc.no_animal"), ident=ctx.ident(f"bc-animals-{player}")))
    if over:
        lines.append(ui.tid(ctx.ident(f"bc-money-end-{player}"), ft.Row(
            [ui.text(ctx.t("app.bc.money_end", total=view["money_total"][player]), ui.FONT_BODY)]
            + [_money_chip(ctx, v) for v in view["money"][player]], wrap=True, spacing=4, run_spacing=4)))
    return ui.tid(ctx.ident(f"bc-player-{player}"), ft.Container(
        ft.Column(lines, spacing=6), padding=ft.Padding.symmetric(horizontal=10, vertical=8), width=width,
        border_radius=ui.RADIUS,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if is_turn else ft.Colors.SURFACE_CONTAINER_HIGH,
        border=ft.Border.all(3 if is_turn else 1, ft.Colors.PRIMARY if is_turn else ft.Colors.OUTLINE_VARIANT)))


# -- public entries --------------------------------------------------------------------------------


def _draw_block(state: State, ctx: TableContext, view: PlayerView) -> ft.Control:
    player = view["turn"]

    def draw(kind: str) -> ui.Handler:
        return lambda _: ctx.submit({"type": "draw", "card": kind})

    tiles: list[ft.Control] = [ui.tid(ctx.ident(f"bc-draw-{kind}"),
                    ft.Container(animal_card(ctx, kind, scale=0.72, left=left), on_click=draw(kind),
                                 border_radius=10, ink=True),
                    button=True, label=ctx.t("app.bc.draw_label", animal=animal(kind), n=left))
             for kind, left in ((k, view["deck"][k]) for k in ANIMALS) if left > 0]
    return ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.bc.draw_title", player=player)),
        ft.Row(tiles, wrap=True, spacing=10, run_spacing=10),
    ], spacing=12), ident=ctx.ident("bc-draw"))


def _trade_choice_block(state: State, ctx: TableContext, view: PlayerView) -> ft.Control:
    """The challenger says aloud whom they challenge over which animal: chosen in public."""
    engine = state.engine
    player = view["turn"]
    assert player is not None  # a challenge is chosen on a turn: whose turn it is is known
    target = ctx.draft.get("target")
    chosen = ctx.draft.get("animal")
    if target not in state.players or target == player:
        target, chosen = None, None
    # Only legal challenges are offered, before any private entry: whom and which animal is public
    # (the animals lie face up), so this holds without the assist too.
    options = set(engine.trade_options(player))
    targets = [p for p in state.players if p != player and any(t == p for t, _ in options)]
    if target not in targets:
        target, chosen = None, None

    def pick_target(name: str) -> ui.Handler:
        def handler(_: Any) -> None:
            if ctx.draft.get("target") != name:
                ctx.draft["target"] = name
                ctx.draft.pop("animal", None)
            ctx.refresh()
        return handler

    def pick_animal(kind: str) -> ui.Handler:
        def handler(_: Any) -> None:
            ctx.draft["animal"] = kind
            ctx.refresh()
        return handler

    lines: list[ft.Control] = [ui.subtitle(ctx.t(
        "app.bc.trade_title" if "draw" in state.expected.types else "app.bc.trade_title_only", player=player))]
    if not targets:
        lines.append(ui.muted(ctx.t("app.bc.no_trade", player=player), ident=ctx.ident("bc-no-trade")))
        return ui.panel(ft.Column(lines, spacing=12), ident=ctx.ident("bc-trade-choice"))
    lines.append(_row([ui.chip(p, pick_target(p), ident=ctx.ident(f"bc-target-{p}"), selected=p == target)
                       for p in targets], spacing=10))
    if target is not None:
        owned = view["animals"][target]
        lines.append(ui.text(ctx.t("app.bc.trade_animal", target=target), ui.FONT_BODY,
                             weight=ft.FontWeight.W_600))
        chips = []
        for kind in ANIMALS:
            if (target, kind) not in options:
                continue
            chips.append(ui.tile(
                ft.Row([ft.Text(ctx.t("app.bc.animal_count", animal=_name(ctx, kind), n=owned[kind]),
                                size=ui.FONT_LABEL, weight=ft.FontWeight.W_600)], tight=True),
                pick_animal(kind), ident=ctx.ident(f"bc-trade-animal-{kind}"), selected=kind == chosen,
                padding=ft.Padding.symmetric(horizontal=18, vertical=17), label=ctx.say(animal(kind))))
        lines.append(_row(chips, spacing=10))
    if target is not None and chosen is not None:
        lines.append(PRIVATE.pass_line(ctx, player, ctx.t("app.bc.pass_why.offer", player=player, target=target,
                                                   animal=animal(chosen))))
        lines.append(PRIVATE.show_me(ctx, player, _token(state, view, player), cards=[]))
    return ui.panel(ft.Column(lines, spacing=12), ident=ctx.ident("bc-trade-choice"))


def _auction_entry_block(state: State, ctx: TableContext, view: PlayerView) -> ft.Control:
    auction = view["auction"]
    assert auction is not None  # shown in the auction phase only
    auctioneer, highest = auction["auctioneer"], auction["highest"]
    base = highest or 0
    # The new bid starts one step above the highest; the quick raises add to the highest bid, then
    # to the amount already set.
    touched = isinstance(ctx.draft.get("bid"), int)
    amount = ctx.draft["bid"] if touched else base + STEP
    excluded = set(auction["excluded"])
    last_step = ctx.draft.get("step") if touched else None

    def set_amount(value: int, step: int | None = None) -> ui.Handler:
        def handler(_: Any) -> None:
            ctx.draft["bid"] = max(STEP, value)
            ctx.draft["step"] = step
            ctx.refresh()
        return handler

    def bid(player: str) -> ui.Handler:
        return lambda _: ctx.submit({"type": "bid", "player": player, "amount": amount})

    def close(buy_back: bool) -> ui.Handler:
        return lambda _: ctx.submit({"type": "close", "buy_back": buy_back})

    # Every tap shows what it did: the last raise tapped is highlighted and the sum is spelled out
    # (the first "+10" gives the amount already proposed, which alone would look like nothing).
    adjust = _row([
        ui.button(ctx.t("app.bc.lower", n=STEP), set_amount(amount - STEP), ident=ctx.ident("bc-lower"),
                  kind="outlined", disabled=amount <= STEP, height=72),
        _figure(ctx.t("app.bc.new_bid") if touched else ctx.t("app.bc.proposed_bid"), number(ctx, amount),
                ctx.ident("bc-amount"), strong=touched),
        *[ui.button(ctx.t("app.bc.raise", n=step), set_amount((amount if touched else base) + step, step),
                    ident=ctx.ident(f"bc-raise-{step}"), height=72, kind="primary" if step == last_step else "tonal")
          for step in RAISES],
    ], spacing=10)
    how = (ctx.t("app.bc.raised", before=number(ctx, amount - last_step), step=last_step, amount=number(ctx, amount))
           if isinstance(last_step, int) else None)

    bidders = []
    for player in state.players:
        if player == auctioneer:
            continue
        out = player in excluded
        label = ctx.t("app.bc.bidder_out", player=player) if out else player
        bidders.append(ui.chip(label, bid(player), ident=ctx.ident(f"bc-bidder-{player}"),
                               icon=ft.Icons.BLOCK if out else ft.Icons.GAVEL,
                               disabled=out and state.assist))

    if highest is not None:
        closing = [
            ui.button(ctx.t("app.bc.sold_to", bidder=auction["bidder"], amount=highest), close(False),
                      ident=ctx.ident("bc-close-sold"), icon=ft.Icons.SELL, kind="primary", height=72),
            ui.button(ctx.t("app.bc.buy_back", auctioneer=auctioneer, amount=highest), close(True),
                      ident=ctx.ident("bc-close-buy-back"), icon=ft.Icons.REPLY, height=72,
                      disabled=auction["buy_back_lost"] and state.assist),
        ]
    else:
        closing = [ui.button(ctx.t("app.bc.free", auctioneer=auctioneer, animal=animal(auction["animal"])),
                             close(False), ident=ctx.ident("bc-close-free"), icon=ft.Icons.CHECK, kind="primary",
                             height=72)]

    # Closing first: it is the one tap that ends the auction, in view on a phone too; then a new bid.
    return ui.panel(ft.Column([
        _row(closing, spacing=10),
        ft.Divider(height=4),
        adjust,
        *([ui.text(how, ui.FONT_LABEL, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY,
                   ident=ctx.ident("bc-raised"))] if how else []),
        _row([ui.text(ctx.t("app.bc.who_bids", amount=amount), ui.FONT_LABEL, weight=ft.FontWeight.W_600,
                      ident=ctx.ident("bc-who-bids")), *bidders], spacing=10),
    ], spacing=10), ident=ctx.ident("bc-auction-entry"), padding=10 if ctx.compact else 14)


# -- private entries -------------------------------------------------------------------------------


def _private_step(state: State, ctx: TableContext, view: PlayerView) -> tuple[str, str] | None:
    """(player, kind) of the private entry awaited now, if any: "pay", "counter" or "offer"."""
    phase, debt, trade, turn = view["phase"], view["debt"], view["trade"], view["turn"]
    if phase == "payment" and debt is not None:
        return debt["payer"], "pay"
    if phase == "trade_answer" and trade is not None:
        return trade["target"], "counter"
    if phase == "second_challenge" and trade is not None:
        return trade["challenger"], "offer"
    if phase == "turn" and turn and ctx.draft.get("target") in state.players and ctx.draft.get("animal") in ANIMALS:
        return turn, "offer"
    return None


def _token(state: State, view: PlayerView, player: str) -> str:
    """Which private view is open: for this player at this point of the game only."""
    return f"{view['phase']}|{player}|{state.entries}"


def _cover_block(state: State, ctx: TableContext, view: PlayerView, player: str, kind: str) -> ft.Control:
    """The shared screen while a private entry is awaited: who takes the tablet, nothing of their money."""
    if kind == "pay":
        why = ctx.t("app.bc.pass_why.pay", player=player)
    elif kind == "counter":
        why = ctx.t("app.bc.pass_why.counter", player=player)
    else:
        trade = view["trade"]
        assert trade is not None  # an offer is awaited in private only once the trade is chosen
        why = ctx.t("app.bc.pass_why.offer", player=player, target=trade["target"], animal=animal(trade["animal"]))
    actions: list[ft.Control] = [PRIVATE.show_me(ctx, player, _token(state, view, player), cards=[])]
    if kind == "counter":
        actions.append(ui.button(ctx.t("app.bc.accept_public", target=player), _accept(ctx, player),
                                 ident=ctx.ident("bc-accept"), icon=ft.Icons.HANDSHAKE, height=80))
    return PRIVATE.cover(ctx, player, why, actions)


def _accept(ctx: TableContext, player: str) -> ui.Handler:
    return lambda _: ctx.submit({"type": "accept", "player": player})


def _private_block(state: State, ctx: TableContext, view: PlayerView, player: str, kind: str) -> ft.Control:
    """One player's own money, card by card, to pay, offer or counter. Nothing else is shown."""
    cards: list[int] = list(view["money"][player])
    total_held = view["money_total"][player]
    picked: list[str] = ctx.draft.setdefault("cards", [])
    keys: list[tuple[str, int]] = []  # (key, value) of every card held, lowest first
    seen: dict[int, int] = {}
    for value in cards:
        k = seen.get(value, 0)
        seen[value] = k + 1
        keys.append((f"{value}-{k}", value))
    valid = {key for key, _ in keys}
    picked[:] = [key for key in picked if key in valid]
    values = dict(keys)
    chosen = sorted((values[key] for key in picked), reverse=True)
    total = sum(chosen)

    def toggle(key: str) -> ui.Handler:
        return ctx.toggler(picked, key)

    clear = ctx.clearer(picked)

    debt, trade = view["debt"], view["trade"]
    owed = debt["amount"] if debt is not None else 0
    if kind == "pay" and debt is not None:
        intro = ctx.t("app.bc.private_pay", amount=debt["amount"], recipient=debt["recipient"],
                      animal=animal(debt["animal"]))
    elif kind == "counter" and trade is not None:
        offered = trade["cards_offered"]
        intro = ctx.t("app.bc.private_counter", n=offered, challenger=trade["challenger"],
                      animal=animal(trade["animal"]), stake=trade["animals_at_stake"])
    else:
        target = trade["target"] if trade is not None else ctx.draft["target"]
        kind_of = trade["animal"] if trade is not None else ctx.draft["animal"]
        intro = ctx.t("app.bc.private_offer", target=target, animal=animal(kind_of))

    tiles = [ui.tile(ft.Text(number(ctx, value), size=30, weight=ft.FontWeight.BOLD), toggle(key),
                     ident=ctx.ident(f"bc-cash-{key}"), selected=key in picked, width=96, height=84, padding=4,
                     label=ctx.t("app.bc.money_card", value=value))
             for key, value in keys]

    figures = [_figure(ctx.t("app.bc.figure_picked"), number(ctx, total), ctx.ident("bc-picked"), strong=True)]
    if kind == "pay":
        figures.append(_figure(ctx.t("app.bc.figure_owed"), number(ctx, owed), ctx.ident("bc-owed")))

    buttons: list[ft.Control] = []
    if kind == "pay":
        def pay(_: Any) -> None:
            ctx.submit({"type": "pay", "player": player, "cards": chosen})

        def cannot(_: Any) -> None:
            ctx.submit({"type": "cannot_pay", "player": player})

        short = state.assist and total < owed
        buttons.append(ui.button(ctx.t("app.bc.pay", total=total), pay, ident=ctx.ident("bc-pay"),
                                 icon=ft.Icons.PAYMENTS, kind="primary", disabled=not chosen or short, height=72))
        buttons.append(ui.button(ctx.t("app.bc.cannot_pay"), cannot, ident=ctx.ident("bc-cannot-pay"),
                                 icon=ft.Icons.MONEY_OFF, kind="danger", height=72,
                                 disabled=state.assist and total_held >= owed))
    elif kind == "counter":
        def counter(_: Any) -> None:
            ctx.submit({"type": "counter", "player": player, "cards": chosen})

        buttons.append(ui.button(ctx.t("app.bc.counter", n=len(chosen)), counter, ident=ctx.ident("bc-counter"),
                                 icon=ft.Icons.SWAP_HORIZ, kind="primary", disabled=not chosen, height=72))
        buttons.append(ui.button(ctx.t("app.bc.accept_private"), _accept(ctx, player),
                                 ident=ctx.ident("bc-accept-private"), icon=ft.Icons.HANDSHAKE, height=72))
    else:
        def offer(_: Any) -> None:
            if trade is not None:
                target, kind_of = trade["target"], trade["animal"]
            else:
                target, kind_of = ctx.draft["target"], ctx.draft["animal"]
            ctx.submit({"type": "challenge", "player": player, "target": target, "animal": kind_of,
                        "cards": chosen})

        buttons.append(ui.button(ctx.t("app.bc.put_down", n=len(chosen)), offer, ident=ctx.ident("bc-offer"),
                                 icon=ft.Icons.FILE_DOWNLOAD_DONE, kind="primary", disabled=not chosen, height=72))
    buttons.append(ui.button(ctx.t("app.bc.clear"), clear, ident=ctx.ident("bc-clear"), icon=ft.Icons.BACKSPACE,
                             kind="outlined", disabled=not picked, height=72))

    held = (ctx.t("app.bc.your_money", n=len(cards), total=total_held) if cards else ctx.t("app.bc.no_money"))
    return PRIVATE.panel(ctx, player, [
        ui.text(intro, ui.FONT_BODY, ident=ctx.ident("bc-private-intro")),
        ui.text(held, ui.FONT_BODY, weight=ft.FontWeight.W_600, ident=ctx.ident("bc-held")),
        ft.Row(tiles, wrap=True, spacing=10, run_spacing=10),
        _row(figures + buttons, spacing=12),
    ])


DEAL_EACH = 4  # animals dealt to each player in the short version (spec §4.3)


def build_setup(app: Any, draft: Any) -> tuple[str, ft.Control, str]:
    """The set-up's section for the short version (animals dealt face up, §4.3): tap a player, then
    their animals (4 each, 4 of an animal at most; the record models check the rest at start)."""
    return app.t("app.setup.short"), _short_version(app, draft, ANIMALS), "setup-short"


def _short_version(app: Any, draft: Any, species: Sequence[str]) -> ft.Control:
    def toggle_short(e: Any) -> None:
        draft.short = bool(e.control.value)
        app.render()

    switch = ft.Row([
        ui.tid("short-switch", ft.Switch(value=draft.short, on_change=toggle_short, scale=1.3)),
        ft.Column([
            ui.text(app.t("app.setup.short_title"), ui.FONT_BODY, weight=ft.FontWeight.W_600),
            ui.muted(app.t("app.setup.short_on" if draft.short else "app.setup.short_off")),
        ], spacing=2, expand=True),
    ], spacing=ui.GAP)
    if not draft.short:
        return switch
    if not draft.seats:
        return ft.Column([switch, ui.muted(app.t("app.setup.deal_no_players"), ident="deal-no-players")],
                         spacing=12)

    seated = list(draft.seats)
    hands = {name: draft.deal.setdefault(name, []) for name in seated}
    dealt = {kind: sum(hand.count(kind) for hand in hands.values()) for kind in species}
    if draft.dealing not in seated or len(hands[draft.dealing]) >= DEAL_EACH:
        short_of = [n for n in seated if len(hands[n]) < DEAL_EACH]
        if short_of:
            draft.dealing = short_of[0]
        elif draft.dealing not in seated:
            draft.dealing = seated[0]
    dealing = draft.dealing

    def choose(name: str) -> ui.Handler:
        def handler(_: Any) -> None:
            draft.dealing = name
            app.render()
        return handler

    def deal(kind: str) -> ui.Handler:
        def handler(_: Any) -> None:
            hand = draft.deal.setdefault(dealing, [])
            if len(hand) < DEAL_EACH and dealt[kind] < COPIES:
                hand.append(kind)
            if len(hand) >= DEAL_EACH:  # on to the next player still short of animals, clockwise
                i = seated.index(dealing)
                later = seated[i + 1:] + seated[:i]
                draft.dealing = next((n for n in later if len(draft.deal.get(n, [])) < DEAL_EACH), dealing)
            app.render()
        return handler

    def take_back(name: str, index: int) -> ui.Handler:
        def handler(_: Any) -> None:
            hand = draft.deal.get(name, [])
            if 0 <= index < len(hand):
                del hand[index]
            draft.dealing = name
            app.render()
        return handler

    rows: list[ft.Control] = []
    for name in seated:
        hand = hands[name]
        picks: list[ft.Control] = []
        for i, kind in enumerate(hand):
            border, bg = ANIMAL_COLOURS[kind]
            said = app.say(animal(kind))
            picks.append(ui.tid(f"deal-remove-{name}-{i}", ft.Container(
                ft.Row([ft.Text(said[:1].upper() + said[1:], size=ui.FONT_BODY, weight=ft.FontWeight.W_600,
                                color=ft.Colors.BLACK),
                        ft.Icon(ft.Icons.CLOSE, size=22, color=ft.Colors.BLACK)],
                       tight=True, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                on_click=take_back(name, i), bgcolor=bg, border=ft.Border.all(2, border), border_radius=ui.RADIUS,
                height=ui.TOUCH, padding=ft.Padding.symmetric(horizontal=14), ink=True), button=True, label=app.t("app.setup.deal_remove", animal=said, player=name)))
        rows.append(ft.Row([
            ui.chip(name, choose(name), ident=f"deal-player-{name}", selected=name == dealing,
                    icon=ft.Icons.PLAY_ARROW if name == dealing else ft.Icons.PERSON),
            ui.text(app.t("app.setup.deal_count", count=len(hand), each=DEAL_EACH), ui.FONT_BODY,
                    weight=ft.FontWeight.W_600 if len(hand) == DEAL_EACH else None, ident=f"deal-count-{name}"),
            ui.tid(f"deal-{name}", ft.Row(picks, wrap=True, spacing=8, run_spacing=8)),
        ], wrap=True, spacing=12, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER))

    full = len(hands[dealing]) >= DEAL_EACH
    tiles: list[ft.Control] = []
    for kind in species:
        left = COPIES - dealt[kind]
        gone = full or left <= 0
        tiles.append(ui.tid(f"deal-animal-{kind}", ft.Container(
            animal_card(app, kind, scale=0.72, left=left), on_click=None if gone else deal(kind),
            border_radius=10, ink=True, opacity=0.4 if gone else 1.0),
            button=True, label=app.t("app.setup.deal_label", animal=animal(kind), player=dealing, n=left)))
    return ft.Column([
        switch,
        ui.muted(app.t("app.setup.deal_help", each=DEAL_EACH)),
        *rows,
        ui.text(app.t("app.setup.deal_to", player=dealing), ui.FONT_LABEL, weight=ft.FontWeight.W_600,
                ident="deal-to"),
        ft.Row(tiles, wrap=True, spacing=10, run_spacing=10),
    ], spacing=12)


def chapters(state: Any, entries: Any) -> Any:
    """A past game's chapters (companion.app.chapters): an auction opens with each card drawn, a
    trade with each challenge."""
    from companion.app.chapters import chapters_of

    kinds = {"draw": "auction", "challenge": "trade"}
    return chapters_of(entries, lambda e: kinds.get(e.action.get("type", "")))
