"""Gathers every analysis of the report into one plain dict (rendered by ``html.render``)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from nlgmetrics.report import analyses
from nlgmetrics.report.analyses import FREQUENCY_CUTOFFS, LENGTH_CUTOFFS, LENGTH_DIFF_CUTOFFS, MetricSpec
from nlgmetrics.report.highlight import best_lcs_positions, matched_orders
from nlgmetrics.report.ngrams import TokenCorpus, salient_ngrams_of_systems

SCATTER_POINTS = 1000     # per system; more segments are sampled evenly
EXAMPLES = 10             # segments where systems differ most
NGRAMS_SHOWN = 10         # characteristic n-grams per system
SystemsArg = Union[Mapping[str, Sequence[str]], Sequence[Sequence[str]]]


def check_inputs(systems: SystemsArg, references: Sequence[Union[str, Sequence[str]]]) -> tuple:
    """(ordered name → hypotheses, per-segment reference lists), with errors naming the argument and index."""
    from nlgmetrics.core.inputs import hypotheses_list, references_lists

    if isinstance(systems, Mapping):
        named = {str(name): hypotheses_list(lines, f"systems[{name!r}]") for name, lines in systems.items()}
        if len(named) != len(systems):  # e.g. 1 and "1": one would be dropped silently
            seen: Dict[str, Any] = {}
            for name in systems:
                if str(name) in seen:
                    raise ValueError(f"systems {seen[str(name)]!r} and {name!r} have the same name {str(name)!r} "
                                     "in the report; give each system its own name")
                seen[str(name)] = name
    elif isinstance(systems, (list, tuple)):
        named = {f"sys{i + 1}": hypotheses_list(lines, f"systems[{i}]") for i, lines in enumerate(systems)}
    else:
        raise TypeError(f"systems must be a mapping of names to hypotheses or a list of hypothesis lists, "
                        f"got {type(systems).__name__}")
    if len(named) < 2:
        raise ValueError(f"systems must hold at least two systems (the first is the baseline), got {len(named)}")
    names = list(named)
    n_segments = len(named[names[0]])
    for name in names[1:]:
        if len(named[name]) != n_segments:
            raise ValueError(f"systems[{name!r}] has {len(named[name])} segments but the baseline "
                             f"{names[0]!r} has {n_segments}")
    if n_segments == 0:
        raise ValueError("a report needs at least one segment")
    return named, references_lists(references, n_segments)


def build(systems: SystemsArg, references: Sequence[Union[str, Sequence[str]]],
          metrics: Union[str, Sequence[str], Mapping[str, Any]],
          language: Optional[str] = None, n_samples: int = 1000, seed: Optional[int] = 12345, alpha: float = 0.05,
          examples: int = EXAMPLES, title: str = "nlgmetrics report",
          sentence_separator: Optional[str] = None, progress: Optional[bool] = None,
          sources: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Every analysis of the report, as plain data. ``progress``: a tqdm bar of the steps (every system
    scored with every metric, the bootstrap table, the word and n-gram analyses, the examples) with an ETA
    (None: when standard error is a terminal)."""
    from nlgmetrics.cli.progress import progress_bar
    from nlgmetrics.stats.significance import _check_n_samples

    _check_n_samples(n_samples)  # at most 10 million (10**12 ran until killed)
    named, refs = check_inputs(systems, references)
    specs = analyses.metric_specs(metrics)
    names = list(named)
    baseline = names[0]
    n_segments = len(refs)
    tokenizer = analyses.word_tokenizer_for(language)

    bar = progress_bar(len(specs) * len(names) + 3, "report", enabled=progress)
    try:
        return _build(named, refs, specs, names, baseline, n_segments, tokenizer, language, n_samples, seed, alpha,
                      examples, title, sentence_separator, lambda: bar.update(1), sources)
    finally:
        bar.close()


def _build(named, refs, specs, names, baseline, n_segments, tokenizer, language, n_samples, seed, alpha, examples,
           title, sentence_separator, step, sources=None) -> Dict[str, Any]:
    import nlgmetrics

    if sources is not None and len(sources) != n_segments:
        raise ValueError(f"sources has {len(sources)} lines but the systems have {n_segments} segments")
    scored = {spec.key: analyses.score_systems(spec, named, refs,
                                               analyses.metric_options(spec, language, sentence_separator), step,
                                               sources)
              for spec in specs}
    table = analyses.score_table(specs, scored, language, n_samples, seed, alpha)
    step()
    scores = {key: {name: result.segment_scores for name, result in by_system.items()} for key, by_system in scored.items()}
    sentence_signatures = {key: by_system[baseline].segment_signature for key, by_system in scored.items()}

    reference_tokens = analyses.tokenized_lines([r[0] for r in refs], tokenizer)
    system_tokens = {name: analyses.tokenized_lines(named[name], tokenizer) for name in names}
    corpus = TokenCorpus(reference_tokens, system_tokens)
    step()
    reference_length = corpus.lengths()
    length_bucket = analyses.bucket_of(reference_length, LENGTH_CUTOFFS)

    segments: Dict[str, Any] = {}
    for spec in specs:
        per_system = scores[spec.key]
        segments[spec.key] = {
            "label": spec.label, "top": spec.top, "higher_is_better": spec.higher_is_better,
            "signature": sentence_signatures[spec.key],
            "histograms": {n: analyses.histogram(per_system[n], spec.top, not spec.higher_is_better) for n in names},
            "by_length": analyses.sentence_buckets(length_bucket, LENGTH_CUTOFFS, per_system),
            "by_length_diff": {n: analyses.sentence_buckets(
                analyses.bucket_of(corpus.lengths(n) - reference_length, LENGTH_DIFF_CUTOFFS),
                LENGTH_DIFF_CUTOFFS, {n: per_system[n]}) for n in names},
            "win_tie_loss": {n: analyses.win_tie_loss(per_system[n], per_system[baseline], spec.higher_is_better)
                             for n in names[1:]},
        }
    primary = specs[0]
    sample = analyses.even_sample(n_segments, SCATTER_POINTS)
    scatter = {n: (scores[primary.key][baseline][sample].tolist(), scores[primary.key][n][sample].tolist())
               for n in names[1:]}
    score_matrix = np.vstack([scores[primary.key][n] for n in names])
    chosen = analyses.most_different_segments(score_matrix, examples, reference_length)
    step()
    return {
        "title": title, "version": nlgmetrics.__version__, "systems": names, "baseline": baseline,
        "n_segments": n_segments, "n_references": max(len(r) for r in refs), "language": language,
        "word_tokenizer": tokenizer, "metrics": [spec.key for spec in specs], "table": table, "segments": segments,
        "primary": primary.key, "scatter": scatter, "scatter_sampled": len(sample) < n_segments,
        "scatter_points": len(sample),
        "word_fmeasure": corpus.word_fmeasure_by_frequency(FREQUENCY_CUTOFFS),
        "ngrams": salient_ngrams_of_systems(corpus, names[1:], baseline, top=NGRAMS_SHOWN),
        "examples": [_example(index, named, refs, specs, scores, reference_tokens, system_tokens, tokenizer)
                     for index in chosen],
    }


# An example shows at most this many tokens of each text (and characters of its chrF row and references): a
# 100,000-character segment made a 5 MB page Chromium needed 2 minutes to show. The ROUGE-L highlight is computed
# on the tokens shown, against the first SHOWN_TOKENS of each reference (its pure-Python table: 69 s and 871 MB
# for one 10,000-token segment before). The page says where a text was cut.
SHOWN_TOKENS = 400
SHOWN_CHARS = 3_000


def _shown(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS]


def _example(index: int, named: Dict[str, List[str]], refs: List[List[str]], specs: Sequence[MetricSpec],
             scores: Dict[str, Dict[str, np.ndarray]], reference_tokens: List[str],
             system_tokens: Dict[str, List[str]], tokenizer: str) -> Dict[str, Any]:
    """One segment: references, and per system its text, scores and what to highlight."""
    keys = {spec.key for spec in specs}
    all_reference_tokens = [analyses.word_tokens([r], tokenizer)[0] for r in refs[index]]
    lowered_refs = [[t.lower() for t in tokens[:SHOWN_TOKENS]] for tokens in all_reference_tokens]
    reference_chars = [[c for c in r if not c.isspace()] for r in refs[index]]
    cut = any(len(r) > SHOWN_CHARS for r in refs[index]) or any(len(t) > SHOWN_TOKENS for t in all_reference_tokens)
    rows = []
    for name, hypotheses in named.items():
        all_tokens = system_tokens[name][index].split()
        tokens = all_tokens[:SHOWN_TOKENS]
        text = _shown(hypotheses[index])
        cut = cut or len(all_tokens) > SHOWN_TOKENS or len(text) < len(hypotheses[index])
        row: Dict[str, Any] = {
            "system": name, "text": text, "tokens": tokens,
            "scores": {spec.label: float(scores[spec.key][name][index]) for spec in specs},
            # matches of the tokens shown, against the whole references (left to right: as for the whole text)
            "word_levels": matched_orders(tokens, all_reference_tokens),
        }
        if keys & {"chrf", "chrf++"}:
            chars = [c for c in text if not c.isspace()]
            row["char_levels"] = matched_orders(chars, reference_chars, max_order=6)
        if any(key.startswith("rouge") for key in keys):
            row["lcs"] = sorted(best_lcs_positions([t.lower() for t in tokens], lowered_refs))
        rows.append(row)
    return {"index": index, "references": [_shown(r) for r in refs[index]],
            "reference_tokens": reference_tokens[index].split()[:SHOWN_TOKENS], "rows": rows,
            "cut": {"tokens": SHOWN_TOKENS, "chars": SHOWN_CHARS} if cut else None}
