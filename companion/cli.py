"""The `companion` command: the app, the headless referee, import and export."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    return Path(path).read_bytes()


def cmd_replay(args: argparse.Namespace) -> int:
    # Imported here so `companion replay` does not pay for the UI's imports.
    from models.record import MalformedRecord
    from scoring.referee import malformed_verdict, verdict_for_text

    try:
        text = _read_input(args.file)
    except OSError as err:
        verdict, status = malformed_verdict(MalformedRecord(f"record: cannot read {args.file!r} ({err.strerror})")), 2
    else:
        verdict, status = verdict_for_text(text, lang=args.lang)
    sys.stdout.write(verdict.model_dump_json(indent=2) + "\n")
    return status


def cmd_run(args: argparse.Namespace) -> int:
    # The app's imports (Flet, the store) are paid only by `companion run`.
    from companion.app import serve
    from companion.paths import resolve_db_path

    return serve(resolve_db_path(getattr(args, "db", None)), host=args.host, port=args.port, lan=args.lan)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: the referee beside your card game.")
    parser.add_argument("--db", default=None, help="database file (default: COMPANION_DB, then the user data directory)")
    sub = parser.add_subparsers(dest="command")

    replay = sub.add_parser("replay", help="check a table record and print its verdict (JSON)")
    replay.add_argument("file", help="the record's path, or - for standard input")
    replay.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the verdict's sentences")
    replay.set_defaults(func=cmd_replay)

    run = sub.add_parser("run", help="serve the tablet app in a browser (127.0.0.1 unless --lan); prints the URL")
    run.add_argument("--host", default=None, help="address to bind (default 127.0.0.1, or every interface with --lan)")
    run.add_argument("--port", type=int, default=8550, help="TCP port (default 8550)")
    run.add_argument("--lan", action="store_true", help="serve the local network too, so a tablet can connect")
    run.set_defaults(func=cmd_run)
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
