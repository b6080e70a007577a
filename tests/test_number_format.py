"""Numbers as a careful French editor writes them: thousands grouped by a no-break space
(« 4 800 », never « 4800 » nor a space a line could break at), the decimal comma (« 3,5 »); a
number that labels rather than counts (a year, a game's number) is left whole. English is as it was."""

from __future__ import annotations

import re
import string
from fractions import Fraction

import pytest

from models.i18n import Msg, catalogue, format_number, render

THIN = "\u00a0"  # the no-break space French groups thousands with (the shipped font has no narrow one)

UNGROUPED = re.compile(r"(?<![\d,.])\d{4,}")  # 4800 written without its thin space


@pytest.mark.parametrize(("value", "fr", "en"), [
    (999, "999", "999"),
    (1000, f"1{THIN}000", "1000"),
    (4800, f"4{THIN}800", "4800"),
    (16500, f"16{THIN}500", "16500"),
    (1234567, f"1{THIN}234{THIN}567", "1234567"),
    (-2460, f"-2{THIN}460", "-2460"),
    (12500.5, f"12{THIN}500,5", "12500.5"),
    (Fraction(9601, 2), f"4{THIN}800,5", "4800.5"),
    (Fraction(9600, 2), f"4{THIN}800", "4800"),
    (3.5, "3,5", "3.5"),
])
def test_a_number_is_grouped_by_thousands_in_french(value, fr, en):
    assert format_number(value, "fr") == fr
    assert format_number(value, "en") == en


def test_a_score_in_a_sentence_is_grouped_and_its_plural_still_agrees():
    shared = Msg("bc.explain.shared", {"players": ["Anne", "Bruno"], "score": 4800})
    assert shared.render("fr") == f"Anne et Bruno se partagent la victoire avec 4{THIN}800 points chacun."
    assert shared.render("en") == "Anne and Bruno share the win with 4800 points each."
    assert render(Msg("app.table.log", {"count": 1200}), "fr") == f"Ce qui s'est passé (1{THIN}200 saisies)"


def test_a_sentence_with_several_amounts_groups_each():
    sets = Msg("bc.explain.sets", {"player": "Chloé", "sets": [1000, 800], "sum": 2400, "count": 4, "score": 9600})
    assert sets.render("fr") == f"Chloé : séries complètes 1{THIN}000 et 800 ; 2{THIN}400 × 4 séries = 9{THIN}600 points."


def test_a_number_that_labels_is_not_grouped():
    assert render(Msg("app.format.date", {"day": "01", "month": "02", "year": 2026}), "fr") == "01/02/2026"
    assert "1234" in render(Msg("service.session.unknown", {"session": 1234}), "fr")


def _quantities(template: str) -> list[str]:
    """The fields of a template a count or an amount fills (those the plural specs agree with, and the
    scores, totals and amounts)."""
    names = {"n", "count", "score", "total", "amount", "points", "money", "sum", "value"}
    return [name for _, name, spec, _ in string.Formatter().parse(template)
            if name and (name in names or (spec and "|" in spec))]


def test_every_french_message_groups_the_thousands_of_its_amounts():
    """Each French sentence with an amount, filled with 4800, writes « 4 800 » (and agrees with it)."""
    wrong = []
    for key, template in catalogue("fr").items():
        fields = _quantities(template)
        if not fields:
            continue
        params = {name: 4800 if name in fields else "Anne" for _, name, _, _ in string.Formatter().parse(template)
                  if name}
        try:
            out = render(Msg(key, params), "fr")
        except Exception:  # a parameter that must be a list or a message: the other tests fill those
            continue
        if UNGROUPED.search(out.replace(f"4{THIN}800", "")) and "4800" in out:
            wrong.append((key, out))
    assert not wrong, wrong[:5]
