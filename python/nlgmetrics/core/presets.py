"""Presets as registered subclasses: one metric family, one subclass per reference implementation it reproduces.

A family (``BLEU``, ``ROUGE``, ``METEOR``) is a registered ``Metric`` that names its ``default_preset``;
each preset is a subclass of it, registered with ``@Family.preset("name")``. ``Family(preset="nltk", …)``
— and so ``metric("bleu", preset="nltk")``, ``from_state`` and unpickling — builds that preset's class.
The family holds what its presets share (the options a user passes, the command line); each preset fills
the ``Metric`` slots its own way, so no method branches on the preset's name. A new preset is one subclass.

>>> from nlgmetrics.metrics.bleu.metric import BLEU
>>> m = BLEU(preset="nltk")
>>> type(m).__name__, isinstance(m, BLEU), m.options["preset"]
('NltkBLEU', True, 'nltk')
>>> BLEU.preset_names()
('sacrebleu', 'nltk', 'coco')
>>> BLEU.preset_class("coco").__name__
'CocoBLEU'
>>> BLEU(preset="moses")
Traceback (most recent call last):
...
ValueError: unknown preset 'moses'; expected one of 'sacrebleu', 'nltk', 'coco'
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Tuple, Type, TypeVar, cast

from nlgmetrics.core.metric import Metric

PresetClass = TypeVar("PresetClass", bound=Type["PresetFamily"])
Family = TypeVar("Family", bound="PresetFamily")


class PresetFamily(Metric):
    """A metric whose presets are its subclasses, chosen by the ``preset`` keyword (see the module docstring)."""

    #: Set on the family class (this marks it as a family): the preset used when none is named.
    default_preset: ClassVar[str] = ""
    #: False on presets that keep every row (``segments=False`` refused), though their reduction is a sum.
    keeps_totals: ClassVar[bool] = True
    _family: ClassVar[Type["PresetFamily"]]
    _presets: ClassVar[Dict[str, Type["PresetFamily"]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "default_preset" in cls.__dict__:
            cls._family, cls._presets = cls, {}

    @classmethod
    def preset(cls, *names: str) -> Callable[[PresetClass], PresetClass]:
        """Class decorator: register a subclass of this family as the preset(s) ``names``."""
        def add(subclass: PresetClass) -> PresetClass:
            if not issubclass(subclass, cls) or subclass is cls:
                raise TypeError(f"a {cls.__name__} preset must subclass {cls.__name__}, got {subclass.__name__}")
            for name in names:
                taken = cls._presets.get(name)
                if taken is not None and taken.__qualname__ != subclass.__qualname__:
                    raise ValueError(f"{cls.__name__} preset {name!r} is taken by {taken.__qualname__}")
                cls._presets[name] = subclass
            return subclass
        return add

    @classmethod
    def preset_names(cls) -> Tuple[str, ...]:
        """Every registered preset name of the family, in registration order."""
        return tuple(cls._family._presets)

    @classmethod
    def preset_class(cls: Type[Family], preset: Any) -> Type[Family]:
        """The class registered as ``preset``; the family's ``unknown_preset`` error for anything else."""
        chosen = cls._family._presets.get(preset) if isinstance(preset, str) else None
        if chosen is None:
            raise cls.unknown_preset(preset)
        return cast(Type[Family], chosen)

    @classmethod
    def unknown_preset(cls, preset: Any) -> Exception:
        """The error for a preset the family does not have (a family may keep its own wording)."""
        if not isinstance(preset, str):
            return TypeError(f"preset must be str, got {type(preset).__name__}")
        return ValueError(f"unknown preset {preset!r}; expected one of {', '.join(map(repr, cls.preset_names()))}")

    @classmethod
    def is_preset(cls) -> bool:
        """Whether this class is one of the family's presets (not the family itself)."""
        return cls is not cls._family

    def __new__(cls, *args: Any, **options: Any) -> "PresetFamily":
        if not cls.is_preset():
            return super().__new__(cls.preset_class(options.get("preset", cls.default_preset)))
        if "preset" in options and cls.preset_class(options["preset"]) is not cls:
            raise ValueError(f"{cls.__name__} is not preset {options['preset']!r}: use "
                             f"{cls._family.__name__}(preset={options['preset']!r})")
        return super().__new__(cls)

    def __setstate__(self, saved: Dict[str, Any]) -> None:
        """Unpickling: the preset the saved options name decides the class — also for a pickle that names the
        family itself, as those made before presets were subclasses do (``copyreg`` builds the family's
        default preset first)."""
        options = saved.get("options", {}) if isinstance(saved, dict) else {}
        self.__class__ = self.preset_class(options.get("preset", self._family.default_preset))
        super().__setstate__(saved)

    @classmethod
    def options_class(cls, options: Dict[str, Any]) -> "type[Metric]":
        """The preset class ``options["preset"]`` names (the default preset when absent)."""
        if cls.is_preset():
            return cls
        return cls.preset_class(options.get("preset", cls.default_preset))

    @classmethod
    def supports_totals(cls, options: Dict[str, Any]) -> bool:
        chosen = cls.options_class(options)
        return chosen.reduction == "sum" and getattr(chosen, "keeps_totals", True)
