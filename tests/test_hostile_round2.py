"""Issue 23 ("never abort, never hang, never lie", round 2): each hole of the surfaces added after issue 13,
as a test. Memory-heavy hostile inputs run in a child process with an address-space limit (as in
test_hostile_inputs.py), so a regression fails instead of taking the machine's memory or aborting pytest.
Synthetic inputs are labelled as such; numbers that can be checked are compared with the reference
library or with a single call on real data.
"""

from __future__ import annotations

import sys
import threading
import time

import numpy as np
import pytest

import nlgmetrics

from conftest import read_lines
from test_hostile_inputs import run_limited


# ---------------------------------------------------------------- item 4: one object shared by threads

def wmt22_en_de(shared_data):
    folder = shared_data / "mt" / "wmt22" / "en-de"
    hyps = read_lines(folder / "generaltest2022.en-de.hyp.Online-A.de")
    refs = read_lines(folder / "generaltest2022.en-de.ref.A.de")
    return hyps, refs


@pytest.fixture
def frequent_thread_switches():
    """Threads switch every microsecond (the default 5 ms hides the race: the old code lost 4-9% of the rows)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


@pytest.mark.parametrize("name", ["bleu", "wer", "chrf"])
def test_threads_updating_one_object_while_it_computes_lose_no_row(shared_data, name, frequent_thread_switches):
    hyps, refs = wmt22_en_de(shared_data)
    shared = nlgmetrics.metric(name)
    batches = [(hyps[start:start + 2], refs[start:start + 2]) for start in range(0, len(hyps), 2)]
    errors: list = []

    def worker(own):
        try:
            for hyp_batch, ref_batch in own:
                shared.update(hyp_batch, ref_batch)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    workers = [threading.Thread(target=worker, args=(batches[k::4],)) for k in range(4)]
    for thread in workers:
        thread.start()
    while any(thread.is_alive() for thread in workers):
        shared.compute()  # joins the parts kept so far while the others add theirs
        shared.state()
    for thread in workers:
        thread.join()
    assert not errors
    state = shared.state()
    alone = nlgmetrics.metric(name).update(hyps, refs)
    assert state.n_segments == len(hyps)
    rows, expected = state.arrays["segment_stats"], alone.state().arrays["segment_stats"]
    assert len(rows) == len(hyps)
    # the threads' batches arrive in any order: the same rows as a multiset, the same corpus score
    assert sorted(map(tuple, np.asarray(rows).reshape(len(rows), -1).tolist())) == \
        sorted(map(tuple, np.asarray(expected).reshape(len(expected), -1).tolist()))
    assert shared.compute().score == pytest.approx(alone.compute().score, rel=1e-12)


def test_a_copied_metric_has_its_own_lock():
    import copy
    import pickle

    metric = nlgmetrics.metric("bleu").update(["a b c d"], ["a b c d"])
    assert copy.copy(metric)._lock is not metric._lock
    assert pickle.loads(pickle.dumps(metric))._lock is not metric._lock
    assert copy.deepcopy(metric).compute().score == metric.compute().score


# ---------------------------------------------------------------- item 1: CharCut's common substrings

def test_charcut_on_10000_repeated_words_is_refused_not_aborted():
    # Synthetic: "a a a …" of 10,000 words vs 5,000: the old code aborted on a 2.2 GB allocation (SIGABRT).
    out = run_limited('nlgmetrics.charcut([" ".join(["a"] * 10000)], [" ".join(["a"] * 5000)]).score')
    assert out["error"].startswith("segment 0: CharCut's common substrings of this pair")
    assert "more than the limit" in out["error"]


def test_charcut_on_alternating_words_is_refused_not_aborted():
    # Synthetic: "a b a b …" of 10,000 words vs "b a b a …".
    hyp = '" ".join("ab"[k % 2] for k in range(10000))'
    ref = '" ".join("ba"[k % 2] for k in range(10000))'
    out = run_limited(f"nlgmetrics.charcut([{hyp}], [{ref}]).score")
    assert "CharCut's common substrings" in out["error"]


def test_charcut_highlight_is_refused_the_same_way():
    result = nlgmetrics.charcut(["ok"], ["ok"])
    object.__setattr__(result, "_texts", ([" ".join(["a"] * 10000)], [" ".join(["a"] * 5000)]))
    with pytest.raises(ValueError, match="more than the limit"):
        result.highlight(0)


def test_charcut_below_the_limit_matches_the_package_on_a_repetitive_pair():
    charcut = pytest.importorskip("charcut.charcut")
    # Synthetic: "a a a …" of 600 words vs 300 (1.5 million positions: within the limit).
    hyp, ref = " ".join(["a"] * 600), " ".join(["a"] * 300)
    assert nlgmetrics.charcut([hyp], [ref]).score == charcut.calculate_charcut([hyp], [ref])[0]


# ---------------------------------------------------------------- item 2: CharacTER's shift search

def test_character_on_alternating_words_is_refused_in_seconds():
    # Synthetic: "a b a b …" of 1,000 words vs "b a b a …": cer 1.2.0 takes 119 s, the old code as long.
    hyp = '" ".join("ab"[k % 2] for k in range(1000))'
    ref = '" ".join("ba"[k % 2] for k in range(1000))'
    started = time.monotonic()
    out = run_limited(f"nlgmetrics.character([{hyp}], [{ref}]).score")
    assert out["error"].startswith("segment 0: CharacTER's shift search of this pair (1000 and 1000 words)")
    assert time.monotonic() - started < 120


def test_character_below_the_limit_matches_cer_on_a_repetitive_pair():
    cer = pytest.importorskip("cer")
    import random

    # Synthetic: 120 random "x"/"y" words a side (within the limit).
    hyp = [random.Random(3).choice("xy") for _ in range(120)]
    ref = [random.Random(4).choice("xy") for _ in range(120)]
    assert nlgmetrics.character([" ".join(hyp)], [" ".join(ref)]).segment_scores[0] == cer.calculate_cer(hyp, ref)
