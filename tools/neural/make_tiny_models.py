"""Build the tiny encoder fixtures for the BERTScore / COMET parity tests (issue 21).

Run with the oracle venv (it has torch, transformers, tokenizers, sentencepiece)::

    HF_HUB_OFFLINE=1 /work/oracle-venv/bin/python tools/neural/make_tiny_models.py \
        --out tests/data/neural/models

Writes, deterministically from ``--seed``:

- ``tiny-roberta/``: RoBERTa encoder (hidden 32, 2 layers, 2 heads, intermediate 64,
  max_position_embeddings 514, pad 1) with a byte-level BPE tokenizer trained with
  ``tokenizers`` on real WMT22 en/de and CNN/DM lines.  Saved so that both the slow
  ``RobertaTokenizer`` (vocab.json + merges.txt) and the fast one (tokenizer.json) load it.
- ``tiny-xlmr/``: XLM-R encoder of the same sizes whose vocabulary is a SentencePiece
  *unigram* model trained with the ``sentencepiece`` library on real WMT22 en/de/zh text,
  saved through the slow ``XLMRobertaTokenizer`` (sentencepiece.bpe.model) and the fast
  one (tokenizer.json, converted by transformers from the slow one).

Weights are not transformers' default init (std 0.02, which makes every token look the
same): embeddings ~ N(0, 0.5), linear weights ~ N(0, 1/fan_in), biases ~ N(0, 0.1),
LayerNorm gamma ~ 1 + N(0, 0.2), beta ~ N(0, 0.1).  That keeps attention out of
saturation while different tokens get clearly different vectors.

Both folders carry ``model_max_length: 512`` in tokenizer_config.json (without it a
locally saved tokenizer reports 1e30 and bert_score's truncation breaks).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from _evaluation_data import evaluation_data  # tools/neural/, beside this script

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import sys

import numpy as np
import torch


def _protobuf4_shim() -> None:
    """sentencepiece 0.2.x ships a model_pb2 generated for protobuf >= 5, but unbabel-comet's venv pins
    protobuf < 5; transformers carries its own protobuf-4 copy of the same schema, so serve that one
    when the slow XLM-R tokenizer is converted to tokenizer.json."""
    try:
        from sentencepiece import sentencepiece_model_pb2  # noqa: F401
    except ImportError:
        from transformers.utils import sentencepiece_model_pb2_new

        sys.modules["sentencepiece.sentencepiece_model_pb2"] = sentencepiece_model_pb2_new

TINY_SIZES = dict(
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=64,
    max_position_embeddings=514,
    pad_token_id=1,
    bos_token_id=0,
    eos_token_id=2,
    type_vocab_size=1,
    layer_norm_eps=1e-5,
)


# ---------------------------------------------------------------------------- data
def read_lines(path: Path, limit: int) -> list[str]:
    """First ``limit`` non-empty lines of a text file."""
    out = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line:
                out.append(line)
            if len(out) >= limit:
                break
    return out


def cnndm_lines(data: Path, limit: int) -> list[str]:
    """Reference summary sentences of the first CNN/DM documents."""
    path = data / "summarization/cnndm_see2017_pointer_generator/cnndm_test_see2017.jsonl"
    out: list[str] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            out.extend(s for s in json.loads(line)["reference"].split("\n") if s.strip())
            if len(out) >= limit:
                break
    return out[:limit]


def training_text(data: Path, langs: tuple[str, ...], per_file: int) -> list[str]:
    """Real WMT22 lines (sources and references) for the requested languages."""
    wmt = data / "mt/wmt22"
    files = {
        "en": [wmt / "en-de/generaltest2022.en-de.src.en", wmt / "zh-en/generaltest2022.zh-en.ref.A.en"],
        "de": [wmt / "en-de/generaltest2022.en-de.ref.A.de", wmt / "de-en/generaltest2022.de-en.src.de"],
        "zh": [wmt / "zh-en/generaltest2022.zh-en.src.zh", wmt / "en-zh/generaltest2022.en-zh.ref.A.zh"],
    }
    out: list[str] = []
    for lang in langs:
        for path in files[lang]:
            out.extend(read_lines(path, per_file))
    return out


# ---------------------------------------------------------------------------- weights
def perturb_weights(model: torch.nn.Module, seed: int) -> None:
    """Overwrite every parameter with seeded, non-degenerate values (see module doc)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, param in sorted(model.named_parameters()):
            shape = param.shape
            if "LayerNorm.weight" in name:
                value = 1.0 + 0.2 * torch.randn(shape, generator=gen)
            elif name.endswith("bias"):
                value = 0.1 * torch.randn(shape, generator=gen)
            elif "embeddings" in name:
                value = 0.5 * torch.randn(shape, generator=gen)
            else:  # Linear weight (out, in)
                value = torch.randn(shape, generator=gen) / np.sqrt(shape[-1])
            param.copy_(value)


def fix_tokenizer_config(folder: Path, extra: dict) -> None:
    """Make sure tokenizer_config.json pins model_max_length (and any extra keys)."""
    path = folder / "tokenizer_config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    config["model_max_length"] = 512
    config.update(extra)
    path.write_text(json.dumps(config, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


def drop(folder: Path, names: list[str]) -> None:
    for name in names:
        (folder / name).unlink(missing_ok=True)


# ---------------------------------------------------------------------------- RoBERTa
def build_tiny_roberta(data: Path, out: Path, seed: int, vocab_size: int) -> None:
    from tokenizers import ByteLevelBPETokenizer
    from transformers import RobertaConfig, RobertaModel, RobertaTokenizer, RobertaTokenizerFast

    lines = training_text(data, ("en", "de"), 1000) + cnndm_lines(data, 2000)
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        lines,
        vocab_size=vocab_size,
        min_frequency=2,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
        show_progress=False,
    )
    folder = out / "tiny-roberta"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        bpe.save_model(tmp)  # vocab.json + merges.txt
        slow = RobertaTokenizer(
            vocab_file=f"{tmp}/vocab.json", merges_file=f"{tmp}/merges.txt", model_max_length=512
        )
        slow.save_pretrained(folder)
    # The fast tokenizer converted from the slow files: same vocab/merges, RoBERTa post-processor.
    fast = RobertaTokenizerFast.from_pretrained(folder, model_max_length=512)
    fast.save_pretrained(folder)
    drop(folder, ["added_tokens.json"])
    fix_tokenizer_config(folder, {"tokenizer_class": "RobertaTokenizer"})

    config = RobertaConfig(vocab_size=len(slow), **TINY_SIZES)
    torch.manual_seed(seed)
    model = RobertaModel(config, add_pooling_layer=False)
    perturb_weights(model, seed)
    model.save_pretrained(folder, safe_serialization=True)


# ---------------------------------------------------------------------------- XLM-R
# Code point ranges whose NFKC rules go into the tiny model's precompiled charsmap: Latin-1
# (NBSP, superscripts, fractions), the ligatures, full-width ASCII, circled digits, CJK
# compatibility ideographs' first block.  XLM-R's real model carries sentencepiece's full
# `nmt_nfkc` map (~240 KB, too big for a fixture); this is a subset with the same trie format,
# so a tokenizer that reads the charsmap from the model is exercised the same way.
NORMALIZATION_RANGES = [(0x00A0, 0x00FF), (0xFB00, 0xFB06), (0xFF01, 0xFF5E), (0x2460, 0x2473), (0xF900, 0xF93F)]


def write_normalization_rules(path: Path) -> Path:
    """sentencepiece rule TSV: 'hex code points<TAB>hex code points' (NFKC of each source char)."""
    import unicodedata

    rows = []
    for start, end in NORMALIZATION_RANGES:
        for cp in range(start, end + 1):
            target = unicodedata.normalize("NFKC", chr(cp))
            if target != chr(cp):
                rows.append(f"{cp:X}\t{' '.join(f'{ord(c):X}' for c in target)}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def build_tiny_xlmr(data: Path, out: Path, seed: int, vocab_size: int) -> None:
    import sentencepiece as spm
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizer, XLMRobertaTokenizerFast

    lines = training_text(data, ("en", "de"), 700) + training_text(data, ("zh",), 250)
    folder = out / "tiny-xlmr"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.txt"
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        # Same id layout as XLM-R's own sentencepiece.bpe.model: <unk>=0, <s>=1, </s>=2, no pad;
        # the tokenizer adds the fairseq offset on top.  Single thread, no sampling: deterministic.
        # Relative file names: the model proto records them, and a temp dir's name would change it.
        write_normalization_rules(Path(tmp) / "rules.tsv")
        here = os.getcwd()
        os.chdir(tmp)
        try:
            spm.SentencePieceTrainer.train(
                input="corpus.txt",
                model_prefix="sp",
                model_type="unigram",
                vocab_size=vocab_size,
                character_coverage=0.995,
                num_threads=1,
                seed_sentencepiece_size=100000,
                shuffle_input_sentence=False,
                input_sentence_size=0,
                minloglevel=2,
                normalization_rule_tsv="rules.tsv",
            )
        finally:
            os.chdir(here)
        slow = XLMRobertaTokenizer(vocab_file=f"{tmp}/sp.model", model_max_length=512)
        slow.save_pretrained(folder)
    _protobuf4_shim()
    fast = XLMRobertaTokenizerFast.from_pretrained(folder, model_max_length=512)  # converted from the slow one
    fast.save_pretrained(folder)
    drop(folder, ["added_tokens.json"])
    fix_tokenizer_config(folder, {"tokenizer_class": "XLMRobertaTokenizer"})

    config = XLMRobertaConfig(vocab_size=len(slow), **TINY_SIZES)
    torch.manual_seed(seed)
    model = XLMRobertaModel(config, add_pooling_layer=False)
    perturb_weights(model, seed + 1)
    model.save_pretrained(folder, safe_serialization=True)


# ---------------------------------------------------------------------------- checks
def check_folder(folder: Path, slow_cls, fast_cls, probe: list[str]) -> dict:
    """Load both tokenizers and the model back; return a small summary (ids must agree)."""
    from transformers import AutoModel

    slow = slow_cls.from_pretrained(folder)
    fast = fast_cls.from_pretrained(folder)
    assert slow.model_max_length == 512 and fast.model_max_length == 512
    model = AutoModel.from_pretrained(folder).eval()
    disagreements = 0
    for text in probe:
        kwargs = {"add_prefix_space": True} if "Roberta" in slow_cls.__name__ and "XLM" not in slow_cls.__name__ else {}
        a = slow.encode(text, **kwargs)
        b = fast_cls.from_pretrained(folder, **kwargs).encode(text) if kwargs else fast.encode(text)
        disagreements += a != b
    with torch.no_grad():
        enc = fast(probe[:4], return_tensors="pt", padding=True)
        hidden = model(**enc).last_hidden_state
    size = sum(p.stat().st_size for p in folder.iterdir())
    return {
        "folder": folder.name,
        "vocab": len(slow),
        "bytes": size,
        "slow_fast_disagreements": int(disagreements),
        "hidden_std": float(hidden.std()),
        "sha256": {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in sorted(folder.iterdir())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None, help="evaluation data (default: the tests' copy)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "tests/data/neural/models")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    args.data = args.data if args.data is not None else evaluation_data()
    torch.use_deterministic_algorithms(True)
    args.out.mkdir(parents=True, exist_ok=True)
    build_tiny_roberta(args.data, args.out, args.seed, vocab_size=1500)
    build_tiny_xlmr(args.data, args.out, args.seed, vocab_size=1500)

    from transformers import RobertaTokenizer, RobertaTokenizerFast, XLMRobertaTokenizer, XLMRobertaTokenizerFast

    probe = read_lines(args.data / "mt/wmt22/en-de/generaltest2022.en-de.ref.A.de", 30) + read_lines(
        args.data / "mt/wmt22/zh-en/generaltest2022.zh-en.src.zh", 10
    ) + ["", "  Hello   world ", "naïve café ﬁ ①"]
    for folder, slow, fast in [
        (args.out / "tiny-roberta", RobertaTokenizer, RobertaTokenizerFast),
        (args.out / "tiny-xlmr", XLMRobertaTokenizer, XLMRobertaTokenizerFast),
    ]:
        print(json.dumps(check_folder(folder, slow, fast, probe)))


if __name__ == "__main__":
    main()
