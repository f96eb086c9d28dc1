"""Question answering: exact match and F1 as the official evaluation scripts compute them.

Normalisers (``normalizer=``), each the named script's ``normalize_answer`` and F1 rule:

- ``"squad"``: SQuAD evaluate-v1.1.py — lowercase, drop ASCII punctuation, drop a/an/the, collapse
  whitespace; token F1 (0 when nothing is shared, even if both sides are empty).
- ``"squad_v2"``: evaluate-v2.0.py — same normalisation; golds that normalise to "" are ignored and an
  unanswerable question's only gold is ""; F1 is 1 when both sides have no tokens.
- ``"mlqa"`` with ``language=`` en/es/hi/vi/de/ar/zh: mlqa_evaluation_v1.py — Unicode punctuation
  (category P*), the language's articles, mixed segmentation for Chinese.
- ``"cmrc"``: CMRC 2018 — Chinese characters one by one, Latin words and numbers whole, Chinese and
  English punctuation removed; F1 over the longest common substring of segments.

>>> import nlgmetrics
>>> nlgmetrics.exact_match("The Broncos!", ["Denver Broncos", "broncos"])
1.0
>>> round(nlgmetrics.token_f1("Denver", ["Denver Broncos"]), 4)
0.6667
>>> result = nlgmetrics.squad({"q1": "Broncos"}, [{"paragraphs": [{"qas": [
...     {"id": "q1", "answers": [{"text": "Denver Broncos"}]}]}]}])
>>> result.exact_match, round(result.f1, 3)
(0.0, 66.667)
"""

from __future__ import annotations

import math
import sys
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.inputs import hypotheses_list, references_lists
from nlgmetrics.core.metric import Metric
from nlgmetrics.core.options import CliOption
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result, SummaryResult
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.core.signature import Signature

NORMALIZERS = ("squad", "squad_v2", "mlqa", "cmrc")


def _check_normalizer(normalizer: str, language: Optional[str]) -> None:
    if not isinstance(normalizer, str) or normalizer not in NORMALIZERS:
        raise ValueError(f"normalizer must be one of {', '.join(NORMALIZERS)}, got {normalizer!r}")
    if language is not None and not isinstance(language, str):
        raise TypeError(f"language must be a str or None, got {type(language).__name__}")


def normalize_answer(text: Union[str, Sequence[str]], normalizer: str = "squad", language: Optional[str] = None):
    """The normalised form of an answer (or of each answer in a list), as exact match compares it.

    >>> normalize_answer("The  Cat's hat!")
    'cats hat'
    >>> normalize_answer("Die Katze", "mlqa", language="de")
    'katze'
    """
    _check_normalizer(normalizer, language)
    if isinstance(text, str):
        return _core.qa_normalize([text], {"normalizer": normalizer, "language": language})[0]
    return _core.qa_normalize(hypotheses_list(text, "text"), {"normalizer": normalizer, "language": language})


def _score_batch(predictions, references, normalizer, language):
    _check_normalizer(normalizer, language)
    single = isinstance(predictions, str)
    if single:
        predictions = [predictions]
        if isinstance(references, str):
            references = [references]
        references = [references]
    predictions = hypotheses_list(predictions, "predictions")
    if normalizer == "squad_v2":
        # v2.0 allows an empty answer list (an unanswerable question).
        refs = _reference_lists_allow_empty(references, len(predictions))
    else:
        refs = references_lists(references, len(predictions))
    exact, f1 = _exact_and_f1(predictions, refs, normalizer, language)
    return single, exact, f1


def _exact_and_f1(predictions: List[str], references: List[List[str]], normalizer: str, language: Optional[str],
                  threads: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Each question's exact match and F1 (the Rust segment metric ``squad``: rows ``[exact, f1, 1]``; under
    ``squad_v2`` a question may have no gold answer, SQuAD v2.0's unanswerable questions)."""
    options = {"normalizer": normalizer, "language": language, "measure": "f1"}
    rows, _ = segment_scorer("squad", options).segment_stats(predictions, references, threads)
    return np.ascontiguousarray(rows[:, 0]), np.ascontiguousarray(rows[:, 1])


def _reference_lists_allow_empty(references, n_predictions):
    if isinstance(references, (str, bytes)):
        raise TypeError("references must be a sequence (one entry per prediction), not a single str")
    entries = list(references)
    if len(entries) != n_predictions:
        raise ValueError(f"references has {len(entries)} entries but there are {n_predictions} predictions")
    out = []
    for index, entry in enumerate(entries):
        if isinstance(entry, str):
            out.append([entry])
            continue
        refs = list(entry)
        for ref_index, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise TypeError(f"references[{index}][{ref_index}] must be str, got {type(ref).__name__}")
        out.append(refs)
    return out


def exact_match(predictions, references, normalizer: str = "squad", language: Optional[str] = None):
    """Exact match after normalisation, max over the gold answers.

    One prediction (str) with its golds (str or list) → float 0.0/1.0; a list of predictions with
    one gold list each → NumPy array.

    >>> exact_match(["the cat", "dog"], [["Cat"], ["a dog", "hound"]])
    array([1., 1.])
    """
    single, exact, _ = _score_batch(predictions, references, normalizer, language)
    return float(exact[0]) if single else exact


def token_f1(predictions, references, normalizer: str = "squad", language: Optional[str] = None):
    """Token F1 (CMRC: segment F1 over the longest common substring), max over the gold answers.

    >>> token_f1("北京大学", ["北京"], normalizer="cmrc")
    0.6666666666666666
    """
    single, _, f1 = _score_batch(predictions, references, normalizer, language)
    return float(f1[0]) if single else f1


@dataclass(frozen=True)
class QAResult(Result):
    """Mean exact match and F1 in percent (as the scripts print them) and per-question scores.

    ``score`` is the measure the metric was asked for (``exact_match`` or ``f1``); ``segment_stats``
    rows are ``[exact × 100, F1 × 100, 1]`` (column sums over the count are the corpus numbers).
    """

    exact_match: float
    f1: float
    exact_scores: np.ndarray = field(repr=False)
    f1_scores: np.ndarray = field(repr=False)
    signature: Signature = field(repr=False)
    measure: str = "f1"

    @property
    def name(self) -> str:
        return "EM" if self.measure == "exact_match" else "F1"

    @property
    def score(self) -> float:
        return float(self.exact_match if self.measure == "exact_match" else self.f1)

    @property
    def scores(self) -> dict:
        return {"exact_match": float(self.exact_match), "f1": float(self.f1)}

    @property
    def segment_scores(self) -> np.ndarray:
        return np.asarray(self.exact_scores if self.measure == "exact_match" else self.f1_scores, dtype=np.float64) * 100.0

    @property
    def segment_stats(self) -> np.ndarray:
        exact = np.asarray(self.exact_scores, dtype=np.float64) * 100.0
        return np.column_stack([exact, np.asarray(self.f1_scores, dtype=np.float64) * 100.0, np.ones(len(exact))])

    def table_columns(self) -> list:
        return [("EM", self.exact_match), ("F1", self.f1)]

    def to_dict(self, segments: bool = False) -> dict:
        return {**super().to_dict(segments=segments), "exact_match": self.exact_match, "f1": self.f1}

    def __str__(self) -> str:
        return f"EM = {self.exact_match:.2f}  F1 = {self.f1:.2f}  ({self.signature})"


@register
class QA(Metric):
    """Exact match and token F1 as a registered, mergeable metric (the official scripts' rules).

    Registered as ``squad`` (both numbers; headline F1), with aliases ``exact_match`` and ``token_f1``
    (``f1``) whose headline is that measure. The corpus numbers are means, so the state keeps each
    question's two scores (16 bytes a question).
    """

    name = "squad"
    description = "exact match and token F1 (SQuAD v1.1/v2.0 scripts; normalizers squad, squad_v2, mlqa, cmrc)"
    aliases = {"exact_match": {"measure": "exact_match"}, "em": {"measure": "exact_match"},
               "token_f1": {"measure": "f1"}, "f1": {"measure": "f1"}}
    reduction = "mean"
    stat_columns = ("exact_match", "f1", "count")
    cli_options = (
        CliOption(("--normalizer",), "normalizer", choices=NORMALIZERS, help="answer normalisation (default squad)"),
        CliOption(("--language",), "language", help="language for the mlqa normalizer (en es hi vi de ar zh)"),
        CliOption(("--measure",), "measure", choices=("f1", "exact_match"), help="headline number (default f1)"),
    )

    def __init__(self, *, normalizer: str = "squad", language: Optional[str] = None, measure: str = "f1",
                 threads: Optional[int] = None, segments: bool = True):
        _check_normalizer(normalizer, language)
        if measure not in ("f1", "exact_match"):
            raise ValueError(f"measure must be 'f1' or 'exact_match', got {measure!r}")
        super().__init__({"normalizer": normalizer, "language": language, "measure": measure}, threads=threads,
                         segments=segments)

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "the SQuAD scripts divide by the number of questions (ZeroDivisionError)"

    def display_name(self) -> str:
        return "EM" if self.options["measure"] == "exact_match" else "F1"

    def signature_name(self) -> str:
        return "QA"

    def check_inputs(self, hypotheses: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
        predictions = hypotheses_list(hypotheses, "predictions")
        if self.options["normalizer"] == "squad_v2":
            # v2.0 allows an empty answer list (an unanswerable question).
            return predictions, _reference_lists_allow_empty(references, len(predictions))
        return predictions, references_lists(references, len(predictions))

    def batch_arrays(self, predictions: List[str], references: List[List[str]]) -> Dict[str, Any]:
        exact, f1 = _exact_and_f1(predictions, references, self.options["normalizer"], self.options["language"],
                                  self.threads)
        return {"exact_scores": exact, "f1_scores": f1}

    def result_from_state(self, state) -> QAResult:
        exact, f1 = state.arrays["exact_scores"], state.arrays["f1_scores"]
        if len(exact) == 0:
            raise ValueError("predictions is empty")
        exact_mean, f1_mean = _core.squad_v1_reduce(exact, f1, len(exact))
        return QAResult(exact_mean, f1_mean, exact, f1, self.signature(state.ref_counts), self.options["measure"])

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.ascontiguousarray(sums, dtype=np.float64).reshape(-1, 3)
        return segment_scorer("squad", self.options).score_rows(sums, self.threads)

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        language = self.options["language"]
        return (("normalizer", self.options["normalizer"]),) + ((("lang", language),) if language else ())


def qa_scores(predictions: Sequence[str], references, normalizer: str = "squad", language: Optional[str] = None) -> QAResult:
    """Exact match and F1 of many predictions, averaged in percent (CMRC/MLQA/SQuAD style).

    >>> print(qa_scores(["Paris", "1990年"], [["paris"], ["1990年", "1990"]], normalizer="cmrc"))
    EM = 100.00  F1 = 100.00  (QA|normalizer:cmrc|version:nlgmetrics-0.1.0)
    """
    if isinstance(predictions, str):
        raise TypeError("predictions must be a sequence of strings, not a single str")
    return QA(normalizer=normalizer, language=language)._score_batch(predictions, references)


@dataclass(frozen=True)
class SquadResult(SummaryResult):
    """The official SQuAD script's numbers plus per-question scores (in dataset order).

    The shared result shape: ``name`` ``"SQuAD"``, ``score`` F1, ``scores`` the script's output (v1.1
    ``{"exact_match", "f1"}``; v2.0 its ``out_eval`` keys, in order), ``to_dict()`` (with ``version``),
    ``to_pandas()`` one row per question (index: question id; columns exact, f1).

    ``exact_match``/``f1`` are in percent. For version 2.0, ``total`` counts the scored questions and
    the ``has_ans_*``/``no_ans_*`` breakdown and (with ``na_probs``) the ``best_*`` thresholds are set.
    ``exact_scores``/``f1_scores`` are after the no-answer threshold (v2.0); unanswered questions
    score 0 in v1.1 and are listed in ``missing``.
    """

    version: str
    exact_match: float
    f1: float
    total: int
    question_ids: tuple = field(repr=False)
    exact_scores: np.ndarray = field(repr=False)
    f1_scores: np.ndarray = field(repr=False)
    missing: tuple = field(default=(), repr=False)
    has_ans_exact: Optional[float] = None
    has_ans_f1: Optional[float] = None
    has_ans_total: Optional[int] = None
    no_ans_exact: Optional[float] = None
    no_ans_f1: Optional[float] = None
    no_ans_total: Optional[int] = None
    best_exact: Optional[float] = None
    best_exact_thresh: Optional[float] = None
    best_f1: Optional[float] = None
    best_f1_thresh: Optional[float] = None
    signature: Optional[Signature] = field(default=None, repr=False)

    name = "SQuAD"

    @property
    def score(self) -> float:
        return float(self.f1)

    def _dict_extras(self) -> dict:
        return {"version": self.version}

    def _frame(self):
        return {"exact": np.asarray(self.exact_scores, dtype=np.float64),
                "f1": np.asarray(self.f1_scores, dtype=np.float64)}, list(self.question_ids)

    @property
    def scores(self) -> dict:
        """The script's output: v1.1 ``{"exact_match", "f1"}``; v2.0 its ``out_eval`` keys, in order."""
        if self.version == "1.1":
            return {"exact_match": self.exact_match, "f1": self.f1}
        out = {"exact": self.exact_match, "f1": self.f1, "total": self.total}
        for prefix, name in (("HasAns", "has_ans"), ("NoAns", "no_ans")):
            if getattr(self, f"{name}_total") is not None:
                for key in ("exact", "f1", "total"):
                    out[f"{prefix}_{key}"] = getattr(self, f"{name}_{key}")
        if self.best_exact is not None:
            for key in ("best_exact", "best_exact_thresh", "best_f1", "best_f1_thresh"):
                out[key] = getattr(self, key)
        return out

    def __str__(self) -> str:
        return f"EM = {self.exact_match:.2f}  F1 = {self.f1:.2f}  ({self.signature})"


def _dataset_articles(dataset) -> list:
    if isinstance(dataset, Mapping):
        if "data" not in dataset:
            raise ValueError("dataset is a dict without a 'data' key; pass the SQuAD JSON or its 'data' list")
        dataset = dataset["data"]
    if isinstance(dataset, (str, bytes)) or not isinstance(dataset, Sequence):
        raise TypeError(f"dataset must be the SQuAD JSON (dict) or its 'data' list, got {type(dataset).__name__}")
    return list(dataset)


def _iter_questions(articles):
    """(question id, gold answer texts) for every question, in dataset order."""
    for a_index, article in enumerate(articles):
        try:
            paragraphs = article["paragraphs"]
        except (TypeError, KeyError):
            raise ValueError(f"dataset[{a_index}] has no 'paragraphs'") from None
        for p_index, paragraph in enumerate(paragraphs):
            try:
                qas = paragraph["qas"]
            except (TypeError, KeyError):
                raise ValueError(f"dataset[{a_index}]['paragraphs'][{p_index}] has no 'qas'") from None
            for q_index, qa in enumerate(qas):
                where = f"dataset[{a_index}]['paragraphs'][{p_index}]['qas'][{q_index}]"
                try:
                    qid, answers = qa["id"], qa["answers"]
                    golds = [answer["text"] for answer in answers]
                except (TypeError, KeyError) as error:
                    raise ValueError(f"{where} lacks {error} (needs 'id' and 'answers' with 'text')") from None
                for g_index, gold in enumerate(golds):
                    if not isinstance(gold, str):
                        raise TypeError(f"{where}['answers'][{g_index}]['text'] must be str, got {type(gold).__name__}")
                yield qid, golds, where


def _check_predictions(predictions) -> Mapping:
    if not isinstance(predictions, Mapping):
        raise TypeError(f"predictions must be a dict mapping question id to answer text, got {type(predictions).__name__}")
    return predictions


def _prediction_text(predictions: Mapping, qid) -> str:
    text = predictions[qid]
    if not isinstance(text, str):
        raise TypeError(f"predictions[{qid!r}] must be str, got {type(text).__name__}")
    return text


def squad(
    predictions: Mapping[str, str],
    dataset: Union[Mapping[str, Any], Sequence[Any]],
    version: str = "1.1",
    na_probs: Optional[Mapping[str, float]] = None,
    na_prob_thresh: float = 1.0,
    warn_unanswered: bool = False,
) -> SquadResult:
    """SQuAD exact match and F1 exactly as the official evaluate-v1.1.py / evaluate-v2.0.py.

    ``predictions`` maps question id → answer text (v2.0: "" means "no answer"); ``dataset`` is the
    SQuAD JSON or its ``"data"`` list. v1.1 counts an unanswered question as 0 (``missing`` lists
    them); v2.0 needs a prediction for every question (the official script fails otherwise).
    ``na_probs`` (v2.0 only) maps question id → predicted no-answer probability: questions above
    ``na_prob_thresh`` count as answered "no answer", and the best thresholds are reported.
    Prediction ids that match no question are ignored, as the official scripts ignore them, with a
    ``UserWarning`` giving their number (when none matches, the predictions are most likely for
    another dataset or version, and every question scores 0).

    >>> data = [{"paragraphs": [{"qas": [{"id": "a", "answers": [{"text": "Paris"}]},
    ...                                   {"id": "b", "answers": []}]}]}]
    >>> squad({"a": "paris", "b": ""}, data, version="2.0").scores["NoAns_exact"]
    100.0
    """
    if version not in ("1.1", "2.0"):
        raise ValueError(f"version must be '1.1' or '2.0', got {version!r}")
    predictions = _check_predictions(predictions)
    articles = _dataset_articles(dataset)
    _warn_unknown_ids(predictions, articles)
    if version == "1.1":
        if na_probs is not None:
            raise ValueError("na_probs applies to version '2.0' only")
        return _squad_v1(predictions, articles, warn_unanswered)
    return _squad_v2(predictions, articles, na_probs, na_prob_thresh)


def _warn_unknown_ids(predictions, articles) -> None:
    known = {qid for qid, _gold, _where in _iter_questions(articles)}
    unknown = [qid for qid in predictions if qid not in known]
    if unknown and len(unknown) == len(predictions):
        warnings.warn(f"none of the {len(predictions):,} prediction ids matches a question of the dataset "
                      f"(first: {unknown[0]!r}): predictions for another dataset? Every question scores 0",
                      UserWarning, stacklevel=3)
    elif unknown:
        warnings.warn(f"{len(unknown):,} of the {len(predictions):,} prediction ids match no question of the dataset "
                      f"(first: {unknown[0]!r}); they are ignored, as by the official SQuAD script",
                      UserWarning, stacklevel=3)


def _squad_v1(predictions, articles, warn_unanswered) -> SquadResult:
    question_ids, missing, answered_index, texts, golds = [], [], [], [], []
    for qid, gold_texts, where in _iter_questions(articles):
        question_ids.append(qid)
        if qid not in predictions:
            missing.append(qid)
            if warn_unanswered:
                print(f"Unanswered question {qid} will receive score 0.", file=sys.stderr)
            continue
        if not gold_texts:
            raise ValueError(f"{where} has no gold answer (version 1.1 needs at least one)")
        answered_index.append(len(question_ids) - 1)
        texts.append(_prediction_text(predictions, qid))
        golds.append(gold_texts)
    if not question_ids:
        raise ValueError("dataset has no questions")
    exact, f1 = _exact_and_f1(texts, golds, "squad", None)
    exact_match, f1_mean = _core.squad_v1_reduce(exact, f1, len(question_ids))
    exact_all = np.zeros(len(question_ids))
    f1_all = np.zeros(len(question_ids))
    exact_all[answered_index] = exact
    f1_all[answered_index] = f1
    return SquadResult(
        "1.1", exact_match, f1_mean, len(question_ids), tuple(question_ids), exact_all, f1_all, tuple(missing),
        signature=Signature("SQuAD", (("version", "1.1"),)),
    )


def _squad_v2(predictions, articles, na_probs, na_prob_thresh) -> SquadResult:
    if isinstance(na_prob_thresh, bool) or not isinstance(na_prob_thresh, (int, float)) or math.isnan(na_prob_thresh):
        raise TypeError(f"na_prob_thresh must be a number, got {na_prob_thresh!r}")
    # Dict semantics as the script: a repeated id keeps its first position and its last answers.
    golds_by_id: dict = {}
    for qid, gold_texts, _ in _iter_questions(articles):
        golds_by_id[qid] = gold_texts
    if not golds_by_id:
        raise ValueError("dataset has no questions")
    missing = [qid for qid in golds_by_id if qid not in predictions]
    if missing:
        raise ValueError(
            f"version 2.0 needs a prediction for every question; {len(missing)} missing, first {missing[0]!r} "
            "(the official script fails on them too)"
        )
    question_ids = list(golds_by_id)
    texts = [_prediction_text(predictions, qid) for qid in question_ids]
    golds = list(golds_by_id.values())
    has_answer = [bool(g) for g in golds]
    exact, f1 = _exact_and_f1(texts, golds, "squad_v2", None)
    if na_probs is None:
        probs, ranks = [0.0] * len(question_ids), list(range(len(question_ids)))
    else:
        if not isinstance(na_probs, Mapping):
            raise TypeError(f"na_probs must be a dict mapping question id to probability, got {type(na_probs).__name__}")
        rank_of = {qid: rank for rank, qid in enumerate(na_probs)}
        probs, ranks = [], []
        for qid in question_ids:
            if qid not in na_probs:
                raise ValueError(f"na_probs has no probability for question {qid!r}")
            prob = na_probs[qid]
            if isinstance(prob, bool) or not isinstance(prob, (int, float)) or math.isnan(prob):
                raise TypeError(f"na_probs[{qid!r}] must be a number, got {prob!r}")
            probs.append(float(prob))
            ranks.append(rank_of[qid])
    out = _core.squad_v2_reduce(
        has_answer, exact, f1, [not t for t in texts], probs, ranks,
        has_answer.count(False), {"na_prob_thresh": float(na_prob_thresh), "with_best_thresholds": na_probs is not None},
    )
    return SquadResult(
        "2.0", out["exact"], out["f1"], out["total"], tuple(question_ids), out["_exact"], out["_f1"], (),
        out.get("HasAns_exact"), out.get("HasAns_f1"), out.get("HasAns_total"),
        out.get("NoAns_exact"), out.get("NoAns_f1"), out.get("NoAns_total"),
        out.get("best_exact"), out.get("best_exact_thresh"), out.get("best_f1"), out.get("best_f1_thresh"),
        signature=Signature("SQuAD", (("version", "2.0"), ("na_thresh", repr(float(na_prob_thresh))))),
    )
