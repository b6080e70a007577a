# ruff: noqa: E501
"""GENERATED from the pydantic models of models/record_models.py by `python -m models.schema`: do
not edit (a test fails when it is stale). The tables of each game's record struct and action union
(its spec's ``action_structs`` module, ``models/games/<game>_structs.py``), and the verdict's
structs; bases and variant structs in ``models/structs_base.py`` and ``models.record``."""

from importlib import import_module
from typing import Annotated, Literal

import msgspec

from models.games import SPECS
from models.structs_base import Output, Record

# game id -> its record struct and its action union, as each game's spec names them
RECORD_STRUCTS: dict[str, type[Record]] = {spec.id: getattr(import_module(spec.action_structs), spec.record_model)
                                           for spec in SPECS}
ACTION_STRUCTS: dict[str, object] = {spec.id: getattr(import_module(spec.action_structs), spec.actions) for spec in SPECS}


class VerdictError(Output, kw_only=True):
    index: int | None
    rule: str
    message: str


class RankEntry(Output, kw_only=True):
    player: str
    rank: int


class VerdictResult(Output, kw_only=True):
    scores: dict[str, int | float]
    eliminated: list[str]
    winners: list[str]
    replay_required: bool
    ranking: list[RankEntry]
    explanation: list[str]


class Verdict(Output, kw_only=True):
    format: Literal['table-verdict/1'] = 'table-verdict/1'
    game: str | None
    status: Literal['finished', 'in_progress', 'illegal']
    applied: int
    error: VerdictError | None
    result: VerdictResult | None
    line: Annotated[int, msgspec.Meta(ge=1)] | None = None
