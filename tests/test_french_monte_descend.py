"""The French of Monte & descend's table screen, as a careful editor would have it: nothing said about
a player assumes a gender (no « touchez-le » for the opponent, no « chacun » for the players), so
these patterns do not come back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

CATALOGUE = Path(__file__).resolve().parent.parent / "assets" / "i18n" / "fr" / "monte-descend.json"
GENDERED = re.compile(r"\bchacune?\b|-(le|la)\b|-t-(il|elle)\b|\bélimin[ée]e?s?\b|\b1er\b", re.IGNORECASE)


def screen_texts() -> dict[str, str]:
    texts = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    return {key: text for key, text in texts.items() if key.startswith("app.md.")}


def test_the_scan_finds_a_gendered_word():
    for sentence in ("Bruno prend 1 carte à l'adversaire : touchez-le.", "chacun a maintenant 3 cartes",
                     "Quelle carte Anne a-t-il posée ?", "Éliminé", "1er"):
        assert GENDERED.search(sentence), sentence
    assert not GENDERED.search("Touchez les deux joueurs choisis ; tout le monde donne une carte à chaque joueur.")


@pytest.mark.parametrize("key", sorted(screen_texts()))
def test_the_screen_assumes_no_players_gender(key):
    assert not GENDERED.search(screen_texts()[key]), screen_texts()[key]
