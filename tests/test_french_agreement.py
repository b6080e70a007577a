"""French texts a player reads, rendered with real values: counts of 0 and 1 agree with their
noun (and no « en » says the noun twice; a game under a minute is not « 0 minute »), a sentence about
one player or about several agrees with either, a name whose Y sounds like
a consonant keeps its "de", and a saved Animalement Vôtre game that can no longer be replayed says
why in the edition's own words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from models.i18n import Msg, _Param, elide, render


@pytest.mark.parametrize("name,de", [("Yann", "de Yann"), ("Yasmine", "de Yasmine"), ("Yolande", "de Yolande"),
                                     ("Yohan", "de Yohan"), ("Yves", "d'Yves"), ("Yvonne", "d'Yvonne"),
                                     ("Ysé", "d'Ysé")])
def test_a_y_before_a_vowel_is_a_consonant(name, de):
    # "le tour de Yann", "la mise de Yasmine", but "d'Yves": a Y followed by a vowel is sounded
    # as a consonant, and French does not elide before it
    assert elide("de", name) == de
    assert format(_Param(name, name, "fr"), "Que") == de.replace("de ", "Que ").replace("d'", "Qu'")


def test_a_turn_refusal_about_yann():
    assert render(Msg("bc.err.turn", {"player": "Yann", "turn": "Bruno"}), "fr").startswith(
        "Ce n'est pas le tour de Yann :")
    assert render(Msg("bc.err.turn", {"player": "Yves", "turn": "Bruno"}), "fr").startswith(
        "Ce n'est pas le tour d'Yves :")


def _medal_option(cards: list[str]):
    from scoring.animalia_medals import options

    return options(cards, [])[0]


@pytest.mark.parametrize("lang,expected", [("fr", "0 point en fin de partie"), ("en", "0 points at the end")])
def test_an_animalia_option_with_no_medal_counts_its_points(lang, expected):
    # three animals of three families: no medal, nothing at the end; French says "0 point"
    from scoring.animalia import medals_msg
    from scoring.animalia_medals import count_msg

    option = _medal_option(["cat-cute", "dog-cute", "horse-cute"])
    assert option.end == 0
    for key in ("app.ani.option", "app.ani.option_owl"):
        said = render(Msg(key, {"medals": medals_msg(option.medals), "covers": Msg("app.ani.no_cover"),
                                "owl": "", "now": count_msg("medals", option.now), "end": option.end}), lang)
        assert expected in said, said
    five = render(Msg("app.ani.option", {"medals": "", "covers": "", "now": "", "end": 5}), lang)
    assert "5 points" in five


@pytest.mark.parametrize("lang,one,two", [("fr", "1 donne en tout", "2 donnes en tout"),
                                          ("en", "1 deal in all", "2 deals in all")])
def test_monte_descend_score_sheet_rule_with_a_one_deal_match(lang, one, two):
    # the variant "deals" may be 1 (its minimum)
    from scoring.monte_descend import MonteDescendEngine

    assert [v.minimum for v in MonteDescendEngine.variants if v.key == "deals"] == [1]
    assert one in render(Msg("app.md.sheet_rule", {"deals": 1}), lang)
    assert two in render(Msg("app.md.sheet_rule", {"deals": 2}), lang)


def test_a_list_of_skipped_or_excluded_players_agrees_with_one_and_with_several():
    import re

    one, two = ["Anne"], ["Anne", "Bruno"]
    # Animalia: one player skipped is not "Sautés"
    skipped = render(Msg("ani.event.skipped", {"players": one}), "fr")
    assert not re.search(r"\bSautés\b", skipped), skipped
    # Boursicocotte: two bidders out of a re-auction did not each "n'a pas pu payer" together
    excluded = render(Msg("app.bc.excluded", {"players": two}), "fr")
    assert "n'a pas pu" not in excluded, excluded
    # Animalia: a single 2nd place is not told "par personne" (nor "chacun", which assumes a gender)
    second_one = render(Msg("ani.event.prize_second", {"who": one, "n": 1}), "fr")
    second_two = render(Msg("ani.event.prize_second", {"who": two, "n": 2}), "fr")
    assert "par personne" not in second_one and "par personne" in second_two, (second_one, second_two)
    assert "each" not in render(Msg("ani.event.prize_second", {"who": one, "n": 1}), "en")


def test_animalia_single_second_place_is_not_told_each():
    """A real season's end: Anne first, Bruno alone in second place."""
    from tests.support.animalia import SEASON, engine, give

    eng = engine(3)
    events = []
    for i in range(5):
        for player, cards in SEASON.items():
            events += give(eng, cards[i], player)
    second = [e for e in events if e.key == "ani.event.prize_second"]
    assert len(second) == 1
    fr, en = render(second[0], "fr"), render(second[0], "en")
    assert "Bruno" in fr and "chacun" not in fr and "1 carte-bonus" in fr, fr
    assert "Bruno" in en and "each" not in en and "1 bonus card" in en, en


def test_a_broken_animalement_votre_game_says_why_in_its_own_words(tmp_path):
    """A saved game whose entries the engine now refuses: the refusal, shown on the table screen
    (whose game cannot be opened, so the screen itself has no dialect), is in the edition's words."""
    import re
    import sqlite3

    from companion.app import probe
    from companion.app.shell import App
    from companion.service import ServiceError, SessionService
    from companion.store import Store

    db = tmp_path / "av.db"
    service = SessionService(Store(db))
    sid = service.start("animalement-votre", ["Anne", "Bruno", "Chloé"]).session_id
    service.submit(sid, {"type": "reveal", "card": "p1"})
    with sqlite3.connect(db) as con:  # an entry the engine refuses: nothing is waiting for a discard
        con.execute("INSERT INTO actions (session_id, seq, action, created_at) VALUES (?, ?, ?, ?)",
                    (sid, 99, '{"type":"discard","player":"Anne","card":"p1"}', "2026-01-01T00:00:00+00:00"))
    con.close()
    fresh = SessionService(Store(db))
    with pytest.raises(ServiceError) as err:
        fresh.open(sid)
    for lang in ("fr", "en"):
        said = err.value.msg.render(lang).lower()
        assert "malade comme un chien" in said or "sick as a dog" in said, said
        assert not re.search(r"\b(vol|theft|possessions?)\b", said), said
    app = App(fresh, None)
    app.go("table", session_id=sid)
    shown = " ".join(probe.texts(app.root)).lower()
    assert "malade comme un chien" in shown and not re.search(r"\b(vol|possessions?)\b", shown), shown


MONEY_WORDS = {"fr": r"\b(billets?|cartes? d'argent)\b", "en": r"\bmoney cards?\b"}


def test_animalement_votre_bids_with_its_bid_cards_in_every_shared_text():
    """Animalement Vôtre's money is its « cartes d'enchère » (its events already say so): no shared
    High Society text it shows (the bid pad, a refusal, the rules reference) speaks of « billets »
    or « cartes d'argent »."""
    import re

    from models.i18n import LANGUAGES, catalogue

    missing, wrong = [], []
    for lang in LANGUAGES:
        texts = catalogue(lang)
        for key, text in texts.items():
            if "@" in key or "high-society" in key.split(".") or not key.startswith(("hs.", "app.hs.", "rule.HS-")):
                continue
            if re.search(MONEY_WORDS[lang], text, re.I):
                own = texts.get(f"{key}@animalement-votre")
                if own is None:
                    missing.append(f"{lang}: {key}")
                elif re.search(MONEY_WORDS[lang], own, re.I):
                    wrong.append(f"{lang}: {key}")
    assert not missing and not wrong, (missing, wrong)


def test_animalement_votre_bid_pad_speaks_of_bid_cards(tmp_path):
    from companion.app import probe
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "av.db"))
    shown = {}
    for game in ("animalement-votre", "high-society"):
        sid = service.start(game, ["Anne", "Bruno", "Chloé"]).session_id
        service.submit(sid, {"type": "reveal", "card": "p1"})
        app = App(service, None)
        app.go("table", session_id=sid)
        shown[game] = " ".join(probe.texts(app.root)).lower()
    assert "billet" in shown["high-society"]
    assert "billet" not in shown["animalement-votre"] and "cartes d'enchère" in shown["animalement-votre"]


def test_the_players_who_win_most_often_may_be_several():
    # a tie for the most wins at a game lists every leader: the line is not in the singular
    two = render(Msg("app.stats.top_winner", {"players": ["Anne", "Bruno"], "wins": "3 victoires"}), "fr")
    one = render(Msg("app.stats.top_winner", {"players": ["Anne"], "wins": "3 victoires"}), "fr")
    assert not two.startswith("Gagne "), two
    assert "Anne et Bruno" in two and "Anne" in one


def test_too_many_of_one_animal_in_a_short_version_deal_is_said_in_french():
    from models.record import MalformedRecord, parse_record_data

    deal = {"Anne": ["donkey"] * 4, "Bruno": ["donkey", "cow", "cow", "cow"], "Chloé": ["cow", "hen", "hen", "hen"]}
    with pytest.raises(MalformedRecord) as err:
        parse_record_data({"format": "table-record/1", "game": "boursicocotte", "players": list(deal),
                           "start_animals": deal, "actions": []})
    said = err.value.msg.render("fr")
    assert said.startswith("start_animals : ") and "plus que les" not in said and "plus de 4 fois" in said, said


# « en » + a verb + a placeholder: the placeholder is a count with its noun (« 2 cartes-bonus »), so
# the pronoun and the noun say the same thing twice
EN_THEN_NOUN = re.compile(r"\ben [a-zàâçéèêëîïôûùüÿœ]+ \{(?!n\b)")


def test_en_never_stands_for_a_noun_the_sentence_repeats():
    from scoring.animalia import count_msg

    french = json.loads((Path(__file__).resolve().parent.parent / "assets" / "i18n" / "fr" / "animalia.json")
                        .read_text(encoding="utf-8"))
    assert {key: text for key, text in french.items() if EN_THEN_NOUN.search(text)} == {}
    said = render(Msg("app.ani.bonus_intro", {"cards": count_msg("bonus", 2)}), "fr")
    assert "2 cartes-bonus" in said and " en recevez" not in said
    assert EN_THEN_NOUN.search("(vous en recevez {cards})")  # the scan finds what it looks for


def test_a_game_shorter_than_a_minute_is_not_0_minute():
    said = render(Msg("app.history.length", {"entries": Msg("app.history.entries_n", {"count": 11}),
                                             "duration": Msg("app.history.under_minute")}), "fr")
    assert said == "11 saisies en moins d'une minute"
    assert not re.search(r"\b0 minute", said)
