"""Formatting helpers that turn values into what a player reads (through the catalogues)."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any, Iterable, Protocol

from models.i18n import Msg, format_number, render


class Speaker(Protocol):
    """Whatever writes in the table's language: the app, or a game screen's TableContext."""
    lang: str

    def t(self, key: str, **params: Any) -> str: ...

    def say(self, message: Msg) -> str: ...


def when(app: Speaker, moment: datetime | str | None) -> str:
    """A date and time as the table's language writes it."""
    if moment is None:
        return app.t("app.common.unknown")
    if isinstance(moment, str):
        written = moment
        try:
            moment = datetime.fromisoformat(written)
        except ValueError:
            return written
    if moment.tzinfo is not None:
        moment = moment.astimezone()  # the table's local time
    return app.t("app.format.datetime", day=f"{moment.day:02d}", month=f"{moment.month:02d}",
                 year=moment.year, hour=f"{moment.hour:02d}", minute=f"{moment.minute:02d}")


def day(app: Speaker, moment: datetime | None) -> str:
    if moment is None:
        return app.t("app.common.unknown")
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return app.t("app.format.date", day=f"{moment.day:02d}", month=f"{moment.month:02d}", year=moment.year)


def names(app: Speaker, players: Iterable[str]) -> str:
    """Player names joined as a sentence ("A, B and C")."""
    players = list(players)
    if not players:
        return app.t("list.none")
    if len(players) == 1:
        return players[0]
    return render(Msg("list.and", {"head": ", ".join(players[:-1]), "last": players[-1]}), app.lang)


def number(app: Speaker, value: Any) -> str:
    """A score or amount, exact (3.5 / 3,5), never rounded."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return format_number(value, app.lang)


def percent(app: Speaker, ratio: float | Fraction | None) -> str:
    if ratio is None:
        return app.t("app.common.none")
    return app.t("app.format.percent", value=round(float(ratio) * 100))
