"""Commands beyond one metric on text files: ``report``, ``caption`` (COCO JSON), ``squad`` (SQuAD JSON) and
``qa`` / ``exact-match`` (answers in text files). Their ``-f json`` keys are the reference tools' own names.

    nlgmetrics report -r REF… -i BASELINE SYS… [-m bleu,chrf,ter] [-l zh] -o report.html
    nlgmetrics caption ANNOTATIONS.json RESULTS.json…            (Bleu_1–4, METEOR, ROUGE_L, CIDEr)
    nlgmetrics squad DATASET.json PREDICTIONS.json [--version 2.0] (exact_match, f1 / evaluate-v2.0.py keys)
    nlgmetrics qa -r GOLD… -i PRED…  [--normalizer squad|squad_v2|mlqa|cmrc]
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from typing import Any, Dict, List

from nlgmetrics.cli.output import decimals
from nlgmetrics.io.table import format_table
from nlgmetrics.io.text_files import InputFileError, read_aligned

TASKS = ("report", "caption", "squad", "qa", "exact-match")


def _names(paths: List[str]) -> List[str]:
    names = ["<stdin>" if path == "-" else os.path.basename(path) for path in paths]
    if len(set(names)) == len(names):
        return names
    if len(set(paths)) != len(paths):  # the same file twice would be one system of the report, silently
        twice = next(path for path in paths if paths.count(path) > 1)
        raise ValueError(f"{twice} is given twice; each system needs its own file")
    return list(paths)


def add_task_commands(commands) -> None:
    """Adds the task commands to the ``nlgmetrics`` sub-parsers."""
    report = commands.add_parser("report", help="one self-contained HTML page analysing several systems",
                                 description="Scores, bootstrap intervals and paired tests against the first "
                                             "system, buckets, word accuracy, n-grams and examples, as HTML.")
    report.add_argument("-r", "--references", nargs="+", required=True, metavar="REF", help="reference file(s)")
    report.add_argument("-i", "--input", nargs="+", required=True, metavar="SYS",
                        help="system files (at least two); the first is the baseline")
    report.add_argument("-m", "--metrics", default="bleu,chrf,ter",
                        help="comma-separated: bleu chrf chrf++ ter rouge rouge1 rouge2 rougeL rougeLsum meteor "
                             "(default bleu,chrf,ter)")
    report.add_argument("-l", "--language", default=None, help="target language (zh, ja, ko pick BLEU's tokenizer)")
    report.add_argument("-o", "--output", default="-", help="HTML file to write (default: standard output)")
    report.add_argument("--n-samples", type=int, default=1000, help="paired bootstrap resamples (default 1000)")
    report.add_argument("--seed", type=int, default=12345, help="random seed (default 12345)")
    report.add_argument("--title", default="nlgmetrics report", help="page title")

    caption = commands.add_parser("caption", help="COCO caption metrics from COCO-format JSON files",
                                  description="Bleu_1-4, METEOR, ROUGE_L and CIDEr(-D) as pycocoevalcap's COCOEvalCap, "
                                              "on the images present in each results file.")
    caption.add_argument("annotations", metavar="ANNOTATIONS.json", help="COCO ground truth (with 'annotations')")
    caption.add_argument("results", nargs="+", metavar="RESULTS.json", help="COCO results: [{image_id, caption}]")
    caption.add_argument("--no-tokenize", action="store_true", help="captions are already PTB-tokenized")
    caption.add_argument("-f", "--format", choices=["text", "json"], default="text")
    caption.add_argument("-w", "--width", type=decimals, default=4, help="decimals in text output (default 4)")

    squad = commands.add_parser("squad", help="SQuAD exact match and F1 as the official scripts",
                                description="evaluate-v1.1.py (default) or evaluate-v2.0.py (--version 2.0).")
    squad.add_argument("dataset", metavar="DATASET.json")
    squad.add_argument("predictions", metavar="PREDICTIONS.json")
    squad.add_argument("--version", dest="squad_version", choices=["1.1", "2.0"], default="1.1")
    squad.add_argument("--na-prob-file", default=None, help="v2.0: JSON of no-answer probabilities")
    squad.add_argument("--na-prob-thresh", type=float, default=1.0, help="v2.0: no-answer threshold (default 1.0)")
    squad.add_argument("-f", "--format", choices=["text", "json"], default="text")
    squad.add_argument("-w", "--width", type=decimals, default=2)

    qa = commands.add_parser("qa", aliases=["exact-match"], help="exact match and F1 of answers in text files",
                             description="One answer per line; several reference files give several gold answers.")
    qa.add_argument("-r", "--references", nargs="+", required=True, metavar="GOLD")
    qa.add_argument("-i", "--input", nargs="+", default=["-"], metavar="PRED")
    qa.add_argument("--normalizer", default="squad", choices=["squad", "squad_v2", "mlqa", "cmrc"])
    qa.add_argument("-l", "--language", default=None, help="mlqa normalizer: the answers' language")
    qa.add_argument("-f", "--format", choices=["text", "json"], default="text")
    qa.add_argument("-w", "--width", type=decimals, default=2)


def run_task(args: argparse.Namespace) -> str:
    """The output of a task command (everything computed before anything is printed)."""
    if args.command == "report":
        return _run_report(args)
    if args.command == "caption":
        return _run_caption(args)
    if args.command == "squad":
        return _run_squad(args)
    return _run_qa(args)


def _run_report(args) -> str:
    from nlgmetrics.report import report

    systems, references = read_aligned(args.input, args.references)
    if len(systems) < 2:
        raise ValueError("a report needs at least two systems (-i BASELINE SYSTEM …)")
    from nlgmetrics.cli.metrics import file_options

    page = report(dict(zip(_names(args.input), systems)), references, metrics=args.metrics, language=args.language,
                  n_samples=args.n_samples, seed=args.seed, title=args.title,
                  sentence_separator=file_options("rouge")["sentence_separator"])  # as every command reads files
    if args.output == "-":
        return page.rstrip("\n")
    with open(args.output, "w", encoding="utf-8") as handle:  # only once the whole page exists
        handle.write(page)
    return f"wrote {args.output} ({len(systems)} systems, {len(references)} segments)"


def _load_json(path: str) -> Any:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputFileError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise InputFileError(f"{path}: not valid UTF-8 (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise InputFileError(f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None


def _captions_by_image(entries: Any, path: str, where: str) -> Dict[Any, List[Dict[str, str]]]:
    if not isinstance(entries, list):
        raise InputFileError(f"{path}: {where} must be a list of {{'image_id', 'caption'}} objects")
    grouped: Dict[Any, List[Dict[str, str]]] = defaultdict(list)
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or "image_id" not in entry or not isinstance(entry.get("caption"), str):
            raise InputFileError(f"{path}: {where}[{index}] needs an 'image_id' and a string 'caption'")
        grouped[entry["image_id"]].append({"caption": entry["caption"]})
    return grouped


def _run_caption(args) -> str:
    from nlgmetrics.tasks.captioning import caption_scores

    annotations = _load_json(args.annotations)
    if not isinstance(annotations, dict) or "annotations" not in annotations:
        raise InputFileError(f"{args.annotations}: not a COCO ground-truth file (no 'annotations' list)")
    ground_truth = _captions_by_image(annotations["annotations"], args.annotations, "annotations")
    results = {}
    for path, name in zip(args.results, _names(args.results)):
        produced = _captions_by_image(_load_json(path), path, "the results")
        unknown = [image for image in produced if image not in ground_truth]
        if unknown:  # COCO.loadRes: "Results do not correspond to current coco set"
            raise InputFileError(f"{path}: image_id {unknown[0]!r} is not in {args.annotations}")
        # COCOEvalCap scores the images of the results file (cocoRes.getImgIds())
        results[name] = caption_scores({image: ground_truth[image] for image in produced}, dict(produced),
                                       tokenize=not args.no_tokenize)
    if args.format == "json":
        payload = {name: result.scores for name, result in results.items()}
        return json.dumps(payload, indent=1)  # one shape: {system: scores}, whatever the number of files
    first = next(iter(results.values()))
    header = ["System", *first.scores]
    rows = [[name, *(f"{value:.{args.width}f}" for value in result.scores.values())] for name, result in results.items()]
    notes = "".join(f"\nNote: {note}" for note in first.notes)
    return format_table(header, rows) + f"\nSignature: {first.signature}" + notes


def _run_squad(args) -> str:
    from nlgmetrics.metrics.qa import squad

    dataset = _load_json(args.dataset)
    predictions = _load_json(args.predictions)
    if not isinstance(predictions, dict):
        raise InputFileError(f"{args.predictions}: predictions must be a JSON object of question id → answer")
    na_probs = _load_json(args.na_prob_file) if args.na_prob_file else None
    if na_probs is not None and args.squad_version != "2.0":
        raise ValueError("--na-prob-file applies to --version 2.0 only")
    options = {"na_probs": na_probs, "na_prob_thresh": args.na_prob_thresh} if args.squad_version == "2.0" else {}
    result = squad(predictions, dataset, version=args.squad_version, **options)
    if args.format == "json":
        return json.dumps(result.scores, indent=1)  # the official script's output
    rows = [[key, f"{value:.{args.width}f}" if isinstance(value, float) else str(value)]
            for key, value in result.scores.items()]
    return format_table(["Score", "Value"], rows) + f"\nSignature: {result.signature}"


def _run_qa(args) -> str:
    from nlgmetrics.metrics.qa import qa_scores

    systems, references = read_aligned(args.input, args.references)
    results = {name: qa_scores(answers, references, normalizer=args.normalizer, language=args.language)
               for name, answers in zip(_names(args.input), systems)}
    if args.format == "json":  # the SQuAD script's keys
        payload = {name: {"exact_match": r.exact_match, "f1": r.f1} for name, r in results.items()}
        return json.dumps(payload, indent=1)  # one shape: {system: scores}, whatever the number of files
    rows = [[name, f"{r.exact_match:.{args.width}f}", f"{r.f1:.{args.width}f}"] for name, r in results.items()]
    return format_table(["System", "EM", "F1"], rows) + f"\nSignature: {next(iter(results.values())).signature}"
