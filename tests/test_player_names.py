"""Look-alike names: two players (or two tables) that nobody could tell apart on a screen. A name
typed for a new player, a rename or a new table name is normalised (Unicode NFKC: fullwidth
« Ｌｏｕ » is « Lou ») and refused when it looks like another one (UTS #39: the same confusables
skeleton), naming it; when it mixes the letters of two alphabets (« Lоu » with a Cyrillic о); or
when it stacks more than two accents on one letter. Names already saved stay as they are: an old
database's look-alikes still sit at a table, by their exact names (models/names.py)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import text

from companion.app import probe
from companion.app.shell import App
from companion.service import Malformed, ServiceError, SessionService
from companion.store import Store
from models.names import check_new_name, clean_name, look_alike, normal_name
from tests.support.games import hs_designed

CYRILLIC_LOU = "L\u043eu"  # the o is CYRILLIC SMALL LETTER O
FULLWIDTH_LOU = "\uff2c\uff4f\uff55"
STACKED = "a" + "".join(chr(0x300 + i) for i in range(39))  # 39 combining accents: 40 characters
NOW = datetime(2026, 3, 10, 20, 0, tzinfo=timezone.utc)


@pytest.fixture
def service(tmp_path: Path):
    store = Store(tmp_path / "names.db")
    yield SessionService(store)
    store.close()


def saved(service: SessionService, *names: str) -> None:
    """Profiles written straight into the store, as an old database holds them: cleaned by the
    rules of before (NFC, trimmed), none of today's checks."""
    with service.store.write() as db:
        for name in names:
            service.store.add_player(db, clean_name(name), NOW)


def says(err: ServiceError, *words: str) -> None:
    for lang in ("fr", "en"):
        sentence = err.msg.render(lang)
        assert all(word in sentence for word in words), (lang, sentence)


# -- the rules, pure ---------------------------------------------------------------------------------


def test_names_are_normalised_with_nfkc():
    assert normal_name(FULLWIDTH_LOU) == "Lou"
    assert normal_name("\ufb01ona") == "fiona"  # the ligature fi
    assert normal_name(" Anne\u00a0 Marie ") == "Anne Marie"
    assert normal_name("Zoe\u0301") == "Zoé"


def test_look_alikes_by_the_confusables_skeleton():
    assert look_alike(CYRILLIC_LOU, ["Anne", "Lou"]) == "Lou"
    assert look_alike("\u0421\u043e\u0435", ["Coe"]) == "Coe"  # wholly Cyrillic, still Coe's look-alike
    assert look_alike("Ian", ["lan"]) == "lan"  # a capital I is an l on most screens
    assert look_alike("Loup", ["Lou"]) is None
    assert look_alike("Chloé", ["Chloe"]) is None  # an accent is seen


def test_new_names_that_mix_alphabets_or_stack_accents_are_refused():
    for mixed in (CYRILLIC_LOU, "Zo\u0435", "\u0391lex"):  # Cyrillic е, Greek Α among Latin letters
        with pytest.raises(ValueError) as refused:
            check_new_name(mixed, [])
        assert refused.value.msg.key == "name.mixed_scripts"  # type: ignore[attr-defined]
    with pytest.raises(ValueError) as stacked:
        check_new_name(normal_name(STACKED), [])
    assert stacked.value.msg.key == "name.marks"  # type: ignore[attr-defined]
    for fine in ("\u041e\u043b\u044c\u0433\u0430", "\u0391\u03bb\u03ad\u03be\u03b7\u03c2", "\u7530\u4e2d\u3055\u3093",
                 "Zoé 2", "Nguy\u1ec5n", "A\u200dB", "Loup"):
        check_new_name(normal_name(fine), ["Lou"])  # Ольга, Αλέξης, 田中さん: one alphabet each


# -- players: added, seated at a new game, renamed, imported -----------------------------------------


def test_a_cyrillic_lou_beside_lou_is_refused_naming_lou(service):
    service.add_player("Lou")
    with pytest.raises(Malformed) as refused:
        service.add_player(CYRILLIC_LOU)
    assert refused.value.msg.key == "name.look_alike" and refused.value.msg.params["other"] == "Lou"
    says(refused.value, "Lou", CYRILLIC_LOU)
    with pytest.raises(Malformed) as at_start:
        service.start("high-society", ["Anne", "Bruno", CYRILLIC_LOU])
    says(at_start.value, "Lou", CYRILLIC_LOU)
    assert [p.name for p in service.players()] == ["Lou"] and service.history.all() == []


def test_two_look_alikes_cannot_sit_at_one_new_game(service):
    with pytest.raises(Malformed) as refused:
        service.start("high-society", ["Coe", "\u0421\u043e\u0435", "Anne"])
    says(refused.value, "Coe")
    assert service.players() == []


def test_a_fullwidth_name_is_normalised_and_is_the_same_player(service):
    assert service.add_player(FULLWIDTH_LOU).name == "Lou"
    with pytest.raises(ServiceError) as twice:
        service.add_player(FULLWIDTH_LOU)
    assert twice.value.msg.key == "service.player.duplicate" and twice.value.msg.params["name"] == "Lou"
    state = service.start("high-society", [FULLWIDTH_LOU, "Anne", "Bruno"], first_player=FULLWIDTH_LOU)
    assert state.players == ("Lou", "Anne", "Bruno") and state.first_player == "Lou"
    assert sorted(p.name for p in service.players()) == ["Anne", "Bruno", "Lou"]
    with pytest.raises(Malformed):  # Lou twice at one table
        service.start("high-society", ["Lou", FULLWIDTH_LOU, "Anne"])


def test_a_name_with_39_stacked_accents_is_refused(service):
    with pytest.raises(Malformed) as refused:
        service.add_player(STACKED)
    assert refused.value.msg.key == "name.marks"
    says(refused.value, "2")
    with pytest.raises(Malformed):
        service.start("high-society", ["Anne", "Bruno", STACKED])
    assert service.players() == []


def test_a_name_mixing_alphabets_is_refused(service):
    with pytest.raises(Malformed) as refused:
        service.add_player("Zo\u0435")
    assert refused.value.msg.key == "name.mixed_scripts"
    says(refused.value, "U+0435")
    assert service.add_player("\u041e\u043b\u044c\u0433\u0430").name == "Ольга"  # wholly Cyrillic: fine


def test_a_plain_new_name_is_accepted(service):
    service.add_player("Lou")
    assert service.add_player("Loup").name == "Loup"
    state = service.start("high-society", ["Lou", "Loup", "Lola"])
    assert state.players == ("Lou", "Loup", "Lola")


def test_names_already_saved_still_open_and_play(service):
    saved(service, "Lou", CYRILLIC_LOU, FULLWIDTH_LOU, STACKED)
    players = ["Lou", CYRILLIC_LOU, FULLWIDTH_LOU]
    record = hs_designed(players, "Lou")
    state = service.start("high-society", players, first_player="Lou")
    assert state.players == tuple(players)
    for action in record["actions"]:
        service.submit(state.session_id, action)
    game = SessionService(service.store).open(state.session_id)
    assert game.players == tuple(players) and game.outcome is not None
    again = service.start("stupide-vautour", [STACKED, CYRILLIC_LOU])  # by their exact names
    assert again.players == (clean_name(STACKED), CYRILLIC_LOU)
    assert sorted(p.name for p in service.players()) == sorted([*players, clean_name(STACKED)])  # none new


def test_a_rename_is_checked(service):
    service.add_player("Lou")
    bruno = service.add_player("Bruno")
    with pytest.raises(Malformed) as look_alike_:
        service.profiles.rename(bruno.id, CYRILLIC_LOU)
    says(look_alike_.value, "Lou")
    with pytest.raises(ServiceError) as twice:
        service.profiles.rename(bruno.id, FULLWIDTH_LOU)
    assert twice.value.msg.key == "service.player.duplicate" and twice.value.msg.params["name"] == "Lou"
    for bad, key in ((STACKED, "name.marks"), ("Bru\u043do", "name.mixed_scripts")):
        with pytest.raises(Malformed) as refused:
            service.profiles.rename(bruno.id, bad)
        assert refused.value.msg.key == key
    assert service.profiles.rename(bruno.id, "\uff22runo").name == "Bruno"  # normalised, its own name
    assert service.profiles.rename(bruno.id, "Loup").name == "Loup"
    assert sorted(p.name for p in service.players()) == ["Lou", "Loup"]


def test_an_old_look_alike_keeps_its_name_when_renamed_to_it(service):
    saved(service, "Lou", CYRILLIC_LOU)
    old = next(p for p in service.players() if p.name == CYRILLIC_LOU)
    assert service.profiles.rename(old.id, CYRILLIC_LOU).name == CYRILLIC_LOU  # nothing new: nothing refused
    assert service.profiles.rename(old.id, "Louise").name == "Louise"


def test_an_import_cannot_bring_a_look_alike(service):
    service.add_player("Lou")
    record = {"format": "table-record/1", "game": "stupide-vautour", "players": [CYRILLIC_LOU, "Anne"], "actions": []}
    with pytest.raises(Malformed) as refused:
        service.transfer.import_records(json.dumps(record))
    says(refused.value, "Lou")
    assert service.transfer.export() == []
    saved(service, CYRILLIC_LOU)  # saved already: its records come in
    assert len(service.transfer.import_records(json.dumps(record))) == 1


def test_the_setup_screen_says_the_refusal_naming_the_player_in_both_languages(service, tmp_path):
    service.add_player("Lou")
    for lang, words in (("fr", "ressemble"), ("en", "looks like")):
        app = App(service, None, lang=lang, export_dir=tmp_path / "exports", settings_path=tmp_path / f"{lang}.json")
        app.render()
        probe.tap(app.root, "home-new")
        probe.type_into(app.root, "new-player-name", CYRILLIC_LOU)
        probe.tap(app.root, "new-player-add")
        notice = probe.text_of(app.root, "notice")
        assert "Lou" in notice and words in notice, notice
        probe.type_into(app.root, "new-player-name", FULLWIDTH_LOU)
        probe.tap(app.root, "new-player-add")  # Lou, seated
        assert probe.has(app.root, "seat-remove-Lou")
    assert [p.name for p in service.players()] == ["Lou"]


# -- table names ---------------------------------------------------------------------------------------


def table_of(service: SessionService, table: str) -> str | None:
    """The table name a game started at ``table`` keeps."""
    return service.history.summary(service.start("high-society", ["Anne", "Bruno", "Lou"], table=table).session_id).table_name


def test_a_new_table_name_like_a_known_one_is_refused_naming_it(service):
    first = service.start("high-society", ["Anne", "Bruno", "Lou"], table="Table 1").session_id
    for look_alike_ in ("Table l", "Table I", "TABLE 1 "):
        with pytest.raises(Malformed) as refused:
            service.start("high-society", ["Anne", "Bruno", "Lou"], table=look_alike_)
        assert refused.value.msg.key == "service.table.look_alike"
        says(refused.value, "Table 1")
        with pytest.raises(Malformed):
            service.club.check_table_name(look_alike_)
    with pytest.raises(Malformed) as mixed:
        service.start("high-society", ["Anne", "Bruno", "Lou"], table="T\u0430ble 2")
    assert mixed.value.msg.key == "service.table.mixed_scripts"
    assert table_of(service, "\uff34able 1") == "Table 1"
    assert service.club.check_table_name("Table 2") == "Table 2"
    assert table_of(service, "Table 2") == "Table 2"
    # a table name already saved stays usable as it is
    with service.store.write() as db:
        db.execute(text("UPDATE sessions SET table_name = :t WHERE id = :s"), {"t": "T\u0430ble 1", "s": first})
    assert table_of(service, "T\u0430ble 1") == "T\u0430ble 1"
    assert service.club.check_table_name("T\u0430ble 1") == "T\u0430ble 1"


def test_the_home_field_refuses_a_look_alike_table_name(service, tmp_path):
    service.start("high-society", ["Anne", "Bruno", "Lou"], table="Table 1")
    app = App(service, None, settings_path=tmp_path / "settings.json")
    with pytest.raises(Malformed):
        app.set_table_name("Table l")
    app.home()
    probe.type_into(app.root, "table-name-field", "Table l")
    probe.tap(app.root, "table-name-save")
    assert "Table 1" in probe.text_of(app.root, "notice")
    assert app.table_name is None
    app.set_table_name("Table 1")
    assert app.table_name == "Table 1"
