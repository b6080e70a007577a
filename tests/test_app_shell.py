"""The app's shell and its first screens, built without a browser against the real service on a
temporary database: language, theme, navigation, errors shown as sentences, home, new game."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app import probe
from companion.app.games import SCREENS, playable_games
from companion.app.screens.setup import variant_choices
from companion.app.shell import App
from companion.service import SessionService
from companion.store import Store
from models.i18n import Msg
from models.record import PLAYER_COUNTS
from scoring.registry import engine_class


def fr(key: str, **params) -> str:
    return Msg(key, params).render("fr")


def en(key: str, **params) -> str:
    return Msg(key, params).render("en")


@pytest.fixture
def service(tmp_path: Path) -> SessionService:
    return SessionService(Store(tmp_path / "app.db"))


@pytest.fixture
def app(service: SessionService, tmp_path: Path) -> App:
    app = App(service, None, export_dir=tmp_path / "exports")
    app.render()
    return app


# -- language, theme, navigation ----------------------------------------------------------------


def test_french_by_default_and_english_on_demand(app):
    assert probe.text_of(app.root, "screen-title") == fr("app.name")
    assert fr("app.home.new_game") in probe.text_of(app.root, "home-new")
    probe.tap(app.root, "lang-switch")
    assert app.lang == "en"
    assert probe.text_of(app.root, "screen-title") == en("app.name")
    assert en("app.home.new_game") in probe.text_of(app.root, "home-new")
    probe.tap(app.root, "lang-switch")
    assert app.lang == "fr"


def test_light_and_dark_theme_toggle(app):
    assert app.dark is False
    probe.tap(app.root, "theme-switch")
    assert app.dark is True
    assert probe.find(app.root, "theme-switch").content.tooltip == fr("app.theme.light")
    probe.tap(app.root, "theme-switch")
    assert app.dark is False


def test_navigation_back_and_home(app):
    assert not probe.has(app.root, "nav-back")  # home has nowhere to go back to
    probe.tap(app.root, "home-history")
    assert app.here.screen == "history"
    probe.tap(app.root, "nav-back")
    assert app.here.screen == "home"
    for target, screen in [("home-players", "players"), ("home-rules", "rules"), ("home-stats", "stats"),
                           ("home-new", "setup")]:
        probe.tap(app.root, target)
        assert app.here.screen == screen
        assert probe.has(app.root, "nav-home")
        probe.tap(app.root, "nav-home")
        assert [p.screen for p in app.stack] == ["home"]


def test_touch_targets_are_big(app):

    for ident in ("home-new", "home-history", "home-players", "home-stats", "home-rules", "lang-switch",
                  "theme-switch"):
        control = probe.find(app.root, ident).content
        assert (control.height or 0) >= 64, ident


def test_a_service_error_becomes_a_sentence_not_a_crash(app, service):
    probe.tap(app.root, "home-players")
    probe.type_into(app.root, "player-name", "   ")
    probe.tap(app.root, "player-add")
    assert fr("app.players.name_empty") in probe.text_of(app.root, "notice")
    service.add_player("Zoé")
    probe.type_into(app.root, "player-name", "Zoé")
    probe.tap(app.root, "player-add")  # the service refuses a duplicate: its sentence is shown
    assert fr("service.player.duplicate", name="Zoé") in probe.text_of(app.root, "notice")
    assert [p.name for p in service.players()] == ["Zoé"]


def test_a_broken_screen_says_so_and_offers_the_way_home(app, service):
    app.go("table", session_id=999)  # no such session: the service's sentence, and a way home
    assert probe.has(app.root, "screen-error")
    assert fr("service.session.unknown", session=999) in probe.text_of(app.root, "screen-error")
    probe.tap(app.root, "go-home")
    assert app.here.screen == "home"


# -- home -----------------------------------------------------------------------------------------


def test_home_lists_every_unfinished_game_and_resumes_one(app, service):
    assert probe.has(app.root, "home-no-unfinished")
    first = service.start("high-society", ["Anne", "Bruno", "Chloé"])
    second = service.start("high-society", ["Lou", "Marc", "Nina", "Omar"])
    service.submit(second.session_id, {"type": "reveal", "card": "p3"})
    app.render()
    assert fr("app.home.unfinished", count=2) in probe.text_of(app.root, "home-unfinished-title")
    assert "Lou, Marc, Nina et Omar" in probe.text_of(app.root, f"resume-{second.session_id}")
    assert probe.has(app.root, f"resume-{first.session_id}")
    probe.tap(app.root, f"resume-{second.session_id}")
    assert app.here.screen == "table" and app.here.params == {"session_id": second.session_id}
    assert "Lou" in probe.text_of(app.root, "prompt")


# -- new game -------------------------------------------------------------------------------------


def test_only_games_with_an_engine_and_a_table_screen_are_offered(app):
    probe.tap(app.root, "home-new")
    offered = sorted(i[len("game-"):] for i in probe.idents(app.root) if i.startswith("game-"))
    assert offered == sorted(playable_games())
    for game in offered:
        assert engine_class(game) is not None and game in SCREENS
    assert "high-society" in offered
    assert "animalia" in offered
    assert "monte-descend" in offered


def test_each_variant_is_explained_in_one_line_with_the_editions_default(app):
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-animalement-votre")
    (key, values, default), = variant_choices("animalement-votre")
    assert (key, default) == ("final_tie", "shared")
    for value in values:
        line = probe.text_of(app.root, f"variant-{key}-{value}")
        assert fr(f"variant.animalement-votre.{key}.{value}") in line
        assert (fr("app.setup.variant_default") in line) == (value == default)
    assert probe.find(app.root, "variant-final_tie-shared").selected is True


def test_new_game_with_new_players_seating_first_player_variant_and_assist(app, service):
    service.add_player("Anne")
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-high-society")
    probe.tap(app.root, "variant-final_tie-shared")
    probe.tap(app.root, "profile-Anne")
    for name in ("Bruno", "Chloé", "David"):
        probe.type_into(app.root, "new-player-name", name)
        probe.tap(app.root, "new-player-add")
    assert {p.name for p in service.players()} == {"Anne", "Bruno", "Chloé", "David"}
    assert [probe.text_of(app.root, f"seat-{i}") for i in range(4)] == ["Anne", "Bruno", "Chloé", "David"]
    probe.tap(app.root, "seat-up-David")           # David sits between Bruno and Chloé
    assert [probe.text_of(app.root, f"seat-{i}") for i in range(4)] == ["Anne", "Bruno", "David", "Chloé"]
    assert not probe.is_enabled(app.root, "seat-up-Anne")
    probe.tap(app.root, "first-Bruno")
    probe.switch(app.root, "assist-switch", True)
    assert fr("app.setup.assist_on.high-society") in probe.text_of(app.root, "setup-options")
    probe.tap(app.root, "setup-start")

    assert app.here.screen == "table"
    state = service.open(app.here.params["session_id"])
    assert state.players == ("Anne", "Bruno", "David", "Chloé")
    assert state.first_player == "Bruno"
    assert state.assist is True
    assert state.variant == {"final_tie": "shared"}
    assert "Bruno" in probe.text_of(app.root, "prompt")
    assert "setup" not in app.drafts  # a later new game starts afresh


def test_a_new_player_can_be_added_by_pressing_enter_and_is_not_added_twice(app, service):
    probe.tap(app.root, "home-new")
    probe.type_into(app.root, "new-player-name", "  Inès ", submit=True)
    assert [p.name for p in service.players()] == ["Inès"]
    assert probe.has(app.root, "seat-remove-Inès")
    probe.type_into(app.root, "new-player-name", "Inès")
    probe.tap(app.root, "new-player-add")  # already saved: just seated, no error, no duplicate
    assert [p.name for p in service.players()] == ["Inès"]
    assert not probe.has(app.root, "notice")
    probe.tap(app.root, "seat-remove-Inès")
    assert not probe.has(app.root, "seat-remove-Inès")


def test_too_few_players_is_refused_with_a_sentence_and_nothing_starts(app, service):
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-high-society")
    for name in ("Anne", "Bruno"):
        probe.type_into(app.root, "new-player-name", name)
        probe.tap(app.root, "new-player-add")
    low, high = PLAYER_COUNTS["high-society"]
    assert fr("app.setup.player_count", count=2, low=low, high=high) in probe.text_of(app.root, "setup-count")
    probe.tap(app.root, "setup-start")
    assert app.here.screen == "setup"
    notice = probe.text_of(app.root, "notice")
    assert fr("app.setup.fix.too_few", game="High Society", low=low, high=high, count=2) in notice
    assert "high-society" not in notice and "players" not in notice  # no game id, no field name
    assert service.history.unfinished() == [] and service.history.all() == []


def test_no_game_chosen_is_said_plainly(app, service):
    if len(playable_games()) == 1:
        pytest.skip("a single game is chosen by default")
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "setup-start")
    assert fr("app.setup.pick_game") in probe.text_of(app.root, "notice")


def test_language_and_theme_are_remembered_beside_the_database(service, tmp_path):
    settings = tmp_path / "settings.json"
    first = App(service, None, settings_path=settings)
    first.render()
    probe.tap(first.root, "lang-switch")
    probe.tap(first.root, "theme-switch")
    again = App(service, None, settings_path=settings)  # another tab, or after a restart
    again.render()
    assert (again.lang, again.dark) == ("en", True)
    assert probe.text_of(again.root, "screen-title") == en("app.name")
    settings.write_text("{not json", encoding="utf-8")
    assert (App(service, None, settings_path=settings).lang) == "fr"  # damaged file: defaults


def test_flutter_s_own_words_follow_the_table_s_language(service, tmp_path):
    """Flutter's own texts (a text field's « 40 caractères restants », its menus' labels) are in
    the page's locale: French first, English after the switch, never Flutter's English default."""
    from types import SimpleNamespace

    page = SimpleNamespace(controls=[], update=lambda: None, width=1280, height=800)
    app = App(service, page, settings_path=tmp_path / "settings.json")  # type: ignore[arg-type]
    config = page.locale_configuration
    assert config.current_locale.language_code == "fr"
    assert {loc.language_code for loc in config.supported_locales} == {"fr", "en"}
    app.set_lang("en")
    assert page.locale_configuration.current_locale.language_code == "en"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_playable_game_says_what_assist_means_for_it(lang):
    from companion.app.games import playable_games
    from models.i18n import catalogue

    keys = catalogue(lang)
    for game in playable_games():
        for key in ("app.setup.assist", "app.setup.assist_on", "app.setup.assist_off"):
            assert f"{key}.{game}" in keys, (lang, game, key)


def test_assist_wording_follows_the_game(app):
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-stupide-vautour")
    assert fr("app.setup.assist_off.stupide-vautour") in probe.text_of(app.root, "setup-options")
    probe.tap(app.root, "game-boursicocotte")
    assert fr("app.setup.assist.boursicocotte") in probe.text_of(app.root, "setup-options")


# -- Boursicocotte's short version ---------------------------------------------------------------


def _seat(app, names):
    for name in names:
        probe.type_into(app.root, "new-player-name", name)
        probe.tap(app.root, "new-player-add")


def _deal(app, animals):
    for kind in animals:
        probe.tap(app.root, f"deal-animal-{kind}")


def test_only_a_game_with_a_dealt_start_offers_the_short_version(app):
    from companion.app.screens.setup import deal_choices
    from scoring.boursicocotte import ANIMALS

    assert deal_choices("boursicocotte") == ANIMALS
    assert deal_choices("high-society") == deal_choices("stupide-vautour") == ()
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-high-society")
    assert not probe.has(app.root, "setup-short")
    probe.tap(app.root, "game-boursicocotte")
    assert fr("app.setup.short_off") in probe.text_of(app.root, "setup-short")
    assert not probe.has(app.root, "deal-animal-cow")  # off: the full game, nothing to deal
    probe.switch(app.root, "short-switch", True)
    assert fr("app.setup.deal_no_players") in probe.text_of(app.root, "setup-short")


def test_a_short_game_is_dealt_by_taps_and_starts_with_those_animals(app, service):
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-boursicocotte")
    _seat(app, ["Anne", "Bruno", "Chloé"])
    probe.switch(app.root, "short-switch", True)
    assert fr("app.setup.short_on") in probe.text_of(app.root, "setup-short")
    assert fr("app.setup.deal_to", player="Anne") in probe.text_of(app.root, "deal-to")

    _deal(app, ["cow", "cow", "hen", "dog"])  # Anne's four: the next taps go to Bruno
    assert fr("app.setup.deal_count", count=4, each=4) in probe.text_of(app.root, "deal-count-Anne")
    assert fr("app.setup.deal_to", player="Bruno") in probe.text_of(app.root, "deal-to")
    _deal(app, ["cow", "pig", "hen", "hen"])
    assert fr("app.bc.left", n=1) in probe.text_of(app.root, "deal-animal-cow")  # 3 of the 4 cows dealt
    probe.tap(app.root, "deal-remove-Bruno-3")  # the second hen goes back: Bruno is dealt to again
    assert not probe.has(app.root, "deal-remove-Bruno-3")
    assert fr("app.setup.deal_count", count=3, each=4) in probe.text_of(app.root, "deal-count-Bruno")
    assert fr("app.setup.deal_to", player="Bruno") in probe.text_of(app.root, "deal-to")
    _deal(app, ["cat"])
    _deal(app, ["goat", "goat", "cow"])  # Chloé: the fourth cow, one place still free
    assert not probe.is_enabled(app.root, "deal-animal-cow")  # all four cows are dealt
    assert probe.is_enabled(app.root, "deal-animal-horse")
    probe.tap(app.root, "deal-remove-Chloé-2")  # the cow goes back
    _deal(app, ["goat", "donkey"])
    assert fr("app.setup.deal_count", count=4, each=4) in probe.text_of(app.root, "deal-count-Chloé")
    assert not probe.is_enabled(app.root, "deal-animal-horse")  # everyone has four: nothing more to deal
    probe.tap(app.root, "deal-player-Anne")
    assert not probe.is_enabled(app.root, "deal-animal-horse")  # Anne has four already
    assert (probe.find(app.root, "deal-remove-Anne-0").content.height or 0) >= 64
    probe.tap(app.root, "setup-start")

    assert app.here.screen == "table"
    state = service.open(app.here.params["session_id"])
    assert state.record.start_animals == {"Anne": ["cow", "cow", "hen", "dog"], "Bruno": ["cow", "pig", "hen", "cat"],
                                          "Chloé": ["goat", "goat", "goat", "donkey"]}
    assert fr("app.bc.animal_count", animal="Vache", n=2) in probe.text_of(app.root, "bc-animals-Anne")
    assert fr("app.bc.animal_count", animal="Chèvre", n=3) in probe.text_of(app.root, "bc-animals-Chloé")
    assert fr("app.bc.animal_count", animal="Âne", n=1) in probe.text_of(app.root, "bc-animals-Chloé")
    assert fr("bc.setup.dealt", count=12) in probe.text_of(app.root, "bc-table")
    assert "setup" not in app.drafts


def test_an_incomplete_deal_is_refused_with_a_sentence_and_nothing_starts(app, service):
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-boursicocotte")
    _seat(app, ["Anne", "Bruno", "Chloé"])
    probe.switch(app.root, "short-switch", True)
    _deal(app, ["cow", "cow", "hen"])  # Anne gets three, nobody else any
    probe.tap(app.root, "setup-start")
    assert app.here.screen == "setup"
    notice = probe.text_of(app.root, "notice")
    assert fr("app.setup.fix.start_count", name="Anne", count=3) in notice
    assert "start_animals" not in notice
    assert service.history.all() == []
    assert probe.text_of(app.root, "deal-Anne")  # the deal is still there, to finish it
    probe.switch(app.root, "short-switch", False)  # the full game after all: the deal is not sent
    probe.tap(app.root, "setup-start")
    assert service.open(app.here.params["session_id"]).record.start_animals is None


def test_too_many_players_and_an_over_dealt_animal_are_said_in_the_tables_words(app, service):
    from companion.app.screens.setup import what_to_fix
    from companion.service import Malformed

    for players, setup, expected in [
        (["A", "B", "C", "D", "E", "F"], None,
         fr("app.setup.fix.too_many", game="Boursicocotte", low=3, high=5, count=6)),
        (["A", "B", "C"], {"start_animals": {"A": ["cow"] * 4, "B": ["cow"] * 4, "C": ["hen"] * 4}},
         fr("app.setup.fix.start_too_many", animal=Msg("bc.animal.cow"))),
    ]:
        with pytest.raises(Malformed) as caught:
            service.start("boursicocotte", players, setup=setup)
        assert what_to_fix(app, "boursicocotte", caught.value) == expected
        assert "cow" not in expected and "boursicocotte" not in expected


def test_a_seated_player_is_renamed_or_removed_before_the_game_starts(app, service):
    probe.tap(app.root, "home-new")
    probe.tap(app.root, "game-stupide-vautour")
    _seat(app, ["Anne", "Brno", "Chloé"])
    probe.tap(app.root, "first-Brno")
    probe.tap(app.root, "seat-rename-Brno")
    probe.type_into(app.root, "seat-rename-field", "Chloé")
    probe.tap(app.root, "seat-rename-ok")     # a name already seated is refused, in words
    assert fr("app.setup.rename_taken", name="Chloé") in probe.text_of(app.root, "notice")
    probe.type_into(app.root, "seat-rename-field", "  ")
    probe.tap(app.root, "seat-rename-ok")
    assert fr("app.players.name_empty") in probe.text_of(app.root, "notice")
    probe.type_into(app.root, "seat-rename-field", "Bruno")
    probe.tap(app.root, "seat-rename-ok")
    assert [probe.text_of(app.root, f"seat-{i}").strip() for i in range(3)] == ["Anne", "Bruno", "Chloé"]
    assert probe.find(app.root, "first-Bruno").selected is True   # still the one who starts
    probe.tap(app.root, "seat-remove-Anne")
    assert not probe.has(app.root, "seat-remove-Anne")
    probe.tap(app.root, "setup-start")
    state = service.open(app.here.params["session_id"])
    assert list(state.players) == ["Bruno", "Chloé"]
    assert state.first_player == "Bruno"
