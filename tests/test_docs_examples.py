"""The ``>>>`` examples of the documentation pages (docs/**/*.md) run and give what they show, as the
docstrings' do (tests/test_docstrings.py). Pages show real output; this keeps it real."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = sorted(path for path in DOCS.rglob("*.md") if ">>>" in path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES, ids=[str(path.relative_to(DOCS)) for path in PAGES])
def test_page_examples(page):
    result = doctest.testfile(str(page), module_relative=False, encoding="utf-8",
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} example(s) failed in {page.relative_to(DOCS)}"
