"""A question's answers say what each does. « Annuler la saisie 45 ? » answered « Annuler » beside
« Oui, annuler cette saisie » reads both ways: the answer that leaves things as they are never
starts with the verb the question asks about (« Garder » / « Annuler la saisie »)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from models.i18n import catalogue

ROOT = Path(__file__).resolve().parents[1]


def _confirms() -> list[tuple[str, str, str, str]]:
    """Every ``app.confirm(app.t("question"), …, yes_key=…, no_key=…)`` in the app: (where, the
    question's key, the yes answer's key, the no answer's key)."""
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "confirm"
                    and node.args and isinstance(node.args[0], ast.Call) and node.args[0].args
                    and isinstance(node.args[0].args[0], ast.Constant)):
                continue
            keys = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
            found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0].args[0].value,
                          keys.get("yes_key", "app.common.yes"), keys.get("no_key", "app.common.cancel")))
    return found


def _verb(text: str) -> str:
    return text.split()[0].strip("«»,.?!").lower() if text.split() else ""


def test_the_scan_finds_the_undo_question():
    assert any(question == "app.table.undo_ask" for _, question, _, _ in _confirms())


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_no_answer_to_a_question_starts_with_the_verb_it_asks_about(lang):
    texts = catalogue(lang)
    wrong = [(where, texts[question], texts[no]) for where, question, _yes, no in _confirms()
             if _verb(texts[no]) == _verb(texts[question])]
    assert not wrong, wrong


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_two_answers_of_a_question_do_not_start_alike(lang):
    texts = catalogue(lang)
    wrong = [(where, texts[yes], texts[no]) for where, _question, yes, no in _confirms()
             if _verb(texts[yes].removeprefix("Oui, ").removeprefix("Yes, ")) == _verb(texts[no])]
    assert not wrong, wrong
