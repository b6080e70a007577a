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

from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any, Mapping

import flet as ft

from companion.app import ui
from companion.app.format import Speaker, number
from companion.app.games import GameScreen, GameScreenBase, TableContext, TableState
from companion.app.private_view import PrivateView
from models.i18n import Msg
from scoring.base import event
from scoring.boursicocotte import (
    ANIMALS,
    COPIES,
    DONKEY_MONEY,
    VALUES,
    BoursicocotteEngine,
    PlayerView,
    animal,
    can_pay_exactly,
)

State = TableState[BoursicocotteEngine]  # what this screen reads: the table, with this game's engine

RAISES = (10, 20, 50, 100, 200)
STEP = 10  # the smallest money card above 0: the default raise and the fine adjustment
SHOWN = "bid_shown"  # draft key: the amount the auction's offer shows, read by its kept buttons' taps
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
    private = None
    if live:
        step = _private_step(state, ctx, view)
        if step is not None and PRIVATE.is_open(ctx, _token(state, view, step[0])):
            # the private entry hides everything else the screen would show
            private = _private_block(state, ctx, view, *step)
    return PRIVATE.screen(ctx, _public_parts(state, ctx, view, live), private)


def _public_parts(state: State, ctx: TableContext, view: PlayerView, live: bool) -> list[ft.Control]:
    challenge = _challenge_chosen(state, ctx, view["turn"]) if live and view["phase"] == "turn" else (None, None)
    parts: list[ft.Control] = [_table_block(state, ctx, view, challenge)]
    if live:
        phase = view["phase"]
        types = tuple(state.expected.types)
        # The draw picker, then the trade chooser right under it, both in view on a tablet; once a
        # target is chosen the trade is what the table does: the picker folds away ("draw instead"
        # brings it back) and the chooser comes up under the line saying the next step. The picker
        # stays on the page, hidden as it was last shown, through the auction and the payment that
        # follow a draw: its cards, kept, are not sent to the browser again when it comes back (only
        # the one drawn).
        if any(view["deck"].values()):
            shown = phase == "turn" and "draw" in types and challenge[0] is None
            parts.append(ft.Container(_draw_block(state, ctx, view, shown), visible=shown,
                                      key=ctx.ident("bc-draw-place")))
        if phase == "turn":
            if "challenge" in types:
                parts.append(_trade_choice_block(state, ctx, view, challenge))
        elif phase == "auction":
            parts.append(_auction_entry_block(state, ctx, view))
        elif phase in ("payment", "trade_answer", "second_challenge"):
            player, kind = _private_step(state, ctx, view)  # type: ignore[misc]
            parts.append(_cover_block(state, ctx, view, player, kind))
    if view["last_trade"] and view["phase"] != "trade_answer":
        said = tuple(ctx.say(m) for m in view["last_trade"])
        parts.append(ctx.keep("bc-last-trade", said, lambda: _last_trade_block(ctx, said)))
    if not ctx.side_panel:
        parts.append(_players_block(state, ctx, view))
    return parts


def build_side(state: State, ctx: TableContext) -> ft.Control:
    """The players' animals (public), one compact row each, for the table frame's side column."""
    view = state.engine.player_view()
    over = state.outcome is not None
    rows: list[ft.Control] = [_kept_tile(state, ctx, view, p, None, "bc-side") for p in state.players]
    if not over:
        rows.append(ui.muted(ctx.t("app.bc.money_private"), ident=ctx.ident("bc-money-private")))
    return ft.Column(rows, spacing=6)


def _frozen(value: Any) -> Any:
    """A hashable copy of a part of the player view (dicts, lists, messages): a kept part's inputs."""
    if isinstance(value, Mapping):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, Msg):
        return (value.key, _frozen(value.params))
    return value


def prompt(state: State, ctx: TableContext) -> str | None:
    """The frame's prompt while the player whose turn it is chooses a challenge (the engine's says
    only whose turn it is): whom, then over which animal (public: the animals lie face up); during a
    donkey's auction, what that donkey paid every player, then the engine's prompt."""
    engine = state.engine  # its turn and phase, not the whole player view the screen builds anyway
    auction = engine.auction
    if engine.phase == "auction" and auction is not None and auction.animal == "donkey" and engine.donkeys:
        # a donkey just paid every player: said where the eye is, above its auction's own sentence
        return ctx.t("app.bc.donkey_prompt", n=engine.donkeys, amount=DONKEY_MONEY[engine.donkeys - 1],
                     prompt=state.expected.prompt)
    if engine.phase != "turn" or engine.turn is None:
        return None
    target, chosen = _challenge_chosen(state, ctx, engine.turn)
    if target is None:
        return None
    if chosen is None:
        return ctx.t("app.bc.step_animal", player=engine.turn, target=target)
    return ctx.t("app.bc.trade_on", challenger=engine.turn, target=target, animal=animal(chosen))


def _challenge_chosen(state: State, ctx: TableContext, player: str | None) -> tuple[str | None, str | None]:
    """(target, animal) of the challenge ``player`` (whose turn it is) has chosen so far in the draft,
    each None until chosen; only a legal one counts (whom and over which animal is public: the
    animals lie face up)."""
    target, chosen = ctx.draft.get("target"), ctx.draft.get("animal")
    if player is None or target not in state.players or target == player:
        return None, None
    options = state.engine.trade_options(player)
    if not any(t == target for t, _ in options):
        return None, None
    return target, (chosen if (target, chosen) in options else None)


# -- small pieces ----------------------------------------------------------------------------------


def _name(ctx: Speaker, kind: str) -> str:
    said = ctx.say(animal(kind))
    return said[:1].upper() + said[1:]


def animal_card(ctx: Speaker, kind: str, *, scale: float = 1.0, left: int | None = None) -> ft.Control:
    border, bg = ANIMAL_COLOURS[kind]
    lines: list[ft.Control] = [
        ft.Text(_name(ctx, kind), size=max(13, 22 * scale), weight=ft.FontWeight.BOLD, color=ft.Colors.BLACK,
                text_align=ft.TextAlign.CENTER, max_lines=1),
        ft.Text(number(ctx, VALUES[kind]), size=max(20, 40 * scale), weight=ft.FontWeight.BOLD, color=border,
                text_align=ft.TextAlign.CENTER),
    ]
    if left is not None:
        lines.append(ft.Text(ctx.t("app.bc.left", n=left), size=max(12, 16 * scale), color=ft.Colors.BLACK_87,
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


def _figure(caption: str, value: str, ident: str, strong: bool = False, compact: bool = False) -> ft.Control:
    return ui.tid(ident, ft.Container(ft.Column([
        ft.Text(caption, size=ui.FONT_SMALL, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(value, size=(ui.FONT_TITLE if compact else ui.FONT_HUGE) if strong else ui.FONT_TITLE - 4 * compact,
                weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY if strong else None),
    ], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        padding=ft.Padding.symmetric(horizontal=8, vertical=4), border_radius=ui.RADIUS,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, width=110 if compact else 150))


def _row(controls: list[ft.Control], spacing: float = ui.GAP) -> ft.Row:
    return ft.Row(controls, wrap=True, spacing=spacing, run_spacing=spacing,
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


# -- what is on the table --------------------------------------------------------------------------


def _table_block(state: State, ctx: TableContext, view: PlayerView,
                 challenge: tuple[str | None, str | None]) -> ft.Control:
    """The animal up for auction, the bids, the debt or the trade under way; the deck; on a turn,
    the step the table is at (whose turn, then who challenges whom, then over which animal). Kept
    while what it shows is the same."""
    setup = tuple(ctx.say(m) for m in view["setup"]) if state.entries == 0 else ()
    inputs = (view["phase"], view["turn"], _frozen(view["auction"]), _frozen(view["debt"]), _frozen(view["trade"]),
              view["deck_count"], view["donkeys_drawn"], view["next_donkey_money"], state.outcome is None, setup,
              challenge, ctx.compact)
    return ctx.keep("bc-table", inputs, lambda: _build_table_block(state, ctx, view, challenge, setup))


def _build_table_block(state: State, ctx: TableContext, view: PlayerView, challenge: tuple[str | None, str | None],
                       setup: tuple[str, ...]) -> ft.Control:
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
    else:  # the deck, face down: smaller than a card up for sale, the turn's entries come under it
        deck_scale = 0.5 if ctx.compact else 0.6
        shown = ft.Container(ft.Icon(ft.Icons.STYLE, size=40, color=ft.Colors.ON_SURFACE_VARIANT),
                             width=CARD_W * deck_scale, height=CARD_H * deck_scale,
                             border=ft.Border.all(3, ft.Colors.OUTLINE), border_radius=10,
                             alignment=ft.Alignment.CENTER)
        if state.outcome is not None:
            info.append(ui.text(ctx.t("app.bc.over"), ui.FONT_TITLE, weight=ft.FontWeight.BOLD))
        elif view["turn"] is not None:
            target, chosen = challenge
            if target is None:
                line = ctx.t("app.bc.turn_of", player=view["turn"])
            elif chosen is None:
                line = ctx.t("app.bc.step_animal", player=view["turn"], target=target)
            else:
                line = ctx.t("app.bc.trade_on", challenger=view["turn"], target=target, animal=animal(chosen))
            info.append(ui.text(line, ui.FONT_LABEL if ctx.compact else ui.FONT_TITLE,
                                weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY if target else None,
                                ident=ctx.ident("bc-turn")))
    info.append(ui.muted(ctx.t("app.bc.deck", n=view["deck_count"]), ident=ctx.ident("bc-deck")))
    if view["next_donkey_money"] is not None:
        info.append(ui.muted(ctx.t("app.bc.donkeys", n=view["donkeys_drawn"], of=len(DONKEY_MONEY),
                                   amount=view["next_donkey_money"]), ident=ctx.ident("bc-donkeys")))
    else:
        info.append(ui.muted(ctx.t("app.bc.donkeys_all"), ident=ctx.ident("bc-donkeys")))
    info.extend(ui.muted(line) for line in setup)
    return ui.panel(ft.Row([shown, ft.Column(info, spacing=4 if ctx.compact else 6, expand=True)],
                           spacing=12 if ctx.compact else 24, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                    ident=ctx.ident("bc-table"), padding=10 if ctx.compact else 18)


def _last_trade_block(ctx: TableContext, said: Sequence[str]) -> ft.Control:
    """The outcome of the last trade, for everyone: the engine's sentences never give amounts."""
    return ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.bc.last_trade")),
        *[ft.Text(line, size=ui.FONT_LABEL, color=ft.Colors.ON_TERTIARY_CONTAINER) for line in said],
    ], spacing=8), bgcolor=ft.Colors.TERTIARY_CONTAINER, ident=ctx.ident("bc-last-trade"))


def _players_block(state: State, ctx: TableContext, view: PlayerView) -> ft.Control:
    """Each player's animals (face up at the table). Money only once the game is over."""
    tiles = [_kept_tile(state, ctx, view, p, 260, "bc-tile") for p in state.players]
    parts: list[ft.Control] = [ft.Row(tiles, wrap=True, spacing=12, run_spacing=12,
                                      vertical_alignment=ft.CrossAxisAlignment.START)]
    if state.outcome is None:
        parts.append(ui.muted(ctx.t("app.bc.money_private"), ident=ctx.ident("bc-money-private")))
    return ft.Column(parts, spacing=8)


def _kept_tile(state: State, ctx: TableContext, view: PlayerView, player: str, width: float | None,
               slot: str) -> ft.Control:
    """A player's tile, kept while what it shows is: their turn, animals, sets, score, money at the end."""
    over = state.outcome is not None
    complete = tuple(view["complete_sets"][player])
    inputs = (player, view["turn"] == player, _frozen(view["animals"][player]), complete,
              view["scores"][player] if complete or over else None,
              tuple(view["money"][player]) if over else None, over, width)
    return ctx.keep(f"{slot}-{player}", inputs, lambda: _player_tile(state, ctx, view, player, width))


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


DRAW_GAP = 8
DRAW_MAX = 0.72  # the largest scale of a card to draw (of CARD_W × CARD_H)


DRAW_SLOT = "bc-draw"  # the draw picker's part, kept between renders


def draw_scale(width: float | None, count: int, compact: bool) -> float:
    """The scale of the cards to draw: the animals left in one row of the width the screen gets
    (the trade chooser then fits under them on a tablet), never larger than DRAW_MAX, and on a
    phone in rows of four (five would cut the animals' names)."""
    if width is None:
        return 0.6 if compact else DRAW_MAX
    inner = width - 2 * (10 if compact else 14) - 4
    per_row = min(count, 4) if compact else max(count, 1)
    fit = (inner - (per_row - 1) * DRAW_GAP) / per_row / CARD_W
    return max(0.45, min(DRAW_MAX, fit))


def _draw_block(state: State, ctx: TableContext, view: PlayerView, shown: bool) -> ft.Control:
    """The animals left in the deck, one tap on the one turned over. Kept while the deck and the
    turn are the same (its taps only submit); hidden, it stays as it was last built."""
    if not shown:
        return ctx.last(DRAW_SLOT) or ft.Container()
    player = view["turn"]
    left = tuple((k, view["deck"][k]) for k in ANIMALS if view["deck"][k] > 0)
    scale = draw_scale(ctx.width, len(left), ctx.compact)
    return ctx.keep(DRAW_SLOT, (player, left, scale, ctx.compact, "challenge" in state.expected.types),
                    lambda: _build_draw_block(ctx, player, left, scale))


def _build_draw_block(ctx: TableContext, player: str | None, left: tuple[tuple[str, int], ...],
                      scale: float) -> ft.Control:
    def draw(kind: str) -> ui.Handler:
        return lambda _: ctx.submit({"type": "draw", "card": kind})

    def card(kind: str, n: int) -> ft.Control:
        return ui.tid(ctx.ident(f"bc-draw-{kind}"),
                      ft.Container(animal_card(ctx, kind, scale=scale, left=n), on_click=draw(kind),
                                   border_radius=10),
                      button=True, label=ctx.t("app.bc.draw_label", animal=animal(kind), n=n))

    # each card kept while its count is: the next turn builds again only the one drawn
    tiles = [ctx.keep(f"bc-draw-{kind}", (n, scale), partial(card, kind, n)) for kind, n in left]
    return ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.bc.draw_title", player=player)),
        ft.Row(tiles, wrap=True, spacing=DRAW_GAP, run_spacing=DRAW_GAP),
    ], spacing=8), ident=ctx.ident("bc-draw"), padding=10 if ctx.compact else 14)


def _trade_choice_block(state: State, ctx: TableContext, view: PlayerView,
                        challenge: tuple[str | None, str | None]) -> ft.Control:
    """The challenger says aloud whom they challenge over which animal: chosen in public. Only
    legal challenges are offered, before any private entry: whom and which animal is public (the
    animals lie face up), so this holds without the assist too."""
    engine = state.engine
    player = view["turn"]
    assert player is not None  # a challenge is chosen on a turn: whose turn it is is known
    target, chosen = challenge
    options = set(engine.trade_options(player))
    targets = [p for p in state.players if p != player and any(t == p for t, _ in options)]
    can_draw = "draw" in state.expected.types

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

    def no_trade(_: Any) -> None:
        ctx.draft.pop("target", None)
        ctx.draft.pop("animal", None)
        ctx.refresh()

    lines: list[ft.Control] = [ui.subtitle(ctx.t(
        "app.bc.trade_title" if can_draw and target is None else "app.bc.trade_title_only", player=player))]
    if not targets:
        lines.append(ui.muted(ctx.t("app.bc.no_trade", player=player), ident=ctx.ident("bc-no-trade")))
        return ui.panel(ft.Column(lines, spacing=8), ident=ctx.ident("bc-trade-choice"),
                        padding=10 if ctx.compact else 14)
    chips = [ui.chip(p, pick_target(p), ident=ctx.ident(f"bc-target-{p}"), selected=p == target,
                     compact=ctx.compact) for p in targets]
    if target is not None and can_draw:
        chips.append(ui.button(ctx.t("app.bc.trade_back"), no_trade, ident=ctx.ident("bc-trade-back"),
                               icon=ft.Icons.UNDO, kind="outlined"))
    lines.append(_row(chips, spacing=10))
    if target is not None:
        owned = view["animals"][target]
        lines.append(ui.text(ctx.t("app.bc.trade_animal", target=target), ui.FONT_BODY,
                             weight=ft.FontWeight.W_600))
        tiles = []
        for kind in ANIMALS:
            if (target, kind) not in options:
                continue
            tiles.append(ui.tile(
                ft.Row([ft.Text(ctx.t("app.bc.animal_count", animal=_name(ctx, kind), n=owned[kind]),
                                size=ui.FONT_LABEL, weight=ft.FontWeight.W_600)], tight=True),
                pick_animal(kind), ident=ctx.ident(f"bc-trade-animal-{kind}"), selected=kind == chosen,
                padding=ft.Padding.symmetric(horizontal=18, vertical=12), label=ctx.say(animal(kind))))
        lines.append(_row(tiles, spacing=10))
    if target is not None and chosen is not None:
        lines.append(PRIVATE.pass_line(ctx, player, ctx.t("app.bc.pass_why.offer", player=player, target=target,
                                                   animal=animal(chosen))))
        lines.append(PRIVATE.show_me(ctx, player, _token(state, view, player), cards=[]))
    return ui.panel(ft.Column(lines, spacing=8 if ctx.compact else 10), ident=ctx.ident("bc-trade-choice"),
                    padding=10 if ctx.compact else 14)


def _auction_entry_block(state: State, ctx: TableContext, view: PlayerView) -> ft.Control:
    auction = view["auction"]
    assert auction is not None  # shown in the auction phase only
    auctioneer, highest = auction["auctioneer"], auction["highest"]
    base = highest or 0
    # The new bid starts one step above the highest; a quick raise adds to the amount shown (what
    # the table reads in the offer), whether it was proposed or already set.
    touched = isinstance(ctx.draft.get("bid"), int)
    amount = ctx.draft["bid"] if touched else base + STEP
    excluded = set(auction["excluded"])
    last_step = ctx.draft.get("step") if touched else None
    # The buttons below are kept between taps: their taps read the amount shown from the draft (the
    # same dict for the screen's life, emptied in place by an entry), written at each render.
    ctx.draft[SHOWN] = amount

    def change(step: int) -> ui.Handler:
        def handler(_: Any) -> None:
            ctx.draft["bid"] = max(STEP, ctx.draft[SHOWN] + step)
            ctx.draft["step"] = step if step > 0 else None
            ctx.refresh()
        return handler

    def bid(player: str) -> ui.Handler:
        return lambda _: ctx.submit({"type": "bid", "player": player, "amount": ctx.draft[SHOWN]})

    def close(buy_back: bool) -> ui.Handler:
        return lambda _: ctx.submit({"type": "close", "buy_back": buy_back})

    # Every tap shows what it did: the last raise tapped is highlighted and the sum is spelled out.
    adjust = _row([
        ctx.keep("bc-lower", (amount <= STEP,), lambda: ui.button(
            ctx.t("app.bc.lower", n=STEP), change(-STEP), ident=ctx.ident("bc-lower"), kind="outlined",
            disabled=amount <= STEP, height=72)),
        _figure(ctx.t("app.bc.new_bid") if touched else ctx.t("app.bc.proposed_bid"), number(ctx, amount),
                ctx.ident("bc-amount"), strong=touched),
        *[ctx.keep(f"bc-raise-{step}", (step == last_step,), partial(
            lambda step: ui.button(ctx.t("app.bc.raise", n=step), change(step), ident=ctx.ident(f"bc-raise-{step}"),
                                   height=72, kind="primary" if step == last_step else "tonal"), step))
          for step in RAISES],
    ], spacing=10)
    how = (ctx.t("app.bc.raised", before=number(ctx, amount - last_step), step=last_step, amount=number(ctx, amount))
           if isinstance(last_step, int) else None)

    def bidder(player: str, out: bool) -> ft.Control:
        label = ctx.t("app.bc.bidder_out", player=player) if out else player
        return ui.chip(label, bid(player), ident=ctx.ident(f"bc-bidder-{player}"),
                       icon=ft.Icons.BLOCK if out else ft.Icons.GAVEL, disabled=out and state.assist)

    bidders = [ctx.keep(f"bc-bidder-{p}", (p in excluded, state.assist), partial(bidder, p, p in excluded))
               for p in state.players if p != auctioneer]

    def closing_row() -> ft.Control:
        return _row(closing_buttons(), spacing=10)

    def closing_buttons() -> list[ft.Control]:
        if highest is None:
            return [ui.button(ctx.t("app.bc.free", auctioneer=auctioneer, animal=animal(auction["animal"])),
                              close(False), ident=ctx.ident("bc-close-free"), icon=ft.Icons.CHECK, kind="primary",
                              height=72)]
        return [
            ui.button(ctx.t("app.bc.sold_to", bidder=auction["bidder"], amount=highest), close(False),
                      ident=ctx.ident("bc-close-sold"), icon=ft.Icons.SELL, kind="primary", height=72),
            ui.button(ctx.t("app.bc.buy_back", auctioneer=auctioneer, amount=highest), close(True),
                      ident=ctx.ident("bc-close-buy-back"), icon=ft.Icons.REPLY, height=72,
                      disabled=auction["buy_back_lost"] and state.assist),
        ]

    # the closing buttons only submit: kept while the highest bid and who may buy back are the same
    closing = ctx.keep("bc-closing", (auctioneer, auction["animal"], highest, auction["bidder"],
                                      auction["buy_back_lost"], state.assist), closing_row)

    # Closing first: it is the one tap that ends the auction, in view on a phone too; then a new bid.
    return ui.panel(ft.Column([
        closing,
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

    compact = ctx.compact  # on a phone: smaller cards and buttons, the whole entry within one screen

    def cash(key: str, value: int, selected: bool) -> ft.Control:
        return ui.tile(ft.Text(number(ctx, value), size=24 if compact else 30, weight=ft.FontWeight.BOLD),
                       toggle(key), ident=ctx.ident(f"bc-cash-{key}"), selected=selected, width=76 if compact else 96,
                       height=64 if compact else 84, padding=4, label=ctx.t("app.bc.money_card", value=value))

    # a card is kept while it is picked or not (its tap writes into ``picked``: named by identity)
    tiles = [ctx.keep(f"bc-cash-{key}", (player, id(picked), key, value, key in picked, compact),
                      partial(cash, key, value, key in picked))
             for key, value in keys]

    figures = [_figure(ctx.t("app.bc.figure_picked"), number(ctx, total), ctx.ident("bc-picked"), strong=True,
                       compact=compact)]
    if kind == "pay":
        figures.append(_figure(ctx.t("app.bc.figure_owed"), number(ctx, owed), ctx.ident("bc-owed"),
                               compact=compact))
    tall = ui.TOUCH if compact else 72

    buttons: list[ft.Control] = []
    reason: ft.Control | None = None  # why the payment button is greyed, beside it
    if kind == "pay":
        def pay(_: Any) -> None:
            ctx.submit({"type": "pay", "player": player, "cards": chosen})

        def cannot(_: Any) -> None:
            ctx.submit({"type": "cannot_pay", "player": player})

        why_not = _payment_blocked(state, cards, chosen, owed)
        buttons.append(ui.button(ctx.t("app.bc.pay", total=total), pay, ident=ctx.ident("bc-pay"),
                                 icon=ft.Icons.PAYMENTS, kind="primary", disabled=not chosen or why_not is not None,
                                 height=tall))
        if why_not is not None:
            reason = ui.text(ctx.t(why_not[0], **why_not[1]), ui.FONT_BODY, weight=ft.FontWeight.W_600,
                             color=ft.Colors.ERROR, ident=ctx.ident("bc-pay-why-not"))
        buttons.append(ui.button(ctx.t("app.bc.cannot_pay"), cannot, ident=ctx.ident("bc-cannot-pay"),
                                 icon=ft.Icons.MONEY_OFF, kind="danger", height=tall,
                                 disabled=state.assist and total_held >= owed))
    elif kind == "counter":
        def counter(_: Any) -> None:
            ctx.submit({"type": "counter", "player": player, "cards": chosen})

        buttons.append(ui.button(ctx.t("app.bc.counter", n=len(chosen)), counter, ident=ctx.ident("bc-counter"),
                                 icon=ft.Icons.SWAP_HORIZ, kind="primary", disabled=not chosen, height=tall))
        buttons.append(ui.button(ctx.t("app.bc.accept_private"), _accept(ctx, player),
                                 ident=ctx.ident("bc-accept-private"), icon=ft.Icons.HANDSHAKE, height=tall))
    else:
        def offer(_: Any) -> None:
            if trade is not None:
                target, kind_of = trade["target"], trade["animal"]
            else:
                target, kind_of = ctx.draft["target"], ctx.draft["animal"]
            ctx.submit({"type": "challenge", "player": player, "target": target, "animal": kind_of,
                        "cards": chosen})

        buttons.append(ui.button(ctx.t("app.bc.put_down", n=len(chosen)), offer, ident=ctx.ident("bc-offer"),
                                 icon=ft.Icons.FILE_DOWNLOAD_DONE, kind="primary", disabled=not chosen, height=tall))
    buttons.append(ui.button(ctx.t("app.bc.clear"), clear, ident=ctx.ident("bc-clear"), icon=ft.Icons.BACKSPACE,
                             kind="outlined", disabled=not picked, height=tall))

    held = (ctx.t("app.bc.your_money", n=len(cards), total=total_held) if cards else ctx.t("app.bc.no_money"))
    return PRIVATE.panel(ctx, player, [
        ui.text(intro, ui.FONT_BODY, ident=ctx.ident("bc-private-intro")),
        ui.text(held, ui.FONT_BODY, weight=ft.FontWeight.W_600, ident=ctx.ident("bc-held")),
        ft.Row(tiles, wrap=True, spacing=8 if compact else 10, run_spacing=8 if compact else 10),
        _row(figures + buttons, spacing=8 if compact else 12),
        *([reason] if reason is not None else []),
    ])


def _payment_blocked(state: State, cards: Sequence[int], chosen: Sequence[int],
                     owed: int) -> tuple[str, dict[str, Any]] | None:
    """Why the cards picked cannot pay the amount owed (a catalogue key and its parameters), or
    None. Only the payer sees it, in their private view: it quotes what they picked. Short of the
    amount, or more than it when the cards held make it exactly and the table plays the rulebook's
    exact payment (BC-OVERPAY)."""
    if not chosen:
        return None
    total = sum(chosen)
    if total < owed:
        return "app.bc.pay_short", {"missing": owed - total, "amount": owed}
    if total > owed and state.engine.payment == "exact" and can_pay_exactly(Counter(cards), owed):
        return "app.bc.pay_exact", {"amount": owed}
    return None


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
                height=ui.TOUCH, padding=ft.Padding.symmetric(horizontal=14)), button=True, label=app.t("app.setup.deal_remove", animal=said, player=name)))
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
            border_radius=10, opacity=0.4 if gone else 1.0),
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


class Screen(GameScreenBase):
    """This game's hooks of the table screen's contract (companion.app.games.GameScreen)."""

    PRIVATE_ENTRIES: tuple[str, ...] = PRIVATE_ENTRIES
    build = staticmethod(build)
    build_side = staticmethod(build_side)
    prompt = staticmethod(prompt)
    table_log = staticmethod(table_log)
    chapters = staticmethod(chapters)
    build_setup = staticmethod(build_setup)


SCREEN: GameScreen = Screen()
