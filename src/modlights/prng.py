"""Old import path of :mod:`modlights.play.prng` (moved there; see DESIGN.md, "group
by role"). ``import modlights.prng`` gives the very same module object, so attribute
reads and monkeypatching behave exactly as before."""
import sys

from .play import prng as _module

sys.modules[__name__] = _module
