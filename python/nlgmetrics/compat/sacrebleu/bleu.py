"""sacreBLEU 2.6.0's BLEU API (``sacrebleu.metrics.bleu``, ``sacrebleu.compat``), computed by nlgmetrics.

Same call signatures, same ``BLEUScore`` attributes and numbers. Deliberate differences:

* reference streams of different lengths (or not matching the hypotheses) raise ValueError
  instead of being truncated silently; a segment whose references are all ``None`` raises ValueError;
* unknown tokenizers / smoothing methods raise ValueError (sacreBLEU: KeyError / AssertionError);
* ``n_bootstrap > 1`` is not provided here (NotImplementedError);
* the signature's version reads ``2.6.0+nlgmetrics-<version>``.

>>> from nlgmetrics.compat.sacrebleu import corpus_bleu
>>> corpus_bleu(["the cat is sitting on the mat"], [["the cat is on the mat"]]).score
41.11336169005196
"""

from __future__ import annotations

import logging
from typing import Dict, List, Optional, Sequence

from nlgmetrics import _core
from nlgmetrics.compat.sacrebleu._base import Metric, Score, Signature
from nlgmetrics.metrics.bleu.metric import BLEU as BLEUMetric
from nlgmetrics.metrics.bleu.sacrebleu import (
    _check_bool,
    _check_max_order,
    _check_smooth,
    _check_tokenize,
    _tokenizer_signature,
)

logger = logging.getLogger("nlgmetrics.compat.sacrebleu")

MAX_NGRAM_ORDER = 4

_TOKENIZERS = ("none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab")


def _smoothed_counts(correct: List, total: List, smooth_method: str, smooth_value) -> tuple[list, list]:
    """The counts sacreBLEU reports: ``compute_bleu`` adds ``k`` in place to orders ≥ 2 under add-k."""
    correct, total = list(correct), list(total)
    if smooth_method != "add-k" or not any(correct):
        return correct, total
    if smooth_value is None:
        smooth_value = BLEU.SMOOTH_DEFAULTS["add-k"]
    if total[0] == 0:
        return correct, total
    for n in range(1, len(correct)):
        correct[n] += smooth_value
        total[n] += smooth_value
        if total[n] == 0:
            break
    return correct, total


class _Tokenizer:
    """sacreBLEU's tokenizer object shape: ``tokenizer(line) -> str`` and ``tokenizer.signature()``."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, line: str) -> str:
        from nlgmetrics.tokenizers import tokenize

        return tokenize(line, name=self.name)

    def signature(self) -> str:
        return _tokenizer_signature(self.name)


class BLEUSignature(Signature):
    """sacreBLEU's BLEU signature: ``nrefs``, ``case``, ``eff``, ``tok``, ``smooth``, ``version``."""

    def __init__(self, args: dict):
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth = args["smooth_method"]
        default = BLEU.SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = default if args["smooth_value"] is None else args["smooth_value"]
            smooth += f"[{value:.2f}]"
        self.info.update({
            "case": "lc" if args["lowercase"] else "mixed",
            "eff": "yes" if args["effective_order"] else "no",
            "tok": args["tokenizer_signature"],
            "smooth": smooth,
        })


class BLEUScore(Score):
    """sacreBLEU's ``BLEUScore``: ``score, counts, totals, precisions, bp, sys_len, ref_len, ratio``."""

    def __init__(self, score: float, counts: List[int], totals: List[int], precisions: List[float], bp: float,
                 sys_len: int, ref_len: int):
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in self.precisions)
        self.ratio = self.sys_len / self.ref_len if self.ref_len else 0
        self._verbose = (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )


class BLEU(Metric[BLEUScore]):
    """sacreBLEU's ``BLEU`` metric object (same constructor, ``corpus_score``, ``sentence_score``)."""

    SMOOTH_DEFAULTS: Dict[str, Optional[float]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
    TOKENIZERS = _TOKENIZERS
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: Optional[str] = None,
                 smooth_method: str = "exp", smooth_value: Optional[float] = None,
                 max_ngram_order: int = MAX_NGRAM_ORDER, effective_order: bool = False, trg_lang: str = "",
                 references: Optional[Sequence[Sequence[str]]] = None):
        self._force = force
        self.n_bootstrap = None
        self.seed = None
        self.trg_lang = trg_lang
        self.lowercase = _check_bool(lowercase, "lowercase")
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        _check_smooth(smooth_method, smooth_value, strict=False)
        self.max_ngram_order = _check_max_order(max_ngram_order)
        self.effective_order = _check_bool(effective_order, "effective_order")
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            for lang, best in (("zh", "zh"), ("ja", "ja-mecab"), ("ko", "ko-mecab")):
                if trg_lang == lang and tokenize != best:
                    logger.warning("Consider using the '%s' or 'spm' tokenizer for %s.", best, trg_lang)
        self.tokenize = _check_tokenize(tokenize)
        self.tokenizer = _Tokenizer(self.tokenize)
        self.tokenizer_signature = self.tokenizer.signature()
        self._cache_references(references)

    @staticmethod
    def compute_bleu(correct: List[int], total: List[int], sys_len: int, ref_len: int,
                     smooth_method: str = "none", smooth_value=None, effective_order: bool = False,
                     max_ngram_order: int = MAX_NGRAM_ORDER) -> BLEUScore:
        """BLEU from sufficient statistics (``BLEU.compute_bleu`` in sacreBLEU)."""
        _check_smooth(smooth_method, smooth_value, strict=False)
        stats = [int(sys_len), int(ref_len)] + [int(c) for c in correct] + [int(t) for t in total]
        options = {"max_order": max_ngram_order, "smooth": smooth_method,
                   "smooth_value": None if smooth_value is None else float(smooth_value),
                   "effective_order": effective_order, "weights": None}
        score, precisions, bp = _core.bleu_score_from_stats(stats, options)
        counts, totals = _smoothed_counts(correct, total, smooth_method, smooth_value)
        return BLEUScore(score, counts, totals, precisions, bp, sys_len, ref_len)

    def _score(self, hypotheses: List[str], segments: List[List[str]]) -> BLEUScore:
        value = self.smooth_value if self.SMOOTH_DEFAULTS[self.smooth_method] is not None else None
        result = BLEUMetric(tokenize=self.tokenize, lowercase=self.lowercase, smooth=self.smooth_method,
                            smooth_value=value, max_order=self.max_ngram_order,
                            effective_order=self.effective_order)._score_batch(hypotheses, segments)
        counts, totals = _smoothed_counts(
            [int(c) for c in result.counts], [int(t) for t in result.totals], self.smooth_method, value
        )
        return BLEUScore(result.score, counts, totals, list(result.precisions), result.bp,
                         int(result.sys_len), int(result.ref_len))

    def _before_sentence(self) -> None:
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")

    def _check_hypotheses(self, hypotheses: Sequence[str]) -> None:
        if not self._force and sum(1 for line in hypotheses if line.endswith(" .")) >= 100:
            logger.warning("That's 100 lines that end in a tokenized period ('.')")
            logger.warning("It looks like you forgot to detokenize your test data, which may hurt your score.")
            logger.warning("If you insist your data is detokenized, or don't care, "
                           "you can suppress this message with the `force` parameter.")



def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]], smooth_method: str = "exp",
                smooth_value: Optional[float] = None, force: bool = False, lowercase: bool = False,
                tokenize: str = BLEU.TOKENIZER_DEFAULT, use_effective_order: bool = False) -> BLEUScore:
    """``sacrebleu.corpus_bleu``: BLEU of a corpus against one or more reference streams."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                    smooth_value: Optional[float] = BLEU.SMOOTH_DEFAULTS["floor"]) -> BLEUScore:
    """``sacrebleu.raw_corpus_bleu``: no tokenization, floor smoothing, effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value, force=True,
                       tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[str], smooth_method: str = "exp",
                  smooth_value: Optional[float] = None, lowercase: bool = False,
                  tokenize: str = BLEU.TOKENIZER_DEFAULT, use_effective_order: bool = True) -> BLEUScore:
    """``sacrebleu.sentence_bleu``: BLEU of one hypothesis against a list of references."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)
