"""Games registered from outside the app: a package named in the environment variable
``COMPANION_GAMES`` (comma-separated package names, importable from where the app runs) adds its
games after the app's own, through the same one registration as theirs (``models.games.SPECS``).

Such a package holds what a game of the app spreads over its layers (docs/adding-a-game.md): its
``__init__.py`` exports ``SPECS`` (its :class:`~models.game_spec.GameSpec` s, whose import paths
name its own modules), its texts are ``i18n/<lang>/*.json`` beside it, its example records
``examples/*.json`` with their ``examples/README.md``. The tests register theirs (``tests/high_card``,
set by ``tests/conftest.py``); the app ships none, and without the variable it has only its own games.

This module imports nothing of ``models``: the specs (``models.games``) and the catalogues
(``models.i18n``) both read it."""

from __future__ import annotations

import os
from importlib import resources
from importlib.resources.abc import Traversable

VARIABLE = "COMPANION_GAMES"


def packages() -> tuple[str, ...]:
    """The packages named in ``COMPANION_GAMES``, in its order (none when it is unset or empty)."""
    return tuple(name for name in (part.strip() for part in os.environ.get(VARIABLE, "").split(",")) if name)


def text_folders(lang: str) -> tuple[Traversable, ...]:
    """Each registered package's texts in ``lang`` (``<package>/i18n/<lang>``), where it has any."""
    folders = (resources.files(name).joinpath("i18n", lang) for name in packages())
    return tuple(folder for folder in folders if folder.is_dir())
