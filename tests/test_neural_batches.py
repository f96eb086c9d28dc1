"""nlgmetrics.neural.text_encoder's batch runner: batches of one call run concurrently (one thread each, as
many as the ONNX backend's ``threads``), in order, with the same numbers as one at a time; errors and
Ctrl-C cancel what has not started; a forked child gets a pool of its own."""

from __future__ import annotations

import multiprocessing
import threading
import time

import numpy as np
import pytest
from _neural import COMET_MODELS, MODELS, input_set

import nlgmetrics
from nlgmetrics.neural.text_encoder import plan_batches, run_batches, shared_budget


def test_results_come_back_in_batch_order_from_several_threads():
    seen = set()

    def work(batch):
        seen.add(threading.get_ident())
        time.sleep(0.01 * (3 - batch[0] % 3))  # later batches finish first
        return [index * 10 for index in batch]

    batches = [[0, 1], [2], [3, 4, 5], [6], [7, 8]]
    assert list(run_batches(work, batches, workers=2)) == [[0, 10], [20], [30, 40, 50], [60], [70, 80]]
    assert len(seen) == 2 and threading.get_ident() not in seen
    seen.clear()
    assert list(run_batches(work, batches, workers=1)) == list(run_batches(work, batches, workers=2))


def test_an_error_in_one_batch_reaches_the_caller_and_cancels_the_rest():
    started = []

    def work(batch):
        started.append(batch[0])
        if batch[0] == 1:
            raise ValueError("batch 1 failed")
        time.sleep(0.05)
        return batch

    with pytest.raises(ValueError, match="batch 1 failed"):
        list(run_batches(work, [[k] for k in range(40)], workers=2))
    time.sleep(0.2)
    assert len(started) < 40  # the batches still queued were cancelled


def _child_encodes(queue):
    queue.put(list(run_batches(lambda batch: sum(batch), [[1, 2], [3], [4, 5]], workers=2)))


def test_a_forked_child_gets_its_own_pool():
    assert list(run_batches(sum, [[1, 2], [3], [4, 5]], workers=2)) == [3, 3, 9]  # the parent's pool exists
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_encodes, args=(queue,))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0
    assert queue.get(timeout=5) == [3, 3, 9]


def test_a_short_call_is_split_so_every_worker_has_a_batch():
    lengths = [12, 9, 15, 11, 10, 14]
    assert len(plan_batches(lengths, shared_budget(lengths, 512, 1))) == 1
    assert len(plan_batches(lengths, shared_budget(lengths, 512, 2))) >= 2
    assert shared_budget([600], 512, 2) == 512  # one text: nothing to split
    assert shared_budget([40] * 100, 512, 2) == 512


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_comet_and_bertscore_do_not_depend_on_the_number_of_workers(threads, monkeypatch):
    monkeypatch.setenv("NLGMETRICS_MODELS", str(MODELS))  # the COMET fixtures name their encoders by folder name
    data = input_set("wmt22_en_de")
    nlgmetrics.clear_neural_cache()
    comet = nlgmetrics.comet(data["hyps"], data["refs"], sources=data["srcs"],
                             model=str(COMET_MODELS / "tiny-da-softmax"), threads=threads)
    nlgmetrics.clear_neural_cache()
    bert = nlgmetrics.bertscore(data["hyps"], data["refs"], model=str(MODELS / "tiny-roberta"), num_layers=1,
                                threads=threads)
    nlgmetrics.clear_neural_cache()
    comet_one = nlgmetrics.comet(data["hyps"], data["refs"], sources=data["srcs"],
                                 model=str(COMET_MODELS / "tiny-da-softmax"), threads=1, max_tokens=64)
    nlgmetrics.clear_neural_cache()
    bert_one = nlgmetrics.bertscore(data["hyps"], data["refs"], model=str(MODELS / "tiny-roberta"), num_layers=1,
                                    threads=1, max_tokens=64)
    assert np.abs(comet.segment_scores - comet_one.segment_scores).max() <= 1e-7
    assert np.abs(bert.segment_scores - bert_one.segment_scores).max() <= 1e-7
