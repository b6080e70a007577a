"""A session's lifecycle, and the players who sit at the table: add a player, start a game,
open it (from the cache or the database), delete it, and repair the results rows of finished
games saved before the results table existed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from companion.service.errors import (
    STORAGE_ERRORS,
    Malformed,
    NotKept,
    ServiceError,
    storage_error,
    unknown_session,
)
from companion.service.live import Live, ServiceCore
from companion.service.records import ENVELOPE_COLUMNS, kept, lost, stored_record
from companion.service.replay import result_rows
from companion.service.states import PlayerProfile, SessionState, utc
from companion.store.club import set_table, table_names
from models.i18n import Msg
from models.names import BadName, check_distinct, check_new_name, clean_name, known_as, normal_name
from models.record import RECORD_FORMAT, MalformedRecord, parse_record_data
from models.tables import Player
from scoring.referee import NoReferee, new_engine


class Sessions(ServiceCore):
    def repair_results(self) -> list[int]:
        """Write the missing results rows of finished games (a database from before migration
        0002 has none) by replaying them once. Returns the sessions repaired."""
        with self._read() as db:
            missing = self.store.finished_without_results(db)
        repaired = []
        for session_id in missing:
            with self._lock:
                try:
                    live = self._live(session_id)
                except ServiceError:
                    continue  # not replayable here: opening it will say why
                outcome = live.engine.outcome()
                if outcome is None:
                    continue
                try:
                    with self.store.write() as db:
                        self.store.write_results(db, session_id, result_rows(outcome, live.player_ids))
                        self.store.refresh_summary(db, session_id)
                        self.store.ratings.rerate_sessions(db, [session_id])
                except STORAGE_ERRORS:
                    continue
                repaired.append(session_id)
        return repaired

    # -- players --------------------------------------------------------------------------------

    def players(self) -> list[PlayerProfile]:
        with self._read() as db:
            return [_profile(p) for p in self.store.players(db)]

    def add_player(self, name: str) -> PlayerProfile:
        """A new profile: its name in NFKC (« Ｌｏｕ » is « Lou »), refused when it is a saved
        player's (``service.player.duplicate``) or could be taken for one (``name.look_alike``,
        naming them; ``name.mixed_scripts``, ``name.marks``: :func:`models.names.check_new_name`)."""
        try:
            clean = normal_name(name if name is not None else "")
        except BadName as err:
            raise Malformed(Msg("service.player.blank") if err.msg.key == "name.blank" else err.msg) from None
        with self._lock:
            try:
                with self.store.write() as db:
                    self.store.lock_names(db, [clean])
                    saved = [p.name for p in self.store.players(db)]
                    same = known_as(clean, saved)
                    if same is not None:
                        raise ServiceError(Msg("service.player.duplicate", {"name": same}))
                    try:
                        check_new_name(clean, saved)
                    except BadName as err:
                        raise Malformed(err.msg) from None
                    player = self.store.add_player(db, clean, self._now())
            except IntegrityError:  # another process added the same name in between
                raise ServiceError(Msg("service.player.duplicate", {"name": clean})) from None
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return _profile(player)

    # -- starting, opening, deleting ------------------------------------------------------------

    def start(self, game: str, players: Sequence[str], first_player: str | None = None,
              variant: dict[str, Any] | None = None, assist: bool = False, *,
              setup: dict[str, Any] | None = None, table: str | None = None) -> SessionState:
        """``setup``: the record envelope's optional set-up fields for this game, e.g. the
        Boursicocotte short version's deal ``{"start_animals": {"Anne": ["cow", …], …}}``; the
        record models check them like the rest. ``table``: the name of the table (the tablet) the
        game is started at, kept with it for a club's history (None: the tablet has no name).

        A name that is a saved player's (by :func:`models.names.known_as`: capitals and NFKC forms
        aside) is that player, as saved, whatever today's rules say of it; any other is a new
        player, kept in NFKC and checked (:func:`models.names.check_new_name`) against every saved
        name and the other names of this game. Likewise ``table``: a table name of the database
        stays as it is, a new one is checked against them (:func:`checked_table`)."""
        from companion.service.club import checked_table

        table = checked_table(table)
        if not isinstance(players, (list, tuple)):  # not a list of names: the record's own sentence says so
            try:
                parse_record_data({"format": RECORD_FORMAT, "game": game, "players": players, "actions": []})
            except (MalformedRecord, NoReferee) as err:
                raise Malformed(Msg("service.setup.malformed", {"detail": err.msg})) from None
        try:
            typed = [clean_name(n) for n in players]
            check_distinct(typed)
            first = clean_name(first_player) if first_player is not None else None
        except BadName as err:
            raise Malformed(Msg("service.setup.malformed", {"detail": err.msg})) from None
        with self._read() as db:
            profiles = [p.name for p in self.store.players(db)]
            if table is not None:
                table = checked_table(table, table_names(db)[0])
        try:
            # a name typed with other capitals (or in fullwidth) than a saved profile's is that profile
            names = [known_as(n, profiles) or normal_name(n) for n in typed]
            check_distinct(names, typed)
            for i, name in enumerate(names):
                if name not in profiles:
                    check_new_name(name, [*profiles, *names[:i], *names[i + 1:]])
        except BadName as err:
            raise Malformed(Msg("service.setup.malformed", {"detail": err.msg})) from None
        envelope: dict[str, Any] = {"format": RECORD_FORMAT, "game": game, "players": names, "actions": []}
        if first is not None:
            envelope["first_player"] = known_as(first, names) or first
        if variant is not None:
            envelope["variant"] = variant
        if setup is not None:
            if not isinstance(setup, dict):
                raise Malformed(Msg("service.setup.not_fields"))
            for key in setup:
                if key in ENVELOPE_COLUMNS:
                    raise Malformed(Msg("service.setup.reserved", {"field": key}))
            envelope = {**envelope, **setup}
        try:
            record = parse_record_data(envelope)
            engine = new_engine(record)
        except NoReferee:
            raise ServiceError(Msg("service.no_referee", {"game": game})) from None
        except MalformedRecord as err:
            raise Malformed(Msg("service.setup.malformed", {"detail": err.msg})) from None
        now = self._now()
        rows = kept(record, bool(assist), now)
        missing = lost(record, rows)
        if missing:
            raise NotKept(Msg("service.setup.not_kept", {"fields": ", ".join(missing)}), missing)
        # the same canonical envelope as a session read back from the database
        record = stored_record(self.store.session_row(**rows.row), rows.players, [])
        with self._lock:
            try:
                with self.store.write() as db:
                    ids = self.store.ensure_players(db, rows.players, now)
                    row = self.store.create_session(db, **rows.row, player_ids=[ids[n] for n in rows.players])
                    if table is not None:
                        assert row.id is not None
                        set_table(db, row.id, table)
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
            assert row.id is not None  # the database gave it one
            live = Live(session_id=row.id, game=game, variant=rows.row["variant"], players=tuple(record.players),
                        player_ids=ids, first_player=record.starting_player, assist=bool(assist),
                        started_at=now, updated_at=now, base=record, engine=engine)
            self._remember(live)
            return self._state(live)

    def open(self, session_id: int) -> SessionState:
        with self._lock:
            return self._state(self._fresh_live(session_id))  # as the database has it, even if another process wrote

    def delete(self, session_id: int) -> None:
        with self._lock:
            try:
                with self.store.write() as db:
                    starts = self.store.ratings.starts(db, [session_id])  # its rows go with it
                    if not self.store.delete_session(db, session_id):
                        raise unknown_session(session_id)
                    self.store.ratings.rerate(db, starts)  # the games after it, rated without it
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
            finally:
                self._forget(session_id)


def _profile(player: Player) -> PlayerProfile:
    assert player.id is not None  # a row read from, or just written to, the database
    return PlayerProfile(player.id, player.name, utc(player.created_at))
