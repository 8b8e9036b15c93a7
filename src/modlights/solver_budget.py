"""The budgets, deadlines and progress callbacks of the Solver's searches: the default
count of coset elements, the check of a ``budget`` argument (a count or seconds), a
deadline shared out over the boards of a batch, and the check of ``progress``. Used by
:mod:`modlights.solver` and :mod:`modlights.solver_batch`; ``DEFAULT_SECONDS``, the
default deadline, is :mod:`modlights.solver`'s (set it there).
"""

from __future__ import annotations

import time
from typing import Any

from modlights.model.validation import check_budget
from modlights.native import _core
from modlights.search.minimal import deadline_after

__all__ = ["DEFAULT_BUDGET", "DEFAULT_NATIVE_BUDGET"]


#: Cosets of at most this many elements are searched whole, by count, when no budget
#: is given (well within DEFAULT_SECONDS): DEFAULT_BUDGET by the reference engine's
#: Python enumeration, DEFAULT_NATIVE_BUDGET by the C searches (the C library's value,
#: csrc/api/solver_impl.h; fewer on boards with many taps: about 2^30 word operations,
#: ml_board_default_steps). Such a search is exhaustive, so its answer is proved and the
#: same on every machine.
DEFAULT_BUDGET = 1 << 20
DEFAULT_NATIVE_BUDGET = int(_core.SEARCH_LIMITS["DEFAULT_NATIVE_BUDGET"])


def _check_budget(budget: Any, default: int = DEFAULT_BUDGET) -> tuple[int | None, float | None]:
    """budget: None (``default`` coset elements; the Solver's searches resolve None by
    ``Solver._search_budget`` instead), an int (coset elements) or a float (seconds);
    see :func:`modlights.model.validation.check_budget`."""
    return check_budget(budget, default)


_deadline = deadline_after


def _share(deadline: float | None, boards_left: int) -> float | None:
    """The deadline of the next of ``boards_left`` searches sharing ``deadline`` evenly."""
    if deadline is None:
        return None
    now = time.perf_counter()
    return now + max(0.0, deadline - now) / max(1, boards_left)


def _check_progress(progress: Any) -> Any:
    """None or a callable ``progress(done, total)``; ValueError for anything else."""
    if progress is not None and not callable(progress):
        raise ValueError(
            f"progress must be None or a callable progress(done, total), got "
            f"{type(progress).__name__}"
        )
    return progress
