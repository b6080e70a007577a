"""Input that must come back as a sentence, never a traceback nor a changed game: half a character
(a lone UTF-16 surrogate) in an entry, a set-up, an import or a replay; a session number beyond the
database's integers; players that are not a list of names; and any fuzzed entry or name. A player
renamed follows the same name rules as one added or seated at a table (models/names.py)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

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
        service.profiles.rename(bruno.id, "Chloe\u0301")
    assert taken.value.msg.key == "service.player.duplicate"
    assert sorted(p.name for p in service.players()) == ["Bruno", "Chloé"]
    service.start("stupide-vautour", ["Chloé", "Bruno", "Anne"])  # Chloé still sits down


@pytest.mark.parametrize("name, kept", [("Anne  Marie", "Anne Marie"), (" Anne\tMarie ", "Anne Marie"),
                                        ("Zoe\u0301", "Zoé"), ("A\u200dB", "A\u200dB")])
def test_a_rename_keeps_the_name_as_adding_it_would(service, name, kept):
    bruno = service.add_player("Bruno")
    assert service.profiles.rename(bruno.id, name).name == kept
    assert [p.name for p in service.players()] == [kept]


@pytest.mark.parametrize("name", ["A\u2028B", "A\u00adB", "A\x07B", "x" * 41, "   ", None, 3])
def test_a_rename_refuses_what_adding_refuses_in_both_languages(service, name):
    bruno = service.add_player("Bruno")
    with pytest.raises(Malformed) as refused:
        service.profiles.rename(bruno.id, name)
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
    assert service.players() == [] and not service.history.page().items


@pytest.mark.parametrize("text", [_record_text("\\ud800"), _record_text("\\ud800").encode(), _record_text(HALF)])
def test_an_import_holding_half_a_character_is_malformed_and_writes_nothing(service, text):
    with pytest.raises(Malformed) as bad:
        service.transfer.import_records(text)
    _says_half_a_character(bad.value, "actions[0].card")
    assert bad.value.record == 0 and bad.value.index == 0
    assert service.players() == [] and not service.history.page().items


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


# -- fuzz: any JSON-ish value as an entry, a correction or a name --------------------------------

@pytest.mark.parametrize("players", [None, 3, False, "Anne", {"Anne": 1}])
def test_players_that_are_not_a_list_of_names_are_malformed(service, players):
    """The screens always send a list; anything else is refused with the record's own sentence, in
    French and English, and no game or profile is written."""
    with pytest.raises(Malformed) as caught:
        service.start("high-society", players)
    for lang in ("fr", "en"):
        assert "players" in caught.value.msg.render(lang)
    assert service.players() == [] and service.history.all() == []


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from scoring.registry import refereed_games  # noqa: E402

TRICKY = ["Anne", "anne", "Chloe\u0301", "Anne  Marie", "A\u2028B", HALF, "p1", "reveal", "bid", 2**64, -1, float("nan")]
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                   st.sampled_from(TRICKY))
JSONISH = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                           max_size=3), max_leaves=8)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    import sys

    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    from playouts import playout

    store = Store(tmp_path_factory.mktemp("fuzz") / "x.db")
    service = SessionService(store)
    started = {}
    for game in refereed_games():
        record = playout(game, 1)
        setup = {k: v for k, v in record.items()
                 if k not in ("format", "game", "players", "first_player", "variant", "actions")}
        state = service.start(game, record["players"], record.get("first_player"), record.get("variant"),
                              setup=setup or None)
        for action in record["actions"][:3]:
            state = service.submit(state.session_id, action)
        started[game] = (state.session_id, record["actions"])
    yield service, started
    store.close()


def _mutated(draw, actions):
    action = dict(draw(st.sampled_from(actions)))
    how = draw(st.integers(0, 3))
    if how == 0:
        return draw(JSONISH)
    key = draw(st.sampled_from(sorted(action)))
    if how == 1:
        action[key] = draw(st.one_of(st.sampled_from(TRICKY), JSONISH))
    elif how == 2:
        del action[key]
    else:
        action[draw(st.text(max_size=6))] = draw(JSONISH)
    return action


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_entry_escapes_as_anything_but_a_sentence_nor_changes_a_saved_game(games, data):
    service, started = games
    game = data.draw(st.sampled_from(sorted(started)))
    session_id, actions = started[game]
    before = SessionService(service.store).open(session_id)
    action = _mutated(data.draw, actions)
    how = data.draw(st.sampled_from(["submit", "preview", "correct"]))
    index = data.draw(st.one_of(st.integers(-1, 3), st.just(True), st.none()))
    try:
        if how == "submit":
            service.submit(session_id, action)
            service.undo(session_id)
        elif how == "preview":
            service.preview_correction(session_id, index, action)
        else:
            service.correct(session_id, index, action)
            service.correct(session_id, index, before.log[index].action)
    except ServiceError as err:
        assert all(err.msg.render(lang).strip() for lang in ("fr", "en"))
    after = SessionService(service.store).open(session_id)
    assert (after.version == before.version or how != "preview") and [e.action for e in after.log] == [
        e.action for e in before.log]


@settings(max_examples=40, deadline=None)
@given(name=st.one_of(st.sampled_from(TRICKY), JSONISH))
def test_no_name_escapes_as_anything_but_a_sentence(tmp_path_factory, name):
    store = Store(tmp_path_factory.mktemp("names") / "x.db")
    try:
        service = SessionService(store)
        bruno = service.add_player("Bruno")
        service.add_player("Chloé")
        for change in (lambda: service.add_player(name), lambda: service.profiles.rename(bruno.id, name)):
            try:
                change()
            except ServiceError as err:
                assert all(err.msg.render(lang).strip() for lang in ("fr", "en"))
        keys = [" ".join(unicodedata.normalize("NFC", p.name).casefold().split()) for p in service.players()]
        assert len(keys) == len(set(keys))
    finally:
        store.close()
