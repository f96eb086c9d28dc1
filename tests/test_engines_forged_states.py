"""Spark and Ray merge the partitions' states on the driver: a forged state coming back from a worker is refused
there with a ValueError, as Dask's is (tests/test_hostile_round2.py). The workers run a scorer whose state is
forged — its class travels to them by value (cloudpickle), so the real workers really send it."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.core.state import MetricState
from nlgmetrics.io.partitions import PartitionScorer

pa = pytest.importorskip("pyarrow")


def forged_bleu_state() -> bytes:
    """A BLEU totals state (as a worker sends it) whose unigram matches exceed their totals."""
    real = nlgmetrics.metric("bleu", segments=False).update(["a b c d"] * 4, ["a b c d"] * 4).state()
    totals = np.array(real.arrays["totals"])
    totals[2] = totals[6] + 3
    state = MetricState("bleu", real.options, {"totals": totals}, {"totals": "sum"}, 4, (1,))
    payload = state.to_bytes()
    return len(payload).to_bytes(8, "little") + payload


class ForgingScorer(PartitionScorer):
    """A partition scorer that sends a forged state (what a broken or hostile worker could send)."""

    def state_bytes(self, batches):
        for _ in batches:
            pass
        return forged_bleu_state()


def _forging(real_scorer_factory):
    def make(*args, **kwargs):
        scorer = real_scorer_factory(*args, **kwargs)
        forged = ForgingScorer.__new__(ForgingScorer)
        forged.__dict__.update(scorer.__dict__)
        return forged
    return make


@pytest.fixture
def by_value():
    """This module's classes pickled by value by each engine's own cloudpickle (Spark and Ray vendor one)."""
    import importlib

    module = sys.modules[__name__]
    picklers = []
    for name in ("cloudpickle", "pyspark.cloudpickle", "ray.cloudpickle"):
        try:
            picklers.append(importlib.import_module(name))
        except ImportError:
            continue
    for pickler in picklers:
        pickler.register_pickle_by_value(module)
    yield
    for pickler in picklers:
        pickler.unregister_pickle_by_value(module)


@pytest.mark.spark
def test_spark_refuses_a_forged_partition_state(spark, monkeypatch, by_value):
    import nlgmetrics.spark

    monkeypatch.setattr(nlgmetrics.spark, "_scorer", _forging(nlgmetrics.spark._scorer))
    frame = spark.createDataFrame([("a b c d", "a b c d")] * 4, "hyp string, ref string").repartition(2)
    with pytest.raises(ValueError, match="matches_1 exceeds totals_1"):
        nlgmetrics.spark.score(frame, "bleu", hyp="hyp", refs="ref")


@pytest.mark.ray
def test_ray_refuses_a_forged_partition_state(ray_cluster, monkeypatch, by_value):
    import ray.data

    import nlgmetrics.ray

    monkeypatch.setattr(nlgmetrics.ray, "_scorer", _forging(nlgmetrics.ray._scorer))
    dataset = ray.data.from_arrow(pa.table({"hyp": ["a b c d"] * 4, "ref": ["a b c d"] * 4}))
    with pytest.raises(ValueError, match="matches_1 exceeds totals_1"):
        nlgmetrics.ray.score(dataset, "bleu", hyp="hyp", refs="ref", threads=1)
