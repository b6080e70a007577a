"""examples/: the project's own records. Each one replays through `companion replay` exactly as
examples/README.md says (exit status, status, actions applied, winners), every game the app
referees has one, and the README lists every file and nothing else."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from scoring.registry import refereed_games
from tests.conftest import EXAMPLES, ROOT, example_table

TABLE = example_table()
FILES = sorted(p.name for p in EXAMPLES.glob("*.json"))


def test_the_readme_lists_exactly_the_example_files():
    assert FILES and sorted(TABLE) == FILES


def test_every_refereed_game_has_an_example():
    games = {json.loads((EXAMPLES / name).read_text(encoding="utf-8"))["game"] for name in FILES}
    assert set(refereed_games()) <= games, set(refereed_games()) - games


@pytest.mark.parametrize("name", FILES)
def test_example_replays_as_its_readme_says(name):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(EXAMPLES / name)],
                          check=False, capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    verdict = json.loads(done.stdout)
    row = TABLE[name]
    assert done.returncode == int(row["exit"]), done.stderr
    assert verdict["status"] == row["status"]
    assert verdict["applied"] == int(row["applied"])
    assert verdict["error"] is None
    winners = [] if row["winners"] == "–" else [w.strip() for w in row["winners"].split(",")]
    result = verdict["result"]
    if row["status"] == "finished":
        assert result is not None and result["winners"] == winners
    else:
        assert result is None and winners == []
