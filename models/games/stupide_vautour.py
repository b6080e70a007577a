"""Stupide Vautour (spec §4.2)."""

from models.game_spec import GameSpec

SV_POINT_CARDS = tuple(range(1, 11)) + tuple(range(-1, -6, -1))
SV_HAND = tuple(range(1, 16))

STUPIDE_VAUTOUR = GameSpec(
    id="stupide-vautour", players=(2, 5), engine="scoring.stupide_vautour:StupideVautourEngine",
    screen="companion.app.games.stupide_vautour", rule_prefix="SV-", record_model="StupideVautourRecord",
    actions="SVAction", cards={"points": SV_POINT_CARDS, "hand": SV_HAND})
