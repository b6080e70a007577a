"""Each engine declares its rules reference once (``rule_specs``): ids in the rulebook's order,
grouped by section (with a heading in both languages), rule or ruling, the variant that changes it,
refusal or not. ``rules`` is derived from it."""

from __future__ import annotations

import pytest

from models.i18n import LANGUAGES, catalogue
from scoring.base import Engine
from scoring.registry import engine_class, refereed_games

ENGINES: list[type[Engine]] = list(dict.fromkeys(engine_class(game) for game in refereed_games()))


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_rules_are_the_declared_specs_in_order_each_once(cls):
    assert cls.rule_specs
    assert cls.rules == tuple(r.id for r in cls.rule_specs)
    assert len(set(cls.rules)) == len(cls.rules)


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_sections_come_in_one_block_each_with_a_heading_in_both_languages(cls):
    sections = [r.section for r in cls.rule_specs]
    blocks = [s for i, s in enumerate(sections) if i == 0 or sections[i - 1] != s]
    assert len(blocks) == len(set(blocks)), blocks  # a section never comes back later
    for section in blocks:
        for lang in LANGUAGES:
            assert f"section.{cls.games[0]}.{section}" in catalogue(lang), (section, lang)


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_a_ruling_says_it_is_one_in_both_languages(cls):
    for spec in cls.rule_specs:
        if not spec.ruling:
            continue
        en = catalogue("en")[f"rule.{spec.id}.title"] + catalogue("en")[f"rule.{spec.id}.text"]
        fr = catalogue("fr")[f"rule.{spec.id}.title"] + catalogue("fr")[f"rule.{spec.id}.text"]
        assert "ruling" in en.lower(), spec.id
        assert "arbitrage" in fr.lower(), spec.id


def test_rulings_and_rules_are_labelled_as_decided():
    """As the rulebooks have them: what they state is a rule (a table departing from it plays a
    house variant); only what they leave open is a ruling; a rule the app completes where the
    rulebook stops is a rule that adds a ruling (two parts, two labels)."""
    specs = {r.id: r for cls in ENGINES for r in cls.rule_specs}
    for ruling in ("BC-BID-EXCLUDED", "BC-BUYBACK-LOST", "BC-OFFER-EMPTY", "HS-SCORE-EXACT", "SV-END-TIE",
                   "ANI-POWER-MOVE", "ANI-POWER-ROW"):
        assert specs[ruling].ruling and not specs[ruling].adds_ruling, ruling
    for rule in ("HS-THEFT", "BC-NO-MONEY", "SV-AWARD", "SV-CARRY", "HS-MISFORTUNE", "HS-SCORE", "HS-POOREST",
                 "HS-FINAL-TIE", "SV-TIES", "SV-END", "BC-TRADE-TIE", "BC-OVERPAY", "BC-CAN-PAY", "MD-MATCH-END"):
        assert not specs[rule].ruling and not specs[rule].adds_ruling, rule
    for rule in ("BC-SKIP", "BC-END", "BC-SCORE", "MD-NEXT-START", "MD-RANKING", "ANI-LAST"):
        assert not specs[rule].ruling and specs[rule].adds_ruling, rule
    assert "Ruling" not in catalogue("en")["rule.HS-THEFT.text"]  # the waiting theft is the rulebook's
    assert specs["BC-NO-MONEY"].refusal and not specs["SV-AWARD"].refusal


def test_variants_name_the_rule_they_change():
    variants = {r.id: r.variant for cls in ENGINES for r in cls.rule_specs if r.variant}
    assert variants == {"HS-FINAL-TIE": "final_tie", "SV-TIES": "ties", "BC-TRADE-TIE": "trade_tie",
                        "BC-OVERPAY": "payment", "MD-MATCH-END": "deals", "MD-STACK": "take_stacking",
                        "ANI-ELEGANCE-ROWS": "elegance", "ANI-ELEGANCE-PLAYER": "elegance",
                        "HC-BATTLE": "ties"}
