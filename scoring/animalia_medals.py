"""Animalia's medals, and the medal adviser (pure: no UI, no database, no clock, no randomness).

- :func:`medal_choices` — every medal set a collection allows: pairs or more of one family give
  that many medals of the family, single animals none, five different families one each; the owl
  counts in the family its owner names (rule ``ANI-OWL``).
- :func:`advise` — every way to cover cards of a collection with the player's bonus cards and to
  count the owl, what each is worth now (medals this season) and at the end of the game (the
  excellence prizes it brings within reach together with the medals already won), and the best
  one with the reason it is proposed. It is advice: the player decides and enters the choice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from models.games.animalia import ANI_FAMILIES
from models.i18n import Msg

FAMILIES: tuple[str, ...] = ANI_FAMILIES
OWL = "owl"
FULL = 5  # cards in a complete collection
EXCELLENCE_POINTS = 5

Medals = dict[str, int]


def family_of(card: str) -> str | None:
    """The family of an animal card; ``None`` for the owl."""
    return None if card == OWL else card.split("-", 1)[0]


def medals_of(families: Sequence[str]) -> Medals:
    """Medals for a collection whose every card has a family (the owl already counted in one)."""
    counts = Counter(families)
    if len(families) == FULL and len(counts) == FULL:
        return {f: 1 for f in FAMILIES if f in counts}
    return {f: counts[f] for f in FAMILIES if counts[f] >= 2}


def _plural(n: int) -> str:
    return "zero" if n == 0 else "one" if abs(n) == 1 else "many"


def count_msg(noun: str, n: int) -> Msg:
    """``ani.n.cards.one`` "1 carte" / ``.many`` "2 cartes" / ``.zero`` (nouns: cards, stars, medals,
    bonus, prizes)."""
    return Msg(f"ani.n.{noun}.{_plural(n)}", {"n": n})


def _key(medals: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(medals.get(f, 0) for f in FAMILIES)


def owl_readings(cards: Sequence[str]) -> list[tuple[str | None, Medals]]:
    """(family the owl counts as, medals) for every reading of the collection; one reading with
    ``None`` when there is no owl. Readings giving the same medals are kept once (first family)."""
    families = [f for c in cards if (f := family_of(c)) is not None]
    if OWL not in cards:
        return [(None, medals_of(families))]
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[str | None, Medals]] = []
    for fam in FAMILIES:
        medals = medals_of(families + [fam])
        if _key(medals) not in seen:
            seen.add(_key(medals))
            out.append((fam, medals))
    return out


def medal_choices(cards: Sequence[str]) -> list[Medals]:
    """Every medal set the collection allows, most medals first."""
    choices = [m for _, m in owl_readings(cards)]
    return sorted(choices, key=lambda m: (-sum(m.values()), _key(m)))


def normalised(medals: Mapping[Any, int]) -> Medals:
    return {f: medals[f] for f in FAMILIES if medals.get(f, 0)}


def excellence(totals: Mapping[str, int], per: int) -> int:
    """Excellence prizes: one per ``per`` identical medals (5; 7 with 2 players)."""
    return sum(n // per for n in totals.values())


@dataclass(frozen=True, slots=True)
class Option:
    covers: tuple[tuple[str, str], ...]  # (bonus card laid, card it covers)
    owl_as: str | None  # the family the owl counts as (None: no owl in the collection)
    medals: Medals
    now: int  # medals this season
    excellence: int  # excellence prizes these medals add to the ones already in reach
    end: int  # what the option adds to the final score: medals + 5 per new excellence prize

    @property
    def used(self) -> int:
        return len(self.covers)


@dataclass(frozen=True, slots=True)
class Advice:
    options: tuple[Option, ...]  # best first
    best: Option
    reason: Msg
    # per option: the bonus cards it spends beyond an option listed before it that is worth as much
    # (0: none listed before is worth as much for fewer); such an option never comes first
    dearer: tuple[int, ...] = ()
    # why an option worth as much as the best but spending more bonus cards comes after it
    note: Msg | None = None


def _cover_sets(cards: Sequence[str], bonus: Sequence[str]) -> Iterable[tuple[tuple[str, str], ...]]:
    """Every set of covers: each bonus card laid on at most one card, each card covered at most once.
    Bonus cards of equal use are not told apart twice (the same card ids give the same covers)."""
    seen: set[tuple[tuple[str, str], ...]] = set()
    for k in range(min(len(bonus), len(cards)) + 1):
        for laid in sorted(set(permutations(bonus, k))):
            for targets in permutations(range(len(cards)), k):
                covers = tuple(sorted((b, cards[t]) for b, t in zip(laid, targets)))
                if covers not in seen:
                    seen.add(covers)
                    yield covers


def options(cards: Sequence[str], bonus: Sequence[str], totals: Mapping[str, int] | None = None,
            per: int = 5) -> list[Option]:
    """Every way to cover and to count the owl, with its worth; best first."""
    before = dict(totals or {})
    out: list[Option] = []
    seen: set[tuple[tuple[tuple[str, str], ...], tuple[int, ...]]] = set()
    for covers in _cover_sets(cards, bonus):
        covered = list(cards)
        for laid, target in covers:
            covered[covered.index(target)] = laid
        for owl_as, medals in owl_readings(covered):
            mark = (covers, _key(medals))
            if mark in seen:
                continue
            seen.add(mark)
            after = {f: before.get(f, 0) + medals.get(f, 0) for f in FAMILIES}
            gained = excellence(after, per) - excellence(before, per)
            now = sum(medals.values())
            out.append(Option(covers, owl_as, medals, now, gained, now + EXCELLENCE_POINTS * gained))
    out.sort(key=lambda o: (-o.end, o.used, -o.now, _key(o.medals), o.covers))
    return out


def _dearer(found: Sequence[Option]) -> tuple[int, ...]:
    """For each option, how many more bonus cards it spends than the cheapest option before it
    worth as much at the end (options come best first, so those worth as much come together)."""
    cheapest: dict[int, int] = {}
    out: list[int] = []
    for o in found:
        least = cheapest.setdefault(o.end, o.used)
        out.append(o.used - least)
    return tuple(out)


def advise(cards: Sequence[str], bonus: Sequence[str], totals: Mapping[str, int] | None = None,
           per: int = 5, *, later: bool = True) -> Advice:
    """The options, best first, and why the first is proposed (rules ANI-MEDALS, ANI-OWL,
    ANI-COVER, ANI-EXCELLENCE). Of options worth as much, the one spending fewer bonus cards comes
    first: a bonus card not laid stays in hand. ``later``: such a card can still serve (another
    season, or the player's other row this season); at the last collection of the game it cannot,
    and the note says the dearer options merely spend more for nothing more."""
    found = options(cards, bonus, totals, per)
    best = found[0]
    dearer = _dearer(found)
    note = None
    if any(o.end == best.end and o.used > best.used for o in found):
        note = Msg("ani.advice.why.cheaper" if later else "ani.advice.why.cheaper_last",
                   {"used": count_msg("bonus", best.used)})
    plain = next(o for o in found if not o.covers)  # keeping every bonus card
    if best.excellence:
        reason = Msg("ani.advice.why.excellence", {"end": best.end, "now": count_msg("medals", best.now),
                                                   "prizes": count_msg("prizes", best.excellence)})
    elif best.covers:
        reason = Msg("ani.advice.why.covers", {"now": count_msg("medals", best.now),
                                               "plain": count_msg("medals", plain.now),
                                               "used": count_msg("bonus", best.used)})
    elif bonus:
        reason = Msg("ani.advice.why.keep", {"now": count_msg("medals", best.now)})
    else:
        reason = Msg("ani.advice.why.most", {"now": count_msg("medals", best.now)})
    return Advice(tuple(found), best, reason, dearer, note)
