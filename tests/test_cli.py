"""`companion replay` as a person runs it: one JSON verdict on stdout, the spec's exit codes."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.support.cli import replay


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


# --- companion replay --lines: a season's records at once ----------------------------------------


def replay_lines(stdin: bytes, *args: str):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", "--lines", "-", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    verdicts = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert all(v["format"] == "table-verdict/1" for v in verdicts)
    assert b"Traceback" not in done.stderr
    return done.returncode, verdicts


def _line(record: dict) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode()


def _legal() -> dict:
    return json.loads((EXAMPLES / "high-society-in-progress.json").read_text())


def _refused() -> dict:
    record = _legal()
    record["actions"].append({"type": "bid", "player": "Omar", "add": [2]})  # Nina reveals next
    return record


def test_lines_give_one_verdict_per_record_in_order_and_each_says_its_line():
    paths = sorted(EXAMPLES.glob("*.json"))
    records = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    singles = [replay(str(p)) for p in paths]  # each record on its own: (status, verdict, _)
    status, verdicts = replay_lines(b"\n".join(_line(r) for r in records) + b"\n")
    assert [v["line"] for v in verdicts] == list(range(1, len(paths) + 1))
    assert [{k: val for k, val in v.items() if k != "line"} for v in verdicts] == [v for _, v, _ in singles]
    assert status == max(s for s, _, _ in singles)  # 2 over 1 over 0
    assert {r["game"] for r in records} >= {"high-society", "stupide-vautour", "boursicocotte"}


def test_lines_exit_1_when_a_record_is_refused():
    status, verdicts = replay_lines(_line(_legal()) + b"\n" + _line(_refused()) + b"\n")
    assert status == 1
    assert [v["status"] for v in verdicts] == ["in_progress", "illegal"]
    assert verdicts[1]["error"]["rule"].startswith("HS-")


def test_a_malformed_line_gets_its_record_verdict_and_the_batch_exits_2():
    lines = [_line(_refused()), b"{not json", _line({**_legal(), "surprise": 1}), _line(_legal())]
    status, verdicts = replay_lines(b"\n".join(lines))  # no newline after the last line: still read
    assert status == 2  # malformed wins over refused
    assert [v["status"] for v in verdicts] == ["illegal", "illegal", "illegal", "in_progress"]
    assert [v["error"]["rule"] if v["error"] else None for v in verdicts] == [verdicts[0]["error"]["rule"], "RECORD",
                                                                              "RECORD", None]
    assert "not valid JSON" in verdicts[1]["error"]["message"]
    assert verdicts[2]["game"] == "high-society" and "surprise" in verdicts[2]["error"]["message"]
    assert [v["line"] for v in verdicts] == [1, 2, 3, 4]


def test_blank_lines_are_no_records_and_the_verdicts_keep_the_input_line_numbers():
    status, verdicts = replay_lines(b"\n" + _line(_legal()) + b"\n  \t\r\n\n" + _line(_refused()) + b"\r\n\n")
    assert status == 1
    assert [v["line"] for v in verdicts] == [2, 5]
    assert [v["status"] for v in verdicts] == ["in_progress", "illegal"]


def test_empty_input_has_no_verdicts_and_exits_0():
    assert replay_lines(b"") == (0, [])


def test_lines_in_french_and_from_a_file(tmp_path):
    path = tmp_path / "season.jsonl"
    path.write_bytes(_line(_refused()) + b"\n")
    done = subprocess.run([sys.executable, "-m", "companion", "replay", "--lines", str(path), "--lang", "fr"],
                          capture_output=True, cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    (french,) = [json.loads(line) for line in done.stdout.decode().splitlines()]
    _, english, _ = replay("-", stdin=_line(_refused()))
    assert done.returncode == 1
    assert french["error"]["rule"] == english["error"]["rule"]
    assert french["error"]["message"] != english["error"]["message"]


def test_lines_from_an_unreadable_file_exit_2_with_one_verdict(tmp_path):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", "--lines", str(tmp_path / "missing.jsonl")],
                          capture_output=True, cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    (verdict,) = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert done.returncode == 2 and verdict["error"]["rule"] == "RECORD" and "cannot read" in verdict["error"]["message"]


def test_a_single_verdict_has_no_line_field():
    _, verdict, _ = replay("-", stdin=_line(_legal()))
    assert "line" not in verdict


# --- the replay path imports only what it needs -----------------------------------------------------

PROBE = """
import runpy, sys
sys.argv = ["companion", "replay", sys.argv[1]]
try:
    runpy.run_module("companion", run_name="__main__")
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("flet", "sqlalchemy", "sqlmodel", "alembic"))
sys.stderr.write("HEAVY:" + ",".join(heavy) + "\\n")
sys.stderr.write("GAMES:" + ",".join(sorted(m for m in sys.modules if m.startswith("scoring."))) + "\\n")
"""


@pytest.mark.parametrize("example", ["high-society-in-progress", "stupide-vautour-in-progress"])
def test_replay_imports_no_flet_no_sqlalchemy_and_only_the_engine_at_hand(example):
    done = subprocess.run([sys.executable, "-c", PROBE, str(EXAMPLES / f"{example}.json")], capture_output=True,
                          cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = dict(line.split(":", 1) for line in done.stderr.decode().splitlines() if line[:6] in ("HEAVY:", "GAMES:"))
    assert json.loads(done.stdout)["status"] == "in_progress"  # the probe did replay the record
    assert lines["HEAVY"] == ""
    engines = {m for m in lines["GAMES"].split(",") if m not in ("scoring.base", "scoring.referee", "scoring.registry")}
    assert engines == {"scoring." + example.split("-in-")[0].replace("-", "_")}


def test_an_animalement_votre_verdict_speaks_of_animals():
    """The verdict renders its sentences in the record's edition's words, as the app's screens do:
    Animalement Vôtre's refusal names animals and « malade comme un chien », not possessions and
    the theft; High Society's the possessions and the theft."""
    def bid(player, add):
        return {"type": "bid", "player": player, "add": add}

    def passes(player):
        return {"type": "pass", "player": player}

    actions = [{"type": "reveal", "card": "p3"}, bid("Anne", [1]), passes("Bruno"), passes("Chloé"),
               {"type": "reveal", "card": "theft"}, passes("Anne"),
               {"type": "reveal", "card": "p5"}]  # Anne owns a possession (an animal): she must discard it first
    for game, says, never in (("animalement-votre", "malade comme un chien", "possession"),
                              ("high-society", "theft", "animal")):
        text = json.dumps({"format": "table-record/1", "game": game, "players": ["Anne", "Bruno", "Chloé"],
                           "actions": actions})
        status, verdict, _ = replay("-", stdin=text.encode())
        error = verdict["error"]
        assert status == 1 and error["rule"] == "HS-DISCARD-REQUIRED"
        assert says in error["message"] and never not in error["message"].lower(), error["message"]


# --- companion replay --lines --jobs N: a season's file in several processes ------------------------


def _season(tmp_path):
    """Every example record, refused and malformed lines and blank lines among them, several times."""
    records = [_line(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(EXAMPLES.glob("*.json"))]
    lines = (records + [_line(_refused()), b"{not json", b"", b"  "]) * 20
    path = tmp_path / "season.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _replay_file(path, *args: str):
    done = subprocess.run([sys.executable, "-m", "companion", "replay", "--lines", str(path), *args],
                          capture_output=True, cwd=ROOT, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert b"Traceback" not in done.stderr
    return done.returncode, done.stdout


def test_jobs_give_the_same_verdicts_in_the_same_order_as_one_process(tmp_path):
    path = _season(tmp_path)
    status, alone = _replay_file(path, "--jobs", "1")
    verdicts = [json.loads(line) for line in alone.splitlines()]
    assert status == 2 and len(verdicts) > 100
    assert {v["status"] for v in verdicts} == {"finished", "in_progress", "illegal"}
    for jobs in ("2", "3"):
        assert _replay_file(path, "--jobs", jobs) == (status, alone)
    assert _replay_file(path) == (status, alone)  # the default: as many processes as CPUs


def test_jobs_keep_the_verdicts_before_an_endless_line(tmp_path):
    from companion.files import READ_LIMIT

    path = _season(tmp_path)
    status, before = _replay_file(path, "--jobs", "1")
    with open(path, "ab") as out:
        out.truncate(path.stat().st_size + READ_LIMIT + 1)  # then one line of zeros, with no end
    for jobs in ("1", "2"):
        status, out = _replay_file(path, "--jobs", jobs)
        lines = out.splitlines()
        assert status == 2 and lines[:-1] == before.splitlines()
        assert json.loads(lines[-1])["error"]["rule"] == "RECORD"


def test_jobs_below_one_are_refused():
    done = subprocess.run([sys.executable, "-m", "companion", "replay", "--lines", "-", "--jobs", "0"], input=b"",
                          capture_output=True, cwd=ROOT, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and b"--jobs" in done.stderr


def test_jobs_read_standard_input_too():
    lines = [_line(_legal()), _line(_refused()), b"{not json"] * 5
    assert replay_lines(b"\n".join(lines), "--jobs", "2") == replay_lines(b"\n".join(lines), "--jobs", "1")
