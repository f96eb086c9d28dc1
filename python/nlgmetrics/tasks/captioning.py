"""The COCO caption suite, natively: Bleu_1–4, METEOR, ROUGE_L and CIDEr(-D) in one call, as COCOEvalCap.

Every number reproduces pycocoevalcap 1.2 exactly (its tokenizer is the Stanford PTBTokenizer of
CoreNLP 3.4.1, reimplemented here without Java).

>>> import nlgmetrics
>>> nlgmetrics.ptb_tokenize(['A man (in red) is "jumping".'])
['a man -lrb- in red -rrb- is jumping']
>>> gts = {1: ["A dog runs on the grass.", "A brown dog is running."], 2: ["Two people ride bikes."]}
>>> res = {1: ["A dog is running."], 2: ["People riding bikes."]}
>>> round(float(nlgmetrics.caption_scores(gts, res, metrics=("ROUGE_L", "CIDEr"))["ROUGE_L"]), 4)
0.7143
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Hashable, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.result import SummaryResult
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.bleu import coco as coco_bleu
from nlgmetrics.metrics.meteor.coco import coco_meteor

CAPTION_METRICS = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr")


def _caption_text(item: Any, where: str) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, Mapping) and "caption" in item:
        text = item["caption"]
        if isinstance(text, str):
            return text
        raise TypeError(f"{where}['caption'] must be str, got {type(text).__name__}")
    raise TypeError(f"{where} must be a str or a dict with a 'caption', got {type(item).__name__}")


def tokenize_caption_dict(captions_for_image: Mapping[Hashable, Sequence[Any]], argument: str = "captions") -> Dict[Hashable, List[str]]:
    """``{image: [caption or {"caption": …}, …]}`` → ``{image: [tokenized caption, …]}``, one batch.

    Images with no caption are left out, as pycocoevalcap's PTBTokenizer does.
    """
    if not isinstance(captions_for_image, Mapping):
        raise TypeError(f"{argument} must be a dict mapping image id to a list of captions, got {type(captions_for_image).__name__}")
    keys: List[Hashable] = []
    lines: List[str] = []
    for key, items in captions_for_image.items():
        if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
            raise TypeError(f"{argument}[{key!r}] must be a list of captions, got {type(items).__name__}")
        for index, item in enumerate(items):
            keys.append(key)
            lines.append(_caption_text(item, f"{argument}[{key!r}][{index}]").replace("\n", " "))
    tokenized = _core.ptb_coco_tokenize(lines)
    out: Dict[Hashable, List[str]] = {}
    for key, line in zip(keys, tokenized):
        out.setdefault(key, []).append(line)
    return out


def _aligned(gts: Mapping, res: Mapping) -> Tuple[List[Hashable], List[str], List[List[str]]]:
    """Image ids (in ``gts`` order), one hypothesis each, their references; pycocoevalcap's checks."""
    if not isinstance(gts, Mapping) or not isinstance(res, Mapping):
        raise TypeError("gts and res must be dicts mapping image id to a list of captions")
    if gts.keys() != res.keys():
        missing = [k for k in gts if k not in res][:3]
        extra = [k for k in res if k not in gts][:3]
        raise ValueError(f"gts and res must have the same image ids (only in gts: {missing}, only in res: {extra})")
    ids = list(gts.keys())
    hypotheses: List[str] = []
    references: List[List[str]] = []
    for key in ids:
        hypo, refs = res[key], gts[key]
        if isinstance(hypo, str) or not isinstance(hypo, Sequence) or len(hypo) != 1:
            raise ValueError(f"res[{key!r}] must be a list holding exactly one caption")
        if isinstance(refs, str) or not isinstance(refs, Sequence) or len(refs) == 0:
            raise ValueError(f"gts[{key!r}] must be a non-empty list of captions")
        hypotheses.append(_caption_text(hypo[0], f"res[{key!r}][0]"))
        references.append([_caption_text(ref, f"gts[{key!r}][{i}]") for i, ref in enumerate(refs)])
    return ids, hypotheses, references


@dataclass(frozen=True)
class CaptionScores(SummaryResult):
    """All COCO caption metrics of one system, keyed as pycocoevalcap's ``COCOEvalCap.eval``.

    The shared result shape: ``name`` ``"COCO"``, ``score`` CIDEr (the captioning headline; else the first
    metric), ``scores`` the ``eval`` dict, ``to_pandas()`` one row per image (index: image id), one column
    per per-image score; ``to_dict()`` adds ``notes``.
    """

    name = "COCO"

    scores: Dict[str, float]
    image_scores: Dict[str, np.ndarray] = field(repr=False)
    image_ids: Tuple[Hashable, ...] = field(repr=False)
    notes: Tuple[str, ...] = ()
    signature: Optional[Signature] = field(default=None, repr=False)

    def __getitem__(self, metric: str) -> float:
        return self.scores[metric]

    @property
    def score(self) -> float:
        return float(self.scores["CIDEr"] if "CIDEr" in self.scores else next(iter(self.scores.values())))

    def _dict_extras(self) -> dict:
        return {"notes": list(self.notes)}

    def _frame(self):
        columns = {name: np.asarray(values, dtype=np.float64) for name, values in self.image_scores.items()
                   if np.ndim(values) == 1 and len(values) == len(self.image_ids)}
        return columns, list(self.image_ids)

    def __str__(self) -> str:
        return "  ".join(f"{name} = {value:.4f}" for name, value in self.scores.items())


def caption_scores(
    gts: Mapping[Hashable, Sequence[Any]],
    res: Mapping[Hashable, Sequence[Any]],
    *,
    tokenize: bool = True,
    metrics: Optional[Sequence[str]] = None,
) -> CaptionScores:
    """Bleu_1–4, METEOR, ROUGE_L and CIDEr in one call, as pycocoevalcap's COCOEvalCap computes them.

    ``gts``/``res`` map image id → list of captions (strings or ``{"caption": …}`` dicts, as
    ``coco.imgToAnns``); ``res`` holds one caption per image. With ``tokenize=True`` each dict is
    PTB-tokenized as one batch (as COCOEvalCap does).
    """
    wanted = CAPTION_METRICS if metrics is None else tuple(metrics)
    unknown = [m for m in wanted if m not in CAPTION_METRICS]
    if unknown:
        raise ValueError(f"unknown caption metric(s) {unknown}; choose from {', '.join(CAPTION_METRICS)}")
    ids, _, _ = _aligned(gts, res)
    if not ids:
        raise ValueError("gts and res are empty")
    if tokenize:
        gts_tok = tokenize_caption_dict(gts, "gts")
        res_tok = tokenize_caption_dict(res, "res")
    else:
        gts_tok = {k: [_caption_text(c, f"gts[{k!r}]") for c in v] for k, v in gts.items()}
        res_tok = {k: [_caption_text(c, f"res[{k!r}]") for c in v] for k, v in res.items()}
    ids, hyps, refs = _aligned(gts_tok, res_tok)
    scores: Dict[str, Any] = {}  # floats, or NumPy floats where pycocoevalcap's are (np.mean)
    image_scores: Dict[str, np.ndarray] = {}
    notes: List[str] = []
    if any(m.startswith("Bleu") for m in wanted):
        bleu, bleu_images = coco_bleu.scores_from_stats(coco_bleu.image_stats(hyps, refs), 4, "closest")
        for order in range(4):
            name = f"Bleu_{order + 1}"
            if name in wanted:
                scores[name] = bleu[order]
                image_scores[name] = np.asarray(bleu_images[order])
    if "METEOR" in wanted:
        meteor, meteor_images = coco_meteor(gts_tok, res_tok)
        scores["METEOR"] = meteor
        image_scores["METEOR"] = np.asarray(meteor_images)
    if "ROUGE_L" in wanted:
        rouge_images = _core.rouge_l_coco_image_scores(hyps, refs, 1.2)
        scores["ROUGE_L"] = np.mean(rouge_images)
        image_scores["ROUGE_L"] = rouge_images
    if "CIDEr" in wanted:
        cider_images = _core.cider_image_scores(hyps, refs, {"n": 4, "sigma": 6.0, "variant": "cider-d"})
        scores["CIDEr"] = np.mean(cider_images)
        image_scores["CIDEr"] = cider_images
    ordered = {name: scores[name] for name in CAPTION_METRICS if name in scores}
    signature = Signature("COCO", (("preset", "pycocoevalcap-1.2"), ("tok", "ptb-3.4.1" if tokenize else "none"),
                                   ("metrics", ",".join(ordered)), ("cider", "D,n:4,sigma:6"), ("rouge_beta", "1.2")))
    return CaptionScores(ordered, image_scores, tuple(ids), tuple(notes), signature)
