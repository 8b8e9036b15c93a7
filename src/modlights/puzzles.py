"""Old import path of :mod:`modlights.play.puzzles` (moved there; see DESIGN.md, "group
by role"). ``import modlights.puzzles`` gives the very same module object, so attribute
reads and monkeypatching behave exactly as before."""
import sys

from .play import puzzles as _module

sys.modules[__name__] = _module
