"""Pieces every sacreBLEU metric facade shares (BLEU here; chrF and TER reuse them).

Mirrors ``sacrebleu/metrics/base.py`` (2.6.0): the ``Score`` and ``Signature`` shapes, the argument
checks, and how reference streams become per-segment reference lists.
"""

from __future__ import annotations

import json
import statistics
from typing import Any, Generic, List, Optional, Sequence, TypeVar

from nlgmetrics._core import __version__ as _nlgmetrics_version
from nlgmetrics.core.inputs import PerHypothesis

#: The version field of facade signatures: the sacreBLEU release reproduced, and who computed it.
SIGNATURE_VERSION = f"2.6.0+nlgmetrics-{_nlgmetrics_version}"


class Score:
    """sacreBLEU's ``Score``: ``name``, ``score``, ``format()`` and ``repr``."""

    def __init__(self, name: str, score: float):
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """The score line (``BLEU = 27.52 …``), the bare score, or sacreBLEU's JSON form."""
        record: dict = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": signature}
        shown = f"{self.score:.{width}f}"
        if self._mean > 0:
            mean, spread = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {spread}"
            shown += f" ({confidence})"
            if is_json:
                record.update(confidence_mean=float(mean), confidence_var=float(spread), confidence=confidence)
        line = f"{self.name}|{signature}" if signature else self.name
        line = f"{line} = {shown}"
        if self._verbose:
            line += f" {self._verbose}"
            record["verbose_score"] = self._verbose
        if score_only:
            return shown
        if is_json:
            for part in signature.split("|"):
                key, value = part.split(":")
                record[key] = value
            return json.dumps(record, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: List["Score"]) -> None:
        """Mean and half-width of the 95% interval of resampled scores (sacreBLEU's rule)."""
        values = sorted(score.score for score in scores)
        lower_index = len(values) // 40
        upper_index = len(values) - lower_index - 1
        self._ci = 0.5 * (values[upper_index] - values[lower_index])
        self._mean = statistics.mean(values)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """sacreBLEU's ``Signature``: ordered ``key:value`` pairs, ``version`` last, ``format(short=)``."""

    def __init__(self, args: dict):
        self._abbr = {
            "version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S", "origlang": "o",
            "bs": "bs", "ar": "ar", "seed": "rs",
        }
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = "var" if args["num_refs"] == -1 else args["num_refs"]
        self.info: dict = {
            "version": SIGNATURE_VERSION, "nrefs": num_refs, "bs": args.get("n_bootstrap"), "ar": None,
            "seed": args.get("seed"), "test": args.get("test_set"), "lang": args.get("langpair"),
            "origlang": args.get("origlang"), "subset": args.get("subset"),
        }

    def format(self, short: bool = False) -> str:
        keys = [key for key in self.info if key != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


def check_sentence_args(prefix: str, hypothesis: Any, references: Any) -> None:
    """sacreBLEU's ``_check_sentence_score_args`` (same TypeErrors)."""
    message = None
    if not isinstance(hypothesis, str):
        message = "The argument `hyp` should be a string."
    elif isinstance(references, str) or not isinstance(references, Sequence):
        message = "The argument `refs` should be a sequence of strings."
    elif references and not isinstance(references[0], str) and references[0] is not None:
        message = "Each element of `refs` should be a string."
    if message:
        raise TypeError(f"{prefix}: {message}")


def check_corpus_args(prefix: str, hypotheses: Any, references: Any) -> None:
    """sacreBLEU's ``_check_corpus_score_args`` (same TypeErrors), plus checks of every item."""
    message = None
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        message = "`hyps` should be a sequence of strings."
    else:
        for index, line in enumerate(hypotheses):
            if line is None:
                message = f"Undefined line in hypotheses stream! (line {index + 1})"
                break
            if not isinstance(line, str):
                message = f"Each element of `hyps` should be a string (hyps[{index}] is {type(line).__name__})."
                break
    if message is None and references is not None:
        if isinstance(references, str) or not isinstance(references, Sequence):
            message = "`refs` should be a sequence of sequence of strings."
        else:
            for stream_index, stream in enumerate(references):
                if isinstance(stream, str) or not isinstance(stream, Sequence):
                    message = f"Each element of `refs` should be a sequence of strings (refs[{stream_index}])."
                    break
                bad = next((i for i, ref in enumerate(stream) if ref is not None and not isinstance(ref, str)), None)
                if bad is not None:
                    message = f"`refs` should be a sequence of sequence of strings (refs[{stream_index}][{bad}])."
                    break
    if message:
        raise TypeError(f"{prefix}: {message}")


def streams_to_segments(streams: Sequence[Sequence[Optional[str]]], n_hypotheses: Optional[int]) -> tuple[list[list[str]], int]:
    """Transposes reference streams to one list per segment, and sacreBLEU's ``num_refs``.

    As sacreBLEU 2.6.0 (``Metric._cache_references``): ``None`` means "no reference here"; an empty
    string is a real (empty) reference. ``num_refs`` is the per-segment count, or -1 when it varies.
    Unlike sacreBLEU (which truncates to the shortest stream) streams of different lengths, or a
    length other than ``n_hypotheses``, raise ValueError; so does a segment left with no reference.
    """
    lengths = [len(stream) for stream in streams]
    expected = n_hypotheses if n_hypotheses is not None else (lengths[0] if lengths else 0)
    for index, length in enumerate(lengths):
        if length != expected:
            what = "hypotheses" if n_hypotheses is not None else "lines in refs[0]"
            raise ValueError(
                f"refs[{index}] has {length} lines but there are {expected} {what} "
                "(sacreBLEU would silently truncate; nlgmetrics refuses)"
            )
    segments = PerHypothesis([[ref for ref in refs if ref is not None] for refs in zip(*streams)] if streams else [])
    if n_hypotheses and not streams:
        raise ValueError("refs is empty: at least one reference stream is needed")
    counts = {len(refs) for refs in segments}
    if 0 in counts:
        line = next(i for i, refs in enumerate(segments) if not refs)
        raise ValueError(f"segment {line + 1} has no reference (every stream holds None there)")
    num_refs = counts.pop() if len(counts) == 1 else (-1 if counts else 0)
    return segments, num_refs


ScoreT = TypeVar("ScoreT", bound="Score")


class Metric(Generic[ScoreT]):
    """The life cycle every facade shares, as sacreBLEU's ``Metric``: reference streams (or the ones
    cached by the constructor) become per-segment lists, then the subclass's ``_score`` runs.

    Subclasses set ``_SIGNATURE_TYPE``, ``_ref_cache`` and ``num_refs`` and define
    ``_score(hypotheses, segments)``; ``_check_hypotheses`` and ``_before_sentence`` are optional hooks.
    """

    _SIGNATURE_TYPE: type = Signature

    def _cache_references(self, references: Optional[Sequence[Sequence[Optional[str]]]]) -> None:
        """Keep the constructor's reference streams, as per-segment lists, for later calls."""
        self._ref_cache: Optional[list] = None
        if references is not None:
            check_corpus_args(self.__class__.__name__, [], references)
            self._ref_cache, self.num_refs = streams_to_segments(references, None)

    def _check_hypotheses(self, hypotheses: Sequence[str]) -> None:
        """Called with the hypotheses before scoring (BLEU warns about tokenized input here)."""

    def _before_sentence(self) -> None:
        """Called before a sentence score (BLEU warns when effective order is off)."""

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[str]]] = None,
                     n_bootstrap: int = 1) -> ScoreT:
        """The corpus score against reference streams (or the streams given to the constructor)."""
        check_corpus_args(self.__class__.__name__, hypotheses, references)
        if n_bootstrap > 1:
            raise NotImplementedError("n_bootstrap > 1 is not provided by the nlgmetrics sacreBLEU facade; "
                                      "use nlgmetrics.confidence_interval or nlgmetrics.paired_test")
        hypotheses = list(hypotheses)
        if references:
            segments, self.num_refs = streams_to_segments(references, len(hypotheses))
        elif self._ref_cache is not None:
            segments = self._ref_cache
            if len(segments) != len(hypotheses):
                raise ValueError(f"the cached references have {len(segments)} lines but there are "
                                 f"{len(hypotheses)} hypotheses")
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        self._check_hypotheses(hypotheses)
        return self._score(hypotheses, segments)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> ScoreT:
        """The score of one hypothesis against its references (a list of str; ``None`` entries are skipped)."""
        check_sentence_args(self.__class__.__name__, hypothesis, references)
        self._before_sentence()
        segments, self.num_refs = streams_to_segments([[ref] for ref in references], 1)
        self._check_hypotheses([hypothesis])
        return self._score([hypothesis], segments)

    def get_signature(self) -> Signature:
        """The reproducibility signature (sacreBLEU's fields and order; the version names both libraries)."""
        return self._SIGNATURE_TYPE(self.__dict__)

    def _score(self, hypotheses: list, segments: list) -> ScoreT:
        raise NotImplementedError
