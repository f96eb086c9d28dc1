"""The facade modules added for issue 15 against the real libraries, on real data:
``compat.sacrebleu.significance.PairedTest`` (sacreBLEU 2.6.0's numbers, bit for bit) and
``compat.rouge_score.io`` (the same CSV files as rouge_score's ``io``)."""

from __future__ import annotations

import json

import pytest
from conftest import read_lines


@pytest.fixture(scope="module")
def wmt17_systems(shared_data):
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    reference = read_lines(folder / "newstest2017.en-de.ref.de")[:250]
    paths = sorted(folder.glob("*.hyp.de"))[::5]  # 4 systems spread over the 16
    return [(path.name.split(".")[1], read_lines(path)[:250]) for path in paths], reference


@pytest.mark.parametrize("test_type,n_samples,n_ar_confidence", [("bs", 200, -1), ("ar", 300, 50)])
def test_paired_test_equals_sacrebleu(wmt17_systems, test_type, n_samples, n_ar_confidence):
    from sacrebleu.metrics import BLEU as RealBLEU
    from sacrebleu.metrics import CHRF as RealCHRF
    from sacrebleu.metrics import TER as RealTER
    from sacrebleu.significance import PairedTest as RealPairedTest

    from nlgmetrics.compat.sacrebleu import BLEU, CHRF, TER
    from nlgmetrics.compat.sacrebleu.significance import PairedTest, Result

    systems, reference = wmt17_systems
    real_signatures, real = RealPairedTest(systems, {"BLEU": RealBLEU(), "chrF": RealCHRF(), "TER": RealTER()}, [reference],
                                           test_type=test_type, n_samples=n_samples, n_ar_confidence=n_ar_confidence)()
    signatures, ours = PairedTest(systems, {"BLEU": BLEU(), "chrF": CHRF(), "TER": TER()}, [reference],
                                  test_type=test_type, n_samples=n_samples, n_ar_confidence=n_ar_confidence)()
    assert ours["System"] == real["System"] and set(ours) == set(real)
    for metric in ("BLEU", "chrF2", "TER"):
        for mine, theirs in zip(ours[metric], real[metric]):
            assert isinstance(mine, Result)
            assert (mine.score, mine.p_value, mine.mean, mine.ci) == (theirs.score, theirs.p_value, theirs.mean, theirs.ci)
        # Same fields; only the version names who computed it.
        assert str(signatures[metric]).split("|version:")[0] == str(real_signatures[metric]).split("|version:")[0]


def test_rouge_io_writes_rouge_scores_csv(shared_data, tmp_path):
    from rouge_score import io as real_io
    from rouge_score import rouge_scorer as real_scorer
    from rouge_score import scoring as real_scoring

    from nlgmetrics.compat.rouge_score import io, rouge_scorer, scoring

    path = shared_data / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl"
    documents = [json.loads(line) for line in read_lines(path)[:40]]
    (tmp_path / "target.txt").write_text("".join(d["reference"].replace("\n", " ") + "\n" for d in documents))
    (tmp_path / "prediction.txt").write_text("".join(d["pointer-gen-cov"].replace("\n", " ") + "\n" for d in documents))
    targets, predictions = str(tmp_path / "target*.txt"), str(tmp_path / "prediction*.txt")
    for aggregate in (False, True):
        ours_csv, theirs_csv = tmp_path / f"ours{aggregate}.csv", tmp_path / f"theirs{aggregate}.csv"
        io.compute_scores_and_write_to_csv(targets, predictions, str(ours_csv), rouge_scorer.RougeScorer(["rouge1", "rougeL"]),
                                           scoring.BootstrapAggregator() if aggregate else None)
        real_io.compute_scores_and_write_to_csv(targets, predictions, str(theirs_csv),
                                                real_scorer.RougeScorer(["rouge1", "rougeL"]),
                                                real_scoring.BootstrapAggregator() if aggregate else None)
        if aggregate:  # unseeded bootstrap: the same rows, percentiles close
            assert [row.split(",")[0] for row in ours_csv.read_text().splitlines()] == \
                [row.split(",")[0] for row in theirs_csv.read_text().splitlines()]
        else:
            assert ours_csv.read_text() == theirs_csv.read_text()
    with pytest.raises(ValueError, match="equal and positive number"):
        io.compute_scores_and_write_to_csv(str(tmp_path / "missing*"), predictions, str(tmp_path / "x.csv"),
                                           rouge_scorer.RougeScorer(["rouge1"]), None)
