"""High Society and Animalement Vôtre: one referee, two editions (§4.1 of the table-record spec).

The table turns over status cards one by one and auctions them with money cards. The engine knows
whose turn it is, checks every bid against the hand it comes from, settles each round (positive
card: the last bidder left buys it; misfortune: the first to pass takes it), applies the theft,
stops at the fourth red card and computes exact end scores, the poorest players and the tie-breaks.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any, Iterable, Mapping

from models.i18n import Msg
from scoring.base import CopyingEngine, Expectation, Outcome, RuleViolation, Score
from scoring.base import VariantSpec  # the variants, declared once

MONEY: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
MONEY_TOTAL = sum(MONEY)  # 106 per player

POSSESSIONS: tuple[str, ...] = tuple(f"p{n}" for n in range(1, 11))
STATUS_DECK: Mapping[str, int] = {**{p: 1 for p in POSSESSIONS}, "x2": 3, "half": 1, "minus5": 1, "theft": 1}
CARD_ORDER: tuple[str, ...] = POSSESSIONS + ("x2", "half", "minus5", "theft")
RED = frozenset({"x2", "half"})  # red-bordered (High Society) / light-blue (Animalement Vôtre)
MISFORTUNE = frozenset({"minus5", "half", "theft"})  # auctioned backwards: the first to pass takes it
REDS_TO_END = 4

FINAL_TIE_DEFAULT = {"high-society": "replay", "animalement-votre": "shared"}

REFUSALS: tuple[str, ...] = (
    "HS-GAME-OVER",
    "HS-DISCARD-REQUIRED",
    "HS-DISCARD-NOT-DUE",
    "HS-DISCARD-CARD",
    "HS-ROUND-OPEN",
    "HS-REVEAL-GONE",
    "HS-NO-ROUND",
    "HS-TURN",
    "HS-PASSED",
    "HS-BID-EMPTY",
    "HS-MONEY-DUPLICATE",
    "HS-MONEY-ON-TABLE",
    "HS-MONEY-SPENT",
    "HS-BID-RAISE",
)
# Rules the engine applies without ever refusing anything; listed so the rules reference shows them
# (with the rulings the app makes and the variant that switches them).
APPLIED_RULES: tuple[str, ...] = (
    "HS-AUCTION",
    "HS-FREE-CARD",
    "HS-MISFORTUNE",
    "HS-THEFT",
    "HS-END",
    "HS-SCORE",
    "HS-POOREST",
    "HS-FINAL-TIE",
)


def possession_value(card: str) -> int:
    return int(card[1:]) if card in POSSESSIONS else 0


def _num(value: Fraction) -> int | Fraction:
    return value.numerator if value.denominator == 1 else value


class HighSocietyEngine(CopyingEngine):
    """Referee of High Society (``high-society``) and Animalement Vôtre (``animalement-votre``).

    Public, read-only state for the table screen (never mutate it; everything is derived here so
    the screen never re-derives a rule). Cards are the spec's ids (``"p1"`` … ``"p10"``, ``"x2"``,
    ``"half"``, ``"minus5"``, ``"theft"``); money cards are ints.

    - ``edition``: the game id; ``final_tie``: ``"replay"`` or ``"shared"`` (variant or default).
    - ``round``: number of the current round (1 for the first card revealed; 0 before any card).
      The card that ends the game does not open a round.
    - ``card``: the card being auctioned now, or None between rounds and once the game is over.
    - ``ending_card``: the fourth red card that ended the game, or None.
    - ``deck_left``: ``{card: copies still in the deck}`` for every card with at least one copy.
    - ``revealed``: ``((round, card), …)`` every card revealed, in order (the ending card last).
    - ``reds_revealed``: how many red cards (``x2`` ×3, ``half``) have been revealed (0 … 4).
    - ``starter``: who reveals the next card / who revealed and opened the current round.
    - ``turn``: whose turn it is to bid or pass, or None when no round is open.
    - ``bids``: ``{player: (money cards in the open bid, in the order laid)}`` (empty tuples too).
    - ``bid_totals``: ``{player: total of the open bid}``.
    - ``bid_to_beat``: the highest open bid of the players other than ``turn`` (0 if none);
      the player whose turn it is must bid more than this.
    - ``passed``: players who passed on the current card, in the order they passed.
    - ``hands``: ``{player: (money cards in hand, ascending)}`` — not on the table, not paid.
    - ``spent``: ``{player: {money card: round in which it was paid}}``.
    - ``money_left``: ``{player: hand + open bid}`` — what is not paid yet (at the end, the hand).
    - ``collections``: ``{player: (status cards kept, in the order gained)}``; a waiting theft card
      stays in its holder's collection until it takes a possession.
    - ``discarded``: status cards out of the game (the theft card and the possession it took).
    - ``theft_pending``: the player whose theft waits for their next possession, or None.
    - ``discard_required``: the player who must choose a possession to discard now, or None.
    - ``scores()``: ``{player: exact current score}`` (int, or Fraction for halves).
    - ``score_breakdown(player)``: the score's computation as a Msg ("3 + 9 − 5 = 7, ×2 = 14, ×½ = 7").
    - ``card_label(card)``: the card's name in this edition, as a Msg.
    - ``player_view()``: all of the above in one dict.

    ``rules`` lists the refusal ids (``REFUSALS``) and then rules applied without refusal
    (``APPLIED_RULES``: auction order, free card, misfortune, theft, end, scoring, poorest,
    final tie) so that the rules reference shows every ruling.
    """

    games = ("high-society", "animalement-votre")
    rules = REFUSALS + APPLIED_RULES
    variants = (VariantSpec("final_tie", ("replay", "shared"), "replay",
                            {"replay": "HS-FINAL-TIE", "shared": "HS-FINAL-TIE"},
                            game_defaults={"high-society": "replay", "animalement-votre": "shared"}),)

    def __init__(self, record: Any):
        super().__init__(record)
        variant = getattr(record, "variant", None)
        if isinstance(variant, Mapping):
            chosen = variant.get("final_tie")
        else:
            chosen = getattr(variant, "final_tie", None)
        self.edition: str = self.game
        self.final_tie: str = chosen or FINAL_TIE_DEFAULT[self.game]
        self.round: int = 0
        self.card: str | None = None
        self.ending_card: str | None = None
        self._deck: Counter[str] = Counter(STATUS_DECK)
        self._revealed: list[tuple[int, str]] = []
        self.starter: str = self.first_player
        self.turn: str | None = None
        self._bids: dict[str, list[int]] = {p: [] for p in self.players}
        self._passed: list[str] = []
        self._hands: dict[str, set[int]] = {p: set(MONEY) for p in self.players}
        self._spent: dict[str, dict[int, int]] = {p: {} for p in self.players}
        self._collections: dict[str, list[str]] = {p: [] for p in self.players}
        self._discarded: list[str] = []
        self.theft_pending: str | None = None
        self.discard_required: str | None = None
        self._over = False

    # -- public read-only state ------------------------------------------------------------------

    @property
    def deck_left(self) -> dict[str, int]:
        return {c: self._deck[c] for c in CARD_ORDER if self._deck[c] > 0}

    @property
    def revealed(self) -> tuple[tuple[int, str], ...]:
        return tuple(self._revealed)

    @property
    def reds_revealed(self) -> int:
        return sum(1 for _, c in self._revealed if c in RED)

    @property
    def bids(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(self._bids[p]) for p in self.players}

    @property
    def bid_totals(self) -> dict[str, int]:
        return {p: sum(self._bids[p]) for p in self.players}

    @property
    def bid_to_beat(self) -> int:
        return self._to_beat(self.turn)[0] if self.turn is not None else 0

    @property
    def passed(self) -> tuple[str, ...]:
        return tuple(self._passed)

    @property
    def hands(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(sorted(self._hands[p])) for p in self.players}

    @property
    def spent(self) -> dict[str, dict[int, int]]:
        return {p: dict(sorted(self._spent[p].items())) for p in self.players}

    @property
    def money_left(self) -> dict[str, int]:
        return {p: sum(self._hands[p]) + sum(self._bids[p]) for p in self.players}

    @property
    def collections(self) -> dict[str, tuple[str, ...]]:
        return {p: tuple(self._collections[p]) for p in self.players}

    @property
    def discarded(self) -> tuple[str, ...]:
        return tuple(self._discarded)

    @property
    def finished(self) -> bool:
        return self._over

    def card_label(self, card: str) -> Msg:
        return Msg(f"hs.card.{self.edition}.{card}")

    def scores(self) -> dict[str, int | Fraction]:
        return {p: _num(self._score_steps(p)[-1][1]) for p in self.players}

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        return {
            "edition": self.edition,
            "final_tie": self.final_tie,
            "round": self.round,
            "card": self.card,
            "ending_card": self.ending_card,
            "deck_left": self.deck_left,
            "revealed": self.revealed,
            "reds_revealed": self.reds_revealed,
            "starter": self.starter,
            "turn": self.turn,
            "bids": self.bids,
            "bid_totals": self.bid_totals,
            "bid_to_beat": self.bid_to_beat,
            "passed": self.passed,
            "hands": self.hands,
            "spent": self.spent,
            "money_left": self.money_left,
            "collections": self.collections,
            "discarded": self.discarded,
            "theft_pending": self.theft_pending,
            "discard_required": self.discard_required,
            "scores": self.scores(),
            "finished": self.finished,
        }

    # -- the contract ----------------------------------------------------------------------------

    def _apply(self, action: Any) -> Iterable[Msg]:
        if isinstance(action, Mapping):
            from models.record import parse_action

            action = parse_action(self.game, dict(action), list(self.players))
        kind = action.type
        if self._over:
            raise RuleViolation("HS-GAME-OVER", "hs.refuse.game_over", card=self.card_label(self.ending_card),
                                red=self._red_name())
        if self.discard_required is not None and not (kind == "discard" and action.player == self.discard_required):
            raise RuleViolation("HS-DISCARD-REQUIRED", "hs.refuse.discard_required", player=self.discard_required,
                                owned=self._owned_labels(self.discard_required))
        if kind == "reveal":
            return self._reveal(action.card)
        if kind == "bid":
            return self._bid(action.player, list(action.add))
        if kind == "pass":
            return self._pass(action.player)
        if kind == "discard":
            return self._discard(action.player, action.card)
        raise ValueError(f"not a High Society action: {action!r}")

    def expected(self) -> Expectation:
        if self._over:
            return Expectation((), (), Msg("hs.prompt.over"))
        if self.discard_required is not None:
            who = self.discard_required
            return Expectation((who,), ("discard",),
                               Msg("hs.prompt.discard", {"player": who, "owned": self._owned_labels(who)}))
        if self.card is None:
            # The starter turns the card over, but a reveal names no player in the record.
            return Expectation((), ("reveal",), Msg("hs.prompt.reveal", {"player": self.starter,
                                                                          "round": self.round + 1}))
        assert self.turn is not None
        to_beat, _ = self._to_beat(self.turn)
        key = "hs.prompt.bid" if to_beat else "hs.prompt.bid_first"
        if self.card in MISFORTUNE:
            key += "_misfortune"
        return Expectation((self.turn,), ("bid", "pass"),
                           Msg(key, {"player": self.turn, "card": self.card_label(self.card), "to_beat": to_beat}))

    def outcome(self) -> Outcome | None:
        if not self._over:
            return None
        money = {p: sum(self._hands[p]) for p in self.players}  # no round is open at the end
        scores = self.scores()
        explanation: list[Msg] = [Msg("hs.explain.end", {"card": self.card_label(self.ending_card),
                                                         "red": self._red_name()})]
        if self.theft_pending is not None:
            explanation.append(Msg("hs.explain.theft_void", {"player": self.theft_pending}))

        least = min(money.values())
        poorest = tuple(p for p in self.players if money[p] == least)
        if len(poorest) == len(self.players):
            explanation.append(Msg("hs.explain.all_out", {"money": least}))
        elif len(poorest) == 1:
            explanation.append(Msg("hs.explain.poorest_one", {"player": poorest[0], "money": least}))
        else:
            explanation.append(Msg("hs.explain.poorest_many", {"players": list(poorest), "money": least}))

        for p in self.players:
            explanation.append(Msg("hs.explain.score", {"player": p, "calc": self.score_breakdown(p)}))

        remaining = [p for p in self.players if p not in poorest]
        winners: tuple[str, ...] = ()
        replay = False
        if remaining:
            best = max(scores[p] for p in remaining)
            top = [p for p in remaining if scores[p] == best]
            if len(top) == 1:
                winners = (top[0],)
                explanation.append(Msg("hs.explain.win_one", {"player": top[0], "score": best}))
            else:
                most = max(money[p] for p in top)
                leaders = [p for p in top if money[p] == most]
                if len(leaders) == 1:
                    winners = (leaders[0],)
                    explanation.append(Msg("hs.explain.win_money", {"players": top, "score": best,
                                                                    "player": leaders[0], "money": most,
                                                                    "others": [money[p] for p in top if p != leaders[0]]}))
                else:
                    if len(leaders) == len(top):
                        explanation.append(Msg("hs.explain.full_tie", {"players": top, "score": best, "money": most}))
                    else:
                        explanation.append(Msg("hs.explain.money_tie", {"players": top, "score": best,
                                                                        "leaders": leaders, "money": most}))
                    if self.final_tie == "shared":
                        winners = tuple(leaders)
                        explanation.append(Msg("hs.explain.shared", {"players": leaders}))
                    else:
                        replay = True
                        explanation.append(Msg("hs.explain.replay", {"players": leaders}))

        ranking = self._ranking(remaining, list(poorest), scores, money)
        return Outcome(
            scores=scores,
            eliminated=poorest,
            winners=winners,
            replay_required=replay,
            ranking=ranking,
            explanation=tuple(explanation),
        )

    # -- actions ---------------------------------------------------------------------------------

    def _reveal(self, card: str) -> list[Msg]:
        if self.card is not None:
            raise RuleViolation("HS-ROUND-OPEN", "hs.refuse.round_open", card=self.card_label(self.card),
                                player=self.turn)
        if self._deck[card] <= 0:
            rounds = [r for r, c in self._revealed if c == card]
            if STATUS_DECK[card] == 1:
                raise RuleViolation("HS-REVEAL-GONE", "hs.refuse.reveal_gone", card=self.card_label(card),
                                    round=rounds[0])
            raise RuleViolation("HS-REVEAL-GONE", "hs.refuse.reveal_gone_all", card=self.card_label(card),
                                copies=STATUS_DECK[card], rounds=rounds)
        self._deck[card] -= 1
        if card in RED and self.reds_revealed + 1 >= REDS_TO_END:
            self._revealed.append((self.round, card))
            self.ending_card = card
            self._over = True
            return [Msg("hs.event.reveal_end", {"player": self.starter, "card": self.card_label(card),
                                                "red": self._red_name()})]
        self.round += 1
        self._revealed.append((self.round, card))
        self.card = card
        self.turn = self.starter
        self._passed = []
        key = "hs.event.reveal_misfortune" if card in MISFORTUNE else "hs.event.reveal"
        return [Msg(key, {"player": self.starter, "card": self.card_label(card), "round": self.round})]

    def _check_turn(self, player: str) -> None:
        if self.card is None:
            raise RuleViolation("HS-NO-ROUND", "hs.refuse.no_round", player=player, starter=self.starter)
        if player != self.turn:
            if player in self._passed:
                raise RuleViolation("HS-PASSED", "hs.refuse.passed", player=player, card=self.card_label(self.card),
                                    turn=self.turn)
            raise RuleViolation("HS-TURN", "hs.refuse.turn", player=player, turn=self.turn)

    def _bid(self, player: str, add: list[int]) -> list[Msg]:
        self._check_turn(player)
        if not add:
            raise RuleViolation("HS-BID-EMPTY", "hs.refuse.bid_empty", player=player)
        seen: set[int] = set()
        for value in add:
            if value in seen:
                raise RuleViolation("HS-MONEY-DUPLICATE", "hs.refuse.money_duplicate", player=player, value=value)
            seen.add(value)
        for value in add:
            if value in self._bids[player]:
                raise RuleViolation("HS-MONEY-ON-TABLE", "hs.refuse.money_on_table", player=player, value=value,
                                    total=sum(self._bids[player]))
            if value in self._spent[player]:
                raise RuleViolation("HS-MONEY-SPENT", "hs.refuse.money_spent", player=player, value=value,
                                    round=self._spent[player][value])
            if value not in self._hands[player]:  # every card is in hand, on the table or spent
                raise AssertionError(f"{player}'s {value} is nowhere")
        total = sum(self._bids[player]) + sum(add)
        to_beat, leader = self._to_beat(player)
        if total <= to_beat:
            raise RuleViolation("HS-BID-RAISE", "hs.refuse.bid_raise", player=player, total=total,
                                to_beat=to_beat, leader=leader)
        for value in add:
            self._hands[player].remove(value)
            self._bids[player].append(value)
        self.turn = self._next_active(player)
        return [Msg("hs.event.bid", {"player": player, "cards": list(add), "total": total})]

    def _pass(self, player: str) -> list[Msg]:
        self._check_turn(player)
        back = sum(self._bids[player])
        self._hands[player].update(self._bids[player])
        self._bids[player] = []
        self._passed.append(player)
        events = [Msg("hs.event.pass_back", {"player": player, "amount": back}) if back
                  else Msg("hs.event.pass", {"player": player})]
        card = self.card
        assert card is not None
        if card in MISFORTUNE:
            events.append(Msg("hs.event.misfortune", {"player": player, "card": self.card_label(card)}))
            for other in self._seat_order_from(player):
                events.extend(self._pay(other))
            events.extend(self._receive(player, card))
            return events
        active = [p for p in self.players if p not in self._passed]
        if len(active) == 1:
            winner = active[0]
            price = sum(self._bids[winner])
            if price:
                events.append(Msg("hs.event.buy", {"player": winner, "card": self.card_label(card), "amount": price}))
            else:
                events.append(Msg("hs.event.free", {"player": winner, "card": self.card_label(card)}))
            self._pay(winner)
            events.extend(self._receive(winner, card))
            return events
        self.turn = self._next_active(player)
        return events

    def _discard(self, player: str, card: str) -> list[Msg]:
        if self.discard_required is None:
            raise RuleViolation("HS-DISCARD-NOT-DUE", "hs.refuse.discard_not_due", player=player)
        # _apply already refused a discard by anyone else while one is due.
        owned = [c for c in self._collections[player] if c in POSSESSIONS]
        if card not in owned:
            raise RuleViolation("HS-DISCARD-CARD", "hs.refuse.discard_card", player=player,
                                card=self.card_label(card), owned=self._owned_labels(player))
        self._collections[player].remove(card)
        self._collections[player].remove("theft")
        self._discarded.extend([card, "theft"])
        self.discard_required = None
        return [Msg("hs.event.discarded", {"player": player, "card": self.card_label(card)}),
                Msg("hs.event.next", {"player": self.starter})]

    # -- settlement ------------------------------------------------------------------------------

    def _pay(self, player: str) -> list[Msg]:
        """The player's open bid goes to the discard; each card remembers the round it went in."""
        cards = self._bids[player]
        if not cards:
            return []
        for value in cards:
            self._spent[player][value] = self.round
        self._bids[player] = []
        return [Msg("hs.event.bid_lost", {"player": player, "amount": sum(cards)})]

    def _receive(self, player: str, card: str) -> list[Msg]:
        """The player takes the round's card; the round closes and they reveal the next one."""
        self.card = None
        self.turn = None
        self._passed = []
        self.starter = player
        events: list[Msg] = []
        if card == "theft":
            self._collections[player].append(card)
            if any(c in POSSESSIONS for c in self._collections[player]):
                self.discard_required = player
                events.append(Msg("hs.event.discard_due", {"player": player, "owned": self._owned_labels(player)}))
                return events
            self.theft_pending = player
            events.append(Msg("hs.event.theft_waits", {"player": player}))
        elif card in POSSESSIONS and self.theft_pending == player:
            self._collections[player].remove("theft")
            self._discarded.extend([card, "theft"])
            self.theft_pending = None
            events.append(Msg("hs.event.theft_applied", {"player": player, "card": self.card_label(card)}))
        else:
            self._collections[player].append(card)
        events.append(Msg("hs.event.next", {"player": player}))
        return events

    # -- helpers ---------------------------------------------------------------------------------

    def _seat_order_from(self, player: str) -> list[str]:
        i = self.players.index(player)
        return [self.players[(i + k) % len(self.players)] for k in range(1, len(self.players))]

    def _next_active(self, player: str) -> str:
        for other in self._seat_order_from(player):
            if other not in self._passed:
                return other
        return player

    def _to_beat(self, player: str) -> tuple[int, str | None]:
        best, leader = 0, None
        for other in self._seat_order_from(player):
            total = sum(self._bids[other])
            if total > best:
                best, leader = total, other
        return best, leader

    def _owned_labels(self, player: str) -> list[Msg]:
        owned = sorted((c for c in self._collections[player] if c in POSSESSIONS), key=possession_value)
        return [self.card_label(c) for c in owned]

    def _red_name(self) -> Msg:
        return Msg(f"hs.red.{self.edition}")

    def _score_steps(self, player: str) -> list[tuple[str, Fraction, int]]:
        """The score as the rulebook computes it: possessions added, −5, ×2 per title, ×½.
        Each step is (kind, value after it, the possession added or 0)."""
        kept = self._collections[player]
        value = Fraction(0)
        steps: list[tuple[str, Fraction, int]] = [("start", value, 0)]
        for card in sorted((c for c in kept if c in POSSESSIONS), key=possession_value):
            value += possession_value(card)
            steps.append(("plus", value, possession_value(card)))
        if "minus5" in kept:
            value -= 5
            steps.append(("minus5", value, 0))
        for card in kept:
            if card == "x2":
                value *= 2
                steps.append(("x2", value, 0))
        if "half" in kept:
            value /= 2
            steps.append(("half", value, 0))
        return steps

    def score_breakdown(self, player: str) -> Msg:
        """'3 + 9 − 5 = 7, ×2 = 14, ×½ = 7' as nested catalogue messages (numbers stay localised)."""
        calc: Msg | None = None
        terms = 0  # terms added or subtracted since the last '='
        before = Fraction(0)
        for kind, value, added in self._score_steps(player)[1:]:
            if kind == "plus":
                calc = Msg("hs.calc.num", {"n": added}) if calc is None else Msg("hs.calc.plus", {"left": calc, "n": added})
                terms += 1
            elif kind == "minus5":
                terms += 1 if calc is not None else 2
                calc = Msg("hs.calc.minus5", {"left": calc or Msg("hs.calc.num", {"n": 0})})
            else:
                if calc is None:
                    calc = Msg("hs.calc.num", {"n": 0})
                elif terms > 1:
                    calc = Msg("hs.calc.eq", {"left": calc, "value": _num(before)})
                terms = 0
                calc = Msg("hs.calc.x2" if kind == "x2" else "hs.calc.half", {"left": calc, "value": _num(value)})
            before = value
        if calc is None:
            return Msg("hs.calc.num", {"n": 0})
        if terms > 1:
            calc = Msg("hs.calc.eq", {"left": calc, "value": _num(before)})
        return calc

    def _ranking(self, remaining: list[str], out: list[str], scores: Mapping[str, Score],
                 money: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
        ordered = sorted(remaining, key=lambda p: (scores[p], money[p]), reverse=True)  # stable: seat order
        ranking: list[tuple[str, int]] = []
        for i, p in enumerate(ordered):
            prev = ordered[i - 1] if i else None
            if prev is not None and (scores[p], money[p]) == (scores[prev], money[prev]):
                ranking.append((p, ranking[-1][1]))
            else:
                ranking.append((p, i + 1))
        ranking.extend((p, len(remaining) + 1) for p in out)
        return tuple(ranking)

