"""A Python-Markdown extension for the docs site: doctest blocks (``>>>`` lines and their output, up to a blank
line) in docstrings become ``pycon`` code blocks, so ``>>>`` is not read as nested quotes and ``[6, 2]`` in an
output line is not read as a link. Used by mkdocs.yml (tools/build_docs.sh puts tools/ on PYTHONPATH).
"""

from __future__ import annotations

from markdown import Extension
from markdown.preprocessors import Preprocessor


class DoctestFence(Preprocessor):
    def run(self, lines):
        out, index, fenced = [], 0, False
        while index < len(lines):
            line = lines[index]
            if line.lstrip().startswith("```"):
                fenced = not fenced
            if fenced or not line.lstrip().startswith(">>>"):
                out.append(line)
                index += 1
                continue
            indent = line[:len(line) - len(line.lstrip())]
            block = []
            while index < len(lines) and lines[index].strip():
                block.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index].lstrip())
                index += 1
            out += ["", indent + "```pycon", *(indent + text for text in block), indent + "```", ""]
        return out


class DoctestFenceExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(DoctestFence(md), "doctest_fence", 27)  # before fenced code (25)


def makeExtension(**kwargs):
    return DoctestFenceExtension(**kwargs)
