"""The evening's screens built without a browser (companion.app.probe) against the real service:
a new evening from the tablet, its seating with a swap, « Soirée : table 1, manche 1 » starting
the table's game with its seats filled in, and the standings screen showing the service's lines
in French and English (with the "?" of a tie-break)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from tests.support.games import sv_game

NINE = ["Anne", "Bruno", "Chloé", "Dario", "Eve", "Farid", "Gaëlle", "Hugo", "Inès"]


@pytest.fixture
def service(tmp_path: Path):
    service = SessionService(Store(tmp_path / "companion.db"))
    yield service
    service.store.close()


def test_an_evening_is_created_seated_and_a_table_started_from_the_tablet(service, tmp_path):
    app = App(service, settings_path=tmp_path / "settings.json")
    app.render()
    probe.tap(app.root, "home-evening")
    assert app.here.screen == "evenings"
    probe.type_into(app.root, "evening-name", "Jeudi du club")
    probe.type_into(app.root, "evening-players", "\n".join(NINE))
    probe.tap(app.root, "evening-rounds-2")
    probe.tap(app.root, "evening-tables-3")
    for t in (1, 2, 3):
        probe.tap(app.root, f"evening-table-{t}-game-stupide-vautour")
    probe.tap(app.root, "evening-create")
    assert app.here.screen == "evening", probe.texts(app.root)
    evening = service.evenings.all()[0]
    state = service.evenings.get(evening.evening_id)
    assert probe.text_of(app.root, "screen-title") == "Jeudi du club : manche 1"
    first = state.rounds[0].tables[0].players
    second = state.rounds[0].tables[1].players
    probe.tap(app.root, "evening-seat-1-1-0")
    probe.tap(app.root, "evening-seat-1-2-0")  # the two change places
    swapped = service.evenings.get(evening.evening_id).rounds[0]
    assert swapped.tables[0].players[0] == second[0] and swapped.tables[1].players[0] == first[0]
    assert probe.text_of(app.root, "evening-play-1-1") == "Soirée : table 1, manche 1"
    probe.tap(app.root, "evening-play-1-1")
    assert app.here.screen == "evening-table"
    order = list(swapped.tables[0].players)
    probe.tap(app.root, "evening-up-2")  # the last player moves up one seat
    order[1], order[2] = order[2], order[1]
    assert [probe.text_of(app.root, f"evening-order-{i}") for i in range(3)] == order
    probe.tap(app.root, "evening-start")
    assert app.here.screen == "table"
    session_id = app.here.params["session_id"]
    game = service.open(session_id)
    assert list(game.players) == order and game.game == "stupide-vautour"
    assert service.evenings.get(evening.evening_id).rounds[0].tables[0].session_id == session_id
    for action in sv_game(order, 1)["actions"]:
        service.submit(session_id, action)
    app.go("evening-standings", evening_id=evening.evening_id)
    standings = service.evenings.standings(evening.evening_id)
    assert probe.text_of(app.root, "standings-count") == "1 partie terminée sur 1 lancée"
    for i, row in enumerate(standings.rows):
        assert probe.text_of(app.root, f"standings-place-{i}") == f"{row.position}."
        assert probe.text_of(app.root, f"standings-name-{i}") == row.name
        assert probe.text_of(app.root, f"standings-points-{i}") == Msg("app.evening.points", {"count": row.points}
                                                                       ).render("fr")
    tied = [i for i, r in enumerate(standings.rows) if r.decided_by is not None]
    assert tied  # six players played nothing: level lines
    probe.tap(app.root, f"standings-why-{tied[0]}")
    assert probe.text_of(app.dialog, f"standings-why-text-{tied[0]}") == Msg(
        f"app.evening.tie.{standings.rows[tied[0]].decided_by}").render("fr")
    app.close_dialog()
    app.set_lang("en")
    assert probe.text_of(app.root, "standings-count") == "1 game finished of 1 started"
    assert probe.text_of(app.root, "screen-title") == "Standings: Jeudi du club"


def test_a_swiss_round_waits_for_its_seating_and_a_refusal_is_a_sentence(service, tmp_path):
    evening = service.evenings.create("Suisse", NINE[:6], 2, ["stupide-vautour", "stupide-vautour"], method="swiss")
    app = App(service, settings_path=tmp_path / "settings.json")
    app.go("evening", evening_id=evening.evening_id, round=2)
    assert probe.text_of(app.root, "evening-round-state") == Msg("app.evening.round_state.waiting",
                                                                 {"round": 2}).render("fr")
    probe.tap(app.root, "evening-propose")
    assert service.evenings.get(evening.evening_id).rounds[1].seated
    app.go("evenings")
    probe.type_into(app.root, "evening-name", "")
    probe.tap(app.root, "evening-create")
    assert probe.text_of(app.root, "notice").startswith(Msg("service.evening.name").render("fr"))


def test_the_history_filters_by_evening(service, tmp_path):
    evening = service.evenings.create("Mardi", NINE[:6], 1, ["stupide-vautour", "stupide-vautour"], seed=8)
    inside = service.evenings.start_table(evening.evening_id, 1, 2)
    service.start("stupide-vautour", ["Anne", "Bruno"])
    app = App(service, settings_path=tmp_path / "settings.json")
    app.go("evening", evening_id=evening.evening_id)
    probe.tap(app.root, "evening-games")
    assert app.here.screen == "history"
    shown = [i for i in probe.idents(app.root) if i.startswith("history-") and i.removeprefix("history-").isdigit()]
    assert shown == [f"history-{inside.session_id}"], probe.idents(app.root)
