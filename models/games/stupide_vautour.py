"""Stupide Vautour (spec §4.2)."""

from typing import Mapping

from models.game_spec import GameSpec, RuleSpec, VariantSpec

SV_POINT_CARDS = tuple(range(1, 11)) + tuple(range(-1, -6, -1))
SV_HAND = tuple(range(1, 16))

# The rules reference, in the rulebook's order: the set-up, the cards, a round, the end.
RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("SV-PLAYERS", "setup"),
    RuleSpec("SV-NO-SUCH-CARD", "cards", refusal=True),
    RuleSpec("SV-REVEAL-REPEAT", "cards", refusal=True),
    RuleSpec("SV-REVEAL-OPEN", "round", refusal=True),
    RuleSpec("SV-PLAY-NO-REVEAL", "round", refusal=True),
    RuleSpec("SV-PLAY-PLAYERS", "round", refusal=True),
    RuleSpec("SV-PLAY-USED", "round", refusal=True),
    RuleSpec("SV-AWARD", "round"),
    RuleSpec("SV-TIES", "round", variant="ties"),
    RuleSpec("SV-CARRY", "round"),
    RuleSpec("SV-GAME-OVER", "end", refusal=True),
    RuleSpec("SV-END", "end"),
    RuleSpec("SV-END-TIE", "end", ruling=True),
)
# Readings the rulebook rules out (no text of these rules may offer one; see Engine.excluded_readings).
EXCLUDED_READINGS: Mapping[str, tuple[str, ...]] = {
    # « S'il y a encore égalité au score, la carte Points ne peut pas être attribuée »: the rulebook's
    # rule; highest-unique (« Valeur unique ») departs from it (a house variant), it is not its other reading
    "SV-TIES": (r"(other reading|autre lecture)[^.]*(highest-unique|valeur unique|unique value)",),
    # the player with the second best score wins: going further down the scores is not a reading
    "SV-END": (r"keep going down|descendrai?t? jusqu", r"third best|troisième meilleur"),
    "SV-END-TIE": (r"keep going down|descendrai?t? jusqu", r"third best|troisième meilleur"),
}
VARIANTS = (VariantSpec("ties", ("one-level", "highest-unique"), "one-level",
                        {"one-level": "SV-TIES", "highest-unique": "SV-TIES"}, house=("highest-unique",)),)

STUPIDE_VAUTOUR = GameSpec(
    id="stupide-vautour", players=(2, 5), engine="scoring.stupide_vautour:StupideVautourEngine",
    screen="companion.app.games.stupide_vautour", rule_prefix="SV-", record_model="StupideVautourRecord",
    actions="SVAction", action_models="models.games.stupide_vautour_actions",
    action_structs="models.games.stupide_vautour_structs", cards={"points": SV_POINT_CARDS, "hand": SV_HAND},
    rule_specs=RULE_SPECS, variants=VARIANTS, excluded_readings=EXCLUDED_READINGS)
