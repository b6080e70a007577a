"""High card's referee, as ``scoring/<game>.py`` is a game's of the app: pure (no UI, no database).

Public, read-only state for the table screen:

- ``round``: the round in progress, or the next one (1, 2, …; the last one played once finished).
- ``hands``: player → the cards still in hand, ascending.
- ``battle``: the players of the battle under way (tied for the highest card), else ``()``.
- ``taken``: player → the rounds taken so far (every card is revealed face up: all public).
- ``ties``: ``"battle"`` (equal highest cards make a battle) or ``"nobody"`` (the house variant:
  nobody takes the round).
- ``last_round``: the sentences of the last round settled (who took it and why), else ``()``;
  built when read, so a quiet fold (``run``) builds no sentence.
- ``over``: True once a player's hand is empty at the end of a round.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Mapping

from models.i18n import Msg
from scoring.base import Engine, Event, Expectation, Outcome, RuleViolation, event, rank_by
from tests.high_card.spec import HC_HAND, HIGH_CARD
from tests.high_card.structs import HCAction

GAME = "high-card"
REVEAL_ALL = "HC-REVEAL-ALL"
CARD_USED = "HC-CARD-USED"
HIGHEST = "HC-HIGHEST"
BATTLE = "HC-BATTLE"
BATTLE_SHORT = "HC-BATTLE-SHORT"
GAME_OVER = "HC-GAME-OVER"
END = "HC-END"


class HighCardEngine(Engine[HCAction]):
    """The High card referee (see the module's doc for what a screen may read)."""

    games = (GAME,)
    spec = HIGH_CARD

    def __init__(self, record: Any):
        super().__init__(record)
        self._hands: dict[str, list[int]] = {p: list(HC_HAND) for p in self.players}
        self._taken: dict[str, int] = {p: 0 for p in self.players}
        self.ties: str = self.variant_value(record, "ties")
        self.round = 1
        self.battle: tuple[str, ...] = ()
        self.over = False
        # the last round settled: (its rule, who took it or tied, the card, the round), built into sentences when read
        self._last: tuple[str, tuple[str, ...], int, int] | None = None

    @property
    def last_round(self) -> tuple[Event, ...]:
        if self._last is None:
            return ()
        rule, players, card, number = self._last
        if rule == HIGHEST:
            return (event(HIGHEST, "hc.event.takes", player=players[0], card=card, round=number),)
        if rule == BATTLE:
            return (event(BATTLE, "hc.event.tie_nobody", players=players, card=card, round=number),)
        return (event(BATTLE_SHORT, "hc.event.nobody", players=players, round=number),)

    @property
    def hands(self) -> dict[str, tuple[int, ...]]:
        return {p: tuple(cards) for p, cards in self._hands.items()}

    @property
    def taken(self) -> dict[str, int]:
        return dict(self._taken)

    def player_view(self, assist: bool = False) -> Mapping[str, Any]:
        return {"ties": self.ties, "round": self.round, "hands": self.hands, "battle": self.battle, "taken": self.taken,
                "last_round": self.last_round, "over": self.over}

    # -- check ----------------------------------------------------------------------------------

    def _check(self, action: HCAction) -> None:
        if self.over:
            raise RuleViolation(GAME_OVER, "hc.refusal.over")
        if action.type == "reveal":
            if self.battle:
                raise RuleViolation(BATTLE, "hc.refusal.battle_due", players=self.battle)
            expected = self.players
        else:
            if not self.battle:
                raise RuleViolation(BATTLE, "hc.refusal.no_battle")
            expected = self.battle
        cards = action.cards
        if set(cards) != set(expected):
            missing = tuple(p for p in expected if p not in cards)
            extra = tuple(p for p in cards if p not in expected)
            if action.type == "battle":
                raise RuleViolation(BATTLE, "hc.refusal.battle_players", players=self.battle)
            raise RuleViolation(REVEAL_ALL, "hc.refusal.everyone", missing=missing or extra)
        for player, card in cards.items():
            if card not in self._hands[player]:
                raise RuleViolation(CARD_USED, "hc.refusal.used", player=player, card=card)

    # -- perform --------------------------------------------------------------------------------

    def _perform(self, action: HCAction) -> list[Msg]:
        cards = action.cards
        for player, card in cards.items():
            self._hands[player].remove(card)
        best = max(cards.values())
        holders = tuple(p for p in self.players if cards.get(p) == best)
        if len(holders) == 1:
            self._taken[holders[0]] += 1
            self._settle(HIGHEST, holders, best)
        elif self.ties == "nobody":
            self._settle(BATTLE, holders, best)
        elif all(self._hands[p] for p in holders):
            self.battle = holders
        else:
            self._settle(BATTLE_SHORT, holders, best)
        if self.quiet:  # a fold that reads no sentence (Engine.run)
            return []
        said: list[Msg] = [event((), "hc.event.revealed", cards=tuple(
            Msg("hc.player_card", {"player": p, "card": c}) for p, c in cards.items()))]
        if self.battle:
            said.append(event(BATTLE, "hc.event.battle", players=holders, card=best))
        else:
            said += self.last_round
        return said

    def _settle(self, rule: str, players: tuple[str, ...], card: int) -> None:
        """The round is settled: the next one starts, or the game ends if a hand is empty."""
        self.battle = ()
        self._last = (rule, players, card, self.round)
        if any(not cards for cards in self._hands.values()):
            self.over = True
        else:
            self.round += 1

    # -- what next, the end ---------------------------------------------------------------------

    def expected(self) -> Expectation:
        if self.over:
            return Expectation((), (), Msg("hc.prompt.over", {"rounds": self.round}))
        if self.battle:
            return Expectation(self.battle, ("battle",), Msg("hc.prompt.battle", {"players": self.battle}))
        return Expectation(self.players, ("reveal",), Msg("hc.prompt.reveal", {"round": self.round}))

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        scores = dict(self._taken)
        best = max(scores.values())
        winners = tuple(p for p in self.players if scores[p] == best)
        return Outcome(scores=scores, eliminated=(), winners=winners, replay_required=False,
                       ranking=rank_by(self.players, scores), explanation=partial(self._explain, scores, winners))

    def _explain(self, scores: Mapping[str, int], winners: tuple[str, ...]) -> list[Event]:
        lines = [event(END, "hc.end.tally", player=p, n=scores[p]) for p in self.players]
        if len(winners) == 1:
            lines.append(event(END, "hc.end.winner", player=winners[0], n=scores[winners[0]]))
        else:
            lines.append(event(END, "hc.end.shared", players=winners, n=scores[winners[0]]))
        return lines
