"""Monte & descend (spec §4.5): the pydantic models of its actions, the declaration
``models/games/monte_descend_structs.py`` is generated from (``python -m models.schema``)."""

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import ConfigDict, Field

from models.games.monte_descend import MD_CARDS
from models.record_types import PlayerName, RecordShape, Strict, card_ids

if TYPE_CHECKING:  # a card id is a str to a type checker; pydantic validates the Literal
    MDCard = str
else:
    MDCard = card_ids(MD_CARDS)


class MDPlay(Strict):
    type: Literal["play"]
    player: PlayerName
    cards: Annotated[list[MDCard], Field(min_length=1)]
    direction: Literal["up", "down"] | None = None


class MDDraw(Strict):
    type: Literal["draw"]
    player: PlayerName


class MDPass(Strict):
    type: Literal["pass"]
    player: PlayerName


class MDTake(Strict):
    # "from" is a Python keyword: the field is ``from_`` in code, ``from`` in JSON both ways.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, serialize_by_alias=True)

    type: Literal["take"]
    player: PlayerName
    from_: list[PlayerName] = Field(alias="from")
    count: Annotated[int, Field(ge=1)]


MDAction = Annotated[MDPlay | MDDraw | MDPass | MDTake, Field(discriminator="type")]

RECORD = RecordShape(variant="MDVariant")
