"""How small the Python side of a call is (issue 24's figures), in one process run:

    python benches/python_side_bench.py [--segments 28112] [--repeats 3]

1. corpus BLEU on ``--segments`` real WMT17 en-de segments (every system's output in turn, each with the
   reference) against sacreBLEU's ``corpus_bleu``, references given as one list per hypothesis and as one
   string per hypothesis;
2. the Python side of ``bleu()`` under cProfile: the share of the call spent outside the extension's calls
   (``_core``'s functions and methods), for both reference layouts;
3. 200 ``update``s of 120 segments and one ``compute`` against one call on the same 24,000 segments, for
   BLEU and chrF (the two taking turns).

Best of ``--repeats`` for each contender, the contenders taking turns (one run of each per round); prints
Markdown for ``benches/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cases import _wmt17_pool
from harness import best_of_interleaved, machine_description


def extension_share(function) -> tuple[float, float]:
    """(total seconds, seconds inside the extension's calls) of one profiled call."""
    profile = cProfile.Profile()
    profile.enable()
    function()
    profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    inside = 0.0
    for (filename, _, name), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        # Builtins are listed as ('~', 0, "<method 'segment_stats' of 'nlgmetrics._core.SegmentScorer' objects>")
        # or ('~', 0, '<built-in method nlgmetrics._core.bleu_score_from_stats>').
        if filename == "~" and "nlgmetrics._core" in name:
            inside += own
    return total, inside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--segments", type=int, default=28_112)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--update-repeats", type=int, default=15,
                        help="rounds of the updates comparison (0.1 s each: more rounds, less noise)")
    args = parser.parse_args()

    import sacrebleu

    import nlgmetrics

    print(machine_description())
    hyps, refs = _wmt17_pool(args.segments)
    ref_lists = [[ref] for ref in refs]
    n = len(hyps)
    assert nlgmetrics.bleu(hyps, refs).score == nlgmetrics.bleu(hyps, ref_lists).score == \
        sacrebleu.corpus_bleu(hyps, [refs]).score

    print(f"\n### Corpus BLEU, {n:,} WMT17 en-de segments (all systems in turn), best of {args.repeats}\n")
    print("| contender | seconds | sacreBLEU / this |")
    print("|---|---:|---:|")
    peer, lists, strings = best_of_interleaved([lambda: sacrebleu.corpus_bleu(hyps, [refs]),
                                                lambda: nlgmetrics.bleu(hyps, ref_lists),
                                                lambda: nlgmetrics.bleu(hyps, refs)], args.repeats)
    print(f"| sacrebleu.corpus_bleu | {peer:.3f} | 1.0 |")
    print(f"| nlgmetrics.bleu, references [[ref], …] | {lists:.4f} | **{peer / lists:.1f}×** |")
    print(f"| nlgmetrics.bleu, references [ref, …] | {strings:.4f} | **{peer / strings:.1f}×** |")

    print(f"\n### The Python side of `bleu()` (cProfile, {n:,} segments)\n")
    print("| references | call (s, profiled) | in `_core` (s) | Python side |")
    print("|---|---:|---:|---:|")
    for label, references in (("one list per hypothesis", ref_lists), ("one string per hypothesis", refs)):
        nlgmetrics.bleu(hyps, references)  # warm
        total, inside = min((extension_share(lambda: nlgmetrics.bleu(hyps, references)) for _ in range(args.repeats)),
                            key=lambda pair: pair[0] - pair[1])
        print(f"| {label} | {total:.4f} | {inside:.4f} | **{100 * (total - inside) / total:.1f} %** |")

    updates, size = 200, 120
    hyps24, refs24 = hyps[:updates * size], refs[:updates * size]
    print(f"\n### {updates} updates of {size} segments vs one call on the same {len(hyps24):,}, best of "
          f"{args.update_repeats} rounds\n")
    print("| metric | one call (s) | 200 updates + compute (s) | updates / one call |")
    print("|---|---:|---:|---:|")
    for name in ("bleu", "chrf"):
        def one_call():
            return nlgmetrics.metric(name).update(hyps24, refs24).compute().score

        def in_updates():
            metric = nlgmetrics.metric(name)
            for start in range(0, len(hyps24), size):
                metric.update(hyps24[start:start + size], refs24[start:start + size])
            return metric.compute().score

        assert one_call() == in_updates()
        whole, batched = best_of_interleaved([one_call, in_updates], args.update_repeats)
        print(f"| {name} | {whole:.4f} | {batched:.4f} | **{batched / whole:.2f}×** |")


if __name__ == "__main__":
    main()
