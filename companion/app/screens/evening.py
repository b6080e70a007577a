"""One club evening (``evening_id``, ``round``: the round shown, the one to play by default): each
table of the round with its game and players, who sits out, and for each table the entry a tablet
taps to start its game from the seating (« Soirée : table 2, manche 3 »). Before the round starts
the seating can be changed — tap a player, then the one to change places with — or proposed
again; a player arriving or leaving between rounds is said here too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.evening_live import watch
from companion.app.format import names

if TYPE_CHECKING:
    from companion.app.shell import App
    from companion.service.evenings import EveningRoundState, EveningState


def build(app: App, evening_id: int, round: int | None = None, **_: Any) -> tuple[str, ft.Control]:
    state: EveningState = app.service.evenings.get(evening_id)
    watch(app, lambda: app.service.evenings.get(evening_id), state)
    number = round if round is not None and 1 <= round <= len(state.rounds) else state.current.number
    rnd = state.rounds[number - 1]
    draft = app.drafts.setdefault(f"evening-{evening_id}", {"picked": None, "arrival": ""})

    def show(n: int) -> ui.Handler:
        def handler(_: Any) -> None:
            draft["picked"] = None
            app.replace("evening", evening_id=evening_id, round=n)
        return handler

    rounds = ui.wrap([ui.chip(app.t("app.evening.round_n", round=r.number), show(r.number),
                              ident=f"evening-round-{r.number}", selected=r.number == number, compact=app.narrow)
                      for r in state.rounds], spacing=8)
    top = ft.Row([
        ui.muted(app.t("app.evening.header", method=app.t(f"app.evening.method.{state.method}"),
                       rounds=len(state.rounds), present=len(state.players)), ui.FONT_BODY),
        ui.button(app.t("app.evening.standings"), lambda _: app.go("evening-standings", evening_id=evening_id),
                  ident="evening-to-standings", icon=ft.Icons.LEADERBOARD),
        ui.button(app.t("app.evening.games"), lambda _: show_games(app, evening_id), ident="evening-games",
                  icon=ft.Icons.HISTORY),
    ], wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    parts: list[ft.Control] = [top, rounds]
    phase = "started" if rnd.started else "open" if rnd.seated else "waiting"
    parts.append(ui.text(app.t(f"app.evening.round_state.{phase}", round=number), ui.FONT_BODY,
                         ident="evening-round-state"))
    if not rnd.started:
        def propose(_: Any) -> None:
            if app.guard(lambda: app.service.evenings.propose(evening_id, number)) is not None:
                draft["picked"] = None
                app.announce()
            app.render()
        parts.append(ui.button(app.t("app.evening.propose" if not rnd.seated else "app.evening.propose_again"),
                               propose, ident="evening-propose", icon=ft.Icons.SHUFFLE,
                               kind="primary" if not rnd.seated else "tonal"))
    if rnd.seated:
        parts.append(ui.wrap([_table(app, state, rnd, t.number, draft) for t in rnd.tables if t.players],
                             spacing=ui.GAP))
        if rnd.sit_out:
            parts.append(ft.Row([ui.text(app.t("app.evening.sit_out", names=names(app, rnd.sit_out)), ui.FONT_BODY,
                                         ident="evening-sit-out"),
                                 *([] if rnd.started else [_seat(app, evening_id, number, p, draft, f"evening-out-{i}")
                                                           for i, p in enumerate(rnd.sit_out)])],
                                wrap=True, spacing=8))
        if not rnd.started:
            parts.append(ui.muted(app.t("app.evening.swap_help"), ui.FONT_BODY))
    if not rnd.started:
        parts.append(_presence(app, state, rnd, draft))
    return app.t("app.evening.heading", name=state.name, round=number), ft.Column(parts, spacing=ui.GAP)


def _seat(app: App, evening_id: int, number: int, player: str, draft: dict[str, Any], ident: str) -> ft.Control:
    def pick(_: Any) -> None:
        picked = draft["picked"]
        if picked is None or picked == player:
            draft["picked"] = None if picked == player else player
        else:
            draft["picked"] = None
            if app.guard(lambda: app.service.evenings.swap_seats(evening_id, number, picked, player)) is not None:
                app.announce()
        app.render()

    return ui.chip(player, pick, ident=ident, selected=draft["picked"] == player, compact=True)


def _table(app: App, state: EveningState, rnd: EveningRoundState, table: int, draft: dict[str, Any]) -> ft.Control:
    spot = rnd.tables[table - 1]
    r = rnd.number
    status = "none" if spot.session_id is None else spot.status or "in_progress"
    if rnd.started:
        players: ft.Control = ui.text(names(app, spot.players), ui.FONT_BODY, ident=f"evening-players-{r}-{table}")
    else:
        players = ui.tid(f"evening-players-{r}-{table}", ui.wrap(
            [_seat(app, state.evening_id, r, p, draft, f"evening-seat-{r}-{table}-{i}")
             for i, p in enumerate(spot.players)], spacing=8))
    return ui.panel(ft.Column([
        ui.text(app.t("app.evening.table_game", table=table, game=app.t(f"game.{spot.game}.name")), ui.FONT_LABEL,
                weight=ft.FontWeight.BOLD),
        players,
        ui.muted(app.t(f"app.evening.table_status.{status}"), ui.FONT_BODY, ident=f"evening-status-{r}-{table}"),
        ui.button(app.t("app.evening.play", table=table, round=r),
                  lambda _: app.go("evening-table", evening_id=state.evening_id, round=r, table=table),
                  ident=f"evening-play-{r}-{table}", icon=ft.Icons.PLAY_ARROW,
                  kind="primary" if spot.session_id is None else "tonal"),
    ], spacing=8, tight=True), ident=f"evening-table-{r}-{table}", padding=14)


def _presence(app: App, state: EveningState, rnd: EveningRoundState, draft: dict[str, Any]) -> ft.Control:
    """Arrivals (a name, present from this round on) and departures (present until the round before)."""
    number = rnd.number

    def set_arrival(e: Any) -> None:
        draft["arrival"] = e.control.value or ""

    def arrive(_: Any) -> None:
        name = draft["arrival"].strip()
        if name and app.guard(lambda: app.service.evenings.set_presence(state.evening_id, name, number, None)) is not None:
            draft["arrival"] = ""
            app.announce()
        app.render()

    def leave(player: str, first: int) -> ui.Handler:
        def handler(_: Any) -> None:
            if app.guard(lambda: app.service.evenings.set_presence(state.evening_id, player, first, number - 1)) is not None:
                app.announce()
            app.render()
        return handler

    leaving = [ui.chip(p.name, leave(p.name, p.first_round), ident=f"evening-leave-{p.name}", compact=True,
                       icon=ft.Icons.LOGOUT)
               for p in state.players if p.name in rnd.present and p.first_round < number]
    rows: list[ft.Control] = [
        ui.subtitle(app.t("app.evening.presence", round=number)),
        ft.Row([ui.tid("evening-arrival", ft.TextField(label=app.t("app.evening.arrival"), value=draft["arrival"],
                                                       on_change=set_arrival, on_submit=arrive, max_length=40,
                                                       text_size=ui.FONT_BODY, width=320)),
                ui.button(app.t("app.evening.arrive"), arrive, ident="evening-arrive", icon=ft.Icons.PERSON_ADD)],
               wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
    ]
    if leaving:
        rows += [ui.muted(app.t("app.evening.leave_help", round=number), ui.FONT_BODY), ui.wrap(leaving, spacing=8)]
    return ui.panel(ft.Column(rows, spacing=ui.GAP), ident="evening-presence")


def show_games(app: App, evening_id: int) -> None:
    """The history, filtered on this evening's games."""
    from companion.app.screens.history import Filters

    app.drafts["history"] = Filters(evening=evening_id)
    app.go("history")
