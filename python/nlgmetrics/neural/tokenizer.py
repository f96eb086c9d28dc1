"""Token ids equal to transformers' tokenizers, built on the ``tokenizers`` library (no transformers).

>>> tok = load_tokenizer(minilm_dir)                      # doctest: +SKIP
>>> tok.encode(["Hello world!"])                          # doctest: +SKIP
[[101, 7592, 2088, 999, 102]]

Sources, first found wins: ``tokenizer.json``; ``vocab.txt`` (BERT WordPiece, options from
``tokenizer_config.json``); ``vocab.json`` + ``merges.txt`` (RoBERTa / GPT-2 byte-level BPE);
``sentencepiece.bpe.model`` (XLM-R, converted as transformers' ``XLMRobertaConverter`` does: fairseq ids
``<s> <pad> </s> <unk>`` = 0..3, the pieces shifted by one, ``<mask>`` last).

``slow=True`` reproduces transformers' *slow* (Python) tokenizers, which bert_score uses
(``use_fast=False``): the vocabulary files are preferred over ``tokenizer.json`` and BERT's basic tokenizer
NFC-normalises the text first (transformers/models/bert/tokenization_bert.py, ``BasicTokenizer.tokenize``),
which the fast one does not. COMET (unbabel-comet 2.2.7) uses the fast tokenizers (``slow=False``).
Nothing strips the text: bert_score's ``sent.strip()`` is the caller's.
"""

from __future__ import annotations

import functools
import json
import os
from typing import Dict, List, Optional, Sequence

from nlgmetrics.neural import require

# transformers' stand-in for "no maximum length" (tokenization_utils_base.VERY_LARGE_INTEGER)
VERY_LARGE_INTEGER = int(1e30)


class TokenizerError(ValueError):
    """A tokenizer directory that cannot be read."""


def _read_json(path: str) -> dict:
    if not os.path.isfile(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        try:
            value = json.load(handle)
        except json.JSONDecodeError as error:
            raise TokenizerError(f"{path}: malformed JSON ({error})") from None
    return value if isinstance(value, dict) else {}


def _token_text(value) -> Optional[str]:
    """A special token as tokenizer_config.json writes it: a string or an AddedToken dict."""
    if isinstance(value, dict):
        return value.get("content")
    return value


class Tokenizer:
    """Text to ids as transformers' ``tokenizer(texts, truncation=True, max_length=...)`` gives them.

    Attributes: ``kind`` ("wordpiece" | "bpe" | "unigram"), ``pad_id``, ``cls_id``, ``sep_id``, ``unk_id``,
    ``mask_id``, ``model_max_length`` (from tokenizer_config.json; ``VERY_LARGE_INTEGER`` when absent, as
    transformers), ``max_length`` (the default truncation length: the constructor's ``max_length`` or
    ``model_max_length``), ``vocab_size`` (including added tokens), ``size_separator`` (1 for BERT's
    ``[SEP]``, 2 for RoBERTa / XLM-R's ``</s></s>`` between two segments).
    """

    def __init__(self, backend, *, kind: str, specials: dict, model_max_length: int,
                 max_length: Optional[int], source: str, text_prefix_space: bool = False):
        self._backend = backend
        # The slow RoBERTa/GPT-2 tokenizer puts one space before the whole text (prepare_for_tokenization),
        # not before each piece between special tokens as the fast ByteLevel step does.
        self._text_prefix_space = text_prefix_space
        self.kind = kind
        self.source = source
        self.model_max_length = int(model_max_length)
        self.max_length = int(max_length) if max_length is not None else self.model_max_length
        ids: Dict[str, Optional[int]] = {}
        for role, text in specials.items():
            ids[role] = backend.token_to_id(text) if text is not None else None
        cls_id, sep_id = ids.get("cls"), ids.get("sep")
        if cls_id is None or sep_id is None:
            raise TokenizerError(f"{source}: the vocabulary lacks the class/separator tokens "
                                 f"({specials.get('cls')!r}, {specials.get('sep')!r})")
        self.cls_id: int = cls_id
        self.sep_id: int = sep_id
        self.pad_id: Optional[int] = ids.get("pad")
        self.unk_id: Optional[int] = ids.get("unk")
        self.mask_id: Optional[int] = ids.get("mask")
        self.size_separator = 1 if kind == "wordpiece" else 2

    @functools.cached_property
    def vocab_size(self) -> int:
        """The vocabulary's size, added tokens included (asked on first use: it costs ~15 ms for 30k tokens)."""
        return int(self._backend.get_vocab_size(with_added_tokens=True))

    def __repr__(self) -> str:
        return f"Tokenizer({self.kind}, vocab_size={self.vocab_size}, max_length={self.max_length}, {self.source})"

    # -- single segments ----------------------------------------------------------------------------------
    def encode(self, texts: Sequence[str], *, max_length: Optional[int] = None) -> List[List[int]]:
        """Ids of each text with the special tokens (``[CLS] … [SEP]`` / ``<s> … </s>``), cut at the end to
        ``max_length`` ids (default ``self.max_length``) as transformers' ``truncation=True`` cuts."""
        texts = _check_texts(texts, "texts")
        limit = self.max_length if max_length is None else int(max_length)
        if limit < 2:
            raise ValueError(f"max_length must leave room for the 2 special tokens, got {limit}")
        encodings = self._backend.encode_batch(self._prepared(texts), add_special_tokens=False)
        body = limit - 2
        return [[self.cls_id] + enc.ids[:body] + [self.sep_id] for enc in encodings]

    def truncated(self, texts: Sequence[str], *, max_length: Optional[int] = None) -> List[bool]:
        """Which of ``texts`` :meth:`encode` would cut (for the warning that counts them)."""
        limit = self.max_length if max_length is None else int(max_length)
        encodings = self._backend.encode_batch(self._prepared(_check_texts(texts, "texts")),
                                               add_special_tokens=False)
        return [len(enc.ids) + 2 > limit for enc in encodings]

    def _prepared(self, texts: List[str]) -> List[str]:
        if not self._text_prefix_space:
            return texts
        return [" " + text if text and not text[0].isspace() else text for text in texts]

    # -- joint inputs (COMET's unified models) -------------------------------------------------------------
    def join(self, first: Sequence[int], *others: Sequence[int], max_positions: int) -> List[int]:
        """One input from several already-encoded segments, as unbabel-comet 2.2.7's
        ``Encoder.concat_sequences`` builds it (comet/encoders/base.py): padding ids dropped, each segment's
        body kept, ``<s> A </s></s> B </s>`` (BERT: ``[CLS] A [SEP] B [SEP]``), and the result cut to
        ``max_positions`` ids — its *end* is cut, last separator included — only when the bodies' total
        exceeds ``max_positions - (1 + n_segments * size_separator)``."""
        segments = [[i for i in seg if i != self.pad_id] for seg in (first,) + others]
        bodies = [seg[1:-1] for seg in segments]
        joined = segments[0]
        separator = [self.sep_id] * self.size_separator
        for body in bodies[1:]:
            joined = [self.cls_id] + joined[1:-1] + separator + body + [self.sep_id]
        special = 1 + len(segments) * self.size_separator
        if sum(len(body) for body in bodies) > max_positions - special:
            joined = joined[:max_positions]
        return joined

    def joint_token_type_ids(self, first: Sequence[int], length: int) -> List[int]:
        """The token types comet's ``concat_sequences`` gives a joint BERT input padded to ``length``: 0 for
        the first segment (its ids without padding), 1 for everything after it, padding included
        (XLM-R models use no token types)."""
        first_length = sum(1 for i in first if i != self.pad_id)
        return [0] * min(first_length, length) + [1] * max(0, length - first_length)

    def encode_joint(self, *segment_texts: Sequence[str], max_positions: int) -> List[List[int]]:
        """COMET's unified input per row: each segment list (e.g. ``mt, src`` or ``mt, src, ref``) encoded
        with ``max_length = max_positions - 2`` (comet's ``prepare_sample``), then :meth:`join` ed.
        ``max_positions`` is comet's ``encoder.max_positions`` = ``max_position_embeddings - 2``."""
        if not segment_texts:
            raise ValueError("encode_joint needs at least one list of texts")
        counts = {len(texts) for texts in segment_texts}
        if len(counts) != 1:
            raise ValueError(f"encode_joint: the segment lists differ in length ({sorted(counts)})")
        encoded = [self.encode(texts, max_length=max_positions - 2) for texts in segment_texts]
        return [self.join(*row, max_positions=max_positions) for row in zip(*encoded)]

    def encode_pairs(self, firsts: Sequence[str], seconds: Sequence[str], *,
                     max_positions: int) -> List[List[int]]:
        """``<s> A </s></s> B </s>`` per pair: :meth:`encode_joint` of two segment lists."""
        return self.encode_joint(firsts, seconds, max_positions=max_positions)


def _check_texts(texts, name: str) -> List[str]:
    if isinstance(texts, str):
        raise TypeError(f"{name} must be a list of strings, not one string")
    texts = list(texts)
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"{name}[{index}] is a {type(text).__name__}, not a string")
    return texts


# ------------------------------------------------------------------------------------------------------------
def load_tokenizer(model_dir: str | os.PathLike, *, add_prefix_space: Optional[bool] = None,
                   max_length: Optional[int] = None, slow: bool = False) -> Tokenizer:
    """The tokenizer of a model directory (see the module docstring for the sources and ``slow``).

    ``add_prefix_space`` (byte-level BPE only): ``None`` keeps the file's / config's setting; bert_score
    passes ``True`` for RoBERTa and GPT-2. ``max_length``: the default truncation length of
    :meth:`Tokenizer.encode` (default: ``model_max_length`` from tokenizer_config.json).
    """
    tokenizers = require("tokenizers")
    model_dir = os.fspath(model_dir)
    if not os.path.isdir(model_dir):
        raise TokenizerError(f"no model directory at {model_dir}")
    config = _read_json(os.path.join(model_dir, "tokenizer_config.json"))
    special_map = _read_json(os.path.join(model_dir, "special_tokens_map.json"))
    model_max_length = config.get("model_max_length")
    if not isinstance(model_max_length, (int, float)) or model_max_length <= 0:
        model_max_length = VERY_LARGE_INTEGER
    model_max_length = min(int(model_max_length), VERY_LARGE_INTEGER)

    def path(name):
        return os.path.join(model_dir, name)

    has_json = os.path.isfile(path("tokenizer.json"))
    has_wordpiece = os.path.isfile(path("vocab.txt"))
    has_bpe = os.path.isfile(path("vocab.json")) and os.path.isfile(path("merges.txt"))
    has_spm = os.path.isfile(path("sentencepiece.bpe.model"))
    text_prefix_space = False
    if has_json and not (slow and (has_wordpiece or has_bpe or has_spm)):
        backend, kind, text_prefix_space = _from_tokenizer_json(tokenizers, path("tokenizer.json"),
                                                                add_prefix_space, slow)
        source = path("tokenizer.json")
    elif has_wordpiece:
        backend, kind = _from_wordpiece(tokenizers, path("vocab.txt"), config, special_map, slow), "wordpiece"
        source = path("vocab.txt")
    elif has_bpe:
        aps = add_prefix_space if add_prefix_space is not None else bool(config.get("add_prefix_space", False))
        text_prefix_space = slow and aps
        backend, kind = _from_byte_level_bpe(tokenizers, path("vocab.json"), path("merges.txt"),
                                             aps and not slow, config, special_map), "bpe"
        source = path("vocab.json")
    elif has_spm:
        backend, kind = _from_sentencepiece(tokenizers, path("sentencepiece.bpe.model")), "unigram"
        source = path("sentencepiece.bpe.model")
    else:
        raise TokenizerError(
            f"no tokenizer in {model_dir}: looked for tokenizer.json, vocab.txt, vocab.json + merges.txt, "
            "sentencepiece.bpe.model")
    backend.no_truncation()
    backend.no_padding()
    specials = _special_tokens(kind, config, special_map)
    return Tokenizer(backend, kind=kind, specials=specials, model_max_length=model_max_length,
                     max_length=max_length, source=source, text_prefix_space=text_prefix_space)


def _special_tokens(kind: str, config: dict, special_map: dict) -> dict:
    defaults = ({"cls": "[CLS]", "sep": "[SEP]", "pad": "[PAD]", "unk": "[UNK]", "mask": "[MASK]"}
                if kind == "wordpiece" else
                {"cls": "<s>", "sep": "</s>", "pad": "<pad>", "unk": "<unk>", "mask": "<mask>"})
    out = {}
    for role, default in defaults.items():
        key = f"{role}_token"
        out[role] = _token_text(config.get(key)) or _token_text(special_map.get(key)) or default
    return out


_TOKENIZER_KINDS = {"WordPiece": "wordpiece", "BPE": "bpe", "Unigram": "unigram"}


def _from_tokenizer_json(tokenizers, path: str, add_prefix_space: Optional[bool], slow: bool):
    if not slow and add_prefix_space is None:  # the file as it is (COMET): read once by tokenizers, no JSON
        try:                                   # round trip here (~30 ms for a 30k vocabulary)
            backend = tokenizers.Tokenizer.from_file(path)
        except Exception:  # malformed: the reading below names what is wrong
            backend = None
        kind = _TOKENIZER_KINDS.get(type(backend.model).__name__) if backend is not None else None
        if kind is not None:
            return backend, kind, False
    with open(path, encoding="utf-8") as handle:
        try:
            spec = json.load(handle)
        except json.JSONDecodeError as error:
            raise TokenizerError(f"{path}: malformed JSON ({error})") from None
    model_type = (spec.get("model") or {}).get("type")
    kind = _TOKENIZER_KINDS.get(str(model_type))
    if kind is None:
        raise TokenizerError(f"{path}: unsupported tokenizer model {model_type!r}")
    text_prefix_space = False
    if slow and kind == "bpe":  # the slow tokenizer's prefix space goes before the text (see Tokenizer)
        text_prefix_space = bool(add_prefix_space) if add_prefix_space is not None else \
            _get_prefix_space(spec.get("pre_tokenizer"))
        _set_prefix_space(spec.get("pre_tokenizer"), False)
    elif add_prefix_space is not None:
        _set_prefix_space(spec.get("pre_tokenizer"), add_prefix_space)
    if slow and kind == "wordpiece":
        spec["normalizer"] = _with_nfc_first(spec.get("normalizer"))
    try:
        return tokenizers.Tokenizer.from_str(json.dumps(spec)), kind, text_prefix_space
    except Exception as error:  # tokenizers raises a bare Exception on a bad spec
        raise TokenizerError(f"{path}: cannot build the tokenizer ({error})") from None


def _set_prefix_space(pre_tokenizer, value: bool) -> None:
    """Set ``add_prefix_space`` of every ByteLevel step of a tokenizer.json pre-tokenizer."""
    if not isinstance(pre_tokenizer, dict):
        return
    if pre_tokenizer.get("type") == "ByteLevel":
        pre_tokenizer["add_prefix_space"] = value
    for step in pre_tokenizer.get("pretokenizers") or []:
        _set_prefix_space(step, value)


def _get_prefix_space(pre_tokenizer) -> bool:
    if not isinstance(pre_tokenizer, dict):
        return False
    if pre_tokenizer.get("type") == "ByteLevel":
        return bool(pre_tokenizer.get("add_prefix_space"))
    return any(_get_prefix_space(step) for step in pre_tokenizer.get("pretokenizers") or [])


def _with_nfc_first(normalizer) -> dict:
    nfc = {"type": "NFC"}
    if normalizer is None:
        return nfc
    return {"type": "Sequence", "normalizers": [nfc, normalizer]}


def _from_wordpiece(tokenizers, vocab_path: str, config: dict, special_map: dict, slow: bool):
    """transformers' BertConverter from vocab.txt and tokenizer_config.json's options."""
    vocab = {}
    with open(vocab_path, encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            vocab[line.rstrip("\n")] = index  # as transformers' load_vocab: a repeated token keeps its last index
    specials = _special_tokens("wordpiece", config, special_map)
    lowercase = bool(config.get("do_lower_case", True))
    strip_accents = config.get("strip_accents")
    chinese = bool(config.get("tokenize_chinese_chars", True))
    if specials["unk"] not in vocab:
        raise TokenizerError(f"{vocab_path}: the vocabulary lacks the unknown token {specials['unk']!r}")
    model = tokenizers.models.WordPiece(vocab, unk_token=specials["unk"], max_input_chars_per_word=100)
    backend = tokenizers.Tokenizer(model)
    bert = tokenizers.normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=chinese,
                                                 strip_accents=strip_accents, lowercase=lowercase)
    backend.normalizer = tokenizers.normalizers.Sequence([tokenizers.normalizers.NFC(), bert]) if slow else bert
    backend.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    _add_specials(tokenizers, backend, specials)
    return backend


def _from_byte_level_bpe(tokenizers, vocab_path: str, merges_path: str, add_prefix_space: bool,
                         config: dict, special_map: dict):
    """transformers' RobertaConverter / GPT2Converter from vocab.json and merges.txt."""
    vocab = _read_json(vocab_path)
    merges = []
    with open(merges_path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line or line.startswith("#version"):
                continue
            parts = line.split(" ")
            if len(parts) != 2:
                raise TokenizerError(f"{merges_path}: malformed merge line {line!r}")
            merges.append((parts[0], parts[1]))
    model = tokenizers.models.BPE(vocab, merges, dropout=None, continuing_subword_prefix="",
                                  end_of_word_suffix="", fuse_unk=False)
    backend = tokenizers.Tokenizer(model)
    backend.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=add_prefix_space)
    specials = _special_tokens("bpe", config, special_map)
    _add_specials(tokenizers, backend, specials)
    return backend


def _from_sentencepiece(tokenizers, model_path: str):
    """transformers' XLMRobertaConverter (convert_slow_tokenizer.py) from the SentencePiece protobuf."""
    from nlgmetrics.neural.sentencepiece_model import CONTROL, UNIGRAM, USER_DEFINED, parse_sentencepiece_model

    with open(model_path, "rb") as handle:
        data = handle.read()
    try:
        spm = parse_sentencepiece_model(data)
    except (ValueError, UnicodeDecodeError) as error:
        raise TokenizerError(f"{model_path}: not a SentencePiece model ({error})") from None
    if spm.model_type != UNIGRAM:
        raise TokenizerError(f"{model_path}: only Unigram SentencePiece models are supported (XLM-R), "
                             f"this one has model type {spm.model_type}")
    vocab = [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]
    vocab += [(piece, score) for piece, score, _ in spm.pieces[3:]]
    vocab += [("<mask>", 0.0)]
    backend = tokenizers.Tokenizer(tokenizers.models.Unigram(vocab, unk_id=3, byte_fallback=False))
    normalizers = tokenizers.normalizers
    steps = [normalizers.Strip(left=False, right=True), normalizers.Replace(tokenizers.Regex(" {2,}"), "▁")]
    if spm.precompiled_charsmap:
        steps.insert(0, normalizers.Precompiled(spm.precompiled_charsmap))
    backend.normalizer = normalizers.Sequence(steps)
    backend.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    # SentencePiece's control and user-defined pieces are added tokens (control ones special), by text.
    added = [tokenizers.AddedToken(piece, normalized=False, special=kind == CONTROL)
             for piece, _, kind in spm.pieces if kind in (CONTROL, USER_DEFINED)]
    if added:
        backend.add_tokens(added)
    # XLMRobertaTokenizerFast's own special tokens; <mask> swallows the space before it (lstrip).
    backend.add_special_tokens([tokenizers.AddedToken(t, special=True) for t in ("<s>", "</s>", "<unk>", "<pad>")]
                               + [tokenizers.AddedToken("<mask>", lstrip=True, special=True)])
    return backend


def _add_specials(tokenizers, backend, specials: dict) -> None:
    tokens = []
    for role in ("pad", "unk", "cls", "sep", "mask"):
        text = specials.get(role)
        if text is not None and backend.token_to_id(text) is not None:
            tokens.append(tokenizers.AddedToken(text, lstrip=(role == "mask" and text == "<mask>"), special=True))
    backend.add_special_tokens(tokens)
