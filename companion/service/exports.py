"""Finished games out of the app, with the history's figures and filters: one CSV row per player
per game for a spreadsheet, and BG Stats' push-a-play JSON and link (:mod:`.bgstats`). The
service's part ``service.exports`` (:class:`Exports`), given the store, the service's reads and
its history part (the games it lists)."""

from __future__ import annotations

import csv
import io
from datetime import datetime, tzinfo
from typing import Any

from companion.service import bgstats
from companion.service.history import History
from companion.service.live import Read
from companion.service.states import SessionSummary
from companion.store import Store
from companion.store.evenings import evening_of
from models.i18n import Msg, has_text, render
from models.tables import STATUS_FINISHED

CSV_COLUMNS = ("date", "game", "table", "evening", "player", "score", "place", "winner", "out", "duration")
# what a spreadsheet takes for the start of a formula in a text cell (OWASP's "CSV injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def game_name(game: str, lang: str) -> str:
    key = f"game.{game}.name"
    return render(Msg(key), lang) if has_text(key, lang) else game


class Exports:
    """Finished games as CSV and BG Stats plays, ``service.exports``."""

    def __init__(self, store: Store, read: Read, history: History):
        self.store = store
        self._read = read
        self.history = history

    def finished(self, session_id: int | None = None, **filters: Any) -> list[SessionSummary]:
        """The finished games the history lists with these filters (``game``, ``player``,
        ``since``, ``until``, ``table``), oldest first; or the one game ``session_id``."""
        if session_id is not None:
            found = [self.history.summary(session_id)]
        else:
            found = self.history.all(status=STATUS_FINISHED, **filters)[::-1]
        return [s for s in found if s.status == STATUS_FINISHED]

    def bgstats_plays(self, session_id: int | None = None, *, lang: str = "fr", tz: tzinfo | None = None,
                      **filters: Any) -> list[dict[str, Any]]:
        """BG Stats' push-a-play JSON of each finished game (see :mod:`.bgstats`), oldest first."""
        games = self.finished(session_id, **filters)
        with self._read() as db:
            own = self.store.store_id(db)
            kept = {}
            for s in games:
                row = self.store.session(db, s.session_id)
                assert row is not None
                names = [name for name, _ in self.store.seat_players(db, s.session_id)]
                kept[s.session_id] = (row.origin or f"{own}/{s.session_id}", names.index(row.first_player)
                                      if row.first_player in names else -1)
        plays = []
        for s in games:
            stable, first = kept[s.session_id]
            seats = [bgstats.PlayedSeat(x.name, 0 if x.score is None else x.score, x.place or 0, x.winner, i == first)
                     for i, x in enumerate(s.seats)]
            plays.append(bgstats.play(bgstats.PlayedGame(stable, s.game, game_name(s.game, lang), s.started_at,
                                                         s.duration_s, s.table_name, seats), tz))
        return plays

    def csv_text(self, *, lang: str = "fr", tz: tzinfo | None = None, **filters: Any) -> str:
        """One row per player per finished game, oldest game first, players in seating order:
        the start (local time), the game, the table, the club evening (its name, or nothing), the
        player, score, place, winner (1 or 0),
        minutes played — the history's figures. A header in ``lang``. A text cell a spreadsheet
        would run as a formula is written as text (:func:`csv_cell`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([render(Msg(f"export.csv.{c}"), lang) for c in CSV_COLUMNS])
        games = self.finished(**filters)
        with self._read() as db:
            evenings = evening_of(db, [s.session_id for s in games])
        for s in games:
            evening = evenings[s.session_id][1] if s.session_id in evenings else ""
            for seat in s.seats:
                writer.writerow([csv_cell(v) for v in (
                    _local(s.started_at, tz), game_name(s.game, lang), s.table_name or "", evening, seat.name,
                    seat.score, seat.place, int(seat.winner), int(seat.out), round(s.duration_s / 60))])
        return out.getvalue()


def csv_cell(value: Any) -> Any:
    """A cell as the CSV export writes it: a text a spreadsheet would run as a formula (a player's
    or a table's name such as ``=HYPERLINK(…)``, ``-2+3``, ``@SUM(1)``) with an apostrophe before
    it, so the spreadsheet shows it as text; numbers (a score of -10) and other texts unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _local(moment: datetime, tz: tzinfo | None) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")
