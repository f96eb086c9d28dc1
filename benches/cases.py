"""The benchmark workloads, grouped by metric. Each group yields Cases, or a string saying why one was skipped."""

from __future__ import annotations

import os
from pathlib import Path

from harness import Case

SHARED = Path(os.environ.get("NLGMETRICS_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
WMT22 = SHARED / "mt" / "wmt22"


def read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="\n") as handle:
        return [line.rstrip("\n") for line in handle]


def wmt22_pair(pair: str = "en-de"):
    """(system name → hypotheses, reference A lines) for one WMT22 pair."""
    folder = WMT22 / pair
    target = pair.split("-")[1]
    reference = read_lines(folder / f"generaltest2022.{pair}.ref.A.{target}")
    systems = {p.name.split(".hyp.")[1][: -len(target) - 1]: read_lines(p) for p in sorted(folder.glob(f"*.hyp.*.{target}"))}
    return systems, reference


def bleu_cases():
    import nlgmetrics
    import sacrebleu

    systems, reference = wmt22_pair("en-de")
    refs = [[r] for r in reference]
    n = sum(len(h) for h in systems.values())
    data = f"WMT22 en-de, {len(systems)} systems x {len(reference)} segments, ref A"
    peers = {"sacrebleu": lambda: [sacrebleu.corpus_bleu(h, [reference]).score for h in systems.values()]}
    try:
        import bleuscore

        peers["bleuscore"] = lambda: [bleuscore.compute([[r] for r in reference], h, 4, False, "shortest") for h in systems.values()]
    except ImportError:
        yield "bleuscore not installed"
    yield Case("corpus BLEU (13a)", data, lambda: [nlgmetrics.bleu(h, refs).score for h in systems.values()], peers,
               target=">= 50x sacrebleu")

    sentence_peers = {
        "sacrebleu loop": lambda: [[sacrebleu.sentence_bleu(x, [r]).score for x, r in zip(h, reference)] for h in systems.values()],
    }
    try:
        import bleuscore

        sentence_peers["bleuscore loop"] = lambda: [
            [bleuscore.compute([[r]], [x], 4, True, "shortest") for x, r in zip(h, reference)] for h in systems.values()]
    except ImportError:
        pass
    yield Case(f"sentence BLEU, all {n} segments", data,
               lambda: [nlgmetrics.bleu(h, refs, effective_order=True).segment_scores for h in systems.values()],
               sentence_peers, repeats=1, target=">= 50x sacrebleu loop, >= 5x bleuscore")


GROUPS = {"bleu": bleu_cases}
