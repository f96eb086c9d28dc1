"""The documentation site, built as tools/build_docs.sh builds it (``mkdocs build --strict``), navigates when
opened from disk: every link of every page names a file that exists (``page.html``), none a folder (which a
browser shows as a directory listing on ``file://``), and search works offline."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

REPO = Path(__file__).resolve().parent.parent
LINK = re.compile(r'(?:href|src)="([^"]*)"')

pytest.importorskip("mkdocs", reason='the docs extra is not installed: pip install ".[docs]"')


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if shutil.which("sh") is None:
        pytest.skip("needs sh for tools/build_docs.sh")
    folder = tmp_path_factory.mktemp("site")
    # The script runs `python`: this interpreter's (its nlgmetrics, its mkdocs) comes first on PATH.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(["sh", str(REPO / "tools" / "build_docs.sh"), str(folder)], cwd=REPO,
                          capture_output=True, text=True, timeout=600, env={**os.environ, "PATH": path})
    assert done.returncode == 0, done.stderr[-3000:]
    return folder


def local_links(page: Path):
    """(link, path it names) for each link of ``page`` to a file of the site (not http:, mailto:, data:, #)."""
    for link in LINK.findall(page.read_text(encoding="utf-8")):
        parts = urlsplit(link)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        yield link, (page.parent / unquote(parts.path)).resolve()


def test_every_link_names_a_file(site):
    pages = sorted(page for page in site.rglob("*.html") if page.name != "404.html")  # 404: for a web server only
    assert len(pages) > 20
    broken, folders, checked = [], [], 0
    for page in pages:
        for link, target in local_links(page):
            checked += 1
            if target.is_dir() or link.endswith("/"):
                folders.append(f"{page.relative_to(site)}: {link}")
            elif not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link}")
    assert checked > 500
    assert not folders, folders[:10]
    assert not broken, broken[:10]


def test_pages_are_files_and_search_works_offline(site):
    assert (site / "index.html").is_file() and (site / "reference" / "bleu.html").is_file()
    assert not (site / "reference" / "bleu").exists()  # no folder-per-page layout
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="reference/bleu.html"' in index
    # The offline plugin inlines the search index as a script, which a file:// page may load.
    assert (site / "search" / "search_index.js").is_file()
