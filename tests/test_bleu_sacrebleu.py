"""Parity with the real sacreBLEU 2.6.0 on WMT22 (4 pairs, every system, ref A and A+B) and WMT17 en-de
(16 systems), and with the oracle outputs (sacreBLEU system scores, mteval-v13a system and segment scores).

Corpus level: every system, every smoothing method, with and without effective order: score, counts,
totals, precisions, BP and lengths identical. Segment level: every segment's statistics row identical;
sentence scores for every smoothing/effective-order setting on segments sampled evenly across every
system (sacreBLEU's sentence scoring is slow); lowercase on an evenly sampled sub-corpus (every 10th segment) of every system.
"""

from __future__ import annotations

import csv
import gzip

import numpy as np
import pytest
from _bleu_wmt import (
    ORACLES,
    TOKENIZERS_READY,
    TOKENIZERS_REASON,
    WMT22_PAIRS,
    ours_inputs,
    ours_refs,
    sacrebleu_tokenizer,
    target_tokenizer,
    wmt17_ref,
    wmt17_systems,
    wmt22_refs,
    wmt22_systems,
)

from nlgmetrics import bleu, sentence_bleu
from nlgmetrics import tokenize as our_tokenize
from nlgmetrics.compat import sacrebleu as compat

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402

SCORING = [(smooth, eff) for smooth in ("exp", "floor", "add-k", "none") for eff in (False, True)]
SENTENCE_STEP = 5  # sentence scores checked on every 5th segment (offset varies by system)
CASES = [(pair, refset) for pair in WMT22_PAIRS for refset in ("A", "AB")] + [("wmt17-en-de", "A")]
# With two references sacreBLEU is run on every 3rd segment of every system (the full two-reference
# corpus scores of every system are checked against the oracle file below).
AB_STEP = 3


@pytest.fixture(autouse=True)
def _needs_data(shared_data):
    return shared_data


def corpus(pair: str, refset: str) -> tuple[dict[str, list[str]], list[list[str]], str]:
    """(systems, reference streams, sacreBLEU tokenizer) of one test case."""
    if pair == "wmt17-en-de":
        return wmt17_systems(), [wmt17_ref()], "13a"
    refs = wmt22_refs(pair)
    streams = [refs["A"]] if refset == "A" else [refs["A"], refs["B"]]
    return wmt22_systems(pair), streams, target_tokenizer(pair)


def as_segments(streams: list[list[str]]) -> list[list[str]]:
    return [list(refs) for refs in zip(*streams)]


def ours_refs_tokenizer(tokenize: str) -> str:
    return ours_inputs([], tokenize, False)[1]


def sacre_metric(tokenize: str, **options) -> BLEU:
    """A sacreBLEU BLEU sharing one tokenizer (and its cache) with ``ours_inputs``."""
    metric = BLEU(tokenize=tokenize, **options)
    metric.tokenizer = sacrebleu_tokenizer(tokenize)
    return metric


def sacre_score(stats_row: list, smooth: str, eff: bool, max_order: int = 4):
    row = list(stats_row)
    return BLEU.compute_bleu(row[2:2 + max_order], row[2 + max_order:], int(row[0]), int(row[1]),
                             smooth_method=smooth, effective_order=eff, max_ngram_order=max_order)


def assert_same_score(ours, expected, raw_counts, raw_totals):
    assert ours.score == expected.score
    assert list(ours.precisions) == expected.precisions
    assert ours.bp == expected.bp
    assert (ours.sys_len, ours.ref_len) == (expected.sys_len, expected.ref_len)
    assert list(ours.counts) == raw_counts and list(ours.totals) == raw_totals


@pytest.mark.parametrize("pair, refset", CASES)
def test_every_system_every_smoothing_matches_sacrebleu(pair, refset):
    systems, streams, tokenize = corpus(pair, refset)
    step = AB_STEP if refset == "AB" else 1
    streams = [stream[::step] for stream in streams]
    metric = sacre_metric(tokenize)
    metric._ref_cache = metric._cache_references(streams)
    refs = ours_refs(as_segments(streams), tokenize, False)
    tokenized_refs = [list(segment) for segment in zip(*(our_tokenize(list(column), name=ours_refs_tokenizer(tokenize))
                                                         for column in zip(*refs)))]
    scorers = {(smooth, eff): BLEU(tokenize=tokenize, smooth_method=smooth, effective_order=eff)
               for smooth, eff in SCORING}
    for system_index, (name, hyps) in enumerate(systems.items()):
        hyps = hyps[::step]
        expected_rows = metric._extract_corpus_statistics(hyps, None)
        lines, ours_tokenize = ours_inputs(hyps, tokenize, False)
        summed = [int(v) for v in np.asarray(expected_rows, dtype=np.int64).sum(axis=0)]
        sample = range(system_index % SENTENCE_STEP, len(hyps), SENTENCE_STEP)
        first = bleu(lines, refs, tokenize=ours_tokenize)
        assert first.segment_stats.tolist() == expected_rows, name
        # The other settings only change the arithmetic: feed our own tokenization once, with "none".
        tokenized_hyps = our_tokenize(lines, name=ours_tokenize)
        for smooth, eff in SCORING:
            ours = first if (smooth, eff) == ("exp", False) else bleu(
                tokenized_hyps, tokenized_refs, tokenize="none", smooth=smooth, effective_order=eff)
            expected = scorers[smooth, eff]._compute_score_from_stats(list(summed))
            assert_same_score(ours, expected, summed[2:6], summed[6:])
            for index in sample:
                # per segment: sentence_bleu (effective order on) whatever the corpus option (issue 22)
                assert ours.segment_scores[index] == sacre_score(expected_rows[index], smooth, True).score, (
                    name, index, smooth, eff)


@pytest.mark.parametrize("pair, refset", CASES)
def test_sentence_bleu_api_on_segments_sampled_from_every_system(pair, refset):
    systems, streams, tokenize = corpus(pair, refset)
    segments = as_segments(streams)
    for system_index, (name, hyps) in enumerate(systems.items()):
        for index in np.linspace(system_index, len(hyps) - 1, 4, dtype=int):
            hyp, refs = hyps[index], segments[index]
            [hyp_in], tok_in = ours_inputs([hyp], tokenize, False)
            refs_in = ours_inputs(refs, tokenize, False)[0]
            for smooth, eff in SCORING:
                expected = sacrebleu.sentence_bleu(hyp, refs, smooth_method=smooth, tokenize=tokenize,
                                                   use_effective_order=eff)
                ours = sentence_bleu(hyp_in, refs_in, tokenize=tok_in, smooth=smooth, effective_order=eff)
                assert ours.score == expected.score, (name, index, smooth, eff)
                assert list(ours.precisions) == expected.precisions
                facade = compat.sentence_bleu(hyp_in, refs_in, smooth_method=smooth, tokenize=tok_in,
                                              use_effective_order=eff)
                assert (facade.score, facade.counts, facade.totals) == (expected.score, expected.counts,
                                                                        expected.totals)


@pytest.mark.parametrize("pair, refset", CASES)
def test_lowercase_on_a_sampled_subcorpus_of_every_system(pair, refset):
    systems, streams, tokenize = corpus(pair, refset)
    for system_index, (name, hyps) in enumerate(systems.items()):
        picked = slice(system_index % 10, None, 10)
        sub_hyps, sub_streams = hyps[picked], [stream[picked] for stream in streams]
        metric = sacre_metric(tokenize, lowercase=True, smooth_method="floor", effective_order=True)
        expected_rows = metric._extract_corpus_statistics(sub_hyps, sub_streams)
        expected = metric._aggregate_and_compute(expected_rows)
        lines, tok_in = ours_inputs(sub_hyps, tokenize, True)
        refs = ours_refs(as_segments(sub_streams), tokenize, True)
        ours = bleu(lines, refs, tokenize=tok_in, lowercase=True, smooth="floor", effective_order=True)
        assert ours.segment_stats.tolist() == expected_rows, name
        assert ours.score == expected.score and list(ours.precisions) == expected.precisions
        assert ours.signature.get("case") == "lc"


# ---------------------------------------------------------------------------------------------
# Oracle outputs

def read_tsv(path) -> list[dict]:
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_sacrebleu_oracle_system_scores():
    rows = read_tsv(ORACLES / "sacrebleu-2.6.0_wmt22_system_scores.tsv")
    assert len(rows) == 86
    for row in rows:
        pair = row["pair"]
        refs = wmt22_refs(pair)
        streams = [refs["A"]] if row["refs"] == "A" else [refs["A"], refs["B"]]
        hyps = wmt22_systems(pair)[row["system"]]
        columns = [("BLEU", row["BLEU_tokenize"])] + ([("BLEU_char", "char")] if row["BLEU_char"] else [])
        for column, tokenize in columns:
            lines, tok_in = ours_inputs(hyps, tokenize, False)
            result = bleu(lines, ours_refs(as_segments(streams), tokenize, False), tokenize=tok_in)
            assert abs(result.score - float(row[column])) < 5e-7, (pair, row["system"], column)
            assert result.signature.get("nrefs") == row["n_refs"]


def mteval_inputs(pair: str, system: str) -> tuple[list[str], list[list[str]]]:
    if pair == "wmt17-en-de":
        return wmt17_systems()[system[len("newstest2017."):-len(".en-de")]], [[ref] for ref in wmt17_ref()]
    return wmt22_systems(pair)[system], [[ref] for ref in wmt22_refs(pair)["A"]]


def mteval_segment_bleu(row: np.ndarray) -> float:
    """mteval-v13a.pl's segment BLEU (``bleu_score``): like sacreBLEU's exp smoothing, except that an
    order without hypothesis n-grams adds log 1 = 0 (sacreBLEU: log 0, the mean still over 4), and a
    segment without any match is smoothed too (sacreBLEU returns 0 early)."""
    hyp_len, ref_len, correct, total = int(row[0]), int(row[1]), row[2:6], row[6:10]
    import math

    bp = math.exp(min(0.0, 1 - ref_len / hyp_len)) if hyp_len > 0 else 0.0
    log_sum, smooth = 0.0, 1
    for c, t in zip(correct, total):
        if t == 0:
            continue
        if c == 0:
            smooth *= 2
            log_sum += math.log(1 / (smooth * t))
        else:
            log_sum += math.log(c / t)
    return math.exp(log_sum / 4) * bp


def test_mteval_system_and_segment_scores():
    systems = read_tsv(ORACLES / "mteval-v13a_c_system_scores.tsv")
    segments = read_tsv(ORACLES / "mteval-v13a_c_segment_scores.tsv.gz")
    by_system: dict[tuple[str, str], list[float]] = {}
    for row in segments:
        key = ("wmt17-en-de" if row["set"] == "wmt17" else row["pair"], row["system"])
        by_system.setdefault(key, []).append(float(row["BLEU_seg"]))
    assert len(systems) == 46 and sum(map(len, by_system.values())) == 106753
    checked_full = 0
    for row in systems:
        pair = "wmt17-en-de" if row["set"] == "wmt17" else row["pair"]
        hyps, refs = mteval_inputs(pair, row["system"])
        lines, tok_in = ours_inputs(hyps, "13a", False)
        result = bleu(lines, ours_refs(refs, "13a", False), tokenize=tok_in)
        assert abs(result.score / 100 - float(row["BLEU"])) < 1e-13, (pair, row["system"])
        expected_segments = by_system[(pair, row["system"])]
        assert len(expected_segments) == len(hyps)
        for index, (stats, ours, expected) in enumerate(zip(result.segment_stats, result.segment_scores,
                                                            expected_segments)):
            if stats[6:10].all() and stats[2:6].any():  # here mteval's formula is sacreBLEU's
                assert abs(ours / 100 - expected) < 1e-13, (pair, row["system"], index)
                checked_full += 1
            else:
                assert abs(mteval_segment_bleu(stats) - expected) < 1e-13, (pair, row["system"], index)
    assert checked_full > 95_000


def test_runs_end_to_end_with_our_tokenizers_or_says_why():
    if not TOKENIZERS_READY:
        pytest.skip("parity above ran on text pre-tokenized by sacreBLEU: the Rust tokenizers have not landed yet")
    hyps = wmt22_systems("en-zh")["Online-A"][:50]
    refs = wmt22_refs("en-zh")["A"][:50]
    assert bleu(hyps, refs, tokenize="zh").score == sacrebleu.corpus_bleu(hyps, [refs], tokenize="zh").score


@pytest.mark.parametrize("tokenize", ["none", "13a", "intl", "zh", "char", "ja-mecab", "ko-mecab"])
def test_every_tokenizer_on_samples_of_every_pair_and_system(tokenize):
    """End to end through our own tokenizers (no pre-tokenization): every 30th segment of every system
    (every 90th with ``char``, whose many tokens make sacreBLEU slow), lowercased for every other system."""
    if tokenize != "none" and not TOKENIZERS_READY:
        pytest.skip(TOKENIZERS_REASON)
    try:
        metric = BLEU(tokenize=tokenize)
    except (ImportError, RuntimeError) as error:  # MeCab or its dictionary missing
        pytest.skip(f"sacreBLEU cannot build {tokenize}: {error}")
    cases = [(pair, wmt22_systems(pair), [wmt22_refs(pair)["A"], wmt22_refs(pair)["B"]]) for pair in WMT22_PAIRS]
    cases.append(("wmt17-en-de", wmt17_systems(), [wmt17_ref()]))
    for pair, systems, streams in cases:
        step = 90 if tokenize == "char" else 30
        for system_index, (name, hyps) in enumerate(systems.items()):
            picked = slice(system_index % step, None, step)
            sub_hyps, sub_streams = hyps[picked], [stream[picked] for stream in streams]
            for lowercase in ((False, True) if system_index % 2 else (False,)):
                metric = BLEU(tokenize=tokenize, lowercase=lowercase)
                expected_rows = metric._extract_corpus_statistics(sub_hyps, sub_streams)
                expected = metric._aggregate_and_compute(expected_rows)
                ours = bleu(sub_hyps, as_segments(sub_streams), tokenize=tokenize, lowercase=lowercase)
                assert ours.segment_stats.tolist() == expected_rows, (pair, name, lowercase)
                assert ours.score == expected.score, (pair, name, lowercase)
                assert ours.signature.get("tok") == metric.tokenizer_signature
