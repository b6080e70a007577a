"""Monte & descend's builders: each action, and whole matches driven at random."""

from __future__ import annotations

import copy
import random

from models.i18n import LANGUAGES
from models.record import parse_action, parse_record_data
from scoring.base import Event
from scoring.monte_descend import MonteDescendEngine, Phase, card

GAME = "monte-descend"
THREE = ["Pierre", "Sandra", "Jean"]


def record(players, actions=(), **variant):
    data = {"format": "table-record/1", "game": GAME, "players": list(players), "actions": list(actions)}
    if variant:
        data["variant"] = variant
    return data


def engine(players=THREE, first=None, **variant):
    data = record(players, **variant)
    if first:
        data["first_player"] = first
    return MonteDescendEngine(parse_record_data(data))


def play(player, *cards, direction=None):
    action = {"type": "play", "player": player, "cards": list(cards)}
    if direction:
        action["direction"] = direction
    return action


def draw(player):
    return {"type": "draw", "player": player}


def pass_(player):
    return {"type": "pass", "player": player}


def take(player, *victims, count=1):
    return {"type": "take", "player": player, "from": list(victims), "count": count}


def run(eng, *actions):
    """Apply dict actions through the record model; return the events of the last one."""
    events: tuple = ()
    for action in actions:
        events = eng.apply(parse_action(GAME, action, list(eng.players)))
        for e in events:
            assert isinstance(e, Event) and e.rules, e
            for lang in LANGUAGES:
                assert e.render(lang).strip()
    return events


def drive(players, *, seed=0, deals=None, take_stacking=False, limit=3000, lean=0.7, rng=None, probe=None,
          chaos=0.0, after=None):
    """A complete match driven by random legal choices; returns (engine, actions). Used by the
    property tests and the replay tests: every choice comes from what the engine says is legal.
    ``probe(eng)`` runs before each action (the property tests check invariants there);
    ``after(eng, before, action, events)`` after it, with a copy of the state before. ``chaos``: how
    often a player who lays a card lays a chaos yellow (always legal) instead of a random card."""
    rng = rng or random.Random(seed)
    variant = {"take_stacking": take_stacking}
    if deals is not None:
        variant["deals"] = deals
    eng = engine(players, **variant)
    actions: list[dict] = []

    def do(action):
        if probe is not None:
            probe(eng)
        before = copy.deepcopy(eng.state) if after is not None else None
        events = run(eng, action)
        actions.append(action)
        if after is not None:
            after(eng, before, action, events)

    while not eng.state.over and len(actions) < limit:
        t = eng.table
        p = t.turn
        if t.phase is Phase.TAKE:
            singles = eng.legal_singles()
            if singles and rng.random() < 0.5:
                do(_with_direction(eng, play(p, rng.choice(singles)), rng))
                continue
            others = [q for q in eng.players if q != p]
            victims = rng.sample(others, min(2, len(others)))
            do(take(p, *victims, count=t.take_count))
            continue
        singles = eng.legal_singles()
        if t.phase is Phase.DRAWN:
            if rng.random() < 0.5:
                do(_with_direction(eng, play(p, rng.choice(singles)), rng))
            else:
                do(pass_(p))
            continue
        if eng.free_play or rng.random() < lean:
            first = rng.choice(singles)
            if chaos and rng.random() < chaos:
                first = f"y{rng.randint(1, 20)}-chaos"
            cards = [first]
            direction = None
            action = _with_direction(eng, play(p, first), rng)
            direction = action.get("direction")
            while len(cards) < t.hands[p] and not first.endswith("-chaos") and rng.random() < 0.5:
                nxt = [c for c in ("b", "r", "y") for c in _next_ids(cards[-1], c, rng)]
                nxt = [c for c in nxt if eng.fits([*cards, c], direction)]
                if not nxt:
                    break
                cards.append(rng.choice(nxt))
            if len(cards) > t.hands[p]:
                cards = cards[: t.hands[p]]
            do(play(p, *cards, direction=direction))
        else:
            do(draw(p))
    return eng, actions


def _next_ids(last: str, colour: str, rng) -> list[str]:
    value = card(last).value
    out = []
    for v in (value - 1, value + 1):
        if 1 <= v <= 20:
            out.append(f"{colour}{v}" if colour != "y" else f"y{v}-{rng.choice(['skip', 'take', 'pass', 'chaos'])}")
    return out


def _with_direction(eng, action, rng):
    parsed = parse_action(GAME, action, list(eng.players))
    if eng.can(parsed):
        return action
    chosen = {**action, "direction": rng.choice(["up", "down"])}
    assert eng.can(parse_action(GAME, chosen, list(eng.players))), chosen
    return chosen
