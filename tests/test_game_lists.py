"""No list of the games in tests/ or benchmarks/ is written by hand: every one comes from the registry
(``models.games``: ``SPECS``, ``GAMES``, ``PLAYER_COUNTS``; ``refereed_games()``, ``SCREENS``…), so a
new game — the tests' High card first — is in each, or the list says why not.

A literal (a list, tuple or set, or the keys of a dict) that names at least half of the registered
games' ids is taken for a list of the games. It fails unless a comment holding ``games:`` stands on its
line or in the comment lines just above it, saying why it is written by hand (a subset on purpose,
each game's own facts that a test checks against the registry…). A few ids (one game's two editions,
an example or two) are not a list of the games."""

from __future__ import annotations

import ast
from pathlib import Path

from models.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tests", "benchmarks")
MARK = "games:"


def hand_written(text: str, games: tuple[str, ...] = GAMES) -> list[tuple[int, tuple[str, ...]]]:
    """(line, ids) of each literal of ``text`` that names at least half of ``games`` and says no reason."""
    if 2 * sum(f'"{game}"' in text or f"'{game}'" in text for game in games) < len(games):
        return []  # not enough ids quoted anywhere in the file: no literal can name half of them
    lines = text.splitlines()
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [key for key in node.keys if key is not None]
        else:
            continue
        named = tuple(dict.fromkeys(i.value for i in items if isinstance(i, ast.Constant) and i.value in games))
        if 2 * len(named) < len(games) or _says_why(lines, node.lineno):
            continue
        found.append((node.lineno, named))
    return found


def _says_why(lines: list[str], lineno: int) -> bool:
    """A ``games:`` comment on the literal's line, or in the comment lines right above it."""
    if MARK in lines[lineno - 1].partition("#")[2]:
        return True
    above = lineno - 2
    while above >= 0 and lines[above].lstrip().startswith("#"):
        if MARK in lines[above]:
            return True
        above -= 1
    return False


def test_no_list_of_the_games_is_written_by_hand():
    found = [f"{path.relative_to(ROOT)}:{line}: {', '.join(ids)}"
             for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))
             for line, ids in hand_written(path.read_text(encoding="utf-8"))]
    assert found == [], "a list of the games written by hand: read it from models.games, or say why not (# games: …)"


def test_the_scan_finds_a_list_written_by_hand_and_passes_one_read_from_the_registry():
    games = ("g-one", "g-two", "g-three", "g-four")
    assert hand_written('GAMES = ("g-one", "g-two", "g-three")\n', games) == [(1, ("g-one", "g-two", "g-three"))]
    assert hand_written('OPENS = {"g-one": 1, "g-two": 2, "x": 3}\n', games) == [(1, ("g-one", "g-two"))]
    assert hand_written('ONE = ["g-one", "other"]\n', games) == []  # one game is an example, not the games
    assert hand_written('# per game (games: each checked against the registry)\nOPENS = {"g-one": 1, "g-two": 2}\n',
                        games) == []
    assert hand_written('PAIR = ("g-one", "g-two")  # games: the two that share an engine\n', games) == []
    assert hand_written('GAMES = tuple(PLAYER_COUNTS)\n', games) == []
    assert len(GAMES) > 6 and "high-card" in GAMES  # the tests' game is registered (tests/conftest.py)
