"""A Monte & descend game saved before chaos dealt the hands out equally: its record stays as it
was entered, and where the corrected rule makes it replay differently, the app says which game and
why (on opening it, and when a tablet's history is copied to a club)."""

from __future__ import annotations

from companion.service.migrate import check_game
from models.i18n import Msg
from tests.saved_games import opening_refused, saved_game, source_game
from tests.support.monte_descend import draw, pass_, play

PLAYERS = ["Anne", "Bruno"]
# Anne keeps 1 card, Bruno 6 after his chaos. Saved before the fix, the hands stayed 1 and 6; now
# they are 3 and 3 (one card under the reserve), so Bruno's series of four is more than he holds.
BEFORE_FIX = [play("Anne", *[f"b{v}" for v in range(1, 7)]), play("Bruno", "y9-chaos"),
              draw("Anne"), pass_("Anne"), play("Bruno", "b10", "b11", "b12", "b13")]



def test_opening_a_saved_game_that_the_corrected_chaos_refuses_says_which_game_and_why(tmp_path):
    sid = saved_game(tmp_path / "md.db", "monte-descend", PLAYERS, BEFORE_FIX)
    fr, en = opening_refused(tmp_path / "md.db", sid)
    assert f"La partie {sid} ne peut plus être rejouée : l'entrée 5 est refusée (MD-HAND)" in fr
    assert "Cette partie compte 1 carte chaos jouée" in fr and "MD-CHAOS" in fr and "parts égales" in fr
    assert f"Game {sid} can no longer be replayed: entry 5 is refused (MD-HAND)" in en
    assert "1 chaos card played" in en and "evenly" in en and "saved entries stay" in en


def test_a_saved_game_without_chaos_is_not_blamed_on_it(tmp_path):
    # Bruno lays eight cards: refused whatever the chaos rule
    sid = saved_game(tmp_path / "md.db", "monte-descend", PLAYERS,
                     [play("Anne", "b1"), play("Bruno", *[f"b{v}" for v in range(2, 10)])])
    _, en = opening_refused(tmp_path / "md.db", sid)
    assert "MD-HAND" in en and "chaos" not in en.lower()


def test_copying_such_a_game_to_a_club_says_why_it_is_refused():
    said = check_game(source_game("monte-descend", PLAYERS, BEFORE_FIX))
    assert isinstance(said, Msg)
    en = said.render("en")
    assert "entry 5 breaks rule MD-HAND" in en and "1 chaos card played" in en
    assert not isinstance(check_game(source_game("monte-descend", PLAYERS, BEFORE_FIX[:4])), Msg), "the same game before it replays"
