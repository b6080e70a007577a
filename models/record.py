"""The table record (table-record/1) and the verdict (table-verdict/1), as in shared/spec/table-record.md.

Parsing is strict: any unknown key, unknown action type, missing field, wrong JSON type, card id
that is not a card of the game, unknown player name or player count the game does not allow makes
the record *malformed* (:class:`MalformedRecord`). Whether a real card can be used *now* is the
engine's business, not the parser's.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError, model_serializer
from pydantic_core import PydanticCustomError

from models.i18n import Msg
from models.names import BadName, clean_name, find_same

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
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


PlayerName = Annotated[str, Field(min_length=1)]


def _whole_number(value: Any) -> Any:
    # Literal[1, 2, …] compares with ==, so true and 1.0 would pass as 1: a card is a JSON integer.
    if type(value) is not int:
        raise PydanticCustomError("int_type", "expected a whole number (a JSON integer)")
    return value


def _card_numbers(*values: int) -> Any:
    return Annotated[Literal[values], BeforeValidator(_whole_number)]

# --- High Society / Animalement Vôtre (§4.1) -------------------------------------------------

HS_STATUS_CARDS = tuple(f"p{n}" for n in range(1, 11)) + ("x2", "half", "minus5", "theft")
HS_MONEY = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
HSCard = Literal["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "x2", "half", "minus5", "theft"]
if TYPE_CHECKING:  # a card number is an int to a type checker; pydantic validates the Literal below
    HSMoney = int
else:
    HSMoney = _card_numbers(*HS_MONEY)


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


class HSVariant(_Strict):
    final_tie: Literal["replay", "shared"] | None = None


# --- Stupide Vautour (§4.2) ------------------------------------------------------------------

SV_POINT_CARDS = tuple(range(1, 11)) + tuple(range(-1, -6, -1))
SV_HAND = tuple(range(1, 16))
if TYPE_CHECKING:
    SVPointCard = int
    SVHandCard = int
else:
    SVPointCard = _card_numbers(*SV_POINT_CARDS)
    SVHandCard = _card_numbers(*SV_HAND)


class SVReveal(_Strict):
    type: Literal["reveal"]
    card: SVPointCard


class SVPlay(_Strict):
    type: Literal["play"]
    cards: dict[PlayerName, SVHandCard]


SVAction = Annotated[Union[SVReveal, SVPlay], Field(discriminator="type")]


class SVVariant(_Strict):
    ties: Literal["one-level", "highest-unique"] | None = None


# --- Boursicocotte (§4.3) --------------------------------------------------------------------

BC_ANIMAL_VALUES = {
    "hen": 10, "goose": 40, "cat": 90, "dog": 160, "sheep": 250,
    "goat": 350, "donkey": 500, "pig": 650, "cow": 800, "horse": 1000,
}
BC_MONEY = (0, 10, 50, 100, 200, 500)
BCAnimal = Literal["hen", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse"]
if TYPE_CHECKING:
    BCMoney = int
else:
    BCMoney = _card_numbers(*BC_MONEY)


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


class BCVariant(_Strict):
    trade_tie: Literal["exchanged", "returned"] | None = None  # money on a tied trade (rules-decisions)


# --- Monte & descend (§4.5) ------------------------------------------------------------------

MD_VALUES = tuple(range(1, 21))
MD_ACTIONS = ("skip", "take", "pass", "chaos")
MD_CARDS: tuple[str, ...] = (tuple(f"b{v}" for v in MD_VALUES) + tuple(f"r{v}" for v in MD_VALUES)
                             + tuple(f"y{v}-{a}" for v in MD_VALUES for a in MD_ACTIONS))
MD_DECK = 64      # cards in the game (how many of each kind is unknown: nothing depends on it)
MD_HAND = 7       # cards dealt to each player at the start of a deal


def _card_ids(*ids: str) -> Any:
    return Literal[ids]


if TYPE_CHECKING:  # a card id is a str to a type checker; pydantic validates the Literal below
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


class MDVariant(_Strict):
    take_stacking: bool | None = None
    deals: Annotated[int, Field(ge=1)] | None = None  # default: twice the number of players


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
if TYPE_CHECKING:  # a row is an int to a type checker; pydantic validates the Literal below
    ANIRow = int
else:
    ANIRow = _card_numbers(0, 1)


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


class ANIVariant(_Strict):
    elegance: Literal["collection", "player"] | None = None  # "player": 2 players only


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


class _Envelope(_Strict):
    format: Literal["table-record/1"]
    players: list[PlayerName]
    first_player: PlayerName | None = None

    @property
    def starting_player(self) -> str:
        return self.first_player if self.first_player is not None else self.players[0]


class HighSocietyRecord(_Envelope):
    game: Literal["high-society", "animalement-votre"]
    variant: HSVariant = HSVariant()
    actions: list[HSAction]


class StupideVautourRecord(_Envelope):
    game: Literal["stupide-vautour"]
    variant: SVVariant = SVVariant()
    actions: list[SVAction]


class BoursicocotteRecord(_Envelope):
    game: Literal["boursicocotte"]
    variant: BCVariant = BCVariant()
    start_animals: dict[PlayerName, list[BCAnimal]] | None = None
    actions: list[BCAction]


class MonteDescendRecord(_Envelope):
    game: Literal["monte-descend"]
    variant: MDVariant = MDVariant()
    actions: list[MDAction]


class AnimaliaRecord(_Envelope):
    game: Literal["animalia"]
    variant: ANIVariant = ANIVariant()
    actions: list[ANIAction]


TableRecord = Annotated[
    Union[HighSocietyRecord, StupideVautourRecord, BoursicocotteRecord, MonteDescendRecord, AnimaliaRecord],
    Field(discriminator="game"),
]
AnyAction = Union[HSAction, SVAction, BCAction, MDAction, ANIAction]

_RECORD = TypeAdapter(TableRecord)
_ACTION_ADAPTERS: dict[str, TypeAdapter] = {
    "high-society": TypeAdapter(HSAction),
    "animalement-votre": TypeAdapter(HSAction),
    "stupide-vautour": TypeAdapter(SVAction),
    "boursicocotte": TypeAdapter(BCAction),
    "monte-descend": TypeAdapter(MDAction),
    "animalia": TypeAdapter(ANIAction),
}


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


def _bad(which: str, index: int | None = None, /, **params: Any) -> MalformedRecord:
    return MalformedRecord(Msg(f"record.{which}", params), index)


def _one_of(expected: str) -> Msg | str:
    """pydantic's "1, 2 or 3" / "'reveal', 'play'" as a list the table's language joins."""
    items = [item for item in re.split(r", | or ", expected) if item]
    if len(items) < 2:
        return expected
    return Msg("list.or", {"head": ", ".join(items[:-1]), "last": items[-1]})


_ACTION_TAGS = {"reveal", "bid", "pass", "discard", "play", "draw", "close", "pay",
                "cannot_pay", "challenge", "accept", "counter",
                "take", "power", "renounce", "bonus", "cover", "medals"}


def _where(location: tuple) -> tuple[str, int | None]:
    """A readable path ("actions[3].add[0]") and the action index from a pydantic error location,
    without the union tags pydantic inserts (the game id, the action type)."""
    loc = list(location)
    if loc and loc[0] in GAMES:
        loc = loc[1:]
    index = None
    if len(loc) > 1 and loc[0] == "actions" and isinstance(loc[1], int):
        index = loc[1]
        if len(loc) > 2 and loc[2] in _ACTION_TAGS:
            del loc[2]
    elif loc and loc[0] in _ACTION_TAGS:  # a single action, parsed on its own
        loc = loc[1:]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
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


def _action_players(action: BaseModel) -> list[str]:
    names = []
    for attr in ("player", "target", "from_", "to"):
        value = getattr(action, attr, None)
        if isinstance(value, list):  # Monte & descend's take names several players
            names.extend(value)
        elif value is not None:
            names.append(value)
    cards = getattr(action, "cards", None)
    if isinstance(cards, dict):
        names.extend(cards)
    return names


def _check_people(record: Any) -> None:  # any game's record model
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
    if isinstance(record, AnimaliaRecord) and record.variant.elegance == "player" and len(players) != 2:
        raise _bad("ani_elegance_player", count=len(players))
    for i, action in enumerate(record.actions):
        for name in _action_players(action):
            if name not in seen:
                raise _bad("action_player", i, i=i, name=repr(name))
        if isinstance(record, AnimaliaRecord):
            _check_animalia_rows(action, len(players), i)


def parse_record_data(data: Any) -> TableRecord:
    """Validate already-decoded JSON data as a table record."""
    if not isinstance(data, dict):
        raise _bad("not_object")
    if data.get("format") != RECORD_FORMAT and "format" in data:
        raise _bad("format", expected=repr(RECORD_FORMAT), got=repr(data.get("format")))
    if "game" in data and data["game"] not in GAMES:
        raise _bad("unknown_game", game=repr(data["game"]), games=", ".join(GAMES))
    try:
        record = _RECORD.validate_python(data)
    except ValidationError as err:
        raise _from_validation_error(err) from None
    _check_people(record)
    return record


class _RepeatedKey(ValueError):
    pass


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of two equal keys: {"Nina": 3, "Nina": 5} would silently become
    # Nina's 5. A repeated key is ambiguous, so the record is malformed.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(key)
        out[key] = value
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


def parse_record(text: str | bytes) -> TableRecord:
    """Parse the text of a table record (JSON)."""
    return parse_record_data(load_json(text))


def parse_action(game: str, data: Any, players: list[str]) -> AnyAction:
    """Validate one action (as the app receives it) for a game with these players."""
    adapter = _ACTION_ADAPTERS.get(game)
    if adapter is None:
        raise _bad("no_vocabulary", game=repr(game))
    try:
        action = adapter.validate_python(data)
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


class VerdictError(BaseModel):
    index: int | None
    rule: str
    message: str


class RankEntry(BaseModel):
    player: str
    rank: int


class VerdictResult(BaseModel):
    scores: dict[str, Number]
    eliminated: list[str]
    winners: list[str]
    replay_required: bool
    ranking: list[RankEntry]
    explanation: list[str]


class Verdict(BaseModel):
    format: Literal["table-verdict/1"] = VERDICT_FORMAT
    game: str | None
    status: Literal["finished", "in_progress", "illegal"]
    applied: int
    error: VerdictError | None
    result: VerdictResult | None


def record_json_schema() -> dict[str, Any]:
    schema = _RECORD.json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "table-record/1"
    return schema


def verdict_json_schema() -> dict[str, Any]:
    schema = Verdict.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "table-verdict/1"
    return schema
