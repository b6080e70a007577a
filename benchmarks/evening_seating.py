"""How long the evening's `mix` planner takes for a large club evening, beside the goal
(issue #39: 30 players and 6 rounds planned under a second), and how many pairs it repeats; then
the proofs too slow for the suite (--no-proofs: without them): for 11 and 12 players over 4 rounds,
the planner repeats no more pairs than the fewest any plan can (tests/test_evening_seating.py's
check, the exhaustive search timed; "MISSED" when the planner repeats more).

    python benchmarks/evening_seating.py [--seeds N] [--no-proofs]
"""

from __future__ import annotations

import argparse
import os
import time

import _setup  # noqa: F401

from models.seating import RoundSpec, plan_mix, plan_tables, repeat_bound, repeats, table_sizes
from tests.support.seating_search import evening, fewest_repeats

GOAL_S = 1.0
PROOFS = ((11, 4), (12, 4))  # the cases of tests/test_evening_seating.py left to this benchmark


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="how many seeds to plan with")
    parser.add_argument("--no-proofs", action="store_true", help="without the exhaustive searches")
    args = parser.parse_args(argv)
    players = tuple(f"P{i:02d}" for i in range(30))
    specs = [RoundSpec(players, plan_tables(len(players), (3, 5)))] * 6
    took, repeated = [], []
    for seed in range(args.seeds):
        start = time.perf_counter()
        plan = plan_mix(specs, seed=seed)
        took.append(time.perf_counter() - start)
        repeated.append(repeats(plan))
    worst = max(took)
    print(f"evening mix, 30 players x 6 rounds ({args.seeds} seeds): {min(took):.2f}-{worst:.2f} s, "
          f"goal < {GOAL_S:.0f} s: {'met' if worst < GOAL_S else 'not met'}; repeated pairs {min(repeated)}-"
          f"{max(repeated)}; load average {os.getloadavg()[0]:.1f}")
    if not args.no_proofs:
        for n, rounds in PROOFS:
            print(proof(n, rounds))


def proof(n: int, rounds: int) -> str:
    """The test's check on ``n`` players over ``rounds`` rounds: the same repeats on seeds 0-2, no
    fewer than the lower bound, and no more than the exhaustive search's minimum."""
    specs = evening(n, rounds)
    sizes = [table_sizes(n, s.tables) for s in specs]
    got = {repeats(plan_mix(specs, seed=seed)) for seed in (0, 1, 2)}
    bound = repeat_bound(sizes, [s.players for s in specs])
    start = time.perf_counter()
    fewest = bound if min(got) == bound else fewest_repeats(n, sizes[0], rounds, below=min(got))
    took = time.perf_counter() - start
    met = len(got) == 1 and bound <= min(got) <= fewest
    return (f"proof, {n} players x {rounds} rounds: the planner repeats {sorted(got)} pair(s), the fewest "
            f"possible {fewest} (bound {bound}; search {took:.1f} s): {'met' if met else 'MISSED'}")


if __name__ == "__main__":
    main()
