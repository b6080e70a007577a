"""Boursicocotte's ``player_view()`` (what a player's private view reads) is a ``PlayerView``
TypedDict: the dict it returns has exactly the keys that type declares, at every phase the screen
reads. (mypy itself runs over companion/, models/ and scoring/ in scripts/test.)"""

from __future__ import annotations

from typing import get_type_hints

from scoring.boursicocotte import AuctionView, BoursicocotteEngine, DebtView, PlayerView, TradeView
from tests.support.boursicocotte import TRADE_DEAL, act, bid, challenge, close, deliver_all, draw, engine, money


def _keys(typed: type) -> set[str]:
    return set(typed.__required_keys__)


def _check(eng: BoursicocotteEngine) -> PlayerView:
    view = eng.player_view()
    assert set(view) == _keys(PlayerView)
    for part, typed in (("auction", AuctionView), ("debt", DebtView), ("trade", TradeView)):
        if view[part] is not None:
            assert set(view[part]) == _keys(typed), part
    return view


def test_player_view_is_typed_and_has_the_keys_its_type_declares() -> None:
    assert get_type_hints(BoursicocotteEngine.player_view)["return"] is PlayerView
    eng = engine()
    assert _check(eng)["phase"] == "turn"
    act(eng, draw("horse"))
    assert _check(eng)["auction"] is not None
    act(eng, bid("Bruno", 10))
    act(eng, close())
    view = _check(eng)
    assert view["phase"] == "payment" and view["debt"] is not None
    eng = engine()
    deliver_all(eng, TRADE_DEAL)
    challenger = eng.turn
    assert challenger is not None
    target, animal = next(iter(eng.trade_options(challenger)))
    act(eng, challenge(challenger, target, animal, [max(money(eng, challenger))]))
    view = _check(eng)
    assert view["phase"] == "trade_answer" and view["trade"] is not None
