"""Worst per-segment |Δ| of nlgmetrics against the recorded anchors (tests/data/neural/oracle), per call.

    python tools/neural/parity_report.py [--backend onnx|numpy]

Prints one line per recorded bert_score / unbabel-comet call and the worst deviation over all of them; the
tests assert the same bound (1e-6) call by call (tests/test_bertscore.py, tests/test_comet.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from _neural import COMET_MODELS, MODELS, ORACLE, input_set, model_folder, oracle, references_of  # noqa: E402

import nlgmetrics  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="onnx")
    parser.add_argument("--minilm-comet", type=Path, default=None,
                        help="the MiniLM COMET checkpoint folder (tools/neural/make_comet_checkpoints.py --minilm-out, "
                             "91 MB, not committed): its calls are skipped without it")
    args = parser.parse_args()
    os.environ["NLGMETRICS_MODELS"] = str(MODELS)
    worst, segments = 0.0, 0
    for call in oracle("bertscore")["calls"]:
        kwargs = dict(call["kwargs"])
        if kwargs.get("rescale_with_baseline") and "baseline_path" not in kwargs:
            continue  # bert_score silently skips this rescale; we refuse it (a test checks the error)
        if "baseline_path" in kwargs:
            kwargs["baseline_path"] = str(ORACLE / kwargs["baseline_path"])
        data = input_set(call["set"])
        result = nlgmetrics.bertscore(data["hyps"], references_of(call), model=str(model_folder(call["model"])),
                                      backend=args.backend, **kwargs)
        delta = float(np.abs(result.segment_scores - np.array([call["P"], call["R"], call["F"]]).T).max())
        worst, segments = max(worst, delta), segments + len(data["hyps"])
        print(f"bertscore {call['id']:<58} {len(data['hyps']):>4} segments  max |Δ| {delta:.2e}")
    for call in oracle("comet")["calls"]:
        folder = COMET_MODELS / call["checkpoint"]
        if call["id"].startswith("minilm-da/") and args.minilm_comet:
            folder = args.minilm_comet
        if not folder.is_dir():
            print(f"comet     {call['id']:<58} (checkpoint not committed: skipped)")
            continue
        data = input_set(call["set"])
        refs = None if call["reference_free"] else data["refs"]
        result = nlgmetrics.comet(data["hyps"], refs, sources=data["srcs"], model=str(folder), backend=args.backend)
        delta = float(np.abs(result.segment_scores - np.array(call["scores"])).max())
        worst, segments = max(worst, delta), segments + len(data["hyps"])
        print(f"comet     {call['id']:<58} {len(data['hyps']):>4} segments  max |Δ| {delta:.2e}")
    print(f"worst |Δ| over {segments} segment scores: {worst:.2e}")


if __name__ == "__main__":
    main()
