"""French on the screens around the tables (results, history, statistics, rules), as a careful
editor would have it: nothing said about a player agrees with a gender (« Hors jeu », not
« Éliminé »), a feminine place is « 1re », a game shorter than a minute says so, and every text of
these screens is checked so that the patterns do not come back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from models.i18n import Msg

ROOT = Path(__file__).resolve().parents[1]
SCREENS = ("animalia", "screen-results", "screen-history", "screen-stats", "screen-rules", "screen-players", "screen-home",
           "screen-club")
# said of a player, a word that agrees with a gender: « éliminé(e) », and « 1er » for a place
GENDERED = re.compile(r"\b(élimin[ée]e?s?|1er)\b", re.IGNORECASE)


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def texts(name: str) -> dict[str, str]:
    return json.loads((ROOT / "assets" / "i18n" / "fr" / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", SCREENS)
def test_no_text_of_these_screens_agrees_with_a_players_gender(name):
    found = {k: v for k, v in texts(name).items() if GENDERED.search(v)}
    assert not found, found


def test_a_player_out_of_the_game_is_hors_jeu():
    assert fr("app.results.out") == "Hors jeu"
    assert Msg("app.results.out", {}).render("en") == "Out"


def test_a_first_place_is_feminine_where_the_events_say_1re_place():
    assert fr("app.stats.ordinal.1") == "1re"
    said = fr("app.ani.prize_first", who=["Anne"], stars="10 étoiles", cards="2 cartes-bonus")
    assert said.startswith("1re place : Anne") and not re.search(r"\b1er\b", said)
    assert fr("app.ani.prize_second", who=["Bruno"], stars="8 étoiles", cards="1 carte-bonus").startswith("2e place")


def test_a_game_shorter_than_a_minute_is_not_0_minute():
    said = fr("app.history.length", entries=fr("app.history.entries_n", count=11),
              duration=fr("app.history.under_minute"))
    assert said == "11 saisies en moins d'une minute"
    assert not re.search(r"\b0 minute", said)
