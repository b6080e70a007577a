"""No sentence a player reads is written in the app's code: every one comes from the catalogues
(assets/i18n/{fr,en}/app.json and the games' files), and every key the app asks for exists in both
languages."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from models.games import SPECS
from models.i18n import LANGUAGES, catalogue

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "companion" / "app"
# the app's code, and the screen of each game registered from outside it (the tests' High card)
SOURCES = sorted(APP.rglob("*.py")) + [ROOT / (spec.screen.replace(".", "/") + ".py") for spec in SPECS
                                       if not spec.screen.startswith("companion.app.")]

# Controls and helpers that put text on screen, and the arguments that carry it.
TEXT_CALLS = {
    "Text", "TextField", "Button", "FilledButton", "FilledTonalButton", "OutlinedButton", "TextButton",
    "IconButton", "Tooltip", "SnackBar", "AlertDialog", "Chip", "Tab", "DropdownOption", "Dropdown",
    "ExpansionTile", "ListTile", "Checkbox", "Switch", "Radio", "SegmentedButton", "Segment", "Badge",
    "NavigationBarDestination", "NavigationRailDestination", "SearchBar", "ChartAxisLabel",
    "BarChartRod", "BarChartRodTooltip",
    # companion.app.ui helpers
    "text", "title", "subtitle", "muted", "button", "chip", "banner", "icon_button", "tile",
}
TEXT_KEYWORDS = {"value", "content", "label", "tooltip", "hint_text", "helper_text", "error_text", "text",
                 "title", "prefix_text", "suffix_text", "semantics_label", "message", "details",
                 "counter_text", "subtitle"}
KEY = re.compile(r"^[a-z][a-z0-9_-]*(\.[A-Za-z0-9_{}-]+)+$")


def _words(node: ast.AST) -> str | None:
    """The literal text of a string constant or f-string, if it holds letters."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if re.search(r"[^\W\d_]", node.value) else None
    if isinstance(node, ast.JoinedStr):
        literal = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
        return literal if re.search(r"[^\W\d_]", literal) else None
    if isinstance(node, (ast.List, ast.Tuple)):
        for item in node.elts:
            found = _words(item)
            if found:
                return found
    if isinstance(node, ast.IfExp):
        return _words(node.body) or _words(node.orelse)
    return None


def _name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def literal_texts(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _name(node.func) not in TEXT_CALLS:
            continue
        args = list(node.args[:1]) + [kw.value for kw in node.keywords if kw.arg in TEXT_KEYWORDS]
        for arg in args:
            words = _words(arg)
            if words:
                found.append(f"{path.name}:{node.lineno}: {words!r}")
    return found


def test_the_scan_catches_a_literal_sentence(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('import flet as ft\nx = ft.Text("Hello there")\ny = ui.button(f"Bid {n} now", None)\n'
                   'z = ft.IconButton(icon=None, tooltip="Undo")\nok = ft.Text(str(3))\n', encoding="utf-8")
    assert len(literal_texts(bad)) == 3
    assert _sentences(bad) == ["bad.py:2: 'Hello there'"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_literal_text_on_screen(path):
    assert literal_texts(path) == []


def _sentences(path: Path) -> list[str]:
    """Any other string constant that looks like a sentence (words and spaces), docstrings and log
    messages aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        if isinstance(node, ast.Call) and _name(node.func) in {"exception", "error", "warning", "info", "debug",
                                                                "LookupError", "AssertionError", "KeyError"}:
            for sub in ast.walk(node):
                skip.add(id(sub))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if re.search(r"[^\W\d_]{2,}\s+[^\W\d_]{2,}", node.value):
                out.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_sentence_hides_in_the_code(path):
    assert _sentences(path) == []


def _keys_asked(path: Path) -> tuple[set[str], set[str]]:
    """Catalogue keys written literally in the code, and patterns of keys built with f-strings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    literal, patterns = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.match(node.value):
            if node.value.startswith(("app.", "game.", "rule.", "variant.", "hs.", "list.", "service.")):
                literal.add(node.value)
        elif isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    parts.append(re.escape(v.value))
                else:
                    parts.append(r"[^.]+")
            pattern = "".join(parts)
            head = node.values[0]
            if isinstance(head, ast.Constant) and str(head.value).startswith(
                    ("app.", "game.", "rule.", "variant.", "hs.")):
                patterns.add(pattern)
    return literal, patterns


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_app_asks_for_exists(lang):
    keys = catalogue(lang)
    missing, unmatched = [], []
    for path in SOURCES:
        literal, patterns = _keys_asked(path)
        missing += [f"{path.name}: {k}" for k in sorted(literal) if k not in keys]
        for pattern in sorted(patterns):
            if not any(re.fullmatch(pattern, k) for k in keys):
                unmatched.append(f"{path.name}: {pattern}")
    assert missing == [] and unmatched == []


def test_app_catalogue_is_complete_in_both_languages():
    fr = {k for k in catalogue("fr") if k.startswith("app.")}
    en = {k for k in catalogue("en") if k.startswith("app.")}
    assert fr == en


def test_every_app_key_in_the_catalogue_is_used():
    """A screen text nobody asks for is dead text (or a typo on one side): every ``app.*`` key of
    every catalogue file (the shared words, each screen's, each game's screen texts) is named in the
    app's code, whole or as the prefix of a key it builds (app.lang.fr, app.hs.face.x2, …)."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)
    unused = []
    for key in catalogue("en"):
        if not key.startswith("app.") or "@" in key or f'"{key}"' in code:
            continue
        head = key.rsplit(".", 1)[0]
        if f'"{head}.{{' in code or f'f"{head}.{{' in code:
            continue
        unused.append(key)
    assert unused == []