"""The library in worker processes and threads (issue 13, DESIGN.md §5).

After the parent has scored a batch (so the Rust thread pool is running), a child made by
``fork`` used to hang forever on its first call: rayon's pool does not survive ``fork``. Every
start method, ``ProcessPoolExecutor`` and Python threads must give results identical to a call in
the parent. Pools are waited on with a timeout, so a regression fails instead of hanging.
Data: the first 120 segments of WMT17 en-de (real system output against the reference).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import threading

import pytest
from conftest import SHARED_DATA, read_lines

import nlgmetrics

WMT17 = SHARED_DATA / "mt" / "wmt17_en_de_sacrebleu_testset"
N_SEGMENTS = 120
TIMEOUT = 120

METRICS = ["bleu", "chrf", "ter", "rouge", "meteor", "gleu", "nist"]


def _data() -> tuple[list[str], list[str]]:
    hyps = read_lines(WMT17 / "newstest2017.KIT.4950.en-de.hyp.de")[:N_SEGMENTS]
    refs = read_lines(WMT17 / "newstest2017.en-de.ref.de")[:N_SEGMENTS]
    return hyps, refs


def score(metric: str) -> list[float]:
    """Per-segment scores of one metric on the test data (runs in workers: module-level)."""
    hyps, refs = _data()
    if metric == "bleu":
        return list(nlgmetrics.bleu(hyps, refs).segment_scores)
    if metric == "chrf":
        return list(nlgmetrics.chrf(hyps, refs).segment_scores)
    if metric == "ter":
        return list(nlgmetrics.ter(hyps, refs).segment_scores)
    if metric == "rouge":
        return nlgmetrics.rouge(hyps, refs).segment_scores.ravel().tolist()
    if metric == "meteor":
        return list(nlgmetrics.meteor(hyps, refs, language="de", modules=["exact", "stem"]).segment_scores)
    return list(getattr(nlgmetrics, metric)(hyps, refs).segment_scores)


@pytest.fixture(scope="module")
def expected(shared_data):
    """Scores in this process; computing them starts the thread pool before any fork."""
    return {metric: score(metric) for metric in METRICS}


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_multiprocessing_pool_matches_parent(expected, method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{method} is not available on this platform")
    context = multiprocessing.get_context(method)
    with context.Pool(2) as pool:
        results = pool.map_async(score, METRICS).get(timeout=TIMEOUT)
    assert dict(zip(METRICS, results)) == expected


def test_process_pool_executor_matches_parent(expected):
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as executor:
        results = list(executor.map(score, METRICS, timeout=TIMEOUT))
    assert dict(zip(METRICS, results)) == expected


def test_fork_child_runs_a_second_batch(expected):
    # The child's own pool, built on its first call, serves its later calls too.
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        results = pool.map_async(score, METRICS + METRICS).get(timeout=TIMEOUT)
    assert results == [expected[m] for m in METRICS + METRICS]


def test_python_threads_match_single_call(expected):
    results: dict[tuple[int, str], list[float]] = {}

    def work(k: int, metric: str) -> None:
        results[k, metric] = score(metric)

    threads = [threading.Thread(target=work, args=(k, m)) for k in range(2) for m in METRICS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads)
    assert results == {(k, m): expected[m] for k in range(2) for m in METRICS}
