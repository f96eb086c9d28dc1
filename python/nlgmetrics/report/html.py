"""Renders the report's data (``build.build``) as one self-contained HTML page: inline CSS, static SVG,
no scripts, no fonts or images fetched (system fonts, Noto CJK first for Chinese and Japanese).

Text cells carry ``dir="auto"`` (right-to-left scripts lay out correctly) and the target ``lang``.
"""

from __future__ import annotations

from html import escape
from typing import Any, Dict, List, Optional

from nlgmetrics.report import svg
from nlgmetrics.report.highlight import is_wide

CSS = """
:root { --better: #0a6b2d; --worse: #a4161a; --muted: #666; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC",
       "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans Arabic", "Noto Sans Hebrew", sans-serif;
       margin: 1.5rem auto; max-width: 1400px; padding: 0 1rem; color: #111; line-height: 1.4; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { border-bottom: 2px solid #ccc; margin-top: 2rem; }
h3 { margin-bottom: .3rem; }
nav ol { columns: 2; font-size: .95rem; } .note { color: var(--muted); font-size: .9rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #ccc; padding: .25rem .45rem; vertical-align: top; }
th { background: #f2f2f2; text-align: left; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.better { color: var(--better); font-weight: 600; } .worse { color: var(--worse); font-weight: 600; }
.same { color: var(--muted); } .verdict { display: block; font-size: .8rem; white-space: nowrap; }
.grid { display: flex; flex-wrap: wrap; gap: 0 1.5rem; } .small { font-size: .75rem; color: var(--muted); }
.text { max-width: 46rem; } .wrap { overflow-x: auto; }
.m1 { background: #fff1b8; } .m2 { background: #ffd966; } .m3 { background: #f6b26b; } .m4 { background: #e69138; }
.c { background: #d9ead3; } .lcs { text-decoration: underline; text-decoration-thickness: 2px;
      text-decoration-color: #0072B2; text-underline-offset: 3px; }
.scatters { display: flex; flex-wrap: wrap; gap: .5rem; } .scatters figure { margin: 0; text-align: center; }
figcaption { font-size: .8rem; } .tick, .legend { font-size: 10px; font-family: inherit; }
.key { margin-right: 1rem; white-space: nowrap; } .swatch { display: inline-block; width: .8rem; height: .8rem;
      margin-right: .25rem; vertical-align: middle; }
code, .sig { font-family: ui-monospace, "Noto Sans Mono", monospace; font-size: .8rem; word-break: break-all; }
@media print { body { max-width: none; margin: 0; } .wrap { overflow: visible; } table { font-size: .75rem; } h2 { break-before: auto; } table, figure, svg { break-inside: avoid; }
  .m1, .m2, .m3, .m4, .c, th { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""

# verdict -> (CSS class, symbol, words shown, tooltip)
VERDICTS = {"better": ("better", "▲", "better", "significantly better than the baseline"),
            "worse": ("worse", "▼", "worse", "significantly worse than the baseline"),
            "no significant difference": ("same", "≈", "not significant", "no significant difference from the baseline"),
            "baseline": ("same", "◆", "baseline", "the baseline")}


def _fmt(value: Optional[float], top: float) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}" if top > 1 else f"{value:.4f}"


def _name(system: str) -> str:
    """A system name, isolated (``<bdi>``): a name holding an unterminated U+202E (right-to-left override) or other
    direction controls cannot reverse or reorder the text around it (the legend next to the wrong colours)."""
    return f"<bdi>{escape(system)}</bdi>"


def _text_cell(text: str, lang: str, inner: Optional[str] = None, tag: str = "td") -> str:
    return f'<{tag} class="text" dir="auto"{lang}>{inner if inner is not None else escape(text)}</{tag}>'


def _score_table(data: Dict[str, Any]) -> str:
    table = data["table"]
    head = "".join(f"<th>{escape(m['label'])}{' ↓' if not m['higher_is_better'] else ''}</th>" for m in table["metrics"])
    rows = []
    for index, system in enumerate(data["systems"]):
        cells = [f'<th dir="auto">{_name(system)}{" (baseline)" if index == 0 else ""}</th>']
        for metric in table["metrics"]:
            entry = metric["rows"][index]
            top = data["segments"][metric["key"]]["top"]
            css, symbol, words, tooltip = VERDICTS[entry["verdict"]]
            p = "" if entry["p_value"] is None else f", p = {entry['p_value']:.3f}"
            cells.append(
                f'<td class="num score" data-metric="{escape(metric["label"])}" data-system="{escape(system)}" '
                f'data-value="{entry["score"]!r}" data-ci-low="{entry["ci_low"]!r}" data-ci-high="{entry["ci_high"]!r}"'
                f' data-p="{entry["p_value"]!r}" data-verdict="{entry["verdict"]}">'
                f'<span class="value">{_fmt(entry["score"], top)}</span>'
                f'<span class="verdict note">[{_fmt(entry["ci_low"], top)}, {_fmt(entry["ci_high"], top)}]</span>'
                f'<span class="verdict {css}" title="{tooltip}">{symbol} {words}{p}</span></td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<div class='wrap'><table><thead><tr><th>system</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody>"
            f'</table></div><p class="note">Each cell: corpus score; in brackets its 95% bootstrap interval (mean ± half-width of '
            f"{table['n_samples']} paired resamples, seed {table['seed']}, as sacreBLEU); and the paired bootstrap "
            f"test against the baseline: <span class='better'>▲ better</span> or <span class='worse'>▼ worse</span> "
            f"when p &lt; {table['alpha']} in the metric's own direction (↓: lower is better), "
            f"<span class='same'>≈ not significant</span> otherwise. Colour only repeats the words."
            + (f" The resamples were drawn in {table['blocks']} blocks to bound memory." if table.get("blocks", 1) > 1 else "")
            + "</p>")


def _distributions(data: Dict[str, Any]) -> str:
    metrics = data["metrics"]
    head = "".join(f"<th>{escape(data['segments'][k]['label'])} (0–{data['segments'][k]['top']:g})</th>"
                   for k in metrics)
    rows = []
    for system in data["systems"]:
        cells = [f'<th dir="auto">{_name(system)}</th>']
        for key in metrics:
            hist = data["segments"][key]["histograms"][system]
            label = f"{system}: segment {data['segments'][key]['label']} in 10 bins, counts {hist['counts']}"
            cells.append(f"<td>{svg.sparkline_bars(hist['counts'], label=label)}"
                         f"<span class='note'> mean {_fmt(hist['mean'], data['segments'][key]['top'])}</span></td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<div class='wrap'><table><thead><tr><th>system</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody>"
            "</table></div><p class='note'>Ten equal bins from 0 to the scale's top (TER above 100 in the last bin); "
            "bar heights are counts of segments. BLEU per segment is sentence BLEU with effective order.</p>")


def _bucket_table(labels: List[str], counts: Dict[str, List[int]], means: Dict[str, List[Optional[float]]],
                  top: float, counts_shown_once: bool) -> str:
    """Systems as rows, buckets as columns; cells: mean score (shaded), with the segment count."""
    known = [v for values in means.values() for v in values if v is not None]
    low, high = (min(known), max(known)) if known else (0.0, 1.0)
    head = "<th>system</th>" + "".join(f"<th>{escape(label)}</th>" for label in labels)
    rows = []
    if counts_shown_once:
        only = next(iter(counts.values()))
        rows.append("<tr><th>segments</th>" + "".join(f"<td class='num'>{c}</td>" for c in only) + "</tr>")
    for name, values in means.items():
        cells = []
        for i, value in enumerate(values):
            count = "" if counts_shown_once else f"<br><span class='small'>n={counts[name][i]}</span>"
            cells.append(f'<td class="num" style="{svg.shade(value, low, high)}">{_fmt(value, top)}{count}</td>')
        rows.append(f'<tr><th dir="auto">{_name(name)}</th>{"".join(cells)}</tr>')
    return f"<div class='wrap'><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"


def _buckets(data: Dict[str, Any]) -> str:
    parts = []
    for key in data["metrics"]:
        segment = data["segments"][key]
        by_length = segment["by_length"]
        parts.append(f"<h3>Mean segment {escape(segment['label'])} by reference length (tokens)</h3>")
        parts.append(_bucket_table(by_length["labels"], {"all": by_length["counts"]}, by_length["means"],
                                   segment["top"], True))
    primary = data["segments"][data["primary"]]
    diff = primary["by_length_diff"]
    labels = next(iter(diff.values()))["labels"]
    parts.append(f"<h3>Mean segment {escape(primary['label'])} by length difference (output − reference tokens)</h3>")
    parts.append(_bucket_table(labels, {n: diff[n]["counts"] for n in data["systems"]},
                               {n: diff[n]["means"][n] for n in data["systems"]}, primary["top"], False))
    parts.append("<p class='note'>n: the system's segments in the bucket. Buckets and cutoffs are compare-mt's; "
                 "lengths count the word tokens of the first reference.</p>")
    return "".join(parts)


def _word_accuracy(data: Dict[str, Any]) -> str:
    fm = data["word_fmeasure"]
    series = [(n, fm[n]["fmeasure"]) for n in data["systems"]]
    chart = svg.line_chart(fm["labels"], series, 1.0, "word F-measure by frequency in the reference")
    head = "<th>frequency</th>" + "".join(f"<th>{escape(label)}</th>" for label in fm["labels"])
    rows = ["<tr><th>reference words</th>" + "".join(f"<td class='num'>{c}</td>" for c in fm["reference_totals"]) + "</tr>"]
    for n in data["systems"]:
        cells = "".join(f'<td class="num fm" data-bucket="{i}" data-system="{escape(n)}" data-value="{value!r}">'
                        f"{value:.4f}</td>" for i, value in enumerate(fm[n]["fmeasure"]))
        rows.append(f'<tr><th dir="auto">{_name(n)}</th>{cells}</tr>')
    return (f"<figure>{chart}</figure><div class='wrap'><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div><p class='note'>Words bucketed by how often they occur in "
            "the (first) reference, as compare-mt: F-measure of clipped word matches per bucket.</p>")


def _pairwise(data: Dict[str, Any]) -> str:
    parts = []
    head = "<th>system</th>" + "".join(f"<th>{escape(data['segments'][k]['label'])}: win / tie / loss</th>"
                                      for k in data["metrics"])
    rows = []
    for system in data["systems"][1:]:
        cells = []
        for key in data["metrics"]:
            wtl = data["segments"][key]["win_tie_loss"][system]
            bar = svg.stacked_bar([(wtl["win"], "#009E73", "win"), (wtl["tie"], "#bbbbbb", "tie"),
                                   (wtl["loss"], "#D55E00", "loss")], width=130)
            cells.append(f"<td>{bar}<br><span class='num'>{wtl['win']} / {wtl['tie']} / {wtl['loss']}</span></td>")
        rows.append(f'<tr><th dir="auto">{_name(system)}</th>{"".join(cells)}</tr>')
    parts.append(f"<div class='wrap'><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
                 "<p class='note'>Segments where the system's score is better (win), equal (tie) or worse (loss) than "
                 "the baseline's, in the metric's direction.</p>")
    primary = data["segments"][data["primary"]]
    sampled = (f" ({data['scatter_points']} of {data['n_segments']} segments, evenly spaced)"
               if data["scatter_sampled"] else "")
    figures = "".join(f"<figure>{svg.scatter(xs, ys, primary['top'], data['baseline'], system)}"
                      f'<figcaption dir="auto">{_name(system)}</figcaption></figure>'
                      for system, (xs, ys) in data["scatter"].items())
    parts.append(f"<h3>Segment {escape(primary['label'])}: system (y) against baseline (x){sampled}</h3>"
                 f"<div class='scatters'>{figures}</div>")
    return "".join(parts)


def _ngrams(data: Dict[str, Any], lang: str) -> str:
    parts = []
    for system, rows in data["ngrams"].items():
        body = "".join(f"<tr>{_text_cell(r['ngram'], lang)}<td class='num'>{r['order']}</td><td class='num'>{r['system']}"
                       f"</td><td class='num'>{r['baseline']}</td><td class='num'>{r['salience']:.3f}</td></tr>" for r in rows)
        parts.append(f'<div><h3 dir="auto">{_name(system)}</h3><table><thead><tr><th>n-gram</th><th>n</th>'
                     f"<th>matches</th><th>baseline</th><th>salience</th></tr></thead>"
                     f"<tbody>{body}</tbody></table></div>")
    return ("<p class='note'>N-grams (n ≤ 4) of the first reference that each system matches more often than the "
            "baseline, ranked by compare-mt's smoothed salience (m_sys+1)/(m_sys+m_base+2).</p>"
            "<div class='grid'>" + "".join(parts) + "</div>")


def _tokens_html(tokens: List[str], levels: List[int], lcs: Optional[set]) -> str:
    out = []
    for i, token in enumerate(tokens):
        classes = [f"m{levels[i]}"] if levels[i] else []
        if lcs is not None and i in lcs:
            classes.append("lcs")
        if i and not (is_wide(token) and is_wide(tokens[i - 1])):
            out.append(" ")
        piece = escape(token)
        out.append(f'<span class="{" ".join(classes)}">{piece}</span>' if classes else piece)
    return "".join(out)


def _chars_html(text: str, levels: List[int]) -> str:
    out, position = [], 0
    for char in text:
        if char.isspace():
            out.append(escape(char))
            continue
        level = levels[position]
        position += 1
        out.append(f'<span class="c">{escape(char)}</span>' if level >= 3 else escape(char))
    return "".join(out)


def _examples(data: Dict[str, Any], lang: str) -> str:
    if not data["examples"]:
        return "<p>Every system gives every segment the same score.</p>"
    labels = [data["segments"][k]["label"] for k in data["metrics"]]
    parts = ["<p class='note'>Segments whose " + escape(data["segments"][data["primary"]]["label"]) + " varies most "
             "across systems. Word tokens in matched n-grams of a reference are shaded by n "
             "(<span class='m1'>1</span> <span class='m2'>2</span> <span class='m3'>3</span> <span class='m4'>4</span>)"
             "; <span class='lcs'>underlined</span>: a ROUGE-L longest common subsequence (lower-cased tokens); "
             "<span class='c'>green</span> (chrF rows): characters in matched character n-grams of length ≥ 3.</p>"]
    for example in data["examples"]:
        head = "<th>system</th><th>output</th>" + "".join(f"<th>{escape(label)}</th>" for label in labels)
        rows = [f"<tr><th>reference {i + 1}</th>{_text_cell(r, lang)}" + "<td></td>" * len(labels) + "</tr>"
                for i, r in enumerate(example["references"])]
        for row in example["rows"]:
            words = _tokens_html(row["tokens"], row["word_levels"], set(row["lcs"]) if "lcs" in row else None)
            scores = "".join(f"<td class='num'>{_fmt(row['scores'][label], data['segments'][key]['top'])}</td>"
                             for label, key in zip(labels, data["metrics"]))
            rows.append(f'<tr><th dir="auto">{_name(row["system"])}</th>{_text_cell("", lang, words)}{scores}</tr>')
            if "char_levels" in row:
                chars = _chars_html(row["text"], row["char_levels"])
                rows.append(f"<tr><td class='note'>chrF</td>{_text_cell('', lang, chars)}" + "<td></td>" * len(labels) + "</tr>")
        cut = example.get("cut")
        note = (f"<p class='note'>A text of this segment is long: each output is shown up to its first {cut['tokens']:,} "
                f"tokens ({cut['chars']:,} characters for references and chrF rows), and the highlights are those of "
                "the part shown (ROUGE-L against the references' first tokens); the scores are the whole segment's.</p>"
                if cut else "")
        parts.append(f"<h3>Segment {example['index'] + 1}</h3>{note}<div class='wrap'><table><thead><tr>{head}</tr></thead>"
                     f"<tbody>{''.join(rows)}</tbody></table></div>")
    return "".join(parts)


def _signatures(data: Dict[str, Any]) -> str:
    rows = "".join(f"<tr><th>{escape(m['label'])}</th><td class='sig'>{escape(m['signature'])}</td>"
                   f"<td class='sig'>{escape(data['segments'][m['key']]['signature'])}</td></tr>"
                   for m in data["table"]["metrics"])
    return (f"<table><thead><tr><th>metric</th><th>corpus score and test</th><th>segment scores</th></tr></thead>"
            f"<tbody>{rows}</tbody></table><p>nlgmetrics {escape(data['version'])}; word analyses tokenized with "
            f"<code>{escape(data['word_tokenizer'])}</code>.</p>")


SECTIONS = [("scores", "Scores and significance"), ("distributions", "Distributions of segment scores"),
            ("buckets", "Scores by length"), ("words", "Word accuracy by frequency"),
            ("pairwise", "Each system against the baseline"), ("ngrams", "N-grams each system matches more often"),
            ("examples", "Segments where systems differ most"), ("signatures", "Signatures")]


def render(data: Dict[str, Any]) -> str:
    """The whole page as a string."""
    language = data["language"]
    lang = f' lang="{escape(language)}"' if language else ""
    bodies = {"scores": _score_table(data), "distributions": _distributions(data), "buckets": _buckets(data),
              "words": _word_accuracy(data), "pairwise": _pairwise(data), "ngrams": _ngrams(data, lang),
              "examples": _examples(data, lang), "signatures": _signatures(data)}
    nav = "".join(f'<li><a href="#{key}">{escape(title)}</a></li>' for key, title in SECTIONS)
    sections = "".join(f'<section id="{key}"><h2>{escape(title)}</h2>{bodies[key]}</section>' for key, title in SECTIONS)
    summary = (f"{len(data['systems'])} systems, {data['n_segments']} segments, up to {data['n_references']} "
               f"reference(s) per segment; baseline: <b dir=\"auto\">{_name(data['baseline'])}</b>.")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<link rel=\"icon\" href=\"data:,\"><title>{escape(data['title'])}</title><style>{CSS}</style></head>"
            f"<body><h1>{escape(data['title'])}</h1><p>{summary}</p><p>{svg.legend_items(data['systems'])}</p>"
            f"<nav><ol>{nav}</ol></nav>{sections}"
            f"<footer class='note'><p>Made by nlgmetrics {escape(data['version'])}. Self-contained: no scripts, "
            "no network requests.</p></footer></body></html>\n")
