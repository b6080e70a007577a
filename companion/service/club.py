"""A club's view of the shared history (:mod:`companion.club`): the table names present in the
database and the season league table of one game, over a period and a table. SQL over the
summaries and results rows; never a replay."""

from __future__ import annotations

from datetime import datetime

from companion import club
from companion.club import BadTableName, League, clean_table_name
from companion.service.errors import STORAGE_ERRORS, Malformed, ServiceError, storage_error
from companion.service.live import ServiceCore
from companion.service.states import utc
from models.i18n import Msg
from scoring.registry import refereed_games


def checked_table(name: object) -> str | None:
    """A table name by the rules of names (None: no name); Malformed says what is wrong."""
    try:
        return clean_table_name(name)
    except BadTableName as err:
        raise Malformed(err.msg) from None


class Club(ServiceCore):
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
