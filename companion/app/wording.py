"""Choosing the right catalogue sentence where French grammar needs it: plurals ("1 partie",
"2 parties"; in French 0 takes the singular) and elision before a name ("les parties d'Anne",
"de Bruno"). Each such key exists in two forms in the catalogues: ``<key>.one`` / ``<key>.other``
for plurals, ``<key>.vowel`` / ``<key>.consonant`` for elision (English has both forms equal)."""

from __future__ import annotations

import unicodedata
from typing import Any

VOWELS = "aeiouy"


def plural_key(key: str, count: float, lang: str) -> str:
    one = count in (0, 1) if lang == "fr" else count == 1
    return f"{key}.{'one' if one else 'other'}"


def elision_key(key: str, name: str) -> str:
    first = unicodedata.normalize("NFKD", name.strip()[:1].casefold())[:1]
    return f"{key}.{'vowel' if first and first in VOWELS else 'consonant'}"


def counted(app: Any, key: str, count: float, **params: Any) -> str:
    """The plural form of ``app.<key>`` for ``count`` (passed as ``count``). ``key`` is given
    without its ``app.`` prefix: only its two forms are catalogue keys."""
    return app.t(plural_key(f"app.{key}", count, app.lang), count=count, **params)


def of_name(app: Any, key: str, name: str, **params: Any) -> str:
    """The form of ``app.<key>`` that fits before ``name`` (passed as ``name``)."""
    return app.t(elision_key(f"app.{key}", name), name=name, **params)
