"""Every public module's docstring examples run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import nlgmetrics

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(nlgmetrics.__path__, "nlgmetrics.") if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as error:  # optional extras (MeCab, jieba) may be absent
        pytest.skip(f"{name}: {error}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
