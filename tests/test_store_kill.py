"""The store survives `kill -9` during appends.

A child process plays High Society through the service and prints an acknowledgement after each
submit has returned. The parent kills it with SIGKILL at varied moments — right after an
acknowledgement, a little later, or while it is still starting — then reopens the database:
every acknowledged entry must be there, in order, and the session must replay. The next child
resumes the unfinished game where the database says it stopped, as the app does after a crash.
Once on a SQLite file, once on a PostgreSQL database (empty at first: the first child may be
killed while it migrates, in one transaction on the server).

Run as a child: python -m tests.test_store_kill DB_PATH_OR_URL
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

PLAYERS = ["Anne", "Bruno", "Chloé", "Dario"]
ROOT = Path(__file__).resolve().parents[1]
MAX_ACKS = 5000  # a child left alone stops by itself


def child(db_path: str) -> None:
    from companion.service import SessionService
    from companion.store import Store
    from tests.support.games import hs_long

    service = SessionService(Store(db_path))
    script = hs_long(PLAYERS)["actions"]
    acks = 0
    print("ready", flush=True)
    while acks < MAX_ACKS:
        unfinished = service.history.unfinished()
        state = service.open(unfinished[0].session_id) if unfinished else service.start("high-society", PLAYERS)
        for action in script[len(state.log):]:
            state = service.submit(state.session_id, action)
            # printed only once submit has returned, i.e. once the entry is committed
            print(f"ack {state.session_id} {len(state.log) - 1}", flush=True)
            acks += 1


def _check(db_path: Path | str, acked: dict[int, int]) -> None:
    from companion.service import SessionService
    from companion.store import Store
    from tests.support.games import hs_long

    script = hs_long(PLAYERS)["actions"]
    store = Store(db_path)
    try:
        service = SessionService(store)
        for session_id, last in acked.items():
            state = service.open(session_id)  # replays from the rows alone
            assert len(state.log) >= last + 1, (session_id, len(state.log), last)
            assert [e.action for e in state.log] == script[:len(state.log)]
            assert [e.index for e in state.log] == list(range(len(state.log)))
            if len(state.log) == len(script):
                assert state.status == "finished"
        with store.read() as db:  # nothing half-written: seqs are dense and nothing was retracted
            for session_id in acked:
                rows = store.all_actions(db, session_id)
                assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
                assert all(r.retracted_at is None for r in rows)
    finally:
        store.close()


def test_acknowledged_entries_survive_kill_9(empty_database):
    db_path = empty_database
    rng = random.Random(20261101)
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    acked: dict[int, int] = {}
    order: list[tuple[int, int]] = []
    # (acknowledgements to wait for, extra delay in seconds before the kill)
    moments = [(None, 0.05), (4, 0.0), (9, 0.003), (1, 0.0), (17, 0.011), (6, 0.0)]
    for wait_for, delay in moments:
        proc = subprocess.Popen([sys.executable, "-m", "tests.test_store_kill", str(db_path)], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            seen = 0
            if wait_for is None:  # kill while it opens the database (maybe while migrating)
                time.sleep(rng.uniform(0.2, 0.5))
            else:
                while seen < wait_for:
                    line = proc.stdout.readline()
                    assert line, f"child ended early: {proc.stderr.read()[-2000:]}"
                    if line.startswith("ack "):
                        _, sid, index = line.split()
                        order.append((int(sid), int(index)))
                        seen += 1
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            rest, errors = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == -signal.SIGKILL, errors[-2000:]
        for line in rest.splitlines():  # acknowledged before the kill, read after it
            if line.startswith("ack "):
                _, sid, index = line.split()
                order.append((int(sid), int(index)))
        for sid, index in order:
            acked[sid] = max(acked.get(sid, -1), index)
        _check(db_path, acked)
    assert sum(1 for _ in order) >= sum(w for w, _ in moments if w)
    # acknowledgements came in order, each session's entries one after the other
    last: dict[int, int] = {}
    for sid, index in order:
        assert index > last.get(sid, -1)
        last[sid] = index


if __name__ == "__main__":
    child(sys.argv[1])
