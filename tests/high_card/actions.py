"""High card: the pydantic models of its actions, the declaration ``structs.py`` is generated from
(``COMPANION_GAMES=tests.high_card python -m models.schema``), as ``models/games/<game>_actions.py``."""

from typing import Annotated, Literal, Union

from pydantic import Field

from models.record_types import PlayerName, RecordShape, Strict, WholeNumbers
from tests.high_card.spec import HC_HAND

HCCard = Annotated[int, WholeNumbers(HC_HAND)]


class HCReveal(Strict):
    """A round: the card every player revealed, entered once all are face up."""

    type: Literal["reveal"]
    cards: dict[PlayerName, HCCard]


class HCBattle(Strict):
    """A battle: the card each player tied for the highest revealed next."""

    type: Literal["battle"]
    cards: dict[PlayerName, HCCard]


HCAction = Annotated[Union[HCReveal, HCBattle], Field(discriminator="type")]

RECORD = RecordShape(variant="HCVariant")
