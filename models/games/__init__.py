"""The games: one spec a line (``models.game_spec.GameSpec``), in the order the app lists them.
Adding a game = its spec module here, its engine, its screen, its texts, and one line below."""

from models.game_spec import GameSpec
from models.games.animalia import ANIMALIA
from models.games.boursicocotte import BOURSICOCOTTE
from models.games.high_society import ANIMALEMENT_VOTRE, HIGH_SOCIETY
from models.games.monte_descend import MONTE_DESCEND
from models.games.stupide_vautour import STUPIDE_VAUTOUR

SPECS: tuple[GameSpec, ...] = (
    HIGH_SOCIETY,
    ANIMALEMENT_VOTRE,
    STUPIDE_VAUTOUR,
    ANIMALIA,
    BOURSICOCOTTE,
    MONTE_DESCEND,
)

SPEC_OF: dict[str, GameSpec] = {spec.id: spec for spec in SPECS}
GAMES: tuple[str, ...] = tuple(SPEC_OF)
PLAYER_COUNTS: dict[str, tuple[int, int]] = {spec.id: spec.players for spec in SPECS}

