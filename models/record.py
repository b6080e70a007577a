"""The table record (table-record/1) and the verdict (table-verdict/1), as in shared/spec/table-record.md.

Parsing is strict: any unknown key, unknown action type, missing field, wrong JSON type, card id
that is not a card of the game, unknown player name or player count the game does not allow makes
the record *malformed* (:class:`MalformedRecord`). Whether a real card can be used *now* is the
engine's business, not the parser's.

The record is declared once, by the pydantic models (each game's, ``models/games/<game>_actions.py``,
and the shared envelope and verdict, ``models/record_models.py``); the msgspec structs
(``models/games/<game>_structs.py``, ``models/structs.py``) are generated from them
(``python -m models.schema``), and each game's variant struct is built from its spec's
``variants`` on first use (:func:`variant_struct`). A valid record or
action is parsed by msgspec alone, into those structs: this module imports no pydantic, so
``companion replay`` does not pay for it. When msgspec refuses, pydantic is asked why
(``record_models.refusal``): the reasons, translated, are pydantic's, as they always were. The
checks msgspec's types cannot say (player names, who is at the table, variant limits, each game's own
checks) are ``models.record_checks``, run on whichever a record is.

:func:`parse_record` decodes the JSON text straight into the game's struct (the game read from the
text), then guards against repeated keys cheaply: the number of keys the structs received must
equal the number of ``:`` in the text. When it does not (a repeated key, an explicit null, a ``:``
inside a name) or anything fails, the record takes the careful path — ``json.loads`` refusing
repeated keys, then :func:`parse_record_data` — which names the problem and its place.

The pydantic names are read where they are declared: ``TableRecord``, ``AnyAction``,
``RECORD_MODELS``, ``record_json_schema``… from ``models.record_models``, a game's action models
(``HSBid``…) from its ``models/games/<game>_actions.py``.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Annotated, Any, Literal, cast, get_args

import msgspec

from models.game_spec import VariantSpec
from models.games import GAMES, PLAYER_COUNTS, SPEC_OF
from models.malformed import MalformedRecord, NoReferee, bad
from models.record_checks import RECORD_FORMAT, VERDICT_FORMAT, check_action, check_outline, check_people
from models.structs import ACTION_STRUCTS, RECORD_STRUCTS, RankEntry, Verdict, VerdictError, VerdictResult
from models.structs_base import Action, Record, Sentences, Variant, filled

# the verdict's structs (no pydantic on that path), and names declared beside the checks and the specs
__all__ = ["RankEntry", "Sentences", "Verdict", "VerdictError", "VerdictResult", "GAMES", "PLAYER_COUNTS", "MalformedRecord",
           "NoReferee", "RECORD_FORMAT", "VERDICT_FORMAT", "check_outline"]

# --- Parsing -----------------------------------------------------------------------------------

def choice_type(spec: VariantSpec) -> Any:
    """The msgspec type of a declared variant key's value (as ``record_models._choice_type``)."""
    choices = spec.choices
    if choices is None:  # a whole number
        return int if spec.minimum is None else Annotated[int, msgspec.Meta(ge=spec.minimum)]
    if all(type(c) is bool for c in choices) and set(choices) == {False, True}:
        return bool
    return cast(Any, Literal)[tuple(choices)]  # msgspec's int literals refuse true and 1.0


@cache
def variant_struct(game: str, name: str) -> type[Variant]:
    """The variant struct of ``game`` (one optional field per key its spec declares)."""
    fields = [(spec.key, choice_type(spec) | None, None) for spec in SPEC_OF[game].variants]
    return cast(type[Variant], msgspec.defstruct(name, fields, bases=(Variant,), module="models.structs", kw_only=True))


@cache
def with_variant(record: type[Record]) -> type[Record]:
    """``record`` with its ``variant`` field typed by its spec's declaration (built on first use, as
    the pydantic models are)."""
    variant = variant_struct(*record.variant_of)
    fields: list[Any] = []  # every field again, so that they keep their order (a record's JSON keeps it)
    for field in msgspec.structs.fields(record):
        if field.name == "variant":
            fields.append((field.name, variant, msgspec.field(default_factory=variant)))
        elif field.required:
            fields.append((field.name, field.type))
        elif field.default_factory is not msgspec.NODEFAULT:
            fields.append((field.name, field.type, msgspec.field(default_factory=field.default_factory)))
        else:
            fields.append((field.name, field.type, field.default))
    return cast(type[Record], msgspec.defstruct(record.__name__, fields, bases=(record,), module=record.__module__,
                                                        kw_only=True))


@cache
def record_struct(game: str) -> type[Record]:
    """The struct a record of ``game`` is parsed into, its variant read from the engine's declaration
    (NoReferee for a game with no engine)."""
    return with_variant(RECORD_STRUCTS[game])


@cache
def _decoder(game: str) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(record_struct(game))


def _refusal(data: Any) -> MalformedRecord:
    from models.record_models import refusal

    return refusal(data)


def _plain(value: Any) -> bool:
    """Only what JSON decodes to: dicts with str keys, lists, str, int, float, bool, None. msgspec
    converts more (a tuple into a list…) than pydantic's strict mode accepts."""
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = item.__class__
        if kind is dict:
            for key in item:
                if key.__class__ is not str:
                    return False
            extend(item.values())
        elif kind is list:
            extend(item)
        elif not (kind is str or kind is int or kind is bool or kind is float or item is None):
            return False
    return True


def parse_record_data(data: Any, *, decoded: bool = False) -> Record:
    """Validate already-decoded JSON data as a table record. ``decoded``: the caller vouches that
    the data holds nothing JSON cannot (what json.loads returned, strings from the database), so it
    is not walked to make sure."""
    if not decoded and not _plain(data):
        raise _refusal(data)
    return _record_of(data)


def _record_of(data: Any) -> Record:
    """:func:`parse_record_data` for data known to be plain (json.loads made it)."""
    check_outline(data)
    if "game" not in data:
        raise _refusal(data)
    try:
        record = msgspec.convert(data, record_struct(data["game"]), strict=True)
    except msgspec.ValidationError:
        raise _refusal(data) from None
    except UnicodeEncodeError:
        raise _half_character(data) from None
    check_people(record)
    return record


_HALF_CHARACTER = re.compile("[\ud800-\udfff]")


def _half_character(data: Any) -> MalformedRecord:
    """The refusal of decoded data holding a lone UTF-16 surrogate (JSON's ``"\\ud800"`` decodes to
    one): half of a character, which no text can be encoded with, naming the first place it is in."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            found = _HALF_CHARACTER.search(item)
            if found is not None:
                return _surrogate_at(where, found.group())
        elif isinstance(item, dict):
            for key, value in reversed(list(item.items())):
                shown = _HALF_CHARACTER.sub(lambda m: f"U+{ord(m.group()):04X}", str(key))
                place = f"{where}.{shown}" if where else shown
                found = _HALF_CHARACTER.search(key) if isinstance(key, str) else None
                if found is not None:
                    return _surrogate_at(place, found.group())
                stack.append((value, place))
        elif isinstance(item, list):
            stack.extend((value, f"{where}[{i}]") for i, value in reversed(list(enumerate(item))))
    return _surrogate_at("", "")  # not reached: only asked for data that could not be encoded


def _surrogate_at(where: str, char: str) -> MalformedRecord:
    found = re.match(r"actions\[(\d+)\]", where)
    return bad("surrogate", int(found.group(1)) if found else None, where=where or "record",
                code=f"U+{ord(char):04X}" if char else "?")


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
        raise bad("repeated_key", key=repr(err.args[0])) from None
    except RecursionError:
        line, column = _too_deep_at(text)
        raise bad("too_deep", line=line, column=column, limit=MAX_DEPTH) from None
    except (ValueError, UnicodeDecodeError) as err:
        raise bad("not_json", detail=str(err)) from None
    return data


_GAME_IN_TEXT = re.compile(r'"game"\s*:\s*"([a-z-]{1,40})"')
_GAME_IN_BYTES = re.compile(rb'"game"\s*:\s*"([a-z-]{1,40})"')


def _parse_fast(text: str | bytes) -> Record | None:
    """The record, decoded from its text by msgspec into the game's struct and checked, or None when
    the careful path must decide and name the problem: no game found in the text, anything invalid,
    or a key count that does not rule out a repeated key."""
    if isinstance(text, bytes):
        found = _GAME_IN_BYTES.search(text)
        game = found.group(1).decode() if found is not None else None
        colons = text.count(b":")
    else:
        found_text = _GAME_IN_TEXT.search(text)
        game = found_text.group(1) if found_text is not None else None
        colons = text.count(":")
    if game not in RECORD_STRUCTS:
        return None
    try:
        record = _decoder(game).decode(text)
        keys = check_people(record)
    except (msgspec.DecodeError, UnicodeDecodeError, MalformedRecord):
        return None
    # every key of a JSON object is followed by a ':' (outside strings); a repeated key reaches the
    # structs once, so equal counts mean no key was repeated
    return record if keys == colons else None


def parse_record(text: str | bytes) -> Record:
    """Parse the text of a table record (JSON)."""
    record = _parse_fast(text)
    if record is None:
        record = _record_of(load_json(text))
    return record


@cache
def _action_kinds(game: str) -> dict[Any, type[Action]]:
    """Action type → struct, for the game's vocabulary (a game with none: record.no_vocabulary)."""
    union = ACTION_STRUCTS.get(game)
    if union is None:
        raise bad("no_vocabulary", game=repr(game))
    return {member.type: member for member in get_args(union)}


def parse_action(game: str, data: Any, players: list[str]) -> Any:
    """Validate one action (as the app receives it: decoded JSON) for a game with these players."""
    kinds = _action_kinds(game)
    try:
        # the struct of the action's type (msgspec keeps what it learnt of a struct type, not of a union)
        action = msgspec.convert(data, kinds[data["type"]], strict=True)
        if not _plain(data):
            raise TypeError("not what JSON decodes to")
    except (msgspec.ValidationError, KeyError, TypeError):
        from models.record_models import action_refusal

        raise action_refusal(game, data, players) from None
    except UnicodeEncodeError:
        raise _half_character(data) from None
    check_action(game, action, players)
    return action


def action_to_data(action: Any) -> dict[str, Any]:
    """An action as JSON data (a struct, or a pydantic model an engine test built)."""
    if isinstance(action, msgspec.Struct):
        return msgspec.to_builtins(action)
    return action.model_dump(mode="json")


def record_to_data(record: Any) -> dict[str, Any]:
    """A record as JSON data, the optional fields it leaves out left out."""
    return record.model_dump(mode="json", exclude_none=True)


def verdict_json(verdict: Verdict, *, indent: bool = False, line: bool = True) -> str:
    """The verdict's JSON text: compact (``--lines``), or indented by 2 (one record, without ``line``)."""
    data = msgspec.to_builtins(filled(verdict))  # its sentences rendered first (they are built when read)
    if not line:
        del data["line"]
    if indent:
        return json.dumps(data, indent=2, ensure_ascii=False)
    return msgspec.json.encode(data).decode()

