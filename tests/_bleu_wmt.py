"""The WMT data (tests/data/evaluation/mt, see conftest.SHARED_DATA) for the BLEU parity tests, and how our side is fed.

While ``nlgmetrics.tokenizers`` (the Rust sacreBLEU tokenizers) is absent, ``ours_inputs`` feeds
nlgmetrics text pre-tokenized by sacreBLEU's own tokenizer with ``tokenize="none"``: the parity
tests then check everything after tokenization (statistics, clipping, reference lengths, every
score formula) on the real data. Once the tokenizers land, the same tests run end to end.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from conftest import SHARED_DATA, read_lines

TOKENIZERS_READY = importlib.util.find_spec("nlgmetrics.tokenizers") is not None
TOKENIZERS_REASON = "nlgmetrics.tokenizers (the Rust sacreBLEU tokenizers) has not landed in this branch yet"

WMT22 = SHARED_DATA / "mt" / "wmt22"
WMT17 = SHARED_DATA / "mt" / "wmt17_en_de_sacrebleu_testset"
ORACLES = SHARED_DATA / "mt" / "oracle_outputs"
WMT22_PAIRS = ("zh-en", "en-zh", "de-en", "en-de")


def target_tokenizer(pair: str) -> str:
    """sacreBLEU's default for the target language (what the organisers' and oracle scores use)."""
    return "zh" if pair.endswith("-zh") else "13a"


@lru_cache(maxsize=None)
def wmt22_systems(pair: str) -> dict[str, list[str]]:
    folder = WMT22 / pair
    target = pair.split("-")[1]
    prefix = f"generaltest2022.{pair}.hyp."
    return {
        path.name[len(prefix):-len(target) - 1]: read_lines(path)
        for path in sorted(folder.glob(f"{prefix}*.{target}"))
    }


@lru_cache(maxsize=None)
def wmt22_refs(pair: str) -> dict[str, list[str]]:
    target = pair.split("-")[1]
    return {name: read_lines(WMT22 / pair / f"generaltest2022.{pair}.ref.{name}.{target}") for name in ("A", "B")}


@lru_cache(maxsize=None)
def wmt17_systems() -> dict[str, list[str]]:
    return {
        path.name[len("newstest2017."):-len(".en-de.hyp.de")]: read_lines(path)
        for path in sorted(WMT17.glob("newstest2017.*.en-de.hyp.de"))
    }


@lru_cache(maxsize=None)
def wmt17_ref() -> list[str]:
    return read_lines(WMT17 / "newstest2017.en-de.ref.de")


@lru_cache(maxsize=None)
def sacrebleu_tokenizer(name: str):
    """One sacreBLEU tokenizer instance per name (its lru_cache is then shared by every test)."""
    from sacrebleu.metrics.bleu import _get_tokenizer

    return _get_tokenizer(name)()


def ours_inputs(lines: list[str], tokenize: str, lowercase: bool) -> tuple[list[str], str]:
    """Lines and tokenizer name to give nlgmetrics for sacreBLEU's ``tokenize``/``lowercase``."""
    if TOKENIZERS_READY or tokenize == "none":
        return lines, tokenize
    tokenizer = sacrebleu_tokenizer(tokenize)
    if lowercase:
        return [tokenizer(line.lower().rstrip()) for line in lines], "none"
    return [tokenizer(line.rstrip()) for line in lines], "none"


def ours_refs(refs: list[list[str]], tokenize: str, lowercase: bool) -> list[list[str]]:
    """Per-segment reference lists, pre-tokenized like ``ours_inputs`` when needed."""
    width = len(refs[0]) if refs else 0
    if all(len(segment) == width for segment in refs):
        columns = [ours_inputs([segment[i] for segment in refs], tokenize, lowercase)[0] for i in range(width)]
        return [list(row) for row in zip(*columns)]
    return [ours_inputs(segment, tokenize, lowercase)[0] for segment in refs]


def every(lines: list, step: int, offset: int = 0) -> list:
    return lines[offset::step]


def data_available() -> bool:
    return Path(WMT22).is_dir() and Path(WMT17).is_dir()
