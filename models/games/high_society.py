"""High Society and its edition Animalement Vôtre (spec §4.1): one engine, one screen, two game ids."""

from dataclasses import replace
from typing import Mapping

from models.game_spec import GameSpec, RuleSpec, VariantSpec

HS_STATUS_CARDS = tuple(f"p{n}" for n in range(1, 11)) + ("x2", "half", "minus5", "theft")
HS_MONEY = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)

# The rules reference, in the rulebook's order: the set-up, the cards, the auction, misfortunes and
# the theft, the end. ``refusal``: the engine refuses actions with it; ``ruling``: the app's ruling.
RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("HS-PLAYERS", "setup"),
    RuleSpec("HS-REVEAL-GONE", "cards", refusal=True),
    RuleSpec("HS-MONEY-DUPLICATE", "cards", refusal=True),
    RuleSpec("HS-AUCTION", "auction"),
    RuleSpec("HS-ROUND-OPEN", "auction", refusal=True),
    RuleSpec("HS-NO-ROUND", "auction", refusal=True),
    RuleSpec("HS-TURN", "auction", refusal=True),
    RuleSpec("HS-BID-EMPTY", "auction", refusal=True),
    RuleSpec("HS-MONEY-ON-TABLE", "auction", refusal=True),
    RuleSpec("HS-MONEY-SPENT", "auction", refusal=True),
    RuleSpec("HS-BID-RAISE", "auction", refusal=True),
    RuleSpec("HS-PASSED", "auction", refusal=True),
    RuleSpec("HS-FREE-CARD", "auction"),
    RuleSpec("HS-MISFORTUNE", "misfortune"),
    RuleSpec("HS-THEFT", "misfortune"),
    RuleSpec("HS-DISCARD-REQUIRED", "misfortune", refusal=True),
    RuleSpec("HS-DISCARD-NOT-DUE", "misfortune", refusal=True),
    RuleSpec("HS-DISCARD-CARD", "misfortune", refusal=True),
    RuleSpec("HS-END", "end"),
    RuleSpec("HS-GAME-OVER", "end", refusal=True),
    RuleSpec("HS-SCORE", "end"),
    RuleSpec("HS-SCORE-EXACT", "end", ruling=True),
    RuleSpec("HS-POOREST", "end"),
    RuleSpec("HS-FINAL-TIE", "end", variant="final_tie"),
)
# Readings the rulebooks rule out (no text of these rules may offer one; see Engine.excluded_readings).
EXCLUDED_READINGS: Mapping[str, tuple[str, ...]] = {
    # « le joueur (ou les joueurs) avec le moins d'argent est OUT » / « ils ont tous perdu »: every
    # player tied on least money is out, also when that is every player
    "HS-POOREST": (r"n'éliminerait\b.*personne", r"personne n'est éliminé", r"nobody (is )?out",
                   r"put nobody out"),
    # each edition states its final tie: neither offers the other edition's as its "other reading"
    "HS-FINAL-TIE": (r"(other reading|autre lecture)[^.]*(shared|partag|new game|nouvelle partie|rejouer|replay)",),
    # « la prochaine carte d'animal qu'il achètera »: any animal card, not only an animal 1 to 10
    "HS-THEFT": (r"next animal 1 to 10|prochain animal de 1 à 10",),
}
VARIANTS = (VariantSpec("final_tie", ("replay", "shared"), "replay",
                        {"replay": "HS-FINAL-TIE", "shared": "HS-FINAL-TIE"},
                        game_defaults={"high-society": "replay", "animalement-votre": "shared"},
                        game_house={"high-society": ("shared",), "animalement-votre": ("replay",)}),)

HIGH_SOCIETY = GameSpec(
    id="high-society", players=(3, 5), engine="scoring.high_society:HighSocietyEngine",
    screen="companion.app.games.high_society", rule_prefix="HS-", record_model="HighSocietyRecord",
    actions="HSAction", action_models="models.games.high_society_actions",
    action_structs="models.games.high_society_structs", cards={"status": HS_STATUS_CARDS, "money": HS_MONEY},
    rule_specs=RULE_SPECS, variants=VARIANTS, excluded_readings=EXCLUDED_READINGS, bgg_id=220)
ANIMALEMENT_VOTRE = replace(HIGH_SOCIETY, id="animalement-votre", bgg_id=None)
