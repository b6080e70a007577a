"""Animalia (spec §4.4): its cards, and the checks of its rows (with 2 players each player has two)."""

from typing import Any

from models.game_spec import GameSpec, RuleSpec, VariantSpec
from models.malformed import at, bad

ANI_FAMILIES = ("cat", "horse", "dog", "rabbit", "parrot")
ANI_MEMBERS = ("champion", "dandy", "cute", "scruffy", "thief", "spy", "prankster")
ANI_CARDS = tuple(f"{f}-{m}" for f in ANI_FAMILIES for m in ANI_MEMBERS) + ("owl",)


def check_elegance(record: Any) -> None:
    """The elegance prize per player exists only with 2 players."""
    if getattr(record.variant, "elegance", None) == "player" and len(record.players) != 2:
        raise bad("ani_elegance_player", count=len(record.players))


def check_rows(action: Any, players: int, index: int | None) -> None:
    """With 2 players every ``row`` field the spec shows is required; with more it is refused.

    The spy moves no card, so its ``power`` action carries no ``row`` (§4.4), also with 2 players; a
    ``row`` written anyway with 2 players is accepted and ignored (records the app saved before
    wrote one), and refused with more players like every ``row``."""
    kind = action.type
    fields: tuple[str, ...] = {"take": ("row",), "cover": ("row",), "medals": ("row",)}.get(kind, ())
    optional: tuple[str, ...] = ()
    if kind == "power":
        if action.power == "spy":
            fields, optional = (), ("row",)
        else:
            fields = ("row",) + (("from_row",) if action.from_ is not None else ()) + (
                ("to_row",) if action.to is not None else ())
        for name in ("row", "from_row", "to_row"):
            if name not in fields + optional and getattr(action, name) is not None:
                raise bad("ani_row_stray", index, where=at(index, name))
    for name in fields + optional:
        given = getattr(action, name) is not None
        if players == 2 and not given and name not in optional:
            raise bad("ani_row_required", index, where=at(index, name))
        if players != 2 and given:
            raise bad("ani_row_refused", index, where=at(index, name), count=players)


RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("ANI-PLAYERS", "setup"),
    RuleSpec("ANI-SETUP-CUTE", "setup", refusal=True),
    RuleSpec("ANI-NOT-IN-DECK", "setup", refusal=True),
    RuleSpec("ANI-PHASE", "phase1", refusal=True),
    RuleSpec("ANI-DEAL", "phase1"),
    RuleSpec("ANI-TURN", "phase1", refusal=True),
    RuleSpec("ANI-FULL", "phase1", refusal=True),
    RuleSpec("ANI-SKIP", "phase1"),
    RuleSpec("ANI-FORCED-TAKE", "phase1", refusal=True),
    RuleSpec("ANI-LAST", "phase1", refusal=True, adds_ruling=True),
    RuleSpec("ANI-PHASE1-END", "phase1"),
    RuleSpec("ANI-DECK-OUT", "phase1", ruling=True),
    RuleSpec("ANI-POWERS", "powers"),
    RuleSpec("ANI-POWER-TEXTS", "powers", ruling=True),
    RuleSpec("ANI-POWER-ONCE", "powers", ruling=True),
    RuleSpec("ANI-POWER-NOW", "powers", refusal=True),
    RuleSpec("ANI-POWER-NOT-ACTIVE", "powers", refusal=True),
    RuleSpec("ANI-POWER-MOVE", "powers", refusal=True, ruling=True),
    RuleSpec("ANI-POWER-OWN", "powers", refusal=True),
    RuleSpec("ANI-POWER-CARD", "powers", refusal=True),
    RuleSpec("ANI-POWER-ROOM", "powers", refusal=True, ruling=True),
    RuleSpec("ANI-POWER-GIVE-ROOM", "powers", refusal=True, ruling=True),
    RuleSpec("ANI-ROBBED", "powers"),
    RuleSpec("ANI-ELEGANCE", "phase2"),
    RuleSpec("ANI-PRIZE", "phase2"),
    RuleSpec("ANI-BONUS-ORDER", "phase2", refusal=True, ruling=True),
    RuleSpec("ANI-MEDALS", "phase3"),
    RuleSpec("ANI-OWL", "phase3"),
    RuleSpec("ANI-COVER", "phase3"),
    RuleSpec("ANI-COVER-AGAIN", "phase3", ruling=True),
    RuleSpec("ANI-COVER-BONUS", "phase3", refusal=True),
    RuleSpec("ANI-COVER-CARD", "phase3", refusal=True),
    RuleSpec("ANI-MEDALS-DONE", "phase3", refusal=True),
    RuleSpec("ANI-MEDALS-CHOICE", "phase3", refusal=True),
    RuleSpec("ANI-SEASON", "season"),
    RuleSpec("ANI-EXCELLENCE", "end"),
    RuleSpec("ANI-TIE", "end"),
    RuleSpec("ANI-OVER", "end", refusal=True),
    RuleSpec("ANI-TWO-ROWS", "two"),
    RuleSpec("ANI-POWER-ROW", "two", refusal=True, ruling=True),
    RuleSpec("ANI-FORCED-ROWS", "two", refusal=True, ruling=True),
    RuleSpec("ANI-ELEGANCE-ROWS", "two", ruling=True, variant="elegance"),
    RuleSpec("ANI-ELEGANCE-PLAYER", "two", ruling=True, variant="elegance"),
)
VARIANTS = (
    VariantSpec("elegance", ("collection", "player"), "collection",
                {"collection": "ANI-ELEGANCE-ROWS", "player": "ANI-ELEGANCE-PLAYER"}, players=(2,)),
)

# readings the rulebook rules out (« une collection ne peut en aucun cas excéder 5 animaux »):
# no text of these rules may offer them
EXCLUDED_READINGS = {
    "ANI-POWER-ROOM": (r"dépasser 5", r"(go|goes|going) over 5", r"exceed 5"),
    "ANI-POWER-GIVE-ROOM": (r"dépasser 5", r"(go|goes|going) over 5", r"exceed 5"),
}

ANIMALIA = GameSpec(
    id="animalia", players=(2, 6), engine="scoring.animalia:AnimaliaEngine",
    screen="companion.app.games.animalia", rule_prefix="ANI-", record_model="AnimaliaRecord",
    actions="ANIAction", action_models="models.games.animalia_actions",
    action_structs="models.games.animalia_structs", cards={"cards": ANI_CARDS, "families": ANI_FAMILIES},
    rule_specs=RULE_SPECS, variants=VARIANTS, excluded_readings=EXCLUDED_READINGS,
    check_record=check_elegance, check_action=check_rows)
