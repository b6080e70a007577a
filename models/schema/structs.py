"""Writes ``models/structs.py``: the msgspec structs of every pydantic model of
``models/record_models.py`` (actions, records, verdict), field for field, so the schema is declared
once. ``python -m models.schema`` rewrites it with the JSON Schemas; a test fails when it is stale."""

from __future__ import annotations

from types import NoneType, UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from annotated_types import Ge, MinLen
from pydantic import BaseModel
from pydantic.fields import FieldInfo

HEADER = '''# ruff: noqa: E501
"""GENERATED from the pydantic models of models/record_models.py by `python -m models.schema`: do
not edit (a test fails when it is stale). The msgspec structs ``models.record`` parses valid records
and actions into, and the verdict's; bases and variant structs in ``models/structs_base.py``."""

from typing import Annotated, ClassVar, Literal

import msgspec

from models.games import SPECS
from models.structs_base import Action, ActionWithoutNones, Output, Record, Variant

PlayerName = Annotated[str, msgspec.Meta(min_length=1)]
'''


def source() -> str:
    from models import record_models as rm

    unions: dict[tuple[type, ...], str] = {}
    parts = [HEADER]
    for game, union in rm.ACTION_TYPES.items():
        members = _members(union)
        if members in unions:
            continue
        alias = _alias(game)
        unions[members] = alias
        for model in members:
            parts.append(_struct(model, unions))
        parts.append(f"\n{alias} = {' | '.join(m.__name__ for m in members)}\n")
    records = dict.fromkeys(rm.RECORD_MODELS.values())
    for model in records:
        parts.append(_struct(model, unions))
    parts.append("\n# game id -> its record struct and its action union, as each game's spec names them\n"
                 "RECORD_STRUCTS: dict[str, type[Record]] = {spec.id: globals()[spec.record_model] for spec in SPECS}\n"
                 "ACTION_STRUCTS: dict[str, object] = {spec.id: globals()[spec.actions] for spec in SPECS}\n")
    for model in (rm.VerdictError, rm.RankEntry, rm.VerdictResult, rm.Verdict):
        parts.append(_struct(model, unions))
    return "\n".join(parts)


def _alias(game: str) -> str:
    from models.games import SPEC_OF

    return SPEC_OF[game].actions


def _members(union: Any) -> tuple[type, ...]:
    if get_origin(union) is Annotated:
        union = get_args(union)[0]
    return tuple(get_args(union))


def _struct(model: type[BaseModel], unions: dict[tuple[type, ...], str]) -> str:
    from models import record_models as rm

    fields = dict(model.model_fields)
    lines: list[str] = []
    if issubclass(model, rm.TableRecord):
        base = "Record"
    elif issubclass(model, rm._Deferred):
        base = "Output"
    else:
        tag = get_args(fields.pop("type").annotation)[0]
        base = f"{'ActionWithoutNones' if issubclass(model, rm._ANIAction) else 'Action'}, tag={tag!r}"
        lines.append(f"    type: ClassVar[str] = {tag!r}")
        one, many = model.people_fields()  # type: ignore[attr-defined]  # an action model (a _Strict)
        if one:
            lines.append(f"    named_one = {one!r}")
        if many:
            lines.append(f"    named_many = {many!r}")
    for name, info in fields.items():
        declared = [m for m in info.metadata if type(m).__name__ == "DeclaredVariant"]
        if declared:
            lines.append(f"    variant_of = {(declared[0].game, declared[0].name)!r}")
            lines.append("    variant: Variant = msgspec.field(default_factory=Variant)")
            continue
        annotation = _render(info.annotation, list(info.metadata), unions)
        options = []
        if not info.is_required():
            options.append(f"default={info.default!r}")
        if info.alias and info.alias != name:
            options.append(f"name={info.alias!r}")
        if options == [f"default={info.default!r}"]:
            lines.append(f"    {name}: {annotation} = {info.default!r}")
        elif options:
            lines.append(f"    {name}: {annotation} = msgspec.field({', '.join(options)})")
        else:
            lines.append(f"    {name}: {annotation}")
    frozen = "" if base == "Output" else ", frozen=True"  # said again for type checkers (msgspec inherits it)
    return f"\nclass {model.__name__}({base}, kw_only=True{frozen}):\n" + "\n".join(lines or ["    pass"]) + "\n"


def _render(tp: Any, metadata: list[Any], unions: dict[tuple[type, ...], str]) -> str:
    """The annotation of ``tp`` (with pydantic's ``metadata``) for msgspec, as source text."""
    from models import record_models as rm

    if get_origin(tp) is Annotated:
        base, *more = get_args(tp)
        if get_origin(base) in (Union, UnionType) and _members(base) in unions:
            return unions[_members(base)]  # a game's discriminated union of actions
        return _render(base, metadata + more, unions)
    constraints: dict[str, Any] = {}
    values: tuple[Any, ...] | None = None
    player = False
    pending = list(metadata)
    while pending:
        mark = pending.pop(0)
        if isinstance(mark, FieldInfo):
            pending.extend(mark.metadata)
        elif isinstance(mark, MinLen):
            constraints["min_length"] = mark.min_length
        elif isinstance(mark, Ge):
            constraints["ge"] = mark.ge
        elif isinstance(mark, rm.WholeNumbers):
            values = mark.values
        elif mark is rm._PLAYER:
            player = True
        else:
            raise TypeError(f"no msgspec form for {mark!r}")
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, UnionType):
        arms = [arm for arm in args if arm is not NoneType]
        inner = " | ".join(_render(arm, metadata if len(arms) == 1 else [], unions) for arm in arms)
        return inner + (" | None" if len(arms) < len(args) else "")
    if values is not None:
        text = f"Literal[{', '.join(map(repr, values))}]"
    elif origin is Literal:
        text = f"Literal[{', '.join(map(repr, args))}]"
    elif origin is list:
        text = f"list[{_render(args[0], [], unions)}]"
    elif origin is dict:
        text = f"dict[{_render(args[0], [], unions)}, {_render(args[1], [], unions)}]"
    elif tp in (str, int, bool, float):
        text = tp.__name__
    elif isinstance(tp, type) and issubclass(tp, BaseModel):
        text = tp.__name__
    else:
        raise TypeError(f"no msgspec form for {tp!r}")
    if player and text == "str" and constraints == {"min_length": 1}:
        return "PlayerName"
    if constraints:
        meta = ", ".join(f"{key}={value!r}" for key, value in constraints.items())
        return f"Annotated[{text}, msgspec.Meta({meta})]"
    return text
