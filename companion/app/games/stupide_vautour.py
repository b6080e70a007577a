"""Stupide Vautour at the table.

The pot (the point cards in play or carried over, their sum and which way it goes: zero or more,
the highest card takes — a suricate; below zero, the lowest card takes — a vulture) is always in
view. Reveal: tap the point card turned over, among the fifteen (those already out are dimmed).
Play: one row per player with the fifteen hand values, ONE tap per player, then confirm; the
screen then says who took what and why (the engine's ``last_award`` sentences).

Table-fair: at the table only each player's last played card can be seen; remembering the rest is
the game's skill, so nothing here greys out or lists what a player already played, and the taken
point cards (face down at the table) are not totted up. The log (``table_log``) says the same: only
the latest round's cards and who took what then; an earlier round is one line without its cards. The engine refuses a card its owner
already used (it is no longer in the hand: not when it went). With the assist setting (chosen when the game is set up)
every player's remaining hand, taken cards and score are shown, and used cards are greyed out.

Everything shown comes from the engine's documented public state (scoring/stupide_vautour.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import flet as ft

from companion.app import ui
from companion.app.format import number
from companion.app.games import GameScreen, GameScreenBase, TableContext, TableState
from models.games.stupide_vautour import SV_HAND, SV_POINT_CARDS
from models.i18n import Msg
from scoring.stupide_vautour import ROUNDS, StupideVautourEngine

State = TableState[StupideVautourEngine]  # what this screen reads: the table, with this game's engine

# The draft key of a past round's cards, as entered, in a correction without the table aid: kept for
# the round sent again, never shown (correction_draft); "cards" holds only what the table taps.
KEPT = "kept"

POINT_W, POINT_H = 84, 104
LANDSCAPE_SHARE = 9  # twelfths of a wide landscape screen: fifteen hand cards in a row need the room
HAND_H = 52


def build(state: State, ctx: TableContext) -> ft.Control:
    # Each part is kept between renders while what it shows is unchanged (companion.app.memo): a
    # hand card's tap builds that player's row and the confirm line, nothing else.
    engine = state.engine
    parts: list[ft.Control] = [ctx.keep("sv-pot", _pot_inputs(state), lambda: _pot_block(state, ctx))]
    # A correction shows the table as it was before the entry corrected: the round before it (its
    # award, each player's card) lies under later rounds now, so without the aid neither is shown.
    covered = ctx.correcting and not state.assist and state.outcome is None
    if engine.rounds_played and not engine.round_open and engine.last_award and not covered:
        said = tuple(ctx.say(m) for m in engine.last_award)
        parts.append(ctx.keep("sv-award", (engine.rounds_played, said), lambda: _award_block(state, ctx)))
    if not ctx.readonly and state.outcome is None:
        # Both entry blocks stay on the page and only the expected one is visible: a reveal or a
        # confirm switches them and sends what changed, not the whole block coming into view
        # (140-300 controls the browser built anew at every entry). The hidden one shows nothing
        # and cannot be reached (Flet does not render an invisible control), and holds nothing the
        # table may not see: the point cards out, every value of every hand (greyed only with the
        # aid, which shows the hands anyway), no pick (the draft is emptied by each entry).
        types = tuple(state.expected.types)
        revealing = "reveal" in types
        why = ctx.said_why()  # a greyed card just tapped: why it cannot be chosen, by the cards
        why_out = why if revealing else None
        parts.append(ctx.keep("sv-reveal", (frozenset(engine.revealed), revealing, why_out),
                              lambda: _reveal_block(state, ctx, shown=revealing, why=why_out)))
        parts.append(_play_block(state, ctx, shown=not revealing and "play" in types,
                                 why=None if revealing else why))
    if not covered:
        parts.append(_players_block(state, ctx))
    return ft.Column(parts, spacing=ui.GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def table_log(state: State, entries: Sequence[Any]) -> list[tuple[Msg, ...]]:
    """The log as the shared screen shows it. Without the table aid and before the end, a round
    other than the latest is one line without its cards or its award (those cards lie under later
    ones, the points taken face down); reveals stay as they are (the table saw each point card).
    ``entries``: the log or its latest entries (a tail: the latest round in it is the game's)."""
    if state.assist or state.outcome is not None:
        return [tuple(entry.events) for entry in entries]
    plays = [entry.index for entry in entries if entry.action.get("type") == "play"]
    latest = plays[-1] if plays else None
    out: list[tuple[Msg, ...]] = []
    for entry in entries:
        if entry.action.get("type") == "play" and entry.index != latest:
            played = next((m for m in entry.events if m.key == "sv.played"), None)
            out.append((Msg("app.sv.log.round_hidden", {"round": played.params.get("round") if played else "?"}),))
        else:
            out.append(tuple(entry.events))
    return out


# -- cards -----------------------------------------------------------------------------------------


def _point_colours(card: int) -> tuple[str, str, str]:
    """(border, background, text) of a point card: suricates warm, vultures dark. Fixed colours,
    readable on the light and the dark theme alike."""
    if card < 0:
        return ft.Colors.RED_400, ft.Colors.BLUE_GREY_900, ft.Colors.WHITE
    return ft.Colors.AMBER_800, ft.Colors.AMBER_100, ft.Colors.BLACK


def point_card(ctx: TableContext, card: int, *, scale: float = 1.0) -> ft.Control:
    border, bg, fg = _point_colours(card)
    kind = ctx.t("app.sv.card.vulture" if card < 0 else "app.sv.card.suricate")
    return ft.Container(
        ft.Column([
            ft.Text(number(ctx, card), size=40 * scale, weight=ft.FontWeight.BOLD, color=fg,
                    text_align=ft.TextAlign.CENTER),
            ft.Text(kind, size=max(12, 14 * scale), color=fg, text_align=ft.TextAlign.CENTER, max_lines=1),
        ], horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER,
            spacing=0, tight=True),
        width=POINT_W * scale, height=POINT_H * scale, bgcolor=bg, border=ft.Border.all(max(2, 4 * scale), border),
        border_radius=10 * scale, alignment=ft.Alignment.CENTER, padding=2)


def _small_point(ctx: TableContext, card: int) -> ft.Control:
    border, bg, fg = _point_colours(card)
    return ft.Container(ft.Text(number(ctx, card), size=18, weight=ft.FontWeight.BOLD, color=fg),
                        width=44, height=40, bgcolor=bg, border=ft.Border.all(2, border), border_radius=6,
                        alignment=ft.Alignment.CENTER)


def _hand_face(ctx: TableContext, card: int | None, *, size: float = 30) -> ft.Control:
    """A player's hand card as the table sees it (blank before the first round)."""
    shown = number(ctx, card) if card is not None else ""
    return ft.Container(ft.Text(shown, size=size, weight=ft.FontWeight.BOLD, color=ft.Colors.ON_SECONDARY_CONTAINER),
                        width=size * 2, height=size * 2.3, bgcolor=ft.Colors.SECONDARY_CONTAINER,
                        border=ft.Border.all(2, ft.Colors.SECONDARY), border_radius=8, alignment=ft.Alignment.CENTER)


# -- the pot ---------------------------------------------------------------------------------------


def _pot_inputs(state: State) -> tuple[Any, ...]:
    engine = state.engine
    return (tuple(engine.pending), engine.pending_mode, engine.pending_sum, engine.round, engine.deck_left,
            engine.round_open, state.outcome is None, tuple(engine.lost))


def _pot_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    pending = tuple(engine.pending)
    if pending:
        scale = (1.0 if len(pending) <= 2 else 0.75) * (0.7 if ctx.compact else 0.85)
        cards: ft.Control = ft.Row([point_card(ctx, c, scale=scale) for c in pending], wrap=True, spacing=8,
                                   run_spacing=8)
    else:
        cards = ft.Container(ft.Icon(ft.Icons.STYLE, size=48, color=ft.Colors.ON_SURFACE_VARIANT),
                             width=POINT_W, height=POINT_H, border=ft.Border.all(3, ft.Colors.OUTLINE),
                             border_radius=10, alignment=ft.Alignment.CENTER)

    info: list[ft.Control] = [ft.Row([
        ui.text(ctx.t("app.sv.round", n=engine.round, of=ROUNDS), ui.FONT_LABEL if ctx.compact else ui.FONT_TITLE,
                weight=ft.FontWeight.BOLD,
                ident=ctx.ident("sv-round")),
        *([] if ctx.compact else  # a phone: « Manche 3 sur 15 » says as much
          [ui.muted(ctx.t("app.sv.deck_left", n=engine.deck_left), ident=ctx.ident("sv-deck-left"))]),
    ], wrap=True, spacing=18, run_spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if pending:
        vulture = engine.pending_mode == "vulture"
        colour = ft.Colors.ERROR if vulture else ft.Colors.PRIMARY
        info.append(ft.Row([
            ui.text(ctx.t("app.sv.pot_sum", sum=number(ctx, engine.pending_sum)),
                    ui.FONT_TITLE if ctx.compact else ui.FONT_HUGE - 6,
                    weight=ft.FontWeight.BOLD, color=colour, ident=ctx.ident("sv-pot-sum")),
            ui.tid(ctx.ident("sv-pot-mode"), ft.Row([
                ft.Icon(ft.Icons.ARROW_DOWNWARD if vulture else ft.Icons.ARROW_UPWARD, size=34, color=colour),
                ft.Text(ctx.t(f"app.sv.mode.{engine.pending_mode}"), size=ui.FONT_BODY if ctx.compact else ui.FONT_LABEL,
                        weight=ft.FontWeight.W_600, color=colour, expand=ctx.compact or None),
            ], spacing=6, tight=not ctx.compact, vertical_alignment=ft.CrossAxisAlignment.CENTER)),
        ], wrap=True, spacing=20, run_spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        if not engine.round_open and state.outcome is None:
            info.append(ui.muted(ctx.t("app.sv.pot_waiting"), ident=ctx.ident("sv-pot-waiting")))
    else:
        info.append(ui.text(ctx.t("app.sv.pot_empty"), ui.FONT_LABEL, ident=ctx.ident("sv-pot-empty")))
    if engine.lost:
        info.append(ui.text(ctx.t("app.sv.lost", cards=tuple(engine.lost)), ui.FONT_BODY,
                            ident=ctx.ident("sv-lost")))
    return ui.panel(ft.Row([cards, ft.Column(info, spacing=4, expand=True)], spacing=12 if ctx.compact else 24,
                           vertical_alignment=ft.CrossAxisAlignment.CENTER), ident=ctx.ident("sv-pot"),
                    padding=10 if ctx.compact else 12)


def _award_block(state: State, ctx: TableContext) -> ft.Control:
    """Who took what in the round just played, and why (or where the points went)."""
    engine = state.engine
    lines: list[ft.Control] = [
        ui.subtitle(ctx.t("app.sv.last_round", n=engine.rounds_played)),
        *[ft.Text(ctx.say(m), size=ui.FONT_LABEL, color=ft.Colors.ON_TERTIARY_CONTAINER)
          for m in engine.last_award],
    ]
    return ui.panel(ft.Column(lines, spacing=8), bgcolor=ft.Colors.TERTIARY_CONTAINER,
                    ident=ctx.ident("sv-award"))


# -- the players -----------------------------------------------------------------------------------


def _players_block(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    last = engine.last_played
    scores = engine.scores if state.assist else {}
    taken = engine.taken if state.assist else {}
    hands = engine.hands if state.assist else {}
    tiles: list[ft.Control] = []
    for player in state.players:  # a tile is kept while what it shows is (its last card; with the aid, more)
        card = last.get(player)
        seen = (card, scores[player], tuple(taken[player]), tuple(hands[player])) if state.assist else (card,)
        tiles.append(ctx.keep(f"sv-player-{player}", seen, partial(_player_tile, state, ctx, player, card)))
    parts: list[ft.Control] = [ft.Row(tiles, wrap=True, spacing=12, run_spacing=12,
                                      vertical_alignment=ft.CrossAxisAlignment.START)]
    if not state.assist and state.outcome is None:
        parts.append(ui.muted(ctx.t("app.sv.scores_hidden"), ident=ctx.ident("sv-scores-hidden")))
    elif state.assist and state.outcome is None:  # the table aid says that it shows more than the table
        parts.append(ui.muted(ctx.t("app.sv.aid_on"), ident=ctx.ident("sv-aid-on")))
    parts.append(ui.muted(ctx.t(f"variant.stupide-vautour.ties.{engine.ties}"), ident=ctx.ident("sv-ties")))
    return ft.Column(parts, spacing=8)


def _player_tile(state: State, ctx: TableContext, player: str, card: int | None) -> ft.Control:
    engine = state.engine
    scores = engine.scores if state.assist else {}
    taken = engine.taken if state.assist else {}
    hands = engine.hands if state.assist else {}
    head = ft.Row([
        _hand_face(ctx, card, size=26),
        ft.Column([
            ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
            ui.muted(ctx.t("app.sv.last_card") if card is not None else ctx.t("app.sv.not_played")),
        ], spacing=0, tight=True, expand=True),
    ], spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    lines: list[ft.Control] = [head]
    if state.assist:
        lines.append(ui.text(ctx.t("app.sv.score", score=number(ctx, scores[player])), ui.FONT_LABEL,
                             weight=ft.FontWeight.BOLD, ident=ctx.ident(f"sv-score-{player}")))
        if taken[player]:
            lines.append(ft.Row([_small_point(ctx, c) for c in taken[player]], wrap=True, spacing=4,
                                run_spacing=4))
        else:
            lines.append(ui.muted(ctx.t("app.sv.taken_none")))
        lines.append(ui.muted(ctx.t("app.sv.hand_left", count=len(hands[player]), cards=tuple(hands[player])) if hands[player]
                              else ctx.t("app.sv.hand_empty"), ident=ctx.ident(f"sv-hand-left-{player}")))
    box = ft.Container(ft.Column(lines, spacing=6), padding=12, width=250, border_radius=ui.RADIUS,
                       bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))
    return ui.tid(ctx.ident(f"sv-player-{player}"), box)


# -- entries ---------------------------------------------------------------------------------------


def _reveal_block(state: State, ctx: TableContext, *, shown: bool, why: str | None = None) -> ft.Control:
    out = set(state.engine.revealed)

    def reveal(card: int) -> ui.Handler:
        return lambda _: ctx.submit({"type": "reveal", "card": card})

    def tile(card: int, gone: bool) -> ft.Control:
        # a card already out stays greyed and says why at a tap
        tap = ctx.why_not(ctx.t("app.sv.why.out", card=number(ctx, card))) if gone else reveal(card)
        face = ft.Container(point_card(ctx, card, scale=0.8), on_click=tap,
                            border_radius=10, opacity=0.25 if gone else 1.0)
        label = ctx.t("app.sv.point_card_out" if gone else "app.sv.point_card", card=card)
        return ui.tid(ctx.ident(f"sv-reveal-{card}"), face, button=True, label=label)

    def kept(card: int) -> ft.Control:  # a card is kept while it is in or out: a reveal changes one
        return ctx.keep(f"sv-reveal-{card}", card in out, partial(tile, card, card in out))

    positive = [c for c in SV_POINT_CARDS if c > 0]
    negative = [c for c in SV_POINT_CARDS if c < 0]
    block = ui.panel(ft.Column([
        ui.subtitle(ctx.t("app.sv.which_card")),
        ui.why_line(why, ctx.ident("sv-why")),
        ft.Row([kept(c) for c in positive], wrap=True, spacing=8, run_spacing=8),
        ft.Row([kept(c) for c in negative], wrap=True, spacing=8, run_spacing=8),
    ], spacing=12), ident=ctx.ident("sv-reveal"))
    block.visible = shown
    return block


# The fifteen hand cards of a player fit the width the screen gets: 15 in a row where each keeps at
# least 48 dp beside its gap (a landscape tablet: the name beside them if there is room), else 8 in a
# row (a portrait tablet), else 5 (a phone). Unknown width: 15 in a row under the name.
TILE_MIN = 48
TILE_GAP = 3
NAME_W = 104
PLAY_PADDING = 12
PER_ROW = (15, 8, 5)


def hand_layout(width: float | None) -> tuple[int, float | None, bool]:
    """(cards per row, each card's width or None to share the row, name beside the cards)."""
    if width is None:
        return 15, None, False
    inner = width - 2 * PLAY_PADDING - 2
    beside = inner - NAME_W - 8
    if beside >= 15 * TILE_MIN + 14 * TILE_GAP:
        return 15, (beside - 14 * TILE_GAP) / 15, True
    for n in PER_ROW:
        if inner >= n * TILE_MIN + (n - 1) * TILE_GAP or n == PER_ROW[-1]:
            return n, (inner - (n - 1) * TILE_GAP) / n, False
    raise AssertionError("unreachable")


def last_cards(state: State) -> dict[str, int] | None:
    """In the last round each player holds one card, known to all from the fourteen played: the
    picks the table only confirms (None before the last round)."""
    engine = state.engine
    if engine.round != ROUNDS or not engine.round_open:
        return None
    hands = engine.hands
    if any(len(hands[p]) != 1 for p in state.players):
        return None
    return {p: hands[p][0] for p in state.players}


def _play_block(state: State, ctx: TableContext, *, shown: bool, why: str | None = None) -> ft.Control:
    engine = state.engine
    players = tuple(state.players)
    chosen: dict[str, int] = ctx.draft.setdefault("cards", {})
    if ctx.draft.get("round") != engine.round:  # a new round starts with nothing picked
        chosen.clear()
        ctx.draft.pop(KEPT, None)
        ctx.draft["round"] = engine.round
    # A correction without the table aid: each player's card as entered, sent again unless the table
    # taps another one; its value is never on the page (the row says « as entered », no card is lit).
    kept: dict[str, int] = ctx.draft.get(KEPT) or {}
    last = last_cards(state)
    if last is not None and ctx.draft.get("forced") != engine.round:
        # The last round: each player's one card is forced, so it is picked already and the table
        # confirms (a clear empties the picks and leaves them empty).
        chosen.update(last)
        ctx.draft["forced"] = engine.round
    hands = engine.hands if state.assist else None

    # The taps of kept cards and chips find the picks in the table's draft when they run (the draft
    # is the same dict for the screen's life; the picks are a new dict after each entry), so a card
    # is kept across rounds while it looks the same.
    def pick(player: str, card: int) -> ui.Handler:
        def handler(_: Any) -> None:
            picks: dict[str, int] = ctx.draft.setdefault("cards", {})
            if picks.get(player) == card:
                del picks[player]
            else:
                picks[player] = card
            ctx.refresh()
        return handler

    clear = ctx.clearer(chosen)

    def confirm(_: Any) -> None:
        cards = {**kept, **chosen}  # a card tapped replaces the one kept
        ctx.submit({"type": "play", "cards": {p: cards[p] for p in players if p in cards}})

    per_row, tile_w, beside = hand_layout(ctx.width)

    def tile(player: str, card: int, selected: bool, used: bool) -> ft.Control:
        box = ft.Container(
            ft.Text(number(ctx, card), size=24, weight=ft.FontWeight.BOLD,
                    color=ft.Colors.ON_PRIMARY if selected else None),
            on_click=ctx.why_not(ctx.t("app.sv.why.played", card=number(ctx, card), player=player)) if used
            else pick(player, card), height=HAND_H, alignment=ft.Alignment.CENTER,
            border_radius=10, opacity=0.3 if used else 1.0, width=tile_w,
            bgcolor=ft.Colors.PRIMARY if selected else ft.Colors.SURFACE_CONTAINER_HIGHEST,
            border=ft.Border.all(3 if selected else 1, ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE_VARIANT))
        return ui.tid(ctx.ident(f"sv-card-{player}-{card}"), box, button=True, selected=selected,
                      label=ctx.t("app.sv.hand_card", player=player, card=card),
                      **({"expand": 1} if tile_w is None else {}))

    def unpick(player: str) -> ui.Handler:
        def handler(_: Any) -> None:
            ctx.draft.setdefault("cards", {}).pop(player, None)
            ctx.refresh()
        return handler

    def folded(player: str, mine: int) -> ft.Control:
        """On a phone, a player whose card is entered folds to a chip beside the others entered (the
        next player's cards come up where the eye is: a round is entered without scrolling); a tap
        on the chip unfolds it to change the card."""
        chip = ui.tile(ft.Row([
            ft.Text(player, size=ui.FONT_BODY, weight=ft.FontWeight.BOLD, max_lines=1),
            ui.text(ctx.t("app.sv.picked", card=number(ctx, mine)), ui.FONT_BODY, weight=ft.FontWeight.BOLD,
                    color=ft.Colors.PRIMARY, ident=ctx.ident(f"sv-picked-{player}")),
            ft.Icon(ft.Icons.EDIT, size=18, color=ft.Colors.ON_SURFACE_VARIANT),
        ], spacing=6, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER), unpick(player),
            ident=ctx.ident(f"sv-change-{player}"), height=ui.TOUCH_MIN,
            padding=ft.Padding.symmetric(horizontal=10, vertical=4),
            label=ctx.t("app.sv.change", player=player, card=mine))
        chip.key = f"fold-{player}"  # chips and rows come and go as players fold: matched by key, not place
        return chip

    def row(player: str, mine: int | None, holds: frozenset[int] | None, as_entered: bool) -> ft.Control:
        tiles: list[ft.Control] = []
        for card in SV_HAND:  # a card is kept while it looks the same
            used = holds is not None and card not in holds
            selected = mine == card
            tiles.append(ctx.keep(f"sv-card-{player}-{card}", (selected, used, tile_w),
                                  partial(tile, player, card, selected, used)))
        status = (ctx.t("app.sv.picked", card=number(ctx, mine)) if mine is not None
                  else ctx.t("app.sv.as_entered") if as_entered else ctx.t("app.sv.to_pick"))
        entered = mine is not None or as_entered
        said: list[ft.Control] = [
            ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD, max_lines=1),
            ui.text(status, ui.FONT_BODY, weight=ft.FontWeight.BOLD if entered else None,
                    color=ft.Colors.PRIMARY if entered else ft.Colors.ON_SURFACE_VARIANT,
                    ident=ctx.ident(f"sv-picked-{player}")),
        ]
        head: ft.Control = (ft.Row(said, spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER) if ctx.compact
                            else ft.Column(said, spacing=0, tight=True))
        shown = ui.tid(ctx.ident(f"sv-row-{player}"), _hand_rows(head, tiles, per_row, beside))
        shown.key = f"row-{player}"
        return shown

    rows: list[ft.Control] = []
    chips: list[ft.Control] = []
    for player in players:  # a row is kept while its pick and hand are
        mine = chosen.get(player)
        if ctx.compact and mine is not None:
            chips.append(ctx.keep(f"sv-fold-{player}", mine, partial(folded, player, mine)))
            continue
        holds = frozenset(hands[player]) if hands is not None else None
        as_entered = player in kept  # a kept card stays a row (on a phone too): the table finds the wrong one
        rows.append(ctx.keep(f"sv-row-{player}", (mine, holds, as_entered),
                             partial(row, player, mine, holds, as_entered)))

    missing = [p for p in players if p not in chosen and p not in kept]
    # Confirm first, above the rows: in view without scrolling, whatever the number of players.
    # On a phone the two share a line (the clear as an icon) and the rows say who is missing.
    actions: list[ft.Control] = [
        ui.button(ctx.t("app.sv.confirm", n=engine.round), confirm, ident=ctx.ident("sv-confirm"),
                  icon=ft.Icons.CHECK, kind="primary", disabled=bool(missing), size=ui.FONT_BODY,
                  expand=True if ctx.compact else None),
        ui.icon_button(ft.Icons.BACKSPACE, clear, ident=ctx.ident("sv-clear"), tooltip=ctx.t("app.sv.clear"),
                       disabled=not chosen) if ctx.compact else
        ui.button(ctx.t("app.sv.clear"), clear, ident=ctx.ident("sv-clear"), icon=ft.Icons.BACKSPACE,
                  kind="outlined", disabled=not chosen, size=ui.FONT_BODY),
    ]
    if missing and not ctx.compact:
        actions.append(ui.muted(ctx.t("app.sv.still_missing", players=tuple(missing)), ident=ctx.ident("sv-missing")))
    lines: list[ft.Control] = []
    if kept:  # says why the rows show no card
        lines.append(ui.muted(ctx.t("app.sv.kept_hint"), ident=ctx.ident("sv-kept-hint")))
    elif last is not None:  # says why the cards are picked already
        lines.append(ui.muted(ctx.t("app.sv.last_cards", cards=tuple(
            ctx.t("app.sv.player_card", player=p, card=c) for p, c in last.items())), ident=ctx.ident("sv-last-cards")))
    lines += [
        ft.Row(actions, wrap=not ctx.compact, spacing=10, run_spacing=8,
               vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ui.why_line(why, ctx.ident("sv-why")),
    ]
    if chips:
        lines.append(ft.Row(chips, wrap=True, spacing=6, run_spacing=6))
    lines += rows
    if not state.assist:
        lines.append(ui.muted(ctx.t("app.sv.fair_hint"), ident=ctx.ident("sv-fair-hint")))
    block = ui.panel(ft.Column(lines, spacing=8), ident=ctx.ident("sv-play"), padding=PLAY_PADDING)
    block.visible = shown
    return block


def _hand_rows(head: ft.Control, tiles: list[ft.Control], per_row: int, beside: bool) -> ft.Control:
    lines: list[ft.Control] = []
    for start in range(0, len(tiles), per_row):
        lines.append(ft.Row(tiles[start:start + per_row], spacing=TILE_GAP))
    cards = ft.Column(lines, spacing=TILE_GAP, tight=True)
    if beside:
        return ft.Row([ft.Container(head, width=NAME_W), cards], spacing=8,
                      vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Column([head, cards], spacing=4, tight=True)


def chapters(state: Any, entries: Any) -> Any:
    """A past game's chapters (companion.app.chapters): a round opens with each point card revealed."""
    from companion.app.chapters import chapters_of

    return chapters_of(entries, lambda e: "round" if e.action.get("type") == "reveal" else None)


def correction_draft(state: State, action: Mapping[str, Any]) -> dict[str, Any]:
    """A round's cards corrected: the round opens with its cards as entered, so the table taps only
    the card that was wrong. With the table aid they are picked (shown); without it the shared
    screen never shows a past round's cards (as at the table, played cards are not shown), so they
    are kept hidden (``KEPT``: each row says « as entered », no card lit) and a card tapped
    replaces that player's. A reveal has one card: nothing to keep."""
    if action.get("type") != "play":
        return {}
    round_no = state.engine.round
    cards = {str(p): int(c) for p, c in (action.get("cards") or {}).items()}
    return {"cards" if state.assist else KEPT: cards, "round": round_no, "forced": round_no}


class Screen(GameScreenBase):
    """This game's hooks of the table screen's contract (companion.app.games.GameScreen)."""

    LANDSCAPE_SHARE = LANDSCAPE_SHARE
    build = staticmethod(build)
    table_log = staticmethod(table_log)
    chapters = staticmethod(chapters)
    correction_draft = staticmethod(correction_draft)


SCREEN: GameScreen = Screen()
