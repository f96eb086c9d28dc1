"""Shared fixtures: the real evaluation data (tests/data/evaluation, unpacked once: see _test_data.py), the
Spark session and the Ray cluster."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _test_data import data_root, describe

REPO = Path(__file__).resolve().parent.parent
#: The evaluation data's folder (``NLGMETRICS_SHARED_DATA`` when it names one, else the repository's copy).
SHARED_DATA = data_root()


def pytest_report_header(config):
    return describe(SHARED_DATA)


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 text file, without their newlines (one segment per line)."""
    with open(path, encoding="utf-8") as handle:
        return handle.read().split("\n")[:-1] if path.stat().st_size else []


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of the real evaluation data (layout and sources: tests/data/evaluation/MANIFEST.md)."""
    return SHARED_DATA


def java_missing_reason(java_home: bool = False):
    """Why no JVM can start here, or None when one can: no ``java`` on ``PATH`` (the jars' runners call it by
    name) or, with ``java_home`` (PySpark looks there first), none in ``$JAVA_HOME/bin`` either."""
    home = os.environ.get("JAVA_HOME")
    if shutil.which("java") or (java_home and home and (Path(home) / "bin" / "java").is_file()):
        return None
    where = "on PATH or in JAVA_HOME" if java_home else "on PATH"
    return f"Java is not installed (no java {where}): install a JDK 17, e.g. apt-get install openjdk-17-jre-headless"


@pytest.fixture(scope="session")
def spark():
    """One local[2] Spark session for every test marked ``spark`` (start-up costs seconds: paid once)."""
    pytest.importorskip("pyspark")
    reason = java_missing_reason(java_home=True)
    if reason:
        pytest.skip(f"Spark needs Java: {reason}")
    import sys

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # executors run this interpreter (and its nlgmetrics)
    session = (SparkSession.builder.master("local[2]").appName("nlgmetrics-tests")
               .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.memory", "1g").config("spark.python.worker.reuse", "true")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def ray_cluster():
    """One local Ray instance with 2 CPUs for every test marked ``ray``."""
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.data")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in __import__("sys").path if p)}})
    import ray.data

    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


@pytest.fixture(scope="session")
def wmt22_two_refs(shared_data):
    """WMT22 en-de: system Online-B's hypotheses and references A and B (2037 segments each)."""
    folder = shared_data / "mt" / "wmt22" / "en-de"
    hyps = read_lines(folder / "generaltest2022.en-de.hyp.Online-B.de")
    ref_a = read_lines(folder / "generaltest2022.en-de.ref.A.de")
    ref_b = read_lines(folder / "generaltest2022.en-de.ref.B.de")
    return hyps, ref_a, ref_b


@pytest.fixture(scope="session")
def wmt22_parquet_folder(wmt22_two_refs, tmp_path_factory):
    """WMT22 en-de (``wmt22_two_refs``) as a folder of three Parquet files of uneven row groups (columns id,
    hyp, ref_a, ref_b and the list column refs), beside the ``_SUCCESS`` and ``.crc`` files Spark writes;
    the data files' rows in path order are the corpus in order."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    hyps, ref_a, ref_b = wmt22_two_refs
    folder = tmp_path_factory.mktemp("wmt22-parquet")
    cuts = [0, 700, 1500, len(hyps)]
    for number, (start, end) in enumerate(zip(cuts, cuts[1:])):
        table = pa.table({"id": range(start, end), "hyp": hyps[start:end], "ref_a": ref_a[start:end],
                          "ref_b": ref_b[start:end], "refs": [[a, b] for a, b in zip(ref_a[start:end], ref_b[start:end])]})
        pq.write_table(table, folder / f"part-{number:05d}.parquet", row_group_size=(250, 97, 400)[number])
        (folder / f".part-{number:05d}.parquet.crc").write_bytes(b"not parquet")
    (folder / "_SUCCESS").write_bytes(b"")
    return folder
