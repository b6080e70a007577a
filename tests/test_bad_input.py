"""Bad input: records nested very deeply, player names (trimmed, no control
characters, a length limit, the same player whatever the capitals) — one helper, models/names.py,
used by record parsing, the service and the set-up screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import cli
from companion.app import probe
from companion.app.shell import App
from companion.service import Malformed, ServiceError, SessionService
from companion.store import Store
from models.names import MAX_LENGTH, BadName, check_distinct, clean_name, name_key
from models.record import MalformedRecord, parse_record_data

DEEP = 100_000


def _deep_records() -> dict[str, str]:
    envelope = '{"format": "table-record/1", "game": "high-society", "players": ["A", "B", "C"], "actions": ['
    return {
        "bare brackets": "[" * DEEP + "]" * DEEP,
        "objects": '{"a":' * DEEP + "1" + "}" * DEEP,
        "inside a record": envelope + "[" * DEEP + "]" * DEEP + "]}",
        "unclosed": "[" * DEEP,
    }


@pytest.mark.parametrize("case", list(_deep_records()))
def test_replay_of_a_deeply_nested_record_is_malformed_and_names_the_place(tmp_path, capsys, case):
    path = tmp_path / "deep.json"
    path.write_text(_deep_records()[case])
    assert cli.main(["replay", str(path)]) == 2
    out = capsys.readouterr()
    verdict = json.loads(out.out)
    assert verdict["status"] == "illegal" and verdict["error"]["rule"] == "RECORD"
    assert "line 1, column" in verdict["error"]["message"]
    assert out.err == ""


@pytest.mark.parametrize("case", list(_deep_records()))
def test_import_of_a_deeply_nested_file_is_refused_in_one_sentence(tmp_path, capsys, case):
    path = tmp_path / "deep.json"
    path.write_text(_deep_records()[case])
    db = tmp_path / "c.db"
    assert cli.main(["--db", str(db), "import", str(path), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "nest far too deep" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_import_refuses_repeated_keys(tmp_path):
    service = SessionService(Store(tmp_path / "c.db"))
    text = '{"format": "table-record/1", "game": "stupide-vautour", "players": ["A", "B"], "players": ["A", "C"], "actions": []}'
    with pytest.raises(Malformed) as caught:
        service.transfer.import_records(text)
    assert "players" in caught.value.msg.render("en")
    assert service.transfer.export() == []


# -- names ------------------------------------------------------------------------------------------


def test_clean_name_trims_and_refuses_controls_and_long_names():
    assert clean_name("  Anne   Marie ") == "Anne Marie"
    assert clean_name("E\u0301mile") == "Émile"  # composed
    for bad in ("Anne\x00", "Bru\nno", "Zo\u200bé", "\u202eevil", "\t \t", ""):
        with pytest.raises(BadName):
            clean_name(bad)
    assert clean_name("x" * MAX_LENGTH) == "x" * MAX_LENGTH
    with pytest.raises(BadName) as long:
        clean_name("x" * (MAX_LENGTH + 1))
    assert long.value.msg.key == "name.too_long"
    assert name_key("ANNE") == name_key("anne") == name_key(" Anne ")
    with pytest.raises(BadName):
        check_distinct(["Anne", "Bruno", "ANNE"])


def _record(players, **extra):
    return {"format": "table-record/1", "game": "stupide-vautour", "players": players, "actions": [], **extra}


@pytest.mark.parametrize("players", [["Anne", "anne"], ["Anne ", "Bruno"], ["Anne", "Bru\x07no"],
                                     ["Anne", "B" * (MAX_LENGTH + 1)], ["Chloé", "CHLOÉ"]])
def test_a_record_with_bad_or_repeated_names_is_malformed(players):
    with pytest.raises(MalformedRecord) as caught:
        parse_record_data(_record(players))
    for lang in ("fr", "en"):
        assert caught.value.render(lang).startswith("players")


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


def test_service_add_player_trims_refuses_controls_and_sees_case_duplicates(service):
    assert service.add_player("  Anne ").name == "Anne"
    with pytest.raises(ServiceError) as dup:
        service.add_player("ANNE")
    assert dup.value.msg.key == "service.player.duplicate"
    for bad in ("Bru\x1bno", "x" * 200):
        with pytest.raises(ServiceError) as caught:
            service.add_player(bad)
        assert caught.value.msg.key.startswith("name.")
        assert caught.value.msg.render("fr") and caught.value.msg.render("en")
    assert [p.name for p in service.players()] == ["Anne"]


def test_service_start_compares_names_without_case_and_uses_the_saved_spelling(service):
    service.add_player("Anne")
    with pytest.raises(Malformed):
        service.start("stupide-vautour", ["Anne", "anne"])
    with pytest.raises(Malformed):
        service.start("stupide-vautour", ["Anne", "Bru\tno\x00"])
    state = service.start("stupide-vautour", [" anne ", "Bruno"], first_player="BRUNO")
    assert state.players == ("Anne", "Bruno") and state.first_player == "Bruno"
    assert sorted(p.name for p in service.players()) == ["Anne", "Bruno"]


def test_setup_screen_uses_the_same_rules(service, tmp_path):
    app = App(service, None, export_dir=tmp_path / "exports")
    app.render()
    probe.tap(app.root, "home-new")
    probe.type_into(app.root, "new-player-name", "Anne")
    probe.tap(app.root, "new-player-add")
    probe.type_into(app.root, "new-player-name", "ANNE ")
    probe.tap(app.root, "new-player-add")  # the same player: seated once, no new profile
    assert [p.name for p in service.players()] == ["Anne"]
    assert probe.has(app.root, "seat-remove-Anne") and not probe.has(app.root, "seat-remove-ANNE")
    probe.type_into(app.root, "new-player-name", "Zo\x07é")
    probe.tap(app.root, "new-player-add")
    assert "U+0007" in probe.text_of(app.root, "notice")
    assert [p.name for p in service.players()] == ["Anne"]


def test_import_never_makes_a_second_profile_for_a_name_in_other_capitals(service):
    service.add_player("Anne")
    record = {"format": "table-record/1", "game": "stupide-vautour", "players": ["anne", "Bruno"], "actions": []}
    with pytest.raises(Malformed) as caught:
        service.transfer.import_records(json.dumps(record))
    assert caught.value.msg.key == "service.import.name_spelling"
    twice = [{**record, "players": ["Bruno", "Chloé"]}, {**record, "players": ["BRUNO", "Chloé"]}]
    with pytest.raises(Malformed):
        service.transfer.import_records(json.dumps(twice))
    assert [p.name for p in service.players()] == ["Anne"] and service.transfer.export() == []
    service.transfer.import_records(json.dumps({**record, "players": ["Anne", "Bruno"]}))
    assert sorted(p.name for p in service.players()) == ["Anne", "Bruno"]
