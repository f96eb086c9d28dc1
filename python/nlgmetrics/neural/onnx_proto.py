"""The few ONNX protobuf messages the encoder graph needs, written as bytes without the ``onnx`` package.

Importing ``onnx`` costs ~0.65 s and building its message objects copies every weight twice (into a
``TensorProto`` and again in ``SerializeToString``); the graph here is a list of nodes and weights, so it
is written straight in protobuf's wire format (https://protobuf.dev/programming-guides/encoding/) with the
field numbers of ``onnx/onnx.proto`` (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto,
ValueInfoProto, TypeProto, TensorShapeProto, OperatorSetIdProto, StringStringEntryProto). The tests parse
what this writes with ``onnx`` itself and run ``onnx.checker`` on it.

>>> node = Node("Add", ["a", "b"], ["c"])
>>> data = model_bytes([node], [], [value_info("a", FLOAT, ["n"]), value_info("b", FLOAT, ["n"])],
...                    [value_info("c", FLOAT, ["n"])], opsets={"": 17})
>>> data[:2]   # field 1 (ir_version), varint
b'\\x08\\x08'
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Dict, Mapping, Sequence, Union

import numpy as np

__all__ = ["FLOAT", "DOUBLE", "INT32", "INT64", "Node", "tensor", "external_tensor", "value_info", "model_bytes"]

# TensorProto.DataType
FLOAT, INT32, INT64, DOUBLE = 1, 6, 7, 11
_DATA_TYPES = {np.dtype(np.float32): FLOAT, np.dtype(np.int32): INT32, np.dtype(np.int64): INT64,
               np.dtype(np.float64): DOUBLE}
# AttributeProto.AttributeType
_ATTR_FLOAT, _ATTR_INT, _ATTR_INTS = 1, 2, 7
_VARINT, _LENGTH, _FIXED32 = 0, 2, 5


def _varint(value: int) -> bytes:
    """Protobuf's base-128 varint; negative int64 values as their 10-byte two's complement."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(number: int, wire: int) -> bytes:
    return _varint((number << 3) | wire)


def _int(number: int, value: int) -> bytes:
    return _key(number, _VARINT) + _varint(int(value))


def _bytes(number: int, value: Union[bytes, bytearray, memoryview]) -> bytes:
    return _key(number, _LENGTH) + _varint(len(value)) + bytes(value)


def _text(number: int, value: str) -> bytes:
    return _bytes(number, value.encode("utf-8"))


def _attribute(name: str, value) -> bytes:
    out = _text(1, name)
    if isinstance(value, float):
        return out + _key(2, _FIXED32) + struct.pack("<f", value) + _int(20, _ATTR_FLOAT)
    if isinstance(value, (bool, int, np.integer)):
        return out + _int(3, int(value)) + _int(20, _ATTR_INT)
    if isinstance(value, (list, tuple)):
        return out + b"".join(_int(8, int(v)) for v in value) + _int(20, _ATTR_INTS)
    raise TypeError(f"attribute {name}: unsupported value {value!r}")


@dataclass
class Node:
    """One NodeProto: ``op_type`` with inputs, outputs, a domain ('' = the standard ops) and attributes."""

    op_type: str
    inputs: Sequence[str]
    outputs: Sequence[str]
    domain: str = ""
    attributes: Dict[str, object] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        out = b"".join(_text(1, name) for name in self.inputs) + b"".join(_text(2, name) for name in self.outputs)
        out += _text(4, self.op_type)
        out += b"".join(_bytes(5, _attribute(k, v)) for k, v in self.attributes.items())
        if self.domain:
            out += _text(7, self.domain)
        return out


def _tensor_header(name: str, dtype: np.dtype, shape: Sequence[int]) -> bytes:
    if np.dtype(dtype) not in _DATA_TYPES:
        raise TypeError(f"tensor {name}: dtype {dtype} is not supported")
    return b"".join(_int(1, d) for d in shape) + _int(2, _DATA_TYPES[np.dtype(dtype)]) + _text(8, name)


def tensor(name: str, value: np.ndarray) -> bytes:
    """A TensorProto holding ``value``'s bytes (little-endian, C order) as ``raw_data``."""
    value = np.asarray(value, order="C")  # (ascontiguousarray would make a scalar 1-d)
    return _tensor_header(name, value.dtype, value.shape) + _bytes(9, value.astype(value.dtype.newbyteorder("<"),
                                                                                     copy=False).tobytes())


def external_tensor(name: str, value: np.ndarray) -> bytes:
    """A TensorProto whose data lives outside the graph (``data_location = EXTERNAL``); the session gets the
    bytes from memory (``SessionOptions.add_external_initializers``)."""
    entries = (("location", f"in-memory/{name}"), ("offset", "0"), ("length", str(value.nbytes)))
    external = b"".join(_bytes(13, _text(1, key) + _text(2, text)) for key, text in entries)
    return _tensor_header(name, value.dtype, value.shape) + external + _int(14, 1)


def value_info(name: str, elem_type: int, dims: Sequence[Union[int, str]]) -> bytes:
    """A ValueInfoProto: a tensor of ``elem_type`` whose dimensions are sizes (int) or symbolic names (str)."""
    shape = b"".join(_bytes(1, _int(1, d) if isinstance(d, int) else _text(2, d)) for d in dims)
    tensor_type = _int(1, elem_type) + _bytes(2, shape)
    return _text(1, name) + _bytes(2, _bytes(1, tensor_type))


def model_bytes(nodes: Sequence[Node], initializers: Sequence[bytes], inputs: Sequence[bytes],
                outputs: Sequence[bytes], *, opsets: Mapping[str, int], name: str = "nlgmetrics_encoder",
                producer: str = "nlgmetrics", ir_version: int = 8) -> bytes:
    """A serialised ModelProto (what ``onnxruntime.InferenceSession`` takes) of one graph."""
    graph = b"".join(_bytes(1, node.to_bytes()) for node in nodes) + _text(2, name)
    graph += b"".join(_bytes(5, t) for t in initializers)
    graph += b"".join(_bytes(11, v) for v in inputs) + b"".join(_bytes(12, v) for v in outputs)
    out = _int(1, ir_version) + _text(2, producer)
    out += _bytes(7, graph)
    out += b"".join(_bytes(8, (_text(1, domain) if domain else b"") + _int(2, version))
                    for domain, version in opsets.items())
    return out
