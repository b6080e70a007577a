# ruff: noqa: E501
"""GENERATED from the pydantic models of models/record_models.py by `python -m models.schema`: do
not edit (a test fails when it is stale). The msgspec structs ``models.record`` parses valid records
and actions into, and the verdict's; bases and variant structs in ``models/structs_base.py``."""

from typing import Annotated, ClassVar, Literal

import msgspec

from models.games import SPECS
from models.structs_base import Action, ActionWithoutNones, Output, Record, Variant

PlayerName = Annotated[str, msgspec.Meta(min_length=1)]


class HSReveal(Action, tag='reveal', kw_only=True, frozen=True):
    type: ClassVar[str] = 'reveal'
    card: Literal['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'x2', 'half', 'minus5', 'theft']


class HSBid(Action, tag='bid', kw_only=True, frozen=True):
    type: ClassVar[str] = 'bid'
    named_one = ('player',)
    player: PlayerName
    add: list[Literal[1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25]]


class HSPass(Action, tag='pass', kw_only=True, frozen=True):
    type: ClassVar[str] = 'pass'
    named_one = ('player',)
    player: PlayerName


class HSDiscard(Action, tag='discard', kw_only=True, frozen=True):
    type: ClassVar[str] = 'discard'
    named_one = ('player',)
    player: PlayerName
    card: Literal['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'x2', 'half', 'minus5', 'theft']


HSAction = HSReveal | HSBid | HSPass | HSDiscard


class SVReveal(Action, tag='reveal', kw_only=True, frozen=True):
    type: ClassVar[str] = 'reveal'
    card: Literal[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1, -2, -3, -4, -5]


class SVPlay(Action, tag='play', kw_only=True, frozen=True):
    type: ClassVar[str] = 'play'
    named_many = ('cards',)
    cards: dict[PlayerName, Literal[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]


SVAction = SVReveal | SVPlay


class ANIDraw(ActionWithoutNones, tag='draw', kw_only=True, frozen=True):
    type: ClassVar[str] = 'draw'
    card: Literal['cat-champion', 'cat-dandy', 'cat-cute', 'cat-scruffy', 'cat-thief', 'cat-spy', 'cat-prankster', 'horse-champion', 'horse-dandy', 'horse-cute', 'horse-scruffy', 'horse-thief', 'horse-spy', 'horse-prankster', 'dog-champion', 'dog-dandy', 'dog-cute', 'dog-scruffy', 'dog-thief', 'dog-spy', 'dog-prankster', 'rabbit-champion', 'rabbit-dandy', 'rabbit-cute', 'rabbit-scruffy', 'rabbit-thief', 'rabbit-spy', 'rabbit-prankster', 'parrot-champion', 'parrot-dandy', 'parrot-cute', 'parrot-scruffy', 'parrot-thief', 'parrot-spy', 'parrot-prankster', 'owl']


class ANITake(ActionWithoutNones, tag='take', kw_only=True, frozen=True):
    type: ClassVar[str] = 'take'
    named_one = ('player',)
    player: PlayerName
    row: Literal[0, 1] | None = None


class ANIPass(ActionWithoutNones, tag='pass', kw_only=True, frozen=True):
    type: ClassVar[str] = 'pass'
    named_one = ('player',)
    player: PlayerName


class ANIPowerUse(ActionWithoutNones, tag='power', kw_only=True, frozen=True):
    type: ClassVar[str] = 'power'
    named_one = ('player', 'from_', 'to')
    player: PlayerName
    power: Literal['thief', 'spy', 'prankster']
    card: Literal['cat-champion', 'cat-dandy', 'cat-cute', 'cat-scruffy', 'cat-thief', 'cat-spy', 'cat-prankster', 'horse-champion', 'horse-dandy', 'horse-cute', 'horse-scruffy', 'horse-thief', 'horse-spy', 'horse-prankster', 'dog-champion', 'dog-dandy', 'dog-cute', 'dog-scruffy', 'dog-thief', 'dog-spy', 'dog-prankster', 'rabbit-champion', 'rabbit-dandy', 'rabbit-cute', 'rabbit-scruffy', 'rabbit-thief', 'rabbit-spy', 'rabbit-prankster', 'parrot-champion', 'parrot-dandy', 'parrot-cute', 'parrot-scruffy', 'parrot-thief', 'parrot-spy', 'parrot-prankster', 'owl'] | None = None
    from_: PlayerName | None = msgspec.field(default=None, name='from')
    from_row: Literal[0, 1] | None = None
    to: PlayerName | None = None
    to_row: Literal[0, 1] | None = None
    row: Literal[0, 1] | None = None


class ANIRenounce(ActionWithoutNones, tag='renounce', kw_only=True, frozen=True):
    type: ClassVar[str] = 'renounce'
    named_one = ('player',)
    player: PlayerName
    power: Literal['thief', 'spy', 'prankster']


class ANIBonus(ActionWithoutNones, tag='bonus', kw_only=True, frozen=True):
    type: ClassVar[str] = 'bonus'
    named_one = ('player',)
    player: PlayerName
    card: Literal['cat-champion', 'cat-dandy', 'cat-cute', 'cat-scruffy', 'cat-thief', 'cat-spy', 'cat-prankster', 'horse-champion', 'horse-dandy', 'horse-cute', 'horse-scruffy', 'horse-thief', 'horse-spy', 'horse-prankster', 'dog-champion', 'dog-dandy', 'dog-cute', 'dog-scruffy', 'dog-thief', 'dog-spy', 'dog-prankster', 'rabbit-champion', 'rabbit-dandy', 'rabbit-cute', 'rabbit-scruffy', 'rabbit-thief', 'rabbit-spy', 'rabbit-prankster', 'parrot-champion', 'parrot-dandy', 'parrot-cute', 'parrot-scruffy', 'parrot-thief', 'parrot-spy', 'parrot-prankster', 'owl']


class ANICover(ActionWithoutNones, tag='cover', kw_only=True, frozen=True):
    type: ClassVar[str] = 'cover'
    named_one = ('player',)
    player: PlayerName
    bonus: Literal['cat-champion', 'cat-dandy', 'cat-cute', 'cat-scruffy', 'cat-thief', 'cat-spy', 'cat-prankster', 'horse-champion', 'horse-dandy', 'horse-cute', 'horse-scruffy', 'horse-thief', 'horse-spy', 'horse-prankster', 'dog-champion', 'dog-dandy', 'dog-cute', 'dog-scruffy', 'dog-thief', 'dog-spy', 'dog-prankster', 'rabbit-champion', 'rabbit-dandy', 'rabbit-cute', 'rabbit-scruffy', 'rabbit-thief', 'rabbit-spy', 'rabbit-prankster', 'parrot-champion', 'parrot-dandy', 'parrot-cute', 'parrot-scruffy', 'parrot-thief', 'parrot-spy', 'parrot-prankster', 'owl']
    card: Literal['cat-champion', 'cat-dandy', 'cat-cute', 'cat-scruffy', 'cat-thief', 'cat-spy', 'cat-prankster', 'horse-champion', 'horse-dandy', 'horse-cute', 'horse-scruffy', 'horse-thief', 'horse-spy', 'horse-prankster', 'dog-champion', 'dog-dandy', 'dog-cute', 'dog-scruffy', 'dog-thief', 'dog-spy', 'dog-prankster', 'rabbit-champion', 'rabbit-dandy', 'rabbit-cute', 'rabbit-scruffy', 'rabbit-thief', 'rabbit-spy', 'rabbit-prankster', 'parrot-champion', 'parrot-dandy', 'parrot-cute', 'parrot-scruffy', 'parrot-thief', 'parrot-spy', 'parrot-prankster', 'owl']
    row: Literal[0, 1] | None = None


class ANIMedals(ActionWithoutNones, tag='medals', kw_only=True, frozen=True):
    type: ClassVar[str] = 'medals'
    named_one = ('player',)
    player: PlayerName
    medals: dict[Literal['cat', 'horse', 'dog', 'rabbit', 'parrot'], Annotated[int, msgspec.Meta(ge=0)]]
    row: Literal[0, 1] | None = None


ANIAction = ANIDraw | ANITake | ANIPass | ANIPowerUse | ANIRenounce | ANIBonus | ANICover | ANIMedals


class BCDraw(Action, tag='draw', kw_only=True, frozen=True):
    type: ClassVar[str] = 'draw'
    card: Literal['hen', 'goose', 'cat', 'dog', 'sheep', 'goat', 'donkey', 'pig', 'cow', 'horse']


class BCBid(Action, tag='bid', kw_only=True, frozen=True):
    type: ClassVar[str] = 'bid'
    named_one = ('player',)
    player: PlayerName
    amount: int


class BCClose(Action, tag='close', kw_only=True, frozen=True):
    type: ClassVar[str] = 'close'
    buy_back: bool


class BCPay(Action, tag='pay', kw_only=True, frozen=True):
    type: ClassVar[str] = 'pay'
    named_one = ('player',)
    player: PlayerName
    cards: list[Literal[0, 10, 50, 100, 200, 500]]


class BCCannotPay(Action, tag='cannot_pay', kw_only=True, frozen=True):
    type: ClassVar[str] = 'cannot_pay'
    named_one = ('player',)
    player: PlayerName


class BCChallenge(Action, tag='challenge', kw_only=True, frozen=True):
    type: ClassVar[str] = 'challenge'
    named_one = ('player', 'target')
    player: PlayerName
    target: PlayerName
    animal: Literal['hen', 'goose', 'cat', 'dog', 'sheep', 'goat', 'donkey', 'pig', 'cow', 'horse']
    cards: list[Literal[0, 10, 50, 100, 200, 500]]


class BCAccept(Action, tag='accept', kw_only=True, frozen=True):
    type: ClassVar[str] = 'accept'
    named_one = ('player',)
    player: PlayerName


class BCCounter(Action, tag='counter', kw_only=True, frozen=True):
    type: ClassVar[str] = 'counter'
    named_one = ('player',)
    player: PlayerName
    cards: list[Literal[0, 10, 50, 100, 200, 500]]


BCAction = BCDraw | BCBid | BCClose | BCPay | BCCannotPay | BCChallenge | BCAccept | BCCounter


class MDPlay(Action, tag='play', kw_only=True, frozen=True):
    type: ClassVar[str] = 'play'
    named_one = ('player',)
    player: PlayerName
    cards: Annotated[list[Literal['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'b10', 'b11', 'b12', 'b13', 'b14', 'b15', 'b16', 'b17', 'b18', 'b19', 'b20', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9', 'r10', 'r11', 'r12', 'r13', 'r14', 'r15', 'r16', 'r17', 'r18', 'r19', 'r20', 'y1-skip', 'y1-take', 'y1-pass', 'y1-chaos', 'y2-skip', 'y2-take', 'y2-pass', 'y2-chaos', 'y3-skip', 'y3-take', 'y3-pass', 'y3-chaos', 'y4-skip', 'y4-take', 'y4-pass', 'y4-chaos', 'y5-skip', 'y5-take', 'y5-pass', 'y5-chaos', 'y6-skip', 'y6-take', 'y6-pass', 'y6-chaos', 'y7-skip', 'y7-take', 'y7-pass', 'y7-chaos', 'y8-skip', 'y8-take', 'y8-pass', 'y8-chaos', 'y9-skip', 'y9-take', 'y9-pass', 'y9-chaos', 'y10-skip', 'y10-take', 'y10-pass', 'y10-chaos', 'y11-skip', 'y11-take', 'y11-pass', 'y11-chaos', 'y12-skip', 'y12-take', 'y12-pass', 'y12-chaos', 'y13-skip', 'y13-take', 'y13-pass', 'y13-chaos', 'y14-skip', 'y14-take', 'y14-pass', 'y14-chaos', 'y15-skip', 'y15-take', 'y15-pass', 'y15-chaos', 'y16-skip', 'y16-take', 'y16-pass', 'y16-chaos', 'y17-skip', 'y17-take', 'y17-pass', 'y17-chaos', 'y18-skip', 'y18-take', 'y18-pass', 'y18-chaos', 'y19-skip', 'y19-take', 'y19-pass', 'y19-chaos', 'y20-skip', 'y20-take', 'y20-pass', 'y20-chaos']], msgspec.Meta(min_length=1)]
    direction: Literal['up', 'down'] | None = None


class MDDraw(Action, tag='draw', kw_only=True, frozen=True):
    type: ClassVar[str] = 'draw'
    named_one = ('player',)
    player: PlayerName


class MDPass(Action, tag='pass', kw_only=True, frozen=True):
    type: ClassVar[str] = 'pass'
    named_one = ('player',)
    player: PlayerName


class MDTake(Action, tag='take', kw_only=True, frozen=True):
    type: ClassVar[str] = 'take'
    named_one = ('player',)
    named_many = ('from_',)
    player: PlayerName
    from_: list[PlayerName] = msgspec.field(name='from')
    count: Annotated[int, msgspec.Meta(ge=1)]


MDAction = MDPlay | MDDraw | MDPass | MDTake


class HighSocietyRecord(Record, kw_only=True, frozen=True):
    format: Literal['table-record/1']
    players: list[PlayerName]
    first_player: PlayerName | None = None
    game: Literal['high-society', 'animalement-votre']
    variant_of = ('high-society', 'HSVariant')
    variant: Variant = msgspec.field(default_factory=Variant)
    actions: list[HSAction]


class StupideVautourRecord(Record, kw_only=True, frozen=True):
    format: Literal['table-record/1']
    players: list[PlayerName]
    first_player: PlayerName | None = None
    game: Literal['stupide-vautour']
    variant_of = ('stupide-vautour', 'SVVariant')
    variant: Variant = msgspec.field(default_factory=Variant)
    actions: list[SVAction]


class AnimaliaRecord(Record, kw_only=True, frozen=True):
    format: Literal['table-record/1']
    players: list[PlayerName]
    first_player: PlayerName | None = None
    game: Literal['animalia']
    variant_of = ('animalia', 'ANIVariant')
    variant: Variant = msgspec.field(default_factory=Variant)
    actions: list[ANIAction]


class BoursicocotteRecord(Record, kw_only=True, frozen=True):
    format: Literal['table-record/1']
    players: list[PlayerName]
    first_player: PlayerName | None = None
    game: Literal['boursicocotte']
    variant_of = ('boursicocotte', 'BCVariant')
    variant: Variant = msgspec.field(default_factory=Variant)
    start_animals: dict[PlayerName, list[Literal['hen', 'goose', 'cat', 'dog', 'sheep', 'goat', 'donkey', 'pig', 'cow', 'horse']]] | None = None
    actions: list[BCAction]


class MonteDescendRecord(Record, kw_only=True, frozen=True):
    format: Literal['table-record/1']
    players: list[PlayerName]
    first_player: PlayerName | None = None
    game: Literal['monte-descend']
    variant_of = ('monte-descend', 'MDVariant')
    variant: Variant = msgspec.field(default_factory=Variant)
    actions: list[MDAction]


# game id -> its record struct and its action union, as each game's spec names them
RECORD_STRUCTS: dict[str, type[Record]] = {spec.id: globals()[spec.record_model] for spec in SPECS}
ACTION_STRUCTS: dict[str, object] = {spec.id: globals()[spec.actions] for spec in SPECS}


class VerdictError(Output, kw_only=True):
    index: int | None
    rule: str
    message: str


class RankEntry(Output, kw_only=True):
    player: str
    rank: int


class VerdictResult(Output, kw_only=True):
    scores: dict[str, int | float]
    eliminated: list[str]
    winners: list[str]
    replay_required: bool
    ranking: list[RankEntry]
    explanation: list[str]


class Verdict(Output, kw_only=True):
    format: Literal['table-verdict/1'] = 'table-verdict/1'
    game: str | None
    status: Literal['finished', 'in_progress', 'illegal']
    applied: int
    error: VerdictError | None
    result: VerdictResult | None
    line: Annotated[int, msgspec.Meta(ge=1)] | None = None
