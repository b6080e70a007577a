"""Install once: scripts/run and scripts/test skip pip while the virtualenv is installed for the
current pyproject.toml, install on a fresh machine and again when pyproject.toml changes. The real
scripts run in a copy of the project's layout with a fake virtualenv whose python and companion
only write down how they were called (no pip, no network, no server)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import install_stamp

FAKE_TOOL = """#!/usr/bin/env bash
echo "$(basename "$0") $*" >> "{calls}"
"""
# The fake "system python" makes the venv (with fake tools) and otherwise runs the real stamp helper.
FAKE_SYSTEM_PYTHON = """#!/usr/bin/env bash
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  echo "venv $3" >> "{calls}"
  mkdir -p "$3/bin"
  for tool in python companion; do
    printf '%s' '{tool}' > "$3/bin/$tool"; chmod +x "$3/bin/$tool"
  done
  exit 0
fi
exec "{python}" "$@"
"""


def _executable(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "clone"
    (root / "scripts").mkdir(parents=True)
    for name in ("run", "test", "install_stamp.py"):
        shutil.copy(ROOT / "scripts" / name, root / "scripts" / name)
    (root / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    calls = tmp_path / "calls.log"
    calls.write_text("", encoding="utf-8")
    _executable(tmp_path / "python3", FAKE_SYSTEM_PYTHON.format(
        calls=calls, python=sys.executable, tool=FAKE_TOOL.format(calls=calls)))
    return root, calls, tmp_path / "python3"


def _run(project, script: str) -> list[str]:
    root, calls, system_python = project
    calls.write_text("", encoding="utf-8")
    env = {**os.environ, "PYTHON": str(system_python)}
    done = subprocess.run(["bash", str(root / "scripts" / script), "--port", "9"], check=False, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return calls.read_text(encoding="utf-8").splitlines()


def test_run_installs_on_a_fresh_machine_then_starts_without_pip(project):
    first = _run(project, "run")
    assert first == ["venv .venv", "python -m pip install --quiet --disable-pip-version-check -e .",
                     "companion run --port 9"]
    assert _run(project, "run") == ["companion run --port 9"]


def test_run_installs_again_when_pyproject_changes(project):
    _run(project, "run")
    root = project[0]
    (root / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "2"\n', encoding="utf-8")
    again = _run(project, "run")
    assert again == ["python -m pip install --quiet --disable-pip-version-check -e .", "companion run --port 9"]
    assert _run(project, "run") == ["companion run --port 9"]


def test_the_app_install_does_not_count_for_the_tests_but_the_test_install_counts_for_the_app(project):
    _run(project, "run")
    tests = [c for c in _run(project, "test") if "pip" in c]
    assert tests == ["python -m pip install --quiet --disable-pip-version-check -e .[test]"]
    assert not [c for c in _run(project, "test") if "pip" in c]
    assert _run(project, "run") == ["companion run --port 9"]


def test_stamp_helper(tmp_path):
    venv, pyproject = tmp_path / ".venv", tmp_path / "pyproject.toml"
    pyproject.write_text("a", encoding="utf-8")
    assert not install_stamp.is_current(venv, pyproject, "app")          # no venv
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("", encoding="utf-8")
    assert not install_stamp.is_current(venv, pyproject, "app")          # no stamp
    install_stamp.write(venv, pyproject, "app")
    assert install_stamp.is_current(venv, pyproject, "app")
    assert not install_stamp.is_current(venv, pyproject, "test")
    pyproject.write_text("b", encoding="utf-8")
    assert not install_stamp.is_current(venv, pyproject, "app")          # pyproject changed
    assert install_stamp.main(["check", str(venv), str(pyproject), "nope"]) == 2
