"""High card (the tests' game): each player holds the cards 1 to 5; each round every player reveals
one card, together, and the highest card takes the round; equal highest cards make a battle, where
the tied players reveal one more card each (or, a house variant, nobody takes the round). The game ends when a player's hand is empty; who took
the most rounds wins. Its spec, as ``models/games/<game>.py`` declares a game of the app."""

from models.game_spec import GameSpec, RuleSpec, VariantSpec

HC_HAND = (1, 2, 3, 4, 5)

# The rules reference, in the rules' order: the set-up, a round, the end.
RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("HC-PLAYERS", "setup"),
    RuleSpec("HC-HAND", "setup"),
    RuleSpec("HC-REVEAL-ALL", "round", refusal=True),
    RuleSpec("HC-CARD-USED", "round", refusal=True),
    RuleSpec("HC-HIGHEST", "round"),
    RuleSpec("HC-BATTLE", "round", refusal=True, variant="ties"),
    RuleSpec("HC-BATTLE-SHORT", "round", ruling=True),
    RuleSpec("HC-GAME-OVER", "end", refusal=True),
    RuleSpec("HC-END", "end"),
)

# equal highest cards: a battle (the rule), or the round to nobody (a house variant, quicker)
VARIANTS = (VariantSpec("ties", ("battle", "nobody"), "battle", {"battle": "HC-BATTLE", "nobody": "HC-BATTLE"},
                        house=("nobody",)),)

HIGH_CARD = GameSpec(
    id="high-card", players=(2, 5), engine="tests.high_card.engine:HighCardEngine",
    screen="tests.high_card.screen", rule_prefix="HC-", record_model="HighCardRecord",
    actions="HCAction", action_models="tests.high_card.actions", action_structs="tests.high_card.structs",
    cards={"hand": HC_HAND}, rule_specs=RULE_SPECS, variants=VARIANTS)
