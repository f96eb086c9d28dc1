"""SQuAD v1.1 / v2.0 against the official evaluate-v1.1.py results on the real dev set.

The official scripts are not installable (no PyPI package; the `evaluate` package is not installed
here), so the v1.1 totals are compared with `expected_evaluate-v1.1_dev.json`, which the data
curators produced by running evaluate-v1.1.py itself. v2.0 semantics are checked on hand-built
cases whose expected numbers follow the script line by line (comments give the arithmetic).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.compat import squad as compat_squad


@pytest.fixture(scope="module")
def squad_dir(shared_data):
    return shared_data / "qa" / "squad"


@pytest.fixture(scope="module")
def dev(squad_dir):
    with open(squad_dir / "dev-v1.1.json", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="module")
def expected(squad_dir):
    with open(squad_dir / "expected_evaluate-v1.1_dev.json", encoding="utf-8") as handle:
        return json.load(handle)["scores"]


def _predictions(squad_dir, name):
    with open(squad_dir / "predictions_v1.1" / name, encoding="utf-8") as handle:
        return json.load(handle)


SYSTEMS = [
    "BERT_ensemble_Google_AI_Language.json",
    "Logistic_Regression_Baseline_Stanford_University.json",
    "Match-LSTM_with_Ans-Ptr_Boundary+Ensemble_Singapore_Management_University.json",
]


@pytest.mark.parametrize("system", SYSTEMS)
def test_v11_reproduces_the_official_script_exactly(squad_dir, dev, expected, system):
    predictions = _predictions(squad_dir, system)
    assert compat_squad.evaluate(dev["data"], predictions) == expected[system]
    result = nlgmetrics.squad(predictions, dev)
    assert (result.exact_match, result.f1) == (expected[system]["exact_match"], expected[system]["f1"])
    assert result.total == 10570 and len(result.question_ids) == 10570
    # Per-question scores add up to the totals, in dataset order.
    assert 100.0 * result.exact_scores.sum() / result.total == pytest.approx(result.exact_match, rel=1e-12)
    assert set(np.unique(result.exact_scores)) <= {0.0, 1.0}
    assert np.all((result.f1_scores >= 0) & (result.f1_scores <= 1))
    # v1.1: an exact match has F1 1 unless the answer normalises to nothing.
    assert np.all(result.f1_scores[result.exact_scores == 1.0] == 1.0)


def test_v11_unanswered_questions_score_zero(squad_dir, dev, expected, capsys):
    predictions = _predictions(squad_dir, SYSTEMS[0])
    dropped = dict(list(predictions.items())[100:])
    result = compat_squad.evaluate(dev["data"], dropped)
    assert "Unanswered question" in capsys.readouterr().err
    native = nlgmetrics.squad(dropped, dev["data"])
    assert len(native.missing) == 100
    assert result["exact_match"] < expected[SYSTEMS[0]]["exact_match"]


def test_v20_on_the_real_dev_set_without_unanswerables(squad_dir, dev, expected):
    # With every question answerable and answered, v2.0's exact equals v1.1's exact_match.
    predictions = _predictions(squad_dir, SYSTEMS[2])
    predictions = {qid: predictions.get(qid, "") for qid in nlgmetrics.squad(predictions, dev).question_ids}
    out = compat_squad.evaluate_v2(dev["data"], predictions)
    assert out["total"] == out["HasAns_total"] == 10570
    assert "NoAns_total" not in out
    assert out["exact"] == pytest.approx(expected[SYSTEMS[2]]["exact_match"], rel=1e-12)


def _toy():
    return [{"paragraphs": [{"qas": [
        {"id": "a", "answers": [{"text": "Denver Broncos"}, {"text": "Broncos"}]},
        {"id": "b", "answers": []},
        {"id": "c", "answers": [{"text": "the"}, {"text": "1990"}]},
        {"id": "d", "answers": []},
    ]}]}]


def test_v20_semantics_by_hand():
    predictions = {"a": "Denver", "b": "", "c": "in 1990", "d": "something"}
    out = compat_squad.evaluate_v2(_toy(), predictions)
    # a: f1 = 2*(1*0.5)/1.5 = 2/3 (vs "Denver Broncos"); b: ""=="" → 1, 1; c: gold "the" dropped,
    # f1 vs "1990" = 2*(0.5*1)/1.5; d: 0, 0.
    f1_a = (2 * 1.0 * 0.5) / 1.5
    f1_c = (2 * 0.5 * 1.0) / 1.5
    assert list(out) == ["exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total",
                         "NoAns_exact", "NoAns_f1", "NoAns_total"]
    assert out["exact"] == 100.0 * 1 / 4
    assert out["f1"] == 100.0 * (((f1_a + 1) + f1_c) + 0) / 4
    assert (out["HasAns_exact"], out["HasAns_f1"], out["HasAns_total"]) == (0.0, 100.0 * (f1_a + f1_c) / 2, 2)
    assert (out["NoAns_exact"], out["NoAns_f1"], out["NoAns_total"]) == (50.0, 50.0, 2)


def test_v20_no_answer_thresholds():
    predictions = {"a": "Denver Broncos", "b": "", "c": "in 1990", "d": "something"}
    na_probs = {"d": 0.9, "a": 0.2, "c": 0.2, "b": 0.5}
    out = compat_squad.evaluate_v2(_toy(), predictions, na_probs=na_probs, na_prob_thresh=0.6)
    # d (0.9 > 0.6) counts as "no answer" → correct: exact a=1, b=1, c=0, d=1.
    assert out["exact"] == 75.0
    # Sweep in order a, c (tie at 0.2 keeps na_probs order), b, d; start = 2 unanswerables.
    # exact: 2 → 3 (a, 0.2) → 3 (c) → 3 (b: empty prediction, +0) → 2 (d: −1). Best 3 at 0.2.
    assert (out["best_exact"], out["best_exact_thresh"]) == (75.0, 0.2)
    f1_c = (2 * 0.5 * 1.0) / 1.5
    assert out["best_f1"] == 100.0 * (3 + f1_c) / 4 and out["best_f1_thresh"] == 0.2
    result = nlgmetrics.squad(predictions, _toy(), version="2.0", na_probs=na_probs, na_prob_thresh=0.6)
    assert result.scores == dict(out)
    assert list(result.exact_scores) == [1.0, 1.0, 0.0, 1.0]


def test_errors():
    with pytest.raises(ValueError, match="version"):
        nlgmetrics.squad({}, _toy(), version="3")
    with pytest.raises(TypeError, match="predictions must be a dict"):
        nlgmetrics.squad(["x"], _toy())
    with pytest.raises(TypeError, match=r"predictions\['a'\] must be str"):
        nlgmetrics.squad({"a": 3}, [{"paragraphs": [{"qas": [{"id": "a", "answers": [{"text": "x"}]}]}]}])
    with pytest.raises(ValueError, match="no gold answer"):
        nlgmetrics.squad({"b": "x"}, _toy())
    with pytest.raises(ValueError, match="needs a prediction for every question"):
        nlgmetrics.squad({"a": "x"}, _toy(), version="2.0")
    with pytest.raises(ValueError, match="no probability for question"):
        nlgmetrics.squad({k: "" for k in "abcd"}, _toy(), version="2.0", na_probs={"a": 0.1})
    with pytest.raises(ValueError, match="na_probs applies"):
        nlgmetrics.squad({}, _toy(), na_probs={})
    with pytest.raises(ValueError, match="'data' key"):
        nlgmetrics.squad({}, {"version": "1.1"})
    with pytest.raises(ValueError, match="no 'paragraphs'"):
        nlgmetrics.squad({}, [{"title": "x"}])
    with pytest.raises(ValueError, match="lacks"):
        nlgmetrics.squad({}, [{"paragraphs": [{"qas": [{"id": "x"}]}]}])
    with pytest.raises(ValueError, match="no questions"):
        nlgmetrics.squad({}, [])
