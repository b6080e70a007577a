"""The browser tap benchmark (benchmarks/tap_browser.py), without a browser: its floor app builds
and a tap changes its text (and shows, then hides, a row of the app's cards), and every game's
planned taps are legal plays entered through identifiers the screens expose (no invented ones).
Nothing is timed here."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from models.games import SPECS
from models.record import PLAYER_COUNTS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import floor_app  # noqa: E402
import tap_browser  # noqa: E402


class FakePage:
    def __init__(self) -> None:
        self.controls: list[Any] = []
        self.updates = 0

    def add(self, *controls: Any) -> None:
        self.controls += controls

    def update(self) -> None:
        self.updates += 1


def test_the_floor_app_builds_and_a_tap_shows_on_its_text():
    page = FakePage()
    floor_app.main(page)  # type: ignore[arg-type]
    button, count = page.controls
    assert (button.identifier, count.identifier) == (floor_app.BUTTON, floor_app.COUNT)
    button.content.on_click(None)
    button.content.on_click(None)
    assert count.content.value == "2" and page.updates == 2


def test_the_floor_with_a_hand_shows_then_hides_that_many_of_the_apps_cards():
    from companion.app import probe

    page = FakePage()
    floor_app.main(page, cards=30)  # type: ignore[arg-type]
    button, count, hand = page.controls
    assert hand.identifier == floor_app.HAND and not hand.content.visible
    button.content.on_click(None)
    assert hand.content.visible and count.content.value == "1"
    cards = [i for i in probe.idents(hand) if i.startswith("floor-card-")]
    assert len(cards) == 30 and len(hand.content.controls) == 2  # two rows of 15
    button.content.on_click(None)
    assert not hand.content.visible and count.content.value == "2" and page.updates == 2


def test_the_hand_line_says_what_showing_the_hand_costs_beside_the_floor_and_sets_no_goal():
    floor = tap_browser.Measure("floor", times=[20.0, 20.0])
    hand = tap_browser.Measure("floor, 75 cards", times=[50.0, 15.0], kinds={"show": [50.0], "hide": [15.0]})
    text = tap_browser.hand_line(hand, floor)
    assert "show p50 50 / p95 50" in text and "2.5× the floor's p95" in text
    assert "met" not in text


def screen_identifiers() -> list[re.Pattern[str]]:
    """Every identifier the screens give (``ident("…")``, ``ident=f"…"``), ``{…}`` as a wildcard."""
    found = set()
    outside = [ROOT / (spec.screen.replace(".", "/") + ".py") for spec in SPECS  # a game's registered from outside
               if not spec.screen.startswith("companion.app.")]
    for path in [*(ROOT / "companion" / "app" / "games").glob("*.py"), *(ROOT / "companion" / "app" / "screens").glob("*.py"),
                 *outside]:
        found |= {a or b for a, b in re.findall(r'ident\(f?"([^"]+)"\)|ident=f?"([^"]+)"', path.read_text("utf-8"))}
    return [re.compile("".join(".+" if part.startswith("{") else re.escape(part)
                               for part in re.split(r"(\{[^}]*\})", ident))) for ident in found]


def test_every_registered_game_is_benchmarked():
    assert tap_browser.GAMES == tuple(spec.id for spec in SPECS) and set(tap_browser.GAMES) <= set(tap_browser.PLANNERS)


@pytest.mark.parametrize("game", tap_browser.GAMES)
def test_each_game_has_taps_at_its_fewest_and_most_players_on_the_screens_identifiers(game):
    known = screen_identifiers()
    for players in PLAYER_COUNTS[game]:
        plan = tap_browser.best_plan(game, players, 12, seed=7)
        assert len(plan.players) == players and len(plan.taps) >= 12, (game, players, plan.taps)
        for tap in plan.taps:
            for ident in (tap.click, tap.watch, plan.first):
                assert ident is None or any(p.fullmatch(ident) for p in known), (game, ident)


def test_a_line_gives_each_kind_of_taps_times_and_its_drawing_beside_the_floor():
    floor = tap_browser.Measure("floor", times=[10.0, 12.0], replies=[2.0, 2.0], drawings=[8.0, 10.0])
    game = tap_browser.Measure("sv 3", times=[20.0, 60.0], replies=[5.0, 15.0], drawings=[15.0, 45.0],
                               kinds={"card": [20.0], "reveal": [60.0]},
                               kind_drawings={"card": [15.0], "reveal": [45.0]}, cpu_ms=4.0)
    text = tap_browser.line(game, floor)
    assert "card p50 20 / p95 20 (n=1, drawing 15 / 15)" in text
    assert "reveal p50 60 / p95 60 (n=1, drawing 45 / 45)" in text
    assert "NOT met" in text


def test_the_goals_line_sets_each_class_of_tap_and_the_reply_beside_the_floors():
    """The server's CPU per pick and per entry against the floor's per tap, and the reply's p50
    against the floor's, each said met or not at 2×."""
    floor = tap_browser.Measure("floor", times=[10.0], replies=[4.0, 4.0], cpu_ms=2.0)
    game = tap_browser.Measure("sv 3", times=[20.0, 30.0], replies=[6.0, 10.0], cpu_ms=6.0,
                               cpu_by={"pick": 0.006, "entry": 0.030}, count_by={"pick": 2, "entry": 2})
    text = tap_browser.goals_line(game, floor)
    assert "pick 3.0 ms (1.5× met)" in text and "entry 15.0 ms (7.5× NOT met)" in text
    assert "reply p50 8.0 ms vs 4.0 ms (2.0× met)" in text and "more" not in text
    assert [tap_browser.tap_class(t) for t in (tap_browser.Tap("sv-confirm", "confirm"),
                                               tap_browser.Tap("sv-card-Anne-3", "card", "sv-picked-Anne"),
                                               tap_browser.Tap("history-more", "more", "new:history-"))] == [
        "entry", "pick", "more"]


def test_the_hand_goals_set_the_reveal_and_the_confirm_beside_the_floor_showing_as_many_cards():
    hand = tap_browser.Measure("floor, 45 cards", times=[50.0, 15.0], kinds={"show": [50.0], "hide": [15.0]})
    game = tap_browser.Measure("sv 3", times=[20.0, 55.0, 70.0],
                               kinds={"card": [20.0], "reveal": [55.0], "confirm": [70.0]})
    goals = dict((text.split(":")[1].split()[0], ratio) for text, ratio in tap_browser.hand_goals(game, hand, 3))
    assert goals == {"reveal": 1.1, "confirm": 1.4}
    assert all("45 cards 50.0" in text for text, _ in tap_browser.hand_goals(game, hand, 3))
    assert [g.met for g in (tap_browser.Goal("skwasm", "", 1.1, 1.2), tap_browser.Goal("skwasm", "", 1.4, 1.2))] == [
        True, False]


def test_the_semantics_line_gives_the_trees_share_of_the_same_taps_with_it_on_and_off():
    on = tap_browser.Measure("floor, semantics on · skwasm · touch", times=[40.0, 50.0], replies=[10.0, 10.0],
                             drawings=[30.0, 40.0])
    off = tap_browser.Measure("floor, semantics off · skwasm · touch", times=[30.0, 40.0], replies=[10.0, 10.0],
                              drawings=[20.0, 30.0])
    text = tap_browser.semantics_line(on, off)
    assert "its share +22% at p50" in text and "drawing p50 35.0 → 25.0 ms" in text


def test_the_renderers_are_compared_on_the_same_screen_and_the_served_one_is_what_chromium_runs():
    a = tap_browser.Measure("x", times=[100.0, 100.0])
    b = tap_browser.Measure("x", times=[40.0, 50.0])
    assert "skwasm / CanvasKit, touch, floor: p50 0.45×, p95 0.49×" in tap_browser.versus_line(
        "floor", {"canvaskit": a, "skwasm": b})
    from companion.app.server import WEB_RENDERER

    assert tap_browser.served_in_chromium() in tap_browser.RENDERERS
    assert (tap_browser.served_in_chromium() == "skwasm") == (WEB_RENDERER in ("auto", "skwasm"))
