"""The rules reference checked against its promises: no French text copies a rulebook sentence."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from models.i18n import catalogue

SEEDS = Path("/work/shared/seeds")


# -- no copied rulebook sentence ------------------------------------------------------------------

COPY = 8  # this many words in a row, shared with a rulebook, is a copy


def words(text: str) -> list[str]:
    """Lower case, elisions joined (« l'animal » is one word), punctuation dropped."""
    text = unicodedata.normalize("NFC", text).casefold().replace("’", "").replace("'", "")
    return re.findall(r"\w+", text)


def runs(text: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(text[i:i + n]) for i in range(len(text) - n + 1)}


@pytest.mark.skipif(not any(SEEDS.glob("*.txt")), reason="the rulebook seeds are not on this machine")
def test_no_french_rule_text_copies_a_run_of_words_from_a_rulebook():
    book: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        book |= runs(words(seed.read_text(encoding="utf-8")), COPY)
    copied = {}
    for key, text in catalogue("fr").items():
        if key.startswith("rule."):
            shared = runs(words(text), COPY) & book
            if shared:
                copied[key] = sorted(" ".join(r) for r in shared)
    assert copied == {}


def test_the_copy_check_finds_a_copy():
    sentence = "Lorsque tous les joueurs sauf un ont passé, le dernier annonceur prend la carte"
    assert runs(words(sentence), COPY) & runs(words("… " + sentence.upper() + " …"), COPY)
    assert not runs(words("tous les joueurs sauf un"), COPY)


