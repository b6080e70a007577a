"""A club evening's standings recomputed from the games themselves, to compare with the service's."""

from __future__ import annotations

from companion.service import SessionService


def recomputed(service: SessionService, evening_id: int) -> list[tuple[str, int, int, float | None, int]]:
    """The standings again from each linked game replayed (its engine's ranking), by the rules:
    (name, points, wins, average place, beaten), best first, in the service's order of equal lines."""
    evening = service.evenings.get(evening_id)
    figures = {p.name: [0, 0, 0, 0, 0] for p in evening.players}
    for rnd in evening.rounds:
        for table in rnd.tables:
            if table.session_id is None:
                continue
            outcome = service.open(table.session_id).outcome
            if outcome is None:
                continue
            ranks = dict(outcome.ranking)
            for name, rank in ranks.items():
                f = figures[name]
                f[0] += len(ranks) - rank
                f[1] += 1
                f[2] += name in outcome.winners
                f[3] += rank
                f[4] += sum(1 for other in ranks.values() if other > rank)
    lines = [(name, f[0], f[2], f[3] / f[1] if f[1] else None, f[4]) for name, f in figures.items()]
    return sorted(lines, key=lambda x: (-x[1], -x[2], x[3] if x[3] is not None else 99, -x[4], x[0].casefold()))
