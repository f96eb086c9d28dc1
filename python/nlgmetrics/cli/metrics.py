"""Every registered metric as a subcommand: its flags, and how files are scored through it.

Nothing here names a metric: the subcommands are the registry's classes (``nlgmetrics.list_metrics()``),
their flags come from each class (``cli_options`` or ``add_cli_arguments``), and every file is scored as a
stream: chunks of lines go to ``Metric.update``, so memory is bounded by the chunk size and by what the
metric keeps per segment (only its column totals, where the corpus score is a sum and no per-segment
output was asked for).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Type

import numpy as np

from nlgmetrics.core.registry import metric_classes
from nlgmetrics.io.text_files import InputFileError, read_lines

# Options the `sample` command adds per metric: the bundled sample is German.
SAMPLE_OPTIONS = {"meteor": {"language": "de", "modules": ["exact", "stem"]}}
# The metrics `nlgmetrics sample` shows (the MT metrics of the bundled WMT sample).
SAMPLE_METRICS = ("bleu", "chrf", "ter", "rouge", "meteor")


def commands() -> Dict[str, Type[Any]]:
    """Subcommand name → metric class."""
    return metric_classes()


def file_options(name: str) -> Dict[str, Any]:
    """The one rule for text read from files, by every command (a metric's own subcommand, ``compare``,
    ``report``, ``score``): the metric's command-line defaults apply. For ROUGE, ``<n>`` inside a line is a
    sentence break (``--sentence-sep``, read as a newline, as rougeLsum needs), so the same CNN/DM files give
    the same numbers through ``rouge``, ``compare``, ``report`` and ``score``.

    >>> file_options("rougeLsum"), file_options("bleu")
    ({'sentence_separator': '<n>'}, {})
    """
    from nlgmetrics.core.registry import resolve

    cls, _ = resolve(name)
    return {option.dest: option.default for option in cls.cli_options
            if option.default is not None and option.kind != "flag"}


def build_metric(cls: Type[Any], options: Dict[str, Any], keep_segments: bool) -> Any:
    """A metric for streaming: totals only where the corpus score is a sum and nothing per segment is needed."""
    totals_only = not keep_segments and cls.reduction == "sum" and cls.supports_totals(options)
    return cls(**options, segments=not totals_only)


def table_columns(result: Any) -> List[Tuple[str, float]]:
    """The text table's columns for one result: the result's own, or its headline score."""
    columns = getattr(result, "table_columns", None)
    return columns() if columns is not None else [(result.name, result.score)]


def extra_decimals(result: Any) -> int:
    """Digits beyond ``--width`` for a result's scores: its metric's (2 for scores on a 0–1 scale)."""
    return getattr(getattr(result, "_metric", None), "extra_decimals", 0)


def segment_rows(result: Any) -> List[List[float]]:
    """One list of numbers per segment for ``--sentence-level`` (several for ROUGE: each variant's F)."""
    values = np.asarray(result.segment_scores, dtype=np.float64)
    if values.ndim == 3:  # ROUGE: (segments, variants, P/R/F)
        return values[:, :, 2].tolist()
    return values.reshape(len(values), -1).tolist()


def score_chunks(cls: Type[Any], options: Dict[str, Any], chunks, n_systems: int, keep_segments: bool,
                 sources: Optional[List[str]] = None) -> List[Any]:
    """One result per system from an iterator of ``(systems, references)`` chunks (``sources``: the source
    lines of metrics that read them, COMET; checked to be as many as the hypotheses)."""
    metrics = [build_metric(cls, options, keep_segments) for _ in range(n_systems)]
    start = 0
    for systems, references in chunks:
        extra = {}
        if sources is not None:
            extra["sources"] = sources[start:start + len(systems[0])]
            start += len(systems[0])
            if len(extra["sources"]) != len(systems[0]):
                raise InputFileError(f"the source file has {len(sources)} lines, fewer than the hypotheses")
            if len(references) == 0 or not any(references):
                references = None  # no -r: a reference-free model (COMET-Kiwi)
        for metric, hypotheses in zip(metrics, systems):
            metric.update(hypotheses, references, **extra)
    if sources is not None and start != len(sources):
        raise InputFileError(f"the source file has {len(sources)} lines but the hypotheses have {start}")
    return [metric._saw_empty_input().compute() for metric in metrics]  # an empty file: no segments


def read_sources(args: Any) -> List[str]:
    """The ``-s`` file's lines."""
    return read_lines(args.sources)


def sample_classes(names: Sequence[str] = SAMPLE_METRICS) -> Dict[str, Type[Any]]:
    available = commands()
    return {name: available[name] for name in names if name in available}
