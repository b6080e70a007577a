"""High card, the tests' own game (tests/high_card/, registered by COMPANION_GAMES from
tests/conftest.py): its rules, and the whole path of a game of the app proved on a game the app does
not ship — the record parsed (msgspec and pydantic alike) and described by the JSON Schema of the
registered games (not the shipped one), `companion replay`, a game played through the service, its
row in the history (and on its screen), the CSV and BG Stats exports. Its rules page, texts, parse paths, screens and
the rest are the parametrized tests over the registry (each has a high-card case); its browser game
is tests/e2e/test_high_card_browser.py."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models import schema
from models.record import MalformedRecord, parse_record, parse_record_data
from models.record_models import record_json_schema
from scoring.base import RuleViolation
from scoring.referee import new_engine, replay
from tests.high_card.engine import HighCardEngine

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "high_card" / "examples" / "high-card-finished.json"
PLAYERS = ["Lou", "Marc", "Nina"]


def record(*actions: dict, players=PLAYERS) -> dict:
    return {"format": "table-record/1", "game": "high-card", "players": list(players), "actions": list(actions)}


def reveal(**cards: int) -> dict:
    return {"type": "reveal", "cards": cards}


def battle(**cards: int) -> dict:
    return {"type": "battle", "cards": cards}


def engine_after(*actions: dict, players=PLAYERS) -> HighCardEngine:
    engine = new_engine(parse_record_data(record(players=players)))
    assert isinstance(engine, HighCardEngine)
    for action in parse_record_data(record(*actions, players=players)).actions:
        engine.apply(action)
    return engine


def refusal(*actions: dict, players=PLAYERS) -> str:
    *before, last = actions
    engine = engine_after(*before, players=players)
    [parsed] = parse_record_data(record(last, players=players)).actions
    with pytest.raises(RuleViolation) as refused:
        engine.apply(parsed)
    return refused.value.rule


# -- the rules ------------------------------------------------------------------------------------


def test_the_highest_card_takes_the_round():
    engine = engine_after(reveal(Lou=2, Marc=5, Nina=4))
    assert engine.taken == {"Lou": 0, "Marc": 1, "Nina": 0} and engine.round == 2
    assert engine.hands["Marc"] == (1, 2, 3, 4)
    assert [e.rules for e in engine.last_round] == [("HC-HIGHEST",)]


def test_equal_highest_cards_make_a_battle_of_the_tied_players_alone():
    engine = engine_after(reveal(Lou=5, Marc=3, Nina=5))
    assert engine.battle == ("Lou", "Nina") and engine.round == 1
    assert engine.expected().players == ("Lou", "Nina") and engine.expected().types == ("battle",)
    assert refusal(reveal(Lou=5, Marc=3, Nina=5), reveal(Lou=1, Marc=2, Nina=4)) == "HC-BATTLE"
    assert refusal(reveal(Lou=5, Marc=3, Nina=5), battle(Lou=1, Marc=2, Nina=4)) == "HC-BATTLE"
    assert refusal(reveal(Lou=2, Marc=3, Nina=5), battle(Lou=1, Nina=4)) == "HC-BATTLE"  # no battle due
    engine = engine_after(reveal(Lou=5, Marc=3, Nina=5), battle(Lou=4, Nina=4), battle(Lou=3, Nina=1))
    assert engine.taken["Lou"] == 1 and engine.battle == () and engine.round == 2


def test_the_house_variant_leaves_a_tied_round_to_nobody_without_a_battle():
    data = {**record(reveal(Lou=5, Marc=3, Nina=5)), "variant": {"ties": "nobody"}}
    engine = replay(parse_record_data(data)).engine
    assert isinstance(engine, HighCardEngine) and engine.ties == "nobody"
    assert engine.battle == () and engine.round == 2 and set(engine.taken.values()) == {0}
    assert [e.render("en") for e in engine.last_round] == ["A tie on the 5 between Lou and Nina: nobody takes round 1."]


def test_a_round_names_every_player_and_a_card_in_hand():
    assert refusal(reveal(Lou=2, Marc=5)) == "HC-REVEAL-ALL"
    assert refusal(reveal(Lou=2, Marc=5, Nina=4), reveal(Lou=2, Marc=1, Nina=3)) == "HC-CARD-USED"


def test_a_tied_player_without_a_card_leaves_the_round_to_nobody_and_the_game_ends():
    # four battles in a row: both hands are empty after the fourth
    engine = engine_after(reveal(Lou=5, Marc=5), *[battle(Lou=c, Marc=c) for c in (1, 2, 3, 4)], players=["Lou", "Marc"])
    assert engine.over and engine.taken == {"Lou": 0, "Marc": 0}
    assert [e.rules for e in engine.last_round] == [("HC-BATTLE-SHORT",)]
    outcome = engine.outcome()
    assert outcome is not None and outcome.winners == ("Lou", "Marc")
    assert refusal(reveal(Lou=5, Marc=5), *[battle(Lou=c, Marc=c) for c in (1, 2, 3, 4)], reveal(Lou=1, Marc=2),
                   players=["Lou", "Marc"]) == "HC-GAME-OVER"


def test_the_game_ends_when_a_hand_is_empty_and_the_most_rounds_win():
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    done = replay(parse_record_data(data))
    outcome = done.engine.outcome()
    assert outcome is not None and outcome.winners == ("Marc",) and dict(outcome.scores) == {"Lou": 1, "Marc": 2, "Nina": 1}
    assert outcome.ranking == (("Marc", 1), ("Lou", 2), ("Nina", 2))
    assert [e.render("fr") for e in outcome.explanation][-1] == "Marc gagne avec 2 manches."


# -- the record and its schema --------------------------------------------------------------------


def test_its_record_parses_on_both_paths_and_the_registered_schema_describes_it():
    text = EXAMPLE.read_text(encoding="utf-8")
    data = json.loads(text)
    assert parse_record(text) == parse_record_data(data)
    validator = jsonschema.Draft202012Validator(record_json_schema())
    validator.validate(data)
    bad = {**data, "actions": [{"type": "reveal", "cards": {"Lou": 6, "Marc": 1, "Nina": 2}}]}
    assert not validator.is_valid(bad)
    with pytest.raises(MalformedRecord):
        parse_record_data(bad)


def test_the_shipped_schema_describes_the_apps_own_games_only():
    shipped = json.loads((schema.HERE / "table-record.schema.json").read_text(encoding="utf-8"))
    assert "high-card" not in json.dumps(shipped)
    assert not jsonschema.Draft202012Validator(shipped).is_valid(json.loads(EXAMPLE.read_text(encoding="utf-8")))


def test_companion_replay_answers_its_record_in_its_words():
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(EXAMPLE), "--lang", "fr"],
                          capture_output=True, cwd=ROOT, timeout=60, check=False, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert (verdict["game"], verdict["status"], verdict["applied"]) == ("high-card", "finished", 5)
    assert verdict["result"]["winners"] == ["Marc"]
    assert verdict["result"]["explanation"][0] == "Lou : 1 manche remportée"


# -- through the service: the history, the CSV and BG Stats ----------------------------------------


def test_a_game_played_through_the_service_is_in_the_history_the_csv_and_bg_stats(tmp_path):
    service = SessionService(Store(tmp_path / "companion.db"))
    try:
        sid = service.start("high-card", PLAYERS).session_id
        for action in json.loads(EXAMPLE.read_text(encoding="utf-8"))["actions"]:
            service.submit(sid, action)
        [row] = service.history.all(game="high-card")
        assert (row.session_id, row.status, row.winners, row.entries) == (sid, "finished", ("Marc",), 5)
        assert {seat.name: (seat.score, seat.place) for seat in row.seats} == \
            {"Lou": (1, 2), "Marc": (2, 1), "Nina": (1, 2)}
        rows = list(csv.reader(io.StringIO(service.exports.csv_text(lang="fr"))))[1:]
        assert len(rows) == 3 and all("Carte haute" in r for r in rows), rows
        seats = [next(i for i, cell in enumerate(r) if cell in PLAYERS) for r in rows]
        assert {r[i]: r[i + 1:i + 4] for r, i in zip(rows, seats)} == \
            {"Lou": ["1", "2", "0"], "Marc": ["2", "1", "1"], "Nina": ["1", "2", "0"]}  # score, place, winner
        app = App(service, None)
        app.go("history")  # its row on the history screen, in its name
        assert "Carte haute" in probe.text_of(app.root, f"history-{sid}")
        [play] = service.exports.bgstats_plays(lang="en")
        assert play["game"]["name"] == "High card" and play["game"]["sourceGameId"] == "high-card"
        assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in play["players"]] == \
            [("Lou", 1, False, 2), ("Marc", 2, True, 1), ("Nina", 1, False, 2)]
    finally:
        service.store.close()
