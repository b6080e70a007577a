"""Variants are declared once, by each engine (``variants``: VariantSpec): record validation, the
JSON Schema, the set-up screen and the rules reference all read that declaration."""

import json
import os
import subprocess
import sys

import pytest

from models.record import MalformedRecord, parse_record
from models.record_models import record_model
from models.schema import HERE
from scoring.registry import engine_class, refereed_games
from tests.conftest import ROOT

DECLARED = [(game, spec) for game in refereed_games() for spec in engine_class(game).variants
            if spec.games is None or game in spec.games]
LISTED = [(game, spec) for game, spec in DECLARED if spec.choices is not None]  # picked from a list


def _allowed(spec):
    """The values to try: the choices, or whole numbers from the minimum."""
    return spec.choices if spec.choices is not None else (spec.minimum or 0, (spec.minimum or 0) + 3)


def _players(game, spec=None):
    from models.record import PLAYER_COUNTS

    low, high = PLAYER_COUNTS[game]
    count = next((n for n in range(low, high + 1) if spec is None or spec.players is None or n in spec.players), low)
    return [f"P{i}" for i in range(count)]


def _record(game, variant, players=None):
    return json.dumps({"format": "table-record/1", "game": game, "players": players or _players(game),
                       "variant": variant, "actions": []})


def test_every_refereed_game_declares_its_variants():
    assert {game for game, _ in DECLARED} == set(refereed_games())


@pytest.mark.parametrize("game, spec", DECLARED, ids=lambda x: getattr(x, "key", x))
def test_every_declared_choice_is_accepted_and_reaches_the_engine(game, spec):
    for value in _allowed(spec):
        record = parse_record(_record(game, {spec.key: value}, _players(game, spec)))
        assert getattr(record.variant, spec.key) == value
        engine = engine_class(game)(record)
        assert engine.variant_value(record, spec.key) == value
    omitted = parse_record(_record(game, {}, _players(game, spec)))
    assert getattr(omitted.variant, spec.key) is None  # absent: the game's default applies
    assert engine_class(game)(omitted).variant_value(omitted, spec.key) == spec.default_for(game, len(omitted.players))
    assert set(spec.rules) == set(spec.choices if spec.choices is not None else (None,))  # a rule for each


@pytest.mark.parametrize("game, spec", DECLARED, ids=lambda x: getattr(x, "key", x))
def test_values_and_keys_that_are_not_declared_are_malformed(game, spec):
    wrong = ["no-such-choice"] + ([(spec.minimum or 0) - 1, 2.0] if spec.choices is None else [])
    for value in wrong:
        with pytest.raises(MalformedRecord, match=f"variant.{spec.key}"):
            parse_record(_record(game, {spec.key: value}))
    with pytest.raises(MalformedRecord, match="variant.colour: unknown field"):
        parse_record(_record(game, {"colour": "red"}))


def test_the_default_follows_the_edition():
    (spec,) = engine_class("high-society").variants
    assert (spec.default_for("high-society", 3), spec.default_for("animalement-votre", 3)) == ("replay", "shared")


# A declaration changed in a fresh process: the models, the schema and the screens follow it.
CHANGED = r"""
import json, sys
from dataclasses import replace
from models.game_spec import VariantSpec
from models.games import SPEC_OF
CHANGED = (
    VariantSpec("final_tie", ("replay", "shared", "coin"), "replay",
                {"replay": "HS-FINAL-TIE", "shared": "HS-FINAL-TIE", "coin": "HS-FINAL-TIE"}),
    VariantSpec("rounds", None, None, {None: "HS-END"}, minimum=1),
    VariantSpec("fast", (False, True), False, {False: "HS-END", True: "HS-END"}, players=(4,)),
    VariantSpec("animals", ("all",), "all", {"all": "HS-SCORE"}, games=("animalement-votre",)),
)
for game in ("high-society", "animalement-votre"):
    SPEC_OF[game] = replace(SPEC_OF[game], variants=CHANGED)
from models.record import MalformedRecord, parse_record
from models.record_models import record_json_schema
from companion.app.screens.setup import variant_choices
from companion.app.screens.rules import variant_book

def verdict(game, players, variant):
    text = json.dumps({"format": "table-record/1", "game": game, "players": players, "variant": variant, "actions": []})
    try:
        return dict(parse_record(text).variant)
    except MalformedRecord as error:
        return error.message

out = {
    "coin": verdict("high-society", ["A", "B", "C"], {"final_tie": "coin"}),
    "rounds": verdict("high-society", ["A", "B", "C"], {"rounds": 3}),
    "rounds0": verdict("high-society", ["A", "B", "C"], {"rounds": 0}),
    "fast3": verdict("high-society", ["A", "B", "C"], {"fast": True}),
    "fast4": verdict("high-society", ["A", "B", "C", "D"], {"fast": True}),
    "fast1": verdict("high-society", ["A", "B", "C", "D"], {"fast": 1}),
    "animals_hs": verdict("high-society", ["A", "B", "C"], {"animals": "all"}),
    "animals_av": verdict("animalement-votre", ["A", "B", "C"], {"animals": "all"}),
    "schema": record_json_schema()["$defs"]["HSVariant"]["properties"]["final_tie"],
    "setup": [[k, list(v), d] for k, v, d in variant_choices("high-society")],
    "setup4": [k for k, _, _ in variant_choices("high-society", 4)],
    "rules": [[k, [list(v) for v in values]] for k, values in variant_book("animalement-votre")],
}
print(json.dumps(out))
"""


def test_a_changed_declaration_changes_validation_schema_setup_and_rules():
    done = subprocess.run([sys.executable, "-c", CHANGED], capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr.decode()
    out = json.loads(done.stdout)
    assert out["coin"]["final_tie"] == "coin"
    assert out["rounds"]["rounds"] == 3
    assert "variant.rounds" in out["rounds0"]
    assert out["fast3"] == "variant.fast: only with 4 players, not 3"
    assert out["fast4"]["fast"] is True
    assert "variant.fast" in out["fast1"] and "true or false" in out["fast1"]
    assert out["animals_hs"] == "variant.animals: unknown field"
    assert out["animals_av"]["animals"] == "all"
    assert out["schema"]["anyOf"][0]["enum"] == ["replay", "shared", "coin"]
    # the set-up screen offers the keys with a list of choices, for the player count when known
    assert out["setup"] == [["final_tie", ["replay", "shared", "coin"], "replay"]]
    assert out["setup4"] == ["final_tie", "fast"]
    assert [[k, [v[:3] for v in values]] for k, values in out["rules"]] == [
        ["final_tie", [["replay", "HS-FINAL-TIE", True], ["shared", "HS-FINAL-TIE", False], ["coin", "HS-FINAL-TIE", False]]],
        ["fast", [[False, "HS-END", True], [True, "HS-END", False]]],
        ["animals", [["all", "HS-SCORE", True]]]]  # every key, whatever the player count


@pytest.mark.parametrize("game, spec", DECLARED, ids=lambda x: getattr(x, "key", x))
def test_the_kept_json_schema_lists_the_declared_choices(game, spec):
    from models.games import OWN
    from models.record_models import record_json_schema

    if game in {own.id for own in OWN}:
        schema = json.loads((HERE / "table-record.schema.json").read_text(encoding="utf-8"))
    else:  # a game registered from outside the app is not in the shipped file: the registered games' schema
        schema = record_json_schema()
    model = record_model(game)
    ref = schema["$defs"][model.__name__]["properties"]["variant"]["$ref"].rsplit("/", 1)[1]
    prop = schema["$defs"][ref]["properties"][spec.key]
    assert schema["$defs"][ref]["additionalProperties"] is False
    if spec.choices is None:
        assert prop["anyOf"][0] == {"minimum": spec.minimum, "type": "integer"}
    elif set(spec.choices) == {False, True}:
        assert prop["anyOf"][0] == {"type": "boolean"}
    else:
        assert prop["anyOf"][0]["enum"] == list(spec.choices)
    assert prop["default"] is None  # left out: the game's default, named in the description
    assert all(rule in prop["description"] for rule in spec.rules.values())


@pytest.mark.parametrize("game, spec", LISTED, ids=lambda x: getattr(x, "key", x))
def test_setup_and_rules_reference_offer_the_declared_choices(game, spec):
    from companion.app.screens.rules import variant_book
    from companion.app.screens.setup import variant_choices

    count = len(_players(game, spec))
    offered = {key: (values, default) for key, values, default in variant_choices(game, count)}
    assert offered[spec.key] == (tuple(spec.choices), spec.default_for(game, count))
    if spec.players is not None:  # offered only once the player count allows it
        assert spec.key not in {key for key, _, _ in variant_choices(game)}
    book = dict(variant_book(game))
    assert [(value, rule) for value, rule, _, _ in book[spec.key]] == [(c, spec.rules[c]) for c in spec.choices]
    assert [value for value, _, default, _ in book[spec.key] if default] == [spec.default_for(game, 3)]
    assert [value for value, _, _, house in book[spec.key] if house] == [c for c in spec.choices if c in spec.house_for(game)]


@pytest.mark.parametrize("game, spec", [(g, s) for g, s in DECLARED if s.choices is None],
                         ids=lambda x: getattr(x, "key", x))
def test_setup_offers_whole_number_variants_with_their_default_for_the_player_count(game, spec):
    from companion.app.screens.setup import number_variants

    for count in range(2, 7):
        offered = {key: (minimum, default) for key, minimum, default in number_variants(game, count)}
        assert offered[spec.key] == (spec.minimum or 0, spec.default_for(game, count))


MISSING = r"""
import json
from scoring import registry
from models.record import MalformedRecord, parse_record
from scoring.referee import verdict_for_text
text = json.dumps({"format": "table-record/1", "game": "monte-descend", "players": ["A", "B", "C"],
                   "variant": {"take_stacking": True}, "actions": []})
target = registry._ENGINES.pop("monte-descend")
verdict, status = verdict_for_text(text)  # the first build of the record model happens here
registry._ENGINES["monte-descend"] = target
print(json.dumps([status, verdict.error.message, parse_record(text).variant.take_stacking]))
"""


def test_a_game_whose_engine_is_missing_has_no_declaration_and_nothing_stale_is_kept():
    done = subprocess.run([sys.executable, "-c", MISSING], capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr.decode()
    status, message, stacking = json.loads(done.stdout)
    assert status == 2 and "no referee" in message
    assert stacking is True  # the declaration is read once the engine is there


@pytest.mark.parametrize("game, spec", LISTED, ids=lambda x: getattr(x, "key", x))
def test_the_rules_screen_lists_each_declared_choice_with_its_rule(game, spec, tmp_path):
    from companion.app import probe
    from companion.app.screens.setup import variant_word
    from companion.app.shell import App
    from companion.service import SessionService
    from companion.store import Store
    from models.i18n import Msg

    app = App(SessionService(Store(tmp_path / "app.db")), None, export_dir=tmp_path / "exports")
    app.render()
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, f"rules-game-{game}")
    for value in spec.choices:
        line = probe.text_of(app.root, f"rules-variant-{game}-{spec.key}-{variant_word(value)}")
        assert spec.rules[value] in line
        assert Msg(f"variant.{game}.{spec.key}.{variant_word(value)}").render("fr") in line
