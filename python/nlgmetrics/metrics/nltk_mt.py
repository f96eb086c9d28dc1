"""GLEU, NIST and RIBES exactly as NLTK 3.10.4 computes them (``nltk.translate.gleu_score``,
``nist_score``, ``ribes_score``), on lines of text, in Rust and in parallel.

Each metric tokenizes lines as the Hugging Face ``evaluate`` module that wraps it: GLEU
(``google_bleu``) with sacreBLEU's ``13a`` then ``split()``; NIST (``nist_mt``) with NLTK's
``NISTTokenizer``; RIBES (no ``evaluate`` module) with ``split()``. ``tokenize="none"`` splits on
whitespace, as NLTK's callers do; any sacreBLEU tokenizer name (``intl``, ``zh``, …) works too.
Scores are on NLTK's scale: GLEU and RIBES 0–1, NIST 0 to about 10–15.

>>> import nlgmetrics
>>> hyps = ["the cat sat on the mat", "it is raining"]
>>> refs = [["the cat ate the mat"], ["it rains"]]
>>> print(nlgmetrics.gleu(hyps, refs))
GLEU = 0.2917
>>> round(nlgmetrics.ribes(hyps, refs).score, 4)
0.4518
>>> nlgmetrics.nist(hyps, refs, n=2).segment_scores.round(3).tolist()
[1.615, 0.333]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Dict, List, Optional, Sequence, Tuple
from xml.sax.saxutils import unescape

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.inputs import surrogate_location
from nlgmetrics.core.metric import Metric, counted_rows
from nlgmetrics.core.options import CliOption, check_bool, check_int, check_number
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.core.signature import Signature, nrefs_field

__all__ = ["GLEU", "GLEUResult", "NIST", "NISTResult", "RIBES", "RIBESResult", "gleu", "nist", "ribes"]

#: Longest sentence RIBES aligns (NLTK's ``MAX_ALIGNMENT_LEN``); longer ones raise ValueError, as in NLTK.
RIBES_MAX_ALIGNMENT_LEN = 2000

_TOKENIZE_HELP = "none (whitespace), nist, 13a, intl, zh, char"


def _check_tokenize(tokenize: Any) -> str:
    if not isinstance(tokenize, str):
        raise TypeError(f"tokenize must be a tokenizer name ({_TOKENIZE_HELP}), got {type(tokenize).__name__}")
    if tokenize not in ("none", "nist"):
        try:
            _core.tokenize_line("", tokenize)
        except ValueError:
            raise ValueError(f"unknown tokenizer {tokenize!r}; valid names: {_TOKENIZE_HELP}") from None
    return tokenize


def _lowercased(hypotheses: list, references: list, lowercase: bool) -> tuple:
    if not lowercase:
        return hypotheses, references
    return [h.lower() for h in hypotheses], [[r.lower() for r in refs] for refs in references]


#: ``nltk.tokenize.util.xml_unescape``'s entities (``xml.sax.saxutils.unescape`` adds ``&lt; &gt; &amp;``).
_NIST_ENTITIES = {"&apos;": "'", "&quot;": '"', "&#124;": "|", "&#91;": "[", "&#93;": "]"}


def _nist_lowercased(line: str) -> str:
    """``NISTTokenizer.tokenize(line, lowercase=True)`` up to its regexes (nltk/tokenize/nist.py): the
    language-independent substitutions first (``<skipped>`` dropped, XML unescaped, U+2028 → space),
    then ``str.lower()`` — so ``&AMP;`` is not unescaped but becomes ``&amp;``.

    >>> _nist_lowercased("A &amp; B &AMP; <SKIPPED><skipped>")
    'a & b &amp; <skipped>'
    """
    return unescape(line.replace("<skipped>", ""), _NIST_ENTITIES).replace("\u2028", " ").lower()


# --------------------------------------------------------------------------------------------- GLEU

@dataclass(frozen=True, eq=False)
class GLEUResult(Result):
    """Corpus GLEU = Σ matches / Σ max(hypothesis n-grams, reference n-grams) (0–1, NLTK's ``corpus_gleu``).

    ``segment_scores``: NLTK's ``sentence_gleu`` of each segment; ``segment_stats``: ``[n_match, n_all]``.
    """

    score: float
    n_match: int
    n_all: int
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)

    name = "GLEU"

    @property
    def scores(self) -> dict:
        return {"GLEU": float(self.score), "n_match": int(self.n_match), "n_all": int(self.n_all)}

    def __str__(self) -> str:
        return f"GLEU = {self.score:.4f}"


@register
class GLEU(Metric):
    """Google-BLEU (Wu et al. 2016) as NLTK's ``corpus_gleu`` / HF evaluate's ``google_bleu``."""

    name = "gleu"
    description = "Google-BLEU (NLTK 3.10.4 corpus_gleu; HF evaluate google_bleu)"
    extra_decimals = 2
    stat_columns = ("n_match", "n_all")
    cli_options = (
        CliOption(("-tok", "--tokenize"), "tokenize", "str", help=f"tokenizer: {_TOKENIZE_HELP} (default 13a)"),
        CliOption(("--min-len",), "min_len", "int", help="lowest n-gram order (default 1)"),
        CliOption(("--max-len",), "max_len", "int", help="highest n-gram order (default 4)"),
    )

    def __init__(self, *, tokenize: str = "13a", min_len: int = 1, max_len: int = 4, threads: Optional[int] = None,
                 segments: bool = True):
        options = {"tokenize": _check_tokenize(tokenize), "min_len": check_int(min_len, "min_len", 0, 100),
                   "max_len": check_int(max_len, "max_len", 0, 100)}
        super().__init__(options, threads=threads, segments=segments)

    def empty_compute(self) -> Tuple[str, str]:
        return "warn", "NLTK's corpus_gleu scores no segments as 0.0"

    def display_name(self) -> str:
        return "GLEU"

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        rows, scores = segment_scorer("gleu", self.options).segment_stats(hypotheses, references, self.threads)
        return {"segment_stats": rows, "segment_scores": scores}

    def result_from_state(self, state) -> GLEUResult:
        n_match, n_all = (int(total) for total in self.totals(state))
        return GLEUResult(0.0 if n_all == 0 else n_match / n_all, n_match, n_all, self.signature(state.ref_counts),
                          state.arrays.get("segment_scores", np.zeros(0)), self.segment_rows(state))

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.ascontiguousarray(sums, dtype=np.int64).reshape(-1, 2)
        return segment_scorer("gleu", self.options).score_rows(sums, self.threads)

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        o = self.options
        return (("nrefs", nrefs_field(ref_counts)), ("tok", o["tokenize"]), ("n", f"{o['min_len']}-{o['max_len']}"))


def gleu(hypotheses: Sequence[str], references: Sequence[Any], *, tokenize: str = "13a", min_len: int = 1,
         max_len: int = 4, threads: Optional[int] = None) -> GLEUResult:
    """Corpus GLEU identical to NLTK's ``corpus_gleu`` on the tokenized lines (HF ``google_bleu`` with
    its default ``Tokenizer13a``); ``tokenize="none"`` splits on whitespace.

    >>> gleu(["the cat sat on the mat"], [["the cat ate the mat"]]).score
    0.3333333333333333
    """
    return GLEU(tokenize=tokenize, min_len=min_len, max_len=max_len, threads=threads)._score_batch(hypotheses, references)


# --------------------------------------------------------------------------------------------- NIST

@dataclass(frozen=True, eq=False)
class NISTResult(Result):
    """Corpus NIST (NLTK's ``corpus_nist``) and each segment's ``sentence_nist``.

    ``segment_stats``: per segment ``[info_1..n, ngrams_1..n, ref_len_1..n, hyp_len]`` under the
    corpus's information weights (their column sums give ``score``). ``nltk_divides_by_zero``: NLTK
    raises ZeroDivisionError here (an order without any hypothesis n-gram, e.g. a hypothesis shorter
    than ``n`` words); ``score`` is then mteval-v13a's value, where such an order adds 0.
    """

    score: float
    nltk_divides_by_zero: bool
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)

    name = "NIST"

    @property
    def scores(self) -> dict:
        return {"NIST": float(self.score)}

    def __str__(self) -> str:
        return f"NIST = {self.score:.4f}"


def _nist_totals(rows: np.ndarray, n: int) -> np.ndarray:
    """Column sums, the information summed segment after segment as NLTK's ``+=`` (cumsum is sequential)."""
    if len(rows) == 0:
        return np.zeros(3 * n + 1)
    return np.cumsum(rows, axis=0)[-1]


@register
class NIST(Metric):
    """NIST (Doddington 2002) as NLTK's ``corpus_nist`` / HF evaluate's ``nist_mt``.

    Information weights come from all references of the corpus, so the state keeps the texts
    (``"rows"`` reduction, about the size of the text); merged states give the one-shot numbers.
    Bootstrap resamples and paired tests keep the full corpus's weights.
    """

    name = "nist"
    description = "NIST (NLTK 3.10.4 corpus_nist; HF evaluate nist_mt)"
    reduction = "rows"
    text_arrays = ("hypotheses", "references")
    extra_decimals = 2
    cli_options = (
        CliOption(("-tok", "--tokenize"), "tokenize", "str", help=f"tokenizer: {_TOKENIZE_HELP} (default nist)"),
        CliOption(("-n", "--max-order"), "n", "int", help="highest n-gram order (default 5)"),
        CliOption(("--lowercase",), "lowercase", "flag",
                  help="lowercase (str.lower; with the nist tokenizer after its XML unescaping, as NLTK)"),
    )

    def __init__(self, *, tokenize: str = "nist", n: int = 5, lowercase: bool = False, threads: Optional[int] = None,
                 segments: bool = True):
        options = {"tokenize": _check_tokenize(tokenize), "n": check_int(n, "n", 1, 100),
                   "lowercase": check_bool(lowercase, "lowercase")}
        super().__init__(options, threads=threads, segments=segments)

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        n = self.options["n"]
        return (tuple(f"info_{i}" for i in range(1, n + 1)) + tuple(f"ngrams_{i}" for i in range(1, n + 1))
                + tuple(f"ref_len_{i}" for i in range(1, n + 1)) + ("hyp_len",))

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "NLTK's corpus_nist divides by zero (ZeroDivisionError)"

    def display_name(self) -> str:
        return "NIST"

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        return {"hypotheses": list(hypotheses), "references": list(chain.from_iterable(references)),
                "ref_counts": np.fromiter(map(len, references), dtype=np.int64, count=len(references))}

    def result_from_state(self, state) -> NISTResult:
        o = self.options
        n = o["n"]
        stats = None
        if not o["lowercase"]:
            # The kept UTF-8 buffers read in place (no str per line); None if they are not valid UTF-8.
            a = state.arrays
            stats = _core.nist_utf8_stats(a["hypotheses.data"], a["hypotheses.offsets"], a["references.data"],
                                          a["references.offsets"], a["ref_counts"], o, self.threads)
        if stats is None:
            hyps, flat = state.texts("hypotheses"), state.texts("references")
            refs, start = [], 0
            for count in state.arrays["ref_counts"].tolist():
                refs.append(flat[start:start + count])
                start += count
            tokenize = o["tokenize"]
            if o["lowercase"] and tokenize == "nist":
                # NLTK lowercases after the substitutions, before the regexes: Python does the first two.
                hyps, refs = [_nist_lowercased(h) for h in hyps], [[_nist_lowercased(r) for r in rs] for rs in refs]
                tokenize = "nist-substituted"
            else:
                hyps, refs = _lowercased(hyps, refs, o["lowercase"])
            try:
                stats = _core.nist_corpus_and_sentence_stats(hyps, refs, {**o, "tokenize": tokenize}, self.threads)
            except UnicodeEncodeError:
                raise ValueError(surrogate_location(hyps, refs)) from None
        rows, own = stats
        segments = len(rows)
        (score,), (divides_by_zero,) = _core.nist_row_scores(_nist_totals(rows, n)[None, :], [segments])
        segment_scores = np.asarray(_core.nist_row_scores(own, [1] * segments)[0], dtype=np.float64)
        return NISTResult(score, divides_by_zero, self.signature(state.ref_counts), segment_scores, rows)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.ascontiguousarray(sums, dtype=np.float64).reshape(-1, 3 * self.options["n"] + 1)
        return np.asarray(_core.nist_row_scores(sums, [1] * len(sums))[0])

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        o = self.options
        return (("nrefs", nrefs_field(ref_counts)), ("case", "lc" if o["lowercase"] else "mixed"), ("tok", o["tokenize"]),
                ("n", str(o["n"])))


def nist(hypotheses: Sequence[str], references: Sequence[Any], *, tokenize: str = "nist", n: int = 5,
         lowercase: bool = False, threads: Optional[int] = None) -> NISTResult:
    """Corpus NIST identical to NLTK's ``corpus_nist`` on the tokenized lines (HF ``nist_mt``: NLTK's
    ``NISTTokenizer``, ``lowercase`` as there: after its XML unescaping, before its regexes); ``segment_scores``
    are ``sentence_nist`` (each segment's own information weights).

    >>> round(nist(["the cat sat on the mat"], [["the cat ate the mat"]], n=2).score, 4)
    1.6146
    """
    return NIST(tokenize=tokenize, n=n, lowercase=lowercase, threads=threads)._score_batch(hypotheses, references)


# -------------------------------------------------------------------------------------------- RIBES

@dataclass(frozen=True, eq=False)
class RIBESResult(Result):
    """Corpus RIBES = mean of the sentence scores (NLTK's ``corpus_ribes``), 0–1.

    ``segment_stats``: ``[sentence RIBES, 1]`` per segment (a resample's sum divided by its count is its score).
    """

    score: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)

    name = "RIBES"

    @property
    def segment_stats(self) -> np.ndarray:
        return counted_rows(self.segment_scores)

    @property
    def scores(self) -> dict:
        return {"RIBES": float(self.score)}

    def __str__(self) -> str:
        return f"RIBES = {self.score:.4f}"


@register
class RIBES(Metric):
    """RIBES (Isozaki et al. 2010) as NLTK's ``corpus_ribes`` (best reference per sentence, mean over sentences)."""

    name = "ribes"
    description = "RIBES (NLTK 3.10.4 corpus_ribes)"
    reduction = "mean"
    extra_decimals = 2
    stat_columns = ("ribes", "count")
    cli_options = (
        CliOption(("-tok", "--tokenize"), "tokenize", "str", help=f"tokenizer: {_TOKENIZE_HELP} (default none)"),
        CliOption(("--alpha",), "alpha", "float", help="exponent of the unigram precision (default 0.25)"),
        CliOption(("--beta",), "beta", "float", help="exponent of the brevity penalty (default 0.10)"),
    )

    def __init__(self, *, tokenize: str = "none", alpha: float = 0.25, beta: float = 0.10,
                 threads: Optional[int] = None, segments: bool = True):
        options = {"tokenize": _check_tokenize(tokenize), "alpha": check_number(alpha, "alpha", 0.0),
                   "beta": check_number(beta, "beta", 0.0)}
        super().__init__(options, threads=threads, segments=segments)

    def empty_compute(self) -> Tuple[str, str]:
        return "warn", "NLTK's corpus_ribes scores no segments as 0.0"

    def display_name(self) -> str:
        return "RIBES"

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        rows, _ = self._scorer().segment_stats(hypotheses, references, self.threads)
        return {"segment_stats": rows}

    def _scorer(self) -> _core.SegmentScorer:
        """The Rust RIBES of these options (rows ``[sentence RIBES, 1]``), with NLTK's alignment limit."""
        return segment_scorer("ribes", {**self.options, "max_alignment_len": RIBES_MAX_ALIGNMENT_LEN})

    def totals(self, state) -> np.ndarray:
        rows = state.arrays["segment_stats"]
        # NLTK adds the sentence scores one after another (cumsum is sequential).
        return np.cumsum(rows, axis=0)[-1] if len(rows) else np.zeros(2)

    def result_from_state(self, state) -> RIBESResult:
        rows = self.segment_rows(state)
        total, count = self.totals(state)
        return RIBESResult(float(total / count) if count else 0.0, self.signature(state.ref_counts),
                           np.ascontiguousarray(rows[:, 0]))

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.ascontiguousarray(sums, dtype=np.float64).reshape(-1, 2)
        return self._scorer().score_rows(sums, self.threads)

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        o = self.options
        return (("nrefs", nrefs_field(ref_counts)), ("tok", o["tokenize"]), ("alpha", repr(float(o["alpha"]))),
                ("beta", repr(float(o["beta"]))))


def ribes(hypotheses: Sequence[str], references: Sequence[Any], *, tokenize: str = "none", alpha: float = 0.25,
          beta: float = 0.10, threads: Optional[int] = None) -> RIBESResult:
    """Corpus RIBES identical to NLTK's ``corpus_ribes`` on whitespace-split lines (``tokenize``: any
    tokenizer name). Sentences over 2000 tokens raise ValueError, as NLTK's ``MAX_ALIGNMENT_LEN``.

    >>> ribes(["he read the book because he was interested in world history"],
    ...       [["he was interested in world history because he read the book"]]).score
    0.38181818181818183
    """
    return RIBES(tokenize=tokenize, alpha=alpha, beta=beta, threads=threads)._score_batch(hypotheses, references)
