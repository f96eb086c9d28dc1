#!/usr/bin/env bash
# The wheel a user installs without Rust: builds the abi3 wheel (`maturin build --release`), installs it into a
# fresh virtual environment (no system site-packages, run outside the checkout) and runs the README Quickstart's
# sample there, so a packaging mistake (a data file or module left out of the wheel) fails CI.
# The release build is left in target/release, where the README test command's `pip install .` reuses it.
#
# Usage: tools/wheel_smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d /tmp/nlgmetrics-wheel.XXXXXX)"
trap 'rm -rf "$work"' EXIT
command -v maturin >/dev/null || python -m pip install --quiet "maturin>=1.5,<2.0"

start=$SECONDS
maturin build --release --out "$work/dist"
wheels=("$work"/dist/nlgmetrics-*-abi3-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
    echo "wheel smoke: expected one abi3 wheel in $work/dist, found: $(ls "$work/dist")" >&2
    exit 1
fi
built=$SECONDS

python -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "${wheels[0]}"
(cd "$work" && "$work/venv/bin/nlgmetrics" sample)
echo "wheel smoke: $(basename "${wheels[0]}") built in $((built - start)) s, installed and sampled in $((SECONDS - built)) s"
