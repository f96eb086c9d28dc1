"""``nlgmetrics.core`` never imports ``nlgmetrics.io`` (issue 24: in-memory columns are an input type like lists and
are read in ``core``; ``io/`` is storage and depends on ``core``, never back), and the modules inside ``core`` import
each other without a cycle. Imports inside functions count too: the source is parsed, not imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "python" / "nlgmetrics" / "core"


def imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` or ``from … import`` anywhere in the file names (absolute names; ``from a import b``
    gives ``a`` and ``a.b``, since ``b`` may be a submodule)."""
    package = ["nlgmetrics", "core"]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def core_modules() -> list[Path]:
    return sorted(CORE.glob("*.py"))


def test_the_parser_sees_function_local_and_relative_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from nlgmetrics.io import columns\n\nfrom ..io import tabular\nimport nlgmetrics.io.table\n")
    assert {"nlgmetrics.io.columns", "nlgmetrics.io.tabular", "nlgmetrics.io.table"} <= imported_modules(sample)


@pytest.mark.parametrize("path", core_modules(), ids=lambda path: path.name)
def test_core_does_not_import_io(path):
    bad = sorted(name for name in imported_modules(path) if name == "nlgmetrics.io" or name.startswith("nlgmetrics.io."))
    assert not bad, f"python/nlgmetrics/core/{path.name} imports {', '.join(bad)}: core must not depend on io"


def test_core_modules_import_each_other_without_a_cycle():
    graph = {path.stem: {name.split(".")[2] for name in imported_modules(path)
                         if name.startswith("nlgmetrics.core.") and (CORE / f"{name.split('.')[2]}.py").exists()}
             for path in core_modules()}
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        if module in trail:
            pytest.fail("core modules import each other: " + " -> ".join(trail[trail.index(module):] + [module]))
        if module in done:
            return
        for dependency in sorted(graph.get(module, ()) - {module}):
            visit(dependency, trail + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_io_columns_keeps_its_names():
    from nlgmetrics.core import columns
    from nlgmetrics.io import columns as io_columns

    for name in io_columns.__all__:
        assert getattr(io_columns, name) is getattr(columns, name)
    assert set(columns.__all__) <= set(io_columns.__all__)


def test_an_arrow_list_array_of_hypotheses_is_a_type_error():
    """Once the two modules called each other without end here (RecursionError)."""
    pa = pytest.importorskip("pyarrow")
    from nlgmetrics.core import inputs

    with pytest.raises(TypeError, match=r"hypotheses\[0\] must be str"):
        inputs.hypotheses_list(pa.array([["a"]]))
