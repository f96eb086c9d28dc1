"""Scale: corpus scores of files of millions of lines in bounded memory, Spark and Ray against one process,
Arrow against list input, and the command line against the Python API.

    python benches/scale_bench.py [--sections files,engines,arrow,cli] [--sizes 1000000,10000000]
                                  [--engine-rows 2000000] [--engine-repeats 3]
                                  [--engines single,spark,spark-files,ray,ray-files,dask] [--workdir DIR]

Data: real WMT22 en-de system outputs (all 9 systems, 18,333 distinct hypotheses) against reference A,
repeated in order to the length wanted — repeated real lines, not synthetic text. Every timed command runs in
a fresh child process so its peak resident set (``ru_maxrss``) is its own; times are wall-clock seconds on this
shared machine (see the machine line printed first). Prints Markdown tables for ``benches/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_data import wmt22_pair
from harness import best_of, machine_description


def real_pairs() -> list:
    """(hypothesis, reference A) of every WMT22 en-de system, system after system."""
    systems, reference = wmt22_pair("en-de")
    return [(hyp, ref) for name in sorted(systems) for hyp, ref in zip(systems[name], reference)]


def write_text(pairs: list, rows: int, hyp_path: Path, ref_path: Path) -> None:
    if hyp_path.exists() and ref_path.exists():
        return
    with open(hyp_path, "w", encoding="utf-8") as hyps, open(ref_path, "w", encoding="utf-8") as refs:
        for block in _blocks(pairs, rows):
            hyps.write("".join(h + "\n" for h, _ in block))
            refs.write("".join(r + "\n" for _, r in block))


def write_parquet(pairs: list, rows: int, path: Path, row_group: int = 131_072) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    schema = pa.schema([("id", pa.int64()), ("hyp", pa.string()), ("ref", pa.string())])
    with pq.ParquetWriter(path, schema) as writer:
        start = 0
        for block in _blocks(pairs, rows, row_group):
            writer.write_table(pa.table({"id": range(start, start + len(block)), "hyp": [h for h, _ in block],
                                         "ref": [r for _, r in block]}, schema=schema))
            start += len(block)


def _blocks(pairs: list, rows: int, size: int = 100_000):
    cycle = itertools.islice(itertools.cycle(pairs), rows)
    while True:
        block = list(itertools.islice(cycle, size))
        if not block:
            return
        yield block


def run_child(argv: list, env: dict | None = None) -> tuple:
    """(seconds, peak RSS in MB, stdout) of a command run in a fresh child process."""
    code = ("import resource, subprocess, sys, time; start = time.perf_counter(); "
            f"out = subprocess.run({argv!r}, check=True, capture_output=True, text=True).stdout; "
            "print(repr((time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, out)))")
    result = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                            env={**os.environ, **(env or {})})
    seconds, rss_kb, out = eval(result.stdout.strip().splitlines()[-1])  # our own repr, from our own child
    return seconds, rss_kb / 1024, out


def cli(*args: str) -> list:
    return [sys.executable, "-m", "nlgmetrics", *args]


# ---------------------------------------------------------------------------------------------

def section_files(pairs, sizes, workdir: Path, inputs: tuple = ("text files", "Parquet"),
                  metrics: tuple = ("bleu", "chrf")) -> None:
    print("\n### Corpus scores of large files (fresh process each; corpus score only)\n")
    print("| metric | input | segments | seconds | µs/segment | peak RSS (MB) | score |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for rows in sizes:
        hyp, ref, parquet = workdir / f"hyp.{rows}.txt", workdir / f"ref.{rows}.txt", workdir / f"wmt.{rows}.parquet"
        write_text(pairs, rows, hyp, ref)
        write_parquet(pairs, rows, parquet)
        for metric in metrics:
            for label, argv in (("text files", cli(metric, "-r", str(ref), "-i", str(hyp), "-f", "json")),
                                ("Parquet", cli("score", str(parquet), "-m", metric, "--hyp", "hyp", "--ref", "ref",
                                                "-f", "json"))):
                if label not in inputs:
                    continue
                seconds, rss, out = run_child(argv)
                print(f"| {metric} | {label} | {rows:,} | {seconds:.1f} | {seconds / rows * 1e6:.2f} | {rss:.0f} | "
                      f"{_first_score(out):.4f} |", flush=True)


def _first_score(out: str) -> float:
    data = json.loads(out)
    while isinstance(data, list):
        data = data[0]
    if "score" in data:
        return float(data["score"])
    for value in data.values():
        if isinstance(value, dict) and "score" in value:
            return float(value["score"])
        if isinstance(value, list) and value and isinstance(value[0], dict) and "score" in value[0]:
            return float(value[0]["score"])
    raise ValueError(f"no score in {out[:200]}")


ENGINE_CODE = r"""
import sys, time, json
engine, path, warm, metric = sys.argv[1:5]
import pyarrow.parquet as pq
start = time.perf_counter()
if engine == "single":
    import nlgmetrics

    def run(source):
        m = nlgmetrics.metric(metric, segments=False)
        for batch in pq.ParquetFile(source, pre_buffer=False).iter_batches(batch_size=65536, columns=["hyp", "ref"]):
            m.update(batch.column("hyp"), batch.column("ref"))
        return m.compute()
elif engine.startswith("spark"):
    import os
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.python.worker.reuse", "true").config("spark.driver.memory", "2g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    import nlgmetrics.spark

    if engine == "spark-files":  # the files' row groups read by Spark's Python workers (no JVM data path)
        def run(source):
            return nlgmetrics.spark.score_parquet(source, metric, hyp="hyp", refs=["ref"], spark=spark)
    else:
        def run(source):
            return nlgmetrics.spark.score(spark.read.parquet(source), metric, hyp="hyp", refs=["ref"])  # 2 partitions as read
elif engine == "dask":  # the threaded scheduler (the default): the Rust core releases the GIL
    import dask.dataframe as dd
    import nlgmetrics.dask

    def run(source):
        return nlgmetrics.dask.score(dd.read_parquet(source, split_row_groups=True), metric, hyp="hyp", refs=["ref"])
else:
    import os
    if engine == "ray-1-footer-reader":  # Ray Data's Parquet listing starts 32 footer-reader actors a read by default
        os.environ["RAY_DATA_PARQUET_FOOTER_NUM_ACTORS"] = "1"
    import ray, ray.data
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    import nlgmetrics.ray

    if engine == "ray-files":  # the files' row groups read by Ray tasks (no Ray Data)
        def run(source):
            return nlgmetrics.ray.score_parquet(source, metric, hyp="hyp", refs=["ref"])
    else:
        def run(source):
            return nlgmetrics.ray.score(ray.data.read_parquet(source, override_num_blocks=2), metric, hyp="hyp",
                                        refs=["ref"])
for _ in range(2):  # start-up: workers up, readers and nlgmetrics imported where they run (a 2,000-row file)
    run(warm)
setup = time.perf_counter() - start
start = time.perf_counter()
result = run(path)
print(json.dumps({"seconds": time.perf_counter() - start, "setup": setup, "score": result.score}))
"""


def section_engines(pairs, rows: int, workdir: Path, repeats: int = 1, engines: tuple = ("single", "spark", "ray"),
                    metrics: tuple = ("bleu", "chrf")) -> None:
    """Each engine in a fresh process, ``repeats`` rounds taken in turn (so the machine's load falls on all alike);
    the fastest round of each is reported, and every round's score must be the single-process one."""
    parquet, warm = workdir / f"wmt.{rows}.parquet", workdir / "wmt.warm-up.parquet"
    write_parquet(pairs, rows, parquet, row_group=rows // 8)
    write_parquet(pairs, 2000, warm, row_group=500)
    print(f"\n### Spark, Ray and Dask on 2 workers vs one process ({rows:,} segments from Parquet, same 2 cores, "
          f"best of {repeats})\n")
    print("| metric | engine | seconds (start-up excluded) | every round | start-up | vs one process | score | identical |")
    print("|---|---|---:|---|---:|---:|---:|---|")
    for metric in metrics:
        runs: dict = {engine: [] for engine in engines}
        for _ in range(repeats):
            for engine in engines:
                _, _, out = run_child([sys.executable, "-c", ENGINE_CODE, engine, str(parquet), str(warm), metric])
                runs[engine].append(json.loads(out.strip().splitlines()[-1]))
        single = min(run["seconds"] for run in runs[engines[0]])
        reference = runs[engines[0]][0]["score"]
        for engine in engines:
            best = min(runs[engine], key=lambda run: run["seconds"])
            identical = all(run["score"] == reference for run in runs[engine])
            rounds = ", ".join(f"{run['seconds']:.2f}" for run in runs[engine])
            print(f"| {metric} | {engine} | {best['seconds']:.2f} | {rounds} | {best['setup']:.1f} | "
                  f"{best['seconds'] / single:.2f}x | {best['score']!r} | {identical} |", flush=True)


def section_arrow(pairs, rows: int) -> None:
    import numpy as np  # noqa: F401
    import pyarrow as pa

    import nlgmetrics
    from nlgmetrics import _core
    from nlgmetrics.io.columns import text_batch

    block = list(itertools.islice(itertools.cycle(pairs), rows))
    hyps, refs = [h for h, _ in block], [r for _, r in block]
    table = pa.table({"hyp": hyps, "ref": refs})
    ref_lists = [[r] for r in refs]

    print(f"\n### Arrow columns vs Python lists ({rows:,} segments, in one process, best of 3)\n")
    print("| metric | call | list of str | Arrow column | Arrow → to_pylist() → list | list / Arrow | to_pylist / Arrow |")
    print("|---|---|---:|---:|---:|---:|---:|")
    bleu = _core.SegmentScorer("bleu", {"tokenize": "13a", "max_order": 4, "smooth": "exp", "smooth_value": None,
                                        "effective_order": False, "weights": None})
    chrf = _core.SegmentScorer("chrf", {"char_order": 6, "word_order": 0, "beta": 2, "whitespace": False,
                                        "eps_smoothing": False})
    for metric, kernel in (("bleu", bleu.segment_stats), ("chrf", chrf.segment_stats)):
        as_list = best_of(lambda: kernel(hyps, ref_lists))
        as_arrow = best_of(lambda: (lambda b: kernel(b.hypotheses, b.references))(
            text_batch(table.column("hyp"), table.column("ref"))))
        via_pylist = best_of(lambda: kernel(table.column("hyp").to_pylist(), [[r] for r in table.column("ref").to_pylist()]))
        print(f"| {metric} | segment statistics (`_core`) | {as_list:.3f} | {as_arrow:.3f} | {via_pylist:.3f} | "
              f"{as_list / as_arrow:.2f} | {via_pylist / as_arrow:.2f} |", flush=True)
    as_list = best_of(lambda: nlgmetrics.bleu(hyps, refs))
    as_arrow = best_of(lambda: nlgmetrics.bleu(table.column("hyp"), table.column("ref")))
    via_pylist = best_of(lambda: nlgmetrics.bleu(table.column("hyp").to_pylist(), table.column("ref").to_pylist()))
    print(f"| bleu | `nlgmetrics.bleu` | {as_list:.3f} | {as_arrow:.3f} | {via_pylist:.3f} | {as_list / as_arrow:.2f} | "
          f"{via_pylist / as_arrow:.2f} |", flush=True)


API_CODE = r"""
import sys, time
hyp, ref = sys.argv[1:3]
read = lambda p: open(p, encoding="utf-8").read().split("\n")[:-1]
hyps, refs = read(hyp), read(ref)
import nlgmetrics
nlgmetrics.bleu(hyps[:10], refs[:10])
start = time.perf_counter()
result = nlgmetrics.bleu(hyps, refs)
print(time.perf_counter() - start, result.score)
"""


def section_cli(pairs, rows: int, workdir: Path) -> None:
    hyp, ref = workdir / f"hyp.{rows}.txt", workdir / f"ref.{rows}.txt"
    write_text(pairs, rows, hyp, ref)
    cli_seconds, cli_rss, out = run_child(cli("bleu", "-r", str(ref), "-i", str(hyp), "-f", "json"))
    _, _, api_out = run_child([sys.executable, "-c", API_CODE, str(hyp), str(ref)])
    api_seconds, api_score = map(float, api_out.split())
    print(f"\n### Command line vs Python API, BLEU on {rows:,} lines\n")
    print("| how | seconds | µs/segment | ratio | score |\n|---|---:|---:|---:|---:|")
    print(f"| `nlgmetrics.bleu(hyps, refs)` (lists in memory; call only) | {api_seconds:.2f} | "
          f"{api_seconds / rows * 1e6:.2f} | 1.00 | {api_score:.4f} |")
    print(f"| `nlgmetrics bleu -r REF -i HYP` (whole process: start-up, reading, scoring; peak RSS {cli_rss:.0f} MB) | "
          f"{cli_seconds:.2f} | {cli_seconds / rows * 1e6:.2f} | {cli_seconds / api_seconds:.2f} | {_first_score(out):.4f} |",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sections", default="files,engines,arrow,cli")
    parser.add_argument("--sizes", default="1000000,10000000")
    parser.add_argument("--file-inputs", default="text files,Parquet", help="inputs of the files section")
    parser.add_argument("--file-metrics", default="bleu,chrf")
    parser.add_argument("--engine-rows", type=int, default=2_000_000)
    parser.add_argument("--engine-repeats", type=int, default=3, help="rounds of the engine comparison (best taken)")
    parser.add_argument("--engines", default="single,spark,spark-files,ray,ray-files,dask", help="engines compared (the first is the baseline)")
    parser.add_argument("--engine-metrics", default="bleu,chrf")
    parser.add_argument("--arrow-rows", type=int, default=1_000_000)
    parser.add_argument("--cli-rows", type=int, default=1_000_000)
    parser.add_argument("--workdir", default=None, help="where the big files are kept (default: a temporary folder)")
    args = parser.parse_args()
    sections = args.sections.split(",")
    print(f"Machine: {machine_description()}; Python {sys.version.split()[0]}")
    pairs = real_pairs()
    with tempfile.TemporaryDirectory() as temporary:
        workdir = Path(args.workdir or temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        if "files" in sections:
            section_files(pairs, [int(s) for s in args.sizes.split(",")], workdir, tuple(args.file_inputs.split(",")),
                          tuple(args.file_metrics.split(",")))
        if "engines" in sections:
            section_engines(pairs, args.engine_rows, workdir, args.engine_repeats, tuple(args.engines.split(",")),
                            tuple(args.engine_metrics.split(",")))
        if "arrow" in sections:
            section_arrow(pairs, args.arrow_rows)
        if "cli" in sections:
            section_cli(pairs, args.cli_rows, workdir)


if __name__ == "__main__":
    main()
