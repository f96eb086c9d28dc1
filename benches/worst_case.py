#!/usr/bin/env python3
"""Worst-case table: time and peak memory of every metric on adversarial shapes at n and 10n, with the growth
ratio, next to the reference implementation's. Writes benches/WORST_CASE.md.

Each (metric, implementation, shape, size) runs in its own subprocess with a timeout; its peak resident memory is
the kernel's maxrss for that child (``os.wait4``'s rusage, the counter ``RUSAGE_CHILDREN`` accumulates), so one
case never inherits another's peak. "call MB" is the peak minus the child's peak just before the timed call
(imports and input construction excluded). Inputs are synthetic (labelled: shapes below), built in the child.

Shapes (n = tokens per text unless stated):
  huge_line      one segment: n words from a 1,000-word vocabulary vs a shuffled copy with 10% replaced
  repetition     "the the the ..." (n) vs the same
  alternating    "a b a b ..." (n) vs "b a b a ..." (n)
  many_refs      a 20-word hypothesis against n/10 references of 20 words each (10n: n references)
  long_vs_short  n words vs a 10-word reference

Usage: python benches/worst_case.py [--timeout 45] [--only bleu,ter] [--out benches/WORST_CASE.md]
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import platform
import random
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHAPES = ["huge_line", "repetition", "alternating", "many_refs", "long_vs_short"]

# metric -> (n, reference label). n is chosen per metric so the whole table runs in about ten minutes here.
METRICS = {
    "bleu": (20_000, "sacreBLEU 2.6.0"),
    "chrf": (20_000, "sacreBLEU 2.6.0"),
    "ter": (300, "sacreBLEU 2.6.0"),
    "rouge": (1_000, "rouge_score 0.1.2"),
    "rouge155": (2_000, "ROUGE-1.5.5.pl"),
    "meteor": (150, "meteor-1.5.jar"),
    "cider": (20_000, "pycocoevalcap 1.2"),
    "exact_match/f1": (20_000, "SQuAD v1.1 script functions"),
    "charcut": (1_000, "charcut 1.1.1"),
    "character": (100, "cer 1.2.0"),
    "report": (1_000, None),  # the HTML report of two systems (bleu, rougeL, chrf); no reference implementation
}
# Metrics of one reference per hypothesis: many_refs gives them its first reference only.
ONE_REFERENCE = ("charcut", "character")


# ---- inputs (synthetic) ------------------------------------------------------------------------------------------

def make_shape(shape: str, n: int):
    """(hypotheses, references): one segment, references a list per hypothesis."""
    rng = random.Random(n)
    vocabulary = [f"w{k}" for k in range(1000)]
    if shape == "huge_line":
        words = [rng.choice(vocabulary) for _ in range(n)]
        other = words[:]
        rng.shuffle(other)
        for k in rng.sample(range(n), n // 10):
            other[k] = "x" + other[k]
        return [" ".join(words)], [[" ".join(other)]]
    if shape == "repetition":
        return [" ".join(["the"] * n)], [[" ".join(["the"] * n)]]
    if shape == "alternating":
        return [" ".join("ab"[k % 2] for k in range(n))], [[" ".join("ba"[k % 2] for k in range(n))]]
    if shape == "many_refs":
        sentence = lambda: " ".join(rng.choice(vocabulary[:50]) for _ in range(20))  # noqa: E731
        return [sentence()], [[sentence() for _ in range(max(1, n // 10))]]
    if shape == "long_vs_short":
        return [" ".join(rng.choice(vocabulary) for _ in range(n))], [[" ".join(vocabulary[:10])]]
    raise ValueError(shape)


# ---- the calls ---------------------------------------------------------------------------------------------------

def squad_functions():
    """The SQuAD v1.1 evaluate script's normalize_answer / f1_score / exact_match_score, transcribed."""
    import re
    import string
    from collections import Counter

    def normalize_answer(s):
        s = s.lower()
        exclude = set(string.punctuation)
        s = "".join(ch for ch in s if ch not in exclude)
        s = re.sub(r"\b(a|an|the)\b", " ", s)
        return " ".join(s.split())

    def f1_score(prediction, ground_truth):
        prediction_tokens = normalize_answer(prediction).split()
        ground_truth_tokens = normalize_answer(ground_truth).split()
        common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
        num_same = sum(common.values())
        if num_same == 0:
            return 0
        precision = 1.0 * num_same / len(prediction_tokens)
        recall = 1.0 * num_same / len(ground_truth_tokens)
        return (2 * precision * recall) / (precision + recall)

    def exact_match_score(prediction, ground_truth):
        return normalize_answer(prediction) == normalize_answer(ground_truth)

    return f1_score, exact_match_score


def prepare(metric: str, implementation: str):
    """A scoring function ``score(hyps, refs)``; set-up (imports, starting a helper process) is done here, untimed."""
    import warnings

    warnings.simplefilter("ignore")
    if implementation == "ours":
        import nlgmetrics

        calls = {
            "bleu": lambda hyps, refs: nlgmetrics.bleu(hyps, refs),
            "chrf": lambda hyps, refs: nlgmetrics.chrf(hyps, refs),
            "ter": lambda hyps, refs: nlgmetrics.ter(hyps, refs),
            "rouge": lambda hyps, refs: nlgmetrics.rouge(hyps, refs),
            "rouge155": lambda hyps, refs: nlgmetrics.rouge(hyps, refs, preset="rouge155",
                                                            variants=["rouge1", "rouge2", "rougeL", "rougeSU4"]),
            "meteor": lambda hyps, refs: nlgmetrics.meteor(hyps, refs),
            "cider": lambda hyps, refs: nlgmetrics.cider(hyps, refs, tokenize=False),
            "exact_match/f1": lambda hyps, refs: (nlgmetrics.exact_match(hyps, refs), nlgmetrics.token_f1(hyps, refs)),
            "charcut": lambda hyps, refs: nlgmetrics.charcut(hyps, [r[0] for r in refs]),
            "character": lambda hyps, refs: nlgmetrics.character(hyps, [r[0] for r in refs]),
            "report": lambda hyps, refs: __import__("nlgmetrics.report").report.report(
                {"a": hyps, "b": [r[0] for r in refs]}, refs, metrics=["bleu", "rougeL", "chrf"], n_samples=100),
        }
        return calls[metric]
    if metric == "charcut":
        from charcut.charcut import calculate_charcut

        return lambda hyps, refs: calculate_charcut(hyps, [r[0] for r in refs])
    if metric == "character":
        from cer import calculate_cer

        return lambda hyps, refs: [calculate_cer(h.split(), r[0].split()) for h, r in zip(hyps, refs)]
    if metric in ("bleu", "chrf", "ter"):
        import sacrebleu

        scorer = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}[metric]()
        return lambda hyps, refs: scorer.corpus_score(hyps, [list(column) for column in zip(*refs)])
    if metric == "rouge":
        from rouge_score import rouge_scorer

        scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
        return lambda hyps, refs: [scorer.score_multi(r, h) for h, r in zip(hyps, refs)]
    if metric == "rouge155":
        sys.path.insert(0, str(HERE.parent / "tests"))
        from rouge155_perl import Rouge155Perl, perl_available

        if not perl_available():
            raise RuntimeError("ROUGE-1.5.5.pl is not available")
        perl = Rouge155Perl()
        return lambda hyps, refs: perl.run(hyps, refs, ["-n", "2", "-2", "4", "-u", "-a"])
    if metric == "meteor":
        # pycocoevalcap's wrapper: the jar started once (-stdio -l en -norm, -Xmx2G), segments sent to it.
        from pycocoevalcap.meteor.meteor import Meteor

        jar = Meteor()
        atexit.register(jar.__del__)  # waits for java, so its peak memory is counted in ours
        return lambda hyps, refs: jar.compute_score({k: list(r) for k, r in enumerate(refs)},
                                                    {k: [h] for k, h in enumerate(hyps)})
    if metric == "cider":
        from pycocoevalcap.cider.cider import Cider

        return lambda hyps, refs: Cider().compute_score({k: list(r) for k, r in enumerate(refs)},
                                                        {k: [h] for k, h in enumerate(hyps)})
    if metric == "exact_match/f1":
        f1_score, exact_match_score = squad_functions()
        return lambda hyps, refs: [(max(exact_match_score(h, g) for g in r), max(f1_score(h, g) for g in r))
                                   for h, r in zip(hyps, refs)]
    raise ValueError(metric)


def child(metric: str, implementation: str, shape: str, n: int) -> None:
    hyps, refs = make_shape(shape, n)
    score = prepare(metric, implementation)
    score(["a warm up call"], [["a warm up call", "loads lazy modules"]])  # lazy imports, thread pool, JVM warm-up
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    refused = None
    try:
        score(hyps, refs)
    except ValueError as error:  # a documented bound (CharCut, CharacTER, METEOR): refused, not crashed
        refused = str(error)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "before_kb": before, "refused": refused}), flush=True)


# ---- the parent: one subprocess per case ---------------------------------------------------------------------------

def run_case(metric: str, implementation: str, shape: str, n: int, timeout: float) -> dict:
    command = [sys.executable, __file__, "--child", metric, implementation, shape, str(n)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + timeout
    status, usage, timed_out = None, None, False
    while status is None:
        pid, raw_status, raw_usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            status, usage = raw_status, raw_usage
            break
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)  # the child and anything it started (java, perl)
            _, status, usage = os.wait4(process.pid, 0)
            timed_out = True
            break
        select.select([], [], [], 0.05)
    out, err = process.stdout.read().decode(), process.stderr.read().decode()
    process.returncode = os.waitstatus_to_exitcode(status)
    peak_mb = usage.ru_maxrss / 1024
    helper = implementation == "reference" and metric in ("meteor", "rouge155")  # java / perl: peak only
    if timed_out:  # a killed helper is never waited for: its memory is unknown then
        return {"status": f"timeout >{timeout:.0f} s", "peak_mb": None if helper else peak_mb}
    if process.returncode != 0:
        last = (err.strip().splitlines() or ["?"])[-1]
        return {"status": f"failed: {last[:80]}", "peak_mb": peak_mb}
    result = json.loads(out.strip().splitlines()[-1])
    return {"status": "ok", "seconds": result["seconds"], "peak_mb": peak_mb, "refused": result.get("refused"),
            "call_mb": None if helper else max(0.0, peak_mb - result["before_kb"] / 1024)}


def cell(result: dict) -> str:
    if result["status"] != "ok":
        return result["status"] if not result.get("peak_mb") else f"{result['status']} ({result['peak_mb']:.0f} MB)"
    extra = "" if result["call_mb"] is None else f" (+{result['call_mb']:.0f})"
    refused = "ValueError (over its bound) in " if result.get("refused") else ""
    return f"{refused}{result['seconds']:.3f} s, {result['peak_mb']:.0f} MB{extra}"


def growth(small: dict, large: dict) -> str:
    refused = small.get("refused") or large.get("refused")
    if small.get("status") == "ok" and large.get("status") == "ok" and small["seconds"] >= 0.002 and not refused:
        ratio = large["seconds"] / max(small["seconds"], 1e-6)
        return f"×{ratio:.0f}" if ratio >= 10 else f"×{ratio:.1f}"
    return "—"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", nargs=4, metavar=("METRIC", "IMPL", "SHAPE", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=45.0, help="seconds per case (default 45)")
    parser.add_argument("--only", default="", help="comma-separated metrics (default: all)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every n (e.g. 0.1 for a quick look)")
    parser.add_argument("--out", default=str(HERE / "WORST_CASE.md"))
    args = parser.parse_args()
    if args.child:
        metric, implementation, shape, n = args.child
        child(metric, implementation, shape, int(n))
        return
    metrics = [m for m in METRICS if not args.only or m in args.only.split(",")]
    started = time.time()
    rows = []
    for metric in metrics:
        base, reference = METRICS[metric]
        n = max(10, int(base * args.scale))
        for shape in SHAPES:
            row = {"metric": metric, "shape": shape, "n": n, "label": reference}
            for implementation in ("ours", "reference"):
                if reference is None and implementation == "reference":
                    row[implementation] = ({"status": "—"}, {"status": "—"})
                    continue
                small = run_case(metric, implementation, shape, n, args.timeout)
                if small["status"].startswith("timeout"):
                    large = {"status": "not run (n timed out)", "peak_mb": 0.0}
                else:
                    large = run_case(metric, implementation, shape, 10 * n, args.timeout)
                row[implementation] = (small, large)
                print(f"{metric:15} {shape:14} {implementation:9} n: {cell(small):40} 10n: {cell(large):40} "
                      f"{growth(small, large)}", flush=True)
            rows.append(row)
    write_report(rows, args, time.time() - started)


def _kept_rows(path: str, rerun: set) -> list:
    """The table lines of an earlier run for the metrics not rerun (``--only`` updates its metrics' rows)."""
    if not Path(path).exists():
        return []
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("| ") and not line.startswith(("| metric", "|---"))]
    return [line for line in rows if line.split("|")[1].strip() not in rerun]


def write_report(rows, args, elapsed: float) -> None:
    lines = [
        "# Worst-case time and memory",
        "",
        "Produced by `python benches/worst_case.py` (do not edit by hand). Synthetic adversarial inputs, one "
        "segment per case (shapes below); each case runs in its own process with a "
        f"{args.timeout:.0f} s timeout. Time is the scoring call alone; memory is the process's peak resident set "
        "(in parentheses: growth of our own process during the call; helper processes such as the METEOR jar's JVM or perl count in the peak only). Growth is time(10n)/time(n): ×10 is linear, ×100 quadratic; — where n took under 2 ms (too short to "
        "compare) or a side did not finish.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs, Python "
        f"{platform.python_version()}; whole run {elapsed / 60:.1f} min.",
        "",
        'Shapes: **huge_line** n words vs a shuffled copy with 10% replaced; **repetition** "the the …" vs the '
        'same; **alternating** "a b a b …" vs "b a b a …"; **many_refs** a 20-word hypothesis vs n/10 '
        "references (10n: n references); **long_vs_short** n words vs a 10-word reference.",
        "",
        "| metric | shape | n | ours at n | ours at 10n | growth | reference | reference at n | reference at 10n "
        "| growth |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    kept = _kept_rows(args.out, {row["metric"] for row in rows}) if args.only else []
    if kept:
        lines[4] = (lines[4].replace("whole run", "this run of " + ", ".join(sorted({row["metric"] for row in rows})))
                    .rstrip(".") + "; the other rows are an earlier run's (same machine and settings).")
    lines.extend(kept)
    for row in rows:
        ours, ref = row["ours"], row["reference"]
        lines.append(
            f"| {row['metric']} | {row['shape']} | {row['n']:,} | {cell(ours[0])} | {cell(ours[1])} | "
            f"{growth(*ours)} | {row['label'] or '—'} | {cell(ref[0])} | {cell(ref[1])} | {growth(*ref)} |")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
