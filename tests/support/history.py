"""A club's history played at random through the service (games, renames, merges, corrections)."""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from companion.service import ServiceError, SessionService
from companion.service.club import NO_TABLE
from models.record import PLAYER_COUNTS, parse_record_data
from scoring.referee import new_engine
from tests.support.clock import Clock

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from playouts import NAMES, _hs_action, _sv_action, playout  # noqa: E402

UTC = timezone.utc
T0 = datetime(2026, 1, 3, 9, 0, tzinfo=UTC)
GAMES = tuple(PLAYER_COUNTS)  # every registered game (the tests' High card too), in the registry's order
POOL = ("Anne", "Bruno", "Chloé", "Dario", "Éloi", "Fanny", "Gaël", "Hugo")
ALIASES = ("Annie", "Bru", "Hugo L.", "Inès")  # seldom at a table: profiles one may merge into another
TABLES = (None, "Salle A", "Salle B")
CHOOSE = {"high-society": _hs_action, "animalement-votre": _hs_action, "stupide-vautour": _sv_action}
PLAY_LIMIT = 120  # longer records are imported (entry by entry would be slow)


def renamed(data: Any, names: dict[str, str]) -> Any:
    """The record with its players' names replaced (values and keys)."""
    if isinstance(data, dict):
        return {names.get(k, k): renamed(v, names) for k, v in data.items()}
    if isinstance(data, list):
        return [renamed(v, names) for v in data]
    if isinstance(data, str):
        return names.get(data, data)
    return data


@dataclass
class Game:
    sid: int
    game: str
    record: dict[str, Any]  # the whole legal record
    names: dict[str, str]  # the playout's names -> this record's
    seats: dict[str, int]  # the record's name -> profile id (merges follow)
    table: str | None
    abandoned: bool = False


@dataclass
class History:
    service: SessionService
    clock: Clock
    rng: random.Random
    games: dict[int, Game] = field(default_factory=dict)
    renames: int = 0
    steps: int = 0
    done: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # what happened, to see it did

    def profile_ids(self) -> dict[str, int]:
        return {p.name: p.id for p in self.service.players()}

    def _seated(self, sid: int, game: str, record: dict, names: dict, table: str | None) -> None:
        ids = self.profile_ids()
        self.games[sid] = Game(sid, game, record, names, {n: ids[n] for n in record["players"]}, table)

    def new_record(self) -> tuple[str, dict, dict]:
        game = self.rng.choice(GAMES)
        data = playout(game, self.rng.randrange(10_000))
        old = list(NAMES) + ["Emma"]
        new = self.rng.sample(POOL, len(data["players"]))
        if self.rng.random() < 0.3:
            new[0] = self.rng.choice(ALIASES)
        names = dict(zip(data["players"], new))
        names.update({n: n for n in old if n not in names})
        return game, renamed(data, names), {k: v for k, v in names.items() if k in data["players"]}

    def start_time(self) -> None:
        self.clock.now = T0 + timedelta(days=self.rng.uniform(0, 130))

    def play_one(self) -> None:
        game, record, names = self.new_record()
        if len(record["actions"]) > PLAY_LIMIT:
            return self.import_some(1)
        self.start_time()
        table = self.rng.choice(TABLES)
        state = self.service.start(game, record["players"], first_player=record.get("first_player"),
                                   variant=record.get("variant"), table=table)
        self._seated(state.session_id, game, record, names, table)
        upto = len(record["actions"]) if self.rng.random() < 0.6 else self.rng.randrange(len(record["actions"]))
        self.advance(state.session_id, upto)

    def advance(self, sid: int, upto: int) -> None:
        """Enter the record's actions up to ``upto`` active entries, a few seconds apart."""
        done = len(self.service.open(sid).log)
        for action in self.games[sid].record["actions"][done:upto]:
            self.clock.now += timedelta(seconds=self.rng.randint(0, 40))
            self.service.submit(sid, action)

    def import_some(self, count: int) -> None:
        made = [self.new_record() for _ in range(count)]
        items = []
        for _game, record, _names in made:
            item = dict(record)
            if self.rng.random() < 0.3:
                item["actions"] = record["actions"][: self.rng.randrange(len(record["actions"]))]
            items.append(item)
        self.start_time()
        ids = self.service.transfer.import_records(json.dumps(items if count > 1 or self.rng.random() < 0.5 else items[0]))
        for sid, (game, record, names) in zip(ids, made):
            self._seated(sid, game, record, names, None)

    def some(self, finished: bool | None = None) -> Game | None:
        pool = [g for g in self.games.values()
                if finished is None or (self.service.open(g.sid).status == "finished") == finished]
        return self.rng.choice(pool) if pool else None

    def step(self, what: str | None = None) -> None:
        rng, service = self.rng, self.service
        self.clock.now += timedelta(hours=rng.randint(0, 200))
        what = what or rng.choices(["play", "import", "batch", "undo", "correct", "abandon", "resume", "finish",
                            "rename", "merge", "delete"], [8, 2, 1, 3, 2, 2, 1, 2, 1, 2, 1])[0]
        self.done[what] += 1
        self.steps += 1
        if what == "play":
            self.play_one()
        elif what == "import":
            self.import_some(1)
        elif what == "batch":
            self.import_some(rng.randint(2, 4))
        elif what == "undo":
            g = self.some(finished=rng.random() < 0.8)
            if g is not None and self.service.open(g.sid).log:
                service.undo(g.sid)
                if rng.random() < 0.4:  # finished again, later
                    self.clock.now += timedelta(days=rng.randint(0, 40))
                    self.advance(g.sid, len(g.record["actions"]))
        elif what == "correct":
            g = self.some(finished=True)
            if g is not None:
                self.correct(g)
        elif what == "abandon":
            g = self.some(finished=False)
            if g is not None:
                service.history.set_abandoned(g.sid)
                g.abandoned = True
        elif what == "resume":
            marked = [g for g in self.games.values() if g.abandoned]
            if marked:
                g = rng.choice(marked)
                service.history.set_abandoned(g.sid, False)
                g.abandoned = False
        elif what == "finish":  # an unfinished game (abandoned or not) goes on, maybe to its end
            g = self.some(finished=False)
            if g is not None:
                total = len(g.record["actions"])
                done = len(service.open(g.sid).log)
                self.advance(g.sid, total if rng.random() < 0.7 else rng.randint(done, total))
        elif what == "rename":
            profiles = service.players()
            if profiles:
                self.renames += 1
                service.profiles.rename(rng.choice(profiles).id, f"Nouveau {self.renames}")
        elif what == "merge":
            self.merge()
        elif what == "delete":
            g = self.some()
            if g is not None:
                service.delete(g.sid)
                del self.games[g.sid]

    def correct(self, g: Game) -> None:
        """Replace one of the last entries, when the referee takes it (a different end, or a game
        reopened): for High Society and Stupide Vautour another legal last entry (the playouts'
        own choice), else a neighbour of the entry (another number, player or card)."""
        actions = g.record["actions"]
        for _ in range(40):
            if g.game in CHOOSE:
                index = len(actions) - 1
                engine = new_engine(parse_record_data(dict(g.record, actions=actions[:index])))
                candidate = CHOOSE[g.game](engine, self.rng)
            else:
                index = len(actions) - 1 - self.rng.randrange(min(4, len(actions)))
                candidate = self.neighbour(g, actions[index])
            if candidate == actions[index]:
                continue
            try:
                self.service.correct(g.sid, index, candidate)
            except ServiceError:
                continue
            self.done["corrected"] += 1
            g.record = dict(g.record, actions=[e.action for e in self.service.open(g.sid).log])
            return

    def neighbour(self, g: Game, entry: dict[str, Any]) -> dict[str, Any]:
        keys = [k for k, v in entry.items() if k != "type" and isinstance(v, (int, str)) and not isinstance(v, bool)]
        if not keys:
            return entry
        key = self.rng.choice(keys)
        value = entry[key]
        if isinstance(value, int):
            return dict(entry, **{key: value + self.rng.choice((-2, -1, 1, 2))})
        seen = [a[key] for a in g.record["actions"] if a.get(key) not in (None, value)]
        players = g.record["players"]
        return dict(entry, **{key: self.rng.choice(players if value in players or not seen else seen)})

    def merge(self, surely: bool = False) -> None:
        ids = sorted({pid for g in self.games.values() for pid in g.seats.values()})
        if len(ids) < 2:
            return
        apart = [(a, b) for a in ids for b in ids if a != b and not any(
            a in g.seats.values() and b in g.seats.values() for g in self.games.values())]
        source, target = self.rng.choice(apart) if apart and (surely or self.rng.random() < 0.8) \
            else self.rng.sample(ids, 2)
        together = any(source in g.seats.values() and target in g.seats.values() for g in self.games.values())
        try:
            self.service.profiles.merge(source, target)
        except ServiceError as err:
            assert together and err.msg.key == "service.players.merge_together"
            return
        assert not together
        self.done["merged"] += 1
        for g in self.games.values():
            g.seats = {n: target if p == source else p for n, p in g.seats.items()}


@dataclass
class Truth:
    sid: int
    game: str
    status: str
    started_at: datetime
    table: str | None
    seats: list[tuple[int, str]]  # (profile id, record name) in seating order
    results: dict[int, tuple[float, int, bool]] | None  # profile id -> (score, place, winner)
    entries: int
    duration: float
    out: frozenset[int] = frozenset()  # the profiles cast out of a finished game (High Society's poorest)


def in_period(t: Truth, since: datetime | None, until: datetime | None, table: str | None) -> bool:
    if since is not None and t.started_at < since:
        return False
    if until is not None and t.started_at >= until:
        return False
    if table is None:
        return True
    return t.table == (None if table == NO_TABLE else table)


def finished(truth: dict[int, Truth], since, until, table, game: str | None = None) -> list[Truth]:
    return sorted((t for t in truth.values() if t.status == "finished" and in_period(t, since, until, table)
                   and (game is None or t.game == game)), key=lambda t: (t.started_at, t.sid))
