"""Small batches of Python lists, checked and kept by ``Metric.update`` to be scored later in one call.

A call into Rust has a fixed cost besides its segments (waking the worker threads, warming their work space,
building the arrays): about 0.15 ms, the time BLEU takes for 50–100 segments, so 200 updates of 120 segments
cost 1.6× one call on the same 24,000 segments. ``Metric.update`` therefore checks a small batch at once (every
error ``SegmentScorer.score_lists`` would raise, before anything changes) and keeps new lists of it here; the
kept batches are scored together in one call once they hold ``MAX_SEGMENTS`` segments or ``MAX_BYTES`` of text,
and before anything reads the state (``compute``, ``state``, ``merge``, a copy, a pickle). The numbers are the
same: a segment's statistics never depend on the other segments of its call.

>>> pending = PendingLists()
>>> pending.add(["a b"], None, ["a b c"], 8)
>>> pending.add(["c"], [["c", "d"]], None, 3)
>>> len(pending), pending.joined()
(2, (['a b', 'c'], [['a b c'], ['c', 'd']]))
"""

from itertools import chain
from typing import Any, List, Optional, Tuple

#: Batches shorter than this are kept for later; longer ones are scored at once (their fixed cost is small).
SMALL_BATCH = 1024
#: The kept batches are scored once they hold this many segments...
MAX_SEGMENTS = 32768
#: ...or this many bytes of UTF-8 text (the kept lists hold the caller's strs, which stay alive until then).
MAX_BYTES = 16 << 20


def is_small_batch(hypotheses: Any) -> bool:
    """Whether ``hypotheses`` is a list or tuple short enough to keep for later.

    >>> is_small_batch(["a"] * 120), is_small_batch(["a"] * 5000), is_small_batch(iter(["a"]))
    (True, False, False)
    """
    return type(hypotheses) in (list, tuple) and len(hypotheses) < SMALL_BATCH


class PendingLists:
    """Checked batches not scored yet, in order: each its hypotheses and references as new lists."""

    def __init__(self) -> None:
        # (hypotheses, one list of references per hypothesis or None, a list of str references or None, bytes)
        self._batches: List[Tuple[list, Optional[list], Optional[list], int]] = []
        self.segments = 0
        self.bytes = 0

    def add(self, hypotheses: list, per_hypothesis: Optional[list], one_each: Optional[list], n_bytes: int) -> None:
        """Keep a checked batch: its references as one list per hypothesis, or (``one_each``) one str each."""
        self._batches.append((hypotheses, per_hypothesis, one_each, n_bytes))
        self.segments += len(hypotheses)
        self.bytes += n_bytes

    def drop_last(self) -> None:
        """Forget the batch added last (its update failed while scoring the kept batches)."""
        hypotheses, _, _, n_bytes = self._batches.pop()
        self.segments -= len(hypotheses)
        self.bytes -= n_bytes

    def full(self) -> bool:
        return self.segments >= MAX_SEGMENTS or self.bytes >= MAX_BYTES

    def __len__(self) -> int:
        return len(self._batches)

    def joined(self) -> Tuple[list, list]:
        """The kept batches as one batch: the hypotheses, and the references as one str each when every batch
        gave them so, else as one list per hypothesis."""
        hypotheses = list(chain.from_iterable(batch[0] for batch in self._batches))
        if all(one_each is not None for _, _, one_each, _ in self._batches):
            return hypotheses, list(chain.from_iterable(batch[2] or () for batch in self._batches))
        references: list = []
        for _, per_hypothesis, one_each, _ in self._batches:
            references += per_hypothesis if per_hypothesis is not None else [[text] for text in one_each or ()]
        return hypotheses, references

    def copy(self) -> "PendingLists":
        """A copy that can grow apart (the kept lists themselves are never changed, so they are shared)."""
        twin = PendingLists()
        twin._batches = list(self._batches)
        twin.segments, twin.bytes = self.segments, self.bytes
        return twin
