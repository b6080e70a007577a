"""A 2-player Animalia game saved when a lot back at the dealer had to be taken as soon as it completed
one row: since ruling ANI-FORCED-ROWS the dealer draws while the other row has room, so such a game no
longer replays; the app says which game and why, on opening it and when it is copied to a club."""

from __future__ import annotations

from companion.service.migrate import check_game
from models.i18n import Msg
from scoring.animalia import power_of
from tests.saved_games import opening_refused, saved_game, source_game
from tests.support.animalia import engine

PLAYERS = ["Anne", "Bruno"]
PLAIN = sorted(c for c in engine(2).deck if power_of(c) is None)  # no power is activated by these


def saved_actions() -> list[dict]:
    """Anne and Bruno deal in turn and each take their own card into row 0; then a single card goes
    round back to Anne (rows of 4 and 0): taken into row 0 before the ruling, a draw now."""
    actions: list[dict] = []
    for i in range(8):
        player = PLAYERS[i % 2]
        actions += [{"type": "draw", "card": PLAIN[i]}, {"type": "take", "player": player, "row": 0}]
    return actions + [{"type": "draw", "card": PLAIN[8]}, {"type": "pass", "player": "Anne"},
                      {"type": "pass", "player": "Bruno"}, {"type": "take", "player": "Anne", "row": 0}]



def test_opening_a_saved_forced_take_says_which_game_and_why(tmp_path):
    actions = saved_actions()
    sid = saved_game(tmp_path / "ani.db", "animalia", PLAYERS, actions)
    fr, en = opening_refused(tmp_path / "ani.db", sid)
    assert f"La partie {sid} ne peut plus être rejouée : l'entrée {len(actions)} est refusée (ANI-TURN)" in fr
    assert "ANI-FORCED-ROWS" in fr and "le donneur pioche" in fr
    assert "ANI-FORCED-ROWS" in en and "the dealer now draws" in en


def test_copying_such_a_game_to_a_club_says_why_and_another_refusal_is_not_blamed_on_it():
    said = check_game(source_game("animalia", PLAYERS, saved_actions()))
    assert isinstance(said, Msg) and "ANI-FORCED-ROWS" in said.render("en")
    other = saved_actions()[:16] + [{"type": "pass", "player": "Anne"}]  # no lot yet: refused, not for this
    said = check_game(source_game("animalia", PLAYERS, other))
    assert isinstance(said, Msg) and "ANI-FORCED-ROWS" not in said.render("en")
