"""What a game is, as data: one :class:`GameSpec` per game id, in its module of ``models/games/``,
listed once in ``models.games.SPECS`` (docs/architecture.md: the layers, the files a game owns)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class RuleSpec:
    """One entry of a game's rules reference.

    ``id``: the stable rule id (``HS-BID-RAISE``); its texts are the catalogue keys
    ``rule.<id>.title`` and ``rule.<id>.text`` (our own words, French and English).
    ``ruling``: ``False`` for the rulebook's rule, ``True`` for the app's ruling where the
    rulebook is silent (its text then names the other reading).
    ``adds_ruling``: a rule of the rulebook (``ruling`` False) to which the app adds a ruling where
    the rulebook stops: ``rule.<id>.text`` says the rulebook's part, ``rule.<id>.ruling`` the app's
    (naming the other reading); the two are shown under their own labels.
    ``variant``: the variant key that changes this rule, if any.
    ``section``: where it stands in the rulebook's order (``"setup"``, ``"auction"``, ``"end"``…);
    its heading is the catalogue key ``section.<game-id>.<section>`` (the first of the engine's games).
    ``refusal``: ``True`` if the engine refuses actions with this id (``False``: applied, never refused).
    """

    id: str
    section: str
    refusal: bool = False
    ruling: bool = False
    variant: str | None = None
    adds_ruling: bool = False


@dataclass(frozen=True)
class VariantSpec:
    """One variant key of a game, declared once by its spec.

    ``choices``: the allowed values, or ``None`` for a whole number of at least ``minimum``.
    ``default``: the value when the record omits the key; ``None`` where the engine derives it
    (``default_for`` gives it then, e.g. a number of deals from the number of players).
    ``rules``: the rule id that explains each choice (``{choice: rule id}``; for a number, the key
    ``None``). ``games``: the game ids the key exists for (``None``: every game of the engine).
    ``players``: the player counts it is allowed with (``None``: any).
    ``house``: the choices that depart from the rulebook (a house variant a table may prefer, not
    the rulebook's other reading); the rules reference and the set-up label them so.
    ``game_house``: the house choices per game id where one engine serves several editions whose
    rulebooks differ (``house_for`` gives a game's: its entry here, else ``house``)."""

    key: str
    choices: tuple[Any, ...] | None
    default: Any
    rules: Mapping[Any, str]
    games: tuple[str, ...] | None = None
    minimum: int | None = None
    players: tuple[int, ...] | None = None
    game_defaults: Mapping[str, Any] | None = None  # per game id, where one engine serves several
    per_player: int | None = None  # a number whose default is this many per player (``default`` None)
    house: tuple[Any, ...] = ()
    game_house: Mapping[str, tuple[Any, ...]] | None = None

    def house_for(self, game: str) -> tuple[Any, ...]:
        if self.game_house and game in self.game_house:
            return self.game_house[game]
        return self.house

    def default_for(self, game: str, player_count: int) -> Any:
        if self.game_defaults and game in self.game_defaults:
            return self.game_defaults[game]
        if self.default is None and self.per_player is not None:
            return self.per_player * player_count
        return self.default

    def allows(self, value: Any) -> bool:
        if self.choices is None:
            return type(value) is int and (self.minimum is None or value >= self.minimum)
        return any(value == c and type(value) is type(c) for c in self.choices)


@dataclass(frozen=True)
class GameSpec:
    """Everything that is data about one game id (an engine serving two editions has two specs).

    ``players``: the fewest and most players. ``cards``: the card catalogues (spec §4) by name
    (``"start"``: what a dealt start deals). ``engine`` (``"module:Class"``) and ``screen``: import
    paths, so ``models`` imports neither. ``action_models``: the module of its pydantic action models
    (``models/games/<game>_actions.py``: the action union named ``actions`` and ``RECORD``, the shape of
    its record envelope, which ``models.record_models`` builds and names ``record_model``);
    ``action_structs``: the module of the msgspec structs generated from them
    (``models/games/<game>_structs.py``, no pydantic: the replay path), with the same names. Import
    paths again, so that the specs import no pydantic. ``check_record(record)``, ``check_action(action, players, index)``: the
    game's own checks after the types (``index`` None for one action alone)."""

    id: str
    players: tuple[int, int]
    engine: str
    screen: str
    rule_prefix: str
    record_model: str
    actions: str
    action_models: str
    action_structs: str
    cards: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    rule_specs: tuple[RuleSpec, ...] = ()
    variants: tuple[VariantSpec, ...] = ()
    excluded_readings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    check_record: Callable[[Any], None] | None = None
    check_action: Callable[[Any, int, int | None], None] | None = None
    bgg_id: int | None = None  # BoardGameGeek's id, where it is known for sure (BG Stats' bggId)
