"""The pydantic models of table-record/1 and table-verdict/1: the declaration every other form is
derived from. They say *why* a record is malformed (pydantic's errors, translated), generate the
JSON Schemas (``models/schema``) and the msgspec structs of the fast path (``models/structs.py``,
``python -m models.schema``). Imported only when one of those is needed: ``models.record`` parses
valid records without pydantic, and asks this module for the reason when it refuses one.

Each game's action models are its own (``models/games/<game>_actions.py``, named by its spec's
``action_models``, built from ``models.record_types``); here is what is shared: the variant models
(built from each spec's ``variants``), the record envelope (whose ``variant`` field reads the keys
the game's spec declares, see :class:`DeclaredVariant`), each game's record model built from it and
the game's ``RECORD`` shape, the tables ``RECORD_MODELS`` / ``ACTION_TYPES`` (game id → model, read
from the specs), the reasons of a refusal and the verdict. The models defer their validators
(``defer_build``): a game's validator is built the first time a record of that game needs it.
"""

# No `from __future__ import annotations` here: pydantic would evaluate every string annotation
# again when each model class is created, a cost paid at import.
from functools import cache
from importlib import import_module
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    Union,
    cast,
    get_args,
)

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model
from pydantic_core import core_schema

from models.game_spec import GameSpec, VariantSpec
from models.games import GAMES, SPEC_OF, SPECS
from models.i18n import Msg
from models.malformed import MalformedRecord
from models.malformed import one_of as _one_of
from models.record_checks import VERDICT_FORMAT, check_outline
from models.record_checks import check_action as _check_action
from models.record_checks import check_people as _check_people
from models.record_types import PlayerName, RecordShape, Strict, WholeNumbers

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler


class Variant(Strict):
    """Base of every game's variant model; the fields come from the engine's declaration."""


@cache
def variant_model(game: str, name: str = "Variant") -> "type[Variant]":
    """The variant model of ``game``, built from its spec's ``variants`` (:class:`VariantSpec`)
    on first use: one optional field per key (absent or null = the game's default)."""
    games = tuple(spec.id for spec in SPECS if spec.engine == SPEC_OF[game].engine)  # the engine's games
    fields: dict[str, Any] = {}
    for spec in SPEC_OF[game].variants:
        fields[spec.key] = (_choice_type(spec) | None, Field(default=None, description=_describe(spec, games)))
    return cast("type[Variant]", create_model(name, __base__=Variant, __module__=__name__, **fields))


def _choice_type(spec: "VariantSpec") -> Any:
    choices = spec.choices
    if choices is None:  # a whole number
        return Annotated[int, Field(strict=True, ge=spec.minimum)]
    if all(type(c) is bool for c in choices) and set(choices) == {False, True}:
        return bool
    if all(type(c) is int for c in choices):
        return Annotated[int, WholeNumbers(tuple(choices))]
    return cast(Any, Literal)[tuple(choices)]


def _describe(spec: "VariantSpec", games: tuple[str, ...]) -> str:
    """The declaration in the JSON Schema: the default (per game where they differ), the rule
    behind each choice, the player counts it is allowed with, the house variants (per game where
    they differ)."""
    if spec.default is None and not spec.game_defaults:
        said = "derived by the engine"
    else:
        defaults = {game: spec.game_defaults.get(game, spec.default) if spec.game_defaults else spec.default
                    for game in spec.games or games}
        if len(set(map(repr, defaults.values()))) == 1:
            said = repr(next(iter(defaults.values())))
        else:
            said = ", ".join(f"{value!r} ({game})" for game, value in defaults.items())
    rules = ", ".join(f"{choice!r}: {rule}" for choice, rule in spec.rules.items())
    limits = f"; players: {', '.join(map(str, spec.players))}" if spec.players else ""
    house = {game: spec.house_for(game) for game in spec.games or games}
    if not any(house.values()):
        departs = ""
    elif len(set(house.values())) == 1:
        departs = f"; house variant (departs from the rulebook): {', '.join(map(repr, next(iter(house.values()))))}"
    else:
        departs = "; house variant (departs from the rulebook): " + ", ".join(
            f"{value!r} ({game})" for game, values in house.items() for value in values)
    return f"default: {said}; rules: {rules}{limits}{departs}"


class DeclaredVariant:
    """Annotated marker for a record model's ``variant`` field (:func:`_envelope`): validates the keys the
    spec of ``game`` declares (:func:`variant_model`), looked up when the record model is first built."""

    def __init__(self, game: str, name: str):
        self.game, self.name = game, name

    def __get_pydantic_core_schema__(self, source: Any, handler: "GetCoreSchemaHandler") -> core_schema.CoreSchema:
        return handler.generate_schema(variant_model(self.game, self.name))

    @staticmethod
    def field(game: str, name: str) -> Any:
        return Field(default_factory=lambda: variant_model(game, name)())


# --- Envelopes -------------------------------------------------------------------------------

class TableRecord(Strict):
    """The envelope every game's record model shares (the subclasses add ``game``, ``variant``,
    ``actions`` and any optional envelope field of their game)."""

    format: Literal["table-record/1"]
    players: list[PlayerName]
    first_player: PlayerName | None = None

    if TYPE_CHECKING:  # declared by every subclass, with the game's own types
        game: str
        variant: Any
        actions: list[Any]

    @property
    def starting_player(self) -> str:
        return self.first_player if self.first_player is not None else self.players[0]


def _envelope(name: str, actions: Any, variant: str, **more: Any) -> type[TableRecord]:
    """A game's record model: the envelope with the game ids whose spec names it, the declared variant,
    any optional envelope field of its own (``more``: name=(type, default)), then its actions."""
    games = tuple(spec.id for spec in SPECS if spec.record_model == name)
    declared: Any = (Annotated[Variant, DeclaredVariant(games[0], variant)], DeclaredVariant.field(games[0], variant))
    return cast("type[TableRecord]", create_model(name, __base__=TableRecord, __module__=__name__, game=(
        cast(Any, Literal)[games], ...), variant=declared, **more, actions=(list[actions], ...)))


def _game_models(spec: "GameSpec") -> Any:
    return import_module(spec.action_models)


def _build_records() -> dict[str, type[TableRecord]]:
    """Each game's record model (one per ``record_model`` name: two editions share theirs)."""
    built: dict[str, type[TableRecord]] = {}
    for spec in SPECS:
        if spec.record_model not in built:
            module = _game_models(spec)
            shape: RecordShape = module.RECORD
            built[spec.record_model] = _envelope(spec.record_model, getattr(module, spec.actions), shape.variant,
                                                 **shape.fields)
    return built


_RECORDS = _build_records()

# game id -> its record model and its action union, as each game's spec names them (nothing is built until used)
RECORD_MODELS: dict[str, type[TableRecord]] = {spec.id: _RECORDS[spec.record_model] for spec in SPECS}
ACTION_TYPES: dict[str, Any] = {spec.id: getattr(_game_models(spec), spec.actions) for spec in SPECS}
AnyAction: Any = Union[tuple(dict.fromkeys(ACTION_TYPES.values()))]


def record_model(game: str) -> type[TableRecord] | None:
    return RECORD_MODELS.get(game)


@cache
def _record_union(games: tuple[str, ...] | None = None) -> TypeAdapter[Any]:
    """Every record model (of ``games``; None: every registered game) in one discriminated union:
    for the JSON Schema, and for the message of a record that names no game."""
    models = tuple(dict.fromkeys(RECORD_MODELS[game] for game in (GAMES if games is None else games)))
    annotated: Any = Annotated  # a union built at run time, from the table
    return TypeAdapter(annotated[Union[models], Field(discriminator="game")])


@cache
def _action_adapter(game: str) -> TypeAdapter[Any]:
    return TypeAdapter(ACTION_TYPES[game])


@cache
def _action_tags() -> frozenset[str]:
    """Every action ``type`` of every game (the union tags pydantic puts in error locations)."""
    tags: set[str] = set()
    for union in ACTION_TYPES.values():
        for member in get_args(get_args(union)[0]):
            tags.update(get_args(member.model_fields["type"].annotation))
    return frozenset(tags)


def _where(location: tuple) -> tuple[str, int | None]:
    """A readable path ("actions[3].add[0]") and the action index from a pydantic error location,
    without the union tags pydantic inserts (the game id, the action type)."""
    parts = list(location)
    if parts and parts[0] in GAMES:
        parts = parts[1:]
    index = None
    tags = _action_tags()
    if len(parts) > 1 and parts[0] == "actions" and isinstance(parts[1], int):
        index = parts[1]
        if len(parts) > 2 and parts[2] in tags:
            del parts[2]
    elif parts and parts[0] in tags:  # a single action, parsed on its own
        parts = parts[1:]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts)
    return path.lstrip(".") or "record", index


# pydantic error types a player may meet, said in the table's language; others keep pydantic's text
_TYPE_PROBLEMS = {
    "extra_forbidden": "unknown_field", "missing": "missing", "int_type": "whole_number",
    "int_parsing": "whole_number", "int_from_float": "whole_number", "bool_type": "boolean",
    "bool_parsing": "boolean", "string_type": "text", "list_type": "list", "dict_type": "object",
    "model_type": "object", "model_attributes_type": "object", "string_too_short": "empty",
}


def _from_validation_error(err: ValidationError) -> MalformedRecord:
    first = err.errors(include_url=False)[0]
    where, index = _where(tuple(first["loc"]))
    kind, ctx = first["type"], first.get("ctx", {})
    if kind in _TYPE_PROBLEMS:
        problem = Msg(f"record.problem.{_TYPE_PROBLEMS[kind]}")
    elif kind == "union_tag_invalid":
        tag, field_name = ctx.get("tag"), str(ctx.get("discriminator", "")).strip("'")
        expected = _one_of(str(ctx.get("expected_tags", "")))
        if field_name == "type":
            problem = Msg("record.problem.action_type", {"tag": repr(tag), "expected": expected})
        else:
            problem = Msg("record.problem.unknown_value", {"tag": repr(tag), "field": field_name,
                                                            "expected": expected})
    elif kind == "literal_error":
        value = first.get("input")
        key = "not_a_card" if isinstance(value, (int, str)) and not isinstance(value, bool) else "not_this_kind"
        problem = Msg(f"record.problem.{key}", {"value": repr(value), "expected": _one_of(str(ctx["expected"]))})
    else:
        problem = Msg("record.problem.other", {"detail": first["msg"]})
    message = Msg("record.at", {"where": where, "problem": problem})
    more = err.error_count() - 1
    if more:
        message = Msg("record.more", {"message": message, "count": more})
    return MalformedRecord(message, index)


# --- Why a record or an action is malformed: what models.record asks when msgspec refused it ----

def refusal(data: Any) -> MalformedRecord:
    """The reason ``data`` (decoded JSON, no repeated key) is not a valid record, as pydantic and the
    checks after it say. Only asked for data the fast path refused: data accepted here is a defect."""
    try:
        record = reference_record(data)
    except MalformedRecord as err:
        return err
    raise AssertionError(f"msgspec refused a record pydantic accepts: {record!r}")


def action_refusal(game: str, data: Any, players: list[str]) -> MalformedRecord:
    try:
        action = reference_action(game, data, players)
    except MalformedRecord as err:
        return err
    raise AssertionError(f"msgspec refused an action pydantic accepts: {action!r}")


def reference_record(data: Any) -> "TableRecord":
    """The record as pydantic validates it, with the same checks after the types: what the fast path
    is proven against (tests/test_parse_paths.py), and where its refusals get their reasons."""
    check_outline(data)
    model = RECORD_MODELS.get(data["game"]) if "game" in data else None
    try:
        record = model.model_validate(data) if model is not None else _record_union().validate_python(data)
    except ValidationError as err:
        raise _from_validation_error(err) from None
    _check_people(record)
    return record


def reference_action(game: str, data: Any, players: list[str]) -> Any:
    try:
        action = _action_adapter(game).validate_python(data)
    except ValidationError as err:
        raise _from_validation_error(err) from None
    _check_action(game, action, players)
    return action


# --- Verdict (§3) ----------------------------------------------------------------------------

Number = Union[int, float]


class _Deferred(BaseModel):
    model_config = ConfigDict(defer_build=True)


class VerdictError(_Deferred):
    index: int | None
    rule: str
    message: str


class RankEntry(_Deferred):
    player: str
    rank: int


class VerdictResult(_Deferred):
    scores: dict[str, Number]
    eliminated: list[str]
    winners: list[str]
    replay_required: bool
    ranking: list[RankEntry]
    explanation: list[str]


class Verdict(_Deferred):
    format: Literal["table-verdict/1"] = VERDICT_FORMAT
    game: str | None
    status: Literal["finished", "in_progress", "illegal"]
    applied: int
    error: VerdictError | None
    result: VerdictResult | None
    # optional (added to table-verdict/1): with `companion replay --lines`, the input line it answers
    line: int | None = Field(default=None, ge=1, description="companion replay --lines: the 1-based line of the "
                             "input this verdict answers (absent for a single record)")


def record_json_schema(games: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The JSON Schema of table-record/1 for ``games`` (None: every registered game; the shipped
    file, ``models/schema``, describes the app's own)."""
    schema = _record_union(games).json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "table-record/1"
    return schema


def verdict_json_schema() -> dict[str, Any]:
    schema = Verdict.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "table-verdict/1"
    return schema
