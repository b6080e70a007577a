"""Animalia's French as a careful editor writes it: « en » never stands for a noun the sentence then
repeats (« vous en recevez 2 cartes-bonus »), a place is « 1re place » (never « 1er »), and what is
said of named players agrees with anyone (« par personne », not « chacun »)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from models.i18n import Msg, render
from scoring.animalia import count_msg

ROOT = Path(__file__).resolve().parent.parent
FRENCH = json.loads((ROOT / "assets" / "i18n" / "fr" / "animalia.json").read_text(encoding="utf-8"))

# « en » + a verb + a placeholder: the placeholder is a count with its noun (« 2 cartes-bonus »), so
# the pronoun and the noun say the same thing twice
EN_THEN_NOUN = re.compile(r"\ben [a-zàâçéèêëîïôûùüÿœ]+ \{(?!n\b)")


def test_en_never_stands_for_a_noun_the_sentence_repeats():
    found = {key: text for key, text in FRENCH.items() if EN_THEN_NOUN.search(text)}
    assert found == {}
    said = render(Msg("app.ani.bonus_intro", {"cards": count_msg("bonus", 2)}), "fr")
    assert "2 cartes-bonus" in said and " en recevez" not in said
    assert EN_THEN_NOUN.search("(vous en recevez {cards})")  # the scan finds what it looks for


def test_a_place_is_feminine_first_and_second():
    assert [key for key, text in FRENCH.items() if re.search(r"\b1er\b", text)] == []
    first = render(Msg("app.ani.prize_first", {"who": "Anne", "stars": count_msg("stars", 10),
                                               "cards": count_msg("bonus", 2)}), "fr")
    second = render(Msg("app.ani.prize_second", {"who": "Bruno", "stars": count_msg("stars", 6),
                                                 "cards": count_msg("bonus", 1)}), "fr")
    assert first.startswith("1re place : Anne") and second.startswith("2e place : Bruno")


def test_what_is_said_of_named_players_agrees_with_anyone():
    for key, params in (("ani.event.prize_second", {"who": ["Anne", "Chloé"], "n": 2}),
                        ("ani.event.prize_tie", {"who": ["Anne", "Chloé"]})):
        said = render(Msg(key, params), "fr")
        assert "Anne et Chloé" in said and not re.search(r"\bchacun", said), said
        assert "par personne" in said
