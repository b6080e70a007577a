"""Boursicocotte (spec §4.3)."""

from typing import Any

from models.game_spec import GameSpec
from models.malformed import bad

BC_ANIMAL_VALUES = {
    "hen": 10, "goose": 40, "cat": 90, "dog": 160, "sheep": 250,
    "goat": 350, "donkey": 500, "pig": 650, "cow": 800, "horse": 1000,
}
BC_MONEY = (0, 10, 50, 100, 200, 500)


def check_start(record: Any) -> None:
    """The short version's dealt start: 4 animals for each player at the table, 4 cards of an animal at most."""
    players = record.players
    start = getattr(record, "start_animals", None)
    if start is not None:
        for name, animals in start.items():
            if name not in players:
                raise bad("start_player", name=repr(name))
            if len(animals) != 4:
                raise bad("start_count", name=name, count=len(animals))
        missing = [n for n in players if n not in start]
        if missing:
            raise bad("start_missing", names=missing)
        dealt: dict[str, int] = {}
        for animals in start.values():
            for animal in animals:
                dealt[animal] = dealt.get(animal, 0) + 1
                if dealt[animal] > 4:
                    raise bad("start_too_many", animal=animal)


BOURSICOCOTTE = GameSpec(
    id="boursicocotte", players=(3, 5), engine="scoring.boursicocotte:BoursicocotteEngine",
    screen="companion.app.games.boursicocotte", rule_prefix="BC-", record_model="BoursicocotteRecord",
    actions="BCAction", cards={"animals": tuple(BC_ANIMAL_VALUES), "money": BC_MONEY},
    check_record=check_start)
