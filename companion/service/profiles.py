"""Player profiles: rename one, merge two (a typo made two "Anne"s), remove one who never sat at
a table. Each is one write transaction that leaves the history right:

- a game's record keeps the names written at the table (``seats.name``): a past game replays and
  exports exactly as it was played, whatever its players are called now;
- lists and statistics follow the profile (``seats.player_id``, ``results.player_id``): after a
  rename they show the new name, after a merge the two profiles' games and results are one.

A new name follows the shared rules of ``models/names.py``, like a name added or seated at a
table: kept as :func:`models.names.normal_name` gives it back (NFKC, trimmed, inner spaces made
one, no control or invisible character, at most ``MAX_LENGTH`` characters), not another profile's
name by :func:`models.names.known_as` (case, Unicode composition and NFKC forms aside), and not one
that could be taken for another profile's (:func:`models.names.check_new_name`: a look-alike,
named; letters of two alphabets; stacked accents). A profile given its own name again is left as
it is, even a name saved before these rules.

The service's part ``service.profiles`` (:class:`Profiles`; ``service.players()`` lists them),
given the store, the service's lock and its cache of live sessions (a merge empties it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from companion.service.errors import STORAGE_ERRORS, Malformed, ServiceError, storage_error
from companion.service.live import Live
from companion.service.states import PlayerProfile, utc
from companion.store import Store, profiles
from models.i18n import Msg
from models.names import BadName, check_new_name, known_as, normal_name
from models.tables import Player


def clean_name(name: object) -> str:
    """The name as a profile keeps it, or Malformed saying what is wrong with it (the same rules
    and sentences as :meth:`Sessions.add_player`)."""
    try:
        return normal_name(name if name is not None else "")
    except BadName as err:
        raise Malformed(Msg("service.player.blank") if err.msg.key == "name.blank" else err.msg) from None


class Profiles:
    """Renaming, merging and removing profiles, ``service.profiles``."""

    def __init__(self, store: Store, lock: threading.RLock, cache: OrderedDict[int, Live]):
        self.store = store
        self._lock = lock
        self._cache = cache  # the service's live sessions

    def rename(self, player_id: int, new_name: str) -> PlayerProfile:
        """Give a profile another name. Past games keep the names of their records; the history
        and the statistics show the new one."""
        name = clean_name(new_name)
        with self._lock:
            try:
                with self.store.write() as db:
                    self.store.lock_names(db, [name])
                    player = self._profile_row(db, player_id)
                    others = profiles.other_names(db, player_id)
                    same = known_as(name, others)
                    if same is not None:
                        raise ServiceError(Msg("service.player.duplicate", {"name": same}))
                    if name != player.name:
                        try:
                            check_new_name(name, others)
                        except BadName as err:
                            raise Malformed(err.msg) from None
                    profiles.rename(db, player_id, name)
                    created = player.created_at
            except IntegrityError:
                raise ServiceError(Msg("service.player.duplicate", {"name": name})) from None
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return PlayerProfile(player_id, name, utc(created))

    def merge(self, source_id: int, target_id: int) -> PlayerProfile:
        """Fold profile ``source_id`` into ``target_id``: every seat and result of the source
        becomes the target's, and the source profile goes. Refused when both sat at the same
        game (they were two people there). Past games still replay under their records' names."""
        if source_id == target_id:
            raise ServiceError(Msg("service.players.merge_same"))
        with self._lock:
            try:
                with self.store.write() as db:
                    source = self._profile_row(db, source_id)
                    target = self._profile_row(db, target_id)
                    shared = profiles.game_together(db, source_id, target_id)
                    if shared is not None:
                        raise ServiceError(Msg("service.players.merge_together", {
                            "a": source.name, "b": target.name, "session": shared}))
                    # both profiles' ratings, from the first game the source was rated in (a
                    # rename changes none: the rows know the profile by id)
                    starts = self.store.ratings.player_starts(db, [source_id])
                    profiles.move_games(db, source_id, target_id, source.name)
                    self.store.rebuild_player_months(db, [source_id, target_id])
                    # after the months' locks (the ratings' are taken last): the source's rows go,
                    # the target's count its games too
                    self.store.ratings.rerate(db, starts)
                    profiles.delete(db, source_id)
                    profile = PlayerProfile(target_id, target.name, utc(target.created_at))
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
            self._cache.clear()  # cached games know their players by profile id
        return profile

    def remove(self, player_id: int) -> PlayerProfile:
        """Remove a profile that never sat at a table; one with games is refused (merge it
        into another profile instead)."""
        with self._lock:
            try:
                with self.store.write() as db:
                    player = self._profile_row(db, player_id)
                    games = profiles.games_of(db, player_id)
                    if games:
                        raise ServiceError(Msg("service.players.has_games", {"name": player.name, "count": games}))
                    profiles.delete(db, player_id)
                    removed = PlayerProfile(player_id, player.name, utc(player.created_at))
            except STORAGE_ERRORS as err:
                raise storage_error(err) from err
        return removed

    def _profile_row(self, db: Session, player_id: int) -> Player:
        player = profiles.profile(db, player_id)
        if player is None:
            raise ServiceError(Msg("service.players.unknown_id", {"id": player_id}))
        return player
