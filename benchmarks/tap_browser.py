"""A tap on the screen, timed in a real browser: every game's table at every player count, the
history's "more", and Flet's own floor (benchmarks/floor_app.py) served the same way.

    python benchmarks/tap_browser.py [--games high-society,stupide-vautour] [--taps 40] [--quick] [--hand 75]

The app is served as the browser tests serve it (tests/e2e/harness.py: ``companion --db DB run``
on a loopback port, Debian's /usr/bin/chromium driven by Playwright with the harness's arguments,
the accessibility tree switched on, controls found by ``flt-semantics-identifier``). Each game
gets a fresh database with one game per player count started through the service before the page
opens; the taps are planned beforehand from a legal game (benchmarks/playouts.py's drivers) and
only the taps are timed.

A tap is timed INSIDE the browser: page JavaScript dispatches the click on the control's tappable
node and a MutationObserver watches for the screen to show the result (a new log entry for a tap
that enters an action; for a pick, the node that says what was picked); at the first mutation
that shows it, the next animation frame reads ``performance.now()``. No Python in the loop.

The page also notes when each websocket message from the server arrives (the browser tests'
watch on the page's WebSocket, installed before Flet's client starts: tests/e2e/harness.py): a
tap's time splits into the *reply* (from the click to the server's first message after it: the
click's way to the server, the server's work, the patch's way back) and the *drawing* (from that
message to the screen showing the result: Flet's client applying the patch, Flutter building,
laying out and painting).

The floor is timed a second time showing and hiding 75 of the app's cards at each tap (``--hand``;
benchmarks/floor_app.py): what bringing five hands into view costs Flet and the browser when the
server does nothing else — information beside the goal, not a goal.

Prints, per game and player count: p50, p95, the ratio of p95 to the floor's p95 beside the goal
(p95 ≤ 2× the floor), the p50 of the reply and of the drawing, and the server's CPU per tap (utime
+ stime of the server process from /proc, before and after the taps, divided by their number);
then the goals of issue 35: the server's CPU per pick (a card chosen) and per entry (a new log
line) — /proc read before each tap, what the server spent until the next one charged to it, summed
by class: /proc counts in clock ticks (10 ms), so only a mean over many taps means anything — each
≤ 2× the floor's per tap, and the reply's p50 ≤ 2× the floor's.
Taps follow each other as soon as the next control can be tapped (two frames after); ``--pause MS``
waits longer before each, as players do (the animations of the last tap have ended). Asserts
nothing about time.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _setup  # noqa: F401  (puts the repository on sys.path)
from _setup import ROOT, percentile

from models.record import PLAYER_COUNTS, parse_action, parse_record_data
from scoring.referee import new_engine
from tests.e2e.harness import CHROMIUM, CHROMIUM_ARGS, AppProcess, Screen, sel, tab

GOAL = 2.0  # p95 of a game's taps ≤ GOAL × the floor's p95
TAP_TIMEOUT_MS = 15_000
NAMES = ("Anne", "Bruno", "Chloé", "David", "Émile", "Fanny")
GAMES = tuple(PLAYER_COUNTS)  # every registered game, in the registry's order (each has its planner below)
VIEWPORT = {"width": 1280, "height": 800}  # a 10-inch tablet in landscape, as the browser tests


@dataclass(frozen=True)
class Tap:
    """One tap: the control tapped, what kind of tap it is (for the breakdown), and what shows its
    result: ``watch`` None is a new log entry (``entry-N`` after the last one shown); ``new:P`` a
    node whose identifier starts with P and was not on the page before (a row "more" adds);
    otherwise the identifier of a node whose text, labels or presence must change. ``scroll``: the
    control is at the end of a list built lazily (only the rows in view are on the page), which is
    scrolled down, untimed, as a player does, until the control is there."""

    click: str
    kind: str
    watch: str | None = None
    scroll: bool = False  # scroll the list down (not timed) until the control is on the page


# The JavaScript that times one tap. It returns {ms, reply} or {error}; ``reply`` is the time from
# the click to the first websocket message after it (null if none came before the result showed).
TIME_TAP = """
async ([click, watch, timeout]) => {
  const S = (id) => `[flt-semantics-identifier="${id}"]`;
  const root = document.querySelector(S(click));
  if (!root) return {error: `${click} is not on the screen`};
  const target = root.hasAttribute('flt-tappable') ? root : root.querySelector('[flt-tappable]');
  if (!target) return {error: `${click} is not tappable`};
  const snap = (id) => {
    const node = document.querySelector(S(id));
    if (!node) return null;
    const parts = [node.textContent];
    for (const e of [node, ...node.querySelectorAll('*')])
      for (const a of e.attributes) if (a.name.startsWith('aria-')) parts.push(a.name + '=' + a.value);
    return parts.join('|');
  };
  let shown;
  if (watch !== null && watch.startsWith('new:')) {  // a node whose identifier starts so, not there before
    const prefix = watch.slice(4);
    const ids = () => Array.from(document.querySelectorAll(`[flt-semantics-identifier^="${prefix}"]`),
                                 (e) => e.getAttribute('flt-semantics-identifier'));
    const before = new Set(ids());
    shown = () => ids().some((id) => !before.has(id));
  } else if (watch === null) {
    let last = -1;
    for (const e of document.querySelectorAll('[flt-semantics-identifier^="entry-"]')) {
      const m = /^entry-(\\d+)$/.exec(e.getAttribute('flt-semantics-identifier'));
      if (m) last = Math.max(last, Number(m[1]));
    }
    const next = S(`entry-${last + 1}`);
    shown = () => document.querySelector(next) !== null;
  } else {
    const before = snap(watch);
    shown = () => snap(watch) !== before;
  }
  if (shown()) return {error: `the result of ${click} shows before the tap`};
  return await new Promise((resolve) => {
    let seen = false, done = false, start = 0;
    const finish = (result) => {
      if (done) return;
      done = true; observer.disconnect(); clearTimeout(timer); resolve(result);
    };
    const observer = new MutationObserver(() => {
      if (seen || !shown()) return;
      seen = true;
      const reply = window.__arrivals.find((t) => t >= start);
      requestAnimationFrame(() => finish({ms: performance.now() - start,
                                          reply: reply === undefined ? null : reply - start}));
    });
    observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    const timer = setTimeout(() => finish({error: `no result of ${click} after ${timeout} ms`}), timeout);
    start = performance.now();
    target.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
  });
}
"""


# --- the taps of each game, planned from a legal game ---------------------------------------

@dataclass
class Plan:
    game: str
    players: list[str]
    start: dict[str, Any] = field(default_factory=dict)  # SessionService.start's keywords
    taps: list[Tap] = field(default_factory=list)
    first: str = ""  # a control of the table screen to wait for once it is opened


def _playing(game: str, players: list[str], **start: Any) -> tuple[Any, Callable[[dict[str, Any]], None]]:
    record: dict[str, Any] = {"format": "table-record/1", "game": game, "players": players, "actions": []}
    if start.get("first_player"):
        record["first_player"] = start["first_player"]
    if start.get("variant"):
        record["variant"] = start["variant"]
    engine = new_engine(parse_record_data(record))

    def apply(data: dict[str, Any]) -> None:
        engine.apply(parse_action(game, data, players))
    return engine, apply


def plan_high_society(game: str, n: int, rng: random.Random, taps: int) -> Plan:
    from playouts import _hs_action

    players = list(NAMES[:n])
    plan = Plan(game, players, {"first_player": players[0]}, first="hs-reveal")
    engine, apply = _playing(game, players, **plan.start)
    while len(plan.taps) < taps:
        data = _hs_action(engine, rng)
        if data["type"] == "reveal":
            step = [Tap(f"reveal-{data['card']}", "reveal")]
        elif data["type"] == "bid":
            step = [Tap(f"money-{v}", "money card", "bid-adding") for v in data["add"]] + [Tap("bid-confirm", "bid")]
        elif data["type"] == "pass":
            step = [Tap("pass", "pass")]
        else:
            step = [Tap(f"discard-{data['card']}", "discard")]
        apply(data)
        if engine.outcome() is not None:
            break  # the last entry opens the results: only the table's taps are timed
        plan.taps += step
    return plan


def plan_stupide_vautour(game: str, n: int, rng: random.Random, taps: int) -> Plan:
    from playouts import _sv_action

    players = list(NAMES[:n])
    plan = Plan(game, players, {"first_player": players[0]}, first="sv-pot")
    engine, apply = _playing(game, players, **plan.start)
    while len(plan.taps) < taps:
        data = _sv_action(engine, rng)
        if data["type"] == "reveal":
            step = [Tap(f"sv-reveal-{data['card']}", "reveal")]
        else:
            step = [Tap(f"sv-card-{p}-{c}", "card", f"sv-picked-{p}") for p, c in data["cards"].items()]
            step.append(Tap("sv-confirm", "confirm"))
        apply(data)
        if engine.outcome() is not None:
            break
        plan.taps += step
    return plan


BC_KINDS = ("hen", "goose", "cat", "dog", "sheep", "goat", "pig", "cow", "horse")  # no donkey: no donkey money


def plan_boursicocotte(game: str, n: int, rng: random.Random, taps: int) -> Plan:
    """Turns of an animal drawn, then either nobody bids (the auctioneer takes it) or one bidder
    bids 10 with one tap, the animal is sold, and the buyer pays a 10 in private."""
    players = list(NAMES[:n])
    plan = Plan(game, players, {"first_player": players[0]}, first="bc-draw")
    engine, apply = _playing(game, players, **plan.start)
    while len(plan.taps) < taps:
        left = [k for k in BC_KINDS if engine.deck.get(k, 0) > 0]
        if not left:
            break
        auctioneer = engine.turn
        animal = rng.choice(left)
        step = [Tap(f"bc-draw-{animal}", "draw")]
        apply({"type": "draw", "card": animal})
        buyers = [p for p in players if p != auctioneer and engine.money[p].get(10, 0) > 0]
        if buyers and rng.random() < 0.6:
            buyer = rng.choice(buyers)
            step += [Tap(f"bc-bidder-{buyer}", "bid"), Tap("bc-close-sold", "close"),
                     Tap("bc-show-me", "show me", "bc-private"), Tap("bc-cash-10-0", "money card", "bc-picked"),
                     Tap("bc-pay", "pay")]
            for data in ({"type": "bid", "player": buyer, "amount": 10}, {"type": "close", "buy_back": False},
                         {"type": "pay", "player": buyer, "cards": [10]}):
                apply(data)
        else:
            step.append(Tap("bc-close-free", "close"))
            apply({"type": "close", "buy_back": False})
        if engine.outcome() is not None:
            break
        plan.taps += step
    return plan


def plan_monte_descend(game: str, n: int, rng: random.Random, taps: int) -> Plan:
    """A random legal match (the engine tests' driver) entered on the pad, up to its first take
    (several players' hands chosen from: the pad's take panel is not timed)."""
    from tests.support.monte_descend import drive

    players = list(NAMES[:n])
    _, actions = drive(players, take_stacking=False, rng=rng)
    plan = Plan(game, players, {"variant": {"take_stacking": False}}, first="md-pad")
    for data in actions[:-1]:  # the last one ends the match
        if len(plan.taps) >= taps or data["type"] == "take":
            break
        if data["type"] in ("draw", "pass"):
            plan.taps.append(Tap(f"md-{data['type']}", data["type"]))
            continue
        colour, action = "b", "skip"  # the pad's defaults after every entry
        for i, card_id in enumerate(data["cards"]):
            value, _, kind = card_id[1:].partition("-")
            if card_id[0] != colour:
                colour = card_id[0]
                plan.taps.append(Tap(f"md-colour-{colour}", "colour", "md-value-1"))
            if kind and kind != action:
                action = kind
                plan.taps.append(Tap(f"md-action-{kind}", "colour", "md-value-1"))
            plan.taps.append(Tap(f"md-value-{value}", "card", f"md-series-{i}"))
        if data.get("direction"):
            plan.taps.append(Tap(f"md-dir-{data['direction']}", "direction", f"md-dir-{data['direction']}"))
        plan.taps.append(Tap("md-confirm", "confirm"))
    return plan


def plan_animalia(game: str, n: int, rng: random.Random, taps: int) -> Plan:
    """Phase 1 of a random legal season (the engine tests' driver): cards turned over in the
    picker, lots passed on or taken; the private phases are not timed."""
    from tests.support.animalia import NAMES as ANI_NAMES
    from tests.support.animalia import play_random

    players = list(ANI_NAMES[:n])
    _, actions = play_random(n, seed=rng.randrange(2**32))
    plan = Plan(game, players, {}, first="ani-draw")
    engine, apply = _playing(game, players)
    for data in actions:
        if len(plan.taps) >= taps:
            break
        if data["type"] == "draw":
            tap = Tap(f"ani-pick-{data['card']}", "draw")
        elif data["type"] == "take" and data.get("player") == engine.holder:
            # two players: a take names the row the lot goes to
            tap = Tap(f"ani-take-row-{data['row']}" if "row" in data else "ani-take", "take")
        elif data["type"] == "pass" and data.get("player") == engine.holder:
            tap = Tap("ani-pass", "pass")
        else:
            break
        apply(data)
        plan.taps.append(tap)
    return plan


def plan_high_card(game: str, n: int, rng: random.Random, taps: int) -> Plan:
    """The tests' game (tests/high_card/, registered when COMPANION_GAMES names it): each entry is a
    card tapped for every player who reveals (all, or a battle's), then confirm."""
    players = list(NAMES[:n])
    plan = Plan(game, players, {}, first="hc-round")
    engine, apply = _playing(game, players)
    while len(plan.taps) < taps:
        kind = engine.expected().types[0]
        cards = {p: rng.choice(engine.hands[p]) for p in engine.expected().players}
        step = [Tap(f"hc-card-{p}-{c}", "card", f"hc-picked-{p}") for p, c in cards.items()]
        step.append(Tap("hc-confirm", "confirm"))
        apply({"type": kind, "cards": cards})
        if engine.outcome() is not None:
            break
        plan.taps += step
    return plan


# each game's planner, by game id (games: a game's own taps; tests/test_tap_benchmark.py fails for a
# registered game without its line)
PLANNERS: dict[str, Callable[[str, int, random.Random, int], Plan]] = {
    "high-society": plan_high_society,
    "animalement-votre": plan_high_society,
    "stupide-vautour": plan_stupide_vautour,
    "boursicocotte": plan_boursicocotte,
    "monte-descend": plan_monte_descend,
    "animalia": plan_animalia,
    "high-card": plan_high_card,
}


def best_plan(game: str, n: int, taps: int, seed: int) -> Plan:
    """The plan with the most taps (up to ``taps``) among a few seeds: a driver's game may end, or
    reach a move the benchmark does not enter, early."""
    best: Plan | None = None
    for k in range(8):
        plan = PLANNERS[game](game, n, random.Random(seed * 1000 + k), taps)
        if best is None or len(plan.taps) > len(best.taps):
            best = plan
        if len(best.taps) >= taps:
            break
    assert best is not None
    return best


# --- serving, measuring ------------------------------------------------------------------------

class Server(AppProcess):
    """A server subprocess, served and stopped as the browser tests serve the app (the harness's
    ``AppProcess``) but with its own command line (``{port}`` stands for the free port it gets)."""

    def __init__(self, argv: list[str], log_path: Path):
        super().__init__(Path(), log_path)
        self.argv = argv

    def command(self) -> list[str]:
        return [a.replace("{port}", str(self.port)) for a in self.argv]

    def __enter__(self) -> "Server":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_: Any) -> None:
        self.stop()

    def cpu_seconds(self) -> float:
        """utime + stime of the server process and its descendants (/proc), in seconds."""
        assert self.proc is not None
        tick = os.sysconf("SC_CLK_TCK")
        total, todo = 0, [self.proc.pid]
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                children.setdefault(int(fields[1]), []).append(int(entry))
        while todo:
            pid = todo.pop()
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
            todo += children.get(pid, [])
        return total / tick


@dataclass
class Measure:
    label: str
    times: list[float] = field(default_factory=list)  # ms
    replies: list[float] = field(default_factory=list)  # ms from the click to the server's first message
    drawings: list[float] = field(default_factory=list)  # ms from that message to the result on screen
    kinds: dict[str, list[float]] = field(default_factory=dict)
    kind_drawings: dict[str, list[float]] = field(default_factory=dict)  # the drawings, by kind of tap
    cpu_ms: float = float("nan")
    # the server's CPU by class of tap (a pick: a card chosen, nothing entered; an entry: a new log
    # line; a list's « more »): seconds summed over the taps of the class, and their number
    cpu_by: dict[str, float] = field(default_factory=dict)
    count_by: dict[str, int] = field(default_factory=dict)
    planned: int = 0
    error: str | None = None

    @property
    def p50(self) -> float:
        return percentile(self.times, 50)

    @property
    def p95(self) -> float:
        return percentile(self.times, 95)

    def cpu_of(self, kind: str) -> float:
        """The server's CPU per tap of that class, in ms (nan if none)."""
        n = self.count_by.get(kind, 0)
        return self.cpu_by.get(kind, 0.0) * 1000 / n if n else float("nan")


def tap_class(tap: Tap) -> str:
    """pick (the screen shows a choice, nothing is entered), entry (a new log line) or more."""
    if tap.watch is None:
        return "entry"
    return "more" if tap.watch.startswith("new:") else "pick"


def tappable(ident: str) -> str:
    return f"{sel(ident)}[flt-tappable], {sel(ident)} [flt-tappable]"


def time_taps(screen: Screen, server: Server, taps: list[Tap], label: str, pause_ms: int = 0) -> Measure:
    """Tap each control in turn, each timed in the browser; between taps (not timed) wait for the
    next control to be tappable, ``pause_ms`` and two frames."""
    measure = Measure(label, planned=len(taps))
    page = screen.page
    before = last = server.cpu_seconds()
    previous: str | None = None  # the class of the tap before: the server's CPU since it is its own

    def charge(kind: str | None) -> None:
        nonlocal last
        now = server.cpu_seconds()
        if kind is not None:
            measure.cpu_by[kind] = measure.cpu_by.get(kind, 0.0) + now - last
            measure.count_by[kind] = measure.count_by.get(kind, 0) + 1
        last = now

    for tap in taps:
        if tap.scroll:
            page.mouse.move(VIEWPORT["width"] / 2, VIEWPORT["height"] / 2)
            for _ in range(100):
                if page.locator(tappable(tap.click)).count():
                    break
                page.mouse.wheel(0, 400)
                screen.frames(1)
        try:
            page.wait_for_selector(tappable(tap.click), state="attached", timeout=TAP_TIMEOUT_MS)
        except Exception:
            measure.error = f"{tap.click} never tappable"
            break
        if pause_ms:
            page.wait_for_timeout(pause_ms)
        screen.frames(2)
        charge(previous)  # what the tap before cost the server, up to this one (its work after it showed too)
        result = page.evaluate(TIME_TAP, [tap.click, tap.watch, TAP_TIMEOUT_MS])
        previous = tap_class(tap)
        if "error" in result:
            measure.error = result["error"]
            break
        measure.times.append(result["ms"])
        if result["reply"] is not None:
            measure.replies.append(result["reply"])
            measure.drawings.append(result["ms"] - result["reply"])
            measure.kind_drawings.setdefault(tap.kind, []).append(result["ms"] - result["reply"])
        measure.kinds.setdefault(tap.kind, []).append(result["ms"])
    if measure.times:
        screen.frames(4)
        charge(previous)
        measure.cpu_ms = (server.cpu_seconds() - before) * 1000 / len(measure.times)
    return measure


@dataclass
class Browser:
    chromium: Any
    pause_ms: int = 0  # waited before each tap (not timed), beyond the two frames

    @contextmanager
    def screen(self) -> Iterator[Screen]:
        """A tab as the browser tests open one (tests/e2e/harness.py: its watch notes when each
        websocket message arrives)."""
        with tab(self.chromium, VIEWPORT["width"], VIEWPORT["height"]) as screen:
            yield screen


def measure_floor(browser: Browser, work: Path, taps: int, cards: int = 0) -> Measure:
    """Flet's floor; with ``cards``, its taps show and hide that many of the app's cards in turn
    (the two kinds of tap are told apart in the figures)."""
    from floor_app import BUTTON, COUNT

    argv = [sys.executable, str(ROOT / "benchmarks" / "floor_app.py"), "{port}"]
    if cards:
        argv += ["--hand", str(cards)]
    with Server(argv, work / f"floor-{cards}.log") as server:
        with browser.screen() as screen:
            screen.open(server.url, first=BUTTON)
            for _ in range(4):  # warm up: the first taps pay for the first frames (an even number: hidden)
                screen.click(BUTTON)
            screen.frames(4)
            plan = ([Tap(BUTTON, "show", COUNT), Tap(BUTTON, "hide", COUNT)] * taps)[:taps] if cards else \
                [Tap(BUTTON, "tap", COUNT)] * taps
            return time_taps(screen, server, plan, f"floor, {cards} cards" if cards else "floor", browser.pause_ms)


def measure_game(browser: Browser, work: Path, game: str, counts: list[int], taps: int, seed: int) -> list[Measure]:
    from companion.service import SessionService
    from companion.store import Store

    db = work / f"{game}.db"
    plans = [best_plan(game, n, taps, seed) for n in counts]
    store = Store(db)
    try:
        service = SessionService(store)
        sessions = [service.start(game, plan.players, **plan.start).session_id for plan in plans]
    finally:
        store.close()
    measures = []
    argv = [sys.executable, "-m", "companion", "--db", str(db), "run", "--port", "{port}"]
    with Server(argv, work / f"{game}.log") as server:
        with browser.screen() as screen:
            screen.open(server.url)
            for plan, sid in zip(plans, sessions):
                label = f"{game} {len(plan.players)}"
                if screen.exists("nav-home"):
                    screen.click("nav-home")
                try:
                    screen.click(f"resume-{sid}")
                    screen.wait_for(plan.first, timeout=30)
                except Exception as err:
                    measures.append(Measure(label, planned=len(plan.taps), error=f"table not opened: {err}"))
                    continue
                screen.frames(4)
                measures.append(time_taps(screen, server, plan.taps, label, browser.pause_ms))
    return measures


def measure_history(browser: Browser, work: Path, taps: int) -> Measure:
    import history

    from companion.app.screens.history import PAGE

    db = work / "history.db"
    history.build_database(db, (taps + 2) * PAGE)
    argv = [sys.executable, "-m", "companion", "--db", str(db), "run", "--port", "{port}"]
    with Server(argv, work / "history.log") as server:
        with browser.screen() as screen:
            screen.open(server.url)
            screen.click("home-history")
            screen.wait_for("history-count", timeout=30)
            screen.frames(4)
            more = Tap("history-more", "more", "new:history-", scroll=True)
            return time_taps(screen, server, [more] * taps,
                             f"history more ({PAGE} rows)", browser.pause_ms)


# --- printing ------------------------------------------------------------------------------------

def _drawn(drawings: list[float] | None) -> str:
    return f", drawing {percentile(drawings, 50):.0f} / {percentile(drawings, 95):.0f}" if drawings else ""


def line(m: Measure, floor: Measure | None) -> str:
    if not m.times:
        return f"  {m.label:<24} no tap timed: {m.error}"
    ratio = m.p95 / floor.p95 if floor is not None and floor.times else float("nan")
    goal = "" if floor is None else f"{ratio:5.1f}×  ≤ {GOAL:g}×  {'met' if ratio <= GOAL else 'NOT met':<7}"
    split = (f"  reply {percentile(m.replies, 50):5.1f} + drawing {percentile(m.drawings, 50):5.1f} ms (p50)"
             if m.replies else "")
    text = (f"  {m.label:<24} n={len(m.times):<3} p50 {m.p50:6.1f} ms  p95 {m.p95:6.1f} ms  {goal}"
            f"  server CPU {m.cpu_ms:5.1f} ms/tap{split}")
    if len(m.kinds) > 1:
        text += "\n" + " " * 28 + "  ".join(f"{k} p50 {percentile(v, 50):.0f} / p95 {percentile(v, 95):.0f} (n={len(v)}"
                                           f"{_drawn(m.kind_drawings.get(k))})" for k, v in m.kinds.items())
    if m.error:
        text += f"\n{' ' * 28}stopped after {len(m.times)} of {m.planned} taps: {m.error}"
    return text


def goals_line(m: Measure, floor: Measure) -> str:
    """The issue's goals: the server's CPU per pick and per entry ≤ GOAL × the floor's per tap, and
    the reply's p50 ≤ GOAL × the floor's."""
    if not m.times or not floor.times:
        return ""
    parts = []
    for kind in ("pick", "entry", "more"):
        cpu = m.cpu_of(kind)
        if cpu == cpu:  # not nan
            ratio = cpu / floor.cpu_ms
            parts.append(f"{kind} {cpu:.1f} ms ({ratio:.1f}× {'met' if ratio <= GOAL else 'NOT met'})")
    text = f"{' ' * 28}server CPU/tap vs the floor's {floor.cpu_ms:.1f} ms (goal ≤ {GOAL:g}×): " + ", ".join(parts)
    if m.replies and floor.replies:
        reply, floor_reply = percentile(m.replies, 50), percentile(floor.replies, 50)
        ratio = reply / floor_reply
        text += (f"; reply p50 {reply:.1f} ms vs {floor_reply:.1f} ms ({ratio:.1f}× "
                 f"{'met' if ratio <= GOAL else 'NOT met'})")
    return text


def hand_line(hand: Measure, floor: Measure) -> str:
    """The floor showing cards: information beside the goal, not a goal (nothing but the cards
    changes, so it is what showing them costs here whatever the server does)."""
    text = line(hand, None)
    shows = hand.kinds.get("show")
    if shows and floor.times:
        p95 = percentile(shows, 95)
        text += (f"\n{' ' * 28}the cards shown: p95 {p95:.1f} ms, "
                 f"{p95 / floor.p95:.1f}× the floor's p95 (information, not a goal)")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: every registered game)")
    parser.add_argument("--taps", type=int, default=None, help="taps per game and player count (default 40; quick 12)")
    parser.add_argument("--floor-taps", type=int, default=None, help="taps on the floor app (default 60; quick 30)")
    parser.add_argument("--history-taps", type=int, default=None,
                        help='taps on the history\'s "more" (default 8; quick 4; 0: none)')
    parser.add_argument("--hand", type=int, default=75, metavar="N",
                        help="also time the floor showing N of the app's cards (default 75: Stupide "
                             "Vautour's five hands; 0: not)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer taps, and only the fewest and the most players of each game")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pause", type=int, default=0, metavar="MS",
                        help="wait MS before each tap, as players do (default 0: as soon as it can be tapped)")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in PLANNERS]
    if unknown:
        parser.error(f"unknown games: {', '.join(unknown)} (known: {', '.join(GAMES)})")
    defaults = (12, 30, 4) if args.quick else (40, 60, 8)
    taps, floor_taps, history_taps = (given if given is not None else default for given, default in
                                      zip((args.taps, args.floor_taps, args.history_taps), defaults))
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    print(f"Taps in headless chromium, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
          "(other work skews every figure); from the click to the screen showing the result"
          + (f"; {args.pause} ms before each tap" if args.pause else "; each tap as soon as it can be made"))
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="tap-browser-"))
    try:
        with sync_playwright() as pw:
            browser = Browser(pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS), args.pause)
            try:
                floor = measure_floor(browser, work, floor_taps)
                print(line(floor, None) + "   ← Flet's floor (one button, one text, page.update())")
                if args.hand > 0:
                    hand = measure_floor(browser, work, floor_taps, args.hand)
                    print(hand_line(hand, floor), flush=True)
                for game in games:
                    least, most = PLAYER_COUNTS[game]
                    counts = [least, most] if args.quick and most > least else list(range(least, most + 1))
                    for m in measure_game(browser, work, game, counts, taps, args.seed):
                        print(line(m, floor), flush=True)
                        print(goals_line(m, floor), flush=True)
                if history_taps > 0:
                    more = measure_history(browser, work, history_taps)
                    print(line(more, floor), flush=True)
                    print(goals_line(more, floor), flush=True)
            finally:
                browser.chromium.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"(tap benchmark: {time.perf_counter() - started:.0f} s; load average at the end "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
