"""Every name a module of the app gives is written in it (a definition or an import): no module-level
``__getattr__`` makes up names that grep and an editor cannot find (the pydantic models are read from
``models.record_models`` and the games' ``_actions`` modules, where they are declared)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT


def made_up_names(path: Path) -> list[int]:
    """The lines of a module-level ``__getattr__`` (or ``__dir__``) in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ("__getattr__", "__dir__")]


def test_no_module_of_the_app_makes_up_its_names():
    modules = [p for package in ("companion", "models", "scoring") for p in sorted((ROOT / package).rglob("*.py"))]
    offenders = {str(p.relative_to(ROOT)): lines for p in modules if (lines := made_up_names(p))}
    assert not offenders, offenders


def test_the_check_finds_a_module_getattr_and_not_a_classs(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("class A:\n    def __getattr__(self, name):\n        return name\n\n\n"
                       "def __getattr__(name):\n    return name\n", encoding="utf-8")
    assert made_up_names(planted) == [6]
