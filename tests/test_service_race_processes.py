"""Two app processes on one database: each is a real process with its own service and
store, as two tablets of a club on one PostgreSQL server (and, for comparison, on one SQLite file).
They race on the same game (entries and undos, each on the state its process last showed) and
each plays games of its own at the same time (different games: never refused), all of the same
game and month, so their finishes recount the same monthly figures at once.

Checked afterwards, from the database alone: every acknowledged entry is there and nothing else,
every acknowledged undo retracted exactly its entry, no process met any error but the clear
GameChanged (with a game it had not shown), no entry on a process's own games was refused, and
the statistics count every finished game — the monthly figures equal a full recount.

Run as a child: python -m tests.test_service_race_processes DB SHARED_SESSION SEED ROUNDS
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Anne", "Bruno", "Chloé"]
ROUNDS = 40


def child(db: str, shared: int, seed: int, rounds: int) -> None:
    from companion.service import GameChanged, SessionService
    from companion.store import Store
    from tests.support.games import hs_designed, hs_long

    script = hs_long(PLAYERS)["actions"]
    own_script = hs_designed(PLAYERS, "Anne")["actions"]  # short: it finishes several times
    rng = random.Random(seed)
    service = SessionService(Store(db))

    def say(**line: object) -> None:
        print(json.dumps(line), flush=True)

    state = service.open(shared)
    own = service.start("high-society", PLAYERS)
    say(kind="ready")
    sys.stdin.readline()  # both processes start racing at once
    for _ in range(rounds):
        try:
            if state.log and (len(state.log) == len(script) or rng.random() < 0.3):
                new = service.undo(shared, seen=state.version)
                say(kind="undo", shown=state.version, shown_len=len(state.log), new_len=len(new.log))
            else:
                new = service.submit(shared, script[len(state.log)], seen=state.version)
                say(kind="submit", shown=state.version, shown_len=len(state.log), version=new.version,
                    ok=[e.action for e in new.log] == script[:len(state.log) + 1])
            state = new
        except GameChanged as err:
            say(kind="changed", seen=err.seen, now=err.state.version)
            state = err.state
        own = service.submit(own.session_id, own_script[len(own.log)], seen=own.version)
        if own.status == "finished":
            say(kind="finished", session=own.session_id)
            own = service.start("high-society", PLAYERS)
    say(kind="done")


def test_two_processes_race_on_one_game_and_play_their_own(database):
    from companion.service import SessionService
    from companion.store import Store
    from tests.support.games import hs_long

    script = hs_long(PLAYERS)["actions"]
    store = Store(database)
    try:
        service = SessionService(store)
        shared = service.start("high-society", PLAYERS).session_id
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        procs = [subprocess.Popen([sys.executable, "-m", "tests.test_service_race_processes", str(database),
                                   str(shared), str(seed), str(ROUNDS)], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for seed in (1, 2)]
        lines: list[dict] = []
        try:
            for proc in procs:
                first = proc.stdout.readline()
                assert first and json.loads(first)["kind"] == "ready", proc.stderr.read()[-2000:]
            for proc in procs:
                proc.stdin.write("go\n")
                proc.stdin.flush()
            for proc in procs:
                out, err = proc.communicate(timeout=300)
                assert proc.returncode == 0, err[-3000:]  # no error of any other kind escaped
                lines += [json.loads(line) for line in out.splitlines()]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        assert sum(1 for line in lines if line["kind"] == "done") == 2
        submits = [line for line in lines if line["kind"] == "submit"]
        undos = [line for line in lines if line["kind"] == "undo"]
        assert submits and all(line["ok"] for line in submits)  # each on exactly the game its device showed
        for line in lines:
            if line["kind"] == "changed":  # the clear refusal, with a game the device had not shown
                assert line["seen"] != line["now"]
        with store.read() as db:
            log = {r.seq: r.retracted_at is not None for r in store.all_actions(db, shared)}
        assert set(log) == {line["version"] for line in submits}  # every acknowledged entry, nothing else
        assert {seq for seq, retracted in log.items() if retracted} == {line["shown"] for line in undos}
        final = SessionService(store).open(shared)
        assert [e.action for e in final.log] == script[:len(final.log)]
        # every finished game counted once in the statistics, and the monthly figures are a recount's
        fresh = SessionService(store)
        finished = {s.session_id for s in fresh.history.all(status="finished")}
        own_finished = {line["session"] for line in lines if line["kind"] == "finished"}
        assert own_finished and own_finished <= finished
        assert {g.game: g.games for g in fresh.history.game_stats()} == {"high-society": len(finished)}
        assert {p.name: p.games for p in fresh.history.player_stats()} == {name: len(finished) for name in PLAYERS}
        months = _months(store)
        with store.write() as db:
            store.refresh_summaries(db)
        assert _months(store) == months
    finally:
        store.close()


def _months(store) -> dict:
    """The monthly figures; sums of durations to the microsecond (a sum of floating-point numbers
    depends on the order the server reads them in, which an update may change)."""
    from sqlalchemy import text

    def exact(value: object) -> object:
        return round(value, 6) if isinstance(value, float) else value

    with store.read() as db:
        return {table: sorted(tuple(exact(v) for v in r) for r in db.execute(text(f"SELECT * FROM {table}")))
                for table in ("game_months", "player_months")}


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
