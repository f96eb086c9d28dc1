"""Type stub of the compiled extension ``nlgmetrics._core`` (the PyO3 bindings in ``src/python/*.rs``).

Hand-kept: every ``#[pyfunction]``/``#[pyclass]`` the extension registers has its line here, with the
argument names and defaults of its ``#[pyo3(signature = …)]``. ``tests/test_core_stub.py`` runs
``python -m mypy.stubtest nlgmetrics._core`` and fails on any difference (see ``nlgmetrics/core/README.md``).

Argument types say what the bindings accept: a Rust ``Vec<T>`` takes any sequence but a ``str``
(lists, tuples, NumPy arrays for numbers); a ``PyReadonlyArray`` takes only a NumPy array of exactly
that dtype. Results are lists, tuples and NumPy arrays as built in Rust.
"""

import os
from collections.abc import Sequence
from typing import Any, final

import numpy as np
from numpy.typing import NDArray

__version__: str
MAX_THREADS: int
CHRF_MAX_ORDER: int
METEOR_MAX_CANDIDATES: int
METEOR_MAX_CANDIDATES_LIMIT: int
METEOR_MAX_BEAM_SIZE: int

def _panic_for_tests(message: str, released: bool) -> None: ...
INTL_TABLES_REGEX_VERSION: str

# Numbers a Rust `Vec<i64>`/`Vec<u64>`/`Vec<f64>` accepts: a sequence of Python or NumPy numbers.
_Ints = Sequence[int] | NDArray[np.integer[Any]]
_Floats = Sequence[float] | NDArray[np.floating[Any]]
_Path = str | os.PathLike[str]
# Texts the batch kernels read (src/python/strings.rs `Lines`): Python strs, or Arrow columns read in place.
_Texts = Sequence[str] | ArrowStrings
_References = Sequence[Sequence[str]] | ArrowReferences

# --- src/python/strings.rs: text state buffers ------------------------------------------------------

def encode_utf8(texts: list[str]) -> tuple[NDArray[np.uint8], NDArray[np.int64]] | None:
    """UTF-8 bytes of the strs concatenated and each one's end offset; None if one has no UTF-8 form."""

# --- src/python/arrow.rs: Arrow string columns read in place ---------------------------------------

@final
class ArrowStrings:
    """An Arrow string column: ``offsets`` (n + 1, int32 or int64) and ``data`` (uint8) over Arrow's buffers."""

    def __new__(cls, offsets: NDArray[Any], data: NDArray[np.uint8]) -> ArrowStrings:
        """``offsets``: int32 or int64 (Arrow's string or large_string offsets)."""
    def __len__(self) -> int: ...
    def to_list(self) -> list[str]:
        """The rows as Python strs."""

@final
class ArrowReferences:
    """References as Arrow: several columns (one reference each) or a list column."""

    @staticmethod
    def from_columns(columns: Sequence[ArrowStrings]) -> ArrowReferences:
        """Several reference columns of equal length."""
    @staticmethod
    def from_lists(list_offsets: NDArray[np.int64], values: ArrowStrings) -> ArrowReferences:
        """A list column: row ``i`` has ``values[list_offsets[i]:list_offsets[i + 1]]``."""
    def __len__(self) -> int: ...
    def counts(self) -> list[int]:
        """The number of references of each row."""
    def to_list(self) -> list[list[str]]:
        """Per row, its references as Python strs."""

# --- src/python/text.rs: sacreBLEU tokenizers ------------------------------------------------------

def tokenize_lines(lines: Sequence[str], name: str) -> list[str]:
    """Tokenizes every line with the named sacreBLEU tokenizer (parallel, GIL released)."""

def tokenize_line(line: str, name: str) -> str:
    """Tokenizes one line with the named sacreBLEU tokenizer."""

def split_tokens(text: str) -> list[str]:
    """Python's ``str.split()`` as the Rust core does it."""

def native_tokenizer_names() -> list[str]:
    """The names of the tokenizers implemented in Rust, in display order."""

# --- src/python/lists.rs: Python lists checked as Rust reads them ----------------------------------

def segment_too_long_error(place: str, length: int, limit: int) -> ValueError:
    """The ValueError (not raised) for the text ``place`` of ``length`` characters over ``limit``."""

def hypotheses_list(hypotheses: Any, *, max_chars: int, argument: str = "hypotheses") -> list[str]:
    """``core.lists.hypotheses_list``: a new list of the given strs, the errors naming ``argument``."""

def references_lists(
    references: Any, n_hypotheses: int, *, max_chars: int, argument: str = "references", refuse_streams: bool = False
) -> list[list[str]] | None:
    """``core.lists.references_lists``: one new list of str per hypothesis, or None for a list of str."""

def check_lists(
    hypotheses: Any, references: Any, *, max_chars: int, refuse_streams: bool = False
) -> tuple[list[str], list[list[str]] | None, list[int]]:
    """``core.lists``' checks in one read: ``(hypotheses, one list per hypothesis or None for a list of str,
    distinct reference counts)``."""

# --- src/python/segment.rs: every segment metric, built by name ------------------------------------

SEGMENT_METRICS: list[str]

# A reference set per hypothesis: a str (one reference) or a sequence of str.
_ReferenceSets = Sequence[str | Sequence[str]] | ArrowReferences

@final
class SegmentScorer:
    """A segment metric (one of ``SEGMENT_METRICS``) built from its options dict."""

    def __new__(cls, name: str, options: dict[str, Any]) -> SegmentScorer: ...
    def segment_stats(
        self,
        hypotheses: _Texts | Sequence[Sequence[Any]],
        references: _ReferenceSets | Sequence[Sequence[Sequence[Any]]],
        threads: int | None = None,
    ) -> tuple[NDArray[Any], NDArray[np.float64]]:
        """``(statistics (n, width), sentence scores (n,))`` of a batch; a word metric built with
        ``tokenize="tokens"`` or ``"ids"`` reads token lists (of str) or id lists (of int) instead of text."""
    def score_rows(self, sums: NDArray[Any], threads: int | None = None) -> NDArray[np.float64]:
        """The score of each row of summed statistics."""
    def check_lists(
        self, hypotheses: Any, references: Any, *, max_chars: int, refuse_streams: bool = False
    ) -> tuple[list[str], list[list[str]] | None, int]:
        """Every check ``score_lists`` makes, without scoring: ``(hypotheses, one new list of references per
        hypothesis or None for a list of str, the texts' UTF-8 bytes)``."""
    def score_lists(
        self,
        hypotheses: Any,
        references: Any,
        threads: int | None = None,
        *,
        max_chars: int,
        refuse_streams: bool = False,
        rows_per_call: int | None = None,
    ) -> tuple[NDArray[Any], NDArray[np.float64], list[int]]:
        """``segment_stats`` of Python lists, checked as they are read (``core.lists``' errors), scored
        in pieces of at least ``rows_per_call`` rows: ``(statistics, sentence scores, distinct reference counts)``."""
    @property
    def width(self) -> int: ...
    @property
    def dtype(self) -> str: ...
    @property
    def name(self) -> str: ...

# --- src/python/checksum.rs: zlib's CRC-32 ------------------------------------------------------------

def crc32(data: NDArray[np.uint8]) -> int:
    """``zlib.crc32(data)`` of a contiguous one-dimensional uint8 array, the GIL released."""

# --- src/python/bleu.rs: sacreBLEU BLEU ------------------------------------------------------------

def bleu_row_scores(
    stats: NDArray[np.int64], options: dict[str, Any], threads: int | None = None
) -> NDArray[np.float64]:
    """The BLEU score of each statistics row; ``options``: ``max_order``, ``smooth``, ``smooth_value``,
    ``effective_order``, ``weights``."""

def bleu_score_from_stats(stats: _Ints, options: dict[str, Any]) -> tuple[float, list[float], float]:
    """``(score, precisions, bp)`` of one statistics row (``options`` as ``bleu_row_scores``)."""

# --- src/python/bleu_presets.rs: NLTK and pycocoevalcap BLEU ---------------------------------------

def bleu_nltk_token_stats(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
    threads: int | None = None,
) -> NDArray[np.uint64]:
    """NLTK BLEU rows ``[hyp_len, closest_ref_len, matches_1..N, denominators_1..N]`` of token lists."""

def bleu_nltk_id_stats(
    hypotheses: Sequence[Sequence[int]],
    references: Sequence[Sequence[Sequence[int]]],
    max_order: int,
    threads: int | None = None,
) -> NDArray[np.uint64]:
    """NLTK BLEU rows of segments whose tokens are interned to ints."""

def bleu_nltk_text_stats(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    options: dict[str, Any],
    threads: int | None = None,
) -> NDArray[np.uint64]:
    """NLTK BLEU rows of raw lines; ``options``: ``max_order``, ``tokenize`` (``"split"`` or a sacreBLEU
    tokenizer name)."""

def bleu_nltk_float_scores(
    stats: NDArray[np.uint64], options: dict[str, Any], threads: int | None = None
) -> NDArray[np.float64]:
    """NLTK sentence BLEU of every statistics row; ``options``: ``max_order``, ``weights`` (floats),
    ``smooth`` (``none``, ``method0``…``method4``), ``epsilon``, ``k``, ``auto_reweigh``,
    ``weights_are_default``."""

def bleu_coco_stats(
    captions: Sequence[str], references: Sequence[Sequence[str]], threads: int | None = None
) -> NDArray[np.uint64]:
    """pycocoevalcap BLEU rows, shape ``(n, 13)``."""

def bleu_coco_scores(
    stats: NDArray[np.uint64], options: dict[str, Any], threads: int | None = None
) -> tuple[list[float], list[list[float]]]:
    """pycocoevalcap BLEU-1..n; ``options``: ``max_order`` (n), ``ref_length``:
    ``(corpus_scores, per_image_scores[n][images])``."""

# --- src/python/chrf.rs ----------------------------------------------------------------------------

# --- src/python/nist.rs ----------------------------------------------------------------------------

def nist_stats(
    hypotheses: Any, references: Any, options: dict[str, Any], threads: int | None = None
) -> NDArray[np.float64]:
    """NIST rows ``[info_1..n, ngrams_1..n, ref_len_1..n, hyp_len]`` with corpus weights; ``options``:
    ``tokenize``, ``n``."""

def nist_corpus_and_sentence_stats(
    hypotheses: Any, references: Any, options: dict[str, Any], threads: int | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Corpus-weight rows and each segment's own rows, from one tokenization."""

def nist_utf8_stats(
    hyp_data: NDArray[np.uint8],
    hyp_ends: NDArray[np.int64],
    ref_data: NDArray[np.uint8],
    ref_ends: NDArray[np.int64],
    ref_counts: NDArray[np.int64],
    options: dict[str, Any],
    threads: int | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None:
    """``nist_corpus_and_sentence_stats`` of a state's UTF-8 text buffers; None if they are not valid UTF-8."""

def nist_row_scores(rows: NDArray[np.float64], segments: Sequence[int]) -> tuple[list[float], list[bool]]:
    """NIST score of each row (``3n+1`` columns) and whether NLTK divides by zero there."""

# --- src/python/ribes.rs ---------------------------------------------------------------------------

def ribes_alignment(reference: Sequence[int], hypothesis: Sequence[int]) -> tuple[list[int], float]:
    """NLTK's worder list and its normalised Kendall tau."""

# --- src/python/diversity.rs -----------------------------------------------------------------------

def distinct_stats(
    outputs: Any, options: dict[str, Any], threads: int | None = None
) -> tuple[NDArray[np.uint64], int]:
    """Per output ``[distinct n-grams, n-grams]`` and the distinct n-grams of all outputs together; ``options``:
    ``tokenize``, ``n``."""

def self_bleu_stats(outputs: Any, options: dict[str, Any], threads: int | None = None) -> NDArray[np.int64]:
    """BLEU statistics rows of each output against all the others; ``options``: ``tokenize``, ``max_order``."""

# --- src/python/pairwise.rs ------------------------------------------------------------------------

def chrf_pairwise(
    candidates: Sequence[str], references: Sequence[str] | None, options: dict[str, Any], threads: int | None = None
) -> NDArray[np.float64]:
    """Sentence chrF of every candidate against every reference, ``(n_candidates, n_references)``; ``options``:
    chrF's (``char_order``, ``word_order``, ``beta``, ``whitespace``, ``eps_smoothing``)."""

def bleu_pairwise(
    candidates: Sequence[str], references: Sequence[str] | None, options: dict[str, Any], threads: int | None = None
) -> NDArray[np.float64]:
    """Sentence BLEU of every candidate against every reference, ``(n_candidates, n_references)``; ``options``:
    ``tokenize`` and ``bleu_row_scores``'s."""

# --- src/python/ter.rs -----------------------------------------------------------------------------

def ter_tokenize(line: str, normalized: bool, no_punct: bool, asian_support: bool) -> str:
    """sacreBLEU's ``TercomTokenizer`` on an already lowercased line: tokens joined by spaces."""

# --- src/python/rouge.rs ---------------------------------------------------------------------------

def rouge_score_stats_tokens(
    predictions: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]],
    references: Sequence[Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]]],
    variants: Sequence[str],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Like ``rouge_score_stats`` for texts tokenized by the caller: ``(tokens, sentence_tokens)`` each."""

def rouge155_stats(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    options: dict[str, Any],
    threads: int | None = None,
) -> NDArray[np.float64]:
    """ROUGE-1.5.5 per-document (R, P, F), shape ``(segments, measures, 3)``; ``options``: ``variants``,
    ``stemmer``, ``wordnet_exceptions``, ``remove_stopwords``, ``word_limit``, ``byte_limit`` (``None``: none),
    ``multi_ref``, ``alpha``."""

def rouge155_bootstrap(
    scores: NDArray[np.float64], options: dict[str, Any], threads: int | None = None
) -> NDArray[np.float64]:
    """ROUGE-1.5.5's bootstrap: ``(measures, 3 [R, P, F], 3 [average, low, high])``; ``options``:
    ``samples``, ``confidence`` (percent), ``spl_ids``."""

def rouge_tokenize(texts: Sequence[str], options: dict[str, Any]) -> list[list[str]]:
    """The ROUGE tokens of each text; ``options``: ``tokenizer`` (``"rouge_score"`` | ``"unicode"``),
    ``stemmer``."""

def porter_stem_words(words: Sequence[str]) -> list[str]:
    """NLTK's PorterStemmer (NLTK_EXTENSIONS mode) on each word."""

def rouge155_stem_words(words: Sequence[str], wordnet_exceptions: bool) -> list[str]:
    """ROUGE-1.5.5's ``MorphStem`` on each word."""

# --- src/python/cider.rs: COCO caption metrics -----------------------------------------------------

def cider_image_scores(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    options: dict[str, Any],
    threads: int | None = None,
) -> NDArray[np.float64]:
    """Per-image CIDEr(-D) of tokenized captions; ``options``: ``n``, ``sigma``, ``variant``
    (``"cider-d"`` or ``"cider"``)."""

def rouge_l_coco_image_scores(
    candidates: Sequence[str], references: Sequence[Sequence[str]], beta: float = 1.2, threads: int | None = None
) -> NDArray[np.float64]:
    """Per-image ROUGE-L of tokenized captions (pycocoevalcap's rouge.py)."""

# --- src/python/ptb.rs -----------------------------------------------------------------------------

def ptb_coco_tokenize(lines: Sequence[str], threads: int | None = None) -> list[str]:
    """pycocoevalcap's tokenized form of each caption, in file order."""

# --- src/python/qa.rs ------------------------------------------------------------------------------

def qa_normalize(texts: Sequence[str], options: dict[str, Any]) -> list[str]:
    """The normalised form of each text; ``options``: ``normalizer``, ``language``."""

def qa_tokens(texts: Sequence[str], options: dict[str, Any]) -> list[list[str]]:
    """The units F1 counts for each text; ``options`` as ``qa_normalize``."""

def squad_v1_reduce(exact: NDArray[np.float64], f1: NDArray[np.float64], total: int) -> tuple[float, float]:
    """evaluate-v1.1.py's totals: ``(exact_match, f1)`` in percent."""

def squad_v2_reduce(
    has_answer: Sequence[bool],
    exact: NDArray[np.float64],
    f1: NDArray[np.float64],
    prediction_empty: Sequence[bool],
    na_prob: _Floats,
    na_rank: _Ints,
    num_no_ans: int,
    options: dict[str, Any],
) -> dict[str, Any]:
    """evaluate-v2.0.py's ``out_eval`` plus the thresholded arrays under ``_exact`` and ``_f1``;
    ``options``: ``na_prob_thresh``, ``with_best_thresholds``."""

# --- src/python/meteor.rs --------------------------------------------------------------------------

@final
class MeteorSynonyms:
    """A parsed WordNet synonym dictionary (shared between scorers)."""

    def __new__(cls, synsets: str, exceptions: str) -> MeteorSynonyms: ...
    @staticmethod
    def load(synsets_gz: _Path, exceptions_gz: _Path, cache_path: _Path | None = None) -> MeteorSynonyms:
        """Read and parse the two gzip'd files; with ``cache_path``, through a binary cache."""

@final
class MeteorParaphrases:
    """A loaded paraphrase table (shared between scorers); made by ``load`` only."""

    @staticmethod
    def load(gzip_path: _Path, cache_path: _Path | None = None) -> MeteorParaphrases:
        """Load from the binary cache when it exists, else parse the gzip'd table."""
    def __len__(self) -> int: ...

@final
class MeteorStemTable:
    """The jar's Arabic stem lookup table; made by ``from_gzip_bytes`` only."""

    @staticmethod
    def from_gzip_bytes(data: bytes) -> MeteorStemTable:
        """Parse the gzip'd table (``stem/arabic-buckwalter-reduced.gz`` of meteor-1.5.jar)."""
    def __len__(self) -> int: ...

@final
class MeteorScorer:
    """A configured METEOR 1.5 scorer."""

    def __new__(
        cls,
        options: dict[str, Any],
        *,
        function_words: Sequence[str],
        nonbreaking_prefixes: Sequence[str],
        synonyms: MeteorSynonyms | None = None,
        paraphrases: MeteorParaphrases | None = None,
        stem_table: MeteorStemTable | None = None,
    ) -> MeteorScorer:
        """``options``: ``MeteorConfig.scorer_options()`` (``language``, ``modules``, ``weights``, ``parameters``,
        ``normalization``, ``char_based``, ``beam_size``, ``max_candidates``, ``formula``)."""
    def score_batch(
        self, hypotheses: _Texts, references: _References
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]:
        """``(statistics (n, 23), segment scores (n,), best reference index (n,))``, in parallel."""
    def score_corpus(
        self, hypotheses: _Texts, references: _References
    ) -> tuple[list[float], list[float]]:
        """Segment scores and the system's (precision, recall, f1, fmean, frag_penalty, score)."""
    def score_rows(self, stats: NDArray[np.float64]) -> NDArray[np.float64]:
        """(precision, recall, f1, fmean, frag_penalty, score) per statistics row, shape ``(n, 6)``."""
    def corpus(self, stats: NDArray[np.float64]) -> tuple[NDArray[np.float64], list[float]]:
        """Summed statistics (as the jar sums them) and their six numbers."""
    def tokenize(self, line: str) -> list[str]:
        """The preprocessed tokens of a line."""
    def align(
        self, hypothesis: str, references: Sequence[str]
    ) -> tuple[list[str], list[str], int, list[tuple[int, int, int, int, int]], list[float], float]:
        """One segment in detail: tokens, best reference, matches, statistics, score."""

@final
class NltkWordNet:
    """NLTK's WordNet (the parts ``meteor_score`` uses), parsed from the dictionary files."""

    def __new__(cls, files: Sequence[tuple[str, str]]) -> NltkWordNet: ...
    def synonyms(self, word: str) -> list[str]:
        """NLTK's synonym set of a word, sorted."""

def meteor_task_defaults(
    language: str, task: str | None = None
) -> tuple[str, str, list[float], list[str], list[float], bool]:
    """``(language, task, (α, β, γ, δ), modules, weights, is_utility)`` of a language/task."""

def meteor_language_name(language: str) -> str:
    """The language's file-name form (e.g. ``"english"`` for ``"en"``)."""

def meteor_stem(language: str, words: Sequence[str], stem_table: MeteorStemTable | None = None) -> list[str]:
    """Stem words as the jar's stem module does (Arabic needs ``stem_table``)."""

def nltk_meteor_batch(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    wordnet: NltkWordNet,
    options: dict[str, Any],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """NLTK ``meteor_score`` per segment: ``(scores (n,), statistics (n, 4))``; ``options``: ``alpha``, ``beta``,
    ``gamma``."""

# --- src/python/wer.rs: jiwer's WER family and CER; rapidfuzz's Levenshtein alignment --------------

def error_rate_alignment(
    hypothesis: str, reference: str, options: dict[str, Any]
) -> list[tuple[str, int, int, int, int]]:
    """jiwer's alignment chunks of one pair `[(tag, ref_start, ref_end, hyp_start, hyp_end)]`; ``options``:
    ``unit`` (``"words"`` | ``"characters"``), ``remove_multiple_spaces`` (``None``: the unit's default),
    ``strip``."""

def levenshtein_opcodes(s1: Sequence[int], s2: Sequence[int]) -> list[tuple[str, int, int, int, int]]:
    """rapidfuzz's `Levenshtein.opcodes(s1, s2)` on integer sequences (for parity checks)."""


# --- src/python/charcut.rs: CharCut (the charcut package) -------------------------------------------

def charcut_highlight(
    hypothesis: str, reference: str, match_size: int
) -> tuple[list[tuple[int, int, str, int, str, str]], list[tuple[int, int, str, int, str, str]]]:
    """charcut's `compare_segments`: the candidate's and the reference's styled operations."""
