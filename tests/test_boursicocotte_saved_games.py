"""A Boursicocotte game saved while the app accepted paying more than owed with the exact sum in
hand: the rulebook's exact payment is now the default (``payment: exact``), so such a game no
longer replays; the app says which game and why, on opening it and when it is copied to a club."""

from __future__ import annotations

from companion.service.migrate import check_game
from models.i18n import Msg
from tests.saved_games import opening_refused, saved_game, source_game

# Lou, the auctioneer buying back, holds four 10s and pays a 50 for a bid of 30: accepted before, refused (BC-OVERPAY) now
SAVED = [{"type": "draw", "card": "pig"}, {"type": "bid", "player": "Nina", "amount": 30},
         {"type": "close", "buy_back": True}, {"type": "pay", "player": "Lou", "cards": [50]}]
PLAYERS = ["Lou", "Marc", "Nina"]



def test_opening_a_saved_overpayment_says_which_game_and_why(tmp_path):
    sid = saved_game(tmp_path / "bc.db", "boursicocotte", PLAYERS, SAVED)
    fr, en = opening_refused(tmp_path / "bc.db", sid)
    assert f"La partie {sid} ne peut plus être rejouée : l'entrée 4 est refusée (BC-OVERPAY)" in fr
    assert "variante maison « Paiement libre »" in fr and "restent telles quelles" in fr
    assert f"Game {sid} can no longer be replayed: entry 4 is refused (BC-OVERPAY)" in en
    assert "“Free payment”" in en


def test_another_refusal_is_not_blamed_on_the_exact_payment(tmp_path):
    short = SAVED[:3] + [{"type": "pay", "player": "Lou", "cards": [10, 10]}]  # 20 for 30: short in any rule
    sid = saved_game(tmp_path / "bc.db", "boursicocotte", PLAYERS, short)
    _, en = opening_refused(tmp_path / "bc.db", sid)
    assert "BC-PAY-SHORT" in en and "Free payment" not in en


def test_copying_such_a_game_to_a_club_says_why_it_is_refused():
    game = source_game("boursicocotte", PLAYERS, SAVED)
    said = check_game(game)
    assert isinstance(said, Msg)
    assert "BC-OVERPAY" in said.render("en") and "Free payment" in said.render("en")
