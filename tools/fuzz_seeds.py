#!/usr/bin/env python3
"""Write starting inputs for the cargo-fuzz targets (fuzz/fuzz_targets) into OUT/<target>/.

Seeds are real lines from the tests' evaluation data (tests/data/evaluation: WMT22 zh-en source and references, en-de) plus hand-written
edge cases (labelled synthetic): entities and <skipped> for 13a, digits with separators, CJK, emoji, RTL,
combining marks, NUL, CRLF, long repetitions. Kernel targets get two option bytes, then hypothesis and
references separated by the byte 0xFF (see src/fuzz_checks/mod.rs).

Usage: python tools/fuzz_seeds.py OUT [DATA_DIR]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

TOKENIZER_TARGETS = ["tok_13a", "tok_intl", "tok_zh", "tok_char", "tok_ptb", "tok_rouge", "tok_rouge155",
                     "tok_meteor", "tok_ter", "tok_qa"]
KERNEL_TARGETS = ["bleu", "chrf", "ter", "rouge", "lcs", "rouge155", "meteor", "cider", "qa"]

# Synthetic edge cases (not real data): every tokenizer rule we know of, and hostile Unicode.
EDGE_CASES = [
    "", " ", "\n", "\r\n", "\x00", "a\x00b", "&quot;Hi&quot; &amp;lt; &gt; &amp;amp;", "<skipped> a-\nb",
    "1,000.50 $ 3-4 -5 .5 5. a.b,c", "U.S.A. Mr. Smith's e-mail (x) [y] {z}", "价格是1,000元。“你好”—再见…",
    "日本語のテキスト、カタカナ。한국어 문장입니다.", "مرحبا بالعالم! שלום עולם", "e\u0301 a\u0308 \u0915\u094d\u0937",
    "😀👍🏽 👨‍👩‍👧 🇩🇪", "\u200b\u200d\ufeff\u00a0\u2028\u3000", "the the the the the the the the",
    "a b a b a b a b", "b a b a b a b a", "İstanbul ǅ ß ẞ ﬁ Σσς", "can't won't gonna ``quoted'' -- ...",
    "\U00020000\U0002a6d6\U0002f800 \u2001\u2a6d", "x" * 300, "ab " * 100, "Dr. A. B. Smith vs. Inc. 3.14",
]


def real_lines(data: Path, limit: int) -> list[str]:
    files = sorted((data / "mt" / "wmt22").glob("*/*.ref.A.*")) + sorted((data / "mt" / "wmt22").glob("zh-en/*.src.zh"))
    lines: list[str] = []
    for path in files:
        lines += path.read_text(encoding="utf-8").splitlines()[:limit]
    return lines


def main() -> None:
    out = Path(sys.argv[1])
    if len(sys.argv) > 2:
        data = Path(sys.argv[2])
    else:  # the tests' evaluation data (tests/data/evaluation, unpacked once)
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from _test_data import data_root

        data = data_root()
    rng = random.Random(13)
    texts = EDGE_CASES + rng.sample(real_lines(data, 200), 60)
    for target in TOKENIZER_TARGETS:
        folder = out / target
        folder.mkdir(parents=True, exist_ok=True)
        for k, text in enumerate(texts):
            (folder / f"seed{k:03d}").write_bytes(text.encode("utf-8"))
    for target in KERNEL_TARGETS:
        folder = out / target
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(80):
            parts = [rng.choice(texts) for _ in range(rng.randint(1, 4))]
            if k % 4 == 0:
                parts.append(parts[0])  # the hypothesis among its references
            flags = rng.getrandbits(16).to_bytes(2, "little")
            (folder / f"seed{k:03d}").write_bytes(flags + b"\xff".join(p.encode("utf-8") for p in parts))


if __name__ == "__main__":
    main()
