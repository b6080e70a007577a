"""The example records beside the clone (``../shared/examples``, the contract's copies, which their
README says are all legal and in progress) replayed by this referee, and the project's own copies
(``examples/``, so that a clone without ``../shared`` is complete) kept the same record.

``boursicocotte-in-progress.json`` once had Marc hand over a 50 for a buy-back of 30 while he held
four 10s, which the rulebook refuses (BC-OVERPAY); the contract's copy now pays three 10s, exactly,
as the project's copy did: no example contradicts the rulebook.
"""

from __future__ import annotations

import json

import pytest

from scoring.referee import verdict_for_text
from tests.conftest import ROOT

SHARED = ROOT.parent / "shared" / "examples"
FILES = sorted(p.name for p in SHARED.glob("*.json")) if SHARED.is_dir() else []

pytestmark = pytest.mark.skipif(not FILES, reason="no ../shared/examples beside this clone")


@pytest.mark.parametrize("name", FILES)
def test_a_shared_example_replays_in_progress(name):
    text = (SHARED / name).read_text(encoding="utf-8")
    verdict, status = verdict_for_text(text)
    assert (status, verdict.status, verdict.error) == (0, "in_progress", None)
    assert verdict.applied == len(json.loads(text)["actions"])


@pytest.mark.parametrize("name", FILES)
def test_the_project_keeps_the_same_record_as_each_shared_example(name):
    shared = json.loads((SHARED / name).read_text(encoding="utf-8"))
    ours = json.loads((ROOT / "examples" / name).read_text(encoding="utf-8"))
    assert ours == shared


def test_the_boursicocotte_buy_back_is_paid_exactly():
    data = json.loads((SHARED / "boursicocotte-in-progress.json").read_text(encoding="utf-8"))
    assert data["actions"][8] == {"type": "pay", "player": "Marc", "cards": [10, 10, 10]}  # Nina's bid of 30
    # the same record paid with the 50 instead is the rulebook's overpayment, refused by default
    overpaid = {**data, "actions": [*data["actions"][:8], {"type": "pay", "player": "Marc", "cards": [50]}]}
    verdict, status = verdict_for_text(json.dumps(overpaid))
    assert (status, verdict.status, verdict.error.index, verdict.error.rule) == (1, "illegal", 8, "BC-OVERPAY")
