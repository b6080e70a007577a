"""The table: the frame common to every game around the game's own screen.

The frame shows whose turn it is and what is expected (the engine's prompt), the latest entries as
sentences, UNDO of the last entry and CORRECTION of an earlier one (previewed first: if a later
entry would become illegal the frame says which one and why, and nothing is saved). A refused
entry shows the rule's id, its title and its text in plain words, and the engine's sentence.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import flet as ft

from companion.app import ui
from companion.app.games import CARRY, GameScreen, TableContext, TableState, screen_for, state_at, state_from_session
from companion.app.screens.rules import rule_paragraphs
from models.i18n import Msg
from scoring.base import rules_of

if TYPE_CHECKING:
    from companion.app.shell import App
    from companion.service import (
        CorrectionConflict,
        GameChanged,
        LogEntry,
        SessionState,
    )


LOG_SHORT = 6
# The shell builds this screen holding the service steady (App.render; ``steady`` in the screens'
# registry): the game it reads once for the render (App.read) is the one the screen shows, even if
# another tab enters something meanwhile.
log = logging.getLogger("companion.app")


@dataclass
class TableDraft:
    draft: dict[str, Any] = field(default_factory=dict)        # the game screen's own draft
    refusal: tuple[str, Msg, int | None] | None = None         # (rule id, Msg, entry index)
    problem: Msg | None = None                                 # malformed input, service error
    correcting: int | None = None                              # index of the entry being corrected
    fix_draft: dict[str, Any] = field(default_factory=dict)
    fix_seeded: int | None = None  # the entry whose correction draft was filled from it
    preview: tuple[dict[str, Any], SessionState] | None = None  # (action, preview result)
    conflict: CorrectionConflict | None = None
    full_log: bool = False
    # Redo: the actions undone last (most recent last) and the number of entries the game had right
    # after that undo; any other change to the game makes them stale (they are then dropped).
    undone: list[dict[str, Any]] = field(default_factory=list)
    undone_at: int = -1
    # the version of the game this screen showed last: an entry it made counts as shown, so that a
    # tap entering several entries in a row (each on the state the one before it made) is not
    # refused as if another device had. Here, not in a render's closure: a part kept between
    # renders (companion.app.memo) submits with what the screen shows now.
    shown: int = 0
    # the state this screen was last drawn from: a refused entry (judged on that very game, which
    # it left as it was) draws the refusal over it without reading the game again
    showing: SessionState | None = None


def _table_draft(app: App, sid: int) -> TableDraft:
    key = f"table:{sid}"
    if key not in app.drafts:
        app.drafts[key] = TableDraft()
    return app.drafts[key]


def refusal_view(app: App, rule: str, message: Msg, *, ident: str = "refusal", index: int | None = None,
                 on_close: Any = None) -> ft.Control:
    """A refused entry: the engine's sentence, then the rule's id and title, whose text is one tap
    away (a dialog): the banner stays two lines high, so the entry it refused stays in view."""
    heading = app.say(message)
    if index is not None:
        heading = app.t("app.table.refused_at", n=index + 1, reason=heading)
    rule_line = app.t("app.table.rule_line", rule=rule, title=app.t(f"rule.{rule}.title"))
    read = ui.tid(f"{ident}-rule", ft.Container(
        ft.Text(app.t("app.table.read_rule", line=rule_line), size=ui.FONT_BODY,
                color=ft.Colors.ON_ERROR_CONTAINER, weight=ft.FontWeight.W_600,
                style=ft.TextStyle(decoration=ft.TextDecoration.UNDERLINE)),
        # built now, inside the game's words (a tap is handled outside them: Animalement Vôtre's)
        on_click=lambda _, dialog=rule_dialog(app, heading, [], (rule,), f"{ident}-rule"): app.show_dialog(dialog),
        padding=ft.Padding.symmetric(vertical=12), ink=False), button=True)
    return ui.banner(heading, ident=ident, kind="error", actions=[read], on_close=on_close,
                     close_tooltip=app.t("app.common.close"))


def why_dialog(app: App, heading: str, sentences: list[str], rules: tuple[str, ...], ident: str = "why") -> None:
    """A "why?": the sentences, then each rule behind them with its id, title and text."""
    app.show_dialog(rule_dialog(app, heading, sentences, rules, ident))


def rule_dialog(app: App, heading: str, sentences: list[str], rules: tuple[str, ...], ident: str) -> ft.AlertDialog:
    """The dialog of a "why?" or of a refusal's rule: the sentences, then each rule with its id, title and text."""
    lines: list[ft.Control] = [ft.Text(line, size=ui.FONT_BODY) for line in sentences]
    for rule in rules:
        lines.append(ft.Container(ft.Column([
            ft.Text(app.t("app.table.rule_line", rule=rule, title=app.t(f"rule.{rule}.title")),
                    size=ui.FONT_BODY, weight=ft.FontWeight.BOLD),
            *[ft.Text(paragraph, size=ui.FONT_SMALL) for paragraph in rule_paragraphs(app, rule)],
        ], spacing=4, tight=True), padding=12, border_radius=ui.RADIUS, bgcolor=ft.Colors.SECONDARY_CONTAINER))
    return ft.AlertDialog(
        title=ft.Text(heading, size=ui.FONT_TITLE),
        content=ui.tid(f"{ident}-text", ft.Column(lines, tight=True, spacing=10, scroll=ft.ScrollMode.AUTO,
                                                  width=640)),
        actions=[ui.button(app.t("app.common.close"), lambda _: app.close_dialog(), ident=f"{ident}-close",
                           kind="text")],
    )


def ask_undo(app: App, session: SessionState, do_undo: Callable[[], None]) -> None:
    """Undo asks first, saying which entry goes and what it did (the table and the results)."""
    if not session.log:
        return
    last = session.log[-1]
    app.confirm(app.t("app.table.undo_ask", n=last.index + 1, what=describe_entry(app, last)), do_undo,
                ident="undo-confirm", yes_key="app.table.undo_yes", no_key="app.table.undo_keep", danger=True)


def describe_entry(app: App, entry: LogEntry) -> str:
    """An entry as one line: what it did (the engine's sentences)."""
    if entry.events:
        return " ".join(app.say(m) for m in entry.events)
    return app.t("app.table.entry_plain", type=entry.action.get("type", "?"))


def build(app: App, session_id: int, **_: Any) -> tuple[str, ft.Control]:
    # The game screen reads the session's live engine (states share it, not copy it): no entry
    # from another tab of this process changes it while this screen is being built.
    with app.service.steady():
        return _build(app, session_id)


def _build(app: App, session_id: int) -> tuple[str, ft.Control]:
    service = app.service
    session = _session(app, session_id)
    draft = _table_draft(app, session_id)
    heading = app.t(f"game.{session.game}.name")
    game_screen = screen_for(session.game)
    if game_screen is None:
        return heading, ui.banner(app.t("app.table.no_screen"), ident="no-screen")

    def rerender() -> None:
        app.render()

    def after_change(new_state: SessionState, after: Callable[[SessionState], None] | None = None) -> None:
        app.announce(session_id)
        carried = draft.draft.get(CARRY)  # what the screen keeps past this entry (TableContext.submit_keeping)
        draft.draft.clear()  # in place: a kept part's handlers hold this dict
        if isinstance(carried, dict):
            draft.draft.update(carried)
        draft.refusal = None
        draft.problem = None
        app.notice = None
        if after is not None:
            after(new_state)
        if new_state.outcome is not None:
            app.drafts.pop(f"table:{session_id}", None)
            app.replace("results", known=new_state, session_id=session_id)
            return
        app.render(new_state)  # drawn from what the service returned: the game is not read again
        app.to_top()  # the next turn: its announcement in view, wherever this entry was tapped

    # What this screen showed: if another device changed the game since, nothing is saved.
    draft.shown = session.version
    draft.showing = session

    def submit(action: dict[str, Any]) -> None:
        enter(action)

    def enter(action: dict[str, Any], after: Callable[[SessionState], None] | None = None) -> None:
        """``action`` through the service; accepted, the screen is drawn from the state it returns
        (``after``, if given, first sees it)."""
        from companion.service import GameChanged, Malformed, Refused, ServiceError

        try:
            new_state = service.submit(session_id, action, seen=draft.shown)
            draft.shown = new_state.version
        except GameChanged as err:
            changed(err)
            return
        except Refused as err:
            draft.refusal = (err.rule, err.msg, None)
            draft.problem = None
            app.render(draft.showing)
            return
        except Malformed as err:  # the entry itself: the game is as shown
            draft.problem = err.msg
            draft.refusal = None
            app.render(draft.showing)
            return
        except ServiceError as err:  # Offline too: not saved, and the bar says offline
            app.failed(err)
            draft.problem = err.msg
            draft.refusal = None
            app.render()
            return
        except Exception as err:  # a defect: say so; what was saved stays saved
            log.exception("submitting %r", action)
            app.failed(err)
            draft.problem = Msg("app.error.unexpected")
            app.render()
            return
        after_change(new_state, after)

    if draft.undone and draft.undone_at != len(session.log):
        draft.undone, draft.undone_at = [], -1   # the game changed since: nothing to redo

    def changed(err: GameChanged) -> None:
        """Another device changed the game: say so and show the game as it is now (the refusal
        carries it); the picks made for the old state go."""
        draft.draft.clear()  # in place: a kept part's handlers hold this dict
        draft.refusal = None
        draft.problem = err.msg
        app.render(err.state)

    def do_undo() -> None:
        if not session.log:
            return
        last = session.log[-1]
        # only the last entry this screen showed: if another device changed the game, nothing goes
        new_state = app.guard(lambda: service.undo(session_id, seen=session.version))
        if new_state is not None:
            app.announce(session_id)
            draft.undone.append(dict(last.action))
            draft.undone_at = len(new_state.log)
            app.tell(app.t("app.table.undone", n=last.index + 1, what=describe_entry(app, last)), "info")
        draft.draft.clear()  # in place: a kept part's handlers hold this dict
        draft.refusal = None
        draft.problem = None
        app.render(new_state)

    def undo(_: Any) -> None:
        ask_undo(app, session, do_undo)

    def redo(_: Any) -> None:
        """Enter again what was just undone: the same action, through the service like any entry."""
        if not draft.undone:
            return
        action = draft.undone.pop()
        kept, draft.undone = draft.undone, []   # while the entry is being made, nothing else to redo

        def redone(latest: SessionState) -> None:
            if latest.outcome is None and len(latest.log) == len(session.log) + 1:
                draft.undone, draft.undone_at = kept, len(latest.log) if kept else -1
                last = latest.log[-1]
                app.tell(app.t("app.table.redone", n=last.index + 1, what=describe_entry(app, last)), "ok")
        enter(action, redone)

    parts: list[ft.Control] = []

    # -- what is expected ----------------------------------------------------------------------
    if app.offline:  # every entry is refused until the server answers: say so above the greyed controls
        parts.append(ui.banner(app.t("app.online.paused"), ident="offline-paused", kind="info",
                               details=[app.t("app.online.locked")]
                               + ([] if app.narrow else [app.t("app.online.paused_help")])))
    # The frame's parts are kept between renders (companion.app.memo) while what they show is the
    # same: a tap on the game's own screen then costs only what that screen changes. Their handlers
    # read the table's draft (its identity is in their inputs) and the app, nothing of this render.
    memo = app.memo
    prompt_at = len(parts) if draft.correcting is None else None  # filled in once the game's part is built
    if draft.refusal is not None:
        rule, refused, at = draft.refusal

        def close_refusal(_: Any) -> None:
            draft.refusal = None
            app.render()
        parts.append(memo.keep("frame-refusal", (rule, app.say(refused), at, id(draft)),
                               lambda: refusal_view(app, rule, refused, index=at, on_close=close_refusal)))
    if draft.problem is not None:
        problem = app.say(draft.problem)

        def close_problem(_: Any) -> None:
            draft.problem = None
            app.render()
        parts.append(memo.keep("frame-problem", (problem, id(draft)),
                               lambda: ui.banner(problem, ident="problem", on_close=close_problem,
                                                 close_tooltip=app.t("app.common.close"))))

    # -- the game's own screen (or the correction editor) ----------------------------------------
    has_side = game_screen.side  # the game's hooks: companion.app.games.GameScreen
    share = landscape_share(game_screen)
    now = state_from_session(session)  # the table as it stands: built once per render
    if draft.correcting is not None:
        game_part, state, ctx = _correction(app, session, now, draft, draft.correcting, game_screen, has_side)
    else:
        state = now
        ctx = TableContext(lang=app.lang, submit=submit, refresh=rerender, draft=draft.draft, memo=app.memo,
                           side_panel=has_side, dismiss=lambda: setattr(draft, "refusal", None),
                           compact=app.narrow, width=game_width(app, share))
        game_part = (_finished(app, session) if session.outcome is not None
                     else paused(app, game_screen.build(state, ctx)))
    if prompt_at is not None:
        # what the engine expects, unless the game's screen says more precisely what its draft is
        # waiting for (its ``prompt(state, ctx)``: Boursicocotte's challenge being chosen)
        sentence = (game_screen.prompt(state, ctx) if session.outcome is None else None) \
            or app.say(session.expected.prompt)
        parts.insert(prompt_at, memo.keep("frame-prompt", (sentence, app.narrow),
                                          lambda: _prompt(app, sentence, "prompt")))
    own_side = game_screen.build_side(state, ctx) if has_side else None
    top = paused(app, own_side) if own_side is not None else None

    side = _side(app, session, draft, undo, redo, top, partial(game_screen.table_log, now), share)
    if app.wide:
        layout: ft.Control = ft.ResponsiveRow([
            ft.Container(ui.tid("game-panel", game_part), col={"xs": 12, "lg": 8, "xl": share}),
            ft.Container(side, col={"xs": 12, "lg": 4, "xl": 12 - share}),
        ], spacing=ui.GAP, run_spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.START)
    else:
        layout = ft.Column([ui.tid("game-panel", game_part), side], spacing=ui.GAP)
    parts.append(layout)
    return heading, ft.Column(parts, spacing=ui.GAP)


def paused(app: App, control: ft.Control) -> ft.Control:
    """The game's own controls, disabled while the club's server does not answer (buttons, cards
    to tap, fields: see ui.disable). The game stays on screen as last acknowledged; no tap reaches
    a refusal, and the render that follows the server's return (the shell's watch) enables them."""
    return ui.disable(control) if app.offline else control


def _session(app: App, session_id: int) -> SessionState:
    """The game as the server has it; while the server does not answer, as it was last read (the
    last acknowledged state: the screen keeps showing it, and every entry is refused as offline).
    Offline with no game kept in this process: the frame says so instead of the table."""
    from companion.service import Offline

    if app.offline:  # no wait for a server known not to answer: the watch says when it is back
        return app.service.last_known(session_id)
    try:
        return app.read(session_id)  # read once for this render (the shell's look-up of the game read it)
    except Offline as err:
        app.failed(err)
        return app.service.last_known(session_id)


def landscape_share(game_screen: GameScreen) -> int:
    """Twelfths of a wide landscape screen (1200 and more) the game's part takes beside the side
    column: 8, or what the game's screen asks for (``LANDSCAPE_SHARE``: a row of fifteen cards)."""
    share = game_screen.LANDSCAPE_SHARE
    return share if 6 <= share <= 10 else 8


def game_width(app: App, share: int = 8) -> float | None:
    """The width the game's part gets in the layout below: the page less the frame's padding, and in
    landscape the share of the ResponsiveRow beside the side column (9/12 from 1200 wide, 8/12 from
    992, else the whole row)."""
    width = getattr(app.page, "width", None) if app.page is not None else None
    if not width:
        return None
    inner = float(width) - (16 if app.narrow else 32)
    if app.wide and width >= 1200:   # the ResponsiveRow's breakpoints follow the window's width
        return inner * share / 12 - ui.GAP
    if app.wide and width >= 992:
        return inner * 8 / 12 - ui.GAP
    return inner


def _prompt(app: App, sentence: str, ident: str) -> ft.Control:
    narrow = app.narrow
    return ui.tid(ident, ft.Container(
        ft.Row([ft.Icon(ft.Icons.CAMPAIGN, size=28 if narrow else 38, color=ft.Colors.ON_PRIMARY_CONTAINER),
                ft.Text(sentence, size=ui.FONT_BODY if narrow else ui.FONT_PROMPT - 4, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ON_PRIMARY_CONTAINER, expand=True)],
               spacing=10 if narrow else ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=12, vertical=8) if narrow
        else ft.Padding.symmetric(horizontal=18, vertical=10),
        border_radius=ui.RADIUS + 4))


def _finished(app: App, session: SessionState) -> ft.Control:
    return ui.panel(ft.Column([
        ui.title(app.t("app.table.game_over")),
        ui.button(app.t("app.table.see_results"), lambda _: app.replace("results", session_id=session.session_id),
                  ident="see-results", icon=ft.Icons.EMOJI_EVENTS, kind="primary"),
    ], spacing=ui.GAP))


# The least width a log entry's sentence gets beside its number and its buttons; narrower, French
# words break in the middle (« Man/che », « rej/oint »), so the sentence goes below them instead.
ENTRY_TEXT_MIN = 200


def side_width(app: App, share: int = 8) -> float | None:
    """The width of the side column in the layout of :func:`_build` (as :func:`game_width` for the
    game's part): beside the game in landscape, the whole row otherwise."""
    width = getattr(app.page, "width", None) if app.page is not None else None
    if not width:
        return None
    inner = float(width) - (16 if app.narrow else 32)
    if app.wide and width >= 1200:
        return inner * (12 - share) / 12
    if app.wide and width >= 992:
        return inner * 4 / 12
    return inner


def entry_text_room(width: float | None, buttons: int) -> float | None:
    """What a log line of a side column ``width`` wide leaves its sentence beside its number and
    ``buttons`` icon buttons (the panel's and the line's padding, the number, the gaps)."""
    if width is None:
        return None
    return width - 2 * 19 - 2 * 10 - 40 - buttons * (ui.TOUCH + 10) - 10


def _side(app: App, session: SessionState, draft: TableDraft, undo: Any, redo: Any, top: ft.Control | None,
          table_log: Callable[[Sequence[Any]], Sequence[tuple[Msg, ...]]] | None = None,
          share: int = 8) -> ft.Control:
    """``table_log``: the game screen's on the table as it stands, saying the entries shown as the
    shared screen may show them (None: the engine's sentences as they are). Only the entries shown are read (the latest
    ``LOG_SHORT`` unless the whole log is asked for), so a render's cost does not grow with the
    game's length. The tools, the count and each log line are kept between renders while what they
    show is the same (companion.app.memo)."""
    memo = app.memo
    log = session.log
    shown = list(log) if draft.full_log else list(log[-LOG_SHORT:])
    if table_log is not None:
        shown = [replace(entry, events=tuple(events)) for entry, events in zip(shown, table_log(shown))]
    locked = draft.correcting is not None or app.offline

    def start_correction(index: int) -> ui.Handler:
        def handler(_: Any) -> None:
            draft.correcting = index
            draft.fix_draft = {}
            draft.fix_seeded = None
            draft.preview = None
            draft.conflict = None
            draft.refusal = None
            draft.problem = None
            app.render()
        return handler

    def why(index: int, sentences: tuple[str, ...], rules: tuple[str, ...]) -> ui.Handler:
        def handler(_: Any) -> None:
            why_dialog(app, app.t("app.table.why_entry", n=index + 1), list(sentences), rules)
        return handler

    def line(index: int, sentences: tuple[str, ...], said: str, rules: tuple[str, ...], stacked: bool) -> ft.Control:
        buttons = [ui.icon_button(ft.Icons.HELP_OUTLINE, why(index, sentences, rules), ident=f"why-entry-{index}",
                                  tooltip=app.t("app.results.why"))] if rules else []
        buttons.append(ui.icon_button(ft.Icons.EDIT, start_correction(index), ident=f"correct-{index}",
                                      tooltip=app.t("app.table.correct"), disabled=locked))
        number = ui.text(app.t("app.table.entry_number", n=index + 1), ui.FONT_BODY,
                         weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY, expand=True if stacked else None)
        sentence = ui.text(said, ui.FONT_BODY, expand=None if stacked else True, ident=f"entry-{index}-text")
        body: ft.Control = (
            ft.Column([ft.Row([number, *buttons], spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                       sentence], spacing=0)
            if stacked else
            ft.Row([number, sentence, *buttons], spacing=10, vertical_alignment=ft.CrossAxisAlignment.START))
        return ui.tid(f"entry-{index}", ft.Container(
            body, padding=ft.Padding.symmetric(horizontal=10, vertical=6), border_radius=ui.RADIUS,
            bgcolor=ft.Colors.TERTIARY_CONTAINER if draft.correcting == index else None))

    # the sentence below the number and the buttons where beside them it would break its words
    lines = [(entry, tuple(app.say(m) for m in entry.events), rules_of(entry.events)) for entry in shown]
    most = max((2 if rules else 1 for _, _, rules in lines), default=1)
    room = entry_text_room(side_width(app, share), most)
    stacked = room is not None and room < ENTRY_TEXT_MIN
    rows: list[ft.Control] = []
    for entry, sentences, rules in reversed(lines):
        index = entry.index
        said = " ".join(sentences) if sentences else describe_entry(app, entry)
        inputs = (sentences, said, rules, stacked, locked, draft.correcting == index, id(draft))
        rows.append(memo.keep(f"frame-entry-{index}", inputs, partial(line, index, sentences, said, rules, stacked)))
    if not rows:
        rows.append(memo.keep("frame-log-empty", (), lambda: ui.muted(app.t("app.table.log_empty"))))

    controls: list[ft.Control] = [top] if top is not None else []

    def tools_part() -> ft.Control:
        tools = [ui.button(app.t("app.table.undo"), undo, ident="undo", icon=ft.Icons.UNDO,
                           disabled=not log or locked, size=ui.FONT_BODY)]
        if draft.undone and draft.correcting is None:
            tools.append(ui.button(app.t("app.table.redo"), redo, ident="redo", icon=ft.Icons.REDO,
                                   size=ui.FONT_BODY, disabled=app.offline))
        tools.append(ui.button(app.t("app.table.rules"), lambda _: app.go("rules", game=session.game),
                               ident="table-rules", icon=ft.Icons.MENU_BOOK, kind="outlined", size=ui.FONT_BODY))
        return ui.wrap(tools, spacing=10)

    # undo and redo act on the game this render shows: kept while it is the same version
    count = app.t("app.table.log", count=len(log))
    controls += [
        memo.keep("frame-tools", (session.version, len(log), locked, app.offline, len(draft.undone),
                                  draft.correcting, id(draft)), tools_part),
        memo.keep("frame-log-count", (count,), lambda: ui.subtitle(count, ident="log-count")),
        ft.Column(rows, spacing=4),
    ]
    if len(log) > LOG_SHORT:
        def toggle(_: Any) -> None:
            draft.full_log = not draft.full_log
            app.render()
        controls.append(memo.keep("frame-log-toggle", (draft.full_log, id(draft)), lambda: ui.button(
            app.t("app.table.log_less" if draft.full_log else "app.table.log_all"),
            toggle, ident="log-toggle", kind="text", size=ui.FONT_BODY)))
    return ui.panel(ft.Column(controls, spacing=12), ident="table-side")


def _correction(app: App, session: SessionState, now: TableState, draft: TableDraft, index: int,
                game_screen: GameScreen, has_side: bool) -> tuple[ft.Control, TableState, TableContext]:
    """Re-enter entry ``index`` (``draft.correcting``) with the game's own screen, as the table was
    then (``now``: the table as it stands)."""
    from companion.service import (
        CorrectionConflict,
        GameChanged,
        Malformed,
        Refused,
        ServiceError,
    )

    sid = session.session_id
    original = session.log[index]

    def cancel(_: Any) -> None:
        draft.correcting = None
        draft.preview = None
        draft.conflict = None
        draft.refusal = None
        draft.problem = None
        app.render()

    def leave_changed(err: GameChanged) -> None:
        """Another device changed the game: the correction was prepared on a state that is gone."""
        draft.correcting = None
        draft.preview = None
        draft.conflict = None
        draft.refusal = None
        draft.fix_draft = {}
        draft.problem = err.msg

    def preview(action: dict[str, Any]) -> None:
        draft.refusal = None
        draft.problem = None
        draft.conflict = None
        draft.preview = None
        try:
            result = app.service.preview_correction(sid, index, action, seen=session.version)
        except GameChanged as err:
            leave_changed(err)
        except CorrectionConflict as err:
            draft.conflict = err
        except Refused as err:
            draft.refusal = (err.rule, err.msg, err.index)
        except (Malformed, ServiceError) as err:
            app.failed(err)
            draft.problem = err.msg
        except Exception:
            log.exception("previewing a correction of entry %s", index)
            draft.problem = Msg("app.error.unexpected")
        else:
            draft.preview = (action, result)
        app.render()

    def save(_: Any) -> None:
        if draft.preview is None:
            return
        action, previewed = draft.preview
        try:  # saved only on the game the preview was made on
            new_state = app.service.correct(sid, index, action, seen=previewed.version)
        except GameChanged as err:
            leave_changed(err)
            app.render()
            return
        except CorrectionConflict as err:
            draft.conflict = err
            draft.preview = None
            app.render()
            return
        except Refused as err:
            draft.refusal = (err.rule, err.msg, err.index)
            draft.preview = None
            app.render()
            return
        except ServiceError as err:
            app.failed(err)
            draft.problem = err.msg
            draft.preview = None
            app.render()
            return
        except Exception:
            log.exception("saving a correction of entry %s", index)
            draft.problem = Msg("app.error.unexpected")
            draft.preview = None
            app.render()
            return
        app.announce(sid)
        draft.correcting = None
        draft.preview = None
        draft.fix_draft = {}
        app.tell(app.t("app.table.corrected", n=index + 1), "ok")
        if new_state.outcome is not None:
            app.drafts.pop(f"table:{sid}", None)
            app.replace("results", known=new_state, session_id=sid)
            return
        app.render(new_state)

    # the entry as the shared log says it (table-fair: a game's table_log may keep a past entry's values hidden)
    was = replace(original, events=tuple(game_screen.table_log(now, session.log[index:])[0]))
    parts: list[ft.Control] = [
        ui.banner(app.t("app.table.correcting", n=index + 1), ident="correcting", kind="info",
                  details=[app.t("app.table.was", what=describe_entry(app, was)),
                           app.t("app.table.correcting_help")],
                  actions=[ui.button(app.t("app.table.cancel_correction"), cancel, ident="correction-cancel",
                                     icon=ft.Icons.CLOSE, kind="outlined")]),
    ]
    if draft.conflict is not None:
        err = draft.conflict
        later = session.log[err.index] if 0 <= err.index < len(session.log) else None
        details = []
        if later is not None:
            public = game_screen.table_log(now, session.log)  # the later entry as the log says it
            later = replace(later, events=tuple(public[err.index]))
            details.append(app.t("app.table.conflict_entry", n=err.index + 1, what=describe_entry(app, later)))
        details.append(app.t("app.table.rule_line", rule=err.rule, title=app.t(f"rule.{err.rule}.title")))
        details.extend(rule_paragraphs(app, err.rule))
        details.append(app.t("app.table.nothing_saved"))
        heading = app.say(err.msg)
        if later is not None and later.action.get("type") in game_screen.PRIVATE_ENTRIES:
            # the refusal of a later private entry may quote what it held (a face-down offer's cards)
            heading = app.t("app.table.conflict_private", entry=err.index + 1, player=later.action.get("player", "?"))
        parts.append(ui.banner(heading, ident="conflict", details=details))
    if draft.preview is not None:
        action, result = draft.preview
        details = _preview_lines(app, result, index, game_screen)
        parts.append(ui.banner(app.t("app.table.preview_ok", n=index + 1), ident="preview", kind="ok",
                               details=details,
                               actions=[ui.button(app.t("app.table.save_correction"), save, ident="correction-save",
                                                  icon=ft.Icons.SAVE, kind="primary", disabled=app.offline)]))
    state = state_at(session, index)
    if draft.fix_seeded != index:  # opened with the entry as it was: the table changes what was wrong
        draft.fix_draft.update(game_screen.correction_draft(state, original.action))
        draft.fix_seeded = index
    ctx = TableContext(lang=app.lang, submit=preview, refresh=lambda: app.render(), draft=draft.fix_draft,
                       id_prefix="fix-", side_panel=has_side, dismiss=lambda: setattr(draft, "refusal", None),
                       compact=app.narrow, correcting=True,
                       width=game_width(app, landscape_share(game_screen)))
    parts.append(paused(app, game_screen.build(state, ctx)))
    return ft.Column(parts, spacing=ui.GAP), state, ctx


def _preview_lines(app: App, result: SessionState, index: int, game_screen: GameScreen) -> list[str]:
    """What the corrected entry does, as the shared log would say it (table-fair), and what the
    table expects afterwards."""
    lines: list[str] = []
    log = getattr(result, "log", None)
    if log is not None and index < len(log):
        said = game_screen.table_log(state_from_session(result), log[index:])[0]  # a tail, as the side log
        lines.append(app.t("app.table.becomes", what=describe_entry(app, replace(log[index], events=tuple(said)))))
    expected = getattr(result, "expected", None)
    if getattr(result, "outcome", None) is not None:
        lines.append(app.t("app.table.game_over"))
    elif expected is not None:
        lines.append(app.t("app.table.then", prompt=app.say(expected.prompt)))
    return lines
