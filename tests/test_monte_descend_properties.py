"""Property tests over random complete Monte & descend matches driven by legal choices."""

from __future__ import annotations

import copy
import itertools
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from models.games.monte_descend import MD_CARDS
from models.i18n import LANGUAGES
from models.record import parse_action
from scoring.base import RuleViolation
from scoring.monte_descend import Phase
from tests.support.monte_descend import GAME, draw, drive, pass_, play, take

NAMES = ["Anne", "Bruno", "Chloé", "David", "Élise", "Farid"]


def any_action(eng, rng: random.Random) -> dict:
    """Some action, legal or not: a random card or short run by anyone, a draw, a pass or a take."""
    who = rng.choice(eng.players)
    kind = rng.randrange(5)
    if kind == 0:
        return draw(who)
    if kind == 1:
        return pass_(who)
    if kind == 2:
        others = [p for p in eng.players if p != who] or [who]
        return take(who, *rng.sample(others, min(len(others), rng.choice([1, 2]))), count=rng.choice([1, 2]))
    cards = [rng.choice(MD_CARDS) for _ in range(rng.choice([1, 1, 2, 3]))]
    return play(who, *cards, direction=rng.choice([None, "up", "down"]))


def check_invariants(eng, rng: random.Random) -> None:
    t = eng.table
    assert eng.card_count() == 64, "hands + reserve + discard = 64"
    assert all(n >= 1 for n in t.hands.values()), "a deal with an empty hand is over"
    assert t.reserve >= 1 and t.discard >= 0
    expected = eng.expected()
    assert expected.players == (t.turn,)
    for lang in LANGUAGES:
        assert expected.prompt.render(lang)
    if t.phase is Phase.TAKE:
        assert t.take_count >= 1 and "take" in expected.types
    for card_id in eng.legal_singles()[:5]:
        assert eng.fits([card_id]), card_id
    # a random action: check changes nothing; a refusal leaves the state exactly as it was
    before = copy.deepcopy(eng.state)
    action = parse_action(GAME, any_action(eng, rng), list(eng.players))
    try:
        eng.check(action)
    except RuleViolation as violation:
        assert violation.rule in eng.rules
        for lang in LANGUAGES:
            assert violation.message(lang)
        assert eng.state == before
        try:
            eng.apply(action)
        except RuleViolation as again:
            assert again.rule == violation.rule
        else:
            raise AssertionError("apply accepted what check refused")
        assert eng.state == before
    else:
        assert eng.state == before, "check must change nothing"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(2, 6), stacking=st.booleans(), deals=st.sampled_from([None, 1, 2, 3]),
       lean=st.sampled_from([0.03, 0.3, 0.7, 0.95]), rng=st.randoms(use_true_random=False))
def test_random_matches_keep_every_card_and_end_with_a_consistent_sheet(count, stacking, deals, lean, rng):
    players = NAMES[:count]
    probe_rng = random.Random(rng.random())
    eng, _ = drive(players, deals=deals, take_stacking=stacking, lean=lean, rng=rng,
                         probe=lambda e: check_invariants(e, probe_rng))
    assert eng.state.over, "a match driven by legal choices finishes"
    sheet = eng.state.sheet
    assert len(sheet) == (deals or 2 * count)
    for line in sheet:
        if line.went_out is not None:
            assert line.left[line.went_out] == 0 and line.points[line.went_out] == 5
        assert all(line.points[p] == -line.left[p] for p in players if p != line.went_out)
        assert sum(line.left.values()) <= 64 - 1, "the top card at least stays on the pile"
    outcome = eng.outcome()
    assert outcome.scores == {p: sum(line.points[p] for line in sheet) for p in players}
    best = max(outcome.scores.values())
    assert set(outcome.winners) == {p for p in players if outcome.scores[p] == best}
    assert all(m.rules for m in outcome.explanation)
    # the next starter of every deal had the fewest points so far
    totals = {p: 0 for p in players}
    for previous, line in itertools.pairwise(sheet):
        for p in players:
            totals[p] += previous.points[p]
        assert totals[line.starter] == min(totals.values())


def check_chaos(eng, before, action, events) -> None:
    """After a chaos every hand holds the total ÷ players (rounded down); the rest went under the reserve."""
    if not any("MD-CHAOS" in e.rules for e in events):
        return
    t, old = eng.table, before.table
    n = len(eng.players)
    total = sum(old.hands.values()) - len(action["cards"])
    each, under = divmod(total, n)
    assert t.hands == {p: each for p in eng.players}
    assert t.reserve == old.reserve + under and t.discard == old.discard + len(action["cards"])
    assert t.chaos == (each, under) and eng.state.chaos_count == before.chaos_count + 1
    assert eng.card_count() == 64 and each >= 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(2, 6), stacking=st.booleans(), rng=st.randoms(use_true_random=False))
@example(count=2, stacking=False, rng=random.Random(2)).via("every player count")
@example(count=3, stacking=True, rng=random.Random(3)).via("every player count")
@example(count=4, stacking=False, rng=random.Random(4)).via("every player count")
@example(count=5, stacking=True, rng=random.Random(5)).via("every player count")
@example(count=6, stacking=False, rng=random.Random(6)).via("every player count")
def test_random_matches_with_chaos_deal_equal_hands_and_keep_every_card(count, stacking, rng):
    players = NAMES[:count]
    probe_rng = random.Random(rng.random())
    eng, _ = drive(players, deals=2, take_stacking=stacking, lean=0.7, rng=rng, chaos=0.3,
                   probe=lambda e: check_invariants(e, probe_rng), after=check_chaos)
    assert eng.state.over and len(eng.state.sheet) == 2
    assert eng.state.chaos_count >= 1, "the match played chaos cards"
