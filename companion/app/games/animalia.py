"""Animalia at the table.

Public (face up at the table, always shown): the lot in play and whom it is offered to, every
collection with its elegance stars and its count of cards, the dealer and the season, the deck's
count, the elegance prize and who draws how many bonus cards, the covers laid in phase 3, and how
many bonus cards each player holds.

Private: which bonus cards a player holds, and the medals taken. A bonus card is entered behind a
"hand the tablet to …" screen; in phase 3 each player opens their own view (their bonus cards, the
medal adviser's proposals, the covers and the medal choice), confirms, and the screen is covered
again. The season tally keeps the medals hidden until the players tap "reveal"; the game's end
shows them.

The card picker greys out what the table can see is not in the deck (collections, lot, covered or
set-aside cards, and the five cute animals with 2–4 players); cards held as bonus cards stay
tappable (greying them would show them), unless the assist setting is on. The engine refuses what
is illegal and the frame shows the rule. Game facts come from the engine's documented public
attributes (scoring/animalia.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import flet as ft

from companion.app import ui
from companion.app.games import GameScreen, GameScreenBase, TableContext, TableState
from companion.app.private_view import PrivateView
from models.games.animalia import ANI_CARDS, ANI_FAMILIES, ANI_MEMBERS
from models.i18n import Msg
from scoring.animalia import SEASONS, AnimaliaEngine, Phase, card, count_msg, medals_msg, stars_of
from scoring.animalia_medals import OWL, advise, medal_choices, normalised

State = TableState[AnimaliaEngine]  # what this screen reads: the table, with this game's engine

FAMILY_COLOURS: Mapping[str, tuple[str, str]] = {
    "cat": (ft.Colors.ORANGE_800, ft.Colors.ORANGE_50),
    "horse": (ft.Colors.BROWN_500, ft.Colors.BROWN_50),
    "dog": (ft.Colors.BLUE_700, ft.Colors.BLUE_50),
    "rabbit": (ft.Colors.PINK_400, ft.Colors.PINK_50),
    "parrot": (ft.Colors.GREEN_800, ft.Colors.GREEN_50),
    "owl": (ft.Colors.DEEP_PURPLE_500, ft.Colors.DEEP_PURPLE_50),
}
ADVICE_SHOWN = 6  # options listed under the adviser's best one

# Entries made in a player's private view (the bonus card drawn, the medals taken): the frame never
# quotes a refusal of one of them on the shared screen (a correction's conflict).
PRIVATE_ENTRIES = ("bonus", "medals")
PRIVATE = PrivateView("ani", "ani-pass-tablet", ("who", "pick", "covers", "choice"), "app.ani.pass_to",
                      "app.ani.show_me", "app.ani.private_title", "app.ani.hide")


def build(state: State, ctx: TableContext) -> ft.Control:
    live = not ctx.readonly and state.outcome is None
    private = None
    if live:
        step = _private_step(state, ctx)
        if step is not None and PRIVATE.is_open(ctx, _token(state, step)):
            private = _private_block(state, ctx, step)
    return PRIVATE.screen(ctx, _public_parts(state, ctx, live), private)


def _public_parts(state: State, ctx: TableContext, live: bool) -> list[ft.Control]:
    engine = state.engine
    parts: list[ft.Control] = [_header(state, ctx)]
    if live and _season_break(state, ctx):
        # the season's end is a moment: its tally first, the next season on a tap
        parts.append(_tally_block(state, ctx, moment=True))
        parts.append(_collections_block(state, ctx))
        return parts
    if live:
        phase = engine.phase
        if phase is Phase.DEAL:
            # a lot to draw to is shown beside the picker's title; an empty place keeps the parts
            # where they were, so the browser's update pairs each with itself
            parts.append(_lot_block(state, ctx) if engine.holder is not None else ft.Container(visible=False))
            # the picker stays on the page, hidden while a lot is offered: its tiles, kept, are not
            # sent to the browser again when it comes back (only the one card gone changes)
            parts.append(_picker_block(state, ctx, shown=engine.holder is None))
        elif phase is Phase.POWERS:
            parts.append(_lot_block(state, ctx))
            parts.append(_powers_block(state, ctx))
        elif phase is Phase.BONUS:
            parts.append(_prize_block(state, ctx))
            who = engine.owed[0]
            token = _token(state, who)
            parts.append(ctx.keep("ani-cover", (who, token), lambda: PRIVATE.cover(
                ctx, who, ctx.t("app.ani.pass_why.bonus", player=who),
                [PRIVATE.show_me(ctx, who, token, "ani-show-me", who=who)])))
        elif phase is Phase.MEDALS:
            parts.append(_prize_block(state, ctx))
            parts.append(_medals_waiting_block(state, ctx))
    parts.append(_collections_block(state, ctx))
    if len(engine.tallies) > 1 or engine.phase in (Phase.OVER,) or state.outcome is not None:
        parts.append(_tally_block(state, ctx))
    return parts


def prompt(state: State, ctx: TableContext) -> str | None:
    """The table's prompt at a season's end, while its tally is shown first: the engine already
    expects the next season's first card, the table first looks at the tally."""
    if ctx.readonly or state.outcome is not None or not _season_break(state, ctx):
        return None
    return ctx.t("app.ani.prompt_season_end", season=state.engine.season - 1, next=state.engine.season)


def _season_break(state: State, ctx: TableContext) -> bool:
    """A season has just ended and the next one has not begun: no card turned over yet, and the
    table has not tapped "start the season"."""
    engine = state.engine
    return (engine.phase is Phase.DEAL and engine.season > 1 and not engine.lot and engine.holder is None
            and not any(engine.collections.values()) and ctx.draft.get("season_go") != engine.season)


# -- small pieces ----------------------------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _family(name: str) -> str:
    return "owl" if name == "owl" else name.split("-", 1)[0]


def card_face(ctx: TableContext, name: str, *, big: bool = False) -> ft.Control:
    border, bg = FAMILY_COLOURS[_family(name)]
    stars = stars_of(name)
    lines: list[ft.Control] = [
        ft.Text(_cap(ctx.say(card(name))), size=26 if big else 16, weight=ft.FontWeight.BOLD,
                color=ft.Colors.BLACK, text_align=ft.TextAlign.CENTER),
    ]
    if stars:
        lines.append(ft.Text(ctx.say(count_msg("stars", stars)), size=22 if big else 14, color=border,
                             weight=ft.FontWeight.W_600, text_align=ft.TextAlign.CENTER))
    return ft.Container(
        ft.Column(lines, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER,
                  spacing=2, tight=True),
        width=190 if big else 112, height=150 if big else 74, bgcolor=bg, border=ft.Border.all(5 if big else 2, border),
        border_radius=12, alignment=ft.Alignment.CENTER, padding=4)


def _row(controls: list[ft.Control], spacing: float = ui.GAP) -> ft.Row:
    return ft.Row(controls, wrap=True, spacing=spacing, run_spacing=spacing,
                  vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _who(ctx: TableContext, engine: AnimaliaEngine, player: str, row: int | None) -> str:
    if engine.two and row is not None:
        return ctx.t("ani.who.row", player=player, row=row + 1)
    return player


def _submitter(ctx: TableContext, action: dict[str, Any]) -> Callable[[Any], None]:
    return lambda _: ctx.submit(action)


# -- header, lot, picker ---------------------------------------------------------------------------


def _header(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    return ctx.keep("ani-header", (engine.season, engine.phase, engine.dealer, len(engine.deck)),
                    lambda: _header_part(state, ctx))


def _header_part(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    phase_key = {Phase.DEAL: "app.ani.phase.deal", Phase.POWERS: "app.ani.phase.deal",
                 Phase.BONUS: "app.ani.phase.bonus", Phase.MEDALS: "app.ani.phase.medals",
                 Phase.OVER: "app.ani.phase.over"}[engine.phase]
    facts = [
        ui.text(ctx.t("app.ani.season", season=engine.season), ui.FONT_LABEL, weight=ft.FontWeight.BOLD,
                ident=ctx.ident("ani-season")),
        ui.text(ctx.t(phase_key), ui.FONT_BODY, ident=ctx.ident("ani-phase")),
        ui.text(ctx.t("app.ani.dealer", player=engine.dealer), ui.FONT_BODY, ident=ctx.ident("ani-dealer")),
        ui.muted(ctx.t("app.ani.deck", cards=count_msg("cards", len(engine.deck))), ident=ctx.ident("ani-deck")),
    ]
    return ui.panel(ft.Row(facts, wrap=True, spacing=16, run_spacing=4,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER), ident=ctx.ident("ani-header"), padding=10)


def _lot_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    holder = engine.holder
    fitting = engine.fitting_rows(holder, len(engine.lot)) if state.assist and holder is not None else engine.rows
    inputs = (tuple(engine.lot), holder, engine.phase, engine.forced, engine.solo, fitting, ctx.readonly)
    return ctx.keep("ani-lot-block", inputs, lambda: _lot_part(state, ctx))


def _lot_part(state: State, ctx: TableContext) -> ft.Control:
    """The lot in play, big, and the player it is offered to with Take / Pass."""
    engine = state.engine
    lot = list(engine.lot)
    lines: list[ft.Control] = []
    if lot:
        lines.append(ui.tid(ctx.ident("ani-lot"), _row([card_face(ctx, c, big=True) for c in lot])))
    else:
        lines.append(ui.text(ctx.t("app.ani.no_lot"), ui.FONT_TITLE, ident=ctx.ident("ani-lot")))
    holder = engine.holder
    if engine.phase is Phase.DEAL and holder is not None and not ctx.readonly:
        key = "app.ani.offered_solo" if engine.solo else "app.ani.offered_forced" if engine.forced else "app.ani.offered"
        lines.append(ui.text(ctx.t(key, player=holder), ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                             color=ft.Colors.PRIMARY, ident=ctx.ident("ani-holder")))
        buttons: list[ft.Control] = []
        fitting = engine.fitting_rows(holder, len(lot)) if state.assist else engine.rows
        if engine.two:
            for r in engine.rows:
                buttons.append(ui.button(ctx.t("app.ani.take_row", row=r + 1), _submitter(
                    ctx, {"type": "take", "player": holder, "row": r}), ident=ctx.ident(f"ani-take-row-{r}"),
                    icon=ft.Icons.DOWNLOAD, kind="primary", height=80, disabled=r not in fitting))
        else:
            buttons.append(ui.button(ctx.t("app.ani.take"), _submitter(ctx, {"type": "take", "player": holder}),
                                     ident=ctx.ident("ani-take"), icon=ft.Icons.DOWNLOAD, kind="primary", height=80))
        if not engine.forced and not engine.solo:
            buttons.append(ui.button(ctx.t("app.ani.pass"), _submitter(ctx, {"type": "pass", "player": holder}),
                                     ident=ctx.ident("ani-pass"), icon=ft.Icons.ARROW_FORWARD, height=80))
        lines.append(_row(buttons))
    return ui.panel(ft.Column(lines, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                    ident=ctx.ident("ani-lot-block"))


def _why_away(state: State, ctx: TableContext, mine: Sequence[str] = ()) -> dict[str, str]:
    """Each card the picker greys, with the one line a tap on it says: why it cannot be drawn. The
    table can see where it is (a collection, the lot, covered or set aside, out of the game), or it
    is among ``mine``, the bonus cards of the player whose private view is open; with the table aid,
    also a card no longer in the deck (held as someone's bonus card)."""
    engine = state.engine
    why: dict[str, str] = {}
    if state.assist:
        why.update((c, ctx.t("app.ani.why.deck")) for c in engine.in_game if c not in engine.deck)
    why.update((c, ctx.t("app.ani.why.yours")) for c in mine)
    why.update((c, ctx.t("app.ani.why.set_aside")) for c in engine.set_aside)
    why.update((c, ctx.t("app.ani.why.covered")) for c in engine.discarded)
    for (player, row), cards in engine.collections.items():
        said = ctx.t("app.ani.why.collection", who=_who(ctx, engine, player, row))
        why.update((c, said) for c in cards)
    why.update((c, ctx.t("app.ani.why.lot")) for c in engine.lot)
    out = ctx.t("app.ani.why.cute", count=len(state.players))
    why.update((c, out) for c in ANI_CARDS if c not in engine.in_game)
    return why


PICK_W, PICK_H, PICK_HEAD = 84, 46, 78  # a picker tile: seven of a family and its name fit the table's width
PICK_W_PHONE = 72  # on a phone: four a row


def _pick_face(ctx: TableContext, name: str) -> ft.Control:
    """A card in the picker, small: the member's name (its family is the row's) and its stars."""
    border, bg = FAMILY_COLOURS[_family(name)]
    label = _cap(ctx.say(card(name))) if name == "owl" else _cap(ctx.t(f"app.ani.member.{name.split('-', 1)[1]}"))
    lines: list[ft.Control] = [ft.Text(label, size=12 if ctx.compact else 13, weight=ft.FontWeight.BOLD,
                                       color=ft.Colors.BLACK, text_align=ft.TextAlign.CENTER, max_lines=1,
                                       no_wrap=True)]
    stars = stars_of(name)
    if stars:
        lines.append(ft.Text(ctx.say(count_msg("stars", stars)), size=12, color=border, weight=ft.FontWeight.W_600))
    return ft.Container(ft.Column(lines, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                                  alignment=ft.MainAxisAlignment.CENTER, spacing=0, tight=True),
                        width=PICK_W_PHONE if ctx.compact else PICK_W, height=PICK_H, bgcolor=bg,
                        border=ft.Border.all(2, border), border_radius=10, alignment=ft.Alignment.CENTER, padding=2)


def _picker(ctx: TableContext, on_pick: Callable[[str], Callable[[Any], None]], greyed: Mapping[str, str],
            selected: str | None = None, prefix: str = "ani-pick", mode: Any = None) -> ft.Control:
    """5 families × 7 animals, a family a row, and the owl. Each tile is kept between renders
    while it looks and acts the same (``mode``: what its tap does besides naming the card). A card
    in ``greyed`` is greyed, and a tap on it says its line there (why it cannot be drawn)."""
    def tile(name: str) -> ft.Control:
        why, chosen = greyed.get(name), name == selected
        return ctx.keep(f"{prefix}-{name}", (why, chosen, mode), lambda: ui.tile(
            _pick_face(ctx, name), on_pick(name), ident=ctx.ident(f"{prefix}-{name}"), disabled=why is not None,
            why=ctx.why_not(why) if why is not None else None, selected=chosen, padding=1,
            label=ctx.say(card(name))))

    rows: list[ft.Control] = []
    for family in ANI_FAMILIES:
        border, _ = FAMILY_COLOURS[family]
        head = ft.Container(ft.Text(_cap(ctx.t(f"ani.families.{family}")), size=14, weight=ft.FontWeight.BOLD,
                                    color=border), width=None if ctx.compact else PICK_HEAD)
        tiles = [tile(f"{family}-{member}") for member in ANI_MEMBERS]
        if ctx.compact:  # a phone: the family's seven wrap over two lines, both under its name
            rows.append(ft.Column([head, ft.Row(tiles, wrap=True, spacing=5, run_spacing=5)], spacing=2, tight=True))
            continue
        rows.append(ft.Row([head, *tiles], wrap=True, spacing=5, run_spacing=5,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER))
    rows.append(ft.Row([ft.Container(width=None if ctx.compact else PICK_HEAD), tile(OWL)], spacing=5))
    return ft.Column(rows, spacing=5, tight=True)


def _picker_block(state: State, ctx: TableContext, *, shown: bool = True) -> ft.Control:
    engine = state.engine
    solo_row = _solo_row(state, ctx)

    def pick(name: str) -> Callable[[Any], None]:
        draw = {"type": "draw", "card": name}
        if solo_row is None:
            return _submitter(ctx, draw)
        take: dict[str, Any] = {"type": "take", "player": engine.dealer,
                                **({"row": solo_row} if engine.two else {})}

        def draw_and_take(_: Any) -> None:
            # the last incomplete player takes every card turned over: one tap enters both
            ctx.draft["ani-drawn"] = name
            ctx.submit(draw)
            if "ani-drawn" in ctx.draft:  # refused (an entry accepted empties the draft): no take
                ctx.draft.pop("ani-drawn", None)
                return
            ctx.submit(take)
        return draw_and_take

    title = ("app.ani.draw_solo" if solo_row is not None else "app.ani.draw_more" if engine.lot
             else "app.ani.draw")
    mode = None if solo_row is None else (engine.dealer, solo_row)  # what a tile's tap uses beside its card
    head: list[ft.Control] = [ui.subtitle(ctx.t(title, dealer=engine.dealer), ident=ctx.ident("ani-draw-title"))]
    if engine.lot and shown:  # the lot back at the dealer, small: the card drawn now joins it
        lot = tuple(engine.lot)
        head.append(ctx.keep("ani-lot", lot, lambda: ui.tid(ctx.ident("ani-lot"), _row(
            [card_face(ctx, c) for c in lot], spacing=4))))
    block = ui.panel(ft.Column([
        _row(head, spacing=12),
        ui.why_line(ctx.said_why() if shown else None, ctx.ident("ani-why")),  # a greyed card just tapped
        _picker(ctx, pick, _why_away(state, ctx), mode=mode),
    ], spacing=8), ident=ctx.ident("ani-draw"), padding=12)
    block.visible = shown
    return block


def _solo_row(state: State, ctx: TableContext) -> int | None:
    """The row a card drawn by the last incomplete player goes to, when there is no choice (one
    row, or one row with room); ``None`` when a draw is a draw only. In a correction, which
    replaces one entry with one entry, a tap draws only."""
    engine = state.engine
    if not engine.solo or engine.lot or ctx.correcting:
        return None
    fitting = engine.fitting_rows(engine.dealer, 1)
    return fitting[0] if len(fitting) == 1 else None


# -- powers ----------------------------------------------------------------------------------------


def _powers_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    pending = engine.pending
    assert pending is not None  # the powers phase: a lot taken with powers to use
    actor, row = pending.actor, pending.row
    mine = engine.collections[(actor, row)]
    lines: list[ft.Control] = [ui.subtitle(ctx.t("app.ani.powers_title", player=actor,
                                                 powers=[Msg(f"ani.power.{p}") for p in pending.powers]),
                                           ident=ctx.ident("ani-powers-title")),
                               ui.muted(ctx.t("app.ani.powers_aid"))]
    rows: dict[str, Any] = {"row": row} if engine.two else {}
    for power in pending.powers:
        block: list[ft.Control] = [ui.text(ctx.t(f"app.ani.power.{power}"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD)]
        if power == "spy":
            # a spy moves no card: written without a row, also with 2 players (table-record §4.4)
            block.append(ui.button(ctx.t("app.ani.use_spy"), _submitter(
                ctx, {"type": "power", "player": actor, "power": "spy"}), ident=ctx.ident("ani-use-spy"),
                icon=ft.Icons.VISIBILITY, kind="primary"))
        elif power == "thief":
            for (p, r), cards in engine.collections.items():
                if p == actor or not cards:
                    continue
                source = {"from": p, **({"from_row": r} if engine.two else {})}
                tiles = [ui.tile(card_face(ctx, c), _submitter(ctx, {
                    "type": "power", "player": actor, "power": "thief", "card": c, **source, **rows}),
                    ident=ctx.ident(f"ani-steal-{p}-{r}-{c}"), padding=2, label=ctx.say(card(c))) for c in cards]
                block.append(_row([ui.text(_who(ctx, engine, p, r), ui.FONT_BODY, weight=ft.FontWeight.W_600),
                                   *tiles], spacing=6))
        else:
            picked = ctx.draft.get("give")
            if picked not in mine:
                picked = None

            def choose(name: str) -> Callable[[Any], None]:
                def handler(_: Any) -> None:
                    ctx.draft["give"] = name
                    ctx.refresh()
                return handler

            block.append(_row([ui.tile(card_face(ctx, c), choose(c), ident=ctx.ident(f"ani-give-card-{c}"),
                                       selected=c == picked, padding=2, label=ctx.say(card(c))) for c in mine],
                              spacing=6))
            if picked is not None:
                targets = []
                for (p, r), cards in engine.collections.items():
                    if p == actor:
                        continue
                    action = {"type": "power", "player": actor, "power": "prankster", "card": picked, "to": p,
                              **({"to_row": r} if engine.two else {}), **rows}
                    full = state.assist and len(cards) >= 5  # greyed with the table aid: a tap says why
                    targets.append(ui.chip(_who(ctx, engine, p, r), _submitter(ctx, action),
                                           ident=ctx.ident(f"ani-give-to-{p}-{r}"), icon=ft.Icons.CARD_GIFTCARD,
                                           disabled=full, why=ctx.why_not(ctx.t(
                                               "app.ani.why.full", who=_who(ctx, engine, p, r))) if full else None))
                block.append(_row([ui.text(ctx.t("app.ani.give_to", card=card(picked)), ui.FONT_BODY), *targets],
                                  spacing=8))
                block.append(ui.why_line(ctx.said_why(), ctx.ident("ani-give-why")))  # a greyed target just tapped
        block.append(ui.button(ctx.t("app.ani.renounce", power=Msg(f"ani.power.{power}")), _submitter(
            ctx, {"type": "renounce", "player": actor, "power": power}), ident=ctx.ident(f"ani-renounce-{power}"),
            icon=ft.Icons.BLOCK, kind="outlined"))
        lines.append(ui.panel(ft.Column(block, spacing=8), ident=ctx.ident(f"ani-power-{power}"), padding=12))
    return ui.panel(ft.Column(lines, spacing=12), ident=ctx.ident("ani-powers"))


# -- collections -----------------------------------------------------------------------------------


def _collections_block(state: State, ctx: TableContext) -> ft.Control:
    """Every collection, each kept between renders while its cards, its player's bonus count and
    whether it is that player's turn stay the same: a take rebuilds the collection it changes."""
    engine = state.engine
    tiles: list[ft.Control] = []
    for (player, row), cards in engine.collections.items():
        active = player in state.expected.players
        held = len(engine.bonus[player]) if row == 0 else None
        tiles.append(ctx.keep(f"ani-collection-box-{player}-{row}", (tuple(cards), active, held),
                              partial(_collection_part, state, ctx, player, row, tuple(cards), active, held)))
    return ui.panel(ft.Column([ui.subtitle(ctx.t("app.ani.collections")), _row(tiles, spacing=12)], spacing=8),
                    ident=ctx.ident("ani-collections"))


def _collection_part(state: State, ctx: TableContext, player: str, row: int, cards: tuple[str, ...], active: bool,
                     held: int | None) -> ft.Control:
    engine = state.engine
    head = ft.Row([
        ft.Icon(ft.Icons.PLAY_ARROW if active else ft.Icons.PERSON, size=26,
                color=ft.Colors.PRIMARY if active else ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(_who(ctx, engine, player, row), size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, expand=True),
    ], spacing=6)
    facts = [ui.text(ctx.t("app.ani.count", n=len(cards)), ui.FONT_BODY, weight=ft.FontWeight.W_600,
                     ident=ctx.ident(f"ani-count-{player}-{row}")),
             ui.text(ctx.say(count_msg("stars", sum(stars_of(c) for c in cards))), ui.FONT_BODY,
                     color=ft.Colors.PRIMARY, ident=ctx.ident(f"ani-stars-{player}-{row}"))]
    if held is not None:
        facts.append(ui.muted(ctx.t("app.ani.bonus_held", cards=count_msg("bonus", held)),
                              ident=ctx.ident(f"ani-bonus-count-{player}")))
    body = [head, _row(facts, spacing=12),
            ui.tid(ctx.ident(f"ani-collection-{player}-{row}"),
                   _row([card_face(ctx, c) for c in cards], spacing=4) if cards
                   else ui.muted(ctx.t("app.ani.empty")))]
    return ft.Container(ft.Column(body, spacing=6), width=620, padding=10, border_radius=ui.RADIUS,
                        border=ft.Border.all(3 if active else 1,
                                             ft.Colors.PRIMARY if active else ft.Colors.OUTLINE_VARIANT))


# -- phase 2 ----------------------------------------------------------------------------------------


def _prize_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    in_order = engine.phase is Phase.BONUS and bool(engine.owed) and engine.bonus_in_order()
    prizes = tuple((z.player, z.row, z.stars, z.place, z.cards) for z in engine.prizes)
    return ctx.keep("ani-prize", (prizes, engine.phase, tuple(engine.owed), in_order),
                    lambda: _prize_part(state, ctx))


def _prize_part(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    lines: list[ft.Control] = [ui.subtitle(ctx.t("app.ani.prize_title"))]
    for z in sorted(engine.prizes, key=lambda z: -z.stars):
        who = z.player if z.row is None else _who(ctx, engine, z.player, z.row)
        key = {1: "app.ani.prize_first", 2: "app.ani.prize_second"}.get(z.place, "app.ani.prize_none")
        lines.append(ui.text(ctx.t(key, who=who, stars=count_msg("stars", z.stars), cards=count_msg("bonus", z.cards)),
                             ui.FONT_BODY, weight=ft.FontWeight.W_600 if z.place else None,
                             ident=ctx.ident(f"ani-prize-{z.player}-{0 if z.row is None else z.row}")))
    if engine.phase is Phase.BONUS and engine.owed:
        # ruling ANI-BONUS-ORDER: the elegance order binds only when the deck cannot serve everyone
        key = "app.ani.owed" if engine.bonus_in_order() else "app.ani.owed_any"
        lines.append(ui.text(ctx.t(key, players=list(engine.owed)), ui.FONT_BODY,
                             ident=ctx.ident("ani-owed")))
    return ui.panel(ft.Column(lines, spacing=6), ident=ctx.ident("ani-prize"))


# -- private entries --------------------------------------------------------------------------------


def _private_step(state: State, ctx: TableContext) -> str | None:
    """The player whose private entry is awaited or chosen now, if any."""
    engine = state.engine
    if engine.phase is Phase.BONUS:
        # the player whose view is open while they still owe a bonus card they may enter now (the
        # view stays open from one of their cards to the next), else the first owed
        chosen = ctx.draft.get("who")
        return chosen if chosen in engine.bonus_players() else engine.owed[0]
    if engine.phase is Phase.MEDALS:
        chosen = ctx.draft.get("who")
        if chosen in state.expected.players:
            return chosen
    return None


def _token(state: State, player: str, ahead: int = 0) -> str:
    """One player's private view at one point of the game (``ahead``: that many entries on)."""
    return f"{state.engine.phase.value}|{player}|{state.entries + ahead}"


def _medals_waiting_block(state: State, ctx: TableContext) -> ft.Control:
    waiting = tuple(state.expected.players)
    return ctx.keep("ani-medals-waiting", (waiting, tuple(_token(state, p) for p in waiting)),
                    lambda: _medals_waiting_part(state, ctx))


def _medals_waiting_part(state: State, ctx: TableContext) -> ft.Control:
    waiting = list(state.expected.players)
    lines: list[ft.Control] = [ui.subtitle(ctx.t("app.ani.medals_waiting", players=waiting))]
    lines.append(ui.muted(ctx.t("app.ani.pass_why.medals")))
    lines.append(_row([PRIVATE.show_me(ctx, p, _token(state, p), f"ani-show-{p}", who=p) for p in waiting]))
    return ui.panel(ft.Column(lines, spacing=12), ident=ctx.ident("ani-medals-waiting"))


def _private_block(state: State, ctx: TableContext, player: str) -> ft.Control:
    if state.engine.phase is Phase.BONUS:
        body = _bonus_entry(state, ctx, player)
    else:
        body = _medals_entry(state, ctx, player)
    return PRIVATE.panel(ctx, player, body)


def _held_line(ctx: TableContext, held: Sequence[str]) -> ft.Control:
    if not held:
        return ui.text(ctx.t("app.ani.your_bonus_none"), ui.FONT_BODY, ident=ctx.ident("ani-your-bonus"))
    return ui.tid(ctx.ident("ani-your-bonus"), _row([
        ui.text(ctx.t("app.ani.your_bonus"), ui.FONT_BODY, weight=ft.FontWeight.W_600),
        *[card_face(ctx, c) for c in held]], spacing=6))


def _bonus_entry(state: State, ctx: TableContext, player: str) -> list[ft.Control]:
    """The bonus card drawn for ``player``: tapped in the picker, then confirmed."""
    engine = state.engine
    picked = ctx.draft.get("pick")

    def pick(name: str) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            ctx.draft["pick"] = name
            ctx.refresh()
        return handler

    owed = sum(1 for p in engine.owed if p == player)

    def enter(_: Any) -> None:
        action = {"type": "bonus", "player": player, "card": picked}
        if ctx.correcting:  # a correction replaces one entry: its editor closes
            ctx.submit(action)
            return
        # accepted, the view stays open while this player owes another card (the token of the game
        # one entry on: it no longer matches once another player's turn or the medals come)
        ctx.submit_keeping(action, {"open": _token(state, player, ahead=1), "who": player})

    confirm = ui.button(ctx.t("app.ani.bonus_confirm", card=card(picked)) if picked else ctx.t("app.ani.bonus_tap"),
                        enter if picked else None,
                        ident=ctx.ident("ani-bonus-confirm"), icon=ft.Icons.LOCK, kind="primary",
                        disabled=picked is None, height=72)
    # the confirm above the picker, beside what to do: in view with the card it confirms
    head = ft.Column([ui.text(ctx.t("app.ani.bonus_intro", cards=count_msg("bonus", owed)), ui.FONT_BODY,
                              ident=ctx.ident("ani-bonus-intro")),
                      _held_line(ctx, engine.bonus[player])], spacing=6, tight=True,
                     col={"xs": 12, "md": 7})
    return [
        ft.ResponsiveRow([head, ft.Container(confirm, col={"xs": 12, "md": 5}, alignment=ft.Alignment.CENTER_RIGHT)],
                         spacing=ui.GAP, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ui.why_line(ctx.said_why(), ctx.ident("ani-why")),  # a greyed card just tapped: why, by the cards
        _picker(ctx, pick, _why_away(state, ctx, engine.bonus[player]), selected=picked, prefix="ani-bonus-pick"),
    ]


def _medals_entry(state: State, ctx: TableContext, player: str) -> list[ft.Control]:
    """Covers and medals for the first of ``player``'s collections still due: the adviser proposes,
    the player picks covers (bonus card, then the card it goes on) and one medal choice, then confirms."""
    engine = state.engine
    row = engine.medals_due(player)[0]
    cards = list(engine.collections[(player, row)])
    held = list(engine.bonus[player])
    covers: list[list[str]] = [c for c in ctx.draft.setdefault("covers", []) if c[0] in held and c[1] in cards]
    ctx.draft["covers"] = covers
    used = {b for b, _ in covers}
    after = list(cards)
    for bonus, target in covers:
        after[after.index(target)] = bonus
    choices = medal_choices(after)
    choice = ctx.draft.get("choice")
    if choice not in range(len(choices)):
        choice = 0 if len(choices) == 1 else None
    totals = dict(engine.medals[player])
    # a bonus card kept can still serve: a later season, or this player's other row this season
    later = engine.season < SEASONS or len(engine.medals_due(player)) > 1
    advice = advise(cards, held, totals, engine.per, later=later)

    def follow(option: Any) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            ctx.draft["covers"] = [[b, c] for b, c in option.covers]
            planned = list(cards)
            for b, c in option.covers:
                planned[planned.index(c)] = b
            ctx.draft["choice"] = medal_choices(planned).index(normalised(option.medals))
            ctx.refresh()
        return handler

    def pick_bonus(name: str) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            ctx.draft["pick"] = None if ctx.draft.get("pick") == name else name
            ctx.refresh()
        return handler

    def cover_card(target: str) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            bonus = ctx.draft.get("pick")
            if bonus in held and bonus not in used and not any(t == target for _, t in covers):
                covers.append([bonus, target])
                ctx.draft["pick"] = None
                ctx.draft.pop("choice", None)
            ctx.refresh()
        return handler

    def choose(index: int) -> Callable[[Any], None]:
        def handler(_: Any) -> None:
            ctx.draft["choice"] = index
            ctx.refresh()
        return handler

    every = bool(ctx.draft.get("all_options"))

    def show_all(_: Any) -> None:
        ctx.draft["all_options"] = not every
        ctx.refresh()

    def confirm(_: Any) -> None:
        if choice is None:  # offered only once a medal choice is made
            return
        rows: dict[str, Any] = {"row": row} if engine.two else {}
        entries = [{"type": "cover", "player": player, "bonus": bonus, "card": target, **rows}
                   for bonus, target in covers]
        entries.append({"type": "medals", "player": player, "medals": choices[choice], **rows})
        if ctx.correcting:  # a correction replaces one entry with one entry: the first of them
            entries = entries[:1]
        for entry in entries:
            ctx.submit(entry)

    advice_inputs = (player, row, tuple(cards), tuple(held), tuple(sorted(totals.items())), engine.per, later,
                     every)
    # the decision first (what to take, confirm: in view at once), then the covers planned, the
    # adviser whose options fill the decision in, and the covers by hand
    parts: list[ft.Control] = [
        _row([ui.text(ctx.t("app.ani.medals_intro", who=_who(ctx, engine, player, row if engine.two else None)),
                      ui.FONT_LABEL, weight=ft.FontWeight.W_600), _held_line(ctx, held)], spacing=ui.GAP),
        ft.ResponsiveRow([
            ft.Container(ui.text(ctx.t("app.ani.choose_medals"), ui.FONT_BODY, weight=ft.FontWeight.W_600),
                         col={"xs": 12, "md": 6}),
            ft.Container(ui.button(ctx.t("app.ani.medals_confirm"), confirm if choice is not None else None,
                                   ident=ctx.ident("ani-medals-confirm"), icon=ft.Icons.MILITARY_TECH, kind="primary",
                                   disabled=choice is None, height=72),
                         col={"xs": 12, "md": 6}, alignment=ft.Alignment.CENTER_RIGHT),
        ], spacing=ui.GAP, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        _row([ui.chip(ctx.say(Msg("ani.choice", {"medals": medals_msg(m)})), choose(i),
                      ident=ctx.ident(f"ani-choice-{i}"), selected=i == choice)
              for i, m in enumerate(choices)], spacing=8),
    ]
    if covers:
        parts.append(ui.text(ctx.t("app.ani.covers_planned", covers=[
            Msg("app.ani.cover_item", {"bonus": card(b), "card": card(t)}) for b, t in covers]), ui.FONT_BODY,
            ident=ctx.ident("ani-covers-planned")))

        def clear(_: Any) -> None:
            covers.clear()
            ctx.draft.pop("choice", None)
            ctx.refresh()

        parts.append(ui.button(ctx.t("app.ani.covers_clear"), clear, ident=ctx.ident("ani-covers-clear"),
                               kind="text", icon=ft.Icons.BACKSPACE))
    parts.append(ctx.keep("ani-advice", advice_inputs, lambda: _advice_part(ctx, engine, advice, every, follow,
                                                                             show_all, later)))
    # covers by hand
    if held:
        pick = ctx.draft.get("pick")
        parts.append(ui.text(ctx.t("app.ani.cover_how"), ui.FONT_BODY))
        undo = ctx.t("app.ani.covers_clear")

        def why(bonus: str) -> Callable[[Any], None] | None:  # a bonus card laid already: on which card
            if bonus not in used:
                return None
            return ctx.why_not(ctx.t("app.ani.why.covering", card=card(dict(covers)[bonus]), clear=undo))

        parts.append(_row([ui.tile(card_face(ctx, b), pick_bonus(b), ident=ctx.ident(f"ani-cover-bonus-{b}"),
                                   selected=b == pick, disabled=b in used, padding=2, label=ctx.say(card(b)),
                                   why=why(b))
                           for b in held], spacing=6))
        parts.append(ui.why_line(ctx.said_why(), ctx.ident("ani-cover-why")))
    covered = {t for _, t in covers}
    parts.append(ui.tid(ctx.ident("ani-private-collection"), _row([
        ui.tile(card_face(ctx, c), cover_card(c), ident=ctx.ident(f"ani-cover-card-{c}"),
                selected=c in covered, padding=2, label=ctx.say(card(c))) for c in cards], spacing=6)))
    return parts


def _advice_part(ctx: TableContext, engine: AnimaliaEngine, advice: Any, every: bool,
                 follow: Callable[[Any], Callable[[Any], None]], show_all: Callable[[Any], None],
                 later: bool) -> ft.Control:
    """The adviser: why the best is proposed, the options best first (one worth as much as an
    option above it but spending more bonus cards says so), and all of them on request."""
    shown = advice.options if every else advice.options[:ADVICE_SHOWN + 1]
    why: list[ft.Control] = [ui.text(ctx.say(advice.reason), ui.FONT_BODY, ident=ctx.ident("ani-advice-why"))]
    if advice.note is not None:
        why.append(ui.text(ctx.say(advice.note), ui.FONT_BODY, ident=ctx.ident("ani-advice-note")))
    return ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.ani.advice_title")),
        *why,
        *[_option_line(ctx, engine, o, follow(o), f"ani-advice-{i}", i == 0,
                       advice.dearer[i] if i < len(advice.dearer) else 0, later)
          for i, o in enumerate(shown)],
        _row([ui.muted(ctx.t("app.ani.advice_count", n=len(advice.options))),
              *([ui.button(ctx.t("app.ani.advice_fewer" if every else "app.ani.advice_all", n=len(advice.options)),
                           show_all, ident=ctx.ident("ani-advice-all"), kind="text", size=ui.FONT_BODY)]
                if len(advice.options) > ADVICE_SHOWN + 1 else [])], spacing=8),
    ], spacing=8), ident=ctx.ident("ani-advice"), bgcolor=ft.Colors.TERTIARY_CONTAINER, padding=12)


def _option_line(ctx: TableContext, engine: AnimaliaEngine, option: Any, handler: Callable[[Any], None], ident: str,
                 best: bool, dearer: int = 0, later: bool = True) -> ft.Control:
    covers = ([Msg("app.ani.cover_item", {"bonus": card(b), "card": card(t)}) for b, t in option.covers]
              if option.covers else Msg("app.ani.no_cover"))
    owl = Msg(f"ani.family.{option.owl_as}") if option.owl_as else None
    line = ctx.t("app.ani.option_owl" if owl else "app.ani.option", medals=medals_msg(option.medals), covers=covers,
                 owl=owl or "", now=count_msg("medals", option.now), end=option.end)
    said: list[ft.Control] = [ft.Text(line, size=ui.FONT_BODY)]
    if dearer:
        said.append(ui.text(ctx.t("app.ani.dearer" if later else "app.ani.dearer_last", n=dearer), ui.FONT_SMALL,
                            color=ft.Colors.ON_SURFACE_VARIANT, ident=ctx.ident(f"{ident}-dearer")))
    return ui.tile(ft.Row([ft.Icon(ft.Icons.STAR if best else ft.Icons.CHEVRON_RIGHT, size=24),
                           ft.Column(said, spacing=2, tight=True, expand=True)], spacing=8),
                   handler, ident=ctx.ident(ident), selected=best, padding=10)


# -- the season tally ---------------------------------------------------------------------------------


def _tally_block(state: State, ctx: TableContext, *, moment: bool = False) -> ft.Control:
    """Medals of the last finished season per player and family, and the running total: hidden until
    the players tap "reveal", shown once the game is over. ``moment``: the season has just ended;
    the tally comes first, with the tap that starts the next season."""
    engine = state.engine
    over = state.outcome is not None or engine.phase is Phase.OVER
    finished = [t for t in engine.tallies if len(t.medals) == len(engine.collections)]
    if not finished:
        return ft.Container()
    shown = over or ctx.draft.get("reveal") == finished[-1].season
    medals = tuple((t.season, tuple(sorted((k, tuple(sorted(v.items()))) for k, v in t.medals.items())))
                   for t in finished)
    return ctx.keep("ani-tally", (medals, shown, over, moment, engine.season),
                    lambda: _tally_part(state, ctx, finished, shown, over, moment))


def _tally_part(state: State, ctx: TableContext, finished: list[Any], shown: bool, over: bool,
                moment: bool) -> ft.Control:
    last = finished[-1]
    season = last.season
    lines: list[ft.Control] = [ui.subtitle(ctx.t("app.ani.tally_title", season=season),
                                           ident=ctx.ident("ani-tally-title"))]
    if moment:
        nxt = state.engine.season

        def go(_: Any) -> None:
            ctx.draft["season_go"] = nxt
            ctx.refresh()

        lines.append(ui.text(ctx.t("app.ani.season_break", season=season, next=nxt), ui.FONT_BODY,
                             ident=ctx.ident("ani-season-break")))
    if not shown:
        def reveal(_: Any) -> None:
            ctx.draft["reveal"] = season
            ctx.refresh()

        lines.append(ui.muted(ctx.t("app.ani.tally_hidden")))
        lines.append(ui.button(ctx.t("app.ani.reveal"), reveal, ident=ctx.ident("ani-reveal"),
                               icon=ft.Icons.VISIBILITY, kind="outlined"))
    else:
        for player in state.players:
            running: dict[str, int] = {}
            for t in finished:
                for f, n in t.of(player).items():
                    running[f] = running.get(f, 0) + n
            lines.append(ui.text(ctx.t("app.ani.tally_line", player=player, season=medals_msg(last.of(player)),
                                       total=medals_msg(normalised(running)),
                                       count=count_msg("medals", sum(running.values()))), ui.FONT_BODY,
                                 ident=ctx.ident(f"ani-tally-{player}")))
        if not over:
            def hide(_: Any) -> None:
                ctx.draft.pop("reveal", None)
                ctx.refresh()

            lines.append(ui.button(ctx.t("app.ani.hide_tally"), hide, ident=ctx.ident("ani-hide-tally"),
                                   icon=ft.Icons.VISIBILITY_OFF, kind="outlined"))
    if moment:
        lines.append(ui.button(ctx.t("app.ani.season_go", next=nxt), go, ident=ctx.ident("ani-season-go"),
                               icon=ft.Icons.PLAY_ARROW, kind="primary", height=72))
    return ui.panel(ft.Column(lines, spacing=8), ident=ctx.ident("ani-tally"))


def chapters(state: Any, entries: Any) -> Any:
    """A past game's chapters (companion.app.chapters): the first season, then each one the engine
    opens after a season's tally."""
    from companion.app.chapters import chapters_of, event_keys

    return chapters_of(entries, lambda e: "season" if "ani.event.season_start" in event_keys(e) else None,
                       first="season")


class Screen(GameScreenBase):
    """This game's hooks of the table screen's contract (companion.app.games.GameScreen)."""

    PRIVATE_ENTRIES: tuple[str, ...] = PRIVATE_ENTRIES
    build = staticmethod(build)
    prompt = staticmethod(prompt)
    chapters = staticmethod(chapters)


SCREEN: GameScreen = Screen()
