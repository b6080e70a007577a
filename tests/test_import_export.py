"""Import and export of table records, through the service and the `companion` command.
A bad input — anywhere in it — writes nothing, and the message says which record and which
entry is wrong."""

from __future__ import annotations

import json

import pytest

import companion.service.records
from companion.cli import main
from companion.service import Malformed, NotKept, Refused, ServiceError, SessionService
from companion.store import Store
from models.i18n import render
from models.record import parse_record, parse_record_data
from scoring import registry
from scoring.referee import verdict_of
from tests.conftest import EXAMPLES, example_table
from tests.support.boursicocotte import SHORT
from tests.support.games import hs_designed, hs_long, hs_nobody_wins, sv_game
from tests.support.store import snapshot

PLAYERS = ["Anne", "Bruno", "Chloé"]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "companion.db")
    yield s
    s.close()


@pytest.fixture
def service(store):
    return SessionService(store)


def some_records() -> list[dict]:
    return [
        hs_designed(PLAYERS, "Bruno"),
        hs_long(["Anne", "Dario", "Eve", "Farid"], "Eve", final=False),
        sv_game(["Anne", "Bruno"], shift=2),
        hs_nobody_wins(PLAYERS),
        {**hs_designed(PLAYERS, "Chloé"), "game": "animalement-votre", "variant": {"final_tie": "replay"}},
    ]


def test_import_then_export_gives_the_records_back(service):
    records = some_records()
    ids = service.transfer.import_records(json.dumps(records))
    assert len(ids) == len(records) and len(set(ids)) == len(ids)
    exported = service.transfer.export()
    for original, out in zip(records, exported):
        assert parse_record_data(out) == parse_record_data(
            {**original, "first_player": original.get("first_player", original["players"][0])})
        assert out["actions"] == original["actions"]
    assert service.transfer.export(ids[0]) == [exported[0]]
    # imported games are sessions like the others: finished ones count in the statistics
    by_id = {s.session_id: s for s in service.history.all()}
    assert by_id[ids[0]].status == "finished" and by_id[ids[0]].winners == ("Bruno",)
    assert by_id[ids[1]].status == "in_progress"
    assert [s.session_id for s in service.history.unfinished()] == [ids[1]]
    assert {g.game: g.games for g in service.history.game_stats()} == {"high-society": 2, "stupide-vautour": 1,
                                                               "animalement-votre": 1}
    state = service.open(ids[1])
    assert state.first_player == "Eve"
    assert state.log[-1].index == len(records[1]["actions"]) - 1


def test_exported_records_are_legal_records_with_the_same_verdict(service):
    played = service.start("high-society", PLAYERS, first_player="Chloé", variant={"final_tie": "shared"})
    for action in hs_designed(PLAYERS, "Chloé")["actions"]:
        service.submit(played.session_id, action)
    service.undo(played.session_id)
    (record,) = service.transfer.export(played.session_id)
    assert record["variant"] == {"final_tie": "shared"}
    assert record["first_player"] == "Chloé"
    assert len(record["actions"]) == 17  # the undone entry is not part of the record
    assert verdict_of(parse_record(json.dumps(record))).status == "in_progress"


def test_a_single_record_object_is_imported(service):
    text = (EXAMPLES / "high-society-in-progress.json").read_text(encoding="utf-8")
    (sid,) = service.transfer.import_records(text)
    assert service.transfer.export(sid) == [{**json.loads(text), "first_player": "Marc"}]


def test_the_shared_examples_import_and_replay(service):
    table = example_table()
    paths = sorted(EXAMPLES.glob("*.json"))
    assert len(paths) >= 4, EXAMPLES
    for path in paths:
        (sid,) = service.transfer.import_records(path.read_bytes())
        state = service.open(sid)
        assert state.status == table[path.name]["status"], path.name
        assert len(state.log) == len(json.loads(path.read_text(encoding="utf-8"))["actions"])


def test_a_short_version_record_keeps_its_deal_through_the_store(store, tmp_path):
    """The reported loss: start_animals was accepted on import, then dropped, so the game no longer
    replayed (A owns a cow only because of the deal)."""
    (sid,) = SessionService(store).transfer.import_records(json.dumps(SHORT))
    fresh = SessionService(store)  # nothing from the importing service's cache
    state = fresh.open(sid)
    assert state.record == parse_record_data({**SHORT, "first_player": "A"})
    assert len(state.log) == 1 and state.expected.players == ("B",)
    (out,) = fresh.transfer.export(sid)
    assert out == {**SHORT, "first_player": "A"}
    # and once more through a file into another database
    other = Store(tmp_path / "other.db")
    try:
        (again,) = SessionService(other).transfer.import_records(json.dumps(out))
        assert SessionService(other).transfer.export(again) == [out]
    finally:
        other.close()


def _forget_start_animals(monkeypatch):
    """A store that forgets the field: no setup column written for it."""
    real = companion.service.records.setup_fields
    monkeypatch.setattr(companion.service.records, "setup_fields",
                        lambda record: {k: v for k, v in real(record).items() if k != "start_animals"})


def _rebuild_without(monkeypatch, field):
    """A store that keeps the field but forgets it when the record is rebuilt from the rows."""
    real = companion.service.records._envelope
    monkeypatch.setattr(companion.service.records, "_envelope",
                        lambda *args, **kw: {k: v for k, v in real(*args, **kw).items() if k != field})


def _drop_variant(monkeypatch):
    real = Store.session_row
    monkeypatch.setattr(Store, "session_row", staticmethod(lambda **kw: real(**{**kw, "variant": {}})))


@pytest.mark.parametrize("forget, record, field", [
    (_forget_start_animals, SHORT, "start_animals"),
    (lambda mp: _rebuild_without(mp, "start_animals"), SHORT, "start_animals"),
    (lambda mp: _rebuild_without(mp, "first_player"), {**SHORT, "first_player": "B", "actions": []}, "first_player"),
    (_drop_variant, {**hs_designed(PLAYERS, "Anne"), "variant": {"final_tie": "shared"}}, "variant"),
], ids=["setup column", "setup rebuilt", "first player rebuilt", "variant column"])
def test_an_import_the_store_would_not_give_back_whole_is_refused(store, service, monkeypatch, forget, record, field):
    """Whatever the store forgets now or later, an accepted import replays to the same record."""
    service.transfer.import_records(json.dumps(some_records()[:2]))  # something to keep
    before = snapshot(store.path)
    forget(monkeypatch)
    with pytest.raises(NotKept) as caught:
        service.transfer.import_records(json.dumps([hs_designed(PLAYERS, "Anne"), record]))  # the first is kept whole
    assert caught.value.msg.key == "service.import.not_kept"
    assert caught.value.record == 1 and caught.value.fields == (field,)
    for lang in ("fr", "en"):
        sentence = render(caught.value.msg, lang)
        assert "2" in sentence and field in sentence
    assert snapshot(store.path) == before


def test_start_refuses_a_set_up_the_store_would_not_give_back(store, service, monkeypatch):
    _forget_start_animals(monkeypatch)
    before = snapshot(store.path)
    with pytest.raises(NotKept) as caught:
        service.start("boursicocotte", SHORT["players"], setup={"start_animals": SHORT["start_animals"]})
    assert caught.value.msg.key == "service.setup.not_kept" and caught.value.fields == ("start_animals",)
    assert snapshot(store.path) == before
    service.start("boursicocotte", SHORT["players"])  # nothing to lose: started as before


def _bad_inputs():
    good = hs_designed(PLAYERS, "Anne")
    second = hs_long(PLAYERS, final=False)
    # Chloé bids out of turn in the second record, at entry 3 (index 2)
    second["actions"][2] = {"type": "bid", "player": "Chloé", "add": [3]}
    third_malformed = hs_designed(PLAYERS, "Anne")
    third_malformed["actions"][5] = {"type": "bid", "player": "Anne", "add": [7]}
    return {
        "not json": ("{'format': 'table-record/1',", Malformed, None, None, "service.import.not_json"),
        "not a record": ("42", Malformed, None, None, "service.import.not_records"),
        "empty list": ("[]", Malformed, None, None, "service.import.empty"),
        "illegal 2nd": (json.dumps([good, second, good]), Refused, 1, 2, "service.import.illegal"),
        "malformed 3rd": (json.dumps([good, good, third_malformed]), Malformed, 2, 5, "service.import.malformed"),
        "unknown game": (json.dumps([good, {**good, "game": "tarot"}]), Malformed, 1, None, "service.import.malformed"),
        "no referee": (json.dumps({**good, "game": "animalia", "variant": {}, "actions": []}),
                       ServiceError, 0, None, "service.import.no_referee"),
        "a list item that is not an object": (json.dumps([good, "x"]), Malformed, 1, None, "service.import.malformed"),
        "unknown player": (json.dumps([{**good, "first_player": "Zoé"}]), Malformed, 0, None, "service.import.malformed"),
    }


@pytest.mark.parametrize("case", list(_bad_inputs()))
def test_a_bad_import_changes_nothing_and_says_where(store, service, case, monkeypatch):
    text, error, record, index, key = _bad_inputs()[case]
    if case == "no referee":  # every game has one now: take Animalia's out to prove the path
        monkeypatch.delitem(registry._ENGINES, "animalia")
    service.transfer.import_records(json.dumps(some_records()[:2]))  # something to keep
    before = snapshot(store.path)
    with pytest.raises(error) as caught:
        service.transfer.import_records(text)
    assert caught.value.msg.key == key
    assert getattr(caught.value, "record", None) == record
    assert getattr(caught.value, "index", None) == index
    for lang in ("fr", "en"):
        sentence = render(caught.value.msg, lang)
        if record is not None:
            assert str(record + 1) in sentence
    assert snapshot(store.path) == before


def test_illegal_entry_message_names_the_record_the_entry_and_the_rule(service):
    text = _bad_inputs()["illegal 2nd"][0]
    with pytest.raises(Refused) as caught:
        service.transfer.import_records(text)
    params = caught.value.msg.params
    assert (params["record"], params["entry"], params["rule"]) == (2, 3, caught.value.rule)
    assert caught.value.rule.startswith("HS-")
    assert render(caught.value.msg, "en").startswith("Record 2, entry 3 breaks rule")


def test_an_illegal_animalement_votre_entry_is_told_in_its_own_words(service):
    """The import screen is about no game, yet the refusal inside its sentence is about an
    Animalement Vôtre record: it speaks of animals and « malade comme un chien », in French and English."""
    actions = [{"type": "reveal", "card": "p3"}, {"type": "bid", "player": "Anne", "add": [1]},
               {"type": "pass", "player": "Bruno"}, {"type": "pass", "player": "Chloé"},
               {"type": "reveal", "card": "theft"}, {"type": "pass", "player": "Anne"},
               {"type": "reveal", "card": "p5"}]  # Anne owns an animal: she must discard it first
    for game, says, never in (("animalement-votre", "malade comme un chien", "possession"),
                              ("high-society", "vol", "animal")):
        record = {"format": "table-record/1", "game": game, "players": ["Anne", "Bruno", "Chloé"],
                  "actions": actions}
        with pytest.raises(Refused) as caught:
            service.transfer.import_records(json.dumps(record))
        assert caught.value.rule == "HS-DISCARD-REQUIRED"
        french = caught.value.msg.render("fr")
        assert says in french and never not in french.lower(), french
        english = caught.value.msg.render("en")
        assert ("malade comme un chien" in english) == (game == "animalement-votre"), english


# --- the command line ---------------------------------------------------------------------------


def test_cli_export_and_import_round_trip(tmp_path, capsys):
    source, target = tmp_path / "source.db", tmp_path / "target.db"
    store = Store(source)
    ids = SessionService(store).transfer.import_records(json.dumps(some_records()))
    store.close()
    everything = tmp_path / "all.json"
    assert main(["--db", str(source), "export", "-o", str(everything), "--lang", "en"]) == 0
    assert f"Exported {len(ids)} games" in capsys.readouterr().out
    exported = json.loads(everything.read_text(encoding="utf-8"))
    assert isinstance(exported, list) and len(exported) == len(ids)

    assert main(["--db", str(source), "export", "--session", str(ids[2])]) == 0
    single = json.loads(capsys.readouterr().out)
    assert single == exported[2]  # one object for one session

    assert main(["--db", str(target), "import", str(everything), "--lang", "en"]) == 0
    assert f"Imported {len(ids)} games" in capsys.readouterr().out
    assert main(["--db", str(target), "export"]) == 0
    assert json.loads(capsys.readouterr().out) == exported


def test_cli_import_of_bad_files_exits_2_and_changes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.delitem(registry._ENGINES, "animalia")  # for the "no referee" file: every game has one now
    db = tmp_path / "companion.db"
    store = Store(db)
    SessionService(store).transfer.import_records(json.dumps(some_records()[:1]))
    store.close()
    before = snapshot(db)
    bad = {name: text for name, (text, *_rest) in _bad_inputs().items()}
    for name, text in bad.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        assert main(["--db", str(db), "import", str(path), "--lang", "en"]) == 2, name
        captured = capsys.readouterr()
        assert captured.err.strip() and "nothing was imported" in captured.err, (name, captured.err)
        assert captured.out == ""
    assert main(["--db", str(db), "import", str(tmp_path / "missing.json")]) == 2
    assert "Impossible de lire" in capsys.readouterr().err  # French by default
    assert snapshot(db) == before


def test_cli_export_of_an_unknown_session(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "c.db"), "export", "--session", "7", "--lang", "en"]) == 2
    assert "no game number 7" in capsys.readouterr().err


def test_cli_database_from_the_environment(tmp_path, monkeypatch, capsys):
    db = tmp_path / "env.db"
    monkeypatch.setenv("COMPANION_DB", str(db))
    record = tmp_path / "r.json"
    record.write_text(json.dumps(sv_game(["Lou", "Marc"])), encoding="utf-8")
    assert main(["import", str(record)]) == 0
    capsys.readouterr()
    store = Store(db)
    try:
        assert [s.game for s in SessionService(store).history.all()] == ["stupide-vautour"]
    finally:
        store.close()


def test_an_import_refused_in_french_gives_the_reason_in_french(tmp_path):
    from companion.service import Malformed, SessionService
    from companion.store import Store

    service = SessionService(Store(tmp_path / "fr.db"))
    bad = {"format": "table-record/1", "game": "high-society", "players": ["A", "B", "C"],
           "actions": [{"type": "bid", "player": "A", "add": [5]}]}
    with pytest.raises(Malformed) as refused:
        service.transfer.import_records(json.dumps(bad))
    french = refused.value.msg.render("fr")
    assert "n'est ni une carte ni une valeur de ce jeu" in french
    assert "is not a card" not in french
    assert "is not a card" in refused.value.msg.render("en")
