"""The example records beside the clone (``../shared/examples``, the contract's copies, which their
README says are all legal and in progress) replayed by this referee — with the one contradiction
between them and the rulebook stated here, not hidden.

``boursicocotte-in-progress.json`` has Marc hand over a 50 for a buy-back of 30 while he still holds
four 10s. The rulebook asks for the exact sum whenever the payer's cards make it (« si vous ne pouvez
pas payer exactement … vous devez payer une somme plus importante »), which is the app's default
(``payment: exact``): that payment is refused with BC-OVERPAY. Under the house variant
``payment: any`` the same actions replay in progress. The project's own copy (examples/) has Marc
pay three 10s instead.
"""

from __future__ import annotations

import json

import pytest

from scoring.referee import verdict_for_text
from tests.conftest import ROOT

SHARED = ROOT.parent / "shared" / "examples"
FILES = sorted(p.name for p in SHARED.glob("*.json")) if SHARED.is_dir() else []
# file → (index of the refused action, rule id): the contradictions with the rulebook, each explained above
CONTRADICTIONS = {"boursicocotte-in-progress.json": (8, "BC-OVERPAY")}

pytestmark = pytest.mark.skipif(not FILES, reason="no ../shared/examples beside this clone")


@pytest.mark.parametrize("name", FILES)
def test_a_shared_example_replays_in_progress_or_is_a_stated_contradiction(name):
    text = (SHARED / name).read_text(encoding="utf-8")
    verdict, status = verdict_for_text(text)
    if name not in CONTRADICTIONS:
        assert (status, verdict.status, verdict.error) == (0, "in_progress", None)
        return
    index, rule = CONTRADICTIONS[name]
    assert (status, verdict.status) == (1, "illegal")
    assert (verdict.error.index, verdict.error.rule) == (index, rule)


def test_the_boursicocotte_example_is_legal_under_the_house_variant_and_the_project_copy_pays_exactly():
    data = json.loads((SHARED / "boursicocotte-in-progress.json").read_text(encoding="utf-8"))
    marc_pays = data["actions"][8]
    assert marc_pays == {"type": "pay", "player": "Marc", "cards": [50]}  # owed: Nina's bid of 30
    verdict, status = verdict_for_text(json.dumps({**data, "variant": {"payment": "any"}}))
    assert (status, verdict.status, verdict.error) == (0, "in_progress", None)
    ours = json.loads((ROOT / "examples" / "boursicocotte-in-progress.json").read_text(encoding="utf-8"))
    assert ours["actions"][8] == {"type": "pay", "player": "Marc", "cards": [10, 10, 10]}
    verdict, status = verdict_for_text(json.dumps(ours))
    assert (status, verdict.status, verdict.applied) == (0, "in_progress", len(ours["actions"]))
