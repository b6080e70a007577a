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
