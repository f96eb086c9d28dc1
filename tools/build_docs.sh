#!/bin/sh
# Builds the documentation site into site/ with `mkdocs build --strict` (any warning fails the build):
# every page, every docstring mkdocstrings renders, every link. Needs the package importable and the docs extra:
#   pip install ".[docs]" && tools/build_docs.sh
set -eu
cd "$(dirname "$0")/.."
# README.zh-CN.md lives at the top (linked from README.md); the site shows the same file. Written beside and
# renamed into place, so that a test reading docs/*.md meanwhile (tests run this script) never sees half a file.
sed "s/(README.md)/(index.md)/" README.zh-CN.md > docs/.zh-CN.md.part
mv docs/.zh-CN.md.part docs/zh-CN.md
PYTHONPATH="tools${PYTHONPATH:+:$PYTHONPATH}" python -m mkdocs build --strict --site-dir "${1:-site}"
