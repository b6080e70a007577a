"""The rules reference checked against its promises: no French text copies a rulebook sentence; for
every engine, a ruling says it is one and names the other reading a table could choose,
an entry whose text states an app decision is labelled a ruling, and the refusal ids are the ones
the engine raises."""

from __future__ import annotations

import ast
import importlib
import re
import unicodedata
from pathlib import Path

import pytest

from models.i18n import LANGUAGES, catalogue
from scoring.base import Engine
from scoring.registry import engine_class, refereed_games
from tests.conftest import ROOT

# the rulebooks sit beside the clone (../shared/seeds), never in it: they are not our words
SEEDS = ROOT.parent / "shared" / "seeds"


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


OTHER_READING = {"fr": re.compile(r"autre lecture", re.I), "en": re.compile(r"other reading", re.I)}


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_a_rule_of_the_rulebook_offers_no_other_reading(cls):
    """A rule the rulebook states has no « other reading » (a table that departs from it plays a
    house variant, which says so); only a ruling names one."""
    offered = [f"{spec.id}@{edition} {lang}" for spec in cls.rule_specs if not spec.ruling for lang in LANGUAGES
               for edition, text in texts(spec.id, lang).items() if OTHER_READING[lang].search(text)]
    assert offered == []


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_no_rule_text_offers_a_reading_its_rulebook_excludes(cls):
    """Each engine lists, beside its rule specs, the readings its rulebook rules out
    (``excluded_readings``); no text of that rule, in any language or edition, states one."""
    specs = {spec.id for spec in cls.rule_specs}
    assert set(cls.excluded_readings) <= specs
    found = [f"{rule}@{edition} {lang}: {pattern}" for rule, patterns in cls.excluded_readings.items()
             for lang in LANGUAGES for edition, text in texts(rule, lang).items()
             for pattern in patterns if re.search(pattern, text, re.I)]
    assert found == []


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_a_house_variant_is_one_of_its_keys_choices_and_not_the_default(cls):
    for spec in cls.variants:
        for game in spec.games or cls.games:
            house = spec.house_for(game)
            assert set(house) <= set(spec.choices or ()), (game, spec.key)
            assert spec.default_for(game, 3) not in house, (game, spec.key)


# -- no copied rulebook sentence ------------------------------------------------------------------

COPY = 8  # this many words in a row, shared with a rulebook, is a copy


def words(text: str) -> list[str]:
    """Lower case, elisions joined (« l'animal » is one word), punctuation dropped."""
    text = unicodedata.normalize("NFC", text).casefold().replace("’", "").replace("'", "")
    return re.findall(r"\w+", text)


def runs(text: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(text[i:i + n]) for i in range(len(text) - n + 1)}


@pytest.mark.skipif(not any(SEEDS.glob("*.txt")), reason="no ../shared/seeds beside this clone")
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


# -- refusals -------------------------------------------------------------------------------------

def raised_ids(cls: type[Engine]) -> set[str]:
    """The rule ids the engine's module passes to ``RuleViolation``: a literal, a module constant, or
    a local set from constants in the same function (``rule = UP if … else DOWN``)."""
    module = importlib.import_module(cls.__module__)
    tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))

    def constants(node: ast.AST) -> set[str]:
        return {getattr(module, n.id) for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(getattr(module, n.id, None), str)}

    found: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleViolation"):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant):
                found.add(first.value)
            elif isinstance(first, ast.Name) and first.id not in vars(module):
                for assign in ast.walk(function):
                    if isinstance(assign, ast.Assign) and any(getattr(t, "id", None) == first.id for t in assign.targets):
                        found |= constants(assign.value)
            else:
                found |= constants(first)
    return found


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_refusals_are_declared_and_every_declared_refusal_is_raised(cls):
    specs = {spec.id: spec for spec in cls.rule_specs}
    raised = raised_ids(cls)
    assert raised
    assert sorted(raised - set(specs)) == []                                   # refused under an undeclared id
    assert sorted(r for r in raised if not specs[r].refusal) == []             # refused, declared never refused
    assert sorted(r for r, s in specs.items() if s.refusal and r not in raised) == []  # declared, never refused


def test_the_english_draw_rule_says_what_the_french_one_says():
    """The rulebook has a player draw when no card fits, not by choice; the app accepts any draw only
    because it does not see the hands (both languages say so, not « cannot or will not »)."""
    en, fr = catalogue("en")["rule.MD-DRAW.text"], catalogue("fr")["rule.MD-DRAW.text"]
    assert "ne peut rien poser" in fr and "ne voit pas les mains" in fr
    assert "will not" not in en and "cannot lay" in en and "does not see" in en
