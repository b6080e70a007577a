"""Animalia in a real browser: one whole 3-player season through the real screens.

A new game; phase 1 by taps (each card turned over in the picker, passes, takes, the lot back at
the dealer growing); phase 2 with the bonus cards entered behind the "hand the tablet to …" screen
(the shared screen then says how many, never which); phase 3 with each player's private view (the
adviser's best option, confirmed); the season's end shows its tally, hidden until "reveal", and
season 2 starts on a tap. The last incomplete player enters each card with one tap.

Every turn's controls in view: games prepared at each kind of turn for 2 to 6 players, measured
at 1280×800 (wholly in view at the page's top) and 390×844 (within one scroll).

With SCREENSHOTS=1 the lot on offer is saved to docs/screenshots/animalia-table.png and the medal
adviser to animalia-medals.png.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from models.i18n import Msg
from models.record import parse_action, parse_record_data
from scoring.animalia import AnimaliaEngine, count_msg
from tests.e2e.harness import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ("Anne", "Bruno", "Chloé")
A, B, C = PLAYERS
HANDS = {
    A: ["cat-champion", "cat-dandy", "dog-champion", "dog-dandy", "owl"],
    B: ["horse-champion", "rabbit-champion", "parrot-dandy", "horse-scruffy", "dog-scruffy"],
    C: ["cat-scruffy", "rabbit-scruffy", "parrot-scruffy", "horse-dandy", "rabbit-dandy"],
}


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def phase1_taps() -> list[str]:
    """The taps of phase 1, planned with the engine: each card turned over is passed on until the
    player whose hand it completes takes it; the first lot goes round and grows to two cards."""
    engine = AnimaliaEngine(parse_record_data({"format": "table-record/1", "game": "animalia",
                                                "players": list(PLAYERS), "actions": []}))
    taps: list[str] = []

    def do(ident: str, action: dict) -> None:
        taps.append(ident)
        engine.apply(parse_action("animalia", action, list(PLAYERS)))

    # the first lot goes round the table and comes back to Anne, who draws a second card and takes both
    do("ani-pick-cat-champion", {"type": "draw", "card": "cat-champion"})
    for p in PLAYERS:
        do("ani-pass", {"type": "pass", "player": p})
    do("ani-pick-cat-dandy", {"type": "draw", "card": "cat-dandy"})
    do("ani-take", {"type": "take", "player": A})
    order = [(p, c) for i in range(5) for p in PLAYERS for c in [HANDS[p][i]] if c not in ("cat-champion", "cat-dandy")]
    for player, card in order:
        if engine.solo:  # the last incomplete player: one tap draws the card and takes it
            do(f"ani-pick-{card}", {"type": "draw", "card": card})
            engine.apply(parse_action("animalia", {"type": "take", "player": player}, list(PLAYERS)))
            continue
        do(f"ani-pick-{card}", {"type": "draw", "card": card})
        while engine.holder != player:
            do("ani-pass", {"type": "pass", "player": engine.holder})
        do("ani-take", {"type": "take", "player": player})
    assert engine.phase.value == "bonus"
    return taps


def entries(db) -> int:
    """The entries the server has saved (what the table sees is read from it)."""
    import sqlite3

    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM actions WHERE retracted_at IS NULL").fetchone()[0]


def test_animalia_one_whole_season_through_the_real_screens(tablet, companion_app):
    s = tablet
    s.open(companion_app.url)
    shots = ROOT / "docs" / "screenshots" if os.environ.get("SCREENSHOTS") else None

    s.set_up_game("animalia", PLAYERS, ready="new-player-name")
    s.click("setup-start")
    s.wait_for("ani-draw")
    s.wait_text(fr("app.ani.season", season=1), "ani-season")

    taps = phase1_taps()
    for i, ident in enumerate(taps):
        # the next tap's control shows once the tap's handler is done (the last player's one tap
        # saves two entries), so the count read here is the whole of what came before
        before = entries(companion_app.db)
        s.tap_until_saved(ident, lambda: entries(companion_app.db) > before)
        if i == 0:
            s.wait_text(fr("app.ani.offered", player=A), "ani-holder")
            if shots:
                shots.mkdir(parents=True, exist_ok=True)
                s.screenshot(shots / "animalia-table.png")
        if i == 3:  # back at Anne: she must draw one more card
            s.wait_text(fr("app.ani.draw_more", dealer=A), "ani-draw-title")
        # wait for the screen of the next tap before tapping it
        if i + 1 < len(taps):
            s.wait_for(taps[i + 1])

    # phase 2: Anne (10 stars) draws 2 bonus cards, Bruno (6) draws 1, in private
    s.wait_for("ani-prize")
    s.wait_text(fr("app.ani.pass_to", player=A), "ani-pass-tablet")
    for player, cards in ((A, ("cat-thief", "dog-spy")), (B, ("horse-prankster",))):
        s.wait_text(fr("app.ani.pass_to", player=player), "ani-pass-tablet")
        s.click("ani-show-me")
        s.wait_for("ani-private")
        for n, card in enumerate(cards):
            # the view stays open from one of the player's cards to the next (#38)
            s.wait_text(fr("app.ani.bonus_intro", cards=count_msg("bonus", len(cards) - n)), "ani-bonus-intro")
            s.click(f"ani-bonus-pick-{card}")
            s.wait_text(fr("app.ani.bonus_confirm", card=Msg(f"ani.card.{card}")), "ani-bonus-confirm")
            s.click("ani-bonus-confirm")
        s.wait_gone("ani-private")
    s.wait_for("ani-medals-waiting")
    s.wait_text(fr("app.ani.bonus_held", cards=count_msg("bonus", 2)), "ani-bonus-count-Anne")
    shared = s.body_text()
    assert fr("ani.card.cat-thief").capitalize() not in shared and "Chat voleur" not in shared

    # phase 3: each player in private follows the adviser and confirms
    for player in PLAYERS:
        s.click(f"ani-show-{player}")
        s.wait_for("ani-advice")
        if shots and player == B:
            s.screenshot(shots / "animalia-medals.png")
        s.click("ani-advice-0")
        if player == B:  # the adviser covers one of his single animals with his bonus horse
            s.wait_for("ani-covers-planned")
        s.click("ani-medals-confirm")
        s.wait_gone("ani-private")

    # season 2: the dealer is left of the last dealer; the tally is hidden until revealed
    s.wait_text(fr("app.ani.season", season=2), "ani-season")
    s.wait_for("ani-reveal")
    assert not s.exists("ani-tally-Anne")
    s.click("ani-reveal")
    s.wait_for("ani-tally-Anne")
    s.wait_text(fr("ani.n.medals.many", n=5), "ani-tally-Anne")
    # the season's end is a moment: the tally first, the picker once the table starts the season
    assert not s.exists("ani-draw")
    s.click("ani-season-go")
    s.wait_for("ani-draw")


# -- every turn's controls in view -------------------------------------------------------------------
# Games prepared through the service at each kind of turn, for 2 and for 6 players (the fewest and the
# most: the screen's parts grow with the players, so 3 to 5 lie between them), opened in one tab: at
# 1280×800 with the page at its top every control the turn needs is wholly in view; at 390×844 it is
# within one scroll (its bottom at most two screen heights down).

TURNS = {  # the turn: what the table taps first (None: the shared screen), the controls it needs
    "draw": (None, ("ani-draw-title", "ani-pick-cat-champion", "ani-pick-parrot-prankster", "ani-pick-owl")),
    "draw_more": (None, ("ani-lot", "ani-pick-cat-champion", "ani-pick-parrot-prankster", "ani-pick-owl")),
    "offer": (None, ("ani-lot", "ani-holder", "ani-pass")),
    "bonus": ("ani-show-me", ("ani-bonus-confirm", "ani-bonus-pick-cat-champion", "ani-bonus-pick-owl")),
    "season_end": (None, ("ani-tally-title", "ani-reveal", "ani-season-go")),
    "medals": ("ani-show-Anne", ("ani-choice-0", "ani-medals-confirm")),
}


def _until(service: Any, sid: int, actions: list[dict], done: Any) -> None:
    for action in actions:
        if done(service.open(sid).engine):
            return
        service.submit(sid, action)
    assert done(service.open(sid).engine)


def _prepare(service: Any, n: int, turn: str) -> int:
    from tests.support.animalia import NAMES, play_random

    players = list(NAMES[:n])
    sid = service.start("animalia", players, assist=False).session_id
    _, actions = play_random(n, seed=n)
    if turn == "draw":
        return sid
    if turn in ("offer", "draw_more"):
        service.submit(sid, {"type": "draw", "card": "cat-scruffy"})
        if turn == "draw_more":  # the lot goes round and comes back to the dealer, who draws one more
            for _ in players:
                engine = service.open(sid).engine
                service.submit(sid, {"type": "pass", "player": engine.holder})
            assert service.open(sid).engine.holder is None
        return sid
    if turn == "bonus":
        _until(service, sid, actions, lambda e: e.phase.value == "bonus")
        return sid
    if turn == "medals":
        _until(service, sid, actions, lambda e: e.phase.value == "medals" and "Anne" in e.expected().players)
        return sid
    _until(service, sid, actions, lambda e: e.season == 2)
    return sid


@pytest.fixture(scope="module")
def prepared_turns(tmp_path_factory) -> Any:
    from companion.app.games import animalia  # noqa: F401  (the screen the tests look at)
    from companion.service import SessionService
    from companion.store import Store
    from tests.e2e.harness import AppProcess

    folder = tmp_path_factory.mktemp("animalia-turns")
    store = Store(folder / "companion.db")
    service = SessionService(store)
    sessions = {(n, turn): _prepare(service, n, turn) for n in (2, 6) for turn in TURNS}
    store.close()
    server = AppProcess(folder / "companion.db", folder / "app.log").start()
    try:
        yield server, sessions
    finally:
        server.stop()


def test_every_turn_s_controls_in_view_for_two_and_for_six_players(chromium, prepared_turns):
    from tests.e2e.harness import tab

    server, sessions = prepared_turns
    misses: list[str] = []
    with tab(chromium) as s:
        s.open(server.url)
        for (n, turn), sid in sessions.items():
            first, needed = TURNS[turn]
            s.resize(1280, 800)
            s.resume(sid)
            s.wait_for(needed[-1] if first is None else first)
            if first is not None:  # a tap that lands while the last resize is redrawn is lost: once more
                s.tap_until(first, lambda: s.exists(needed[0]))
                s.wait_for(needed[0])
            for (width, height), screens in (((1280, 800), 1.0), ((390, 844), 2.0)):
                s.resize(width, height)
                s.scroll_top()
                try:
                    s.in_view(needed, f"{n} players, {turn}, {width}×{height}", screens, timeout=4)
                except AssertionError as miss:
                    misses.append(str(miss))
            if first is not None:
                s.tap_until("ani-hide", lambda: not s.exists("ani-private"))
                s.wait_gone("ani-private")
    assert misses == [], "\n".join(misses)
