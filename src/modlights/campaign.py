"""Old import path of :mod:`modlights.play.campaign` (moved there; see DESIGN.md, "group
by role"). ``import modlights.campaign`` gives the very same module object, so attribute
reads and monkeypatching behave exactly as before."""
import sys

from .play import campaign as _module

sys.modules[__name__] = _module
