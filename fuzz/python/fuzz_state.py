"""atheris target: ``MetricState.from_bytes`` and ``Metric.merge`` on arbitrary bytes (``pip install atheris``).

Inputs are used as they are and, to get past the checksum, as mutations of a real state whose checksum is then
recomputed (the same two properties as tests/test_hostile_round2.py's hypothesis test): ``from_bytes`` and
``merge`` raise ValueError or succeed; anything else is a finding.
"""

import json
import struct
import sys
import zlib

import atheris

with atheris.instrument_imports():
    import nlgmetrics
    from nlgmetrics.core.state import MetricState

SEED = nlgmetrics.metric("bleu").update(["the cat sat on the mat", "a dog"], ["the cat is on the mat", "a dog"])
SEED_BYTES = SEED.state().to_bytes()


def one_input(data: bytes) -> None:
    for payload in (data, _with_valid_checksum(data)):
        try:
            state = MetricState.from_bytes(payload)
            nlgmetrics.metric("bleu").merge(state).compute()
        except ValueError:
            pass


def _with_valid_checksum(data: bytes) -> bytes:
    """The seed's arrays with ``data`` written over them and the header's checksum recomputed: only the content lies.

    The layout (``nlgmetrics.core.state``): 16 bytes (magic, version, header length), the JSON header, the arrays;
    the header's ``checksum`` is the Adler-32 of the arrays.
    """
    mutated = bytearray(SEED_BYTES)
    length = struct.unpack_from("<8sII", SEED_BYTES)[2]
    body = 16 + length
    for index, value in enumerate(data[:64]):
        mutated[body + (index * 7919) % (len(mutated) - body)] = value
    header = json.loads(bytes(mutated[16:body]))
    header["checksum"] = zlib.adler32(bytes(mutated[body:]))
    text = json.dumps(header, sort_keys=True).ljust(length).encode()
    if len(text) == length:
        mutated[16:body] = text
    return bytes(mutated)


atheris.Setup(sys.argv, one_input)
atheris.Fuzz()
