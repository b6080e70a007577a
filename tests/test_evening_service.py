"""Club evenings through the service (companion/service/evenings.py), on SQLite and PostgreSQL:
an evening's seating, a table's game started from it and linked to it, the standings equal to a
recomputation from the games' replays after finishes, undos, corrections and removals, arrivals
and departures, swaps before a round starts, ``swiss`` rounds from the standings."""

from __future__ import annotations

import pytest

from companion.service import ServiceError, SessionService
from companion.store import Store
from models.seating import Seating, repeats
from tests.support.evening import recomputed
from tests.support.games import hs_designed, sv_game

NINE = ["Anne", "Bruno", "Chloé", "Dario", "Eve", "Farid", "Gaëlle", "Hugo", "Inès"]
VAUTOUR = "stupide-vautour"


@pytest.fixture
def service(database):
    store = Store(database)
    yield SessionService(store)
    store.close()


def play(service: SessionService, session_id: int, shift: int = 1, leave: int = 0) -> None:
    """Stupide Vautour at the table's seats to its end (``leave``: that many entries not made)."""
    state = service.open(session_id)
    actions = sv_game(list(state.players), shift)["actions"]
    for action in actions[len(state.log):len(actions) - leave]:
        service.submit(session_id, action)


def shown(service: SessionService, evening_id: int) -> list[tuple[str, int, int, float | None, int]]:
    return [(r.name, r.points, r.wins, r.average_place, r.beaten) for r in service.evenings.standings(evening_id).rows]


def seatings(evening) -> list[Seating]:
    return [Seating(tuple(t.players for t in r.tables), r.sit_out) for r in evening.rounds if r.seated]


def test_an_evening_is_seated_and_its_tables_start_from_the_seating(service):
    evening = service.evenings.create("Jeudi", NINE, 3, [VAUTOUR] * 3, seed=5)
    assert [r.seated for r in evening.rounds] == [True, True, True]
    for rnd in evening.rounds:
        assert [len(t.players) for t in rnd.tables] == [3, 3, 3]
        assert sorted(p for t in rnd.tables for p in t.players) == sorted(NINE)
    assert repeats(seatings(evening)) == 0  # nine players in threes: three rounds without a repeat
    table = evening.rounds[0].tables[1]
    state = service.evenings.start_table(evening.evening_id, 1, 2, table="Table 2")
    assert list(state.players) == list(table.players) and state.game == VAUTOUR
    assert service.evenings.start_table(evening.evening_id, 1, 2).session_id == state.session_id  # one game a table
    again = service.evenings.get(evening.evening_id)
    assert again.rounds[0].started and again.rounds[0].tables[1].session_id == state.session_id
    assert service.evenings.evening_of([state.session_id]) == {state.session_id: (evening.evening_id, "Jeudi", 1, 2)}
    with pytest.raises(ServiceError) as refused:
        service.evenings.swap_seats(evening.evening_id, 1, NINE[0], NINE[1])
    assert refused.value.msg.key == "service.evening.started"
    assert [e.name for e in service.evenings.all()] == ["Jeudi"]


def play_hs(service: SessionService, session_id: int) -> None:
    """High Society's short designed game at the table's seats (its first player first) to its end."""
    players = list(service.open(session_id).players)
    for action in hs_designed(players, players[0])["actions"]:
        service.submit(session_id, action)


def test_standings_equal_a_recomputation_after_finishes_undos_corrections_and_removals(service):
    evening = service.evenings.create("Vendredi", NINE, 2, ["high-society", VAUTOUR, VAUTOUR], seed=11)
    eid = evening.evening_id
    ids = [service.evenings.start_table(eid, 1, t).session_id for t in (1, 2, 3)]
    play_hs(service, ids[0])
    play(service, ids[1], shift=2)
    play(service, ids[2], shift=1, leave=3)  # unfinished: counts nothing
    assert shown(service, eid) == recomputed(service, eid)
    standings = service.evenings.standings(eid)
    assert standings.finished_games == 2 and standings.games == 3
    assert {r.name for r in standings.rows if r.games == 0} == set(service.open(ids[2]).players)
    service.undo(ids[1])  # reopens a finished game: it counts nothing now
    assert shown(service, eid) == recomputed(service, eid)
    assert service.evenings.standings(eid).finished_games == 1
    play(service, ids[2], shift=1)  # the other table finishes meanwhile
    service.submit(ids[1], sv_game(list(service.open(ids[1]).players), 2)["actions"][-1])
    assert service.evenings.standings(eid).finished_games == 3
    assert shown(service, eid) == recomputed(service, eid)
    last = len(service.open(ids[0]).log) - 1
    service.correct(ids[0], last, {"type": "reveal", "card": "p2"})  # not the scandal after all: reopened
    assert service.open(ids[0]).outcome is None
    assert service.evenings.standings(eid).finished_games == 2
    assert shown(service, eid) == recomputed(service, eid)
    service.delete(ids[1])  # the table may start again
    assert service.evenings.get(eid).rounds[0].tables[1].session_id is None
    assert shown(service, eid) == recomputed(service, eid)
    again = service.evenings.start_table(eid, 1, 2)
    assert again.session_id != ids[1]


def test_ties_are_broken_by_wins_then_average_place_then_players_beaten():
    from companion.service.evenings import standings_of
    from companion.store.evenings import PlaceRow

    def game(sid, ranks):
        return [PlaceRow(1, sid, sid, pid, rank, rank == 1, len(ranks)) for pid, rank in ranks.items()]

    def table(places, names):
        return [(r.position, r.name, r.points, r.decided_by) for r in standings_of(places, list(enumerate(names)), {})]

    # wins: A won a game of 2 (1 point), B was second of 3 (1 point); X and Z have 0, X the better place
    assert table(game(1, {0: 1, 3: 2}) + game(2, {4: 1, 1: 2, 5: 3}), ["A", "B", "C", "X", "Y", "Z"]) == [
        (1, "Y", 2, None), (2, "A", 1, None), (3, "B", 1, "wins"), (4, "X", 0, None), (5, "Z", 0, "average"),
        (6, "C", 0, "average")]  # C played nothing: last of the equal lines
    # average: A second of 3, B third of 4 (1 point each, no win); C and F: 2 points, C a win
    assert table(game(1, {2: 1, 0: 2, 3: 3}) + game(2, {4: 1, 5: 2, 1: 3, 6: 4}), ["A", "B", "C", "D", "E", "F", "G"]) == [
        (1, "E", 3, None), (2, "C", 2, None), (3, "F", 2, "wins"), (4, "A", 1, None), (5, "B", 1, "average"),
        (6, "D", 0, None), (7, "G", 0, "average")]
    # players beaten: A shared first of 3 (2 points, a win, beat 1), B first alone of 3 (2 points, a win, beat 2)
    assert table(game(1, {0: 1, 2: 1, 3: 3}) + game(2, {1: 1, 4: 2, 5: 3}), ["A", "B", "C", "D", "E", "F"])[:3] == [
        (1, "B", 2, None), (2, "A", 2, "beaten"), (2, "C", 2, "shared")]
    # equal on everything: one position shared, the next one skipped
    assert table(game(1, {0: 1, 1: 1, 2: 3}), ["A", "B", "C"]) == [(1, "A", 2, None), (1, "B", 2, "shared"),
                                                                   (3, "C", 0, None)]


def test_arrivals_departures_and_swaps_seat_the_rounds_not_started_again(service):
    evening = service.evenings.create("Samedi", NINE[:8], 3, [VAUTOUR, VAUTOUR], seed=3)
    eid = evening.evening_id
    service.evenings.start_table(eid, 1, 1)
    after = service.evenings.set_presence(eid, "Inès", 2, None)  # arrives for round 2
    assert "Inès" not in after.rounds[0].present and "Inès" in after.rounds[1].present
    assert after.rounds[0] == service.evenings.get(eid).rounds[0]
    for rnd in after.rounds[1:]:
        assert sorted([p for t in rnd.tables for p in t.players] + list(rnd.sit_out)) == sorted(NINE)
    left = service.evenings.set_presence(eid, "Anne", 1, 2)  # leaves after round 2
    assert "Anne" not in [p for t in left.rounds[2].tables for p in t.players]
    with pytest.raises(ServiceError) as refused:
        service.evenings.set_presence(eid, "Bruno", 2, None)  # would take him out of round 1, started
    assert refused.value.msg.key == "service.evening.started"
    rnd = left.rounds[1]
    one, two = rnd.tables[0].players[0], rnd.tables[1].players[0]
    swapped = service.evenings.swap_seats(eid, 2, one, two)
    assert one in swapped.rounds[1].tables[1].players and two in swapped.rounds[1].tables[0].players


def test_more_players_than_seats_sit_out_at_most_once_and_the_standings_say_so(service):
    evening = service.evenings.create("Dimanche", NINE[:7], 3, ["high-society"], seed=1)  # one table of 3-5
    outs = [r.sit_out for r in evening.rounds]
    assert [len(o) for o in outs] == [2, 2, 2]
    assert len({p for o in outs for p in o}) == 6
    state = service.evenings.start_table(evening.evening_id, 1, 1)
    rows = {r.name: r for r in service.evenings.standings(evening.evening_id).rows}
    assert all(rows[p].sat_out == (1,) for p in outs[0])
    assert state.game == "high-society"


def test_swiss_seats_the_next_round_from_the_standings(service):
    evening = service.evenings.create("Suisse", NINE, 2, [VAUTOUR] * 3, method="swiss", seed=2)
    eid = evening.evening_id
    assert [r.seated for r in evening.rounds] == [True, False]
    for t, shift in zip((1, 2, 3), (1, 2, 1)):
        play(service, service.evenings.start_table(eid, 1, t).session_id, shift)
    rows = service.evenings.standings(eid).rows
    second = service.evenings.propose(eid, 2).rounds[1]
    assert second.seated
    points = {r.name: r.points for r in rows}
    # the first table holds the three best (equal points may be swapped among themselves)
    best = sorted(points.values(), reverse=True)[:3]
    assert sorted(points[p] for p in second.tables[0].players) == sorted(best)


def test_the_history_filters_by_evening_and_the_csv_names_it(service):
    evening = service.evenings.create("Mardi", NINE[:6], 1, [VAUTOUR, VAUTOUR], seed=8)
    eid = evening.evening_id
    inside = service.evenings.start_table(eid, 1, 1)
    play(service, inside.session_id)
    outside = service.start("stupide-vautour", ["Anne", "Bruno"])
    play(service, outside.session_id)
    assert [s.session_id for s in service.history.page(evening=eid).items] == [inside.session_id]
    assert {s.session_id for s in service.history.page().items} == {inside.session_id, outside.session_id}
    assert service.history.page(evening=eid + 1).items == ()
    rows = [line.split(",") for line in service.exports.csv_text(lang="en").splitlines()]
    assert rows[0][:5] == ["date", "game", "table", "evening", "player"]
    assert sorted(row[3] for row in rows[1:]) == ["", "", "Mardi", "Mardi", "Mardi"]  # 2 + 3 players
    assert service.exports.csv_text(lang="fr", evening=eid).splitlines()[0].split(",")[3] == "soirée"
    assert len(service.exports.csv_text(lang="fr", evening=eid).splitlines()) == 1 + 3
