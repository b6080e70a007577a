"""Property tests: random legal High Society / Animalement Vôtre games, driven by expected()."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.games.high_society import RULE_SPECS
from models.games.high_society_actions import HSBid, HSDiscard, HSPass, HSReveal
from models.i18n import LANGUAGES, Msg
from models.record import parse_record_data
from scoring.base import RuleViolation
from scoring.high_society import MONEY, MONEY_TOTAL, POSSESSIONS, RED, STATUS_DECK, HighSocietyEngine
from tests.all_or_nothing import try_action

REFUSALS = tuple(r.id for r in RULE_SPECS if r.refusal)

NAMES = ["Anne", "Bruno", "Chloé", "David", "Émile"]


def new_engine(rng: random.Random) -> HighSocietyEngine:
    players = NAMES[: rng.randint(3, 5)]
    data = {"format": "table-record/1", "game": rng.choice(["high-society", "animalement-votre"]),
            "players": players, "first_player": rng.choice(players), "actions": []}
    tie = rng.choice([None, "replay", "shared"])
    if tie:
        data["variant"] = {"final_tie": tie}
    return HighSocietyEngine(parse_record_data(data))


def legal_bid(engine: HighSocietyEngine, player: str, rng: random.Random) -> list[int] | None:
    """Random cards from the hand that make the open total beat every other bid, or None."""
    hand = list(engine.hands[player])
    need = engine.bid_to_beat - engine.bid_totals[player]
    if sum(hand) <= need:
        return None
    rng.shuffle(hand)
    chosen: list[int] = []
    for value in hand:
        chosen.append(value)
        if sum(chosen) > need and rng.random() < 0.6:
            break
    return chosen if sum(chosen) > need else None


def next_action(engine: HighSocietyEngine, rng: random.Random):
    exp = engine.expected()
    if exp.types == ("reveal",):
        deck = [c for c, n in engine.deck_left.items() for _ in range(n)]
        return HSReveal(type="reveal", card=rng.choice(deck))
    if exp.types == ("discard",):
        (player,) = exp.players
        owned = [c for c in engine.collections[player] if c in POSSESSIONS]
        return HSDiscard(type="discard", player=player, card=rng.choice(owned))
    assert exp.types == ("bid", "pass")
    (player,) = exp.players
    bid = legal_bid(engine, player, rng) if rng.random() < 0.55 else None
    if bid is None:
        return HSPass(type="pass", player=player)
    return HSBid(type="bid", player=player, add=bid)


def render_all(msgs):
    for m in msgs:
        assert isinstance(m, Msg)
        for lang in LANGUAGES:
            assert m.render(lang)


def check_invariants(engine: HighSocietyEngine) -> None:
    spent = engine.spent
    for p in engine.players:
        hand, bid, paid = engine.hands[p], engine.bids[p], tuple(spent[p])
        # every money card is in exactly one place: hand, open bid or paid
        assert sorted(hand + bid + paid) == list(MONEY)
        assert sum(hand) + sum(bid) + sum(paid) == MONEY_TOTAL
        assert engine.money_left[p] == MONEY_TOTAL - sum(paid)
        assert all(1 <= r <= engine.round for r in spent[p].values())
    # each status card is somewhere exactly once (copies counted)
    where = Counter(engine.deck_left)
    for cards in engine.collections.values():
        where.update(cards)
    where.update(engine.discarded)
    if engine.card is not None:
        where[engine.card] += 1
    if engine.ending_card is not None:
        where[engine.ending_card] += 1
    assert where == Counter(STATUS_DECK)
    assert engine.reds_revealed <= 4
    if engine.card is not None:
        assert engine.turn is not None and engine.turn not in engine.passed
        open_bids = [engine.bid_totals[p] for p in engine.players if p != engine.turn]
        assert engine.bid_to_beat == max(open_bids)
    else:
        assert engine.turn is None and engine.passed == () and all(not b for b in engine.bids.values())
    assert not (engine.theft_pending and engine.discard_required)
    render_all([engine.expected().prompt])


def play_random_game(seed: int) -> tuple[HighSocietyEngine, int]:
    rng = random.Random(seed)
    engine = new_engine(rng)
    steps = 0
    while not engine.finished:
        steps += 1
        assert steps < 2000, "a legal game always ends"
        action = next_action(engine, rng)
        render_all(engine.apply(action))
        check_invariants(engine)
    return engine, steps


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_games_conserve_money_and_cards_and_end_at_the_fourth_red(seed):
    engine, _ = play_random_game(seed)
    assert engine.reds_revealed == 4 and engine.ending_card in RED
    assert engine.card is None and engine.expected().types == ()
    assert engine.discard_required is None
    out = engine.outcome()
    render_all(out.explanation)
    players = set(engine.players)
    assert set(out.scores) == players
    assert {p for p, _ in out.ranking} == players and len(out.ranking) == len(players)
    money = {p: sum(engine.hands[p]) for p in engine.players}
    least = min(money.values())
    assert set(out.eliminated) == {p for p in players if money[p] == least}
    assert not set(out.winners) & set(out.eliminated)
    if out.replay_required:
        assert out.winners == () and engine.final_tie == "replay"
    remaining = [p for p in engine.players if p not in out.eliminated]
    if out.winners:
        best = max((out.scores[p], money[p]) for p in remaining)
        assert all((out.scores[w], money[w]) <= best for w in out.winners)
        assert {p for p in remaining if (out.scores[p], money[p]) == best} >= set(out.winners)
    ranks = dict(out.ranking)
    for p in remaining:
        for q in out.eliminated:
            assert ranks[p] < ranks[q]
    # scores are the literal computation over what each player kept
    for p in engine.players:
        kept = engine.collections[p]
        value = sum(int(c[1:]) for c in kept if c in POSSESSIONS) - (5 if "minus5" in kept else 0)
        value *= 2 ** kept.count("x2")
        assert out.scores[p] == (value / 2 if "half" in kept else value)
    # nothing is accepted any more
    try:
        engine.apply(HSReveal(type="reveal", card="p1"))
    except RuleViolation as refusal:
        assert refusal.rule == "HS-GAME-OVER"
    else:
        raise AssertionError("an action after the end was accepted")


def random_action(engine: HighSocietyEngine, rng: random.Random):
    """Any well-formed action, legal or not."""
    player = rng.choice(engine.players)
    kind = rng.choice(["reveal", "bid", "pass", "discard"])
    if kind == "reveal":
        return HSReveal(type="reveal", card=rng.choice(sorted(STATUS_DECK)))
    if kind == "bid":
        return HSBid(type="bid", player=player, add=rng.sample(MONEY, rng.randint(0, 3)) + ([rng.choice(MONEY)] if rng.random() < 0.1 else []))
    if kind == "pass":
        return HSPass(type="pass", player=player)
    return HSDiscard(type="discard", player=player, card=rng.choice(sorted(STATUS_DECK)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_actions_are_accepted_legally_or_refused_with_a_listed_rule(seed):
    rng = random.Random(seed)
    engine = new_engine(rng)
    for _ in range(150):
        if engine.finished:
            break
        action = random_action(engine, rng) if rng.random() < 0.5 else next_action(engine, rng)
        exp = engine.expected()
        before = dict(engine.player_view())
        done = try_action(engine, action, REFUSALS)  # check changes nothing; a refusal leaves all as it was
        if isinstance(done, RuleViolation):
            render_all([done.msg])
            assert dict(engine.player_view()) == before
            continue
        assert done is not None
        events = done
        # an accepted action is one expected() announced
        assert action.type in exp.types
        if action.type != "reveal":
            assert action.player in exp.players
        render_all(events)
        check_invariants(engine)
