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


_USER_PASSWORD = re.compile(r"(://[^:/@?#]*:)([^@/?#]*)(@)")
_QUERY_PASSWORD = re.compile(r"([?&][^=&#]*pass[^=&#]*=)([^&#]*)", re.IGNORECASE)


def _passwords(url: str) -> list[str]:
    """Every password ``url`` holds (its user part's, any query parameter named like one), as
    written and as decoded."""
    from urllib.parse import unquote, unquote_plus

    found = [m.group(2) for m in _USER_PASSWORD.finditer(url)] + [m.group(2) for m in _QUERY_PASSWORD.finditer(url)]
    return sorted({form for secret in found for form in (secret, unquote(secret), unquote_plus(secret)) if form},
                  key=len, reverse=True)


def shown_db(db: Path | str) -> str:
    """The database as the console may print it: a URL without any password (in its user part or
    a query parameter such as ``?password=``)."""
    if isinstance(db, str):
        return _QUERY_PASSWORD.sub(r"\1***", _USER_PASSWORD.sub(r"\1***\3", db))
    return str(db)


def hide_passwords(text: str, db: str) -> str:
    """``text`` (a sentence about the database ``db``) without any of ``db``'s passwords."""
    text = text.replace(db, shown_db(db)).replace(db.strip(), shown_db(db.strip()))
    for secret in _passwords(db):
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", "***", text)
    return text


def readable_url(db: str) -> bool:
    """Whether a database URL can be read at all (a port that is not a number cannot)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        make_url(db.strip())
    except ArgumentError:
        return True  # the store says why, in its own sentence
    except ValueError:
        return False
    return True
