"""The games: one spec a line (``models.game_spec.GameSpec``), in the order the app lists them.
Adding a game = its spec module here, its engine, its screen, its texts, and one line below
(docs/adding-a-game.md). A game that lives outside the app (the tests' High card) is registered by
its package instead, named in ``COMPANION_GAMES`` (``models.outside_games``): its specs follow these."""

from importlib import import_module

from models import outside_games
from models.game_spec import GameSpec
from models.games.animalia import ANIMALIA
from models.games.boursicocotte import BOURSICOCOTTE
from models.games.high_society import ANIMALEMENT_VOTRE, HIGH_SOCIETY
from models.games.monte_descend import MONTE_DESCEND
from models.games.stupide_vautour import STUPIDE_VAUTOUR

# the app's own games, the ones it ships (and the shipped JSON Schema describes)
OWN: tuple[GameSpec, ...] = (
    HIGH_SOCIETY,
    ANIMALEMENT_VOTRE,
    STUPIDE_VAUTOUR,
    ANIMALIA,
    BOURSICOCOTTE,
    MONTE_DESCEND,
)
# every registered game: the app's own, then each package's of COMPANION_GAMES
SPECS: tuple[GameSpec, ...] = OWN + tuple(spec for package in outside_games.packages()
                                          for spec in import_module(package).SPECS)

SPEC_OF: dict[str, GameSpec] = {spec.id: spec for spec in SPECS}
GAMES: tuple[str, ...] = tuple(SPEC_OF)
PLAYER_COUNTS: dict[str, tuple[int, int]] = {spec.id: spec.players for spec in SPECS}

