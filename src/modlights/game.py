"""Old import path of :mod:`modlights.play.game` (moved there; see DESIGN.md, "group
by role"). ``import modlights.game`` gives the very same module object, so attribute
reads and monkeypatching behave exactly as before."""
import sys

from .play import game as _module

sys.modules[__name__] = _module
