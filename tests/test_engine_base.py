"""The engine contract's small parts: events and the rule ids they name."""

from __future__ import annotations

import dataclasses
import re

import pytest

from models.i18n import Msg
from scoring.base import Engine, Event, event, rules_of
from tests.all_or_nothing import fold_with_apply


def test_event_builds_the_same_value_as_the_dataclass():
    made = event("HS-FREE-CARD", "hs.event.free", player="Anne", card=Msg("hs.card.high-society.p3"))
    assert made == Event("hs.event.free", {"player": "Anne", "card": Msg("hs.card.high-society.p3")},
                         ("HS-FREE-CARD",))
    assert event(("A", "B"), "k").rules == ("A", "B") and event((), "k").rules == ()
    plain = Msg("hs.event.free", {"player": "Anne", "card": Msg("hs.card.high-society.p3")})
    assert isinstance(made, Msg) and made.render("fr") == plain.render("fr") and "Anne" in made.render("fr")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.key = "other"  # type: ignore[misc]


def test_rules_of_lists_each_rule_once_in_order_and_ignores_plain_messages():
    messages = [Msg("hs.event.pass", {"player": "Anne"}), event(("B", "A"), "k"), event((), "k"),
                event("A", "k"), event("C", "k")]
    assert rules_of(messages) == ("B", "A", "C")
    assert rules_of([]) == ()


def test_nothing_in_scoring_copies_an_engine():
    """All or nothing comes from checking before performing, never from restoring a copy."""
    import ast
    from pathlib import Path

    import scoring

    for source in sorted(Path(scoring.__file__).parent.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                    for alias in node.names} | {node.module for node in ast.walk(tree)
                                                if isinstance(node, ast.ImportFrom) and node.module}
        assert "copy" not in imported and "deepcopy" not in imported, source.name
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "deepcopy"], source.name


def test_every_engine_takes_an_action_its_caller_parsed_and_scoring_parses_nothing():
    """Engines take parsed actions (the caller parses, as python-chess's ``push`` takes a Move):
    nothing in scoring/ parses a record action."""
    from pathlib import Path

    import scoring
    from models.record import parse_action, parse_record_data
    from scoring.registry import engine_class

    for source in Path(scoring.__file__).parent.glob("*.py"):
        assert not re.search(r"import [^\n]*\bparse_action\b", source.read_text(encoding="utf-8")), source.name

    for game, players, action in [
        ("high-society", ["A", "B", "C"], {"type": "reveal", "card": "p4"}),
        ("stupide-vautour", ["A", "B"], {"type": "reveal", "card": -3}),
        ("boursicocotte", ["A", "B", "C"], {"type": "draw", "card": "cow"}),
    ]:
        cls = engine_class(game)
        assert cls is not None
        record = parse_record_data({"format": "table-record/1", "game": game, "players": players, "actions": []})
        engine = cls(record)
        action = parse_action(game, action, players)
        assert engine.can(action)
        engine.check(action)
        assert engine.applied == 0
        assert engine.apply(action) and engine.applied == 1


@pytest.mark.parametrize("game", __import__("scoring.registry", fromlist=["refereed_games"]).refereed_games())
def test_run_leaves_the_engine_as_apply_does_and_refuses_the_same_action(game):
    """``run`` (the verdict's fold, the engine quiet) checks and changes exactly what ``apply`` does:
    on complete legal games, and on the same games with one action left out (refused where the rules
    refuse it, the state as the actions before it left it). Afterwards the engine reports events again."""
    import sys
    from pathlib import Path

    from models.record import parse_record_data
    from scoring.base import RuleViolation
    from scoring.referee import new_engine

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from playouts import playout

    refused = 0
    for seed in range(3):
        data = playout(game, seed)
        cuts = [None, *range(1, len(data["actions"]), max(1, len(data["actions"]) // 7))]
        for cut in cuts:
            actions = data["actions"] if cut is None else data["actions"][:cut] + data["actions"][cut + 1:]
            record = parse_record_data({**data, "actions": actions})
            by_apply, by_run = new_engine(record), new_engine(record)
            refusal = fold_with_apply(by_apply, record.actions)
            try:
                by_run.run(record.actions)
                ran: RuleViolation | None = None
            except RuleViolation as error:
                ran = error
            assert (ran is None) == (refusal is None), (game, seed, cut)
            if refusal is not None and ran is not None:
                refused += 1
                assert (ran.rule, ran.msg) == (refusal.rule, refusal.msg), (game, seed, cut)
            assert vars(by_run) == vars(by_apply), (game, seed, cut)
            assert by_run.outcome() == by_apply.outcome(), (game, seed, cut)
        # run for half the game, then apply: the engine reports every event again, the same ones
        record = parse_record_data(data)
        half = len(record.actions) // 2
        by_run, by_apply = new_engine(record), new_engine(record)
        by_run.run(record.actions[:half])
        fold_with_apply(by_apply, record.actions[:half])
        assert [by_run.apply(a) for a in record.actions[half:]] == [by_apply.apply(a) for a in record.actions[half:]]
        assert by_run.outcome() == by_apply.outcome() and by_run.outcome() is not None
    assert refused, f"{game}: no cut game was refused, the comparison proved nothing about refusals"


@pytest.mark.parametrize("game", __import__("scoring.registry", fromlist=["refereed_games"]).refereed_games())
def test_a_quiet_fold_builds_few_sentences(game, monkeypatch):
    """``run`` (the verdict's fold) skips the sentences of the frequent actions in every engine: over
    whole games it builds under a third of the events and messages ``apply`` builds (High Society,
    quiet first: about an eighth)."""
    import importlib
    import sys
    from pathlib import Path

    from models import i18n
    from models.record import parse_record_data
    from scoring import base
    from scoring.referee import new_engine
    from scoring.registry import _ENGINES

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from playouts import playout

    module = importlib.import_module(_ENGINES[game].partition(":")[0])
    built = [0]

    def counting(make):
        def made(*args, **kwargs):
            built[0] += 1
            return make(*args, **kwargs)
        return made

    for name, maker in (("event", base.event), ("Msg", i18n.Msg), ("msg", getattr(i18n, "msg", None))):
        if maker is not None and getattr(module, name, None) is maker:
            monkeypatch.setattr(module, name, counting(maker))
    by_apply = by_run = 0
    for seed in range(3):
        record = parse_record_data(playout(game, seed))
        built[0] = 0
        engine = new_engine(record)
        for action in record.actions:
            engine.apply(action)
        by_apply += built[0]
        built[0] = 0
        new_engine(record).run(record.actions)
        by_run += built[0]
    assert by_apply > 50, (game, by_apply)
    assert by_run * 3 < by_apply, (game, by_run, by_apply)


# -- typed actions ---------------------------------------------------------------------------------

def _engines() -> list[type]:
    from scoring.registry import engine_class, refereed_games

    return list(dict.fromkeys(engine_class(game) for game in refereed_games()))


def test_each_engine_is_typed_with_its_games_action_union():
    """``Engine[HSAction]``…: mypy checks ``_check`` and ``_perform`` against the game's actions."""
    import importlib
    import typing

    for cls in _engines():
        spec = cls.spec
        union = getattr(importlib.import_module(spec.action_structs), spec.actions)
        (base,) = [b for b in cls.__orig_bases__ if typing.get_origin(b) is Engine]
        assert typing.get_args(base) == (union,), cls.__name__


def test_no_engine_method_takes_an_action_typed_any():
    import ast

    from tests.conftest import ROOT

    untyped = []
    for path in sorted((ROOT / "scoring").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                for arg in node.args.args:
                    if arg.arg in ("action", "actions") and (arg.annotation is None or "Any" in ast.unparse(arg.annotation)):
                        untyped.append(f"{path.name}:{node.lineno} {node.name}")
    assert untyped == []
