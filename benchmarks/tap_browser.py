"""A tap on the screen, timed in a real browser: every game's table at every player count, the
history's "more", and Flet's own floor (benchmarks/floor_app.py) served the same way.

    python benchmarks/tap_browser.py [--games high-society,stupide-vautour] [--taps 40] [--quick] [--hand 75]
                                     [--renderers canvaskit,skwasm] [--mouse-taps 12] [--semantics-taps 30]

Each screen is served with each renderer in turn (Flet's ``FLET_WEB_RENDERER``: CanvasKit, then
skwasm), one after the other so that both see the same load, and the page says which one ran
(``window._flutter_skwasmInstance`` or ``window.flutterCanvasKit``, skwasm's threads, and
``crossOriginIsolated``). Taps are a finger's (a touch screen: ``page.touchscreen.tap`` at the
centre of the control, no hover), the figures beside the goals; the same taps with the mouse
(``page.mouse.click``: hover, then a click) are printed beside them as information, on a game of
their own.

The app is served as the browser tests serve it (tests/e2e/harness.py: ``companion --db DB run``
on a loopback port, Debian's /usr/bin/chromium driven by Playwright with the harness's arguments,
the accessibility tree switched on, controls found by ``flt-semantics-identifier``). Each game
gets a fresh database with one game per player count started through the service before the page
opens; the taps are planned beforehand from a legal game (benchmarks/playouts.py's drivers) and
only the taps are timed.

A tap is timed INSIDE the browser: page JavaScript finds the control's tappable node, arms a
MutationObserver that watches for the screen to show the result (a new log entry for a tap that
enters an action; for a pick, the node that says what was picked) and a listener for the tap's first
event (pointerdown or touchstart, where the clock starts); Playwright then taps at the node's centre;
at the first mutation that shows the result, the next animation frame reads ``performance.now()``.
No Python in the timed part.

The page also notes when each websocket message from the server arrives (the browser tests'
watch on the page's WebSocket, installed before Flet's client starts: tests/e2e/harness.py): a
tap's time splits into the *reply* (from the click to the server's first message after it: the
click's way to the server, the server's work, the patch's way back) and the *drawing* (from that
message to the screen showing the result: Flet's client applying the patch, Flutter building,
laying out and painting).

The floor is timed again showing and hiding N of the app's cards at each tap (``--hand``: by
default 15 a player for Stupide Vautour's counts of 3 players or more; benchmarks/floor_app.py):
what bringing that many hands into view costs Flet and the browser when the server does nothing
else. Stupide Vautour's reveal and confirm, the taps that bring a whole hand into view or take it
away, are set beside it: p95 ≤ 1.2× the floor showing as many cards.

The accessibility tree's share, once, on the renderer the app serves: the floor and Stupide
Vautour's table at 5 players tapped with the tree on (as the tests and the other figures have it)
and off (as a player's browser has it: the points tapped are those the tree gave in the same state,
on a second database with the same game), the result seen the same way in both: two animation
frames after the server's first message after the tap (the harness's websocket watch).

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
from tests.e2e.harness import CHROMIUM, CHROMIUM_ARGS, WS_WATCH, AppProcess, Screen, loopback_only, sel

GOAL = 2.0  # p95 of a game's taps ≤ GOAL × the floor's p95
HAND_GOAL = 1.2  # p95 of a tap that brings the hands into view ≤ HAND_GOAL × the floor showing as many cards
HAND_GAME, HAND, HAND_KINDS = "stupide-vautour", 15, ("reveal", "confirm")  # its hands: 15 cards a player
RENDERER_ENV = "FLET_WEB_RENDERER"  # Flet's own knob: which renderer its web client starts
RENDERERS = ("canvaskit", "skwasm")
RENDERER_SHORT = {"canvaskit": "CanvasKit", "skwasm": "skwasm"}
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


# The JavaScript that arms the timing of one tap; the tap itself is Playwright's (a finger:
# ``page.touchscreen.tap``, or the mouse: ``page.mouse.click``) at the point it returns, the centre
# of the control's tappable node, and ``COLLECT`` waits for the result in the page. The clock starts
# in the page, at the tap's first event (pointerdown or touchstart, caught before anyone else), and
# stops at the first animation frame after the screen shows the result; ``reply`` is the time from
# the tap to the first websocket message after it (null if none came before the result showed).
# No Python in the timed part.
ARM_TAP = """
([click, watch, timeout]) => {
  const S = (id) => `[flt-semantics-identifier="${id}"]`;
  const root = document.querySelector(S(click));
  if (!root) return {error: `${click} is not on the screen`};
  const target = root.hasAttribute('flt-tappable') ? root : root.querySelector('[flt-tappable]');
  if (!target) return {error: `${click} is not tappable`};
  const box = target.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight)
    return {error: `${click} is out of view (${Math.round(x)}, ${Math.round(y)})`};
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
  window.__tap = new Promise((resolve) => {
    let start = null, seen = false, done = false;
    const down = () => { if (start === null) start = performance.now(); };
    const finish = (result) => {
      if (done) return;
      done = true; observer.disconnect(); clearTimeout(timer);
      window.removeEventListener('pointerdown', down, true);
      window.removeEventListener('touchstart', down, true);
      window.removeEventListener('mousedown', down, true);
      resolve(result);
    };
    const observer = new MutationObserver(() => {
      if (seen || !shown()) return;
      seen = true;
      if (start === null) { finish({error: `the result of ${click} showed before the tap reached the page`}); return; }
      const reply = window.__arrivals.find((t) => t >= start);
      requestAnimationFrame(() => finish({ms: performance.now() - start,
                                          reply: reply === undefined ? null : reply - start}));
    });
    for (const kind of ['pointerdown', 'touchstart', 'mousedown'])
      window.addEventListener(kind, down, {capture: true, passive: true});
    observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    const timer = setTimeout(() => finish({error: `no result of ${click} after ${timeout} ms`}), timeout);
  });
  return {x, y};
}
"""
COLLECT = "() => window.__tap"

# The same clock with the accessibility tree off, where no node says what a tap did: the tap at a
# point given, the result the first websocket message after it, on screen two animation frames
# after that message (the frame that draws the patch, then the next). Needs HOOK in the page.
ARM_WS = """
([timeout]) => {
  window.__tap = new Promise((resolve) => {
    let start = null, done = false;
    const down = () => { if (start === null) start = performance.now(); };
    const finish = (result) => {
      if (done) return;
      done = true; window.__onArrival = null; clearTimeout(timer);
      window.removeEventListener('pointerdown', down, true);
      window.removeEventListener('touchstart', down, true);
      resolve(result);
    };
    window.__onArrival = (t) => {
      if (start === null) return;
      window.__onArrival = null;
      requestAnimationFrame(() => requestAnimationFrame(() =>
        finish({ms: performance.now() - start, reply: t - start})));
    };
    for (const kind of ['pointerdown', 'touchstart'])
      window.addEventListener(kind, down, {capture: true, passive: true});
    const timer = setTimeout(() => finish({error: `no message from the server ${timeout} ms after the tap`}), timeout);
  });
  return true;
}
"""
# Installed in every tab after the harness's websocket watch: each message from the server also
# calls ``window.__onArrival`` (ARM_WS), in the message's own task.
HOOK = """
(() => {
  const Watched = window.WebSocket;
  class Hooked extends Watched {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => { const f = window.__onArrival; if (f) f(performance.now()); });
    }
  }
  window.WebSocket = Hooked;
})();
"""
# Which renderer runs in the page: skwasm (and whether multi-threaded: its memory shared), or
# CanvasKit; and whether the page is cross-origin isolated (what skwasm's threads need).
RENDERER = """() => {
  const sk = window._flutter_skwasmInstance;
  const renderer = sk ? 'skwasm' : (window.flutterCanvasKit ? 'canvaskit' : 'unknown');
  let threads = null;
  if (sk) {
    const memory = sk.wasmMemory || (sk.wasmExports && sk.wasmExports.memory);
    threads = memory ? (typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer) : null;
  }
  return {renderer, threads, isolated: window.crossOriginIsolated === true};
}"""
# Settled: no message from the server for ``quiet`` ms (at most ``limit`` ms), then two frames.
SETTLE_WS = """([quiet, limit]) => new Promise((resolve) => {
  const start = performance.now();
  const tick = () => {
    const now = performance.now();
    const last = Math.max(start - quiet, window.__arrivals.at(-1) ?? -Infinity);
    if (now - last >= quiet || now - start >= limit)
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(now - last >= quiet)));
    else setTimeout(tick, 20);
  };
  tick();
})"""


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

    def __init__(self, argv: list[str], log_path: Path, renderer: str | None = None):
        super().__init__(Path(), log_path)
        self.argv = argv
        self.renderer = renderer  # FLET_WEB_RENDERER for the server (None: what it serves by default)

    def command(self) -> list[str]:
        return [a.replace("{port}", str(self.port)) for a in self.argv]

    def start(self) -> "Server":
        saved = os.environ.get(RENDERER_ENV)
        if self.renderer is not None:
            os.environ[RENDERER_ENV] = self.renderer  # the harness hands the server this environment
        try:
            super().start()
        finally:
            if saved is None:
                os.environ.pop(RENDERER_ENV, None)
            else:
                os.environ[RENDERER_ENV] = saved
        return self

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
    ran: str = ""  # the renderer that ran in the page, as it said

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


def tap_at(page: Any, x: float, y: float, how: str) -> None:
    """A finger (``touch``: touchstart and touchend, no hover) or the mouse (``mouse``: moved
    there, pressed and released, as a click) at (x, y)."""
    if how == "touch":
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def time_taps(screen: Screen, server: Server, taps: list[Tap], label: str, pause_ms: int = 0,
              how: str = "touch") -> Measure:
    """Tap each control in turn (``how``: touch or mouse), each timed in the browser; between taps
    (not timed) wait for the next control to be tappable, ``pause_ms`` and two frames."""
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
                if page.locator(tappable(tap.click)).count() and not page.evaluate(OUT_OF_VIEW, tap.click):
                    break
                page.mouse.wheel(0, 400)
                screen.frames(1)
            screen.frames(2)
        try:
            page.wait_for_selector(tappable(tap.click), state="attached", timeout=TAP_TIMEOUT_MS)
        except Exception:
            measure.error = f"{tap.click} never tappable"
            break
        if pause_ms:
            page.wait_for_timeout(pause_ms)
        screen.frames(2)
        charge(previous)  # what the tap before cost the server, up to this one (its work after it showed too)
        armed = page.evaluate(ARM_TAP, [tap.click, tap.watch, TAP_TIMEOUT_MS])
        if "error" in armed:
            measure.error = armed["error"]
            break
        tap_at(page, armed["x"], armed["y"], how)
        result = page.evaluate(COLLECT)
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


# whether the control's tappable node is outside the window (a list is scrolled until it is not)
OUT_OF_VIEW = """(id) => {
  const root = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const node = root && (root.hasAttribute('flt-tappable') ? root : root.querySelector('[flt-tappable]'));
  if (!node) return true;
  const b = node.getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  return x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight;
}"""


@dataclass
class Browser:
    chromium: Any
    pause_ms: int = 0  # waited before each tap (not timed), beyond the two frames

    @contextmanager
    def screen(self) -> Iterator[Screen]:
        """A tab as the browser tests open one (tests/e2e/harness.py: the same window, reaching
        nothing but the app, its websocket watched), on a touch screen as a tablet's (touch
        events; the mouse works too)."""
        context = self.chromium.new_context(viewport=VIEWPORT, device_scale_factor=1, has_touch=True)
        try:
            page = context.new_page()
            page.add_init_script(WS_WATCH)
            page.add_init_script(HOOK)
            page.route("**/*", loopback_only)
            yield Screen(page)
        finally:
            context.close()


def renderer_of(screen: Screen) -> str:
    """Which renderer runs in the page, as said there (skwasm with its threads or not; CanvasKit)."""
    found = screen.page.evaluate(RENDERER)
    text = str(found["renderer"])
    if found["renderer"] == "skwasm":
        text += ", multi-threaded" if found["threads"] else ", single-threaded" if found["threads"] is False else ""
    return text + (", cross-origin isolated" if found["isolated"] else ", not cross-origin isolated")


HOWS = ("touch", "mouse")  # a finger (the figures beside the goals) and the mouse (information)


def _label(base: str, renderer: str, how: str) -> str:
    return f"{base} · {RENDERER_SHORT.get(renderer, renderer)} · {how}"


def measure_floor(browser: Browser, work: Path, renderer: str, taps: dict[str, int],
                  cards: int = 0) -> dict[str, Measure]:
    """Flet's floor served with ``renderer``, tapped in a fresh tab for each way of tapping
    (``taps``: how many a way, none for 0); with ``cards``, its taps show and hide that many of
    the app's cards in turn (the two kinds of tap are told apart in the figures)."""
    from floor_app import BUTTON, COUNT

    argv = [sys.executable, str(ROOT / "benchmarks" / "floor_app.py"), "{port}"]
    if cards:
        argv += ["--hand", str(cards)]
    measures = {}
    with Server(argv, work / f"floor-{cards}-{renderer}.log", renderer) as server:
        for how, n in taps.items():
            if not n:
                continue
            with browser.screen() as screen:
                screen.open(server.url, first=BUTTON)
                ran = renderer_of(screen)
                for _ in range(4):  # warm up: the first taps pay for the first frames (an even number: hidden)
                    screen.click(BUTTON)
                screen.frames(4)
                plan = ([Tap(BUTTON, "show", COUNT), Tap(BUTTON, "hide", COUNT)] * n)[:n] if cards else \
                    [Tap(BUTTON, "tap", COUNT)] * n
                m = time_taps(screen, server, plan, _label(f"floor, {cards} cards" if cards else "floor", renderer, how),
                              browser.pause_ms, how)
                m.ran = ran
                measures[how] = m
    return measures


def measure_game(browser: Browser, work: Path, game: str, counts: list[int], taps: dict[str, int], seed: int,
                 renderer: str) -> list[dict[str, Measure]]:
    """Each player count's taps on the game's table, served with ``renderer``: a game of its own
    for each way of tapping (the same plan; ``taps``: how many taps a way), each way in its own tab."""
    from companion.service import SessionService
    from companion.store import Store

    db = work / f"{game}-{renderer}.db"
    plans = [best_plan(game, n, max(taps.values()), seed) for n in counts]
    hows = [how for how, n in taps.items() if n]
    store = Store(db)
    try:
        service = SessionService(store)
        sessions = {how: [service.start(game, plan.players, **plan.start).session_id for plan in plans] for how in hows}
    finally:
        store.close()
    measures: list[dict[str, Measure]] = [{} for _ in plans]
    argv = [sys.executable, "-m", "companion", "--db", str(db), "run", "--port", "{port}"]
    with Server(argv, work / f"{game}-{renderer}.log", renderer) as server:
        for how in hows:
            with browser.screen() as screen:
                screen.open(server.url)
                ran = renderer_of(screen)
                for k, (plan, sid) in enumerate(zip(plans, sessions[how])):
                    label = _label(f"{game} {len(plan.players)}", renderer, how)
                    if screen.exists("nav-home"):
                        screen.click("nav-home")
                    try:
                        screen.click(f"resume-{sid}")
                        screen.wait_for(plan.first, timeout=30)
                    except Exception as err:
                        measures[k][how] = Measure(label, planned=taps[how], error=f"table not opened: {err}")
                        continue
                    screen.frames(4)
                    m = time_taps(screen, server, plan.taps[:taps[how]], label, browser.pause_ms, how)
                    m.ran = ran
                    measures[k][how] = m
    return measures


def measure_history(browser: Browser, work: Path, taps: dict[str, int], renderer: str) -> dict[str, Measure]:
    import history

    from companion.app.screens.history import PAGE

    db = work / f"history-{renderer}.db"
    if not db.exists():
        history.build_database(db, (max(taps.values()) + 2) * PAGE)
    argv = [sys.executable, "-m", "companion", "--db", str(db), "run", "--port", "{port}"]
    measures = {}
    with Server(argv, work / f"history-{renderer}.log", renderer) as server:
        for how, n in taps.items():
            if not n:
                continue
            with browser.screen() as screen:
                screen.open(server.url)
                ran = renderer_of(screen)
                screen.click("home-history")
                screen.wait_for("history-count", timeout=30)
                screen.frames(4)
                more = Tap("history-more", "more", "new:history-", scroll=True)
                m = time_taps(screen, server, [more] * n, _label(f"history more ({PAGE} rows)", renderer, how),
                              browser.pause_ms, how)
                m.ran = ran
                measures[how] = m
    return measures


# --- the accessibility tree's share --------------------------------------------------------------

def open_without_semantics(screen: Screen, url: str) -> None:
    """The page as a player's browser has it: Flutter's accessibility tree never switched on; it
    is ready when the server's first messages have come and it has been quiet for half a second."""
    screen.page.goto(url)
    screen.page.wait_for_function("() => window.__arrivals.length > 0", timeout=60_000)
    screen.page.evaluate(SETTLE_WS, [500, 10_000])
    screen.frames(4)


def tap_by_ws(screen: Screen, x: float, y: float) -> dict[str, Any]:
    """One touch tap at (x, y), timed to two frames after the server's first message after it."""
    screen.page.evaluate(SETTLE_WS, [150, 5_000])
    screen.page.evaluate(ARM_WS, [TAP_TIMEOUT_MS])
    tap_at(screen.page, x, y, "touch")
    return dict(screen.page.evaluate(COLLECT))


def centre(screen: Screen, ident: str) -> tuple[float, float]:
    """The centre of the control's tappable node (the accessibility tree must be on)."""
    screen.page.wait_for_selector(tappable(ident), state="attached", timeout=TAP_TIMEOUT_MS)
    box = screen.page.locator(tappable(ident)).first.bounding_box()
    assert box is not None, ident
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def ws_pass(screen: Screen, points: list[tuple[float, float]], label: str) -> Measure:
    measure = Measure(label, planned=len(points))
    for x, y in points:
        result = tap_by_ws(screen, x, y)
        if "error" in result:
            measure.error = result["error"]
            break
        measure.times.append(result["ms"])
        measure.replies.append(result["reply"])
        measure.drawings.append(result["ms"] - result["reply"])
    return measure


def measure_semantics(browser: Browser, work: Path, renderer: str | None, taps: int, seed: int,
                      game: str = "stupide-vautour", players: int = 5) -> list[tuple[Measure, Measure]]:
    """The floor, then one game's table, tapped with touch, the accessibility tree on (as the tests
    and the other figures have it), then off (as a player's browser has it), the result seen in
    both the same way: two frames after the server's first message after the tap. The points
    tapped with it off are the ones it gave with it on, in the same state (a second database with
    the same game)."""
    from floor_app import BUTTON

    from companion.service import SessionService
    from companion.store import Store

    pairs = []
    name = renderer or "served"  # None: the renderer the app serves
    argv = [sys.executable, str(ROOT / "benchmarks" / "floor_app.py"), "{port}"]
    with Server(argv, work / f"semantics-floor-{name}.log", renderer) as server:
        with browser.screen() as screen:
            screen.open(server.url, first=BUTTON)
            point = centre(screen, BUTTON)
            ran = renderer_of(screen)
            ws_pass(screen, [point] * 4, "warm-up")
            on = ws_pass(screen, [point] * taps, _label("floor, semantics on", name, "touch"))
            on.ran = ran
        with browser.screen() as screen:
            open_without_semantics(screen, server.url)
            ws_pass(screen, [point] * 4, "warm-up")
            off = ws_pass(screen, [point] * taps, _label("floor, semantics off", name, "touch"))
            if screen.page.locator("flt-semantics-placeholder").count() == 0 or screen.exists(BUTTON):
                off.error = "the accessibility tree was on"
        pairs.append((on, off))

    plan = best_plan(game, players, taps, seed)
    dbs = [work / f"semantics-{game}-{name}-{k}.db" for k in range(2)]
    for db in dbs:
        store = Store(db)
        try:
            sid = SessionService(store).start(game, plan.players, **plan.start).session_id
        finally:
            store.close()
    points: list[tuple[float, float]] = []
    label = f"{game} {players}"
    measures = []
    for k, db in enumerate(dbs):
        argv = [sys.executable, "-m", "companion", "--db", str(db), "run", "--port", "{port}"]
        with Server(argv, work / f"semantics-{game}-{name}-{k}.log", renderer) as server:
            with browser.screen() as screen:
                if k == 0:
                    screen.open(server.url)
                    resume = centre(screen, f"resume-{sid}")
                    ran = renderer_of(screen)
                    tap_by_ws(screen, *resume)
                    screen.wait_for(plan.first, timeout=30)
                    m = Measure(_label(f"{label}, semantics on", name, "touch"), planned=len(plan.taps), ran=ran)
                    for tap in plan.taps:
                        screen.page.evaluate(SETTLE_WS, [150, 5_000])
                        points.append(centre(screen, tap.click))
                        result = tap_by_ws(screen, *points[-1])
                        if "error" in result:
                            m.error = result["error"]
                            break
                        m.times.append(result["ms"])
                        m.replies.append(result["reply"])
                        m.drawings.append(result["ms"] - result["reply"])
                else:
                    open_without_semantics(screen, server.url)
                    tap_by_ws(screen, *resume)
                    screen.page.evaluate(SETTLE_WS, [500, 10_000])
                    m = ws_pass(screen, points, _label(f"{label}, semantics off", name, "touch"))
            measures.append(m)
        entered = _entries(db, sid)
        if k == 1 and entered != _entries(dbs[0], sid):
            measures[1].error = (f"the taps without the accessibility tree entered {entered} actions, "
                                 f"against {_entries(dbs[0], sid)} with it")
    pairs.append((measures[0], measures[1]))
    return pairs


def _entries(db: Path, sid: int) -> int:
    """How many actions the game ``sid`` of the database has recorded."""
    import sqlite3

    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT count(*) FROM actions WHERE session_id = ?", (sid,)).fetchone()[0])


# --- printing ------------------------------------------------------------------------------------

def _drawn(drawings: list[float] | None) -> str:
    return f", drawing {percentile(drawings, 50):.0f} / {percentile(drawings, 95):.0f}" if drawings else ""


def line(m: Measure, floor: Measure | None) -> str:
    if not m.times:
        return f"  {m.label:<44} no tap timed: {m.error}"
    ratio = m.p95 / floor.p95 if floor is not None and floor.times else float("nan")
    goal = "" if floor is None else f"{ratio:5.1f}×  ≤ {GOAL:g}×  {'met' if ratio <= GOAL else 'NOT met':<7}"
    split = (f"  reply {percentile(m.replies, 50):5.1f} + drawing {percentile(m.drawings, 50):5.1f} ms (p50)"
             if m.replies else "")
    text = (f"  {m.label:<44} n={len(m.times):<3} p50 {m.p50:6.1f} ms  p95 {m.p95:6.1f} ms  {goal}"
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


def semantics_line(on: Measure, off: Measure) -> str:
    """The accessibility tree's share of a tap: the same taps with it on and off, seen the same way."""
    if not on.times or not off.times:
        return f"  {on.label:<44} no share measured: {on.error or off.error}"
    text = (f"  {on.label.replace(', semantics on', ''):<44} semantics on p50 {on.p50:5.1f} / p95 {on.p95:5.1f} ms, "
            f"off p50 {off.p50:5.1f} / p95 {off.p95:5.1f} ms (n={len(on.times)}/{len(off.times)}): "
            f"its share {1 - off.p50 / on.p50:+.0%} at p50, {1 - off.p95 / on.p95:+.0%} at p95 "
            f"(drawing p50 {percentile(on.drawings, 50):.1f} → {percentile(off.drawings, 50):.1f} ms)"
            + (f"   [{on.ran}]" if on.ran else ""))
    for m in (on, off):
        if m.error:
            text += f"\n{' ' * 28}{m.label}: stopped after {len(m.times)} of {m.planned} taps: {m.error}"
    return text


def versus_line(base: str, by: dict[str, Measure]) -> str:
    """Two renderers' touch taps on the same screen, measured one after the other."""
    (ra, a), (rb, b) = list(by.items())[:2]
    if not a.times or not b.times:
        return ""
    return (f"{' ' * 28}{RENDERER_SHORT.get(rb, rb)} / {RENDERER_SHORT.get(ra, ra)}, touch, {base}: "
            f"p50 {b.p50 / a.p50:.2f}×, p95 {b.p95 / a.p95:.2f}×")


@dataclass
class Goal:
    renderer: str
    text: str
    ratio: float
    goal: float

    @property
    def met(self) -> bool:
        return self.ratio <= self.goal


def served_in_chromium() -> str:
    """The renderer the app serves (companion.app.server.WEB_RENDERER) as Chromium runs it: "auto"
    is skwasm there (WasmGC and WebGL: SwiftShader in headless Chromium)."""
    from companion.app.server import WEB_RENDERER

    return "skwasm" if WEB_RENDERER in ("auto", "skwasm") else WEB_RENDERER


def main(argv: list[str] | None = None) -> int:
    from companion.app.server import WEB_RENDERER

    served = served_in_chromium()

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: every registered game)")
    parser.add_argument("--taps", type=int, default=None, help="touch taps per game and player count (default 40; quick 12)")
    parser.add_argument("--mouse-taps", type=int, default=None,
                        help="mouse taps per game and player count, information (default 12; quick 6; 0: none)")
    parser.add_argument("--floor-taps", type=int, default=None, help="taps on the floor app (default 60; quick 30)")
    parser.add_argument("--history-taps", type=int, default=None,
                        help='taps on the history\'s "more" (default 8; quick 4; 0: none)')
    parser.add_argument("--hand", default=None, metavar="N[,N…]",
                        help="also time the floor showing N of the app's cards (default: 15 a player of Stupide "
                             "Vautour's counts of 3 players or more measured, its hands; 0: not)")
    parser.add_argument("--renderers", default=",".join(RENDERERS),
                        help=f"comma-separated renderers, each screen served with each in turn (default {','.join(RENDERERS)})")
    parser.add_argument("--semantics-taps", type=int, default=None,
                        help="taps for the accessibility tree's share, on the served renderer (default 30; quick 12; 0: not)")
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
    renderers = [r.strip() for r in args.renderers.split(",") if r.strip()]
    if not renderers or any(r not in RENDERERS for r in renderers):
        parser.error(f"renderers among {', '.join(RENDERERS)}")
    defaults = (12, 6, 30, 4, 12) if args.quick else (40, 12, 60, 8, 30)
    taps, mouse_taps, floor_taps, history_taps, semantics_taps = (
        given if given is not None else default for given, default in
        zip((args.taps, args.mouse_taps, args.floor_taps, args.history_taps, args.semantics_taps), defaults))
    counts = {}
    for game in games:
        least, most = PLAYER_COUNTS[game]
        counts[game] = [least, most] if args.quick and most > least else list(range(least, most + 1))
    if args.hand is None:
        hands = [HAND * n for n in counts.get(HAND_GAME, []) if n >= 3]
    else:
        hands = [int(n) for n in args.hand.split(",") if int(n) > 0]
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    def load() -> str:
        return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())

    print(f"Taps in headless chromium, {os.cpu_count()} cores, {load()} (other work skews every figure); "
          "from the tap (touch: a finger, no hover; mouse: information) to the screen showing the result"
          + (f"; {args.pause} ms before each tap" if args.pause else "; each tap as soon as it can be made")
          + f"; each screen served with {' then '.join(renderers)} in turn; the app serves {WEB_RENDERER!r}, "
          f"{served} in Chromium")
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="tap-browser-"))
    goals: list[Goal] = []
    floors: dict[str, dict[str, Measure]] = {}
    hand_floors: dict[tuple[str, int], Measure] = {}
    way = {"touch": taps, "mouse": mouse_taps}

    def show(m: Measure, floor: Measure | None, goal: bool) -> None:
        print(line(m, floor if goal else None) + (f"   [{m.ran}]" if m.ran else ""), flush=True)

    try:
        with sync_playwright() as pw:
            browser = Browser(pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS), args.pause)
            try:
                print(f"-- Flet's floor (one button, one text, page.update()); {load()}")
                for r in renderers:
                    floors[r] = measure_floor(browser, work, r, {"touch": floor_taps, "mouse": mouse_taps and floor_taps // 2})
                    for how, m in floors[r].items():
                        show(m, None, False)
                print(versus_line("floor", {r: floors[r]["touch"] for r in renderers}) if len(renderers) > 1 else "")
                for n in hands:
                    print(f"-- the floor showing {n} of the app's cards; {load()}")
                    for r in renderers:
                        hand = measure_floor(browser, work, r, {"touch": floor_taps}, n)["touch"]
                        hand_floors[r, n] = hand
                        print(hand_line(hand, floors[r]["touch"]) + f"   [{hand.ran}]", flush=True)
                for game in games:
                    print(f"-- {game}; {load()}")
                    by_renderer = {r: measure_game(browser, work, game, counts[game], way, args.seed, r) for r in renderers}
                    for k, n in enumerate(counts[game]):
                        for r in renderers:
                            for how, m in by_renderer[r][k].items():
                                floor = floors[r][how] if how in floors[r] else None
                                show(m, floor, how == "touch")
                                if how == "touch" and floor is not None and m.times and floor.times:
                                    goals.append(Goal(r, f"{game} {n}: tap p95 {m.p95:.1f} ms vs the floor's {floor.p95:.1f}",
                                                      m.p95 / floor.p95, GOAL))
                                    print(goals_line(m, floor), flush=True)
                                if how == "touch" and game == HAND_GAME and (r, HAND * n) in hand_floors:
                                    for text, goal in hand_goals(m, hand_floors[r, HAND * n], n):
                                        goals.append(Goal(r, text, goal, HAND_GOAL))
                                        print(f"{' ' * 28}{text}: {goal:.2f}× ≤ {HAND_GOAL:g}× "
                                              f"{'met' if goal <= HAND_GOAL else 'NOT met'}", flush=True)
                        if len(renderers) > 1:
                            print(versus_line(f"{game} {n}", {r: by_renderer[r][k]["touch"] for r in renderers
                                                              if "touch" in by_renderer[r][k]}), flush=True)
                if history_taps > 0:
                    print(f"-- the history's \"more\"; {load()}")
                    more = {r: measure_history(browser, work, {"touch": history_taps, "mouse": mouse_taps and history_taps // 2}, r)
                            for r in renderers}
                    for r in renderers:
                        for how, m in more[r].items():
                            floor = floors[r].get(how)
                            show(m, floor, how == "touch")
                            if how == "touch" and floor is not None and m.times and floor.times:
                                goals.append(Goal(r, f"history more: p95 {m.p95:.1f} ms vs the floor's {floor.p95:.1f}",
                                                  m.p95 / floor.p95, GOAL))
                                print(goals_line(m, floor), flush=True)
                    if len(renderers) > 1:
                        print(versus_line("history more", {r: more[r]["touch"] for r in renderers}), flush=True)
                if semantics_taps > 0:
                    print(f"-- the accessibility tree's share (touch, the renderer the app serves; the result seen "
                          f"two frames after the server's first message, with the tree on and off); {load()}")
                    for on, off in measure_semantics(browser, work, None, semantics_taps, args.seed):
                        print(semantics_line(on, off), flush=True)
            finally:
                browser.chromium.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"-- the goals (touch taps), by renderer; {load()}")
    for r in renderers:
        mine = [g for g in goals if g.renderer == r]
        mark = f" (the one the app serves in Chromium: {WEB_RENDERER!r})" if r == served else ""
        print(f"  {r}{mark}: {sum(g.met for g in mine)} of {len(mine)} met")
        for g in mine:
            print(f"    {g.text}: {g.ratio:.2f}× ≤ {g.goal:g}× {'met' if g.met else 'NOT met'}")
    print(f"(tap benchmark: {time.perf_counter() - started:.0f} s; {load()} at the end)")
    return 0


def hand_goals(m: Measure, hand: Measure, players: int) -> list[tuple[str, float]]:
    """The taps that bring a whole hand into view (Stupide Vautour's reveal and confirm) against the
    floor showing as many cards: each one's p95 over the floor's showing taps' p95."""
    shows = hand.kinds.get("show")
    if not shows:
        return []
    floor = percentile(shows, 95)
    return [(f"{HAND_GAME} {players}: {kind} p95 {percentile(m.kinds[kind], 95):.1f} ms vs the floor showing "
             f"{HAND * players} cards {floor:.1f}", percentile(m.kinds[kind], 95) / floor)
            for kind in HAND_KINDS if m.kinds.get(kind)]


if __name__ == "__main__":
    sys.exit(main())
