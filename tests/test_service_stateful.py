"""The record is the truth (branch ``state``): a stateful property test. For each refereed game,
one session is driven through the real SessionService on a SQLite file by a random mix of entries
(the next legal action of a complete legal record, benchmarks/playouts.py), undos, corrections
(to the same action: nothing changes; to another action the engine accepts there), previews of a
correction (nothing saved), an entry made by a second service on the same file (the first is then
refused with GameChanged, nothing lost) and a resume with a fresh service (after a crash). After
every step: a fresh service opens the same game as the live one; the game is a replay of its
exported record; the export imported into an empty store opens to the same game; the history row
agrees; a refused step changed no row."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.service import CorrectionConflict, GameChanged, Refused, ServiceError, SessionService, SessionState
from companion.store import Store
from models.record import action_to_data, parse_action, parse_record_data
from scoring.referee import new_engine, replay
from scoring.registry import refereed_games
from tests.support.store import snapshot

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from playouts import playout  # noqa: E402

ENVELOPE = ("format", "game", "players", "first_player", "variant", "actions")
_SCRIPTS: dict[tuple[str, int], dict[str, Any]] = {}


def script(game: str, seed: int) -> dict[str, Any]:
    key = (game, seed)
    if key not in _SCRIPTS:
        _SCRIPTS[key] = playout(game, seed)
    return _SCRIPTS[key]


def seen_of(state: SessionState) -> dict[str, Any]:
    """What a screen shows of a game (everything but times)."""
    return {"log": [(e.index, e.action, e.events) for e in state.log], "version": state.version,
            "expected": state.expected, "outcome": state.outcome, "status": state.status}


class Table(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="stateful"))
        self.path = self.dir / "x.db"
        self.store = Store(self.path)
        self.service = SessionService(self.store)
        # a second device's store, one a fresh service reads the game with, one to import into:
        # made once (a Store runs the migrations when made); a service's cache is its own
        self.other_store = Store(self.path)
        self.reader = Store(self.path)
        self.importer = Store(self.dir / "import.db")
        self.stores = [self.store, self.other_store, self.reader, self.importer]
        self.rows: dict[int, tuple] = {}

    def teardown(self) -> None:
        for store in self.stores:
            store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    @initialize(game=st.sampled_from(refereed_games()), seed=st.integers(0, 3))
    def begin(self, game: str, seed: int) -> None:
        record = script(game, seed)
        self.game = game
        self.record = record
        setup = {k: v for k, v in record.items() if k not in ENVELOPE}
        self.state = self.service.start(game, record["players"], record.get("first_player"), record.get("variant"),
                                        setup=setup or None)
        self.sid = self.state.session_id
        self.model: list[dict[str, Any]] = []  # the active entries' actions, as the table made them
        # the actions the engine may be offered: every distinct one of the record
        seen_texts: dict[str, dict[str, Any]] = {}
        players = list(record["players"])
        self.canonical = [action_to_data(parse_action(game, a, players)) for a in record["actions"]]
        for action in self.canonical:
            seen_texts.setdefault(json.dumps(action, sort_keys=True), action)
        self.pool = list(seen_texts.values())
        self.players = list(self.state.players)

    # -- helpers --------------------------------------------------------------------------------

    def engine_after(self, actions: list[dict[str, Any]]) -> Any:
        base = parse_record_data({**self.record, "actions": []})
        engine = new_engine(base)
        for a in actions:
            engine.apply(parse_action(self.game, a, self.players))
        return engine

    def legal_at(self, index: int, rng: random.Random, besides: dict[str, Any] | None = None) -> list[dict]:
        """Actions the engine accepts after the model's first ``index`` entries."""
        engine = self.engine_after(self.model[:index])
        if engine.outcome() is not None:
            return []
        out = []
        follow = self.canonical
        if self.model[:index] == follow[:index] and index < len(follow):
            out.append(follow[index])
        candidates = rng.sample(self.pool, min(30, len(self.pool)))
        for a in candidates:
            if a != besides and engine.can(parse_action(self.game, a, self.players)):
                out.append(a)
        return [a for a in out if a != besides]

    def refused(self, change: Any, *errors: type[BaseException]) -> BaseException:
        before = snapshot(self.path)
        with pytest.raises(errors or (ServiceError,)) as err:
            change()
        assert snapshot(self.path) == before, "a refused step changed the database"
        return err.value

    def _fits(self, actions: list[dict[str, Any]]) -> bool:
        try:
            self.engine_after(actions)
        except Exception:
            return False
        return True

    # -- steps ----------------------------------------------------------------------------------

    @rule(data=st.data())
    def submit_next(self, data: st.DataObject) -> None:
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        choices = self.legal_at(len(self.model), rng)
        if not choices:
            if self.state.outcome is not None:  # finished: any entry is refused, nothing written
                action = self.canonical[-1]
                self.refused(lambda: self.service.submit(self.sid, action, seen=self.state.version))
            return
        action = choices[0] if data.draw(st.booleans()) else rng.choice(choices)
        self.state = self.service.submit(self.sid, action, seen=self.state.version)
        self.model.append(action)

    @rule(times=st.integers(1, 4))
    def submit_many(self, times: int) -> None:
        """Follow the record a few entries (to reach the end of a game sometimes)."""
        for _ in range(times):
            follow = self.canonical
            n = len(self.model)
            if self.model != follow[:n] or n >= len(follow):
                return
            self.state = self.service.submit(self.sid, follow[n], seen=self.state.version)
            self.model.append(follow[n])

    @rule()
    def undo(self) -> None:
        if not self.model:
            self.refused(lambda: self.service.undo(self.sid, seen=self.state.version))
            return
        self.state = self.service.undo(self.sid, seen=self.state.version)
        self.model.pop()

    @precondition(lambda self: bool(self.model))
    @rule(data=st.data())
    def correct_same(self, data: st.DataObject) -> None:
        index = data.draw(st.integers(0, len(self.model) - 1))
        before = snapshot(self.path)
        version = self.state.version
        self.state = self.service.correct(self.sid, index, self.model[index], seen=self.state.version)
        assert self.state.version == version
        assert snapshot(self.path) == before, "a correction to the same action wrote something"

    @precondition(lambda self: bool(self.model))
    @rule(data=st.data())
    def correct_other(self, data: st.DataObject) -> None:
        index = data.draw(st.integers(0, len(self.model) - 1))
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        choices = self.legal_at(index, rng, besides=self.model[index])
        if not choices:
            return
        action = rng.choice(choices)
        corrected = self.model[:index] + [action] + self.model[index + 1:]
        try:
            self.engine_after(corrected)
            fits = True
        except Exception:
            fits = False
        if not fits:
            self.refused(lambda: self.service.correct(self.sid, index, action, seen=self.state.version),
                         CorrectionConflict, Refused)
            return
        self.state = self.service.correct(self.sid, index, action, seen=self.state.version)
        self.model = corrected

    @precondition(lambda self: bool(self.model))
    @rule(data=st.data())
    def preview(self, data: st.DataObject) -> None:
        index = data.draw(st.integers(0, len(self.model) - 1))
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        choices = self.legal_at(index, rng) + [self.model[index]]
        action = rng.choice(choices)
        before = snapshot(self.path)
        corrected = self.model[:index] + [action] + self.model[index + 1:]
        try:
            shown = self.service.preview_correction(self.sid, index, action, seen=self.state.version)
        except (CorrectionConflict, Refused):
            shown = None
        assert snapshot(self.path) == before, "a preview saved something"
        if shown is not None:
            assert [e.action for e in shown.log] == corrected
            expect = replay(parse_record_data({**self.record, "actions": corrected}))
            assert expect.violation is None
            assert shown.outcome == expect.engine.outcome()
            assert shown.expected == expect.engine.expected()

    @rule(data=st.data())
    def other_device(self, data: st.DataObject) -> None:
        """A second service on the same file makes an entry: the first one, changing the game it
        showed, is told GameChanged; nothing is lost."""
        other = SessionService(self.other_store)
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        choices = self.legal_at(len(self.model), rng)
        old = self.state.version
        theirs_how = data.draw(st.sampled_from(["submit", "undo", "correct"]))
        if theirs_how == "correct" and self.model:
            index = data.draw(st.integers(0, len(self.model) - 1))
            alternatives = [a for a in self.legal_at(index, rng, besides=self.model[index])
                            if self._fits(self.model[:index] + [a] + self.model[index + 1:])]
            if not alternatives:
                return
            theirs = other.correct(self.sid, index, alternatives[0], seen=other.open(self.sid).version)
            self.model[index] = alternatives[0]
        elif choices and (theirs_how != "undo" or not self.model):
            theirs = other.submit(self.sid, choices[0], seen=other.open(self.sid).version)
            self.model.append(choices[0])
        elif self.model:
            theirs = other.undo(self.sid, seen=other.open(self.sid).version)
            self.model.pop()
        else:
            return
        how = data.draw(st.sampled_from(["submit", "undo", "correct"]))
        given = data.draw(st.sampled_from([old, None]))  # a screen's seen, or none (this service's cache)
        if how == "submit":
            action = data.draw(st.sampled_from(self.pool))
            change = lambda: self.service.submit(self.sid, action, seen=given)  # noqa: E731
        elif how == "undo":
            change = lambda: self.service.undo(self.sid, seen=given)  # noqa: E731
        else:
            index = data.draw(st.integers(0, len(self.model) + 1))
            action = data.draw(st.sampled_from(self.pool + self.model))
            change = lambda: self.service.correct(self.sid, index, action, seen=given)  # noqa: E731
        if theirs.version == old:  # the same active entries (a seq is never reused): nothing to refuse
            return
        err = self.refused(change, GameChanged)
        assert isinstance(err, GameChanged)
        assert seen_of(err.state) == seen_of(theirs)
        self.state = err.state

    @rule(new_store=st.booleans())
    def resume(self, new_store: bool) -> None:
        """The app is killed and started again: a fresh service (on a fresh store)."""
        if new_store:
            self.store = Store(self.path)
            self.stores.append(self.store)
        self.service = SessionService(self.store)
        unfinished = {s.session_id for s in self.service.history.unfinished()}
        self.state = self.service.open(self.sid)
        assert (self.sid in unfinished) == (self.state.outcome is None)

    # -- invariants -----------------------------------------------------------------------------

    @invariant()
    def the_record_is_the_truth(self) -> None:
        if not hasattr(self, "sid"):
            return
        live = self.service.last_known(self.sid)
        assert [e.action for e in live.log] == self.model
        # nothing saved is ever lost: a row, once written, stays; once retracted, stays retracted
        con = sqlite3.connect(self.path)
        try:
            rows = {r[0]: r[1:] for r in con.execute(
                "SELECT seq, action, created_at, retracted_at FROM actions WHERE session_id = ?", (self.sid,))}
        finally:
            con.close()
        for seq, (action, created, retracted) in self.rows.items():
            assert rows[seq][:2] == (action, created)
            assert retracted is None or rows[seq][2] == retracted
        active = [json.loads(rows[seq][0]) for seq in sorted(rows) if rows[seq][2] is None]
        assert active == self.model
        self.rows = rows
        assert seen_of(live) == seen_of(self.state)
        # (1) a fresh service opens the same game
        fresh = SessionService(self.reader)
        assert seen_of(fresh.open(self.sid)) == seen_of(live)
        # (2) a replay of the exported record from scratch
        (exported,) = fresh.transfer.export(self.sid)
        assert exported["actions"] == self.model
        again = replay(parse_record_data(exported))
        assert again.violation is None
        assert again.engine.outcome() == live.outcome
        assert again.engine.expected() == live.expected
        assert [tuple(e) for e in again.events] == [e.events for e in live.log]
        # (4) the summary row
        (summary,) = [s for s in fresh.history.all() if s.session_id == self.sid]
        assert summary.status == live.status
        assert summary.entries == len(self.model)
        if live.outcome is not None:
            assert set(summary.winners) == set(live.outcome.winners)
        else:
            assert summary.winners == ()
            assert summary.finished_at is None
        # (3) the export imported into an empty store (the game imported before is deleted)
        imported = SessionService(self.importer)
        try:
            (new_id,) = imported.transfer.import_records(json.dumps(exported))
            back = imported.open(new_id)
            assert [e.action for e in back.log] == self.model
            assert back.outcome == live.outcome
            assert back.expected == live.expected
            assert imported.transfer.export(new_id) == [exported]
        finally:
            for summary in imported.history.all():
                imported.delete(summary.session_id)


# STATEFUL_EXAMPLES=400 for a longer search (a few minutes)
Table.TestCase.settings = settings(max_examples=int(os.environ.get("STATEFUL_EXAMPLES", 12)), stateful_step_count=25,
                                   deadline=None, suppress_health_check=list(HealthCheck))
test_the_record_is_the_truth = Table.TestCase
