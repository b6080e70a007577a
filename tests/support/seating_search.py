"""The exhaustive search of every seating plan that tests/test_evening_seating.py and
benchmarks/evening_seating.py compare the evening's ``mix`` planner with (models/seating.py)."""

from __future__ import annotations

import itertools

from models.seating import RoundSpec, plan_tables

NAMES = tuple(f"P{i:02d}" for i in range(40))


def evening(n: int, rounds: int, counts: tuple[int, int] = (3, 5)) -> list[RoundSpec]:
    """``rounds`` rounds of the same ``n`` players at tables of ``counts`` players."""
    players = NAMES[:n]
    return [RoundSpec(players, plan_tables(n, counts))] * rounds


def set_partitions(n: int, sizes: list[int]) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to split players 0..n-1 into tables of these sizes (tables unordered)."""
    found: dict[frozenset, tuple[tuple[int, ...], ...]] = {}

    def split(rest: frozenset[int], left: list[int], acc: list[tuple[int, ...]]) -> None:
        if not left:
            found.setdefault(frozenset(frozenset(t) for t in acc), tuple(acc))
            return
        for table in itertools.combinations(sorted(rest), left[0]):
            if acc and len(acc[-1]) == left[0] and table[0] < acc[-1][0]:
                continue  # equal tables in the order of their first player
            split(rest - set(table), left[1:], acc + [table])

    split(frozenset(range(n)), sorted(sizes, reverse=True), [])
    return list(found.values())


def fewest_repeats(n: int, sizes: list[int], rounds: int, below: int | None = None) -> int:
    """The true minimum of repeated pairs over every plan of ``rounds`` rounds of tables of these
    sizes (``below``: only plans with fewer repeats are looked for; returns ``below`` when there is
    none). Exhaustive, with the symmetries that change no count: the first round is any one split
    (players renamed), the second one per way its tables can cross the first's (players of a
    first-round table are interchangeable, as are equal tables), the later rounds in any one order.
    A pair met is a bit: a round adds the bits of its pairs already set."""
    splits = set_partitions(n, sizes)
    bit = {pair: 1 << i for i, pair in enumerate(itertools.combinations(range(n), 2))}
    masks = [sum(bit[pair] for t in split for pair in itertools.combinations(t, 2)) for split in splits]
    first = splits[0]
    column = {p: c for c, t in enumerate(first) for p in t}
    orders = [q for q in itertools.permutations(range(len(first)))
              if all(len(first[q[c]]) == len(first[c]) for c in range(len(first)))]
    seconds: dict[tuple, int] = {}
    for k, split in enumerate(splits):
        rows = []
        for t in split:
            row = [0] * len(first)
            for p in t:
                row[column[p]] += 1
            rows.append(row)
        seconds.setdefault(min(tuple(sorted(tuple(r[q[c]] for c in range(len(first))) for r in rows))
                               for q in orders), k)
    best = [below if below is not None else 10 ** 9]

    def go(level: int, start: int, met: int, cost: int) -> None:
        if cost >= best[0]:
            return
        if level == rounds:
            best[0] = cost
            return
        for k in range(start, len(masks)):
            go(level + 1, k, met | masks[k], cost + (masks[k] & met).bit_count())

    for k in seconds.values():
        if rounds == 1:
            return 0
        go(2, 0, masks[0] | masks[k], (masks[k] & masks[0]).bit_count())
    return best[0]
