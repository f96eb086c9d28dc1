"""``threads=k`` is honoured by every lexical metric: counted in a fresh process (``/proc/self/task``), an
``update`` and ``compute`` of ``metric(name, threads=1)`` start at most one worker thread, and ``threads=2`` at
most two (issue 24: BLEU, ROUGE, METEOR, EM/F1, CIDEr, distinct and self-BLEU used to start one per core).

Each case runs in its own interpreter, so a pool another case built cannot hide a new one. The data are
synthetic, 80 segments (above every kernel's threshold for going parallel).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc/self/task")

# (registry name, options); the model-based metrics (BERTScore, COMET) are not lexical and need a model folder.
CASES = [
    ("bleu", {}),
    ("bleu", {"preset": "nltk"}),
    ("bleu", {"preset": "coco"}),
    ("chrf", {}),
    ("chrf++", {}),
    ("ter", {}),
    ("rouge", {}),
    ("rouge", {"preset": "rouge155", "variants": ["rouge1", "rougeL"]}),
    ("meteor", {}),
    ("meteor", {"preset": "nltk"}),
    ("cider", {}),
    ("gleu", {}),
    ("nist", {}),
    ("ribes", {}),
    ("squad", {}),
    ("exact_match", {}),
    ("wer", {}),
    ("mer", {}),
    ("wil", {}),
    ("wip", {}),
    ("cer", {}),
    ("character", {}),
    ("charcut", {}),
    ("distinct", {}),
    ("self_bleu", {}),
]

# Runs in the child: threads before and after one update + compute of the metric.
CHILD = r"""
import json, os, sys, warnings
import numpy, nlgmetrics
from nlgmetrics.core.registry import metric

name, options, threads = json.loads(sys.argv[1])
words = "the a cat dog sat ran on under mat log big small red quick brown fox jumps over lazy".split()
hyps = [" ".join(words[(i * 7 + k) % len(words)] for k in range(6 + i % 5)) + " ." for i in range(80)]
refs = [[" ".join(words[(i * 5 + k) % len(words)] for k in range(7 + i % 3)) + " ."] for i in range(80)]
m = metric(name, threads=threads, **options)
before = len(os.listdir("/proc/self/task"))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    if m.needs_references:
        one_each = name in ("wer", "mer", "wil", "wip", "cer", "character", "charcut")
        m.update(hyps, [r[0] for r in refs] if one_each else refs)
    else:
        m.update(hyps)
    m.compute()
print(json.dumps(len(os.listdir("/proc/self/task")) - before))
"""


def _started_threads(name: str, options: dict, threads: int) -> int:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([name, options, threads])], capture_output=True,
                         text=True, timeout=300, env=env)
    if out.returncode != 0 and ("Resource" in out.stderr or "not found" in out.stderr.lower()):
        pytest.skip(f"{name} {options}: {out.stderr.strip().splitlines()[-1]}")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name,options", CASES, ids=[f"{n}-{json.dumps(o, sort_keys=True)}" for n, o in CASES])
def test_threads_1_starts_at_most_one_worker_thread(name, options):
    assert _started_threads(name, options, 1) <= 1


@pytest.mark.parametrize("name,options", [("bleu", {}), ("rouge", {}), ("chrf", {})])
def test_threads_2_starts_at_most_two(name, options):
    assert _started_threads(name, options, 2) <= 2


def test_every_registered_lexical_metric_is_counted():
    from nlgmetrics.core.registry import metric_classes

    model_based = {"bertscore", "comet"}
    counted = {name for name, _ in CASES}
    assert set(metric_classes()) - model_based <= counted | {"charcut_mt", "em", "f1", "token_f1", "rouge1", "rouge2",
                                                             "rougel", "rougelsum"}
