"""The one Metric interface, for every registered metric and preset, on real data (tests/data/evaluation).

Any split of the data into batches, fed to any number of metric objects whose states travel as bytes
(or pickles) and are merged in any order, gives exactly the one-shot function's result on the data in
that order; and, where the reference's corpus number does not depend on segment order, the one-shot
result on the original order (bit-identical for integer statistics, 1e-12 relative for float means).
"""

from __future__ import annotations

import ast
import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import read_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics import MetricState
from nlgmetrics.core.registry import from_state

N_SEGMENTS = 120


def _mt(shared_data):
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    hyps = read_lines(folder / "newstest2017.uedin-nmt.4722.en-de.hyp.de")
    refs = read_lines(folder / "newstest2017.en-de.ref.de")
    other = read_lines(folder / "newstest2017.online-B.0.en-de.hyp.de")
    take = slice(0, len(refs), len(refs) // N_SEGMENTS)  # spread over the whole test set
    # Two references for every third segment (another system's output stands in as the second).
    references = [[ref, alt] if index % 3 == 0 else [ref] for index, (ref, alt) in enumerate(zip(refs[take], other[take]))]
    return hyps[take], references


def _summaries(shared_data):
    path = shared_data / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl"
    rows = []
    with open(path, encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            if index % 95 == 0:
                rows.append(json.loads(line))
    return [row["pointer-gen"] for row in rows], [row["reference"] for row in rows]


def _captions(shared_data):
    folder = shared_data / "captioning" / "magic_flickr30k_test"
    annotations = json.loads((folder / "annotations.coco_format.json").read_text(encoding="utf-8"))["annotations"]
    results = json.loads((folder / "results" / "magic.json").read_text(encoding="utf-8"))
    references: dict = {}
    for item in annotations:
        references.setdefault(item["image_id"], []).append(item["caption"])
    chosen = results[::9]
    return [item["caption"] for item in chosen], [references[item["image_id"]] for item in chosen]


def _squad(shared_data):
    folder = shared_data / "qa" / "squad"
    dataset = json.loads((folder / "dev-v1.1.json").read_text(encoding="utf-8"))["data"]
    predictions = json.loads((folder / "predictions_v1.1" / "Match-LSTM_with_Ans-Ptr_Boundary+Ensemble_Singapore_Management_University.json").read_text(encoding="utf-8"))
    questions = [qa for article in dataset for paragraph in article["paragraphs"] for qa in paragraph["qas"]][::80]
    return ([predictions.get(qa["id"], "") for qa in questions],
            [[answer["text"] for answer in qa["answers"]] for qa in questions])


def _mt_single(shared_data):
    """The MT sample with its first reference only (jiwer, cer and charcut take one reference)."""
    hyps, references = _mt(shared_data)
    return hyps, [refs[0] for refs in references]


DATA = {"mt": _mt, "mt1": _mt_single, "summaries": _summaries, "captions": _captions, "squad": _squad}

# A tiny seeded encoder for BERTScore (tests/data/neural; COMET, which also takes sources, has its own tests).
TINY_ROBERTA = str(Path(__file__).parent / "data" / "neural" / "models" / "tiny-roberta")

# (registry name, options, data, whether the corpus number is independent of segment order)
CASES = [
    ("bleu", {}, "mt", True),
    ("bleu", {"tokenize": "intl", "effective_order": True, "smooth": "floor"}, "mt", True),
    ("bleu", {"preset": "nltk", "smooth": "method5"}, "mt", False),  # NLTK's method5 reads the last segment
    ("bleu", {"preset": "coco"}, "captions", True),
    ("chrf", {}, "mt", True),
    ("chrf++", {}, "mt", True),
    ("ter", {}, "mt", True),
    ("rouge", {}, "summaries", True),
    ("rouge", {"stemmer": True, "tokenizer": "rouge_score", "bootstrap": 50, "seed": 3}, "summaries", False),
    ("rouge", {"preset": "rouge155", "variants": ["rouge1", "rougeL", "rougeSU4"], "bootstrap": 40}, "summaries", False),
    ("meteor", {}, "mt", True),
    ("meteor", {"preset": "nltk"}, "mt", True),
    ("cider", {}, "captions", True),
    ("gleu", {}, "mt", True),
    ("nist", {}, "mt", False),  # information summed segment after segment: the merge order is the corpus order
    ("ribes", {"tokenize": "13a"}, "mt", False),  # sentence scores summed in order, as NLTK
    ("squad", {}, "squad", True),
    ("exact_match", {"normalizer": "mlqa", "language": "en"}, "squad", True),
    ("wer", {}, "mt1", True),
    ("mer", {}, "mt1", True),
    ("wil", {"remove_multiple_spaces": False}, "mt1", True),
    ("wip", {"lowercase": True, "remove_punctuation": True}, "mt1", True),
    ("cer", {}, "mt1", True),
    ("distinct", {}, "mt", True),  # outputs alone: the references are not read
    ("distinct", {"n": 3, "tokenize": "13a"}, "mt", True),
    ("self_bleu", {}, "mt", True),
    ("self_bleu", {"variant": "texygen"}, "mt", True),
    ("bertscore", {"model": TINY_ROBERTA, "num_layers": 2}, "mt", True),
    ("bertscore", {"model": TINY_ROBERTA, "num_layers": 1, "idf": True}, "mt", True),
]


def _cases_declared_beside_their_metrics() -> list:
    """The ``CONTRACT_CASES = [...]`` literal of any other ``tests/test_*.py``: a metric's own test file may
    declare its cases there (python/nlgmetrics/core/README.md's template), read without importing that file
    (its reference library may be missing, which would skip this whole module)."""
    cases = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name == Path(__file__).name or "CONTRACT_CASES" not in text:
            continue
        for node in ast.parse(text).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "CONTRACT_CASES" for t in node.targets):
                cases += [tuple(case) for case in ast.literal_eval(node.value)]
    return cases


CASES += _cases_declared_beside_their_metrics()
#: (name, preset) of the cases whose corpus number no resample of per-segment rows gives (ci() raises ValueError):
#: NLTK's BLEU reads the last segment, distinct-n counts n-grams distinct across all outputs together.
NOT_RESAMPLABLE = {("bleu", "nltk"), ("distinct", None)}
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}" for name, options, _, _ in CASES]


@pytest.fixture(scope="module")
def datasets(shared_data):
    return {name: load(shared_data) for name, load in DATA.items()}


def _one_shot(name, options, hyps, refs):
    return nlgmetrics.metric(name, **options)(hyps, refs)


# Model-based metrics: a float32 encoder's numbers move with what shares a batch (BLAS blocking), by float noise
# only — DESIGN.md §7's one exception to bit-identity; the anchors move the same way (~1e-7).
FLOAT_NOISE = {"bertscore": 1e-6}


def _assert_same(merged, expected, exact=True):
    """Every number of two results equal (``exact``: bit for bit; else 1e-12 relative; a model-based metric:
    within its float noise)."""
    noise = FLOAT_NOISE.get(getattr(merged._metric, "name", None))
    if noise is not None:
        def compare(a, b):
            np.testing.assert_allclose(a, b, rtol=0, atol=noise)
    elif exact:
        def compare(a, b):
            np.testing.assert_array_equal(a, b)
    else:
        def compare(a, b):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    assert merged.name == expected.name and str(merged.signature) == str(expected.signature)
    compare(np.float64(merged.score), np.float64(expected.score))
    assert merged.scores.keys() == expected.scores.keys()
    for key in expected.scores:
        compare(np.asarray(merged.scores[key], dtype=np.float64), np.asarray(expected.scores[key], dtype=np.float64))
    if exact:
        compare(np.asarray(merged.segment_scores, dtype=np.float64), np.asarray(expected.segment_scores, dtype=np.float64))
        compare(np.asarray(merged.segment_stats, dtype=np.float64), np.asarray(expected.segment_stats, dtype=np.float64))


@pytest.mark.parametrize("name,options,data,order_free", CASES, ids=IDS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.integers(min_value=0, max_value=N_SEGMENTS), max_size=5), seed=st.integers(0, 2**16),
       via=st.sampled_from(["bytes", "pickle", "metric"]))
def test_any_split_merged_in_any_order_equals_the_one_shot_result(datasets, name, options, data, order_free, cuts,
                                                                   seed, via):
    hyps, refs = datasets[data]
    bounds = sorted(set([0, len(hyps)] + [min(cut, len(hyps)) for cut in cuts]))
    chunks = [(hyps[a:b], refs[a:b]) for a, b in zip(bounds, bounds[1:])]
    order = list(range(len(chunks)))
    random.Random(seed).shuffle(order)
    # Each chunk scored by its own object (a worker), possibly in several updates.
    states = []
    for index in order:
        chunk_hyps, chunk_refs = chunks[index]
        worker = nlgmetrics.metric(name, **options)
        half = len(chunk_hyps) // 2
        worker.update(chunk_hyps[:half], chunk_refs[:half]).update(chunk_hyps[half:], chunk_refs[half:])
        if via == "bytes":
            states.append(MetricState.from_bytes(worker.state().to_bytes()))
        elif via == "pickle":
            states.append(pickle.loads(pickle.dumps(worker)))
        else:
            states.append(worker)
    receiver = nlgmetrics.metric(name, **options)
    for state in states:
        receiver.merge(state)
    merged = receiver.compute()
    permuted_hyps = [h for index in order for h in chunks[index][0]]
    permuted_refs = [r for index in order for r in chunks[index][1]]
    _assert_same(merged, _one_shot(name, options, permuted_hyps, permuted_refs), exact=True)
    if order_free:
        integer_sums = name in ("bleu", "chrf", "chrf++") and options.get("preset") != "coco"
        _assert_same(merged, _one_shot(name, options, hyps, refs), exact=integer_sums and order == sorted(order))


@pytest.mark.parametrize("name,options,data,order_free", CASES, ids=IDS)
def test_result_shape(datasets, name, options, data, order_free):
    hyps, refs = datasets[data]
    result = nlgmetrics.metric(name, **options)(hyps, refs)
    assert isinstance(result, nlgmetrics.Result)
    assert isinstance(result.name, str) and np.isfinite(result.score)
    assert isinstance(result.scores, dict) and result.scores
    assert len(result.segment_scores) == len(hyps) and len(result.segment_stats) == len(hyps)
    assert str(result.signature).endswith(f"version:nlgmetrics-{nlgmetrics.__version__}")
    payload = json.loads(result.to_json())
    assert payload["name"] == result.name and payload["score"] == pytest.approx(result.score)
    assert "<table" in result._repr_html_()
    if (name, options.get("preset")) in NOT_RESAMPLABLE:
        with pytest.raises(ValueError):
            result.ci(n_samples=50, seed=1)
    else:
        interval = result.ci(n_samples=50, seed=1)
        assert interval.low <= interval.high


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    frame = nlgmetrics.bleu(["a b c d", "e f"], ["a b c d", "e g"], effective_order=True).to_pandas()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == ["BLEU"] and len(frame) == 2
    rouge = nlgmetrics.rouge(["a b"], ["a c"], variants=["rouge1"]).to_pandas()
    assert list(rouge.columns) == ["rouge1_precision", "rouge1_recall", "rouge1_fmeasure"]


def test_segments_false_keeps_only_totals(datasets):
    hyps, refs = datasets["mt"]
    for name in ("bleu", "chrf", "ter"):
        metric = nlgmetrics.metric(name, segments=False)
        for start in range(0, len(hyps), 17):
            metric.update(hyps[start:start + 17], refs[start:start + 17])
        state = metric.state()
        assert list(state.arrays) == ["totals"] and state.n_segments == len(hyps)
        result, expected = metric.compute(), nlgmetrics.metric(name)(hyps, refs)
        assert result.score == pytest.approx(expected.score, rel=1e-12) and len(result.segment_scores) == 0
        if name != "ter":  # integer statistics: bit-identical
            assert result.score == expected.score
    with pytest.raises(ValueError, match="segments=False"):
        nlgmetrics.metric("rouge", segments=False)


# --------------------------------------------------------------------------- bad input


def test_failed_update_leaves_the_state_as_it_was():
    metric = nlgmetrics.metric("bleu").update(["a b c"], ["a b d"])
    before = metric.state().to_bytes()
    with pytest.raises(ValueError, match="references has 1 entries but there are 2 hypotheses"):
        metric.update(["x", "y"], ["x"])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be str"):
        metric.update(["x", 3], ["x", "y"])
    with pytest.raises(ValueError, match="surrogate"):
        metric.update(["x\udc80"], ["x"])
    assert metric.state().to_bytes() == before


def test_merging_different_options_names_the_option():
    with pytest.raises(ValueError, match=r"tokenize='13a' here, tokenize='intl' in the other state"):
        nlgmetrics.metric("bleu").merge(nlgmetrics.metric("bleu", tokenize="intl").state())
    with pytest.raises(ValueError, match="cannot merge a 'chrf' state into a 'bleu' state"):
        nlgmetrics.metric("bleu").merge(nlgmetrics.metric("chrf"))
    with pytest.raises(ValueError, match="word_order=0 here, word_order=2"):
        nlgmetrics.metric("chrf").merge(nlgmetrics.metric("chrf++"))
    with pytest.raises(TypeError, match="MetricState or a Metric"):
        nlgmetrics.metric("bleu").merge(b"bytes")


def test_from_bytes_refuses_truncated_corrupted_and_foreign_payloads():
    data = nlgmetrics.metric("bleu").update(["a b c d e"] * 3, ["a b c d f"] * 3).state().to_bytes()
    assert MetricState.from_bytes(data).n_segments == 3
    for bad, message in [
        (data[:-5], "truncated"),
        (data[:30], "truncated|corrupted"),
        (data[:-1] + bytes([data[-1] ^ 1]), "checksum"),
        (b"PK\x03\x04" + bytes(100), "not a MetricState"),
        (b"", "shorter than"),
        (data[:8] + (2).to_bytes(4, "little") + data[12:], "format version 2 is not supported"),
        (data.replace(b'"metric"', b'"metriq"'), "corrupted"),
    ]:
        with pytest.raises(ValueError, match=message):
            MetricState.from_bytes(bad)
    with pytest.raises(TypeError, match="takes bytes"):
        MetricState.from_bytes("text")
    rng = np.random.default_rng(0)
    for _ in range(200):  # random single-byte corruptions: a clean ValueError or the same state, never a crash
        position = int(rng.integers(len(data)))
        corrupted = bytearray(data)
        corrupted[position] ^= int(rng.integers(1, 256))
        try:
            MetricState.from_bytes(bytes(corrupted))
        except ValueError:
            pass


def _reference_on_no_input():
    """What each metric's reference does on no segments: ("raise", call) or ("returns", call), run for real."""
    import jiwer
    import sacrebleu
    from charcut import calculate_charcut
    from nltk.translate import bleu_score, gleu_score, nist_score, ribes_score
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from rouge_score import scoring

    return {
        "bleu": lambda: sacrebleu.corpus_bleu([], [[]]),
        "bleu-nltk": lambda: bleu_score.corpus_bleu([], []),
        "bleu-coco": lambda: Bleu(4).compute_score({}, {}, verbose=0),
        "chrf": lambda: sacrebleu.corpus_chrf([], [[]]),
        "ter": lambda: sacrebleu.corpus_ter([], [[]]),
        "rouge": lambda: scoring.BootstrapAggregator().aggregate(),
        "cider": lambda: Cider().compute_score({}, {}),
        "gleu": lambda: gleu_score.corpus_gleu([], []),
        "nist": lambda: nist_score.corpus_nist([], []),
        "ribes": lambda: ribes_score.corpus_ribes([], []),
        "wer": lambda: jiwer.wer([], []),
        "cer": lambda: jiwer.cer([], []),
        "charcut": lambda: calculate_charcut([], []),
    }


def _reference_key(name, options):
    if name == "bleu" and options.get("preset") in ("nltk", "coco"):
        return f"bleu-{options['preset']}"
    return {"chrf++": "chrf", "wip": "wer"}.get(name, name)


@pytest.mark.parametrize("name,options,data,order_free", CASES, ids=IDS)
def test_compute_before_any_update_raises_or_warns_as_the_reference(name, options, data, order_free):
    """The torchmetrics habit's silent zero: compute() on an object that saw nothing raises where the
    reference raises on no input, and warns (then gives the empty result) where the reference returns."""
    metric = nlgmetrics.metric(name, **options)
    rule, why = metric.empty_compute()
    reference = _reference_on_no_input().get(_reference_key(name, options))
    if reference is not None:
        try:
            reference()
            reference_raises = False
        except (IndexError, ValueError, ZeroDivisionError):
            reference_raises = True
        assert (rule == "raise") == reference_raises, why
    if rule == "raise":
        with pytest.raises(ValueError, match=r"compute\(\) was called before any update\(\)"):
            metric.compute()
    else:
        with pytest.warns(UserWarning, match=r"compute\(\) was called before any update\(\)"):
            try:
                metric.compute()
            except ValueError:  # e.g. CharacTER's own empty-state error, after the warning
                pass


def test_compute_before_any_update_for_the_diversity_metrics():
    with pytest.warns(UserWarning, match="before any update"):
        nlgmetrics.metric("distinct").compute()
    with pytest.raises(ValueError, match="before any update.*at least 2 outputs"):
        nlgmetrics.metric("self_bleu").compute()


def test_empty_batches_are_updates():
    """An update with no rows is an update: the result of no segments, no warning (as before)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nlgmetrics.metric("bleu").update([], []).compute().score == 0.0
        assert nlgmetrics.bleu([], []).score == 0.0
        assert nlgmetrics.metric("rouge").update([], []).compute().rouge1.fmeasure == 0.0


@pytest.mark.parametrize("name,options,data,order_free", CASES, ids=IDS)
def test_calling_the_object_per_batch_accumulates_like_torchmetrics_forward(datasets, name, options, data,
                                                                           order_free):
    """``m(preds, target)`` per batch returns that batch's result and adds it to the state, so ``m.compute()``
    is the whole corpus's result (it used to be 0: the batches were not kept)."""
    hyps, refs = datasets[data]
    metric = nlgmetrics.metric(name, **options)
    for start in range(0, len(hyps), 50):
        batch = metric(hyps[start:start + 50], refs[start:start + 50])
        alone = nlgmetrics.metric(name, **options)._score_batch(hyps[start:start + 50], refs[start:start + 50])
        _assert_same(batch, alone, exact=True)
    _assert_same(metric.compute(), _one_shot(name, options, hyps, refs), exact=order_free or name != "nist")


def test_the_functions_stay_stateless(datasets):
    hyps, refs = datasets["mt"]
    metric = nlgmetrics.metric("chrf")
    metric._score_batch(hyps, refs)
    assert metric.state().n_segments == 0
    assert nlgmetrics.chrf(hyps[:3], refs[:3]).score == metric(hyps[:3], refs[:3]).score
    assert metric.state().n_segments == 3


def test_registry():
    names = nlgmetrics.list_metrics()
    for name in ("bleu", "chrf", "chrf++", "ter", "rouge", "meteor", "cider", "exact_match", "token_f1", "squad"):
        assert name in names and names[name]
    with pytest.raises(ValueError, match="did you mean 'bleu'"):
        nlgmetrics.metric("blue")
    assert nlgmetrics.metric("ROUGEL").options["variants"] == ["rougeL"]


def test_state_round_trip_through_the_registry():
    metric = nlgmetrics.metric("chrf++", lowercase=True).update(["Ab cd"], ["ab CD"])
    again = from_state(MetricState.from_bytes(metric.state().to_bytes()))
    assert again.options == metric.options and again.compute().score == metric.compute().score == 100.0
    assert "1 segment" in repr(again)


def test_objects_pickle_for_process_pools():
    metric = nlgmetrics.metric("meteor", modules=["exact"]).update(["a b c"], ["a b d"])
    clone = pickle.loads(pickle.dumps(metric))
    assert clone.compute().score == metric.compute().score


@pytest.mark.parametrize("family, preset", [("bleu", "nltk"), ("bleu", "coco"), ("rouge", "rouge155"),
                                            ("meteor", "nltk")])
def test_pickles_that_name_the_family_load_as_their_preset(family, preset):
    """A pickle made before presets were subclasses names the family class (BLEU, ROUGE, METEOR); unpickling
    builds the family's default preset first (copyreg.__newobj__), then the saved options decide."""
    import copyreg

    metric = nlgmetrics.metric(family, preset=preset)
    metric.update(["a cat sat on the mat"], [["the cat sat on the mat"]])
    family_class = type(metric)._family
    old_style = copyreg.__newobj__(family_class)
    assert type(old_style) is not type(metric)
    old_style.__setstate__(metric.__getstate__())
    assert type(old_style) is type(metric)
    assert old_style.compute().score == metric.compute().score
