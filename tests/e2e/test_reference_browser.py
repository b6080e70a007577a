"""The rules reference and the page's requests in a real browser (headless chromium).

- Nothing the page asks for leaves the app: every request of a whole visit is recorded and none
  goes elsewhere than 127.0.0.1 (the tablet may have no internet).
- Typing in the rules search filters the rules on the page itself (the field's handler used to run
  without the page ever showing its result).
"""

from __future__ import annotations

import pytest

from models.i18n import Msg
from scoring.registry import engine_class
from tests.e2e.harness import Screen

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def rules_on_page(screen: Screen) -> set[str]:
    found = screen.page.evaluate(
        "() => Array.from(document.querySelectorAll('[flt-semantics-identifier^=\"rule-\"]'))"
        ".map(e => e.getAttribute('flt-semantics-identifier'))")
    return {i[len("rule-"):] for i in found if not i.startswith(("rule-kind-", "rule-variant-"))}


def test_rules_search_filters_the_page_and_nothing_leaves_the_app(tablet: Screen, companion_app):
    screen = tablet
    asked: list[str] = []
    screen.page.on("request", lambda request: asked.append(request.url))
    screen.open(companion_app.url)
    screen.click("home-rules")
    screen.click("rules-game-high-society")
    every = set(engine_class("high-society").rules)
    screen.until(lambda: rules_on_page(screen) == every, "every High Society rule listed")
    screen.wait_text(fr("app.rules.found", count=len(every)), "rules-count")

    screen.type_into("rules-search", "hs-bid-raise")

    screen.until(lambda: rules_on_page(screen) == {"HS-BID-RAISE"}, "only HS-BID-RAISE left")
    screen.wait_text(fr("app.rules.found", count=1), "rules-count")
    # the card itself is drawn: its title and text (a layout error would leave a grey box, no text)
    screen.wait_text(fr("rule.HS-BID-RAISE.title"), "rule-HS-BID-RAISE")
    screen.wait_text(fr("rule.HS-BID-RAISE.text")[:30], "rule-HS-BID-RAISE")

    screen.type_into("rules-search", "zzzz qqqq")
    screen.until(lambda: not rules_on_page(screen), "no rule left")
    screen.wait_for("rules-none")

    # another game: its own rules, the search kept
    screen.click("rules-game-stupide-vautour")
    screen.wait_text(fr("game.stupide-vautour.name"), "screen-title")
    screen.wait_for("rules-none")
    screen.type_into("rules-search", "sv-play-used")
    screen.until(lambda: rules_on_page(screen) == {"SV-PLAY-USED"}, "only SV-PLAY-USED")

    # a word this game's rules do not hold: the games whose rules do, one tap away
    screen.click("rules-game-high-society")
    screen.type_into("rules-search", "vautour")
    screen.wait_for("rules-none")
    screen.tap_until("rules-elsewhere-stupide-vautour", lambda: not screen.exists("rules-none"))
    screen.wait_text(fr("game.stupide-vautour.name"), "screen-title")
    screen.until(lambda: bool(rules_on_page(screen)), "Stupide Vautour's rules holding the word")

    outside = [url for url in asked if not url.startswith("http://127.0.0.1:")]
    assert asked and outside == []
