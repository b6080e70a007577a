"""Property tests over random legal Stupide Vautour games."""

from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from models.games.stupide_vautour import RULE_SPECS, SV_POINT_CARDS
from models.games.stupide_vautour_actions import SVPlay, SVReveal
from models.i18n import LANGUAGES, Msg
from models.record import parse_record_data
from scoring.base import RuleViolation
from scoring.stupide_vautour import StupideVautourEngine
from tests.all_or_nothing import fold_with_apply, try_action

REFUSALS = {r.id for r in RULE_SPECS if r.refusal}

NAMES = ["Alex", "Chloé", "Camille", "Léo", "Nina"]


@st.composite
def games(draw):
    count = draw(st.integers(min_value=2, max_value=5))
    players = NAMES[:count]
    ties = draw(st.sampled_from([None, "one-level", "highest-unique"]))
    points = draw(st.permutations(list(SV_POINT_CARDS)))
    if draw(st.booleans()):
        hands = {p: draw(st.permutations(list(range(1, 16)))) for p in players}
    else:
        # Everyone follows one order with a few swaps of their own: ties, carries and lost
        # cards become frequent.
        base = draw(st.permutations(list(range(1, 16))))
        hands = {}
        for p in players:
            order = list(base)
            for i, j in draw(st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)), max_size=3)):
                order[i], order[j] = order[j], order[i]
            hands[p] = order
    return players, ties, points, hands


def new_engine(players, ties):
    data = {"format": "table-record/1", "game": "stupide-vautour", "players": players, "actions": []}
    if ties:
        data["variant"] = {"ties": ties}
    return StupideVautourEngine(parse_record_data(data))


def renders(messages):
    for message in messages:
        assert isinstance(message, Msg)
        for lang in LANGUAGES:
            assert message.render(lang).strip()


def expected_taker(cards, high, ties):
    """An independent statement of both readings, on the sorted list of cards."""
    ordered = sorted(cards.values(), reverse=high)
    counts = Counter(ordered)
    if ties == "highest-unique":
        once = [v for v in ordered if counts[v] == 1]
        value = once[0] if once else None
    else:
        rest = [v for v in ordered if v != ordered[0]] if counts[ordered[0]] > 1 else ordered
        value = rest[0] if rest and counts[rest[0]] == 1 else None
    return None if value is None else next(p for p, v in cards.items() if v == value)


def places_of_every_point_card(eng):
    """Every revealed card sits in exactly one place: a player's pile, the carry or the lost pile."""
    places = [card for cards in eng.taken.values() for card in cards] + list(eng.pending) + list(eng.lost)
    assert sorted(places) == sorted(eng.revealed)
    assert len(set(places)) == len(places)
    assert eng.deck_left == 15 - len(eng.revealed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_legal_games(game):
    players, ties, points, hands = game
    eng = new_engine(players, ties)
    reading = ties or "one-level"
    for rnd in range(15):
        prompt = eng.expected()
        assert prompt.types == ("reveal",) and prompt.players == ()
        renders([prompt.prompt])
        renders(eng.apply(SVReveal(type="reveal", card=points[rnd])))
        places_of_every_point_card(eng)
        assert eng.round == rnd + 1 and eng.round_open
        prompt = eng.expected()
        assert prompt.types == ("play",) and prompt.players == tuple(players)
        renders([prompt.prompt])

        cards = {p: hands[p][rnd] for p in players}
        pending, high = eng.pending, eng.pending_sum >= 0
        assert eng.pending_mode == ("suricate" if high else "vulture")
        before = eng.taken
        renders(eng.apply(SVPlay(type="play", cards=cards)))
        renders(eng.last_award)
        places_of_every_point_card(eng)
        assert eng.last_played == cards
        taker = expected_taker(cards, high, reading)
        if taker is not None:
            assert eng.taken[taker] == before[taker] + pending
            assert eng.pending == ()
        elif rnd < 14:
            assert eng.pending == pending and eng.taken == before
        else:
            assert eng.lost == pending
        assert (eng.outcome() is None) == (rnd < 14)

    assert eng.rounds_played == 15 and eng.finished
    assert all(hand == () for hand in eng.hands.values())
    assert all(sorted(eng.played_in[p]) == list(range(1, 16)) for p in players)
    assert all(eng.played_in[p][hands[p][r]] == r + 1 for p in players for r in range(15))
    assert eng.pending == ()
    assert sorted(eng.revealed) == sorted(SV_POINT_CARDS)
    places_of_every_point_card(eng)

    outcome = eng.outcome()
    event(f"lost cards: {bool(eng.lost)}")
    renders(outcome.explanation)
    assert dict(outcome.scores) == {p: sum(eng.taken[p]) for p in players}
    assert sum(outcome.scores.values()) + sum(eng.lost) == sum(SV_POINT_CARDS)
    assert sorted(p for p, _ in outcome.ranking) == sorted(players)
    scores = outcome.scores
    levels = sorted(set(scores.values()), reverse=True)
    top = [p for p in players if scores[p] == levels[0]]
    if len(top) == 1:
        assert outcome.winners == tuple(top)
    elif len(levels) == 1:
        assert outcome.winners == tuple(players)
    else:
        assert outcome.winners == tuple(p for p in players if scores[p] == levels[1])
    assert {p for p, r in outcome.ranking if r == 1} == set(outcome.winners)
    ranks = [r for _, r in outcome.ranking]
    assert ranks == sorted(ranks)

    try:
        eng.apply(SVReveal(type="reveal", card=points[0]))
    except RuleViolation as err:
        assert err.rule == "SV-GAME-OVER"
    else:
        raise AssertionError("a reveal after the 15th round was accepted")


@settings(max_examples=40, deadline=None)
@given(games(), st.data())
def test_replaying_a_used_card_is_refused_naming_the_card_not_when_it_went(game, data):
    players, ties, points, hands = game
    eng = new_engine(players, ties)
    stop = data.draw(st.integers(min_value=1, max_value=14))
    for rnd in range(stop):
        eng.apply(SVReveal(type="reveal", card=points[rnd]))
        eng.apply(SVPlay(type="play", cards={p: hands[p][rnd] for p in players}))
    eng.apply(SVReveal(type="reveal", card=points[stop]))
    cheater = data.draw(st.sampled_from(players))
    old_round = data.draw(st.integers(min_value=0, max_value=stop - 1))
    cards = {p: hands[p][stop] for p in players}
    cards[cheater] = hands[cheater][old_round]
    view = eng.player_view()
    try:
        eng.apply(SVPlay(type="play", cards=cards))
    except RuleViolation as err:
        assert err.rule == "SV-PLAY-USED"
        assert err.msg.params["round"] == old_round + 1  # the engine knows when; the table is not told
        card = hands[cheater][old_round]
        for lang in LANGUAGES:
            said = err.message(lang)
            assert said.startswith(f"{cheater} ") and f" {card}" in said
            assert "round" not in said and "manche" not in said
    else:
        raise AssertionError("a used card was accepted")
    assert eng.player_view() == view


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_random_actions_are_accepted_or_refused_leaving_everything_as_it_was(game, data):
    """Legal and illegal actions mixed: ``check`` never changes the engine, a refusal carries a
    listed refusal id and leaves every attribute exactly as it was, and ``check`` and ``apply``
    always agree."""
    players, ties, points, _ = game
    eng = new_engine(players, ties)
    accepted = 0
    for _ in range(60):
        if data.draw(st.booleans()) and not eng.finished:  # a legal action, from the engine's state
            if not eng.round_open:
                action = SVReveal(type="reveal", card=next(c for c in points if c not in eng.revealed))
            else:
                action = SVPlay(type="play", cards={p: data.draw(st.sampled_from(eng.hands[p])) for p in players})
        elif data.draw(st.booleans()):  # any point card, revealed or not
            action = SVReveal(type="reveal", card=data.draw(st.sampled_from(SV_POINT_CARDS)))
        else:  # any hand cards, maybe played already, maybe someone missing
            who = data.draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
            action = SVPlay(type="play", cards={p: data.draw(st.integers(1, 15)) for p in who})
        done = try_action(eng, action, REFUSALS)
        if isinstance(done, RuleViolation):
            renders([done.msg])
            continue
        assert done is not None
        renders(done)
        accepted += 1
        places_of_every_point_card(eng)
    assert eng.applied == accepted


@given(st.lists(st.integers(-15, 55), min_size=2, max_size=5))
def test_standings_rank_as_the_rule_groups_them(values):
    """``standings`` (the outcome's winners and ranking, worked out without sentences) agrees with the
    rule written out: the best score wins unless tied, then the second best; ties share a rank."""
    from scoring.stupide_vautour import settle, standings

    players = [f"P{i}" for i in range(len(values))]
    scores = dict(zip(players, values))
    levels = sorted(set(values), reverse=True)
    at = {v: [p for p in players if scores[p] == v] for v in levels}
    if len(at[levels[0]]) == 1 or len(levels) == 1:
        winners, groups = at[levels[0]], [at[v] for v in levels]
    else:
        winners, groups = at[levels[1]], [at[levels[1]], at[levels[0]]] + [at[v] for v in levels[2:]]
    ranking, place = [], 1
    for group in groups:
        ranking += [(p, place) for p in group]
        place += len(group)
    assert standings(players, scores) == (tuple(winners), tuple(ranking))
    assert settle(players, scores)[:2] == (tuple(winners), tuple(ranking))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_the_verdicts_fold_of_a_whole_list_refuses_and_settles_as_apply_does(game, data):
    """``run`` on a fresh engine checks a whole list at once before it folds it (``_run_whole``): on a
    legal game, cut anywhere, its plays naming the players in any order, and on the same game with one
    action changed, added or left out (a card played again or not in the hand, a point card revealed
    twice or not one, a player missing or a stranger, two reveals or two plays in a row, anything after
    the 15th round), it refuses the same action with the same rule and sentence as ``apply`` does, and
    leaves every attribute as ``apply`` leaves it. (The actions are the structs a record is parsed
    into, built here without the parser's checks.)"""
    from models.games import stupide_vautour_structs as structs

    players, ties, points, hands = game
    actions = []
    for rnd in range(15):
        cards = {p: hands[p][rnd] for p in data.draw(st.permutations(players))}
        actions += [structs.SVReveal(card=points[rnd]), structs.SVPlay(cards=cards)]
    if data.draw(st.booleans()):  # cut anywhere
        actions = actions[:data.draw(st.integers(0, 30))]
    reveals = [i for i, action in enumerate(actions) if action.type == "reveal"]
    plays = [i for i, action in enumerate(actions) if action.type == "play"]
    change = data.draw(st.sampled_from(["none", "again", "stranger", "missing", "not in the hand", "revealed again",
                                        "not a point card", "after the end", "replace", "insert", "remove"]))
    if change == "after the end" and len(actions) == 30:
        actions.append(data.draw(st.sampled_from(actions)))
    elif change == "again" and len(plays) > 1:  # one player's card of an earlier round, played again
        earlier, later = sorted(data.draw(st.lists(st.sampled_from(plays), min_size=2, max_size=2, unique=True)))
        cheater = data.draw(st.sampled_from(players))
        actions[later] = structs.SVPlay(cards={**actions[later].cards, cheater: actions[earlier].cards[cheater]})
    elif change in ("stranger", "missing", "not in the hand") and plays:
        at = data.draw(st.sampled_from(plays))
        cards = {**actions[at].cards}
        if change == "stranger":
            cards["Zoé"] = data.draw(st.integers(1, 15))
        elif change == "missing":
            del cards[data.draw(st.sampled_from(players))]
        else:
            cards[data.draw(st.sampled_from(players))] = data.draw(st.sampled_from([0, 16, -1, 99]))
        actions[at] = structs.SVPlay(cards=dict(data.draw(st.permutations(list(cards.items())))))
    elif change in ("revealed again", "not a point card") and len(reveals) > 1:
        earlier, later = sorted(data.draw(st.lists(st.sampled_from(reveals), min_size=2, max_size=2, unique=True)))
        card = actions[earlier].card if change == "revealed again" else data.draw(st.sampled_from([0, 11, -6]))
        actions[later] = structs.SVReveal(card=card)
    elif change in ("replace", "insert", "remove") and (actions or change == "insert"):
        at = data.draw(st.integers(0, len(actions) - (change != "insert")))
        if change == "remove":
            del actions[at]
        else:
            if data.draw(st.booleans()):
                odd = structs.SVReveal(card=data.draw(st.sampled_from([*SV_POINT_CARDS, 0, 11, -6])))
            else:
                who = data.draw(st.lists(st.sampled_from([*players, "Zoé"]), min_size=1, max_size=6, unique=True))
                odd = structs.SVPlay(cards={p: data.draw(st.integers(0, 16)) for p in who})
            actions[at:at + (change == "replace")] = [odd]
    else:
        change = "none"
    event(f"changed: {change}")
    by_apply, by_run = new_engine(players, ties), new_engine(players, ties)
    refusal = fold_with_apply(by_apply, actions)
    try:
        by_run.run(actions)
        ran = None
    except RuleViolation as error:
        ran = error
    event(f"refused: {refusal.rule if refusal else None}")
    assert (ran is None) == (refusal is None)
    if ran is not None:
        assert (ran.rule, ran.msg) == (refusal.rule, refusal.msg)
    assert vars(by_run) == vars(by_apply)
    assert by_run.outcome() == by_apply.outcome()


@given(st.lists(st.integers(1, 15), min_size=2, max_size=5), st.booleans(),
       st.sampled_from(["one-level", "highest-unique"]))
def test_the_folds_taker_is_the_decisions_winner(values, high, ties):
    """``_taker`` (who takes the points, from the cards in seating order: the verdict's fold) names the
    winner ``decide`` names, in both readings and both directions."""
    from scoring.stupide_vautour import _taker, decide

    seating = [f"P{i}" for i in range(len(values))]
    assert _taker(values, seating, high, ties) == decide(dict(zip(seating, values)), seating, high, ties).winner
