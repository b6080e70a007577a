"""`companion replay` as a person runs it: one JSON verdict on stdout, the spec's exit codes."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLES, ROOT


def replay(*args, stdin=None):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    verdict = json.loads(done.stdout)  # stdout is exactly one JSON object, whatever happened
    assert verdict["format"] == "table-verdict/1"
    return done.returncode, verdict, done


def test_standard_input():
    text = (EXAMPLES / "high-society-in-progress.json").read_bytes()
    status, verdict, _ = replay("-", stdin=text)
    assert (status, verdict["status"]) == (0, "in_progress")


def test_an_illegal_action_exits_1_with_its_rule():
    record = json.loads((EXAMPLES / "high-society-in-progress.json").read_text())
    record["actions"].append({"type": "bid", "player": "Omar", "add": [2]})  # Nina reveals next
    status, verdict, _ = replay("-", stdin=json.dumps(record).encode())
    assert status == 1
    assert verdict["status"] == "illegal"
    assert verdict["applied"] == len(record["actions"]) - 1
    assert verdict["error"]["index"] == len(record["actions"]) - 1
    assert verdict["error"]["rule"].startswith("HS-")
    assert verdict["error"]["message"]


@pytest.mark.parametrize(
    "stdin, needle",
    [(b"{not json", "not valid JSON"), (b"", "not valid JSON"), (b'"text"', "JSON object"),
     (b'{"format": "table-record/1", "game": "high-society", "players": ["A", "B", "C"], "actions": [{"type": "bid", "player": "A", "add": [5]}]}', "actions[0].add[0]")],
)
def test_malformed_input_exits_2_with_one_json_object(stdin, needle):
    status, verdict, done = replay("-", stdin=stdin)
    assert status == 2
    assert verdict["status"] == "illegal" and verdict["error"]["rule"] == "RECORD"
    assert needle in verdict["error"]["message"]
    assert b"Traceback" not in done.stderr


def test_unreadable_file_exits_2(tmp_path):
    status, verdict, done = replay(str(tmp_path / "missing.json"))
    assert status == 2 and verdict["error"]["rule"] == "RECORD"
    assert "cannot read" in verdict["error"]["message"]
    assert b"Traceback" not in done.stderr


def test_verdict_in_french(tmp_path):
    record = json.loads((EXAMPLES / "high-society-in-progress.json").read_text())
    record["actions"].append({"type": "bid", "player": "Omar", "add": [2]})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    _, english, _ = replay(str(path))
    _, french, _ = replay(str(path), "--lang", "fr")
    assert english["error"]["rule"] == french["error"]["rule"]
    assert english["error"]["message"] != french["error"]["message"]
