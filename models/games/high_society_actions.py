"""High Society and Animalement Vôtre (spec §4.1): the pydantic models of their actions, the
declaration ``models/games/high_society_structs.py`` is generated from (``python -m models.schema``)."""

from typing import Annotated, Literal, Union

from pydantic import Field

from models.games.high_society import HS_MONEY
from models.record_types import PlayerName, RecordShape, Strict, WholeNumbers

HSCard = Literal["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "x2", "half", "minus5", "theft"]
HSMoney = Annotated[int, WholeNumbers(HS_MONEY)]


class HSReveal(Strict):
    type: Literal["reveal"]
    card: HSCard


class HSBid(Strict):
    type: Literal["bid"]
    player: PlayerName
    add: list[HSMoney]


class HSPass(Strict):
    type: Literal["pass"]
    player: PlayerName


class HSDiscard(Strict):
    type: Literal["discard"]
    player: PlayerName
    card: HSCard


HSAction = Annotated[Union[HSReveal, HSBid, HSPass, HSDiscard], Field(discriminator="type")]

RECORD = RecordShape(variant="HSVariant")
