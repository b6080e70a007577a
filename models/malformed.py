"""A record or an action that is not valid table-record/1 (:class:`MalformedRecord`), and the helpers
that word why (the parser, its checks, the reference models and each game's own checks use them)."""

from __future__ import annotations

import re
from typing import Any

from models.i18n import Msg


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


def bad(which: str, index: int | None = None, /, **params: Any) -> MalformedRecord:
    return MalformedRecord(Msg(f"record.{which}", params), index)


def one_of(expected: str) -> Msg | str:
    """pydantic's "1, 2 or 3" / "'reveal', 'play'" as a list the table's language joins."""
    items = [item for item in re.split(r", | or ", expected) if item]
    if len(items) < 2:
        return expected
    return Msg("list.or", {"head": ", ".join(items[:-1]), "last": items[-1]})


def at(index: int | None, name: str) -> str:
    return name if index is None else f"actions[{index}].{name}"
