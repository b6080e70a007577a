"""Message catalogues: every sentence a player reads comes from assets/i18n/<lang>/*.json (and a
game registered from outside the app, ``models.outside_games``, from its package's i18n/<lang>/*.json).

Engines never build sentences themselves: they return or raise a :class:`Msg` (a catalogue key
and its parameters), and whoever shows it (the CLI verdict, the app) renders it in the table's
language. Catalogue files are merged per language; a key must be unique across a language's files.

Parameters are rendered before they are formatted into the template:
- a :class:`Msg` is rendered in the same language,
- a list or tuple is rendered item by item and joined ("a, b and c" / "a, b et c"),
- a :class:`fractions.Fraction` or float prints exactly (3.5 / 3,5), an integral one without decimals;
- a number of 1,000 or more is grouped by thousands as each language writes it: French with a
  no-break space (« 4 800 », « 12 500,5 »; it never breaks across lines), English as it is
  (4800). A parameter that labels rather than counts (a year, a game's number, a line: see
  ``LABELS``) is never grouped: « partie n° 1234 », « 2026 ».

A template may give a parameter a format spec (``{name:spec}``) for what French grammar needs:
- elision: ``{player:de}`` → "de Bruno" / "d'Anne"; likewise ``que`` (qu'), ``le`` and ``la``
  (l'), and capitalised ``De``, ``Que``, ``Le``, ``La`` at the start of a sentence. The word is
  elided before a vowel, a ``y`` or a mute ``h`` (accents ignored: "d'Émile"); never before a digit,
  nor before a ``y`` sounded as a consonant, that is followed by a vowel ("de Yann", "d'Yves").
- a game's own words: inside ``with dialect(game):`` a key ``K`` is rendered from ``K@<game>``
  when the catalogue has it (an edition's words for a shared engine's sentence: Animalement
  Vôtre's animals, not possessions), else from ``K``.
- plurals: ``{n:#carte|cartes}`` → "1 carte" / "2 cartes"; ``{n:carte|cartes}`` → the word alone
  (e.g. an agreement: ``prise{n:|s}``). French counts 0 and 1 as singular, English only 1.
"""

from __future__ import annotations

import json
import string
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Self

from models import outside_games

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


@dataclass(frozen=True)
class InWords(Msg):
    """A sentence about one game inside a message that is not (an import's refusal, on a screen
    about no game): rendered in that game's words (its ``@words`` dialect) wherever it is shown,
    as a parameter of another message or through its own ``render``."""

    words: str | None = None

    def render(self, lang: str = DEFAULT_LANGUAGE) -> str:
        with dialect(self.words):
            return render(self, lang)


def in_words(words: str | None, message: Msg) -> InWords:
    """``message`` to be rendered in the words of ``words`` (a game id) wherever it is shown."""
    return InWords(message.key, message.params, words)


_new_object = object.__new__


def msg(key: str, **params: Any) -> Msg:
    """``Msg(key, params)`` at about half the cost, for the paths that build many (a score's
    breakdown in every verdict): it fills the frozen dataclass's fields directly, as its generated
    ``__init__`` does through ``object.__setattr__``; the value is the same."""
    made = _new_object(Msg)
    fields = made.__dict__
    fields["key"] = key
    fields["params"] = params
    return made


class MissingText(KeyError):
    """A catalogue key has no text in some language: a defect, caught by the catalogue tests."""


@lru_cache(maxsize=None)
def catalogue(lang: str) -> Mapping[str, str]:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    merged: dict[str, str] = {}
    own = resources.files("assets").joinpath("i18n", lang)
    for entry in [e for folder in (own, *outside_games.text_folders(lang))
                  for e in sorted(folder.iterdir(), key=lambda e: e.name)]:
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


# French groups thousands with a no-break space (« 4 800 »): typographers prefer the narrow one
# (U+202F), which the font the web client ships offline (Roboto) does not have — it would show a box
THIN = "\u00a0"
# Parameters that label rather than count: their numbers are written without grouping (« 2026 »,
# « partie n° 1234 », « ligne 1200 »), as French and English write a year or a number in a list.
LABELS = frozenset({"year", "session", "id", "ids", "revision", "seq", "line", "column", "code", "pin",
                    "port", "i", "k", "entry"})


def _grouped(digits: str, lang: str) -> str:
    """``digits`` (an integer's, a sign allowed) grouped by thousands in ``lang`` (French only)."""
    if lang != "fr":
        return digits
    sign, digits = (digits[0], digits[1:]) if digits[:1] in "+-" else ("", digits)
    if len(digits) < 4:
        return sign + digits
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)]
    return sign + THIN.join(groups)


def format_number(value: Any, lang: str = DEFAULT_LANGUAGE, *, group: bool = True) -> str:
    """A number as ``lang`` writes it: 3,5 in French, 3.5 in English; thousands grouped (« 4 800 »)
    unless ``group`` is false (a number that labels: a year, a game's number)."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            value = value.numerator
        else:
            value = float(value)
    if isinstance(value, float):
        if value.is_integer():
            value = int(value)
        else:
            out = repr(value)
            if "e" in out or "n" in out:  # 1e+16, inf, nan: as Python writes them
                return out.replace(".", ",") if lang == "fr" else out
            whole, _, decimals = out.partition(".")
            whole = _grouped(whole, lang) if group else whole
            return f"{whole},{decimals}" if lang == "fr" else f"{whole}.{decimals}"
    if isinstance(value, int):
        return _grouped(str(value), lang) if group and not -1000 < value < 1000 else str(value)
    return str(value)


def _render_param(value: Any, lang: str, group: bool = True) -> str:
    cls = value.__class__
    if cls is str:  # the usual parameters first (names, then whole numbers): one type test each
        return value
    if cls is int:
        return str(value) if -1000 < value < 1000 or not group else format_number(value, lang)
    if isinstance(value, Msg):
        return value.render(lang) if cls is InWords else render(value, lang)
    if isinstance(value, (list, tuple)):
        parts = [v if v.__class__ is str else _render_param(v, lang, group) for v in value]
        if not parts:
            return render(Msg("list.none"), lang)
        if len(parts) == 1:
            return parts[0]
        return render(Msg("list.and", {"head": ", ".join(parts[:-1]), "last": parts[-1]}), lang)
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return format_number(value, lang, group=group)
    return str(value)


_ELIDED = {"de": "d'", "que": "qu'", "le": "l'", "la": "l'"}
_VOWELS = set("aeiouyh")


class _Param(str):
    """A rendered parameter that still knows its value and language, for the format specs."""

    value: Any
    lang: str

    def __new__(cls, rendered: str, value: Any, lang: str) -> Self:
        out = super().__new__(cls, rendered)
        out.value = value
        out.lang = lang
        return out

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if "|" in spec:
            return self._plural(spec)
        word = spec.lower()
        if word in _ELIDED:
            out = elide(word, str(self))
            return out[0].upper() + out[1:] if spec[0].isupper() else out
        raise ValueError(f"unknown format {spec!r}")

    def _plural(self, spec: str) -> str:
        with_number = spec.startswith("#")
        singular, _, plural = spec.lstrip("#").partition("|")
        count = _count_of(self.value)
        one = abs(count) < 2 if self.lang == "fr" else count == 1
        word = singular if one else plural
        return f"{self} {word}" if with_number else word


def _count_of(value: Any) -> float:
    """The number a plural agrees with: a number, or one already formatted ("4", "3,5")."""
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace(",", ".").replace(THIN, "").replace(" ", ""))
        except ValueError:
            pass
    raise ValueError(f"a plural needs a number, not {value!r}")


def _bare(letter: str) -> str:
    return unicodedata.normalize("NFD", letter)[:1].lower()


def elide(word: str, following: str) -> str:
    """``word`` ("de", "que", "le", "la") before ``following``, elided where French elides. A
    ``y`` followed by a vowel is sounded as a consonant: "de Yann", "de Yasmine", but "d'Yves"."""
    letters = [c for c in following if c.isalnum()][:2]
    first = letters[0] if letters else ""
    bare = _bare(first)
    if bare == "y" and len(letters) > 1 and _bare(letters[1]) in _VOWELS - {"h"}:
        return f"{word} {following}"
    if bare and bare in _VOWELS and not first.isdigit():
        return _ELIDED[word] + following
    return f"{word} {following}"


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> Any:
        return format(value, format_spec)


_FORMATTER = _Formatter()


_DIALECT: ContextVar[str | None] = ContextVar("catalogue_dialect", default=None)


def current_dialect() -> str | None:
    """The words being rendered in (``dialect``), or None."""
    return _DIALECT.get()


@contextmanager
def dialect(name: str | None) -> Iterator[None]:
    """Render with the ``@name`` variants of keys where there are some (see the module's doc)."""
    token = _DIALECT.set(name)
    try:
        yield
    finally:
        _DIALECT.reset(token)


# A template as (literal, parameter name or None, format spec) pieces, parsed once per template (the
# verdict and the log render the same few hundred templates over and over). None: a field this fast
# path does not handle (positional, attribute or index, conversion, nested braces in the spec), left
# to string.Formatter.
_Pieces = tuple[tuple[str, str | None, str], ...]


@lru_cache(maxsize=4096)
def _pieces(template: str) -> _Pieces | None:
    pieces: list[tuple[str, str | None, str]] = []
    try:
        parsed = list(_FORMATTER.parse(template))
    except ValueError:
        return None  # malformed braces: string.Formatter says why
    for literal, name, spec, conversion in parsed:
        if name is None:
            pieces.append((literal, None, ""))
            continue
        if not name.isidentifier() or conversion or (spec and "{" in spec):
            return None
        pieces.append((literal, name, spec or ""))
    return tuple(pieces)


@lru_cache(maxsize=8192)
def _template(key: str, lang: str, words: str | None) -> tuple[str, _Pieces | None]:
    """The template of ``key`` in ``lang`` (the ``@words`` dialect's where it has one) and its pieces."""
    try:
        texts = catalogue(lang)
        template = texts.get(f"{key}@{words}") if words else None
        if template is None:
            template = texts[key]
    except KeyError:
        raise MissingText(f"no {lang} text for {key!r}") from None
    return template, _pieces(template)


def render(message: Msg, lang: str = DEFAULT_LANGUAGE) -> str:
    template, pieces = _template(message.key, lang, _DIALECT.get())
    values = message.params
    rendered: dict[str, str] = {}
    for name, value in values.items():  # every parameter, used or not (a nested message must have its text)
        cls = value.__class__
        rendered[name] = (value if cls is str
                          else str(value) if cls is int and -1000 < value < 1000
                          else _render_param(value, lang, name not in LABELS))
    try:
        if pieces is None:
            return _FORMATTER.vformat(template, (), {key: _Param(text, values[key], lang)
                                                     for key, text in rendered.items()})
        out: list[str] = []
        for literal, field_name, spec in pieces:
            out.append(literal)
            if field_name is not None:
                out.append(format(_Param(rendered[field_name], values[field_name], lang), spec) if spec
                           else rendered[field_name])
        return "".join(out)
    except (KeyError, IndexError) as exc:
        raise MissingText(f"{lang} text for {message.key!r} needs parameter {exc}") from None
    except ValueError as exc:
        raise MissingText(f"{lang} text for {message.key!r}: {exc}") from None
