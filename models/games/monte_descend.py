"""Monte & descend (spec §4.5)."""

from models.game_spec import GameSpec, RuleSpec, VariantSpec

MD_VALUES = tuple(range(1, 21))
MD_ACTIONS = ("skip", "take", "pass", "chaos")
MD_CARDS: tuple[str, ...] = (tuple(f"b{v}" for v in MD_VALUES) + tuple(f"r{v}" for v in MD_VALUES)
                             + tuple(f"y{v}-{a}" for v in MD_VALUES for a in MD_ACTIONS))
MD_DECK = 64      # cards in the game (how many of each kind is unknown: nothing depends on it)
MD_HAND = 7       # cards dealt to each player at the start of a deal

RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("MD-PLAYERS", "setup"),
    RuleSpec("MD-DECK", "setup"),
    RuleSpec("MD-HAND", "setup", refusal=True),
    RuleSpec("MD-FIRST-PLAYER", "turn"),
    RuleSpec("MD-TURN", "turn", refusal=True),
    RuleSpec("MD-UP", "cards", refusal=True),
    RuleSpec("MD-DOWN", "cards", refusal=True),
    RuleSpec("MD-SWITCH", "cards", refusal=True),
    RuleSpec("MD-FOLLOW-YELLOW", "cards"),
    RuleSpec("MD-YELLOW-SWITCH", "cards", ruling=True),
    RuleSpec("MD-YELLOW", "cards"),
    RuleSpec("MD-DIRECTION", "cards", refusal=True),
    RuleSpec("MD-SKIP", "actions"),
    RuleSpec("MD-SKIP-FREE", "actions", ruling=True),
    RuleSpec("MD-TAKE", "actions", refusal=True),
    RuleSpec("MD-TAKE-FIRST", "actions", refusal=True),
    RuleSpec("MD-TAKE-LAST", "actions"),
    RuleSpec("MD-TAKE-ORDER", "actions", ruling=True),
    RuleSpec("MD-PASS-CARDS", "actions"),
    RuleSpec("MD-CHAOS", "actions"),
    RuleSpec("MD-OUT-NO-ACTION", "actions"),
    RuleSpec("MD-DRAW", "play", refusal=True),
    RuleSpec("MD-DRAW-ONE", "play", refusal=True),
    RuleSpec("MD-PASS", "play", refusal=True),
    RuleSpec("MD-FREE", "play"),
    RuleSpec("MD-FREE-DIRECTION", "play", refusal=True, ruling=True),
    RuleSpec("MD-FIRST-CARD", "play", ruling=True),
    RuleSpec("MD-RESERVE", "play", ruling=True),
    RuleSpec("MD-SERIES", "series", refusal=True),
    RuleSpec("MD-SERIES-COLOUR", "series", refusal=True),
    RuleSpec("MD-ACTION-LAST", "series"),
    RuleSpec("MD-DEAL-POINTS", "end"),
    RuleSpec("MD-NEXT-START", "end", adds_ruling=True),
    RuleSpec("MD-MATCH-END", "end", variant="deals"),
    RuleSpec("MD-MATCH-OVER", "end", refusal=True),
    RuleSpec("MD-RANKING", "end", adds_ruling=True),
    RuleSpec("MD-STACK", "advanced", variant="take_stacking"),
    RuleSpec("MD-STACK-SERIES", "advanced", ruling=True),
)
# readings the rulebook rules out (tests/test_rules_reference_more.py): no text of the rule states one
EXCLUDED_READINGS = {
    # « si c'est une carte jaune qui termine la partie, alors évidemment l'action ne se fait pas »
    "MD-OUT-NO-ACTION": (r"autre lecture", r"other reading", r"ferait l'action", r"carry out its action",
                         r"action (?:a lieu|happens) (?:quand même|anyway)"),
    # « les joueurs se retrouveront avec le même nombre de cartes en main » (and the rest under the reserve)
    "MD-CHAOS": (r"autant de cartes qu'avant", r"as many cards as before", r"same counts", r"mêmes nombres"),
    # « doivent obligatoirement poser une carte bleue … / rouge … »: the value to follow holds after a yellow
    "MD-FOLLOW-YELLOW": (r"autre lecture", r"other reading", r"n'importe quelle carte de couleur",
                         r"any coloured card"),
    # « elles doivent être de la même couleur » and the 8 blue gave the series its direction (example 3)
    "MD-SERIES-COLOUR": (r"autre lecture", r"other reading", r"première carte de couleur décider",
                         r"first coloured card decide"),
}
VARIANTS = (
    VariantSpec("take_stacking", (False, True), False, {False: "MD-TAKE", True: "MD-STACK"}),
    VariantSpec("deals", None, None, {None: "MD-MATCH-END"}, minimum=1, per_player=2),
)

MONTE_DESCEND = GameSpec(
    id="monte-descend", players=(2, 6), engine="scoring.monte_descend:MonteDescendEngine",
    screen="companion.app.games.monte_descend", rule_prefix="MD-", record_model="MonteDescendRecord",
    actions="MDAction", action_models="models.games.monte_descend_actions",
    action_structs="models.games.monte_descend_structs", cards={"cards": MD_CARDS}, rule_specs=RULE_SPECS, variants=VARIANTS,
    excluded_readings=EXCLUDED_READINGS)
