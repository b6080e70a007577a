"""Screen registry: name -> module with ``build(app, **params) -> (heading, ft.Control)``."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

_MODULES = {
    "home": "companion.app.screens.home",
    "setup": "companion.app.screens.setup",
    "table": "companion.app.screens.table",
    "results": "companion.app.screens.results",
    "history": "companion.app.screens.history",
    "past": "companion.app.screens.past",        # one past game, replayed step by step
    "players": "companion.app.screens.players",
    "rules": "companion.app.screens.rules",
    "stats": "companion.app.screens.stats",
}


class _Screens:
    def __getitem__(self, name: str) -> ModuleType:
        return import_module(_MODULES[name])

    def __contains__(self, name: object) -> bool:
        return name in _MODULES

    def __iter__(self):
        return iter(_MODULES)


SCREENS = _Screens()
