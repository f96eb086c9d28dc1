"""Offline stand-ins for Hugging Face ``evaluate`` modules: ``load(name).compute(predictions=…, references=…)``
returns the same dict as ``evaluate.load(name)`` does, with no download and no ``datasets``.

Each module follows its script in github.com/huggingface/evaluate (``metrics/<name>/<name>.py``, read at commit
a7dd338386a4fae9a1767e05eb9ef9479513d9e8): the same keyword options, the same output keys, the same library
semantics, computed by nlgmetrics (its metrics and its drop-ins for sacreBLEU, rouge_score, NLTK, jiwer and the
SQuAD scripts). Modules: ``sacrebleu``, ``bleu``, ``chrf``, ``ter``, ``rouge``, ``meteor``, ``google_bleu``,
``wer``, ``cer``, ``exact_match``, ``squad``, ``squad_v2``, ``character``, ``charcut_mt``, ``nist_mt``.

>>> from nlgmetrics.compat import evaluate
>>> sacrebleu = evaluate.load("sacrebleu")
>>> round(sacrebleu.compute(predictions=["the cat sat on the mat"], references=[["the cat sat on the mat"]])["score"], 2)
100.0
>>> print(evaluate.load("exact_match").compute(predictions=["cat?", "theater"], references=["the cat", "theater"])
...       ["exact_match"])   # a NumPy float, as evaluate's np.mean gives
0.5
>>> evaluate.load("bertscore")
Traceback (most recent call last):
...
ValueError: no offline module 'bertscore'; nlgmetrics.compat.evaluate has: bleu, cer, character, charcut_mt, chrf, exact_match, google_bleu, meteor, nist_mt, rouge, sacrebleu, squad, squad_v2, ter, wer
"""

from __future__ import annotations

import math
import re
import string
from statistics import mean, median
from typing import Any, Callable, Dict, List, Optional

import numpy as np

__all__ = ["load", "EvaluationModule", "list_modules"]


def _reference_lists(references: List[Any]) -> List[List[str]]:
    """The scripts' "if only one reference is provided make sure we still use list of lists"."""
    return [[ref] for ref in references] if isinstance(references[0], str) else [list(refs) for refs in references]


def _streams(references: List[Any], what: str) -> List[List[str]]:
    """sacreBLEU's reference streams, as the sacrebleu/chrf/ter scripts build them (same count per prediction)."""
    refs = _reference_lists(references)
    count = len(refs[0])
    if any(len(row) != count for row in refs):
        raise ValueError(f"{what} requires the same number of references for each prediction")
    return [[row[i] for row in refs] for i in range(count)]


def _sacrebleu(predictions, references, smooth_method="exp", smooth_value=None, force=False, lowercase=False,
               tokenize=None, use_effective_order=False):
    from nlgmetrics.compat.sacrebleu import corpus_bleu

    options = {"tokenize": tokenize} if tokenize else {}
    out = corpus_bleu(predictions, _streams(references, "Sacrebleu"), smooth_method=smooth_method,
                      smooth_value=smooth_value, force=force, lowercase=lowercase,
                      use_effective_order=use_effective_order, **options)
    return {"score": out.score, "counts": out.counts, "totals": out.totals, "precisions": out.precisions,
            "bp": out.bp, "sys_len": out.sys_len, "ref_len": out.ref_len}


def _chrf(predictions, references, char_order=6, word_order=0, beta=2, lowercase=False, whitespace=False,
          eps_smoothing=False):
    from nlgmetrics.compat.sacrebleu import CHRF

    out = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing).corpus_score(
        predictions, _streams(references, "ChrF, as implemented by sacrebleu,"))
    return {"score": out.score, "char_order": out.char_order, "word_order": out.word_order, "beta": out.beta}


def _ter(predictions, references, normalized=False, ignore_punct=False, support_zh_ja_chars=False,
         case_sensitive=False):
    from nlgmetrics.compat.sacrebleu import TER

    out = TER(normalized=normalized, no_punct=ignore_punct, asian_support=support_zh_ja_chars,
              case_sensitive=case_sensitive).corpus_score(predictions, _streams(references, "Sacrebleu"))
    return {"score": out.score, "num_edits": out.num_edits, "ref_length": out.ref_length}


def _tokens_13a(line: str) -> List[str]:
    from nlgmetrics import _core

    return _core.tokenize_line(line, "13a").split()


def _bleu(predictions, references, tokenizer=None, max_order=4, smooth=False):
    """metrics/bleu/bleu.py: TensorFlow NMT's ``compute_bleu`` (github.com/tensorflow/nmt, nmt/scripts/bleu.py,
    which the script downloads as nmt_bleu.py) on Tokenizer13a tokens: n-gram matches clipped by the most
    frequent count in any reference, the shortest reference's length, Lin & Och's +1 with ``smooth``."""
    refs = _reference_lists(references)
    tokenize = tokenizer if tokenizer is not None else _tokens_13a
    hyp_tokens = [tokenize(p) for p in predictions]
    ref_tokens = [[tokenize(r) for r in row] for row in refs]
    matches = [0] * max_order
    possible = [0] * max_order
    translation_length = reference_length = 0
    for hyp, row in zip(hyp_tokens, ref_tokens):
        reference_length += min(len(r) for r in row)
        translation_length += len(hyp)
        for order in range(1, max_order + 1):
            counts = _ngram_counts(hyp, order)
            best: Dict[tuple, int] = {}
            for ref in row:
                for gram, count in _ngram_counts(ref, order).items():
                    best[gram] = max(best.get(gram, 0), count)
            matches[order - 1] += sum(min(count, best.get(gram, 0)) for gram, count in counts.items())
            possible[order - 1] += max(len(hyp) - order + 1, 0)
    if smooth:
        precisions = [(matches[i] + 1.0) / (possible[i] + 1.0) for i in range(max_order)]
    else:
        precisions = [matches[i] / possible[i] if possible[i] > 0 else 0.0 for i in range(max_order)]
    # the log sum term by term, as nmt_bleu.py adds it (the last bit depends on it); 0/0 raises as there
    geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0
    ratio = float(translation_length) / reference_length
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return {"bleu": geo_mean * bp, "precisions": precisions, "brevity_penalty": bp, "length_ratio": ratio,
            "translation_length": translation_length, "reference_length": reference_length}


def _ngram_counts(tokens: List[str], order: int) -> Dict[tuple, int]:
    counts: Dict[tuple, int] = {}
    for start in range(len(tokens) - order + 1):
        gram = tuple(tokens[start:start + order])
        counts[gram] = counts.get(gram, 0) + 1
    return counts


class _CallableTokenizer:
    """metrics/rouge/rouge.py's wrapper: a function becomes an object with ``tokenize``."""

    def __init__(self, function: Callable[[str], List[str]]):
        self.tokenize = function


def _rouge(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
    from nlgmetrics.compat.rouge_score import rouge_scorer, scoring

    rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer,
                                      tokenizer=_CallableTokenizer(tokenizer) if tokenizer is not None else None)
    scores = [scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
              for ref, pred in zip(references, predictions)]
    if use_aggregator:  # rouge_score's bootstrap (NumPy's global random state, as the script): the median F
        aggregator = scoring.BootstrapAggregator()
        for score in scores:
            aggregator.add_scores(score)
        return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
    return {key: [score[key].fmeasure for score in scores] for key in scores[0]}


_PUNKT_WARNED: List[bool] = []


def _word_tokenize(text: str) -> List[str]:
    """``nltk.word_tokenize``, the meteor script's tokenizer (NLTK needed). Without NLTK's punkt data (which the
    script cannot run without either) the text is one sentence for NLTK's word tokenizer, with a warning once:
    tokens then differ only around full stops inside a multi-sentence text."""
    from nltk import word_tokenize
    from nltk.tokenize import NLTKWordTokenizer

    if not _PUNKT_WARNED:
        try:
            return word_tokenize(text)
        except LookupError:
            import warnings

            _PUNKT_WARNED.append(True)
            warnings.warn("meteor: NLTK's punkt data is missing (nltk.download('punkt_tab')); each text is "
                          "tokenized as one sentence", RuntimeWarning, stacklevel=4)
    return NLTKWordTokenizer().tokenize(text)


def _meteor(predictions, references, alpha=0.9, beta=3, gamma=0.5):
    from nlgmetrics.compat.nltk import meteor as meteor_score

    if isinstance(references[0], list):
        scores = [meteor_score.meteor_score([_word_tokenize(r) for r in refs], _word_tokenize(pred), alpha=alpha,
                                            beta=beta, gamma=gamma) for refs, pred in zip(references, predictions)]
    else:
        scores = [meteor_score.single_meteor_score(_word_tokenize(ref), _word_tokenize(pred), alpha=alpha, beta=beta,
                                                   gamma=gamma) for ref, pred in zip(references, predictions)]
    return {"meteor": np.mean(scores)}


def _google_bleu(predictions, references, tokenizer=None, min_len=1, max_len=4):
    from nlgmetrics.compat.nltk.gleu_score import corpus_gleu

    tokenize = tokenizer if tokenizer is not None else _tokens_13a
    refs = [[tokenize(r) for r in row] for row in _reference_lists(references)]
    return {"google_bleu": corpus_gleu(list_of_references=refs, hypotheses=[tokenize(p) for p in predictions],
                                       min_len=min_len, max_len=max_len)}


def _error_rate(measure: str):
    def compute(predictions=None, references=None, concatenate_texts=False):
        from nlgmetrics.compat import jiwer

        process = jiwer.process_words if measure == "wer" else jiwer.process_characters
        if concatenate_texts:
            out = process(references, predictions)
            return getattr(out, measure)  # WordOutput.wer or CharacterOutput.cer
        # the scripts sum the counts of each pair and divide (ZeroDivisionError when no reference word at all)
        import nlgmetrics

        counts = getattr(nlgmetrics, measure)(list(predictions), list(references)).scores
        incorrect = counts["substitutions"] + counts["deletions"] + counts["insertions"]
        return incorrect / (counts["substitutions"] + counts["deletions"] + counts["hits"])

    return compute


def _exact_match(predictions, references, regexes_to_ignore=None, ignore_case=False, ignore_punctuation=False,
                 ignore_numbers=False):
    preds, refs = list(predictions), list(references)
    for pattern in regexes_to_ignore or ():
        preds = [re.sub(pattern, "", text) for text in preds]
        refs = [re.sub(pattern, "", text) for text in refs]
    if ignore_case:
        preds, refs = [t.lower() for t in preds], [t.lower() for t in refs]
    for ignored, wanted in ((string.punctuation, ignore_punctuation), (string.digits, ignore_numbers)):
        if wanted:
            table = str.maketrans("", "", ignored)
            preds, refs = [t.translate(table) for t in preds], [t.translate(table) for t in refs]
    # NumPy's fixed-width strings (np.asarray) drop trailing NUL characters before comparing; so do we
    return {"exact_match": np.mean([p.rstrip("\0") == r.rstrip("\0") for p, r in zip(preds, refs)])}


def _squad(predictions, references):
    from nlgmetrics.compat.squad import evaluate

    answers = {p["id"]: p["prediction_text"] for p in predictions}
    dataset = [{"paragraphs": [{"qas": [{"answers": [{"text": text} for text in ref["answers"]["text"]],
                                         "id": ref["id"]} for ref in references]}]}]
    return evaluate(dataset, answers)


def _squad_v2(predictions, references, no_answer_threshold=1.0):
    from nlgmetrics.compat.squad import evaluate_v2

    na_probs = {p["id"]: p["no_answer_probability"] for p in predictions}
    answers = {p["id"]: p["prediction_text"] for p in predictions}
    qas = [{"id": ref["id"], "answers": [{"text": text} for text in ref["answers"]["text"]]} for ref in references]
    return dict(evaluate_v2([{"paragraphs": [{"qas": qas}]}], answers, na_probs=na_probs,
                            na_prob_thresh=no_answer_threshold))


def _character(predictions, references, aggregate="mean", return_all_scores=False):
    import nlgmetrics

    if aggregate not in ("mean", "sum", "median"):
        raise ValueError("'aggregate' must be one of 'sum', 'mean', 'median'")
    if isinstance(references[0], str):
        result = nlgmetrics.character(list(predictions), list(references), aggregate=aggregate)
        score, per_pair = result.score, [float(s) for s in result.segment_scores]
    else:  # several references: each prediction's lowest CharacTER over its references
        pairs = [(pred, ref) for pred, refs in zip(predictions, references) for ref in refs]
        flat = nlgmetrics.character([p for p, _ in pairs], [r for _, r in pairs]).segment_scores
        per_pair, start = [], 0
        for refs in references:
            per_pair.append(float(min(flat[start:start + len(refs)])))
            start += len(refs)
        aggregators: Dict[str, Callable[[List[float]], float]] = {"sum": sum, "mean": mean, "median": median}
        score = aggregators[aggregate](per_pair)
    return {"cer_score": score, "cer_scores": per_pair} if return_all_scores else {"cer_score": score}


def _charcut_mt(predictions, references):
    import nlgmetrics

    return {"charcut_mt": nlgmetrics.charcut(list(predictions), list(references)).score}


def _nist_mt(predictions, references, n=5, lowercase=False, western_lang=True):
    import nlgmetrics

    if not western_lang:
        raise NotImplementedError("nist_mt with western_lang=False (NISTTokenizer's non-western rules) is not offline")
    return {"nist_mt": nlgmetrics.nist(list(predictions), _reference_lists(references), n=n, lowercase=lowercase,
                                       tokenize="nist").score}


_MODULES: Dict[str, Callable[..., Any]] = {
    "sacrebleu": _sacrebleu, "bleu": _bleu, "chrf": _chrf, "ter": _ter, "rouge": _rouge, "meteor": _meteor,
    "google_bleu": _google_bleu, "wer": _error_rate("wer"), "cer": _error_rate("cer"), "exact_match": _exact_match,
    "squad": _squad, "squad_v2": _squad_v2, "character": _character, "charcut_mt": _charcut_mt, "nist_mt": _nist_mt,
}


def list_modules() -> List[str]:
    return sorted(_MODULES)


class EvaluationModule:
    """``evaluate.load(name)``'s object: ``compute(predictions=…, references=…, **options)``, ``add_batch`` and
    ``add`` (kept until the next ``compute``)."""

    def __init__(self, name: str):
        self.name = name
        self._compute = _MODULES[name]
        self._predictions: List[Any] = []
        self._references: List[Any] = []

    def add_batch(self, *, predictions=None, references=None) -> None:
        self._predictions.extend(predictions or [])
        self._references.extend(references or [])

    def add(self, *, prediction=None, reference=None) -> None:
        self._predictions.append(prediction)
        self._references.append(reference)

    def compute(self, *, predictions: Optional[List[Any]] = None, references: Optional[List[Any]] = None,
                **options: Any) -> Any:
        if predictions is None and references is None:
            predictions, references = self._predictions, self._references
            self._predictions, self._references = [], []
        if predictions is None or references is None or len(predictions) != len(references):
            raise ValueError(f"{self.name}: predictions and references must be given, one reference entry per "
                             f"prediction (got {None if predictions is None else len(predictions)} and "
                             f"{None if references is None else len(references)})")
        if not len(predictions):
            return None  # evaluate returns None when nothing was added
        return self._compute(list(predictions), list(references), **options)

    def __repr__(self) -> str:
        return f"EvaluationModule(name={self.name!r}, offline=True)"


def load(path: str, *args: Any, **kwargs: Any) -> EvaluationModule:
    """The offline module called ``path`` (``"sacrebleu"``, ``"rouge"`` …); ValueError for any other name."""
    name = str(path).rstrip("/").rsplit("/", 1)[-1].removesuffix(".py")
    if name not in _MODULES:
        raise ValueError(f"no offline module {path!r}; nlgmetrics.compat.evaluate has: {', '.join(list_modules())}")
    return EvaluationModule(name)
