"""Shared fixtures: paths to the real evaluation data in ../shared/data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("NLGMETRICS_SHARED_DATA", REPO.parent / "shared" / "data"))


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 text file, without their newlines (one segment per line)."""
    with open(path, encoding="utf-8") as handle:
        return handle.read().split("\n")[:-1] if path.stat().st_size else []


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared evaluation data not found at {SHARED_DATA}")
    return SHARED_DATA
