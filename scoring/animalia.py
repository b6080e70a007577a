"""Animalia: three seasons of drafting collections of show animals, an elegance prize, medals.

The referee follows §4.4 of the table-record spec and the Animalia section of rules-decisions.md.
The physical deck is shuffled at the table: the record says which card is turned over, and the
engine knows where every card is (deck, lot, collections, bonus cards, covered or set-aside cards).

Rulings where the rulebook is silent (each is in the rules reference with its alternative):

- ``ANI-POWER-ONCE``: a take activates each power at most once.
- ``ANI-POWER-ROOM`` / ``ANI-POWER-GIVE-ROOM``: a power whose card movement would push a collection
  over 5 cards cannot be used that way: a thief whose collection is full renounces; a prankster
  gives to another collection that has room, and renounces only when none has.
- ``ANI-POWER-TEXTS``: the game-aid cards with the powers' texts are not in our rulebook; the record
  keeps the movement the table made (thief: a card into the actor's collection; prankster: a card
  out of it into another player's; spy: no movement).
- ``ANI-ELEGANCE-ROWS`` / ``ANI-ELEGANCE-PLAYER``: with 2 players each row competes for the prize on
  its own (variant ``elegance: "collection"``), or a player's two rows are added (``"player"``).
- ``ANI-BONUS-ORDER``: bonus cards may be entered in any order while the deck holds at least as many
  cards as are still owed; when it does not, the elegance order decides (first place, then second;
  equal places in seating order from the first player) and an entry out of that order is refused.
- ``ANI-FORCED-ROWS``: with 2 players the lot back at the dealer must be taken when it holds 3 cards
  or when no row of the dealer could hold one card more; a lot that fills one row while the other
  row has more room makes the dealer draw.
- ``ANI-COVER-AGAIN``: a bonus card may be laid over a bonus card laid earlier in the season.
- ``ANI-DECK-OUT``: when a card must be drawn and the deck is empty, phase 1 ends with the lot in
  play set aside and incomplete collections kept; bonus cards that cannot be drawn are not given.
- ``ANI-LAST`` with 2 players: the solo rule applies when only one player still has an incomplete row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

from models.games.animalia import ANI_CARDS, ANIMALIA
from models.games.animalia_structs import (
    ANIAction,
    ANIBonus,
    ANICover,
    ANIDraw,
    ANIMedals,
    ANIPass,
    ANIPowerUse,
    ANIRenounce,
    ANITake,
)
from models.i18n import Msg
from scoring.animalia_medals import (
    EXCELLENCE_POINTS,
    FULL,
    Medals,
    count_msg,
    excellence,
    medal_choices,
    normalised,
)
from scoring.base import (
    Engine,
    Event,
    Expectation,
    Outcome,
    RuleViolation,
    event,
    rank_by,
)

POWERS: tuple[str, ...] = ("thief", "spy", "prankster")
STARS: Mapping[str, int] = {"champion": 3, "dandy": 2, "scruffy": -1}
SEASONS = 3
LOT_MAX = 3


class Phase(Enum):
    DEAL = "deal"  # phase 1: draw, take, pass
    POWERS = "powers"  # phase 1: activated powers wait to be used or renounced
    BONUS = "bonus"  # phase 2: bonus cards drawn for the elegance prize
    MEDALS = "medals"  # phase 3: covers, then medals per collection
    OVER = "over"


Slot = tuple[str, int]  # (player, row): one collection


@dataclass(slots=True)
class Pending:
    actor: str
    row: int
    powers: list[str]


@dataclass(slots=True)
class Prize:
    """One competitor in the elegance prize: a collection, or (variant ``player``) a player."""

    player: str
    row: int | None  # None: the player's rows added
    stars: int
    place: int  # 1, 2, or 0 (no prize)
    cards: int  # bonus cards owed


@dataclass(slots=True)
class SeasonTally:
    season: int
    medals: dict[Slot, Medals] = field(default_factory=dict)

    def of(self, player: str) -> Medals:
        out: Medals = {}
        for (p, _), medals in self.medals.items():
            if p == player:
                for f, n in medals.items():
                    out[f] = out.get(f, 0) + n
        return normalised(out)


@cache  # messages are immutable: one per card name, shared (every take and draw names cards)
def card(name: str) -> Msg:
    return Msg(f"ani.card.{name}")


def cards_msg(names: Iterable[str]) -> list[Msg]:
    return [card(c) for c in names]


@cache  # a card's name never changes its power: every take asks for each card of the lot and the row
def power_of(name: str) -> str | None:
    member = name.split("-", 1)[1] if "-" in name else ""
    return member if member in POWERS else None


def stars_of(name: str) -> int:
    return STARS.get(name.split("-", 1)[1], 0) if "-" in name else 0


def medals_msg(medals: Mapping[str, int]) -> Msg | list[Msg]:
    if not medals:
        return Msg("ani.medals.none")
    return [Msg("ani.medals.family", {"count": count_msg("medals", n), "family": Msg(f"ani.family.{f}")})
            for f, n in medals.items() if n]


class AnimaliaEngine(Engine[ANIAction]):
    """Referee of Animalia.

    Public, read-only state for the table screen:

    - ``season`` (1–3), ``phase`` (:class:`Phase`), ``two`` (2 players: rows 0 and 1), ``rows``.
    - ``in_game``: the cards of this game (without the five ``*-cute`` with 2–4 players).
    - ``deck``: cards that can be drawn; ``lot``: the lot in play; ``dealer``; ``holder``: who the lot
      is offered to (``None`` while a card must be drawn); ``forced``: the holder must take;
      ``solo``: the last incomplete player takes card by card.
    - ``collections``: ``{(player, row): [cards]}``; ``pending``: :class:`Pending` powers or None.
    - ``bonus``: ``{player: [cards]}`` — PRIVATE (a shared screen shows only the counts).
    - ``discarded``: cards covered this season; ``set_aside``: a lot set aside when the deck ran out.
    - ``prizes``: the elegance prize of this season (:class:`Prize` s), ``owed``: players still owed
      a bonus card, in drawing order.
    - ``tallies``: :class:`SeasonTally` per season — PRIVATE until revealed; ``medals``: totals.
    """

    games = ("animalia",)
    spec = ANIMALIA  # its rule specs, variants and excluded readings (Engine reads them from it)

    def __init__(self, record: Any):
        super().__init__(record)
        self.two: bool = len(self.players) == 2
        self.rows: tuple[int, ...] = (0, 1) if self.two else (0,)
        self.elegance: str = self.variant_value(record, "elegance")
        self.per: int = 7 if self.two else 5  # medals per excellence prize
        self.in_game: frozenset[str] = frozenset(
            c for c in ANI_CARDS if len(self.players) >= 5 or not c.endswith("-cute"))
        self.season: int = 1
        self.phase: Phase = Phase.DEAL
        self.bonus: dict[str, list[str]] = {p: [] for p in self.players}
        self.medals: dict[str, Medals] = {p: {} for p in self.players}
        self.tallies: list[SeasonTally] = []
        self.dealer: str = self.first_player
        self._start_season()

    def _start_season(self) -> None:
        held = {c for cards in self.bonus.values() for c in cards}
        self.deck: set[str] = set(self.in_game) - held
        self.collections: dict[Slot, list[str]] = {(p, r): [] for p in self.players for r in self.rows}
        self.lot: list[str] = []
        self.holder: str | None = None
        self.forced: bool = False
        # a lot back at a 2-player dealer that fills one row while the other has room: the dealer
        # draws (ANI-FORCED-ROWS); before that ruling the take was forced (see ``replay_note``)
        self.rows_draw: bool = False
        self.solo: bool = False
        self.pending: Pending | None = None
        self.discarded: list[str] = []
        self.laid: set[str] = set()  # bonus cards laid this season (one may be covered again)
        self.set_aside: list[str] = []
        self.prizes: list[Prize] = []
        self.owed: list[str] = []
        self.tallies.append(SeasonTally(self.season))
        self.phase = Phase.DEAL

    # -- helpers ----------------------------------------------------------------------------------

    def left_of(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def incomplete(self, player: str) -> bool:
        collections = self.collections
        for r in self.rows:  # (a loop: asked several times an action, where a generator costs more)
            if len(collections[(player, r)]) < FULL:
                return True
        return False

    def fitting_rows(self, player: str, n: int) -> tuple[int, ...]:
        return tuple(r for r in self.rows if len(self.collections[(player, r)]) + n <= FULL)

    def _row(self, row: int | None) -> int:
        return 0 if row is None else row

    def _who(self, player: str, row: int | None) -> Msg:
        if not self.two or row is None:
            return Msg("ani.who.player", {"player": player})
        return Msg("ani.who.row", {"player": player, "row": row + 1})

    def medal_choices(self, player: str, row: int = 0) -> list[Medals]:
        """Every medal set the collection allows now (after its covers)."""
        return medal_choices(self.collections[(player, row)])

    def medals_due(self, player: str) -> tuple[int, ...]:
        """The rows of ``player`` whose medals are still to be taken this season."""
        if self.phase is not Phase.MEDALS:
            return ()
        return tuple(r for r in self.rows if (player, r) not in self.tallies[-1].medals)

    def score(self, player: str) -> int:
        medals = self.medals[player]
        return sum(medals.values()) + EXCELLENCE_POINTS * excellence(medals, self.per)

    def activated(self, slot: Slot, lot: list[str]) -> list[str]:
        """The powers a take of ``lot`` into ``slot`` activates (each at most once)."""
        in_lot = [power for c in lot if (power := power_of(c)) is not None]
        if not in_lot:  # most lots: no power at all
            return []
        before = {power_of(c) for c in self.collections[slot]}
        out = []
        for power in POWERS:
            count = in_lot.count(power)
            if count and (power in before or count >= 2):
                out.append(power)
        return out

    # -- checks -----------------------------------------------------------------------------------

    def _refuse_over(self) -> None:
        if self.phase is Phase.OVER:
            raise RuleViolation("ANI-OVER", "ani.err.over")

    def _card_in_game(self, name: str) -> None:
        if name not in self.in_game:
            raise RuleViolation("ANI-SETUP-CUTE", "ani.err.cute", card=card(name), count=len(self.players))

    def _in_deck(self, name: str) -> None:
        self._card_in_game(name)
        if name not in self.deck:
            raise RuleViolation("ANI-NOT-IN-DECK", "ani.err.not_in_deck", card=card(name),
                                where=self._where(name))

    def _where(self, name: str) -> Msg:
        if name in self.lot:
            return Msg("ani.where.lot")
        for (p, r), cards in self.collections.items():
            if name in cards:
                return Msg("ani.where.collection", {"who": self._who(p, r)})
        if name in self.discarded:
            return Msg("ani.where.covered")
        if name in self.set_aside:
            return Msg("ani.where.set_aside")
        return Msg("ani.where.bonus")  # held as a bonus card: the only other place

    def _phase_refusal(self, action_type: str) -> RuleViolation:
        expected = self.expected()
        return RuleViolation("ANI-PHASE", "ani.err.phase", action=action_type, prompt=expected.prompt)

    def _check(self, action: ANIAction) -> None:
        self._refuse_over()
        if action.type == "draw":
            self._check_draw(action)
        elif (action.type == "take" or action.type == "pass"):
            self._check_offer(action)
        elif (action.type == "power" or action.type == "renounce"):
            self._check_power(action)
        elif action.type == "bonus":
            self._check_bonus(action)
        elif (action.type == "cover" or action.type == "medals"):
            self._check_phase3(action)
        else:  # pragma: no cover - the record model knows every type
            raise self._phase_refusal(action.type)

    def _check_phase1(self, kind: str) -> None:
        if self.phase is Phase.POWERS and self.pending is not None:
            raise RuleViolation("ANI-POWER-NOW", "ani.err.power_now", player=self.pending.actor,
                                powers=[Msg(f"ani.power.{p}") for p in self.pending.powers])
        if self.phase is not Phase.DEAL:
            raise self._phase_refusal(kind)

    def _check_draw(self, action: ANIDraw) -> None:
        self._check_phase1("draw")
        if self.holder is not None:
            key = "ani.err.no_draw_take" if self.forced or self.solo else "ani.err.no_draw"
            raise RuleViolation("ANI-TURN", key, player=self.holder, lot=cards_msg(self.lot))
        self._in_deck(action.card)

    def _check_offer(self, action: ANITake | ANIPass) -> None:
        self._check_phase1(action.type)
        if self.holder is None:
            raise RuleViolation("ANI-TURN", "ani.err.draw_first", dealer=self.dealer)
        if action.player != self.holder:
            raise RuleViolation("ANI-TURN", "ani.err.turn", player=action.player, holder=self.holder)
        if action.type == "pass":
            if self.solo:
                raise RuleViolation("ANI-LAST", "ani.err.last", player=action.player)
            if self.forced:
                if self.two and len(self.lot) < LOT_MAX:  # the two-row ruling, not the lot of 3
                    raise RuleViolation("ANI-FORCED-ROWS", "ani.err.forced_rows", player=action.player,
                                        count=count_msg("cards", len(self.lot)))
                raise RuleViolation("ANI-FORCED-TAKE", "ani.err.forced", player=action.player,
                                    count=count_msg("cards", len(self.lot)))
            return
        row = self._row(action.row)
        if len(self.collections[(action.player, row)]) + len(self.lot) > FULL:
            raise RuleViolation("ANI-FULL", "ani.err.full", who=self._who(action.player, action.row),
                                has=count_msg("cards", len(self.collections[(action.player, row)])),
                                lot=count_msg("cards", len(self.lot)))

    def _check_power(self, action: ANIPowerUse | ANIRenounce) -> None:
        self._refuse_over()
        pending = self.pending
        if self.phase is not Phase.POWERS or pending is None:
            raise RuleViolation("ANI-POWER-NOT-ACTIVE", "ani.err.no_power", player=action.player,
                                power=Msg(f"ani.power.{action.power}"))
        if action.player != pending.actor or action.power not in pending.powers:
            raise RuleViolation("ANI-POWER-NOT-ACTIVE", "ani.err.power_not_active", player=action.player,
                                power=Msg(f"ani.power.{action.power}"), actor=pending.actor,
                                powers=[Msg(f"ani.power.{p}") for p in pending.powers])
        if action.type == "renounce":
            return
        power = action.power
        has_card, has_from, has_to = action.card is not None, action.from_ is not None, action.to is not None
        shape = {"thief": (True, True, False), "prankster": (True, False, True), "spy": (False, False, False)}
        if (has_card, has_from, has_to) != shape[power]:
            raise RuleViolation("ANI-POWER-MOVE", f"ani.err.move_{power}", player=action.player)
        if self.two and power != "spy" and action.row != pending.row:  # a spy moves nothing: its row is ignored
            raise RuleViolation("ANI-POWER-ROW", "ani.err.power_row", player=action.player, row=pending.row + 1)
        mine: Slot = (pending.actor, pending.row)
        if power == "thief":
            if action.from_ == action.player:
                raise RuleViolation("ANI-POWER-OWN", "ani.err.own_thief", player=action.player)
            assert action.from_ is not None  # the shape above: a thief names where the card comes from
            source: Slot = (action.from_, self._row(action.from_row))
            if action.card not in self.collections[source]:
                raise RuleViolation("ANI-POWER-CARD", "ani.err.power_card", card=card(action.card),
                                    who=self._who(*source) if self.two else self._who(source[0], None))
            if len(self.collections[mine]) >= FULL:
                raise RuleViolation("ANI-POWER-ROOM", "ani.err.room_thief", who=self._who(mine[0], action.row))
        elif power == "prankster":
            if action.to == action.player:
                raise RuleViolation("ANI-POWER-OWN", "ani.err.own_prankster", player=action.player)
            if action.card not in self.collections[mine]:
                raise RuleViolation("ANI-POWER-CARD", "ani.err.power_card", card=card(action.card),
                                    who=self._who(mine[0], action.row))
            assert action.to is not None  # the shape above: a prankster names who receives the card
            target: Slot = (action.to, self._row(action.to_row))
            if len(self.collections[target]) >= FULL:
                open_slots = [self._who(*slot) for slot, cards in self.collections.items()
                              if slot[0] != action.player and len(cards) < FULL]
                if open_slots:
                    raise RuleViolation("ANI-POWER-GIVE-ROOM", "ani.err.room_prankster",
                                        who=self._who(action.to, action.to_row), open=open_slots)
                raise RuleViolation("ANI-POWER-GIVE-ROOM", "ani.err.room_prankster_none",
                                    who=self._who(action.to, action.to_row))

    def bonus_in_order(self) -> bool:
        """Ruling ANI-BONUS-ORDER: the elegance order binds only when the deck cannot serve everyone owed."""
        return len(self.deck) < len(self.owed)

    def bonus_players(self) -> tuple[str, ...]:
        """Who a bonus card may be entered for now."""
        if not self.owed:
            return ()
        if self.bonus_in_order():
            return (self.owed[0],)
        return tuple(dict.fromkeys(self.owed))

    def _check_bonus(self, action: ANIBonus) -> None:
        if self.phase is not Phase.BONUS:
            raise self._phase_refusal("bonus")
        if action.player not in self.owed:
            raise RuleViolation("ANI-BONUS-ORDER", "ani.err.bonus_not_owed", player=action.player,
                                owed=list(self.bonus_players()))
        if action.player not in self.bonus_players():
            raise RuleViolation("ANI-BONUS-ORDER", "ani.err.bonus_order", player=action.player, next=self.owed[0],
                                deck=count_msg("cards", len(self.deck)), owed=count_msg("bonus", len(self.owed)))
        self._in_deck(action.card)

    def _check_phase3(self, action: ANICover | ANIMedals) -> None:
        if self.phase is not Phase.MEDALS:
            raise self._phase_refusal(action.type)
        row = self._row(action.row)
        slot: Slot = (action.player, row)
        if slot in self.tallies[-1].medals:
            raise RuleViolation("ANI-MEDALS-DONE", "ani.err.medals_done", who=self._who(action.player, action.row))
        if action.type == "cover":
            self._card_in_game(action.bonus)
            if action.bonus not in self.bonus[action.player]:
                raise RuleViolation("ANI-COVER-BONUS", "ani.err.cover_bonus", player=action.player,
                                    card=card(action.bonus))
            if action.card not in self.collections[slot]:
                raise RuleViolation("ANI-COVER-CARD", "ani.err.cover_card", card=card(action.card),
                                    who=self._who(action.player, action.row))
            return
        wanted = normalised(action.medals)
        choices = medal_choices(self.collections[slot])
        if wanted not in choices:
            raise RuleViolation("ANI-MEDALS-CHOICE", "ani.err.medals_choice", who=self._who(action.player, action.row),
                                choices=[Msg("ani.choice", {"medals": medals_msg(c)}) for c in choices])

    # -- performing -------------------------------------------------------------------------------

    def _perform(self, action: ANIAction) -> Iterable[Msg]:
        if action.type == "draw":
            return self._draw(action.card)
        if action.type == "take":
            return self._take(action.player, self._row(action.row))
        if action.type == "pass":
            return self._pass(action.player)
        if (action.type == "power" or action.type == "renounce"):
            return self._power(action)
        if action.type == "bonus":
            return self._bonus(action.player, action.card)
        if action.type == "cover":
            return self._cover(action.player, self._row(action.row), action.bonus, action.card)
        return self._medals(action.player, self._row(action.row), normalised(action.medals))

    def _draw(self, name: str) -> list[Msg]:
        self.deck.discard(name)
        self.lot.append(name)
        self.holder = self.dealer
        self.forced = self.solo
        self.rows_draw = False
        if self.quiet:  # the verdict's fold: the same changes, no sentence
            return []
        if len(self.lot) == 1:
            return [event("ANI-DEAL", "ani.event.draw", dealer=self.dealer, card=card(name))]
        return [event("ANI-DEAL", "ani.event.grows", dealer=self.dealer, card=card(name),
                      lot=count_msg("cards", len(self.lot)))]

    def _take(self, player: str, row: int) -> list[Msg]:
        slot: Slot = (player, row)
        lot, self.lot = self.lot, []
        powers = self.activated(slot, lot)
        self.collections[slot].extend(lot)
        self.holder = None
        self.forced = False
        quiet = self.quiet
        out: list[Msg] = [] if quiet else [
            event(("ANI-DEAL",), "ani.event.take", who=self._who(player, row if self.two else None),
                  cards=cards_msg(lot), has=count_msg("cards", len(self.collections[slot])))]
        if powers:
            self.pending = Pending(player, row, powers)
            self.phase = Phase.POWERS
            if not quiet:
                out.append(event(("ANI-POWERS", "ANI-POWER-ONCE"), "ani.event.activated", player=player,
                                 powers=[Msg(f"ani.power.{p}") for p in powers]))
            return out
        out.extend(self._next_dealer())
        return out

    def _pass(self, player: str) -> list[Msg]:
        size = len(self.lot)
        skipped: list[str] = []
        here = self.left_of(player)
        while here != self.dealer and not (self.incomplete(here) and self.fitting_rows(here, size)):
            skipped.append(here)
            here = self.left_of(here)
        out: list[Msg] = []
        quiet = self.quiet
        if skipped and not quiet:
            out.append(event("ANI-SKIP", "ani.event.skipped", players=skipped))
        if here != self.dealer:
            self.holder = here
            if not quiet:
                out.append(event("ANI-DEAL", "ani.event.pass", player=player, next=here))
            return out
        # the rulebook's reason: a collection never exceeds 5, so a lot that leaves no room for one card more
        # must be taken; with 2 rows (ruling ANI-FORCED-ROWS) only when no row could hold one card more
        no_room = not self.fitting_rows(here, size + 1)
        if size >= LOT_MAX or no_room:
            self.holder, self.forced = here, True
            if size >= LOT_MAX:
                rules, key = ("ANI-DEAL", "ANI-FORCED-TAKE"), "ani.event.back_forced_three"
            elif self.two:
                rules, key = ("ANI-DEAL", "ANI-FORCED-ROWS"), "ani.event.back_forced_rows"
            else:
                rules, key = ("ANI-DEAL", "ANI-FORCED-TAKE"), "ani.event.back_forced_complete"
            out.append(event(rules, key, player=player, dealer=here))
            return out
        self.holder = None
        if self.two and any(len(self.collections[(here, r)]) + size == FULL for r in self.rows):
            self.rows_draw = True
            out.append(event(("ANI-DEAL", "ANI-FORCED-ROWS"), "ani.event.back_draw_rows", player=player, dealer=here))
        else:
            out.append(event("ANI-DEAL", "ani.event.back_draw", player=player, dealer=here))
        if not self.deck:
            out.extend(self._deck_out())
        return out

    def replay_note(self, rule: str | None = None) -> Msg | None:
        """Why a 2-player game saved when a lot back at the dealer that filled one row had to be taken
        no longer replays: since ANI-FORCED-ROWS the dealer draws when the other row has room."""
        return Msg("ani.replay.forced_rows") if rule == "ANI-TURN" and self.rows_draw else None

    def _power(self, action: ANIPowerUse | ANIRenounce) -> list[Msg]:
        pending = self.pending
        assert pending is not None
        pending.powers.remove(action.power)
        out: list[Msg] = []
        power = Msg(f"ani.power.{action.power}")
        if action.type == "renounce":
            out.append(event("ANI-POWERS", "ani.event.renounce", player=action.player, power=power))
        elif action.power == "spy":
            out.append(event(("ANI-POWERS", "ANI-POWER-TEXTS"), "ani.event.spy", player=action.player))
        else:
            assert action.type == "power" and action.card is not None  # checked: ANI-POWER-MOVE
            if action.power == "thief":
                assert action.from_ is not None
                source: Slot = (action.from_, self._row(action.from_row))
                target: Slot = (pending.actor, pending.row)
            else:
                assert action.to is not None
                source, target = (pending.actor, pending.row), (action.to, self._row(action.to_row))
            was_full = len(self.collections[source]) == FULL
            self.collections[source].remove(action.card)
            self.collections[target].append(action.card)
            if action.power == "thief":
                out.append(event(("ANI-POWERS", "ANI-POWER-TEXTS"), "ani.event.thief", player=action.player,
                                 card=card(action.card), victim=self._who(source[0], source[1] if self.two else None)))
            else:
                out.append(event(("ANI-POWERS", "ANI-POWER-TEXTS"), "ani.event.prankster", player=action.player,
                                 card=card(action.card), to=self._who(target[0], target[1] if self.two else None)))
            if was_full:
                out.append(event("ANI-ROBBED", "ani.event.rejoins", who=self._who(source[0], source[1] if self.two else None)))
        if not pending.powers:
            self.pending = None
            self.phase = Phase.DEAL
            out.extend(self._next_dealer())
        return out

    def _next_dealer(self) -> list[Msg]:
        """The dealer's turn is over: the deck goes left to the next incomplete player."""
        here = self.left_of(self.dealer)
        for _ in self.players:
            if self.incomplete(here):
                break
            here = self.left_of(here)
        else:
            return [event("ANI-DEAL", "ani.event.phase1_done")] + self._start_phase2()
        out: list[Msg] = []
        self.dealer = here
        was_solo = self.solo
        incomplete = self.incomplete
        self.solo = sum(1 for p in self.players if incomplete(p)) == 1
        if self.quiet:
            pass
        elif self.solo and not was_solo:
            out.append(event("ANI-LAST", "ani.event.solo", player=here))
        elif not self.solo:
            out.append(event("ANI-DEAL", "ani.event.dealer", dealer=here))
        if not self.deck:
            out.extend(self._deck_out())
        return out

    def _deck_out(self) -> list[Msg]:
        """Ruling ANI-DECK-OUT: a card must be drawn and none is left."""
        aside, self.lot = self.lot, []
        self.set_aside.extend(aside)
        self.holder = None
        out: list[Msg] = [event("ANI-DECK-OUT", "ani.event.deck_out", lot=cards_msg(aside) if aside else Msg("ani.lot.empty"))]
        return out + self._start_phase2()

    # -- phase 2 ----------------------------------------------------------------------------------

    def _start_phase2(self) -> list[Msg]:
        self.phase = Phase.BONUS
        self.holder, self.forced, self.solo = None, False, False
        competitors: list[tuple[str, int | None, int]] = []
        if self.two and self.elegance == "player":
            for p in self.players:
                competitors.append((p, None, sum(stars_of(c) for r in self.rows for c in self.collections[(p, r)])))
        else:
            for p in self.players:
                for r in self.rows:
                    competitors.append((p, r if self.two else None, sum(stars_of(c) for c in self.collections[(p, r)])))
        levels = sorted({s for _, _, s in competitors}, reverse=True)
        top = [c for c in competitors if c[2] == levels[0]]
        second = [c for c in competitors if len(levels) > 1 and c[2] == levels[1]] if len(top) == 1 else []
        rule = ("ANI-ELEGANCE-PLAYER",) if self.two and self.elegance == "player" else (
            ("ANI-ELEGANCE-ROWS",) if self.two else ())
        out: list[Msg] = [event(("ANI-ELEGANCE",) + rule, "ani.event.elegance",
                                stars=[Msg("ani.stars_of", {"who": self._who(c[0], c[1]), "stars": count_msg("stars", c[2])})
                                       for c in sorted(competitors, key=lambda c: -c[2])])]
        self.prizes = []
        for entry in competitors:
            place = 1 if entry in top else 2 if entry in second else 0
            cards = (2 if len(top) == 1 else 1) if place == 1 else 1 if place == 2 else 0
            self.prizes.append(Prize(entry[0], entry[1], entry[2], place, cards))
        self.owed = [z.player for place in (1, 2) for z in self.prizes if z.place == place for _ in range(z.cards)]
        if len(top) == 1:
            winner = top[0]
            out.append(event("ANI-PRIZE", "ani.event.prize_first", who=self._who(winner[0], winner[1]),
                             cards=count_msg("cards", 2)))
            if second:
                out.append(event("ANI-PRIZE", "ani.event.prize_second", who=[self._who(c[0], c[1]) for c in second],
                                 n=len(second)))
        else:
            out.append(event("ANI-PRIZE", "ani.event.prize_tie", who=[self._who(p, r) for p, r, _ in top]))
        out.append(event(("ANI-PRIZE", "ANI-BONUS-ORDER"), "ani.event.owed", order=list(self.owed)))
        out.extend(self._bonus_done_if_needed())
        return out

    def _bonus(self, player: str, name: str) -> list[Msg]:
        self.deck.discard(name)
        self.bonus[player].append(name)
        self.owed.remove(player)  # the first of the player's places: the rest keep the elegance order
        out: list[Msg] = [event("ANI-PRIZE", "ani.event.bonus", player=player,
                                holds=count_msg("bonus", len(self.bonus[player])))]
        return out + self._bonus_done_if_needed()

    def _bonus_done_if_needed(self) -> list[Msg]:
        out: list[Msg] = []
        if self.owed and not self.deck:
            out.append(event("ANI-DECK-OUT", "ani.event.bonus_short", players=sorted(set(self.owed), key=self.players.index)))
            self.owed = []
        if self.owed:
            return out
        self.phase = Phase.MEDALS
        out.append(event(("ANI-MEDALS", "ANI-COVER"), "ani.event.phase3"))
        return out

    # -- phase 3 ----------------------------------------------------------------------------------

    def _cover(self, player: str, row: int, bonus: str, name: str) -> list[Msg]:
        cards = self.collections[(player, row)]
        cards[cards.index(name)] = bonus
        self.bonus[player].remove(bonus)
        self.discarded.append(name)
        again = name in self.laid
        self.laid.discard(name)
        self.laid.add(bonus)
        return [event(("ANI-COVER", "ANI-COVER-AGAIN") if again else "ANI-COVER", "ani.event.cover", who=self._who(player, row if self.two else None),
                      bonus=card(bonus), card=card(name))]

    def _medals(self, player: str, row: int, medals: Medals) -> list[Msg]:
        tally = self.tallies[-1]
        tally.medals[(player, row)] = medals
        total = self.medals[player]
        for f, n in medals.items():
            total[f] = total.get(f, 0) + n
        self.medals[player] = normalised(total)
        out: list[Msg] = [event("ANI-MEDALS", "ani.event.medals", who=self._who(player, row if self.two else None))]
        if len(tally.medals) < len(self.collections):
            return out
        out.append(event("ANI-SEASON", "ani.event.season_end", season=self.season))
        if self.season == SEASONS:
            self.phase = Phase.OVER
            out.append(event("ANI-SEASON", "ani.event.game_over"))
            return out
        self.season += 1
        self.dealer = self.left_of(self.dealer)
        self._start_season()
        held = sum(len(c) for c in self.bonus.values())
        out.append(event("ANI-SEASON", "ani.event.season_start", season=self.season, dealer=self.dealer,
                         held=count_msg("bonus", held), deck=count_msg("cards", len(self.deck))))
        return out

    # -- what comes next ----------------------------------------------------------------------------

    def expected(self) -> Expectation:
        if self.phase is Phase.OVER:
            return Expectation((), (), Msg("ani.prompt.over"))
        if self.phase is Phase.POWERS and self.pending is not None:
            return Expectation((self.pending.actor,), ("power", "renounce"), Msg("ani.prompt.powers", {
                "player": self.pending.actor, "powers": [Msg(f"ani.power.{p}") for p in self.pending.powers]}))
        if self.phase is Phase.BONUS:
            players = self.bonus_players()
            if len(players) == 1:
                return Expectation(players, ("bonus",), Msg("ani.prompt.bonus", {"player": players[0]}))
            return Expectation(players, ("bonus",), Msg("ani.prompt.bonus_any", {"players": list(players)}))
        if self.phase is Phase.MEDALS:
            waiting = tuple(p for p in self.players if self.medals_due(p))
            return Expectation(waiting, ("cover", "medals"), Msg("ani.prompt.medals", {"players": list(waiting)}))
        if self.holder is None:
            key = "ani.prompt.draw_more" if self.lot else "ani.prompt.draw"
            return Expectation((), ("draw",), Msg(key, {"dealer": self.dealer, "season": self.season}))
        lot = cards_msg(self.lot)
        if self.solo:
            return Expectation((self.holder,), ("take",), Msg("ani.prompt.solo", {"player": self.holder, "lot": lot}))
        if self.forced:
            return Expectation((self.holder,), ("take",), Msg("ani.prompt.forced", {"player": self.holder, "lot": lot}))
        return Expectation((self.holder,), ("take", "pass"), Msg("ani.prompt.offer", {"player": self.holder, "lot": lot}))

    def outcome(self) -> Outcome | None:
        if self.phase is not Phase.OVER:
            return None
        scores = {p: self.score(p) for p in self.players}
        biggest = {p: max(self.medals[p].values(), default=0) for p in self.players}
        ranking = rank_by(self.players, {p: (scores[p], biggest[p]) for p in self.players})
        winners = tuple(p for p, rank in ranking if rank == 1)
        explanation: list[Event] = []
        for p in self.players:
            prizes = excellence(self.medals[p], self.per)
            explanation.append(event(("ANI-MEDALS", "ANI-EXCELLENCE"), "ani.explain.score", player=p,
                                     medals=count_msg("medals", sum(self.medals[p].values())),
                                     detail=medals_msg(self.medals[p]), prizes=count_msg("prizes", prizes),
                                     per=self.per, score=scores[p]))
        best = max(scores.values())
        top = [p for p in self.players if scores[p] == best]
        if len(top) > 1:
            if len(winners) == 1:
                explanation.append(event("ANI-TIE", "ani.explain.tie_family", players=top, score=best,
                                         winner=winners[0], family=count_msg("medals", biggest[winners[0]])))
            else:
                explanation.append(event("ANI-TIE", "ani.explain.tie_shared", players=list(winners), score=best,
                                         family=count_msg("medals", biggest[winners[0]])))
        else:
            explanation.append(event("ANI-EXCELLENCE", "ani.explain.winner", player=winners[0], score=best))
        return Outcome(scores=scores, eliminated=(), winners=winners, replay_required=False,
                       ranking=ranking, explanation=tuple(explanation))

    def power_actions(self) -> list[dict[str, Any]]:
        """Every legal ``power`` / ``renounce`` action (table-record form) for the pending powers."""
        pending = self.pending
        if self.phase is not Phase.POWERS or pending is None:
            return []
        actor, row = pending.actor, pending.row
        mine: Slot = (actor, row)
        rows: dict[str, Any] = {"row": row} if self.two else {}
        out: list[dict[str, Any]] = []
        for power in pending.powers:
            base = {"type": "power", "player": actor, "power": power, **rows}
            if power == "spy":  # no card moves: no row (table-record §4.4)
                out.append({"type": "power", "player": actor, "power": power})
            elif power == "thief" and len(self.collections[mine]) < FULL:
                for (p, r), cards in self.collections.items():
                    if p != actor:
                        for name in cards:
                            out.append({**base, "card": name, "from": p, **({"from_row": r} if self.two else {})})
            elif power == "prankster":
                for (p, r), cards in self.collections.items():
                    if p != actor and len(cards) < FULL:
                        for name in self.collections[mine]:
                            out.append({**base, "card": name, "to": p, **({"to_row": r} if self.two else {})})
            out.append({"type": "renounce", "player": actor, "power": power})
        return out

    def locations(self) -> dict[str, str]:
        """Where every card of the game is now (for tests and the assist view)."""
        where: dict[str, str] = {}
        for name in self.deck:
            where[name] = "deck"
        for name in self.lot:
            where[name] = "lot"
        for (p, r), cards in self.collections.items():
            for name in cards:
                where[name] = f"collection:{p}:{r}"
        for p, cards in self.bonus.items():
            for name in cards:
                where[name] = f"bonus:{p}"
        for name in self.discarded:
            where[name] = "covered"
        for name in self.set_aside:
            where[name] = "set_aside"
        return where
