"""The JSON Schemas kept in the repo are generated from the models and must not go stale."""

import json

import jsonschema
import pytest

from models import schema
from tests.conftest import EXAMPLES


@pytest.mark.parametrize("name", sorted(schema.FILES))
def test_schema_files_are_up_to_date(name):
    kept = (schema.HERE / name).read_text(encoding="utf-8")
    assert kept == schema.generated()[name], f"{name} is stale: run `python -m models.schema`"


def _validator(name):
    return jsonschema.Draft202012Validator(json.loads((schema.HERE / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_shared_examples_satisfy_the_record_schema(example):
    _validator("table-record.schema.json").validate(json.loads(example.read_text(encoding="utf-8")))


def test_record_schema_refuses_what_the_models_refuse():
    validator = _validator("table-record.schema.json")
    good = {"format": "table-record/1", "game": "high-society", "players": ["A", "B", "C"], "actions": []}
    validator.validate(good)
    for bad in (
        {**good, "extra": 1},
        {**good, "actions": [{"type": "bid", "player": "A", "add": [7]}]},
        {**good, "actions": [{"type": "reveal", "card": "p11"}]},
        {**good, "game": "stupide-vautour", "actions": [{"type": "reveal", "card": 11}]},
    ):
        assert not validator.is_valid(bad), bad
