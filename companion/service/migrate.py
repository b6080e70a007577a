"""`companion migrate`: copy a tablet's history (its SQLite file) into a club's database.

What a copied game keeps: its sessions row (game, variant, set-up, first player, assist, status,
times, abandoned mark, table name), its seats with the names its record uses, its whole action
log with the retracted entries (disputes), and its results; the summaries and monthly figures are
refreshed for what was added. Players are matched by name, case ignored (:mod:`models.names`):
the tablet's "anne" sits in the club's copy as the club's profile "Anne" (the seat keeps "anne",
the name the record uses); a name the club does not know becomes a new profile.

- **Read only**: the source file is opened read-only (``mode=ro``, or ``immutable`` when it has no
  write-ahead log beside it, so not even a ``-wal``/``-shm`` file is created) and read in one
  transaction; it must be a database of this app at revision 0005 or later and not newer than
  this version (an older one has no identity yet: opening it once with the app upgrades it).
- **Checked first**: every game to be written is replayed by its engine, and its saved status
  must be what the replay gives; a game that does not replay is refused (reported, not written).
- **One transaction**: everything is written in one write transaction of the destination, read
  back inside it and compared with the source before the commit; any failure and nothing is
  written.
- **Idempotent**: a copied game's ``sessions.origin`` is ``<source store id>/<source session
  id>`` (a game the source had itself copied from elsewhere keeps its first origin, so copying
  a copy adds nothing either). A game whose origin the destination has is not copied again.
- **A game continued on the tablet after it was copied** (more entries, or entries undone or
  corrected there): the club's copy is brought up to date when it is an earlier state of the
  tablet's game — every one of its entries is still in the tablet's log, at the same place, with
  the same text and time, retracted there only if the tablet retracted it, and nobody changed it
  at the club (no entry made, undone or corrected there, no abandoned mark the tablet does not
  have). Then the new entries are appended, the entries the tablet retracted since are marked
  retracted, and the status, times and results follow the tablet. Otherwise the two copies have
  gone different ways: the game is reported as a conflict and the club's copy is left as it is
  (nothing is merged by guess). A game deleted at the club since it was copied is copied again.
- Only the profiles of games written come across (a tablet profile with no game stays behind).
- **Two at once** (PostgreSQL, two tablets copied into one club database by two members): the
  profiles are decided under locks on the names' keys (:meth:`companion.store.Store.lock_names`), so a player both
  tablets know is one profile, whatever the spelling on each.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from alembic.script import ScriptDirectory
from sqlmodel import Session

from companion.service.errors import STORAGE_ERRORS
from companion.service.live import because, decoded_actions
from companion.service.records import columns_record, refereed_actions
from companion.service.replay import fold, result_rows
from companion.store import SQLITE_MAGIC, ClubGame, SourceGame, Store, alembic_config, known_revisions
from companion.store.connection import sqlite_intact, sqlite_schema
from companion.store.copies import open_tablet, tablet_games, tablet_store_id
from models.i18n import Msg, has_text, in_words
from models.names import name_key
from models.record import MalformedRecord
from models.tables import STATUS_FINISHED
from scoring.referee import NoReferee

FIRST_REVISION = "0005"  # the first revision whose databases have an identity (store_info.store_id)


class MigrationUnusable(Exception):
    """The source or the destination cannot be used (``msg`` says why); nothing was written."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(msg.render("en"))


# -- what is read from the source ---------------------------------------------------------------


@dataclass
class Source:
    path: Path
    store_id: str
    players: dict[int, tuple[str, datetime]]  # source profile id → (name, created_at)
    games: list[SourceGame]


# -- the report ----------------------------------------------------------------------------------


@dataclass
class Report:
    """What a migration did. ``copied``/``updated``/``already``: (source session id, club session
    id); ``updated`` with the number of entries added; ``conflicts`` and ``refused``: (source
    session id, game, reason); ``matched``: (the tablet's name, the club's name) of profiles the
    club had; ``created``: the names of the profiles created."""

    source: str
    target: str
    copied: list[tuple[int, int]] = field(default_factory=list)
    updated: list[tuple[int, int, int]] = field(default_factory=list)
    already: list[tuple[int, int]] = field(default_factory=list)
    conflicts: list[tuple[int, str, Msg]] = field(default_factory=list)
    refused: list[tuple[int, str, Msg]] = field(default_factory=list)
    matched: list[tuple[str, str]] = field(default_factory=list)
    created: list[str] = field(default_factory=list)

    @property
    def problems(self) -> bool:
        return bool(self.conflicts or self.refused)

    def lines(self) -> list[Msg]:
        out = [Msg("migrate.report.head", {"source": self.source, "target": self.target}),
               Msg("migrate.report.copied", {"count": len(self.copied)})]
        if self.updated:
            out.append(Msg("migrate.report.updated", {"count": len(self.updated),
                                                      "entries": sum(n for _, _, n in self.updated)}))
        out.append(Msg("migrate.report.already", {"count": len(self.already)}))
        for session, game, reason in self.conflicts:
            out.append(Msg("migrate.report.conflict", {"session": session, "game": _game_name(game), "reason": reason}))
        for session, game, reason in self.refused:
            out.append(Msg("migrate.report.refused", {"session": session, "game": _game_name(game), "reason": reason}))
        if self.matched:
            names = [club if tablet == club else Msg("migrate.report.spelling", {"name": tablet, "other": club})
                     for tablet, club in self.matched]
            out.append(Msg("migrate.report.matched", {"count": len(self.matched), "names": names}))
        else:
            out.append(Msg("migrate.report.matched_none"))
        if self.created:
            out.append(Msg("migrate.report.created", {"count": len(self.created), "names": self.created}))
        else:
            out.append(Msg("migrate.report.created_none"))
        if self.problems:
            out.append(Msg("migrate.report.problems", {"count": len(self.conflicts) + len(self.refused)}))
        return out

    def render(self, lang: str) -> str:
        return "\n".join(m.render(lang) for m in self.lines())


def _game_name(game: str) -> Msg | str:
    return Msg(f"game.{game}.name") if has_text(f"game.{game}.name", "en") else game


# -- reading the source, read-only -----------------------------------------------------------------


def _accepted_revisions() -> list[str]:
    """The revisions a source may be at: 0005 (the first with an identity) up to this version's head."""
    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in script.iterate_revisions("heads", FIRST_REVISION, inclusive=True)]


def read_source(path: str | os.PathLike[str]) -> Source:
    """Everything to copy from the tablet's file, read in one read-only transaction. Raises
    MigrationUnusable when it is not a database of this app, or one this version cannot read."""
    where = {"path": str(path)}
    source = Path(os.path.abspath(Path(path).expanduser()))
    try:
        mode = os.stat(source).st_mode
    except FileNotFoundError:
        raise MigrationUnusable(Msg("migrate.source.missing", where)) from None
    except OSError as err:
        raise MigrationUnusable(Msg("store.unreadable", {**where, "detail": err.strerror or str(err)})) from None
    if stat.S_ISDIR(mode):
        raise MigrationUnusable(Msg("store.directory", where))
    if not stat.S_ISREG(mode):
        raise MigrationUnusable(Msg("store.not_a_file", where))
    try:
        with source.open("rb") as f:
            header = f.read(100)
    except OSError as err:
        raise MigrationUnusable(Msg("store.unreadable", {**where, "detail": err.strerror or str(err)})) from None
    if not header.startswith(SQLITE_MAGIC):
        raise MigrationUnusable(Msg("migrate.source.not_ours", where))
    try:
        conn = open_tablet(source)
    except sqlite3.Error as err:
        raise MigrationUnusable(Msg("store.unusable", {**where, "detail": str(err)})) from None
    try:
        return _read(conn, source)
    except sqlite3.DatabaseError as err:
        if "not a database" in str(err):
            raise MigrationUnusable(Msg("migrate.source.not_ours", where)) from None
        raise MigrationUnusable(Msg("migrate.source.unreadable", {**where, "detail": str(err)})) from None
    finally:
        conn.close()


def _read(conn: sqlite3.Connection, path: Path) -> Source:
    where = {"path": str(path)}
    tables, revisions = sqlite_schema(conn)
    if "alembic_version" not in tables or "sessions" not in tables:
        raise MigrationUnusable(Msg("migrate.source.not_ours", where))
    accepted = _accepted_revisions()
    unknown = [r for r in revisions if r not in known_revisions()]
    if unknown:
        raise MigrationUnusable(Msg("store.newer", {**where, "revision": ", ".join(unknown)}))
    if not revisions or any(r not in accepted for r in revisions):
        raise MigrationUnusable(Msg("migrate.source.older", {**where, "revision": ", ".join(revisions) or "-"}))
    if not sqlite_intact(conn):
        raise MigrationUnusable(Msg("store.damaged", where))
    store_id = tablet_store_id(conn)
    if store_id is None:
        raise MigrationUnusable(Msg("migrate.source.no_identity", where))
    players, games = tablet_games(conn, store_id)
    return Source(path, store_id, players, games)


# -- checking a game before it is written ---------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """A source game that replays: its outcome's results by record name (None: not finished)."""
    outcome: Any


def check_game(game: SourceGame) -> Checked | Msg:
    """Replay the game's active entries through its engine; the reason it cannot be copied, or
    what the replay gives."""
    active = [row.action for row in game.log if row.retracted_at is None]
    try:
        data = decoded_actions(active)
        record = columns_record(game.game, game.variant, game.first_player, game.setup, game.names, data)
        folded = fold(record.model_copy(update={"actions": []}), refereed_actions(record), data=data)
    except NoReferee:
        return Msg("service.no_referee", {"game": game.game})
    except (MalformedRecord, ValueError) as err:
        return Msg("migrate.game.damaged", {"detail": err.msg if isinstance(err, MalformedRecord) else str(err)})
    if folded.violation is not None:
        assert folded.index is not None
        return because(Msg("migrate.game.illegal", {"entry": folded.index + 1, "rule": folded.violation.rule,
                                                    "reason": in_words(game.game, folded.violation.msg)}),
                       folded.engine, folded.violation.rule)
    outcome = folded.engine.outcome()
    if (outcome is not None) != (game.status == STATUS_FINISHED):
        return because(Msg("migrate.game.status", {"status": game.status}), folded.engine)
    return Checked(outcome)


# -- the destination's rows ------------------------------------------------------------------------


def compare(club: ClubGame, game: SourceGame) -> tuple[str, Msg | None]:
    """How the club's copy stands to the tablet's game: ``same``, ``behind`` (an earlier state of it,
    not changed at the club: it can be brought up to date) or ``conflict`` with the reason."""
    if club.envelope != game.envelope:
        return "conflict", Msg("migrate.conflict.setup")
    theirs = {row.seq: row for row in game.log}
    for row in club.log:
        tablet = theirs.get(row.seq)
        if tablet is None:
            return "conflict", Msg("migrate.conflict.club_entries")
        if (tablet.action, tablet.created_at) != (row.action, row.created_at):
            return "conflict", Msg("migrate.conflict.differ", {"seq": row.seq})
        if row.retracted_at is not None and row.retracted_at != tablet.retracted_at:
            return "conflict", Msg("migrate.conflict.club_entries")
    if club.abandoned_at is not None and club.abandoned_at != game.abandoned_at:
        return "conflict", Msg("migrate.conflict.abandoned")
    same = (club.log == game.log and club.status == game.status and club.finished_at == game.finished_at
            and club.updated_at == game.updated_at and club.abandoned_at == game.abandoned_at)
    return ("same", None) if same else ("behind", None)


# -- the migration ---------------------------------------------------------------------------------


class _Rollback(Exception):
    """Raised inside the write transaction when what was written does not read back as the source."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(msg.render("en"))


def migrate(source_path: str | os.PathLike[str] | Source, store: Store, *, target_label: str | None = None) -> Report:
    """Copy the history of ``source_path`` (or of a :class:`Source` already read) into ``store``
    (see the module's doc). Returns the report; raises MigrationUnusable when nothing could be
    done (nothing was written)."""
    source = source_path if isinstance(source_path, Source) else read_source(source_path)
    report = Report(str(source.path), target_label or str(getattr(store, "path", "")))
    checked: dict[int, Checked | Msg] = {}

    def checked_game(game: SourceGame) -> Checked | Msg:
        if game.session_id not in checked:
            checked[game.session_id] = check_game(game)
        return checked[game.session_id]

    # Replaying is the slow part: done before the write transaction (which other tables wait for)
    # for the games the club does not have as they are; the transaction decides again.
    try:
        with store.read() as db:
            _same_database(db, store, source)
            have = store.copied_origins(db)
            for game in source.games:
                sid = have.get(game.origin)
                if sid is None or compare(store.copied_game(db, sid), game)[0] == "behind":
                    checked_game(game)
    except STORAGE_ERRORS as err:
        raise MigrationUnusable(_storage(err)) from err
    try:
        with store.write() as db:
            _same_database(db, store, source)
            _write(store, db, source, report, checked_game)
    except _Rollback as err:
        raise MigrationUnusable(err.msg) from None
    except STORAGE_ERRORS as err:
        raise MigrationUnusable(_storage(err)) from err
    return report


def _storage(err: Exception) -> Msg:
    detail = str(getattr(err, "orig", None) or err).splitlines()[0]
    return Msg("migrate.storage", {"detail": detail})


def _same_database(db: Session, store: Store, source: Source) -> None:
    if store.store_id(db) == source.store_id:
        raise MigrationUnusable(Msg("migrate.same_database", {"path": str(source.path)}))


def _write(store: Store, db: Session, source: Source, report: Report, checked_game: Any) -> None:
    if store.path is None:
        store.lock_names(db, (name for name, _ in source.players.values()))
    have = store.copied_origins(db)
    club_players: dict[str, tuple[int, str]] = {name_key(p.name): (p.id, p.name) for p in store.players(db)
                                                 if p.id is not None}
    profile_of: dict[int, int] = {}  # source profile id → club profile id
    months: set[tuple[str, str]] = set()  # the months a copy already counted in before it was brought up to date
    written: list[tuple[SourceGame, int]] = []

    def club_profile(source_id: int) -> int:
        if source_id in profile_of:
            return profile_of[source_id]
        name, created = source.players[source_id]
        existing = club_players.get(name_key(name))
        if existing is None:
            pid, club_name, made = store.copied_profile(db, name, created)
            existing = club_players[name_key(name)] = (pid, club_name)
            if made:
                report.created.append(name)
            else:
                report.matched.append((name, club_name))
        else:
            report.matched.append((name, existing[1]))
        profile_of[source_id] = existing[0]
        return existing[0]

    for game in source.games:
        sid = have.get(game.origin)
        club = store.copied_game(db, sid) if sid is not None else None
        if club is not None:
            assert sid is not None
            state, reason = compare(club, game)
            if state == "same":
                report.already.append((game.session_id, sid))
                continue
            if state == "conflict":
                assert reason is not None
                report.conflicts.append((game.session_id, game.game, reason))
                continue
        result = checked_game(game)
        if isinstance(result, Msg):
            report.refused.append((game.session_id, game.game, result))
            continue
        keys = [name_key(source.players[p][0]) for p in game.profiles]
        if len(set(keys)) != len(keys):
            report.refused.append((game.session_id, game.game, Msg("migrate.game.same_player")))
            continue
        profiles = [club_profile(p) for p in game.profiles]
        ids = dict(zip(game.names, profiles))
        if club is None:
            sid = store.copy_game(db, game, profiles)
            report.copied.append((game.session_id, sid))
        else:
            assert sid is not None
            months.update(store.finished_months(db, sid))
            added = store.bring_up_to_date(db, club, game)
            report.updated.append((game.session_id, sid, added))
        outcome = result.outcome
        if outcome is not None:
            store.write_results(db, sid, result_rows(outcome, ids))
        else:
            store.clear_results(db, sid)
        store.refresh_summary(db, sid, months=False)  # the months once, in order, at the end
        written.append((game, sid))
    # read back, inside the transaction: what was written must be the source's game
    for game, sid in written:
        back = store.copied_game(db, sid)
        if back.envelope != game.envelope or back.log != game.log or back.status != game.status \
                or back.finished_at != game.finished_at or back.updated_at != game.updated_at \
                or back.abandoned_at != game.abandoned_at \
                or back.kept != (game.assist, game.started_at, game.table_name):
            raise _Rollback(Msg("migrate.not_kept", {"session": game.session_id}))
    store.refresh_game_months(db, [sid for _, sid in written], also=months)
    store.ratings.rerate_sessions(db, [sid for _, sid in written])  # older games: rated again from the first one

