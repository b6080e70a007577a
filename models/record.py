"""The table record (table-record/1) and the verdict (table-verdict/1), as in shared/spec/table-record.md.

Parsing is strict: any unknown key, unknown action type, missing field, wrong JSON type, card id
that is not a card of the game, unknown player name or player count the game does not allow makes
the record *malformed* (:class:`MalformedRecord`). Whether a real card can be used *now* is the
engine's business, not the parser's.

The record is declared once, by the pydantic models of ``models/record_models.py``; the msgspec
structs of ``models/structs.py`` are generated from them (``python -m models.schema``), and each
game's variant struct is built from its engine's ``variants`` on first use. A valid record or
action is parsed by msgspec alone, into those structs: this module imports no pydantic, so
``companion replay`` does not pay for it. When msgspec refuses, pydantic is asked why
(``record_models.refusal``): the reasons, translated, are pydantic's, as they always were. The
checks msgspec's types cannot say (player names, who is at the table, Animalia's rows, variant
limits) are the functions below, run on whichever a record is.

:func:`parse_record` decodes the JSON text straight into the game's struct (the game read from the
text), then guards against repeated keys cheaply: the number of keys the structs received must
equal the number of ``:`` in the text. When it does not (a repeated key, an explicit null, a ``:``
inside a name) or anything fails, the record takes the careful path — ``json.loads`` refusing
repeated keys, then :func:`parse_record_data` — which names the problem and its place.

The pydantic names (``TableRecord``, ``HSBid``, ``RECORD_MODELS``, ``record_json_schema`` …) are
still read from here: importing one imports ``models.record_models`` then.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, Callable, Final, NamedTuple, get_args

import msgspec

from models.i18n import Msg
from models.names import BadName, clean_name, name_key
from models.structs import ACTION_STRUCTS, RECORD_STRUCTS, RankEntry, Verdict, VerdictError, VerdictResult
from models.structs_base import Action, Record, with_variant

# the verdict (§3) is written as these structs (scoring.referee builds them; no pydantic on that path)
__all__ = ["RankEntry", "Verdict", "VerdictError", "VerdictResult"]

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


# --- the card catalogues of each game (spec §4) ----------------------------------------------

HS_STATUS_CARDS = tuple(f"p{n}" for n in range(1, 11)) + ("x2", "half", "minus5", "theft")
HS_MONEY = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
SV_POINT_CARDS = tuple(range(1, 11)) + tuple(range(-1, -6, -1))
SV_HAND = tuple(range(1, 16))
BC_ANIMAL_VALUES = {
    "hen": 10, "goose": 40, "cat": 90, "dog": 160, "sheep": 250,
    "goat": 350, "donkey": 500, "pig": 650, "cow": 800, "horse": 1000,
}
BC_MONEY = (0, 10, 50, 100, 200, 500)
MD_VALUES = tuple(range(1, 21))
MD_ACTIONS = ("skip", "take", "pass", "chaos")
MD_CARDS: tuple[str, ...] = (tuple(f"b{v}" for v in MD_VALUES) + tuple(f"r{v}" for v in MD_VALUES)
                             + tuple(f"y{v}-{a}" for v in MD_VALUES for a in MD_ACTIONS))
MD_DECK = 64      # cards in the game (how many of each kind is unknown: nothing depends on it)
MD_HAND = 7       # cards dealt to each player at the start of a deal

ANI_FAMILIES = ("cat", "horse", "dog", "rabbit", "parrot")
ANI_MEMBERS = ("champion", "dandy", "cute", "scruffy", "thief", "spy", "prankster")
ANI_CARDS = tuple(f"{f}-{m}" for f in ANI_FAMILIES for m in ANI_MEMBERS) + ("owl",)


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


def _check_animalia_rows(action: Any, players: int, index: int | None) -> None:
    """With 2 players every ``row`` field the spec shows is required; with more it is refused.

    The spy moves no card, so its ``power`` action carries no ``row`` (§4.4), also with 2 players; a
    ``row`` written anyway with 2 players is accepted and ignored (records the app saved before
    wrote one), and refused with more players like every ``row``."""
    kind = action.type
    fields: tuple[str, ...] = {"take": ("row",), "cover": ("row",), "medals": ("row",)}.get(kind, ())
    optional: tuple[str, ...] = ()
    if kind == "power":
        if action.power == "spy":
            fields, optional = (), ("row",)
        else:
            fields = ("row",) + (("from_row",) if action.from_ is not None else ()) + (
                ("to_row",) if action.to is not None else ())
        for name in ("row", "from_row", "to_row"):
            if name not in fields + optional and getattr(action, name) is not None:
                raise _bad("ani_row_stray", index, where=_at(index, name))
    for name in fields + optional:
        given = getattr(action, name) is not None
        if players == 2 and not given and name not in optional:
            raise _bad("ani_row_required", index, where=_at(index, name))
        if players != 2 and given:
            raise _bad("ani_row_refused", index, where=_at(index, name), count=players)


def _at(index: int | None, name: str) -> str:
    return name if index is None else f"actions[{index}].{name}"


# --- the checks after the types: names, who is at the table, variant limits -------------------

class _Plan(NamedTuple):
    """What the checks read in an action type's fields, worked out once per type."""

    ones: tuple[str, ...]      # fields naming one player (or None)
    manys: tuple[str, ...]     # lists of players, dicts keyed by player
    fixed: int                 # keys every value was given: the tag and the required fields
    optional: tuple[str, ...]  # one key more each when not None (None is their default)
    objects: tuple[str, ...]   # objects of plain values: as many keys more as they hold
    # where the checks read one field naming a player at most (most actions): that field ("" for
    # none), so that the loop makes one test; None: the general path over every tuple above
    one: str | None = None

    def only_one(self) -> _Plan:
        """This plan with ``one`` set, where the checks read one field naming a player at most."""
        if self.manys or self.optional or self.objects or len(self.ones) > 1:
            return self
        return self._replace(one=self.ones[0] if self.ones else "")


_PLANS: dict[type, _Plan] = {}


def _plan(cls: type) -> _Plan:
    found = _PLANS.get(cls)
    if found is None:
        if issubclass(cls, Action):
            fields = msgspec.structs.fields(cls)
            found = _Plan(cls.named_one, cls.named_many, 1 + sum(1 for field in fields if field.required),
                          tuple(field.name for field in fields if not field.required),
                          tuple(field.name for field in fields if _holds_object(field.type))).only_one()
        else:  # a pydantic model (the reference path, or an action a test built): its keys are not counted
            from models.record_models import people_fields

            found = _Plan(*people_fields(cls), 0, (), ())  # type: ignore[arg-type]
        _PLANS[cls] = found
    return found


def _holds_object(tp: Any) -> bool:
    info = msgspec.inspect.type_info(tp)
    arms = info.types if isinstance(info, msgspec.inspect.UnionType) else (info,)
    return any(isinstance(arm, msgspec.inspect.DictType) for arm in arms)


def _check_variant(record: Any) -> None:
    """The declared limits a field type cannot say: keys of one game only, player counts (a key
    allowed with some player counts only may still name its default with the others)."""
    from scoring.registry import engine_class

    variant = record.variant
    engine = engine_class(record.game)
    for spec in engine.variants if engine is not None else ():
        if getattr(variant, spec.key, None) is None:
            continue
        if spec.games is not None and record.game not in spec.games:
            raise MalformedRecord(Msg("record.at", {"where": f"variant.{spec.key}",
                                                    "problem": Msg("record.problem.unknown_field")}))
        if (spec.players is not None and len(record.players) not in spec.players
                and getattr(variant, spec.key) != spec.default_for(record.game, len(record.players))):
            raise _bad("variant_players", key=spec.key, counts=_one_of(", ".join(map(str, spec.players))),
                       count=len(record.players))


def _check_envelope(record: Any) -> set[str]:
    """Player count, names, first player, dealt start, variant limits; the names at the table."""
    players = record.players
    low, high = PLAYER_COUNTS[record.game]
    if not low <= len(players) <= high:
        raise _bad("player_count", game=record.game, low=low, high=high, count=len(players))
    seen: set[str] = set()
    keys: dict[str, str] = {}  # name_key → the name (find_same, without comparing every pair)
    for name in players:
        if not name.strip():
            raise _bad("blank_player")
        try:
            clean = clean_name(name)
        except BadName as err:
            raise _bad("player_name", problem=err.msg) from None
        if clean != name:
            raise _bad("player_untrimmed", name=repr(name), clean=repr(clean))
        key = name_key(name)
        same = keys.get(key)
        if same is not None:
            raise _bad("player_twice", name=repr(name) if same == name else f"{same!r} / {name!r}")
        keys[key] = name
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
    if record.game == "animalia" and getattr(record.variant, "elegance", None) == "player" \
            and len(players) != 2:
        raise _bad("ani_elegance_player", count=len(players))
    _check_variant(record)
    return seen


def _check_action(game: str, action: Any, players: list[str]) -> None:
    """The checks of one action parsed on its own (the app's entries)."""
    plan = _plan(type(action))
    ones, manys = plan.ones, plan.manys
    for attr in ones:
        name = getattr(action, attr)
        if name is not None and name not in players:
            raise _bad("unknown_player", name=repr(name))
    for attr in manys:
        for name in getattr(action, attr) or ():
            if name not in players:
                raise _bad("unknown_player", name=repr(name))
    if game == "animalia":
        _check_animalia_rows(action, len(players), None)


def _check_actions(actions: list[Any], seen: set[str], extra: Callable[[Any, int, int], None] | None) -> int:
    """Every player an action names is at the table; returns how many keys the actions were given
    (one pass: this is the loop every record pays for)."""
    keys = 0
    plans = _PLANS
    for i, action in enumerate(actions):
        plan = plans.get(action.__class__) or _plan(action.__class__)
        one = plan.one
        if one is not None and extra is None:  # a player named at most: most actions, one test
            if one:
                name = getattr(action, one)
                if name is not None and name not in seen:
                    raise _bad("action_player", i, i=i, name=repr(name))
            keys += plan.fixed
            continue
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
        keys += plan.fixed
        for attr in plan.optional:
            if getattr(action, attr) is not None:
                keys += 1
        for attr in plan.objects:
            keys += len(getattr(action, attr) or ())
    return keys


def _check_people(record: Any) -> int:
    """All the checks after the types, on a struct or a pydantic record alike. Returns, for a struct,
    a lower bound of the JSON keys it was decoded from, exact unless a key was repeated (it reaches
    the struct once) or an optional field was written as null."""
    seen = _check_envelope(record)
    keys = 4  # format, game, players, actions
    if record.first_player is not None:
        keys += 1
    start = getattr(record, "start_animals", None)
    if start is not None:
        keys += 1 + len(start)
    variant = record.variant
    if isinstance(variant, msgspec.Struct):
        chosen = sum(1 for value in msgspec.structs.astuple(variant) if value is not None)
        keys += 1 + chosen if chosen else 0
    return keys + _check_actions(record.actions, seen, _check_animalia_rows if record.game == "animalia" else None)


# --- Parsing -----------------------------------------------------------------------------------

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


def check_outline(data: Any) -> None:
    """What is said before the types are: not an object, another format, a game the spec does not name."""
    if not isinstance(data, dict):
        raise _bad("not_object")
    if data.get("format") != RECORD_FORMAT and "format" in data:
        raise _bad("format", expected=repr(RECORD_FORMAT), got=repr(data.get("format")))
    if "game" in data and data["game"] not in GAMES:
        raise _bad("unknown_game", game=repr(data["game"]), games=", ".join(GAMES))


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
    _check_people(record)
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
    return _bad("surrogate", int(found.group(1)) if found else None, where=where or "record",
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
        raise _bad("repeated_key", key=repr(err.args[0])) from None
    except RecursionError:
        line, column = _too_deep_at(text)
        raise _bad("too_deep", line=line, column=column, limit=MAX_DEPTH) from None
    except (ValueError, UnicodeDecodeError) as err:
        raise _bad("not_json", detail=str(err)) from None
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
        keys = _check_people(record)
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
        raise _bad("no_vocabulary", game=repr(game))
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
    _check_action(game, action, players)
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
    data = msgspec.to_builtins(verdict)
    if not line:
        del data["line"]
    if indent:
        return json.dumps(data, indent=2, ensure_ascii=False)
    return msgspec.json.encode(data).decode()


def __getattr__(name: str) -> Any:
    """The pydantic side (models, adapters, JSON Schemas), imported when first asked for."""
    if name.startswith("__"):
        raise AttributeError(name)
    from models import record_models

    try:
        return getattr(record_models, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
