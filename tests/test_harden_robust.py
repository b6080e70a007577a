"""Robustness audit (branch ``robust``): inputs the other hardening tests do not reach. A player
renamed follows the same name rules as one added or seated at a table (models/names.py)."""

from __future__ import annotations

import pytest

from companion.service import Malformed, ServiceError, SessionService
from companion.store import Store


@pytest.fixture
def service(tmp_path):
    store = Store(tmp_path / "x.db")
    yield SessionService(store)
    store.close()


def test_a_rename_cannot_make_a_second_profile_of_the_same_player(service):
    """'Chloe' + a combining accent is 'Chloé' to every other door (add, start, import): a rename
    that let it through made two profiles of one player, and no game could seat Chloé again."""
    service.add_player("Chloé")
    bruno = service.add_player("Bruno")
    with pytest.raises(ServiceError) as taken:
        service.rename_player(bruno.id, "Chloe\u0301")
    assert taken.value.msg.key == "service.player.duplicate"
    assert sorted(p.name for p in service.players()) == ["Bruno", "Chloé"]
    service.start("stupide-vautour", ["Chloé", "Bruno", "Anne"])  # Chloé still sits down


@pytest.mark.parametrize("name, kept", [("Anne  Marie", "Anne Marie"), (" Anne\tMarie ", "Anne Marie"),
                                        ("Zoe\u0301", "Zoé"), ("A\u200dB", "A\u200dB")])
def test_a_rename_keeps_the_name_as_adding_it_would(service, name, kept):
    bruno = service.add_player("Bruno")
    assert service.rename_player(bruno.id, name).name == kept
    assert [p.name for p in service.players()] == [kept]


@pytest.mark.parametrize("name", ["A\u2028B", "A\u00adB", "A\x07B", "x" * 41, "   ", None, 3])
def test_a_rename_refuses_what_adding_refuses_in_both_languages(service, name):
    bruno = service.add_player("Bruno")
    with pytest.raises(Malformed) as refused:
        service.rename_player(bruno.id, name)
    assert all(refused.value.msg.render(lang).strip() for lang in ("fr", "en"))
    assert [p.name for p in service.players()] == ["Bruno"]


# -- a lone UTF-16 surrogate: JSON's "\ud800" decodes to half of a character -------------------

HALF = "\ud800"


def _record_text(card: str) -> str:
    return ('{"format": "table-record/1", "game": "high-society", "players": ["Anne", "Bruno", "Chloé"], '
            '"actions": [{"type": "reveal", "card": "%s"}]}' % card)


def _says_half_a_character(err: ServiceError, where: str) -> None:
    for lang in ("fr", "en"):
        sentence = err.msg.render(lang)
        assert where in sentence and "U+D800" in sentence and HALF not in sentence


@pytest.mark.parametrize("action, where", [({"type": "reveal", "card": HALF}, "card"),
                                           ({"type": "reveal", HALF: 1}, "U+D800")])
def test_an_entry_holding_half_a_character_is_malformed_and_writes_nothing(service, action, where):
    state = service.start("high-society", ["Anne", "Bruno", "Chloé"])
    state = service.submit(state.session_id, {"type": "reveal", "card": "p1"})
    for change in (lambda: service.submit(state.session_id, action),
                   lambda: service.preview_correction(state.session_id, 0, action),
                   lambda: service.correct(state.session_id, 0, action)):
        with pytest.raises(Malformed) as bad:
            change()
        _says_half_a_character(bad.value, where)
    again = SessionService(service.store).open(state.session_id)
    assert again.version == state.version and [e.action for e in again.log] == [{"type": "reveal", "card": "p1"}]


def test_a_set_up_holding_half_a_character_is_malformed(service):
    with pytest.raises(Malformed) as bad:
        service.start("boursicocotte", ["Anne", "Bruno", "Chloé"], setup={"start_animals": {"Anne": [HALF]}})
    _says_half_a_character(bad.value, "start_animals.Anne[0]")
    assert service.players() == [] and not service.history_page().items


@pytest.mark.parametrize("text", [_record_text("\\ud800"), _record_text("\\ud800").encode(), _record_text(HALF)])
def test_an_import_holding_half_a_character_is_malformed_and_writes_nothing(service, text):
    with pytest.raises(Malformed) as bad:
        service.import_records(text)
    _says_half_a_character(bad.value, "actions[0].card")
    assert bad.value.record == 0 and bad.value.index == 0
    assert service.players() == [] and not service.history_page().items


def test_replay_of_a_record_holding_half_a_character_is_a_verdict_not_a_traceback(tmp_path, capsys):
    import json

    from companion import cli

    path = tmp_path / "half.jsonl"
    path.write_text(_record_text("\\ud800") + "\n" + '{"format": "table-record/1", "game": "stupide-vautour", '
                    '"players": ["Anne", "Bruno"], "actions": []}\n')
    assert cli.main(["replay", "--lines", str(path)]) != 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["status"] == "illegal" and first["error"]["rule"] == "RECORD" and first["error"]["index"] == 0
    assert "U+D800" in first["error"]["message"] and second["status"] != "illegal"


@pytest.mark.parametrize("number", ["99999999999999999999", "-9223372036854775809"])
def test_export_of_a_session_number_too_big_for_the_database_says_there_is_no_such_game(tmp_path, capsys, number):
    from companion import cli

    db = tmp_path / "x.db"
    Store(db).close()
    assert cli.main(["--db", str(db), "export", "--session", number]) == 2
    err = capsys.readouterr().err
    assert number in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
