"""The `companion` command: the app, the headless referee, import, export, ratings, migrate and club evenings
(:mod:`companion.evening_command`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # the service's imports are paid only by the commands that use it
    from companion.service import SessionService
    from models.i18n import Msg


# What `replay` says of a file it will not read (a folder, a device, a pipe; over the size limit).


_REPLAY_FILE_KEYS = {"too_big": "record.too_big", "not_a_file": "record.not_a_file"}


def cmd_replay(args: argparse.Namespace) -> int:
    # Imported here so `companion replay` does not pay for the UI's imports: no Flet, no SQLAlchemy,
    # no sqlmodel on this path (tests/test_cli.py checks it), and only the game at hand's validator.
    from companion.files import Unreadable, read_file
    from models.i18n import Msg
    from models.record import MalformedRecord, verdict_json
    from scoring.referee import malformed_verdict, verdict_for_text

    if args.lines:
        return _replay_lines(args)
    try:
        text = read_file(args.file, sys.stdin.buffer, too_big=_REPLAY_FILE_KEYS["too_big"],
                         not_a_file=_REPLAY_FILE_KEYS["not_a_file"])
    except OSError as err:
        unreadable = MalformedRecord(Msg("record.cannot_read", {"path": repr(args.file), "reason": err.strerror}))
        verdict, status = malformed_verdict(unreadable, lang=args.lang), 2
    except Unreadable as err:
        verdict, status = malformed_verdict(MalformedRecord(err.msg), lang=args.lang), 2
    else:
        verdict, status = verdict_for_text(text, lang=args.lang)
    sys.stdout.write(verdict_json(verdict, indent=True, line=False) + "\n")
    return status


def _not_a_file() -> dict[str, str]:
    return {"not_a_file": _REPLAY_FILE_KEYS["not_a_file"]}


def _replay_lines(args: argparse.Namespace) -> int:
    """`companion replay --lines FILE|-`: one compact verdict per record line, in order."""
    from companion.files import Unreadable, limited_lines, open_regular
    from models.i18n import Msg
    from models.record import MalformedRecord, verdict_json
    from scoring.referee import batch_status, malformed_verdict, verdicts_for_lines

    statuses: list[int] = []

    def malformed(err: MalformedRecord) -> int:
        sys.stdout.write(verdict_json(malformed_verdict(err, lang=args.lang), line=False) + "\n")
        return 2

    try:
        stream = sys.stdin.buffer if args.file == "-" else open_regular(args.file, **_not_a_file())
    except OSError as err:
        return malformed(MalformedRecord(Msg("record.cannot_read", {"path": repr(args.file), "reason": err.strerror})))
    except Unreadable as err:
        return malformed(MalformedRecord(err.msg))
    piped = stream is sys.stdin.buffer
    # a file: as many processes as CPUs; a pipe: one, each verdict out as soon as its line is in
    jobs = args.jobs if args.jobs is not None else 1 if piped else (os.cpu_count() or 1)
    pool = None
    try:
        lines = limited_lines(stream, args.file, too_big=_REPLAY_FILE_KEYS["too_big"])
        if jobs == 1:
            for verdict, status in verdicts_for_lines(lines, lang=args.lang):
                sys.stdout.write(verdict_json(verdict) + "\n")
                sys.stdout.flush()  # a verdict as soon as its record is read, when the lines come from a pipe
                statuses.append(status)
        else:
            import multiprocessing

            # Each process replays whole lines and hands back the verdict's text; imap keeps the
            # input's order and reads the lines as the processes need them. A line over the limit
            # ends the reading: the verdicts of the lines before it are written first.
            pool = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn").Pool(jobs)
            over: list[Unreadable] = []

            def records() -> Iterator[tuple[int, bytes, str]]:
                try:
                    for number, line in enumerate(lines, start=1):
                        if line.strip():
                            yield number, line, args.lang
                except Unreadable as err:  # (read in the pool's feeding thread: handed back here)
                    over.append(err)

            for text, status in pool.imap(_verdict_line, records(), chunksize=1 if piped else 32):
                sys.stdout.write(text + "\n")
                if piped:
                    sys.stdout.flush()
                statuses.append(status)
            if over:
                raise over[0]
    except Unreadable as err:  # one line over the limit: the verdicts so far stand, the batch is malformed
        statuses.append(malformed(MalformedRecord(err.msg)))
    finally:
        if pool is not None:
            pool.terminate()
        if not piped:
            stream.close()
    return batch_status(statuses)


def _verdict_line(task: tuple[int, bytes, str]) -> tuple[str, int]:
    """One line of `replay --lines --jobs N`, in a worker process: the verdict's compact JSON text
    (with its ``line``) and its exit status."""
    from models.record import verdict_json
    from scoring.referee import verdict_for_text

    number, line, lang = task
    verdict, status = verdict_for_text(line, lang)
    verdict.line = number
    return verdict_json(verdict), status


def _jobs(text: str) -> int:
    jobs = int(text)
    if jobs < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return jobs


TABLE_ENV = "COMPANION_TABLE"


def cmd_run(args: argparse.Namespace) -> int:
    # The app's imports (Flet, the store) are paid only by `companion run`.
    from companion.app.server import serve
    from companion.paths import resolve_db_path
    from companion.service.club import BadTableName, clean_table_name

    given = args.table if args.table is not None else os.environ.get(TABLE_ENV)
    try:
        table = clean_table_name(given) if given is not None else None
    except BadTableName as err:
        print(err.msg.render("fr"), file=sys.stderr, flush=True)
        return 2
    return serve(resolve_db_path(getattr(args, "db", None)), host=args.host, port=args.port, lan=args.lan,
                 desktop=args.desktop, pin=args.pin, table=table)


def _open_service(args: argparse.Namespace) -> SessionService:
    from companion.paths import resolve_db_path
    from companion.service import SessionService
    from companion.store import Store

    return SessionService(Store(resolve_db_path(getattr(args, "db", None))))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def database_files(db: Path) -> list[Path]:
    """The database and the files SQLite keeps beside it (write-ahead log, shared memory, journal)."""
    return [db] + [db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def export_target_problem(output: str, db: Path) -> Msg | None:
    """Why ``output`` must not be written by an export (it is the database, one of its files, or
    a folder), or None. Symlinks and relative paths are resolved first."""
    from models.i18n import Msg

    target = Path(output).expanduser()
    resolved = target.resolve()
    real_db = db.resolve()
    for kept in database_files(db) + database_files(real_db):
        if resolved == kept.resolve() or _same_file(target, kept):
            return Msg("service.export.is_database", {"path": str(target), "db": str(db)})
    if resolved.is_dir():
        return Msg("service.export.is_directory", {"path": str(target)})
    if resolved.exists() and not resolved.is_file():
        return Msg("service.export.not_a_file", {"path": str(target)})
    return None


def cmd_export(args: argparse.Namespace) -> int:
    import json

    from companion.paths import resolve_db_path
    from companion.service import ServiceError
    from companion.store import StoreUnusable
    from models.i18n import Msg

    writes_file = bool(args.output) and args.output != "-"
    db = resolve_db_path(getattr(args, "db", None))
    if writes_file and isinstance(db, Path):  # checked before the database is even opened (a server's
        # database has no file here to overwrite)
        problem = export_target_problem(args.output, db)
        if problem is not None:
            sys.stderr.write(problem.render(args.lang) + "\n")
            return 2
    try:
        if args.format == "json":
            records = _open_service(args).transfer.export(args.session)
            out = json.dumps(records[0] if args.session is not None else records, ensure_ascii=False, indent=2) + "\n"
        else:
            out, records = _export_games(args)
    except (ServiceError, StoreUnusable) as err:
        sys.stderr.write(err.msg.render(args.lang) + "\n")
        return 2
    except ValueError as err:  # a date that is not one
        sys.stderr.write(str(err) + "\n")
        return 2
    if not writes_file:
        sys.stdout.write(out)
        return 0
    target = Path(args.output).expanduser().resolve()
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(out, encoding="utf-8")
        partial.replace(target)  # a reader never sees half a file
    except OSError as err:
        partial.unlink(missing_ok=True)  # never leave half a file behind
        sys.stderr.write(Msg("service.export.unwritable", {"path": str(target), "detail": err.strerror}).render(args.lang) + "\n")
        return 2
    sys.stdout.write(Msg("service.export.done", {"count": len(records), "path": str(target)}).render(args.lang) + "\n")
    return 0


def _export_games(args: argparse.Namespace) -> tuple[str, list]:
    """``export --format csv|bgstats``: (the text, the games in it). The history's filters apply;
    a BG Stats export is one push-a-play JSON object a line, each followed by its link."""
    import json
    from datetime import datetime

    from companion.service.bgstats import link
    from models.i18n import Msg

    filters = {"game": args.game, "player": args.player, "table": args.table,
               "since": None if args.since is None else datetime.fromisoformat(args.since).astimezone(),
               "until": None if args.until is None else datetime.fromisoformat(args.until).astimezone()}
    service = _open_service(args)
    if args.format == "csv":
        if args.session is not None:
            filters = {"session_id": args.session}
        return service.exports.csv_text(lang=args.lang, **filters), service.exports.finished(**filters)
    plays = service.exports.bgstats_plays(args.session, lang=args.lang, **({} if args.session is not None else filters))
    lines = []
    for play in plays:
        lines.append(json.dumps(play, ensure_ascii=False))
        lines.append(Msg("export.bgstats.link", {"session": play["sourcePlayId"], "link": link(play)}).render(args.lang))
    return "".join(line + "\n" for line in lines), plays


def cmd_ratings(args: argparse.Namespace) -> int:
    """`companion ratings [--game ID] [--json]`: every rated player's skill rating, per game, best
    first (the same figures as the screens)."""
    import json

    from companion.service import ServiceError
    from companion.store import StoreUnusable
    from models.games import GAMES
    from models.i18n import Msg, format_number

    if args.game is not None and args.game not in GAMES:
        sys.stderr.write(Msg("ratings.unknown_game", {"game": args.game, "games": ", ".join(GAMES)}).render(args.lang)
                         + "\n")
        return 2
    try:
        rows = _open_service(args).ratings.table(args.game)
    except (ServiceError, StoreUnusable) as err:
        sys.stderr.write(err.msg.render(args.lang) + "\n")
        return 2
    if args.json:
        sys.stdout.write(json.dumps([{"game": r.game, "player": r.name, "mu": r.mu, "sigma": r.sigma,
                                      "ordinal": r.ordinal, "games": r.games} for r in rows],
                                    ensure_ascii=False, indent=2) + "\n")
        return 0
    if not rows:
        sys.stdout.write(Msg("ratings.none").render(args.lang) + "\n")
        return 0
    lang = args.lang
    for game in dict.fromkeys(r.game for r in rows):
        mine = [r for r in rows if r.game == game]
        name = Msg(f"game.{game}.name").render(lang)
        sys.stdout.write(Msg("ratings.game", {"game": name, "count": len(mine)}).render(lang) + "\n")
        for place, r in enumerate(mine, 1):
            sys.stdout.write("  " + Msg("ratings.line", {
                "place": place, "name": r.name, "ordinal": format_number(round(r.ordinal, 2), lang),
                "mu": format_number(round(r.mu, 2), lang), "sigma": format_number(round(r.sigma, 2), lang),
                "games": r.games}).render(lang) + "\n")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from companion.service import ServiceError
    from companion.service.transfer import ImportUnreadable, read_import
    from companion.store import StoreUnusable
    from models.i18n import Msg

    try:
        text = read_import(args.file, sys.stdin.buffer)
    except ImportUnreadable as err:
        sys.stderr.write(err.msg.render(args.lang) + "\n")
        return 2
    except OSError as err:
        sys.stderr.write(Msg("service.import.unreadable", {"path": args.file, "detail": err.strerror}).render(args.lang) + "\n")
        return 2
    try:
        ids = _open_service(args).transfer.import_records(text)
    except (ServiceError, StoreUnusable) as err:
        sys.stderr.write(err.msg.render(args.lang) + "\n")
        return 2
    sys.stdout.write(Msg("service.import.done", {"count": len(ids), "ids": [str(i) for i in ids]}).render(args.lang) + "\n")
    return 0


CONNECT_TIMEOUT_S = 10  # how long `companion migrate` waits for a club's server to answer


def _migration_target(value: str) -> Path | str:
    """The destination of ``companion migrate``: a SQLite file (a path, or a ``sqlite:///path``
    URL: its path) or a PostgreSQL server's database (the URL, as given, for :class:`Store`).
    Raises ValueError for a URL of another kind, or one that is not a URL at all."""
    from companion.paths import is_url, resolve_db_path

    if "://" in value:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            url = make_url(value.strip())
        except ArgumentError:
            raise ValueError(value) from None
        backend = url.get_backend_name()
        if backend == "postgresql" and is_url(value) and url.database:
            if "connect_timeout" not in url.query:  # a server that never answers: refused, not waited for forever
                url = url.update_query_dict({"connect_timeout": str(CONNECT_TIMEOUT_S)})
            return url.render_as_string(hide_password=False)
        if backend != "sqlite" or not url.database or url.database == ":memory:":
            raise ValueError(value)
        return resolve_db_path(url.database)
    return resolve_db_path(value)


def _shown(target: str) -> str:
    """The destination as the report names it: a URL without its password."""
    import re

    return re.sub(r"://([^:/@]*):[^@/]*@", r"://\1:***@", target)


def _password(target: str) -> str | None:
    """The password a destination URL holds, if any."""
    if "://" not in target:
        return None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return str(make_url(target.strip()).password or "") or None
    except ArgumentError:
        return None


def cmd_migrate(args: argparse.Namespace) -> int:
    """`companion migrate --from TABLET.db --to CLUB`: the tablet's games copied into the club's
    database (companion/service/migrate.py). Exit 0, 1 if a game was refused or in conflict (the
    others are copied), 2 if nothing could be done."""
    from companion.service.migrate import MigrationUnusable, migrate, read_source
    from companion.store import Store, StoreUnusable
    from models.i18n import Msg

    def fail(msg: Msg) -> int:
        said = msg.render(args.lang)
        secret = _password(args.target)
        if secret:  # a driver's message never quotes it, and a sentence printed never will
            said = said.replace(secret, "***")
        sys.stderr.write(said + "\n")
        return 2

    try:
        target = _migration_target(args.target)
    except ValueError:
        return fail(Msg("migrate.target.url", {"url": _shown(args.target)}))
    source = Path(args.source).expanduser()
    if isinstance(target, Path) and (_same_file(source, target) or source.resolve() == target.resolve()):
        return fail(Msg("migrate.same_file", {"path": str(source)}))
    try:
        tablet = read_source(source)  # refused before the destination is even created (or reached)
        store = Store(target)  # a server that does not answer: StoreUnusable, its URL without password
    except MigrationUnusable as err:
        return fail(err.msg)
    except StoreUnusable as err:
        if isinstance(target, str) and "path" in err.msg.params:  # the URL as the user typed it (no password)
            return fail(Msg(err.msg.key, {**err.msg.params, "path": _shown(args.target)}))
        return fail(err.msg)
    except OSError as err:  # e.g. the club database's folder cannot be created
        return fail(Msg("store.unusable", {"path": _shown(str(target)), "detail": err.strerror or str(err)}))
    try:
        report = migrate(tablet, store, target_label=_shown(args.target))
    except MigrationUnusable as err:
        return fail(err.msg)
    finally:
        store.close()
    sys.stdout.write(report.render(args.lang) + "\n")
    return 1 if report.problems else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: the referee beside your card game.")
    parser.add_argument("--db", default=None, help="database file, or a server's URL such as postgresql+psycopg://user@host/club "
                        "(default: COMPANION_DB, then the user data directory)")
    sub = parser.add_subparsers(dest="command")

    replay = sub.add_parser("replay", help="check a table record and print its verdict (JSON)")
    replay.add_argument("file", help="the record's path, or - for standard input")
    replay.add_argument("--lines", action="store_true",
                        help="JSON Lines: one record per line, one verdict per line out, in order (blank lines are "
                             "skipped); exit 2 if any line is malformed, else 1 if any record was refused")
    replay.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the verdict's sentences")
    replay.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                        help="with --lines: replay the records in N processes, the verdicts still in the input's "
                             "order (default: the number of CPUs for a file, 1 for standard input; 1 replays in "
                             "this process)")
    replay.set_defaults(func=cmd_replay)

    run = sub.add_parser("run", help="serve the tablet app in a browser (127.0.0.1 unless --lan); prints the URL")
    run.add_argument("--host", default=None, help="address to bind (default 127.0.0.1, or every interface with --lan)")
    run.add_argument("--port", type=int, default=8550, help="TCP port (default 8550)")
    run.add_argument("--lan", action="store_true", help="serve the local network too, so a tablet can connect")
    run.add_argument("--pin", default=None,
                     help="with --lan: the table PIN other devices must enter (default: a new random one, printed)")
    run.add_argument("--desktop", action="store_true",
                     help="open a desktop window where a display and the Flet desktop client are available")
    run.add_argument("--table", default=None,
                     help=f"this tablet's table name, kept with every game started here (default: {TABLE_ENV}, "
                          "then the name saved in the app's settings)")
    run.set_defaults(func=cmd_run)

    export = sub.add_parser("export", help="write table records from the database (one object with --session, else a list)")
    export.add_argument("--session", type=int, default=None, help="the game to export (default: every game)")
    export.add_argument("-o", "--output", default=None, help="file to write (default: standard output)")
    export.add_argument("--format", choices=("json", "csv", "bgstats"), default="json",
                        help="json: table records; csv: one row per player per finished game; bgstats: BG Stats' "
                             "push-a-play JSON of each finished game (one a line) and its link")
    export.add_argument("--game", default=None, help="csv, bgstats: only this game (its id)")
    export.add_argument("--player", default=None, help="csv, bgstats: only the games of this player (exact name)")
    export.add_argument("--table", default=None, help="csv, bgstats: only the games of this table")
    export.add_argument("--since", default=None, help="csv, bgstats: games started at or after (YYYY-MM-DD[ hh:mm])")
    export.add_argument("--until", default=None, help="csv, bgstats: games started before (YYYY-MM-DD[ hh:mm])")
    export.add_argument("--lang", choices=("en", "fr"), default="fr", help="language of the messages")
    export.set_defaults(func=cmd_export)

    ratings = sub.add_parser("ratings", help="skill ratings (openskill): per game, every rated player's mu, sigma, "
                                             "ordinal (mu - 3 sigma) and games, best ordinal first")
    ratings.add_argument("--game", default=None, help="only this game (its id, e.g. high-society)")
    ratings.add_argument("--json", action="store_true", help="a JSON list instead of text")
    ratings.add_argument("--lang", choices=("en", "fr"), default="fr", help="language of the text")
    ratings.set_defaults(func=cmd_ratings)

    import_ = sub.add_parser("import", help="check table records (one, or a list) and add them all to the database, or none")
    import_.add_argument("file", help="the records' path, or - for standard input")
    import_.add_argument("--lang", choices=("en", "fr"), default="fr", help="language of the messages")
    import_.set_defaults(func=cmd_import)

    migrate = sub.add_parser("migrate", help="copy a tablet's games (its database file) into the club's database; "
                                             "players matched by name, a second run copies only what is new")
    migrate.add_argument("--from", dest="source", required=True, help="the tablet's database file (only read)")
    migrate.add_argument("--to", dest="target", required=True, help="the club's database: a path or a URL")
    migrate.add_argument("--lang", choices=("en", "fr"), default="fr", help="language of the report")
    migrate.set_defaults(func=cmd_migrate)

    from companion.evening_command import add_parser as add_evening

    add_evening(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
