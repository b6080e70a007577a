"""What the service refuses to do, and why: every error carries a :class:`models.i18n.Msg`
(``.msg``) that the app renders in the table's language."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from sqlalchemy.exc import SQLAlchemyError

from companion.service.states import SessionState
from companion.store import is_disconnect
from models.i18n import Msg

try:
    from psycopg import Error as _PsycopgError
except ImportError:  # the PostgreSQL driver is not installed: no server's database is used
    class _PsycopgError(Exception):  # type: ignore[no-redef]
        pass

# what a failing database raises: the store runs its fixed statements on the driver's cursor, whose
# errors are the driver's own (sqlite3's, psycopg's on a server), and everything else through SQLAlchemy
STORAGE_ERRORS = (SQLAlchemyError, sqlite3.Error, _PsycopgError)



def _english(msg: Msg) -> str:
    try:
        return msg.render("en")
    except Exception:  # a missing catalogue text must not hide the error itself
        return f"{msg.key} {dict(msg.params)}"


class ServiceError(Exception):
    """Anything the service refuses to do; ``msg`` says why, in any language."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(_english(msg))


class Refused(ServiceError):
    """The rules refuse an entry. ``index`` is the entry's 0-based place in the record, ``rule``
    the id in the rules reference. ``record`` is the 0-based record number on import, else None."""

    def __init__(self, rule: str, msg: Msg, index: int | None, record: int | None = None):
        self.rule = rule
        self.index = index
        self.record = record
        super().__init__(msg)


class Malformed(ServiceError):
    """The data is not a valid action, game set-up or record. ``index``: the action at fault,
    if known; ``record``: the 0-based record number on import."""

    def __init__(self, msg: Msg, index: int | None = None, record: int | None = None):
        self.index = index
        self.record = record
        super().__init__(msg)


class NotKept(ServiceError):
    """A record the store would not give back whole (an envelope field it has no place for):
    refused before anything is written. ``record``: the 0-based record number on import, else
    None; ``fields``: the envelope fields that would change."""

    def __init__(self, msg: Msg, fields: Sequence[str], record: int | None = None):
        self.fields = tuple(fields)
        self.record = record
        super().__init__(msg)


class CorrectionConflict(ServiceError):
    """A correction would make a later entry illegal: ``index`` is that entry, ``rule`` and
    ``reason`` (the rule's own sentence) say why; ``msg`` is the whole sentence to show."""

    def __init__(self, index: int, rule: str, msg: Msg, reason: Msg):
        self.index = index
        self.rule = rule
        self.reason = reason
        super().__init__(msg)


class GameChanged(ServiceError):
    """The game changed on another device since this one showed it: the entry, undo or
    correction was made on a state that is no longer the game's, so nothing was written.
    ``state`` is the game as it is now, for the device to show instead; ``seen`` is the version
    the device had shown (:attr:`SessionState.version`)."""

    def __init__(self, state: SessionState, seen: int, msg: Msg | None = None):
        self.state = state
        self.seen = seen
        super().__init__(msg or Msg("service.changed"))


class Offline(ServiceError):
    """The club's server cannot be reached (no connection, or the one in use was lost): nothing was
    written and nothing is acknowledged; what was acknowledged before is kept on the server. ``msg``
    says what was not done (an entry, an undo, a correction, or any other call)."""

    def __init__(self, msg: Msg | None = None):
        super().__init__(msg or Msg("service.offline"))


class Stale(Exception):
    """The database moved on behind the cache (another process wrote to the session)."""


def unknown_session(session_id: object) -> ServiceError:
    return ServiceError(Msg("service.session.unknown", {"session": session_id}))


def storage_error(err: Exception, offline: str = "service.offline") -> ServiceError:
    """The ServiceError for a failing database: :class:`Offline` (with the message ``offline``)
    when the server cannot be reached, else the storage failure with the database's reason."""
    if is_disconnect(err):
        return Offline(Msg(offline))
    detail = str(getattr(err, "orig", None) or err).splitlines()[0]
    return ServiceError(Msg("service.storage.failed", {"detail": detail}))
