"""The tap goal's benchmark (benchmarks/append_latency.py), without timing anything: it plays every
tap of whole held-out games of every game, the taps that end them included (each leaves a
finished game with its results), on fresh databases, in alternating blocks of taps and raw
commits."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import append_latency  # noqa: E402
from playouts import playout  # noqa: E402

from scoring.registry import refereed_games  # noqa: E402


def test_the_games_are_whole_held_out_games_of_every_game_in_turns():
    games = append_latency.held_out_games(2)
    assert [g["game"] for g in games] == list(refereed_games()) * 2
    for record in games:  # not the games the replay benchmarks play (their seeds start at 0)
        assert record["actions"] != playout(record["game"], 0)["actions"]


class Side:
    def __init__(self, name: str, order: list[str]):
        self.name, self.order = name, order

    def commit(self) -> None:
        self.order.append(self.name)


def test_taps_and_raw_commits_alternate_in_blocks_whose_order_turns():
    order: list[str] = []
    append_latency.in_blocks(Side("raw", order), Side("tap", order), 7, 3)  # type: ignore[arg-type]
    assert order == ["tap"] * 3 + ["raw"] * 3 + ["raw"] * 3 + ["tap"] * 3 + ["tap"] + ["raw"]


def test_a_run_times_every_tap_of_the_games_endings_included_on_a_fresh_database(tmp_path):
    games = append_latency.held_out_games(1)
    texts = ["{}"]
    count = sum(len(g["actions"]) for g in games)
    run = append_latency.measure(tmp_path, games, texts, count, 100, 0.0, "t")
    taps = run.taps
    assert len(taps.times) == len(run.raw) == count
    assert {game: len(times) for game, times in taps.by_game.items()} == {
        g["game"]: len(g["actions"]) for g in games}
    assert len(taps.endings) == taps.finished == len(games)
    con = sqlite3.connect(taps.path)
    try:  # fresh: only the measured games, every one finished with its results written by its last tap
        assert con.execute("SELECT COUNT(*), SUM(status = 'finished') FROM sessions").fetchone() == (
            len(games), len(games))
        assert con.execute("SELECT COUNT(DISTINCT session_id) FROM results").fetchone() == (len(games),)
        assert con.execute("SELECT COUNT(*) FROM actions").fetchone() == (count,)
    finally:
        con.close()
