#!/bin/sh
# Headless Chromium and the Noto CJK fonts for tests/test_report.py (Debian/Ubuntu; needs root).
# The report tests skip, saying why, when no chromium is on PATH.
set -eu
if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
    echo "chromium and fonts-noto-cjk already installed"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
chromium --version
