"""nlgmetrics: text-generation metrics identical to the reference implementations, and fast.

>>> import nlgmetrics
>>> nlgmetrics.__version__
'0.1.0'

The public names below are imported on first use (PEP 562), so ``import nlgmetrics`` is cheap and a
script loads only the metrics it calls. The package is laid out by concept: ``core`` (Metric,
MetricState, Result, the registry), ``metrics`` (one module or folder per family, presets beside their
family), ``stats`` (intervals and paired tests), ``tasks`` (caption suite, pairwise matrices), ``io``,
``cli`` and ``compat`` (drop-in facades; nothing else imports them).
"""

import importlib as _importlib

from nlgmetrics._core import __version__

# Public name -> the submodule that defines it (relative to this package): the names are imported on first
# use from their module alone. A registered metric's function needs no line here (``__getattr__`` asks the
# registry, which imports the metric modules once); a line only spares that discovery.
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
    "wer": ".metrics.wer",
    "mer": ".metrics.wer",
    "wil": ".metrics.wer",
    "wip": ".metrics.wer",
    "cer": ".metrics.wer",
    "character": ".metrics.character",
    "charcut": ".metrics.charcut",
    "RougeResult": ".metrics.rouge.result",
    "metric": ".core.registry",
    "list_metrics": ".core.registry",
    "Metric": ".core.metric",
    "MetricState": ".core.state",
    "Result": ".core.result",
    "rouge": ".metrics.rouge.metric",
    "gleu": ".metrics.nltk_mt",
    "nist": ".metrics.nltk_mt",
    "ribes": ".metrics.nltk_mt",
    "distinct": ".metrics.diversity",
    "self_bleu": ".metrics.diversity",
    "bertscore": ".metrics.bertscore",
    "bertscore_pairwise": ".metrics.bertscore",
    "BERTScoreResult": ".metrics.bertscore",
    "comet": ".metrics.comet",
    "comet_pairwise": ".metrics.comet",
    "COMETResult": ".metrics.comet",
    "clear_neural_cache": ".neural.cache",
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
__all__ += ["report"]  # the package nlgmetrics.report, callable as the function (see report/__init__.py)
__all__ += ["gleu", "nist", "ribes", "distinct", "self_bleu"]
__all__ += ["wer", "mer", "wil", "wip", "cer", "character", "charcut"]
__all__ += ["bertscore", "bertscore_pairwise", "BERTScoreResult", "comet", "comet_pairwise", "COMETResult",
            "clear_neural_cache"]


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
        # a registered metric without an _EXPORTS line: its module's function of the same name
        function = _importlib.import_module(".core.registry", __name__).metric_function(name)
        if function is not None:
            globals()[name] = function
            return function
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
