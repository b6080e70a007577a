"""The app's screens and service are type-checked, and the values they read have the types said.

mypy runs over the UI and service modules (the store, the statistics of companion/club.py,
service/migrate.py and service/play.py, whose errors come from the store's signatures, are left for
the store's split). Boursicocotte's ``player_view()`` is a ``PlayerView`` TypedDict: the dict it
returns has exactly the keys that type declares, at every phase the screen reads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import get_type_hints

from scoring.boursicocotte import AuctionView, BoursicocotteEngine, DebtView, PlayerView, TradeView
from tests.test_boursicocotte import TRADE_DEAL, act, bid, challenge, close, deliver_all, draw, engine, money

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["companion/app/ui.py", "companion/app/format.py", "companion/app/probe.py", "companion/app/shell.py",
           "companion/app/private_view.py", "companion/app/games", "companion/app/screens",
           *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "companion" / "service").glob("*.py")
                   if p.name not in ("migrate.py", "play.py"))]


def test_the_app_screens_and_the_service_type_check() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", *CHECKED], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


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
