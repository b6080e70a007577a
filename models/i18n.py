"""Message catalogues: every sentence a player reads comes from assets/i18n/<lang>/*.json.

Engines never build sentences themselves: they return or raise a :class:`Msg` (a catalogue key
and its parameters), and whoever shows it (the CLI verdict, the app) renders it in the table's
language. Catalogue files are merged per language; a key must be unique across a language's files.

Parameters are rendered before they are formatted into the template:
- a :class:`Msg` is rendered in the same language,
- a list or tuple is rendered item by item and joined ("a, b and c" / "a, b et c"),
- a :class:`fractions.Fraction` or float prints exactly (3.5 / 3,5), an integral one without decimals.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


@dataclass(frozen=True)
class Msg:
    """A sentence to show, not yet in any language."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return render(self, lang)

    def __str__(self) -> str:  # handy in logs and assertion messages
        return render(self, "en")


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


class MissingText(KeyError):
    """A catalogue key has no text in some language: a defect, caught by the catalogue tests."""


@lru_cache(maxsize=None)
def catalogue(lang: str) -> Mapping[str, str]:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    from importlib import resources  # imported when a sentence is first rendered, not at import

    merged: dict[str, str] = {}
    folder = resources.files("assets").joinpath("i18n", lang)
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        data = json.loads(entry.read_text(encoding="utf-8"))
        for key, text in data.items():
            if key in merged:
                raise ValueError(f"catalogue key {key!r} defined twice in {lang} ({entry.name})")
            merged[key] = text
    return merged


def has_text(key: str, lang: str) -> bool:
    return key in catalogue(lang)


def text(key: str, lang: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    return render(Msg(key, params), lang)


def format_number(value: Any, lang: str = DEFAULT_LANGUAGE) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        value = float(value)
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        out = repr(value)
        return out.replace(".", ",") if lang == "fr" else out
    return str(value)


def _render_param(value: Any, lang: str) -> str:
    if isinstance(value, Msg):
        return render(value, lang)
    if isinstance(value, (list, tuple)):
        parts = [_render_param(v, lang) for v in value]
        if not parts:
            return render(Msg("list.none"), lang)
        if len(parts) == 1:
            return parts[0]
        return render(Msg("list.and", {"head": ", ".join(parts[:-1]), "last": parts[-1]}), lang)
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return format_number(value, lang)
    return str(value)


def render(message: Msg, lang: str = DEFAULT_LANGUAGE) -> str:
    try:
        template = catalogue(lang)[message.key]
    except KeyError:
        raise MissingText(f"no {lang} text for {message.key!r}") from None
    params = {name: _render_param(value, lang) for name, value in message.params.items()}
    try:
        return template.format(**params)
    except (KeyError, IndexError) as exc:
        raise MissingText(f"{lang} text for {message.key!r} needs parameter {exc}") from None
