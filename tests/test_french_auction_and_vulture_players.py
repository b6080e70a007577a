"""French about a player, in High Society, Animalement Vôtre and Stupide Vautour: a sentence or a
question about a named player (or about several) assumes no gender — no « a-t-il », no
« il/elle », no « éliminé·e », no « ils »/« tous » standing for players. « Quelle carte Anne
a-t-il retournée ? » is written « Carte retournée par Anne ? ».

The rules reference texts (``rule.*``) speak of « un joueur » in general, as the rulebooks do, and
are left out of the scan."""

from __future__ import annotations

import json
import re

import pytest

from models.i18n import Msg, dialect, render
from tests.e2e.harness import ROOT

CATALOGUES = ("high-society", "stupide-vautour")
# what a careful editor does not write about a player whose gender the app does not know
GENDERED = re.compile(
    r"-t-(?:il|elle)\b"                 # « Anne a-t-il retourné… »
    r"|\bil/elle\b|\(e\)|·e\b"          # « il/elle », « éliminé(e) », « éliminé·e »
    r"|\béliminée?s?\b"                 # an agreement on the player(s) cast out: « hors jeu »
    r"|\bils (?:se|sont|ont)\b"         # « ils se partagent la victoire »
    r"|\b(?:sont|les \w+) tous\b"       # « sont tous hors jeu », « les ferait tous gagner »
    r"|\bTous les autres\b")            # « Tous les autres ont passé »


def _texts(name: str) -> dict[str, str]:
    with open(ROOT / "assets" / "i18n" / "fr" / f"{name}.json", encoding="utf-8") as f:
        return {key: text for key, text in json.load(f).items() if not key.startswith("rule.")}


@pytest.mark.parametrize("name", CATALOGUES)
def test_no_french_text_of_these_games_gives_a_player_a_gender(name):
    bad = [f"{key}: {text}" for key, text in _texts(name).items() if GENDERED.search(text)]
    assert not bad, "\n".join(bad)


def test_the_scan_finds_what_it_looks_for():
    for wrong in ("Quelle carte Anne a-t-il retournée ?", "Chloé est éliminé", "il/elle passe",
                  "ils se partagent la victoire", "sont tous hors jeu", "les ferait tous gagner",
                  "Tous les autres ont passé"):
        assert GENDERED.search(wrong), wrong
    for right in ("Carte retournée par Anne ?", "Anne et Bruno sont hors jeu", "il reste 3 cartes",
                  "il n'est plus dans sa main"):
        assert not GENDERED.search(right), right


@pytest.mark.parametrize("key,player,game,expected", [
    ("app.hs.which_card", "Anne", None, "Carte retournée par Anne ?"),
    ("app.hs.discard_which", "Émile", None, "Possession qu'Émile abandonne au vol ?"),
    ("app.hs.discard_which", "Chloé", "animalement-votre", "Animal que Chloé abandonne à « malade comme un chien » ?"),
])
def test_the_questions_to_the_table_name_the_player_without_a_gender(key, player, game, expected):
    with dialect(game):
        assert render(Msg(key, {"player": player}), "fr") == expected


def test_players_cast_out_or_sharing_the_win_get_no_agreement():
    two = ["Chloé", "Anne"]
    assert render(Msg("hs.explain.poorest_many", {"players": two, "money": 3}), "fr") == \
        "Chloé et Anne ont le moins d'argent restant (3) et sont hors jeu."
    assert render(Msg("hs.explain.shared", {"players": two}), "fr") == \
        "Rien ne départage Chloé et Anne, qui se partagent la victoire (égalité finale : partagée)."
    assert "hors jeu" in render(Msg("hs.explain.all_out", {"money": 3}), "fr")
