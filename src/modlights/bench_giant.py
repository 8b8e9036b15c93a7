"""Old import path of the giant-board benchmark, now in :mod:`modlights.cli.workloads`
(with the other workloads of ``modlights bench``); the very same module object."""
import sys

from .cli import workloads as _module

sys.modules[__name__] = _module
