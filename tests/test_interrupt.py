"""Ctrl-C stops a long scoring call within a second (issue 22): the Rust loop runs without the GIL, where no
Python signal handler can run, so a long batch of Python lists runs as several Rust calls (``rows_per_call``)
and Python raises KeyboardInterrupt between two of them. Measured on WMT22 en-de repeated to a long batch."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import nlgmetrics

SCRIPT = """
import sys, time
import nlgmetrics
hyps = open(sys.argv[1], encoding="utf-8").read().split("\\n")[:-1] * 160
refs = open(sys.argv[2], encoding="utf-8").read().split("\\n")[:-1] * 160
print("scoring", flush=True)
try:
    getattr(nlgmetrics, sys.argv[3])(hyps, refs)
except KeyboardInterrupt:
    print("interrupted", time.perf_counter(), flush=True)
    sys.exit(130)
print("finished", time.perf_counter(), flush=True)
"""


@pytest.mark.parametrize("name", ["ter", "meteor"])
def test_ctrl_c_stops_a_long_call_within_a_second(shared_data, tmp_path, name):
    folder = shared_data / "mt" / "wmt22" / "en-de"
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, str(folder / "generaltest2022.en-de.hyp.Online-B.de"),
                                str(folder / "generaltest2022.en-de.ref.A.de"), name],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "scoring"
    time.sleep(1.5)  # well inside the call: 325,920 segments take several seconds (TER: 1.3 s per 81,480 here)
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    waited = time.perf_counter() - sent
    assert process.returncode == 130 and out.startswith("interrupted"), (out, err)
    assert waited < 1.0, f"{name}: {waited:.2f} s from SIGINT to exit"


def test_calls_in_pieces_give_the_one_call_numbers(wmt22_two_refs, monkeypatch):
    hyps, ref_a, ref_b = wmt22_two_refs
    refs = [[a, b] for a, b in zip(ref_a, ref_b)]
    for name in ("bleu", "chrf", "ter", "rouge", "meteor"):
        whole = nlgmetrics.metric(name)
        whole.rows_per_call = None
        pieces = nlgmetrics.metric(name)
        pieces.rows_per_call = 300  # 2037 rows: 6 full calls and a partial one
        expected, got = whole._score_batch(hyps, refs), pieces._score_batch(hyps, refs)
        assert got.score == expected.score, name
        np.testing.assert_array_equal(np.asarray(got.segment_scores), np.asarray(expected.segment_scores))
        np.testing.assert_array_equal(np.asarray(got.segment_stats), np.asarray(expected.segment_stats))
