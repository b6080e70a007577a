"""`companion evening plan` and `companion evening standings`: a club evening's seating planned
from the command line (no database: :mod:`models.seating`) and an evening's standings read from
the database (``service.evenings.standings``, :meth:`companion.service.evenings.Evenings.standings`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def cmd_plan(args: argparse.Namespace) -> int:
    """Print the seating of ``--rounds`` rounds of ``--game`` for ``--players`` as JSON:
    ``{"rounds": [[[names of a table], …], …], "sit_out": [[names], …]}``. The tables are the
    fewest that seat everyone (``--tables``: that many). ``swiss`` rounds after the first depend on
    results: only the first is printed."""
    from models.games import PLAYER_COUNTS
    from models.i18n import Msg
    from models.names import BadName, check_distinct, clean_name
    from models.seating import MIX, RoundSpec, SeatingImpossible, plan_mix, plan_tables

    if args.game not in PLAYER_COUNTS:
        return _fail(Msg("evening.cli.unknown_game", {"game": args.game, "games": ", ".join(PLAYER_COUNTS)}), args.lang)
    try:
        players = [clean_name(p) for p in args.players.split(",") if p.strip()]
        check_distinct(players)
    except BadName as err:
        return _fail(err.msg, args.lang)
    if args.rounds < 1:
        return _fail(Msg("service.evening.rounds", {"most": 20}), args.lang)
    counts = PLAYER_COUNTS[args.game]
    tables = plan_tables(len(players), counts) if args.tables is None else (counts,) * max(1, args.tables)
    rounds = args.rounds if args.method == MIX else 1
    try:
        plan = plan_mix([RoundSpec(tuple(players), tables)] * rounds, seed=args.seed)
    except SeatingImpossible:
        return _fail(Msg("evening.cli.too_few", {"count": len(players), "least": counts[0]}), args.lang)
    out = {"rounds": [[list(t) for t in s.tables if t] for s in plan], "sit_out": [list(s.sit_out) for s in plan]}
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    """Print an evening's standings (text, or a JSON object with ``--json``)."""
    from companion.paths import resolve_db_path
    from companion.service import ServiceError, SessionService
    from companion.store import Store, StoreUnusable
    from models.i18n import Msg, format_number

    try:
        store = Store(resolve_db_path(getattr(args, "db", None)))
    except StoreUnusable as err:
        return _fail(err.msg, args.lang)
    try:
        standings = SessionService(store).evenings.standings(args.evening)
    except ServiceError as err:
        return _fail(err.msg, args.lang)
    finally:
        store.close()
    if args.json:
        data: dict[str, Any] = {
            "evening": standings.evening_id, "name": standings.name, "finished_games": standings.finished_games,
            "standings": [{"position": r.position, "player": r.name, "points": r.points, "games": r.games,
                           "wins": r.wins, "average_place": r.average_place, "beaten": r.beaten,
                           "sat_out": list(r.sat_out), "decided_by": r.decided_by} for r in standings.rows]}
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    lang = args.lang
    say = sys.stdout.write
    say(Msg("evening.cli.title", {"name": standings.name, "count": standings.finished_games}).render(lang) + "\n")
    for r in standings.rows:
        average = "–" if r.average_place is None else format_number(round(r.average_place, 2), lang)
        line = Msg("evening.cli.line", {"position": r.position, "name": r.name, "points": r.points, "games": r.games,
                                        "wins": r.wins, "average": average, "beaten": r.beaten}).render(lang)
        if r.sat_out:
            line += " " + Msg("evening.cli.sat_out", {"rounds": ", ".join(map(str, r.sat_out))}).render(lang)
        if r.decided_by is not None:
            line += " " + Msg(f"app.evening.tie.{r.decided_by}").render(lang)
        say("  " + line + "\n")
    return 0


def _fail(msg: Any, lang: str) -> int:
    sys.stderr.write(msg.render(lang) + "\n")
    return 2


def add_parser(sub: Any) -> None:
    """`companion evening …` on the command's subparsers."""
    evening = sub.add_parser("evening", help="a club evening: plan a seating, print an evening's standings")
    commands = evening.add_subparsers(dest="evening_command", required=True)
    plan = commands.add_parser("plan", help="print a seating as JSON (no database): "
                                            '{"rounds": [[["A","B","C"], ["D","E","F"]], …], "sit_out": [[…], …]}')
    plan.add_argument("--players", required=True, help='the players, comma-separated: "A,B,C,…"')
    plan.add_argument("--rounds", type=int, required=True, help="how many rounds")
    plan.add_argument("--game", required=True, help="the game every table plays (its id, e.g. high-society)")
    plan.add_argument("--method", choices=("mix", "swiss"), default="mix",
                      help="mix: fewest repeated pairs; swiss: close standings together after round 1, so only "
                           "round 1 is printed")
    plan.add_argument("--seed", type=int, default=0, help="the seating's only randomness (default 0)")
    plan.add_argument("--tables", type=int, default=None, help="how many tables (default: the fewest that seat everyone)")
    plan.add_argument("--lang", choices=("en", "fr"), default="fr", help="language of the messages")
    plan.set_defaults(func=cmd_plan)
    standings = commands.add_parser("standings", help="an evening's standings")
    standings.add_argument("--evening", type=int, required=True, help="the evening's number")
    standings.add_argument("--json", action="store_true", help="a JSON object instead of text")
    standings.add_argument("--lang", choices=("en", "fr"), default="fr", help="language of the text")
    standings.set_defaults(func=cmd_standings)
