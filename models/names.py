"""Player names, the same rules everywhere a name comes in (a record being parsed, the service's
start and add-player, the set-up screen): trimmed, inner runs of spaces made one, no control or
invisible formatting characters, at most MAX_LENGTH characters, and two names that differ only by
case (or by Unicode composition) are the same player."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from models.i18n import Msg

MAX_LENGTH = 40
# Unicode categories a name may not contain: controls, invisible formatting, surrogates, private
# use, unassigned, line and paragraph separators. The zero-width joiner stays (emoji sequences).
_FORBIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ALLOWED_FORMAT = {"\u200d"}


class BadName(ValueError):
    """A name that cannot be a player's; ``msg`` says why (catalogue keys ``name.*``)."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(msg.render("en"))


def clean_name(name: object) -> str:
    """The name as it is kept: NFC, trimmed, inner whitespace runs made one space. BadName if it is
    not text, empty, holds a control character or is longer than MAX_LENGTH."""
    if not isinstance(name, str):
        raise BadName(Msg("name.not_text"))
    if name.isascii() and name.isprintable() and 0 < len(name) <= MAX_LENGTH:
        clean = " ".join(name.split())  # plain ASCII without controls: already NFC, nothing forbidden in it
        if clean:
            return clean
    for char in name:
        if char in _ALLOWED_FORMAT or char in " \t":
            continue
        if unicodedata.category(char) in _FORBIDDEN:
            raise BadName(Msg("name.control", {"name": _visible(name), "code": f"U+{ord(char):04X}"}))
    clean = " ".join(unicodedata.normalize("NFC", name).split())
    if not clean:
        raise BadName(Msg("name.blank"))
    if len(clean) > MAX_LENGTH:
        raise BadName(Msg("name.too_long", {"name": clean[:MAX_LENGTH] + "…", "limit": MAX_LENGTH,
                                            "length": len(clean)}))
    return clean


def name_key(name: str) -> str:
    """What two names are compared by: the same player when their keys are equal."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)


def find_same(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that is the same player as ``name``, or None."""
    key = name_key(name)
    return next((other for other in names if name_key(other) == key), None)


def check_distinct(names: Iterable[str]) -> None:
    """BadName (``name.twice``) if two of ``names`` are the same player."""
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            raise BadName(Msg("name.twice", {"name": seen[key], "other": name}))
        seen[key] = name


def _visible(name: str) -> str:
    """``name`` with its control characters shown as codes, safe to print in a sentence."""
    return "".join(f"U+{ord(c):04X}" if unicodedata.category(c) in _FORBIDDEN and c not in _ALLOWED_FORMAT else c
                   for c in name)
