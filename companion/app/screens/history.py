"""History: every game, filtered by game, player and date; export (one or all) and import."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.format import names, when

if TYPE_CHECKING:
    from companion.app.shell import App
    from companion.service import SessionSummary


PERIODS = ("all", "week", "month", "year")


@dataclass
class Filters:
    game: str | None = None
    player: str | None = None
    period: str = "all"
    since_text: str = ""
    until_text: str = ""
    import_path: str = ""


def _filters(app: App) -> Filters:
    return app.drafts.setdefault("history", Filters())


def parse_day(text: str) -> date | None:
    """A day typed as YYYY-MM-DD (or DD/MM/YYYY); None if it is not a real date."""
    text = text.strip()
    for pattern in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def _local_midnight(d: date) -> datetime:
    return datetime.combine(d, time()).astimezone()  # local midnight, as an aware time


def bounds(filters: Filters, today: date) -> tuple[datetime | None, datetime | None, str | None]:
    """(since, until, problem): the start-time bounds the filters ask for. ``until`` excludes."""
    since = until = None
    if filters.period == "week":
        since = _local_midnight(today - timedelta(days=6))
    elif filters.period == "month":
        since = _local_midnight(today - timedelta(days=29))
    elif filters.period == "year":
        since = _local_midnight(date(today.year, 1, 1))
    problem = None
    if filters.since_text.strip():
        d = parse_day(filters.since_text)
        if d is None:
            problem = "since"
        else:
            since = _local_midnight(d)
    if filters.until_text.strip():
        d = parse_day(filters.until_text)
        if d is None:
            problem = problem or "until"
        else:
            until = _local_midnight(d + timedelta(days=1))
    return since, until, problem


def write_export(app: App, records: list[dict[str, Any]], stem: str) -> Path:
    folder = Path(app.export_dir) if app.export_dir else Path.home()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stem}-{stamp}.json"
    path.write_text(json.dumps(records, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    from scoring.registry import refereed_games

    f = _filters(app)
    since, until, problem = bounds(f, date.today())
    parts: list[ft.Control] = []

    def set_game(game: str | None):
        def handler(_: Any) -> None:
            f.game = game
            app.render()
        return handler

    def set_player(player: str | None):
        def handler(_: Any) -> None:
            f.player = player
            app.render()
        return handler

    def set_period(period: str):
        def handler(_: Any) -> None:
            f.period = period
            f.since_text = f.until_text = ""
            app.render()
        return handler

    games = list(refereed_games())
    game_chips = [ui.chip(app.t("app.history.all_games"), set_game(None), ident="filter-game-all",
                          selected=f.game is None)]
    game_chips += [ui.chip(app.t(f"game.{g}.name"), set_game(g), ident=f"filter-game-{g}", selected=f.game == g)
                   for g in games]
    profiles = app.guard(app.service.players) or []
    player_chips = [ui.chip(app.t("app.history.all_players"), set_player(None), ident="filter-player-all",
                            selected=f.player is None)]
    player_chips += [ui.chip(p.name, set_player(p.name), ident=f"filter-player-{p.name}",
                             selected=f.player == p.name) for p in profiles]
    period_chips = [ui.chip(app.t(f"app.history.period.{p}"), set_period(p), ident=f"filter-period-{p}",
                            selected=f.period == p and not (f.since_text or f.until_text)) for p in PERIODS]

    def typed(attr: str):
        def handler(e: Any) -> None:
            setattr(f, attr, e.control.value or "")
        return handler

    def apply(_: Any) -> None:
        app.render()

    dates = ft.Row([
        ui.tid("filter-since", ft.TextField(label=app.t("app.history.since"), value=f.since_text, width=220,
                                            hint_text=app.t("app.history.date_hint"), on_change=typed("since_text"),
                                            on_submit=apply, text_size=ui.FONT_BODY)),
        ui.tid("filter-until", ft.TextField(label=app.t("app.history.until"), value=f.until_text, width=220,
                                            hint_text=app.t("app.history.date_hint"), on_change=typed("until_text"),
                                            on_submit=apply, text_size=ui.FONT_BODY)),
        ui.button(app.t("app.history.apply"), apply, ident="filter-apply", icon=ft.Icons.FILTER_ALT),
    ], wrap=True, spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    parts.append(ui.panel(ft.Column([
        ui.wrap(game_chips), ui.wrap(player_chips), ui.wrap(period_chips), dates,
    ], spacing=12), ident="history-filters"))
    if problem is not None:
        parts.append(ui.banner(app.t("app.history.bad_date", which=app.t(f"app.history.{problem}")),
                               ident="bad-date"))

    sessions = [] if problem else (app.guard(lambda: app.service.history(
        game=f.game, player=f.player, since=since, until=until)) or [])

    def export_all(_: Any) -> None:
        records = app.guard(lambda: app.service.export())
        if records is not None:
            try:
                path = write_export(app, records, "table-companion-all")
            except OSError as err:
                app.tell(app.t("app.history.export_failed", detail=err.strerror or str(err)), "error")
            else:
                app.tell(app.t("app.history.exported", count=len(records), path=str(path)), "ok")
        app.render()

    def set_import_path(e: Any) -> None:
        f.import_path = e.control.value or ""

    def do_import(_: Any) -> None:
        raw = f.import_path.strip()
        if not raw:
            app.tell(app.t("app.history.import_no_path"), "error")
            app.render()
            return
        path = Path(raw).expanduser()
        try:
            content = path.read_bytes()
        except OSError as err:
            app.tell(app.t("app.history.import_unreadable", path=str(path), detail=err.strerror or str(err)),
                     "error")
            app.render()
            return
        ids = app.guard(lambda: app.service.import_records(content))
        if ids is not None:
            app.announce()
            f.import_path = ""
            app.tell(app.t("app.history.imported", count=len(ids)), "ok")
        app.render()

    tools = ft.Row([
        ui.button(app.t("app.history.export_all"), export_all, ident="export-all", icon=ft.Icons.DOWNLOAD),
        ui.tid("import-path", ft.TextField(label=app.t("app.history.import_path"), value=f.import_path,
                                           on_change=set_import_path, on_submit=do_import, width=420,
                                           text_size=ui.FONT_BODY)),
        ui.button(app.t("app.history.import"), do_import, ident="import-run", icon=ft.Icons.UPLOAD),
    ], wrap=True, spacing=ui.GAP, run_spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    parts.append(ui.panel(ft.Column([ui.muted(app.t("app.history.export_where",
                                                    path=str(app.export_dir or Path.home()))), tools],
                                    spacing=10), ident="history-tools"))

    parts.append(ui.subtitle(app.t("app.history.count", count=len(sessions)), ident="history-count"))
    rows = [_row(app, s) for s in sessions]
    if not rows and not problem:
        rows.append(ui.muted(app.t("app.history.empty"), ident="history-empty"))
    parts.append(ft.Column(rows, spacing=10))
    return app.t("app.history.title"), ft.Column(parts, spacing=ui.GAP)


def _row(app: App, summary: SessionSummary) -> ft.Control:
    finished = summary.status == "finished"
    if finished:
        if summary.winners:
            result = app.t("app.history.won_by", players=names(app, summary.winners))
        else:
            result = app.t("app.history.no_winner")
    else:
        result = app.t("app.history.in_progress")
    body = ft.Row([
        ft.Icon(ft.Icons.EMOJI_EVENTS if finished else ft.Icons.HOURGLASS_TOP, size=34,
                color=ft.Colors.AMBER_700 if finished else ft.Colors.PRIMARY),
        ft.Column([
            ft.Row([ui.text(app.t(f"game.{summary.game}.name"), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
                    ui.muted(when(app, summary.started_at))], spacing=12, wrap=True),
            ui.text(names(app, summary.players), ui.FONT_BODY),
            ui.text(result, ui.FONT_BODY, weight=ft.FontWeight.W_600),
        ], spacing=2, expand=True),
        ui.muted(app.t("app.history.entries", count=summary.entries)),
    ], spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ui.tile(body, lambda _: app.go("past", session_id=summary.session_id),
                   ident=f"history-{summary.session_id}", padding=14)
