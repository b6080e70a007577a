"""The app's shell: navigation, language, theme, dialogs and error handling around the screens.

A screen is a function ``build(app, **params) -> (heading, ft.Control)`` registered in
:mod:`companion.app.screens`. Screens never hold rules logic: they call the session service and
render what it returns. Every handler that changes something calls :meth:`App.render`, which
rebuilds the current screen from the service's state (the tree is small; rebuilding keeps the
screens stateless and the tests simple).

The shell works without a Flet page too (``page=None``): the tests build screens, call their
handlers and look at ``app.root`` / ``app.dialog``.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import flet as ft

from companion.app import ui
from companion.app.memo import Memo
from companion.app.reuse import reuse
from companion.app.settings import DeviceSettings
from models.i18n import DEFAULT_LANGUAGE, LANGUAGES, Msg, current_dialect, dialect

if TYPE_CHECKING:
    from companion.service import SessionService, SessionState

log = logging.getLogger("companion.app")

NEWS = "companion-games"  # pubsub topic: a game changed (message: its session id, or None)
LISTS = ("home", "history", "players", "stats")  # screens that list games
LOCALE_REGIONS = {"fr": "FR", "en": "US"}  # Flutter's locale of each language of the app
CHECK_EVERY_S = 3.0  # how often a page on a club's server asks whether the server answers


@dataclass
class Place:
    """One entry of the navigation stack."""

    screen: str
    params: dict[str, Any] = field(default_factory=dict)


def _saved_table(saved: dict[str, Any]) -> str | None:
    """The table name kept in the settings, if it is still a valid one."""
    from companion.service.club import BadTableName, clean_table_name

    try:
        return clean_table_name(saved.get("table"))
    except BadTableName:
        return None


class App:
    def __init__(self, service: SessionService, page: ft.Page | None = None, *, lang: str = DEFAULT_LANGUAGE,
                 dark: bool = False, export_dir: Path | None = None, settings_path: Path | None = None,
                 table: str | None = None):
        self.service = service
        self.page = page
        self.settings_path = settings_path
        self.settings = DeviceSettings(settings_path)
        saved = self.settings.read()
        lang = saved.get("lang", lang)
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self.dark = bool(saved.get("dark", dark))
        self._table = table  # this device's table name when its settings file keeps none
        self.export_dir = export_dir
        self.join: Any = None  # LAN mode, the serving machine: the address and PIN phones join with (home)
        self.gate: Any = None  # LAN mode, the serving machine: the table PIN's gate (its locks, a new PIN)
        self._gate_seen: Any = None  # what of the gate the screen last showed
        self.stack: list[Place] = [Place("home")]
        self.drafts: dict[str, Any] = {}   # screen-local state that must survive a re-render
        self.notice: tuple[str, str] | None = None  # (kind, sentence) shown once at the top
        self.root: ft.Control | None = None
        self.dialog: ft.AlertDialog | None = None
        self.wide = True
        self.narrow = False   # a phone: compact bar, smaller prompt, game screens in their compact form
        # the current screen's parts kept between renders (companion.app.memo), and what they all
        # depend on: when that changes (another screen, language, theme, size, offline) none is kept
        self.memo = Memo()
        self._memo_context: tuple[Any, ...] | None = None
        # the place shown last (go, replace, back and home each put another Place on top; a screen
        # that changes its own parameters, a search typed, keeps its Place): a place shown anew is
        # scrolled to its top (to_top), not left at the offset the screen before it was left at
        self._where: Place | None = None
        self._rendering = False
        self._read: dict[int, SessionState] = {}  # the games read during the render under way (App.read)
        # the club's server as last found (LOCAL: a SQLite file, no indicator); see _watch_link
        self.link = service.last_connection
        self._closed = False   # the page's session ended: the watch stops
        self._away = False     # the browser is disconnected: no check until it comes back
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watch: Any = None
        if page is not None:
            self._setup_page(page)

    # -- text ---------------------------------------------------------------------------------

    def t(self, key: str, **params: Any) -> str:
        return Msg(key, params).render(self.lang)

    def say(self, message: Msg) -> str:
        """``message`` in the table's language and, outside a screen's rendering (a dialog or a
        notice made on a tap), in the words of the game the screen shows (Animalement Vôtre's)."""
        if current_dialect() is None and self.stack:
            game = self._game_of(self.here.params)
            if game is not None:
                with dialect(game):
                    return message.render(self.lang)
        return message.render(self.lang)

    # -- navigation ---------------------------------------------------------------------------

    @property
    def here(self) -> Place:
        return self.stack[-1]

    def go(self, screen: str, **params: Any) -> None:
        self.notice = None
        self.stack.append(Place(screen, params))
        self.render()

    def replace(self, screen: str, *, known: SessionState | None = None, **params: Any) -> None:
        """Go to a screen without keeping the current one in the back stack (``known``: see
        :meth:`render`)."""
        self.notice = None
        self.stack[-1] = Place(screen, params)
        self.render(known)

    def back(self) -> None:
        self.notice = None
        if len(self.stack) > 1:
            self.stack.pop()
        self.render()

    def home(self) -> None:
        self.notice = None
        self.stack = [Place("home")]
        self.render()

    # -- settings -----------------------------------------------------------------------------

    def set_lang(self, lang: str) -> None:
        if lang in LANGUAGES:
            self.lang = lang
            self._save_settings()
            if self.page is not None:
                self.page.title = self.t("app.name")
                self._set_locale(self.page)
            self.render()

    def toggle_theme(self) -> None:
        self.dark = not self.dark
        self._save_settings()
        if self.page is not None:
            self.page.theme_mode = ft.ThemeMode.DARK if self.dark else ft.ThemeMode.LIGHT
        self.render()

    @property
    def table_name(self) -> str | None:
        """This device's table name (a club's tablet), kept with every game started here: the
        settings file's (read again each time: every page of this process is the same tablet),
        else the one given at start."""
        saved = self.settings.read()
        return _saved_table(saved) if "table" in saved else self._table

    def set_table_name(self, name: str | None) -> None:
        """Name this device's table (None: no name), for every game started here from now on;
        kept in its settings. The name is checked first, against the table names of the database
        too (the service's Malformed says why not: a look-alike of another table names it)."""
        self._table = self.service.club.check_table_name(name)
        self.settings.save(table=self._table)

    def _save_settings(self) -> None:
        self.settings.save(lang=self.lang, dark=self.dark)

    # -- feedback -----------------------------------------------------------------------------

    def tell(self, sentence: str, kind: str = "info") -> None:
        """A sentence shown at the top of the current screen until the next navigation."""
        self.notice = (kind, sentence)

    def show_dialog(self, dialog: ft.AlertDialog) -> None:
        self.close_dialog()
        self.dialog = dialog
        if self.page is not None:
            self.page.show_dialog(dialog)

    def close_dialog(self) -> None:
        if self.dialog is not None and self.page is not None and self.dialog.open:
            self.page.pop_dialog()
        self.dialog = None

    def confirm(self, question: str, on_yes: Callable[[], None], *, ident: str,
                yes_key: str = "app.common.yes", no_key: str = "app.common.cancel", danger: bool = False) -> None:
        """A question with two answers. Each answer says what it does: where « Annuler » (the
        default ``no_key``) could be read as the action itself (undoing an entry), name both
        (« Garder » / « Annuler la saisie »)."""
        def yes(_: Any) -> None:
            self.close_dialog()
            on_yes()

        def no(_: Any) -> None:
            self.close_dialog()

        self.show_dialog(ft.AlertDialog(
            modal=True,
            content=ui.tid(ident, ft.Text(question, size=ui.FONT_LABEL)),
            actions=[
                ui.button(self.t(no_key), no, ident=f"{ident}-no", kind="text"),
                ui.button(self.t(yes_key), yes, ident=f"{ident}-yes", kind="danger" if danger else "primary"),
            ],
        ))

    def guard(self, action: Callable[[], Any]) -> Any:
        """Run a service call; a ServiceError becomes a sentence on screen, never a crash.
        Returns the call's result, or None when it failed."""
        from companion.service import ServiceError

        try:
            return action()
        except ServiceError as err:
            self.failed(err)
            self.tell(self.say(err.msg), "error")
        except Exception as err:  # a defect: say so, keep the app usable; what was saved stays saved
            log.exception("unexpected error in a handler")
            self.failed(err)
            self.tell(self.t("app.error.unexpected"), "error")
        return None

    # -- the club's server ----------------------------------------------------------------------

    @property
    def offline(self) -> bool:
        """The club's server was not answering at the last look: entries are refused (a SQLite file
        is never offline)."""
        from companion.service import Connection

        return self.link is Connection.OFFLINE

    def failed(self, err: BaseException) -> None:
        """A service call failed: Offline shows "offline" at once (the caller renders next; the
        watch's next turn says when the server is back); any other failure makes the watch ask
        the server now rather than at its next turn."""
        from companion.service import Connection, Offline

        if isinstance(err, Offline):
            if self.link is not Connection.LOCAL:
                self.link = Connection.OFFLINE
            return
        self._check_soon()

    def _check_soon(self) -> None:
        if self._wake is not None and self._loop is not None:
            try:
                self._loop.call_soon_threadsafe(self._wake.set)
            except RuntimeError:  # the loop is closed: the page is gone
                pass

    def show_link(self, link: Any) -> bool:
        """Show what a check of the server found; the screen is rebuilt if that changed (back
        online, the table reads the game from the server again). Returns whether it changed."""
        if link == self.link:
            return False
        self.link = link
        self.render()
        return True

    async def _watch_link(self) -> None:
        """The page's watch on the club's server: a check every CHECK_EVERY_S seconds, and at once
        after a failed call. The check runs in a worker thread (a server that does not answer may
        take the connection timeout), never on the page's event loop. Ends with the page's session."""
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        while not self._closed:
            if not self._away:
                try:
                    link = await asyncio.to_thread(self.service.connection)
                    if not self._closed:
                        self.show_link(link)
                except Exception:  # the page went away while the screen was rebuilt
                    log.debug("connection check", exc_info=True)
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), CHECK_EVERY_S)
            except asyncio.TimeoutError:
                pass

    def _link_view(self) -> ft.Control | None:
        """The app bar's "connected to the club server" / "offline" (nothing for a SQLite file)."""
        from companion.service import Connection

        if self.link is Connection.LOCAL:
            return None
        offline = self.link is Connection.OFFLINE
        words = self.t("app.online.offline" if offline else "app.online.connected")
        fg = ft.Colors.ON_ERROR_CONTAINER if offline else ft.Colors.ON_TERTIARY_CONTAINER
        parts: list[ft.Control] = [ft.Icon(ft.Icons.CLOUD_OFF if offline else ft.Icons.CLOUD_DONE, color=fg, size=24)]
        if not self.narrow:  # a phone's bar keeps its one line: the icon, its words in its label and tooltip
            parts.append(ft.Text(words, size=ui.FONT_SMALL, weight=ft.FontWeight.W_600, color=fg,
                                 max_lines=1, overflow=ft.TextOverflow.ELLIPSIS))
        box = ft.Container(ft.Row(parts, spacing=6, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                           bgcolor=ft.Colors.ERROR_CONTAINER if offline else ft.Colors.TERTIARY_CONTAINER,
                           padding=ft.Padding.symmetric(horizontal=10, vertical=6), border_radius=ui.RADIUS,
                           tooltip=words)
        return ui.tid("connection", box, label=words, live_region=True)

    # -- rendering ----------------------------------------------------------------------------

    def _game_of(self, params: dict[str, Any]) -> str | None:
        """The game a screen shows (a table, results, a past game), for its catalogue dialect."""
        session_id = params.get("session_id")
        if session_id is None:
            return None
        from companion.service import ServiceError

        try:
            return str(self.read(session_id).game)
        except ServiceError:  # the screen itself will say what is wrong with the session
            return None

    def read(self, session_id: int) -> SessionState:
        """The game as the server has it (offline: as last read, without waiting for a server that
        does not answer). Read once per render: the dialect's look-up and the screen share it."""
        kept = self._read.get(session_id)
        if kept is not None:
            return kept
        state = (self.service.last_known if self.offline else self.service.open)(session_id)
        if self._rendering:
            self._read[session_id] = state
        return state

    def render(self, known: SessionState | None = None) -> None:
        """Build the current screen again and show it. ``known``: the game as a change this device
        just made left it (what ``submit``, ``undo`` or ``correct`` returned), which the screen
        draws from instead of reading the game again: one way down, one way back. Another device's
        change reaches the screen through :meth:`on_news`, which reads the game."""
        from companion.app.screens import SCREENS
        from companion.app.wake import keep_awake

        place = self.here
        screen = SCREENS[place.screen]
        context = (place.screen, tuple(sorted(place.params.items())), self.lang, self.dark, self.narrow, self.wide,
                   getattr(self.page, "width", None), self.offline)
        if context != self._memo_context:
            self.memo.clear()
            self._memo_context = context
        # another screen, or another game's, opens at its top (the first of all is at its top already)
        opened = self._where is not None and place is not self._where
        self._where = place
        self._rendering = True
        # a screen that reads a live engine (the table) is built holding the service steady from
        # the read on: no entry from another tab of this process changes the game it read meanwhile
        steady = self.service.steady() if screen.steady else nullcontext()
        try:
            with steady:
                # the state handed over is read only while its engine is still the game's (another
                # tab of this process may have entered something since: then the screen reads it)
                if known is not None and not known.stale:
                    self._read[known.session_id] = known
                with dialect(self._game_of(place.params)):  # Animalement Vôtre's own words, e.g.
                    heading, body = screen.build(self, **place.params)
        except Exception as err:
            from companion.service import ServiceError

            self.failed(err)
            if isinstance(err, ServiceError):
                sentence = self.say(err.msg)
            else:
                log.exception("cannot build screen %s", place.screen)
                sentence = self.t("app.error.unexpected")
            heading = self.t("app.name")
            body = ft.Column([ui.banner(sentence, ident="screen-error"),
                              ui.button(self.t("app.nav.home"), lambda _: self.home(), ident="go-home",
                                        icon=ft.Icons.HOME)], spacing=ui.GAP)
        finally:
            self._rendering = False
            self._read.clear()
        built = self._frame(heading, body, scrolls=screen.scrolls)
        keep_awake(self, place.screen == "table")  # a game on screen: the tablet does not sleep
        if self.page is not None:
            # what is on screen stays where the new tree equals it: Flet compares only what changed
            # and the controls above it (companion.app.reuse), not the whole page
            self.root = reuse(self.root, built)
            self.page.controls = [self.root]
            self.page.update()
            if opened:
                self.to_top()
        else:
            self.root = built

    def _frame(self, heading: str, body: ft.Control, scrolls: bool = False) -> ft.Control:
        # The bar and the notice are kept between renders while what they show is the same
        # (companion.app.memo): their handlers call the app's own methods, nothing of one render.
        bar = self.memo.keep("frame-bar", (heading, len(self.stack) > 1, self.lang, self.dark, self.narrow, self.link),
                             lambda: self._bar(heading))
        content: list[ft.Control] = []
        lock = self._lock_view()
        if lock is not None:
            content.append(lock)
        if self.notice is not None:
            kind, sentence = self.notice
            content.append(self.memo.keep("frame-notice", (kind, sentence), lambda: ui.banner(
                sentence, ident="notice", kind=kind, on_close=self._dismiss_notice,
                close_tooltip=self.t("app.common.close"))))
        content.append(body)
        # The same key on every rebuilt root lets Flet reconcile the new tree with the one on
        # screen (a property-level patch instead of a new tree): taps, focus and scroll survive.
        # A screen the registry says scrolls scrolls itself (a long list Flutter builds lazily, only
        # the rows in view): the frame's scroll around it would have every row built and laid out.
        return ft.Column([
            bar,
            ft.Container(ft.Column(content, spacing=ui.GAP, scroll=None if scrolls else ft.ScrollMode.AUTO, expand=True),
                         padding=ft.Padding.symmetric(horizontal=8, vertical=8) if self.narrow
                         else ft.Padding.symmetric(horizontal=16, vertical=12), expand=True),
        ], spacing=0, expand=True, key="companion-root")

    def _bar(self, heading: str) -> ft.Control:
        # On a phone the bar keeps one line: 48-dp buttons, the language as an icon, the title cut short.
        touch = ui.TOUCH_MIN if self.narrow else ui.TOUCH
        left: list[ft.Control] = []
        if len(self.stack) > 1:
            left.append(ui.icon_button(ft.Icons.ARROW_BACK, lambda _: self.back(), ident="nav-back",
                                       tooltip=self.t("app.nav.back"), size=touch))
            left.append(ui.icon_button(ft.Icons.HOME, lambda _: self.home(), ident="nav-home",
                                       tooltip=self.t("app.nav.home"), size=touch))
        other = "en" if self.lang == "fr" else "fr"
        if self.narrow:
            lang: ft.Control = ui.icon_button(ft.Icons.TRANSLATE, lambda _: self.set_lang(other), ident="lang-switch",
                                              tooltip=self.t(f"app.lang.{other}"), size=touch)
        else:
            lang = ui.button(self.t(f"app.lang.{other}"), lambda _: self.set_lang(other), ident="lang-switch",
                             icon=ft.Icons.TRANSLATE, kind="text", size=ui.FONT_BODY)
        link = self._link_view()
        title = ft.Text(heading, size=ui.FONT_LABEL if self.narrow else ui.FONT_TITLE - 2, weight=ft.FontWeight.BOLD,
                        max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, expand=True)
        return ft.Container(
            ft.Row([
                *left,
                ui.tid("screen-title", title),
                *([link] if link is not None else []),
                lang,
                ui.icon_button(ft.Icons.LIGHT_MODE if self.dark else ft.Icons.DARK_MODE,
                               lambda _: self.toggle_theme(), ident="theme-switch",
                               tooltip=self.t("app.theme.light" if self.dark else "app.theme.dark"), size=touch),
            ], vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4 if self.narrow else 8),
            padding=ft.Padding.symmetric(horizontal=4 if self.narrow else 12, vertical=2),
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        )

    def to_top(self) -> None:
        """Scroll the screen's content back to its top: a screen opened anew, or a new turn (the
        table's announcement in view, wherever the entry that ended the last one was tapped). The
        frame's scrolling column is the same control from screen to screen (Flet reconciles the
        rebuilt root), so without this it keeps the offset it was left at."""
        frame = self.root.controls[1] if isinstance(self.root, ft.Column) and len(self.root.controls) > 1 else None
        column = getattr(frame, "content", None)
        if self.page is None or not isinstance(column, ft.Column) or column.scroll is None:
            return

        async def scroll() -> None:
            try:
                await column.scroll_to(offset=0)
            except Exception:  # the tab went away, or its answer did not come: nothing to put right
                log.debug("scroll to the top", exc_info=True)
        try:
            self.page.run_task(scroll)
        except Exception:  # a page with no loop to run it (a benchmark's): the screen is drawn all the same
            log.debug("scroll to the top not scheduled", exc_info=True)

    def _dismiss_notice(self, _: Any) -> None:
        self.notice = None
        self.render()

    # -- other tabs on the same games ----------------------------------------------------------

    def announce(self, session_id: int | None = None) -> None:
        """Tell the app's other open tabs (another tablet, a phone) that a game changed, so that
        none of them keeps showing a table that is no longer true."""
        pubsub = getattr(self.page, "pubsub", None) if self.page is not None else None
        if pubsub is None:
            return
        try:
            pubsub.send_others_on_topic(NEWS, session_id)
        except Exception:
            log.warning("cannot tell the other tabs", exc_info=True)

    def on_news(self, session_id: int | None) -> bool:
        """Another tab changed a game: rebuild this screen if it shows it (or lists games).
        Returns whether the screen was rebuilt."""
        here = self.here
        shown = here.params.get("session_id")
        if here.screen in LISTS or (shown is not None and (session_id is None or shown == session_id)):
            self.render()
            return True
        return False

    async def _on_news(self, _topic: str, session_id: int | None) -> None:
        self.on_news(session_id)

    # -- the table PIN (LAN mode, the serving machine) --------------------------------------------

    def watch_gate(self, gate: Any) -> None:
        """Show the table PIN's locks on every screen, as soon as one happens (another device's
        wrong PIN), with the button that lifts them (:meth:`renew_pin`)."""
        self.gate = gate
        self._gate_seen = gate.state()
        gate.listen(self._gate_changed)

    def renew_pin(self) -> None:
        """A new table PIN: every lock lifted; the devices at the table keep playing."""
        if self.gate is None:
            return
        pin = self.gate.renew()
        self.tell(self.t("app.pin.renewed", pin=pin), "ok")
        self.render()

    def _gate_changed(self) -> None:
        """Told by the gate, on the thread of the page that caused it: the screen is rebuilt on
        this page's own event loop (Flet's run_task), if what it shows of the gate changed."""
        run_task = getattr(self.page, "run_task", None) if self.page is not None else None
        if run_task is None:  # no Flet page (the tests): at once
            self.show_gate()
            return
        run_task(self._show_gate)

    async def _show_gate(self) -> None:
        self.show_gate()

    def show_gate(self) -> bool:
        """Rebuild the screen if the gate's locks or PIN changed since it was shown."""
        if self.gate is None or self._closed:
            return False
        seen = self.gate.state()
        if seen == self._gate_seen:
            return False
        self._gate_seen = seen
        self.render()
        return True

    def _lock_view(self) -> ft.Control | None:
        if self.gate is None:
            return None
        from companion.app.web import lock_banner

        state = self._gate_seen = self.gate.state()  # as it is now: show_gate need not render again
        if not state.locked and not state.closed:
            return None
        return self.memo.keep("frame-pin-lock", (state, self.lang), lambda: lock_banner(
            state, self.lang, lambda _: self.renew_pin()))

    # -- page ---------------------------------------------------------------------------------

    def _setup_page(self, page: ft.Page) -> None:
        from companion.app.flet_messages import quiet_message_text

        quiet_message_text()  # Flet's debug text of each message, built only when logged
        page.title = self.t("app.name")
        self._set_locale(page)
        page.padding = 0
        page.spacing = 0
        page.theme_mode = ft.ThemeMode.DARK if self.dark else ft.ThemeMode.LIGHT
        page.theme = ft.Theme(color_scheme_seed=ft.Colors.TEAL)
        page.dark_theme = ft.Theme(color_scheme_seed=ft.Colors.TEAL)
        page.on_resize = self._on_resize
        self.wide = self._is_wide()
        self.narrow = self._is_narrow()
        pubsub = getattr(page, "pubsub", None)
        if pubsub is not None:
            pubsub.subscribe_topic(NEWS, self._on_news)
        from companion.service import Connection

        if self.link is not Connection.LOCAL and hasattr(page, "run_task"):
            page.on_close = self._on_close
            page.on_disconnect = self._on_disconnect
            page.on_connect = self._on_connect
            self._watch = page.run_task(self._watch_link)

    def _set_locale(self, page: Any) -> None:
        """Flutter's own words (a text field's counter « 40 caractères restants », menus' labels)
        in the table's language, not Flutter's English default."""
        page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(lang, LOCALE_REGIONS.get(lang)) for lang in LANGUAGES],
            current_locale=ft.Locale(self.lang, LOCALE_REGIONS.get(self.lang)))

    def _on_close(self, _: Any) -> None:
        """The page's session expired: its watch on the server ends."""
        self._closed = True
        self._check_soon()

    def _on_disconnect(self, _: Any) -> None:
        self._away = True

    def _on_connect(self, _: Any) -> None:
        self._away = False
        self._check_soon()

    def _is_wide(self) -> bool:
        if self.page is None:
            return self.wide
        width, height = self.page.width, self.page.height
        if not width or not height:
            return True
        return width >= height

    def _is_narrow(self) -> bool:
        if self.page is None:
            return self.narrow
        width = self.page.width
        return width is not None and 0 < width < ui.NARROW

    def _on_resize(self, _: Any) -> None:
        wide, narrow = self._is_wide(), self._is_narrow()
        if (wide, narrow) != (self.wide, self.narrow):
            self.wide, self.narrow = wide, narrow
            self.render()
