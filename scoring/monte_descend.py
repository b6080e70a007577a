"""Monte & descend (AMIGO, 1998; game id ``monte-descend``): the play-legality referee of a match.

The record (table-record spec §4.5) is one whole match, deal after deal. Hands are hidden: the
engine knows how many cards each player holds, how many are in the reserve and on the discard pile,
the top card (its value is the value to follow), the direction and who laid the top card; never
who holds which card. It refuses a play of more cards than the player holds.

Play rules (rulebook, seed 004) and the app's rulings (rules-decisions.md), each with its rule id:

- Going up (after a blue card, or a yellow that kept or chose "up"): a blue card of the value to
  follow or higher (``MD-UP``); going down: a red card of that value or lower (``MD-DOWN``); a card
  of the other colour only on the same value, and it turns the direction (``MD-SWITCH``). A blue
  card always leaves the direction up and a red one down; after a yellow the next card follows the
  yellow's value the same way (``MD-FOLLOW-YELLOW``). Ruling: on a yellow, the other colour of the
  same value turns the direction as it does on a coloured card (``MD-YELLOW-SWITCH``).
- A yellow card goes on anything at any time, sets the value to follow and keeps the direction
  (``MD-YELLOW``), except on the same value or on another yellow: its player chooses the direction
  (``MD-DIRECTION``: ``direction`` is required exactly then, and must match the derived direction
  otherwise). Ruling: a yellow laid as a free play (the first card of a deal included) chooses the
  direction too (``MD-FREE-DIRECTION``).
- A series: the cards after the first step by exactly one in the direction its first card sets
  (``MD-SERIES``); its blue or red cards are all of that direction's colour (``MD-SERIES-COLOUR``);
  a series may start with the switch; only a yellow that ends it acts (``MD-ACTION-LAST``).
- Cannot play: draw one card (``MD-DRAW``), then play that card alone or pass (``MD-DRAW-ONE``,
  ``MD-PASS``). A player whose own card is still on top plays anything (``MD-FREE``); so does the
  first player of a deal (``MD-FIRST-CARD``, ruling): drawing is then refused (any card fits).
  Ruling: with two players a skip brings the turn back to its player, whose card is on top: a free
  play (``MD-SKIP-FREE``).
- Yellow actions: skip (``MD-SKIP``), take (``MD-TAKE``: the next player takes ``count`` cards
  from each of two other players, from the only other one with two players, then plays;
  ``MD-TAKE-FIRST``: nothing else before; ``MD-TAKE-LAST``: taking a player's last card makes
  that player go out; ``MD-TAKE-ORDER``, ruling: cards are taken in the order the players are
  named, and emptying a hand ends the deal at once), pass (``MD-PASS-CARDS``) and chaos
  (``MD-CHAOS``): every hand is gathered and dealt out again equally, each hand holding the total
  ÷ the players (rounded down); the remainder goes under the reserve. The reserve count grows by
  the remainder: those cards are drawn last, so the reserve runs out (and is rebuilt, or ends
  the deal) only once they are drawn too. No hand empties (each held one card at least). A yellow
  that empties its player's hand does not act (``MD-OUT-NO-ACTION``). Variant ``take_stacking``
  (``MD-STACK``): the player hit by a take may answer with a take of their own; the next player
  then takes one card more from each; ruling: the answer may be a series ending with a take
  (``MD-STACK-SERIES``).
- Reserve (``MD-RESERVE``): when it runs out, the discard pile except its top card becomes the new
  reserve; when it runs out again (or nothing lies under the top card), the deal ends at once.
- Deal points (``MD-DEAL-POINTS``): +5 to the player who went out, minus one per card in hand to
  every other player (to everyone when the reserve ran out). Next deal (``MD-NEXT-START``,
  ruling for ties): the fewest points so far starts; ties: the nearest to the left of the previous
  starter. Match (``MD-MATCH-END``, variant ``deals``; a « partie » of the rulebook is a deal): twice as many deals as players by default;
  then everything is refused (``MD-MATCH-OVER``). Ranking (``MD-RANKING``): match totals; equal
  totals share the place and the win.

Turn order is clockwise: the next player is the one after in ``players`` (to the left).
Every action costs the same early and late in a match: the engine keeps counts, the top card and
one small score line per finished deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, partial
from typing import Any

from models.games.monte_descend import MD_CARDS, MD_DECK, MD_HAND, MD_VALUES, MONTE_DESCEND
from models.games.monte_descend_structs import MDAction, MDPlay, MDTake
from models.i18n import Msg
from scoring.base import (
    Engine,
    Event,
    Expectation,
    Outcome,
    RuleViolation,
    event,
    rank_by,
)

GAME = "monte-descend"
OUT_BONUS = 5

# -- rule ids ------------------------------------------------------------------------------------

TURN = "MD-TURN"
HAND = "MD-HAND"
UP = "MD-UP"
DOWN = "MD-DOWN"
SWITCH = "MD-SWITCH"
FOLLOW_YELLOW = "MD-FOLLOW-YELLOW"
YELLOW_SWITCH = "MD-YELLOW-SWITCH"
YELLOW = "MD-YELLOW"
DIRECTION = "MD-DIRECTION"
FREE_DIRECTION = "MD-FREE-DIRECTION"
SERIES = "MD-SERIES"
SERIES_COLOUR = "MD-SERIES-COLOUR"
ACTION_LAST = "MD-ACTION-LAST"
SKIP = "MD-SKIP"
SKIP_FREE = "MD-SKIP-FREE"
TAKE = "MD-TAKE"
TAKE_FIRST = "MD-TAKE-FIRST"
TAKE_LAST = "MD-TAKE-LAST"
TAKE_ORDER = "MD-TAKE-ORDER"
PASS_CARDS = "MD-PASS-CARDS"
CHAOS = "MD-CHAOS"
OUT_NO_ACTION = "MD-OUT-NO-ACTION"
DRAW = "MD-DRAW"
DRAW_ONE = "MD-DRAW-ONE"
PASS = "MD-PASS"
FREE = "MD-FREE"
FIRST_CARD = "MD-FIRST-CARD"
RESERVE = "MD-RESERVE"
STACK = "MD-STACK"
STACK_SERIES = "MD-STACK-SERIES"
DEAL_POINTS = "MD-DEAL-POINTS"
NEXT_START = "MD-NEXT-START"
MATCH_END = "MD-MATCH-END"
MATCH_OVER = "MD-MATCH-OVER"
RANKING = "MD-RANKING"


class Colour(Enum):
    BLUE = "b"
    RED = "r"
    YELLOW = "y"


class Direction(Enum):
    UP = "up"
    DOWN = "down"


class Phase(Enum):
    PLAY = "play"      # the player to act plays or draws
    DRAWN = "drawn"    # the player drew: plays that one card or passes
    TAKE = "take"      # the player hit by a take takes (or answers, under take_stacking)
    OVER = "over"      # the match is over


# The members as module constants: ``Phase.X`` goes through the Enum metaclass, several times the
# cost of a global, and every action tests the phase, the colours and the direction.
_PLAY_PHASE, _DRAWN_PHASE, _TAKE_PHASE, _OVER_PHASE = Phase.PLAY, Phase.DRAWN, Phase.TAKE, Phase.OVER
_BLUE, _RED, _YELLOW = Colour.BLUE, Colour.RED, Colour.YELLOW
_UP, _DOWN = Direction.UP, Direction.DOWN


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    colour: Colour
    value: int
    action: str | None  # yellow only: skip, take, pass, chaos

    @property
    def msg(self) -> Msg:
        return card_msg(self)


@cache
def card(card_id: str) -> Card:
    """The card a record id names (``b13``, ``r2``, ``y14-skip``)."""
    if card_id not in _KNOWN:
        raise ValueError(f"not a Monte & descend card: {card_id!r}")
    colour = Colour(card_id[0])
    if colour is _YELLOW:
        value, _, action = card_id[1:].partition("-")
        return Card(card_id, colour, int(value), action)
    return Card(card_id, colour, int(card_id[1:]), None)


_KNOWN = frozenset(MD_CARDS)


def card_msg(c: Card) -> Msg:
    # Messages are immutable: one per card (and below, per direction and count), shared by every game.
    # Keyed by the card's id: hashing a Card hashes its Enum colour, both in Python code.
    found = _CARD_MSGS.get(c.id)
    if found is None:
        if c.colour is _YELLOW:
            found = Msg("md.card.y", {"value": c.value, "action": Msg(f"md.action.{c.action}")})
        else:
            found = Msg(f"md.card.{c.colour.value}", {"value": c.value})
        _CARD_MSGS[c.id] = found
    return found


_CARD_MSGS: dict[str, Msg] = {}


def cards_msg(cards: Sequence[Card]) -> tuple[Msg, ...]:
    return tuple(card_msg(c) for c in cards)


def colour_of(direction: Direction) -> Colour:
    return _BLUE if direction is _UP else _RED


def direction_of(colour: Colour) -> Direction:
    return _UP if colour is _BLUE else _DOWN


def _dir(direction: Direction) -> Msg:
    return _DIR_UP if direction is _UP else _DIR_DOWN


_DIR_UP, _DIR_DOWN = Msg("md.dir.up"), Msg("md.dir.down")
_DIRECTIONS = {d.value: d for d in Direction}  # a record's "up"/"down" (calling Direction(...) costs more)


def _count(key: str, n: int, **params: Any) -> Msg:
    """"1 card" / "3 cards": the catalogue has ``<key>.one`` and ``<key>.many``."""
    if not params:
        return _plain_count(key, n)
    return Msg(f"{key}.{'one' if n == 1 else 'many'}", {"n": n, **params})


@cache
def _plain_count(key: str, n: int) -> Msg:
    return Msg(f"{key}.{'one' if n == 1 else 'many'}", {"n": n})


# -- state -----------------------------------------------------------------------------------------


@dataclass(slots=True)
class DealScore:
    """One line of the score sheet: a finished deal."""

    number: int
    starter: str
    went_out: str | None          # None: the reserve ran out for the second time
    left: dict[str, int]          # cards in hand when the deal ended
    points: dict[str, int]


@dataclass(slots=True)
class Table:
    """The deal in progress (public facts only)."""

    number: int
    starter: str
    hands: dict[str, int]
    reserve: int
    discard: int = 0
    top: Card | None = None
    top_owner: str | None = None
    direction: Direction | None = None
    turn: str = ""
    phase: Phase = Phase.PLAY
    take_count: int = 0           # cards to take from each player while ``phase`` is TAKE
    runouts: int = 0              # times the reserve ran out in this deal (0 or 1 while it runs)
    skipped: str | None = None    # the player the last skip passed over (for the screen's banner)
    chaos: tuple[int, int] | None = None  # after a chaos, until the next entry: (each hand, cards put under the reserve)

    @property
    def value(self) -> int | None:
        return self.top.value if self.top is not None else None


@dataclass(slots=True)
class State:
    table: Table
    sheet: list[DealScore] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    over: bool = False
    chaos_count: int = 0          # chaos cards that acted in this match (see ``replay_note``)


# -- the engine ------------------------------------------------------------------------------------


class MonteDescendEngine(Engine[MDAction]):
    """The Monte & descend referee.

    Public, read-only state for the table screen (see also :meth:`player_view`):

    - ``take_stacking`` (bool) and ``deals`` (int): the variant in force.
    - ``state``: a :class:`State`: ``state.table`` is the deal in progress (:class:`Table`: ``number``,
      ``starter``, ``hands`` player → count, ``reserve``, ``discard``, ``top`` (:class:`Card` or
      None), ``top_owner``, ``direction`` (:class:`Direction` or None before the first card),
      ``value``, ``turn``, ``phase`` (:class:`Phase`), ``take_count``, ``runouts``, ``skipped``);
      ``state.sheet`` the finished deals (:class:`DealScore`), ``state.totals`` the running totals,
      ``state.over``.
    - ``free_play``: the player to act may lay any card (first card of a deal, or their own card on top).
    - ``reshuffles_left``: how many times the reserve can still be rebuilt before the deal ends (1 or 0).
    - ``fits(cards, direction=None)``: whether ``cards`` (ids) could start the play the player to
      act is about to make (a prefix of a series; ``direction`` None leaves a choice open).
    - ``chooses_direction(card_id)``: whether laying ``card_id`` first lets (and makes) the player say
      the direction.
    - ``legal_singles()``: every card id that is legal alone now (for tests and pads).
    - ``left_of(player)``, ``next_starter(previous)``, ``allowed()`` (a phrase: what may go on the pile).
    """

    games = (GAME,)
    spec = MONTE_DESCEND  # its rule specs, variants and excluded readings (Engine reads them from it)

    def __init__(self, record: Any):
        super().__init__(record)
        self.take_stacking: bool = bool(self.variant_value(record, "take_stacking"))
        self.deals: int = int(self.variant_value(record, "deals"))
        if self.deals < 1:
            raise ValueError("a match has at least one deal")
        self.state = State(self._new_table(1, self.first_player), totals={p: 0 for p in self.players})

    def _new_table(self, number: int, starter: str) -> Table:
        n = len(self.players)
        return Table(number=number, starter=starter, hands={p: MD_HAND for p in self.players},
                     reserve=MD_DECK - MD_HAND * n, turn=starter)

    # -- read-only helpers ---------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.state.table

    @property
    def free_play(self) -> bool:
        t = self.state.table
        return not self.state.over and t.phase is not _TAKE_PHASE and (t.top is None or t.top_owner == t.turn)

    @property
    def reshuffles_left(self) -> int:
        return 1 - self.state.table.runouts

    def left_of(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def card_count(self) -> int:
        """Hands + reserve + discard pile: always 64."""
        t = self.state.table
        return sum(t.hands.values()) + t.reserve + t.discard

    def allowed(self) -> Msg:
        """What may go on the pile now, as a phrase ("a red 8 or lower, a blue 8 to turn, or any yellow")."""
        t = self.state.table
        if self.free_play or t.top is None or t.direction is None:
            return Msg("md.allowed.any")
        return Msg(f"md.allowed.{t.direction.value}", {"value": t.top.value})

    def _on_top(self) -> Msg:
        t = self.state.table
        assert t.top is not None and t.direction is not None
        return Msg(f"md.on_top.{t.direction.value}", {"top": card_msg(t.top)})

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        t = self.state.table
        return {
            "deal": t.number, "starter": t.starter, "hands": dict(t.hands), "reserve": t.reserve,
            "discard": t.discard, "top": t.top.id if t.top else None, "top_owner": t.top_owner,
            "direction": t.direction.value if t.direction else None, "turn": t.turn, "phase": t.phase.value,
            "take_count": t.take_count, "runouts": t.runouts, "free_play": self.free_play,
            "totals": dict(self.state.totals), "deals_done": len(self.state.sheet), "over": self.state.over,
        }

    # -- legality of a play (pure) ---------------------------------------------------------------

    def _first_card_problem(self, c: Card) -> RuleViolation | None:
        """Why ``c`` may not go on the top card now (None: it may)."""
        t = self.state.table
        if self.free_play or c.colour is _YELLOW:
            return None
        assert t.top is not None and t.direction is not None
        value = t.top.value
        same = colour_of(t.direction)
        if c.colour is same:
            ok = c.value >= value if t.direction is _UP else c.value <= value
            if ok:
                return None
            rule = UP if t.direction is _UP else DOWN
            return RuleViolation(rule, f"md.refuse.{t.direction.value}", card=c.msg, value=value,
                                 on=self._on_top(), allowed=self.allowed())
        if c.value == value:
            return None
        return RuleViolation(SWITCH, f"md.refuse.switch.{t.direction.value}", card=c.msg, value=value,
                             on=self._on_top(), allowed=self.allowed())

    def _chooses(self, first: Card) -> bool:
        """Whether the player laying ``first`` chooses the direction."""
        t = self.state.table
        if first.colour is not _YELLOW:
            return False
        return self.free_play or t.top is None or t.top.colour is _YELLOW or first.value == t.top.value

    def _choice_rule(self, first: Card) -> str:
        """Why the player laying the yellow ``first`` chooses the direction: the rulebook's yellow on
        the same value or on a yellow (``MD-DIRECTION``), or the app's ruling for a free play."""
        top = self.state.table.top
        if top is not None and (top.colour is _YELLOW or first.value == top.value):
            return DIRECTION
        return FREE_DIRECTION

    def _derived(self, first: Card) -> Direction:
        """The direction after ``first`` when its player has no choice."""
        if first.colour is _YELLOW:
            assert self.state.table.direction is not None
            return self.state.table.direction
        return direction_of(first.colour)

    def _series_problem(self, cards: Sequence[Card], direction: Direction) -> RuleViolation | None:
        prev = cards[0]
        for c in cards[1:]:
            want = prev.value + (1 if direction is _UP else -1)
            if c.value != want:
                if want in MD_VALUES:
                    return RuleViolation(SERIES, "md.refuse.series_step", card=c.msg, prev=prev.msg,
                                         dir=_dir(direction), want=want)
                return RuleViolation(SERIES, "md.refuse.series_end", card=c.msg, prev=prev.msg,
                                     dir=_dir(direction))
            if c.colour is not _YELLOW and c.colour is not colour_of(direction):
                return RuleViolation(SERIES_COLOUR, f"md.refuse.series_colour.{direction.value}", card=c.msg,
                                     dir=_dir(direction))
            prev = c
        return None

    def _play_problem(self, cards: Sequence[Card], direction: str | None) -> RuleViolation | None:
        first = cards[0]
        problem = self._first_card_problem(first)
        if problem is not None:
            return problem
        chosen = _DIRECTIONS[direction] if direction is not None else None
        if self._chooses(first):
            if chosen is None:
                rule = FREE_DIRECTION if self._choice_rule(first) == FREE_DIRECTION else DIRECTION
                return RuleViolation(rule, "md.refuse.direction_needed", card=first.msg)
            going = chosen
        else:
            going = self._derived(first)
            if chosen is not None and chosen is not going:
                return RuleViolation(DIRECTION, "md.refuse.direction_wrong", card=first.msg, given=_dir(chosen),
                                     going=_dir(going))
        return self._series_problem(cards, going)

    def fits(self, card_ids: Sequence[str], direction: str | None = None) -> bool:
        """Whether ``card_ids`` could begin the play the player to act is about to make (the hand
        count and a still-open direction choice aside). For the card pad's highlights."""
        if not card_ids or self.state.over:
            return False
        cards = [card(i) for i in card_ids]
        if self.state.table.phase is _TAKE_PHASE and not self.take_stacking:
            return False
        if self.state.table.phase is _DRAWN_PHASE and len(cards) > 1:
            return False
        if direction is None and self._chooses(cards[0]):
            return any(self._play_problem(cards, d) is None for d in ("up", "down"))
        if direction is not None and not self._chooses(cards[0]):
            direction = None
        return self._play_problem(cards, direction) is None

    def chooses_direction(self, card_id: str) -> bool:
        """Whether the player to act, laying ``card_id`` first, must say the direction."""
        return not self.state.over and self._chooses(card(card_id))

    def legal_singles(self) -> tuple[str, ...]:
        """Every card id that could be laid alone now (whatever the hands hold)."""
        t = self.state.table
        if self.state.over or (t.phase is _TAKE_PHASE and not self.take_stacking):
            return ()
        found = []
        for card_id in MD_CARDS:
            c = card(card_id)
            if t.phase is _TAKE_PHASE and c.action != "take":
                continue
            if self._first_card_problem(c) is None:
                found.append(card_id)
        return tuple(found)

    # -- the contract: check ---------------------------------------------------------------------

    def _check(self, action: MDAction) -> None:
        kind = getattr(action, "type", None)
        t = self.state.table
        if self.state.over:
            raise RuleViolation(MATCH_OVER, "md.refuse.match_over", deals=_count("md.n_deals", self.deals))
        player = action.player
        if player not in t.hands:
            raise RuleViolation(TURN, "md.refuse.stranger", player=player)
        if player != t.turn:
            key = "md.refuse.turn_take" if t.phase is _TAKE_PHASE else "md.refuse.turn"
            raise RuleViolation(TURN, key, player=player, turn=t.turn)
        if action.type == "play":
            self._check_play(action)
        elif action.type == "draw":
            self._check_draw()
        elif action.type == "pass":
            if t.phase is not _DRAWN_PHASE:
                raise RuleViolation(PASS, "md.refuse.pass", player=player)
        elif action.type == "take":
            self._check_take(action)
        else:
            raise ValueError(f"monte-descend has no action {kind!r}")

    def _check_play(self, action: MDPlay) -> None:
        t = self.state.table
        player = action.player
        cards = [card(i) for i in action.cards]
        if t.phase is _TAKE_PHASE:
            if not self.take_stacking:
                raise RuleViolation(TAKE_FIRST, "md.refuse.take_first", player=player, count=self._take_each())
            if cards[-1].action != "take":
                raise RuleViolation(TAKE_FIRST, "md.refuse.take_or_answer", player=player,
                                    count=self._take_each())
        held = t.hands[player]
        if len(cards) > held:
            raise RuleViolation(HAND, "md.refuse.hand", player=player, laid=_count("md.n_cards", len(cards)),
                                held=_count("md.n_cards", held))
        if t.phase is _DRAWN_PHASE and len(cards) > 1:
            raise RuleViolation(DRAW_ONE, "md.refuse.draw_one", player=player, n=len(cards))
        problem = self._play_problem(cards, action.direction)
        if problem is not None:
            raise problem

    def _check_draw(self) -> None:
        t = self.state.table
        if t.phase is _TAKE_PHASE:
            raise RuleViolation(TAKE_FIRST, "md.refuse.take_first", player=t.turn, count=self._take_each())
        if t.phase is _DRAWN_PHASE:
            raise RuleViolation(DRAW, "md.refuse.draw_twice", player=t.turn)
        if self.free_play:
            key = "md.refuse.draw_first" if t.top is None else "md.refuse.draw_free"
            raise RuleViolation(DRAW, key, player=t.turn)

    def _others_to_take_from(self) -> int:
        return min(2, len(self.players) - 1)

    def _take_each(self) -> Msg:
        return _count("md.n_cards", self.state.table.take_count)

    def _check_take(self, action: MDTake) -> None:
        t = self.state.table
        player = action.player
        if t.phase is not _TAKE_PHASE:
            raise RuleViolation(TAKE, "md.refuse.no_take", player=player)
        if action.count != t.take_count:
            raise RuleViolation(TAKE, "md.refuse.take_count", player=player, count=action.count,
                                due=self._take_each())
        named = list(action.from_)
        need = self._others_to_take_from()
        if player in named:
            raise RuleViolation(TAKE, "md.refuse.take_self", player=player)
        strangers = [q for q in named if q not in t.hands]
        if strangers:
            raise RuleViolation(TAKE, "md.refuse.stranger", player=strangers[0])
        if len(set(named)) != len(named) or len(named) != need:
            key = "md.refuse.take_from_two" if need == 2 else "md.refuse.take_from_one"
            raise RuleViolation(TAKE, key, player=player, named=tuple(named))

    # -- the contract: perform -------------------------------------------------------------------

    def _perform(self, action: MDAction) -> Iterable[Event]:
        if action.type == "play":
            return self._play(action)
        if action.type == "draw":
            return self._draw(action.player)
        if action.type == "pass":
            return self._pass(action.player)
        return self._take(action)

    def _play(self, action: MDPlay) -> list[Event] | tuple[Event, ...]:
        t = self.state.table
        player = action.player
        cards = [card(i) for i in action.cards]
        first, last = cards[0], cards[-1]
        answering = t.phase is _TAKE_PHASE
        escaped = t.take_count  # the count an answering player escapes (take_stacking)
        chooses = self._chooses(first)
        if chooses:
            assert action.direction is not None  # MD-DIRECTION refused a choice without one
            going = _DIRECTIONS[action.direction]
        else:
            going = self._derived(first)
        quiet = self.quiet  # the verdict's fold: the same changes, no sentence
        if not quiet:
            free = self.free_play
            on_yellow = t.top is not None and t.top.colour is _YELLOW
            turned = t.direction is not None and not free and first.colour is not _YELLOW and t.direction is not going
            rules = self._play_rules(first, cards, going, chooses, free, on_yellow, turned)

        t.hands[player] -= len(cards)
        t.discard += len(cards)
        t.top = last
        t.top_owner = player
        t.direction = going
        t.skipped = None
        t.chaos = None
        events: list[Event] = []
        if not quiet:
            key = "md.event.play_one" if len(cards) == 1 else "md.event.play_series"
            events.append(event(tuple(rules), key, player=player, cards=cards_msg(cards), dir=_dir(going),
                                left=_count("md.n_cards", t.hands[player])))
            if turned:
                events.append(event((SWITCH, YELLOW_SWITCH) if on_yellow else SWITCH, "md.event.turned",
                                    card=first.msg, dir=_dir(going)))
            if answering:
                events.append(event((STACK, STACK_SERIES) if len(cards) > 1 else STACK, "md.event.stack_answer",
                                    player=player))

        if t.hands[player] == 0:
            if last.colour is _YELLOW and not quiet:
                events.append(event(OUT_NO_ACTION, "md.event.out_no_action", card=last.msg))
            events.extend(self._end_deal(player, DEAL_POINTS, "md.event.out", player=player))
            return events

        nxt = self.left_of(player)
        t.phase = _PLAY_PHASE
        t.take_count = 0
        if last.colour is _YELLOW:
            action_rules = (ACTION_LAST,) if len(cards) > 1 else ()
            if last.action == "skip":
                t.skipped = nxt
                t.turn = self.left_of(nxt)
                if quiet:
                    pass
                elif t.turn == player:  # two players: the turn comes back to the skip's player, a free play
                    events.append(event((SKIP, SKIP_FREE, *action_rules), "md.event.skip_free", skipped=nxt,
                                        turn=t.turn))
                else:
                    events.append(event((SKIP, *action_rules), "md.event.skip", skipped=nxt, turn=t.turn))
            elif last.action == "take":
                t.turn = nxt
                t.phase = _TAKE_PHASE
                t.take_count = escaped + 1 if answering else 1
                if not quiet:
                    key = "md.event.take_two" if self._others_to_take_from() == 2 else "md.event.take_one"
                    rule = (STACK, TAKE) if answering else (TAKE,)
                    events.append(event((*rule, *action_rules), key, player=nxt, each=self._take_each()))
            elif last.action == "pass":
                t.turn = nxt
                if not quiet:
                    events.append(event((PASS_CARDS, *action_rules), "md.event.pass_cards", turn=nxt))
            else:
                t.turn = nxt
                events.append(self._chaos(player, action_rules))
        else:
            t.turn = nxt
        return events

    def _play_rules(self, first: Card, cards: list[Card], going: Direction, chooses: bool, free: bool,
                    on_yellow: bool, turned: bool) -> list[str]:
        """The rules a play follows (its event names them), from the table as it was before it."""
        t = self.state.table
        first_of_deal = t.top is None
        rules: list[str] = []
        if first_of_deal:
            rules.append(FIRST_CARD)
        elif free:
            rules.append(FREE)
            if t.skipped is not None:  # 2 players: a skip came back
                rules.append(SKIP_FREE)
        elif first.colour is _YELLOW:
            rules.append(YELLOW)
        elif turned:
            rules.append(SWITCH)
        else:
            rules.append(UP if going is _UP else DOWN)
        if chooses:
            rules.append(self._choice_rule(first))
        if len(cards) > 1:
            rules.append(SERIES)
        if on_yellow and not free and first.colour is not _YELLOW:
            rules.append(FOLLOW_YELLOW)
        return rules

    def _chaos(self, player: str, action_rules: tuple[str, ...]) -> Event:
        """Every hand gathered and dealt out equally; the cards left over go under the reserve (drawn
        last: the reserve only runs out once they are drawn too). Each hand held a card at least, so
        none comes out empty."""
        t = self.state.table
        each, under = divmod(sum(t.hands.values()), len(t.hands))
        for p in t.hands:
            t.hands[p] = each
        t.reserve += under
        t.chaos = (each, under)
        self.state.chaos_count += 1
        params: dict[str, Any] = {"player": player, "each": _count("md.n_cards", each), "turn": t.turn}
        if under:
            return event((CHAOS, *action_rules), "md.event.chaos_under", under=_count("md.n_cards", under),
                         reserve=t.reserve, **params)
        return event((CHAOS, *action_rules), "md.event.chaos", **params)

    def _draw(self, player: str) -> list[Event]:
        t = self.state.table
        t.hands[player] += 1
        t.reserve -= 1
        t.phase = _DRAWN_PHASE
        t.skipped = None
        t.chaos = None
        quiet = self.quiet
        events = [] if quiet else [event(DRAW, "md.event.draw", player=player, reserve=t.reserve)]
        if t.reserve > 0:
            return events
        if t.runouts == 0 and t.discard > 1:
            t.runouts = 1
            t.reserve = t.discard - 1
            t.discard = 1
            if not quiet:
                events.append(event(RESERVE, "md.event.reshuffle", reserve=t.reserve))
            return events
        key = "md.event.reserve_out_again" if t.runouts else "md.event.reserve_out_empty"
        events.extend(self._end_deal(None, RESERVE, key))
        return events

    def _pass(self, player: str) -> list[Event]:
        t = self.state.table
        t.phase = _PLAY_PHASE
        t.chaos = None
        t.turn = self.left_of(player)
        return [] if self.quiet else [event(DRAW_ONE, "md.event.pass", player=player, turn=t.turn)]

    def _take(self, action: MDTake) -> list[Event]:
        t = self.state.table
        player = action.player
        each = t.take_count
        events: list[Event] = []
        t.chaos = None
        named = list(action.from_)
        for i, victim in enumerate(named):
            n = min(each, t.hands[victim])
            t.hands[victim] -= n
            t.hands[player] += n
            if not self.quiet:
                events.append(event(TAKE, "md.event.took", player=player, victim=victim,
                                    cards=_count("md.n_cards", n)))
            if t.hands[victim] == 0:
                # the deal ends before a later named player is taken from: the order named decides (ruling)
                rule = (TAKE_LAST, TAKE_ORDER) if i < len(named) - 1 else TAKE_LAST
                events.extend(self._end_deal(victim, rule, "md.event.out_by_take", player=victim,
                                             taker=player))
                return events
        t.phase = _PLAY_PHASE
        t.take_count = 0
        return events

    def _end_deal(self, went_out: str | None, rule: str | tuple[str, ...], key: str, **params: Any) -> list[Event]:
        t = self.state.table
        quiet = self.quiet
        events = [] if quiet else [event(rule, key, **params)]
        points = {p: (OUT_BONUS if p == went_out else -t.hands[p]) for p in self.players}
        self.state.sheet.append(DealScore(t.number, t.starter, went_out, dict(t.hands), points))
        for p in self.players:
            self.state.totals[p] += points[p]
        if not quiet:
            events.append(event(DEAL_POINTS, "md.event.deal_points", deal=t.number,
                                points=self._points_list(points)))
        if len(self.state.sheet) >= self.deals:
            self.state.over = True
            t.phase = _OVER_PHASE
            if not quiet:
                events.append(event(MATCH_END, "md.event.match_over", deals=_count("md.n_deals", self.deals)))
            return events
        starter = self.next_starter(t.starter)
        self.state.table = self._new_table(t.number + 1, starter)
        if not quiet:
            events.append(event(NEXT_START, "md.event.next_deal", deal=t.number + 1, player=starter,
                                total=self.state.totals[starter]))
        return events

    def replay_note(self, rule: str | None = None) -> Msg | None:
        """Why a game saved before chaos dealt the hands out equally may replay differently: the
        chaos cards the replay met so far (None: none, so the change cannot have touched it)."""
        n = self.state.chaos_count
        if n == 0:
            return None
        return Msg("md.replay.chaos", {"n": n})

    def _points_list(self, points: Mapping[str, int]) -> tuple[Msg, ...]:
        return tuple(Msg("md.player_points", {"player": p, "points": _signed(points[p])}) for p in self.players)

    def next_starter(self, previous: str) -> str:
        """The fewest points so far; ties: the nearest to the left of ``previous`` (then ``previous``)."""
        i = self.players.index(previous)
        order = [self.players[(i + k) % len(self.players)] for k in range(1, len(self.players) + 1)]
        low = min(self.state.totals.values())
        return next(p for p in order if self.state.totals[p] == low)

    # -- what next, and the end ------------------------------------------------------------------

    def expected(self) -> Expectation:
        t = self.state.table
        if self.state.over:
            return Expectation((), (), Msg("md.prompt.over", {"deals": _count("md.n_deals", self.deals)}))
        who = (t.turn,)
        if t.phase is _TAKE_PHASE:
            key = "md.prompt.take_two" if self._others_to_take_from() == 2 else "md.prompt.take_one"
            if self.take_stacking:
                return Expectation(who, ("take", "play"), Msg(key + ".stack", {"player": t.turn,
                                                                               "each": self._take_each()}))
            return Expectation(who, ("take",), Msg(key, {"player": t.turn, "each": self._take_each()}))
        if t.phase is _DRAWN_PHASE:
            return Expectation(who, ("play", "pass"), Msg("md.prompt.drawn", {"player": t.turn}))
        if t.top is None:
            return Expectation(who, ("play",), Msg("md.prompt.first", {"player": t.turn, "deal": t.number}))
        if self.free_play:
            return Expectation(who, ("play",), Msg("md.prompt.free", {"player": t.turn}))
        return Expectation(who, ("play", "draw"), Msg("md.prompt.play", {"player": t.turn, "on": self._on_top(),
                                                                         "allowed": self.allowed()}))

    def outcome(self) -> Outcome | None:
        if not self.state.over:
            return None
        totals = dict(self.state.totals)
        ranking = rank_by(self.players, totals)
        winners = tuple(p for p, r in ranking if r == 1)
        return Outcome(scores=totals, eliminated=(), winners=winners, replay_required=False, ranking=ranking,
                       explanation=partial(self._explain, totals, winners))

    def _explain(self, totals: Mapping[str, int], winners: tuple[str, ...]) -> list[Msg]:
        """The outcome's sentences (built when read): each deal's points, the totals, who won."""
        explanation: list[Msg] = []
        for line in self.state.sheet:
            if line.went_out is not None:
                explanation.append(event(DEAL_POINTS, "md.explain.deal_out", deal=line.number, player=line.went_out,
                                         points=self._points_list(line.points)))
            else:
                explanation.append(event((RESERVE, DEAL_POINTS), "md.explain.deal_reserve", deal=line.number,
                                         points=self._points_list(line.points)))
        explanation.append(event(RANKING, "md.explain.totals", deals=_count("md.n_deals", len(self.state.sheet)),
                                 points=self._points_list(totals)))
        best = totals[winners[0]]
        if len(winners) == 1:
            explanation.append(event(RANKING, "md.explain.winner", player=winners[0], total=_signed(best)))
        else:
            explanation.append(event(RANKING, "md.explain.shared", players=winners, total=_signed(best)))
        return explanation


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)

