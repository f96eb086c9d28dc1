"""Runs a reference library's own test suite against our drop-in facade (an import shim, nothing copied).

The suites come at test time from the library's PyPI source distribution (``pip download
--no-binary :all: --no-deps``), cached in ``NLGMETRICS_SUITE_CACHE`` (default
``~/.cache/nlgmetrics/library-suites``). In a fresh interpreter, ``install(library)`` puts our facade
modules into ``sys.modules`` under the library's names (``sacrebleu``, ``rouge_score``,
``nltk.translate.*_score``); pytest then runs the library's test files unchanged, and NLTK's module
docstring examples run with the facade's functions as their globals.

Used by ``tests/test_library_suites.py``; also runnable by hand::

    python tests/_library_suites.py sacrebleu <sdist-root> <junit.xml> [pytest args...]
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import types
from pathlib import Path
from typing import Dict, List

#: The source distributions whose suites we run: (PyPI name, version, directory inside the archive).
SDISTS = {
    "sacrebleu": ("sacrebleu", "2.6.0", "sacrebleu-2.6.0"),
    "rouge_score": ("rouge-score", "0.1.2", "rouge_score-0.1.2"),
    "nltk": ("nltk", "3.10.4", "nltk-3.10.4"),
}

#: NLTK modules replaced by facade modules (NLTK's name → ours).
NLTK_FACADES = {
    "bleu_score": "nlgmetrics.compat.nltk.bleu",
    "meteor_score": "nlgmetrics.compat.nltk.meteor",
    "gleu_score": "nlgmetrics.compat.nltk.gleu_score",
    "nist_score": "nlgmetrics.compat.nltk.nist_score",
    "ribes_score": "nlgmetrics.compat.nltk.ribes_score",
    "chrf_score": "nlgmetrics.compat.nltk.chrf_score",
}


class SuiteUnavailable(RuntimeError):
    """The source distribution could not be downloaded (PyPI unreachable)."""


def cache_dir() -> Path:
    return Path(os.environ.get("NLGMETRICS_SUITE_CACHE", Path.home() / ".cache" / "nlgmetrics" / "library-suites"))


def sdist_root(library: str) -> Path:
    """The unpacked source distribution of ``library`` (downloaded once, then cached)."""
    name, version, folder = SDISTS[library]
    root = cache_dir() / folder
    if root.is_dir():
        return root
    cache_dir().mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "--disable-pip-version-check",
               "-q", "-d", str(cache_dir()), f"{name}=={version}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    archives = sorted(cache_dir().glob(f"{folder}.tar.gz"))
    if done.returncode != 0 or not archives:
        raise SuiteUnavailable(f"pip download {name}=={version} failed: {done.stderr.strip()[-300:]}")
    with tarfile.open(archives[0]) as archive:
        archive.extractall(cache_dir(), filter="data") if hasattr(tarfile, "data_filter") else archive.extractall(cache_dir())
    return root


def _alias(name: str, module: types.ModuleType) -> None:
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent and parent in sys.modules:
        setattr(sys.modules[parent], child, module)


def install(library: str, root: Path) -> None:
    """Puts the facade of ``library`` into ``sys.modules`` under the library's own module names."""
    if library == "sacrebleu":
        facade = importlib.import_module("nlgmetrics.compat.sacrebleu")
        _alias("sacrebleu", facade)
        metrics = types.ModuleType("sacrebleu.metrics")
        for class_name in ("BLEU", "CHRF", "TER"):
            setattr(metrics, class_name, getattr(facade, class_name))
        _alias("sacrebleu.metrics", metrics)
        for module in ("bleu", "chrf", "ter"):
            _alias(f"sacrebleu.metrics.{module}", importlib.import_module(f"nlgmetrics.compat.sacrebleu.{module}"))
        _alias("sacrebleu.compat", facade)  # sacreBLEU's compat module: corpus_bleu, sentence_chrf, …
        _alias("sacrebleu.significance", importlib.import_module("nlgmetrics.compat.sacrebleu.significance"))
        _alias("sacrebleu.tokenizers", importlib.import_module("nlgmetrics.compat.sacrebleu.tokenizers"))
        _alias("sacrebleu.tokenizers.tokenizer_ter", importlib.import_module("nlgmetrics.compat.sacrebleu.tokenizers.tokenizer_ter"))
    elif library == "rouge_score":
        _alias("rouge_score", importlib.import_module("nlgmetrics.compat.rouge_score"))
        for module in ("io", "rouge_scorer", "scoring", "tokenize", "tokenizers"):
            _alias(f"rouge_score.{module}", importlib.import_module(f"nlgmetrics.compat.rouge_score.{module}"))
        _install_rouge_test_util(root)
    elif library == "nltk":
        import nltk.translate  # noqa: F401  (the real package: corpora, data paths and the rest stay NLTK's)

        for name, ours in NLTK_FACADES.items():
            _alias(f"nltk.translate.{name}", importlib.import_module(ours))
        install_reference_helpers("nltk", root)  # NLTK's test package, which the installed wheel lacks
    else:
        raise ValueError(f"no facade for {library!r}")


def _install_rouge_test_util(root: Path) -> None:
    """The suite's own helper (paths of its test data), unchanged, from the sdist: its ``testdata/`` is the
    sdist's folder (filled by ``tests/_rouge_testdata.py``), not the installed package's (some wheels ship a
    ``test_util.py`` pointing beside themselves, where no test data is)."""
    spec = importlib.util.spec_from_file_location("rouge_score.test_util", root / "rouge_score" / "test_util.py")
    test_util = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(test_util)
    _alias("rouge_score.test_util", test_util)


def install_reference_helpers(library: str, root: Path) -> None:
    """For a run of the real library: only the suite's helpers that its installed package lacks."""
    if library == "rouge_score":
        import rouge_score  # noqa: F401  (the real package; only its test helper is replaced)

        _install_rouge_test_util(root)
    elif library == "nltk":
        import nltk  # noqa: F401  (the real package first: nltk.test is attached to it)

        spec = importlib.util.spec_from_file_location("nltk.test", root / "nltk" / "test" / "__init__.py",
                                                      submodule_search_locations=[str(root / "nltk" / "test")])
        package = importlib.util.module_from_spec(spec)
        _alias("nltk.test", package)
        spec.loader.exec_module(package)


def nltk_docstring_examples(root: Path, reference: bool = False) -> Dict[str, List[str]]:
    """Runs the examples in the docstrings of NLTK's metric modules with only the facade's names in scope
    (``reference``: the real NLTK module's names, for comparison).

    Returns per module the names of the docstrings whose examples all pass (``passed``) and the others
    (``failed``, with the first failing example).
    """
    outcome: Dict[str, List[str]] = {"passed": [], "failed": []}
    for name, ours in NLTK_FACADES.items():
        if name == "meteor_score" and not _nltk_has_wordnet():
            continue  # its examples need the WordNet corpus data (NLTK_DATA: see tests/_wordnet.py)
        source = (root / "nltk" / "translate" / f"{name}.py").read_text(encoding="utf-8")
        facade = importlib.import_module(f"nltk.translate.{name}" if reference else ours)
        parser, finder = doctest.DocTestParser(), _docstrings(source)
        for qualified, docstring in finder:
            globs = {key: value for key, value in vars(facade).items() if not key.startswith("__")}
            test = parser.get_doctest(docstring, globs, f"nltk.translate.{name}.{qualified}", f"{name}.py", 0)
            if not test.examples:
                continue
            failures: List[str] = []

            class Collect(doctest.DocTestRunner):
                def report_failure(self, out, test, example, got):
                    failures.append(f"{example.source.strip()} -> {got.strip()!r} (expected {example.want.strip()!r})")

                def report_unexpected_exception(self, out, test, example, exc_info):
                    failures.append(f"{example.source.strip()} -> {exc_info[0].__name__}: {exc_info[1]}")

            runner = Collect(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, out=lambda _text: None)
            (outcome["failed"] if failures else outcome["passed"]).append(test.name + (f": {failures[0]}" if failures else ""))
    return outcome


def _nltk_has_wordnet() -> bool:
    from nltk.corpus import wordnet

    try:
        wordnet.ensure_loaded()
    except LookupError:
        return False
    return True


def _docstrings(source: str):
    """(qualified name, docstring) of a module's source and its functions and classes, read with ``ast``."""
    import ast

    tree = ast.parse(source)
    found = [("__module__", ast.get_docstring(tree, clean=False) or "")]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((node.name, ast.get_docstring(node, clean=False) or ""))
    return found


def main(argv: List[str]) -> int:
    """``library sdist-root report-path pytest-args…``; ``library`` prefixed ``reference:`` runs the real library."""
    library, root, report = argv[0], Path(argv[1]), Path(argv[2])
    reference = library.startswith("reference:")
    library = library.removeprefix("reference:")
    if reference:
        install_reference_helpers(library, root)
    else:
        install(library, root)
    import pytest

    code = pytest.main(argv[3:])
    if library == "nltk":
        report.with_suffix(".doctest.json").write_text(json.dumps(nltk_docstring_examples(root, reference)))
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
