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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: the referee beside your card game.")
    sub = parser.add_subparsers(dest="command")

    replay = sub.add_parser("replay", help="check a table record and print its verdict (JSON)")
    replay.add_argument("file", help="the record's path, or - for standard input")
    replay.add_argument("--lang", choices=("en", "fr"), default="en", help="language of the verdict's sentences")
    replay.set_defaults(func=cmd_replay)
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
