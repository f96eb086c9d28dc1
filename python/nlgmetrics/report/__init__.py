"""``nlgmetrics.report``: one self-contained HTML page comparing systems, compare-mt's analyses and more.

The page holds: a systems × metrics table (score, 95% bootstrap interval, paired bootstrap test against the
baseline — the first system — with the verdict in words and symbols), distributions of segment scores,
scores by reference length and by length difference, word F-measure by reference frequency, win/tie/loss and
scatter plots against the baseline, the n-grams each system matches more often than the baseline, the segments
where systems differ most (matched n-grams and the ROUGE-L subsequence highlighted) and every signature.

>>> systems = {"base": ["the cat sat on a mat", "it is raining"],
...            "new": ["the cat sat on the mat", "it rains"]}
>>> page = report(systems, ["the cat sat on the mat", "it rains today"], metrics=["bleu", "chrf"], n_samples=50)
>>> page.startswith("<!DOCTYPE html>") and "Scores and significance" in page
True

Scale: analyses are vectorised (12 systems × 1,875 segments with BLEU, chrF, TER and ROUGE: 8.4 s of CPU on a
2-core machine, TER being most of it); the scatter plots show at most 1,000 evenly spaced segments per system,
the examples the 10 segments that differ most, and tables are per bucket or system, so 100,000 segments give a
page of a few hundred kilobytes (3 systems: 51 s of CPU, 1 GB of memory). Beyond 5 million samples × segments
the bootstrap is drawn in blocks. Beyond 20 systems tables grow wide but stay correct.
"""

from __future__ import annotations

import sys
import types
from typing import Any, Mapping, Optional, Sequence, Union

from nlgmetrics.report.analyses import DEFAULT_METRICS
from nlgmetrics.report.build import EXAMPLES, SystemsArg, build
from nlgmetrics.report.html import render

__all__ = ["report", "DEFAULT_METRICS"]


def report(systems: SystemsArg, references: Sequence[Union[str, Sequence[str]]],
           metrics: Union[str, Sequence[str], Mapping[str, Any]] = DEFAULT_METRICS, path: Optional[str] = None,
           language: Optional[str] = None, n_samples: int = 1000, seed: Optional[int] = 12345,
           alpha: float = 0.05, examples: int = EXAMPLES, title: str = "nlgmetrics report",
           sentence_separator: Optional[str] = None, progress: Optional[bool] = None,
           sources: Optional[Sequence[str]] = None) -> str:
    """Write (``path``) or return (``path=None``) the HTML report comparing ``systems`` on ``references``.

    :param systems: ordered mapping name → hypotheses (the first is the baseline), or a list of hypothesis lists
        (named ``sys1``, ``sys2`` …).
    :param references: per segment a reference string or a list of them.
    :param metrics: any of ``bleu chrf chrf++ ter rouge rouge1 rouge2 rougeL rougeLsum meteor bertscore comet``
        (a list or a comma-separated string, or a mapping name → options, e.g. ``{"bleu": {}, "comet": {"model":
        "Unbabel/wmt22-comet-da"}}``); the first one drives the scatter plots and the choice of examples.
    :param sources: the source of every segment, for COMET.
    :param language: the target language (``zh``, ``ja``, ``ko`` pick sacreBLEU's tokenizer for BLEU and the word
        analyses, as its command line does; it also sets the ``lang`` of text cells).
    :param n_samples: paired bootstrap resamples (sacreBLEU's default 1000); ``seed`` makes them reproducible.
    :param alpha: significance level of the verdicts.
    :param examples: how many segments to show where systems differ most.
    :param sentence_separator: for ROUGE, a marker inside a line read as a sentence break (``"<n>"`` in CNN/DM
        files), as ``nlgmetrics.rouge(…, sentence_separator=…)``; the command line passes ``"<n>"``, as every
        command reads files.
    :param progress: a progress bar (tqdm: steps done of the total, elapsed time and ETA) on standard error;
        ``None`` (default) shows it when standard error is a terminal.
    :returns: the page as a string; with ``path``, the path written (a page of megabytes is not echoed into a
        notebook cell).
    """
    if not isinstance(n_samples, int) or isinstance(n_samples, bool) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive int, got {n_samples!r}")
    if not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha!r}")
    if not isinstance(examples, int) or isinstance(examples, bool) or examples < 0:
        raise ValueError(f"examples must be a non-negative int, got {examples!r}")
    if language is not None and not isinstance(language, str):
        raise TypeError(f"language must be a str or None, got {type(language).__name__}")
    page = render(build(systems, references, metrics, language=language, n_samples=n_samples, seed=seed,
                        alpha=alpha, examples=examples, title=title, sentence_separator=sentence_separator,
                        progress=progress, sources=sources))
    if path is not None:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
        return str(path)
    return page


class _CallablePackage(types.ModuleType):
    """``nlgmetrics.report`` is this package (``nlgmetrics.report.analyses`` …) and, called, the function
    ``report``: a subpackage and a function cannot share a name on ``nlgmetrics`` otherwise."""

    def __call__(self, *args, **kwargs) -> str:
        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
