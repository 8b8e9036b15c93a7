"""``python -m modlights``: the same as the ``modlights`` command."""

import sys

from modlights.cli import main

sys.exit(main())
