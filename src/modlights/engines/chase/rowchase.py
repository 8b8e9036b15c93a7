"""The row-state chase: light chasing with online elimination, for boards with many
holes or locked tiles, over any n (csrc/rowchase.c).

The plan of :mod:`modlights.engines.chase.engine` (which taps are forced, which are symbols, which
tiles give residual equations) is walked once, tap by tap. Every tap still readable
holds its affine form over the *live* symbols (GF(2): bit-packed words; GF(3): two bit
planes, the word arithmetic of csrc/bitslice.h; other moduli: bytes)
and one constant per right-hand side; a residual equation is used the moment it
appears: it eliminates its youngest live symbol (substituted lazily, when a tap that
holds it is next read) or, with no live symbol left, checks the right-hand sides. When
every column of the rows is taken, symbols no readable tap holds any more are retired
(free: nothing later can bring them back) and their columns reused. The live symbols
stay about one row wide however many holes the board has, and no residual matrix is
built: a 2000 x 2000 GF(2) cross board with 1% holes (40909
symbols and equations, refused by the matrix path) is chased in about half a second.

|ker A| = p^(free symbols: retired or live at the end); kernel generators and solutions
come from the elimination records walked backwards (symbol values) and the numeric replay of
:func:`modlights.native._core.Plan.numeric` (tap values), which also checks every equation.

Rings and composite n: n = prod q_j (q_j = p_j^e_j) is chased once a factor, mod q_j
(the plan's coefficients reduced; every forcing coefficient is a unit mod n, so mod
q_j). Over Z/p^e an equation eliminates its youngest symbol with a *unit* coefficient
(valuation 0); one whose coefficients are all non-zero multiples of p is kept pending:
caught up lazily on the records like a tap (it stays over live symbols and holds them
live). Substitutions only add multiples of p to its coefficients, so none becomes a
unit later: the pending equations left at the end are a small system over the free
symbols, solved by the Z/q engine (csrc/dense/zn.c, valuation pivots), and |ker A| mod q =
q^retired x |ker of that system|. Symbol values of the factors are combined by CRT
(x = sum x_j e_j, e_j = 1 mod q_j and 0 mod the others, as in
:mod:`modlights.engines.algebraic.lifted` and the Z/n engine) before one numeric replay mod n;
the i-th kernel generators of the factors add up to one generator (order: the product).
Its timings are the bench results' (bench/README.md, "holes").

:class:`RowChaseSystem` answers the residual questions of
:class:`~modlights.engines.chase.engine.ChaseEngine` (``kernel_size``, ``nullity``, ``generators``,
``solve``) for a plan; ChaseEngine picks it (see ``ChaseEngine.__init__`` and
:func:`use_rowchase`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.model.ring import crt_idempotents, factorize

__all__ = [
    "RowChaseSystem",
    "use_rowchase",
    "ROWCHASE_MIN_RATIO",
    "ROWCHASE_TALL_ENTRIES",
    "ROWCHASE_BATCH",
]

#: ``ChaseEngine`` takes the row chase (any n) when the plan has more than
#: ROWCHASE_MIN_RATIO symbols per column of the chase (holes each add a symbol; a board
#: without holes has about one a column, and the matrix path is faster there). The
#: crossover of the two paths, over GF(2), Z/3 and Z/4 alike, is a bench measurement
#: (the holes workloads of bench/workloads/grids.py; bench/README.md), not derived here.
ROWCHASE_MIN_RATIO = 5

#: Right-hand sides chased together (GF(2), GF(3): one word of constants a plane;
#: other moduli: bytes).
ROWCHASE_BATCH = {2: 64, 3: 64}
ROWCHASE_BATCH_DEFAULT = 16


#: ... and when no prefix of a tall residual system (locked tiles) leaves a trivial
#: kernel, when that system has more than ROWCHASE_TALL_ENTRIES entries (equations x
#: symbols): about where the row chase and the matrix path cost the same (a bench
#: measurement, as above).
ROWCHASE_TALL_ENTRIES = 1 << 28


def use_rowchase(
    plan, n: int, forced: bool | None = None, tall: int = 0, holes: bool = True
) -> bool:
    """Whether ChaseEngine should solve this plan by the row chase: ``forced`` (True /
    False) when given, else a board with holes or locked tiles (``holes``; a board
    without keeps the matrix path, whose own guards refuse what it cannot take) and
    more than ROWCHASE_MIN_RATIO symbols a column of the chase (many holes: the
    residual matrix would be large) or, with ``tall`` (the residual equations, given
    when no prefix of them leaves a trivial kernel), more than ROWCHASE_TALL_ENTRIES
    entries in the residual matrix. Any n: rings by valuation, composite n by CRT."""
    if forced is not None:
        return bool(forced)
    if not holes:
        return False
    return (
        int(plan.nsym) > ROWCHASE_MIN_RATIO * max(1, int(plan.w))
        or int(tall) * int(plan.nsym) > ROWCHASE_TALL_ENTRIES
    )


def _row_bytes(width: int, q: int) -> int:
    """Bytes of a row of ``width`` live symbols mod q: GF(2) one bit a symbol, GF(3)
    two (bit-sliced), other moduli a byte."""
    if q <= 3:
        return (width + 63) // 64 * 8 * (q - 1)
    return width


class _Part:
    """The row chase of a plan mod one prime-power factor q of n: the run whose records
    give the kernel and, over Z/p^e with pending equations left, the Z/q engine of
    their system over the free symbols (valuation pivots, csrc/dense/zn.c)."""

    def __init__(self, q: int, idem: int):
        self.q, self.idem = q, idem
        self.run: Any = None  # the first RowChase run (take)
        self.pend: Any = None  # the ZnEngine of its pending system, if any

    def take(self, run) -> None:
        """Keep the first run (its records and pending system give the kernel)."""
        if self.run is not None:
            return
        self.run = run
        if run.npending:
            from modlights.engines.chase.limits import check_residual_size
            from modlights.native._core import ZnEngine

            check_residual_size(int(run.npending), int(run.nfree), self.q)
            self.pend = ZnEngine(run.pending()[0], self.q)

    @property
    def nullity(self) -> int:
        return int(self.run.nfree) if self.pend is None else int(self.pend.nullity)

    @property
    def kernel_size(self) -> int:
        return self.q ** int(self.run.nfree) if self.pend is None else int(self.pend.kernel_size)

    def free_generators(self, limit: int) -> tuple[np.ndarray, list[int]]:
        """(U, orders): kernel generators over the free symbols (the first ``limit``)."""
        if self.pend is None:
            k = min(int(self.run.nfree), limit)
            return np.eye(k, int(self.run.nfree), dtype=np.uint8), [self.q] * k
        U, orders = self.pend.generators(limit)
        return np.asarray(U, dtype=np.uint8), [int(o) for o in orders]

    def free_values(self, run) -> tuple[np.ndarray | None, np.ndarray]:
        """(U, ok) for the right-hand sides of run: free-symbol values solving the
        pending system (None without one: zeros) and whether each is solvable."""
        ok = run.ok()
        if self.pend is None:
            return None, ok
        C = run.pending()[1]
        U, good = self.pend.solve(
            np.ascontiguousarray((-C.T.astype(np.int16)) % self.q, dtype=np.uint8)
        )
        return np.asarray(U, dtype=np.uint8), ok & np.asarray(good, dtype=bool)


class RowChaseSystem:
    """Kernel and solutions of a chase plan by the row chase, mod any n: one row chase
    a prime-power factor q of n (Z/p^e by valuation: equations without a unit
    coefficient are kept pending and solved at the end with valuation pivots), symbol
    values combined by CRT before one numeric replay mod n.

    Parameters
    ----------
    plan : modlights.native._core.Plan
        The plan (built on the board or its transpose, as ChaseEngine chose).
    max_bytes : int
        Most memory one run may take for its live rows and elimination records
        (ValueError past it, before allocating more).
    max_work : int
        Most word operations (GF(2)) / 16-byte operations (GF(p)) the chase may take by
        the live width's lower bound (ValueError before running past it).

    Notes
    -----
    The first run of each factor is made by the first ``solve`` (with its right-hand
    sides) or, when the kernel is asked first, without right-hand sides; its records
    give the kernel from then on (they do not depend on the right-hand sides).
    """

    def __init__(self, plan, max_bytes: int, max_work: int = 1 << 38):
        self.plan = plan
        self.n = int(plan.n)
        self.max_bytes = int(max_bytes)
        self.parts = [_Part(q, idem) for q, idem in crt_idempotents(self.n)]
        need = self.record_estimate(plan)
        if need > self.max_bytes:
            raise ValueError(
                f"this board is too large for the row chase: about {need / 2**20:.0f} MiB of "
                f"elimination records ({min(int(plan.nsym), int(plan.nres))} eliminations "
                f"of rows of at least {int(plan.w)} symbols mod {self.n}; at most "
                f"{self.max_bytes / 2**20:.0f} MiB); use a smaller board or fewer holes"
            )
        from modlights.native._core import live_bounds

        width, slots = live_bounds(plan)
        for part in self.parts:
            row = _row_bytes(width, part.q)
            work = plan.h * plan.w * (row // 8 if part.q <= 3 else row // 16)
            if slots * row > self.max_bytes or work > max_work:
                raise ValueError(
                    f"this board is too large for the row chase: at least {width} symbols "
                    f"are live at once ({slots} rows of them: {slots * row / 2**20:.0f} MiB, "
                    f"about 2^{max(work, 1).bit_length() - 1} operations; at most "
                    f"{self.max_bytes / 2**20:.0f} MiB and 2^{max_work.bit_length() - 1}); "
                    f"the pattern forces too few taps (use a smaller board or a pattern "
                    f"that reaches the next row)"
                )

    @staticmethod
    def record_estimate(plan) -> int:
        """Bytes the elimination records take at least (checked before the run), summed
        over the prime-power factors of n: an elimination a symbol (at most one an
        equation), each a row about as wide as the board (the live symbols), half of it
        kept (trailing zeros are dropped; measured 0.5-0.9 of the row on cross boards
        with 1% holes)."""
        elims = min(int(plan.nsym), int(plan.nres))
        total = 0
        for p, e in factorize(int(plan.n)):
            total += elims * _row_bytes(int(plan.w), p**e) // 2
        return total

    def _chase(self, part: _Part, B=None):
        from modlights.native._core import RowChase

        run = RowChase(self.plan, B, max_bytes=self.max_bytes, q=part.q)
        part.take(run)
        return run

    def _kernel_parts(self) -> list[_Part]:
        """The parts, each with its kernel run (chased on first use)."""
        for part in self.parts:
            if part.run is None:
                self._chase(part)
        return self.parts

    @property
    def run(self):
        """The RowChase whose records give the kernel (n a prime power; chased on first
        use)."""
        return self._kernel_parts()[0].run

    @property
    def nullity(self) -> int:
        """The fewest cyclic summands of ker A (dim ker A over a prime): the most over
        the factors."""
        return max(part.nullity for part in self._kernel_parts())

    @property
    def kernel_size(self) -> int:
        """|ker A|: the product over the factors."""
        size = 1
        for part in self._kernel_parts():
            size *= part.kernel_size
        return size

    def _combine(self, zs: list[np.ndarray]) -> np.ndarray:
        """Symbol values mod n from their values mod each factor (CRT)."""
        if len(zs) == 1:
            return zs[0]
        acc = np.zeros(int(self.plan.nsym), dtype=np.int64)
        for part, z in zip(self.parts, zs):
            acc += z.astype(np.int64) * part.idem
        return (acc % self.n).astype(np.uint8)

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]:
        """(H, orders): kernel generators as tap vectors in the plan's layout ((k, h * w)
        uint8) with their orders; ker A is their direct sum. The i-th generators of the
        factors (over the free symbols, pushed through the records) add up by CRT."""
        parts = self._kernel_parts()
        k = self.nullity if limit is None else min(self.nullity, max(0, int(limit)))
        gens = [part.free_generators(k) for part in parts]
        hw = self.plan.h * self.plan.w
        H = np.zeros((k, hw), dtype=np.uint8)
        orders = [1] * k
        zero_b = np.zeros(hw, dtype=np.uint8)
        nsym = int(self.plan.nsym)
        for i in range(k):
            zs = []
            for part, (U, ords) in zip(parts, gens):
                if i < len(ords):
                    zs.append(part.run.symbols(None, U[i]))
                    orders[i] *= ords[i]
                else:
                    zs.append(np.zeros(nsym, dtype=np.uint8))
            x, rho = self.plan.numeric(zero_b, self._combine(zs))
            if rho.any():
                raise RuntimeError(
                    "row chase: a kernel vector fails the replay "
                    "(an internal error; please report it)"
                )
            H[i] = x
        return H, orders

    def solve(self, bs: list[np.ndarray]) -> list[np.ndarray | None]:
        """Taps (plan layout, a byte a tile) for each right-hand side of bs (plan layout),
        None where unsolvable; right-hand sides are chased ROWCHASE_BATCH at a time."""
        out: list[np.ndarray | None] = []
        step = min(ROWCHASE_BATCH.get(part.q, ROWCHASE_BATCH_DEFAULT) for part in self.parts)
        for a in range(0, len(bs), step):
            chunk = bs[a : a + step]
            B = np.stack(chunk)
            good = np.ones(len(chunk), dtype=bool)
            zs: list[list[np.ndarray | None]] = [[] for _ in chunk]
            for part in self.parts:
                run = self._chase(part, B)
                U, ok = part.free_values(run)
                good &= ok
                for j in range(len(chunk)):
                    zs[j].append(run.symbols(j, None if U is None else U[j]) if good[j] else None)
                del run
            for j, b in enumerate(chunk):
                if not good[j]:
                    out.append(None)
                    continue
                # a good row has every part's symbols
                x, rho = self.plan.numeric(b, self._combine([z for z in zs[j] if z is not None]))
                if rho.any():
                    raise RuntimeError(
                        "row chase: a solution fails the replay "
                        "(an internal error; please report it)"
                    )
                out.append(x)
        return out
