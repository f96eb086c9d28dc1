"""Model weights read without torch: ``*.safetensors`` and torch's zip checkpoints (``pytorch_model.bin``,
COMET's ``checkpoints/model.ckpt``).

>>> import numpy as np, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "w.safetensors")
>>> write_safetensors(path, {"w": np.arange(6, dtype=np.float32).reshape(2, 3)})
>>> read_weights(path)["w"].tolist()
[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]

Float tensors come back as float32 (float16 and bfloat16 are widened exactly), integer tensors keep their
type. A torch checkpoint is a zip archive holding a pickle (``<archive>/data.pkl``) whose tensors point at raw
storages (``<archive>/data/<key>``). We unpickle it with an allow-list: only the few globals such files need
(the tensor rebuild functions, the storage classes, ``collections.OrderedDict`` and plain builtins) can be
named; anything else is refused with a ValueError naming it, so a hostile file cannot run code.
The formats were learned from safetensors' README (header layout) and torch/serialization.py +
torch/_utils.py (``_rebuild_tensor_v2``, ``persistent_id``); no code of theirs is used.
"""

from __future__ import annotations

import io
import json
import mmap
import os
import pickle
import struct
import zipfile
from typing import Any, Dict, Optional, Tuple

import numpy as np

from nlgmetrics import _core

# safetensors dtype name -> (NumPy dtype of the raw little-endian bytes, widen to float32?)
_SAFETENSORS_DTYPES = {
    "F64": ("<f8", False),
    "F32": ("<f4", False),
    "F16": ("<f2", True),
    "BF16": ("<u2", True),  # widened by a 16-bit shift below
    "I64": ("<i8", False),
    "I32": ("<i4", False),
    "I16": ("<i2", False),
    "I8": ("i1", False),
    "U8": ("u1", False),
    "BOOL": ("?", False),
}

# torch storage class name -> (NumPy dtype of one element, is it bfloat16?)
_TORCH_STORAGES = {
    "FloatStorage": (np.float32, False),
    "DoubleStorage": (np.float64, False),
    "HalfStorage": (np.float16, False),
    "BFloat16Storage": (np.uint16, True),
    "LongStorage": (np.int64, False),
    "IntStorage": (np.int32, False),
    "ShortStorage": (np.int16, False),
    "CharStorage": (np.int8, False),
    "ByteStorage": (np.uint8, False),
    "BoolStorage": (np.bool_, False),
}

# Plain builtins a checkpoint's metadata (hyper-parameters, Lightning's bookkeeping) may name.
_SAFE_BUILTINS = {"dict", "list", "tuple", "set", "frozenset", "int", "float", "bool", "str", "bytes",
                  "bytearray", "complex", "slice", "range", "object"}


class WeightsError(ValueError):
    """A weights file that cannot be read (truncated, malformed, or not the format its name says)."""


def read_weights(path: str | os.PathLike) -> Dict[str, np.ndarray]:
    """Every tensor of ``path`` by name: a ``.safetensors`` file or a torch zip checkpoint.

    For a checkpoint holding a dict with a ``state_dict`` (COMET / Lightning), the state dict is returned;
    use :func:`read_checkpoint` for the hyper-parameters too.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no weights file at {path}")
    if path.endswith(".safetensors"):
        return read_safetensors(path)
    state_dict, _ = read_checkpoint(path)
    return state_dict


def read_checkpoint(path: str | os.PathLike) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
    """``(state_dict, hyper_parameters)`` of a torch zip checkpoint (``hyper_parameters`` is ``{}`` for a
    plain ``pytorch_model.bin``, which is itself the state dict)."""
    path = os.fspath(path)
    obj = load_torch_pickle(path)
    if isinstance(obj, dict) and "state_dict" in obj and isinstance(obj["state_dict"], dict):
        hyper = obj.get("hyper_parameters") or {}
        return _only_arrays(obj["state_dict"], path), dict(hyper)
    if isinstance(obj, dict):
        return _only_arrays(obj, path), {}
    raise WeightsError(f"{path}: the checkpoint holds a {type(obj).__name__}, not a dict of tensors")


def _only_arrays(state: dict, path: str) -> Dict[str, np.ndarray]:
    arrays = {str(name): value for name, value in state.items() if isinstance(value, np.ndarray)}
    if not arrays and state:
        raise WeightsError(f"{path}: the state dict holds no tensors")
    return arrays


def mapped_file(path: Any) -> np.ndarray:
    """The bytes of a file as a read-only uint8 array over a memory map, the whole file read ahead at once
    (``MADV_WILLNEED``): touched page by page instead, the 91 MB of a MiniLM COMET checkpoint took 80–135 ms of
    page faults on its first read, against 40–45 ms read ahead (2026-12-02, this machine).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".bin") as handle:
    ...     _ = handle.write(b"PK"); handle.flush()
    ...     bytes(mapped_file(handle.name)), mapped_file(handle.name).flags.writeable
    (b'PK', False)
    """
    with open(path, "rb") as handle:
        view = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)  # the map outlives the file handle
    if hasattr(view, "madvise") and hasattr(mmap, "MADV_WILLNEED"):  # not on Windows
        view.madvise(mmap.MADV_WILLNEED)
    return np.frombuffer(view, dtype=np.uint8)


# --------------------------------------------------------------------------------------------------------
# safetensors: u64 little-endian header length, a JSON header, then the raw tensor bytes.


def read_safetensors(path: str) -> Dict[str, np.ndarray]:
    """The tensors of a safetensors file (float32 ones are read-only views of a memory map)."""
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        head = handle.read(8)
        if len(head) < 8:
            raise WeightsError(f"{path}: truncated safetensors file ({size} bytes, no header length)")
        (header_len,) = struct.unpack("<Q", head)
        if header_len > size - 8:
            raise WeightsError(
                f"{path}: truncated or not a safetensors file (header of {header_len} bytes, file of {size})")
        try:
            header = json.loads(handle.read(header_len).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise WeightsError(f"{path}: malformed safetensors header ({error})") from None
    if not isinstance(header, dict):
        raise WeightsError(f"{path}: malformed safetensors header (not a JSON object)")
    data_start = 8 + header_len
    data_len = size - data_start
    raw = mapped_file(path)[data_start:] if data_len else np.zeros(0, np.uint8)
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        tensors[name] = _safetensors_tensor(path, name, entry, raw)
    return tensors


def _safetensors_tensor(path: str, name: str, entry: Any, raw: np.ndarray) -> np.ndarray:
    try:
        dtype_name, shape, (begin, end) = entry["dtype"], [int(n) for n in entry["shape"]], entry["data_offsets"]
    except (TypeError, KeyError, ValueError):
        raise WeightsError(f"{path}: malformed safetensors entry for {name!r}") from None
    if dtype_name not in _SAFETENSORS_DTYPES:
        raise WeightsError(f"{path}: tensor {name!r} has unsupported dtype {dtype_name}")
    raw_dtype, widen = _SAFETENSORS_DTYPES[dtype_name]
    itemsize = np.dtype(raw_dtype).itemsize
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if not (0 <= begin <= end) or end - begin != count * itemsize or any(n < 0 for n in shape):
        raise WeightsError(f"{path}: tensor {name!r} has offsets {begin}..{end} that do not fit shape {shape}")
    if end > raw.shape[0]:
        raise WeightsError(f"{path}: truncated safetensors file (tensor {name!r} ends past the end of the file)")
    array = raw[begin:end].view(raw_dtype).reshape(shape)
    if dtype_name == "BF16":
        return _bfloat16_to_float32(array)
    if widen or dtype_name == "F64":
        return array.astype(np.float32)
    if dtype_name == "F32":
        return array
    return np.array(array)  # integers: a private copy (native byte order)


def write_safetensors(path: str, tensors: Dict[str, np.ndarray]) -> None:
    """Write ``tensors`` (float32/float16/int64/int32) as a safetensors file — for tests and tiny fixtures."""
    names = {np.dtype("<f4"): "F32", np.dtype("<f2"): "F16", np.dtype("<i8"): "I64", np.dtype("<i4"): "I32"}
    header, chunks, offset = {}, [], 0
    for name, array in tensors.items():
        array = np.ascontiguousarray(array)
        little = array.dtype.newbyteorder("<")
        if little not in names:
            raise ValueError(f"write_safetensors: unsupported dtype {array.dtype} for {name!r}")
        data = array.astype(little).tobytes()
        header[name] = {"dtype": names[little], "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    blob = json.dumps(header, separators=(",", ":")).encode("utf-8")
    blob += b" " * (-len(blob) % 8)
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", len(blob)))
        handle.write(blob)
        for data in chunks:
            handle.write(data)


def _bfloat16_to_float32(bits: np.ndarray) -> np.ndarray:
    """bfloat16 is the top half of a float32: shifting its 16 bits up is exact."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


# --------------------------------------------------------------------------------------------------------
# torch zip checkpoints


class _Storage:
    """A storage named by the pickle: its raw bytes are read from the archive on first use."""

    def __init__(self, archive: "_Archive", key: str, dtype: "type[np.generic]", bfloat16: bool, numel: int):
        self.archive, self.key, self.dtype, self.bfloat16, self.numel = archive, key, dtype, bfloat16, numel
        self._array: Optional[np.ndarray] = None

    def array(self) -> np.ndarray:
        if self._array is None:
            data = self.archive.read_storage(self.key)
            itemsize = np.dtype(self.dtype).itemsize
            if len(data) < self.numel * itemsize:
                raise WeightsError(f"{self.archive.path}: storage {self.key} is truncated "
                                   f"({len(data)} bytes for {self.numel} elements)")
            dtype = np.dtype(self.dtype)
            dtype = dtype.newbyteorder("<") if self.archive.little_endian else dtype.newbyteorder(">")
            self._array = np.frombuffer(data, dtype=dtype, count=self.numel)
        return self._array


class _StorageType:
    """Stands for torch.FloatStorage & co. inside the pickle (the class is only ever used as a tag)."""

    def __init__(self, name: str):
        self.name = name
        self.dtype, self.bfloat16 = _TORCH_STORAGES[name]


def _rebuild_tensor(storage, storage_offset, size, stride, *_ignored) -> np.ndarray:
    """torch._utils._rebuild_tensor_v2: a strided view of ``storage`` starting at ``storage_offset``."""
    if not isinstance(storage, _Storage):
        raise WeightsError("malformed checkpoint: a tensor without a storage")
    flat = storage.array()
    size, stride = tuple(int(n) for n in size), tuple(int(n) for n in stride)
    if len(size) != len(stride) or storage_offset < 0 or any(n < 0 for n in size):
        raise WeightsError(f"malformed checkpoint: tensor of size {size} with stride {stride}")
    if 0 in size:
        array = np.zeros(size, dtype=flat.dtype)
    else:
        last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
        if last >= flat.shape[0] or storage_offset >= flat.shape[0]:
            raise WeightsError(f"malformed checkpoint: tensor of size {size} runs past its storage "
                               f"({flat.shape[0]} elements)")
        itemsize = flat.dtype.itemsize
        array = np.lib.stride_tricks.as_strided(flat[storage_offset:], shape=size,
                                                strides=tuple(s * itemsize for s in stride), writeable=False)
    if storage.bfloat16:
        return _bfloat16_to_float32(array)
    if array.dtype.kind == "f" and array.dtype != np.float32:
        return array.astype(np.float32)
    native = array.dtype.newbyteorder("=")
    if array.dtype == native and array.flags.c_contiguous and array.ctypes.data % native.alignment == 0:
        return array  # a read-only view of the mapped file: no copy of the weights
    return array.astype(native)


def _rebuild_parameter(data, requires_grad=False, backward_hooks=None, *_state):
    """torch._utils._rebuild_parameter(_with_state): an nn.Parameter is its tensor."""
    return data


def _codecs_encode(text, encoding="utf-8"):
    """_codecs.encode, which protocol-2 pickles use to store bytes; only string to bytes."""
    if not isinstance(text, str) or not isinstance(encoding, str):
        raise WeightsError("malformed checkpoint: _codecs.encode on something that is not text")
    return text.encode(encoding)


def _numpy_scalar(dtype, data=None):
    """numpy.core.multiarray.scalar: a NumPy scalar (Lightning may store one in its bookkeeping)."""
    if not isinstance(dtype, np.dtype) or not isinstance(data, (bytes, bytearray)) or dtype.hasobject:
        raise WeightsError("malformed checkpoint: a NumPy scalar that is not plain data")
    return np.frombuffer(bytes(data), dtype=dtype, count=1)[0]


def _numpy_dtype(name, align=False, copy=True):
    dtype = np.dtype(name)
    if dtype.hasobject:
        raise WeightsError("malformed checkpoint: a NumPy object dtype")
    return dtype


class _OrderedDict(dict):
    """collections.OrderedDict as unpickled: a dict that also takes the attributes torch sets on a state dict
    (``_metadata``, restored by the pickle's BUILD step)."""


class _AttributeDict(dict):
    """Lightning's AttributeDict (hyper-parameters of older checkpoints) read as a plain dict."""


class _Namespace:
    """argparse.Namespace (hyper-parameters of COMET 1.x checkpoints): only its attributes are kept."""

    def __setstate__(self, state):
        self.__dict__.update(state if isinstance(state, dict) else {})


def _torch_device(kind, index=None):
    """torch.device(...) in Lightning's bookkeeping: its string ("cpu", "cuda:0")."""
    return f"{kind}:{index}" if index is not None else str(kind)


_ALLOWED_GLOBALS = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
    ("torch._utils", "_rebuild_tensor"): _rebuild_tensor,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter,
    ("collections", "OrderedDict"): _OrderedDict,
    ("_codecs", "encode"): _codecs_encode,
    ("numpy.core.multiarray", "scalar"): _numpy_scalar,
    ("numpy._core.multiarray", "scalar"): _numpy_scalar,
    ("numpy", "dtype"): _numpy_dtype,
    ("torch", "device"): _torch_device,
    ("torch", "Size"): tuple,
    ("torch.torch_version", "TorchVersion"): str,
    ("argparse", "Namespace"): _Namespace,
    ("pytorch_lightning.utilities.parsing", "AttributeDict"): _AttributeDict,
    ("lightning_fabric.utilities.data", "AttributeDict"): _AttributeDict,
    ("lightning.fabric.utilities.data", "AttributeDict"): _AttributeDict,
}


class _Archive:
    """The zip archive of a torch checkpoint; stored (uncompressed) members are read as views of one read-only
    memory map of the file, their CRC-32 checked, so the weights are never copied."""

    def __init__(self, path: str, zf: zipfile.ZipFile):
        self.path, self.zf = path, zf
        self.members = {info.filename: info for info in zf.infolist()}
        pickles = [name for name in self.members if name.endswith("data.pkl") and name.count("/") == 1]
        if not pickles:
            raise WeightsError(f"{path}: not a torch checkpoint (the zip archive has no <archive>/data.pkl)")
        self.pickle_name = pickles[0]
        self.prefix = self.pickle_name[: -len("data.pkl")]
        order_name = self.prefix + "byteorder"
        self.little_endian = True
        if order_name in self.members:
            self.little_endian = zf.read(order_name).strip() != b"big"
        self.storages: Dict[str, _Storage] = {}
        self._mapped: Optional[np.ndarray] = None

    def read_storage(self, key: str) -> np.ndarray:
        """The raw bytes of storage ``key`` as a read-only uint8 array."""
        name = f"{self.prefix}data/{key}"
        info = self.members.get(name)
        if info is None:
            raise WeightsError(f"{self.path}: storage data/{key} is missing from the archive")
        try:
            if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x1:  # compressed or encrypted
                return np.frombuffer(self.zf.read(name), dtype=np.uint8)
            return self._stored_member(info)
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as error:  # a corrupted member
            raise WeightsError(f"{self.path}: storage data/{key} cannot be read ({error})") from None

    def _stored_member(self, info: zipfile.ZipInfo) -> np.ndarray:
        if self._mapped is None:
            self._mapped = mapped_file(self.path)
        mapped = self._mapped
        header = bytes(mapped[info.header_offset: info.header_offset + 30])
        if len(header) < 30 or header[:4] != b"PK\x03\x04":
            raise zipfile.BadZipFile("bad local file header")
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        start = info.header_offset + 30 + name_len + extra_len
        data = mapped[start: start + info.compress_size]
        if len(data) < info.compress_size:
            raise zipfile.BadZipFile("the member runs past the end of the file")
        if _core.crc32(data) != info.CRC:
            raise zipfile.BadZipFile("CRC-32 mismatch")
        return data


class _RestrictedUnpickler(pickle.Unpickler):
    def __init__(self, stream, archive: _Archive):
        super().__init__(stream)
        self.archive = archive

    def find_class(self, module, name):
        if (module, name) in _ALLOWED_GLOBALS:
            return _ALLOWED_GLOBALS[(module, name)]
        if module == "torch" and name in _TORCH_STORAGES:
            return _StorageType(name)
        if module in ("builtins", "__builtin__") and name in _SAFE_BUILTINS:  # protocol 2 names "__builtin__"
            return getattr(__import__("builtins"), name)
        raise ValueError(f"{self.archive.path}: the checkpoint names the global {module}.{name}, which is not "
                         "allowed (only tensors, storages and plain containers are read)")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) >= 5 and pid[0] == "storage"):
            raise WeightsError(f"{self.archive.path}: unexpected persistent id {pid!r:.80}")
        storage_type, key, _location, numel = pid[1], str(pid[2]), pid[3], int(pid[4])
        if not isinstance(storage_type, _StorageType):
            raise WeightsError(f"{self.archive.path}: unsupported storage type {storage_type!r:.80}")
        storages = self.archive.storages
        if key not in storages:
            storages[key] = _Storage(self.archive, key, storage_type.dtype, storage_type.bfloat16, numel)
        return storages[key]


def load_torch_pickle(path: str) -> Any:
    """The object a torch zip checkpoint holds, tensors as NumPy arrays (see the module docstring)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no checkpoint file at {path}")
    if not zipfile.is_zipfile(path):
        with open(path, "rb") as handle:
            magic = handle.read(2)
        hint = " (the legacy pre-1.6 torch format: re-save it with torch.save)" if magic == b"\x80\x02" else ""
        raise WeightsError(f"{path}: not a torch zip checkpoint{hint}")
    try:
        with zipfile.ZipFile(path) as zf:
            archive = _Archive(path, zf)
            data = zf.read(archive.pickle_name)
            return _RestrictedUnpickler(io.BytesIO(data), archive).load()
    except (zipfile.BadZipFile, EOFError, pickle.UnpicklingError, struct.error) as error:
        raise WeightsError(f"{path}: truncated or malformed torch checkpoint ({error})") from None
    except (TypeError, AttributeError, IndexError, KeyError) as error:
        raise WeightsError(f"{path}: malformed torch checkpoint ({type(error).__name__}: {error})") from None
