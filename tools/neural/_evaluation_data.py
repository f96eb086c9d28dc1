"""Where the tools find the real evaluation data: the tests' own copy (tests/data/evaluation, unpacked once by
tests/_test_data.py; ``NLGMETRICS_SHARED_DATA`` overrides), so they run from a plain clone."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def evaluation_data() -> Path:
    sys.path.insert(0, str(REPO / "tests"))
    from _test_data import data_root

    return data_root()
