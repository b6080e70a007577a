"""The record parser: what makes a record malformed (spec §1 and §4), and where it says so."""

import json

import pytest

from models.record import MalformedRecord, parse_action, parse_record, parse_record_data
from scoring import registry
from scoring.referee import verdict_for_text
from tests.conftest import as_text

HS = ["Anne", "Bruno", "Chloé"]


def malformed(data):
    with pytest.raises(MalformedRecord) as info:
        parse_record_data(data)
    return info.value


def test_a_minimal_record_parses_with_defaults(make_record):
    record = parse_record(as_text(make_record("high-society", HS)))
    assert record.game == "high-society"
    assert record.starting_player == "Anne"
    assert record.variant.final_tie is None
    assert record.actions == []


def test_first_player_is_kept(make_record):
    record = parse_record(as_text(make_record("high-society", HS, first_player="Chloé")))
    assert record.starting_player == "Chloé"


@pytest.mark.parametrize(
    "change, where",
    [
        ({"surprise": 1}, "surprise: unknown field"),
        ({"format": "table-record/2"}, "format"),
        ({"game": "monopoly"}, "not a known game"),
        ({"players": ["Anne", "Bruno"]}, "3 to 5 players, not 2"),
        ({"players": ["Anne", "Bruno", "Anne"]}, "listed twice"),
        ({"players": ["Anne", "Bruno", " "]}, "blank"),
        ({"players": ["Anne", "Bruno", ""]}, "players[2]"),
        ({"first_player": "Zoé"}, "first_player"),
        ({"variant": {"final_tie": "coin"}}, "variant.final_tie"),
        ({"variant": {"colour": "red"}}, "variant.colour: unknown field"),
        ({"actions": None}, "actions"),
        ({"players": "Anne"}, "players"),
    ],
)
def test_envelope_problems_are_malformed(make_record, change, where):
    data = make_record("high-society", HS)
    data.update(change)
    error = malformed(data)
    assert where in error.message
    assert error.index is None


def test_missing_actions_is_malformed(make_record):
    data = make_record("high-society", HS)
    del data["actions"]
    assert "actions: required field is missing" in malformed(data).message


@pytest.mark.parametrize(
    "action, where",
    [
        ({"type": "shout", "player": "Anne"}, "unknown action type 'shout'"),
        ({"type": "bid", "player": "Anne"}, "add: required field is missing"),
        ({"type": "bid", "player": "Anne", "add": [7]}, "add[0]: 7 is not a card"),
        ({"type": "bid", "player": "Anne", "add": ["4"]}, "add[0]"),
        ({"type": "bid", "player": "Anne", "add": [True]}, "whole number"),
        ({"type": "bid", "player": "Anne", "add": [4.0]}, "whole number"),
        ({"type": "bid", "player": "Zoé", "add": [4]}, "'Zoé' is not one of the players"),
        ({"type": "reveal", "card": "p11"}, "card: 'p11' is not a card"),
        ({"type": "pass", "player": "Anne", "add": [1]}, "add: unknown field"),
        ({"type": "discard", "player": "Anne"}, "card: required field is missing"),
    ],
)
def test_action_problems_name_the_action(make_record, action, where):
    data = make_record("high-society", HS, actions=[{"type": "reveal", "card": "p1"}, action])
    error = malformed(data)
    assert where in error.message
    assert error.index == 1
    assert error.message.startswith("actions[1]")


@pytest.mark.parametrize(
    "game, players, action, where",
    [
        ("stupide-vautour", ["A", "B"], {"type": "reveal", "card": 0}, "card: 0 is not a card"),
        ("stupide-vautour", ["A", "B"], {"type": "play", "cards": {"A": 16, "B": 1}}, "cards.A: 16"),
        ("stupide-vautour", ["A", "B"], {"type": "play", "cards": {"A": 1, "C": 2}}, "'C' is not one of the players"),
        ("boursicocotte", ["A", "B", "C"], {"type": "draw", "card": "unicorn"}, "'unicorn' is not a card"),
        ("boursicocotte", ["A", "B", "C"], {"type": "pay", "player": "A", "cards": [20]}, "20 is not a card"),
        ("boursicocotte", ["A", "B", "C"], {"type": "close", "buy_back": 1}, "buy_back"),
        ("boursicocotte", ["A", "B", "C"], {"type": "bid", "player": "A", "amount": "10"}, "amount"),
        ("boursicocotte", ["A", "B", "C"], {"type": "challenge", "player": "A", "target": "D", "animal": "dog",
                                            "cards": [10]}, "'D' is not one of the players"),
    ],
)
def test_other_games_vocabularies(make_record, game, players, action, where):
    error = malformed(make_record(game, players, actions=[action]))
    assert where in error.message
    assert error.index == 0


def test_same_action_type_means_different_things_per_game(make_record):
    hs_bid = {"type": "bid", "player": "A", "add": [1]}
    bc_bid = {"type": "bid", "player": "A", "amount": 10}
    parse_record_data(make_record("high-society", ["A", "B", "C"], actions=[hs_bid]))
    parse_record_data(make_record("boursicocotte", ["A", "B", "C"], actions=[bc_bid]))
    with pytest.raises(MalformedRecord):
        parse_record_data(make_record("high-society", ["A", "B", "C"], actions=[bc_bid]))


@pytest.mark.parametrize(
    "game, count, ok",
    [("stupide-vautour", 1, False), ("stupide-vautour", 2, True), ("stupide-vautour", 5, True),
     ("stupide-vautour", 6, False), ("boursicocotte", 2, False), ("boursicocotte", 5, True),
     ("animalia", 6, True), ("animalia", 7, False), ("animalement-votre", 5, True)],
)
def test_player_counts(make_record, game, count, ok):
    data = make_record(game, [f"P{i}" for i in range(count)])
    if ok:
        parse_record_data(data)
    else:
        assert "players" in malformed(data).message


class TestShortVersion:
    players = ["A", "B", "C"]

    def start(self, make_record, animals):
        return make_record("boursicocotte", self.players, start_animals=animals)

    def test_four_each_is_fine(self, make_record):
        deal = {"A": ["cow", "dog", "hen", "cat"], "B": ["cow", "pig", "hen", "cat"], "C": ["goat"] * 4}
        record = parse_record_data(self.start(make_record, deal))
        assert record.start_animals["C"] == ["goat"] * 4

    @pytest.mark.parametrize(
        "deal, where",
        [
            ({"A": ["cow"] * 3, "B": ["dog"] * 4, "C": ["hen"] * 4}, "4 animals each, not 3"),
            ({"A": ["cow"] * 4, "B": ["dog"] * 4}, "no animals listed for C"),
            ({"A": ["cow"] * 4, "B": ["dog"] * 4, "C": ["hen"] * 4, "D": ["cat"] * 4}, "'D' is not one of"),
            ({"A": ["cow"] * 4, "B": ["cow", "dog", "dog", "dog"], "C": ["hen"] * 4}, "more than the 4 cards of cow"),
        ],
    )
    def test_bad_deals(self, make_record, deal, where):
        assert where in malformed(self.start(make_record, deal)).message


def test_not_json_and_not_an_object():
    with pytest.raises(MalformedRecord, match="not valid JSON"):
        parse_record("{oops")
    with pytest.raises(MalformedRecord, match="JSON object"):
        parse_record("[]")
    with pytest.raises(MalformedRecord, match="not valid JSON"):
        parse_record(b"\xff\xfe")


def test_parse_action_checks_vocabulary_and_players():
    action = parse_action("high-society", {"type": "bid", "player": "A", "add": [1, 25]}, ["A", "B", "C"])
    assert action.add == [1, 25]
    with pytest.raises(MalformedRecord, match="not one of the players"):
        parse_action("high-society", {"type": "pass", "player": "Z"}, ["A", "B", "C"])
    with pytest.raises(MalformedRecord, match="unknown action type"):
        parse_action("stupide-vautour", {"type": "bid", "player": "A", "add": [1]}, ["A", "B"])


def test_games_without_a_referee_are_answered_with_exit_2(make_record, monkeypatch):
    # every game of the spec has a referee now: take one out to prove the path still answers
    monkeypatch.delitem(registry._ENGINES, "monte-descend")
    for game in ("monte-descend",):
        verdict, status = verdict_for_text(as_text(make_record(game, ["A", "B", "C"])))
        assert status == 2
        assert verdict.status == "illegal"
        assert verdict.game == game
        assert verdict.error.rule == "RECORD"
        assert "no referee" in verdict.error.message


def test_malformed_verdict_keeps_the_game_and_the_action_index(make_record):
    data = make_record("stupide-vautour", ["A", "B"], actions=[{"type": "reveal", "card": 3},
                                                             {"type": "play", "cards": {"A": 1, "B": 99}}])
    verdict, status = verdict_for_text(json.dumps(data))
    assert status == 2
    assert (verdict.game, verdict.applied, verdict.result) == ("stupide-vautour", 0, None)
    assert verdict.error.index == 1


def test_a_repeated_key_is_malformed():
    text = ('{"format": "table-record/1", "game": "stupide-vautour", "players": ["Nina", "Omar"], "actions": ['
            '{"type": "reveal", "card": 3}, {"type": "play", "cards": {"Nina": 3, "Nina": 5}}]}')
    with pytest.raises(MalformedRecord, match="'Nina' appears twice"):
        parse_record(text)


@pytest.mark.parametrize(
    "data, english, french",
    [
        ({"type": "bid", "player": "Anne", "add": [5]}, "5 is not a card or value of this game (expected 1, 2, 3",
         "5 n'est ni une carte ni une valeur de ce jeu (attendu : 1, 2, 3"),
        ({"type": "shout", "player": "Anne"}, "unknown action type 'shout'", "type d'action inconnu 'shout'"),
        ({"type": "pass"}, "player: required field is missing", "player : champ obligatoire absent"),
        ({"type": "pass", "player": "Zoé"}, "'Zoé' is not one of the players", "'Zoé' ne fait pas partie des joueurs"),
    ],
)
def test_malformed_messages_speak_the_tables_language(make_record, data, english, french):
    error = malformed(make_record("high-society", HS, actions=[data]))
    assert english in error.render("en") and english in error.message
    assert french in error.render("fr")
    assert error.index == 0


def test_the_expected_values_are_joined_in_each_language(make_record):
    error = malformed(make_record("high-society", HS, actions=[{"type": "bid", "player": "Anne", "add": [5]}]))
    assert error.render("en").endswith("20 or 25)")
    assert error.render("fr").endswith("20 ou 25)")


# --- the fast path (pydantic's JSON parser + key count) says exactly what the careful path says ---

BASE = ('{"format": "table-record/1", "game": "high-society", "players": ["A", "B", "C"], '
        '"actions": [{"type": "bid", "player": "A", "add": [1]}]}')
ODD_TEXTS = {
    "plain": BASE, "str with a BOM": "\ufeff" + BASE, "bytes with a BOM": b"\xef\xbb\xbf" + BASE.encode(),
    "utf-16": BASE.encode("utf-16"), "latin-1": BASE.replace('"C"', '"Chloé"').encode("latin-1"),
    "NaN": BASE.replace('"actions"', '"x": NaN, "actions"'), "trailing text": BASE + " x",
    "white space": "\n  " + BASE + "\n\n", "game twice": BASE.replace('"players"', '"game": "high-society", "players"'),
    "colon in a name": BASE.replace('"A"', '"A: the first"'), "lone surrogate": BASE.replace('"B"', '"\\ud800"'),
    "escaped key": BASE.replace('"player"', '"pl\\u0061yer"'),
    "same key escaped": BASE.replace('"add": [1]', '"add": [1], "\\u0061dd": [2]'),
    "huge number": BASE.replace("[1]", "[100000000000000000000000000]"), "1.0": BASE.replace("[1]", "[1.0]"),
    "1e0": BASE.replace("[1]", "[1e0]"), "-0": BASE.replace("[1]", "[-0]"), "true": BASE.replace("[1]", "[true]"),
    "null first player": BASE.replace('"players"', '"first_player": null, "players"'),
    "game after actions": '{"format": "table-record/1", "players": ["A", "B", "C"], "actions": [], '
                          '"game": "stupide-vautour"}',
    "game named in a name": BASE.replace('"A"', '"\\"game\\": \\"stupide-vautour\\""'),
    "no game": BASE.replace('"game": "high-society", ', ""),
    "repeated key in a play": '{"format": "table-record/1", "game": "stupide-vautour", "players": ["N", "O"], '
                              '"actions": [{"type": "reveal", "card": 3}, {"type": "play", "cards": {"N": 3, "N": 5}}]}',
    "repeated variant key": BASE.replace('"players"', '"variant": {"final_tie": "shared", "final_tie": "replay"}, '
                                                      '"players"'),
    "repeated action field": BASE.replace('"player": "A"', '"player": "A", "player": "B"'),
    "repeated dealt player": '{"format": "table-record/1", "game": "boursicocotte", "players": ["A", "B", "C"], '
                             '"start_animals": {"A": ["cow", "cow", "cow", "cow"], "B": ["dog", "dog", "dog", "dog"], '
                             '"C": ["hen", "hen", "hen", "hen"], "A": ["cat", "cat", "cat", "cat"]}, "actions": []}',
}


def _careful(text):
    from models.record import load_json

    return parse_record_data(load_json(text))


def _outcome(parse, text):
    try:
        return "ok", parse(text).model_dump()
    except MalformedRecord as error:
        return "malformed", error.message, error.index


@pytest.mark.parametrize("text", ODD_TEXTS.values(), ids=ODD_TEXTS.keys())
def test_odd_texts_get_the_same_answer_from_the_fast_and_the_careful_path(text):
    assert _outcome(parse_record, text) == _outcome(_careful, text)


@pytest.mark.parametrize("name", ["repeated key in a play", "repeated variant key", "repeated action field",
                                  "repeated dealt player", "game twice", "same key escaped"])
def test_a_repeated_key_anywhere_is_malformed(name):
    with pytest.raises(MalformedRecord, match="appears twice"):
        parse_record(ODD_TEXTS[name])


def test_a_colon_inside_a_name_is_fine():
    record = parse_record(ODD_TEXTS["colon in a name"])
    assert record.players[0] == "A: the first" and record.actions[0].player == "A: the first"


def test_text_and_bytes_parse_alike(make_record):
    from tests.support.games import hs_long, sv_game

    for data in (hs_long(["Anne", "Bruno", "Chloé"]), sv_game(["Lou", "Marc"], shift=4),
                 make_record("boursicocotte", ["A", "B", "C"], actions=[{"type": "draw", "card": "cow"},
                                                                         {"type": "bid", "player": "B", "amount": 10}])):
        text = as_text(data)
        assert parse_record(text) == parse_record(text.encode()) == parse_record_data(data)


def test_players_are_checked_in_every_field_that_names_one(make_record):
    players = ["A", "B", "C"]
    trade = {"type": "challenge", "player": "A", "target": "B", "animal": "dog", "cards": [10]}
    parse_record(as_text(make_record("boursicocotte", players, actions=[trade])))
    for field in ("player", "target"):
        with pytest.raises(MalformedRecord, match="'Z' is not one of the players") as info:
            parse_record(as_text(make_record("boursicocotte", players, actions=[{**trade, field: "Z"}])))
        assert info.value.index == 0


def test_the_fast_path_is_taken_for_plain_records_and_left_for_the_careful_one_otherwise():
    from models.record import _parse_fast

    assert _parse_fast(ODD_TEXTS["plain"]) is not None
    assert _parse_fast(ODD_TEXTS["white space"].encode()) is not None
    for name in ("repeated key in a play", "colon in a name", "no game", "1.0", "trailing text"):
        assert _parse_fast(ODD_TEXTS[name]) is None, name
