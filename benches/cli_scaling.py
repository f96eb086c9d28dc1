"""Command-line BLEU on growing files: wall time and peak memory, to show both stay linear and bounded.

    python benches/cli_scaling.py [--sizes 100000,300000,1000000]

The files are real WMT22 en-de segments (system Online-B vs reference A) repeated to the wanted
length — repeated real data, not synthetic text. Each size runs `nlgmetrics bleu` in a fresh process;
peak memory is that child's maximum resident set size.
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_data import wmt22_pair


def write_repeated(lines: list[str], count: int, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for line in itertools.islice(itertools.cycle(lines), count):
            handle.write(line + "\n")


def run_once(hyp: Path, ref: Path) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one `nlgmetrics bleu` run in a child process."""
    start = time.perf_counter()
    # A fresh interpreter per size so ru_maxrss is that run's own peak.
    code = ("import resource, subprocess, sys; "
            f"subprocess.run([sys.executable, '-m', 'nlgmetrics.cli', 'bleu', '-r', {str(ref)!r}, '-i', {str(hyp)!r}], check=True, stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, int(out.strip()) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100000,300000,1000000")
    args = parser.parse_args()
    systems, reference = wmt22_pair("en-de")
    hypotheses = systems["Online-B"]
    print("| lines | seconds | µs/line | peak RSS (MB) |\n|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for size in (int(s) for s in args.sizes.split(",")):
            hyp, ref = Path(folder) / "hyp.txt", Path(folder) / "ref.txt"
            write_repeated(hypotheses, size, hyp)
            write_repeated(reference, size, ref)
            seconds, peak_mb = run_once(hyp, ref)
            print(f"| {size:,} | {seconds:.2f} | {seconds / size * 1e6:.2f} | {peak_mb:.0f} |", flush=True)


if __name__ == "__main__":
    main()
