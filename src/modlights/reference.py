"""Old import path of :mod:`modlights.engines.reference` (moved there; see DESIGN.md, "group
by role"). ``import modlights.reference`` gives the very same module object, so attribute
reads and monkeypatching behave exactly as before."""
import sys

from .engines import reference as _module

sys.modules[__name__] = _module
