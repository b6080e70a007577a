"""Which engine referees which game. A game missing here has no referee yet."""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module

from models.games import SPECS
from scoring.base import Engine

# game id -> "module:Class", as each game's spec names it; imported on first use so one engine's
# import cost is not paid by all.
_ENGINES: dict[str, str] = {spec.id: spec.engine for spec in SPECS}


def engine_class(game: str) -> type[Engine] | None:
    target = _ENGINES.get(game)
    if target is None:
        return None
    return _load(target)


@lru_cache(maxsize=None)  # every replay asks: import_module's lookup costs more than setting up an engine
def _load(target: str) -> type[Engine]:
    module, _, name = target.partition(":")
    return getattr(import_module(module), name)


def refereed_games() -> tuple[str, ...]:
    return tuple(_ENGINES)
