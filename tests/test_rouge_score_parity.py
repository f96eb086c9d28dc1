"""Parity with google-research rouge_score 0.1.2 on the real CNN/DM test set (See et al. 2017).

rouge_score is slow (~2.5 ms/document unstemmed, ~5 ms stemmed), so: ALL 11,490 documents of one
system (pointer-gen-cov, unstemmed, rouge1/2/L/Lsum) in four chunks, plus an even sample (every
40th document, 288 per system) of all three systems, stemmed and unstemmed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
from rouge_score import scoring as rs_scoring  # noqa: E402

import nlgmetrics  # noqa: E402
from nlgmetrics import _core  # noqa: E402
from nlgmetrics.compat.rouge_score import rouge_scorer as compat_scorer  # noqa: E402
from nlgmetrics.compat.rouge_score import scoring as compat_scoring  # noqa: E402

VARIANTS = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
SYSTEMS = ["baseline", "pointer-gen", "pointer-gen-cov"]
N_DOCS = 11490


@pytest.fixture(scope="module")
def cnndm(shared_data):
    path = shared_data / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl"
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    assert len(rows) == N_DOCS
    return rows


def reference_scores(rows, system, stem, variants=VARIANTS):
    scorer = rouge_scorer.RougeScorer(variants, use_stemmer=stem)
    return np.array([[list(scorer.score(row["reference"], row[system])[v]) for v in variants] for row in rows])


@pytest.mark.parametrize("chunk", range(4))
def test_all_documents_pointer_gen_cov_unstemmed(cnndm, chunk):
    rows = cnndm[chunk::4]
    expected = reference_scores(rows, "pointer-gen-cov", False)
    predictions, references = [r["pointer-gen-cov"] for r in rows], [r["reference"] for r in rows]
    result = nlgmetrics.rouge(predictions, references, variants=VARIANTS, tokenizer="rouge_score")
    assert np.array_equal(result.segment_scores, expected)
    # The default Unicode tokenizer gives the same tokens on ASCII text (~78% of documents are pure ASCII).
    unicode = nlgmetrics.rouge(predictions, references, variants=VARIANTS)
    ascii_rows = [i for i, (p, r) in enumerate(zip(predictions, references)) if p.isascii() and r.isascii()]
    assert len(ascii_rows) > 0.7 * len(rows)
    assert np.array_equal(unicode.segment_scores[ascii_rows], expected[ascii_rows])
    assert len(rows) == len(range(chunk, N_DOCS, 4))


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("system", SYSTEMS)
def test_even_sample_every_system(cnndm, system, stem):
    rows = cnndm[::40]
    expected = reference_scores(rows, system, stem)
    result = nlgmetrics.rouge([r[system] for r in rows], [r["reference"] for r in rows],
                              variants=VARIANTS, stemmer=stem, tokenizer="rouge_score")
    assert np.array_equal(result.segment_scores, expected)
    # Corpus score is the mean of rouge_score's per-document scores.
    for k, variant in enumerate(VARIANTS):
        assert result[variant].fmeasure == float(np.mean(expected[:, k, 2]))


def test_stemmer_identical_to_nltk_on_every_word(cnndm):
    from nltk.stem import porter

    texts = [row[key] for row in cnndm for key in ["reference", *SYSTEMS]]
    words = sorted({w for tokens in _core.rouge_tokenize(texts, {"tokenizer": "rouge_score", "stemmer": False}) for w in tokens})
    assert len(words) == 46535
    nltk_stemmer = porter.PorterStemmer()
    assert _core.porter_stem_words(words) == [nltk_stemmer.stem(w) for w in words]


def test_multiple_references_score_multi(cnndm):
    # Real multi-reference setting: the reference plus another system's summary as a second target.
    rows = cnndm[7::60]
    scorer = rouge_scorer.RougeScorer(VARIANTS + ["rouge3"], use_stemmer=True)
    ours = compat_scorer.RougeScorer(VARIANTS + ["rouge3"], use_stemmer=True)
    native = nlgmetrics.rouge([r["pointer-gen"] for r in rows], [[r["reference"], r["baseline"]] for r in rows],
                              variants=VARIANTS + ["rouge3"], stemmer=True, tokenizer="rouge_score")
    for i, row in enumerate(rows):
        expected = scorer.score_multi([row["reference"], row["baseline"]], row["pointer-gen"])
        assert ours.score_multi([row["reference"], row["baseline"]], row["pointer-gen"]) == expected
        assert native.segment(i) == {v: tuple(expected[v]) for v in VARIANTS + ["rouge3"]}


def test_compat_scorer_and_bootstrap_identical(cnndm):
    rows = cnndm[3::200]
    types = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"]
    theirs, ours = rouge_scorer.RougeScorer(types, use_stemmer=True), compat_scorer.RougeScorer(types, use_stemmer=True)
    agg_theirs, agg_ours = rs_scoring.BootstrapAggregator(), compat_scoring.BootstrapAggregator()
    for row in rows:
        a, b = theirs.score(row["reference"], row["baseline"]), ours.score(row["reference"], row["baseline"])
        assert a == b and list(a) == list(b)
        agg_theirs.add_scores(a)
        agg_ours.add_scores(b)
    np.random.seed(1234)
    expected = agg_theirs.aggregate()
    np.random.seed(1234)
    assert compat_scoring.BootstrapAggregator  # global-state path
    assert agg_ours.aggregate() == expected
    # A private seed gives the same draws as the global seed.
    seeded = compat_scoring.BootstrapAggregator(seed=1234)
    for row in rows:
        seeded.add_scores(ours.score(row["reference"], row["baseline"]))
    assert seeded.aggregate() == expected
    # The native API's bootstrap is the same computation.
    native = nlgmetrics.rouge([r["baseline"] for r in rows], [r["reference"] for r in rows], variants=types,
                              stemmer=True, bootstrap=1000, seed=1234)
    for variant in types:
        assert native.intervals[variant] == tuple(tuple(bound) for bound in expected[variant])
