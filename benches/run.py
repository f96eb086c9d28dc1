"""Run every benchmark case side by side with the peers and write benches/RESULTS.md.

    python benches/run.py [--only bleu,chrf,...] [--out benches/RESULTS.md]

Peers come from `pip install ".[bench]"`. A case whose peer or metric is not installed is skipped
and says so. Data: the real WMT22/WMT17, CNN/DM and Flickr30k files of tests/data/evaluation
(NLGMETRICS_SHARED_DATA overrides).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import cases
from harness import markdown_report, run_case


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="", help="comma-separated case groups (default: all)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "RESULTS.md"))
    args = parser.parse_args()
    groups = [g for g in args.only.split(",") if g] or list(cases.GROUPS)
    timings, skipped = [], []
    for group in groups:
        for case_or_reason in cases.GROUPS[group]():
            if isinstance(case_or_reason, str):
                skipped.append(case_or_reason)
                print("skipped:", case_or_reason)
            else:
                timings.append(run_case(case_or_reason))
    header = (f"# Benchmark results\n\nRun {datetime.date.today().isoformat()} with `python benches/run.py`; "
              "best of repeats, contenders interleaved in one process; speed-up = peer time / nlgmetrics time. "
              "nlgmetrics uses all cores (rayon); the peers are single-threaded Python unless noted.")
    report = markdown_report(timings, header)
    if skipped:
        report += "\nSkipped:\n" + "\n".join(f"- {reason}" for reason in skipped) + "\n"
    Path(args.out).write_text(report, encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
