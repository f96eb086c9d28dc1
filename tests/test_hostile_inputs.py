"""Every row of issue 13's table of hostile inputs, as a test (the fork row: test_fork_safety.py; the
METEOR cache row: test_meteor_cache.py; the empty file row: test_cli.py).

The pathological inputs run in a child process with an address-space limit, so a regression fails
(MemoryError, or the child dies) instead of taking the machine's memory, and with a timeout instead
of hanging. The inputs are synthetic (labelled as such): repetitions no real text has; where a
number can be checked it is compared with the reference library on real data.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest
from conftest import read_lines

import nlgmetrics
from nlgmetrics import _core

# Address space a child may map (rayon stacks and numpy included); the old code took 8-34 GB here.
LIMIT_BYTES = 3 * 2**30
TIMEOUT = 300

CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
import nlgmetrics
try:
    value = {expression}
    print(json.dumps({{"value": value}}))
except ValueError as error:
    print(json.dumps({{"error": str(error)}}))
"""


def run_limited(expression: str) -> dict:
    """Evaluate ``expression`` in a memory-limited child: {"value": …} or {"error": ValueError text}."""
    code = CHILD.format(limit=LIMIT_BYTES, expression=expression)
    done = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"the child died (code {done.returncode}): {done.stderr[-2000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- METEOR

def test_meteor_3000_repeated_words_is_bounded():
    # Synthetic: "a " * 3000 against itself; 9 million candidate matches, all used by the beam.
    out = run_limited('nlgmetrics.meteor(["a " * 3000], ["a " * 3000], modules=["exact", "stem"]).score')
    assert out == {"value": 1.0}


def test_meteor_64000_words_is_refused_not_aborted():
    # Synthetic: 64,000 repeated words each side: 4 billion candidates (the old code aborted on a 33.8 GB allocation).
    out = run_limited('nlgmetrics.meteor(["a " * 64000], ["a " * 64000], modules=["exact"]).score')
    assert "METEOR segment 0" in out["error"] and "max_candidates=10000000" in out["error"]


def test_meteor_64000_distinct_words_is_scored():
    # Synthetic: 64,000 distinct words each side, identical: few candidates, so it is scored (1.0).
    text = '" ".join(f"w{i}" for i in range(64000))'
    out = run_limited(f'nlgmetrics.meteor([{text}], [{text}], modules=["exact"]).score')
    assert out == {"value": 1.0}


def test_meteor_alternating_tokens_is_bounded():
    # Synthetic: "a b a b …" against "b a b a …", 2,000 tokens (31 s and 2 GB before).
    hyp = '" ".join("ab"[i % 2] for i in range(2000))'
    ref = '" ".join("ba"[i % 2] for i in range(2000))'
    out = run_limited(f'nlgmetrics.meteor([{hyp}], [{ref}], modules=["exact", "stem"]).score')
    assert 0.0 < out["value"] < 1.0


def test_meteor_max_candidates_is_an_option():
    hyp, ref = "a " * 40, "a " * 40
    with pytest.raises(ValueError, match="segment 0: .*max_candidates=100 "):
        nlgmetrics.meteor([hyp], [ref], modules=["exact"], max_candidates=100)
    assert nlgmetrics.meteor([hyp], [ref], modules=["exact"], max_candidates=1600).score == 1.0


def test_meteor_beam_rewrite_matches_the_jar_on_real_data(shared_data):
    # The beam search keeps only the best paths' bitsets now: the jar's outputs on the xray data
    # (test_meteor.py checks all 2,489 segments with paraphrases; this is the exact+stem subset
    # against the unbounded search, for a quick signal).
    folder = shared_data / "mt" / "meteor_examples" / "xray"
    hyps = read_lines(folder / "system1.hyp")[:200]
    refs = read_lines(folder / "reference")[:200]
    default = nlgmetrics.meteor(hyps, refs, modules=["exact", "stem"])
    unbounded = nlgmetrics.meteor(hyps, refs, modules=["exact", "stem"], max_candidates=_core.METEOR_MAX_CANDIDATES_LIMIT)
    assert list(default.segment_scores) == list(unbounded.segment_scores)


# ---------------------------------------------------------------- TER

def test_ter_32000_word_pair_is_bounded(shared_data):
    # Real words (WMT17 en-de system output and reference, concatenated to 32,000 words each);
    # 43 s and 8.8 GB before (the full edit-distance table), now the beam only.
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    hyp = " ".join(" ".join(read_lines(folder / "newstest2017.KIT.4950.en-de.hyp.de")).split()[:32000])
    ref = " ".join(" ".join(read_lines(folder / "newstest2017.en-de.ref.de")).split()[:32000])
    out = run_limited(f"nlgmetrics.ter([{hyp!r}], [{ref!r}]).score")
    assert 0.0 < out["value"] < 100.0


def test_ter_long_pair_matches_sacrebleu(shared_data):
    # The banded table is exact: a 150-word pair (real text) against sacreBLEU's TER.
    from sacrebleu.metrics import TER

    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    words_h = " ".join(read_lines(folder / "newstest2017.KIT.4950.en-de.hyp.de")).split()
    words_r = " ".join(read_lines(folder / "newstest2017.en-de.ref.de")).split()
    for start in (0, 5000):
        hyp, ref = " ".join(words_h[start:start + 150]), " ".join(words_r[start:start + 170])
        assert nlgmetrics.ter([hyp], [ref]).score == TER().sentence_score(hyp, [ref]).score


# ---------------------------------------------------------------- integer options

@pytest.mark.parametrize("call, message", [
    (lambda: nlgmetrics.chrf(["a"], ["a"], word_order=2**40), "word_order must be between 0 and 100"),
    (lambda: nlgmetrics.chrf(["a"], ["a"], char_order=101), "char_order must be between 0 and 100"),
    (lambda: nlgmetrics.chrf_pairwise(["a"], ["a"], word_order=2**40), "word_order must be between 0 and 100"),
    (lambda: nlgmetrics.bleu(["a"], ["a"], max_order=2**40), "max_order must be between 1 and 100"),
    (lambda: nlgmetrics.bleu(["a"], ["a"], preset="nltk", max_order=2**40), "max_order must be between 1 and 100"),
    (lambda: nlgmetrics.bleu_pairwise(["a"], ["a"], max_order=2**40), "max_order must be between 1 and 100"),
    (lambda: nlgmetrics.bleu(["a"], ["a"], threads=2**40), "threads must be between 1 and 1024"),
    (lambda: nlgmetrics.meteor(["a"], ["a"], beam_size=2**40), "beam_size must be an int between 1 and 100000"),
    (lambda: nlgmetrics.cider(["a"], [["a"]], n=2**40), "n must be between 1 and 4"),
    (lambda: nlgmetrics.rouge(["a"], ["a"], variants=["rouge99"]), "invalid ROUGE variant"),
    (lambda: nlgmetrics.rouge(["a"], ["a"], bootstrap=2**40), "n_samples must be a positive integer"),
    (lambda: nlgmetrics.rouge(["a"], ["a"], preset="rouge155", bootstrap=2**40), "n_samples must be a positive integer"),
    (lambda: nlgmetrics.confidence_interval(["a"], ["a"], n_samples=2**40), "n_samples must be a positive int"),
    (lambda: nlgmetrics.paired_test({"a": ["x"], "b": ["y"]}, ["x"], n_samples=0), "n_samples must be a positive int"),
])
def test_out_of_range_integer_options_raise(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------- ROUGE and huge lines

@pytest.mark.parametrize("preset", ["rouge155", "rouge_score"])
def test_rouge_on_a_256000_word_document_is_refused_not_aborted(preset):
    # Synthetic: 256,000 two-letter words (768,000 characters, under the segment limit; 8 GB and an abort before).
    doc = '" ".join(chr(97 + i % 26) + chr(97 + i * 7 % 23) for i in range(256000))'
    out = run_limited(f'nlgmetrics.rouge([{doc}], [{doc}], preset="{preset}")["rougeL"].fmeasure')
    assert "segment 0: a longest-common-subsequence of 256000 × 256000 tokens" in out["error"]


def test_rouge_l_within_the_limit_is_exact(shared_data):
    # A whole CNN/DM article (real text, one line) against its highlights: within the limit, as rouge_score.
    from rouge_score import rouge_scorer

    path = shared_data / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl"
    with open(path, encoding="utf-8") as handle:
        lines = [json.loads(next(handle)) for _ in range(40)]
    text = " ".join(" ".join(str(v) for v in line.values()) for line in lines).split()[:5000]
    text, reference = " ".join(text), " ".join(text[::3])
    ours = nlgmetrics.rouge([text], [reference], variants=["rougeL"])["rougeL"].fmeasure
    theirs = rouge_scorer.RougeScorer(["rougeL"]).score(reference, text)["rougeL"].fmeasure
    assert ours == theirs


def test_a_segment_over_the_size_limit_is_refused():
    from nlgmetrics.core.inputs import MAX_SEGMENT_CHARS as limit
    for metric in (nlgmetrics.bleu, nlgmetrics.chrf, nlgmetrics.ter, nlgmetrics.rouge, nlgmetrics.meteor):
        with pytest.raises(ValueError, match=r"references\[0\]\[1\] has 1,000,001 characters"):
            metric(["a"], [["b", "x" * (limit + 1)]])
        with pytest.raises(ValueError, match=r"(hypotheses|predictions)\[1\] has"):
            metric(["a", "y" * (limit + 1)], ["a", "b"])


@pytest.mark.parametrize("metric", ["ter", "rouge"])
def test_cli_on_a_10_mb_line_exits_1_with_a_message(tmp_path, metric):
    # Synthetic: one 10 MB line (the CLI process died before).
    big = tmp_path / "big.txt"
    big.write_text("word " * 2_000_000 + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "nlgmetrics", metric, "-r", str(big), "-i", str(big)],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 1 and done.stdout == ""
    assert "characters, more than the limit of 1,000,000 per segment" in done.stderr


# ---------------------------------------------------------------- sacreBLEU's reference layout

@pytest.fixture(scope="module")
def two_streams(shared_data):
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    hyps = read_lines(folder / "newstest2017.KIT.4950.en-de.hyp.de")[:2]
    stream_a = read_lines(folder / "newstest2017.en-de.ref.de")[:2]
    stream_b = read_lines(folder / "newstest2017.LIUM-NMT.4900.en-de.hyp.de")[:2]
    return hyps, stream_a, stream_b


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_square_stream_layout_is_refused_not_misread(two_streams, metric):
    hyps, stream_a, stream_b = two_streams
    with pytest.raises(ValueError, match="ambiguous: 2 hypotheses and 2 lists of 2 references"):
        getattr(nlgmetrics, metric)(hyps, [stream_a, stream_b])


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_streams_transposed_give_sacrebleus_number(two_streams, metric):
    import sacrebleu

    hyps, stream_a, stream_b = two_streams
    reference = {"bleu": sacrebleu.corpus_bleu, "chrf": sacrebleu.corpus_chrf, "ter": sacrebleu.corpus_ter}[metric]
    ours = getattr(nlgmetrics, metric)(hyps, list(zip(stream_a, stream_b))).score
    assert ours == pytest.approx(reference(hyps, [stream_a, stream_b]).score, rel=1e-12)


def test_sacrebleu_preset_with_custom_weights_refuses_the_square_layout_too(two_streams):
    # Custom weights change the arithmetic, not who passes streams: the BLEU preset decides.
    hyps, stream_a, stream_b = two_streams
    with pytest.raises(ValueError, match="ambiguous: 2 hypotheses and 2 lists of 2 references"):
        nlgmetrics.bleu(hyps, [stream_a, stream_b], weights=(0.5, 0.5), max_order=2)


def test_per_hypothesis_presets_read_the_square_layout_per_hypothesis(two_streams):
    # NLTK and pycocoevalcap take one reference list per hypothesis: nothing there reads as streams.
    import nltk.translate.bleu_score as nltk_bleu

    hyps, stream_a, stream_b = two_streams
    refs = [stream_a, stream_b]
    ours = nlgmetrics.bleu(hyps, refs, preset="nltk", tokenize="none").score
    expected = nltk_bleu.corpus_bleu([[r.split() for r in entry] for entry in refs], [h.split() for h in hyps])
    assert ours == pytest.approx(expected, rel=1e-12)


def test_stream_layout_of_other_lengths_is_explained(two_streams):
    hyps, stream_a, _ = two_streams
    with pytest.raises(ValueError, match=r"looks like sacreBLEU's layout \(1 reference streams of 2 strings\)"):
        nlgmetrics.bleu(hyps, [stream_a])


def test_symmetric_or_per_hypothesis_metrics_are_not_refused():
    # Both readings agree (symmetric), or the metric's users never meant streams (METEOR, ROUGE).
    refs = [["x y", "a b"], ["a b", "z w"]]
    assert nlgmetrics.bleu(["x y", "z w"], refs).score >= 0
    assert nlgmetrics.meteor(["a b", "c d"], [["a b", "c"], ["c d", "e"]]).score > 0


# ---------------------------------------------------------------- SQuAD

def test_squad_predictions_matching_no_question_warn():
    data = [{"paragraphs": [{"qas": [{"id": "q1", "answers": [{"text": "Paris"}]}]}]}]
    with pytest.warns(UserWarning, match="none of the 1 prediction ids matches a question"):
        result = nlgmetrics.squad({"other-id": "Paris"}, data)
    assert result.scores == {"exact_match": 0.0, "f1": 0.0}
    with pytest.warns(UserWarning, match="1 of the 2 prediction ids match no question"):
        nlgmetrics.squad({"q1": "Paris", "zz": "x"}, data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nlgmetrics.squad({"q1": "Paris"}, data)


# ---------------------------------------------------------------- panics

@pytest.mark.parametrize("released", [True, False])
def test_a_rust_panic_becomes_runtime_error(released):
    with pytest.raises(RuntimeError, match="internal error in nlgmetrics .*: boom"):
        _core._panic_for_tests("boom", released)


def test_a_segment_over_the_size_limit_is_refused_in_columns_too():
    # Synthetic: one over-long cell in an Arrow column and in a pandas column (the Arrow path reads buffers in Rust).
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    from nlgmetrics.core.inputs import MAX_SEGMENT_CHARS as limit
    long_text = "é" * (limit + 1)
    for metric in (nlgmetrics.bleu, nlgmetrics.chrf, nlgmetrics.ter):
        with pytest.raises(ValueError, match=r"\[1\] has 1,000,001 characters"):
            metric(pa.array(["a", long_text]), pa.array(["a", "b"]))
        with pytest.raises(ValueError, match=r"\[0\] has 1,000,001 characters"):
            metric(pd.Series(["a", "b"]), pd.Series([long_text, "b"]))
    # Under the limit in characters, over it in bytes: scored.
    assert nlgmetrics.bleu(pa.array(["é" * (limit // 2 + 1)]), pa.array(["é"])).score == 0.0
