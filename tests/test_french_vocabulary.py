"""No English on a French screen: every French text of the catalogues (each game's own words
included), scanned for English words and for variant values written as code; Animalia's medal
advice is a sentence in both languages."""

from __future__ import annotations

import re

import pytest

from models.games import SPECS
from models.i18n import Msg, catalogue

# English words a French text has no business holding (none of them is also a French word)
ENGLISH = {"the", "and", "with", "of", "is", "are", "for", "remaining", "characters", "working", "loading",
           "please", "wait", "players", "winner", "winners", "round", "tie", "ties", "level", "highest", "bid",
           "game", "games", "money", "card", "cards", "left", "out", "none", "this", "that", "you", "your",
           "has", "have", "was", "will", "can", "cannot", "who", "which", "when", "undo", "save", "cancel",
           "back", "next", "show", "hide", "rating", "ratings", "deal", "deals", "shared", "replay", "player",
           "openskill", "mu", "sigma"}
# where an English word is the right one, and why
ALLOWED = {
    # a record's JSON field or value, named as the record writes it (a refusal of a record or of an entry)
    "record.": {"players", "player", "game"},
    "ani.err.move_thief": {"from"}, "ani.err.move_prankster": {"to"},
    "migrate.same_file": {"from", "to"},  # the command's options --from and --to
    # the formula, behind the "?" or a tap (the league's rule and a rating's line say it in words)
    "app.club.rating_detail": {"mu", "sigma"}, "app.players.help.rating": {"mu", "sigma", "openskill"},
    "app.club.league_rating_formula": {"mu", "sigma", "openskill"},
    "ratings.line": {"mu", "sigma"},  # the command line's `companion ratings`
}


def _allowed(key: str) -> set[str]:
    return set().union(*(words for prefix, words in ALLOWED.items() if key == prefix or
                         (prefix.endswith(".") and key.startswith(prefix))))


def _words(text: str) -> set[str]:
    text = re.sub(r"\{[^{}]*\}", " ", text)  # the parameters, and their plural forms
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'-]*", text)}


def test_no_french_text_holds_an_english_word():
    found = {key: sorted((_words(text) & ENGLISH) - _allowed(key)) for key, text in catalogue("fr").items()}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_scan_finds_the_english_it_looks_for():
    assert _words("Working...") & ENGLISH and _words("40 characters remaining") & ENGLISH
    assert not _words("Cote : le niveau estimé, {n:#carte|cartes}") & ENGLISH


def test_no_french_text_names_a_variant_by_its_code():
    """« one-level », « highest-unique »: a variant value written as the record writes it is code;
    the screens name it in words (« Carte suivante », « Valeur unique »)."""
    coded = {v for spec in SPECS for variant in spec.variants for v in (variant.choices or ())
             if isinstance(v, str) and re.search(r"[-_]", v)}
    assert "one-level" in coded
    found = {key: sorted(v for v in coded if re.search(rf"(?<![\w.-]){re.escape(v)}(?![\w-])", text))
             for key, text in catalogue("fr").items() if not key.startswith("record.")}
    assert {k: v for k, v in found.items() if v} == {}


@pytest.mark.parametrize("n,fr_word", [(1, "1 carte-bonus"), (2, "2 cartes-bonus")])
def test_animalia_s_dearer_way_is_said_in_a_sentence(n, fr_word):
    """A way worth as much as one above it but spending more bonus cards: a sentence with its verb,
    never « Autant qu'une façon plus haut, avec 1 carte-bonus de plus »."""
    later = Msg("app.ani.dearer", {"n": n}).render("fr")
    last = Msg("app.ani.dearer_last", {"n": n}).render("fr")
    assert later == f"Cette façon rapporte autant qu'une façon placée plus haut, mais dépense {fr_word} de plus, " \
                    "qu'il vaut mieux garder."
    assert last == f"Cette façon rapporte autant qu'une façon placée plus haut, mais dépense {fr_word} de plus."
    english = Msg("app.ani.dearer", {"n": n}).render("en")
    assert f"spends {n} more bonus card" in english and "#" not in english and "  " not in english

