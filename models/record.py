"""The table record (table-record/1) and the verdict (table-verdict/1), as in shared/spec/table-record.md.

Parsing is strict: any unknown key, unknown action type, missing field, wrong JSON type, card id
that is not a card of the game, unknown player name or player count the game does not allow makes
the record *malformed* (:class:`MalformedRecord`). Whether a real card can be used *now* is the
engine's business, not the parser's.

One section per game: its card catalogues, its action models and its record model (an envelope
whose ``variant`` field reads the keys the game's engine declares, see :class:`DeclaredVariant`);
then the table ``RECORD_MODELS`` / ``ACTION_TYPES`` (game id → model). Nothing is built at import:
the models defer their validators (``defer_build``), and a game's validator is built the first
time a record of that game is parsed, so ``companion replay`` pays only for the game at hand.

:func:`parse_record` reads the JSON text with pydantic's own parser (``model_validate_json`` of the
game's record model, the game read from the text), then guards against repeated keys cheaply: the
number of keys the models received must equal the number of ``:`` in the text. When it does not
(a repeated key, or a ``:`` inside a name) or anything fails, the record takes the careful path —
``json.loads`` refusing repeated keys, then ``validate_python`` — which names the problem and its place.
"""

# No `from __future__ import annotations` here: pydantic would evaluate every string annotation
# again when each model class is created, a cost paid at import.
import json
import re
from functools import cache
from types import UnionType
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Callable,
    Final,
    Literal,
    NamedTuple,
    Union,
    cast,
    get_args,
    get_origin,
)

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model, model_serializer
from pydantic_core import core_schema

from models.i18n import Msg
from models.names import BadName, clean_name, find_same

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
    from pydantic.json_schema import JsonSchemaValue

    from scoring.base import VariantSpec

RECORD_FORMAT: Final = "table-record/1"
VERDICT_FORMAT: Final = "table-verdict/1"

GAMES = ("high-society", "animalement-votre", "stupide-vautour", "animalia", "boursicocotte", "monte-descend")

PLAYER_COUNTS: dict[str, tuple[int, int]] = {
    "high-society": (3, 5),
    "animalement-votre": (3, 5),
    "stupide-vautour": (2, 5),
    "animalia": (2, 6),
    "boursicocotte": (3, 5),
    "monte-descend": (2, 6),
}


class _Strict(BaseModel):
    # defer_build: a model's validator is built when it first validates, not at import
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


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


class Variant(_Strict):
    """Base of every game's variant model; the fields come from the engine's declaration."""


@cache
def variant_model(game: str, name: str = "Variant") -> "type[Variant]":
    """The variant model of ``game``, built from its engine's ``variants`` (:class:`VariantSpec`)
    on first use: one optional field per key (absent or null = the game's default). A game with no
    engine has no declaration: its records are malformed (``record.no_referee``)."""
    from scoring.registry import engine_class

    engine = engine_class(game)
    if engine is None:  # no declaration to read (nothing is cached: the model is built once there is one)
        raise NoReferee(Msg("record.no_referee", {"game": repr(game)}))
    fields: dict[str, Any] = {}
    for spec in engine.variants:
        fields[spec.key] = (_choice_type(spec) | None, Field(default=None, description=_describe(spec, engine.games)))
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
    behind each choice, the player counts it is allowed with."""
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
    return f"default: {said}; rules: {rules}{limits}"


class DeclaredVariant:
    """Annotated marker for a record model's ``variant`` field: validates the keys the engine of
    ``game`` declares (:func:`variant_model`), looked up when the record model is first built.

    ``variant: Annotated[Variant, DeclaredVariant("my-game", "MYVariant")] = DeclaredVariant.field("my-game", "MYVariant")``"""

    def __init__(self, game: str, name: str):
        self.game, self.name = game, name

    def __get_pydantic_core_schema__(self, source: Any, handler: "GetCoreSchemaHandler") -> core_schema.CoreSchema:
        return handler.generate_schema(variant_model(self.game, self.name))

    @staticmethod
    def field(game: str, name: str) -> Any:
        return Field(default_factory=lambda: variant_model(game, name)())


# --- High Society / Animalement Vôtre (§4.1) -------------------------------------------------

HS_STATUS_CARDS = tuple(f"p{n}" for n in range(1, 11)) + ("x2", "half", "minus5", "theft")
HS_MONEY = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
HSCard = Literal["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "x2", "half", "minus5", "theft"]
HSMoney = Annotated[int, WholeNumbers(HS_MONEY)]


class HSReveal(_Strict):
    type: Literal["reveal"]
    card: HSCard


class HSBid(_Strict):
    type: Literal["bid"]
    player: PlayerName
    add: list[HSMoney]


class HSPass(_Strict):
    type: Literal["pass"]
    player: PlayerName


class HSDiscard(_Strict):
    type: Literal["discard"]
    player: PlayerName
    card: HSCard


HSAction = Annotated[Union[HSReveal, HSBid, HSPass, HSDiscard], Field(discriminator="type")]


# --- Stupide Vautour (§4.2) ------------------------------------------------------------------

SV_POINT_CARDS = tuple(range(1, 11)) + tuple(range(-1, -6, -1))
SV_HAND = tuple(range(1, 16))
SVPointCard = Annotated[int, WholeNumbers(SV_POINT_CARDS)]
SVHandCard = Annotated[int, WholeNumbers(SV_HAND)]


class SVReveal(_Strict):
    type: Literal["reveal"]
    card: SVPointCard


class SVPlay(_Strict):
    type: Literal["play"]
    cards: dict[PlayerName, SVHandCard]


SVAction = Annotated[Union[SVReveal, SVPlay], Field(discriminator="type")]


# --- Boursicocotte (§4.3) --------------------------------------------------------------------

BC_ANIMAL_VALUES = {
    "hen": 10, "goose": 40, "cat": 90, "dog": 160, "sheep": 250,
    "goat": 350, "donkey": 500, "pig": 650, "cow": 800, "horse": 1000,
}
BC_MONEY = (0, 10, 50, 100, 200, 500)
BCAnimal = Literal["hen", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse"]
BCMoney = Annotated[int, WholeNumbers(BC_MONEY)]


class BCDraw(_Strict):
    type: Literal["draw"]
    card: BCAnimal


class BCBid(_Strict):
    type: Literal["bid"]
    player: PlayerName
    amount: int


class BCClose(_Strict):
    type: Literal["close"]
    buy_back: bool


class BCPay(_Strict):
    type: Literal["pay"]
    player: PlayerName
    cards: list[BCMoney]


class BCCannotPay(_Strict):
    type: Literal["cannot_pay"]
    player: PlayerName


class BCChallenge(_Strict):
    type: Literal["challenge"]
    player: PlayerName
    target: PlayerName
    animal: BCAnimal
    cards: list[BCMoney]


class BCAccept(_Strict):
    type: Literal["accept"]
    player: PlayerName


class BCCounter(_Strict):
    type: Literal["counter"]
    player: PlayerName
    cards: list[BCMoney]


BCAction = Annotated[
    Union[BCDraw, BCBid, BCClose, BCPay, BCCannotPay, BCChallenge, BCAccept, BCCounter],
    Field(discriminator="type"),
]


# --- Monte & descend (§4.5) ------------------------------------------------------------------

MD_VALUES = tuple(range(1, 21))
MD_ACTIONS = ("skip", "take", "pass", "chaos")
MD_CARDS: tuple[str, ...] = (tuple(f"b{v}" for v in MD_VALUES) + tuple(f"r{v}" for v in MD_VALUES)
                             + tuple(f"y{v}-{a}" for v in MD_VALUES for a in MD_ACTIONS))
MD_DECK = 64      # cards in the game (how many of each kind is unknown: nothing depends on it)
MD_HAND = 7       # cards dealt to each player at the start of a deal


def _card_ids(*ids: str) -> Any:
    return Literal[ids]


if TYPE_CHECKING:  # a card id is a str to a type checker; pydantic validates the Literal
    MDCard = str
else:
    MDCard = _card_ids(*MD_CARDS)


class MDPlay(_Strict):
    type: Literal["play"]
    player: PlayerName
    cards: Annotated[list[MDCard], Field(min_length=1)]
    direction: Literal["up", "down"] | None = None


class MDDraw(_Strict):
    type: Literal["draw"]
    player: PlayerName


class MDPass(_Strict):
    type: Literal["pass"]
    player: PlayerName


class MDTake(_Strict):
    # "from" is a Python keyword: the field is ``from_`` in code, ``from`` in JSON both ways.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, serialize_by_alias=True)

    type: Literal["take"]
    player: PlayerName
    from_: list[PlayerName] = Field(alias="from")
    count: Annotated[int, Field(ge=1)]


MDAction = Annotated[MDPlay | MDDraw | MDPass | MDTake, Field(discriminator="type")]


# --- Animalia (§4.4) ------------------------------------------------------------------------

ANI_FAMILIES = ("cat", "horse", "dog", "rabbit", "parrot")
ANI_MEMBERS = ("champion", "dandy", "cute", "scruffy", "thief", "spy", "prankster")
ANI_CARDS = tuple(f"{f}-{m}" for f in ANI_FAMILIES for m in ANI_MEMBERS) + ("owl",)
ANICard = Literal[
    "cat-champion", "cat-dandy", "cat-cute", "cat-scruffy", "cat-thief", "cat-spy", "cat-prankster",
    "horse-champion", "horse-dandy", "horse-cute", "horse-scruffy", "horse-thief", "horse-spy", "horse-prankster",
    "dog-champion", "dog-dandy", "dog-cute", "dog-scruffy", "dog-thief", "dog-spy", "dog-prankster",
    "rabbit-champion", "rabbit-dandy", "rabbit-cute", "rabbit-scruffy", "rabbit-thief", "rabbit-spy",
    "rabbit-prankster",
    "parrot-champion", "parrot-dandy", "parrot-cute", "parrot-scruffy", "parrot-thief", "parrot-spy",
    "parrot-prankster",
    "owl",
]
ANIFamily = Literal["cat", "horse", "dog", "rabbit", "parrot"]
ANIPower = Literal["thief", "spy", "prankster"]
ANIRow = Annotated[int, WholeNumbers((0, 1))]


class _ANIAction(_Strict):
    """Optional fields left out are not written back (``row`` exists only with 2 players)."""

    @model_serializer(mode="wrap")
    def _without_nones(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        return {("from" if k == "from_" else k): v for k, v in data.items() if v is not None}


class ANIDraw(_ANIAction):
    type: Literal["draw"]
    card: ANICard


class ANITake(_ANIAction):
    type: Literal["take"]
    player: PlayerName
    row: ANIRow | None = None


class ANIPass(_ANIAction):
    type: Literal["pass"]
    player: PlayerName


class ANIPowerUse(_ANIAction):
    type: Literal["power"]
    player: PlayerName
    power: ANIPower
    card: ANICard | None = None
    from_: PlayerName | None = Field(default=None, alias="from")
    from_row: ANIRow | None = None
    to: PlayerName | None = None
    to_row: ANIRow | None = None
    row: ANIRow | None = None


class ANIRenounce(_ANIAction):
    type: Literal["renounce"]
    player: PlayerName
    power: ANIPower


class ANIBonus(_ANIAction):
    type: Literal["bonus"]
    player: PlayerName
    card: ANICard


class ANICover(_ANIAction):
    type: Literal["cover"]
    player: PlayerName
    bonus: ANICard
    card: ANICard
    row: ANIRow | None = None


class ANIMedals(_ANIAction):
    type: Literal["medals"]
    player: PlayerName
    medals: dict[ANIFamily, Annotated[int, Field(ge=0)]]
    row: ANIRow | None = None


ANIAction = Annotated[
    ANIDraw | ANITake | ANIPass | ANIPowerUse | ANIRenounce | ANIBonus | ANICover | ANIMedals,
    Field(discriminator="type"),
]


def _check_animalia_rows(action: BaseModel, players: int, index: int | None) -> None:
    """With 2 players every ``row`` field the spec shows is required; with more it is refused."""
    fields: tuple[str, ...] = {"take": ("row",), "cover": ("row",), "medals": ("row",)}.get(
        getattr(action, "type", ""), ())
    if isinstance(action, ANIPowerUse):
        fields = ("row",) + (("from_row",) if action.from_ is not None else ()) + (
            ("to_row",) if action.to is not None else ())
        for name in ("row", "from_row", "to_row"):
            if name not in fields and getattr(action, name) is not None:
                raise _bad("ani_row_stray", index, where=_at(index, name))
    for name in fields:
        given = getattr(action, name) is not None
        if players == 2 and not given:
            raise _bad("ani_row_required", index, where=_at(index, name))
        if players != 2 and given:
            raise _bad("ani_row_refused", index, where=_at(index, name), count=players)


def _at(index: int | None, name: str) -> str:
    return name if index is None else f"actions[{index}].{name}"


# --- Envelopes -------------------------------------------------------------------------------


class TableRecord(_Strict):
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


class HighSocietyRecord(TableRecord):
    game: Literal["high-society", "animalement-votre"]
    variant: Annotated[Variant, DeclaredVariant("high-society", "HSVariant")] = DeclaredVariant.field(
        "high-society", "HSVariant")
    actions: list[HSAction]


class StupideVautourRecord(TableRecord):
    game: Literal["stupide-vautour"]
    variant: Annotated[Variant, DeclaredVariant("stupide-vautour", "SVVariant")] = DeclaredVariant.field(
        "stupide-vautour", "SVVariant")
    actions: list[SVAction]


class BoursicocotteRecord(TableRecord):
    game: Literal["boursicocotte"]
    variant: Annotated[Variant, DeclaredVariant("boursicocotte", "BCVariant")] = DeclaredVariant.field(
        "boursicocotte", "BCVariant")
    start_animals: dict[PlayerName, list[BCAnimal]] | None = None
    actions: list[BCAction]


class MonteDescendRecord(TableRecord):
    game: Literal["monte-descend"]
    variant: Annotated[Variant, DeclaredVariant("monte-descend", "MDVariant")] = DeclaredVariant.field(
        "monte-descend", "MDVariant")
    actions: list[MDAction]


class AnimaliaRecord(TableRecord):
    game: Literal["animalia"]
    variant: Annotated[Variant, DeclaredVariant("animalia", "ANIVariant")] = DeclaredVariant.field(
        "animalia", "ANIVariant")
    actions: list[ANIAction]


# game id -> its record model and its action union (one line per game; nothing is built until used)
RECORD_MODELS: dict[str, type[TableRecord]] = {
    "high-society": HighSocietyRecord,
    "animalement-votre": HighSocietyRecord,
    "stupide-vautour": StupideVautourRecord,
    "animalia": AnimaliaRecord,
    "boursicocotte": BoursicocotteRecord,
    "monte-descend": MonteDescendRecord,
}
ACTION_TYPES: dict[str, Any] = {
    "high-society": HSAction,
    "animalement-votre": HSAction,
    "stupide-vautour": SVAction,
    "boursicocotte": BCAction,
    "monte-descend": MDAction,
    "animalia": ANIAction,
}
AnyAction = Union[HSAction, SVAction, BCAction, MDAction, ANIAction]


def record_model(game: str) -> type[TableRecord] | None:
    return RECORD_MODELS.get(game)


@cache
def _record_union() -> TypeAdapter[Any]:
    """Every record model in one discriminated union: for the JSON Schema, and for the message of
    a record that names no game."""
    models = tuple(dict.fromkeys(RECORD_MODELS.values()))
    annotated: Any = Annotated  # a union built at run time, from the table
    return TypeAdapter(annotated[Union[models], Field(discriminator="game")])


@cache
def _action_adapter(game: str) -> TypeAdapter[Any]:
    return TypeAdapter(ACTION_TYPES[game])


class MalformedRecord(ValueError):
    """The input is not a valid table record. ``index`` is the action at fault, if any.

    ``msg`` is the sentence in any language (catalogue keys ``record.*``); ``message`` is its
    English text, as the CLI verdict writes it by default."""

    def __init__(self, msg: Msg, index: int | None = None):
        self.msg = msg
        self.index = index
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return self.msg.render("en")

    def render(self, lang: str) -> str:
        return self.msg.render(lang)


class NoReferee(MalformedRecord):
    """The record is well formed but no engine for its game is written yet."""


def _bad(which: str, index: int | None = None, /, **params: Any) -> MalformedRecord:
    return MalformedRecord(Msg(f"record.{which}", params), index)


def _one_of(expected: str) -> Msg | str:
    """pydantic's "1, 2 or 3" / "'reveal', 'play'" as a list the table's language joins."""
    items = [item for item in re.split(r", | or ", expected) if item]
    if len(items) < 2:
        return expected
    return Msg("list.or", {"head": ", ".join(items[:-1]), "last": items[-1]})


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


# --- Who is named where: the player checks, and the keys each part of a record was given -------

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


def _flat_object(tp: Any) -> bool:
    """A JSON object whose values are plain (``dict[str, int]``), possibly optional."""
    if get_origin(tp) is dict:
        return not any(_may_hold_objects(arg) for arg in get_args(tp))
    arms = [arm for arm in get_args(tp) if arm is not type(None)] if get_origin(tp) in (Union, UnionType) else []
    return len(arms) == 1 and _flat_object(arms[0])


def _may_hold_objects(tp: Any) -> bool:
    if isinstance(tp, type) and issubclass(tp, BaseModel) or tp is dict or get_origin(tp) is dict:
        return True
    return any(_may_hold_objects(arg) for arg in get_args(tp))


class _Plan(NamedTuple):
    """What the checks read in a model's fields, worked out once per model class."""

    ones: tuple[str, ...]    # fields naming one player (or None)
    manys: tuple[str, ...]   # lists of players, dicts keyed by player
    nested: tuple[str, ...]  # fields whose value may hold JSON objects (their keys count too)
    flat: tuple[str, ...]    # those of them that are one object of plain values: their keys are len()


_PLANS: dict[type, _Plan] = {}


def _plan(cls: type[BaseModel]) -> _Plan:
    found = _PLANS.get(cls)
    if found is None:
        fields = cls.model_fields
        kinds = {name: _player_kind(info.annotation, info.metadata) for name, info in fields.items()}
        nested = tuple(name for name, info in fields.items() if _may_hold_objects(info.annotation))
        found = _PLANS[cls] = _Plan(
            tuple(name for name, kind in kinds.items() if kind == "one"),
            tuple(name for name, kind in kinds.items() if kind == "many"),
            tuple(name for name in nested if not _flat_object(fields[name].annotation)),
            tuple(name for name in nested if _flat_object(fields[name].annotation)))
    return found


def _action_players(action: BaseModel) -> list[str]:
    plan = _plan(type(action))
    names = [name for name in (getattr(action, attr) for attr in plan.ones) if name is not None]
    for attr in plan.manys:
        names.extend(getattr(action, attr) or ())
    return names


def _keys_given(value: Any) -> int:
    """How many JSON object keys a validated value was built from (model fields given, dict keys)."""
    if isinstance(value, BaseModel):
        given = value.__pydantic_fields_set__
        plan = _plan(type(value))
        return len(given) + sum(_keys_given(getattr(value, name)) for name in plan.nested + plan.flat
                                if name in given)
    if isinstance(value, dict):
        return len(value) + sum(_keys_given(v) for v in value.values() if isinstance(v, (dict, list, BaseModel)))
    if isinstance(value, list):
        return sum(_keys_given(v) for v in value if isinstance(v, (dict, list, BaseModel)))
    return 0


def _check_variant(record: "TableRecord") -> None:
    """The declared limits a field type cannot say: keys of one game only, player counts (a key
    allowed with some player counts only may still name its default with the others)."""
    variant = record.variant
    if not isinstance(variant, Variant) or not variant.__pydantic_fields_set__:
        return
    from scoring.registry import engine_class

    engine = engine_class(record.game)
    for spec in engine.variants if engine is not None else ():
        if getattr(variant, spec.key) is None:
            continue
        if spec.games is not None and record.game not in spec.games:
            raise MalformedRecord(Msg("record.at", {"where": f"variant.{spec.key}",
                                                    "problem": Msg("record.problem.unknown_field")}))
        if (spec.players is not None and len(record.players) not in spec.players
                and getattr(variant, spec.key) != spec.default_for(record.game, len(record.players))):
            raise _bad("variant_players", key=spec.key, counts=_one_of(", ".join(map(str, spec.players))),
                       count=len(record.players))


def _check_envelope(record: TableRecord) -> set[str]:
    """Player count, names, first player, dealt start, variant limits; the names at the table."""
    players = record.players
    low, high = PLAYER_COUNTS[record.game]
    if not low <= len(players) <= high:
        raise _bad("player_count", game=record.game, low=low, high=high, count=len(players))
    seen: set[str] = set()
    for name in players:
        if not name.strip():
            raise _bad("blank_player")
        try:
            clean = clean_name(name)
        except BadName as err:
            raise _bad("player_name", problem=err.msg) from None
        if clean != name:
            raise _bad("player_untrimmed", name=repr(name), clean=repr(clean))
        same = find_same(name, seen)
        if same is not None:
            raise _bad("player_twice", name=repr(name) if same == name else f"{same!r} / {name!r}")
        seen.add(name)
    if record.first_player is not None and record.first_player not in seen:
        raise _bad("first_player", name=repr(record.first_player))
    start = getattr(record, "start_animals", None)
    if start is not None:
        for name, animals in start.items():
            if name not in seen:
                raise _bad("start_player", name=repr(name))
            if len(animals) != 4:
                raise _bad("start_count", name=name, count=len(animals))
        missing = [n for n in players if n not in start]
        if missing:
            raise _bad("start_missing", names=missing)
        dealt: dict[str, int] = {}
        for animals in start.values():
            for animal in animals:
                dealt[animal] = dealt.get(animal, 0) + 1
                if dealt[animal] > 4:
                    raise _bad("start_too_many", animal=animal)
    if isinstance(record, AnimaliaRecord) and getattr(record.variant, "elegance", None) == "player" \
            and len(players) != 2:
        raise _bad("ani_elegance_player", count=len(players))
    _check_variant(record)
    return seen


def _check_actions(actions: list[Any], seen: set[str], extra: Callable[[Any, int, int], None] | None = None) -> int:
    """Every player an action names is at the table; returns how many keys the actions were given
    (one pass: this is the loop every record pays for)."""
    keys = 0
    plans = _PLANS
    for i, action in enumerate(actions):
        if not isinstance(action, BaseModel):  # a game whose actions are not modelled yet
            keys += _keys_given(action)
            continue
        given = action.__pydantic_fields_set__
        keys += len(given)
        plan = plans.get(type(action)) or _plan(type(action))
        for attr in plan.ones:
            name = getattr(action, attr)
            if name is not None and name not in seen:
                raise _bad("action_player", i, i=i, name=repr(name))
        for attr in plan.manys:
            names = getattr(action, attr)
            if names and not seen.issuperset(names):
                stranger = next(name for name in names if name not in seen)
                raise _bad("action_player", i, i=i, name=repr(stranger))
        if extra is not None:  # a game's own check of each action (Animalia's rows)
            extra(action, len(seen), i)
        for attr in plan.flat:
            if attr in given:
                keys += len(getattr(action, attr))
        for attr in plan.nested:
            if attr in given:
                keys += _keys_given(getattr(action, attr))
    return keys


def _check_people(record: TableRecord) -> int:
    """All the checks after validation; returns how many keys the record was given."""
    seen = _check_envelope(record)
    given = record.__pydantic_fields_set__
    plan = _plan(type(record))
    keys = len(given) + sum(_keys_given(getattr(record, name)) for name in plan.nested + plan.flat
                            if name in given and name != "actions")
    extra = _check_animalia_rows if isinstance(record, AnimaliaRecord) else None
    return keys + _check_actions(record.actions, seen, extra)


# --- Parsing -----------------------------------------------------------------------------------

def parse_record_data(data: Any) -> TableRecord:
    """Validate already-decoded JSON data as a table record."""
    if not isinstance(data, dict):
        raise _bad("not_object")
    if data.get("format") != RECORD_FORMAT and "format" in data:
        raise _bad("format", expected=repr(RECORD_FORMAT), got=repr(data.get("format")))
    if "game" in data and data["game"] not in GAMES:
        raise _bad("unknown_game", game=repr(data["game"]), games=", ".join(GAMES))
    model = RECORD_MODELS.get(data["game"]) if "game" in data else None
    try:
        record = model.model_validate(data) if model is not None else _record_union().validate_python(data)
    except ValidationError as err:
        raise _from_validation_error(err) from None
    _check_people(record)
    return record


class _RepeatedKey(ValueError):
    pass


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys: {"Nina": 3, "Nina": 5} would silently become
    # Nina's 5. A repeated key is ambiguous, so the record is malformed.
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return out


MAX_DEPTH = 64  # where the place of a too deep nesting is named; a record nests 4 levels deep


def _too_deep_at(text: str | bytes) -> tuple[int, int]:
    """(line, column) where the brackets of ``text`` first nest deeper than MAX_DEPTH (only called
    once decoding failed, so a good record never pays for this scan)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    depth, line, column, in_string, escaped = 0, 1, 0, False, False
    for char in text:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        elif in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return line, column
        elif char in "]}":
            depth -= 1
    return line, column


def load_json(text: str | bytes) -> Any:
    """Decode JSON text, refusing repeated keys in an object and nesting too deep for the decoder
    (MalformedRecord, naming the place: not a RecursionError)."""
    try:
        data = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except _RepeatedKey as err:
        raise _bad("repeated_key", key=repr(err.args[0])) from None
    except RecursionError:
        line, column = _too_deep_at(text)
        raise _bad("too_deep", line=line, column=column, limit=MAX_DEPTH) from None
    except (ValueError, UnicodeDecodeError) as err:
        raise _bad("not_json", detail=str(err)) from None
    return data


_GAME_IN_TEXT = re.compile(r'"game"\s*:\s*"([a-z-]{1,40})"')
_GAME_IN_BYTES = re.compile(rb'"game"\s*:\s*"([a-z-]{1,40})"')


def _parse_fast(text: str | bytes) -> TableRecord | None:
    """The record, validated from its text by pydantic's JSON parser and checked, or None when the
    careful path must decide and name the problem: no game found in the text, anything invalid,
    or a key count that does not rule out a repeated key."""
    if isinstance(text, bytes):
        found = _GAME_IN_BYTES.search(text)
        game = found.group(1).decode() if found is not None else None
        colons = text.count(b":")
    else:
        found_text = _GAME_IN_TEXT.search(text)
        game = found_text.group(1) if found_text is not None else None
        colons = text.count(":")
    model = RECORD_MODELS.get(game) if game is not None else None
    if model is None:
        return None
    try:
        record = model.model_validate_json(text)
        keys = _check_people(record)
    except (ValidationError, MalformedRecord):
        return None
    # every key of a JSON object is followed by a ':' (outside strings); a repeated key reaches the
    # models once, so equal counts mean no key was repeated
    return record if keys == colons else None


def parse_record(text: str | bytes) -> TableRecord:
    """Parse the text of a table record (JSON)."""
    record = _parse_fast(text)
    if record is None:
        record = parse_record_data(load_json(text))
    return record


def parse_action(game: str, data: Any, players: list[str]) -> Any:
    """Validate one action (as the app receives it) for a game with these players."""
    if game not in ACTION_TYPES:
        raise _bad("no_vocabulary", game=repr(game))
    try:
        action = _action_adapter(game).validate_python(data)
    except ValidationError as err:
        raise _from_validation_error(err) from None
    for name in _action_players(action):
        if name not in players:
            raise _bad("unknown_player", name=repr(name))
    if game == "animalia":
        _check_animalia_rows(action, len(players), None)
    return action


def action_to_data(action: BaseModel) -> dict[str, Any]:
    return action.model_dump(mode="json")


def record_to_data(record: BaseModel) -> dict[str, Any]:
    return record.model_dump(mode="json", exclude_none=True, exclude_defaults=False)


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


def record_json_schema() -> dict[str, Any]:
    schema = _record_union().json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "table-record/1"
    return schema


def verdict_json_schema() -> dict[str, Any]:
    schema = Verdict.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "table-verdict/1"
    return schema
