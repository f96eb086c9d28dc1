"""Issue 24 item 4: the command line asks the metric's class (its preset's subclass) what a preset does
differently, instead of per-preset ``if``s: ``options_class``, ``cli_sentence_level``, ``sentence_lines``."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.metrics.bleu.metric import BLEU, CocoBLEU, NltkBLEU, SacreBLEU
from nlgmetrics.metrics.chrf import CHRF


def test_options_class_is_the_preset_subclass():
    assert BLEU.options_class({}) is SacreBLEU
    assert BLEU.options_class({"preset": "nltk"}) is NltkBLEU
    assert BLEU.options_class({"preset": "coco"}) is CocoBLEU
    assert NltkBLEU.options_class({}) is NltkBLEU  # a preset answers itself
    assert CHRF.options_class({"char_order": 6}) is CHRF
    with pytest.raises(ValueError, match="unknown preset 'moses'"):
        BLEU.options_class({"preset": "moses"})


def test_sentence_level_turns_effective_order_on_for_sacrebleu_only():
    for cls, expected in ((SacreBLEU, True), (NltkBLEU, None), (CocoBLEU, None), (CHRF, None)):
        args = argparse.Namespace(effective_order=None)
        cls.cli_sentence_level(args)
        assert args.effective_order is expected, cls.__name__


def test_sentence_lines_are_sacrebleus_form_for_its_preset_only():
    hyps, refs = ["the cat sat on the mat", "a dog"], ["the cat is on the mat", "a dog barks"]
    result = nlgmetrics.bleu(hyps, refs)
    lines = SacreBLEU.sentence_lines(result, {"preset": "sacrebleu"}, 2)
    assert len(lines) == 2 and all(line.startswith("BLEU|") for line in lines)
    assert f"= {nlgmetrics.sentence_bleu(hyps[0], [refs[0]]).score:.2f} " in lines[0]
    assert NltkBLEU.sentence_lines(nlgmetrics.bleu(hyps, refs, preset="nltk"), {"preset": "nltk"}, 2) is None
    assert CHRF.sentence_lines(nlgmetrics.chrf(hyps, refs), {}, 2) is None


def test_the_command_line_names_no_preset():
    cli = Path(nlgmetrics.__file__).parent / "cli"
    for name in ("commands.py", "output.py"):
        source = (cli / name).read_text(encoding="utf-8")
        assert not re.search(r"cls\.name ==|[\"']sacrebleu[\"']", source), name
