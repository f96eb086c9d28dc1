"""nlgmetrics: text-generation metrics identical to the reference implementations, and fast.

>>> import nlgmetrics
>>> nlgmetrics.__version__
'0.1.0'

The public names below are imported on first use (PEP 562), so ``import nlgmetrics`` and the
``nlgmetrics`` command load only the metric they run (``nlgmetrics meteor`` never imports ROUGE,
the significance tests or NumPy-heavy helpers it does not need).
"""

import importlib as _importlib
import sys as _sys
import types as _types

from nlgmetrics._core import __version__

# Public name -> the submodule that defines it (relative to this package).
_EXPORTS = {
    "BLEUResult": ".metrics.bleu.result",
    "bleu": ".metrics.bleu.metric",
    "sentence_bleu": ".metrics.bleu.metric",
    "tokenize": ".tokenizers",
    "CHRFResult": ".metrics.chrf",
    "chrf": ".metrics.chrf",
    "sentence_chrf": ".metrics.chrf",
    "bleu_pairwise": ".tasks.pairwise",
    "chrf_pairwise": ".tasks.pairwise",
    "TERResult": ".metrics.ter",
    "sentence_ter": ".metrics.ter",
    "ter": ".metrics.ter",
    "confidence_interval": ".stats.significance",
    "paired_test": ".stats.significance",
    "MeteorResult": ".metrics.meteor.meteor15",
    "meteor": ".metrics.meteor.metric",
    "caption_scores": ".tasks.captioning",
    "cider": ".metrics.cider",
    "ptb_tokenize": ".metrics.cider",
    "exact_match": ".metrics.qa",
    "normalize_answer": ".metrics.qa",
    "qa_scores": ".metrics.qa",
    "squad": ".metrics.qa",
    "token_f1": ".metrics.qa",
    "RougeResult": ".metrics.rouge.result",
    "metric": ".core.registry",
    "list_metrics": ".core.registry",
    "Metric": ".core.metric",
    "MetricState": ".core.state",
    "Result": ".core.result",
    "rouge": ".metrics.rouge.metric",
}

__all__ = ["__version__", "bleu", "sentence_bleu", "BLEUResult"]
__all__ += ["tokenize"]
__all__ += ["CHRFResult", "chrf", "sentence_chrf", "chrf_pairwise", "bleu_pairwise", "TERResult", "ter", "sentence_ter"]
__all__ += ["paired_test", "confidence_interval"]
__all__ += ["meteor", "MeteorResult"]
__all__ += ["caption_scores", "cider", "ptb_tokenize"]
__all__ += ["exact_match", "normalize_answer", "qa_scores", "squad", "token_f1"]
__all__ += ["rouge", "RougeResult"]
__all__ += ["metric", "list_metrics", "Metric", "MetricState", "Result"]


def __getattr__(name: str):
    target = _EXPORTS.get(name)
    if target is not None:
        value = getattr(_importlib.import_module(target, __name__), name)
        globals()[name] = value
        return value
    if not name.startswith("__"):
        try:  # a submodule not imported yet (e.g. nlgmetrics.tokenizers, nlgmetrics.compat)
            return _importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(_types.ModuleType):
    """Keeps the public functions that share a submodule's name (``meteor``, ``bleu``, ``rouge`` …)
    bound to the function when the import system binds the loaded submodule on the package."""

    def __setattr__(self, name, value):
        if name in _EXPORTS and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
