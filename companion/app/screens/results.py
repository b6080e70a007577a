"""Results: scores, ranking with equal places, who is out and why, the winners (or the replay the
rules call for), every explanation sentence, and a "why?" on each player's score; "Send to BG
Stats": the game's push-a-play link as a QR code for the phone that has BG Stats, and a button that
opens the link on this device."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import flet as ft

from companion.app import ui
from companion.app.format import names, number
from models.i18n import Msg

if TYPE_CHECKING:
    from companion.app.shell import App
    from scoring.base import Outcome


def mentions(message: Msg, player: str) -> bool:
    """Does a sentence name ``player`` (as a parameter, in a list, or in a nested sentence)?"""
    def found(value: Any) -> bool:
        if isinstance(value, str):
            return value == player
        if isinstance(value, Msg):
            return mentions(value, player)
        if isinstance(value, (list, tuple)):
            return any(found(v) for v in value)
        return False
    return any(found(v) for v in message.params.values())


def headline(app: App, outcome: Outcome) -> str:
    if outcome.replay_required:
        return app.t("app.results.replay", players=names(app, _tied_best(outcome)))
    if not outcome.winners:
        return app.t("app.results.nobody")
    if len(outcome.winners) == 1:
        return app.t("app.results.winner", player=outcome.winners[0])
    return app.t("app.results.winners", players=names(app, outcome.winners))


def _tied_best(outcome: Outcome) -> list[str]:
    ranks = dict(outcome.ranking)
    best = min(ranks.values()) if ranks else 1
    return [p for p, r in outcome.ranking if r == best and p not in outcome.eliminated]


def outcome_view(app: App, outcome: Outcome, players: Iterable[str], *, prefix: str = "", game: str | None = None) -> ft.Control:
    """The result block, shared by the results screen and the history."""
    from companion.app.screens.table import why_dialog
    from scoring.base import rules_of
    parts: list[ft.Control] = []
    kind_icon = ft.Icons.REPLAY if outcome.replay_required else ft.Icons.EMOJI_EVENTS
    parts.append(ui.tid(f"{prefix}result-headline", ft.Container(
        ft.Row([ft.Icon(kind_icon, size=52, color=ft.Colors.ON_TERTIARY_CONTAINER),
                ft.Text(headline(app, outcome), size=ui.FONT_HUGE - 6, weight=ft.FontWeight.BOLD,
                        color=ft.Colors.ON_TERTIARY_CONTAINER, expand=True)],
               spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        bgcolor=ft.Colors.TERTIARY_CONTAINER, padding=22, border_radius=ui.RADIUS + 4)))

    def why(player: str) -> ui.Handler:
        def handler(_: Any) -> None:
            messages = [m for m in outcome.explanation if mentions(m, player)] or list(outcome.explanation)
            rules = rules_of(messages)  # the rules each explanation line names, for every game
            why_dialog(app, app.t("app.results.why_title", player=player), [app.say(m) for m in messages], rules)
        return handler

    rows: list[ft.Control] = []
    for player, rank in outcome.ranking:
        is_winner = player in outcome.winners
        is_out = player in outcome.eliminated
        status: list[ft.Control] = []
        if is_winner:
            status.append(ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.AMBER_700, size=32))
        if is_out:
            status.append(ui.text(app.t("app.results.out"), ui.FONT_BODY, color=ft.Colors.ERROR,
                                  weight=ft.FontWeight.BOLD))
        score = outcome.scores.get(player)
        name: ft.Control = ft.Text(player, size=ui.FONT_TITLE - 4, weight=ft.FontWeight.W_600)
        # who is out, and why, without a tap: beside the name, or under the whole row on a phone
        reasons = ([ft.Text(app.say(m), size=ui.FONT_SMALL, color=ft.Colors.ERROR)
                    for m in outcome.explanation if mentions(m, player)][:1] if is_out else [])
        note = outcome.notes.get(player)  # what parted equal scores (High Society's money left)
        if note is not None:
            reasons.append(ft.Text(app.say(note), size=ui.FONT_SMALL, color=ft.Colors.ON_SURFACE_VARIANT))
        if reasons and not app.narrow:
            name = ft.Column([name, *reasons], spacing=2, tight=True)
        why_button = (ui.icon_button(ft.Icons.HELP_OUTLINE, why(player), ident=f"{prefix}why-{player}",
                                     tooltip=app.t("app.results.why"), size=ui.TOUCH_MIN) if app.narrow
                      else ui.button(app.t("app.results.why"), why(player), ident=f"{prefix}why-{player}",
                                     kind="outlined", icon=ft.Icons.HELP_OUTLINE, size=ui.FONT_BODY))
        line: ft.Control = ft.Row([
            ft.Text(app.t("app.results.place", rank=rank), size=ui.FONT_TITLE, weight=ft.FontWeight.BOLD,
                    width=44 if app.narrow else 90, color=ft.Colors.PRIMARY),
            ft.Container(name, expand=True),
            *status,
            *([ft.Text(app.t("app.results.points", score=number(app, score)), size=ui.FONT_TITLE - 4,
                       weight=ft.FontWeight.BOLD)] if score is not None else []),
            why_button,
        ], spacing=8 if app.narrow else ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        if reasons and app.narrow:
            line = ft.Column([line, *reasons], spacing=2, tight=True)
        rows.append(ui.tid(f"{prefix}rank-{player}", ft.Container(line,
            padding=ft.Padding.symmetric(horizontal=16, vertical=10), border_radius=ui.RADIUS,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH if not is_out else ft.Colors.SURFACE_CONTAINER_LOW,
            opacity=0.75 if is_out else 1.0)))
    parts.append(ft.Column(rows, spacing=8))

    if outcome.explanation:
        parts.append(ui.panel(ft.Column([
            ui.subtitle(app.t("app.results.explanation")),
            *[ui.text(app.say(m), ui.FONT_BODY, ident=f"{prefix}explain-{i}")
              for i, m in enumerate(outcome.explanation)],
        ], spacing=8), ident=f"{prefix}explanation"))
    return ft.Column(parts, spacing=ui.GAP)


def build(app: App, session_id: int, **_: Any) -> tuple[str, ft.Control]:
    session = app.read(session_id)  # read once for this render (or what the entry that ended the game returned)
    heading = app.t("app.results.title", game=app.t(f"game.{session.game}.name"))
    if session.outcome is None:
        return heading, ft.Column([
            ui.banner(app.t("app.results.not_finished"), ident="not-finished", kind="info"),
            ui.button(app.t("app.results.back_to_table"), lambda _: app.replace("table", session_id=session_id),
                      ident="back-to-table", icon=ft.Icons.TABLE_RESTAURANT, kind="primary"),
        ], spacing=ui.GAP)

    def do_undo() -> None:
        from companion.app.screens.table import TableDraft, describe_entry

        last = session.log[-1] if session.log else None
        reopened = app.guard(lambda: app.service.undo(session_id, seen=session.version))
        if reopened is not None:
            app.announce(session_id)
            if last is not None:  # the table then offers to enter it again (redo)
                app.drafts[f"table:{session_id}"] = TableDraft(undone=[dict(last.action)],
                                                               undone_at=len(reopened.log))
            app.replace("table", known=reopened, session_id=session_id)
            if last is not None:
                app.tell(app.t("app.table.undone", n=last.index + 1, what=describe_entry(app, last)), "info")
                app.render(reopened)
        else:
            app.render()

    def undo(_: Any) -> None:
        """Ask first, as at the table."""
        from companion.app.screens.table import ask_undo

        ask_undo(app, session, do_undo)

    def rematch(_: Any) -> None:
        from companion.app.screens.setup import Draft

        app.drafts["setup"] = Draft(game=session.game, seats=list(session.players),
                                    variant=dict(_variant(session.variant)), assist=bool(session.assist))
        app.go("setup")

    draft = app.drafts.setdefault(f"results-{session_id}", {"bgstats": False})

    def send(_: Any) -> None:
        draft["bgstats"] = not draft["bgstats"]
        app.render()

    story = [ui.text(" ".join(app.say(m) for m in entry.events), ui.FONT_SMALL)
             for entry in session.log if entry.events]
    body = ft.Column([
        outcome_view(app, session.outcome, session.players, game=session.game),
        ft.Row([
            ui.button(app.t("app.results.rematch"), rematch, ident="rematch", icon=ft.Icons.REPLAY, kind="primary"),
            ui.button(app.t("app.results.undo"), undo, ident="results-undo", icon=ft.Icons.UNDO, kind="outlined"),
            ui.button(app.t("app.home.history"), lambda _: app.go("history"), ident="results-history",
                      icon=ft.Icons.HISTORY),
            ui.button(app.t("app.nav.home"), lambda _: app.home(), ident="results-home", icon=ft.Icons.HOME),
            ui.button(app.t("app.results.bgstats"), send, ident="bgstats-send", icon=ft.Icons.QR_CODE_2,
                      kind="outlined"),
        ], wrap=True, spacing=ui.GAP, run_spacing=ui.GAP),
        *([bgstats_panel(app, session_id)] if draft["bgstats"] else []),
        ft.ExpansionTile(title=ft.Text(app.t("app.results.story", count=len(story)), size=ui.FONT_LABEL),
                         controls=[ft.Column(story, spacing=4)]),
    ], spacing=ui.GAP)
    return heading, body


def bgstats_link(app: App, session_id: int) -> str | None:
    """The push-a-play link of a finished game, its names in the table's language."""
    from companion.service import bgstats

    plays = app.guard(lambda: app.service.exports.bgstats_plays(session_id, lang=app.lang))
    return bgstats.link(plays[0]) if plays else None


def qr_image(link: str, ident: str, size: int) -> ft.Control:
    """A link as a QR code (segno, companion.qr), black on white whatever the theme."""
    from companion.qr import qr_png

    return ui.tid(ident, ft.Container(ft.Image(src=qr_png(link, scale=6), width=size, height=size,
                                               fit=ft.BoxFit.CONTAIN, filter_quality=ft.FilterQuality.NONE),
                                      bgcolor=ft.Colors.WHITE, padding=8, border_radius=8))


def bgstats_panel(app: App, session_id: int) -> ft.Control:
    """The QR code to scan with the phone that has BG Stats, and a button that opens the link."""
    link = bgstats_link(app, session_id)
    if link is None:
        return ui.muted(app.t("app.results.bgstats_none"), ident="bgstats-panel")

    def build() -> ft.Control:
        size = 260 if app.narrow else 320
        return ui.panel(ft.Column([
            ui.subtitle(app.t("app.results.bgstats_title")),
            ui.text(app.t("app.results.bgstats_scan"), ui.FONT_BODY),
            qr_image(link, "bgstats-qr", size),
            ui.tid("bgstats-open", ft.OutlinedButton(
                content=ft.Text(app.t("app.results.bgstats_open"), size=ui.FONT_LABEL), icon=ft.Icons.OPEN_IN_NEW,
                url=link, height=ui.TOUCH)),
            ui.muted(app.t("app.results.bgstats_again")),
        ], spacing=10), ident="bgstats-panel")

    return app.memo.keep("bgstats-panel", (session_id, link), build)


def _variant(variant: Any) -> dict[str, Any]:
    from companion.app.games import variant_dict

    return variant_dict(variant)
