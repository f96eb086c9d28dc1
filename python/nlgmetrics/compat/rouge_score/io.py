"""Drop-in for ``rouge_score.io`` (0.1.2): ``compute_scores_and_write_to_csv`` and its helpers.

Reads target and prediction files (glob patterns, paired in sorted order, records split by a
delimiter), scores each pair with any scorer, and writes rouge_score's CSV: per example
``id,<type>-P,<type>-R,<type>-F,…`` or, with an aggregator, ``score_type,low,mid,high`` rows.

>>> import os, tempfile
>>> from nlgmetrics.compat.rouge_score import rouge_scorer, scoring
>>> folder = tempfile.mkdtemp()
>>> for name in ("target.txt", "prediction.txt"):
...     with open(os.path.join(folder, name), "w") as handle:
...         _ = handle.write("the cat sat\\n")
>>> compute_scores_and_write_to_csv(os.path.join(folder, "target.txt"), os.path.join(folder, "prediction.txt"),
...                                 os.path.join(folder, "out.csv"), rouge_scorer.RougeScorer(["rouge1"]), None)
>>> print(open(os.path.join(folder, "out.csv")).read(), end="")
id,rouge1-P,rouge1-R,rouge1-F
0,1.000000,1.000000,1.000000
"""

from __future__ import annotations

import glob
import logging
from itertools import zip_longest
from typing import Dict, Iterator, List

__all__ = ["compute_scores_and_write_to_csv"]

_log = logging.getLogger(__name__)


def compute_scores_and_write_to_csv(target_filepattern, prediction_filepattern, output_filename, scorer, aggregator,
                                    delimiter="\n") -> None:
    """Scores every (target, prediction) record pair and writes per-example or aggregate CSV rows.

    Raises ValueError when the patterns match no file or different numbers of files, or when paired
    files hold different numbers of records.
    """
    target_filenames = _glob(target_filepattern)
    prediction_filenames = _glob(prediction_filepattern)
    if len(target_filenames) < 1 or len(target_filenames) != len(prediction_filenames):
        raise ValueError(
            "Must have equal and positive number of target and prediction files. Found: "
            f"{len(target_filenames)} target files ({target_filepattern}), "
            f"{len(prediction_filenames)} prediction files ({prediction_filepattern})."
        )
    scores = _compute_scores(target_filenames, prediction_filenames, scorer, delimiter)
    if aggregator:
        for score in scores:
            aggregator.add_scores(score)
        _write_aggregates_to_csv(output_filename, aggregator.aggregate())
    else:
        _write_scores_to_csv(output_filename, scores)


def _glob(filepattern: str) -> List[str]:
    return glob.glob(filepattern)


def _open(filename: str, mode: str = "r"):
    return open(filename, mode)


def _record_gen(filename: str, delimiter: str) -> Iterator[str]:
    """The records of a file; a final delimiter is expected (else the last record is kept, with a warning)."""
    if isinstance(delimiter, bytes):
        delimiter = delimiter.decode("utf-8")
    with _open(filename) as handle:
        records = handle.read().split(delimiter)
    if records[-1]:
        _log.warning("Expected delimiter at end of file")
    else:
        records = records[:-1]
    yield from records


def _compute_scores(target_filenames, prediction_filenames, scorer, delimiter) -> List[Dict]:
    """One dict of scores per record pair, files paired in sorted order."""
    scores = []
    for target_filename, prediction_filename in zip(sorted(target_filenames), sorted(prediction_filenames)):
        _log.info("Reading targets from %s and predictions from %s.", target_filename, prediction_filename)
        targets = _record_gen(target_filename, delimiter)
        predictions = _record_gen(prediction_filename, delimiter)
        for target, prediction in zip_longest(targets, predictions):
            if target is None or prediction is None:
                raise ValueError(
                    "Must have equal number of lines across target and prediction files. "
                    f"Mismatch between files: {target_filename}, {prediction_filename}."
                )
            scores.append(scorer.score(target, prediction))
    return scores


def _write_aggregates_to_csv(output_filename: str, aggregates: Dict) -> None:
    """``score_type-(R|P|F),low,mid,high`` per score type (sorted), six decimals."""
    with _open(output_filename, "w") as out:
        out.write("score_type,low,mid,high\n")
        for score_type, aggregate in sorted(aggregates.items()):
            for suffix, field in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                low, mid, high = (getattr(bound, field) for bound in (aggregate.low, aggregate.mid, aggregate.high))
                out.write(f"{score_type}-{suffix},{low:f},{mid:f},{high:f}\n")


def _write_scores_to_csv(output_filename: str, scores: List[Dict]) -> None:
    """``id`` then P, R, F per score type (sorted), one row per example; nothing when there is none."""
    if len(scores) < 1:
        _log.warning("No scores to write")
        return
    rouge_types = sorted(scores[0].keys())
    with _open(output_filename, "w") as out:
        out.write("id" + "".join(f",{t}-P,{t}-R,{t}-F" for t in rouge_types) + "\n")
        for index, result in enumerate(scores):
            cells = "".join(f",{result[t].precision:f},{result[t].recall:f},{result[t].fmeasure:f}" for t in rouge_types)
            out.write(f"{index}{cells}\n")
