"""COMET (Rei et al. 2020, 2022), equal to unbabel-comet 2.2.7's ``load_from_checkpoint(...).predict(...)``.

Regression models (wmt22-comet-da, eamt22-cometinho-da, wmt20-comet-da: source, translation and reference
encoded separately), reference-free regression (wmt20-comet-qe-da) and unified reference-free models
(wmt22-cometkiwi-da: translation and source encoded together), read from Unbabel's checkpoint layout with
no PyTorch, Lightning or jsonargparse (``nlgmetrics.neural.comet_model`` says what decides the numbers).
``score`` is the mean of the segment scores (``predict(...).system_score``); within 1e-6 of unbabel-comet on
CPU fp32, which itself moves by ~1e-7 with its batch size.

Every distinct text is encoded once per process: scoring several systems on one test set encodes the
sources and references once (``nlgmetrics.neural.cache``).

Usage (a checkpoint in the Hugging Face cache, or any folder in Unbabel's layout)::

    result = nlgmetrics.comet(hyps, refs, sources=srcs, model="Unbabel/wmt22-comet-da")
    result.score, result.segment_scores
    nlgmetrics.comet(hyps, sources=srcs, model="Unbabel/wmt22-cometkiwi-da")      # reference-free
    nlgmetrics.comet_pairwise(candidates, source, model="Unbabel/wmt22-comet-da") # (N, N) for MBR
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.core import inputs
from nlgmetrics.core.metric import counted_rows
from nlgmetrics.core.options import CliOption
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.signature import Signature, nrefs_field
from nlgmetrics.metrics.model_based import ModelBasedMetric
from nlgmetrics.neural.pairwise import pairwise_candidates
from nlgmetrics.neural.text_encoder import DEFAULT_MAX_TOKENS

__all__ = ["COMET", "COMETResult", "comet", "comet_pairwise"]


@dataclass(frozen=True, eq=False)
class COMETResult(Result):
    """COMET of a corpus: ``score`` the mean segment score (unbabel-comet's ``system_score``);
    ``segment_scores`` one score per segment; ``segment_stats`` ``[score, 1]`` rows."""

    score: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)

    name = "COMET"

    @property
    def scores(self) -> dict:
        return {"COMET": float(self.score)}

    @property
    def system_score(self) -> float:
        return float(self.score)

    @property
    def segment_stats(self) -> np.ndarray:
        return counted_rows(self.segment_scores)

    def __str__(self) -> str:
        return f"COMET = {self.score:.4f} ({self.signature})"


@register
class COMET(ModelBasedMetric):
    """COMET as a registered, mergeable metric: ``metric("comet", model=…).update(hyps, refs, sources=srcs)``
    (``references`` may be None for reference-free models). The state keeps ``[score, 1]`` per segment."""

    name = "comet"
    needs_sources = True  # the command line's -s SRC; update(..., sources=...)
    description = "COMET (unbabel-comet 2.2.7 checkpoints; needs nlgmetrics[neural])"
    reduction = "mean"
    extra_decimals = 4
    stat_columns = ("score", "count")
    cli_options = (
        CliOption(("--model", "-m"), "model", "str", help="COMET checkpoint folder or hub name"),
        CliOption(("--encoder",), "encoder", "str", help="the encoder folder (default: the checkpoint's pretrained_model)"),
        CliOption(("--backend",), "backend", "str", help="onnx (default), numpy or torch"),
    )

    def __init__(self, *, model: Optional[str] = None, encoder: Optional[str] = None, backend: str = "onnx",
                 allow_download: bool = False, max_tokens: int = DEFAULT_MAX_TOKENS, threads: Optional[int] = None,
                 segments: bool = True):
        from nlgmetrics.neural.loaded import check_backend

        if model is None:
            raise ValueError("comet needs model= (a checkpoint folder or hub name, e.g. Unbabel/wmt22-comet-da)")
        if not isinstance(model, (str, os.PathLike)):
            raise TypeError(f"model must be a path or a model name (str), got {type(model).__name__}")
        if encoder is not None and not isinstance(encoder, (str, os.PathLike)):
            raise TypeError(f"encoder must be a path or a model name (str), got {type(encoder).__name__}")
        options = {"model": os.fspath(model), "encoder": os.fspath(encoder) if encoder is not None else None,
                   "backend": check_backend(backend)}
        self._settings(allow_download, max_tokens)
        self._model: Any = None
        self._sources: Optional[List[str]] = None
        super().__init__(options, threads=threads, segments=segments)

    def model(self) -> Any:
        """The loaded ``CometModel`` (loaded on first use, once per process)."""
        if self._model is None:
            from nlgmetrics.neural.comet_model import load_comet

            self._model = load_comet(self.options["model"], encoder=self.options["encoder"],
                                     backend=self.options["backend"], threads=self.threads,
                                     allow_download=self.allow_download, max_tokens=self.max_tokens)
        return self._model

    def update(self, hypotheses: Any, references: Any = None, *, sources: Any = None, nulls: str = "error") -> "COMET":
        """Add a batch: ``sources`` (one per hypothesis) are required; ``references`` for reference-based models."""
        if sources is None:
            raise TypeError("comet needs sources: update(hypotheses, references, sources=sources)")
        self._sources = self._source_list(sources)
        try:
            super().update(hypotheses, references, nulls=nulls)
        finally:
            self._sources = None
        return self

    @staticmethod
    def _source_list(sources: Any) -> List[str]:
        """Sources as a list of str: a list, or a column (Arrow, pandas, polars, NumPy) read as one."""
        if hasattr(sources, "to_pylist"):        # Arrow arrays and chunked arrays
            sources = sources.to_pylist()
        elif hasattr(sources, "tolist"):         # pandas / NumPy
            sources = sources.tolist()
        elif hasattr(sources, "to_list"):        # polars
            sources = sources.to_list()
        return inputs.hypotheses_list(sources, "sources")

    def check_inputs(self, hypotheses: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
        needs_refs = self._sources is None or self.model().needs_references
        if references is None and not needs_refs:
            hyps = inputs.hypotheses_list(hypotheses)
            return hyps, [[] for _ in hyps]
        if references is None:
            raise TypeError(f"the COMET model {self.options['model']!r} needs references: update(hypotheses, "
                            "references, sources=sources)")
        hyps, refs = super().check_inputs(hypotheses, references)
        if any(len(group) != 1 for group in refs):
            index = next(i for i, group in enumerate(refs) if len(group) != 1)
            raise ValueError(f"COMET takes one reference per segment; references[{index}] has {len(refs[index])}")
        return hyps, refs

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        if not hypotheses:
            return {"segment_stats": np.zeros((0, 2)), "segment_scores": np.zeros(0)}
        sources = self._sources
        if sources is None:
            raise TypeError("comet needs sources: update(hypotheses, references, sources=sources)")
        if self.last_kept_rows is not None:
            sources = [sources[row] for row in self.last_kept_rows]
        if len(sources) != len(hypotheses):
            raise ValueError(f"sources has {len(sources)} lines but hypotheses has {len(hypotheses)}")
        model = self.model()
        refs = [group[0] for group in references] if model.needs_references else None
        if not model.needs_references and any(references):
            refs = None  # a reference-free model ignores references, as unbabel-comet does
        scores = model.score(hypotheses, refs, sources).astype(np.float64)
        return {"segment_stats": counted_rows(scores), "segment_scores": scores}

    def result_from_state(self, state) -> COMETResult:
        scores = np.asarray(state.arrays["segment_scores"], dtype=np.float64).reshape(-1)
        if len(scores) == 0:
            raise ValueError("comet of no segments: update() the metric with some first")
        # unbabel-comet: sum(scores) / len(scores) over Python floats
        system = sum(float(value) for value in scores) / len(scores)
        return COMETResult(system, self.signature(state.ref_counts), scores)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        return sums[:, 0] / sums[:, 1]

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        model = self.model()
        return (("nrefs", nrefs_field(ref_counts)), ("model", os.path.basename(os.path.normpath(self.options["model"]))),
                ("hash", model.fingerprint), ("kind", model.kind), ("backend", self.options["backend"]),
                ("device", "cpu"), ("dtype", "fp32"))


def comet(hypotheses: Sequence[str], references: Optional[Sequence[Any]] = None, *, sources: Sequence[str],
          model: str, encoder: Optional[str] = None, backend: str = "onnx", allow_download: bool = False,
          max_tokens: int = DEFAULT_MAX_TOKENS, threads: Optional[int] = None) -> COMETResult:
    """COMET of ``hypotheses`` (with ``sources`` and, for reference-based models, ``references``), equal to
    ``comet.load_from_checkpoint(model/checkpoints/model.ckpt).predict(...)`` of unbabel-comet 2.2.7."""
    metric = COMET(model=model, encoder=encoder, backend=backend, allow_download=allow_download,
                   max_tokens=max_tokens, threads=threads)
    return metric._score_batch(hypotheses, references, sources=sources)


def comet_pairwise(candidates: Sequence[str], source: str, *, model: str, encoder: Optional[str] = None,
                   backend: str = "onnx", allow_download: bool = False, threads: Optional[int] = None) -> np.ndarray:
    """``(N, N)`` COMET for MBR decoding: ``[i, j]`` = candidate ``i`` scored with candidate ``j`` as its
    reference, all for one ``source``. Each candidate is encoded once; only the head runs N² times."""
    lines = pairwise_candidates(candidates)
    if not isinstance(source, str):
        raise TypeError(f"source must be one str (the candidates' common source), got {type(source).__name__}")
    metric = COMET(model=model, encoder=encoder, backend=backend, allow_download=allow_download, threads=threads)
    loaded = metric.model()
    if loaded.kind != "regression":
        raise ValueError(f"comet_pairwise needs a reference-based regression model; {model!r} is {loaded.kind}")
    encoded = loaded.sentence_vectors([*lines, source])  # one batch: the candidates and their source
    return loaded.pairwise_scores(encoded[:-1], encoded[-1:])
