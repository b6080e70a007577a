"""Import writes a whole file's games at once (Store.add_games: the profiles once, a few statements
for every game's rows, the summaries and the monthly figures recounted together). What it writes
must be exactly what the game-by-game path wrote before (create_session, append, write_results,
set_status, refresh_summary for each game, then the months), row for row, and a failure anywhere
still writes nothing. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from sqlalchemy import text

import companion.service.transfer
from companion.service import Refused, ServiceError, SessionService
from companion.service.records import kept, refereed_actions
from companion.service.replay import fold, result_rows
from companion.store import Store
from models.record import parse_record_data
from tests.support.boursicocotte import SHORT
from tests.support.games import hs_designed, hs_long, hs_nobody_wins, sv_game

TABLES = ("players", "sessions", "seats", "actions", "results", "game_summaries", "player_months", "game_months")
EARLIER = datetime(2025, 3, 14, 20, 30, tzinfo=timezone.utc)
NOW = datetime(2025, 3, 28, 21, 0, 5, 123456, tzinfo=timezone.utc)  # the same month: its figures add up


@pytest.fixture(params=["sqlite", "postgresql"])
def two_databases(request, tmp_path):
    """Two empty databases of one kind: one written the old way, one the new way."""
    if request.param == "sqlite":
        yield tmp_path / "a.db", tmp_path / "b.db"
        return
    server = request.getfixturevalue("pg_server")
    urls = server.new_database(), server.new_database()
    yield urls
    for url in urls:
        server.drop(url)


def everything(store: Store) -> dict[str, list[tuple]]:
    """Every row of every table the app writes: 'the same' means exactly this."""
    with store.read() as db:
        return {t: sorted((tuple(r) for r in db.execute(text(f"SELECT * FROM {t}"))), key=repr) for t in TABLES}


def earlier_games() -> list[dict]:
    """What the database holds before the import: saved profiles, a finished game of the month."""
    return [hs_designed(["Anne", "Bruno", "Chloé"], "Bruno"), sv_game(["Anne", "Dario"], shift=1)]


def season() -> list[dict]:
    """The file imported: saved and new players, finished and unfinished games, several games, a
    set-up field (Boursicocotte's deal), a game with no winner, a variant."""
    return [
        hs_long(["Anne", "Éloi", "Fanny", "Bruno", "Gaël"], "Fanny"),
        sv_game(["Chloé", "Hugo", "Anne"], shift=2),
        hs_long(["Anne", "Dario", "Inès", "Jules"], "Inès", final=False),
        SHORT,
        hs_nobody_wins(["Bruno", "Chloé", "Katia"]),
        {**hs_designed(["Léo", "Anne", "Bruno"], "Léo"), "game": "animalement-votre",
         "variant": {"final_tie": "replay"}},
        sv_game(["Hugo", "Éloi"], shift=3),
        hs_long(["Maëlle", "Anne", "Bruno", "Chloé", "Dario"], "Bruno"),
    ]


def game_by_game(store: Store, records: list[dict], now: datetime) -> list[int]:
    """The import's writes as they were before Store.add_games: one game after the other through the
    store's per-game methods, then the months once (the reference the new path must equal)."""
    ids = []
    with store.write() as db:
        for data in records:
            record = parse_record_data(data)
            folded = fold(record, refereed_actions(record))
            assert folded.violation is None
            rows = kept(record, False, now)
            player_ids = store.ensure_players(db, rows.players, now)
            row = store.create_session(db, **rows.row, player_ids=[player_ids[n] for n in rows.players])
            assert row.id is not None
            store.append(db, row.id, rows.actions, now, after=0)
            outcome = folded.engine.outcome()
            if outcome is not None:
                store.write_results(db, row.id, result_rows(outcome, player_ids))
                store.set_status(db, row.id, True, now)
            store.refresh_summary(db, row.id, months=False)
            ids.append(row.id)
        store.refresh_game_months(db, ids)
    return ids


def filled(target, clock) -> tuple[Store, SessionService]:
    store = Store(target)
    service = SessionService(store, clock=clock)
    service.transfer.import_records(json.dumps(earlier_games()))
    return store, service


def test_an_import_writes_exactly_the_rows_the_game_by_game_path_wrote(two_databases):
    old_target, new_target = two_databases
    moments = iter([EARLIER, NOW])
    old, _ = filled(old_target, lambda: EARLIER)
    new, service = filled(new_target, lambda: next(moments))
    try:
        assert everything(old) == everything(new)  # the same start
        expected_ids = game_by_game(old, season(), NOW)
        assert service.transfer.import_records(json.dumps(season())) == expected_ids
        before, after = everything(old), everything(new)
        for table in TABLES:
            assert after[table] == before[table], table
        # not vacuous: the file's games were summarised and counted in the month
        assert len(after["game_summaries"]) == 2 + len(season())
        months = {(r[0], r[1]): r[2] for r in after["game_months"]}
        assert months[("high-society", "2025-03")] == 4  # the earlier game and three of the file's
    finally:
        old.close()
        new.close()


def test_one_import_of_many_equals_importing_them_one_by_one(two_databases):
    """One file or one record at a time: the same profiles, games, summaries, results and months."""
    one_by_one, together = (Store(t) for t in two_databases)
    try:
        single = SessionService(one_by_one, clock=lambda: NOW)
        ids = [single.transfer.import_records(json.dumps(record))[0] for record in earlier_games() + season()]
        assert SessionService(together, clock=lambda: NOW).transfer.import_records(
            json.dumps(earlier_games() + season())) == ids
        assert everything(together) == everything(one_by_one)
    finally:
        one_by_one.close()
        together.close()


def test_a_refused_record_in_the_middle_writes_nothing(database):
    """The file's records before the bad one are not kept either, nor their new players."""
    store, service = filled(database, lambda: NOW)
    try:
        before = everything(store)
        bad = hs_long(["Anne", "Nadia", "Oscar"], final=False)
        bad["actions"][2] = {"type": "bid", "player": "Oscar", "add": [3]}  # out of turn
        records = season()[:3] + [bad] + season()[3:]
        with pytest.raises(Refused) as caught:
            service.transfer.import_records(json.dumps(records))
        assert caught.value.record == 3
        assert everything(store) == before
        service.transfer.import_records(json.dumps(season()))  # the good ones alone go in
        assert len(everything(store)["sessions"]) == len(before["sessions"]) + len(season())
    finally:
        store.close()


def test_a_write_that_fails_in_the_middle_writes_nothing(database, monkeypatch):
    """A record the database refuses while the games are written (here: the sixth record's results
    made to repeat a player, which the results' key refuses) rolls the whole import back, the
    games before it and the new profiles included."""
    store, service = filled(database, lambda: NOW)
    real = result_rows
    made = []

    def repeated(outcome, player_ids):
        rows = real(outcome, player_ids)
        made.append(rows)
        return rows + rows[:1] if len(made) == 4 else rows  # the 4th finished game: the 6th record

    try:
        before = everything(store)
        monkeypatch.setattr(companion.service.transfer, "result_rows", repeated)
        with pytest.raises(ServiceError) as caught:
            service.transfer.import_records(json.dumps(season()))
        assert caught.value.msg.key == "service.storage.failed"
        assert len(made) == 6  # every finished game's rows were built: the failure is the database's
        assert everything(store) == before
    finally:
        store.close()
