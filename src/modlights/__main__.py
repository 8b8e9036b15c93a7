"""``python -m modlights``: the same as the ``modlights`` command."""
import sys

from .cli import main

sys.exit(main())
