"""Every sentence exists in French and English, with the same placeholders."""

import string

import pytest

from models.games import SPECS
from models.i18n import LANGUAGES, MissingText, Msg, catalogue, format_number, render


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_languages_have_the_same_keys():
    fr, en = catalogue("fr"), catalogue("en")
    assert sorted(set(fr) - set(en)) == [], "keys with no English text"
    assert sorted(set(en) - set(fr)) == [], "keys with no French text"


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_placeholders_match_across_languages(key):
    found = {lang: placeholders(catalogue(lang)[key]) for lang in LANGUAGES}
    assert found["fr"] == found["en"], key


def test_no_text_is_blank():
    for lang in LANGUAGES:
        assert [k for k, v in catalogue(lang).items() if not v.strip()] == []


def test_rules_have_a_title_and_a_text_in_both_languages():
    for lang in LANGUAGES:
        keys = catalogue(lang)
        rule_ids = {k.split(".")[1] for k in keys if k.startswith("rule.")}
        for rule in rule_ids:
            assert f"rule.{rule}.title" in keys and f"rule.{rule}.text" in keys, (lang, rule)


def test_render_joins_lists_and_nests_messages():
    assert render(Msg("list.and", {"head": "a, b", "last": "c"}), "en") == "a, b and c"
    assert render(Msg("list.and", {"head": "a", "last": Msg("list.none")}), "fr") == "a et rien"


def test_numbers_are_exact():
    assert format_number(3.5, "en") == "3.5"
    assert format_number(3.5, "fr") == "3,5"
    assert format_number(14.0, "en") == "14"
    assert format_number(-4, "fr") == "-4"


def test_missing_key_is_loud():
    with pytest.raises(MissingText):
        render(Msg("no.such.key"), "en")


# Every game's rule ids carry the game's prefix: the rules reference groups them by it.
RULE_PREFIX = {spec.id: spec.rule_prefix for spec in SPECS}


@pytest.mark.parametrize("game", sorted(RULE_PREFIX))
def test_every_rule_of_every_engine_has_a_title_and_a_text_in_both_languages(game):
    from scoring.registry import engine_class

    rules = engine_class(game).rules
    assert len(set(rules)) == len(rules)
    for rule in rules:
        assert rule.startswith(RULE_PREFIX[game]), rule
        for lang in LANGUAGES:
            assert f"rule.{rule}.title" in catalogue(lang), (rule, lang)
            assert f"rule.{rule}.text" in catalogue(lang), (rule, lang)


def test_every_refereed_game_is_checked_above():
    from scoring.registry import refereed_games

    assert sorted(refereed_games()) == sorted(RULE_PREFIX)


def test_english_texts_choose_their_plural_instead_of_writing_s_in_brackets():
    # "1 card", "2 cards": a count picks its form with {n:#card|cards}, never "card(s)"
    bracketed = [key for key, text in catalogue("en").items() if "(s)" in text or "(es)" in text]
    assert bracketed == []


def test_every_high_society_sentence_about_possessions_or_the_theft_has_animalement_votre_words():
    """Animalement Vôtre shares High Society's engine but speaks of animals, « malade comme un
    chien » and light-blue cards: each shared sentence (events, refusals, prompts, the table
    screen, the rules reference) that names possessions, the theft or red cards has the edition's
    own text (``K@animalement-votre``), in both languages, and that text never names them."""
    import re

    words = {"fr": re.compile(r"\b(possessions?|vol|voleur|rouges?)\b", re.I),
             "en": re.compile(r"\b(possessions?|theft|thief|red)\b", re.I)}
    fields = re.compile(r"\{[^}]*\}")  # a placeholder ({red}) is filled with the edition's word
    missing, wrong = [], []
    for lang in LANGUAGES:
        texts = catalogue(lang)
        for key, text in texts.items():
            edition_own = "high-society" in key.split(".") and not key.startswith("section.")  # a card's name…
            shared = key.startswith(("hs.", "app.hs.", "rule.HS-", "section.high-society.")) \
                and "@" not in key and not edition_own
            if shared and words[lang].search(fields.sub("", text)):
                # a section heading is the game's own key (rules.heading_key); any other, its dialect's
                own_key = (key.replace("section.high-society.", "section.animalement-votre.")
                           if key.startswith("section.") else f"{key}@animalement-votre")
                own = texts.get(own_key)
                if own is None:
                    missing.append(f"{lang}: {own_key}")
                elif words[lang].search(fields.sub("", own)):
                    wrong.append(f"{lang}: {own_key}")
    assert not missing and not wrong, (missing, wrong)


def test_a_games_texts_are_in_its_own_catalogue_file():
    """A game's rules, events, refusals and screen texts are in the file named after its engine's
    first game (Animalement Vôtre's own words, ``key@animalement-votre``, with High Society's), and no
    other game's text is there: the catalogues are grouped by subject."""
    import json
    from pathlib import Path

    from models.outside_games import text_folders

    folder = Path(__file__).resolve().parent.parent / "assets" / "i18n"
    for lang in LANGUAGES:
        files = [*(folder / lang).glob("*.json"),  # and a game's registered from outside the app
                 *(Path(str(outside)) / entry.name for outside in text_folders(lang) for entry in outside.iterdir())]
        where = {key: path.stem for path in files if path.suffix == ".json"
                 for key in json.loads(path.read_text(encoding="utf-8"))}
        for spec in SPECS:
            owner = next(s.id for s in SPECS if s.engine == spec.engine)
            abbr = spec.rule_prefix.rstrip("-").lower()
            mine = [k for k in where if k.split("@", 1)[0].startswith(
                (f"rule.{spec.rule_prefix}", f"app.{abbr}.", f"{abbr}.", f"section.{spec.id}.", f"variant.{spec.id}.",
                 f"game.{spec.id}."))]
            assert mine, spec.id
            assert sorted(k for k in mine if where[k] != owner) == [], (lang, spec.id)
