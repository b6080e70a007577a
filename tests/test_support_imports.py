"""What the tests share lives in tests/support/ (or a fixture): no module of tests/ or benchmarks/
imports a test module — a test module's helpers moved there, or a benchmark that ran a test's
helpers, would make one test's file the library of others."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import ROOT

# an import written inside a string: a script a test runs in a child process
IMPORT_IN_TEXT = re.compile(r"\b(?:from\s+(tests(?:\.\w+)*)\s+import\s+([\w ,]+)|import\s+(tests(?:\.\w+)+))")


def _is_test_module(dotted: str) -> bool:
    parts = dotted.split(".")
    return parts[0] == "tests" and any(part.startswith("test_") for part in parts[1:])


def _named(module: str, names: list[str]) -> list[str]:
    """The test modules ``from module import names`` brings: the module itself, or a test module
    imported by name from a package (``from tests import test_cli``)."""
    if _is_test_module(module):
        return [module]
    return [f"{module}.{name}" for name in names if _is_test_module(f"{module}.{name}")]


def imported_test_modules(path: Path) -> list[str]:
    """The test modules a file imports (``tests.test_…``, ``tests.e2e.test_…``), as statements or
    inside a string, with the line of each."""
    text = path.read_text(encoding="utf-8")
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: {a.name}" for a in node.names if _is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the file's own package up
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([module] if module else []))
            found += [f"{node.lineno}: {m}" for m in _named(module, [a.name for a in node.names])]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for match in IMPORT_IN_TEXT.finditer(node.value):
                module, names, plain = match.groups()
                modules = [plain] if plain else _named(module, [n.strip() for n in names.split(",")])
                found += [f"{node.lineno} (in a string): {m}" for m in modules if _is_test_module(m)]
    return found


def sources() -> list[Path]:
    """Every module of tests/ and benchmarks/ but this one (whose strings plant bad imports)."""
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py"))
    return [p for p in files if p != Path(__file__).resolve()]


def test_no_test_module_or_benchmark_imports_a_test_module():
    offenders = {str(p.relative_to(ROOT)): found for p in sources() if (found := imported_test_modules(p))}
    assert not offenders, offenders


def test_the_check_finds_each_way_of_importing_a_test_module(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "tests" / "e2e").mkdir(parents=True)
    planted = {
        "from tests.test_store_games import hs_long\n": "tests.test_store_games",
        "import tests.test_table_entry_patch as harness\n": "tests.test_table_entry_patch",
        "from tests import test_cli\n": "tests.test_cli",
        "def f():\n    from tests.e2e.test_lan_browser import lan\n": "tests.e2e.test_lan_browser",
        "from .test_club import play\n": "tests.test_club",
        'SCRIPT = """\nfrom tests.test_animalia import play_random\n"""\n': "tests.test_animalia",
    }
    for n, (source, module) in enumerate(planted.items()):
        path = tmp_path / "tests" / f"helper_{n}.py"
        path.write_text(source, encoding="utf-8")
        found = imported_test_modules(path)
        assert [f.split(": ")[1] for f in found] == [module], (source, found)
    fine = tmp_path / "tests" / "e2e" / "test_fine.py"
    fine.write_text("from tests.support.games import hs_long\nfrom tests.conftest import ROOT\n"
                    "from tests.e2e.harness import tab\nimport tests.support.table_entry as harness\n",
                    encoding="utf-8")
    assert imported_test_modules(fine) == []
