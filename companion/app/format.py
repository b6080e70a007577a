"""Formatting helpers that turn values into what a player reads (through the catalogues)."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any, Iterable

from models.i18n import format_number


def when(app, moment: datetime | str | None) -> str:
    """A date and time as the table's language writes it."""
    if moment is None:
        return app.t("app.common.unknown")
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment)
        except ValueError:
            return moment
    if moment.tzinfo is not None:
        moment = moment.astimezone()  # the table's local time
    return app.t("app.format.datetime", day=f"{moment.day:02d}", month=f"{moment.month:02d}",
                 year=moment.year, hour=f"{moment.hour:02d}", minute=f"{moment.minute:02d}")


def day(app, moment: datetime | None) -> str:
    if moment is None:
        return app.t("app.common.unknown")
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return app.t("app.format.date", day=f"{moment.day:02d}", month=f"{moment.month:02d}", year=moment.year)


def names(app, players: Iterable[str]) -> str:
    """Player names joined as a sentence ("A, B and C")."""
    from models.i18n import Msg, render

    players = list(players)
    if not players:
        return app.t("list.none")
    if len(players) == 1:
        return players[0]
    return render(Msg("list.and", {"head": ", ".join(players[:-1]), "last": players[-1]}), app.lang)


def number(app, value: Any) -> str:
    """A score or amount, exact (3.5 / 3,5), never rounded."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return format_number(value, app.lang)


def percent(app, ratio: float | Fraction | None) -> str:
    if ratio is None:
        return app.t("app.common.none")
    return app.t("app.format.percent", value=round(float(ratio) * 100))


def plural(count: int, lang: str) -> str:
    """``one`` or ``many``: the last part of the catalogue key for ``count`` things, as the language
    says it (French: 0 and 1 take the singular, "1 saisie", "2 saisies"; English: only 1 does).
    Used as ``f"app.table.log.{plural(n, lang)}"``."""
    one = count in (0, 1) if lang == "fr" else count == 1
    return "one" if one else "many"
