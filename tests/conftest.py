import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples"


@pytest.fixture
def make_record():
    """Build a table-record/1 dict: make_record("high-society", ["A", "B", "C"], actions=[...])."""

    def build(game, players, actions=(), **extra):
        data = {"format": "table-record/1", "game": game, "players": list(players), "actions": list(actions)}
        data.update(extra)
        return data

    return build


def as_text(data) -> str:
    return json.dumps(data, ensure_ascii=False)
