"""A past game replayed step by step jumps to a chapter — an auction, a round, a deal, a season, a
trade — one tap from the replay (each game screen's ``chapters`` hook, companion.app.chapters),
instead of walking a hundred steps one at a time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.app import probe
from companion.app.games import SCREENS, screen_for
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg

ROOT = Path(__file__).resolve().parents[1]
# what opens each game's chapters (an action's type, or a sentence of the engine's) and their kind,
# per game (games: each game's own facts; every screen of the registry must have its line, checked below);
# a first deal or season opens before any entry
OPENS = {"high-society": {"reveal": "auction"}, "animalement-votre": {"reveal": "auction"},
         "stupide-vautour": {"reveal": "round"}, "boursicocotte": {"draw": "auction", "challenge": "trade"},
         "monte-descend": {"md.event.next_deal": "deal"}, "animalia": {"ani.event.season_start": "season"},
         "high-card": {"reveal": "round"}}
FIRST = {"monte-descend": "deal", "animalia": "season"}


def played(service: SessionService, game: str) -> int:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from playouts import playout

    record = playout(game, 3)
    state = service.start(game, record["players"], variant=record.get("variant"),
                          first_player=record.get("first_player"))
    for action in record["actions"]:
        service.submit(state.session_id, action)
    return state.session_id


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "past.db"))


def test_every_game_screen_offers_chapters():
    assert set(OPENS) == set(SCREENS)
    from companion.app.games import GameScreenBase

    # every game's own: not the contract's default, which offers none
    assert all(type(screen_for(g)).chapters is not GameScreenBase.chapters for g in SCREENS)


@pytest.mark.parametrize("game", sorted(SCREENS))  # every game of the registry (one without its line fails)
def test_a_past_game_jumps_to_each_chapter_in_one_tap(service, game):
    sid = played(service, game)
    log = service.open(sid).log
    expected: list[tuple[str, int]] = [(FIRST[game], 0)] if game in FIRST else []
    for i, entry in enumerate(log):
        for what in (entry.action.get("type"), *[getattr(m, "key", "") for m in entry.events]):
            if what in OPENS[game]:
                expected.append((OPENS[game][what], i + 1))
    count: dict[str, int] = {}
    names = []
    for kind, _ in expected:
        count[kind] = count.get(kind, 0) + 1
        names.append(Msg(f"app.past.chapter.{kind}", {"n": count[kind]}).render("fr"))
    steps = [at for _, at in expected]
    app = App(service, None)
    app.go("past", session_id=sid, step=0)
    chips = [i for i in probe.idents(app.root) if i.startswith("chapter-")]
    assert len(chips) == len(steps) >= 2
    assert [probe.text_of(app.root, c) for c in chips] == names
    probe.tap(app.root, "chapter-1")  # one tap to the second chapter
    assert app.here.params["step"] == steps[1]
    assert Msg("app.past.step", {"k": steps[1], "n": len(log)}).render("fr") == probe.text_of(app.root, "step-label")
    last = len(steps) - 1
    probe.tap(app.root, f"chapter-{last}")
    assert app.here.params["step"] == steps[last]


def test_chapter_names_in_both_languages():
    fr = [Msg(f"app.past.chapter.{k}", {"n": 1}).render("fr") for k in ("auction", "round", "deal", "season", "trade")]
    en = [Msg(f"app.past.chapter.{k}", {"n": 1}).render("en") for k in ("auction", "round", "deal", "season", "trade")]
    assert fr == ["Enchère 1", "Manche 1", "Donne 1", "Saison 1", "Marchandage 1"]
    assert en == ["Auction 1", "Round 1", "Deal 1", "Season 1", "Trade 1"]
