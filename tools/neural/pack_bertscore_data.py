"""Pack bert_score 0.3.13's data tables for nlgmetrics (issue 21).

Run with the oracle venv (it has bert_score 0.3.13 and pandas)::

    /work/oracle-venv/bin/python tools/neural/pack_bertscore_data.py

Writes ``python/nlgmetrics/data/bertscore/``:

- ``rescale_baseline.json.xz``: every ``bert_score/rescale_baseline/{lang}/{model}.tsv``
  of the installed wheel (72 files), as ``{"baselines": {"<lang>/<model>": [[P, R, F], ...]}}``
  with one row per layer in file order (row index == ``num_layers``).  The numbers are the
  files' own decimal text parsed as doubles; the script checks that pandas' parse (what
  bert_score uses) gives the same float32 for every value.
- ``models.json``: bert_score/utils.py's ``model2layers`` and ``lang2model`` tables
  (``lang2model`` is a defaultdict whose default is recorded under ``"default"``).
- ``LICENSE``: bert_score's MIT licence (its copyright notice must travel with the data).
"""

from __future__ import annotations

import json
import lzma
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "python/nlgmetrics/data/bertscore"


def main() -> None:
    import bert_score
    from bert_score import utils

    version = metadata.version("bert-score")
    assert version == "0.3.13", version
    root = Path(bert_score.__file__).parent / "rescale_baseline"
    OUT.mkdir(parents=True, exist_ok=True)

    baselines: dict[str, list[list[float]]] = {}
    for path in sorted(root.rglob("*.tsv")):
        key = path.relative_to(root).with_suffix("").as_posix()  # e.g. "en/microsoft/deberta-base"
        lines = path.read_text(encoding="utf-8").split("\n")
        assert lines[0] == "LAYER,P,R,F", (path, lines[0])
        rows = [line.split(",") for line in lines[1:] if line]
        assert [int(r[0]) for r in rows] == list(range(len(rows))), path
        values = [[float(x) for x in r[1:]] for r in rows]
        frame = pd.read_csv(path)  # what bert_score does
        assert np.array_equal(np.float32(frame.iloc[:, 1:].to_numpy()), np.float32(values)), path
        baselines[key] = values

    payload = {
        "source": f"bert_score {version} (Tiiiger/bert_score, MIT licence, see LICENSE): bert_score/rescale_baseline/"
        "{lang}/{model}.tsv, header LAYER,P,R,F; here one [P, R, F] row per layer, row index = num_layers",
        "columns": ["P", "R", "F"],
        "baselines": baselines,
    }
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode("utf-8")
    (OUT / "rescale_baseline.json.xz").write_bytes(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME))

    lang2model = dict(utils.lang2model)
    lang2model["default"] = utils.lang2model.default_factory()
    models = {
        "source": f"bert_score {version} bert_score/utils.py: model2layers and lang2model (MIT licence, see LICENSE); "
        "lang2model is a defaultdict, its default is under 'default'",
        "bert_score_reported_version": bert_score.__version__,
        "model2layers": dict(utils.model2layers),
        "lang2model": lang2model,
    }
    (OUT / "models.json").write_text(json.dumps(models, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    licence = Path(metadata.distribution("bert-score").locate_file("bert_score-0.3.13.dist-info/LICENSE"))
    (OUT / "LICENSE").write_text(licence.read_text(encoding="utf-8"), encoding="utf-8")
    for path in sorted(OUT.iterdir()):
        print(f"{path.relative_to(REPO)}: {path.stat().st_size} bytes")
    print(f"{len(baselines)} baseline files, {len(models['model2layers'])} models in model2layers")


if __name__ == "__main__":
    main()
