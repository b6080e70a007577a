"""Chapters of a past game: where a replay step by step can jump (a season, a deal, a round, an
auction) instead of walking a hundred steps one at a time.

A game screen module may offer ``chapters(state, entries) -> list[tuple[Msg, int]]``: each
chapter's name and the step that opens it (step k shows the table after the first k entries).
``state`` is the game as it ended (or stands), ``entries`` its log. The modules build theirs with
:func:`chapters_of` from the entries' actions or events; the names are ``app.past.chapter.<kind>``
(screen-history.json), numbered per kind."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from models.i18n import Msg

Chapters = list[tuple[Msg, int]]


def event_keys(entry: Any) -> tuple[str, ...]:
    """The catalogue keys of an entry's sentences."""
    return tuple(str(getattr(m, "key", "")) for m in getattr(entry, "events", ()))


def chapters_of(entries: Sequence[Any], opens: Callable[[Any], str | None], *, first: str | None = None) -> Chapters:
    """A chapter after each entry for which ``opens(entry)`` names a kind (``auction``, ``round``,
    ``deal``, ``season``, ``trade``): that entry opens it, and its step shows it opened. ``first``:
    the kind of a chapter that opens before any entry (a game's first deal or season)."""
    out: Chapters = []
    count: dict[str, int] = {}
    if first is not None:
        count[first] = 1
        out.append((Msg(f"app.past.chapter.{first}", {"n": 1}), 0))
    for i, entry in enumerate(entries):
        kind = opens(entry)
        if kind is not None:
            count[kind] = count.get(kind, 0) + 1
            out.append((Msg(f"app.past.chapter.{kind}", {"n": count[kind]}), i + 1))
    return out
