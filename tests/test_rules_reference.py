"""The rules reference checked against its promises: no French text copies a rulebook sentence; for
every engine, a ruling says it is one (in the badge's word) and names the other reading a table
could choose, an entry whose text states an app ruling is labelled a ruling (a rule of the rulebook
to which the app adds one says it in its own part), a departure from a rule is a house variant that
says so, and the refusal ids are the ones the engine raises."""

from __future__ import annotations

import ast
import importlib
import re
import unicodedata
from pathlib import Path

import pytest

from models.i18n import LANGUAGES, Msg, catalogue, dialect
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


def texts(rule: str, lang: str, part: str = "text") -> dict[str, str]:
    """The rule's title + text (``part="ruling"``: the ruling the app adds to a rule of the rulebook,
    alone; ``"all"``: everything the entry says), and the same in each edition's own words
    (``K@edition``)."""
    keys = catalogue(lang)
    names = {"text": ("title", "text"), "ruling": ("ruling",), "all": ("title", "text", "ruling")}[part]
    wanted = [f"rule.{rule}.{name}" for name in names]
    editions = [""] + sorted({key.split("@", 1)[1] for key in keys if key.startswith(f"rule.{rule}.") and "@" in key})
    shown = {}
    for edition in editions:
        said = [keys.get(f"{key}@{edition}", keys.get(key)) if edition else keys.get(key) for key in wanted]
        if any(said):
            shown[edition] = " ".join(t for t in said if t)
    return shown


# a ruling is called by the badge's word (app.rules.kind.ruling: « Arbitrage de l'app », "The app's ruling")
SAYS_RULING = {"fr": re.compile(r"\barbitrage", re.I), "en": re.compile(r"\bruling\b", re.I)}
# the other reading a table could choose, named
NAMES_ALTERNATIVE = {
    "fr": re.compile(r"autre lecture|autre table|autre possibilité|autre solution|au lieu de|\bsinon\b|l'inverse", re.I),
    "en": re.compile(r"other reading|another table|alternative|rather than", re.I),
}


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_a_ruling_says_so_and_names_the_other_reading_in_both_languages(cls):
    """A ruling's text says it is one and names its other reading; the ruling a rule adds (its
    ``.ruling`` part, shown under the ruling's label) names its other reading."""
    missing = []
    for spec in cls.rule_specs:
        if not (spec.ruling or spec.adds_ruling):
            continue
        for lang in LANGUAGES:
            for edition, text in texts(spec.id, lang, "text" if spec.ruling else "ruling").items():
                if spec.ruling and not SAYS_RULING[lang].search(text):
                    missing.append(f"{spec.id}@{edition} {lang}: does not say it is a ruling")
                if not NAMES_ALTERNATIVE[lang].search(text):
                    missing.append(f"{spec.id}@{edition} {lang}: names no other reading")
    assert missing == []


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_an_entry_that_states_an_app_ruling_is_labelled_a_ruling(cls):
    """The badge (rule or ruling) agrees with the text: « notre arbitrage » under a « Règle » badge
    tells the table the rulebook says so when it does not (a rule to which the app adds a ruling
    says it in its own part, under its own label)."""
    mislabelled = [spec.id for spec in cls.rule_specs if not spec.ruling
                   and any(SAYS_RULING[lang].search(text) for lang in LANGUAGES
                           for text in texts(spec.id, lang).values())]
    assert mislabelled == []


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_the_ruling_a_rule_adds_is_its_own_part_exactly_where_declared(cls):
    """``rule.<id>.ruling`` exists, in both languages, for the rules that add a ruling and for no
    other entry (a whole ruling says it all in its text)."""
    keys = {lang: catalogue(lang) for lang in LANGUAGES}
    for spec in cls.rule_specs:
        for lang in LANGUAGES:
            assert (f"rule.{spec.id}.ruling" in keys[lang]) == spec.adds_ruling, (spec.id, lang)
        assert not (spec.ruling and spec.adds_ruling), spec.id


def test_a_ruling_is_called_one_thing_everywhere_the_badges_word():
    """« Arbitrage » in French, "ruling" in English, as the rules reference's badge says: no sentence
    calls a ruling a « décision » (or a "decision") beside it."""
    assert SAYS_RULING["fr"].search(catalogue("fr")["app.rules.kind.ruling"])
    assert SAYS_RULING["en"].search(catalogue("en")["app.rules.kind.ruling"])
    other_word = {"fr": re.compile(r"\bdécisions?\b", re.I), "en": re.compile(r"\bdecisions?\b", re.I)}
    said = [f"{lang} {key}" for lang in LANGUAGES for key, text in catalogue(lang).items()
            if other_word[lang].search(text)]
    assert said == []


@pytest.mark.parametrize("cls", ENGINES, ids=lambda c: c.__name__)
def test_a_departure_from_a_rule_is_a_house_variant_and_its_rule_says_so(cls):
    """Each variant with a house choice (or a number a table may set against the rulebook's, such as
    Monte & descend's deals) is named a house variant in the texts of the rules it changes."""
    says = {"fr": re.compile(r"variante maison", re.I), "en": re.compile(r"house variant", re.I)}
    silent = [f"{rule} {lang}" for spec in cls.variants if spec.choices is None or spec.house
              for rule in set(spec.rules.values()) for lang in LANGUAGES
              for text in texts(rule, lang).values() if not says[lang].search(text)]
    assert silent == []


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
             for lang in LANGUAGES for edition, text in texts(rule, lang, "all").items()
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


# -- what the rulebooks say, in each edition's words ---------------------------------------------

def test_animalement_votre_says_negative_animal_cards_and_high_society_no_x2_animals():
    """Animalement Vôtre's rulebook speaks of « cartes d'animaux négatives », not of High Society's
    « malheurs »; High Society's ×2 cards are titles, never « animaux ×2 »."""
    said_av, said_hs = [], []
    for lang in LANGUAGES:
        keys = catalogue(lang)
        for key in keys:
            if "@" in key:
                continue
            own = keys.get(f"{key}@animalement-votre", keys[key])
            if "high-society" not in key and re.search(r"malheur|misfortune", own, re.I):
                said_av.append(f"{lang} {key}")
            if "animalement-votre" not in key and re.search(r"animaux ×2|animal ×2|×2 animal", keys[key], re.I):
                said_hs.append(f"{lang} {key}")
    assert said_av == [] and said_hs == []
    with dialect("animalement-votre"):
        assert "cartes d'animaux négatives" in Msg("section.animalement-votre.misfortune").render("fr")
        assert "carte d'animal négative" in Msg("hs.event.reveal_misfortune", {"round": 1, "player": "Anne",
                                                                              "card": "x"}).render("fr")


def test_stupide_vautour_names_its_tie_variants_in_french_on_french_screens():
    """The variants' keys (one-level, highest-unique) are the record's words, not a French table's."""
    fr = catalogue("fr")
    assert [key for key, text in fr.items() if re.search(r"one-level|highest-unique", text)] == []
    ties = fr["rule.SV-TIES.text"]
    for value in ("one-level", "highest-unique"):
        name = fr[f"variant.stupide-vautour.ties.{value}"].split(" :", 1)[0]
        assert f"« {name} »" in ties, (value, name)


def test_boursicocotte_cannot_pay_is_the_rulebooks_rule_and_overpay_hides_only_the_message():
    from models.games import SPEC_OF

    specs = {spec.id: spec for spec in SPEC_OF["boursicocotte"].rule_specs}
    assert not specs["BC-CAN-PAY"].ruling and "BC-CAN-PAY" in SPEC_OF["boursicocotte"].excluded_readings
    fr, en = catalogue("fr")["rule.BC-OVERPAY.text"], catalogue("en")["rule.BC-OVERPAY.text"]
    assert "seul le message" in fr and "refus n'est pas caché" in fr and "refusé, dans la vue privée" not in fr
    assert "only the message" in en and "refusal is not hidden" in en and "refused, in the payer's private" not in en


def test_monte_descend_another_number_of_deals_is_a_house_variant():
    from models.games import SPEC_OF

    deals = next(v for v in SPEC_OF["monte-descend"].variants if v.key == "deals")
    assert deals.choices is None and deals.rules[None] == "MD-MATCH-END"
    assert "variante maison" in catalogue("fr")["rule.MD-MATCH-END.text"]
    assert "house variant" in catalogue("en")["rule.MD-MATCH-END.text"]


# -- what a table may dispute has a rule id ---------------------------------------------------------

@pytest.mark.parametrize("game", refereed_games())
def test_each_game_has_a_rule_for_its_player_counts_that_says_them(game):
    from models.games import SPEC_OF

    spec = SPEC_OF[game]
    rule = f"{spec.rule_prefix}PLAYERS"
    assert rule in {r.id for r in spec.rule_specs}
    low, high = spec.players
    for lang in LANGUAGES:
        for text in texts(rule, lang).values():
            assert str(low) in text and str(high) in text, (rule, lang, text)


def test_the_disputable_facts_have_their_rule_ids_and_say_the_engines_figures():
    from models.games import SPEC_OF
    from models.games.monte_descend import MD_DECK
    from scoring.boursicocotte import START_MONEY

    ids = {r.id for spec in SPEC_OF.values() for r in spec.rule_specs}
    assert {"BC-START-MONEY", "MD-FIRST-PLAYER", "MD-DECK", "ANI-PHASE1-END"} <= ids
    fr, en = catalogue("fr"), catalogue("en")
    assert str(sum(START_MONEY)) in fr["rule.BC-START-MONEY.text"] and str(sum(START_MONEY)) in en["rule.BC-START-MONEY.text"]
    assert f"{len(START_MONEY)}" in en["rule.BC-START-MONEY.text"].replace("seven", "7")
    assert str(MD_DECK) in fr["rule.MD-DECK.text"] and str(MD_DECK) in en["rule.MD-DECK.text"]
    assert "gauche du donneur" in fr["rule.MD-FIRST-PLAYER.text"] and "left of the dealer" in en["rule.MD-FIRST-PLAYER.text"]
    assert "5 animaux" in fr["rule.ANI-PHASE1-END.text"] and "5 animals" in en["rule.ANI-PHASE1-END.text"]
