"""Boursicocotte (spec §4.3): the pydantic models of its actions and of its record's
``start_animals``, the declaration ``models/games/boursicocotte_structs.py`` is generated from
(``python -m models.schema``)."""

from typing import Annotated, Literal, Union

from pydantic import Field

from models.games.boursicocotte import BC_MONEY
from models.record_types import PlayerName, RecordShape, Strict, WholeNumbers

BCAnimal = Literal["hen", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse"]
BCMoney = Annotated[int, WholeNumbers(BC_MONEY)]


class BCDraw(Strict):
    type: Literal["draw"]
    card: BCAnimal


class BCBid(Strict):
    type: Literal["bid"]
    player: PlayerName
    amount: int


class BCClose(Strict):
    type: Literal["close"]
    buy_back: bool


class BCPay(Strict):
    type: Literal["pay"]
    player: PlayerName
    cards: list[BCMoney]


class BCCannotPay(Strict):
    type: Literal["cannot_pay"]
    player: PlayerName


class BCChallenge(Strict):
    type: Literal["challenge"]
    player: PlayerName
    target: PlayerName
    animal: BCAnimal
    cards: list[BCMoney]


class BCAccept(Strict):
    type: Literal["accept"]
    player: PlayerName


class BCCounter(Strict):
    type: Literal["counter"]
    player: PlayerName
    cards: list[BCMoney]


BCAction = Annotated[
    Union[BCDraw, BCBid, BCClose, BCPay, BCCannotPay, BCChallenge, BCAccept, BCCounter],
    Field(discriminator="type"),
]

RECORD = RecordShape(variant="BCVariant", fields={"start_animals": (dict[PlayerName, list[BCAnimal]] | None, None)})
