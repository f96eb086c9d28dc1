"""TER parity with the real sacreBLEU 2.6.0 on real WMT22 data.

sacreBLEU's TER costs ~25 ms per segment, so it runs on even samples across every system of
every pair; our TER runs the full sets against the oracle table computed with sacreBLEU.
"""

from __future__ import annotations

import csv
import itertools

import pytest
from sacrebleu.metrics import TER
from sacrebleu.utils import sum_of_lists
from test_chrf_parity import PAIRS, wmt22

import nlgmetrics
from nlgmetrics.compat import sacrebleu as compat


def test_oracle_table_full_sets(shared_data):
    """Every row of sacrebleu-2.6.0_wmt22_TER_refA.tsv, on the full test sets."""
    table = shared_data / "mt" / "oracle_outputs" / "sacrebleu-2.6.0_wmt22_TER_refA.tsv"
    rows = list(csv.DictReader(open(table, encoding="utf-8"), delimiter="\t"))
    assert len(rows) == 26
    for row in rows:
        ref_a, _, systems = wmt22(shared_data, row["pair"])
        result = nlgmetrics.ter(systems[row["system"]], ref_a)
        assert f"{result.score:.6f}" == row["TER"], row
        assert result.num_edits == int(row["num_edits"]), row
        assert result.ref_length == float(row["ref_length"]), row
        assert int(result.segment_num_edits.sum()) == result.num_edits


@pytest.mark.parametrize("pair", PAIRS)
def test_every_system_on_an_even_sample(shared_data, pair):
    """6 segments per system (spread over the test set, shifted per system) against refs A and B."""
    ref_a, ref_b, systems = wmt22(shared_data, pair)
    oracle = TER()
    n = len(ref_a)
    for number, (system, hypotheses) in enumerate(sorted(systems.items())):
        indices = [(k * n) // 6 + number * 7 for k in range(6)]
        hyps = [hypotheses[i] for i in indices]
        streams = [[ref_a[i] for i in indices], [ref_b[i] for i in indices]]
        expected = oracle._extract_corpus_statistics(hyps, streams)
        result = nlgmetrics.ter(hyps, [list(refs) for refs in zip(*streams)])
        assert result.segment_num_edits.tolist() == [row[0] for row in expected], system
        assert result.segment_ref_lengths.tolist() == [row[1] for row in expected], system
        assert result.score == oracle._compute_score_from_stats(sum_of_lists(expected)).score, system
        assert result.segment_scores.tolist() == [oracle._compute_score_from_stats(row).score for row in expected]
        first = compat.sentence_ter(hyps[0], [streams[0][0], streams[1][0]])
        single = oracle.sentence_score(hyps[0], [streams[0][0], streams[1][0]])
        assert (first.score, first.num_edits, first.ref_length) == (single.score, single.num_edits, single.ref_length)


FLAGS = ["normalized", "no_punct", "asian_support", "case_sensitive"]


@pytest.mark.parametrize("values", list(itertools.product([False, True], repeat=4)),
                         ids=lambda v: "".join("NPAC"[i] if flag else "-" for i, flag in enumerate(v)))
def test_every_option_combination(shared_data, values):
    options = dict(zip(FLAGS, values))
    oracle = TER(**options)
    hyps, streams_a, streams_b = [], [], []
    for number, pair in enumerate(PAIRS):
        ref_a, ref_b, systems = wmt22(shared_data, pair)
        names = sorted(systems)
        for k in range(3):
            index = 101 * k + 13 * number + sum(values) * 31
            hyps.append(systems[names[(k + number) % len(names)]][index])
            streams_a.append(ref_a[index])
            streams_b.append(ref_b[index])
    streams = [streams_a, streams_b]
    expected = oracle._extract_corpus_statistics(hyps, streams)
    result = nlgmetrics.ter(hyps, [list(refs) for refs in zip(*streams)], **options)
    assert result.segment_num_edits.tolist() == [row[0] for row in expected]
    assert result.segment_ref_lengths.tolist() == [row[1] for row in expected]
    assert result.score == oracle._compute_score_from_stats(sum_of_lists(expected)).score
    ours = compat.TER(**options)
    assert ours.corpus_score(hyps, streams).score == result.score
    # _extract_corpus_statistics set the oracle's num_refs: signatures agree but for the version
    assert ours.get_signature().format(short=True).rsplit("|", 1)[0] == \
        oracle.get_signature().format(short=True).rsplit("|", 1)[0]


def test_compat_corpus_and_variable_references(shared_data):
    ref_a, ref_b, systems = wmt22(shared_data, "de-en")
    hyps = systems["PROMT"][:40]
    stream_b = [None if i % 3 == 0 else ("" if i % 5 == 0 else ref) for i, ref in enumerate(ref_b[:40])]
    streams = [ref_a[:40], stream_b]
    expected = TER().corpus_score(hyps, streams)
    got = compat.corpus_ter(hyps, streams)
    assert (got.score, got.num_edits, got.ref_length) == (expected.score, expected.num_edits, expected.ref_length)
    assert str(got) == str(expected) and got.format(width=5) == expected.format(width=5)
    metric = compat.TER(references=streams)
    assert metric.corpus_score(hyps).score == expected.score
    assert metric.get_signature().info["nrefs"] == "var"


def test_extreme_segments_match():
    """Length ratios beyond the beam, shift-candidate limits, long repetitive lines, empty sides."""
    long_ref = " ".join(f"w{i % 7}" for i in range(140))
    cases = [
        ("a", long_ref),                                      # ratio 140: widened beam
        (long_ref, "w1"),
        (" ".join(f"w{i % 3}" for i in range(90)), long_ref),  # many candidates: the 1000 limit
        (" ".join(reversed(long_ref.split())), long_ref),
        ("", "a b c"), ("a b c", ""), ("", ""), ("   ", "x"),
        ("x " * 60 + "y z", "y z " + "x " * 60),                # shift farther than MAX_SHIFT_DIST
    ]
    oracle = TER()
    for hyp, ref in cases:
        expected = oracle.sentence_score(hyp, [ref])
        got = nlgmetrics.sentence_ter(hyp, ref)
        assert (got.score, got.num_edits, got.ref_length) == (expected.score, expected.num_edits, expected.ref_length), hyp[:30]
