"""A club's view of the shared history: the table names present in the database and the season
league table of one game, over a period and a table (the SQL over the summaries and results rows
is the store's, :mod:`companion.store.club`; never a replay); and what a table name may be. The
service's part ``service.club`` (:class:`Club`), given the service's reads."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from companion.service.errors import STORAGE_ERRORS, Malformed, ServiceError, storage_error
from companion.service.live import Read
from companion.service.states import utc
from companion.store import club
from companion.store.club import NO_TABLE, League
from models.i18n import Msg
from models.names import BadName, check_new_name, clean_name, normal_name
from scoring.registry import refereed_games

__all__ = ["NO_TABLE", "BadTableName", "Club", "League", "checked_table", "clean_table_name", "new_table_name"]


class BadTableName(ValueError):
    """A table name that cannot be kept; ``msg`` says why (catalogue keys ``service.table.*``)."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(msg.render("en"))


def clean_table_name(name: object) -> str | None:
    """A table's name as it is kept, by the rules of player names (trimmed, inner spaces made one,
    no control or invisible character, at most 40 characters); None for no name (empty text)."""
    if name is None or (isinstance(name, str) and not name.strip()):
        return None
    try:
        return clean_name(name)
    except BadName as err:
        raise _table_refusal(err) from None


def new_table_name(name: str, known: Sequence[str]) -> str:
    """A table name that is not one of ``known`` (the table names of the database) checked as a new
    name (:func:`models.names.check_new_name`): kept in NFKC (« Ｔａｂｌｅ 1 » is « Table 1 », which may
    then be a known one), refused when it looks like a known one (naming it), mixes alphabets or
    stacks accents. ``name`` as :func:`clean_table_name` gave it."""
    try:
        normal = normal_name(name)
        if normal not in known:
            check_new_name(normal, known)
    except BadName as err:
        raise _table_refusal(err) from None
    return normal


_TABLE_KEYS = {key: f"service.table.{key.removeprefix('name.')}"
               for key in ("name.control", "name.too_long", "name.marks", "name.look_alike", "name.mixed_scripts")}


def _table_refusal(err: BadName) -> BadTableName:
    """A player name's refusal in a table name's words (``service.table.*``)."""
    return BadTableName(Msg(_TABLE_KEYS.get(err.msg.key, "service.table.not_text"), err.msg.params))


def checked_table(name: object, known: Sequence[str] | None = None) -> str | None:
    """A table name by the rules of names (None: no name); Malformed says what is wrong. With
    ``known`` (the table names of the database), a name that is not one of them is a new one:
    kept in NFKC and refused when it looks like one of them (naming it), mixes alphabets or stacks
    accents; a known name, saved before these rules, stays as it is."""
    try:
        clean = clean_table_name(name)
        if clean is None or known is None or clean in known:
            return clean
        return new_table_name(clean, known)
    except BadTableName as err:
        raise Malformed(err.msg) from None


class Club:
    """A club's tables and league, ``service.club``."""

    def __init__(self, read: Read):
        self._read = read

    def check_table_name(self, name: object) -> str | None:
        """The name a table (this tablet) would keep (None: no name), checked against the table
        names of the database (:func:`checked_table`): the home field's check, before any game."""
        clean = checked_table(name)
        return clean if clean is None else checked_table(clean, self.table_names()[0])

    def table_names(self) -> tuple[list[str], bool]:
        """(every table name a game of the database was started at, sorted; whether some games
        were started at a tablet with no name)."""
        try:
            with self._read() as db:
                return club.table_names(db)
        except STORAGE_ERRORS as err:
            raise storage_error(err) from err

    def league_games(self, since: datetime | None = None, until: datetime | None = None,
                     table: str | None = None) -> list[tuple[str, int]]:
        """(game, finished games) played in the period (at the table), most played first."""
        try:
            with self._read() as db:
                return club.league_games(db, _period(since, until), table)
        except STORAGE_ERRORS as err:
            raise storage_error(err) from err

    def league(self, game: str, since: datetime | None = None, until: datetime | None = None,
               table: str | None = None, offset: int = 0, limit: int = club.LEAGUE_LIMIT) -> League:
        """A page of ``game``'s league table over the finished games started in [since, until)
        (at ``table``): games, wins, points (``n − place`` per game) and average place per player,
        best first. ``limit`` is at most 500 rows."""
        if game not in refereed_games():
            raise ServiceError(Msg("service.no_referee", {"game": game}))
        try:
            with self._read() as db:
                return club.league(db, game, _period(since, until), table, offset, min(500, max(1, int(limit))))
        except STORAGE_ERRORS as err:
            raise storage_error(err) from err


def _period(since: datetime | None, until: datetime | None) -> club.Period:
    return (None if since is None else utc(since), None if until is None else utc(until))
