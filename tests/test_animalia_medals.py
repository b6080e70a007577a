"""The medal adviser: every way to cover and to count the owl, what each is worth, the best and why."""

from __future__ import annotations

from models.i18n import render
from scoring.animalia_medals import advise, excellence, medal_choices, options


def test_luana_five_different_families_one_medal_each():
    luana = ["cat-champion", "horse-spy", "dog-scruffy", "rabbit-thief", "parrot-dandy"]
    assert medal_choices(luana) == [{"cat": 1, "horse": 1, "dog": 1, "rabbit": 1, "parrot": 1}]


def test_single_animals_give_nothing():
    assert medal_choices(["cat-champion", "cat-spy", "horse-spy", "dog-scruffy"]) == [{"cat": 2}]
    assert medal_choices(["cat-champion", "horse-spy", "dog-scruffy", "rabbit-thief"]) == [{}]


def test_fanny_four_dogs_or_three_dogs_and_two_rabbits():
    fanny = ["dog-champion", "dog-spy", "dog-thief", "rabbit-dandy", "owl"]
    assert medal_choices(fanny) == [{"dog": 3, "rabbit": 2}, {"dog": 4}, {"dog": 3}]
    advice = advise(fanny, [])
    assert advice.best.medals == {"dog": 3, "rabbit": 2} and advice.best.owl_as == "rabbit"
    assert "5" in render(advice.reason, "fr")


def test_mael_one_of_each_or_a_pair_of_his_choice():
    mael = ["owl", "dog-champion", "cat-spy", "horse-thief", "rabbit-scruffy"]
    choices = medal_choices(mael)
    assert choices[0] == {"cat": 1, "horse": 1, "dog": 1, "rabbit": 1, "parrot": 1}
    assert sorted(choices[1:], key=lambda m: sorted(m)) == [{"cat": 2}, {"dog": 2}, {"horse": 2}, {"rabbit": 2}]
    assert advise(mael, []).best.owl_as == "parrot"


def test_noemi_covers_her_parrot_and_her_horse_with_two_bonus_cats():
    noemi = ["cat-champion", "dog-dandy", "dog-spy", "parrot-thief", "horse-scruffy"]
    bonus = ["cat-dandy", "cat-spy"]
    advice = advise(noemi, bonus)
    best = advice.best
    assert best.medals == {"cat": 3, "dog": 2}
    assert sorted(covered for _, covered in best.covers) == ["horse-scruffy", "parrot-thief"]
    assert render(advice.reason, "en") == "Advised: covering with 2 bonus cards gives 5 medals instead of 2 medals."
    plain = [o for o in advice.options if not o.covers]
    assert [o.medals for o in plain] == [{"dog": 2}]
    # every way is listed: no cover, one cat on any card, both cats on any two cards
    # every way is listed: no cover, either cat on any of the 5 cards, the two cats on two different cards
    assert len({o.covers for o in advice.options}) == 1 + 2 * 5 + 5 * 4


def test_the_best_counts_excellence_prizes_already_in_reach():
    cards = ["dog-champion", "dog-spy", "dog-thief", "cat-dandy", "owl"]
    assert advise(cards, []).best.medals == {"dog": 3, "cat": 2}  # 5 medals now
    advice = advise(cards, [], totals={"dog": 1})  # 4 dogs reach 5 dogs: an excellence prize
    assert advice.best.medals == {"dog": 4} and advice.best.end == 4 + 5 and advice.best.excellence == 1
    assert "excellence" in render(advice.reason, "en")
    two_players = advise(cards, [], totals={"dog": 1}, per=7)  # with 2 players a prize needs 7
    assert two_players.best.medals == {"dog": 3, "cat": 2}


def test_keeping_bonus_cards_when_covering_adds_nothing():
    cards = ["cat-champion", "cat-dandy", "cat-spy", "cat-thief", "dog-scruffy"]
    advice = advise(cards, ["horse-dandy"])
    assert advice.best.covers == () and advice.best.medals == {"cat": 4}
    assert "keep" in render(advice.reason, "en")
    # equal worth: the option using fewer bonus cards comes first
    assert all(o.used >= advice.best.used for o in advice.options if o.end == advice.best.end)


def test_options_are_best_first_and_worth_what_they_say():
    found = options(["cat-champion", "dog-dandy", "owl", "horse-spy", "rabbit-thief"], ["parrot-dandy", "cat-spy"],
                    totals={"cat": 4})
    ends = [o.end for o in found]
    assert ends == sorted(ends, reverse=True)
    for o in found:
        assert o.now == sum(o.medals.values())
        assert o.end == o.now + 5 * (excellence({"cat": 4 + o.medals.get("cat", 0)}, 5) - 0)


def test_the_rulebook_final_tallies_with_excellence():
    assert 10 + 5 * excellence({"cat": 5, "dog": 3, "horse": 2}, 5) == 15  # Luana
    assert 13 + 5 * excellence({"rabbit": 6, "horse": 7}, 5) == 23  # Fanny
    assert 15 + 5 * excellence({"dog": 11, "cat": 4}, 5) == 25  # Salomé


def test_a_way_spending_more_bonus_cards_for_as_much_comes_after_and_says_so():
    # one bonus cat on the horse gives 3 cats and 2 dogs; laying the other cat on a cat too gives
    # the same 5 medals and spends one bonus card more, which a later season could use
    cards = ["cat-champion", "cat-dandy", "dog-spy", "dog-thief", "horse-scruffy"]
    bonus = ["cat-spy", "cat-thief"]
    advice = advise(cards, bonus)
    assert advice.best.used == 1 and advice.best.medals == {"cat": 3, "dog": 2}
    same = [i for i, o in enumerate(advice.options) if o.medals == advice.best.medals]
    assert [advice.options[i].used for i in same] == sorted(advice.options[i].used for i in same)
    assert {advice.dearer[i] for i in same if advice.options[i].used == 2} == {1}
    assert all(advice.dearer[i] == 0 for i in same if advice.options[i].used == 1)
    assert render(advice.note, "en") == ("The other ways to get as much spend more bonus cards than this one "
                                         "(1 bonus card): the bonus cards you keep will serve later.")
    last = advise(cards, bonus, later=False)  # the game's last collection: a card kept is worth nothing
    assert "later" not in render(last.note, "en") and "plus tard" not in render(last.note, "fr")
    assert advise(cards, []).note is None  # nothing to spend, nothing to say
