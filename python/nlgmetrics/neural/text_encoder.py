"""Texts → token ids → hidden states, in length-sorted batches filled by a token budget, each text once.

``TextEncoder`` joins a tokenizer and an encoder backend (``nlgmetrics.neural.encoder``). ``encode`` takes
the texts of a call, drops duplicates and those already in the process cache
(``nlgmetrics.neural.cache``), sorts the rest by token count, fills each batch until ``max_tokens``
padded tokens (longest × rows) would be passed, runs the backend once per batch and lets a ``reduce``
function keep what the metric needs of each row (BERTScore: normalised token vectors; COMET: one pooled
vector). Right padding with an attention mask is what the anchors do; a row's numbers do not depend on
what else is in its batch beyond float noise (≤ 1e-7 measured), so batching is free to differ from theirs.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.neural.cache import EncodingCache, shared_cache

__all__ = ["DEFAULT_MAX_TOKENS", "TextEncoder", "plan_batches", "pad_ids", "run_batches", "shared_budget",
           "truncated_ids"]

#: padded tokens per encoder batch. Small batches are faster on CPU, not only lighter: MiniLM on 510 WMT22
#: texts (20,455 tokens, 2 cores, ONNX Runtime) took 2.1–2.4 s at 256–1,536 tokens per batch and 4.0–4.5 s
#: at 16,384, whose activations no longer fit in the caches; with two single-threaded runs at once
#: (``run_batches``), COMET's 743 texts took 4.0–4.8 s at 256–512 tokens against 4.5–4.9 s at 1,024 and
#: 5.3–6.6 s for one two-thread run at a time at 1,024 (scratch A/B runs in one process, 2026-12-02).
DEFAULT_MAX_TOKENS = 512

#: reduce(hidden [n_layers, B, L, H] float32 — or a dict of layer summaries —, mask [B, L] int64, ids [B, L] int64)
#: -> one array per row
Reducer = Callable[[Any, np.ndarray, np.ndarray], List[np.ndarray]]


def plan_batches(lengths: Sequence[int], max_tokens: int, max_rows: int = 256) -> List[List[int]]:
    """Indices grouped into batches: longest first, each batch's rows × longest row ≤ ``max_tokens``
    (a row longer than the budget gets a batch of its own).

    >>> plan_batches([3, 10, 4, 9], max_tokens=20)
    [[1, 3], [2, 0]]
    """
    order = sorted(range(len(lengths)), key=lambda index: (-lengths[index], index))
    batches: List[List[int]] = []
    current: List[int] = []
    for index in order:
        longest = lengths[current[0]] if current else lengths[index]
        if current and ((len(current) + 1) * longest > max_tokens or len(current) >= max_rows):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches


def shared_budget(lengths: Sequence[int], max_tokens: int, workers: int) -> int:
    """The token budget for ``workers`` concurrent batches: ``max_tokens``, or less when the texts would fill
    fewer batches than there are workers (so a short call still keeps every worker busy).

    >>> shared_budget([20] * 100, 512, 2), shared_budget([20] * 10, 512, 2), shared_budget([20] * 10, 512, 1)
    (512, 100, 512)
    """
    if workers <= 1 or len(lengths) < 2:
        return max_tokens
    return max(1, min(max_tokens, -(-sum(lengths) // workers)))


def run_batches(encode_batch: Callable[[List[int]], Any], batches: List[List[int]], workers: int) -> Iterator[Any]:
    """``encode_batch(batch)`` of each batch, in order; on ``workers`` threads at once when ``workers`` > 1
    (the backend's runs release the GIL, each on one core). An error or Ctrl-C cancels the batches not
    started; those running finish their batch and are dropped."""
    if workers <= 1 or len(batches) <= 1:
        yield from map(encode_batch, batches)
        return
    futures = [_thread_pool(workers).submit(encode_batch, batch) for batch in batches]
    try:
        for future in futures:
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


_POOLS: Dict[int, ThreadPoolExecutor] = {}
_POOLS_PID = os.getpid()
_POOLS_LOCK = threading.Lock()


def _thread_pool(workers: int) -> ThreadPoolExecutor:
    """One pool per worker count, made again in a forked child (a parent's threads do not survive fork)."""
    global _POOLS_PID
    with _POOLS_LOCK:
        if _POOLS_PID != os.getpid():
            _POOLS.clear()
            _POOLS_PID = os.getpid()
        if workers not in _POOLS:
            _POOLS[workers] = ThreadPoolExecutor(workers, thread_name_prefix="nlgmetrics-encode")
        return _POOLS[workers]


def pad_ids(rows: Sequence[Sequence[int]], pad_id: int) -> Tuple[np.ndarray, np.ndarray]:
    """``(input_ids, attention_mask)`` int64 arrays, rows padded on the right with ``pad_id``.

    >>> ids, mask = pad_ids([[5, 6, 7], [8]], pad_id=1)
    >>> ids.tolist(), mask.tolist()
    ([[5, 6, 7], [8, 1, 1]], [[1, 1, 1], [1, 0, 0]])
    """
    longest = max((len(row) for row in rows), default=0)
    ids = np.full((len(rows), longest), pad_id, dtype=np.int64)
    mask = np.zeros((len(rows), longest), dtype=np.int64)
    for index, row in enumerate(rows):
        ids[index, :len(row)] = row
        mask[index, :len(row)] = 1
    return ids, mask


def truncated_ids(tokenizer: Any, texts: List[str], max_length: int) -> Tuple[List[Tuple[int, ...]], List[bool]]:
    """Each text's ids cut to ``max_length`` as the anchor cuts them, and whether it was cut.

    >>> class Words:  # a stand-in tokenizer: one id per word, between [CLS] 0 and [SEP] 1
    ...     def encode(self, texts, max_length):
    ...         return [[0] + list(range(2, 2 + len(t.split())))[:max_length - 2] + [1] for t in texts]
    ...     def truncated(self, texts, max_length):
    ...         return [len(t.split()) + 2 > max_length for t in texts]
    >>> truncated_ids(Words(), ["a b", "a b c d e"], 4)
    ([(0, 2, 3, 1), (0, 2, 3, 1)], [False, True])
    """
    encoded = [tuple(ids) for ids in tokenizer.encode(texts, max_length=max_length)]
    if any(len(ids) == max_length for ids in encoded):  # only then can a text have been cut
        return encoded, [bool(cut) for cut in tokenizer.truncated(texts, max_length=max_length)]
    return encoded, [False] * len(encoded)


def surrogate_error(texts: List[str], metric: str) -> Optional[str]:
    """The error for the first of ``texts`` holding a lone surrogate code point (tokenizers refuses such a str
    with a TypeError that names no text), or None when every text is valid Unicode.

    >>> print(surrogate_error(["fine", "bad \\ud800 text"], "comet"))
    comet: a text contains a lone surrogate code point and is not valid Unicode text: 'bad \\ud800 text'
    >>> surrogate_error(["fine"], "comet") is None
    True
    """
    from nlgmetrics.core.inputs import has_lone_surrogate

    for text in texts:
        if has_lone_surrogate(text):
            shown = text if len(text) <= 60 else text[:60] + "…"
            return f"{metric}: a text contains a lone surrogate code point and is not valid Unicode text: {shown!r}"
    return None


_NAMESPACES = itertools.count()  # one per TextEncoder: its tokenizer's ids in the cache are its own


class TextEncoder:
    """A tokenizer and an encoder backend with the process cache (see the module docstring)."""

    def __init__(self, tokenizer: Any, encoder: Any, fingerprint: str, *, max_tokens: int = DEFAULT_MAX_TOKENS,
                 cache: Optional[EncodingCache] = None):
        self.tokenizer = tokenizer
        self.encoder = encoder
        self.fingerprint = fingerprint
        self.max_tokens = max_tokens
        self.cache = cache if cache is not None else shared_cache()
        self.encoded_rows = 0  # rows passed to the backend so far (what "never encode twice" is measured by)
        self.tokenized_texts = 0  # texts passed to the tokenizer so far
        self._namespace = ("ids", next(_NAMESPACES))

    def token_ids(self, texts: List[str], max_length: int, metric: str, anchor: str) -> List[Tuple[int, ...]]:
        """Each text's ids cut to ``max_length`` as the anchor cuts them (``truncated_ids``), with a warning
        counting the texts of this call that were cut. Each distinct text is tokenized once per process: its
        ids are kept in the cache beside the encodings, so scoring eight systems tokenizes the references once,
        as it encodes them once."""
        namespace = self._namespace + (int(max_length),)
        known: Dict[str, Tuple[Tuple[int, ...], bool]] = {}
        missing: List[str] = []
        for text in texts:
            if text in known:
                continue
            hit = self.cache.get(namespace + (text,))
            if hit is None:
                missing.append(text)
                known[text] = ((), False)
            else:  # stored as [cut, id, id, ...]
                known[text] = (tuple(hit[1:].tolist()), bool(hit[0]))
        if missing:
            self.tokenized_texts += len(missing)
            try:
                tokenized = truncated_ids(self.tokenizer, missing, max_length)
            except TypeError:  # tokenizers' words for a str it cannot read: "TextEncodeInput must be Union[...]"
                error = surrogate_error(missing, metric)
                if error is None:
                    raise
                raise ValueError(error) from None
            for text, ids, was_cut in zip(missing, *tokenized):
                known[text] = (ids, was_cut)
                self.cache.put(namespace + (text,), np.array([was_cut, *ids], dtype=np.int64),
                               extra_bytes=sys.getsizeof(text))  # the key holds the text
        cuts = sum(known[text][1] for text in texts)
        if cuts:
            warnings.warn(f"{metric}: {cuts} text(s) longer than {max_length} tokens were truncated, as {anchor} "
                          "truncates them", UserWarning, stacklevel=3)
        return [known[text][0] for text in texts]

    @property
    def pad_id(self) -> int:
        return int(self.tokenizer.pad_id)

    def encode(self, purpose: str, items: Mapping[Any, Sequence[int]], layers: Sequence[int],
               reduce: Reducer, summaries: Sequence[str] = ()) -> Dict[Any, np.ndarray]:
        """``{key: reduce(...)}`` for every key of ``items`` (key → token ids); cached under ``purpose``.

        ``reduce`` gets each batch's hidden states of ``layers`` — or, with ``summaries`` (names from
        ``nlgmetrics.neural.layer_summaries``), the dict of those per-layer summaries instead."""
        results: Dict[Any, np.ndarray] = {}
        missing: List[Any] = []
        for key in items:
            cached = self.cache.get((self.fingerprint, purpose, key))
            if cached is None:
                missing.append(key)
            else:
                results[key] = cached
        lengths = [len(items[key]) for key in missing]
        workers = max(1, int(getattr(self.encoder, "concurrent_runs", 1)))

        def encode_batch(batch: List[int]) -> Tuple[List[Any], List[np.ndarray]]:
            keys = [missing[index] for index in batch]
            ids, mask = pad_ids([items[key] for key in keys], self.pad_id)
            if summaries:
                hidden = self.encoder.layer_summaries(ids, mask, list(layers), summaries)
            else:
                hidden = self.encoder.hidden_states(ids, mask, list(layers))
            return keys, reduce(hidden, mask, ids)

        batches = plan_batches(lengths, shared_budget(lengths, self.max_tokens, workers))
        for keys, values in run_batches(encode_batch, batches, workers):
            self.encoded_rows += len(keys)
            for key, value in zip(keys, values):
                value = np.ascontiguousarray(value)
                self.cache.put((self.fingerprint, purpose, key), value)
                results[key] = value
        return results
