"""Stupide Vautour (spec §4.2): the pydantic models of its actions, the declaration
``models/games/stupide_vautour_structs.py`` is generated from (``python -m models.schema``)."""

from typing import Annotated, Literal, Union

from pydantic import Field

from models.games.stupide_vautour import SV_HAND, SV_POINT_CARDS
from models.record_types import PlayerName, RecordShape, Strict, WholeNumbers

SVPointCard = Annotated[int, WholeNumbers(SV_POINT_CARDS)]
SVHandCard = Annotated[int, WholeNumbers(SV_HAND)]


class SVReveal(Strict):
    type: Literal["reveal"]
    card: SVPointCard


class SVPlay(Strict):
    type: Literal["play"]
    cards: dict[PlayerName, SVHandCard]


SVAction = Annotated[Union[SVReveal, SVPlay], Field(discriminator="type")]

RECORD = RecordShape(variant="SVVariant")
