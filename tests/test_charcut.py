"""CharCut against the ``charcut`` package 1.1.1 (what HF evaluate's ``charcut_mt`` calls), segment by segment,
with its difference highlighting (``compare_segments`` operations and the HTML spans of its report).

Real MT outputs: WMT17 en→de, WMT22 zh→en and en→zh systems, sampled evenly (every k-th system and segment).
"""

from __future__ import annotations

import pytest
from conftest import read_lines

import nlgmetrics

charcut_pkg = pytest.importorskip("charcut")
from charcut.charcut import compare_segments, score_pair  # noqa: E402
from charcut.html import ops2html  # noqa: E402

CORPORA = [
    ("wmt17_en_de_sacrebleu_testset", "newstest2017.en-de.ref.de", "newstest2017.*.hyp.de"),
    ("wmt22/zh-en", "generaltest2022.zh-en.ref.A.en", "generaltest2022.zh-en.hyp.*"),
    ("wmt22/en-zh", "generaltest2022.en-zh.ref.A.zh", "generaltest2022.en-zh.hyp.*"),
]


#: the contract tests' cases for this metric (tests/test_metric_interface.py reads this literal): (name, options,
#: data, corpus number independent of segment order)
CONTRACT_CASES = [("charcut", {}, "mt1", True)]


def _sample(shared_data, pair_dir, ref_name, pattern):
    folder = shared_data / "mt" / pair_dir
    ref = read_lines(folder / ref_name)
    for path in sorted(folder.glob(pattern))[::5]:
        hyp = read_lines(path)
        keep = range(0, len(hyp), 29)
        yield [hyp[i] for i in keep], [ref[i] for i in keep]


@pytest.mark.parametrize("pair_dir,ref_name,pattern", CORPORA)
def test_scores_and_highlighting_equal_charcut(shared_data, pair_dir, ref_name, pattern):
    for hyps, refs in _sample(shared_data, pair_dir, ref_name, pattern):
        result = nlgmetrics.charcut(hyps, refs)
        assert result.score == charcut_pkg.calculate_charcut(hyps, refs)[0]
        for i, (hyp, ref) in enumerate(zip(hyps, refs)):
            cand_ops, ref_ops = compare_segments(hyp.strip(), ref.strip(), 3)
            assert result.highlight(i) == ([tuple(op) for op in cand_ops], [tuple(op) for op in ref_ops])
            cost, div = score_pair(hyp.strip(), ref.strip(), cand_ops, ref_ops, False)
            assert tuple(result.segment_stats[i]) == (cost, div)
            assert result.segment_scores[i] == ((1.0 * cost / div) if div else 0.0)
            assert result.html(i) == ("".join(ops2html(cand_ops, f"{i + 1}.0")), "".join(ops2html(ref_ops, f"{i + 1}.0")))


def test_options_equal_charcut(shared_data):
    hyps, refs = next(_sample(shared_data, *CORPORA[0]))
    for match_size, alt_norm in ((2, False), (5, True), (1, False)):
        assert nlgmetrics.charcut(hyps, refs, match_size=match_size, alt_norm=alt_norm).score == \
            charcut_pkg.calculate_charcut(hyps, refs, match_size=match_size, alt_norm=alt_norm)[0]


def test_edge_cases_follow_the_reference():
    # labelled synthetic: empty sides, punctuation only, repeated substrings, whitespace to strip
    hyps = ["", "abc", "!!", "the the the cat", "  spaced out  ", "x"]
    refs = ["", "", "?!", "cat the the the", "spaced out", "xyz xyz"]
    result = nlgmetrics.charcut(hyps, refs)
    assert result.score == charcut_pkg.calculate_charcut(hyps, refs)[0]
    for i, (hyp, ref) in enumerate(zip(hyps, refs)):
        cand_ops, ref_ops = compare_segments(hyp.strip(), ref.strip(), 3)
        assert result.highlight(i) == ([tuple(op) for op in cand_ops], [tuple(op) for op in ref_ops])
    assert nlgmetrics.charcut([], []).score == 0.0


def test_bad_input_is_refused_with_clear_errors():
    with pytest.raises(ValueError, match="references has 1 entries but there are 2 hypotheses"):
        nlgmetrics.charcut(["a", "b"], ["a"])
    with pytest.raises(ValueError, match=r"references\[0\] has 2 references"):
        nlgmetrics.charcut(["a"], [["a", "b"]])
    with pytest.raises(ValueError, match="match_size must be at least 1"):
        nlgmetrics.charcut(["a"], ["a"], match_size=0)
    with pytest.raises(TypeError, match="match_size must be an int"):
        nlgmetrics.charcut(["a"], ["a"], match_size=2.5)
    with pytest.raises(TypeError, match="alt_norm must be a bool"):
        nlgmetrics.charcut(["a"], ["a"], alt_norm=1)
    with pytest.raises(ValueError, match=r"references\[0\]\[0\] contains a lone surrogate"):
        nlgmetrics.charcut(["a"], ["\ud800"])
    with pytest.raises(IndexError):
        nlgmetrics.charcut(["a"], ["a"]).highlight(3)
