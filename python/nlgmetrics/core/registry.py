"""The registry: every metric the package computes, by name.

A metric module registers its class with ``@register``; the registry finds the modules itself
(every module under ``nlgmetrics/metrics/`` that mentions ``@register``), so adding a metric is one
new module, with no edit to the CLI, ``compare``, ``paired_test`` or ``confidence_interval``.

>>> import nlgmetrics
>>> "bleu" in nlgmetrics.list_metrics() and "chrf++" in nlgmetrics.list_metrics()
True
>>> nlgmetrics.metric("chrf++").options["word_order"]
2
>>> nlgmetrics.metric("blue")
Traceback (most recent call last):
...
ValueError: unknown metric 'blue'; did you mean 'bleu'? (nlgmetrics.list_metrics() names them all)
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from pathlib import Path
from typing import Any, Dict, Tuple, Type

_CLASSES: Dict[str, Type[Any]] = {}
_ALIASES: Dict[str, Tuple[str, Dict[str, Any]]] = {}
_DISCOVERED = False


def register(cls: Type[Any]) -> Type[Any]:
    """Class decorator: make ``cls`` (a ``Metric`` subclass) reachable as ``metric(cls.name)`` and its aliases."""
    name = cls.name.lower()
    if not name:
        raise ValueError(f"{cls.__name__} has no name to register")
    existing = _CLASSES.get(name)
    if existing is not None and existing.__qualname__ != cls.__qualname__:
        raise ValueError(f"metric name {name!r} is taken by {existing.__module__}.{existing.__qualname__}")
    _CLASSES[name] = cls
    for alias, options in cls.aliases.items():
        _ALIASES[alias.lower()] = (name, dict(options))
    return cls


def _discover() -> None:
    """Import every metric module once (those that register a metric)."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    import nlgmetrics.metrics as package

    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.ispkg:
            continue
        path = Path(package.__path__[0]).joinpath(*info.name.split(".")[2:]).with_suffix(".py")
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        if "@register" in text:
            importlib.import_module(info.name)
    _DISCOVERED = True


def resolve(name: str) -> Tuple[Type[Any], Dict[str, Any]]:
    """The class registered as ``name`` (or an alias) and the options the alias implies."""
    if not isinstance(name, str):
        raise TypeError(f"a metric name must be str, got {type(name).__name__}")
    key = name.lower()
    if key not in _CLASSES and key not in _ALIASES:
        _discover()
    if key in _ALIASES:
        target, options = _ALIASES[key]
        return _CLASSES[target], dict(options)
    if key in _CLASSES:
        return _CLASSES[key], {}
    close = difflib.get_close_matches(key, list(_CLASSES) + list(_ALIASES), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"unknown metric {name!r}{hint} (nlgmetrics.list_metrics() names them all)")


def metric(name: str, **options: Any) -> Any:
    """A new ``Metric`` object for the metric called ``name`` with ``options`` (the function's options).

    >>> import nlgmetrics
    >>> m = nlgmetrics.metric("ter", case_sensitive=True)
    >>> m.update(["a b c"], ["a b d"]).compute().score
    33.33333333333333
    """
    cls, implied = resolve(name)
    return cls(**{**implied, **options})


def list_metrics() -> Dict[str, str]:
    """Every registered name (aliases included) with a one-line description."""
    _discover()
    names = {name: cls.description for name, cls in _CLASSES.items()}
    for alias, (target, options) in _ALIASES.items():
        implied = ", ".join(f"{key}={value!r}" for key, value in options.items())
        names[alias] = f"{_CLASSES[target].description} ({implied})" if implied else _CLASSES[target].description
    return dict(sorted(names.items()))


def metric_classes() -> Dict[str, Type[Any]]:
    """The registered classes by name (no aliases), for the CLI and the docs."""
    _discover()
    return dict(sorted(_CLASSES.items()))


def metric_function(name: str) -> Any:
    """The public function of the registered metric ``name`` (the module of its class defines it with the
    metric's name), or None: what ``nlgmetrics.<name>`` falls back on, so a new metric needs no export line.

    >>> metric_function("ter").__name__, metric_function("not-a-metric")
    ('ter', None)
    """
    import sys

    _discover()
    cls = _CLASSES.get(name)
    function = getattr(sys.modules.get(cls.__module__), name, None) if cls is not None else None
    return function if callable(function) else None


def from_state(state: Any, **settings: Any) -> Any:
    """A metric holding ``state`` (a ``MetricState``): the receiving side of a merge across machines."""
    cls, _ = resolve(state.metric)
    try:
        instance = cls.from_options(state.options, **settings)
    except TypeError as error:  # an option no version of the metric takes (a damaged or forged header)
        raise ValueError(f"the {state.metric} state's options are not this metric's: {error}") from None
    return instance.merge(state)
