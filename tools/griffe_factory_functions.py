"""A griffe extension for the docs site: a module-level function made by a factory (``wer = _measure("wer")``,
its docstring set afterwards) is documented as the function it is at run time — signature and docstring, by
inspection — instead of as an attribute with no docstring, which is all static analysis sees.
Used by mkdocs.yml (``extensions:`` of the python handler).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import griffe


class FactoryFunctions(griffe.Extension):
    def on_module_members(self, *, mod: griffe.Module, agent: Any, **kwargs: Any) -> None:
        if isinstance(agent, griffe.Inspector):
            return
        candidates = [name for name, member in mod.members.items() if not member.is_alias and member.is_attribute]
        if not candidates:
            return
        try:
            runtime = importlib.import_module(mod.path)
        except Exception:  # a module that does not import is left to static analysis
            return
        inspected = None
        for name in candidates:
            value = getattr(runtime, name, None)
            if inspect.isfunction(value) and value.__doc__ and value.__module__ == mod.path and value.__name__ == name:
                if inspected is None:
                    inspected = griffe.inspect(mod.path, docstring_parser=agent.docstring_parser,
                                               docstring_options=agent.docstring_options)
                function = inspected.members[name]
                function.lineno, function.endlineno = mod.members[name].lineno, mod.members[name].endlineno
                mod.set_member(name, function)
