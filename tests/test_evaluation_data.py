"""The evaluation data the tests read: the repository's xz store (tests/data/evaluation), its unpacking into
the cache, and every way a damaged store is reported. The round-trip and error tests use small synthetic
trees (labelled so); the first test checks the real store as unpacked for this run."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import os
from pathlib import Path

import _test_data as store_module
import pytest
from _test_data import INDEX_NAME, StoreError, content, data_root, describe, install, materialize, read_index, unpack
from conftest import SHARED_DATA

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def _pack_module():
    spec = importlib.util.spec_from_file_location("pack_test_data", TOOLS / "pack_test_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def packer():
    return _pack_module()


@pytest.fixture
def synthetic_source(tmp_path):
    """A synthetic source tree: a text file, a nested binary file, a gzip file (as the oracle TSVs are)."""
    source = tmp_path / "source"
    (source / "mt" / "deep").mkdir(parents=True)
    (source / "mt" / "a.txt").write_text("first line\nsecond line\n", encoding="utf-8")
    (source / "mt" / "deep" / "b.bin").write_bytes(os.urandom(5000))  # incompressible: several parts below
    (source / "scores.tsv.gz").write_bytes(gzip.compress(b"system\tscore\nA\t1.0\n"))
    (source / "MANIFEST.md").write_text("not data\n")
    return source


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_this_runs_data_is_the_store_unpacked_and_complete():
    entries = read_index(store_module.STORE)
    assert len(entries) == 103
    every_part = {part for entry in entries for part in entry.stored}
    assert all((store_module.STORE / part).stat().st_size <= 1_000_000 for part in every_part)  # no file over 1 MB
    for entry in entries:
        data = (SHARED_DATA / entry.path).read_bytes()
        if entry.path.endswith(".gz"):
            data = gzip.decompress(data)
        assert (len(data), _digest(data)) == (entry.size, entry.sha256), entry.path


def test_pack_then_unpack_gives_the_same_tree(packer, synthetic_source, tmp_path, monkeypatch):
    monkeypatch.setattr(packer, "PART_BYTES", 2048)
    store = tmp_path / "store"
    entries = packer.pack(synthetic_source, store)
    assert [entry.path for entry in entries] == ["mt/a.txt", "mt/deep/b.bin", "scores.tsv.gz"]
    assert entries[1].stored == ("mt/deep/b.bin.xz.00", "mt/deep/b.bin.xz.01", "mt/deep/b.bin.xz.02")
    assert entries[2].stored == ("scores.tsv.xz",)  # a .gz file's content, gunzipped, in xz
    assert packer.check(synthetic_source, store) == []
    target = tmp_path / "unpacked"
    assert unpack(store, target) == 3
    for relative in ("mt/a.txt", "mt/deep/b.bin"):
        assert (target / relative).read_bytes() == (synthetic_source / relative).read_bytes()
    assert gzip.decompress((target / "scores.tsv.gz").read_bytes()) == b"system\tscore\nA\t1.0\n"
    assert not (target / "MANIFEST.md").exists()


def test_check_names_each_difference(packer, synthetic_source, tmp_path):
    store = tmp_path / "store"
    packer.pack(synthetic_source, store)
    (synthetic_source / "mt" / "a.txt").write_text("changed\n")
    (synthetic_source / "new.txt").write_text("new\n")
    (synthetic_source / "mt" / "deep" / "b.bin").unlink()
    assert packer.check(synthetic_source, store) == [
        "mt/a.txt: content differs from the store",
        "new.txt: not in the store",
        f"mt/deep/b.bin: in the store but not in {synthetic_source}",
    ]
    (synthetic_source / "mt" / "a.txt").write_text("first line\nsecond line\n", encoding="utf-8")
    (store / "scores.tsv.xz").unlink()
    assert "scores.tsv.gz: stored part scores.tsv.xz is missing" in packer.check(synthetic_source, store)


def test_pack_command_line(packer, synthetic_source, tmp_path, capsys):
    assert packer.main(["pack", str(synthetic_source), str(tmp_path / "store")]) == 0
    assert capsys.readouterr().out.startswith("3 files, ")
    assert packer.main(["check", str(synthetic_source), str(tmp_path / "store")]) == 0
    assert capsys.readouterr().out == "the store holds the source\n"
    (synthetic_source / "extra.txt").write_text("x")
    assert packer.main(["check", str(synthetic_source), str(tmp_path / "store")]) == 1
    assert capsys.readouterr().out.endswith("1 difference(s)\n")
    assert packer.main(["check", str(tmp_path / "absent"), str(tmp_path / "store")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert packer.main(["unpack"]) == 2
    assert "Usage" in capsys.readouterr().err


@pytest.fixture
def synthetic_store(packer, synthetic_source, tmp_path):
    store = tmp_path / "store"
    packer.pack(synthetic_source, store)
    return store


def test_a_missing_part_is_named(synthetic_store, tmp_path):
    (synthetic_store / "mt" / "a.txt.xz").unlink()
    with pytest.raises(StoreError, match=r"mt/a.txt: stored part\(s\) missing from .*: mt/a.txt.xz"):
        unpack(synthetic_store, tmp_path / "out")


def test_a_damaged_part_is_named(synthetic_store, tmp_path):
    part = synthetic_store / "mt" / "a.txt.xz"
    part.write_bytes(part.read_bytes()[:-8] + b"\0" * 8)
    with pytest.raises(StoreError, match=r"mt/a.txt: mt/a.txt.xz is not a valid xz stream"):
        unpack(synthetic_store, tmp_path / "out")


def test_content_that_does_not_match_the_index_is_refused(synthetic_store):
    entry = read_index(synthetic_store)[0]
    wrong = type(entry)(entry.path, "0" * 64, entry.size, entry.stored)
    with pytest.raises(StoreError, match=r"mt/a.txt: the unpacked content does not match INDEX.tsv"):
        content(synthetic_store, wrong)


@pytest.mark.parametrize("text,message", [
    ("path\tsize\n", r"the first line is 'path\\tsize', expected"),
    ("path\tsha256\tsize\tstored\nmt/a.txt\tabc\n", r"INDEX.tsv, line 2: not enough values to unpack"),
    ("path\tsha256\tsize\tstored\nmt/a.txt\tabc\tmany\ta.xz\n", r"INDEX.tsv, line 2: invalid literal for int"),
])
def test_a_malformed_index_is_refused_with_its_line(tmp_path, text, message):
    (tmp_path / INDEX_NAME).write_text(text)
    with pytest.raises(StoreError, match=message):
        read_index(tmp_path)


def test_a_store_without_index_says_what_to_do(tmp_path):
    with pytest.raises(StoreError, match=r"INDEX.tsv is missing: the tests' evaluation data is not in this checkout"):
        materialize(tmp_path, [tmp_path / "cache"])


def test_materialize_unpacks_once_and_prunes_older_versions(synthetic_store, tmp_path):
    cache = tmp_path / "cache"
    (cache / "0123456789abcdef").mkdir(parents=True)  # an earlier store's copy
    (cache / ".0123456789abcdef-x").mkdir()  # another worker's staging folder: left alone
    first = materialize(synthetic_store, [cache])
    assert first.parent == cache and (first / "mt" / "a.txt").is_file()
    assert sorted(path.name for path in cache.iterdir()) == sorted([".0123456789abcdef-x", first.name])
    (first / "marker").write_text("kept")
    assert materialize(synthetic_store, [cache]) == first and (first / "marker").is_file()  # not unpacked again


def test_materialize_falls_back_to_the_next_cache(synthetic_store, tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    unpacked = materialize(synthetic_store, [not_a_folder / "cache", tmp_path / "fallback"])
    assert unpacked.parent == tmp_path / "fallback"
    with pytest.raises(StoreError, match=r"no folder to unpack the evaluation data into: .*file/cache"):
        materialize(synthetic_store, [not_a_folder / "cache"])


def test_install_keeps_the_copy_another_worker_renamed_first(tmp_path):
    final, staging = tmp_path / "final", tmp_path / "staging"
    (final).mkdir()
    (final / "theirs").write_text("")
    (staging / "sub").mkdir(parents=True)
    install(staging, final)  # rename fails (final is not empty): theirs stays
    assert (final / "theirs").is_file()
    with pytest.raises(OSError):
        install(tmp_path / "absent", tmp_path / "other")


def test_override_when_it_names_a_folder_else_the_store(tmp_path):
    assert data_root({"NLGMETRICS_SHARED_DATA": str(tmp_path)}) == tmp_path
    assert describe(tmp_path, {"NLGMETRICS_SHARED_DATA": str(tmp_path)}) == \
        f"evaluation data: {tmp_path} (NLGMETRICS_SHARED_DATA)"
    unpacked = data_root({"NLGMETRICS_SHARED_DATA": str(tmp_path / "absent")})
    assert unpacked == data_root({}) and (unpacked / "mt" / "wmt22" / "automatic-scores.tsv").is_file()
    assert describe(unpacked, {"NLGMETRICS_SHARED_DATA": "/absent"}) == (
        f"evaluation data: {unpacked} (unpacked from tests/data/evaluation; NLGMETRICS_SHARED_DATA=/absent is not "
        "a folder, ignored)")
