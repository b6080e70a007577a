"""High Society and its edition Animalement Vôtre (spec §4.1): one engine, one screen, two game ids."""

from dataclasses import replace

from models.game_spec import GameSpec

HS_STATUS_CARDS = tuple(f"p{n}" for n in range(1, 11)) + ("x2", "half", "minus5", "theft")
HS_MONEY = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)

HIGH_SOCIETY = GameSpec(
    id="high-society", players=(3, 5), engine="scoring.high_society:HighSocietyEngine",
    screen="companion.app.games.high_society", rule_prefix="HS-", record_model="HighSocietyRecord",
    actions="HSAction", cards={"status": HS_STATUS_CARDS, "money": HS_MONEY})
ANIMALEMENT_VOTRE = replace(HIGH_SOCIETY, id="animalement-votre")
