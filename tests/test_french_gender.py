"""What French says about a player, as a careful editor writes it: the app does not know a player's
gender, so nothing said of a named player (or of several) agrees with one — no « a-t-il », no
« il/elle » or « éliminé·e », no « ils »/« tous »/« chacun » standing for players, no « touchez-le »
for an opponent — and a place is feminine (« 1re place », never « 1er »). One scan, each pattern
over the texts it holds for (the rules reference, ``rule.*``, speaks of « un joueur » in general, as
the rulebooks do, and is left out), and the sentences that used to get it wrong, rendered."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from models.games import SPECS
from models.i18n import Msg, dialect, render
from models.outside_games import text_folders
from scoring.animalia import count_msg

FRENCH = Path(__file__).resolve().parent.parent / "assets" / "i18n" / "fr"

# Each pattern, with sentences it must find
PATTERNS: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {
    "a-t-il": (re.compile(r"-t-(?:il|elle)\b", re.I), ("Quelle carte Anne a-t-il retournée ?",)),
    "il/elle": (re.compile(r"\bil/elle\b|\(e\)|·e\b"), ("il/elle passe", "éliminé(e)", "éliminé·e")),
    "éliminé": (re.compile(r"\bélimin[ée]e?s?\b", re.I), ("Chloé est éliminé", "Éliminé")),
    "1er": (re.compile(r"\b1er\b", re.I), ("1er : Anne",)),
    "ils, tous": (re.compile(r"\bils (?:se|sont|ont)\b|\b(?:sont|les \w+) tous\b|\bTous les autres\b"),
                  ("ils se partagent la victoire", "sont tous hors jeu", "les ferait tous gagner",
                   "Tous les autres ont passé")),
    "chacun": (re.compile(r"\bchacune?\b", re.I), ("chacun a maintenant 3 cartes",)),
    "touchez-le": (re.compile(r"-(?:le|la)\b", re.I), ("Bruno prend 1 carte à l'adversaire : touchez-le.",)),
}
# Where each holds: (catalogue file, the keys scanned — "" for all but the rules reference's, "*" for
# all —, the patterns). Every game's file, from the registry (an edition served by another game's engine
# shares that game's file), with the patterns that hold for all; then what a game's texts hold besides
# (Monte & descend's screen says no « chacun » nor « touchez-le », Animalia's rules no « éliminé »)
# and the screens' files.
EVERY_GAME = ("a-t-il", "il/elle", "éliminé", "ils, tous", "1er")
GAME_FILES = tuple(dict.fromkeys(next(s.id for s in SPECS if s.engine == spec.engine) for spec in SPECS))
SCOPES = [
    *[(game, "", EVERY_GAME) for game in GAME_FILES],
    ("monte-descend", "app.md.", ("chacun", "touchez-le")),
    ("animalia", "*", ("éliminé", "1er")),
    *[(screen, "*", ("éliminé", "1er")) for screen in ("screen-results", "screen-history", "screen-stats",
                                                         "screen-rules", "screen-players", "screen-home",
                                                         "screen-club")],
]


def texts(name: str, prefix: str) -> dict[str, str]:
    """A French catalogue file's texts: the app's, or a game's registered from outside it (its package's)."""
    path = next((Path(str(folder)) / f"{name}.json" for folder in (FRENCH, *text_folders("fr"))
                 if (Path(str(folder)) / f"{name}.json").exists()), FRENCH / f"{name}.json")
    found = json.loads(path.read_text(encoding="utf-8"))
    if prefix == "*":
        return found
    return {key: text for key, text in found.items() if key.startswith(prefix) and not key.startswith("rule.")}


@pytest.mark.parametrize("name,prefix,patterns", SCOPES, ids=lambda x: x if isinstance(x, str) and x != "*" else None)
def test_no_text_gives_a_player_a_gender(name, prefix, patterns):
    bad = [f"{key} ({pattern}): {text}" for key, text in texts(name, prefix).items()
           for pattern in patterns if PATTERNS[pattern][0].search(text)]
    assert not bad, "\n".join(bad)


def test_the_scan_finds_what_it_looks_for_and_not_what_is_right():
    for name, (pattern, wrong) in PATTERNS.items():
        for sentence in wrong:
            assert pattern.search(sentence), (name, sentence)
    for right in ("Carte retournée par Anne ?", "Anne et Bruno sont hors jeu", "il reste 3 cartes",
                  "il n'est plus dans sa main", "1re place : Anne",
                  "Touchez les deux joueurs choisis ; tout le monde donne une carte à chaque joueur."):
        assert not any(pattern.search(right) for pattern, _ in PATTERNS.values()), right


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
    assert render(Msg("app.results.out"), "fr") == "Hors jeu" and render(Msg("app.results.out"), "en") == "Out"


def test_what_is_said_of_named_players_agrees_with_anyone():
    for key, params in (("ani.event.prize_second", {"who": ["Anne", "Chloé"], "n": 2}),
                        ("ani.event.prize_tie", {"who": ["Anne", "Chloé"]})):
        said = render(Msg(key, params), "fr")
        assert "Anne et Chloé" in said and not re.search(r"\bchacun", said), said
        assert "par personne" in said


def test_a_place_is_feminine_first_and_second():
    assert render(Msg("app.stats.ordinal.1"), "fr") == "1re"
    first = render(Msg("app.ani.prize_first", {"who": "Anne", "stars": count_msg("stars", 10),
                                               "cards": count_msg("bonus", 2)}), "fr")
    second = render(Msg("app.ani.prize_second", {"who": "Bruno", "stars": count_msg("stars", 6),
                                                 "cards": count_msg("bonus", 1)}), "fr")
    assert first.startswith("1re place : Anne") and second.startswith("2e place : Bruno")
