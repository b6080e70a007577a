"""The service runs no SQL of its own: every statement is the store's (companion/store/), the service
calls it in its transactions. No module of companion/service/ imports SQLAlchemy's statement builders
nor holds a statement's text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import ROOT

BUILDERS = {"text", "select", "insert", "update", "delete", "func", "case", "literal_column", "and_", "or_"}
STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\s")  # as the store writes them


def sql_of(path: Path) -> list[str]:
    """What in a module is SQL of its own: a statement builder imported, or a statement's text."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] in ("sqlalchemy", "sqlmodel"):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names if a.name in BUILDERS]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and STATEMENT.match(node.value):
            found.append(f"{node.lineno}: {node.value[:40]!r}")
    return found


def test_no_module_of_the_service_runs_sql_of_its_own():
    offenders = {p.name: found for p in sorted((ROOT / "companion" / "service").glob("*.py")) if (found := sql_of(p))}
    assert not offenders, offenders


def test_the_check_finds_a_builder_and_a_statement(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('from sqlalchemy import text, exc\nfrom sqlmodel import Session\n\n'
                       'def rename(db: Session) -> None:\n'
                       '    db.execute(text("UPDATE players SET name = :n WHERE id = :p"))\n', encoding="utf-8")
    assert sql_of(planted) == ["1: imports text", "5: 'UPDATE players SET name = :n WHERE id = '"]
    planted.write_text('"""Select a player: the docstring is no statement."""\n'
                       'from sqlalchemy.exc import IntegrityError\n', encoding="utf-8")
    assert sql_of(planted) == []
