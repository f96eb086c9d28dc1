"""Where model folders are found (never fetched behind the user's back) and the bounded encoding cache."""

from __future__ import annotations

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.neural import cache, models


def test_a_path_then_the_models_folder_then_the_hub_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("NLGMETRICS_MODELS", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    direct = tmp_path / "direct"
    direct.mkdir()
    assert models.find_model(str(direct)) == direct
    folder = tmp_path / "models"
    (folder / "Unbabel--wmt22-comet-da").mkdir(parents=True)
    monkeypatch.setenv("NLGMETRICS_MODELS", str(folder))
    assert models.find_model("Unbabel/wmt22-comet-da").name == "Unbabel--wmt22-comet-da"
    repo = tmp_path / "hub" / "models--xlm-roberta-large"
    (repo / "snapshots" / "abc123").mkdir(parents=True)
    (repo / "snapshots" / "old").mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123\n")
    assert models.find_model("xlm-roberta-large") == repo / "snapshots" / "abc123"


def test_nothing_is_downloaded_unless_allowed(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv("NLGMETRICS_MODELS", raising=False)
    monkeypatch.delenv("NLGMETRICS_ALLOW_DOWNLOAD", raising=False)
    with pytest.raises(FileNotFoundError, match=r"not found: looked in .*models--roberta-large.*allow_download=True"):
        models.find_model("roberta-large")
    # a gated, non-commercial checkpoint is refused even with allow_download=True unless named explicitly
    with pytest.raises(FileNotFoundError, match="gated / non-commercial"):
        models.find_model("Unbabel/wmt22-cometkiwi-da", allow_download=True)
    assert models._download_allowed("Unbabel/wmt22-cometkiwi-da", True) is False
    monkeypatch.setenv("NLGMETRICS_ALLOW_DOWNLOAD", "Unbabel/wmt22-cometkiwi-da")
    assert models._download_allowed("Unbabel/wmt22-cometkiwi-da", False) is True
    with pytest.raises(TypeError, match="model"):
        models.find_model(None)


def test_weights_fingerprint_is_remembered_by_size_and_time(tmp_path, monkeypatch):
    monkeypatch.setenv("NLGMETRICS_CACHE", str(tmp_path / "cache"))
    weights = tmp_path / "w.bin"
    weights.write_bytes(b"abc")
    first = models.weights_fingerprint(weights)
    assert (tmp_path / "cache" / "hashes.json").is_file()
    assert models.weights_fingerprint(weights) == first and len(first) == 12
    weights.write_bytes(b"abd")
    assert models.weights_fingerprint(weights) != first


def test_cache_is_bounded_in_bytes_and_clears():
    store = cache.EncodingCache(limit_bytes=1000)
    for index in range(10):
        store.put(("m", "p", index), np.zeros(50, dtype=np.float32))   # 200 bytes each
    assert store.info()["bytes"] <= 1000 and store.info()["entries"] == 5
    assert store.get(("m", "p", 0)) is None and store.get(("m", "p", 9)) is not None
    store.put(("m", "p", "huge"), np.zeros(1000, dtype=np.float32))     # larger than the bound: not kept
    assert store.get(("m", "p", "huge")) is None
    with pytest.raises(ValueError):
        store.get(("m", "p", 9))[0] = 1.0                                # entries are read-only
    store.clear()
    assert store.info()["entries"] == 0
    nlgmetrics.clear_neural_cache()
    assert cache.info()["entries"] == 0


@pytest.mark.parametrize("value", ["lots", "-1", "1e40"])
def test_a_bad_cache_size_is_a_clear_error(monkeypatch, value):
    monkeypatch.setenv("NLGMETRICS_NEURAL_CACHE_MB", value)
    with pytest.raises(ValueError, match="NLGMETRICS_NEURAL_CACHE_MB"):
        cache.EncodingCache()
