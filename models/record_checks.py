"""The checks after the types, on a struct or a pydantic model alike: the outline, player names and
who is at the table, variant limits, each game's own (``GameSpec.check_record`` / ``check_action``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Final, NamedTuple

import msgspec

from models.games import GAMES, PLAYER_COUNTS, SPEC_OF
from models.i18n import Msg
from models.malformed import MalformedRecord, bad, one_of
from models.names import BadName, clean_name, name_key
from models.structs_base import Action

RECORD_FORMAT: Final = "table-record/1"
VERDICT_FORMAT: Final = "table-verdict/1"


def check_outline(data: Any) -> None:
    """What is said before the types are: not an object, another format, a game the spec does not name."""
    if not isinstance(data, dict):
        raise bad("not_object")
    if data.get("format") != RECORD_FORMAT and "format" in data:
        raise bad("format", expected=repr(RECORD_FORMAT), got=repr(data.get("format")))
    if "game" in data and data["game"] not in GAMES:
        raise bad("unknown_game", game=repr(data["game"]), games=", ".join(GAMES))


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
    # where the checks read one object keyed by player and nothing else (Stupide Vautour's play):
    # that field, so that the loop makes one test; None otherwise
    keyed: str | None = None

    def only_one(self) -> _Plan:
        """This plan with ``one`` (or ``keyed``) set, where the checks read one field naming a player
        at most (or one object keyed by player and nothing else)."""
        if not self.ones and not self.optional and len(self.manys) == 1 and self.manys == self.objects:
            return self._replace(keyed=self.manys[0])
        if self.manys or self.optional or self.objects or len(self.ones) > 1:
            return self
        return self._replace(one=self.ones[0] if self.ones else "")


_PLANS: dict[type, _Plan] = {}
# the struct types whose plan reads one field naming a player at most, or one object keyed by player:
# (that field or None, that object's field or None, the keys every value was given), read by the loop
# every record pays for (:func:`_check_actions`) in one look-up; filled with ``_PLANS``
_QUICK: dict[type, tuple[str | None, str | None, int]] = {}
_NO_QUICK: dict[type, tuple[str | None, str | None, int]] = {}  # (stays empty: for a game's own check)


def _plan(cls: type) -> _Plan:
    found = _PLANS.get(cls)
    if found is None:
        if issubclass(cls, Action):
            fields = msgspec.structs.fields(cls)
            found = _Plan(cls.named_one, cls.named_many, 1 + sum(1 for field in fields if field.required),
                          tuple(field.name for field in fields if not field.required),
                          tuple(field.name for field in fields if _holds_object(field.type))).only_one()
            if found.one is not None or found.keyed is not None:
                _QUICK[cls] = (found.one or None, found.keyed, found.fixed)
        else:  # a pydantic model (the reference path, or an action a test built): its keys are not counted
            ones, manys = cls.people_fields()  # type: ignore[attr-defined]
            found = _Plan(ones, manys, 0, (), ())
        _PLANS[cls] = found
    return found


def _holds_object(tp: Any) -> bool:
    info = msgspec.inspect.type_info(tp)
    arms = info.types if isinstance(info, msgspec.inspect.UnionType) else (info,)
    return any(isinstance(arm, msgspec.inspect.DictType) for arm in arms)


def _check_variant(record: Any) -> None:
    """The declared limits a field type cannot say: keys of one game only, player counts (a key
    allowed with some player counts only may still name its default with the others)."""
    variant = record.variant
    for spec in SPEC_OF[record.game].variants:
        if getattr(variant, spec.key, None) is None:
            continue
        if spec.games is not None and record.game not in spec.games:
            raise MalformedRecord(Msg("record.at", {"where": f"variant.{spec.key}",
                                                    "problem": Msg("record.problem.unknown_field")}))
        if (spec.players is not None and len(record.players) not in spec.players
                and getattr(variant, spec.key) != spec.default_for(record.game, len(record.players))):
            raise bad("variant_players", key=spec.key, counts=one_of(", ".join(map(str, spec.players))),
                       count=len(record.players))


def check_envelope(record: Any) -> set[str]:
    """Player count, names, first player, the game's own checks, variant limits; the names at the table."""
    players = record.players
    low, high = PLAYER_COUNTS[record.game]
    if not low <= len(players) <= high:
        raise bad("player_count", game=record.game, low=low, high=high, count=len(players))
    seen = set(_checked_names(tuple(players)))
    if record.first_player is not None and record.first_player not in seen:
        raise bad("first_player", name=repr(record.first_player))
    game_check = SPEC_OF[record.game].check_record
    if game_check is not None:
        game_check(record)
    _check_variant(record)
    return seen


@lru_cache(maxsize=256)  # a club's tables: the same names in record after record (a refusal is not kept)
def _checked_names(players: tuple[str, ...]) -> frozenset[str]:
    """The names at the table, each checked (not blank, clean, trimmed, not there twice)."""
    keys: dict[str, str] = {}  # name_key → the name (find_same, without comparing every pair)
    for name in players:
        if not name.strip():
            raise bad("blank_player")
        try:
            clean = clean_name(name)
        except BadName as err:
            raise bad("player_name", problem=err.msg) from None
        if clean != name:
            raise bad("player_untrimmed", name=repr(name), clean=repr(clean))
        key = name_key(name)
        same = keys.get(key)
        if same is not None:
            raise bad("player_twice", name=repr(name) if same == name else f"{same!r} / {name!r}")
        keys[key] = name
    return frozenset(players)


def check_action(game: str, action: Any, players: list[str]) -> None:
    """The checks of one action parsed on its own (the app's entries)."""
    plan = _plan(type(action))
    ones, manys = plan.ones, plan.manys
    for attr in ones:
        name = getattr(action, attr)
        if name is not None and name not in players:
            raise bad("unknown_player", name=repr(name))
    for attr in manys:
        for name in getattr(action, attr) or ():
            if name not in players:
                raise bad("unknown_player", name=repr(name))
    game_check = SPEC_OF[game].check_action
    if game_check is not None:
        game_check(action, len(players), None)


def _check_actions(actions: list[Any], seen: set[str], extra: Callable[[Any, int, int | None], None] | None) -> int:
    """Every player an action names is at the table; returns how many keys the actions were given
    (one pass: this is the loop every record pays for)."""
    keys = 0
    plans = _PLANS
    quick = _QUICK if extra is None else _NO_QUICK
    for i, action in enumerate(actions):
        how = quick.get(action.__class__)
        if how is not None:  # a player named at most (most actions), or one object keyed by player: one test
            one, keyed, fixed = how
            if one is not None:
                name = getattr(action, one)
                if name is not None and name not in seen:
                    raise bad("action_player", i, i=i, name=repr(name))
            elif keyed is not None:
                names = getattr(action, keyed)
                if not seen.issuperset(names):
                    stranger = next(name for name in names if name not in seen)
                    raise bad("action_player", i, i=i, name=repr(stranger))
                keys += len(names)
            keys += fixed
            continue
        plan = plans.get(action.__class__) or _plan(action.__class__)
        for attr in plan.ones:
            name = getattr(action, attr)
            if name is not None and name not in seen:
                raise bad("action_player", i, i=i, name=repr(name))
        for attr in plan.manys:
            names = getattr(action, attr)
            if names and not seen.issuperset(names):
                stranger = next(name for name in names if name not in seen)
                raise bad("action_player", i, i=i, name=repr(stranger))
        if extra is not None:  # a game's own check of each action (Animalia's rows)
            extra(action, len(seen), i)
        keys += plan.fixed
        for attr in plan.optional:
            if getattr(action, attr) is not None:
                keys += 1
        for attr in plan.objects:
            keys += len(getattr(action, attr) or ())
    return keys


def check_people(record: Any) -> int:
    """All the checks after the types, on a struct or a pydantic record alike. Returns, for a struct,
    a lower bound of the JSON keys it was decoded from, exact unless a key was repeated (it reaches
    the struct once) or an optional field was written as null."""
    seen = check_envelope(record)
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
    return keys + _check_actions(record.actions, seen, SPEC_OF[record.game].check_action)
