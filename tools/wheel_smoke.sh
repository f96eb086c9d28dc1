#!/usr/bin/env bash
# The wheel a user installs without Rust: builds the abi3 wheel (`maturin build --release`), installs it into a
# fresh virtual environment (no system site-packages, run outside the checkout) and runs the README Quickstart's
# sample there, so a packaging mistake (a data file or module left out of the wheel) fails CI.
# The build is for the interpreter that `pip` uses (`-i`), so the release artefacts left in target/release are
# those the README test command's `pip install .` asks for: it reuses them (a few seconds) instead of building
# again (about 4 minutes with fat LTO).
#
# Usage: tools/wheel_smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d /tmp/nlgmetrics-wheel.XXXXXX)"
trap 'rm -rf "$work"' EXIT
start=$SECONDS
python="$(python -c 'import sys; print(sys.executable)')"
# maturin as pip's isolated build gets it (pyproject.toml's build-system requires): the same version, the same
# cargo fingerprints.
"$python" -m venv "$work/build"
"$work/build/bin/python" -m pip install --quiet "maturin>=1.5,<2.0"
"$work/build/bin/maturin" build --release --interpreter "$python" --out "$work/dist"
wheels=("$work"/dist/nlgmetrics-*-abi3-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
    echo "wheel smoke: expected one abi3 wheel in $work/dist, found: $(ls "$work/dist")" >&2
    exit 1
fi
built=$SECONDS

"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "${wheels[0]}"
# run outside the checkout, and check the package imported is the wheel's
(cd "$work" && "$work/venv/bin/python" -c "import nlgmetrics, sys; sys.exit(not nlgmetrics.__file__.startswith('$work/venv/'))")
(cd "$work" && "$work/venv/bin/nlgmetrics" sample)
echo "wheel smoke: $(basename "${wheels[0]}") built in $((built - start)) s, installed and sampled in $((SECONDS - built)) s"
