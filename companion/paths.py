"""Where the database lives.

Order: the command line's ``--db PATH``, then the environment variable ``COMPANION_DB``, then
``companion.db`` in the user data directory (platformdirs ``user_data_dir("table-companion")``).
The result is always absolute: Flet may change the working directory after start-up, so a
relative path is resolved once, against the directory the program was started from.

Either value may also be a SQLAlchemy URL (``postgresql+psycopg://user@host/club``, or
``sqlite:///path``): a club's shared server. A value is a URL when it starts with a scheme
(letters, digits, ``+``, then ``://``); it is then returned as it is, a string, for
:class:`companion.store.Store` to open. Anything else is a path (``C:\\games.db`` is not a URL:
one letter before ``:`` and no ``//``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping

from platformdirs import user_data_dir

APP_NAME = "table-companion"
DB_FILENAME = "companion.db"
ENV_VAR = "COMPANION_DB"
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+]*://")


def default_db_path() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False)) / DB_FILENAME


def absolute(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute (``~`` expanded) without requiring it to exist."""
    return Path(os.path.abspath(Path(path).expanduser()))


def is_url(value: object) -> bool:
    """Whether ``value`` names a database by SQLAlchemy URL rather than by file path."""
    return isinstance(value, str) and _URL.match(value.strip()) is not None


def resolve_db_path(cli_value: str | os.PathLike[str] | None = None,
                    env: Mapping[str, str] | None = None) -> Path | str:
    """The database to use: an absolute path, or a URL string as it was given (see above)."""
    env = os.environ if env is None else env
    if cli_value:
        return _resolved(cli_value)
    from_env = env.get(ENV_VAR, "").strip()
    if from_env:
        return _resolved(from_env)
    return absolute(default_db_path())


def _resolved(value: str | os.PathLike[str]) -> Path | str:
    return value.strip() if isinstance(value, str) and is_url(value) else absolute(value)


def local_dir(db: Path | str) -> Path:
    """The folder for what stays on this device (settings, exports): beside a database file, and
    for a server's database (a URL) the user data directory."""
    return Path(user_data_dir(APP_NAME, appauthor=False)) if isinstance(db, str) else db.parent


def shown_db(db: Path | str) -> str:
    """The database as the console may print it: a URL without its password."""
    if isinstance(db, str):
        from sqlalchemy.engine import make_url

        return make_url(db).render_as_string(hide_password=True)
    return str(db)
