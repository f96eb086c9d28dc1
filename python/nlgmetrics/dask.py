"""Scoring Dask DataFrames (``pip install "nlgmetrics[dask]"``).

``score`` gives the corpus result of a Dask DataFrame's columns: each partition (a pandas DataFrame,
its string columns Arrow-backed by default) goes to Arrow and through ``Metric.update`` into a
``MetricState``; the states, a few hundred bytes each for BLEU/chrF/TER/METEOR, are merged on the client
in partition order. The result is the single-process one: bit for bit where the statistics are integers
(BLEU, chrF), to the last bits of a float sum otherwise (TER's average reference lengths).

``with_segment_scores`` adds a float column with each row's score. Both work with any Dask scheduler
(threads, the default, suit the Rust core, which releases the GIL; processes and ``distributed`` too).

Example (``refs`` names one column per reference, or one column of lists; a column of lists built in pandas
needs the dtype ``pd.ArrowDtype(pa.list_(pa.string()))``, since Dask turns object columns into strings):

    import dask.dataframe as dd
    import nlgmetrics.dask

    ddf = dd.read_parquet("outputs.parquet")                          # columns: id, hyp, ref_a, ref_b
    result = nlgmetrics.dask.score(ddf, "bleu", hyp="hyp", refs=["ref_a", "ref_b"])
    print(result.score, result.signature)
    scored = nlgmetrics.dask.with_segment_scores(ddf, "chrf", hyp="hyp", refs=["ref_a", "ref_b"], output="chrf")
    scored.to_parquet("scored/")

``metric`` may also be several metrics — a list of names, or a {name: options} mapping — scored in one pass
over the data, giving {name: result}; ``**options`` then apply to every one of them.

>>> import nlgmetrics.dask   # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Sequence, Union

from nlgmetrics.io.partitions import Metrics, PartitionScorer

__all__ = ["score", "with_segment_scores"]


def _scorer(ddf: Any, metric: Metrics, hyp: str, refs: Union[str, Sequence[str]], nulls: str, options: dict) -> PartitionScorer:
    scorer = PartitionScorer(metric, options, hyp=hyp, refs=refs, nulls=nulls)
    scorer.check_schema(list(ddf.columns), "DataFrame")
    return scorer


def _arrow(frame: Any, columns: Sequence[str]):
    """A pandas partition's columns as an Arrow table (Arrow-backed strings are not copied)."""
    import pyarrow as pa

    return pa.Table.from_pandas(frame[list(columns)], preserve_index=False)


def score(ddf: Any, metric: Metrics, *, hyp: str, refs: Union[str, Sequence[str]], nulls: str = "error", **options: Any):
    """The corpus result of ``metric`` (a registered name, e.g. ``"bleu"``, with its ``options``) over the
    Dask DataFrame ``ddf``: hypotheses in column ``hyp``, references in ``refs``. Nulls as
    ``nlgmetrics.core.columns`` (``nulls="error"``, ``"skip"`` or ``"empty"``)."""
    import pandas as pd

    scorer = _scorer(ddf, metric, hyp, refs, nulls, options)

    def partition_state(frame):
        state = scorer.state_bytes([_arrow(frame, scorer.columns)])
        return pd.DataFrame({"state": pd.Series([state], dtype=object)})

    meta = pd.DataFrame({"state": pd.Series([], dtype=object)})
    states = ddf[scorer.columns].map_partitions(partition_state, meta=meta).compute()
    return scorer.merge(states["state"])  # partitions come back in order


def with_segment_scores(ddf: Any, metric: str, *, hyp: str, refs: Union[str, Sequence[str]], output: str = "score",
                        nulls: str = "error", **options: Any):
    """``ddf`` with a float64 column ``output``: each row's ``metric`` score (e.g. sentence BLEU). With
    ``nulls="skip"`` rows that cannot be scored get NaN."""
    import pandas as pd

    scorer = _scorer(ddf, metric, hyp, refs, nulls, options)
    scorer.one_metric("with_segment_scores")
    if output in ddf.columns:
        raise ValueError(f"DataFrame already has a column {output!r}; choose another output name")

    def add_scores(frame):
        scores = scorer.segment_scores(_arrow(frame, scorer.columns)).to_numpy(zero_copy_only=False)
        return frame.assign(**{output: pd.Series(scores, index=frame.index, dtype="float64")})

    meta = ddf._meta.assign(**{output: pd.Series([], dtype="float64")})
    return ddf.map_partitions(add_scores, meta=meta)
