"""The pydantic pieces every game's action models are built from (``models/games/<game>_actions.py``):
the strict base, the player-name and whole-number markers, the base of actions that leave their
unset optional fields out, and :class:`RecordShape` (what a game's record envelope adds). Imports
no game, so a game's action module imports it without a cycle; ``models.record_models`` builds the
records and the unions from the specs."""

# No `from __future__ import annotations` here: pydantic would evaluate every string annotation
# again when each model class is created, a cost paid at import.
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_serializer
from pydantic_core import core_schema

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
    from pydantic.json_schema import JsonSchemaValue


class Strict(BaseModel):
    # defer_build: a model's validator is built when it first validates, not at import
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)

    @classmethod
    def people_fields(cls) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The fields naming one player each, and those naming several (a list of names, a dict keyed
        by name): what ``models.record_checks`` reads, and the generated structs say."""
        found = _PLANS.get(cls)
        if found is None:
            kinds = {name: _player_kind(info.annotation, info.metadata) for name, info in cls.model_fields.items()}
            found = _PLANS[cls] = (tuple(name for name, kind in kinds.items() if kind == "one"),
                                   tuple(name for name, kind in kinds.items() if kind == "many"))
        return found



class WithoutNones(Strict):
    """An action whose optional fields left out are not written back (Animalia's ``row``, which
    exists only with 2 players); its struct is an ``ActionWithoutNones``."""

    @model_serializer(mode="wrap")
    def _without_nones(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        return {("from" if k == "from_" else k): v for k, v in data.items() if v is not None}


class _PlayerMark:
    """Annotated marker: this field names a player (checked against ``players`` after validation)."""

    def __repr__(self) -> str:
        return "PlayerName"


_PLAYER = _PlayerMark()
PlayerName = Annotated[str, Field(min_length=1), _PLAYER]


class WholeNumbers:
    """Annotated marker for integer cards and values: a JSON integer among ``values``.

    ``Literal[1, 2, …]`` compares with ==, so true and 1.0 would pass as 1: the value goes through
    a strict integer check first, then the literal check (both inside pydantic-core)."""

    def __init__(self, values: tuple[int, ...]):
        self.values = values

    def __get_pydantic_core_schema__(self, source: Any, handler: "GetCoreSchemaHandler") -> core_schema.CoreSchema:
        return core_schema.chain_schema([core_schema.int_schema(strict=True),
                                         core_schema.literal_schema(list(self.values))])

    def __get_pydantic_json_schema__(self, schema: Any, handler: "GetJsonSchemaHandler") -> "JsonSchemaValue":
        return {"enum": list(self.values), "type": "integer"}


def card_ids(ids: tuple[str, ...]) -> Any:
    """``Literal[ids…]`` built from a card catalogue (a type checker sees a str)."""
    return Literal[ids]


@dataclass(frozen=True)
class RecordShape:
    """What a game's record envelope adds, beside its ``actions`` (the union its spec names):
    ``variant``, the name of its variant model; ``fields``, its optional envelope fields
    (name → (type, default), in the record's order, before ``actions``)."""

    variant: str
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)


# --- Who is named where: the fields the player checks read ----------------------------------------

def _names_a_player(tp: Any) -> bool:
    return _PLAYER in getattr(tp, "__metadata__", ())


def _player_kind(annotation: Any, metadata: list[Any]) -> str | None:
    """"one" (a name or None), "many" (a list of names, or a dict keyed by name) or None."""
    if _PLAYER in metadata or _names_a_player(annotation):
        return "one"
    args = get_args(annotation)
    if get_origin(annotation) in (list, tuple, set, frozenset, dict) and args and _names_a_player(args[0]):
        return "many"
    for arm in args:  # X | None
        if arm is not type(None) and (get_origin(arm) is not None or _names_a_player(arm)):
            kind = _player_kind(arm, [])
            if kind is not None:
                return kind
    return None


_PLANS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
