"""BERTScore and COMET on Spark and Ray (local mode): the model is loaded in the workers, the states merge,
and the result equals the anchor's recorded numbers (tests/_neural.py). Marked ``spark`` / ``ray``."""

from __future__ import annotations

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("onnxruntime")

from _neural import COMET_MODELS, MODELS, TOLERANCE, input_set, oracle  # noqa: E402


def _comet_case():
    call = next(c for c in oracle("comet")["calls"] if c["id"] == "tiny-da-softmax/wmt22_en_de")
    data = input_set(call["set"])
    return call, pa.table({"mt": data["hyps"], "ref": data["refs"], "src": data["srcs"]})


def _bertscore_case():
    call = next(c for c in oracle("bertscore")["calls"] if c["id"] == "tiny-roberta/wmt22_en_de/L2/idf")
    data = input_set(call["set"])
    return call, pa.table({"hyp": data["hyps"], "ref": data["refs"]})


COMET_OPTIONS = {"model": str(COMET_MODELS / "tiny-da-softmax"), "encoder": str(MODELS / "tiny-xlmr")}


@pytest.mark.ray
def test_ray_comet_and_bertscore(ray_cluster):
    import ray.data

    import nlgmetrics.ray

    call, table = _comet_case()
    result = nlgmetrics.ray.score(ray.data.from_arrow(table).repartition(3), "comet", hyp="mt", refs="ref", src="src",
                                  **COMET_OPTIONS)
    assert np.abs(np.sort(result.segment_scores) - np.sort(call["scores"])).max() <= TOLERANCE
    call, table = _bertscore_case()
    result = nlgmetrics.ray.score(ray.data.from_arrow(table).repartition(3), "bertscore", hyp="hyp", refs="ref",
                                  model=str(MODELS / "tiny-roberta"), num_layers=2, idf=True)
    assert np.abs(np.sort(result.segment_scores[:, 2]) - np.sort(call["F"])).max() <= TOLERANCE


@pytest.mark.spark
def test_spark_comet_and_bertscore(spark):
    import nlgmetrics.spark

    call, table = _comet_case()
    frame = spark.createDataFrame(table.to_pandas()).repartition(3)
    result = nlgmetrics.spark.score(frame, "comet", hyp="mt", refs="ref", src="src", **COMET_OPTIONS)
    assert np.abs(np.sort(result.segment_scores) - np.sort(call["scores"])).max() <= TOLERANCE
    assert result.score == pytest.approx(call["system_score"], abs=TOLERANCE)
    call, table = _bertscore_case()
    frame = spark.createDataFrame(table.to_pandas()).repartition(3)
    result = nlgmetrics.spark.score(frame, "bertscore", hyp="hyp", refs="ref", model=str(MODELS / "tiny-roberta"),
                                    num_layers=2, idf=True)
    assert result.f1 == pytest.approx(float(np.mean(call["F"])), abs=TOLERANCE)
