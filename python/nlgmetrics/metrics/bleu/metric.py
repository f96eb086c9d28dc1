"""BLEU as a registered, mergeable metric: ``nlgmetrics.metric("bleu", preset=…)``; ``nlgmetrics.bleu`` runs through it.

Each preset keeps its own per-segment rows (``segment_stats``) and turns the accumulated rows into
its reference's corpus number: ``sacrebleu`` and ``coco`` from column sums, ``nltk`` from column
sums and the last segment (NLTK's method5/method6 read it, so after a merge the last segment is
the last one of the last state merged).

>>> import nlgmetrics
>>> m = nlgmetrics.metric("bleu", tokenize="13a")
>>> _ = m.update(["the cat sat on the mat"], ["the cat is on the mat"])
>>> _ = m.update(["it is raining"], ["it rains"])
>>> m.compute().score == nlgmetrics.bleu(["the cat sat on the mat", "it is raining"],
...                                      ["the cat is on the mat", "it rains"]).score
True
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics.core.inputs import references_lists
from nlgmetrics.core.options import CliOption
from nlgmetrics.core.presets import PresetFamily
from nlgmetrics.core.registry import register
from nlgmetrics.core.signature import nrefs_field
from nlgmetrics.core.state import MetricState
from nlgmetrics.metrics.bleu import coco, nltk, sacrebleu
from nlgmetrics.metrics.bleu.result import BLEUResult
from nlgmetrics.stats import sacrebleu_float32

Reference = Union[str, Sequence[str]]


@register
class BLEU(PresetFamily):
    """BLEU (Papineni et al., 2002); options and presets as ``nlgmetrics.bleu``.

    ``BLEU(preset=…)`` builds the preset's class: ``SacreBLEU`` (default), ``NltkBLEU`` or ``CocoBLEU``.
    """

    name = "bleu"
    description = "BLEU (sacreBLEU 2.6.0 by default; presets nltk = NLTK 3.10.4, coco = pycocoevalcap 1.2)"
    reduction = "sum"
    default_preset = "sacrebleu"
    #: ``sentence_bleu``'s ``effective_order`` when none is given (sacreBLEU's sentence_bleu turns it on).
    sentence_effective_order: ClassVar[Optional[bool]] = None
    cli_options = (
        CliOption(("-tok", "--tokenize"), "tokenize", help="tokenizer: none, 13a (default), intl, zh, char, ja-mecab, ko-mecab"),
        CliOption(("-lc", "--lowercase"), "lowercase", "flag", help="lowercase before scoring"),
        CliOption(("-s", "--smooth-method"), "smooth", help="smoothing: none, floor, add-k, exp (default)"),
        CliOption(("--smooth-value",), "smooth_value", "float", help="value for floor / add-k smoothing"),
        CliOption(("--max-order",), "max_order", "int", help="largest n-gram order (default 4)"),
        CliOption(("--effective-order",), "effective_order", "flag", help="use effective order (sentence level)"),
        CliOption(("--preset",), "preset", choices=("sacrebleu", "nltk", "coco"), help="sacrebleu (default), nltk or coco"),
    )

    def __init__(self, *, tokenize: Optional[str] = None, lowercase: bool = False, smooth: Optional[str] = None,
                 smooth_value: Optional[float] = None, max_order: int = 4, weights: Optional[Sequence[float]] = None,
                 effective_order: Optional[bool] = None, preset: str = "sacrebleu", threads: Optional[int] = None,
                 segments: bool = True, **preset_options: Any):
        del preset  # chose this object's class (PresetFamily.__new__)
        options = self.check_options(
            tokenize=tokenize, lowercase=lowercase, smooth=smooth, smooth_value=smooth_value, max_order=max_order,
            weights=weights, effective_order=effective_order, **preset_options)
        if not segments and not self.keeps_totals:
            raise ValueError(f"segments=False applies to the sacrebleu preset only "
                             f"(preset {options['preset']!r} keeps every row)")
        super().__init__(options, threads=threads, segments=segments)

    @classmethod
    def check_options(cls, **options: Any) -> Dict[str, Any]:
        """The preset's options, validated, with its defaults filled in (``preset`` among them)."""
        raise NotImplementedError

    @classmethod
    def from_options(cls, options: Dict[str, Any], **settings: Any) -> "BLEU":
        return cls(**options, **settings)

    def empty_compute(self) -> Tuple[str, str]:
        raise NotImplementedError

    def display_name(self) -> str:
        return "BLEU"

    def counted_order(self) -> int:
        """The n-gram orders each row counts (NLTK's method5/7 count one past ``max_order``)."""
        return int(self.options["max_order"])

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        counted = self.counted_order()
        return ("hyp_len", "ref_len", *(f"matches_{n}" for n in range(1, counted + 1)),
                *(f"totals_{n}" for n in range(1, counted + 1)))

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        return sacrebleu.signature_fields(nrefs_field(ref_counts), self.options)

    @classmethod
    def cli_sentence_level(cls, args: Any) -> None:
        if cls.sentence_effective_order:
            args.effective_order = True  # as the reference's command line does for sentence BLEU (sacreBLEU's)


@BLEU.preset("sacrebleu")
class SacreBLEU(BLEU):
    """The ``sacrebleu`` preset: sacreBLEU 2.6.0's BLEU (``nlgmetrics.metrics.bleu.sacrebleu``)."""

    sentence_effective_order = True
    rows_per_call = 8192  # rows are independent: long batches run as several calls, Ctrl-C handled between them

    @classmethod
    def check_options(cls, **options: Any) -> Dict[str, Any]:
        known = {"tokenize", "lowercase", "smooth", "smooth_value", "max_order", "weights", "effective_order"}
        unexpected = sorted(set(options) - known)
        if unexpected:
            raise TypeError(f"unexpected keyword argument(s) for preset 'sacrebleu': {', '.join(unexpected)}")
        return sacrebleu.check_options(**options)

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "sacreBLEU's corpus_score raises IndexError on no segments"

    def reads_arrow(self) -> bool:
        # Text reaches Rust untouched unless Python lowercases it or MeCab tokenizes it first.
        options = self.options
        return not options["lowercase"] and options["tokenize"] not in sacrebleu._MECAB_TOKENIZERS

    def reads_one_each(self) -> bool:
        return self.reads_arrow()

    def list_scorer(self) -> Optional[Any]:
        # batch_arrays is the scorer's segment_stats when the text reaches Rust untouched.
        return sacrebleu.scorer(self.options) if self.reads_arrow() else None

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        return sacrebleu.batch_arrays(hypotheses, references, self.options, self.threads)

    @classmethod
    def sentence_lines(cls, result: Any, options: Dict[str, Any], width: int) -> Optional[List[str]]:
        return sacrebleu.sentence_lines(result, options, width)

    def result_from_state(self, state: MetricState) -> BLEUResult:
        scores = state.arrays.get("segment_scores", np.zeros(0))
        return sacrebleu.result(self.totals(state), self.segment_rows(state), scores, nrefs_field(state.ref_counts),
                                self.options)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        return sacrebleu.score_rows(sums, self.options)

    @property
    def refuses_stream_layout(self) -> bool:
        return True

    @property
    def sacrebleu_bootstrap(self) -> bool:
        # sacreBLEU has no custom weights: with them, resampling uses full precision.
        return self.options["weights"] is None

    def float32_score_rows(self, rows: np.ndarray) -> np.ndarray:
        """sacreBLEU's bootstrap arithmetic (float32 statistics), for bit-identical paired tests."""
        options = self.options
        return sacrebleu_float32.bleu_scores(rows, options["max_order"], options["smooth"], options["smooth_value"],
                                             options["effective_order"])


@BLEU.preset("nltk")
class NltkBLEU(BLEU):
    """The ``nltk`` preset: NLTK 3.10.4's ``corpus_bleu`` (``nlgmetrics.metrics.bleu.nltk``)."""

    keeps_totals = False  # method5/method6 read the last segment's row

    @classmethod
    def check_options(cls, **options: Any) -> Dict[str, Any]:
        return nltk.check_options(**options)

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "NLTK's corpus_bleu divides 0 by 0 (ZeroDivisionError)"

    def counted_order(self) -> int:
        return nltk._Scoring(self.options).counted_order

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        return nltk.batch_arrays(hypotheses, references, self.options, self.threads)

    def result_from_state(self, state: MetricState) -> BLEUResult:
        return nltk.result(state.arrays["segment_stats"], state.arrays["segment_scores"],
                           nrefs_field(state.ref_counts), self.options)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        raise ValueError("BLEU preset 'nltk' cannot be resampled: NLTK's corpus BLEU reads the last segment, "
                         "which a resample does not have; use preset 'sacrebleu' for intervals and paired tests")


@BLEU.preset("coco")
class CocoBLEU(BLEU):
    """The ``coco`` preset: pycocoevalcap 1.2's ``Bleu`` (``nlgmetrics.metrics.bleu.coco``)."""

    keeps_totals = False

    @classmethod
    def check_options(cls, **options: Any) -> Dict[str, Any]:
        return coco.check_options(**options)

    def empty_compute(self) -> Tuple[str, str]:
        return "warn", "pycocoevalcap's Bleu scores no segments as 0"

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        return ("testlen", "closest_reflen", "shortest_reflen", "sum_reflen", "n_refs",
                *(f"guess_{n}" for n in range(1, 5)), *(f"correct_{n}" for n in range(1, 5)))

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        return coco.batch_arrays(hypotheses, references, self.options, self.threads)

    def result_from_state(self, state: MetricState) -> BLEUResult:
        return coco.result(state.arrays["segment_stats"], nrefs_field(state.ref_counts), self.options, self.threads)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        return coco.score_rows(sums, self.options, self.threads)


def bleu(
    hypotheses: Sequence[str],
    references: Sequence[Reference],
    *,
    tokenize: Optional[str] = None,
    lowercase: bool = False,
    smooth: Optional[str] = None,
    smooth_value: Optional[float] = None,
    max_order: int = 4,
    weights: Optional[Sequence[float]] = None,
    effective_order: Optional[bool] = None,
    preset: str = "sacrebleu",
    threads: Optional[int] = None,
    **preset_options: Any,
) -> BLEUResult:
    """Corpus BLEU of ``hypotheses`` against ``references`` (``references[i]``: a str or a list of str).

    Options (``None`` means the preset's default; for ``sacrebleu``: ``tokenize="13a"``,
    ``smooth="exp"``, ``effective_order=False``):

    - ``tokenize``: ``none``, ``13a``, ``intl``, ``zh``, ``char``, ``ja-mecab``, ``ko-mecab`` (sacreBLEU's),
      or ``zh-fixed`` (``zh`` with sacrebleu issue #298 fixed; not comparable with sacreBLEU's ``zh``).
    - ``lowercase``: lowercase hypotheses and references (Python ``str.lower``) first.
    - ``smooth``: ``none``, ``floor``, ``add-k``, ``exp``; ``smooth_value`` for floor (default 0.1)
      and add-k (default 1).
    - ``max_order``: the highest n-gram order (1–100).
    - ``weights``: one non-negative weight per order. With the sacrebleu preset the score becomes
      ``100 · BP · exp(Σ_n w_n · log p_n)`` with ``p_n`` the (smoothed) 0–1 precisions, weights used
      as given (not renormalised; with ``effective_order`` the orders past the effective order are
      dropped). ``None`` is sacreBLEU's uniform mean, computed bit-identically to sacreBLEU.
    - ``effective_order``: leave out orders with no hypothesis n-grams (sentence-level BLEU).
    - ``threads``: worker threads (default: all cores).
    - ``preset``: ``sacrebleu`` | ``nltk`` | ``coco``; extra ``preset_options`` go to the nltk/coco preset.

    Raises TypeError for wrongly typed arguments and ValueError for bad values or shapes.
    """
    return BLEU(tokenize=tokenize, lowercase=lowercase, smooth=smooth, smooth_value=smooth_value, max_order=max_order,
                weights=weights, effective_order=effective_order, preset=preset, threads=threads,
                **preset_options)._score_batch(hypotheses, references)


def sentence_bleu(
    hypothesis: str,
    references: Reference,
    *,
    tokenize: Optional[str] = None,
    lowercase: bool = False,
    smooth: Optional[str] = None,
    smooth_value: Optional[float] = None,
    max_order: int = 4,
    weights: Optional[Sequence[float]] = None,
    effective_order: Optional[bool] = None,
    preset: str = "sacrebleu",
    threads: Optional[int] = None,
    **preset_options: Any,
) -> BLEUResult:
    """BLEU of one hypothesis against its reference(s) (a str or a list of str).

    Options as ``bleu``, except that ``effective_order`` defaults to True for the sacrebleu
    preset, like ``sacrebleu.sentence_bleu``. For many segments use ``bleu(...).segment_scores``.

    >>> round(sentence_bleu("the cat sat on the mat", ["the cat is on the mat"]).score, 4)
    37.9918
    """
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be str, got {type(hypothesis).__name__}")
    if effective_order is None:
        effective_order = BLEU.preset_class(preset).sentence_effective_order
    return BLEU(tokenize=tokenize, lowercase=lowercase, smooth=smooth, smooth_value=smooth_value, max_order=max_order,
                weights=weights, effective_order=effective_order, preset=preset, threads=threads,
                **preset_options)([hypothesis], references_lists([references], 1))
