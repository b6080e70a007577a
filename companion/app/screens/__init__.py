"""Screen registry: name -> :class:`Screen`, the module with ``build(app, **params) -> (heading,
ft.Control)`` and what the shell must know of it, declared here (no screen module is asked for an
optional attribute): ``steady`` (built holding the service steady: it reads a live engine) and
``scrolls`` (it scrolls itself, a long list built lazily: the frame's scroll would lay out every row)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

if TYPE_CHECKING:
    import flet as ft

    from companion.app.shell import App


class Builds(Protocol):
    """What a screen module provides (mypy checks every module of the registry against it)."""

    @property
    def build(self) -> Callable[..., tuple[str, ft.Control]]:
        """``build(app, **params)``: the screen's heading and body."""
        ...


@dataclass(frozen=True)
class Screen:
    module: str
    steady: bool = False   # the shell builds it holding SessionService.steady() (the table)
    scrolls: bool = False  # it scrolls itself (the history's lazy list)

    def build(self, app: App, **params: Any) -> tuple[str, ft.Control]:
        built: Builds = import_module(self.module)
        return built.build(app, **params)


_SCREENS = {
    "home": Screen("companion.app.screens.home"),
    "setup": Screen("companion.app.screens.setup", scrolls=True),  # its start stays in view below
    "table": Screen("companion.app.screens.table", steady=True),
    "results": Screen("companion.app.screens.results"),
    "history": Screen("companion.app.screens.history", scrolls=True),
    "past": Screen("companion.app.screens.past"),        # one past game, replayed step by step
    "players": Screen("companion.app.screens.players"),
    "rules": Screen("companion.app.screens.rules"),
    "stats": Screen("companion.app.screens.stats"),
    "evenings": Screen("companion.app.screens.evenings"),                     # club evenings, a new one
    "evening": Screen("companion.app.screens.evening"),                       # one evening's rounds and seating
    "evening-table": Screen("companion.app.screens.evening_table"),           # a table's game from the seating
    "evening-standings": Screen("companion.app.screens.evening_standings"),   # the big screen
}

if TYPE_CHECKING:  # every module of the registry has the build the shell calls
    from companion.app.screens import (
        evening,
        evening_standings,
        evening_table,
        evenings,
        history,
        home,
        past,
        players,
        results,
        rules,
        setup,
        stats,
        table,
    )

    _CHECKED: tuple[Builds, ...] = (home, setup, table, results, history, past, players, rules, stats, evenings,
                                    evening, evening_table, evening_standings)


class _Screens:
    def __getitem__(self, name: str) -> Screen:
        screen = _SCREENS[name]
        import_module(screen.module)  # loaded now (a warm start imports every screen)
        return screen

    def __contains__(self, name: object) -> bool:
        return name in _SCREENS

    def __iter__(self) -> Iterator[str]:
        return iter(_SCREENS)


SCREENS = _Screens()
