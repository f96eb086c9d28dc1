"""Benchmark workloads of the NLTK MT metrics (GLEU, NIST, RIBES, NLTK's chrF) and the diversity metrics."""

from __future__ import annotations

from bench_data import wmt22_pair
from harness import Case

SEGMENTS = 20000


def mt_segments(limit: int = SEGMENTS):
    """(hypotheses, references) of WMT22 en-de then de-en, every system, ref A: the first ``limit`` pairs."""
    hyps, refs = [], []
    for pair in ("en-de", "de-en"):
        systems, reference = wmt22_pair(pair)
        for outputs in systems.values():
            hyps += outputs
            refs += reference
    return hyps[:limit], refs[:limit]


def nltk_mt_cases():
    from nltk.translate.chrf_score import corpus_chrf
    from nltk.translate.gleu_score import corpus_gleu
    from nltk.translate.nist_score import corpus_nist
    from nltk.translate.ribes_score import corpus_ribes

    import nlgmetrics
    from nlgmetrics.compat.nltk import gleu_score, nist_score, ribes_score

    hyps, refs = mt_segments()
    ref_lists = [[r] for r in refs]
    data = f"WMT22 en-de + de-en, {len(hyps)} segments (all systems), ref A, whitespace tokens"

    def split():
        return [h.split() for h in hyps], [[r.split()] for r in refs]

    for name, ours, nltk_corpus in (
        ("GLEU", lambda: nlgmetrics.gleu(hyps, ref_lists, tokenize="none").score, corpus_gleu),
        ("NIST", lambda: nlgmetrics.nist(hyps, ref_lists, tokenize="none").score, corpus_nist),
        ("RIBES", lambda: nlgmetrics.ribes(hyps, ref_lists).score, corpus_ribes),
    ):
        peer = (lambda corpus: lambda: corpus(*reversed(split())))(nltk_corpus)
        yield Case(f"corpus {name} (+ sentence scores), text in", data, ours, {f"nltk corpus_{name.lower()} + split": peer},
                   repeats=2, target=">= 20x nltk")

    tokens, token_refs = split()
    for name, facade, nltk_corpus in (("GLEU", gleu_score.corpus_gleu, corpus_gleu), ("NIST", nist_score.corpus_nist, corpus_nist),
                                      ("RIBES", ribes_score.corpus_ribes, corpus_ribes)):
        yield Case(f"corpus {name}, compat.nltk facade, token lists in", data,
                   (lambda f: lambda: f(token_refs, tokens))(facade),
                   {f"nltk corpus_{name.lower()}": (lambda f: lambda: f(token_refs, tokens))(nltk_corpus)}, repeats=1)
    from nlgmetrics.compat.nltk import chrf_score

    yield Case("corpus chrF (NLTK's), compat.nltk facade", data, lambda: chrf_score.corpus_chrf(refs, hyps),
               {"nltk corpus_chrf": lambda: corpus_chrf(refs, hyps)}, repeats=1)


def diversity_cases():
    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    import nlgmetrics

    hyps, _refs = mt_segments(300)
    data = f"{len(hyps)} WMT22 en-de outputs, each against the other {len(hyps) - 1}"
    tokens = [h.split() for h in hyps]
    smoothing = SmoothingFunction().method1

    def sacrebleu_loop():
        return [sacrebleu.sentence_bleu(h, hyps[:i] + hyps[i + 1:]).score for i, h in enumerate(hyps)]

    def texygen_loop():
        return [sentence_bleu(tokens[:i] + tokens[i + 1:], t, (1 / 3,) * 3, smoothing_function=smoothing)
                for i, t in enumerate(tokens)]

    yield Case("self-BLEU (sacreBLEU sentence BLEU)", data, lambda: nlgmetrics.self_bleu(hyps).score,
               {"sacrebleu.sentence_bleu loop": sacrebleu_loop}, repeats=1)
    yield Case("self-BLEU (Texygen: NLTK, method1, 3-grams)", data, lambda: nlgmetrics.self_bleu(hyps, variant="texygen").score,
               {"nltk sentence_bleu loop": texygen_loop}, repeats=1)
    many, _ = mt_segments()

    def distinct_sets():
        grams = [[tuple(w[i:i + 2]) for i in range(len(w) - 1)] for w in (h.split() for h in many)]
        return len({g for gs in grams for g in gs}) / sum(len(gs) for gs in grams)

    yield Case("distinct-2", f"{len(many)} WMT22 outputs", lambda: nlgmetrics.distinct(many).score,
               {"python sets": distinct_sets}, repeats=3)
