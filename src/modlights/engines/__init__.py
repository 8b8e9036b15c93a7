"""Engines: one module per engine (or folder per family), each answering the questions
of :mod:`modlights.engines.base`; :mod:`modlights.engines.registry` chooses one.

The package is also callable: ``modlights.engines()`` is
:func:`modlights.engines.registry.engines` ({name: one-line description} of every
registered engine), so the public name and the subpackage are one object.
"""

from __future__ import annotations

import sys
import types


class _EnginesPackage(types.ModuleType):
    """This package, callable as :func:`modlights.engines.registry.engines`."""

    def __call__(self) -> dict[str, str]:
        """{name: one-line description} of every registered engine."""
        from modlights.engines.registry import engines

        return engines()


sys.modules[__name__].__class__ = _EnginesPackage
