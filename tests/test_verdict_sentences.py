"""A verdict's sentences are built when read: the scores cost no word, and the words, once read,
are the ones an eager verdict had (in the language and the edition's words asked for)."""

from __future__ import annotations

import copy
import json
import pickle
import sys
from pathlib import Path

import pytest

from models import i18n
from models.record import Sentences, parse_record, verdict_json
from scoring.referee import verdict_for_text
from scoring.registry import refereed_games

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from playouts import playout  # noqa: E402


def _finished_text(game: str) -> str:
    return json.dumps(playout(game, 0), ensure_ascii=False)


@pytest.mark.parametrize("game", refereed_games())
def test_a_verdicts_scores_render_no_sentence(game, monkeypatch):
    text = _finished_text(game)
    rendered: list[str] = []
    real = i18n.render

    def counting(message, lang=i18n.DEFAULT_LANGUAGE):
        rendered.append(message.key)
        return real(message, lang)

    monkeypatch.setattr(i18n, "render", counting)
    verdict, status = verdict_for_text(text)
    assert status == 0 and verdict.status == "finished" and verdict.result is not None
    assert verdict.result.scores and verdict.result.ranking and verdict.result.winners is not None
    assert rendered == [], f"{game}: the scores rendered {rendered[:3]}"
    assert verdict.result.explanation  # read now: rendered
    assert rendered


@pytest.mark.parametrize("game", refereed_games())
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_sentences_read_late_are_the_outcomes_in_the_verdicts_language_and_words(game, lang):
    from scoring.referee import new_engine

    text = _finished_text(game)
    verdict, _ = verdict_for_text(text, lang=lang)
    record = parse_record(text)
    engine = new_engine(record)
    engine.run(record.actions)
    outcome = engine.outcome()
    assert outcome is not None
    with i18n.dialect(record.game):
        eager = [m.render(lang) for m in outcome.explanation]
    # read outside the verdict's dialect: the edition's words were kept with the verdict
    assert list(verdict.result.explanation) == eager
    assert json.loads(verdict_json(verdict))["result"]["explanation"] == eager


def test_the_verdicts_json_holds_the_sentences_it_never_read_before():
    verdict, _ = verdict_for_text(_finished_text("animalement-votre"), lang="fr")
    explanation = verdict.result.explanation
    assert isinstance(explanation, Sentences) and list.__len__(explanation) == 0  # not built yet
    written = json.loads(verdict_json(verdict, indent=True, line=False))
    assert written["result"]["explanation"] and written["result"]["explanation"] == list(explanation)
    again, _ = verdict_for_text(_finished_text("animalement-votre"), lang="fr")
    assert again.result.model_dump()["explanation"] == written["result"]["explanation"]


def test_sentences_behave_as_a_list():
    made = Sentences(lambda: ["a", "b"])
    assert made == ["a", "b"] and ["a", "b"] == Sentences(lambda: ["a", "b"])
    assert len(Sentences(lambda: ["a"])) == 1 and "b" in Sentences(lambda: ["b"])
    assert Sentences(lambda: ["x", "y"])[-1] == "y" and Sentences(lambda: ["x"]) + ["z"] == ["x", "z"]
    assert repr(Sentences(lambda: ["q"])) == "['q']"
    grown = Sentences(lambda: ["a"])
    grown.append("b")
    assert grown == ["a", "b"]
    assert pickle.loads(pickle.dumps(Sentences(lambda: ["p"]))) == ["p"]
    assert copy.deepcopy(Sentences(lambda: ["d"])) == ["d"]
    once: list[int] = []
    counted = Sentences(lambda: once.append(1) or ["s"])
    assert list(counted) == list(counted) == ["s"] and once == [1]


def test_an_outcomes_explanation_is_built_once_when_read():
    from scoring.base import Outcome

    calls: list[int] = []

    def explain():
        calls.append(1)
        return [i18n.Msg("k")]

    outcome = Outcome({"A": 1}, (), ("A",), False, (("A", 1),), explain)
    assert calls == []
    assert outcome.explanation == (i18n.Msg("k"),) and outcome.explanation == (i18n.Msg("k"),) and calls == [1]
    assert outcome == Outcome({"A": 1}, (), ("A",), False, (("A", 1),), (i18n.Msg("k"),))
    assert outcome != Outcome({"A": 2}, (), ("A",), False, (("A", 1),), (i18n.Msg("k"),))
    with pytest.raises(AttributeError):
        outcome.scores = {}  # type: ignore[misc]
