"""The "why?" on every game's log and results: one mechanism in the table frame, reading the rule ids
that the engine's events name (``scoring.base.rules_of``); no screen keeps a map of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from scoring.base import rules_of
from scoring.registry import engine_class
from tests.support.boursicocotte import as_record_text, game_2460
from tests.support.games import hs_long, sv_game

PLAYERS = ["Anne", "Bruno", "Chloé"]


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


def imported(service: SessionService, record: dict | str) -> int:
    text = record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)
    (sid,) = service.transfer.import_records(text)
    return sid


def opened(service: SessionService, tmp_path: Path, screen: str, sid: int) -> App:
    app = App(service, None, export_dir=tmp_path / "exports")
    app.go(screen, session_id=sid)
    return app


def why_of_entry(service: SessionService, tmp_path: Path, sid: int, index: int) -> str:
    app = opened(service, tmp_path, "table", sid)
    probe.tap(app.root, "log-toggle")  # the whole log, not only the latest entries
    probe.tap(app.root, f"why-entry-{index}")
    return probe.text_of(app.dialog)


def test_stupide_vautour_log_entries_say_who_takes_the_points_and_why(service, tmp_path):
    sid = imported(service, sv_game(PLAYERS, shift=3))
    log = service.open(sid).log
    play = log[1]  # round 1: 3 on the table, the cards 1, 4 and 7: Chloé's 7 takes it
    assert "SV-AWARD" in rules_of(play.events)
    assert rules_of(log[0].events) == ()  # turning over the first card settles nothing
    app = opened(service, tmp_path, "table", sid)
    probe.tap(app.root, "log-toggle")
    assert not probe.has(app.root, "why-entry-0")
    probe.tap(app.root, "why-entry-1")
    why = probe.text_of(app.dialog)
    assert "SV-AWARD" in why and fr("rule.SV-AWARD.title") in why and fr("rule.SV-AWARD.text") in why
    for event in play.events:
        assert event.render("fr") in why


def test_a_carried_tie_names_the_tie_and_carry_rules(service, tmp_path):
    # every player plays the same card each round (shift 0): every round is tied, nobody takes anything
    sid = imported(service, sv_game(PLAYERS, shift=0))
    log = service.open(sid).log
    assert rules_of(log[1].events) == ("SV-TIES", "SV-CARRY")
    why = why_of_entry(service, tmp_path, sid, 1)
    assert fr("rule.SV-TIES.text") in why and fr("rule.SV-CARRY.text") in why


def test_stupide_vautour_results_have_a_why_per_player(service, tmp_path):
    sid = imported(service, sv_game(PLAYERS, shift=3))
    app = opened(service, tmp_path, "results", sid)
    probe.tap(app.root, "why-Anne")
    why = probe.text_of(app.dialog)
    assert "SV-END" in why and fr("rule.SV-END.text") in why


def test_boursicocotte_log_entries_and_results_have_a_why(service, tmp_path):
    sid = imported(service, as_record_text(game_2460()))
    log = service.open(sid).log
    donkey = next(e for e in log if any(m.key == "bc.donkey_money" for m in e.events))
    assert "BC-DONKEY" in rules_of(donkey.events)
    why = why_of_entry(service, tmp_path, sid, donkey.index)
    assert fr("rule.BC-DONKEY.text") in why
    paid = next(e for e in log if any(m.key == "bc.sold" for m in e.events))
    assert "BC-PAYER" in why_of_entry(service, tmp_path, sid, paid.index)

    app = opened(service, tmp_path, "results", sid)
    probe.tap(app.root, "why-Anne")
    why = probe.text_of(app.dialog)
    assert "BC-SCORE" in why and fr("rule.BC-SCORE.text") in why


@pytest.mark.parametrize("game, record", [
    ("high-society", hs_long(["Anne", "Bruno", "Chloé", "David"])),
    ("stupide-vautour", sv_game(PLAYERS, shift=3)),
    ("boursicocotte", None),
])
def test_every_rule_an_engine_names_is_in_its_rules_reference(service, game, record):
    sid = imported(service, record if record is not None else as_record_text(game_2460()))
    state = service.open(sid)
    rules = set(engine_class(game).rules)
    named = [rule for entry in state.log for rule in rules_of(entry.events)]
    assert named and set(named) <= rules
    assert state.outcome is not None
    for line in state.outcome.explanation:  # every explanation line says which rule settled it
        assert rules_of([line]) and set(rules_of([line])) <= rules, line.key
