"""Who sits where at a club evening: the seating of each round, pure (no database, no clock; the
only randomness is a :class:`random.Random` built from the seed given).

A round is the players present and its tables, each with the player counts its game allows
(:class:`RoundSpec`). A round's seating (:class:`Seating`) is its tables' players and who sits out.

- **Sizes**: as many players seated as the tables hold (the rest sit out), each table at least its
  game's fewest players (a table that cannot be filled is left empty, the last ones first), the
  seats spread as evenly as the tables' bounds allow (:func:`table_sizes`).
- **Sit-outs**: the players who have sat out the fewest times so far, so nobody sits out twice
  while a player present that round never did; among them, the ones present in the fewest later
  rounds (they would have fewer chances later), then the seed's order (``mix``) or the lowest
  standing (``swiss``).
- **mix** (:func:`plan_mix`): the fewest repeated pairs over the evening (a pair meeting ``m > 1``
  times counts ``m − 1``), rounds already played included; every round not yet fixed is searched
  together (simulated annealing over swaps of two players of one round, restarted from the best
  plan found, stopped at once on :func:`repeat_bound`, which no plan can beat).
- **swiss** (:func:`plan_swiss`): one round, players in standing order cut into the tables (close
  standings together), then swaps of two players of neighbouring tables with equal standing
  (or neighbours in the order) that lower the repeated pairs.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from typing import Mapping, Sequence

MIX = "mix"
SWISS = "swiss"
METHODS = (MIX, SWISS)


@dataclass(frozen=True)
class RoundSpec:
    """A round to seat: the players present and, per table, its game's (fewest, most) players."""
    players: tuple[str, ...]
    tables: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Seating:
    """A round's seating: each table's players (an empty table is not played) and who sits out."""
    tables: tuple[tuple[str, ...], ...]
    sit_out: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(p for t in self.tables for p in t)


class SeatingImpossible(ValueError):
    """No seating fits: fewer players than the smallest table holds, or a name present twice."""


def table_sizes(players: int, tables: Sequence[tuple[int, int]]) -> list[int]:
    """Each table's size for ``players`` present: as many seated as the tables hold, each table
    between its bounds or empty (when the players cannot fill them all, the tables whose game needs
    the most players are left empty, the last ones first), the sizes as even as the bounds allow
    (a seat at a time to the smallest table that has room, the first one on equal sizes)."""
    used = list(range(len(tables)))
    while used and sum(tables[t][0] for t in used) > players:
        used.remove(max(used, key=lambda t: (tables[t][0], t)))
    if not used:
        raise SeatingImpossible(players)
    sizes = [tables[t][0] if t in used else 0 for t in range(len(tables))]
    seats = min(players, sum(tables[t][1] for t in used))
    for _ in range(seats - sum(sizes)):
        room = [t for t in used if sizes[t] < tables[t][1]]
        sizes[min(room, key=lambda t: (sizes[t], t))] += 1
    return sizes


def pair_counts(seatings: Sequence[Seating]) -> dict[frozenset[str], int]:
    """How many times each pair of players sat at one table."""
    counts: dict[frozenset[str], int] = {}
    for seating in seatings:
        for table in seating.tables:
            for a, b in combinations(table, 2):
                key = frozenset((a, b))
                counts[key] = counts.get(key, 0) + 1
    return counts


def repeats(seatings: Sequence[Seating]) -> int:
    """The repeated pairs of these rounds: a pair that met ``m`` times counts ``m − 1``."""
    return sum(m - 1 for m in pair_counts(seatings).values() if m > 1)


def repeat_bound(sizes: Sequence[Sequence[int]], seated: Sequence[Sequence[str]],
                 history: Sequence[Seating] = ()) -> int:
    """A lower bound on the repeated pairs of any plan with these table sizes per round and these
    players seated in each (and these rounds before): the meetings beyond the pairs there are, and
    for each player the meetings beyond the others they can meet (half of the sum: a repeat
    involves two players); the larger of the two."""
    names = sorted({p for s in seated for p in s} | {p for h in history for p in h.seated})
    meetings = sum(math.comb(n, 2) for rnd in sizes for n in rnd)
    meetings += sum(math.comb(len(t), 2) for h in history for t in h.tables)
    total = max(0, meetings - math.comb(len(names), 2))
    degree = {p: 0 for p in names}
    for h in history:
        for table in h.tables:
            for p in table:
                degree[p] += len(table) - 1
    for rnd_sizes, rnd_seated in zip(sizes, seated):
        # a player's opponents in a round depend on their table; the smallest table is the least
        # a seated player meets, so the bound takes it for everyone of the round
        smallest = min((n for n in rnd_sizes if n), default=1)
        for p in rnd_seated:
            degree[p] += smallest - 1
    per_player = sum(max(0, d - (len(names) - 1)) for d in degree.values())
    return max(total, (per_player + 1) // 2, _overlap_bound(sizes, seated, history))


def _spread(players: int, parts: int) -> int:
    """The fewest pairs ``players`` split into ``parts`` groups can make (as even as possible)."""
    if parts <= 0:
        return 0
    q, extra = divmod(players, parts)
    return extra * math.comb(q + 1, 2) + (parts - extra) * math.comb(q, 2)


def _overlap_bound(sizes: Sequence[Sequence[int]], seated: Sequence[Sequence[str]],
                   history: Sequence[Seating]) -> int:
    """Pigeonholes between rounds: when two rounds seat the same players, a table of the later one
    takes its players from the earlier one's tables, so it holds at least the pairs of spreading
    them as evenly as possible over those tables (and the same the other way round); each round
    repeats at least the most it must share with one earlier round. 0 before the first round or
    when the rounds seat different players (a weaker case this bound leaves to the others)."""
    rounds = [[len(t) for t in h.tables] for h in history] + [list(s) for s in sizes]
    groups = [frozenset(h.seated) for h in history] + [frozenset(s) for s in seated]
    total = 0
    for s in range(1, len(rounds)):
        shared = 0
        for r in range(s):
            if groups[r] != groups[s]:
                continue
            one = [n for n in rounds[r] if n]
            two = [n for n in rounds[s] if n]
            shared = max(shared, sum(_spread(n, len(one)) for n in two), sum(_spread(n, len(two)) for n in one))
        total += shared
    return total


def _sit_outs(spec: RoundSpec, sizes: Sequence[int], before: Mapping[str, int], later: Mapping[str, int],
              order: Sequence[str]) -> tuple[str, ...]:
    """Who sits out a round: the fewest sit-outs so far, then the fewest later rounds present,
    then last in ``order`` (the seed's shuffle, or the standings)."""
    out = len(spec.players) - sum(sizes)
    if out <= 0:
        return ()
    place = {p: i for i, p in enumerate(order)}
    ranked = sorted(spec.players, key=lambda p: (before.get(p, 0), later.get(p, 0), -place[p]))
    return tuple(ranked[:out])


def _sit_out_plan(specs: Sequence[RoundSpec], history: Sequence[Seating], rng: random.Random
                  ) -> tuple[list[list[int]], list[tuple[str, ...]]]:
    """The sizes and the sit-outs of each round to plan (``mix``)."""
    before: dict[str, int] = {}
    for h in history:
        for p in h.sit_out:
            before[p] = before.get(p, 0) + 1
    all_sizes: list[list[int]] = []
    outs: list[tuple[str, ...]] = []
    for r, spec in enumerate(specs):
        _check_names(spec)
        sizes = table_sizes(len(spec.players), spec.tables)
        later: dict[str, int] = {}
        for s in specs[r + 1:]:
            for p in s.players:
                later[p] = later.get(p, 0) + 1
        order = list(spec.players)
        rng.shuffle(order)
        out = _sit_outs(spec, sizes, before, later, order)
        for p in out:
            before[p] = before.get(p, 0) + 1
        all_sizes.append(sizes)
        outs.append(out)
    return all_sizes, outs


def _check_names(spec: RoundSpec) -> None:
    if len(set(spec.players)) != len(spec.players):
        raise SeatingImpossible(spec.players)


class _Search:
    """The annealing of ``plan_mix`` on player indices: ``rounds[r][t]`` a table's players,
    ``met[a][b]`` how many times a and b met (history included), ``cost`` the repeated pairs."""

    def __init__(self, n: int, history: Sequence[Sequence[Sequence[int]]]):
        self.n = n
        self.met = [[0] * n for _ in range(n)]
        for rnd in history:
            for table in rnd:
                self._add(table, 1)
        self.rounds: list[list[list[int]]] = []
        self.cost = self._cost()

    def _add(self, table: Sequence[int], step: int) -> None:
        met = self.met
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                met[a][b] += step
                met[b][a] += step

    def _cost(self) -> int:
        return sum(m - 1 for i, row in enumerate(self.met) for m in row[i + 1:] if m > 1)

    def load(self, rounds: list[list[list[int]]]) -> None:
        for rnd in self.rounds:
            for table in rnd:
                self._add(table, -1)
        self.rounds = [[list(t) for t in rnd] for rnd in rounds]
        for rnd in self.rounds:
            for table in rnd:
                self._add(table, 1)
        self.cost = self._cost()

    def delta(self, r: int, t1: int, i1: int, t2: int, i2: int) -> int:
        """The change of cost if the i1-th player of table t1 and the i2-th of t2 (round r) swap."""
        one, two = self.rounds[r][t1], self.rounds[r][t2]
        a, b = one[i1], two[i2]
        ma, mb = self.met[a], self.met[b]
        d = 0
        for x in one:
            if x != a:
                d -= ma[x] >= 2   # a leaves x
                d += mb[x] >= 1   # b joins x
        for y in two:
            if y != b:
                d -= mb[y] >= 2
                d += ma[y] >= 1
        return d

    def swap(self, r: int, t1: int, i1: int, t2: int, i2: int, d: int) -> None:
        one, two = self.rounds[r][t1], self.rounds[r][t2]
        a, b = one[i1], two[i2]
        ma, mb, met = self.met[a], self.met[b], self.met
        for x in one:
            if x != a:
                ma[x] -= 1
                met[x][a] -= 1
                mb[x] += 1
                met[x][b] += 1
        for y in two:
            if y != b:
                mb[y] -= 1
                met[y][b] -= 1
                ma[y] += 1
                met[y][a] += 1
        one[i1], two[i2] = b, a
        self.cost += d


def plan_mix(specs: Sequence[RoundSpec], seed: int = 0, history: Sequence[Seating] = (),
             effort: int = 1) -> list[Seating]:
    """The seating of the rounds ``specs`` (after the rounds of ``history``, already fixed) with
    the fewest repeated pairs the search finds (see the module's doc); ``effort`` multiplies the
    search's budget. The same arguments give the same plan."""
    if not specs:
        return []
    rng = random.Random(seed)
    all_sizes, outs = _sit_out_plan(specs, history, rng)
    names = sorted({p for s in specs for p in s.players} | {p for h in history for p in h.seated})
    index = {p: i for i, p in enumerate(names)}
    seated = [[index[p] for p in spec.players if p not in out] for spec, out in zip(specs, outs)]
    bound = repeat_bound(all_sizes, [[names[i] for i in s] for s in seated], history)
    search = _Search(len(names), [[[index[p] for p in t] for t in h.tables] for h in history])

    def initial() -> list[list[list[int]]]:
        rounds = []
        for sizes, players in zip(all_sizes, seated):
            order = list(players)
            rng.shuffle(order)
            tables, k = [], 0
            for size in sizes:
                tables.append(order[k:k + size])
                k += size
            rounds.append(tables)
        return rounds

    search.load(initial())
    best, best_cost = [[list(t) for t in rnd] for rnd in search.rounds], search.cost
    # the moves: a round and two of its tables that are played
    pairs = [(r, t1, t2) for r, sizes in enumerate(all_sizes)
             for t1 in range(len(sizes)) for t2 in range(t1 + 1, len(sizes)) if sizes[t1] and sizes[t2]]
    if pairs and best_cost > bound:
        seats = sum(len(s) for s in seated)
        steps = max(2000, 60 * seats) * effort
        restarts = 12
        for attempt in range(restarts):
            if attempt:
                search.load(best if attempt % 2 else initial())
            temperature, cooling = 0.6, (0.02 / 0.6) ** (1 / steps)
            rand, choice = rng.random, rng.choice
            for _ in range(steps):
                r, t1, t2 = choice(pairs)
                i1 = int(rand() * len(search.rounds[r][t1]))
                i2 = int(rand() * len(search.rounds[r][t2]))
                d = search.delta(r, t1, i1, t2, i2)
                if d <= 0 or rand() < math.exp(-d / temperature):
                    search.swap(r, t1, i1, t2, i2, d)
                    if search.cost < best_cost:
                        best, best_cost = [[list(t) for t in rnd] for rnd in search.rounds], search.cost
                        if best_cost <= bound:
                            break
                temperature *= cooling
            if best_cost <= bound:
                break
    return [Seating(tuple(tuple(sorted((names[i] for i in t), key=spec.players.index)) for t in rnd), out)
            for rnd, out, spec in zip(best, outs, specs)]


def plan_swiss(spec: RoundSpec, standing: Sequence[str], history: Sequence[Seating] = (),
               points: Mapping[str, float] | None = None, seed: int = 0) -> Seating:
    """One round seated by standing: ``standing`` lists the players best first (a player of the
    round not in it comes last, in the seed's order). Sit-outs go to the fewest sit-outs so far,
    then the lowest standing; the others are cut in standing order into the tables (the largest
    tables first), then two players of neighbouring tables swap when it lowers the repeated pairs
    and they have equal ``points`` (or, without points, are next to each other in the order)."""
    _check_names(spec)
    rng = random.Random(seed)
    rest = [p for p in spec.players if p not in standing]
    rng.shuffle(rest)
    order = [p for p in standing if p in spec.players] + rest
    sizes = table_sizes(len(spec.players), spec.tables)
    before: dict[str, int] = {}
    for h in history:
        for p in h.sit_out:
            before[p] = before.get(p, 0) + 1
    out = _sit_outs(spec, sizes, before, {}, order)
    seated = [p for p in order if p not in out]
    by_size = sorted(range(len(sizes)), key=lambda t: (-sizes[t], t))
    tables: list[list[str]] = [[] for _ in sizes]
    k = 0
    for t in by_size:
        tables[t] = seated[k:k + sizes[t]]
        k += sizes[t]
    rank = {p: i for i, p in enumerate(seated)}
    met = pair_counts(history)

    def cost(table: Sequence[str]) -> int:
        return sum(1 for a, b in combinations(table, 2) if met.get(frozenset((a, b)), 0) >= 1)

    def close(a: str, b: str) -> bool:
        if points is not None:
            return points.get(a, 0) == points.get(b, 0)
        return abs(rank[a] - rank[b]) == 1

    improved = True
    while improved:
        improved = False
        for one, two in zip(by_size, by_size[1:]):
            if not tables[one] or not tables[two]:
                continue
            for i, a in enumerate(tables[one]):
                for j, b in enumerate(tables[two]):
                    if not close(a, b):
                        continue
                    x, y = list(tables[one]), list(tables[two])
                    x[i], y[j] = b, a
                    if cost(x) + cost(y) < cost(tables[one]) + cost(tables[two]):
                        tables[one], tables[two] = x, y
                        improved = True
                        break
                if improved:
                    break
    return Seating(tuple(tuple(sorted(t, key=spec.players.index)) for t in tables), out)


def plan_tables(players: int, counts: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The tables of one game for ``players``: the fewest that seat everyone (a plan on the command
    line names a game, not the tables)."""
    lo, hi = counts
    return ((lo, hi),) * max(1, math.ceil(players / hi))
