"""History: every game, newest first, a page at a time (the first page at once, "more" adds the
next), filtered by game, status, player, a search on player names and a date range; export
(one or all: a file in the exports folder, and a download in the browser) and import of table
records through the file picker (in the browser, an upload). A club's shared database: every
tablet's games, a filter by table, and each game says the table it was played at."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app import ui
from companion.app.club import chip_row, table_chips
from companion.app.format import names, number, when
from models.i18n import has_text

if TYPE_CHECKING:
    from companion.app.shell import App
    from companion.service import HistoryPage, SessionSummary


PERIODS = ("all", "week", "month", "year", "last_year")
STATUSES = ("all", "finished", "in_progress", "abandoned")
PAGE = 25
# the list scrolls itself, built lazily: only the rows in view are laid out (``scrolls`` in the registry)
PICKER = "file-picker"  # app.drafts key of the tab's FilePicker
SHARE = "share-sheet"  # app.drafts key of the tab's Share service (the packaged app on a phone or tablet)
log = logging.getLogger(__name__)


@dataclass
class Filters:
    game: str | None = None
    player: str | None = None
    status: str = "all"
    search: str = ""
    period: str = "all"
    since_text: str = ""
    until_text: str = ""
    shown: int = PAGE  # how many games the list shows (grows by a page with "more")
    table: str | None = None  # a club's table (companion.service.club.NO_TABLE: games of tablets with no name)
    evening: int | None = None  # the games of one club evening
    open: bool = False  # the filters unfolded (the list comes first; they fold under one button)
    # what "more" read for the render it asks for: (the query, the rows shown and the next page,
    # the total); any other render reads the list again
    appended: tuple[Any, ...] | None = None


def _filters(app: App) -> Filters:
    return app.drafts.setdefault("history", Filters())


def show_in_progress(app: App) -> None:
    """The history, filtered on the games in progress (home's « all the games in progress »)."""
    app.drafts["history"] = Filters(status="in_progress")
    app.go("history")


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
    elif filters.period == "last_year":
        since, until = _local_midnight(date(today.year - 1, 1, 1)), _local_midnight(date(today.year, 1, 1))
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


def records_bytes(records: Any) -> bytes:
    return (json.dumps(records, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def write_export(app: App, records: Any, stem: str) -> Path:
    folder = Path(app.export_dir) if app.export_dir else Path.home()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stem}-{stamp}.json"
    path.write_bytes(records_bytes(records))
    return path


def picker(app: App) -> ft.FilePicker:
    """The tab's file picker (one per tab, kept across rebuilds; in a page it registers itself
    as one of the page's services). Its result imports the picked files."""
    found = app.drafts.get(PICKER)
    if found is None:
        found = ft.FilePicker(on_result=lambda e: import_picked(app, e.files))
        app.drafts[PICKER] = found
    return found


def import_picked(app: App, files: list[Any]) -> None:
    """Import the files picked (or uploaded in the browser): each one's records, all checked
    before anything is written."""
    files = [f for f in (files or []) if f is not None]
    if not files:
        return
    total = 0
    for picked in files:
        content = getattr(picked, "bytes", None)
        if content is None and getattr(picked, "path", None):
            try:
                content = Path(picked.path).read_bytes()
            except OSError as err:
                app.tell(app.t("app.history.import_unreadable", path=picked.path, detail=err.strerror or str(err)),
                         "error")
                app.render()
                return
        if content is None:
            app.tell(app.t("app.history.import_unreadable", path=picked.name, detail=""), "error")
            app.render()
            return
        ids = app.guard(lambda: app.service.transfer.import_records(content))
        if ids is None:
            app.render()
            return
        total += len(ids)
    app.announce()
    app.tell(app.t("app.history.imported_n", count=total), "ok")
    app.render()


def export_route(page: Any) -> str:
    """Where an export goes: ``download`` in a browser (the device at the table gets the file; the
    machine serving the app keeps nothing), ``share`` in the packaged app on a phone or tablet (the
    platform's share sheet, beside the file in the app's exports folder), ``file`` on a desktop or
    without a page (the exports folder, and the save dialog where there is a page)."""
    if page is None:
        return "file"
    if getattr(page, "web", False):
        return "download"
    platform = getattr(page, "platform", None)
    is_mobile = getattr(platform, "is_mobile", None)
    return "share" if callable(is_mobile) and is_mobile() else "file"


def offer_download(app: App, data: bytes, file_name: str) -> None:
    """Hand the file to the device: a download in a browser, the save dialog on a desktop."""
    if app.page is None:
        return
    chooser = picker(app)

    async def save() -> None:
        try:
            await chooser.save_file(file_name=file_name, src_bytes=data)
        except Exception:  # no dialog on this platform: the file in the exports folder stays
            log.warning("cannot offer %s to the device", file_name, exc_info=True)

    app.page.run_task(save)


def offer_share(app: App, data: bytes, file_name: str) -> None:
    """The packaged app on a phone or tablet: the platform's share sheet with the file."""
    if app.page is None:
        return
    sheet = app.drafts.get(SHARE)
    if sheet is None:
        sheet = app.drafts[SHARE] = ft.Share()

    async def share() -> None:
        try:
            kind = "text/csv" if file_name.endswith(".csv") else "application/json"
            await sheet.share_files([ft.ShareFile.from_bytes(data, mime_type=kind, name=file_name)])
        except Exception:  # no share sheet: the file in the exports folder stays
            log.warning("cannot share %s", file_name, exc_info=True)

    app.page.run_task(share)


def export_to(app: App, session_id: int | None) -> None:
    """Export one game (or all): a download in a browser; elsewhere written to the exports folder,
    and offered to the platform's share sheet (phone, tablet) or save dialog (desktop)."""
    records = app.guard(lambda: app.service.transfer.export(session_id))
    if records is None:
        return
    payload = records[0] if session_id is not None and records else records
    stem = "table-companion-all" if session_id is None else f"table-companion-{session_id}"
    route = export_route(app.page)
    if route == "download":
        name = f"{stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json"
        offer_download(app, records_bytes(payload), name)
        app.tell(app.t("app.history.downloaded", count=len(records), file=name), "ok")
        return
    try:
        path = write_export(app, payload, stem)
    except OSError as err:
        app.tell(app.t("app.history.export_failed", detail=err.strerror or str(err)), "error")
        return
    app.tell(app.t("app.history.exported", count=len(records), path=str(path)), "ok")
    (offer_share if route == "share" else offer_download)(app, records_bytes(payload), path.name)


def csv_filters(app: App, f: Filters) -> dict[str, Any] | None:
    """The history's filters as ``companion export --format csv`` takes them; None when the list
    shows no finished game by its status filter."""
    if f.status not in ("all", "finished"):
        return None
    since, until, problem = bounds(f, date.today())
    if problem is not None:
        return None
    return {"game": f.game, "player": f.player, "since": since, "until": until, "table": f.table,
            "search": f.search.strip(), "evening": f.evening}


def export_csv(app: App) -> None:
    """The finished games the history lists, as CSV (one row per player per game, the same text as
    ``companion export --format csv`` with these filters): a download in a browser, else a file
    in the exports folder offered to the save dialog or the share sheet."""
    f = _filters(app)
    filters = csv_filters(app, f)
    text = "" if filters is None else app.guard(lambda: app.service.exports.csv_text(lang=app.lang, **filters))
    if text is None:
        return
    if filters is None:
        app.tell(app.t("app.history.csv_none"), "info")
        return
    data = text.encode("utf-8")
    rows = max(0, text.count("\n") - 1)
    name = f"table-companion-{datetime.now().strftime('%Y%m%d-%H%M%S')}.csv"
    route = export_route(app.page)
    if route == "download":
        offer_download(app, data, name)
        app.tell(app.t("app.history.csv_downloaded", count=rows, file=name), "ok")
        return
    folder = Path(app.export_dir) if app.export_dir else Path.home()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_bytes(data)
    except OSError as err:
        app.tell(app.t("app.history.export_failed", detail=err.strerror or str(err)), "error")
        return
    app.tell(app.t("app.history.csv_written", count=rows, path=str(path)), "ok")
    (offer_share if route == "share" else offer_download)(app, data, path.name)


def active_filters(f: Filters) -> int:
    """How many filters narrow the list (the folded filters' button says so)."""
    return sum((f.game is not None, f.player is not None, f.status != "all", bool(f.search.strip()),
                f.period != "all" or bool(f.since_text.strip() or f.until_text.strip()), f.table is not None,
                f.evening is not None))


def build(app: App, **_: Any) -> tuple[str, ft.Control]:
    f = _filters(app)
    since, until, problem = bounds(f, date.today())
    status = None if f.status == "all" else f.status
    asked = (f.game, f.player, f.search, since, until, status, f.table, f.evening)

    def read(offset: int, limit: int) -> HistoryPage | None:
        return app.guard(lambda: app.service.history.page(
            game=asked[0], player=asked[1], search=asked[2], since=since, until=until, status=status,
            table=asked[6], evening=asked[7], offset=offset, limit=limit))

    appended, f.appended = f.appended, None
    items: tuple[SessionSummary, ...] = ()
    total = 0
    listed = problem is None
    if appended is not None and appended[0] == asked:  # "more": the rows read so far and one more page
        _, items, total = appended
    elif listed:
        page = read(0, max(PAGE, f.shown))
        listed = page is not None
        if page is not None:
            items, total = page.items, page.total

    # The list first; the filters folded under one button (open while a date is wrong).
    def fold(_: Any) -> None:
        f.open = not f.open
        app.render()

    unfold = f.open or problem is not None
    active = active_filters(f)
    label = app.t("app.history.filters_active", count=active) if active else app.t("app.history.filters")
    parts: list[ft.Control] = [ft.Row([
        ui.subtitle(app.t("app.history.count", count=total), ident="history-count"),
        ui.button(label, fold, ident="history-filters-toggle", kind="outlined",
                  icon=ft.Icons.EXPAND_LESS if unfold else ft.Icons.FILTER_LIST),
        # the CSV of the games these filters list, with the filters (not after the last game)
        ui.button(app.t("app.history.export_csv"), partial(_csv, app), ident="export-csv", kind="outlined",
                  icon=ft.Icons.TABLE_VIEW),
    ], wrap=True, spacing=ui.GAP, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if unfold:
        parts.append(_filter_panel(app, f))
    if problem is not None:
        parts.append(ui.banner(app.t("app.history.bad_date", which=app.t(f"app.history.{problem}")),
                               ident="bad-date"))

    # Each game's row is kept while its summary is the same: "more" builds only the rows it adds
    # (the rows' taps read nothing but their summary's id).
    rows: list[ft.Control] = [app.memo.keep(f"history-row-{s.session_id}", s, partial(_row, app, s))
                              for s in items]
    if not rows and not problem:
        rows.append(ui.muted(app.t("app.history.empty"), ident="history-empty"))
    parts += rows
    if listed and len(items) < total:
        shown = len(items)

        def more(_: Any) -> None:
            """Read the next page only, and append it: the rows shown stay (kept, not compared)."""
            following = read(shown, PAGE)
            f.shown = shown + PAGE
            if following is not None:
                f.appended = (asked, items + following.items, following.total)
            app.render()

        parts.append(ui.button(app.t("app.history.more", count=min(PAGE, total - shown), shown=shown,
                                     total=total), more, ident="history-more", icon=ft.Icons.EXPAND_MORE))
    parts.append(app.memo.keep("history-tools", (str(app.export_dir or Path.home()), export_route(app.page)),
                               lambda: _tools(app)))
    return app.t("app.history.title"), ft.ListView(parts, spacing=ui.GAP, expand=True)


def _filter_panel(app: App, f: Filters) -> ft.Control:
    """The filters, unfolded: game, table, status, period, player, name search and dates."""
    from scoring.registry import refereed_games

    def choose(attr: str, value: Any) -> ui.Handler:
        def handler(_: Any) -> None:
            setattr(f, attr, value)
            f.shown = PAGE
            if attr == "period":
                f.since_text = f.until_text = ""
            app.render()
        return handler

    small = app.narrow  # a phone: compact chips, several to a line
    game_chips = [ui.chip(app.t("app.history.all_games"), choose("game", None), ident="filter-game-all",
                          selected=f.game is None, compact=small)]
    game_chips += [ui.chip(app.t(f"game.{g}.name"), choose("game", g), ident=f"filter-game-{g}",
                           selected=f.game == g, compact=small) for g in refereed_games()]
    status_chips = [ui.chip(app.t(f"app.history.status.{s}"), choose("status", s), ident=f"filter-status-{s}",
                            selected=f.status == s, compact=small) for s in STATUSES]
    profiles = app.guard(app.service.players) or []

    def pick_player(e: Any) -> None:
        f.player = e.control.value or None
        f.shown = PAGE
        app.render()

    # one dropdown, not a chip per profile: a club has dozens of players
    player_menu = ui.tid("filter-player", ft.Dropdown(
        label=app.t("app.history.player"), value=f.player or "", width=300, on_select=pick_player,
        text_size=ui.FONT_BODY,
        options=[ft.DropdownOption(key="", text=app.t("app.history.all_players"))]
        + [ft.DropdownOption(key=p.name, text=p.name) for p in profiles]))
    period_chips = [ui.chip(app.t(f"app.history.period.{p}"), choose("period", p), ident=f"filter-period-{p}",
                            selected=f.period == p and not (f.since_text or f.until_text), compact=small)
                    for p in PERIODS]

    def typed(attr: str) -> ui.Handler:
        def handler(e: Any) -> None:
            setattr(f, attr, e.control.value or "")
        return handler

    def apply(_: Any) -> None:
        f.shown = PAGE
        app.render()

    dates = ft.Row([
        player_menu,
        ui.tid("filter-search", ft.TextField(label=app.t("app.history.search"), value=f.search, width=260,
                                             on_change=typed("search"), on_submit=apply, text_size=ui.FONT_BODY,
                                             prefix_icon=ft.Icons.SEARCH)),
        date_field(app, "filter-since", "app.history.since", f.since_text, typed("since_text"), apply),
        date_field(app, "filter-until", "app.history.until", f.until_text, typed("until_text"), apply),
        ui.button(app.t("app.history.apply"), apply, ident="filter-apply", icon=ft.Icons.FILTER_ALT,
                  height=ui.TOUCH_MIN if small else ui.TOUCH, size=ui.FONT_BODY if small else ui.FONT_LABEL),
    ], wrap=True, spacing=8 if small else ui.GAP, run_spacing=8 if small else 10,
        vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def pick_table(value: str | None) -> None:
        f.table = value
        f.shown = PAGE
        app.render()

    tables = table_chips(app, f.table, pick_table, "filter-table")

    def pick_evening(value: int | None) -> None:
        f.evening = value
        f.shown = PAGE
        app.render()

    from companion.app.screens.evenings import evening_chips

    evenings = evening_chips(app, f.evening, pick_evening, "filter-evening")
    return ui.panel(ft.Column([
        chip_row(app, game_chips), *([tables] if tables is not None else []),
        *([evenings] if evenings is not None else []), chip_row(app, status_chips),
        chip_row(app, period_chips), dates,
    ], spacing=8 if small else 12), ident="history-filters", padding=12 if small else 18)


def _csv(app: App, _: Any) -> None:
    export_csv(app)
    app.render()


def _tools(app: App) -> ft.Control:
    """Export every game, import files (in a browser, an upload); the CSV sits with the filters."""
    def export_all(_: Any) -> None:
        export_to(app, None)
        app.render()

    chooser = picker(app)
    tools = ft.Row([
        ui.button(app.t("app.history.export_all"), export_all, ident="export-all", icon=ft.Icons.DOWNLOAD),
        ui.tid("import-file", ft.FilledTonalButton(
            content=ft.Text(app.t("app.history.import_file"), size=ui.FONT_LABEL, weight=ft.FontWeight.W_600),
            icon=ft.Icons.UPLOAD_FILE, height=ui.TOUCH,
            action=ft.PickFiles(chooser, file_type=ft.FilePickerFileType.CUSTOM, allowed_extensions=["json"],
                                allow_multiple=True, with_data=True, cancel_upload_on_window_blur=False),
            style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=ui.RADIUS),
                                 padding=ft.Padding.symmetric(horizontal=22, vertical=10)))),
    ], wrap=True, spacing=ui.GAP, run_spacing=ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    where = (app.t("app.history.export_download") if export_route(app.page) == "download"
             else app.t("app.history.export_where", path=str(app.export_dir or Path.home())))
    return ui.panel(ft.Column([ui.muted(where), tools], spacing=10), ident="history-tools")


def duration(app: App, seconds: float) -> str:
    if seconds < 60:  # « 11 saisies en moins d'une minute », never « en 0 minute »
        return app.t("app.history.under_minute")
    minutes = round(seconds / 60)
    if minutes >= 60:
        return app.t("app.history.hours", hours=minutes // 60, minutes=f"{minutes % 60:02d}")
    return app.t("app.history.minutes", count=minutes)


def _row(app: App, summary: SessionSummary) -> ft.Control:
    finished = summary.status == "finished"
    if finished:
        if summary.winners:
            result = app.t("app.history.won_by", players=names(app, summary.winners))
        else:
            result = app.t("app.history.no_winner")
        seated = _by_place(app, summary)
    else:
        result = app.t("app.history.abandoned" if summary.status == "abandoned" else "app.history.in_progress")
        seated = list(summary.players)
    icon = {"finished": ft.Icons.EMOJI_EVENTS, "abandoned": ft.Icons.DO_NOT_DISTURB_ON}.get(
        summary.status, ft.Icons.HOURGLASS_TOP)
    length = app.t("app.history.entries_n", count=summary.entries)
    if summary.duration_s > 0:
        length = app.t("app.history.length", entries=length, duration=duration(app, summary.duration_s))
    # few controls per row: "more" sends a page of them; on a phone the length goes under the
    # result, where beside it, it would leave the game's lines a column a word wide
    lines: list[ft.Control] = [
        ui.text(app.t("app.history.row_title", game=app.t(f"game.{summary.game}.name"),
                      when=when(app, summary.started_at)), ui.FONT_LABEL, weight=ft.FontWeight.BOLD),
        ui.text(" · ".join(seated), ui.FONT_BODY),
        ui.text(result, ui.FONT_BODY, weight=ft.FontWeight.W_600),
        *([ui.muted(app.t("app.club.at_table", table=summary.table_name))] if summary.table_name else []),
    ]
    if app.narrow:
        lines.append(ui.muted(length))
    body = ft.Row([
        ft.Icon(icon, size=28 if app.narrow else 34, color=ft.Colors.AMBER_700 if finished else ft.Colors.PRIMARY),
        ft.Column(lines, spacing=2, expand=True),
        *([] if app.narrow else [ui.muted(length)]),
    ], spacing=10 if app.narrow else ui.GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ui.tile(body, lambda _: app.go("past", session_id=summary.session_id),
                   ident=f"history-{summary.session_id}", padding=14)


def _by_place(app: App, summary: SessionSummary) -> list[str]:
    """A finished game's players by place (« 1. David 9 »), equal places in seating order; a player
    the game cast out (High Society's poorest) says so and why, so that the score cannot read as
    the best."""
    ordered = sorted(summary.seats, key=lambda s: s.place if s.place is not None else len(summary.seats) + 1)
    why_key = f"game.{summary.game}.out_why"
    why = app.t(why_key) if has_text(why_key, app.lang) else None
    said = []
    for s in ordered:
        figures = {"name": s.name, "place": s.place or "-", "score": number(app, s.score)}
        if not s.out:
            said.append(app.t("app.history.seat_result", **figures))
        elif why is not None:
            said.append(app.t("app.history.seat_out", why=why, **figures))
        else:
            said.append(app.t("app.history.seat_out_any", **figures))
    return said


def date_field(app: App, ident: str, label: str, value: str, on_change: Any, on_submit: Any) -> ft.Control:
    """A "from" or "until" date of a period filter (history and statistics), typed as the hint says."""
    return ui.tid(ident, ft.TextField(label=app.t(label), value=value, width=150 if app.narrow else 200,
                                      hint_text=app.t("app.history.date_hint"), on_change=on_change,
                                      on_submit=on_submit, text_size=ui.FONT_BODY))
