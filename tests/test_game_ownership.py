"""What a game owns: the files docs/architecture.md lists (read from there), and nothing else in
companion/, models/ or scoring/ names a game id or imports a game's module — adding a game is its
own files plus its line in ``models.games.SPECS``."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest

from models.games import SPECS
from models.i18n import LANGUAGES, has_text

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
REGISTRY = "models/games/__init__.py"


def owned_patterns() -> list[str]:
    """The globs of the doc's list of owned files (``<game>``, ``<game-id>`` to fill in)."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- owned files[^>]*-->\n(.*?)<!-- end of owned files -->", text, re.S)
    assert found, "docs/architecture.md lost its list of the files a game owns"
    patterns = re.findall(r"`([^`]*<game[^`]*)`", found.group(1))
    assert patterns
    return patterns


def module_of(spec) -> str:
    """The module name every file of the game is named after (its engine's)."""
    return spec.engine.partition(":")[0].rpartition(".")[2]


def owned_files(spec) -> set[str]:
    files: set[str] = set()
    for pattern in owned_patterns():
        glob = pattern.replace("<game-id>", spec.id).replace("<game>", module_of(spec))
        files |= {str(path.relative_to(ROOT)) for path in ROOT.glob(glob)}
    return files


def test_the_doc_lists_the_spec_the_engine_and_the_screen():
    assert {"models/games/<game>.py", "scoring/<game>.py", "companion/app/games/<game>.py"} <= set(owned_patterns())


def test_the_doc_lists_the_action_models_and_their_structs():
    assert {"models/games/<game>_actions.py", "models/games/<game>_structs.py"} <= set(owned_patterns())


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_a_games_action_models_and_structs_are_in_its_own_files(spec):
    """The modules the spec names hold its action union and its record, pydantic and msgspec alike."""
    game = module_of(spec)
    assert spec.action_models == f"models.games.{game}_actions"
    assert spec.action_structs == f"models.games.{game}_structs"
    from models import record_models, structs

    assert record_models.ACTION_TYPES[spec.id] is getattr(import_module(spec.action_models), spec.actions)
    assert record_models.RECORD_MODELS[spec.id].__name__ == spec.record_model
    structs_module = import_module(spec.action_structs)
    assert structs.ACTION_STRUCTS[spec.id] is getattr(structs_module, spec.actions)
    assert structs.RECORD_STRUCTS[spec.id] is getattr(structs_module, spec.record_model)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_every_game_has_the_files_it_owns_and_its_rule_texts(spec):
    game = module_of(spec)
    for pattern in owned_patterns():
        glob = pattern.replace("<game-id>", spec.id).replace("<game>", game)
        if "_*" not in glob:  # the engine's helper modules are optional
            assert list(ROOT.glob(glob)), f"{spec.id}: no {glob}"
    assert spec in vars(import_module(f"models.games.{game}")).values()
    assert spec.screen == f"companion.app.games.{game}"
    engine = getattr(import_module(f"scoring.{game}"), spec.engine.partition(":")[2])
    assert spec.id in engine.games and engine.rule_specs == spec.rule_specs and engine.variants == spec.variants
    for rule in spec.rule_specs:
        assert rule.id.startswith(spec.rule_prefix)
        for lang in LANGUAGES:
            assert has_text(f"rule.{rule.id}.title", lang) and has_text(f"rule.{rule.id}.text", lang), (rule.id, lang)


def test_no_other_module_names_a_game():
    """A quoted game id, or an import of a game's module (``scoring.<game>``, ``models.games.<game>``,
    ``companion.app.games.<game>``), only in that game's own files (the registry's imports aside)."""
    owner: dict[str, set[str]] = {}
    for spec in SPECS:
        for path in owned_files(spec):
            owner.setdefault(path, set()).add(module_of(spec))
    games = {module_of(spec) for spec in SPECS}
    named = {spec.id: module_of(spec) for spec in SPECS}
    quoted = re.compile("[\"'](" + "|".join(map(re.escape, named)) + ")[\"']")
    imported = re.compile(r"\b(?:scoring|models\.games|companion\.app\.games)\.(" + "|".join(games) + r")(?:_\w+)?\b")
    found = []
    for folder in ("companion", "models", "scoring"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            mine = owner.get(where, set())
            text = path.read_text(encoding="utf-8")
            for match in quoted.finditer(text):
                if named[match.group(1)] not in mine:
                    found.append(f"{where}: {match.group()}")
            if where != REGISTRY:
                for match in imported.finditer(text):
                    if match.group(1) not in mine:
                        found.append(f"{where}: {match.group()}")
    assert found == []


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_every_game_is_offered_with_the_screen_its_spec_names(spec):
    from companion.app.games import playable_games, screen_for

    assert spec.id in playable_games()
    assert screen_for(spec.id) is import_module(spec.screen).SCREEN
