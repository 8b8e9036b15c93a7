"""The row-state chase: light chasing with online elimination, for boards with many
holes or locked tiles over a prime n (csrc/rowchase.c).

The plan of :mod:`modlights.chase` (which taps are forced, which are symbols, which
tiles give residual equations) is walked once, tap by tap. Every tap still readable
holds its affine form over the *live* symbols (GF(2): bit-packed words; GF(p): bytes)
and one constant per right-hand side; a residual equation is used the moment it
appears: it eliminates its youngest live symbol (substituted lazily, when a tap that
holds it is next read) or, with no live symbol left, checks the right-hand sides. When
every column of the rows is taken, symbols no readable tap holds any more are retired
(free: nothing later can bring them back) and their columns reused. The live symbols
stay about one row wide however many holes the board has, and no residual matrix is
built: a 2000 x 2000 GF(2) cross board with 1% holes (40909
symbols and equations, refused by the matrix path) is chased in about half a second.

|ker A| = p^(free symbols: retired or live at the end); kernel generators and solutions come from the
elimination records walked backwards (symbol values) and the numeric replay of
:func:`modlights._chase.Plan.numeric` (tap values), which also checks every equation.

:class:`RowChaseSystem` answers the residual questions of
:class:`~modlights.chase.ChaseEngine` (``kernel_size``, ``nullity``, ``generators``,
``solve``) for a plan; ChaseEngine picks it (see ``ChaseEngine.__init__`` and
:func:`use_rowchase`).
"""
from __future__ import annotations

import numpy as np

from .engines.reference import is_prime

__all__ = ["RowChaseSystem", "use_rowchase", "ROWCHASE_MIN_RATIO", "ROWCHASE_TALL_ENTRIES",
           "ROWCHASE_BATCH"]

#: ``ChaseEngine`` takes the row chase (prime n) when the plan has more than
#: ROWCHASE_MIN_RATIO symbols per column of the chase (holes each add a symbol; a board
#: without holes has about one a column, and the matrix path is faster there).
#: Measured (bench/holes_large.py, 2000^2 GF(2) / 1000^2 Z/3 cross, medians of 3,
#: shared box), row / matrix seconds: 3 symbols a column 0.37 / 0.20 (GF(2)),
#: 0.21 / 0.16 (Z/3); 5: 0.28 / 0.28 (GF(2)); 6: 0.23 / 0.43 (Z/3); 9: 0.33 / 0.85
#: (GF(2)).
ROWCHASE_MIN_RATIO = 5

#: Right-hand sides chased together (GF(2): one word of constants; GF(p): bytes).
ROWCHASE_BATCH = {2: 64}
ROWCHASE_BATCH_DEFAULT = 16


#: ... and when no prefix of a tall residual system (locked tiles) leaves a trivial
#: kernel, when that system has more than ROWCHASE_TALL_ENTRIES entries (equations x
#: symbols). 2000^2 GF(2) cross, 1% locked + 0.05% holes (43930 x 3933): row 0.23-0.28 s,
#: matrix 0.26 s; 1000^2 Z/3 (11497 x 1474): row 0.21 s, matrix 0.14 s.
ROWCHASE_TALL_ENTRIES = 1 << 28


def use_rowchase(plan, n: int, forced: bool | None = None, tall: int = 0,
                 holes: bool = True) -> bool:
    """Whether ChaseEngine should solve this plan by the row chase: ``forced`` (True /
    False) when given, else a board with holes or locked tiles (``holes``; a board
    without keeps the matrix path, whose own guards refuse what it cannot take) over a
    prime n and more than ROWCHASE_MIN_RATIO symbols a column
    of the chase (many holes: the residual matrix would be large) or, with ``tall``
    (the residual equations, given when no prefix of them leaves a trivial kernel),
    more than ROWCHASE_TALL_ENTRIES entries in the residual matrix."""
    if forced is not None:
        if forced and not is_prime(n):
            raise ValueError(f"the row chase needs a prime number of states, got {n}; "
                             "use rowchase=None or False")
        return bool(forced)
    if not holes or not is_prime(n):
        return False
    return int(plan.nsym) > ROWCHASE_MIN_RATIO * max(1, int(plan.w)) \
        or int(tall) * int(plan.nsym) > ROWCHASE_TALL_ENTRIES


class RowChaseSystem:
    """Kernel and solutions of a chase plan by the row chase (n prime).

    Parameters
    ----------
    plan : modlights._chase.Plan
        The plan (built on the board or its transpose, as ChaseEngine chose).
    max_bytes : int
        Most memory one run may take for its live rows and elimination records
        (ValueError past it, before allocating more).
    max_work : int
        Most word operations (GF(2)) / 16-byte operations (GF(p)) the chase may take by
        the live width's lower bound (ValueError before running past it).

    Notes
    -----
    The first run is made by the first ``solve`` (with its right-hand sides) or, when
    the kernel is asked first, without right-hand sides; its records give the kernel
    from then on (they do not depend on the right-hand sides).
    """

    def __init__(self, plan, max_bytes: int, max_work: int = 1 << 38):
        self.plan = plan
        self.n = int(plan.n)
        if not is_prime(self.n):
            raise ValueError(f"the row chase needs a prime number of states, got {self.n}")
        self.max_bytes = int(max_bytes)
        self._run = None
        need = self.record_estimate(plan)
        if need > self.max_bytes:
            raise ValueError(
                f"this board is too large for the row chase: about {need / 2**20:.0f} MiB of "
                f"elimination records ({min(int(plan.nsym), int(plan.nres))} eliminations "
                f"of rows of at least {int(plan.w)} symbols mod {self.n}; at most "
                f"{self.max_bytes / 2**20:.0f} MiB); use a smaller board or fewer holes")
        from ._rowchase import live_bounds
        width, slots = live_bounds(plan)
        row = (width + 63) // 64 * 8 if self.n == 2 else width
        work = plan.h * plan.w * (row // 8 if self.n == 2 else row // 16)
        if slots * row > self.max_bytes or work > max_work:
            raise ValueError(
                f"this board is too large for the row chase: at least {width} symbols are "
                f"live at once ({slots} rows of them: {slots * row / 2**20:.0f} MiB, about "
                f"2^{max(work, 1).bit_length() - 1} operations; at most "
                f"{self.max_bytes / 2**20:.0f} MiB and 2^{max_work.bit_length() - 1}); the "
                f"pattern forces too few taps (use a smaller board or a pattern that "
                f"reaches the next row)")

    @staticmethod
    def record_estimate(plan) -> int:
        """Bytes the elimination records take at least (checked before the run): an
        elimination a symbol (at most one an equation), each a row about as wide as the
        board (the live symbols), half of it kept (trailing zeros are dropped; measured
        0.5-0.9 of the row on cross boards with 1% holes)."""
        elims = min(int(plan.nsym), int(plan.nres))
        row = (int(plan.w) + 63) // 64 * 8 if int(plan.n) == 2 else int(plan.w)
        return elims * row // 2

    def _chase(self, B=None):
        from ._rowchase import RowChase
        run = RowChase(self.plan, B, max_bytes=self.max_bytes)
        if self._run is None:
            self._run = run
        return run

    @property
    def run(self):
        """The RowChase whose records give the kernel (chased on first use)."""
        if self._run is None:
            self._chase()
        return self._run

    @property
    def nullity(self) -> int:
        """Symbols still live at the end: dim ker A."""
        return int(self.run.nfree)

    @property
    def kernel_size(self) -> int:
        """|ker A| = n ** nullity."""
        return self.n ** self.nullity

    def generators(self, limit: int | None = None) -> np.ndarray:
        """Kernel basis as tap vectors in the plan's layout ((k, h * w) uint8): free
        symbol i set to 1, the others 0, through the records and the replay."""
        run = self.run
        k = run.nfree if limit is None else min(run.nfree, max(0, int(limit)))
        hw = self.plan.h * self.plan.w
        H = np.zeros((k, hw), dtype=np.uint8)
        zero_b = np.zeros(hw, dtype=np.uint8)
        for i in range(k):
            u = np.zeros(run.nfree, dtype=np.uint8)
            u[i] = 1
            x, rho = self.plan.numeric(zero_b, run.symbols(None, u))
            if rho.any():
                raise RuntimeError("row chase: a kernel vector fails the replay "
                                   "(an internal error; please report it)")
            H[i] = x
        return H

    def solve(self, bs: list[np.ndarray]) -> list[np.ndarray | None]:
        """Taps (plan layout, a byte a tile) for each right-hand side of bs (plan layout),
        None where unsolvable; right-hand sides are chased ROWCHASE_BATCH at a time."""
        out: list[np.ndarray | None] = []
        step = ROWCHASE_BATCH.get(self.n, ROWCHASE_BATCH_DEFAULT)
        for a in range(0, len(bs), step):
            chunk = bs[a:a + step]
            run = self._chase(np.stack(chunk))
            ok = run.ok()
            for j, b in enumerate(chunk):
                if not ok[j]:
                    out.append(None)
                    continue
                x, rho = self.plan.numeric(b, run.symbols(j))
                if rho.any():
                    raise RuntimeError("row chase: a solution fails the replay "
                                       "(an internal error; please report it)")
                out.append(x)
            del run
        return out
