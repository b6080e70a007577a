"""How long the evening's `mix` planner takes for a large club evening, beside the goal
(issue #39: 30 players and 6 rounds planned under a second), and how many pairs it repeats.

    python benchmarks/evening_seating.py [--seeds N]
"""

from __future__ import annotations

import argparse
import os
import time

import _setup  # noqa: F401

from models.seating import RoundSpec, plan_mix, plan_tables, repeats

GOAL_S = 1.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6, help="how many seeds to plan with")
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


if __name__ == "__main__":
    main()
