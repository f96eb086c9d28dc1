"""distinct-n and self-BLEU against direct, obviously correct computations on real WMT17 outputs.

There is no reference package for these: the oracles below are written out in full — Python sets
for distinct-n, and for self-BLEU a loop calling sacreBLEU's ``sentence_bleu`` and NLTK's
``sentence_bleu`` (Texygen's call) with each output against the list of all the others.
"""

from __future__ import annotations

import pytest
import sacrebleu
from conftest import read_lines
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

import nlgmetrics


@pytest.fixture(scope="module")
def outputs(shared_data):
    """240 outputs: 15 segments of each of the 16 WMT17 en-de systems, spread over the test set."""
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    chosen = []
    for offset, path in enumerate(sorted(folder.glob("*.hyp.de"))):
        lines = read_lines(path)
        chosen += [lines[index] for index in range(offset * 11, len(lines), 200)][:15]
    return chosen


def test_distinct_equals_set_counting(outputs):
    for n in (1, 2, 3):
        grams = [[tuple(words[i:i + n]) for i in range(len(words) - n + 1)] for words in (o.split() for o in outputs)]
        result = nlgmetrics.distinct(outputs, n=n)
        total = sum(len(g) for g in grams)
        assert result.scores[f"distinct-{n}"] == len({gram for g in grams for gram in g}) / total
        per_output = [len(set(g)) / len(g) if g else 0.0 for g in grams]
        assert result.segment_scores.tolist() == per_output
        assert result.scores[f"distinct-{n} per-output mean"] == pytest.approx(sum(per_output) / len(per_output), rel=1e-12)


def test_self_bleu_sacrebleu_equals_the_loop(outputs):
    result = nlgmetrics.self_bleu(outputs)
    expected = [sacrebleu.sentence_bleu(o, outputs[:i] + outputs[i + 1:]).score for i, o in enumerate(outputs)]
    assert result.segment_scores.tolist() == expected
    total = 0.0
    for score in expected:
        total += score
    assert result.score == total / len(expected)


def test_self_bleu_texygen_equals_nltk_loop(outputs):
    tokens = [o.split() for o in outputs]
    smoothing = SmoothingFunction().method1
    result = nlgmetrics.self_bleu(outputs, variant="texygen")
    expected = [sentence_bleu(tokens[:i] + tokens[i + 1:], t, tuple(1. / 3 for _ in range(3)), smoothing_function=smoothing)
                for i, t in enumerate(tokens)]
    assert result.segment_scores.tolist() == expected
    total = 0.0
    for score in expected:
        total += score
    assert result.score == total / len(expected)


def test_bad_input():
    with pytest.raises(ValueError, match="at least 2 outputs"):
        nlgmetrics.self_bleu(["only one"])
    with pytest.raises(ValueError, match="variant"):
        nlgmetrics.self_bleu(["a", "b"], variant="bogus")
    with pytest.raises(ValueError, match="n must be"):
        nlgmetrics.distinct(["a"], n=0)
    with pytest.raises(TypeError):
        nlgmetrics.distinct("a string, not a list of outputs")
    assert nlgmetrics.distinct([""]).scores["distinct-2"] == 0.0  # no n-gram at all: 0, documented
    assert nlgmetrics.self_bleu(["", "a b"]).segment_scores.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("name,options", [("distinct", {"n": 2}), ("distinct", {"n": 3, "tokenize": "13a"}),
                                          ("self_bleu", {}), ("self_bleu", {"variant": "texygen"})])
def test_registered_outputs_metrics_merge_to_the_function_result(outputs, name, options):
    """Batches of outputs in several objects, states sent as bytes, merged: the one-shot number."""
    function = getattr(nlgmetrics, name)
    expected = function(outputs, **options)
    parts = [nlgmetrics.metric(name, **options).update(outputs[start:start + 70]) for start in range(0, len(outputs), 70)]
    receiver = nlgmetrics.metric(name, **options)
    for part in parts:
        receiver.merge(nlgmetrics.MetricState.from_bytes(part.state().to_bytes()))
    result = receiver.compute()
    assert result.score == expected.score and result.scores == expected.scores
    assert str(result.signature) == str(expected.signature)


def test_outputs_metrics_on_the_command_line_and_their_intervals(outputs, tmp_path, capsys):
    import json

    from nlgmetrics.cli import main

    path = tmp_path / "outputs.txt"
    path.write_text("\n".join(outputs) + "\n", encoding="utf-8")
    assert main(["self_bleu", "-i", str(path), "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["score"] == nlgmetrics.self_bleu(outputs).score
    assert main(["distinct", "-i", str(path), "-n", "3", "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["score"] == nlgmetrics.distinct(outputs, n=3).score
    interval = nlgmetrics.metric("self_bleu").update(outputs).compute().ci(n_samples=100, seed=1)
    assert interval.low <= interval.score <= interval.high
    with pytest.raises(ValueError, match="distinct across all outputs"):
        nlgmetrics.metric("distinct").update(outputs).compute().ci()
    with pytest.raises(TypeError, match="bleu needs references"):
        nlgmetrics.metric("bleu").update(outputs)
