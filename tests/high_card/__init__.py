"""High card, the tests' own game: a game with everything a game of the app has (its spec, action
models, generated structs, engine, table screen, texts in French and English, an example record),
which lives in the tests so that the suite proves the whole path of adding a game on one the app
does not ship (docs/adding-a-game.md).

It is registered as the app's games are, by its specs, but from outside the app: ``tests/conftest.py``
names this package in ``COMPANION_GAMES`` (``models.outside_games``) before anything imports
``models.games``, and every subprocess a test starts inherits it. The package holds the files a game
of the app spreads over the layers (docs/architecture.md's second list of owned files):
``spec.py`` (``models/games/<game>.py``), ``actions.py`` and the generated ``structs.py``
(``<game>_actions.py``, ``<game>_structs.py``), ``engine.py`` (``scoring/<game>.py``), ``screen.py``
(``companion/app/games/<game>.py``), ``i18n/<lang>/high-card.json`` and ``examples/``."""

from tests.high_card.spec import HIGH_CARD

SPECS = (HIGH_CARD,)
