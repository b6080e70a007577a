"""The rules reference, one game at a time: every rule of the game in the engine's order, grouped
in sections with their headings, each rule's id, title, text, rule-or-ruling and variant; search by
id or words without accents; opened from a table on that game's rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.screens import rules as screen
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import LANGUAGES, Msg, dialect, has_text
from scoring.base import RuleSpec
from scoring.registry import engine_class, refereed_games


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


@pytest.fixture
def app(service, tmp_path) -> App:
    app = App(service, None, export_dir=tmp_path / "exports")
    app.render()
    return app


def shown(app: App) -> list[str]:
    return [i[len("rule-"):] for i in probe.idents(app.root)
            if i.startswith("rule-") and not i.startswith(("rule-kind-", "rule-variant-", "rule-ruling-"))]


@pytest.mark.parametrize("game", refereed_games())
def test_each_game_shows_exactly_its_rules_in_the_engines_order(app, game):
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, f"rules-game-{game}")
    cls = engine_class(game)
    order = [s.id for s in cls.rule_specs] if cls.rule_specs else list(cls.rules)
    assert shown(app) == order
    assert fr("game." + game + ".name") in probe.text_of(app.root, "screen-title")
    assert fr("app.rules.found", count=len(order)) in probe.text_of(app.root, "rules-count")
    first = order[0]
    with dialect(game):  # in the game's own words (Animalement Vôtre's)
        assert fr(f"rule.{first}.title") in probe.text_of(app.root, f"rule-{first}")
        assert fr(f"rule.{first}.text") in probe.text_of(app.root, f"rule-{first}")


def test_search_by_id_and_by_words_without_accents(app):
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, "rules-game-high-society")
    probe.type_into(app.root, "rules-search", "hs-bid-raise")
    assert shown(app) == ["HS-BID-RAISE"]
    assert fr("app.rules.found", count=1) in probe.text_of(app.root, "rules-count")
    title = fr("rule.HS-BID-RAISE.title")
    probe.type_into(app.root, "rules-search", screen.fold(title).upper())
    assert "HS-BID-RAISE" in shown(app)
    probe.type_into(app.root, "rules-search", "zzzz qqqq")
    assert shown(app) == []
    assert fr("app.rules.none", query="zzzz qqqq") in probe.text_of(app.root, "rules-none")
    # the search is kept when the table looks at another game
    probe.tap(app.root, "rules-game-stupide-vautour")
    assert shown(app) == [] and app.here.params["game"] == "stupide-vautour"


FAKE = (RuleSpec("HS-BID-RAISE", "auction", refusal=True),
        RuleSpec("HS-FREE-CARD", "auction", ruling=True),
        RuleSpec("HS-POOREST", "end", variant="final_tie"),
        RuleSpec("HS-NO-ROUND", "auction", refusal=True))


def test_declared_specs_give_sections_in_order_rule_or_ruling_and_the_variant(app, monkeypatch):
    from dataclasses import replace

    from models.games import SPEC_OF

    monkeypatch.setitem(SPEC_OF, "animalement-votre", replace(SPEC_OF["animalement-votre"], rule_specs=FAKE))
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, "rules-game-animalement-votre")
    # sections in the order they first appear; rules in the engine's order within each
    assert shown(app) == ["HS-BID-RAISE", "HS-FREE-CARD", "HS-NO-ROUND", "HS-POOREST"]
    idents = probe.idents(app.root)
    assert idents.index("rules-section-auction") < idents.index("rules-section-end")
    assert fr("app.rules.kind.rule") in probe.text_of(app.root, "rule-kind-HS-BID-RAISE")
    assert fr("app.rules.kind.ruling") in probe.text_of(app.root, "rule-kind-HS-FREE-CARD")
    assert fr("app.rules.variant", variant=fr("variant.animalement-votre.final_tie")) in \
        probe.text_of(app.root, "rule-variant-HS-POOREST")
    assert not probe.has(app.root, "rule-variant-HS-BID-RAISE")
    # a section without a heading in the catalogues shows its id rather than nothing
    for section in ("auction", "end"):
        key = screen.heading_key("animalement-votre", section, "fr")
        expected = fr(key) if key else section
        assert expected in probe.text_of(app.root, f"rules-section-{section}")


def test_without_specs_one_section_holds_the_plain_rule_ids(app, monkeypatch):
    from dataclasses import replace

    from models.games import SPEC_OF

    cls = engine_class("stupide-vautour")
    monkeypatch.setitem(SPEC_OF, "stupide-vautour", replace(SPEC_OF["stupide-vautour"], rule_specs=()))
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, "rules-game-stupide-vautour")
    assert shown(app) == list(cls.rules)
    assert fr("app.rules.section_all") in probe.text_of(app.root, "rules-section-all")
    assert not [i for i in probe.idents(app.root) if i.startswith("rule-kind-")]


@pytest.mark.parametrize("game", refereed_games())
def test_every_declared_section_has_a_heading_in_both_languages(game):
    """Fails as soon as an engine declares a section that the catalogues do not name."""
    for spec in engine_class(game).rule_specs:
        for lang in LANGUAGES:
            assert screen.heading_key(game, spec.section, lang) is not None, (game, spec.section, lang)
            assert has_text(f"rule.{spec.id}.title", lang)


def test_the_table_opens_its_own_games_rules(service, tmp_path):
    state = service.start("boursicocotte", ["Anne", "Bruno", "Chloé"])
    app = App(service, None, export_dir=tmp_path / "exports")
    app.go("table", session_id=state.session_id)
    probe.tap(app.root, "table-rules")
    assert app.here.screen == "rules" and app.here.params["game"] == "boursicocotte"
    assert probe.find(app.root, "rules-game-boursicocotte").selected is True
    assert set(shown(app)) == set(engine_class("boursicocotte").rules)
    probe.tap(app.root, "nav-back")
    assert app.here.screen == "table"


def test_animalement_votre_rules_speak_of_animals_and_are_found_by_its_words(app):
    """The rules reference of Animalement Vôtre is written in its own words (the catalogue's
    ``@animalement-votre`` texts), searched in them too; High Society's keeps its possessions and theft."""
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, "rules-game-animalement-votre")
    animals = probe.text_of(app.root, "rule-HS-DISCARD-REQUIRED")
    assert fr("rule.HS-DISCARD-REQUIRED.title@animalement-votre") in animals
    assert "malade comme un chien" in animals and "vol" not in animals.split(), animals
    probe.type_into(app.root, "rules-search", "malade chien")  # its words find its rules
    assert "HS-DISCARD-REQUIRED" in shown(app) and "HS-BID-RAISE" not in shown(app)
    probe.type_into(app.root, "rules-search", "")
    probe.tap(app.root, "rules-game-high-society")
    possessions = probe.text_of(app.root, "rule-HS-DISCARD-REQUIRED")
    assert fr("rule.HS-DISCARD-REQUIRED.title") in possessions and "malade" not in possessions


# The first four games, as their rulebooks have them: (game, rule ids shown as the rulebook's rule,
# rule ids shown as the app's ruling, house variants {key: value} badged as departing from it).
AS_THE_RULEBOOKS_HAVE_THEM = [
    ("high-society", ("HS-SCORE", "HS-POOREST", "HS-FINAL-TIE"), ("HS-SCORE-EXACT",), {"final_tie": "shared"}),
    ("animalement-votre", ("HS-SCORE", "HS-POOREST", "HS-FINAL-TIE", "HS-THEFT", "HS-AUCTION"),
     ("HS-SCORE-EXACT",), {"final_tie": "replay"}),
    ("stupide-vautour", ("SV-TIES", "SV-END"), ("SV-END-TIE",), {"ties": "highest-unique"}),
    ("boursicocotte", ("BC-OVERPAY", "BC-TRADE-TIE", "BC-CAN-PAY"), ("BC-OFFER-EMPTY",),
     {"payment": "any", "trade_tie": "returned"}),
]


@pytest.mark.parametrize("game, rules, rulings, house", AS_THE_RULEBOOKS_HAVE_THEM, ids=lambda x: str(x)[:24])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_four_games_label_rules_rulings_and_house_variants_as_their_rulebooks(app, game, rules, rulings,
                                                                                         house, lang):
    app.lang = lang
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, f"rules-game-{game}")
    for rule in rules:
        assert Msg("app.rules.kind.rule").render(lang) in probe.text_of(app.root, f"rule-kind-{rule}"), rule
    for rule in rulings:
        assert Msg("app.rules.kind.ruling").render(lang) in probe.text_of(app.root, f"rule-kind-{rule}"), rule
    badged = {i for i in probe.idents(app.root) if i.startswith(f"rules-house-{game}-")}
    assert badged == {f"rules-house-{game}-{key}-{value}" for key, value in house.items()}
    for key, value in house.items():
        line = probe.text_of(app.root, f"rules-variant-{game}-{key}-{value}")
        assert Msg("app.rules.kind.house").render(lang) in line
        assert Msg("app.setup.variant_default").render(lang) not in line  # a house variant is never the default


@pytest.mark.parametrize("game, query, rule", [
    ("high-society", "scandale", "HS-SCORE"), ("high-society", "Scandales", "HS-END"),
    ("high-society", "dette", "HS-SCORE"), ("high-society", "dettes de jeux", "HS-MISFORTUNE"),
    ("high-society", "moitié", "HS-SCORE"), ("high-society", "moitie", "HS-SCORE-EXACT"),
    ("boursicocotte", "zéro", "BC-BID-POSITIVE"), ("boursicocotte", "ZERO", "BC-BID-POSITIVE"),
    ("stupide-vautour", "dernière", "SV-GAME-OVER"), ("stupide-vautour", "Dernieres manches", "SV-CARRY"),
    ("stupide-vautour", "15e", "SV-GAME-OVER"), ("stupide-vautour", "suricates", "SV-AWARD"),
])
def test_the_search_knows_the_rulebooks_words_with_or_without_accents_singular_or_plural(app, game, query, rule):
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, f"rules-game-{game}")
    probe.type_into(app.root, "rules-search", query)
    assert rule in shown(app), (query, shown(app))


def test_a_search_that_finds_nothing_here_names_the_games_that_hold_the_word_one_tap_away(app):
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, "rules-game-high-society")
    probe.type_into(app.root, "rules-search", "vautour")
    assert shown(app) == [] and probe.has(app.root, "rules-none")
    others = screen.elsewhere(app, "high-society", "vautour")
    assert "stupide-vautour" in [g for g, _ in others] and "high-society" not in [g for g, _ in others]
    assert fr("app.rules.elsewhere", query="vautour") in probe.text_of(app.root, "rules-elsewhere")
    count = dict(others)["stupide-vautour"]
    assert fr("app.rules.elsewhere_game", game=fr("game.stupide-vautour.name"), count=count) in \
        probe.text_of(app.root, "rules-elsewhere-stupide-vautour")
    probe.tap(app.root, "rules-elsewhere-stupide-vautour")  # one tap: that game's rules, the search kept
    assert app.here.params["game"] == "stupide-vautour" and app.here.params["query"] == "vautour"
    assert shown(app) and not probe.has(app.root, "rules-elsewhere")
    probe.type_into(app.root, "rules-search", "zzzz qqqq")  # nowhere: nothing to offer
    assert probe.has(app.root, "rules-none") and not probe.has(app.root, "rules-elsewhere")


ADDS_RULING = [(game, spec.id) for game in refereed_games() for spec in engine_class(game).rule_specs
               if spec.adds_ruling]


@pytest.mark.parametrize("game, rule", ADDS_RULING)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_rule_that_adds_a_ruling_shows_the_two_parts_under_their_own_labels(app, game, rule, lang):
    """The rulebook's part under « Règle du jeu », the app's part under « Arbitrage de l'app »; a
    refusal or a "why?" quoting the rule gives both, the ruling under its label."""
    app.lang = lang
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, f"rules-game-{game}")
    said = Msg("app.rules.kind.rule").render(lang), Msg("app.rules.kind.ruling").render(lang)
    assert said[0] in probe.text_of(app.root, f"rule-kind-{rule}") and said[1] not in probe.text_of(app.root, f"rule-kind-{rule}")
    part = probe.text_of(app.root, f"rule-ruling-{rule}")
    assert said[1] in probe.text_of(app.root, f"rule-ruling-kind-{rule}")
    assert Msg(f"rule.{rule}.ruling").render(lang) in part and Msg(f"rule.{rule}.text").render(lang) not in part
    assert screen.rule_paragraphs(app, rule) == [
        Msg(f"rule.{rule}.text").render(lang),
        Msg("app.rules.ruling_part", {"kind": said[1], "text": Msg(f"rule.{rule}.ruling")}).render(lang)]
    probe.type_into(app.root, "rules-search", Msg(f"rule.{rule}.ruling").render(lang).split(".")[0])
    assert rule in shown(app)  # its ruling's words find it


def test_a_rule_without_a_ruling_part_is_quoted_by_its_text_alone(app):
    assert screen.rule_paragraphs(app, "HS-BID-RAISE") == [fr("rule.HS-BID-RAISE.text")]
    assert not probe.has(app.root, "rule-ruling-HS-BID-RAISE")


def test_stupide_vautours_french_rules_screen_names_its_tie_variants_in_french(app):
    probe.tap(app.root, "home-rules")
    probe.tap(app.root, "rules-game-stupide-vautour")
    words = " ".join(probe.text_of(app.root, i) for i in probe.idents(app.root) if i.startswith("rules-"))
    assert "one-level" not in words and "highest-unique" not in words
    assert "« Valeur unique »" in probe.text_of(app.root, "rule-SV-TIES")
