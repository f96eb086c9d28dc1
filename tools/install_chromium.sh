#!/bin/sh
# Headless Chromium and the Noto CJK fonts for tests/test_report.py (Debian/Ubuntu, with apt-get as root).
# Optional: the report's browser tests skip, saying why, when no chromium is on PATH. So where this cannot
# install (not root, no apt-get, apt locked or offline) it says so in one line and exits 0, and the README's
# test command goes on.
set -u
if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
    echo "chromium and fonts-noto-cjk already installed"
    exit 0
fi
optional() {
    echo "install_chromium.sh: Chromium not installed ($1); it is optional: the HTML report's browser tests will skip"
    exit 0
}
[ "$(id -u)" = 0 ] || optional "needs root for apt-get"
command -v apt-get >/dev/null 2>&1 || optional "no apt-get on this system"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || optional "apt-get update failed: apt locked or no network"
apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null 2>&1 \
    || optional "apt-get install chromium fonts-noto-cjk failed"
chromium --version
