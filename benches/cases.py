"""The benchmark workloads, grouped by metric. Each group yields Cases, or a string saying why one was skipped."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bench_data import SHARED, read_lines, wmt22_pair
from cases_nltk_mt import diversity_cases, nltk_mt_cases
from harness import Case


def bleu_cases():
    import sacrebleu

    import nlgmetrics

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


def chrf_ter_cases():
    import sacrebleu

    import nlgmetrics

    systems, reference = wmt22_pair("en-de")
    refs = [[r] for r in reference]
    data = f"WMT22 en-de, {len(systems)} systems x {len(reference)} segments, ref A"
    yield Case("corpus chrF", data, lambda: [nlgmetrics.chrf(h, refs).score for h in systems.values()],
               {"sacrebleu": lambda: [sacrebleu.corpus_chrf(h, [reference]).score for h in systems.values()]},
               target=">= 50x sacrebleu")
    yield Case("corpus chrF++", data, lambda: [nlgmetrics.chrf(h, refs, word_order=2).score for h in systems.values()],
               {"sacrebleu": lambda: [sacrebleu.corpus_chrf(h, [reference], word_order=2).score for h in systems.values()]})

    # MBR: for every segment, every system output against every other (9 x 9 sentence chrF).
    names = list(systems)
    candidates = [[systems[name][i] for name in names] for i in range(len(reference))]
    mbr = f"WMT22 en-de MBR: {len(candidates)} segments x {len(names)}x{len(names)} pairs"
    try:
        import fastchrf

        yield Case("chrf_pairwise (MBR)", mbr, lambda: [nlgmetrics.chrf_pairwise(c) for c in candidates],
                   {"fastchrf.pairwise_chrf": lambda: fastchrf.pairwise_chrf(candidates, candidates)},
                   target=">= 2x fastchrf")
    except ImportError:
        yield "fastchrf not installed"

    # sacreBLEU's TER needs ~25 ms a segment: every 10th segment of three systems, the same for both.
    picked = names[:3]
    sample = {name: systems[name][::10] for name in picked}
    sample_refs = reference[::10]
    yield Case("corpus TER", f"WMT22 en-de, {len(picked)} systems x {len(sample_refs)} segments (every 10th), ref A",
               lambda: [nlgmetrics.ter(h, sample_refs).score for h in sample.values()],
               {"sacrebleu": lambda: [sacrebleu.corpus_ter(h, [sample_refs]).score for h in sample.values()]},
               repeats=1, target=">= 20x sacrebleu")


def cnndm(limit=None):
    import json

    path = SHARED / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl"
    docs = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            docs.append(json.loads(line))
            if limit and len(docs) == limit:
                break
    return docs


def rouge_cases():
    import nlgmetrics

    docs = cnndm()
    system = "pointer-gen-cov"
    predictions = [d[system] for d in docs]
    references = [d["reference"] for d in docs]
    variants = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    subset = 1000
    data = f"CNN/DM test, {system}, first {subset} of {len(docs)} documents, stemmed rouge1/2/L/Lsum"
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(variants, use_stemmer=True)
    first_refs, first_preds = references[:subset], predictions[:subset]
    peers = {"rouge_score": lambda: [scorer.score(r, p) for r, p in zip(first_refs, first_preds)]}
    try:
        import rouge_score_rs.rouge_scorer as rs

        rs_scorer = rs.RougeScorer(variants, use_stemmer=True)
        peers["rouge-score-rs score_batch"] = lambda: rs_scorer.score_batch(first_refs, first_preds)
    except ImportError:
        rs_scorer = None
        yield "rouge-score-rs not installed"
    yield Case("ROUGE (rouge_score preset), short batch", data,
               lambda: nlgmetrics.rouge(first_preds, first_refs, variants=variants, stemmer=True, tokenizer="rouge_score"),
               peers, repeats=3, target="(issue's target: on all documents, below)")
    from nlgmetrics.compat.rouge_score import rouge_scorer as facade

    ours_scorer = facade.RougeScorer(variants, use_stemmer=True)
    few = 300
    yield Case("rouge_score drop-in, score() per document in a loop",
               f"CNN/DM test, {system}, first {few} documents, stemmed rouge1/2/L/Lsum",
               lambda: [ours_scorer.score(r, p) for r, p in zip(first_refs[:few], first_preds[:few])],
               {"rouge_score": lambda: [scorer.score(r, p) for r, p in zip(first_refs[:few], first_preds[:few])]},
               repeats=3)
    # rouge_score takes ~20 s for the whole set: worth it, as the target is stated on it.
    full_peers = {"rouge_score": lambda: [scorer.score(r, p) for r, p in zip(references, predictions)]}
    if rs_scorer is not None:
        full_peers["rouge-score-rs score_batch"] = lambda: rs_scorer.score_batch(references, predictions)
    yield Case("ROUGE, all documents", f"CNN/DM test, {system}, all {len(docs)} documents, stemmed rouge1/2/L/Lsum",
               lambda: nlgmetrics.rouge(predictions, references, variants=variants, stemmer=True, tokenizer="rouge_score"),
               full_peers, repeats=3, target=">= 200x rouge_score, >= 3x rouge-score-rs")
    try:
        import fast_rouge

        unstemmed = ["rouge1", "rouge2", "rougeL"]
        yield Case("ROUGE unstemmed 1/2/L, all documents", f"CNN/DM test, {system}, all {len(docs)} documents",
                   lambda: nlgmetrics.rouge(predictions, references, variants=unstemmed, tokenizer="rouge_score"),
                   {"rouge-rust (fast_rouge.score_batch)": lambda: fast_rouge.score_batch(references, predictions)}, repeats=2)
    except ImportError:
        yield "rouge-rust not installed"
    yield Case("rouge155 preset: ROUGE-1/2/L/W-1.2/SU4, stemmed, 1000-sample bootstrap",
               f"CNN/DM test, {system}, all {len(docs)} documents",
               lambda: nlgmetrics.rouge(predictions, references, variants=["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4"],
                                        preset="rouge155", stemmer=True), {}, repeats=2, target="< 2 s (Perl: minutes)")


GROUPS.update({"chrf": chrf_ter_cases, "rouge": rouge_cases})


def _run(command, cwd=None):
    import subprocess

    return lambda: subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def meteor_cases():

    import pycocoevalcap

    jar_dir = Path(list(pycocoevalcap.__path__)[0]) / "meteor"
    xray = SHARED / "mt" / "meteor_examples" / "xray"
    hyp, ref = str(xray / "system1.hyp"), str(xray / "reference")
    yield Case("METEOR end to end (fresh process, paraphrases; warm paraphrase cache)",
               "METEOR xray system1, 2489 segments, -l en -norm",
               _run([sys.executable, "-m", "nlgmetrics", "meteor", "-r", ref, "-i", hyp]),
               {"meteor-1.5.jar": _run(["java", "-Xmx2G", "-jar", "meteor-1.5.jar", hyp, ref, "-l", "en", "-norm"], cwd=jar_dir)},
               repeats=2, target=">= 20x the jar")
    yield Case("METEOR start-up without paraphrases (fresh process)", "METEOR xray system1, exact stem synonym",
               _run([sys.executable, "-m", "nlgmetrics", "meteor", "-r", ref, "-i", hyp, "-m", "exact", "stem", "synonym"]),
               {}, repeats=2, target="< 0.5 s")


def coco_cases():
    import json

    import nlgmetrics

    folder = SHARED / "captioning" / "magic_flickr30k_test"
    annotations = json.loads((folder / "annotations.coco_format.json").read_text())
    results = json.loads((folder / "results" / "magic.json").read_text())
    gts = {}
    for ann in annotations["annotations"]:
        gts.setdefault(ann["image_id"], []).append({"caption": ann["caption"]})
    res = {item["image_id"]: [{"caption": item["caption"]}] for item in results}

    def pycocoevalcap_suite():
        from pycocoevalcap.bleu.bleu import Bleu
        from pycocoevalcap.cider.cider import Cider
        from pycocoevalcap.meteor.meteor import Meteor
        from pycocoevalcap.rouge.rouge import Rouge
        from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

        tokenizer = PTBTokenizer()
        tokenized_gts, tokenized_res = tokenizer.tokenize(gts), tokenizer.tokenize(res)
        for scorer in (Bleu(4), Meteor(), Rouge(), Cider()):
            scorer.compute_score(tokenized_gts, tokenized_res)

    yield Case("COCO caption suite end to end (PTB, BLEU 1-4, METEOR, ROUGE-L, CIDEr-D)",
               f"Flickr30k test, MAGIC system, {len(res)} images x 5 refs",
               lambda: nlgmetrics.caption_scores(gts, res), {"pycocoevalcap": pycocoevalcap_suite}, repeats=1,
               target=">= 20x pycocoevalcap")


def paired_cases():
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    import nlgmetrics

    systems, reference = wmt22_pair("zh-en")
    data = f"WMT22 zh-en, {len(systems)} systems x {len(reference)} segments, ref A, BLEU + chrF"
    os.environ["SACREBLEU_SEED"] = "12345"

    def sacrebleu_test(test):
        return lambda: PairedTest(list(systems.items()), {"BLEU": BLEU(), "chrF2": CHRF()}, [reference], test_type=test)()

    yield Case("paired bootstrap, 1000 samples", data,
               lambda: nlgmetrics.paired_test(systems, reference, metrics=["bleu", "chrf"], test="bs"),
               {"sacrebleu PairedTest": sacrebleu_test("bs")}, repeats=1, target=">= 20x sacrebleu")
    yield Case("paired approximate randomization, 10000 trials", data,
               lambda: nlgmetrics.paired_test(systems, reference, metrics=["bleu", "chrf"], test="ar"),
               {"sacrebleu PairedTest": sacrebleu_test("ar")}, repeats=1, target=">= 20x sacrebleu")


def nltk_coco_bleu_cases():
    from nltk.translate.bleu_score import corpus_bleu

    import nlgmetrics

    systems, reference = wmt22_pair("en-de")
    tokenized_refs = [[r.split()] for r in reference]
    tokenized = {name: [h.split() for h in hyps] for name, hyps in systems.items()}
    refs = [[r] for r in reference]
    yield Case("corpus BLEU, nltk preset", f"WMT22 en-de, {len(systems)} systems, whitespace tokens",
               lambda: [nlgmetrics.bleu(h, refs, preset="nltk").score for h in systems.values()],
               {"nltk corpus_bleu": lambda: [corpus_bleu(tokenized_refs, h) for h in tokenized.values()]})


GROUPS.update({"meteor": meteor_cases, "coco": coco_cases, "paired": paired_cases, "nltk": nltk_coco_bleu_cases})


def _wmt17_pool(limit: int):
    """Real WMT17 en-de hypotheses of every system, each with the reference, first ``limit`` pairs."""
    folder = SHARED / "mt" / "wmt17_en_de_sacrebleu_testset"
    reference = read_lines(folder / "newstest2017.en-de.ref.de")
    hyps, refs = [], []
    for path in sorted(folder.glob("newstest2017.*.en-de.hyp.de")):
        hyps += read_lines(path)
        refs += reference
    return hyps[:limit], refs[:limit]


def interface_cases():
    """The Metric interface: update in 20 batches + compute vs the one-shot function; state wire format."""
    import numpy as np

    import nlgmetrics
    from nlgmetrics import MetricState

    hyps, refs = _wmt17_pool(20_000)
    docs = cnndm()
    summaries = [doc[name] for name in ("pointer-gen-cov", "pointer-gen", "baseline") for doc in docs][:20_000]
    summary_refs = [doc["reference"] for _ in range(3) for doc in docs][:20_000]

    def batched(name, hypotheses, references, batches=20, **options):
        def run():
            metric = nlgmetrics.metric(name, **options)
            size = -(-len(hypotheses) // batches)
            for start in range(0, len(hypotheses), size):
                metric.update(hypotheses[start:start + size], references[start:start + size])
            return metric.compute().score
        return run

    data = f"WMT17 en-de, {len(hyps)} segments (16 systems' outputs, in order)"
    for name, function in (("bleu", nlgmetrics.bleu), ("chrf", nlgmetrics.chrf)):
        yield Case(f"{name}: update in 20 batches + compute", data, batched(name, hyps, refs),
                   {"one-shot function": lambda f=function: f(hyps, refs).score}, repeats=5,
                   target="within 5% of the one-shot function (ratio >= 0.95x)")
    yield Case("rouge: update in 20 batches + compute", f"CNN/DM test, {len(summaries)} summaries (3 systems)",
               batched("rouge", summaries, summary_refs),
               {"one-shot function": lambda: nlgmetrics.rouge(summaries, summary_refs).rouge1}, repeats=5,
               target="within 5% of the one-shot function (ratio >= 0.95x)")

    rows = nlgmetrics.metric("bleu").update(hyps, refs).state()
    tiles = -(-1_000_000 // len(hyps))
    big = MetricState("bleu", rows.options, {name: np.concatenate([array] * tiles)[:1_000_000]
                                              for name, array in rows.arrays.items()}, rows.kinds, 1_000_000,
                      rows.ref_counts)
    payload = big.to_bytes()
    state_data = "BLEU state of 1,000,000 segments (20,000 real WMT17 rows tiled), 88 MB"
    yield Case("MetricState.to_bytes (1M-segment BLEU)", state_data, big.to_bytes, {}, repeats=3, target="< 0.1 s")
    yield Case("MetricState.from_bytes (1M-segment BLEU)", state_data, lambda: MetricState.from_bytes(payload), {},
               repeats=3, target="< 0.1 s")
    yield Case("Metric.merge of a 1M-segment BLEU state", state_data,
               lambda: nlgmetrics.metric("bleu").merge(big).state(), {}, repeats=3, target="< 0.1 s")


GROUPS.update({"interface": interface_cases})

GROUPS.update({"nltk_mt": nltk_mt_cases, "diversity": diversity_cases})


def error_rate_cases():
    """WER/CER (jiwer), CharacTER (cer), CharCut (charcut): real WMT17 en-de outputs of every system."""
    import nlgmetrics

    hyps, refs = _wmt17_pool(20_000)
    data = f"WMT17 en-de, {len(hyps)} segments (all systems), one reference"
    try:
        import jiwer
    except ImportError:
        yield "WER/CER: jiwer not installed"
    else:
        yield Case("corpus WER (+MER/WIL/WIP, counts)", data, lambda: nlgmetrics.wer(hyps, refs).score,
                   {"jiwer.process_words": lambda: jiwer.process_words(refs, hyps).wer}, target=">= 3x jiwer")
        yield Case("corpus CER", data, lambda: nlgmetrics.cer(hyps, refs).score,
                   {"jiwer.cer": lambda: jiwer.cer(refs, hyps)}, target=">= 3x jiwer")
    try:
        import cer
    except ImportError:
        yield "CharacTER: cer not installed"
    else:
        few_hyps, few_refs = hyps[:5000], refs[:5000]

        def cer_package():
            cer.cer.calculate_levenshtein.cache_clear()  # its lru_cache would remember the previous repeat
            return cer.calculate_cer_corpus([h.split() for h in few_hyps], [r.split() for r in few_refs])["mean"]

        yield Case("CharacTER (mean of segments)", f"WMT17 en-de, first {len(few_hyps)} of the pool",
                   lambda: nlgmetrics.character(few_hyps, few_refs).score, {"cer 1.2.0 (HF evaluate)": cer_package},
                   repeats=5, target=">= 20x cer")  # ~12 ms a call: more rounds, so one stray wake-up does not decide
    try:
        import charcut
    except ImportError:
        yield "CharCut: charcut not installed"
    else:
        few_hyps, few_refs = hyps[:1000], refs[:1000]
        yield Case("CharCut", f"WMT17 en-de, first {len(few_hyps)} of the pool",
                   lambda: nlgmetrics.charcut(few_hyps, few_refs).score,
                   {"charcut 1.1.1 (HF evaluate)": lambda: charcut.calculate_charcut(few_hyps, few_refs)[0]},
                   repeats=2, target=">= 20x charcut")


GROUPS.update({"errrates": error_rate_cases})
