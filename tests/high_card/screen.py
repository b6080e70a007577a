"""High card at the table, as ``companion/app/games/<game>.py`` is a game's of the app.

Who took how many rounds, the round (or the battle) under way and what settled the last one are
always in view. An entry: one row per player who reveals now (every player, or the battle's), a
tap on the card each revealed, then confirm. Every card is revealed face up at the table, so
nothing here is hidden; with the table aid the cards already played are greyed out. Everything
shown comes from the engine's public state (``tests/high_card/engine.py``)."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.app import ui
from companion.app.games import GameScreen, GameScreenBase, TableContext, TableState
from tests.high_card.engine import HighCardEngine
from tests.high_card.spec import HC_HAND

State = TableState[HighCardEngine]


def build(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    parts: list[ft.Control] = [_standing(state, ctx)]
    if engine.last_round:
        parts.append(ui.panel(ft.Column([ft.Text(ctx.say(m), size=ui.FONT_LABEL) for m in engine.last_round],
                                        spacing=6), ident=ctx.ident("hc-last")))
    if not ctx.readonly and state.outcome is None:
        parts.append(_entry(state, ctx))
    return ft.Column(parts, spacing=ui.GAP, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _standing(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    heading = (ctx.t("app.hc.battle", players=engine.battle) if engine.battle
               else ctx.t("app.hc.round", n=engine.round))
    tiles = [ui.tid(ctx.ident(f"hc-taken-{p}"), ft.Container(ft.Column([
        ft.Text(p, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
        ui.text(ctx.t("app.hc.taken", n=n), ui.FONT_BODY)], spacing=2, tight=True), padding=10,
        border_radius=ui.RADIUS, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)))
        for p, n in engine.taken.items()]
    return ui.panel(ft.Column([ui.subtitle(heading, ident=ctx.ident("hc-round")), ui.wrap(tiles)], spacing=8))


def _entry(state: State, ctx: TableContext) -> ft.Control:
    engine = state.engine
    kind = "battle" if engine.battle else "reveal"
    players = engine.battle or state.players
    chosen: dict[str, int] = ctx.draft.setdefault("cards", {})
    if ctx.draft.get("entry") != (engine.round, kind):  # a new round or battle starts with nothing picked
        chosen.clear()
        ctx.draft["entry"] = (engine.round, kind)
    hands = engine.hands

    def pick(player: str, card: int) -> ui.Handler:
        def handler(_: Any) -> None:
            if chosen.get(player) == card:
                del chosen[player]
            else:
                chosen[player] = card
            ctx.refresh()
        return handler

    def confirm(_: Any) -> None:
        ctx.submit({"type": kind, "cards": {p: chosen[p] for p in players if p in chosen}})

    rows: list[ft.Control] = []
    for player in players:
        mine = chosen.get(player)
        cards = [ui.tile(ft.Text(str(card), size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                         pick(player, card), ident=ctx.ident(f"hc-card-{player}-{card}"), selected=mine == card,
                         disabled=state.assist and card not in hands[player], width=ui.TOUCH_MIN,
                         height=ui.TOUCH_MIN, padding=4, label=ctx.t("app.hc.card", player=player, card=card))
                 for card in HC_HAND]
        status = ctx.t("app.hc.picked", card=mine) if mine is not None else ctx.t("app.hc.to_pick")
        rows.append(ft.Column([
            ft.Row([ft.Text(player, size=ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                    ui.text(status, ui.FONT_BODY, ident=ctx.ident(f"hc-picked-{player}"))], spacing=10),
            ft.Row(cards, spacing=8, wrap=True)], spacing=4, tight=True))
    actions = ft.Row([
        ui.button(ctx.t("app.hc.confirm"), confirm, ident=ctx.ident("hc-confirm"), icon=ft.Icons.CHECK,
                  kind="primary", disabled=any(p not in chosen for p in players), size=ui.FONT_BODY),
        ui.button(ctx.t("app.hc.clear"), ctx.clearer(chosen), ident=ctx.ident("hc-clear"), icon=ft.Icons.BACKSPACE,
                  kind="outlined", disabled=not chosen, size=ui.FONT_BODY),
    ], wrap=True, spacing=10)
    return ui.panel(ft.Column([actions, *rows], spacing=10), ident=ctx.ident(f"hc-{kind}"))


def chapters(state: Any, entries: Any) -> Any:
    """A past game's chapters (companion.app.chapters): a round opens with each reveal (a battle goes on it)."""
    from companion.app.chapters import chapters_of

    return chapters_of(entries, lambda e: "round" if e.action.get("type") == "reveal" else None)


class Screen(GameScreenBase):
    """High card's hooks of the table screen's contract (companion.app.games.GameScreen)."""

    build = staticmethod(build)
    chapters = staticmethod(chapters)


SCREEN: GameScreen = Screen()
