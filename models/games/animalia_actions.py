"""Animalia (spec §4.4): the pydantic models of its actions, the declaration
``models/games/animalia_structs.py`` is generated from (``python -m models.schema``). Its optional
fields left out are not written back (``row`` exists only with 2 players)."""

from typing import Annotated, Literal

from pydantic import Field

from models.record_types import PlayerName, RecordShape, WholeNumbers, WithoutNones

ANICard = Literal[
    "cat-champion", "cat-dandy", "cat-cute", "cat-scruffy", "cat-thief", "cat-spy", "cat-prankster",
    "horse-champion", "horse-dandy", "horse-cute", "horse-scruffy", "horse-thief", "horse-spy", "horse-prankster",
    "dog-champion", "dog-dandy", "dog-cute", "dog-scruffy", "dog-thief", "dog-spy", "dog-prankster",
    "rabbit-champion", "rabbit-dandy", "rabbit-cute", "rabbit-scruffy", "rabbit-thief", "rabbit-spy",
    "rabbit-prankster",
    "parrot-champion", "parrot-dandy", "parrot-cute", "parrot-scruffy", "parrot-thief", "parrot-spy",
    "parrot-prankster",
    "owl",
]
ANIFamily = Literal["cat", "horse", "dog", "rabbit", "parrot"]
ANIPower = Literal["thief", "spy", "prankster"]
ANIRow = Annotated[int, WholeNumbers((0, 1))]


class ANIDraw(WithoutNones):
    type: Literal["draw"]
    card: ANICard


class ANITake(WithoutNones):
    type: Literal["take"]
    player: PlayerName
    row: ANIRow | None = None


class ANIPass(WithoutNones):
    type: Literal["pass"]
    player: PlayerName


class ANIPowerUse(WithoutNones):
    type: Literal["power"]
    player: PlayerName
    power: ANIPower
    card: ANICard | None = None
    from_: PlayerName | None = Field(default=None, alias="from")
    from_row: ANIRow | None = None
    to: PlayerName | None = None
    to_row: ANIRow | None = None
    row: ANIRow | None = None


class ANIRenounce(WithoutNones):
    type: Literal["renounce"]
    player: PlayerName
    power: ANIPower


class ANIBonus(WithoutNones):
    type: Literal["bonus"]
    player: PlayerName
    card: ANICard


class ANICover(WithoutNones):
    type: Literal["cover"]
    player: PlayerName
    bonus: ANICard
    card: ANICard
    row: ANIRow | None = None


class ANIMedals(WithoutNones):
    type: Literal["medals"]
    player: PlayerName
    medals: dict[ANIFamily, Annotated[int, Field(ge=0)]]
    row: ANIRow | None = None


ANIAction = Annotated[
    ANIDraw | ANITake | ANIPass | ANIPowerUse | ANIRenounce | ANIBonus | ANICover | ANIMedals,
    Field(discriminator="type"),
]

RECORD = RecordShape(variant="ANIVariant")
