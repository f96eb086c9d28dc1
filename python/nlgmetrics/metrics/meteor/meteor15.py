"""METEOR 1.5, natively: identical to the official ``meteor-1.5.jar`` (cmu-mtlab/meteor), no Java.

The default (``preset="meteor15"``, ``language="en"`` with its ``rank`` task, ``norm=True``) is the jar's
``-l en -norm``: its tokenizer and lowercasing, the exact / stem (Snowball) / synonym (WordNet) /
paraphrase modules, the beam-40 alignment search, content/function word weighting (δ), and the
system score computed from summed statistics (not the mean of segment scores).
``preset="nltk"`` reproduces ``nltk.translate.meteor_score`` and ``preset="textbook"`` is the
parametrised Banerjee & Lavie form; see ``meteor``.

Arabic in reduced Buckwalter transliteration (``language="ar-bw-red"``, with ``norm=False`` as the
jar requires) stems with the jar's lookup table, read from the installed meteor-1.5.jar.
Known differences from the jar: the ``-new`` language mode is not provided; newlines inside a segment are whitespace here, whereas
the jar's line-based protocols would split the segment.

This module holds the jar's configuration and result types; ``nlgmetrics.metrics.meteor.metric``
scores (``nlgmetrics.meteor`` and ``nlgmetrics.metric("meteor")``).

>>> from nlgmetrics import meteor
>>> result = meteor(["The cat sat on the mat."], [["The cat sat on the mat."]])
>>> round(result.score, 4)
1.0
>>> result.statistics.shape
(1, 23)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

from nlgmetrics import _core
from nlgmetrics.core.metric import counted_rows
from nlgmetrics.core.result import Result
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.meteor import resources as _meteor_resources

if TYPE_CHECKING:  # NumPy is imported where arrays are made: the command line never needs it
    import numpy as np

MODULE_NAMES = ("exact", "stem", "synonym", "paraphrase")

#: Column names of ``MeteorResult.statistics`` (the jar's ``-ssOut`` order).
STATISTICS_COLUMNS: Tuple[str, ...] = (
    "test_length",
    "reference_length",
    "test_function_words",
    "reference_function_words",
    *(
        f"stage{stage}_{side}_{kind}_matches"
        for stage in range(1, 5)
        for side, kind in (("test", "content"), ("reference", "content"), ("test", "function"), ("reference", "function"))
    ),
    "chunks",
    "test_word_matches",
    "reference_word_matches",
)


@dataclass(frozen=True)
class MeteorAlignment:
    """One segment's alignment against its best reference.

    ``matches`` holds ``(hyp_start, hyp_length, ref_start, ref_length, module)`` word spans.
    """

    hypothesis_tokens: Tuple[str, ...]
    reference_tokens: Tuple[str, ...]
    reference_index: int
    matches: Tuple[Tuple[int, int, int, int, str], ...]
    score: float

    def to_dict(self) -> dict:
        return {
            "hypothesis_tokens": list(self.hypothesis_tokens),
            "reference_tokens": list(self.reference_tokens),
            "reference_index": self.reference_index,
            "matches": [list(m) for m in self.matches],
            "score": self.score,
        }

    def __str__(self) -> str:
        lines = [" ".join(self.hypothesis_tokens), " ".join(self.reference_tokens)]
        for hyp_start, hyp_len, ref_start, ref_len, module in self.matches:
            hyp = " ".join(self.hypothesis_tokens[hyp_start : hyp_start + hyp_len])
            ref = " ".join(self.reference_tokens[ref_start : ref_start + ref_len])
            lines.append(f"{module:>10}: {hyp} == {ref}")
        return "\n".join(lines)


@dataclass(frozen=True, eq=False)
class MeteorResult(Result):
    """System score (from summed statistics), per-segment scores and statistics, and the signature.

    ``statistics`` are the jar's per-segment rows (``STATISTICS_COLUMNS``); ``segment_stats`` are the
    same rows made additive (see ``additive_statistics``), what merging and resampling sum.
    """

    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation_penalty: float
    segment_scores: np.ndarray
    statistics: np.ndarray
    best_reference: np.ndarray
    signature: Signature
    _scorer: Any = field(repr=False, compare=False, default=None)
    _inputs: Any = field(repr=False, compare=False, default=None)

    name = "METEOR"

    @property
    def scores(self) -> dict:
        return {"METEOR": float(self.score), "precision": float(self.precision), "recall": float(self.recall),
                "fmean": float(self.fmean), "fragmentation_penalty": float(self.fragmentation_penalty)}

    @property
    def segment_stats(self) -> np.ndarray:
        """Additive per-segment rows (``[score, 1]`` for the nltk preset, whose system score is a mean)."""
        if self._scorer is None:
            return counted_rows(self.segment_scores)
        return self.additive_statistics()

    def alignment(self, index: int) -> MeteorAlignment:
        """The alignment of segment ``index`` with its best reference (recomputed on request)."""
        if self._scorer is None:
            raise ValueError("alignments are available for the meteor15 and textbook presets")
        if self._inputs is None:
            raise ValueError("alignments need the texts: they are kept by nlgmetrics.meteor(...), not by merged states")
        hypotheses, references = self._inputs
        if not -len(hypotheses) <= index < len(hypotheses):
            raise IndexError(f"segment index {index} out of range for {len(hypotheses)} segments")
        hyp_tokens, ref_tokens, best, matches, _stats, score = self._scorer.align(hypotheses[index], references[index])
        modules = self.signature.get("modules").split("+")
        return MeteorAlignment(
            tuple(hyp_tokens),
            tuple(ref_tokens),
            best,
            tuple((a, b, c, d, modules[stage]) for a, b, c, d, stage in matches),
            score,
        )

    def additive_statistics(self) -> np.ndarray:
        """Per-segment rows whose column sums give the system score (``corpus_score_from_statistics``).

        ``statistics`` are not additive as they stand: when the jar aggregates, it skips the chunk
        count of perfectly matched segments. These rows have that rule applied, so bootstrap samples
        and merged batches can simply be summed.
        """
        if self._scorer is None:
            raise ValueError("additive statistics are available for the meteor15 and textbook presets")
        import numpy as np

        if not len(self.statistics):
            return self.statistics.copy()
        return np.vstack([self._scorer.corpus(row[None, :])[0] for row in self.statistics])

    def segment_details(self) -> np.ndarray:
        """Per segment: precision, recall, f1, fmean, fragmentation penalty, score (shape (n, 6))."""
        if self._scorer is None:
            raise ValueError("segment details are available for the meteor15 and textbook presets")
        return self._scorer.score_rows(self.statistics)

    def to_dict(self, segments: bool = True) -> dict:
        return {**_summary_dict(self, self.segment_scores.tolist() if segments else None), "name": "METEOR",
                "scores": self.scores}

    def __str__(self) -> str:
        return _summary_text(self)


def _summary_dict(result: Any, segment_scores: Optional[List[float]]) -> dict:
    return {
        "score": result.score,
        "precision": result.precision,
        "recall": result.recall,
        "fmean": result.fmean,
        "fragmentation_penalty": result.fragmentation_penalty,
        **({} if segment_scores is None else {"segment_scores": segment_scores}),
        "signature": str(result.signature),
    }


def _summary_text(result: Any) -> str:
    return (f"METEOR = {result.score:.4f} (P {result.precision:.4f}, R {result.recall:.4f}, "
            f"frag {result.fragmentation_penalty:.4f}) {result.signature}")


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def _format(value: float) -> str:
    return repr(float(value))


@dataclass(frozen=True)
class JarPreset:
    """A preset scored on the jar's alignment: its name (the scorer's formula, the signature's ``preset``) and
    the defaults it puts in place of the jar's for a language and task. The preset classes
    (``nlgmetrics.metrics.meteor.metric``) each hand theirs to ``resolve_config``; the jar's own is ``JarPreset()``.

    >>> from nlgmetrics.metrics.meteor.metric import TextbookPreset
    >>> textbook = TextbookPreset.jar_preset
    >>> textbook.default_modules(["exact", "stem", "synonym", "paraphrase"]), textbook.default_weights([1.0, 0.6], 3)
    (['exact', 'stem', 'synonym'], [1.0, 1.0, 1.0])
    >>> JarPreset().default_weights([1.0, 0.6], 3)
    [1.0, 0.6, 0.0]
    """

    name: str = "meteor15"
    #: Whether the default modules keep the language's paraphrase module.
    paraphrase: bool = True
    #: One default weight for every module (None: the jar's weights by position).
    weight: Optional[float] = None
    #: Default (α, β, γ) in place of the task's.
    parameters: Optional[Tuple[float, float, float]] = None
    #: Whether the formula weights function words by δ (else δ is unused, and not shown in the signature).
    delta: bool = True

    def default_modules(self, modules: Sequence[str]) -> List[str]:
        """The modules used when none are given, from the language's and task's."""
        if self.paraphrase:
            return list(modules)
        return [module for module in modules if module != "paraphrase"] or ["exact"]

    def default_weights(self, weights: Sequence[float], count: int) -> List[float]:
        """The weights of ``count`` modules when none are given, from the jar's defaults (``weights``)."""
        if self.weight is not None:
            return [self.weight] * count
        # The jar keeps the default modules' weights by position and gives extra modules 0.0.
        return [weights[i] if i < len(weights) else 0.0 for i in range(count)]

    def default_parameters(self, parameters: Sequence[float]) -> List[float]:
        """(α, β, γ, δ) when none are given, from the task's."""
        if self.parameters is None:
            return list(parameters)
        return [*self.parameters, 0.5]  # δ: unused by such a formula, any value in [0, 1]

    def shown_parameters(self, parameters: Sequence[float]) -> Tuple[float, ...]:
        """The parameters the signature names: those the formula uses."""
        return tuple(parameters) if self.delta else tuple(parameters[:3])


@dataclass(frozen=True)
class MeteorConfig:
    """Resolved options of one METEOR configuration (hashable: scorers are cached per config)."""

    language: str
    language_name: str
    task: str
    normalization: str
    modules: Tuple[str, ...]
    weights: Tuple[float, ...]
    parameters: Tuple[float, float, float, float]
    char_based: bool
    beam_size: int
    paraphrase_table: Optional[str]
    preset: JarPreset = JarPreset()
    max_candidates: int = _core.METEOR_MAX_CANDIDATES

    def scorer_options(self) -> dict:
        """The options ``_core.MeteorScorer`` reads: the fields by name, and the formula the preset scores with."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)}, "formula": self.preset.name}

    def signature(self, n_refs: str) -> Signature:
        shown = self.preset.shown_parameters(self.parameters)
        return Signature(
            "METEOR",
            (
                ("preset", self.preset.name),
                ("lang", self.language),
                ("task", self.task),
                ("norm", self.normalization),
                ("modules", "+".join(self.modules)),
                ("weights", ",".join(_format(w) for w in self.weights)),
                ("params", ",".join(_format(p) for p in shown)),
                ("unit", "char" if self.char_based else "word"),
                ("nrefs", n_refs),
            ),
        )


def resolve_config(  # noqa: C901
    language: str = "en",
    task: Optional[str] = None,
    norm: bool = True,
    lower: Optional[bool] = None,
    no_punct: bool = False,
    modules: Optional[Sequence[str]] = None,
    alpha: Optional[float] = None,
    beta: Optional[float] = None,
    gamma: Optional[float] = None,
    delta: Optional[float] = None,
    weights: Optional[Sequence[float]] = None,
    paraphrase_path: Optional[str] = None,
    beam_size: int = 40,
    char_based: bool = False,
    warn: bool = True,
    preset: JarPreset = JarPreset(),
    max_candidates: int = _core.METEOR_MAX_CANDIDATES,
) -> MeteorConfig:
    """Resolve the jar's defaults for a language and task, as the preset changes them, plus the overrides,
    validating each."""
    if not isinstance(language, str):
        raise TypeError(f"language must be a str, got {type(language).__name__}")
    if task is not None and not isinstance(task, str):
        raise TypeError(f"task must be a str or None, got {type(task).__name__}")
    # The jar's command line resets character-based scoring to its -ch flag even for task util.
    short, task_name, parameters, default_modules, default_weights, _util = _core.meteor_task_defaults(language, task)
    language_name = _core.meteor_language_name(language)
    for name, flag in (("norm", norm), ("no_punct", no_punct), ("char_based", char_based)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    if lower is not None and not isinstance(lower, bool):
        raise TypeError(f"lower must be a bool or None, got {type(lower).__name__}")
    if norm:
        if lower is False:
            raise ValueError("norm=True always lowercases (as the jar's -norm): lower=False is not possible with it")
        normalization = "norm_nopunct" if no_punct else "norm"
    else:
        if no_punct:
            raise ValueError("no_punct=True needs norm=True (the jar's -noPunct only acts with -norm)")
        normalization = "lower" if lower else "none"

    parameters = preset.default_parameters(parameters)
    if modules is None:
        module_list = preset.default_modules(default_modules)
    else:
        if isinstance(modules, str):
            modules = modules.split()
        module_list = []
        for index, module in enumerate(modules):
            if not isinstance(module, str):
                raise TypeError(f"modules[{index}] must be a str, got {type(module).__name__}")
            if module.lower() not in MODULE_NAMES:
                raise ValueError(f"unknown METEOR module {module!r}: expected some of {', '.join(MODULE_NAMES)}")
            module_list.append(module.lower())
        if not module_list:
            raise ValueError("modules must name at least one module")

    if weights is None:
        weight_list = preset.default_weights(default_weights, len(module_list))
    else:
        if isinstance(weights, str):
            raise TypeError("weights must be a sequence of numbers")
        weight_list = [_number(f"weights[{i}]", w) for i, w in enumerate(weights)]
        if len(weight_list) != len(module_list):
            raise ValueError(f"weights has {len(weight_list)} values but there are {len(module_list)} modules ({' '.join(module_list)})")

    params = list(parameters)
    for index, (name, value) in enumerate((("alpha", alpha), ("beta", beta), ("gamma", gamma), ("delta", delta))):
        if value is not None:
            params[index] = _number(name, value)
    if not 0.0 <= params[0] <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {params[0]}")
    if params[1] < 0.0:
        raise ValueError(f"beta must be >= 0, got {params[1]}")
    if not 0.0 <= params[2] <= 1.0:
        raise ValueError(f"gamma must be in [0, 1], got {params[2]}")
    if not 0.0 <= params[3] <= 1.0:
        raise ValueError(f"delta must be in [0, 1], got {params[3]}")
    if isinstance(beam_size, bool) or not isinstance(beam_size, int) or not 1 <= beam_size <= _core.METEOR_MAX_BEAM_SIZE:
        raise ValueError(f"beam_size must be an int between 1 and {_core.METEOR_MAX_BEAM_SIZE}, got {beam_size!r}")
    limit = _core.METEOR_MAX_CANDIDATES_LIMIT
    if isinstance(max_candidates, bool) or not isinstance(max_candidates, int) or not 1 <= max_candidates <= limit:
        raise ValueError(f"max_candidates must be an int between 1 and {limit:,} (~2 GB), got {max_candidates!r}")

    table = None
    if "paraphrase" in module_list:
        found = _meteor_resources.find_paraphrase_table(short, paraphrase_path)
        if found is None:
            if warn:
                _meteor_resources.warn_missing_paraphrases(short)
            index = module_list.index("paraphrase")
            del module_list[index]
            del weight_list[index]
            if not module_list:
                raise ValueError(f"no paraphrase table for {language!r} and no other module to score with")
        else:
            table = str(found)
    elif paraphrase_path is not None:
        _meteor_resources.find_paraphrase_table(short, paraphrase_path)
    return MeteorConfig(
        short,
        language_name,
        task_name,
        normalization,
        tuple(module_list),
        tuple(weight_list),
        (params[0], params[1], params[2], params[3]),
        char_based,
        beam_size,
        table,
        preset,
        max_candidates,
    )


_SCORERS: dict = {}


def scorer_for(config: MeteorConfig) -> "_core.MeteorScorer":
    """The (cached) native scorer of a configuration."""
    scorer = _SCORERS.get(config)
    if scorer is None:
        synonyms = _meteor_resources.synonyms(config.language_name) if "synonym" in config.modules else None
        if "synonym" in config.modules and synonyms is None:
            raise ValueError(f"METEOR 1.5 has synonym data for English only, not {config.language!r}")
        uses_arabic_stems = config.language == "ar-bw-red" and "stem" in config.modules
        paraphrases = None
        if config.paraphrase_table is not None:
            from pathlib import Path

            paraphrases = _meteor_resources.paraphrases(Path(config.paraphrase_table))
        scorer = _core.MeteorScorer(
            config.scorer_options(),
            # The jar's MeteorConfiguration picks the function-word file before applying -l, so
            # every language is scored with the English list (reproduced for parity).
            function_words=_meteor_resources.function_words("english"),
            nonbreaking_prefixes=_meteor_resources.nonbreaking_prefixes(config.language_name),
            synonyms=synonyms,
            paraphrases=paraphrases,
            stem_table=_meteor_resources.arabic_stem_table() if uses_arabic_stems else None,
        )
        _SCORERS[config] = scorer
    return scorer


def corpus_score_from_statistics(statistics: np.ndarray, **options: Any) -> float:
    """The system score of (summed) statistics rows under a configuration, e.g. after merging batches.

    >>> import numpy as np
    >>> from nlgmetrics import meteor
    >>> a = meteor(["the cat"], ["the cat sat"], modules=["exact"])
    >>> b = meteor(["a dog"], ["the dog"], modules=["exact"])
    >>> both = meteor(["the cat", "a dog"], ["the cat sat", "the dog"], modules=["exact"])
    >>> corpus_score_from_statistics(np.vstack([a.statistics, b.statistics]), modules=["exact"]) == both.score
    True
    """
    import numpy as np

    from nlgmetrics.metrics.meteor.metric import METEOR  # the presets are registered there (it imports this module)

    name = options.pop("preset", METEOR.default_preset)
    preset = METEOR.preset_class(name).jar_preset
    if preset is None:
        raise ValueError(f"preset {name!r} does not score with the jar's alignment: it has no jar statistics")
    config = resolve_config(preset=preset, **options)
    array = np.ascontiguousarray(statistics, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != len(STATISTICS_COLUMNS):
        raise ValueError(f"statistics must have shape (n, {len(STATISTICS_COLUMNS)}), got {array.shape}")
    return scorer_for(config).corpus(array)[1][5]
