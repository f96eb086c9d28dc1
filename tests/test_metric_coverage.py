"""Every registered metric is documented, on the command line and in the contract tests (python/nlgmetrics/core/
README.md, "Adding a metric"): a new metric that forgets one of them fails here, naming what is missing.

- its function ``nlgmetrics.<name>`` exists and a reference page in the site's nav (mkdocs.yml) documents it with a
  ``::: …`` directive (naming the function, its module, or a module whose ``members`` list it);
- docs/cli.md's command table has its row (the first cell names the subcommand in backticks), and the command
  line has the subcommand;
- tests/test_metric_interface.py's ``CASES`` score it (split, merge, bytes, pickles, result shape).
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.core.registry import metric_classes, resolve

REPO = Path(__file__).resolve().parent.parent
#: Registered metrics that the contract tests cannot run as they are, and where their contract is tested instead.
CONTRACT_ELSEWHERE = {
    "comet": "update() also takes sources=: tests/test_comet.py merges its states through bytes",
}
METRICS = sorted(metric_classes())


def nav_pages() -> list[str]:
    """The Markdown pages mkdocs.yml's nav lists (paths under docs/)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:", 1)[1]
    return re.findall(r"^\s+- (?:[^:\n]+: )?([\w./-]+\.md)\s*$", nav, re.M)


def documented_objects(page: Path) -> list:
    """What a page's mkdocstrings directives document: ``::: target`` (a module: its ``members:`` if listed, else all
    of its public functions; or a function or class)."""
    objects = []
    for match in re.finditer(r"^::: ([\w.]+)\n((?:[ \t]+.*\n)*)", page.read_text(encoding="utf-8"), re.M):
        target, options = match.group(1), match.group(2)
        module_name, _, attribute = target.rpartition(".")
        try:
            obj = importlib.import_module(target)
        except ImportError:
            obj = getattr(importlib.import_module(module_name), attribute)
        if not inspect.ismodule(obj):
            objects.append(obj)
            continue
        members = re.search(r"members:\s*\[([^\]]*)\]", options)
        names = ([name.strip() for name in members.group(1).split(",")] if members
                 else [name for name in vars(obj) if not name.startswith("_")])
        objects += [getattr(obj, name) for name in names if hasattr(obj, name)]
    return objects


@pytest.fixture(scope="module")
def documented():
    pages = [REPO / "docs" / page for page in nav_pages()]
    return {id(obj): page for page in pages if page.exists() for obj in documented_objects(page)}


def test_the_nav_parser_reads_mkdocs_yml():
    pages = nav_pages()
    assert "reference/bleu.md" in pages and "index.md" in pages


@pytest.mark.parametrize("name", METRICS)
def test_a_reference_page_documents_the_metric(name, documented):
    function = getattr(nlgmetrics, name, None)
    assert callable(function), f"registered metric {name!r} has no function nlgmetrics.{name} (add it to _EXPORTS)"
    assert id(function) in documented, (
        f"no page in mkdocs.yml's nav documents nlgmetrics.{name}: add `::: {function.__module__}.{name}` to its "
        "reference page (docs/reference/<family>.md)")


def _cli_rows() -> list[str]:
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    return [line.split("|")[1] for line in text.splitlines() if line.startswith("| `")]


@pytest.mark.parametrize("name", METRICS)
def test_the_command_line_page_has_the_metric_s_row(name):
    from nlgmetrics.cli.commands import build_parser

    assert any(f"`{name}`" in first_cell for first_cell in _cli_rows()), (
        f"docs/cli.md's command table has no row naming `{name}`")
    subcommands = next(action.choices for action in build_parser()._actions if getattr(action, "choices", None))
    assert name in subcommands, f"`nlgmetrics {name}` is not a subcommand"


def _contract_classes() -> set:
    import test_metric_interface

    return {resolve(case[0])[0] for case in test_metric_interface.CASES}


@pytest.mark.parametrize("name", METRICS)
def test_the_contract_tests_score_the_metric(name):
    if name in CONTRACT_ELSEWHERE:
        pytest.skip(CONTRACT_ELSEWHERE[name])
    assert metric_classes()[name] in _contract_classes(), (
        f"tests/test_metric_interface.py's CASES have no case for {name!r}: add (name, options, data, order_free)")
