"""What a game owns: the files docs/architecture.md lists (read from there), and nothing else in
companion/, models/ or scoring/ names a game id or imports a game's module — adding a game is its
own files plus its line in ``models.games.SPECS``. A game registered from outside the app
(``COMPANION_GAMES``: the tests' High card) owns the same files by role in its own package (the doc's
second list), and the app imports none of it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

from models.games import OWN, SPECS
from models.i18n import LANGUAGES, has_text

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
REGISTRY = "models/games/__init__.py"
INSIDE, OUTSIDE = "owned files", "owned files outside the app"


def owned_patterns(which: str = INSIDE) -> list[str]:
    """The globs of one of the doc's lists of owned files (``<game>``, ``<game-id>``, ``<lang>``,
    ``<package>`` to fill in)."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {which} \(read by[^>]*-->\n(.*?)<!-- end of {which} -->", text, re.S)
    assert found, f"docs/architecture.md lost its list of the {which}"
    patterns = re.findall(r"`([^`]*<(?:game|package)[^`]*)`", found.group(1))
    assert patterns
    return patterns


def outside(spec) -> bool:
    """A game registered from outside the app (its package named in COMPANION_GAMES)."""
    return spec not in OWN


def package_of(spec) -> str:
    """An outside game's package (``tests.high_card``): its engine's module's."""
    return spec.engine.partition(":")[0].rpartition(".")[0]


def module_of(spec) -> str:
    """The module name every file of the game is named after (its engine's; an outside game's package's)."""
    return (package_of(spec) if outside(spec) else spec.engine.partition(":")[0]).rpartition(".")[2]


def globs(spec) -> list[str]:
    """The game's owned files as globs, one a language where a file is per language."""
    found = []
    for pattern in owned_patterns(OUTSIDE if outside(spec) else INSIDE):
        # an edition served by another game's engine keeps its texts in that game's file
        texts_of = next(other.id for other in SPECS if other.engine == spec.engine)
        pattern = pattern.replace("<game-id>", texts_of if "/i18n/" in pattern else spec.id)
        pattern = pattern.replace("<game>", module_of(spec))
        if outside(spec):
            pattern = pattern.replace("<package>", package_of(spec).replace(".", "/"))
        found += [pattern.replace("<lang>", lang) for lang in LANGUAGES] if "<lang>" in pattern else [pattern]
    return found


def owned_files(spec) -> set[str]:
    return {str(path.relative_to(ROOT)) for glob in globs(spec) for path in ROOT.glob(glob)}


def test_the_doc_lists_the_spec_the_engine_and_the_screen():
    assert {"models/games/<game>.py", "scoring/<game>.py", "companion/app/games/<game>.py"} <= set(owned_patterns())


def test_the_doc_lists_the_action_models_and_their_structs():
    assert {"models/games/<game>_actions.py", "models/games/<game>_structs.py"} <= set(owned_patterns())


def test_the_doc_lists_an_outside_games_files_by_the_same_roles():
    assert {"<package>/__init__.py", "<package>/spec.py", "<package>/actions.py", "<package>/structs.py",
            "<package>/engine.py", "<package>/screen.py", "<package>/i18n/<lang>/<game-id>.json",
            "tests/test_<game>.py"} <= set(owned_patterns(OUTSIDE))


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_a_games_action_models_and_structs_are_in_its_own_files(spec):
    """The modules the spec names hold its action union and its record, pydantic and msgspec alike."""
    game = module_of(spec)
    if outside(spec):
        assert (spec.action_models, spec.action_structs) == (f"{package_of(spec)}.actions", f"{package_of(spec)}.structs")
    else:
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
    for glob in globs(spec):
        if "_*" not in glob:  # the engine's helper modules are optional
            assert list(ROOT.glob(glob)), f"{spec.id}: no {glob}"
    if outside(spec):
        package = package_of(spec)
        assert spec in import_module(package).SPECS and spec in vars(import_module(f"{package}.spec")).values()
        assert spec.screen == f"{package}.screen"
        engine_module = f"{package}.engine"
    else:
        game = module_of(spec)
        assert spec in vars(import_module(f"models.games.{game}")).values()
        assert spec.screen == f"companion.app.games.{game}"
        engine_module = f"scoring.{game}"
    engine = getattr(import_module(engine_module), spec.engine.partition(":")[2])
    assert spec.id in engine.games and engine.rule_specs == spec.rule_specs and engine.variants == spec.variants
    for rule in spec.rule_specs:
        assert rule.id.startswith(spec.rule_prefix)
        for lang in LANGUAGES:
            assert has_text(f"rule.{rule.id}.title", lang) and has_text(f"rule.{rule.id}.text", lang), (rule.id, lang)


def test_the_app_has_only_its_own_games_without_the_variable():
    """The tests' game is registered by COMPANION_GAMES alone (tests/conftest.py): without it the app
    lists its own games, and no module of the app imports the tests."""
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_GAMES"}
    done = subprocess.run([sys.executable, "-c", "from models.games import GAMES; print(' '.join(GAMES))"],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == [spec.id for spec in OWN]
    assert [spec for spec in SPECS if outside(spec)], "the tests' game is not registered (tests/conftest.py)"
    shipped = [path for folder in ("companion", "models", "scoring") for path in (ROOT / folder).rglob("*.py")
               if re.search(r"^\s*(from|import) tests\b", path.read_text(encoding="utf-8"), re.M)]
    assert shipped == []
    import tomllib

    packaged = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    assert not any(name.startswith("tests") for name in packaged["find"]["include"])  # the package ships no test


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


HIDDEN = re.compile(r"^## Hidden information.*?\n\| game \|.*?\n\n", re.S | re.M)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.id)
def test_a_game_has_its_row_of_hidden_information_its_vocabulary_and_its_readme_line_if_the_app_ships_it(spec):
    """docs/architecture.md's hidden-information table names every game (by its English name); the
    format's §4 (docs/table-record.md) and the README's games table name each game the app ships, and
    not a game registered from outside it."""
    from models.i18n import text

    table = HIDDEN.search(DOC.read_text(encoding="utf-8"))
    assert table, "docs/architecture.md lost its hidden-information table"
    names = [line.split("|")[1] for line in table.group().splitlines() if line.startswith("| ")]
    name = text(f"game.{spec.id}.name", "en").split(" (")[0]  # « Monte & descend (AMIGO, 1998) »
    assert any(name in cell for cell in names), spec.id
    vocabulary = re.search(rf"^### 4\.\d+ .*`{re.escape(spec.id)}`", (ROOT / "docs" / "table-record.md")
                           .read_text(encoding="utf-8"), re.M)
    readme = re.search(rf"^\| `{re.escape(spec.id)}` \|", (ROOT / "README.md").read_text(encoding="utf-8"), re.M)
    assert (vocabulary is not None, readme is not None) == ((False, False) if outside(spec) else (True, True))
