"""The legal games of tests/support/games.py are what they claim to be: the referee agrees that they
are legal and how they end."""

from __future__ import annotations

from models.record import parse_record_data
from scoring.referee import verdict_of
from tests.support.games import hs_designed, hs_designed_result, hs_long, hs_nobody_wins, sv_game


def _verdict(record: dict):
    return verdict_of(parse_record_data(record))


def test_designed_high_society_game_ends_as_the_rules_say():
    players = ["Anne", "Bruno", "Chloé"]
    for first in players:
        verdict = _verdict(hs_designed(players, first))
        expected = hs_designed_result(players, first)
        assert verdict.status == "finished", verdict
        assert verdict.result.scores == expected["scores"]
        assert verdict.result.winners == expected["winners"]
        assert verdict.result.eliminated == expected["eliminated"]


def test_nobody_wins_when_everyone_keeps_all_money():
    verdict = _verdict(hs_nobody_wins(["Anne", "Bruno", "Chloé", "David"]))
    assert verdict.status == "finished"
    assert verdict.result.winners == []
    assert sorted(verdict.result.eliminated) == ["Anne", "Bruno", "Chloé", "David"]


def test_long_game_is_legal_and_finishes_only_on_the_scandal():
    for players in (["A", "B", "C"], ["A", "B", "C", "D", "E"]):
        unfinished = hs_long(players, final=False)
        assert _verdict(unfinished).status == "in_progress"
        assert _verdict(unfinished).applied == len(unfinished["actions"])
        finished = hs_long(players, players[1])
        assert _verdict(finished).status == "finished"


def test_stupide_vautour_game_is_legal_and_finished():
    verdict = _verdict(sv_game(["Lou", "Marc"], shift=4))
    assert verdict.status == "finished", verdict
    assert verdict.applied == 30
