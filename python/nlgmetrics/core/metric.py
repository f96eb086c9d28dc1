"""``Metric``: one stateful, mergeable object per metric; the functions (``nlgmetrics.bleu`` …) run through it.

Life cycle (written once, here): ``update(hypotheses, references)`` any number of times →
``compute()`` → a ``Result``; ``state()`` / ``merge(state_or_metric)`` / ``reset()``. A metric
subclass fills four slots:

- ``batch_arrays(hypotheses, references)``: the per-segment arrays of one validated batch (one
  Rust call), at least ``segment_stats`` (additive rows, columns named by ``stat_columns``);
- ``result_from_state(state)``: the corpus result from everything accumulated;
- ``score_rows(sums)``: the headline score of rows of summed statistics (one segment's row, or a
  bootstrap resample's sum): what intervals and paired tests resample. Metrics whose corpus score
  is a mean end their rows with a count column (``[values…, 1]``), so a sum divides by it;
- ``signature_fields(ref_counts)``: the options that change the number, for the signature.

How statistics join is the class's ``reduction``: ``"sum"`` (the corpus score is a function of
column sums: BLEU, chrF, TER, METEOR), ``"mean"`` (the mean of per-segment values: ROUGE, EM/F1)
or ``"rows"`` (needs every row at the end: CIDEr-D's document frequencies, ROUGE-1.5.5's
bootstrap). For ``"sum"`` metrics ``segments=False`` keeps only the column totals (memory
independent of the number of segments; no per-segment scores).

One object may be shared by threads: ``update`` scores its batch outside the object's lock (batches of
several threads are scored at once) and takes it only to add the result; ``state``, ``compute``,
``merge`` and ``reset`` take it too, so no part added meanwhile is lost (issue 23).

>>> import nlgmetrics
>>> metric = nlgmetrics.metric("bleu")
>>> for start in range(0, 4, 2):        # a training loop: batches of any size
...     _ = metric.update(["the cat sat on the mat", "a dog barks"][start:start + 2],
...                       ["the cat is on the mat", "a dog is barking"][start:start + 2])
>>> round(metric.compute().score, 4) == round(nlgmetrics.bleu(["the cat sat on the mat", "a dog barks"],
...                                                ["the cat is on the mat", "a dog is barking"]).score, 4)
True
>>> other = nlgmetrics.metric("bleu").update(["hello world"], ["hello world"])
>>> metric.merge(other.state()).compute().signature.get("nrefs")
'1'
"""

from __future__ import annotations

import copy
import json
import re
import threading
from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics.core import columns, inputs, lists, pending
from nlgmetrics.core.options import check_bool, check_threads
from nlgmetrics.core.signature import Signature
from nlgmetrics.core.state import MetricState, encode_texts, join_texts


def counted_rows(values: Any) -> np.ndarray:
    """Per-segment rows ``[values…, 1]`` (float64) of a metric whose corpus score is a mean: a sum of rows
    divided by its count column is the mean of the values (what ``score_rows`` and resampling read).

    >>> counted_rows([0.5, 1.0]).tolist()
    [[0.5, 1.0], [1.0, 1.0]]
    >>> counted_rows(np.zeros((0, 2, 3))).shape
    (0, 7)
    """
    values = np.asarray(values, dtype=np.float64)
    flat = values.reshape(len(values), int(np.prod(values.shape[1:], dtype=np.int64)))
    return np.column_stack([flat, np.ones(len(flat))])


class Metric:
    """Base class of every registered metric (see the module docstring)."""

    #: Registry key (lower case) and a one-line description for ``list_metrics()``.
    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: Other registry names, each with the options it implies (e.g. ``{"chrf++": {"word_order": 2}}``).
    aliases: ClassVar[Dict[str, Dict[str, Any]]] = {}
    reduction: str = "sum"  # may depend on options (ROUGE with bootstrap, METEOR nltk): set per instance
    #: Digits to show beyond a 0–100 metric's (2 for metrics on a 0–1 scale).
    extra_decimals: int = 0
    #: False for error rates (TER, WER, CharacTER …): a lower score is better (tables bold what is better).
    higher_is_better: ClassVar[bool] = True
    #: Rows per Rust call for metrics whose ``batch_arrays`` rows are independent of each other (opt-in): a long
    #: batch of Python lists runs as several calls, and Python handles Ctrl-C between them, so a KeyboardInterrupt
    #: stops a long call within a fraction of a second (the Rust loop itself runs without the GIL, where no
    #: signal handler can run). None: one call per batch.
    rows_per_call: Optional[int] = None
    #: Arrays of ``batch_arrays`` that are text (kept as UTF-8 + offsets in the state).
    text_arrays: ClassVar[Tuple[str, ...]] = ()
    #: False for metrics of a set of outputs alone (diversity): ``update(outputs)``, no references.
    needs_references: ClassVar[bool] = True
    #: Command-line options (``nlgmetrics.core.options.CliOption``), turned into subcommand flags.
    cli_options: ClassVar[Tuple[Any, ...]] = ()

    def __init__(self, options: Dict[str, Any], *, threads: Optional[int] = None, segments: bool = True):
        # Options go through JSON once so that a state's header compares equal after a round trip.
        self.options: Dict[str, Any] = json.loads(json.dumps(options))
        self.threads = check_threads(threads)
        self.keep_segments = check_bool(segments, "segments")
        if not self.keep_segments and self.reduction != "sum":
            raise ValueError(f"segments=False needs a metric whose corpus score is a sum of statistics; "
                             f"{self.name} keeps every segment ({self.reduction!r} reduction)")
        self._lock = threading.RLock()
        self.reset()

    # ------------------------------------------------------------------ slots for subclasses

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        """The names of ``segment_stats``' columns."""
        raise NotImplementedError

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        raise NotImplementedError

    def result_from_state(self, state: MetricState) -> Any:
        raise NotImplementedError

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        raise NotImplementedError

    @property
    def sacrebleu_bootstrap(self) -> bool:
        """Whether ``float32_score_rows`` mirrors sacreBLEU's bootstrap arithmetic (BLEU, chrF, TER)."""
        return False

    @property
    def refuses_stream_layout(self) -> bool:
        """Whether references shaped like sacreBLEU's streams (as many streams as hypotheses) are refused.

        True for sacreBLEU's metrics (BLEU's sacreBLEU preset, chrF, TER), whose users may pass
        sacreBLEU's stream layout; the shape that reads both ways is refused (issue 13).
        """
        return False

    def float32_score_rows(self, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError(f"{self.name} has no float32 (sacreBLEU bootstrap) arithmetic")

    @classmethod
    def class_name(cls) -> str:
        """The name users know the class by: the registered class's (a preset subclass answers its family's).

        >>> import nlgmetrics
        >>> nlgmetrics.metric("bleu", preset="coco").class_name()
        'BLEU'
        """
        return next(klass.__name__ for klass in cls.__mro__ if "name" in klass.__dict__)

    def label(self) -> str:
        """The name of the headline score in tables (e.g. ``BLEU``, ``chrF2++``, ``rougeL F``)."""
        return self.display_name()

    def check_inputs(self, hypotheses: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
        """Validated ``(hypotheses, references)``: a list of str and one non-empty list of str each (Python lists
        are checked by Rust in one read: ``core.inputs.checked_lists``)."""
        if columns.is_columnar(hypotheses, references):
            return columns.list_batch(hypotheses, references)
        if references is None:
            raise TypeError(f"{self.name} needs references: update(hypotheses, references)")
        return inputs.checked_lists(hypotheses, references, refuse_streams=self.refuses_stream_layout,
                                    one_each=self.reads_one_each())

    # ------------------------------------------------------------------ the life cycle

    def reset(self) -> "Metric":
        """Forget every segment seen."""
        with self._lock:
            self._rows: Dict[str, List[np.ndarray]] = {}
            self._texts: Dict[str, List[Tuple[np.ndarray, np.ndarray]]] = {}
            self._totals: Optional[np.ndarray] = None
            self._n_segments = 0
            self._ref_counts: set = set()
            # Small batches of lists checked but not scored yet (``core.pending``): scored before the state is read.
            self._pending = pending.PendingLists()
            # The pandas index of each batch's rows (None for a batch given otherwise): results' to_pandas() keeps it.
            self._index_parts: List[Any] = []
            self._n_updates = 0  # updates and merges: compute() before any refuses or warns (empty_compute)
        return self

    def update(self, hypotheses: Any, references: Any = None, *, nulls: str = "error") -> "Metric":
        """Add a batch. Invalid input raises before anything changes, so a failed update leaves the state as it was.

        A small batch of lists given to a metric with a ``list_scorer`` (sacreBLEU BLEU, chrF) is checked now and
        scored later together with the next ones (``core.pending``): the same numbers, one call's fixed cost.

        Besides lists of str, ``hypotheses`` and ``references`` may be columns (pandas/polars Series, PyArrow
        arrays, NumPy arrays; references also a list column, several columns or a DataFrame): see
        ``nlgmetrics.core.columns``, which also says what ``nulls`` does ("error", "empty" or "skip"; with
        "skip", ``last_kept_rows`` lists the rows of this batch that were scored).
        """
        scorer = self._lists_scorer()
        if scorer is not None and not columns.is_columnar(hypotheses, references):
            self.last_kept_rows: Optional[np.ndarray] = None  # lists: every row is kept
            if pending.is_small_batch(hypotheses):
                self._keep_for_later(scorer, hypotheses, references)
                arrays = None
            else:
                arrays, n_segments, ref_counts = self._score_lists(scorer, hypotheses, references)
        else:
            hyps, refs = self._batch_inputs(hypotheses, references, nulls)
            try:
                arrays = self._batch_arrays_in_calls(hyps, refs)
            except UnicodeEncodeError:
                # A lone surrogate cannot cross into Rust as UTF-8: say where it is (every metric alike).
                raise ValueError(inputs.surrogate_location(hyps, refs)) from None
            n_segments, ref_counts = len(hyps), set(columns.reference_counts(refs))
        if arrays is not None:
            self._add(arrays, n_segments, ref_counts)
        self._index_parts.append(columns.pandas_index(hypotheses, references, self.last_kept_rows))
        self._n_updates += 1
        return self

    def list_scorer(self) -> Optional[Any]:
        """The Rust scorer (``_core.SegmentScorer``) of Python lists given to this metric under its options, or None.

        A metric whose ``batch_arrays`` is that scorer's ``segment_stats`` on the texts as given (no Python
        preprocessing: ``{"segment_stats": …, "segment_scores": …}``) returns it, and ``update`` then hands lists to
        ``SegmentScorer.score_lists``, which checks them while it reads them (the errors of ``core.lists``, in
        Rust, issue 24) and scores ``rows_per_call`` rows at a time: no Python pass over the inputs, no slicing
        into calls. None (the default): ``check_inputs`` in Python, then ``batch_arrays``.
        """
        return None

    def _lists_scorer(self) -> Optional[Any]:
        """``list_scorer()``, asked once per object (its options never change; a copy shares the answer)."""
        try:
            return self.__dict__["_list_scorer"]
        except KeyError:
            scorer = self.__dict__["_list_scorer"] = self.list_scorer()
            return scorer

    def _score_lists(self, scorer: Any, hypotheses: Any, references: Any,
                     checked: bool = False) -> Tuple[Dict[str, Any], int, set]:
        """``(arrays, segments, reference counts)`` of a batch of Python lists, read and checked by ``scorer``
        (``checked``: the kept batches, checked by ``_keep_for_later``)."""
        refuse_streams = not checked and self._refuses_streams(references)
        stats, scores, ref_counts = scorer.score_lists(hypotheses, references, self.threads,
                                                       max_chars=lists.MAX_SEGMENT_CHARS,
                                                       refuse_streams=refuse_streams,
                                                       rows_per_call=self.rows_per_call)
        return {"segment_stats": stats, "segment_scores": scores}, len(stats), set(ref_counts)

    def _refuses_streams(self, references: Any) -> bool:
        """Whether ``references`` (Python lists) must not read two ways (``refuses_stream_layout``); TypeError when
        they are missing."""
        if references is None:
            raise TypeError(f"{self.name} needs references: update(hypotheses, references)")
        return self.refuses_stream_layout and not isinstance(references, lists.PerHypothesis)

    def _keep_for_later(self, scorer: Any, hypotheses: Any, references: Any) -> None:
        """Check a small batch of Python lists now (every error of ``score_lists``) and keep new lists of it, to be
        scored with the next ones in one call (``core.pending``: the fixed cost of a call paid once)."""
        refuse_streams = self._refuses_streams(references)
        hyps, per_hypothesis, n_bytes = scorer.check_lists(hypotheses, references, max_chars=lists.MAX_SEGMENT_CHARS,
                                                           refuse_streams=refuse_streams)
        one_each = list(references) if per_hypothesis is None else None
        with self._lock:
            self._pending.add(hyps, per_hypothesis, one_each, n_bytes)
            if self._pending.full():
                try:
                    self._score_pending()
                except BaseException:  # Ctrl-C while scoring: this update leaves the state as it was
                    self._pending.drop_last()
                    raise

    def _score_pending(self) -> None:
        """Score the kept batches in one call and add them (under the lock; they stay kept if it fails)."""
        if not len(self._pending):
            return
        hyps, refs = self._pending.joined()
        arrays, n_segments, ref_counts = self._score_lists(self._lists_scorer(), hyps, refs, checked=True)
        self._pending = pending.PendingLists()
        self._store(arrays, n_segments, ref_counts)

    def _batch_arrays_in_calls(self, hypotheses: Any, references: Any) -> Dict[str, Any]:
        """``batch_arrays`` of the whole batch, as ``rows_per_call``-row calls joined in order when the metric
        allows it and the batch is Python lists (Arrow columns go in one call)."""
        step = self.rows_per_call
        if (not step or len(hypotheses) <= step or not isinstance(hypotheses, list)
                or not isinstance(references, list)):
            return self.batch_arrays(hypotheses, references)
        kind = type(references)  # PerHypothesis / OneEach: list subclasses the metric may look at
        parts = [self.batch_arrays(hypotheses[start:start + step], kind(references[start:start + step]))
                 for start in range(0, len(hypotheses), step)]
        joined: Dict[str, Any] = {}
        for name in parts[0]:
            values = [part[name] for part in parts]
            if all(isinstance(value, list) for value in values):
                joined[name] = [item for value in values for item in value]
            else:
                joined[name] = np.concatenate([np.asarray(value) for value in values])
        return joined

    def reads_arrow(self) -> bool:
        """Whether ``batch_arrays`` takes Arrow columns (``_core.ArrowStrings``/``ArrowReferences``) as they are
        under this metric's options (its Rust call reads them without a Python str per row); else columns
        arrive as lists of str."""
        return False

    def reads_one_each(self) -> bool:
        """Whether ``batch_arrays`` hands the references to Rust untouched under these options, so references given
        as one str per hypothesis may stay those strs (``core.inputs.OneEach``; the scorer reads a str entry as
        one reference) instead of a list built per segment."""
        return False

    def _batch_inputs(self, hypotheses: Any, references: Any, nulls: str) -> Tuple[Any, Any]:
        self.last_kept_rows = None
        if not self.needs_references and references is None and columns.is_column(hypotheses):
            # a metric of outputs alone (distinct-n, self-BLEU): one column of outputs, no references to read (the
            # column stands in for them, so its nulls are handled once, as ``nulls`` says)
            batch = columns.text_batch(hypotheses, hypotheses, nulls=nulls, arrow=False, hypotheses_name="outputs")
            self.last_kept_rows = batch.rows
            return self.check_inputs(batch.hypotheses, None)
        if not columns.is_columnar(hypotheses, references):
            return self.check_inputs(hypotheses, references)
        batch = columns.text_batch(hypotheses, references, nulls=nulls, arrow=self.reads_arrow())
        self.last_kept_rows = batch.rows
        return batch.hypotheses, batch.references

    def empty_compute(self) -> Tuple[str, str]:
        """What ``compute()`` does on an object that saw no ``update`` (nor ``merge``): ``("raise", why)`` where
        the metric's reference fails on empty input (sacreBLEU's corpus scores raise IndexError), else
        ``("warn", why)`` and the empty result (rouge_score's aggregator, jiwer, NLTK's GLEU/RIBES give 0 or
        nothing). Subclasses say which, with their reference's behaviour in ``why``."""
        return "warn", "no reference implementation defines this metric on no input"

    def compute(self) -> Any:
        """The result of every segment added so far.

        Called before any ``update`` (a torchmetrics habit: ``m(preds, target)`` per batch, then ``m.compute()``
        used to give 0), it raises ValueError or warns (``UserWarning``), as the metric's reference does on
        empty input (``empty_compute``).
        """
        if not self._n_updates:
            rule, why = self.empty_compute()
            message = (f"{self.class_name()}.compute() was called before any update(): no segment was seen "
                       f"({why}); add batches with update(hypotheses, references) or metric(hypotheses, references) first")
            if rule == "raise":
                raise ValueError(message)
            import warnings

            warnings.warn(message + "; the result is that of no segments", UserWarning, stacklevel=2)
        result = self.result_from_state(self.state())
        object.__setattr__(result, "_metric", self)
        index = columns.joined_index(self._index_parts, self._n_segments)
        if index is not None:
            object.__setattr__(result, "_index", index)
        return result

    def __call__(self, hypotheses: Any, references: Any = None, **inputs: Any) -> Any:
        """torchmetrics' ``forward``: add the batch to this object's state (as ``update``) and return the result
        of this batch alone. So ``m(preds, target)`` per batch, then ``m.compute()``, gives the corpus result
        of every batch; the functions (``nlgmetrics.bleu`` …) are stateless (``_score_batch``). ``inputs``: the
        batch's other inputs of metrics whose ``update`` takes them (COMET's ``sources=``).

        >>> import nlgmetrics
        >>> m = nlgmetrics.metric("bleu")
        >>> batch = m(["the cat sat on the mat"], ["the cat sat on the mat"])
        >>> round(batch.score, 2), m(["a dog"], ["a cat"]).score == 0.0
        (100.0, True)
        >>> m.compute().score == nlgmetrics.bleu(["the cat sat on the mat", "a dog"],
        ...                                       ["the cat sat on the mat", "a cat"]).score
        True
        """
        batch = self._batch_metric(hypotheses, references, **inputs)
        result = self._batch_result(batch)
        self._add_state(batch.state())
        self._index_parts[-1] = batch._index_parts[0]  # _add_state appended None: the batch's own index
        self.last_kept_rows = batch.last_kept_rows
        return result

    def _saw_empty_input(self) -> "Metric":
        """Count an input that had no rows (an empty file, a dataset of no partitions) as an update: compute()
        then gives the result of no segments without the before-any-update refusal or warning."""
        self._n_updates += 1
        return self

    def _score_batch(self, hypotheses: Any, references: Any = None, **inputs: Any) -> Any:
        """The result of this batch alone; this object's own state is not touched (the functions use it)."""
        return self._batch_result(self._batch_metric(hypotheses, references, **inputs))

    def _batch_metric(self, hypotheses: Any, references: Any, **inputs: Any) -> "Metric":
        """A fresh object of these options holding this batch alone (invalid input raises, nothing changes)."""
        fresh = copy.copy(self)
        return fresh.reset().update(hypotheses, references, **inputs)

    def _batch_result(self, batch: "Metric") -> Any:
        return batch.compute()

    @classmethod
    def from_options(cls, options: Dict[str, Any], **settings: Any) -> "Metric":
        """A new metric of this class with ``options`` as recorded in a state header."""
        return cls(**options, **settings)

    # ------------------------------------------------------------------ the command line

    @classmethod
    def add_cli_arguments(cls, parser: Any) -> None:
        """The metric's flags on its subcommand (``cli_options``)."""
        for option in cls.cli_options:
            option.add_to(parser)

    @classmethod
    def options_class(cls, options: Dict[str, Any]) -> "type[Metric]":
        """The class that scores ``options`` (a preset family answers its preset's subclass, ``core.presets``)."""
        return cls

    @classmethod
    def cli_sentence_level(cls, args: Any) -> None:
        """Adjust parsed flags for ``--sentence-level`` as the reference's command line does (sacreBLEU's BLEU
        turns the effective order on); nothing by default. Called on ``options_class``."""

    @classmethod
    def sentence_lines(cls, result: Any, options: Dict[str, Any], width: int) -> Optional[List[str]]:
        """``--sentence-level`` lines in the reference tool's own form (sacreBLEU's BLEU: each segment's
        ``BLEUResult.format`` with the signature), or None for the CLI's numbered rows. Called on ``options_class``."""
        return None

    @classmethod
    def supports_totals(cls, options: Dict[str, Any]) -> bool:
        """Whether ``segments=False`` (column totals only) works under ``options``."""
        return cls.reduction == "sum"

    @classmethod
    def options_from_cli(cls, args: Any) -> Dict[str, Any]:
        """Keyword options from parsed flags; flags left unset are not passed (the metric's default applies)."""
        options = {}
        for option in cls.cli_options:
            value = getattr(args, option.dest, None)
            if value is None or (option.kind == "flag" and not value):
                continue
            options[option.dest] = value
        return options

    # ------------------------------------------------------------------ state and merging

    def array_kinds(self) -> Dict[str, str]:
        """How each state array joins (``rows``, ``sum`` or ``text``)."""
        if not self.keep_segments:
            return {"totals": "sum"}
        return {name: ("text" if name in self.text_arrays else "rows") for name in self._batch_array_names()}

    def _batch_array_names(self) -> Tuple[str, ...]:
        """Names of the arrays ``batch_arrays`` returns (those already kept, else the empty batch tells)."""
        if self._rows or self._texts:
            return tuple(sorted(set(self._rows) | set(self._texts)))
        return tuple(sorted(self._empty_arrays()))

    def _add(self, arrays: Dict[str, Any], n_segments: int, ref_counts: set) -> None:
        with self._lock:
            self._add_unlocked(arrays, n_segments, ref_counts)

    def _add_unlocked(self, arrays: Dict[str, Any], n_segments: int, ref_counts: set) -> None:
        self._score_pending()  # the kept batches came first
        self._store(arrays, n_segments, ref_counts)

    def _store(self, arrays: Dict[str, Any], n_segments: int, ref_counts: set) -> None:
        if not self.keep_segments:
            totals = np.asarray(arrays["segment_stats"]).sum(axis=0)
            self._totals = totals if self._totals is None else self._totals + totals
        else:
            for name, array in arrays.items():
                if name in self.text_arrays:
                    self._texts.setdefault(name, []).append(encode_texts(array))
                else:
                    self._rows.setdefault(name, []).append(np.asarray(array))
        self._n_segments += n_segments
        self._ref_counts |= ref_counts

    def state(self) -> MetricState:
        """Everything accumulated, as a ``MetricState`` (plain arrays and a JSON header)."""
        with self._lock:
            arrays = self._arrays(joined=True)
            return MetricState(self.name, dict(self.options), arrays, self.array_kinds(), self._n_segments,
                               tuple(sorted(self._ref_counts)))

    def _arrays(self, joined: bool) -> Dict[str, np.ndarray]:
        """The state's arrays: each kept part joined into one (``joined``; done once, then kept joined), or only
        the first part of each, enough to check that another state can merge (dtypes and widths)."""
        self._score_pending()
        arrays: Dict[str, np.ndarray] = {}
        if not self.keep_segments:
            arrays["totals"] = self._totals if self._totals is not None else np.zeros(
                len(self.stat_columns), dtype=self._empty_arrays()["segment_stats"].dtype)
        for name, kind in self.array_kinds().items():
            if kind == "rows":
                parts = self._rows.get(name) or [np.asarray(self._empty_arrays()[name])]
                if joined and len(parts) > 1:
                    parts = self._rows[name] = [np.concatenate(parts)]
                arrays[name] = parts[0]
            elif kind == "text":
                pairs = self._texts.get(name) or [encode_texts([])]
                if joined and len(pairs) > 1:
                    pairs = self._texts[name] = [join_texts(pairs)]
                arrays[f"{name}.data"], arrays[f"{name}.offsets"] = pairs[0]
        return arrays

    def _empty_arrays(self) -> Dict[str, Any]:
        """The arrays of an empty batch (their names, dtypes and widths)."""
        empty = getattr(self, "_empty", None)
        if empty is None:
            empty = self._empty = self.batch_arrays([], [])
        return empty

    def merge(self, other: Union[MetricState, "Metric"]) -> "Metric":
        """Add another metric's (or a state's) segments after this one's; ValueError if options differ.

        The other state's arrays are kept as parts, joined once when the state is next needed, so merging
        many states one after another copies each row once.
        """
        state = other.state() if isinstance(other, Metric) else other
        with self._lock:
            layout = MetricState(self.name, dict(self.options), self._arrays(joined=False), self.array_kinds())
            layout.check_compatible(state)  # metric, options and arrays, raising ValueError naming what differs
            self.check_state(state)
            self._add_state(state)
        return self

    #: Pairs of statistics columns where the first can never exceed the second (matches within their totals),
    #: found by name: ``matches_n``/``totals_n``, ``correct_n``/``guess_n``, ``charN_match``/``charN_hyp`` and
    #: ``…_ref``, ``n_match``/``n_all``, ``cost``/``length``.
    _BOUNDED_BY = ((r"matches_(\d+)", (r"totals_\1",)), (r"correct_(\d+)", (r"guess_\1",)),
                   (r"(\w+?\d+)_match", (r"\1_hyp", r"\1_ref")), (r"n_match", (r"n_all",)),
                   (r"cost", (r"length",)))

    def column_bounds(self) -> List[Tuple[int, int]]:
        """Index pairs ``(i, j)`` of ``stat_columns`` where column ``i`` never exceeds column ``j`` in a real state."""
        names = list(self.stat_columns)
        pairs = []
        for i, name in enumerate(names):
            for pattern, bounds in self._BOUNDED_BY:
                match = re.fullmatch(pattern, name)
                if match:
                    pairs += [(i, names.index(match.expand(b))) for b in bounds if match.expand(b) in names]
        return pairs

    def check_state(self, state: MetricState) -> None:
        """Raise ValueError when ``state`` holds what this metric never produces (a forged or damaged state: its
        checksum may well be valid): the structural checks of ``MetricState.validate``, then every number of every
        array non-negative (each is a count, a length, an index or a score that is at least 0) and matches within
        their totals (``column_bounds``)."""
        state.validate()
        for name, array in state.arrays.items():
            if array.dtype.kind in "if" and array.size and array.min() < 0:
                raise ValueError(f"{self.name} state is inconsistent: array {name!r} holds a negative value "
                                 f"({array.min()}), which this metric never produces")
        stats = state.arrays.get("segment_stats", state.arrays.get("totals"))
        if stats is None or stats.ndim == 0 or stats.shape[-1] != len(self.stat_columns):
            return
        flat = stats.reshape(-1, stats.shape[-1])
        for smaller, larger in self.column_bounds():
            if (flat[:, smaller] > flat[:, larger]).any():
                names = self.stat_columns
                raise ValueError(f"{self.name} state is inconsistent: {names[smaller]} exceeds {names[larger]}, "
                                 f"which this metric never produces")

    def _add_state(self, state: MetricState) -> None:
        with self._lock:
            self._add_state_unlocked(state)

    def _add_state_unlocked(self, state: MetricState) -> None:
        self._score_pending()
        if not self.keep_segments:
            totals = state.arrays["totals"]
            self._totals = np.array(totals) if self._totals is None else self._totals + totals
        else:
            for name, kind in state.kinds.items():
                if kind == "text":
                    self._texts.setdefault(name, []).append((state.arrays[f"{name}.data"], state.arrays[f"{name}.offsets"]))
                else:
                    self._rows.setdefault(name, []).append(state.arrays[name])
        self._n_segments += state.n_segments
        self._ref_counts |= set(state.ref_counts)
        self._index_parts.append(None)  # a state carries no pandas index
        self._n_updates += 1

    def _load(self, state: MetricState) -> None:
        self.check_state(state)
        with self._lock:
            self.reset()
            self._add_state(state)

    # ------------------------------------------------------------------ helpers for subclasses

    def signature(self, ref_counts: Sequence[int]) -> Signature:
        return Signature(self.signature_name(), self.signature_fields(ref_counts))

    def signature_name(self) -> str:
        """The name a signature starts with (the display name unless the reference names it otherwise)."""
        return self.display_name()

    def display_name(self) -> str:
        """The name results carry (e.g. ``BLEU``, ``chrF2++``)."""
        return self.name

    def segment_rows(self, state: MetricState) -> np.ndarray:
        """The per-segment statistics (empty when ``segments=False``)."""
        if "segment_stats" in state.arrays:
            return state.arrays["segment_stats"]
        return np.zeros((0, len(self.stat_columns)), dtype=state.arrays["totals"].dtype)

    def totals(self, state: MetricState) -> np.ndarray:
        """Column sums of the statistics (kept directly when ``segments=False``)."""
        if "totals" in state.arrays:
            return np.asarray(state.arrays["totals"])
        rows = state.arrays["segment_stats"]
        return rows.sum(axis=0, dtype=rows.dtype)

    # ------------------------------------------------------------------ pickling (never of Rust objects)

    def __copy__(self) -> "Metric":
        """A copy with its own lock and its own state, which then grows apart from this one's (``__call__`` and the
        partition scorers copy a configured metric); the arrays kept so far are shared, never changed in place."""
        fresh = type(self).__new__(type(self))
        fresh.__dict__.update(self.__dict__)
        fresh._lock = threading.RLock()
        with self._lock:
            fresh._rows = {name: list(parts) for name, parts in self._rows.items()}
            fresh._texts = {name: list(parts) for name, parts in self._texts.items()}
            fresh._ref_counts = set(self._ref_counts)
            fresh._index_parts = list(self._index_parts)
            fresh._pending = self._pending.copy()
        return fresh

    def __getstate__(self) -> Dict[str, Any]:
        return {"options": self.options, "threads": self.threads, "segments": self.keep_segments,
                "state": self.state().to_bytes(), "hints": self.restore_hints()}

    def restore_hints(self) -> Dict[str, Any]:
        """Settings besides the options that ``from_options`` may use to rebuild this metric from a pickle (METEOR:
        where its paraphrase table was found)."""
        return {}

    def __setstate__(self, saved: Dict[str, Any]) -> None:
        fresh = type(self).from_options(saved["options"], threads=saved["threads"], segments=saved["segments"],
                                        **saved.get("hints", {}))
        self.__dict__.update(fresh.__dict__)
        self._load(MetricState.from_bytes(saved["state"]))

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={value!r}" for key, value in self.options.items())
        return f"{self.class_name()}({options}) with {self._n_segments + self._pending.segments} segment(s)"

