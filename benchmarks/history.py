"""History and statistics at a club's size: a 10,000-game database (about 1M action rows, the
undone and corrected entries included, games played at three named tables and, the first year,
at tablets with no name), built once with bulk inserts and cached under /tmp, then

- the history's first page, a filtered page, the statistics screen, one player's page, and the
  club's view (the history and the statistics of one table, a season's league table of each
  game): each built as the app builds it (service queries and the Flet widgets, no browser),
  beside the goal of 150 ms; on SQLite and, when a PostgreSQL server can be started the way the
  tests start one (tests/pgserver.py: initdb in a temporary folder, a Unix socket), on the same
  rows copied into a PostgreSQL database (COPY), side by side;
- home (the latest games in progress: about 200 at 10,000 games) and the history's « more » (25
  rows appended), each on a Flet page whose connection encodes what would go to the browser, by
  the CPU time of this process beside the goal of 10 ms (SQLite);
- import of 250, 500 and 1,000 records, and export of 1,000 and 10,000 games, with per-record
  rates to show they grow linearly (SQLite).

    python benchmarks/history.py [--games 10000] [--repeat 7] [--dir DIR] [--rebuild] [--no-pg]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

import _setup  # noqa: F401  (puts the repository on sys.path)
from _setup import hs_long, sv_game

from companion.service import SessionService
from companion.service.records import refereed_actions
from companion.service.replay import fold
from companion.store import Store
from models.record import parse_record_data

GOAL_MS = 150.0
TAP_GOAL_MS = 10.0  # server CPU: home, and one « more » of the history (25 rows)
NAMES = ["Anne", "Bruno", "Chloé", "Dario", "Éloi", "Fanny", "Gaël", "Hugo", "Inès", "Jules", "Katia", "Léo",
         "Maëlle", "Nathan", "Océane", "Paul", "Quentin", "Rose", "Sacha", "Théo", "Ugo", "Victor", "Wendy",
         "Xavier", "Yasmine", "Zoé", "Agathe", "Basile", "Capucine", "Denis"]
RETRACTED_PER_GAME = 35  # undone and corrected entries a real table leaves in the log
TABLES = (("Table 1", 45), ("Table 2", 35), ("Table 3", 20))  # the club's tablets
UNNAMED = 0.25  # the first quarter of the games: tablets with no name yet
CLUB_TABLE = "Table 2"  # the table the club's figures filter on
START = datetime(2022, 1, 1, 19, 0, tzinfo=timezone.utc)  # the first game; one every 200 minutes or so


def season(games: int) -> int:
    """The season (a calendar year) the league tables cover: the year of the game at three
    quarters of the history (2024 for 10,000 games)."""
    return (START + timedelta(minutes=games * 3 // 4 * 200)).year
STAMP = "%Y-%m-%d %H:%M:%S.%f"


def _templates() -> list[tuple[str, dict[str, Any], int, Any]]:
    """(kind, record with players P0.., weight, outcome): the games the club plays. An outcome
    depends on seats, not names, so it is computed once per template and renamed."""
    out = []
    for kind, record, weight in (("hs5", hs_long([f"P{i}" for i in range(5)]), 70),
                                 ("hs4", hs_long([f"P{i}" for i in range(4)]), 15),
                                 ("sv3", sv_game([f"P{i}" for i in range(3)], 1), 15)):
        parsed = parse_record_data(record)
        outcome = fold(parsed, refereed_actions(parsed)).engine.outcome()
        out.append((kind, record, weight, outcome))
    return out


def build_database(path: Path, games: int, seed: int = 13) -> None:
    """The club's database: ``games`` games over four years, 97% finished, 2% in progress, 1%
    abandoned; schema by the store's migrations, rows by bulk INSERTs, summaries and ratings by
    the store's own code."""
    Store(path).close()  # the schema at head
    rng = random.Random(seed)
    templates = _templates()
    weights = [t[2] for t in templates]
    start = START
    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")
    players = {name: i for i, name in enumerate(NAMES, 1)}
    sessions: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    actions: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []
    for sid in range(1, games + 1):
        kind, record, _, outcome = rng.choices(templates, weights)[0]
        n = len(record["players"])
        names = rng.sample(NAMES, n)
        rename = {f"P{i}": names[i] for i in range(n)}
        began = start + timedelta(minutes=sid * 200 + rng.randrange(60))
        roll = rng.random()
        finished = roll < 0.97
        active = record["actions"] if finished else record["actions"][:-1]
        text_actions = []
        for action in active:
            data = dict(action)
            if "player" in data:
                data["player"] = rename[data["player"]]
            if "cards" in data:
                data["cards"] = {rename[k]: v for k, v in data["cards"].items()}
            text_actions.append(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        seq = 0
        for k in range(RETRACTED_PER_GAME):  # undone entries, early in the game
            seq += 1
            moment = (began + timedelta(seconds=20 * k)).strftime(STAMP)
            actions.append((sid, seq, text_actions[k % len(text_actions)], moment, moment))
        for k, action in enumerate(text_actions):
            seq += 1
            actions.append((sid, seq, action, (began + timedelta(seconds=25 * k)).strftime(STAMP), None))
        last = (began + timedelta(seconds=25 * len(text_actions))).strftime(STAMP)
        abandoned = last if 0.97 <= roll < 0.98 else None
        game = "stupide-vautour" if kind == "sv3" else "high-society"
        table = rng.choices([t for t, _ in TABLES], [w for _, w in TABLES])[0] if sid > games * UNNAMED else None
        sessions.append((sid, game, "{}", names[0], 0, "finished" if finished else "in_progress",
                         began.strftime(STAMP), last if finished else None, last, abandoned, table))
        for pos, name in enumerate(names):
            seats.append((sid, pos, players[name], name))
        if finished:
            ranks = dict(outcome.ranking)
            for i, name in enumerate(names):
                canon = f"P{i}"
                results.append((sid, players[name], float(outcome.scores[canon]), int(ranks[canon]),
                                canon in outcome.winners, canon in outcome.eliminated))
    with con:
        con.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, ?)",
                        [(i, name, start.strftime(STAMP)) for name, i in players.items()])
        con.executemany("INSERT INTO sessions (id, game, variant, first_player, assist, status, started_at, "
                        "finished_at, updated_at, abandoned_at, table_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        sessions)
        con.executemany("INSERT INTO seats (session_id, position, player_id, name) VALUES (?, ?, ?, ?)", seats)
        con.executemany("INSERT INTO actions (session_id, seq, action, created_at, retracted_at) "
                        "VALUES (?, ?, ?, ?, ?)", actions)
        con.executemany("INSERT INTO results (session_id, player_id, score, rank, winner, eliminated) "
                        "VALUES (?, ?, ?, ?, ?, ?)", results)
    con.execute("ANALYZE")
    con.close()
    store = Store(path)
    try:
        with store.write() as db:
            store.refresh_summaries(db)
            store.ratings.rerate_all(db)  # the skill ratings a history written game by game would have
    finally:
        store.close()


def cached_database(games: int, rebuild: bool) -> tuple[Path, float | None]:
    """The database for ``games`` games under /tmp (built once per schema); (path, seconds the
    build took, None when it came from the cache)."""
    schema = hashlib.sha1()
    for part in sorted((_setup.ROOT / "companion" / "migrations" / "versions").glob("0*.py")) + sorted(
            (_setup.ROOT / "companion" / "store").glob("*.py")) + [Path(__file__)]:
        schema.update(part.read_bytes())
    path = Path(tempfile.gettempdir()) / f"companion-history-{games}-{schema.hexdigest()[:10]}.db"
    if path.exists() and not rebuild:
        return path, None
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    began = time.perf_counter()
    partial = path.with_suffix(".building")
    partial.unlink(missing_ok=True)
    build_database(partial, games)
    partial.rename(path)
    return path, time.perf_counter() - began


# every table the app writes rows to, parents first (what the PostgreSQL copy carries over)
COPIED = ("players", "sessions", "seats", "actions", "results", "game_summaries", "player_months", "game_months",
          "ratings")


def copy_to_postgresql(path: Path, url: str) -> tuple[int, float]:
    """The rows of the SQLite database at ``path`` copied into the migrated, empty PostgreSQL
    database at ``url`` (COPY, table by table, the same ids; the id sequences set past them), then
    VACUUM ANALYZE (what autovacuum does on a server after a while: statistics for the planner, a
    visibility map for index-only scans); (database size in bytes, seconds)."""
    import psycopg

    began = time.perf_counter()
    source = sqlite3.connect(path)
    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    try:
        with psycopg.connect(plain, options="-c timezone=UTC") as conn:
            for table in COPIED:
                columns = [r[1] for r in source.execute(f"PRAGMA table_info({table})")]
                with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                    for row in source.execute(f"SELECT {', '.join(columns)} FROM {table}"):
                        copy.write_row(row)
                if "id" in columns:
                    conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                 f"(SELECT COALESCE(MAX(id), 1) FROM {table}))")
            conn.commit()
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
    finally:
        source.close()
    return int(size[0]) if size else 0, time.perf_counter() - began


def timed(action: Callable[[], Any], repeat: int,
          server_cpu: Callable[[], float] | None = None) -> tuple[float, float, float, float | None]:
    """(median, worst, median CPU time of this process, mean CPU time of the database server or
    None) in milliseconds over ``repeat`` runs, after one warm-up run. On a shared machine the CPU
    time is what the work itself costs; the wall time adds the waits for a core. The server's CPU
    time (PostgreSQL's processes) is counted in clock ticks: a mean over the runs."""
    action()
    runs, cpu = [], []
    server_before = server_cpu() if server_cpu else 0.0
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        action()
        runs.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    server = (server_cpu() - server_before) * 1000 / repeat if server_cpu else None
    return statistics.median(runs), max(runs), statistics.median(cpu), server


Figure = tuple[float, float, float, float | None]


def screens(target: Path | str, repeat: int, year: int,
            server_cpu: Callable[[], float] | None = None) -> dict[str, Figure]:
    """Every screen's figures on one database (a SQLite file or a server's URL), by label."""
    from companion.app.screens.history import Filters
    from companion.app.shell import App

    store = Store(target)
    try:
        service = SessionService(store)
        app = App(service, None)
        anne = next(p for p in service.players() if p.name == "Anne")

        def show(screen: str, **params: Any) -> Callable[[], Any]:
            def run() -> None:
                app.stack = [app.stack[0]]
                app.memo.clear()  # a first visit: no part kept from the run before
                app.go(screen, **params)  # the service's queries, the widgets, the frame
            return run

        def history(**filters: Any) -> Callable[[], Any]:
            def run() -> None:
                app.drafts["history"] = Filters(**filters)
                show("history")()
            return run

        def stats(**state: Any) -> Callable[[], Any]:
            def run() -> None:
                app.drafts["stats"] = dict(state)
                show("stats")()
            return run

        since, until = (datetime(year, 1, 1, tzinfo=timezone.utc), datetime(year + 1, 1, 1, tzinfo=timezone.utc))

        def league(game: str) -> Callable[[], Any]:
            return lambda: service.club.league(game, since, until, limit=20)

        figures: list[tuple[str, Callable[[], Any]]] = [
            ("history, first page", history()),
            ("history, filtered page (game, player, status)",
             history(game="high-society", player="Anne", status="finished")),
            ("history, name search and a date range", history(search="é", since_text="2024-01-01",
                                                               until_text="31/12/2024")),
            ("statistics screen", stats()),
            ("one player's page", show("players", player_id=anne.id)),
            (f"club: history of one table ({CLUB_TABLE})", history(table=CLUB_TABLE)),
            ("club: statistics of one table", stats(table=CLUB_TABLE)),
            (f"club: statistics of one table, season {year}",
             stats(table=CLUB_TABLE, since=f"{year}-01-01", until=f"31/12/{year}")),
        ]
        figures += [(f"club: league table {year}, {game} (service)", league(game))
                    for game, _ in service.club.league_games(since, until)]
        page = service.history.page(limit=25)
        assert page.total == store.table_counts()["sessions"] and len(page.items) == 25
        assert service.history.page(table=CLUB_TABLE, limit=25).total > 0
        return {label: timed(action, repeat, server_cpu) for label, action in figures}
    finally:
        store.close()


def page_taps(target: Path, repeat: int) -> None:
    """Home and the history's « more » on a Flet page (no browser: a connection that encodes each
    message as the server does), CPU time of this process per run beside TAP_GOAL_MS."""
    import asyncio

    import msgpack
    from flet.controls.base_control import BaseControl
    from flet.messaging.connection import Connection
    from flet.messaging.protocol import configure_encode_object_for_msgpack
    from flet.messaging.session import Session
    from flet.pubsub.pubsub_hub import PubSubHub

    from companion.app import probe
    from companion.app.screens.history import PAGE
    from companion.app.shell import App
    from models.tables import STATUS_IN_PROGRESS

    encode = configure_encode_object_for_msgpack(BaseControl)

    class Encoding(Connection):
        def __init__(self) -> None:
            super().__init__()
            self.loop = asyncio.new_event_loop()  # the page runs its tasks there (a scroll to the top)
            self.pubsubhub = PubSubHub(loop=self.loop)

        def send_message(self, message: Any) -> None:
            msgpack.packb([message.action, message.body], default=encode)

    store = Store(target)
    try:
        service = SessionService(store)
        going = service.history.page(status=STATUS_IN_PROGRESS, limit=1).total
        session = Session(Encoding())
        page = session.page
        page.width, page.height = 1280, 800
        msgpack.packb(session.get_page_patch(), default=encode)
        app = App(service, page)

        def home() -> None:
            app.stack = [app.stack[0]]
            app.memo.clear()  # a first visit: no part kept from the run before
            app.home()

        median, worst, cpu, _ = timed(home, repeat)
        print(f"home, {going} games in progress of {store.table_counts()['sessions']:,} (on a page): "
              f"median {median:.1f} ms, worst {worst:.1f} ms, CPU {cpu:.1f} ms | goal CPU <= {TAP_GOAL_MS:.0f} ms "
              f"{'met' if cpu <= TAP_GOAL_MS else 'NOT met'}")
        app.go("history")
        walls, cpus = [], []
        for _ in range(repeat):
            # the button found first: walking the tree for it is this script's work, not the app's
            # (a browser's tap reaches the handler by the control's id)
            more = probe.handler(app.root, "history-more")
            began, began_cpu = time.perf_counter(), time.process_time()
            more()
            walls.append((time.perf_counter() - began) * 1000)
            cpus.append((time.process_time() - began_cpu) * 1000)
        shown = len([i for i in probe.idents(app.root) if i.startswith("history-") and i[8:].isdigit()])
        print(f"history « more » ({PAGE} rows, on a page; {shown} rows shown at the end): median {statistics.median(walls):.1f} ms, "
              f"CPU median {statistics.median(cpus):.1f} ms, first {cpus[0]:.1f}, last {cpus[-1]:.1f} | goal CPU <= "
              f"{TAP_GOAL_MS:.0f} ms {'met' if statistics.median(cpus) <= TAP_GOAL_MS else 'NOT met'}")
    finally:
        store.close()


def print_figures(measured: dict[str, dict[str, Figure]]) -> None:
    """The figures of each database side by side (median / worst / CPU), with the goal."""
    kinds = list(measured)
    labels = list(measured[kinds[0]])
    width = 58
    head = f"{'screen (service + widgets), ms':<{width}}"
    for kind in kinds:
        head += f" | {kind + ': median  worst    CPU':>34}"
    print(head + " | goal (median)")
    for label in labels:
        line = f"{label:<{width}}"
        marks = []
        for kind in kinds:
            figure = measured[kind].get(label)
            if figure is None:
                line += f" | {'-':>34}"
                continue
            median, worst, cpu, server = figure
            cpus = f"{cpu:6.1f}" if server is None else f"{cpu:5.1f}+{server:.0f}"
            line += f" | {median:14.1f} {worst:7.1f} {cpus:>10}"
            marks.append("ok" if median <= GOAL_MS else f"OVER on {kind}")
        print(f"{line} | <= {GOAL_MS:.0f} ms  {', '.join(m for m in marks if m != 'ok') or 'ok'}")
    if any(f[3] is not None for k in kinds for f in measured[k].values()):
        print("(PostgreSQL's CPU: this process + the server's processes, mean per run)")


def transfer(path: Path, directory: Path) -> None:
    store = Store(path)
    try:
        service = SessionService(store)
        began = time.perf_counter()
        everything = service.transfer.export()
        big = time.perf_counter() - began
    finally:
        store.close()
    records = everything[:1000]
    print(f"{'records':<34} {'count':>7} {'total':>10} {'per record':>12}")
    for count in (250, 500, 1000):
        target = Store(directory / f"import-{count}.db")
        try:
            fresh = SessionService(target)
            text = json.dumps(records[:count])
            began = time.perf_counter()
            ids = fresh.transfer.import_records(text)
            took = time.perf_counter() - began
            assert len(ids) == count
            print(f"{'import (checked, replayed, stored)':<34} {count:>7,} {took:8.2f} s {took / count * 1000:9.2f} ms")
        finally:
            target.close()
    small = Store(directory / "import-1000.db")
    try:
        began = time.perf_counter()
        assert len(SessionService(small).transfer.export()) == 1000
        took = time.perf_counter() - began
    finally:
        small.close()
    print(f"{'export':<34} {1000:>7,} {took:8.2f} s {took / 1000 * 1000:9.2f} ms")
    print(f"{'export':<34} {len(everything):>7,} {big:8.2f} s {big / len(everything) * 1000:9.2f} ms")


def postgresql_figures(path: Path, repeat: int, year: int) -> dict[str, Figure] | None:
    """The same figures on the same rows in a PostgreSQL database, on a throwaway server started
    the way the tests start one; None (and why, printed) when none can be started."""
    from tests.pgserver import Server

    server = Server()
    try:
        problem = server.start()
        if problem is not None:
            print(f"PostgreSQL: not measured ({problem})")
            return None
        url = server.new_database()
        size, took = copy_to_postgresql(path, url)
        assert server.folder is not None
        print(f"PostgreSQL {_server_version(url)}: the same rows copied in {took:.1f} s, {size / 2**20:.0f} MiB "
              f"(a throwaway server on a Unix socket, fsync off, default memory settings)")
        return screens(url, repeat, year, _server_cpu(server.folder / "data"))
    finally:
        server.stop()


def _server_version(url: str) -> str:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1)) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]).split()[0] if row else "?"


def _server_cpu(data: Path) -> Callable[[], float] | None:
    """CPU seconds (user + system) of the server's processes so far: the postmaster's children,
    read from /proc (None where there is no /proc)."""
    try:
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    if not Path("/proc").is_dir():
        return None
    tick = os.sysconf("SC_CLK_TCK")

    def total() -> float:
        seconds = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # a process that ended meanwhile
            pid = int(stat.parent.name)
            if pid == postmaster or int(fields[1]) == postmaster:  # fields[1]: the parent's pid
                seconds += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        return seconds

    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per screen (after a warm-up)")
    parser.add_argument("--dir", default=None, help="directory for the import databases (default: a temporary one)")
    parser.add_argument("--rebuild", action="store_true", help="build the cached database again")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only (no PostgreSQL server started)")
    parser.add_argument("--no-transfer", action="store_true", help="no import and export figures")
    args = parser.parse_args(argv)
    print("== history and statistics at a club's size ==")
    print(f"load average when starting: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores (timings below include whatever else the machine runs)")
    path, built = cached_database(args.games, args.rebuild)
    print(f"built in {built:.1f} s" if built is not None else "database from the cache")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        work = Path(tmp) / "club.db"
        shutil.copyfile(path, work)  # opening it must not change the cached copy
        counts = Store(work)
        try:
            rows = counts.table_counts()
        finally:
            counts.close()
        print(f"database: {rows['sessions']:,} games, {rows['actions']:,} action rows, "
              f"SQLite {work.stat().st_size / 2**20:.0f} MiB ({path})")
        year = season(rows["sessions"])
        measured = {"SQLite": screens(work, args.repeat, year)}
        if args.no_pg:
            print("PostgreSQL: not measured (--no-pg)")
        else:
            try:
                pg = postgresql_figures(work, args.repeat, year)
            except Exception as err:  # the SQLite figures are still printed
                print(f"PostgreSQL: failed ({type(err).__name__}: {err})")
                pg = None
            if pg is not None:
                measured["PostgreSQL"] = pg
        print_figures(measured)
        page_taps(work, args.repeat)
        if not args.no_transfer:
            transfer(work, Path(tmp))


if __name__ == "__main__":
    main()
