"""``nlgmetrics.bleu(..., preset="nltk")`` against NLTK 3.10.4: corpus score and per-segment scores."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import read_lines

import nlgmetrics

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
SEGMENTS = 150


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.fixture(scope="module")
def one_system_per_pair(shared_data):
    found = []
    for pair in ("zh-en", "en-zh", "de-en", "en-de"):
        folder = shared_data / "mt" / "wmt22" / pair
        target = pair.split("-")[1]
        refs_a = read_lines(folder / f"generaltest2022.{pair}.ref.A.{target}")
        refs_b = read_lines(folder / f"generaltest2022.{pair}.ref.B.{target}")
        hyp_path = sorted(folder.glob(f"generaltest2022.{pair}.hyp.*"))[0]
        step = len(refs_a) // SEGMENTS
        lines = range(0, len(refs_a), step)
        hyps = read_lines(hyp_path)
        found.append(([hyps[i] for i in lines], [[refs_a[i], refs_b[i]] for i in lines]))
    return found


def test_seed_example_on_the_0_to_1_scale():
    result = nlgmetrics.sentence_bleu("The cat sat on the mat", ["The cat is on the mat"], preset="nltk",
                                      tokenize="none", max_order=3, weights=[0.5, 0.25, 0.125], smooth="none")
    assert result.score == 0.6756000774035172
    assert result.signature.get("scale") == "0-1"
    assert result.counts == (5, 3, 1) and result.totals == (6, 5, 4)


@pytest.mark.parametrize("smooth", ["none"] + [f"method{i}" for i in range(8)])
def test_corpus_and_segment_scores_match_nltk(one_system_per_pair, smooth):
    for hyps, refs in one_system_per_pair:
        hyp_tokens = [h.split() for h in hyps]
        ref_tokens = [[r.split() for r in rs] for rs in refs]
        smoothing = None if smooth == "none" else getattr(nltk_bleu.SmoothingFunction(), smooth)
        auto_reweigh = smooth in ("method2", "method4")
        try:
            expected = _quiet(nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens, smoothing_function=smoothing,
                              auto_reweigh=auto_reweigh)
        except AssertionError:
            continue
        result = nlgmetrics.bleu(hyps, refs, preset="nltk", smooth=smooth, auto_reweigh=auto_reweigh)
        assert result.score == float(expected)
        assert result.segment_stats.shape == (len(hyps), 10)
        for line, (hyp, segment_refs) in enumerate(zip(hyp_tokens, ref_tokens)):
            try:
                expected_segment = _quiet(nltk_bleu.sentence_bleu, segment_refs, hyp, smoothing_function=smoothing,
                                          auto_reweigh=auto_reweigh)
            except (AssertionError, ZeroDivisionError):
                assert np.isnan(result.segment_scores[line])
                continue
            assert result.segment_scores[line] == float(expected_segment), line


def test_options_lowercase_weights_and_parameters(one_system_per_pair):
    hyps, refs = one_system_per_pair[2]
    hyp_tokens = [h.lower().split() for h in hyps]
    ref_tokens = [[r.lower().split() for r in rs] for rs in refs]
    smoothing = nltk_bleu.SmoothingFunction(epsilon=0.3, alpha=2, k=3)
    for smooth in ("method1", "method4", "method6", "method7"):
        expected = _quiet(nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens, (0.4, 0.3, 0.2, 0.1, 0.05),
                          getattr(smoothing, smooth))
        result = nlgmetrics.bleu(hyps, refs, preset="nltk", lowercase=True, max_order=5,
                                 weights=[0.4, 0.3, 0.2, 0.1, 0.05], smooth=smooth, epsilon=0.3, alpha=2, k=3)
        assert result.score == expected
    assert nlgmetrics.bleu(["x y"], [["a b"]], preset="nltk").score == 0.0  # NLTK's int 0, as a float


def test_errors():
    hyps, refs = ["a b c"], [["a b c"]]
    with pytest.raises(ValueError, match="smoothing method"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", smooth="exp")
    with pytest.raises(ValueError, match="smooth_value"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", smooth="method1", smooth_value=0.2)
    with pytest.raises(ValueError, match="effective_order"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", effective_order=True)
    with pytest.raises(TypeError, match="one weight vector"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", weights=[(0.5, 0.5), (1,)])
    with pytest.raises(ValueError, match="max_order"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", weights=[0.5, 0.5])
    with pytest.raises(TypeError, match="epsilon"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", smooth="method1", epsilon="big")
    with pytest.raises(ValueError, match="empty"):
        nlgmetrics.bleu([], [], preset="nltk")
    with pytest.raises(ValueError, match="tokenizer"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", tokenize="nope")
    with pytest.raises(TypeError):
        nlgmetrics.bleu(hyps, refs, preset="nltk", auto_reweigh="yes")
    with pytest.raises(ValueError, match="method6"):
        nlgmetrics.bleu(["a b x d"], [["a b c d"]], preset="nltk", smooth="method6")
    with pytest.raises(ValueError, match="method6"):
        nlgmetrics.bleu(hyps, refs, preset="nltk", smooth="method6", max_order=2)
    assert np.isfinite(nlgmetrics.bleu(["", " \t"], [["a"], [""]], preset="nltk").segment_scores).all()


def test_rust_segment_scores_equal_the_exact_python_arithmetic(shared_data):
    """Every segment of a WMT17 and a WMT22 system: the parallel Rust scorer (methods 0-4) against
    the Python arithmetic that reproduces NLTK's (itself compared to NLTK above)."""
    from nlgmetrics import _core
    from nlgmetrics.metrics.bleu.nltk import SmoothingFunction, score_from_counts

    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    hyps = read_lines(sorted(folder.glob("newstest2017.*.hyp.de"))[0])
    refs = [[line] for line in read_lines(folder / "newstest2017.en-de.ref.de")]
    hyps += read_lines(sorted((shared_data / "mt" / "wmt22" / "en-zh").glob("*.hyp.*"))[0])
    refs += [[line] for line in read_lines(shared_data / "mt" / "wmt22" / "en-zh" / "generaltest2022.en-zh.ref.A.zh")]
    hyps += ["", "a", "a b", "a b c"]
    refs += [["a"], ["a b c d"], ["a b"], ["a b c d e f"]]
    for weights in [(0.25, 0.25, 0.25, 0.25), (0.5, 0.25, 0.125), (1,), (0.2, 0.3, 0.1, 0.2, 0.2)]:
        order = len(weights)
        rows = _core.bleu_nltk_text_stats(hyps, refs, {"max_order": order, "tokenize": "none"})
        for smooth in ("method0", "method1", "method2", "method3", "method4"):
            for auto_reweigh in (False, True):
                method = getattr(SmoothingFunction(epsilon=0.2, k=3), smooth)
                fast = _core.bleu_nltk_float_scores(rows, {
                    "max_order": order, "weights": [float(w) for w in weights], "smooth": smooth, "epsilon": 0.2,
                    "k": 3.0, "auto_reweigh": auto_reweigh, "weights_are_default": weights == (0.25,) * 4})
                for line, row in enumerate(rows):
                    counts = [int(v) for v in row]
                    expected = _quiet(score_from_counts, counts[2:2 + order], counts[2 + order:], counts[0], counts[1],
                                      [weights], method, auto_reweigh)[0]
                    assert fast[line] == float(expected), (weights, smooth, auto_reweigh, line)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_words = st.lists(st.sampled_from(["a", "b", "c", "the", "\u00e9t\u00e9", "\u72d7"]), max_size=9)
_spaces = st.sampled_from([" ", "\t", "  ", "\u3000", "\x1e"])
_line = st.tuples(_words, _spaces).map(lambda parts: parts[1].join(parts[0]))


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(_line, st.lists(_line, min_size=1, max_size=3)), min_size=1, max_size=5),
       st.sampled_from(["none", "method1", "method2", "method3", "method4", "method5", "method7"]), st.booleans())
def test_random_lines_match_nltk(segments, smooth, auto_reweigh):
    hyps = [hyp for hyp, _ in segments]
    refs = [segment_refs for _, segment_refs in segments]
    smoothing = None if smooth == "none" else getattr(nltk_bleu.SmoothingFunction(), smooth)
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[r.split() for r in rs] for rs in refs]
    result = nlgmetrics.bleu(hyps, refs, preset="nltk", smooth=smooth, auto_reweigh=auto_reweigh)
    expected = _quiet(nltk_bleu.corpus_bleu, ref_tokens, hyp_tokens, smoothing_function=smoothing,
                      auto_reweigh=auto_reweigh)
    assert result.score == float(expected)
    for line, (hyp, segment_refs) in enumerate(zip(hyp_tokens, ref_tokens)):
        expected_segment = _quiet(nltk_bleu.sentence_bleu, segment_refs, hyp, smoothing_function=smoothing,
                                  auto_reweigh=auto_reweigh)
        assert result.segment_scores[line] == float(expected_segment)
