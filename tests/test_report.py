"""nlgmetrics.report: its numbers against the public API and against compare-mt 0.2.10 on real WMT22 data,
its input errors, and the page rendered in headless Chromium (console, network, screenshot, table values)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from _chromium import chromium_path, load_page
from conftest import read_lines

import nlgmetrics
from nlgmetrics.report import analyses
from nlgmetrics.report.build import build
from nlgmetrics.report.html import render
from nlgmetrics.report.ngrams import TokenCorpus

N_SEGMENTS = 600  # evenly spaced segments of each WMT22 test set keep the suite fast


def _wmt22(shared_data: Path, pair: str, n_systems: int, n_segments: int = N_SEGMENTS):
    folder = shared_data / "mt" / "wmt22" / pair
    target = pair.split("-")[1]
    refs_a = read_lines(folder / f"generaltest2022.{pair}.ref.A.{target}")
    refs_b = read_lines(folder / f"generaltest2022.{pair}.ref.B.{target}")
    keep = analyses.even_sample(len(refs_a), n_segments)
    systems = {}
    for path in sorted(folder.glob(f"generaltest2022.{pair}.hyp.*"))[:n_systems]:
        lines = read_lines(path)
        systems[path.name.split(".hyp.")[1].rsplit(".", 1)[0]] = [lines[i] for i in keep]
    return systems, [refs_a[i] for i in keep], [refs_b[i] for i in keep]


@pytest.fixture(scope="module")
def de_en(shared_data):
    return _wmt22(shared_data, "de-en", 3)


def test_table_equals_the_public_api(de_en):
    systems, refs_a, refs_b = de_en
    references = list(zip(refs_a, refs_b))
    metrics = ["bleu", "chrf", "ter", "rouge1", "rougeL"]
    data = build(systems, references, metrics, n_samples=200, seed=7)
    tested = nlgmetrics.paired_test(systems, references, metrics=metrics, test="bs", n_samples=200, seed=7)
    for entry, (name, rows) in zip(data["table"]["metrics"], tested.rows.items()):
        assert entry["name"] == name
        for mine, theirs in zip(entry["rows"], rows):
            assert mine["system"] == theirs.system
            assert mine["score"] == theirs.score
            assert mine["p_value"] == theirs.p_value
            assert math.isclose(mine["ci_low"], theirs.mean - theirs.ci, rel_tol=0, abs_tol=0)
            assert mine["ci_high"] == theirs.mean + theirs.ci
    for name, hypotheses in systems.items():
        assert data["table"]["metrics"][0]["rows"][list(systems).index(name)]["score"] == nlgmetrics.bleu(hypotheses, references).score
        sentence = nlgmetrics.bleu(hypotheses, references, effective_order=True).segment_scores
        assert np.array_equal(data["segments"]["bleu"]["histograms"][name]["counts"],
                              np.bincount(np.clip((sentence // 10).astype(int), 0, 9), minlength=10))


def test_bootstrap_in_blocks_keeps_scores_and_bounds_memory(de_en, monkeypatch):
    systems, refs_a, _ = de_en
    whole = build(systems, refs_a, ["bleu", "chrf"], n_samples=200)
    monkeypatch.setattr(analyses, "BOOTSTRAP_CELLS", 50 * N_SEGMENTS)  # 50 samples a block
    blocked = build(systems, refs_a, ["bleu", "chrf"], n_samples=200)
    assert blocked["table"]["blocks"] == 4 and whole["table"]["blocks"] == 1
    for one, other in zip(whole["table"]["metrics"], blocked["table"]["metrics"]):
        for a, b in zip(one["rows"], other["rows"]):
            assert a["score"] == b["score"] and a["verdict"] == b["verdict"]
            assert abs(b["mean"] - a["mean"]) < 0.5  # other draws, same distribution
    assert "drawn in 4 blocks" in render(blocked)


def test_verdicts_follow_each_metrics_direction(de_en):
    systems, refs_a, _ = de_en
    data = build(systems, refs_a, ["bleu", "ter"], n_samples=200)
    for metric in data["table"]["metrics"]:
        baseline = metric["rows"][0]["score"]
        for row in metric["rows"][1:]:
            if row["p_value"] >= 0.05:
                assert row["verdict"] == "no significant difference"
            else:
                higher = row["score"] > baseline
                assert row["verdict"] == ("better" if higher == metric["higher_is_better"] else "worse")


# --- compare-mt parity: the numbers both tools compute, on the same tokens -------------------------------

@pytest.fixture(scope="module")
def compare_mt_inputs(shared_data):
    pytest.importorskip("compare_mt", reason="compare-mt==0.2.10 (test extra) is not installed")
    systems, refs_a, _ = _wmt22(shared_data, "zh-en", 4, n_segments=800)
    reference_tokens = analyses.word_tokens(refs_a, "13a")
    system_tokens = {name: analyses.word_tokens(lines, "13a") for name, lines in systems.items()}
    return systems, refs_a, reference_tokens, system_tokens


def test_bucket_counts_equal_compare_mt(compare_mt_inputs):
    from compare_mt import bucketers

    systems, refs_a, reference_tokens, system_tokens = compare_mt_inputs
    data = build(systems, refs_a, ["bleu"], n_samples=10)
    length = bucketers.LengthSentenceBucketer()
    diff = bucketers.LengthDiffSentenceBucketer()
    first = next(iter(systems))
    by_length = length.create_bucketed_corpus(system_tokens[first], ref=reference_tokens)
    assert data["segments"]["bleu"]["by_length"]["labels"] == length.bucket_strs
    assert data["segments"]["bleu"]["by_length"]["counts"] == [len(bucket[0]) for bucket in by_length]
    for name in systems:
        buckets = diff.create_bucketed_corpus(system_tokens[name], ref=reference_tokens)
        ours = data["segments"]["bleu"]["by_length_diff"][name]
        assert ours["labels"] == diff.bucket_strs
        assert ours["counts"] == [len(bucket[0]) for bucket in buckets]


def test_word_fmeasure_by_frequency_equals_compare_mt(compare_mt_inputs):
    from compare_mt import bucketers

    systems, refs_a, reference_tokens, system_tokens = compare_mt_inputs
    data = build(systems, refs_a, ["bleu"], n_samples=10)
    bucketer = bucketers.FreqWordBucketer(freq_data=reference_tokens)
    statistics, *_ = bucketer.calc_statistics(reference_tokens, list(system_tokens.values()))
    assert data["word_fmeasure"]["labels"] == bucketer.bucket_strs
    for index, name in enumerate(systems):
        theirs = statistics[index]
        ours = data["word_fmeasure"][name]
        assert ours["matches"] == [int(row[0]) for row in theirs]
        assert data["word_fmeasure"]["reference_totals"] == [int(row[1]) for row in theirs]
        assert ours["output_totals"] == [int(row[2]) for row in theirs]
        assert ours["fmeasure"] == [row[5] for row in theirs]  # same formula, same floats


def test_ngram_matches_and_salience_equal_compare_mt(compare_mt_inputs):
    from compare_mt import ngram_utils, stat_utils

    systems, _, reference_tokens, system_tokens = compare_mt_inputs
    corpus = TokenCorpus(reference_tokens, system_tokens)
    names = list(systems)
    matches = {}
    for name in names:
        totals, match, _, _ = ngram_utils.compare_ngrams(reference_tokens, system_tokens[name])
        ours_totals, ours_matches = {}, {}
        for order in range(1, 5):
            counts, matched = corpus.ngram_counts(name, order)
            for gram in np.flatnonzero(counts):
                key = tuple(corpus.ngram_text(order, int(gram)).split(" "))
                ours_totals[key], ours_matches[key] = int(counts[gram]), int(matched[gram])
        assert ours_totals == dict(totals)
        assert {k: v for k, v in ours_matches.items() if v} == {k: v for k, v in match.items() if v}
        matches[name] = match
    from nlgmetrics.report.ngrams import salient_ngrams

    salience = stat_utils.extract_salient_features(matches[names[1]], matches[names[0]])
    for row in salient_ngrams(corpus, names[1], names[0], top=20):
        assert row["salience"] == salience[tuple(row["ngram"].split(" "))]
    assert max(salience.values()) == salient_ngrams(corpus, names[1], names[0], top=1)[0]["salience"]


def test_aggregate_bleu_equals_compare_mt(compare_mt_inputs):
    from compare_mt import scorers

    systems, refs_a, reference_tokens, system_tokens = compare_mt_inputs
    # compare-mt counts at least one n-gram per order for a sentence shorter than n (max(1, denominator),
    # scorers.py BleuScorer._precision); where every hypothesis has 4 tokens or more the two BLEUs coincide.
    keep = [i for i in range(len(refs_a)) if all(len(tokens[i]) >= 4 for tokens in system_tokens.values())]
    assert len(keep) > 700
    subset = {name: [lines[i] for i in keep] for name, lines in systems.items()}
    data = build(subset, [refs_a[i] for i in keep], ["bleu"], n_samples=10)
    scorer = scorers.create_scorer_from_profile("bleu")
    for row, name in zip(data["table"]["metrics"][0]["rows"], systems):
        theirs, _ = scorer.score_corpus([reference_tokens[i] for i in keep], [system_tokens[name][i] for i in keep])
        assert math.isclose(row["score"], theirs, rel_tol=1e-12)


# --- input errors -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("systems, references, kwargs, error, message", [
    ({"a": ["x"]}, ["x"], {}, ValueError, "at least two systems"),
    ({"a": ["x"], "b": ["x", "y"]}, ["x"], {}, ValueError, "systems['b'] has 2 segments"),
    ({"a": [], "b": []}, [], {}, ValueError, "at least one segment"),
    ({"a": ["x"], "b": [1]}, ["x"], {}, TypeError, "systems['b'][0]"),
    ("not systems", ["x"], {}, TypeError, "systems must be"),
    ({"a": ["x"], "b": ["x"]}, ["x", "y"], {}, ValueError, "references"),
    ({"a": ["x"], "b": ["x"]}, ["x"], {"metrics": ["bleu", "nope"]}, ValueError, "metrics[1]: unknown metric 'nope'"),
    ({"a": ["x"], "b": ["x"]}, ["x"], {"metrics": [3]}, TypeError, "metrics[0] must be a str"),
    ({"a": ["x"], "b": ["x"]}, ["x"], {"metrics": []}, ValueError, "at least one metric"),
    ({"a": ["x"], "b": ["x"]}, ["x"], {"n_samples": 0}, ValueError, "n_samples must be a positive int"),
    ({"a": ["x"], "b": ["x"]}, ["x"], {"alpha": 2}, ValueError, "alpha must be between 0 and 1"),
    ({"a": ["x"], "b": ["x"]}, ["x"], {"examples": -1}, ValueError, "examples must be a non-negative int"),
    ({"a": ["x"], "b": ["x"]}, ["x"], {"language": 5}, TypeError, "language must be a str"),
])
def test_bad_input_is_named(systems, references, kwargs, error, message):
    with pytest.raises(error) as raised:
        nlgmetrics.report(systems, references, **kwargs)
    assert message in str(raised.value)


def test_list_of_systems_and_path(tmp_path):
    # synthetic two-line corpus (labelled): only the naming of unnamed systems and the file are checked
    path = tmp_path / "r.html"
    written = nlgmetrics.report([["a b c d e"], ["a b c d"]], ["a b c d e"], metrics="bleu,chrf", path=str(path),
                                n_samples=20)
    assert written == str(path)  # the path, not the whole page (issue 22)
    page = path.read_text(encoding="utf-8")
    assert page == nlgmetrics.report([["a b c d e"], ["a b c d"]], ["a b c d e"], metrics="bleu,chrf", n_samples=20)
    assert "<bdi>sys1</bdi> (baseline)" in page and "sys2" in page


# --- the page in a browser -------------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(chromium_path() is None, reason="no chromium on PATH (Debian: apt-get install "
                                    "chromium fonts-noto-cjk; tools/install_chromium.sh)")

TABLE_JS = """Array.from(document.querySelectorAll('td.score')).map(cell => ({
    metric: cell.dataset.metric, system: cell.dataset.system, value: cell.dataset.value,
    text: cell.querySelector('.value').textContent, verdict: cell.dataset.verdict}))"""


def _is_blank(png: bytes) -> bool:
    from io import BytesIO

    PIL = pytest.importorskip("PIL.Image", reason="Pillow (test extra) checks the screenshot")
    image = PIL.open(BytesIO(png)).convert("L")
    histogram = image.histogram()
    return max(histogram) > 0.995 * sum(histogram)  # one grey level covers (almost) everything


def _render(tmp_path, name, systems, references, **kwargs):
    path = tmp_path / f"{name}.html"
    nlgmetrics.report(systems, references, path=str(path), **kwargs)
    url = path.resolve().as_uri()
    return url, load_page(url, TABLE_JS)


@needs_chromium
def test_page_in_chromium_chinese_target(shared_data, tmp_path):
    systems, refs_a, refs_b = _wmt22(shared_data, "en-zh", 3, n_segments=300)
    references = list(zip(refs_a, refs_b))
    url, page = _render(tmp_path, "en-zh", systems, references, metrics=["bleu", "chrf", "rouge"], language="zh",
                        n_samples=100)
    assert page.console_errors == []
    assert page.requests == [url]  # the page itself, nothing else
    assert not _is_blank(page.screenshot_png)
    (tmp_path / "en-zh.png").write_bytes(page.screenshot_png)
    by_cell = {(cell["metric"], cell["system"]): cell for cell in page.evaluated}
    for name, hypotheses in systems.items():
        expected = {"BLEU": nlgmetrics.bleu(hypotheses, references, tokenize="zh").score,
                    "chrF2": nlgmetrics.chrf(hypotheses, references).score,
                    "ROUGE-L F": nlgmetrics.rouge(hypotheses, references, variants=["rougeL"]).rougeL.fmeasure}
        for metric, score in expected.items():
            cell = by_cell[(metric, name)]
            assert float(cell["value"]) == score
            assert cell["text"] == (f"{score:.2f}" if metric != "ROUGE-L F" else f"{score:.4f}")


@needs_chromium
def test_page_in_chromium_right_to_left_and_print(tmp_path):
    # synthetic Arabic/Hebrew lines (labelled): only the text direction the browser resolves is checked
    systems = {"base": ["مرحبا بالعالم الجميل", "שלום עולם"], "new": ["مرحبا بالعالم", "שלום לעולם"]}
    references = ["مرحبا بالعالم الجميل جدا", "שלום לעולם כולו"]
    path = tmp_path / "rtl.html"
    nlgmetrics.report(systems, references, path=str(path), metrics=["chrf", "bleu"], n_samples=20)
    page = load_page(path.resolve().as_uri(), """Array.from(document.querySelectorAll('#examples td.text'))
        .filter(cell => cell.textContent.trim()).map(cell => cell.matches(':dir(rtl)'))""")
    assert page.console_errors == []
    assert page.evaluated and all(page.evaluated)


def test_notebook_table_for_real_results(de_en):
    from nlgmetrics.report.notebook import result_table_html

    systems, refs_a, _ = de_en
    for result in (nlgmetrics.bleu(next(iter(systems.values())), refs_a), nlgmetrics.rouge(next(iter(systems.values())), refs_a)):
        page = result._repr_html_()  # what a notebook shows
        assert f"{result.score:.4f}" in page and str(result.signature) in page
        assert f"· {len(refs_a)} segments" in page
    assert result_table_html("chrF2", {"score": 1.0}, None).count("<tr>") == 1
