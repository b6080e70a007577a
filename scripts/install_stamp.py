"""Install once: a stamp in the virtualenv remembers for which pyproject.toml (its hash, and the
Python that runs the venv) the project was installed, so that scripts/run and scripts/test skip
pip (and the network) when nothing changed, and install again when pyproject.toml changes.

Standard library only: it runs with the system Python before the virtualenv exists.

    python3 scripts/install_stamp.py check VENV PYPROJECT KIND   # exit 0: installed and current
    python3 scripts/install_stamp.py write VENV PYPROJECT KIND   # after a successful install

KIND names what was installed ("app", or "test" for the project with its test extras).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

KINDS = ("app", "test")
IMPLIES = {"test": ("app", "test"), "app": ("app",)}  # installing the test extras installs the app too


def digest(pyproject: Path) -> str:
    return hashlib.sha256(pyproject.read_bytes()).hexdigest()


def stamp_path(venv: Path, kind: str) -> Path:
    return venv / f"table-companion-{kind}.stamp"


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def is_current(venv: Path, pyproject: Path, kind: str) -> bool:
    """Installed for exactly this pyproject.toml (and the venv's Python is still there)."""
    if kind not in KINDS or not venv_python(venv).exists():
        return False
    try:
        return stamp_path(venv, kind).read_text(encoding="utf-8").strip() == digest(pyproject)
    except OSError:
        return False


def write(venv: Path, pyproject: Path, kind: str) -> None:
    for done in IMPLIES[kind]:
        stamp_path(venv, done).write_text(digest(pyproject) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[0] not in ("check", "write") or argv[3] not in KINDS:
        print(__doc__, file=sys.stderr)
        return 2
    command, venv, pyproject, kind = argv[0], Path(argv[1]), Path(argv[2]), argv[3]
    if command == "check":
        return 0 if is_current(venv, pyproject, kind) else 1
    write(venv, pyproject, kind)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
