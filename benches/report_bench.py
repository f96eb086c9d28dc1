"""The HTML report against compare-mt's, side by side on WMT22 zh→en (12 systems × 1,875 segments, 2 references).

    python benches/report_bench.py [--systems 12] [--repeats 3] [--skip-compare-mt]

nlgmetrics: ``nlgmetrics.report`` with BLEU, chrF, TER and ROUGE-1/2/L, 1,000 paired bootstrap samples,
written to a file. compare-mt 0.2.10: its command line with BLEU only (``--compare_scores
score_type=bleu,bootstrap=1000``) and its default analyses (word accuracy, sentence buckets, n-grams, examples),
printed as text — its HTML output (``--output_directory``) stops with an IndexError beyond 8 systems
(``reporters.bar_colors`` has 8 colours) — on the same systems pre-tokenized with 13a (compare-mt expects
tokenized text; the tokenization is not timed) and reference A (it takes one reference). Both run in fresh
processes, so import and start-up count for both; the best of ``--repeats`` runs counts for ours, one run for
compare-mt (minutes). CPU seconds (user + system) are printed beside wall time: the machine is shared.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _test_data import data_root  # the tests' evaluation data, unpacked once
from harness import machine_description

DATA = data_root() / "mt" / "wmt22" / "zh-en"
OURS = """
import sys
from pathlib import Path
import nlgmetrics
refs, out, hyps = sys.argv[1:3], sys.argv[3], sys.argv[4:]
read = lambda p: Path(p).read_text(encoding="utf-8").split("\\n")[:-1]
references = list(zip(*[read(p) for p in refs]))
systems = {Path(p).name.split(".hyp.")[1]: read(p) for p in hyps}
nlgmetrics.report(systems, references, metrics=["bleu", "chrf", "ter", "rouge"], n_samples=1000, path=out)
"""


def timed(command: list) -> tuple:
    """(wall seconds, CPU seconds) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--systems", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-compare-mt", action="store_true")
    args = parser.parse_args()
    hyps = sorted(DATA.glob("generaltest2022.zh-en.hyp.*"))[:args.systems]
    refs = [DATA / "generaltest2022.zh-en.ref.A.en", DATA / "generaltest2022.zh-en.ref.B.en"]
    n_segments = len(refs[0].read_text(encoding="utf-8").split("\n")) - 1
    print(f"Machine: {machine_description()}")
    print(f"Data: WMT22 zh-en, {len(hyps)} systems x {n_segments} segments")
    with tempfile.TemporaryDirectory() as work:
        ours = min(timed([sys.executable, "-c", OURS, *map(str, refs), f"{work}/report.html", *map(str, hyps)])
                   for _ in range(args.repeats))
        print(f"nlgmetrics report (BLEU, chrF, TER, ROUGE-1/2/L, 2 refs, 1000 bootstrap): {ours[0]:.2f} s wall, "
              f"{ours[1]:.2f} s CPU")
        if args.skip_compare_mt:
            return
        import nlgmetrics

        tokenized = []
        for path in [refs[0], *hyps]:
            lines = path.read_text(encoding="utf-8").split("\n")[:-1]
            target = Path(work) / (path.name + ".tok")
            target.write_text("\n".join(nlgmetrics.tokenize(lines, "13a")) + "\n", encoding="utf-8")
            tokenized.append(str(target))
        theirs = timed([sys.executable, "-m", "compare_mt.compare_mt_main", tokenized[0], *tokenized[1:],
                        "--compare_scores", "score_type=bleu,bootstrap=1000", "--seed", "1"])
        print(f"compare-mt 0.2.10 (BLEU only, 1 ref, 1000 bootstrap, default analyses): {theirs[0]:.2f} s wall, "
              f"{theirs[1]:.2f} s CPU")
        print(f"ratio compare-mt / nlgmetrics: {theirs[0] / ours[0]:.1f}x wall, {theirs[1] / ours[1]:.1f}x CPU")


if __name__ == "__main__":
    main()
