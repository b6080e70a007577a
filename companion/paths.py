"""Where the database lives.

Order: the command line's ``--db PATH``, then the environment variable ``COMPANION_DB``, then
``companion.db`` in the user data directory (platformdirs ``user_data_dir("table-companion")``).
The result is always absolute: Flet may change the working directory after start-up, so a
relative path is resolved once, against the directory the program was started from.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from platformdirs import user_data_dir

APP_NAME = "table-companion"
DB_FILENAME = "companion.db"
ENV_VAR = "COMPANION_DB"


def default_db_path() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False)) / DB_FILENAME


def absolute(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute (``~`` expanded) without requiring it to exist."""
    return Path(os.path.abspath(Path(path).expanduser()))


def resolve_db_path(cli_value: str | os.PathLike[str] | None = None,
                    env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if cli_value:
        return absolute(cli_value)
    from_env = env.get(ENV_VAR, "").strip()
    if from_env:
        return absolute(from_env)
    return absolute(default_db_path())
