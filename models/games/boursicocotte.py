"""Boursicocotte (spec §4.3)."""

from typing import Any, Mapping

from models.game_spec import GameSpec, RuleSpec, VariantSpec
from models.malformed import bad

BC_ANIMAL_VALUES = {
    "hen": 10, "goose": 40, "cat": 90, "dog": 160, "sheep": 250,
    "goat": 350, "donkey": 500, "pig": 650, "cow": 800, "horse": 1000,
}
BC_MONEY = (0, 10, 50, 100, 200, 500)


def check_start(record: Any) -> None:
    """The short version's dealt start: 4 animals for each player at the table, 4 cards of an animal at most."""
    players, start = record.players, getattr(record, "start_animals", None)
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


# The rules reference, in the rulebook's order: a turn, the auction, paying, trades, the end.
# ``refusal``: the engine refuses actions with it; ``ruling``: the app's ruling where the rulebook
# is silent (its text names the other reading); ``adds_ruling``: the rulebook's rule, with the app's
# ruling where it stops beside it; ``variant``: the variant key that changes it.
RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("BC-PLAYERS", "setup"),
    RuleSpec("BC-START-MONEY", "setup"),
    RuleSpec("BC-TURN", "turn", refusal=True),
    RuleSpec("BC-DECK-EMPTY", "turn", refusal=True),
    RuleSpec("BC-DRAW-GONE", "turn", refusal=True),
    RuleSpec("BC-DONKEY", "auction"),
    RuleSpec("BC-NO-AUCTION", "auction", refusal=True),
    RuleSpec("BC-AUCTION-OPEN", "auction", refusal=True),
    RuleSpec("BC-BID-AUCTIONEER", "auction", refusal=True),
    RuleSpec("BC-BID-POSITIVE", "auction", refusal=True),
    RuleSpec("BC-BID-RAISE", "auction", refusal=True),
    RuleSpec("BC-CLOSE-NO-BID", "auction", refusal=True),
    RuleSpec("BC-NO-DEBT", "payment", refusal=True),
    RuleSpec("BC-PAYMENT-DUE", "payment", refusal=True),
    RuleSpec("BC-PAYER", "payment", refusal=True),
    RuleSpec("BC-CARDS-MISSING", "payment", refusal=True),
    RuleSpec("BC-PAY-SHORT", "payment", refusal=True),
    RuleSpec("BC-OVERPAY", "payment", refusal=True, variant="payment"),
    RuleSpec("BC-CAN-PAY", "payment", refusal=True),
    RuleSpec("BC-BID-EXCLUDED", "payment", refusal=True, ruling=True),
    RuleSpec("BC-BUYBACK-LOST", "payment", refusal=True, ruling=True),
    RuleSpec("BC-NO-MONEY", "payment", refusal=True),
    RuleSpec("BC-CHALLENGE-SELF", "trade", refusal=True),
    RuleSpec("BC-CHALLENGE-COMPLETE", "trade", refusal=True),
    RuleSpec("BC-CHALLENGE-OWN", "trade", refusal=True),
    RuleSpec("BC-CHALLENGE-TARGET", "trade", refusal=True),
    RuleSpec("BC-OFFER-EMPTY", "trade", refusal=True, ruling=True),
    RuleSpec("BC-NO-TRADE", "trade", refusal=True),
    RuleSpec("BC-TRADE-OPEN", "trade", refusal=True),
    RuleSpec("BC-ANSWER", "trade", refusal=True),
    RuleSpec("BC-TRADE", "trade"),
    RuleSpec("BC-RECHALLENGE", "trade", refusal=True),
    RuleSpec("BC-TRADE-TIE", "trade", variant="trade_tie"),
    RuleSpec("BC-SKIP", "end", adds_ruling=True),
    RuleSpec("BC-END", "end", adds_ruling=True),
    RuleSpec("BC-OVER", "end", refusal=True),
    RuleSpec("BC-SCORE", "end", adds_ruling=True),
)
# Readings the rulebook rules out (no text of these rules may offer one; see Engine.excluded_readings).
EXCLUDED_READINGS: Mapping[str, tuple[str, ...]] = {
    # « Les cartes d'argent restantes n'ont plus aucune valeur »: money left breaks no tie
    "BC-SCORE": (r"\bby (the )?money\b", r"par l'argent", r"most money|plus d'argent"),
    # « si vous ne pouvez pas payer exactement … »: paying more when the exact sum is in hand is a
    # house variant, not the rulebook's silence
    "BC-OVERPAY": (r"does not say whether a player who could pay the exact", r"ne dit pas si l'on peut payer plus",
                   r"other reading|autre lecture"),
    # the offers are swapped before they are counted: taking one's offer back is a house variant
    "BC-TRADE-TIE": (r"(other reading|alternative reading|autre lecture)[^.]*returned",),
    # « Si un joueur découvre qu'il ne peut pas payer … »: the rulebook's rule, a claim by a player who
    # can pay restarts nothing (no other reading)
    "BC-CAN-PAY": (r"other reading|autre lecture", r"rather than letting|au lieu de laisser"),
    # the minimum of one card is the app's: no text calls it the rulebook's
    "BC-END": (r"rule that an offer has at least one card", r"règle d'au moins une carte"),
}
VARIANTS = (VariantSpec("trade_tie", ("exchanged", "returned"), "exchanged",
                        {"exchanged": "BC-TRADE-TIE", "returned": "BC-TRADE-TIE"}, house=("returned",)),
            VariantSpec("payment", ("exact", "any"), "exact",
                        {"exact": "BC-OVERPAY", "any": "BC-OVERPAY"}, house=("any",)))

BOURSICOCOTTE = GameSpec(
    id="boursicocotte", players=(3, 5), engine="scoring.boursicocotte:BoursicocotteEngine",
    screen="companion.app.games.boursicocotte", rule_prefix="BC-", record_model="BoursicocotteRecord",
    actions="BCAction", action_models="models.games.boursicocotte_actions",
    action_structs="models.games.boursicocotte_structs", cards={"animals": tuple(BC_ANIMAL_VALUES), "money": BC_MONEY, "start": tuple(BC_ANIMAL_VALUES)},
    check_record=check_start,
    rule_specs=RULE_SPECS, variants=VARIANTS, excluded_readings=EXCLUDED_READINGS)
