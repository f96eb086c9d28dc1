"""CIDEr-D (Vedantam et al. 2015) exactly as pycocoevalcap 1.2 computes it, and its PTB tokenizer.

CIDEr-D's document frequencies come from *all* references of the corpus, and pycocoevalcap's PTB
tokenizer runs over all captions as one batch, so this metric keeps the texts: its state holds the
hypotheses and references as UTF-8 (``"rows"`` reduction, about the size of the text itself), and
``compute()`` tokenizes and scores them once. Merged states give exactly the one-shot numbers.

>>> import nlgmetrics
>>> nlgmetrics.ptb_tokenize(['A man (in red) is "jumping".'])
['a man -lrb- in red -rrb- is jumping']
>>> round(nlgmetrics.cider(["a dog runs", "a cat sleeps"], [["a dog runs"], ["a cat sleeps"]]).score, 3)
7.5
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.inputs import hypotheses_list
from nlgmetrics.core.metric import Metric, counted_rows
from nlgmetrics.core.options import CliOption, check_bool, check_int, check_number
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.signature import Signature

VARIANTS = ("cider-d", "cider")


def ptb_tokenize(captions: Sequence[str], threads: Optional[int] = None) -> List[str]:
    """pycocoevalcap's tokenized form of each caption (PTB tokens, lower case, punctuation removed).

    The captions are tokenized as one batch in this order, like pycocoevalcap's one-file jar run:
    a caption's last token may depend on the start of the next one (e.g. ``plan b.`` before ``A …``).
    Newlines inside a caption are spaces, as in pycocoevalcap.
    """
    lines = hypotheses_list(captions, "captions")
    return _core.ptb_coco_tokenize([line.replace("\n", " ") for line in lines], threads)


@dataclass(frozen=True)
class CiderResult(Result):
    """Corpus CIDEr (mean of the image scores, pycocoevalcap's scale: ×10) and per-image scores.

    ``segment_stats``: ``[image score, 1]`` per image (the corpus score is their mean).
    """

    score: float
    image_scores: np.ndarray = field(repr=False)
    signature: Signature = field(repr=False)

    @property
    def name(self) -> str:
        return "CIDEr-D" if self.signature.get("variant") == "cider-d" else "CIDEr"

    @property
    def scores(self) -> dict:
        return {"CIDEr": float(self.score)}

    @property
    def segment_scores(self) -> np.ndarray:
        """Alias of ``image_scores``."""
        return self.image_scores

    @property
    def segment_stats(self) -> np.ndarray:
        return counted_rows(self.image_scores)

    def to_dict(self, segments: bool = False) -> dict:
        return {**super().to_dict(segments=segments), "CIDEr": self.score}

    def __str__(self) -> str:
        return f"CIDEr = {self.score:.4f}  ({self.signature})"


@register
class CIDEr(Metric):
    """CIDEr-D / CIDEr as a registered, mergeable metric (options as ``cider``)."""

    name = "cider"
    description = "CIDEr-D (pycocoevalcap 1.2, PTB-tokenized; variant cider = the original CIDEr)"
    reduction = "rows"
    text_arrays = ("hypotheses", "references")
    stat_columns = ("image_score", "count")
    cli_options = (
        CliOption(("--variant",), "variant", choices=VARIANTS, help="cider-d (default) or cider"),
        CliOption(("--no-tokenize",), "tokenize", "flag", help="captions are already PTB-tokenized"),
    )

    def __init__(self, *, tokenize: bool = True, variant: str = "cider-d", n: int = 4, sigma: float = 6.0,
                 threads: Optional[int] = None, segments: bool = True):
        if variant not in VARIANTS:
            raise ValueError(f"variant must be 'cider-d' or 'cider', got {variant!r}")
        options = {"tokenize": check_bool(tokenize, "tokenize"), "variant": variant, "n": check_int(n, "n", 1, 4),
                   "sigma": check_number(sigma, "sigma", 1e-300)}
        super().__init__(options, threads=threads, segments=segments)

    @classmethod
    def options_from_cli(cls, args: Any) -> dict:
        options = {"tokenize": not args.tokenize}
        if args.variant is not None:
            options["variant"] = args.variant
        return options

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "pycocoevalcap's Cider raises ValueError on no images"

    def display_name(self) -> str:
        return "CIDEr-D" if self.options["variant"] == "cider-d" else "CIDEr"

    def signature_name(self) -> str:
        return "CIDEr"

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        return {"hypotheses": list(hypotheses), "references": [ref for refs in references for ref in refs],
                "ref_counts": np.array([len(refs) for refs in references], dtype=np.int64)}

    def result_from_state(self, state) -> CiderResult:
        options = self.options
        hyps, flat = state.texts("hypotheses"), state.texts("references")
        if not hyps:
            raise ValueError("hypotheses is empty")
        if options["tokenize"]:
            hyps, flat = ptb_tokenize(hyps, self.threads), ptb_tokenize(flat, self.threads)
        refs, start = [], 0
        for count in state.arrays["ref_counts"].tolist():
            refs.append(flat[start:start + count])
            start += count
        scores = _core.cider_image_scores(hyps, refs, options, self.threads)
        return CiderResult(float(np.mean(scores)), scores, self.signature(state.ref_counts))

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        return sums[:, 0] / sums[:, 1]

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        options = self.options
        return (("variant", options["variant"]), ("n", str(options["n"])), ("sigma", repr(float(options["sigma"]))),
                ("tok", "ptb" if options["tokenize"] else "none"))


def cider(hypotheses: Sequence[str], references: Sequence[Any], *, tokenize: bool = True, variant: str = "cider-d",
          n: int = 4, sigma: float = 6.0) -> CiderResult:
    """CIDEr-D as pycocoevalcap (``variant="cider-d"``) or the original CIDEr (``variant="cider"``:
    no clipping, no length penalty; still ×10 like pycocoevalcap). Document frequencies come from
    the given references. ``tokenize=True`` applies pycocoevalcap's PTB tokenization first.

    >>> round(cider(["a dog runs", "a cat sleeps"], [["a dog runs"], ["a cat sleeps"]]).score, 3)
    7.5
    """
    return CIDEr(tokenize=tokenize, variant=variant, n=n, sigma=sigma)._score_batch(hypotheses, references)
