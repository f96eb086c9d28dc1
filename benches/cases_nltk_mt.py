"""Benchmark workloads of the NLTK MT metrics (GLEU, NIST, RIBES, NLTK chrF) and the diversity metrics."""

from __future__ import annotations

from harness import Case

SEGMENTS = 20000


def mt_segments(limit: int = SEGMENTS):
    """(hypotheses, references) of WMT22 en-de then de-en, every system, ref A: the first ``limit`` pairs."""
    from cases import wmt22_pair  # cases.py imports this module at its end

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

    from nlgmetrics.compat.nltk import chrf_score, gleu_score, nist_score, ribes_score

    hyps, refs = mt_segments()
    tokens = [h.split() for h in hyps]
    token_refs = [[r.split()] for r in refs]
    data = f"WMT22 en-de + de-en, {len(hyps)} segments (all systems), ref A, whitespace tokens"
    yield Case("corpus GLEU (nltk facade)", data, lambda: gleu_score.corpus_gleu(token_refs, tokens),
               {"nltk corpus_gleu": lambda: corpus_gleu(token_refs, tokens)}, repeats=1, target=">= 20x nltk")
    yield Case("corpus NIST (nltk facade)", data, lambda: nist_score.corpus_nist(token_refs, tokens),
               {"nltk corpus_nist": lambda: corpus_nist(token_refs, tokens)}, repeats=1, target=">= 20x nltk")
    yield Case("corpus RIBES (nltk facade)", data, lambda: ribes_score.corpus_ribes(token_refs, tokens),
               {"nltk corpus_ribes": lambda: corpus_ribes(token_refs, tokens)}, repeats=1, target=">= 20x nltk")
    yield Case("corpus chrF, NLTK's (nltk facade)", data, lambda: chrf_score.corpus_chrf(refs, hyps),
               {"nltk corpus_chrf": lambda: corpus_chrf(refs, hyps)}, repeats=1)


def diversity_cases():
    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    from nlgmetrics import _core

    hyps, _refs = mt_segments(400)
    data = f"{len(hyps)} WMT22 en-de outputs, each against the other {len(hyps) - 1}"

    def sacrebleu_self_bleu():
        return [sacrebleu.sentence_bleu(h, hyps[:i] + hyps[i + 1:]).score for i, h in enumerate(hyps)]

    tokens = [h.split() for h in hyps]
    smoothing = SmoothingFunction().method1

    def texygen_self_bleu():
        return [sentence_bleu(tokens[:i] + tokens[i + 1:], t, (1 / 3,) * 3, smoothing_function=smoothing) for i, t in enumerate(tokens)]

    yield Case("self-BLEU statistics (sacreBLEU 13a)", data, lambda: _core.self_bleu_stats(hyps, "13a", 4),
               {"sacrebleu.sentence_bleu loop": sacrebleu_self_bleu}, repeats=1)
    yield Case("self-BLEU statistics (Texygen, NLTK)", data, lambda: _core.self_bleu_stats(hyps, "none", 3),
               {"nltk sentence_bleu loop": texygen_self_bleu}, repeats=1)
