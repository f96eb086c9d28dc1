"""The package imports, exposes its version and ships its typing marker."""

from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.core.inputs import hypotheses_list, references_lists
from nlgmetrics.core.signature import Signature


def test_version_matches_the_extension():
    from nlgmetrics import _core

    assert nlgmetrics.__version__ == _core.__version__ == "0.1.0"


def test_py_typed_is_shipped():
    assert (Path(nlgmetrics.__file__).parent / "py.typed").is_file()


def test_signature_string_and_dict():
    sig = Signature("BLEU", (("nrefs", "2"), ("tok", "13a")))
    assert str(sig) == f"BLEU|nrefs:2|tok:13a|version:nlgmetrics-{nlgmetrics.__version__}"
    assert sig.get("tok") == "13a"
    assert sig.to_dict()["nrefs"] == "2"
    with pytest.raises(KeyError):
        sig.get("smooth")


class TestValidation:
    def test_single_string_is_not_a_hypothesis_list(self):
        with pytest.raises(TypeError, match="hypotheses must be a sequence"):
            hypotheses_list("a sentence")

    def test_non_string_hypothesis_is_named_by_index(self):
        with pytest.raises(TypeError, match=r"hypotheses\[1\] must be str, got int"):
            hypotheses_list(["ok", 3])

    def test_not_iterable(self):
        with pytest.raises(TypeError, match="got int"):
            hypotheses_list(5)

    def test_reference_count_mismatch(self):
        with pytest.raises(ValueError, match="2 entries but there are 3 hypotheses"):
            references_lists(["a", "b"], 3)

    def test_empty_reference_set(self):
        with pytest.raises(ValueError, match=r"references\[1\] is empty"):
            references_lists(["a", []], 2)

    def test_bad_reference_types(self):
        with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be str"):
            references_lists([["a", None]], 1)
        with pytest.raises(TypeError, match=r"references\[0\] must be a str or a sequence"):
            references_lists([7], 1)
        with pytest.raises(TypeError, match="not a single str"):
            references_lists("abc", 3)
        with pytest.raises(TypeError, match="must be a sequence"):
            references_lists(3, 3)

