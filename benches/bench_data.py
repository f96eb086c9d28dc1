"""The benchmarks' data: the tests' evaluation data (tests/_test_data.py, unpacked once) and its WMT22 readers.

Every workload module (cases.py, cases_nltk_mt.py) and the scaling scripts read their data here, so no workload
module imports another.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _test_data import data_root  # the tests' evaluation data, unpacked once

SHARED = data_root()
WMT22 = SHARED / "mt" / "wmt22"


def read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as handle:
        return [line.rstrip("\n") for line in handle]


def wmt22_pair(pair: str = "en-de"):
    """(system name → hypotheses, reference A lines) for one WMT22 pair."""
    folder = WMT22 / pair
    target = pair.split("-")[1]
    reference = read_lines(folder / f"generaltest2022.{pair}.ref.A.{target}")
    systems = {p.name.split(".hyp.")[1][: -len(target) - 1]: read_lines(p) for p in sorted(folder.glob(f"*.hyp.*.{target}"))}
    return systems, reference
