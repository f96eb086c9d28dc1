"""The sample corpus shipped inside the package (real WMT17 en→de outputs; see data/sample/README.md).

>>> paths = sample_paths()
>>> sorted(paths["systems"])[:2]
['LIUM-NMT', 'PROMT-Rule-based']
>>> len(open(paths["reference"], encoding="utf-8").read().splitlines())
300
"""

from __future__ import annotations

from pathlib import Path

SAMPLE_DIR = Path(__file__).parent / "data" / "sample"


def sample_paths() -> dict:
    """``{"reference": path, "systems": {name: path}}`` for the bundled sample."""
    systems = {}
    for path in sorted(SAMPLE_DIR.glob("newstest2017.*.en-de.hyp.de")):
        systems[path.name[len("newstest2017."):-len(".en-de.hyp.de")]] = str(path)
    return {"reference": str(SAMPLE_DIR / "newstest2017.en-de.ref.de"), "systems": systems}
