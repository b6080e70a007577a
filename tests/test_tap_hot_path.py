"""What a tap's hot path makes in its cheaper ways is exactly what the plain ways made: the stored
time text (SQLAlchemy's SQLite DateTime bind processor), the entry's JSON text (json.dumps with the
store's options), and the frozen states made without their generated __init__."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from companion.service import SessionService
from companion.service.states import LogEntry, SessionState, made
from companion.store import Store, action_text, dumps

MOMENTS = [
    datetime(2026, 11, 27, 14, 56, 18, 123456, tzinfo=timezone.utc),
    datetime(2026, 1, 2, 3, 4, 5),  # naive, taken as UTC
    datetime(2026, 1, 2, 3, 4, 5, 0, tzinfo=timezone.utc),  # no microseconds: still written
    datetime(5, 6, 7, 8, 9, 10, 11),  # a year of one digit: zero-padded
    datetime(2026, 3, 29, 2, 30, tzinfo=timezone(timedelta(hours=2))),  # the fields as they are, no offset
]


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_stamp_is_the_text_sqlalchemy_writes_for_the_time(tmp_path, moment):
    store = Store(tmp_path / "t.db")
    try:
        assert store._time_in is not None
        assert store._stamp(moment) == store._time_in(moment)
    finally:
        store.close()


@pytest.mark.parametrize("data", [
    {"type": "bid", "player": "Chloé", "add": [1, 2, 20]},
    {"type": "x", "text": "".join(chr(c) for c in range(0, 0x80)) + "é\u2028\U0001f600", "n": None, "ok": True},
    {"f": 1e16, "g": 0.1, "h": -1e-7, "nested": {"a": [[], {}], "b": 10 ** 20}},
])
def test_an_entry_text_is_json_dumps_with_the_store_options(data):
    assert dumps(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def test_a_state_made_without_init_equals_the_one_init_makes_and_stays_frozen(tmp_path):
    store = Store(tmp_path / "t.db")
    try:
        service = SessionService(store)
        state = service.start("stupide-vautour", ["Anne", "Bruno"])
        state = service.submit(state.session_id, {"type": "reveal", "card": 3}, seen=state.version)
        values = {f.name: getattr(state, f.name) for f in dataclasses.fields(SessionState)}
        assert SessionState(**values) == state
        assert {f.name: getattr(SessionState(**values), f.name) for f in dataclasses.fields(SessionState)} == values
        with pytest.raises(dataclasses.FrozenInstanceError):
            state.version = 0  # type: ignore[misc]
        assert state.log[-1] == LogEntry(index=0, action={"type": "reveal", "card": 3}, events=state.log[-1].events)
        assert state.record.actions  # the cached property still works on a state made this way
    finally:
        store.close()


def test_made_refuses_a_missing_field():
    with pytest.raises(AssertionError):
        made(LogEntry, index=0, action={})


EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_an_entry_text_encoded_from_its_struct_is_the_text_of_its_data(path):
    """A tap converts its action to the stored text once (``action_text``, straight from the parsed
    struct): the very text ``dumps`` wrote from the action's data, every action of every game."""
    from models.record import action_to_data, parse_action, parse_record

    record = parse_record(path.read_text(encoding="utf-8"))
    assert record.actions
    for action in record.actions:
        again = parse_action(record.game, action_to_data(action), list(record.players))
        assert action_text(again) == dumps(action_to_data(again))
    odd = parse_action("stupide-vautour", {"type": "play", "cards": {"Zoé\u2028\"\\": 3, "Ann\x7f\x01": 4}},
                       ["Zoé\u2028\"\\", "Ann\x7f\x01"])
    assert action_text(odd) == dumps(action_to_data(odd))
