#!/usr/bin/env bash
# Short fuzz smoke for CI: builds every cargo-fuzz target (fuzz/fuzz_targets) and runs each for a few seconds,
# starting from the kept corpus (fuzz/corpus/<target>), which is read but never written. Fails on the first
# crash, leaving the input in fuzz/artifacts/<target>/. Skips (exit 0, with a message) when cargo-fuzz or a
# nightly toolchain is not installed: the kept corpus is still replayed by `cargo test` (src/fuzz_checks).
#
# Usage: tools/fuzz_smoke.sh [SECONDS_PER_TARGET (default 5)] [TARGET ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-5}"
shift || true

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz smoke skipped: no nightly Rust toolchain (rustup toolchain install nightly)"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz smoke skipped: cargo-fuzz is not installed (cargo install cargo-fuzz)"
    exit 0
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
# No sanitizer: the targets are safe Rust apart from a few checked spots; this keeps the build short.
cargo +nightly fuzz build --sanitizer none --debug-assertions
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
for target in "${targets[@]}"; do
    mkdir -p "$scratch/$target" "fuzz/artifacts/$target"
    # New inputs go to the scratch folder (listed first); the kept corpus is only read.
    if cargo +nightly fuzz run --sanitizer none --debug-assertions "$target" "$scratch/$target" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=4096 \
        -artifact_prefix="fuzz/artifacts/$target/" >"$scratch/$target.log" 2>&1; then
        runs=$(grep -oE '^Done [0-9]+ runs' "$scratch/$target.log" | grep -oE '[0-9]+' || echo "?")
        echo "fuzz $target: ok ($runs runs in ${seconds}s)"
        passed=$((passed + 1))
    else
        echo "fuzz $target: FAILED"
        tail -n 30 "$scratch/$target.log"
        failed=$((failed + 1))
    fi
done
echo "fuzz_smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
