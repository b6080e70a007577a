"""Skill ratings, rivals and streaks, the CSV and BG Stats exports, the QR code and the command.

The ratings are checked against openskill itself: on a random history built through the real
service (tests/support/history.py's builders: games played entry by entry at random
times, imported one by one and in batches, some left unfinished or abandoned, finished games
reopened by an undo and finished again, corrections, deletions, renamed and merged profiles),
each finished game's places are read from its exported record (replayed by the referee), the
games are rated in the order the history says they finished (equal times: by id) with
openskill's Plackett-Luce at its defaults, and every rating row the app keeps must equal that
to 1e-9. Rivals and streaks are recounted from the same records."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from urllib.parse import unquote

import pytest
import zxingcpp
from openskill.models import PlackettLuce
from sqlalchemy import text

import companion.store.ratings as ratings_store
from companion.cli import main
from companion.qr import qr_png, qr_svg
from companion.service import SessionService
from companion.service.bgstats import CREATE_PLAY, link
from companion.store import Store
from models.games import GAMES
from models.record import parse_record_data
from scoring.referee import verdict_of
from tests.support.clock import Clock
from tests.support.games import hs_designed
from tests.support.history import T0, TABLES, History, playout
from tests.support.ratings import play_hs, png_pixels

UTC = timezone.utc


# -- the recount from the exported records -----------------------------------------------------------


def finished_games(h: History) -> list[dict]:
    """Every finished game as its exported record tells it: (game, finish time, id, profile ->
    (place, winner)), in the order they finished; the finish time is the history's."""
    out = []
    for sid, g in h.games.items():
        summary = h.service.history.summary(sid)
        if summary.status != "finished":
            continue
        [record] = h.service.transfer.export(sid)
        verdict = verdict_of(parse_record_data(record))
        assert verdict.status == "finished" and verdict.result is not None
        winners = set(verdict.result.winners)
        places = {g.seats[e.player]: (e.rank, e.player in winners) for e in verdict.result.ranking}
        out.append({"game": record["game"], "at": summary.finished_at, "sid": sid, "places": places})
    return sorted(out, key=lambda x: (x["at"], x["sid"]))


def expected_ratings(games: list[dict]) -> tuple[dict, dict]:
    """({(game, profile): (mu, sigma, ordinal, games)} now, {profile: [(game, sid, mu, sigma, ordinal, n)]})."""
    model = PlackettLuce()
    now: dict = {}
    points: dict = defaultdict(list)
    for x in games:
        pids = sorted(x["places"])
        before = [now.get((x["game"], p), (model.rating(), 0)) for p in pids]
        after = model.rate([[r] for r, _ in before], ranks=[x["places"][p][0] for p in pids])
        for p, (team,), (_, n) in zip(pids, after, before):
            now[(x["game"], p)] = (team, n + 1)
            points[p].append((x["game"], x["sid"], team.mu, team.sigma, team.ordinal(), n + 1))
    return {k: (r.mu, r.sigma, r.ordinal(), n) for k, (r, n) in now.items()}, points


def close(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 if isinstance(x, float) else x == y for x, y in zip(a, b))


def check_ratings(h: History) -> None:
    games = finished_games(h)
    now, points = expected_ratings(games)
    got = h.service.ratings.table()
    assert {(r.game, r.player_id) for r in got} == set(now)
    names = {p.id: p.name for p in h.service.players()}
    for r in got:
        assert r.name == names[r.player_id]
        assert close((r.mu, r.sigma, r.ordinal, r.games), now[(r.game, r.player_id)]), r
        assert abs(r.ordinal - (r.mu - 3 * r.sigma)) <= 1e-9
    for game in GAMES:  # per game, best ordinal first
        mine = [r for r in got if r.game == game]
        assert mine == h.service.ratings.table(game)
        assert [r.ordinal for r in mine] == sorted((r.ordinal for r in mine), reverse=True)
    for pid in names:
        history = h.service.ratings.history(pid)
        want = sorted(points.get(pid, []), key=lambda p: (p[0], [x["sid"] for x in games].index(p[1])))
        assert len(history) == len(want), pid
        for point, w in zip(history, want):
            assert close((point.game, point.session_id, point.mu, point.sigma, point.ordinal, point.games), w)


def build(tmp_path, seed: int) -> History:
    store = Store(tmp_path / "companion.db")
    clock = Clock(T0)
    h = History(SessionService(store, clock=clock), clock, random.Random(seed))
    for _ in range(6):
        h.play_one()
    h.import_some(3)
    for what in ("undo", "correct", "merge", "batch", "finish", "rename", "abandon", "delete", "undo", "import"):
        h.step(what)
    for _ in range(24):
        h.step()
    h.merge(surely=True)
    return h


@pytest.fixture(scope="module", params=[2, 3])
def history(request, tmp_path_factory):
    h = build(tmp_path_factory.mktemp(f"ratings{request.param}"), request.param)
    yield h
    h.service.store.close()


def test_ratings_equal_openskill_run_on_the_exported_records(history):
    h = history
    assert h.done["merged"] and h.done["corrected"] and h.done["undo"] and h.done["delete"], h.done
    check_ratings(h)


def test_rating_every_game_again_gives_the_rows_kept_step_by_step(history):
    def rows():
        with history.service.store.read() as db:
            return sorted(db.execute(text("SELECT session_id, player_id, game, finished_at, mu, sigma, ordinal, games "
                                          "FROM ratings")).all())

    kept = rows()
    assert kept and history.service.ratings.recompute() == len(kept)
    assert [tuple(r) for r in rows()] == [tuple(r) for r in kept]


def test_further_steps_keep_the_ratings_equal_to_openskill(tmp_path):
    h = build(tmp_path, 7)
    try:
        for what in ("undo", "finish", "import", "batch", "correct", "merge", "delete", "play", "play"):
            h.step(what)
            check_ratings(h)
    finally:
        h.service.store.close()


# -- rivals and streaks, recounted from the records ---------------------------------------------------


def test_rivals_and_streaks_equal_a_recount_of_the_records(history):
    h = history
    games = finished_games(h)
    names = {p.id: p.name for p in h.service.players()}
    for pid in names:
        for game in (None, "high-society", "stupide-vautour"):
            met: dict = defaultdict(lambda: [0, 0, 0])
            for x in games:
                if pid not in x["places"] or game not in (None, x["game"]):
                    continue
                mine = x["places"][pid][0]
                for other, (place, _) in x["places"].items():
                    if other != pid:
                        met[other][0] += 1
                        met[other][1] += mine < place
                        met[other][2] += place < mine
            got = h.service.ratings.rivals(pid, game)
            assert {(m.opponent_id, m.name, m.games, m.beat, m.beaten) for m in got.meetings} == \
                {(o, names[o], *v) for o, v in met.items()}
            often = {o: v for o, v in met.items() if v[0] >= 3}
            most_beaten = max((v[2] for v in often.values()), default=0)
            most_beat = max((v[1] for v in often.values()), default=0)
            assert {m.opponent_id for m in got.nemesis} == {o for o, v in often.items() if most_beaten and v[2] == most_beaten}
            assert {m.opponent_id for m in got.victims} == {o for o, v in often.items() if most_beat and v[1] == most_beat}
            gaps = {o: (abs(v[1] - v[2]) / v[0], -v[0]) for o, v in often.items()}
            assert {m.opponent_id for m in got.closest} == {o for o, k in gaps.items() if k == min(gaps.values())}
        # streaks: per game and overall, in the order the games finished
        mine = [(x["game"], x["at"], x["places"][pid][1]) for x in games if pid in x["places"]]
        want = []
        for game in (sorted({g for g, _, _ in mine}) + [None]) if mine else []:
            wins = [w for g, _, w in mine if game in (None, g)]
            current = len(wins) - max((i + 1 for i, w in enumerate(wins) if not w), default=0)
            longest = max((len(run) for run in "".join("1" if w else "0" for w in wins).split("0")), default=0)
            want.append((game, len(wins), max(at for g, at, _ in mine if game in (None, g)), current, longest))
        assert [tuple(s) for s in h.service.ratings.streaks(pid)] == want


def test_nemesis_victim_and_closest_rival_name_every_tie():
    from companion.store.rivals import Meeting, rivalry

    a, b, c, d = (Meeting(1, "A", 5, 1, 3), Meeting(2, "B", 4, 3, 3), Meeting(3, "C", 3, 3, 0),
                  Meeting(4, "D", 2, 0, 2))  # D: two games together only
    named = rivalry([a, b, c, d])
    assert named.nemesis == (a, b) and named.victims == (b, c) and named.closest == (b,)
    assert rivalry([d]) == ((), (), ())
    assert rivalry([Meeting(5, "E", 3, 0, 0)]).nemesis == ()  # nobody who never beat you is a nemesis


# -- kept as rows that follow the history ------------------------------------------------------------


@pytest.fixture
def rated(monkeypatch):
    """The session ids each rating pass rates, in order (a finish must rate its game alone)."""
    passes: list[list[int]] = []
    real = ratings_store.rate

    def spy(games, prior, game):
        games = list(games)
        passes.append([sid for sid, _, _ in games])
        return real(games, prior, game)

    monkeypatch.setattr(ratings_store, "rate", spy)
    return passes


def test_a_change_rates_again_from_the_first_game_it_affects_only(tmp_path, rated):
    clock = Clock(T0)
    service = SessionService(Store(tmp_path / "companion.db"), clock=clock)
    try:
        trio = ["Anne", "Bruno", "Chloé"]
        ids = [play_hs(service, trio, first) for first in ("Anne", "Bruno", "Chloé", "Anne")]
        assert rated == [[i] for i in ids]  # each finish: its own game, nothing before it
        rated.clear()
        service.undo(ids[1])  # reopens the second game: the later ones are rated without it
        assert rated == [[ids[2], ids[3]]]
        rated.clear()
        last = hs_designed(trio, "Bruno")["actions"][-1]
        service.submit(ids[1], last)  # finished again, now the last game to finish
        assert rated == [[ids[1]]]
        rated.clear()
        service.delete(ids[2])
        assert rated == [[ids[3], ids[1]]]
        rated.clear()
        service.profiles.rename(service.players()[0].id, "Annette")  # rows know profiles by id
        assert rated == []
        other = play_hs(service, ["Dario", "Éloi", "Fanny"], "Dario")
        rated.clear()
        dario = {p.name: p.id for p in service.players()}["Dario"]
        service.profiles.merge(dario, {p.name: p.id for p in service.players()}["Annette"])
        assert rated == [[other]]  # from Dario's first game: Annette's earlier games stay as they were
        # a batch imported while the clock is back in the past: rated from the first of them on
        rated.clear()
        clock.now = T0 - timedelta(days=3)
        imported = service.transfer.import_records(json.dumps([hs_designed(trio, "Chloé"), hs_designed(trio, "Bruno")]))
        assert rated == [imported + [ids[0], ids[3], ids[1], other]]
    finally:
        service.store.close()


def test_a_game_abandoned_or_unfinished_is_not_rated(tmp_path):
    service = SessionService(Store(tmp_path / "companion.db"), clock=Clock(T0))
    try:
        record = hs_designed(["Anne", "Bruno", "Chloé"], "Anne")
        state = service.start("high-society", record["players"], first_player="Anne")
        for action in record["actions"][:-1]:
            service.submit(state.session_id, action)
        service.history.set_abandoned(state.session_id)
        service.transfer.import_records(json.dumps(dict(record, actions=record["actions"][:3])))
        assert service.ratings.table() == []
    finally:
        service.store.close()


def test_the_migration_rates_the_games_a_database_already_has(tmp_path):
    from alembic import command

    from companion.store import alembic_config

    path = tmp_path / "companion.db"
    service = SessionService(Store(path), clock=Clock(T0))
    for first in ("Anne", "Bruno", "Anne"):
        play_hs(service, ["Anne", "Bruno", "Chloé"], first)
    service.transfer.import_records(json.dumps([playout("stupide-vautour", 1), playout("high-society", 2)]))
    before = service.ratings.table()
    assert before
    with service.store.engine.connect() as conn:
        command.downgrade(alembic_config(conn), "0005")
        conn.commit()
    service.store.close()
    store = Store(path)  # upgraded on opening: 0006 rates every finished game
    try:
        assert store.revision() == "0007"
        assert SessionService(store).ratings.table() == before
    finally:
        store.close()


def test_a_tablet_s_older_games_copied_into_a_club_are_rated_in_the_order_they_finished(tmp_path, club):
    from companion.service.migrate import migrate

    tablet = SessionService(Store(tmp_path / "tablet.db"), clock=Clock(T0))
    for first in ("Anne", "Bruno", "Chloé"):
        play_hs(tablet, ["Anne", "Bruno", "Chloé"], first)
    pushed = {p["sourcePlayId"] for p in tablet.exports.bgstats_plays()}
    tablet.store.close()
    store = club.store()
    try:
        here = SessionService(store, clock=Clock(T0 + timedelta(days=30)))
        play_hs(here, ["anne", "Dario", "Chloé"], "Dario")  # finished later than the tablet's games
        migrate(tmp_path / "tablet.db", store)
        kept = here.ratings.table("high-society")
        # the copies are the same plays for BG Stats: pushed from the club, recognised as pushed from the tablet
        assert pushed < {p["sourcePlayId"] for p in here.exports.bgstats_plays()}
        here.ratings.recompute()  # every game rated from the first: what the copy must have left
        assert kept == here.ratings.table("high-society")
        assert {r.name: r.games for r in kept} == {"anne": 4, "Bruno": 3, "Chloé": 4, "Dario": 1}
        [anne] = [p for p in here.players() if p.name == "anne"]
        assert [p.finished_at for p in here.ratings.history(anne.id)] == \
            sorted(p.finished_at for p in here.ratings.history(anne.id))
        assert here.ratings.history(anne.id)[-1].finished_at == T0 + timedelta(days=30, seconds=len(
            hs_designed(["anne", "Dario", "Chloé"], "Dario")["actions"]) + 1)
    finally:
        store.close()


# -- CSV and BG Stats ------------------------------------------------------------------------------------


def test_csv_rows_equal_the_history_s_figures_with_its_filters(history):
    service = history.service
    pid = service.players()[0]
    some_game = next(s for s in service.history.all(status="finished"))
    for filters in ({}, {"game": "high-society"}, {"player": pid.name}, {"table": "Salle A"},
                    {"since": T0 + timedelta(days=40), "until": T0 + timedelta(days=100)}):
        out = service.exports.csv_text(lang="en", tz=UTC, **filters)
        rows = list(csv.reader(io.StringIO(out)))
        assert rows[0] == ["date", "game", "table", "evening", "player", "score", "place", "winner", "out",
                           "duration (min)"]
        want = []
        for s in reversed(service.history.all(status="finished", **filters)):
            for seat in s.seats:
                want.append([s.started_at.strftime("%Y-%m-%d %H:%M"), game_name(s.game), s.table_name or "", "",
                             seat.name, str(seat.score), str(seat.place), "1" if seat.winner else "0",
                             "1" if seat.out else "0", str(round(s.duration_s / 60))])
        assert rows[1:] == want, filters
    assert service.exports.csv_text(lang="fr", tz=UTC, session_id=some_game.session_id).splitlines()[0] == \
        "date,jeu,table,soirée,joueur,score,place,gagnant,hors jeu,durée (min)"


def test_the_csv_out_column_marks_high_society_s_poorest(history):
    """A player the game cast out (High Society's poorest: the score wins nothing) is 1 in ``out``,
    every other player 0; the history's seats say the same as the results rows."""
    service = history.service
    rows = list(csv.reader(io.StringIO(service.exports.csv_text(lang="en", tz=UTC, game="high-society"))))
    out = rows[0].index("out")
    marked = [r for r in rows[1:] if r[out] == "1"]
    assert marked and all(r[out] in ("0", "1") for r in rows[1:])
    for s in service.history.all(status="finished", game="high-society"):
        state = service.open(s.session_id)
        assert state.outcome is not None
        # seats in seating order, as the record's players (a profile renamed since keeps its seat)
        assert [seat.out for seat in s.seats] == [p in state.outcome.eliminated for p in state.players]
    others = [r for r in csv.reader(io.StringIO(service.exports.csv_text(lang="en", tz=UTC)))][1:]
    others = [r for r in others if r[1] not in (game_name("high-society"), game_name("animalement-votre"))]
    assert others and all(r[out] == "0" for r in others)


def test_bgstats_has_no_out_field_the_out_player_ranks_last_and_does_not_win(history):
    """BG Stats' push-a-play has no field for a player the game cast out (companion.service.bgstats):
    the play says it by the rank, after every player still in, and ``winner`` false."""
    service = history.service
    checked = 0
    for s in service.history.all(status="finished"):
        out = {seat.name for seat in s.seats if seat.out}
        if not out or len(out) == len(s.seats):
            continue
        [play] = service.exports.bgstats_plays(s.session_id, lang="en", tz=UTC)
        ranks = {p["name"]: p["rank"] for p in play["players"]}
        assert min(ranks[n] for n in out) > max(r for n, r in ranks.items() if n not in out)
        assert not any(p["winner"] for p in play["players"] if p["name"] in out)
        assert all(set(p) == {"name", "sourcePlayerId", "score", "winner", "startPlayer", "rank"}
                   for p in play["players"])
        checked += 1
    assert checked


def game_name(game: str) -> str:
    from models.i18n import Msg

    return Msg(f"game.{game}.name").render("en")


PLAY_DATE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


def check_play(play: dict, table: str | None) -> None:
    """Every field BG Stats reads is there, with its JSON type (a bool is not a number)."""
    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    assert play["sourceName"] == "Table Companion"
    assert isinstance(play["sourcePlayId"], str) and play["sourcePlayId"]
    assert isinstance(play["playDate"], str) and PLAY_DATE.match(play["playDate"])
    assert isinstance(play["durationMin"], int) and not isinstance(play["durationMin"], bool)
    assert play.get("location") == table
    game = play["game"]
    assert isinstance(game["name"], str) and isinstance(game["sourceGameId"], str)
    assert game["highestWins"] is True and game["noPoints"] is False
    if game["sourceGameId"] == "high-society":
        assert type(game["bggId"]) is int and game["bggId"] == 220
    else:
        assert "bggId" not in game
    assert play["players"] and sum(p["startPlayer"] for p in play["players"]) == 1
    for p in play["players"]:
        assert set(p) == {"name", "sourcePlayerId", "score", "winner", "startPlayer", "rank"}
        assert isinstance(p["name"], str) and isinstance(p["sourcePlayerId"], str) and number(p["score"])
        assert type(p["winner"]) is bool and type(p["startPlayer"]) is bool and type(p["rank"]) is int
    ranks = {p["name"]: p["rank"] for p in play["players"]}
    assert {p["name"] for p in play["players"] if p["winner"]} <= {n for n, r in ranks.items() if r == 1}


def test_bg_stats_plays_of_every_game_have_every_field_with_its_type(tmp_path):
    clock = Clock(datetime(2026, 7, 14, 20, 5, tzinfo=UTC))
    service = SessionService(Store(tmp_path / "companion.db"), clock=clock)
    try:
        for i, game in enumerate(GAMES):
            service.transfer.import_records(json.dumps(playout(game, i)))
        record = hs_designed(["Anne", "Bruno", "Chloé"], "Bruno")
        state = service.start("high-society", record["players"], first_player="Bruno", table="Salle A")
        for action in record["actions"]:
            clock.now += timedelta(minutes=3)
            service.submit(state.session_id, action)
        plays = service.exports.bgstats_plays(tz=timezone(timedelta(hours=2)))
        assert sorted(p["game"]["sourceGameId"] for p in plays) == sorted(GAMES + ("high-society",))
        for play in plays:
            check_play(play, "Salle A" if play["sourcePlayId"].endswith(f"/{state.session_id}") else None)
            assert json.loads(unquote(link(play)[len(CREATE_PLAY):])) == play
        [live] = [p for p in plays if p["sourcePlayId"].endswith(f"/{state.session_id}")]
        summary = service.history.summary(state.session_id)
        assert summary.started_at.hour == 20 and live["playDate"] == \
            (summary.started_at + timedelta(hours=2)).strftime("2026-07-14 22:%M:%S")  # the start, in the zone asked for
        assert live["durationMin"] == round(summary.duration_s / 60) == len(record["actions"]) * 3
        assert [(p["name"], p["startPlayer"], p["winner"], p["rank"], p["score"]) for p in live["players"]] == \
            [("Anne", False, False, 3, 2), ("Bruno", True, True, 1, 10), ("Chloé", False, False, 2, 0)]
        assert service.exports.bgstats_plays(state.session_id, tz=timezone(timedelta(hours=2))) == [live]  # stable
    finally:
        service.store.close()


# -- the QR code ----------------------------------------------------------------------------------------


def test_the_qr_code_of_a_bg_stats_link_decodes_to_exactly_the_link(tmp_path):
    service = SessionService(Store(tmp_path / "companion.db"), clock=Clock(T0))
    try:
        service.transfer.import_records(json.dumps(playout("animalia", 3)))
        [play] = service.exports.bgstats_plays()
    finally:
        service.store.close()
    url = link(play)
    assert len(url) > 500  # a real push: hundreds of characters, percent-encoded
    width, height, grey = png_pixels(qr_png(url))
    # QR codes only: read for every format, a QR code's modules can also pass for a stacked DataBar
    # (it did, for one play's random id)
    found = zxingcpp.read_barcodes(memoryview(grey).cast("B", (height, width)), formats=zxingcpp.BarcodeFormat.QRCode)
    assert [(b.format, b.text) for b in found] == [(zxingcpp.BarcodeFormat.QRCode, url)]
    assert qr_svg(url).lstrip().startswith("<svg") and "</svg>" in qr_svg(url)


# -- the command line --------------------------------------------------------------------------------------


def test_the_ratings_command_prints_the_service_s_figures_in_french_english_and_json(history, capsys):
    db = str(history.service.store.path)
    rows = history.service.ratings.table()
    assert main(["--db", db, "ratings", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == [{"game": r.game, "player": r.name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal,
                    "games": r.games} for r in rows]
    assert main(["--db", db, "ratings", "--json", "--game", "high-society"]) == 0
    assert [x["game"] for x in json.loads(capsys.readouterr().out)] == \
        ["high-society"] * sum(r.game == "high-society" for r in rows)
    best = rows[0]
    assert main(["--db", db, "ratings"]) == 0
    fr = capsys.readouterr().out
    assert f"1. {best.name} : cote " in fr and "parties" in fr
    assert main(["--db", db, "ratings", "--lang", "en", "--game", best.game]) == 0
    en = capsys.readouterr().out.splitlines()
    assert en[1].startswith(f"  1. {best.name}: rating {round(best.ordinal, 2)} (mu {round(best.mu, 2)}, ")
    assert len(en) == 1 + sum(r.game == best.game for r in rows)
    assert main(["--db", db, "ratings", "--game", "chess"]) == 2
    assert "Jeu inconnu : chess." in capsys.readouterr().err


def test_export_prints_csv_and_bg_stats_plays_with_their_links(history, capsys):
    db = str(history.service.store.path)
    assert main(["--db", db, "export", "--format", "csv", "--game", "stupide-vautour", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out == history.service.exports.csv_text(lang="en", game="stupide-vautour")
    # a table where the random history finished games (which one depends on the history's seed)
    table = next(t for t in TABLES if t is not None and history.service.exports.bgstats_plays(table=t))
    assert main(["--db", db, "export", "--format", "bgstats", "--table", table]) == 0
    lines = capsys.readouterr().out.splitlines()
    plays = history.service.exports.bgstats_plays(table=table)
    assert plays and lines == [x for p in plays for x in (
        json.dumps(p, ensure_ascii=False), f"Lien BG Stats de la partie {p['sourcePlayId']} : {link(p)}")]
    assert main(["--db", db, "export", "--format", "csv", "-o", str(db) + ".csv"]) == 0
    assert "exportées" in capsys.readouterr().out
