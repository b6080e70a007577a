"""One game from the history: its result, and the game replayed step by step (a fold of the
record's first k entries through the engine), plus export, delete and resume."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.format import names, when
from companion.app.games import TableContext, screen_for, state_at, state_from_session
from companion.app.screens.results import outcome_view
from scoring.base import rules_of

if TYPE_CHECKING:
    from companion.app.shell import App


def build(app: App, session_id: int, step: int | None = None, **_: Any) -> tuple[str, ft.Control]:
    session = app.service.open(session_id)
    total = len(session.log)
    step = total if step is None else max(0, min(step, total))
    heading = app.t("app.past.title", game=app.t(f"game.{session.game}.name"))

    def go_step(k: int) -> ui.Handler:
        def handler(_: Any) -> None:
            app.here.params["step"] = max(0, min(k, total))
            app.render()
        return handler

    def export_one(_: Any) -> None:
        from companion.app.screens.history import export_to

        export_to(app, session_id)
        app.render()

    summary = app.guard(lambda: app.service.history.summary(session_id))
    abandoned = summary is not None and summary.status == "abandoned"

    def mark(value: bool) -> ui.Handler:
        def handler(_: Any) -> None:
            if app.guard(lambda: app.service.history.set_abandoned(session_id, value)) is not None:
                app.announce(session_id)
                app.tell(app.t("app.past.abandoned_now" if value else "app.past.resumed_now"), "ok")
            app.render()
        return handler

    def resume(_: Any) -> None:
        if abandoned and app.guard(lambda: app.service.history.set_abandoned(session_id, False)) is None:
            app.render()
            return
        app.go("table", session_id=session_id)

    def delete(_: Any) -> None:
        def really() -> None:
            from companion.service import ServiceError

            try:
                app.service.delete(session_id)
            except ServiceError as err:
                app.tell(app.say(err.msg), "error")
                app.render()
                return
            app.announce(session_id)
            app.back()
            app.tell(app.t("app.past.deleted"), "ok")
            app.render()
        app.confirm(app.t("app.past.delete_question"), really, ident="delete-confirm",
                    yes_key="app.past.delete", danger=True)

    parts: list[ft.Control] = [ui.panel(ft.Column([
        ui.text(names(app, session.players), ui.FONT_LABEL, weight=ft.FontWeight.W_600),
        ui.muted(app.t("app.past.when", start=when(app, session.started_at), last=when(app, session.updated_at))),
        ft.Row([
            *([ui.button(app.t("app.past.resume"), resume, ident="past-resume", icon=ft.Icons.PLAY_ARROW,
                         kind="primary"),
               ui.button(app.t("app.past.unabandon" if abandoned else "app.past.abandon"), mark(not abandoned),
                         ident="past-unabandon" if abandoned else "past-abandon",
                         icon=ft.Icons.RESTORE if abandoned else ft.Icons.DO_NOT_DISTURB_ON, kind="outlined")]
              if session.outcome is None else []),
            ui.button(app.t("app.past.export"), export_one, ident="export-one", icon=ft.Icons.DOWNLOAD),
            ui.button(app.t("app.past.delete"), delete, ident="past-delete", icon=ft.Icons.DELETE, kind="danger"),
        ], wrap=True, spacing=ui.GAP, run_spacing=ui.GAP),
    ], spacing=10), ident="past-header")]

    if session.outcome is not None:
        parts.append(outcome_view(app, session.outcome, session.players, prefix="past-", game=session.game))
    else:
        parts.append(ui.banner(app.t("app.past.abandoned" if abandoned else "app.past.unfinished"),
                               ident="past-unfinished", kind="info"))

    # -- step by step ----------------------------------------------------------------------------
    state = state_at(session, step)
    screen = screen_for(session.game)
    # Table-fair: each entry says what the table's log says now (the game's ``table_log``: during
    # a Stupide Vautour game, an earlier round without its cards), and a step whose table showed
    # what is hidden now (cards since covered by later ones) is not drawn.
    said = [tuple(entry.events) for entry in session.log]
    stands = state_from_session(session)  # the game as it ended (or stands)
    public = said if screen is None else [tuple(m) for m in screen.table_log(stands, session.log)]
    then = said if screen is None else [tuple(m) for m in screen.table_log(state, session.log[:step])]
    drawn = all(public[i] == said[i] or then[i] != said[i] for i in range(step))
    if step == 0:
        happened = app.t("app.past.step_start")
    else:
        entry = session.log[step - 1]
        happened = " ".join(app.say(m) for m in public[step - 1]) or app.t("app.table.entry_plain",
                                                                           type=entry.action.get("type", "?"))

    def why(_: Any) -> None:
        """This step's "why?": what the entry did, and the rules behind it (the same as at the table)."""
        from companion.app.screens.table import why_dialog

        entry = session.log[step - 1]
        events = public[step - 1]
        rules = rules_of(events)
        sentences = [app.say(m) for m in events] or [happened]
        if not rules and tuple(events) == tuple(entry.events):  # a hidden entry is not a plain one
            sentences.append(app.t("app.past.why_plain"))
        sentences.append(app.t("app.past.why_next", prompt=app.say(state.expected.prompt)))
        why_dialog(app, app.t("app.table.why_entry", n=step), sentences, rules, ident="why-step")
    controls = ft.Row([
        ui.icon_button(ft.Icons.FIRST_PAGE, go_step(0), ident="step-first", tooltip=app.t("app.past.first"),
                       disabled=step == 0),
        ui.icon_button(ft.Icons.CHEVRON_LEFT, go_step(step - 1), ident="step-prev", tooltip=app.t("app.past.prev"),
                       disabled=step == 0),
        ui.text(app.t("app.past.step", k=step, n=total), ui.FONT_LABEL, weight=ft.FontWeight.BOLD,
                ident="step-label"),
        ui.icon_button(ft.Icons.CHEVRON_RIGHT, go_step(step + 1), ident="step-next", tooltip=app.t("app.past.next"),
                       disabled=step >= total),
        ui.icon_button(ft.Icons.LAST_PAGE, go_step(total), ident="step-last", tooltip=app.t("app.past.last"),
                       disabled=step >= total),
        ui.button(app.t("app.results.why"), why, ident="step-why", icon=ft.Icons.HELP_OUTLINE, kind="outlined",
                  disabled=step == 0),
    ], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER, wrap=True)
    replay_parts: list[ft.Control] = [ui.subtitle(app.t("app.past.replay")), controls]
    # Chapters (a season, a deal, a round, an auction): one tap to where the table wants to look,
    # from the game screen's ``chapters`` hook (companion.app.chapters)
    marks = screen.chapters(stands, session.log) if screen is not None else []
    if marks:
        here = max((i for i, (_, at) in enumerate(marks) if at <= step), default=-1)
        replay_parts.append(ui.tid("past-chapters", ft.Row([
            ui.muted(app.t("app.past.chapters"), ui.FONT_BODY),
            *[ui.chip(app.say(name), go_step(at), ident=f"chapter-{i}", selected=i == here, compact=True)
              for i, (name, at) in enumerate(marks)],
        ], wrap=True, spacing=8, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER)))
    replay_parts += [
        ui.text(happened, ui.FONT_BODY, weight=ft.FontWeight.W_600, ident="step-events"),
        ui.muted(app.say(state.expected.prompt), ui.FONT_BODY, ident="step-prompt"),
    ]
    if screen is not None and not drawn:
        replay_parts.append(ui.muted(app.t("app.past.step_hidden"), ui.FONT_BODY, ident="step-hidden"))
    elif screen is not None:
        ctx = TableContext(lang=app.lang, submit=lambda _action: None, refresh=lambda: app.render(),
                           readonly=True, id_prefix="past-")
        replay_parts.append(screen.build(state, ctx))
    parts.append(ui.panel(ft.Column(replay_parts, spacing=12), ident="past-replay"))
    return heading, ft.Column(parts, spacing=ui.GAP)
