"""mkdocs hooks (mkdocs.yml ``hooks:``): the site lists every metric with no edit outside its own page.

- ``on_config``: each ``docs/reference/*.md`` page that mkdocs.yml's nav does not name joins the nav's
  "Reference" section, titled by its first ``# `` heading;
- ``on_page_markdown``: on ``cli.md``, each registered metric that no row of the command table names gets a row
  after the last metric row, from the registry's one-line description.

The two functions that do the work, ``reference_pages_missing`` and ``with_metric_rows``, are pure and also used
by tests/test_metric_coverage.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Sequence

DOCS = Path(__file__).resolve().parent.parent / "docs"


def page_title(path: Path) -> str:
    """The first ``# `` heading of a Markdown page (its file name without the suffix when it has none)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def reference_pages_missing(listed: Sequence[str], docs: Path = DOCS) -> List[Dict[str, str]]:
    """``[{title: "reference/x.md"}]`` for the reference pages not in ``listed`` (nav paths), sorted by path."""
    return [{page_title(path): f"reference/{path.name}"} for path in sorted((docs / "reference").glob("*.md"))
            if f"reference/{path.name}" not in listed]


def _nav_paths(nav) -> List[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [path for value in nav.values() for path in _nav_paths(value)]
    if isinstance(nav, list):
        return [path for item in nav for path in _nav_paths(item)]
    return []


def with_metric_rows(markdown: str, descriptions: Dict[str, str]) -> str:
    """``markdown`` (docs/cli.md) with a table row for each metric of ``descriptions`` (name → one line) that no
    row's first cell names in backticks, inserted after the last row that names one.

    >>> text = "| command | what |\\n|---|---|\\n| `bleu` | BLEU |\\n| `sample` | the sample |\\n"
    >>> print(with_metric_rows(text, {"bleu": "BLEU", "new_metric": "a new one"}), end="")
    | command | what |
    |---|---|
    | `bleu` | BLEU |
    | `new_metric` | a new one |
    | `sample` | the sample |
    """
    lines = markdown.split("\n")
    named = {name: index for index, line in enumerate(lines) if line.startswith("| `")
             for name in re.findall(r"`([^`]+)`", line.split("|")[1])}
    missing = [name for name in descriptions if name not in named]
    metric_rows = [index for name, index in named.items() if name in descriptions]
    if not missing or not metric_rows:
        return markdown
    at = max(metric_rows) + 1
    rows = [f"| `{name}` | {descriptions[name]} |" for name in missing]
    return "\n".join(lines[:at] + rows + lines[at:])


def on_config(config, **_kwargs):
    nav = config.get("nav") or []
    missing = reference_pages_missing(_nav_paths(nav), Path(config["docs_dir"]))
    for item in nav:
        if isinstance(item, dict) and "Reference" in item:
            item["Reference"].extend(missing)
            break
    return config


def on_page_markdown(markdown, page, **_kwargs):
    if page.file.src_uri != "cli.md":
        return markdown
    from nlgmetrics.core.registry import metric_classes

    return with_metric_rows(markdown, {name: cls.description for name, cls in metric_classes().items()})
