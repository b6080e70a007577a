"""Complete legal games for the benchmarks, one generator per game, deterministically seeded.

The benchmarks may use randomness, the engines may not: every game here is played by asking the
engine what it expects next (``expected()``) and choosing at random among moves it accepts, so
each record is legal by construction, and the same seed gives the same records.

``PLAYOUTS`` holds a generator for the games whose moves need a little sense to end (bids that
beat the bid to beat, payments that cover a debt…). A game of ``scoring/registry.py`` without
one gets :func:`generic_playout`: random actions built from its record models (the action types
``expected()`` names, random values of each field's type), kept when ``engine.can`` accepts
them. Adding a game's own generator is one function and one line in ``PLAYOUTS``.
"""

from __future__ import annotations

import random
import types
import typing
from typing import Any, Callable, Literal, Union, get_args, get_origin

import _setup  # noqa: F401  (puts the repository on sys.path)

from models.record import (
    PLAYER_COUNTS,
    RECORD_FORMAT,
    MalformedRecord,
    action_to_data,
    parse_action,
    parse_record_data,
)
from scoring.referee import new_engine

NAMES = ("Anne", "Bruno", "Chloé", "David", "Émile", "Fanny")
MAX_ACTIONS = 3000


class Stuck(RuntimeError):
    """The generator found no legal action (a generic playout may, on a game it cannot play);
    ``record`` is the legal game so far (an unfinished record still replays)."""

    def __init__(self, message: str, record: dict[str, Any]):
        super().__init__(message)
        self.record = record


def _envelope(game: str, rng: random.Random, low: int | None = None, high: int | None = None) -> dict[str, Any]:
    least, most = PLAYER_COUNTS[game]
    players = list(NAMES[: rng.randint(low or least, min(high or most, most, len(NAMES)))])
    return {"format": RECORD_FORMAT, "game": game, "players": players, "first_player": rng.choice(players),
            "actions": []}


def _play(record: dict[str, Any], choose: Callable[[Any, random.Random], Any], rng: random.Random) -> dict[str, Any]:
    """Apply ``choose(engine, rng)`` (an action as data) until the game is over."""
    engine = new_engine(parse_record_data(record))
    players = list(engine.players)
    while engine.outcome() is None:
        if len(record["actions"]) >= MAX_ACTIONS:
            raise Stuck(f"{record['game']}: no end after {MAX_ACTIONS} actions", record)
        data = choose(engine, rng)
        engine.apply(parse_action(record["game"], data, players))
        record["actions"].append(data)
    return record


# --- High Society / Animalement Vôtre --------------------------------------------------------

def _hs_action(engine: Any, rng: random.Random) -> dict[str, Any]:
    exp = engine.expected()
    if "reveal" in exp.types:
        return {"type": "reveal", "card": rng.choice([c for c, n in engine.deck_left.items() for _ in range(n)])}
    (player,) = exp.players
    if "discard" in exp.types:
        owned = [c for c in engine.collections[player] if c.startswith("p")]
        return {"type": "discard", "player": player, "card": rng.choice(owned)}
    hand = list(engine.hands[player])
    need = engine.bid_to_beat - engine.bid_totals[player]
    if sum(hand) > need and rng.random() < 0.55:
        rng.shuffle(hand)
        chosen: list[int] = []
        for value in hand:
            chosen.append(value)
            if sum(chosen) > need and rng.random() < 0.6:
                break
        if sum(chosen) > need:
            return {"type": "bid", "player": player, "add": chosen}
    return {"type": "pass", "player": player}


def high_society(rng: random.Random, game: str = "high-society") -> dict[str, Any]:
    record = _envelope(game, rng)
    if rng.random() < 0.3:
        record["variant"] = {"final_tie": rng.choice(["replay", "shared"])}
    return _play(record, _hs_action, rng)


# --- Stupide Vautour -------------------------------------------------------------------------

def _sv_action(engine: Any, rng: random.Random) -> dict[str, Any]:
    exp = engine.expected()
    if "reveal" in exp.types:
        from models.games.stupide_vautour import SV_POINT_CARDS

        left = [c for c in SV_POINT_CARDS if c not in engine.revealed]
        return {"type": "reveal", "card": rng.choice(left)}
    return {"type": "play", "cards": {p: rng.choice(engine.hands[p]) for p in exp.players}}


def stupide_vautour(rng: random.Random, game: str = "stupide-vautour") -> dict[str, Any]:
    record = _envelope(game, rng)
    if rng.random() < 0.3:
        record["variant"] = {"ties": rng.choice(["one-level", "highest-unique"])}
    return _play(record, _sv_action, rng)


# --- Boursicocotte: the property tests' driver (random auctions, payments and trades that end) --

def boursicocotte(rng: random.Random, game: str = "boursicocotte") -> dict[str, Any]:
    from tests.boursicocotte_driver import Driver

    record = _envelope(game, rng)
    engine: Any = new_engine(parse_record_data(record))
    driver = Driver(engine, rng)
    players = list(engine.players)
    while engine.outcome() is None:
        if len(record["actions"]) >= MAX_ACTIONS:
            raise Stuck(f"{game}: no end after {MAX_ACTIONS} actions", record)
        data = driver.next_action()
        engine.apply(parse_action(game, data, players))
        record["actions"].append(data)
    return record


# --- Monte & descend: the engine tests' driver (random legal plays, series, draws and takes) ---

def monte_descend(rng: random.Random, game: str = "monte-descend") -> dict[str, Any]:
    from tests.support.monte_descend import drive

    record = _envelope(game, rng)
    del record["first_player"]  # the driver's matches start with the first seat
    record["variant"] = {"take_stacking": rng.random() < 0.5}
    engine, actions = drive(record["players"], take_stacking=record["variant"]["take_stacking"], rng=rng)
    record["actions"] = actions
    if engine.outcome() is None:
        raise Stuck(f"{game}: the driver stopped before the end of the match", record)
    return record


# --- Animalia: the engine tests' driver (a random choice among the engine's legal actions) -----

def animalia(rng: random.Random, game: str = "animalia") -> dict[str, Any]:
    from tests.support.animalia import play_random, record

    least, most = PLAYER_COUNTS[game]
    players = rng.randint(least, most)
    elegance = rng.choice(["collection", "player"]) if players == 2 else None
    _, actions = play_random(players, seed=rng.randrange(2**32), elegance=elegance)
    return record(players, actions, **({"variant": {"elegance": elegance}} if elegance else {}))


# (games: a game's own generator, where random actions need a little sense to end; any other game,
# the tests' High card among them, gets generic_playout)
PLAYOUTS: dict[str, Callable[..., dict[str, Any]]] = {
    "high-society": high_society,
    "animalement-votre": high_society,
    "stupide-vautour": stupide_vautour,
    "boursicocotte": boursicocotte,
    "monte-descend": monte_descend,
    "animalia": animalia,
}


# --- any other game: random actions from its record models, kept when the engine accepts them --

def _random_value(annotation: Any, rng: random.Random, players: list[str], acting: tuple[str, ...],
                  name: str) -> Any:
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is typing.Annotated:
        values = next((meta.values for meta in args[1:] if getattr(meta, "values", None)), None)
        if values:  # a card type (WholeNumbers), a dict's values too
            return rng.choice(values)
        return _random_value(args[0], rng, players, acting, name)
    if origin is Literal:
        return rng.choice(args)
    if origin in (Union, types.UnionType):
        arms = [a for a in args if a is not type(None)]
        return _random_value(rng.choice(arms), rng, players, acting, name)
    if origin in (list, tuple, set):
        return [_random_value(args[0], rng, players, acting, name) for _ in range(rng.randint(1, 3))]
    if origin is dict:
        keys = acting or tuple(players)
        return {k: _random_value(args[1], rng, players, acting, name) for k in keys}
    if annotation is bool:
        return rng.random() < 0.5
    if annotation is int:
        return rng.choice([0, 1, 2, 3, 5, 10, 20, 50, 100])
    if annotation is str:  # a player name
        return rng.choice(acting) if name == "player" and acting else rng.choice(players)
    raise TypeError(f"no random value for {annotation!r}")


def _random_action(model: Any, rng: random.Random, players: list[str], acting: tuple[str, ...]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    literal: Any = Literal
    for name, info in model.model_fields.items():
        if not info.is_required() and rng.random() < 0.5:
            continue
        annotation = info.annotation
        for meta in info.metadata:  # a card type kept in metadata (WholeNumbers)
            values = getattr(meta, "values", None)
            if values:
                annotation = literal[tuple(values)]
        data[name] = _random_value(annotation, rng, players, acting, name)
    return data


def generic_playout(rng: random.Random, game: str, tries: int = 2000) -> dict[str, Any]:
    from models.record_models import ACTION_TYPES

    members = {get_args(m.model_fields["type"].annotation)[0]: m
               for m in get_args(get_args(ACTION_TYPES[game])[0])}
    record = _envelope(game, rng)
    engine = new_engine(parse_record_data(record))
    players = list(engine.players)
    while engine.outcome() is None:
        if len(record["actions"]) >= MAX_ACTIONS:
            raise Stuck(f"{game}: no end after {MAX_ACTIONS} random actions", record)
        exp = engine.expected()
        for _ in range(tries):
            try:
                data = _random_action(members[rng.choice(exp.types)], rng, players, exp.players)
            except TypeError as unknown:
                raise Stuck(f"{game}: {unknown}", record) from None
            try:
                action = parse_action(game, data, players)
            except MalformedRecord:
                continue
            if engine.can(action):
                engine.apply(action)
                record["actions"].append(action_to_data(action))
                break
        else:
            raise Stuck(f"{game}: no legal random action found in {tries} tries (expected {exp.types})", record)
    return record


def playout(game: str, seed: int) -> dict[str, Any]:
    """One complete legal game of ``game`` (record data), the same for the same seed."""
    rng = random.Random(f"{game}:{seed}")
    own = PLAYOUTS.get(game)
    return own(rng, game) if own is not None else generic_playout(rng, game)
