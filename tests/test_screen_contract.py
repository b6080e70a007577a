"""The screens' contract is declared, not guessed: every game's screen module declares ``SCREEN``,
an instance of the contract's base (``companion.app.games.GameScreenBase``: every optional hook
with its default; mypy checks each ``SCREEN`` against the ``GameScreen`` Protocol), the app's
screens are a registry that says what the shell must know of each (``steady``, ``scrolls``), and no
code asks a screen for a hook with getattr/hasattr."""

from __future__ import annotations

import ast
import inspect
from importlib import import_module
from pathlib import Path

import pytest

from companion.app.games import SCREENS as GAME_SCREENS
from companion.app.games import GameScreen, GameScreenBase, TableContext, TableState
from companion.app.screens import SCREENS, Screen

ROOT = Path(__file__).resolve().parent.parent
# every hook of the contract: the Protocol's members (its attributes and methods)
HOOKS = frozenset(name for name in vars(GameScreen) if not name.startswith("_")) | frozenset(
    GameScreen.__annotations__)
APP_HOOKS = frozenset({"build", "STEADY", "SCROLLS", "steady", "scrolls"})


def test_the_contract_names_every_hook_the_screens_use():
    assert {"build", "build_side", "side", "prompt", "table_log", "chapters", "build_setup", "correction_draft",
            "LANDSCAPE_SHARE", "PRIVATE_ENTRIES"} == HOOKS


@pytest.mark.parametrize("game", sorted(GAME_SCREENS))
def test_a_game_screen_module_declares_its_screen_with_every_hook(game):
    module = import_module(GAME_SCREENS[game])
    screen = module.SCREEN
    assert isinstance(screen, GameScreenBase)
    for hook in HOOKS:
        assert hasattr(screen, hook), (game, hook)  # the test's own look: what the contract requires
    assert type(screen).build is not GameScreenBase.build and screen.build is module.build
    # an optional hook the module defines is the one its screen gives
    for hook in ("build_side", "prompt", "table_log", "chapters", "build_setup", "correction_draft"):
        if hook in vars(module):
            assert getattr(screen, hook) is getattr(module, hook), (game, hook)
    assert screen.side == ("build_side" in vars(module))


def test_a_screen_without_build_cannot_be_made():
    class Incomplete(GameScreenBase):
        LANDSCAPE_SHARE = 9

    with pytest.raises(TypeError, match="build"):
        Incomplete()  # type: ignore[abstract]


def test_the_defaults_are_the_frames_former_ones():
    class Plain(GameScreenBase):
        @staticmethod
        def build(state: TableState, ctx: TableContext) -> object:
            return None

    plain = Plain()
    assert plain.LANDSCAPE_SHARE == 8 and plain.PRIVATE_ENTRIES == () and not plain.side
    assert plain.prompt(None, None) is None and plain.build_setup(None, None) is None  # type: ignore[arg-type]
    assert plain.build_side(None, None) is None and plain.chapters(None, []) == []  # type: ignore[arg-type]

    class Entry:
        events = ("a", "b")
    assert plain.table_log(None, [Entry()]) == [("a", "b")]  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(SCREENS))
def test_an_app_screen_module_has_its_build(name):
    screen = SCREENS[name]
    assert isinstance(screen, Screen)
    build = import_module(screen.module).build
    assert callable(build) and list(inspect.signature(build).parameters)[0] == "app"


def looked_up(source: str, hooks: frozenset[str]) -> list[tuple[int, str]]:
    """Where ``source`` asks an object for one of ``hooks`` by name: getattr/hasattr with the
    hook's name as a string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in hooks):
            found.append((node.lineno, node.args[1].value))
    return found


def test_the_scan_finds_a_hook_read_by_name():
    assert looked_up('share = getattr(game_screen, "LANDSCAPE_SHARE", 8)\nhasattr(m, "table_log")', HOOKS) == [
        (1, "LANDSCAPE_SHARE"), (2, "table_log")]
    assert looked_up('steady = getattr(screen, "STEADY", False)', APP_HOOKS) == [(1, "STEADY")]


def test_no_code_reads_a_screen_hook_with_getattr():
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        for line, hook in looked_up(path.read_text(encoding="utf-8"), HOOKS | APP_HOOKS):
            found.append(f"{path.relative_to(ROOT)}:{line}: {hook}")
    assert found == []
