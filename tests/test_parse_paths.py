"""The two parsers agree: msgspec (models.record, what every valid record and action goes through)
and pydantic (models.record_models, the declaration the structs are generated from, and what says
why a record is malformed). Fed the same texts — legal games of every game, and the same games
mutated by hypothesis (fields removed, added, retyped, repeated, names bent, variants of every
engine's declaration) — both accept the same ones and build equal records, and refuse the others
with the same sentence at the same action."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models import record_models
from models.games import SPECS
from models.games.animalia import ANI_CARDS
from models.games.boursicocotte import BC_ANIMAL_VALUES
from models.games.high_society import HS_STATUS_CARDS
from models.games.monte_descend import MD_CARDS
from models.record import (
    MalformedRecord,
    _parse_fast,
    action_to_data,
    load_json,
    parse_action,
    parse_record,
    parse_record_data,
    record_to_data,
)
from models.structs_base import Struct
from scoring.registry import engine_class, refereed_games

ROOT = Path(__file__).resolve().parent.parent
GAMES = refereed_games()
SEEDS = 2


@cache
def legal_records(game: str) -> tuple[dict[str, Any], ...]:
    """Complete legal games (benchmarks/playouts.py, fixed seeds), short ones cut to keep it quick."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from playouts import playout

    records = []
    for seed in range(SEEDS):
        record = playout(game, seed)
        record["actions"] = record["actions"][:60]
        records.append(record)
    return tuple(records)


# -- the two paths, and what each answers --------------------------------------------------------

def reference(text: str | bytes) -> Any:
    """Today's pydantic path: json.loads refusing repeated keys, then the pydantic models and the
    same checks after them."""
    return record_models.reference_record(load_json(text))


def outcome(parse: Any, *args: Any) -> tuple[Any, ...]:
    try:
        parsed = parse(*args)
    except MalformedRecord as error:
        return "malformed", error.message, error.index, error.render("fr")
    if hasattr(parsed, "actions"):
        return "ok", record_to_data(parsed), [action_to_data(a) for a in parsed.actions]
    return "ok", action_to_data(parsed)


def assert_same_record(text: str | bytes) -> tuple[Any, ...]:
    fast = outcome(parse_record, text)
    assert fast == outcome(reference, text), text
    if fast[0] == "ok":
        assert isinstance(parse_record(text), Struct)  # the engines get structs, never pydantic models
    return fast


# -- JSON text that can say what json.dumps cannot (a repeated key) -------------------------------

class Pairs(list):
    """A JSON object written as its (key, value) pairs, in order, repeats allowed."""


def dumps(value: Any) -> str:
    if isinstance(value, Pairs):
        return "{" + ", ".join(f"{json.dumps(k)}: {dumps(v)}" for k, v in value) + "}"
    if isinstance(value, dict):
        return dumps(Pairs(value.items()))
    if isinstance(value, list):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


# -- what hypothesis puts in a record ---------------------------------------------------------------

NAMES = ["Anne", "anne", "ANNE", " Anne", "Anne ", "An  ne", "Bru\x07no", "Zo\u200bé", "E\u0301mile", "Émile",
         "x" * 40, "x" * 41, "", " ", "A: B", "Chloé", "Zoé", "\u202eevil", "Bruno"]
CARDS = list(HS_STATUS_CARDS) + list(BC_ANIMAL_VALUES) + list(ANI_CARDS) + list(MD_CARDS)[::7] + ["unicorn", "p11"]
KEYS = ["type", "player", "card", "cards", "add", "amount", "buy_back", "target", "animal", "from", "from_", "count",
        "direction", "row", "from_row", "to", "to_row", "power", "bonus", "medals", "surprise", "format", "game",
        "players", "first_player", "variant", "actions", "start_animals"]


def declared_variants() -> tuple[list[str], list[Any]]:
    keys: list[str] = ["colour"]
    values: list[Any] = ["coin", 0, -1, 1.5]
    for game in GAMES:
        for spec in engine_class(game).variants:
            keys.append(spec.key)
            values.extend(spec.choices or (spec.minimum or 0, (spec.minimum or 0) + 3))
    return keys, values


VARIANT_KEYS, VARIANT_VALUES = declared_variants()

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-6, 30), st.sampled_from([0, 1, 25, 500, 1000, 2**63, 10**26, -0]),
    st.sampled_from([1.0, 0.5, 1e300]), st.sampled_from(NAMES), st.sampled_from(CARDS), st.text(max_size=4),
    st.sampled_from(VARIANT_VALUES), st.sampled_from(["up", "down", "thief", "spy", "prankster", "dog", "reveal",
                                                      "bid", "pass", "play", "table-record/1"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(NAMES + KEYS), inner,
                                                                       max_size=3)), max_leaves=6)


def containers(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths of every object and list in ``value``."""
    found = []
    if isinstance(value, (dict, list)):
        found.append(path)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, inner in items:
            found.extend(containers(inner, path + (key,)))
    return found


def at(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


ORIGINAL_NAMES = ("Anne", "Bruno", "Chloé", "David", "Émile", "Fanny")  # the playouts' (none inside another)
VALID_NAMES = ["Zoé", "A: B", "x" * 40, "Anne Marie", "\u00c9mile", "Nina \u200d", "🦊", "O'Brien", "Ω"]
CHANGES = ["set", "drop", "add", "variant", "name", "players", "repeat", "element",  # mostly malformed
           "rename", "null", "reorder", "choice", "first"]  # mostly still valid


@st.composite
def mutated(draw: Any, data: dict[str, Any]) -> str:
    """``data`` with a few changes, as JSON text."""
    data = copy.deepcopy(data)
    game = data["game"]
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(CHANGES))
        players = data.get("players")
        if kind == "rename" and isinstance(players, list) and players and players[0] in ORIGINAL_NAMES:
            # a player renamed everywhere: valid, unless the new name breaks a rule
            old, new = players[0], draw(st.sampled_from(VALID_NAMES + NAMES))
            data = json.loads(json.dumps(data).replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1]))
        elif kind == "choice":
            specs = engine_class(game).variants
            if specs:
                spec = draw(st.sampled_from(specs))
                choice = draw(st.sampled_from(spec.choices or (spec.minimum or 0, 1, 12)))
                data.setdefault("variant", {})
                if isinstance(data["variant"], dict):
                    data["variant"][spec.key] = choice
        elif kind == "first" and isinstance(players, list) and players:
            data["first_player"] = draw(st.sampled_from(players + [None]))
        elif kind == "variant":
            data["variant"] = {draw(st.sampled_from(VARIANT_KEYS)): draw(st.sampled_from(VARIANT_VALUES))}
        elif kind == "name" and isinstance(players, list) and players:
            players[draw(st.integers(0, len(players) - 1))] = draw(st.sampled_from(NAMES))
        elif kind == "players" and isinstance(players, list):
            data["players"] = players[: draw(st.integers(0, 7))] + draw(st.lists(st.sampled_from(NAMES), max_size=2))
        else:
            path = draw(st.sampled_from(containers(data)))
            target = at(data, path)
            if isinstance(target, dict) and target:
                key = draw(st.sampled_from(sorted(target)))
                if kind == "drop":
                    del target[key]
                elif kind == "add":
                    target[draw(st.sampled_from(KEYS))] = draw(values)
                elif kind == "null":
                    target[key] = None
                elif kind == "reorder":
                    items = draw(st.permutations(list(target.items())))
                    target.clear()
                    target.update(items)
                elif kind == "repeat" and path:
                    pairs = Pairs(target.items())
                    pairs.insert(draw(st.integers(0, len(pairs))), (key, draw(st.one_of(st.just(target[key]), values))))
                    at(data, path[:-1])[path[-1]] = pairs
                    break  # Pairs are not walked again
                else:
                    target[key] = draw(values)
            elif isinstance(target, list) and target:
                i = draw(st.integers(0, len(target) - 1))
                if kind == "drop":
                    del target[i]
                elif kind == "add":
                    target.insert(i, copy.deepcopy(target[draw(st.integers(0, len(target) - 1))]))
                else:
                    target[i] = draw(values)
    text = dumps(data)
    if draw(st.integers(0, 9)) == 0:
        text = draw(st.sampled_from(["\ufeff" + text, text + " x", "\n " + text + "\n", text.replace(": ", ":\t"),
                                     text.replace('"', '"\t', 1), text.replace(",", " ,", 3)]))
    return text


# -- the tests ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_legal_games_take_the_fast_path_and_equal_the_pydantic_records(game):
    for data in legal_records(game):
        text = json.dumps(data, ensure_ascii=False)
        assert assert_same_record(text)[0] == "ok"
        assert assert_same_record(text.encode())[0] == "ok"
        assert _parse_fast(text) is not None  # no detour by the careful path for a plain valid record
        parsed, model = parse_record(text), reference(text)
        assert record_to_data(parsed) == model.model_dump(mode="json", exclude_none=True)
        assert [action_to_data(a) for a in parsed.actions] == [a.model_dump(mode="json") for a in model.actions]
        assert parse_record_data(data) == parsed


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_records_get_the_same_answer_from_both_parsers(game, data):
    record = data.draw(st.sampled_from(legal_records(game)))
    assert_same_record(data.draw(mutated(record)))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_actions_get_the_same_answer_from_both_parsers(game, data):
    record = data.draw(st.sampled_from(legal_records(game)))
    players = list(record["players"])
    action = copy.deepcopy(data.draw(st.sampled_from(record["actions"])))
    for _ in range(data.draw(st.integers(0, 2))):
        key = data.draw(st.sampled_from(sorted(action) + KEYS))
        if data.draw(st.booleans()) and key in action:
            del action[key]
        else:
            action[key] = data.draw(st.one_of(values, st.tuples(values), st.lists(values).map(tuple)))
    if data.draw(st.integers(0, 4)) == 0:
        players = players[:-1]
    fast = outcome(parse_action, game, action, players)
    assert fast == outcome(record_models.reference_action, game, action, players), action
    if fast[0] == "ok":
        assert fast[1] == record_models.reference_action(game, action, players).model_dump(mode="json")


def test_the_structs_are_generated_from_the_models():
    from models.schema import ROOT as REPO
    from models.schema.structs import sources

    generated = sources()
    assert set(generated) == {spec.action_structs.replace(".", "/") + ".py" for spec in SPECS} | {"models/structs.py"}
    for where, text in generated.items():
        assert (REPO / where).read_text(encoding="utf-8") == text, f"{where} is stale: run `python -m models.schema`"


@pytest.mark.parametrize("module", sorted({spec.action_structs for spec in SPECS}))
def test_a_games_structs_import_no_pydantic(module):
    """The replay path imports each game's structs module: it stays free of pydantic."""
    done = subprocess.run([sys.executable, "-c", f"import sys, {module}; print('pydantic' in sys.modules)"],
                          capture_output=True, cwd=ROOT, timeout=60, text=True)
    assert done.stdout.strip() == "False", done.stderr


def _imported(args: list[str], tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "companion", "replay", *args, str(path)],
                          capture_output=True, cwd=ROOT, timeout=60, text=True)
    return done.returncode, done.stderr


def test_replay_of_a_valid_record_imports_no_pydantic_and_a_malformed_one_does(tmp_path):
    good = json.dumps(legal_records("high-society")[0], ensure_ascii=False)
    status, imports = _imported([], tmp_path, good)
    assert status == 0 and "msgspec" in imports
    assert "pydantic" not in imports
    status, imports = _imported(["--lines"], tmp_path, good + "\n" + good + "\n")
    assert status == 0 and "pydantic" not in imports
    status, imports = _imported([], tmp_path, good.replace('"type": "reveal"', '"type": "shout"', 1))
    assert status == 2 and "pydantic" in imports  # the reason comes from the models


@pytest.mark.parametrize("game", GAMES)
def test_python_data_json_would_not_give_is_refused_by_both(game):
    data = copy.deepcopy(legal_records(game)[0])
    assert outcome(parse_record_data, data) == outcome(record_models.reference_record, data)
    for change in ({"players": tuple(data["players"])}, {"actions": tuple(data["actions"])},
                   {"variant": {1: 2}}, {"first_player": data["players"][0].encode()}):
        bent = {**data, **change}
        answer = outcome(parse_record_data, bent)
        assert answer[0] == "malformed" and answer == outcome(record_models.reference_record, bent), change
