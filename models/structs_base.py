"""The bases of the msgspec structs of table-record/1 and table-verdict/1: each game's
(``models/games/<game>_structs.py``, generated from its pydantic models, ``<game>_actions.py``, by
``python -m models.schema``) and the shared ones (``models/structs.py``: the verdict, the tables).
Imports no game: a game's structs module imports it without a cycle (the variant structs, built
from each spec's ``variants`` on first use, are ``models.record``'s).

A struct is what ``models.record`` parses a valid record into: typed, frozen, read by attribute as
the engines read the pydantic models. ``model_dump`` and ``model_copy`` do what pydantic's do for
the callers that treat a record or an action as a model (the service's copies, its exports)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, cast

import msgspec


def _without_nones(data: Any) -> Any:
    if isinstance(data, dict):
        return {key: _without_nones(value) for key, value in data.items() if value is not None}
    if isinstance(data, list):
        return [_without_nones(value) for value in data]
    return data


PlayerName = Annotated[str, msgspec.Meta(min_length=1)]  # a field naming a player (checked after the types)


class Struct(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A validated part of a record: unknown fields refused, frozen, built by keyword."""

    def model_dump(self, mode: str = "json", exclude_none: bool = False) -> dict[str, Any]:
        data = msgspec.to_builtins(self)
        return cast(dict[str, Any], _without_nones(data) if exclude_none else data)

    def model_copy(self, update: dict[str, Any] | None = None) -> Any:
        return msgspec.structs.replace(self, **(update or {}))

    def __iter__(self) -> Iterator[tuple[str, Any]]:  # (field, value) pairs, as a pydantic model
        return iter(zip(self.__struct_fields__, msgspec.structs.astuple(self)))


class Action(Struct, tag_field="type", frozen=True):
    """An action: its ``type`` is the struct's tag (``action.type`` reads it, as on the models)."""

    type: ClassVar[str]
    # the fields naming one player each, and those naming several (a list, a dict keyed by name)
    named_one: ClassVar[tuple[str, ...]] = ()
    named_many: ClassVar[tuple[str, ...]] = ()


class ActionWithoutNones(Action, omit_defaults=True, frozen=True):
    """An action whose optional fields left out are not written back (Animalia's ``row``)."""


class Variant(Struct, frozen=True):
    """Base of every game's variant struct; the fields come from the engine's declaration."""


class Record(Struct, frozen=True):
    """A table record's envelope; each game's struct adds its fields."""

    named_one: ClassVar[tuple[str, ...]] = ()
    named_many: ClassVar[tuple[str, ...]] = ()
    variant_of: ClassVar[tuple[str, str]]  # the engine's game id and the variant model's name
    if TYPE_CHECKING:  # declared by every game's struct, with the game's own types
        variant: Variant
        game: str
        players: list[str]
        first_player: str | None
        actions: list[Any]

    @property
    def starting_player(self) -> str:
        return self.first_player if self.first_player is not None else self.players[0]


class Sentences(list[str]):
    """A verdict's sentences (its ``explanation``), rendered when first read: a caller that needs only
    a verdict's numbers does not pay for the words. Any read or change from Python fills the list
    first; msgspec reads a list's items directly, so :func:`filled` must be called before it encodes
    one (``Output.model_dump`` and ``models.record.verdict_json`` do). Copies and pickles are plain
    lists."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], Iterable[str]]):
        super().__init__()
        self._make: Callable[[], Iterable[str]] | None = make

    def fill(self) -> Sentences:
        make = self._make
        if make is not None:
            self._make = None
            list.extend(self, make())
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self.fill()),))

    def __repr__(self) -> str:
        return list.__repr__(self.fill())


def _filling(name: str) -> Callable[..., Any]:
    method = getattr(list, name)

    def read(self: Sentences, *args: Any) -> Any:
        return method(self.fill(), *args)

    read.__name__ = read.__qualname__ = name
    return read


for _name in ("__len__", "__iter__", "__reversed__", "__getitem__", "__contains__", "__eq__", "__ne__", "__lt__",
              "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__", "__iadd__", "__imul__", "__setitem__",
              "__delitem__", "index", "count", "copy", "append", "extend", "insert", "pop", "remove", "clear",
              "sort", "reverse"):
    setattr(Sentences, _name, _filling(_name))


def filled(output: Any) -> Any:
    """``output`` (a verdict or a part of one) with every :class:`Sentences` in it rendered, ready for
    msgspec to encode."""
    if isinstance(output, Output):
        for value in msgspec.structs.astuple(output):
            if value.__class__ is Sentences:
                value.fill()
            elif isinstance(value, Output):
                filled(value)
    return output


class Output(msgspec.Struct, kw_only=True):
    """A part of a verdict (written, never parsed: mutable, like the pydantic models it mirrors)."""

    def model_dump(self, mode: str = "json", exclude_none: bool = False) -> dict[str, Any]:
        data = msgspec.to_builtins(filled(self))
        return cast(dict[str, Any], _without_nones(data) if exclude_none else data)
