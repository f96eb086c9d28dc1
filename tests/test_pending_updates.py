"""Issue 24: small ``update``s of Python lists are checked at once and scored later in one call
(``nlgmetrics.core.pending``). The numbers must be those of one call, bit for bit; every error must still come
from the update that caused it, before anything changes; nothing the caller does to its lists afterwards, and
no read of the state (``compute``, ``state``, ``merge``, copies, pickles), may see anything else.

Data: WMT22 en-de, system Online-B against references A and B (real, ``tests/data/evaluation``).
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.core import metric as metric_module
from nlgmetrics.core import pending

NAMES = ("bleu", "chrf")


@pytest.fixture(scope="module")
def corpus(wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    return hyps[:1500], ref_a[:1500], ref_b[:1500]


def batches(hyps, ref_a, ref_b, size=37):
    """Batches in three reference layouts by turns: one str each, [a, b] lists, (a,) tuples."""
    for number, start in enumerate(range(0, len(hyps), size)):
        part = slice(start, start + size)
        layout = number % 3
        if layout == 0:
            yield hyps[part], ref_a[part]
        elif layout == 1:
            yield hyps[part], [[a, b] for a, b in zip(ref_a[part], ref_b[part])]
        else:
            yield tuple(hyps[part]), [(a,) for a in ref_a[part]]


def one_call_references(hyps, ref_a, ref_b, size=37):
    return [refs for _, part in batches(hyps, ref_a, ref_b, size) for refs in
            ([[ref] for ref in part] if isinstance(part[0], str) else [list(entry) for entry in part])]


def same_result(left, right):
    assert left.score == right.score
    assert str(left.signature) == str(right.signature)
    np.testing.assert_array_equal(left.segment_scores, right.segment_scores)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("segments", [True, False])
def test_small_updates_give_the_numbers_of_one_call(corpus, name, segments):
    hyps, ref_a, ref_b = corpus
    small = nlgmetrics.metric(name, segments=segments)
    for part_hyps, part_refs in batches(hyps, ref_a, ref_b):
        small.update(part_hyps, part_refs)
    assert len(small._pending) > 0  # they were kept, not scored one by one
    whole = nlgmetrics.metric(name, segments=segments).update(hyps, one_call_references(hyps, ref_a, ref_b))
    left, right = small.compute(), whole.compute()
    assert left.score == right.score
    assert str(left.signature) == str(right.signature)
    if segments:
        np.testing.assert_array_equal(left.segment_scores, right.segment_scores)
    assert small.state().n_segments == len(hyps)


@pytest.mark.parametrize("name", NAMES)
def test_kept_batches_are_scored_when_full_and_keep_their_order(corpus, name, monkeypatch):
    hyps, ref_a, ref_b = corpus
    monkeypatch.setattr(pending, "MAX_SEGMENTS", 100)
    small = nlgmetrics.metric(name)
    for start in range(0, 999, 37):  # 27 batches
        small.update(hyps[start:start + 37], ref_a[start:start + 37])
        assert small._pending.segments < 100 + 37
    # a batch too long to keep is scored at once, after the kept ones
    end = 999 + pending.SMALL_BATCH
    small.update(hyps[999:end], ref_a[999:end])
    assert len(small._pending) == 0
    same_result(small.compute(), nlgmetrics.metric(name).update(hyps[:end], ref_a[:end]).compute())


def test_kept_batches_are_scored_past_the_byte_limit(corpus, monkeypatch):
    hyps, ref_a, _ = corpus
    monkeypatch.setattr(pending, "MAX_BYTES", 5_000)
    small = nlgmetrics.metric("bleu")
    for start in range(0, 200, 20):
        small.update(hyps[start:start + 20], ref_a[start:start + 20])
        assert small._pending.bytes < 5_000 + 20 * 2_000
    same_result(small.compute(), nlgmetrics.metric("bleu").update(hyps[:200], ref_a[:200]).compute())


def test_the_callers_lists_can_change_after_update(corpus):
    hyps, ref_a, ref_b = corpus
    kept = nlgmetrics.metric("bleu")
    part_hyps, flat, nested = list(hyps[:50]), list(ref_a[:50]), [[a, b] for a, b in zip(ref_a[50:100], ref_b[50:100])]
    kept.update(part_hyps, flat)
    kept.update(list(hyps[50:100]), nested)
    part_hyps[0], flat[1] = "changed", "changed"
    nested[0][0] = "changed"
    nested[1].append("an extra reference")
    expected = nlgmetrics.metric("bleu").update(hyps[:100], [[r] for r in ref_a[:50]] +
                                                [[a, b] for a, b in zip(ref_a[50:100], ref_b[50:100])])
    same_result(kept.compute(), expected.compute())


BAD = {
    "a hypothesis None": (["a cat", None], ["a cat", "a dog"], TypeError, r"hypotheses\[1\] must be str"),
    "too few references": (["a cat", "a dog"], ["a cat"], ValueError, "references"),
    "an empty reference set": (["a cat"], [[]], ValueError, r"references\[0\] is empty"),
    "a lone surrogate": (["a \ud800 cat"], ["a cat"], ValueError, r"hypotheses\[0\] contains a lone surrogate"),
    "a reference surrogate": (["a cat"], [["a cat", "x\udfff"]], ValueError, r"references\[0\]\[1\] contains a lone"),
    "no references": (["a cat"], None, TypeError, "needs references"),
    "streams": ([f"h{i}" for i in range(3)], [[f"r{i}{j}" for j in range(3)] for i in range(3)], ValueError,
                "references is ambiguous"),
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_small_batch_raises_at_its_update_and_changes_nothing(corpus, name, case):
    hyps, ref_a, _ = corpus
    bad_hyps, bad_refs, error, message = BAD[case]
    kept = nlgmetrics.metric(name).update(hyps[:40], ref_a[:40])
    with pytest.raises(error, match=message):
        kept.update(bad_hyps, bad_refs)
    kept.update(hyps[40:80], ref_a[40:80])
    same_result(kept.compute(), nlgmetrics.metric(name).update(hyps[:80], ref_a[:80]).compute())


def test_interrupted_scoring_of_the_kept_batches_changes_nothing(corpus, monkeypatch):
    hyps, ref_a, _ = corpus
    monkeypatch.setattr(pending, "MAX_SEGMENTS", 100)
    kept = nlgmetrics.metric("bleu").update(hyps[:60], ref_a[:60])
    scored = metric_module.Metric._score_lists

    def interrupted(self, scorer, hypotheses, references, checked=False):
        if checked:
            raise KeyboardInterrupt
        return scored(self, scorer, hypotheses, references, checked)

    monkeypatch.setattr(metric_module.Metric, "_score_lists", interrupted)
    with pytest.raises(KeyboardInterrupt):
        kept.update(hyps[60:120], ref_a[60:120])  # 120 kept segments: scoring them is interrupted
    assert kept._pending.segments == 60
    monkeypatch.setattr(metric_module.Metric, "_score_lists", scored)
    same_result(kept.compute(), nlgmetrics.metric("bleu").update(hyps[:60], ref_a[:60]).compute())


@pytest.mark.parametrize("name", NAMES)
def test_reads_of_the_state_see_the_kept_batches(corpus, name):
    hyps, ref_a, _ = corpus
    expected = nlgmetrics.metric(name).update(hyps[:90], ref_a[:90]).compute()

    def kept():
        return nlgmetrics.metric(name).update(hyps[:45], ref_a[:45]).update(hyps[45:90], ref_a[45:90])

    assert "with 90 segment(s)" in repr(kept())
    assert kept().state().n_segments == 90
    same_result(nlgmetrics.metric(name).merge(kept()).compute(), expected)
    same_result(nlgmetrics.metric(name).merge(kept().state()).compute(), expected)
    same_result(pickle.loads(pickle.dumps(kept())).compute(), expected)
    # a copy and its original grow apart
    original = kept()
    twin = copy.copy(original)
    twin.update(hyps[90:100], ref_a[90:100])
    same_result(original.compute(), expected)
    same_result(twin.compute(), nlgmetrics.metric(name).update(hyps[:100], ref_a[:100]).compute())
    # merging kept batches into an object with kept batches keeps the order: own first, then the other's
    left = nlgmetrics.metric(name).update(hyps[:30], ref_a[:30])
    left.merge(nlgmetrics.metric(name).update(hyps[30:60], ref_a[30:60]))
    left.update(hyps[60:90], ref_a[60:90])
    same_result(left.compute(), expected)
    # reset forgets them
    assert kept().reset()._pending.segments == 0


def test_the_function_form_and_a_metric_called_per_batch(corpus):
    hyps, ref_a, _ = corpus
    whole = nlgmetrics.metric("bleu")
    per_batch = [whole(hyps[start:start + 50], ref_a[start:start + 50]) for start in range(0, 200, 50)]
    for start, result in zip(range(0, 200, 50), per_batch):
        same_result(result, nlgmetrics.bleu(hyps[start:start + 50], ref_a[start:start + 50]))
    same_result(whole.compute(), nlgmetrics.bleu(hyps[:200], ref_a[:200]))
