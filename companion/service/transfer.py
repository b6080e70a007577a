"""Records in and out: export sessions as table records (table-record/1), import one record or a
list of them — all checked before anything is written, all written in one transaction. The
service's part ``service.transfer`` (:class:`Transfer`), given the store, the service's reads, its
lock and its clock."""

from __future__ import annotations

import json
import threading
from typing import Any, BinaryIO

from companion.files import READ_LIMIT, Unreadable, read_file
from companion.service.errors import (
    STORAGE_ERRORS,
    Malformed,
    NotKept,
    Refused,
    storage_error,
    unknown_session,
)
from companion.service.live import Clock, Read
from companion.service.records import Kept, kept, lost, refereed_actions
from companion.service.replay import fold, result_rows
from companion.store import NewGame, Store
from models.i18n import Msg, in_words
from models.names import BadName, check_new_name, find_same
from models.record import RECORD_FORMAT, MalformedRecord, load_json, parse_record_data
from models.tables import GameSession
from scoring.base import Outcome
from scoring.referee import NoReferee

IMPORT_LIMIT = READ_LIMIT
ID_LIMIT = 2**63  # SQLite cannot even be asked about a row id out of 64 bits (OverflowError, not an answer)
ImportUnreadable = Unreadable  # a file ``import`` will not read; nothing was written


def read_import(path: str, stdin: BinaryIO | None = None, limit: int = IMPORT_LIMIT) -> bytes:
    """The bytes of a file to import (``-``: ``stdin``): a regular file only, read with a size
    limit (companion.files). OSError for a file that cannot be opened."""
    return read_file(path, stdin, limit)


class Transfer:
    """Table records out and in, ``service.transfer``."""

    def __init__(self, store: Store, read: Read, lock: threading.RLock, now: Clock):
        self.store = store
        self._read = read
        self._lock = lock
        self._now = now

    def export(self, session_id: int | None = None) -> list[dict[str, Any]]:
        """Table records (table-record/1) of one session or of all, oldest first."""
        if session_id is not None and not -ID_LIMIT <= session_id < ID_LIMIT:
            raise unknown_session(session_id)  # no row has it: the database cannot even be asked (a number typed)
        with self._read() as db:
            ids = self.store.session_ids(db) if session_id is None else [session_id]
            out = []
            for sid in ids:
                row = self.store.session(db, sid)
                if row is None:
                    raise unknown_session(sid)
                record: dict[str, Any] = {"format": RECORD_FORMAT, "game": row.game}
                variant = json.loads(row.variant)
                if variant:
                    record["variant"] = variant
                record["players"] = self.store.seat_names(db, sid)
                record["first_player"] = row.first_player
                if row.setup:
                    record.update(json.loads(row.setup))
                record["actions"] = [json.loads(a.action) for a in self.store.active_actions(db, sid)]
                out.append(record)
            return out

    def import_records(self, text: str | bytes) -> list[int]:
        """Import one record or a list of records. Everything is checked first (models, a replay
        of each, and that what would be stored reads back as the same record); one bad record and
        nothing is written. Returns the new session ids."""
        try:
            data = load_json(text)  # refuses repeated keys and nesting too deep to read
        except MalformedRecord as err:
            raise Malformed(Msg("service.import.not_json", {"detail": err.msg})) from None
        items = [data] if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise Malformed(Msg("service.import.not_records"))
        if not items:
            raise Malformed(Msg("service.import.empty"))
        now = self._now()
        checked: list[tuple[Kept, GameSession, Outcome | None]] = []
        with self._read() as db:
            known = [p.name for p in self.store.players(db)]
        for number, item in enumerate(items):
            try:
                record = parse_record_data(item, decoded=True)  # from load_json
                folded = fold(record, refereed_actions(record))
            except NoReferee:
                raise Malformed(Msg("service.import.no_referee", {"record": number + 1, "game": item.get("game")}),
                                record=number) from None
            except MalformedRecord as err:
                raise Malformed(Msg("service.import.malformed", {"record": number + 1, "detail": err.msg}),
                                index=err.index, record=number) from None
            if folded.violation is not None:
                v = folded.violation
                assert folded.index is not None
                raise Refused(v.rule, Msg("service.import.illegal", {"record": number + 1, "entry": folded.index + 1,
                                                                     "rule": v.rule, "reason": in_words(record.game, v.msg)}),
                              folded.index, record=number)
            # An accepted import must replay to the same record: read back what would be stored.
            rows = kept(record, False, now)
            row = self.store.session_row(**rows.row)  # checked here, written below
            missing = lost(record, rows, row)
            if missing:
                raise NotKept(Msg("service.import.not_kept", {"record": number + 1, "fields": ", ".join(missing)}),
                              missing, record=number)
            for name in rows.players:  # "anne" is the saved Anne: never a second profile
                same = find_same(name, known)
                if same is not None and same != name:
                    raise Malformed(Msg("service.import.name_spelling", {"record": number + 1, "name": name,
                                                                         "known": same}), record=number)
                if same is None:  # a new profile: the rules of a new name (a saved one came in as it is)
                    try:
                        check_new_name(name, known)
                    except BadName as err:
                        raise Malformed(Msg("service.import.new_name", {"record": number + 1, "detail": err.msg}),
                                        record=number) from None
                    known.append(name)
            # the outcome, not the replay's engine and log: a file's worth of them is only garbage
            checked.append((rows, row, folded.engine.outcome()))
        with self._lock:
            try:
                with self.store.write() as db:
                    # every profile at once (PostgreSQL: the names' locks taken together, in order),
                    # then every game's rows in a few statements, then the summaries and the
                    # monthly figures once per month and game imported, not once per game
                    names = list(dict.fromkeys(name for rows, _, _ in checked for name in rows.players))
                    profiles = self.store.ensure_players(db, names, now)
                    games = []
                    for rows, row, outcome in checked:
                        player_ids = {name: profiles[name] for name in rows.players}
                        games.append(NewGame(
                            row=row, player_ids=list(player_ids.values()),
                            actions=rows.actions,
                            results=None if outcome is None else result_rows(outcome, player_ids)))
                    ids = self.store.add_games(db, games, now)
                    self.store.refresh_game_months(db, ids)
                    self.store.ratings.rerate_sessions(db, ids)  # from the first game they touch
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return ids
