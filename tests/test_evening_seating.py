"""The seating of a club evening (models/seating.py): every player seated once a round or sitting
out as stated, every table within its game's player counts, sit-outs spread, and ``mix`` at most
the true minimum of repeated pairs (an exhaustive search over every plan on the small cases, the
lower bound where the planner meets it)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.games import PLAYER_COUNTS
from models.seating import (
    RoundSpec,
    Seating,
    SeatingImpossible,
    pair_counts,
    plan_mix,
    plan_swiss,
    repeat_bound,
    repeats,
    table_sizes,
)
from tests.support.seating_search import NAMES, evening, fewest_repeats


def test_the_exhaustive_search_finds_a_known_minimum_and_the_planner_equals_it():
    # 6 players, two tables of 3, 3 rounds: round 2 shares at least 2 pairs with round 1, and
    # round 3 cannot avoid a third meeting; the search itself must find 5, not only confirm it
    assert fewest_repeats(6, [3, 3], 3) == 5
    assert fewest_repeats(6, [3, 3], 2) == 2
    assert fewest_repeats(7, [4, 3], 2) == 3
    assert repeats(plan_mix(evening(6, 3), seed=0)) == 5


@pytest.mark.parametrize("n, rounds", [(6, 2), (6, 3), (7, 3), (8, 3), (9, 2), (9, 3), (10, 3), (11, 3), (12, 3)])
def test_the_lower_bound_never_exceeds_the_true_minimum(n, rounds):
    specs = evening(n, rounds)
    sizes = [table_sizes(n, s.tables) for s in specs]
    assert repeat_bound(sizes, [s.players for s in specs]) <= fewest_repeats(n, sizes[0], rounds)


# 11 and 12 players over 4 rounds take seconds of exhaustive search each (12 × 4: 5 s of the
# suite's time on a quiet machine, 20 s on a loaded one): benchmarks/evening_seating.py makes the
# same check on them, the search timed; up to 10 players over 4 rounds it is made here
PROVEN_BY_THE_BENCHMARK = {(11, 4), (12, 4)}


@pytest.mark.parametrize("n, rounds", [(n, r) for n in range(6, 13) for r in (3, 4, 5)
                                       if (n, r) not in PROVEN_BY_THE_BENCHMARK])
def test_mix_repeats_at_most_the_true_minimum(n, rounds):
    specs = evening(n, rounds)
    sizes = [table_sizes(n, s.tables) for s in specs]
    got = {repeats(plan_mix(specs, seed=seed)) for seed in (0, 1, 2)}
    assert len(got) == 1, got  # the same on every seed
    bound = repeat_bound(sizes, [s.players for s in specs])
    assert min(got) >= bound
    if min(got) > bound:  # the bound does not prove it: no plan has fewer
        assert fewest_repeats(n, sizes[0], rounds, below=min(got)) == min(got)


def test_thirty_players_six_rounds_are_planned_with_few_repeats():
    # how long it takes is benchmarks/evening_seating.py's (beside its goal, under a second)
    plan = plan_mix(evening(30, 6), seed=7)
    assert all(sorted(s.seated) == sorted(NAMES[:30]) for s in plan)
    assert repeats(plan) <= 20  # 6 tables of 5 over 6 rounds: a shuffle would repeat about 50


def check_round(spec: RoundSpec, seating: Seating) -> None:
    seated = seating.seated
    assert len(seated) == len(set(seated))
    assert not set(seated) & set(seating.sit_out)
    assert sorted(seated + seating.sit_out) == sorted(spec.players)
    assert len(seating.tables) == len(spec.tables)
    for table, (lo, hi) in zip(seating.tables, spec.tables):
        assert not table or lo <= len(table) <= hi
    # nobody sits out while a table that is played still has room
    if seating.sit_out:
        assert all(len(t) == hi for t, (_, hi) in zip(seating.tables, spec.tables) if t)


@st.composite
def evenings(draw):
    n = draw(st.integers(2, 24))
    rounds = draw(st.integers(1, 5))
    games = sorted(PLAYER_COUNTS)
    specs = []
    for _ in range(rounds):
        k = draw(st.integers(1, 5))
        tables = tuple(PLAYER_COUNTS[draw(st.sampled_from(games))] for _ in range(k))
        present = tuple(p for p in NAMES[:n] if draw(st.integers(0, 9)) > 0)  # arrivals and departures
        if len(present) < min(lo for lo, _ in tables):  # fewer than any table's game needs
            present = NAMES[:max(lo for lo, _ in tables)]
        specs.append(RoundSpec(present, tables))
    return specs, draw(st.integers(0, 2 ** 32))


@settings(max_examples=60, deadline=None)
@given(evenings())
def test_mix_seats_every_present_player_once_within_the_games_counts(case):
    specs, seed = case
    plan = plan_mix(specs, seed=seed)
    assert plan == plan_mix(specs, seed=seed)  # the seed is the only randomness
    sat_out: dict[str, int] = {}
    for spec, seating in zip(specs, plan):
        check_round(spec, seating)
        for p in seating.sit_out:
            # a second sit-out only when every player present had one already
            assert sat_out.get(p, 0) == 0 or all(sat_out.get(q, 0) >= 1 for q in spec.players if q not in seating.sit_out)
        for p in seating.sit_out:
            sat_out[p] = sat_out.get(p, 0) + 1


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 20), st.integers(1, 4), st.integers(0, 2 ** 32), st.sampled_from(sorted(PLAYER_COUNTS)))
def test_sit_outs_are_at_most_once_when_the_rounds_allow_it(n, rounds, seed, game):
    lo, hi = PLAYER_COUNTS[game]
    tables = ((lo, hi),) * max(1, (n - 1) // hi)  # one table fewer than everyone needs: sit-outs
    specs = [RoundSpec(NAMES[:n], tables)] * rounds
    plan = plan_mix(specs, seed=seed)
    out = [p for s in plan for p in s.sit_out]
    if len(out) <= n:
        assert len(out) == len(set(out))
    else:
        assert max(out.count(p) for p in out) - min(out.count(p) for p in NAMES[:n]) <= 1


@settings(max_examples=40, deadline=None)
@given(evenings())
def test_swiss_seats_close_standings_together(case):
    specs, seed = case
    history: list[Seating] = []
    for r, spec in enumerate(specs):
        standing = sorted(spec.players, key=lambda p: (hash((p, seed, r)) % 7, p))
        seating = plan_swiss(spec, standing, history, seed=seed)
        check_round(spec, seating)
        if r == 0:  # nothing to avoid yet: the tables are runs of the standing, largest tables first
            order = [p for p in standing if p not in seating.sit_out]
            by_size = sorted(range(len(seating.tables)), key=lambda t: (-len(seating.tables[t]), t))
            assert [p for t in by_size for p in sorted(seating.tables[t], key=order.index)] == order
        history.append(seating)


def test_swiss_swaps_equal_standings_to_avoid_a_repeat():
    spec = RoundSpec(NAMES[:6], ((3, 5), (3, 5)))
    first = Seating((NAMES[:3], NAMES[3:6]))
    points = {"P00": 4, "P01": 4, "P02": 2, "P03": 2, "P04": 0, "P05": 0}
    # the standing cuts P00 P01 P02 | P03 P04 P05, which repeats everything; P02 and P03 have equal points
    seating = plan_swiss(spec, list(NAMES[:6]), [first], points=points)
    assert repeats([first, seating]) < repeats([first, first])
    assert set(seating.tables[0]) == {"P00", "P01", "P03"}


def test_history_counts_in_the_repeats_and_the_plan_avoids_it():
    players = NAMES[:8]
    played = Seating((players[:4], players[4:]))
    plan = plan_mix([RoundSpec(players, ((3, 5), (3, 5)))], seed=3, history=[played])
    counts = pair_counts([played, *plan])
    assert repeats([played, *plan]) == 4 == sum(m - 1 for m in counts.values() if m > 1)


def test_sizes_are_as_even_as_the_games_allow():
    assert table_sizes(9, [(3, 5)] * 3) == [3, 3, 3]
    assert table_sizes(10, [(3, 5)] * 3) == [4, 3, 3]
    assert table_sizes(9, [(3, 5), (2, 2)]) == [5, 2]  # the two-player table is full at 2
    assert table_sizes(5, [(3, 5), (3, 5)]) == [5, 0]  # a table nobody can fill is left empty
    assert table_sizes(12, [(3, 5), (3, 5)]) == [5, 5]  # two sit out
    with pytest.raises(SeatingImpossible):
        table_sizes(2, [(3, 5)])
