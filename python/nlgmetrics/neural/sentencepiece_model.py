"""A reader of SentencePiece's ``*.model`` files (a ``ModelProto`` protobuf) — no ``sentencepiece`` or
``protobuf`` package needed.

Only what a tokenizer needs is decoded: the pieces (text, score, type), the trainer's model type, unk id and
byte-fallback flag, and the normaliser's precompiled character map. Field numbers are those of
sentencepiece_model.proto (google/sentencepiece, src/sentencepiece_model.proto).

>>> import struct
>>> piece = b"\\x0a\\x03abc" + b"\\x15" + struct.pack("<f", -1.5) + b"\\x18\\x01"   # piece, score, type
>>> blob = b"\\x0a" + bytes([len(piece)]) + piece
>>> model = parse_sentencepiece_model(blob)
>>> model.pieces
[('abc', -1.5, 1)]
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, Iterator, List, Tuple

# SentencePiece.Type
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
# TrainerSpec.ModelType
UNIGRAM, BPE, WORD, CHAR = 1, 2, 3, 4


@dataclass
class SentencePieceModel:
    pieces: List[Tuple[str, float, int]] = field(default_factory=list)  # (piece, score, type)
    model_type: int = UNIGRAM
    unk_id: int = 0
    byte_fallback: bool = False
    precompiled_charsmap: bytes = b""


def _varint(data: bytes, pos: int) -> Tuple[int, int]:
    result, shift = 0, 0
    while True:
        if pos >= len(data):
            raise ValueError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 70:
            raise ValueError("varint too long")


def _fields(data: bytes) -> Iterator[Tuple[int, int, Any]]:
    """(field number, wire type, value) of one message: ints for varints/fixed, bytes for length-delimited."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        value: Any
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1:
            if pos + 8 > len(data):
                raise ValueError("truncated fixed64")
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 2:
            length, pos = _varint(data, pos)
            if pos + length > len(data):
                raise ValueError("truncated length-delimited field")
            value, pos = data[pos:pos + length], pos + length
        elif wire == 5:
            if pos + 4 > len(data):
                raise ValueError("truncated fixed32")
            value, pos = data[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def _signed32(value: int) -> int:
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value >= 1 << 63 else value


def parse_sentencepiece_model(data: bytes) -> SentencePieceModel:  # noqa: C901
    """Decode a serialised ``ModelProto``; raises ValueError on malformed bytes."""
    model = SentencePieceModel()
    for number, wire, value in _fields(data):
        if number == 1 and wire == 2:  # repeated SentencePiece pieces
            piece, score, kind = "", 0.0, NORMAL
            for sub_number, sub_wire, sub_value in _fields(value):
                if sub_number == 1 and sub_wire == 2:
                    piece = sub_value.decode("utf-8")
                elif sub_number == 2 and sub_wire == 5:
                    (score,) = struct.unpack("<f", sub_value)
                elif sub_number == 3 and sub_wire == 0:
                    kind = sub_value
            model.pieces.append((piece, float(score), int(kind)))
        elif number == 2 and wire == 2:  # TrainerSpec
            for sub_number, sub_wire, sub_value in _fields(value):
                if sub_number == 3 and sub_wire == 0:
                    model.model_type = int(sub_value)
                elif sub_number == 40 and sub_wire == 0:
                    model.unk_id = _signed32(sub_value)
                elif sub_number == 35 and sub_wire == 0:
                    model.byte_fallback = bool(sub_value)
        elif number == 3 and wire == 2:  # NormalizerSpec
            for sub_number, sub_wire, sub_value in _fields(value):
                if sub_number == 2 and sub_wire == 2:
                    model.precompiled_charsmap = bytes(sub_value)
    if not model.pieces:
        raise ValueError("no pieces (not a SentencePiece model)")
    return model
