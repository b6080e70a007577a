"""French texts: every French message, its parameters filled with names that start
with a vowel, elides where French elides ("d'Anne", never "de Anne"; "qu'", "l'") and writes its
plurals ("1 carte", "2 cartes", never "carte(s)" nor "1 cartes"). English says "meerkats"."""

from __future__ import annotations

import re
import string
from fractions import Fraction
from typing import Any

import pytest

from models.i18n import Msg, _Param, catalogue, elide, render

VOWEL_NAMES = ("Anne", "Émile", "Inès", "Olivier", "Ugo", "Yves")
PLAYER_PARAMS = {"player", "payer", "recipient", "target", "challenger", "auctioneer", "bidder", "turn",
                 "leader", "starter", "a", "b", "name", "other", "owner"}
PLAYER_LISTS = {"players", "leaders", "others", "names"}
ANIMAL_PARAMS = {"animal"}
# counts (and scores, which may be 1): filled with 1 to find "1 …s"; any other value with 10
# (not the fixed ones: 15 rounds, 3 copies, 4 animals each, 2 players at least)
COUNT_PARAMS = {"n", "count", "games", "wins", "a_wins", "b_wins", "a_ahead", "b_ahead", "level",
                "to_challenger", "to_target", "moves", "score", "entry"}

VOWEL = "AEIOUYÉÈÊËÀÂÎÏÔÛÙŒaeiouyéèêëàâîïôûùœ"
NO_ELISION = re.compile(rf"(?<![\w'’])(de|que|le|la|De|Que|Le|La|jusque|lorsque|puisque) (?=[{VOWEL}])")
LAZY_PLURAL = re.compile(r"\w\(s\)|\(e\)s?\b|\(es\)")
# "1 cartes": a count of one before a plural noun; words ending in s in the singular are fine
SINGULAR_S = {"fois", "plus", "sous", "dans", "pas", "après", "vers", "cas", "prix", "temps", "mois", "jours"}
ONE_PLURAL = re.compile(r"(?<![\d,.])1 ([a-zéèêàâîôûç]+[sx])\b")


def _fields(template: str) -> list[tuple[str, str]]:
    return [(name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name]


def _fill(template: str, name: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for field, _spec in _fields(template):
        if field in PLAYER_PARAMS:
            params[field] = name
        elif field in PLAYER_LISTS:
            params[field] = (name, "Bruno")
        elif field in ANIMAL_PARAMS:
            params[field] = "âne" if name[0] in "AÉI" else "oie"
        elif field in COUNT_PARAMS:
            params[field] = 1
        else:
            params[field] = 10
    return params


def _french_sentences() -> list[tuple[str, str]]:
    out = []
    for key, template in catalogue("fr").items():
        for name in VOWEL_NAMES:
            out.append((key, render(Msg(key, _fill(template, name)), "fr")))
    return out


def test_every_french_message_elides_before_a_vowel():
    bad = sorted({f"{key}: {text}" for key, text in _french_sentences() if NO_ELISION.search(text)})
    assert not bad, "\n".join(bad)


def test_every_french_message_writes_its_plurals():
    bad = set()
    for key, text in _french_sentences():
        if LAZY_PLURAL.search(text):
            bad.add(f"{key}: {text}")
        for word in ONE_PLURAL.findall(text):
            if word not in SINGULAR_S:
                bad.add(f"{key}: {text}")
    assert not sorted(bad), "\n".join(sorted(bad))


def test_the_scan_finds_what_it_looks_for():
    # the scan itself must be able to fail
    assert NO_ELISION.search("le tour de Anne") and NO_ELISION.search("parce que Émile") \
        and NO_ELISION.search("La Inès") and not NO_ELISION.search("le tour d'Anne")
    assert LAZY_PLURAL.search("1 carte(s)") and ONE_PLURAL.findall("avec 1 cartes") == ["cartes"]


@pytest.mark.parametrize("name,de,que", [("Anne", "d'Anne", "qu'Anne"), ("Bruno", "de Bruno", "que Bruno"),
                                         ("Émile", "d'Émile", "qu'Émile"), ("Yves", "d'Yves", "qu'Yves"),
                                         ("Hélène", "d'Hélène", "qu'Hélène"), ("8", "de 8", "que 8")])
def test_elision_of_a_name(name, de, que):
    assert elide("de", name) == de and elide("que", name) == que
    assert format(_Param(name, name, "fr"), "De") == de[0].upper() + de[1:]


@pytest.mark.parametrize("count,fr,en", [(0, "0 carte", "0 cards"), (1, "1 carte", "1 card"), (2, "2 cartes", "2 cards"),
                                         (Fraction(3, 2), "1,5 carte", "1.5 cards")])
def test_plural_of_a_count(count, fr, en):
    assert format(_Param(str(count).replace("3/2", "1,5"), count, "fr"), "#carte|cartes") == fr
    assert format(_Param(str(count).replace("3/2", "1.5"), count, "en"), "#card|cards") == en


def test_english_says_meerkats():
    texts = " ".join(catalogue("en").values()).lower()
    assert "suricate" not in texts and "meerkat" in texts


def test_boursicocotte_exact_payment_is_the_rule_and_overpaying_a_house_variant_in_both_languages():
    fr, en = catalogue("fr"), catalogue("en")
    assert "décision" not in fr["rule.BC-OVERPAY.title"] + fr["rule.BC-OVERPAY.text"]
    assert "ruling" not in en["rule.BC-OVERPAY.title"] + en["rule.BC-OVERPAY.text"]
    assert "jamais rendue" in fr["rule.BC-OVERPAY.text"] and "variante maison « Paiement libre »" in fr["rule.BC-OVERPAY.text"]
    assert "never given back" in en["rule.BC-OVERPAY.text"] and "house variant “Free payment”" in en["rule.BC-OVERPAY.text"]
    assert "vue privée du payeur" in fr["rule.BC-OVERPAY.text"] and "private view" in en["rule.BC-OVERPAY.text"]


def test_animalement_votre_screens_use_its_own_words(tmp_path):
    from companion.app import probe
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "av.db"))
    texts = {}
    for game in ("animalement-votre", "high-society"):
        state = service.start(game, ["Anne", "Bruno", "Chloé"])
        service.submit(state.session_id, {"type": "reveal", "card": "theft"})
        service.submit(state.session_id, {"type": "pass", "player": "Anne"})  # Anne owns nothing: the theft waits
        app = App(service, None)
        app.go("table", session_id=state.session_id)
        texts[game] = " ".join(probe.texts(app.root)).lower()
    assert "possession" not in texts["animalement-votre"] and " vol " not in texts["animalement-votre"]
    assert "malade comme un chien" in texts["animalement-votre"]
    assert "possession" in texts["high-society"]  # the same sentences keep High Society's words


def test_a_dialect_falls_back_to_the_common_text():
    from models.i18n import dialect

    theft = Msg("hs.event.theft_waits", {"player": "Anne"})
    with dialect("animalement-votre"):
        assert "malade comme un chien" in render(theft, "fr")
        assert render(Msg("hs.event.pass", {"player": "Anne"}), "fr") == "Anne passe."
    assert "vol" in render(theft, "fr")


def test_animalement_votre_refusal_names_its_rule_in_its_own_words(tmp_path):
    """The frame's refusal (rule id, title, text) inside an Animalement Vôtre screen."""
    from companion.app import probe
    from companion.app.screens.table import refusal_view
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store
    from models.i18n import dialect

    app = App(SessionService(Store(tmp_path / "av.db")), None)
    refusal = Msg("hs.refuse.discard_not_due", {"player": "Anne"})
    def shown(banner: Any) -> str:  # the banner, and its rule's text one tap away (tapped outside the words)
        probe.tap(banner, "refusal-rule")
        return " ".join(probe.texts(banner) + probe.texts(app.dialog)).lower()
    common = shown(refusal_view(app, "HS-DISCARD-NOT-DUE", refusal))
    with dialect("animalement-votre"):
        banner = refusal_view(app, "HS-DISCARD-NOT-DUE", refusal)
    av = shown(banner)
    assert "possession" in common
    assert "possession" not in av and "malade comme un chien" in av


def test_no_french_text_names_a_variant_like_code():
    """A variant is named in words (« on rejoue »), never as code (« égalité finale = rejouer »)."""
    from models.i18n import catalogue

    coded = {key: text for key, text in catalogue("fr").items() if re.search(r"[^\W\d] = [^\W\d]", text)}
    assert coded == {}
