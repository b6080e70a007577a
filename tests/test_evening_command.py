"""`companion evening plan` and `companion evening standings` (companion/evening_command.py)."""

from __future__ import annotations

import json
from itertools import combinations

from companion.cli import main
from companion.service import SessionService
from companion.store import Store
from tests.support.games import sv_game

PLAYERS = [chr(ord("A") + i) for i in range(12)]


def plan(capsys, *extra: str) -> tuple[int, dict | None, str]:
    code = main(["evening", "plan", *extra])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else None, err


def test_plan_prints_every_round_s_tables_and_sit_outs(capsys):
    code, seating, _ = plan(capsys, "--players", ",".join(PLAYERS), "--rounds", "4", "--game", "high-society",
                            "--seed", "9")
    assert code == 0 and set(seating) == {"rounds", "sit_out"}
    assert len(seating["rounds"]) == 4 and seating["sit_out"] == [[], [], [], []]
    met: dict[frozenset, int] = {}
    for rnd in seating["rounds"]:
        assert sorted(p for t in rnd for p in t) == PLAYERS
        assert [len(t) for t in rnd] == [4, 4, 4]
        for t in rnd:
            for pair in combinations(t, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    assert sum(m - 1 for m in met.values() if m > 1) == 13  # the true minimum (tests/test_evening_seating.py)
    assert plan(capsys, "--players", ",".join(PLAYERS), "--rounds", "4", "--game", "high-society",
                "--seed", "9")[1] == seating


def test_plan_sits_out_who_the_tables_cannot_hold_and_swiss_shows_its_first_round(capsys):
    code, seating, _ = plan(capsys, "--players", "A,B,C,D,E,F,G", "--rounds", "3", "--game", "high-society",
                            "--tables", "1")
    assert code == 0 and [len(o) for o in seating["sit_out"]] == [2, 2, 2]
    assert len({p for o in seating["sit_out"] for p in o}) == 6
    code, swiss, _ = plan(capsys, "--players", "A,B,C,D,E,F", "--rounds", "3", "--game", "high-society",
                          "--method", "swiss")
    assert code == 0 and len(swiss["rounds"]) == 1 and len(swiss["sit_out"]) == 1


def test_plan_refuses_an_unknown_game_and_too_few_players(capsys):
    code, _, err = plan(capsys, "--players", "A,B,C", "--rounds", "2", "--game", "chess")
    assert code == 2 and "chess" in err
    code, _, err = plan(capsys, "--players", "A,B", "--rounds", "2", "--game", "high-society", "--lang", "en")
    assert code == 2 and err.strip() == "2 players are too few for a table of this game (at least 3)."


def test_standings_print_as_text_and_json(tmp_path, capsys):
    path = tmp_path / "club.db"
    store = Store(path)
    service = SessionService(store)
    evening = service.evenings.create("Jeudi", ["Anne", "Bruno", "Chloé", "Dario", "Eve", "Inès"], 2,
                                     ["stupide-vautour"] * 2, seed=4)
    state = service.evenings.start_table(evening.evening_id, 1, 1)
    for action in sv_game(list(state.players), 1)["actions"]:
        service.submit(state.session_id, action)
    expected = service.evenings.standings(evening.evening_id)
    store.close()
    assert main(["--db", str(path), "evening", "standings", "--evening", str(evening.evening_id), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished_games"] == 1
    assert [(r["player"], r["points"], r["position"]) for r in data["standings"]] == [
        (r.name, r.points, r.position) for r in expected.rows]
    assert main(["--db", str(path), "evening", "standings", "--evening", str(evening.evening_id)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Soirée « Jeudi » : 1 partie terminée\n")
    best = expected.rows[0]
    assert f"  1. {best.name} : {best.points} points, 1 partie, 1 victoire" in text
    assert main(["--db", str(path), "evening", "standings", "--evening", "99"]) == 2
    assert "Aucune soirée n° 99" in capsys.readouterr().err
