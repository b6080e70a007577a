"""examples/: the project's own records. Each one replays through `companion replay` exactly as
examples/README.md says (exit status, status, actions applied, winners), every game the app
referees has one, and the README lists every file and nothing else. A game registered from outside
the app (COMPANION_GAMES: the tests' High card) keeps its examples and their README in its package."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from models.outside_games import packages
from scoring.registry import refereed_games
from tests.conftest import EXAMPLES, ROOT, example_table

# the app's examples, then those of each game registered from outside it (its package's examples/)
FOLDERS = [EXAMPLES] + [ROOT / name.replace(".", "/") / "examples" for name in packages()]
TABLES = {folder: example_table(folder) for folder in FOLDERS}
FILES = [(folder, p.name) for folder in FOLDERS for p in sorted(folder.glob("*.json"))]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(ROOT)))
def test_the_readme_lists_exactly_the_example_files(folder):
    names = sorted(p.name for p in folder.glob("*.json"))
    assert names and sorted(TABLES[folder]) == names


def test_every_refereed_game_has_an_example():
    games = {json.loads((folder / name).read_text(encoding="utf-8"))["game"] for folder, name in FILES}
    assert set(refereed_games()) <= games, set(refereed_games()) - games


@pytest.mark.parametrize("folder, name", FILES, ids=lambda x: x if isinstance(x, str) else "")
def test_example_replays_as_its_readme_says(folder, name):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(folder / name)],
                          check=False, capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    verdict = json.loads(done.stdout)
    row = TABLES[folder][name]
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
