"""The rules reference checked against its promises: no French text copies a rulebook sentence; for every engine (``test_rule_specs``
covers three of them), a ruling says it is one and names the other reading a table could choose, and
an entry whose text states an app decision is labelled a ruling."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from models.i18n import LANGUAGES, catalogue
from scoring.base import Engine
from scoring.registry import engine_class, refereed_games

SEEDS = Path("/work/shared/seeds")


def engines() -> list[type[Engine]]:
    found: list[type[Engine]] = []
    for game in refereed_games():
        cls = engine_class(game)
        if cls is not None and cls not in found:
            found.append(cls)
    return found


ENGINES = engines()


def texts(rule: str, lang: str) -> dict[str, str]:
    """The rule's title + text, and the same in each edition's own words (``K@edition``)."""
    keys = catalogue(lang)
    title, text = f"rule.{rule}.title", f"rule.{rule}.text"
    shown = {"": keys[title] + " " + keys[text]}
    for key in keys:
        if key.startswith(f"rule.{rule}.") and "@" in key:
            edition = key.split("@", 1)[1]
            shown[edition] = keys.get(f"{title}@{edition}", keys[title]) + " " + keys.get(f"{text}@{edition}", keys[text])
    return shown


SAYS_RULING = {"fr": re.compile(r"décision", re.I), "en": re.compile(r"\bruling\b", re.I)}
# the other reading a table could choose, named
NAMES_ALTERNATIVE = {
    "fr": re.compile(r"autre lecture|autre table|autre possibilité|autre solution|au lieu de|\bsinon\b|l'inverse", re.I),
    "en": re.compile(r"other reading|another table|alternative|rather than", re.I),
}


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_a_ruling_says_so_and_names_the_other_reading_in_both_languages(cls):
    missing = []
    for spec in cls.rule_specs:
        if not spec.ruling:
            continue
        for lang in LANGUAGES:
            for edition, text in texts(spec.id, lang).items():
                if not SAYS_RULING[lang].search(text):
                    missing.append(f"{spec.id}@{edition} {lang}: does not say it is a ruling")
                if not NAMES_ALTERNATIVE[lang].search(text):
                    missing.append(f"{spec.id}@{edition} {lang}: names no other reading")
    assert missing == []


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_an_entry_that_states_an_app_decision_is_labelled_a_ruling(cls):
    """The badge (rule or ruling) agrees with the text: « notre décision » under a « Règle » badge
    tells the table the rulebook says so when it does not."""
    mislabelled = [spec.id for spec in cls.rule_specs if not spec.ruling
                   and any(SAYS_RULING[lang].search(text) for lang in LANGUAGES
                           for text in texts(spec.id, lang).values())]
    assert mislabelled == []


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


