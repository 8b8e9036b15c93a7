"""Structured solving of grid boards by generalised light chasing.

Walking the taps in row-major order, each tile whose last tap has a unit coefficient
mod n forces that tap from the taps before it; the taps no tile forces are *symbols*,
every tap is an affine function of them, and the tiles that forced nothing give a
residual system ``M z = rho`` over the symbols (about ``cols x pattern height``
unknowns instead of ``rows x cols``):

- solvable iff the residual system is; one solution is the numeric chase replayed
  with a residual solution z;
- ``|ker A| = |ker M|`` (symbols -> taps is injective), and kernel generators of A are
  kernel generators of M pushed through the chase (with zero right-hand side).

The derivation, the C layouts and the variants are described in docs/guide/engines.md
("The light chase"); their timings are the bench results' (bench/README.md).

:class:`ChaseEngine` answers the engine protocol of :mod:`modlights.engines.base`
(``nullity``, ``kernel_size``, ``generators()``, ``solve(R)``; det, inverse and
pseudo-inverse are the registry's) for grid boards with any pattern, locks, holes, wrap
and n.
Boards wider than tall are chased along their columns (on the transposed board) when
that gives fewer symbols. It chooses its variant from its plan:

- the row-solve chase (csrc/rowsolve.h, :func:`rowsolve_plan`, ``ChaseEngine(rowsolve=)``)
  for patterns whose last row of taps is a pair (D, -a), (D, +a) (the knight, the
  diagonal) on a width that is a multiple of 2a, over any n whose pair coefficients are
  units, with one pattern and no wrap, locks or holes, when it has no more symbols than
  the light chase: the symbols are the taps of the first D rows;
- a prefix of a tall residual system (PREFIX_RATIO x symbols equations) solved alone
  when it leaves no kernel: the numeric replay checks every other equation;
- the row chase (:mod:`modlights.engines.chase.rowchase`) with more than
  ROWCHASE_MIN_RATIO symbols a column of the chase, or when no prefix of a tall system
  leaves a trivial kernel and the system has more than ROWCHASE_TALL_ENTRIES entries
  (``rowchase=True / False`` forces either way): no residual matrix is built;
- the light chase otherwise, its residual system refused past MAX_RESIDUAL_BYTES /
  MAX_RESIDUAL_WORK (ValueError naming the sizes).

GF(2) residual systems are solved by a Four Russians echelon form (csrc/dense/gf2.c),
Z/n ones by the native Z/n engine (csrc/dense/zn.c: CRT, unit then valuation pivots, so
rings are exact). Cost: O(rows x cols x pattern size x symbols / word) for the
symbolic chase (in blocks of symbols shared by the threads), O(rows x cols x pattern
size) a numeric replay, plus the residual elimination (O(symbols^3 / word) over GF(2)).
Memory: O(rows x cols) bytes for the state and taps + a few rows of int32 codes +
threads x ring x block + the residual system (symbols^2 bits over GF(2), bytes over
Z/n).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from modlights.engines.base import DENSE_FALLBACK
from modlights.engines.chase.limits import (
    MAX_RESIDUAL_BYTES,
    MAX_RESIDUAL_WORK,
    check_residual_size,
    residual_cost,
)
from modlights.engines.chase.rowchase import ROWCHASE_MIN_RATIO, RowChaseSystem, use_rowchase
from modlights.model.board import Board

__all__ = [
    "ChaseEngine",
    "VARIANTS",
    "build_plan",
    "chase_supports",
    "chase_reason",
    "rowsolve_reason",
    "transpose_board",
    "transpose_bytes",
    "DENSE_FALLBACK",
    "MAX_RESIDUAL_BYTES",
    "MAX_RESIDUAL_WORK",
    "check_residual_size",
    "residual_cost",
]

#: The chase's variants (``ChaseEngine(variant=)``; registered as ``chase-<variant>``):
#: ``light`` (the residual matrix eliminated whole), ``prefix`` (a prefix of a tall
#: residual system that leaves no kernel, else the whole system), ``row`` (online
#: elimination, no residual matrix), ``rowsolve`` (patterns ending in a pair of unit taps).
VARIANTS = ("light", "prefix", "row", "rowsolve")

ROWSOLVE_NEEDS = (
    "one pattern, no wrap, locks or holes, and a "
    "pattern whose last row of taps is a pair (D, -a), (D, +a) with "
    "coefficients that are units mod n, on a width (or height) that is a "
    "multiple of 2a"
)
PREFIX_NEEDS = "locked tiles or holes (a tall residual system whose prefix may suffice)"


def _tables(board: Board):
    """(udr, udc, cnt, pat_of): the distinct offsets of every pattern (sorted so the
    taps they give for a tile come in row-major order), per-pattern counts, and the
    pattern index of every tile (None for a uniform pattern)."""
    if board.tile_offsets is None:
        assert board.offsets is not None  # a uniform grid has its offsets
        pats = [tuple(board.offsets)]
        pat_of = None
    else:
        index: dict = {}
        rows, cols = board.shape
        pat_of = np.empty(rows * cols, dtype=np.int32)
        k = 0
        for r in range(rows):
            for c in range(cols):
                pat = tuple(board.tile_offsets[r][c])
                i = index.get(pat)
                if i is None:
                    i = index[pat] = len(index)
                pat_of[k] = i
                k += 1
        pats = list(index)
    offs = sorted({o for p in pats for o in p}, reverse=True)
    pos = {o: i for i, o in enumerate(offs)}
    cnt = np.zeros((len(pats), len(offs)), dtype=np.int32)
    for i, p in enumerate(pats):
        for o in p:
            cnt[i, pos[o]] += 1
    udr = np.array([o[0] for o in offs], dtype=np.int32)
    udc = np.array([o[1] for o in offs], dtype=np.int32)
    return udr, udc, cnt, pat_of


#: Most distinct offsets (over every pattern of a board) the C chase takes.
MAX_CHASE_OFFSETS = 4096


def chase_reason(board: Board) -> str | None:
    """None when the chase takes the board (a grid of at most MAX_TILES tiles whose
    patterns use at most MAX_CHASE_OFFSETS distinct offsets), else why not."""
    if not board.is_grid:
        return "the chase works on grid boards only (Board.grid); graph boards go dense"
    if board.is_giant:
        from modlights.model.board import MAX_TILES

        return f"a board of more than {MAX_TILES} tiles needs a byte a tile"
    if not chase_supports(board):
        return f"its patterns use more than {MAX_CHASE_OFFSETS} distinct offsets"
    return None


def chase_supports(board: Board) -> bool:
    """Whether the chase can take this board (a grid whose patterns use at most
    MAX_CHASE_OFFSETS distinct offsets)."""
    if not board.is_grid:
        return False
    if board.tile_offsets is None:
        assert board.offsets is not None  # a uniform grid has its offsets
        return len(set(board.offsets)) <= MAX_CHASE_OFFSETS
    offs: set = set()
    for row in board.tile_offsets:
        for pat in row:
            offs.update(pat)
            if len(offs) > MAX_CHASE_OFFSETS:
                return False
    return True


def _plan_masks(board: Board, accepts_none: bool) -> tuple[Any, Any]:
    """(active, tappable) for the C plan: None for "every tile" when the binding takes
    it (no mask at all), else flat uint8 views of the board's masks; a board without
    locks or holes gets one shared array of ones, made here and dropped after."""
    if not board.any_holes and not board.any_locked:
        if accepts_none:
            return None, None
        rows, cols = board.shape
        ones = np.ones(rows * cols, dtype=np.uint8)
        return ones, ones
    active = (
        None
        if accepts_none and not board.any_holes
        else np.ascontiguousarray(board.active_mask).reshape(-1).view(np.uint8)
    )
    tappable = np.ascontiguousarray(board.tappable_mask).reshape(-1).view(np.uint8)
    return active, tappable


def build_plan(board: Board):
    """The C chase structure of a grid board."""
    from modlights.native import _core as _chase

    if not board.is_grid:
        raise ValueError("the chase works on grid boards only (Board.grid)")
    rows, cols = board.shape
    udr, udc, cnt, pat_of = _tables(board)
    if len(udr) > MAX_CHASE_OFFSETS:
        raise ValueError(
            f"the chase takes at most {MAX_CHASE_OFFSETS} distinct pattern "
            f"offsets, this board uses {len(udr)}; use method='dense'"
        )
    active, tappable = _plan_masks(board, getattr(_chase, "ACCEPTS_NONE_MASKS", False))
    return _chase.Plan(
        rows, cols, board.states, board.wrap, active, tappable, udr, udc, cnt, pat_of
    )


#: A tall residual system (a board with many locked tiles or holes: each adds an
#: equation) is first built from its first PREFIX_RATIO x symbols equations, then (if
#: need be) PREFIX_GROWTH times as many, while the prefix is at most half the system;
#: the symbolic chase stops at the last tile they need. (5000 x 5000 cross, 1% locked:
#: 1.1 x symbols already leave no kernel.) When such a prefix alone leaves no
#: kernel it is the whole residual system: its solution is the only candidate, and the
#: numeric replay checks the remaining equations (rho of the replay is zero).
PREFIX_RATIO = 1.25
PREFIX_GROWTH = 2


def transpose_bytes(a: np.ndarray) -> np.ndarray:
    """A new C-contiguous uint8 array holding a.T for a 2-D uint8 array, copied in
    cache-sized tiles (csrc/band.c; ``np.ascontiguousarray(a.T)``'s strided reads miss
    the cache)."""
    from modlights.native._core import transpose

    a = np.asarray(a, dtype=np.uint8)
    if a.strides[1] != 1:
        a = np.ascontiguousarray(a)
    out = np.empty((a.shape[1], a.shape[0]), dtype=np.uint8)
    transpose(a, out)
    return out


def transpose_board(board: Board) -> Board:
    """The same board with rows and columns exchanged (tile (r, c) becomes (c, r),
    offset (dr, dc) becomes (dc, dr)): its tap matrix is the original's with cells and
    taps permuted alike."""
    rows, cols = board.shape
    if board.tile_offsets is None:
        assert board.offsets is not None  # a uniform grid has its offsets
        pattern: Any = [(dc, dr) for dr, dc in board.offsets]
    else:
        pattern = [
            [[(dc, dr) for dr, dc in board.tile_offsets[r][c]] for r in range(rows)]
            for c in range(cols)
        ]
    locked = board.locked_mask.T if board.any_locked else None
    holes = board.holes_mask.T if board.any_holes else None
    return Board.grid(
        cols,
        rows,
        states=board.states,
        pattern=pattern,
        locked=locked,
        holes=holes,
        wrap=board.wrap,
    )


#: Boards of at most this many tiles compare the symbols of the row-solve chase with
#: those of the light chase (building both plans: a few milliseconds); larger ones only
#: when the row-solve chase has more than a lower bound of the light chase's.
ROWSOLVE_COMPARE_TILES = 1 << 20

#: Most memory a thread's ring of symbolic rows may take in the row-solve chase.
ROWSOLVE_RING_BYTES = 1 << 28


def rowsolve_plan(board: Board, transpose: bool = True):
    """(plan, transposed): the row-solve chase of a board (csrc/rowsolve.h) along its
    rows or (transpose) its columns, the one with fewer symbols; (None, False) when
    neither fits: one pattern, no wrap, locks or holes, the last row of the taps
    affecting a tile a pair (D, -a), (D, +a) whose coefficients (multiplicities mod n)
    are units mod n, a width that is a multiple of 2a. Any n in 2..255."""
    from modlights.native import _core as _chase

    best = _rowsolve_layout(board, transpose)
    if best is None:
        return None, False
    n = board.states
    _, t, h, w, r, c, cf = best
    check_residual_size(best[0], best[0], n)
    if n == 2:
        return _chase.RowSolvePlan(h, w, r, c), bool(t)
    return _chase.RowSolvePlan(h, w, r, c, n, cf), bool(t)


def rowsolve_reason(board: Board) -> str | None:
    """None when the row-solve chase takes the board (no plan is built: O(pattern)),
    else why not."""
    if not board.is_grid:
        return "the chase works on grid boards only"
    try:
        best = _rowsolve_layout(board, True)
        if best is not None:
            check_residual_size(best[0], best[0], board.states)
    except ValueError as e:
        return str(e)
    return None if best is not None else "the row-solve chase needs " + ROWSOLVE_NEEDS


def _rowsolve_layout(board: Board, transpose: bool = True):
    """(symbols, transposed, h, w, er, ec, coeffs) of the row-solve chase along the
    rows or (transpose) the columns, the one with fewer symbols; None when neither
    fits (see :func:`rowsolve_plan`). Builds no plan."""
    from collections import Counter

    from modlights.native import _core as _chase

    n = board.states
    if (
        not board.is_grid
        or board.wrap
        or board.tile_offsets is not None
        or board.any_holes
        or board.any_locked
    ):
        return None
    counts = Counter(board.offsets)
    # an offset's coefficient is its multiplicity mod n; those of 0 mod n are no taps
    offs = [(o, k % n) for o, k in counts.items() if k % n]
    if not offs:
        return None
    rows, cols = board.shape
    er = np.array([-o[0] for o, _ in offs], dtype=np.int32)
    ec = np.array([-o[1] for o, _ in offs], dtype=np.int32)
    cf = np.array([k for _, k in offs], dtype=np.int32)
    # a tap of the symbolic chase: 64 bytes over GF(2) (8 words), 256 over Z/n (bytes)
    slot = 64 if n == 2 else 256
    best = None
    for t, (h, w, r, c) in enumerate([(rows, cols, er, ec), (cols, rows, ec, er)]):
        if t and not transpose:
            break
        if (
            np.abs(r).max() > 4096
            or np.abs(c).max() > 4096
            or not _chase.rowsolve_eligible(h, w, r, c, n, cf)
        ):
            continue
        D, mc = int(r.max()), int(np.abs(c).max())
        span = D - min(int(r.min()), 0) + 1
        # a thread's ring: GF(2) span + 1 slots a column; Z/n a power-of-two count of
        # rows >= span and a zero row
        rows_kept = span + 1 if n == 2 else (1 << (span - 1).bit_length()) + 1
        if rows_kept * (w + 2 * mc) * slot > ROWSOLVE_RING_BYTES:
            continue
        if best is None or D * w < best[0]:
            best = (D * w, t, h, w, r, c)
    return None if best is None else (*best, cf)


def _light_symbols_bound(board: Board) -> int:
    """A lower bound on the symbols of the light chase of a board (uniform pattern, no
    wrap) larger than its pattern: along the rows, nothing forces the taps of the first
    D rows (D the largest row offset of a tap affecting a tile), along the columns
    those of the first D' columns."""
    rows, cols = board.shape
    assert board.offsets is not None  # a uniform pattern (see above)
    offs = set(board.offsets)
    D = max([-o[0] for o in offs] + [0])
    Dc = max([-o[1] for o in offs] + [0])
    return min(D * cols, Dc * rows) if cols > rows else D * cols


class ChaseEngine:
    """The engine protocol (:mod:`modlights.engines.base`) for grid boards, by
    generalised light chasing; never builds the dense tap matrix.

    The chase runs along the rows of the board or, when that gives fewer symbols
    (boards wider than tall: about one symbol per column), along its columns, on the
    transposed board (``transposed``).

    variant: one of VARIANTS, or None: the row-solve chase when it has the fewest
    symbols, the row chase for boards with many holes (more than ROWCHASE_MIN_RATIO
    symbols a column) or a tall system no prefix of which leaves a trivial kernel, a
    prefix of a tall residual system when one leaves no kernel, else the light chase
    (``variant`` then names the one taken, ``variant_reason`` says why).
    ``rowsolve=`` / ``rowchase=`` (True / False) force or exclude those two.
    packed: bit-sliced symbolic chases for Z/3, Z/4, Z/8 (False: bytes, as other n).
    det / inverse / pseudo-inverse are not the chase's: the registry answers them
    (:func:`modlights.engines.registry.ask`).
    ValueError for a graph board, a variant that does not take the board, or a
    residual system past MAX_RESIDUAL_BYTES / MAX_RESIDUAL_WORK."""

    def __init__(
        self,
        board: Board,
        threads: int | None = None,
        rowchase: bool | None = None,
        rowsolve: bool | None = None,
        *,
        variant: str | None = None,
        packed: bool = True,
    ):
        if not board.is_grid:
            raise ValueError(
                "method='chase' needs a grid board (Board.grid); "
                "use method='dense' for graph boards"
            )
        self.board = board
        self.n = n = board.states
        self.m, self.r = board.n_cells, board.n_taps
        rows, cols = board.shape
        self._hw = rows * cols
        self._all_cells = self.m == self._hw
        self._all_taps = self.r == self._hw
        if variant is not None:
            if variant not in VARIANTS:
                raise ValueError(
                    f"unknown chase variant {variant!r}: use one of "
                    f"{', '.join(VARIANTS)} (or None: chosen from the plan)"
                )
            if rowsolve is not None or rowchase is not None:
                raise ValueError("give either variant= or rowsolve= / rowchase=, not both")
            rowsolve = variant == "rowsolve"
            rowchase = variant == "row"
        if rowsolve and rowchase:
            raise ValueError("rowsolve=True and rowchase=True exclude each other")
        #: the symbolic chase of Z/3, Z/4, Z/8 bit-sliced (False: bytes, as other n)
        self.packed = bool(packed)
        self._variant = variant
        self.plan: Any = None  # the native chase plan (Plan or RowSolvePlan)
        self.transposed = False
        #: True when the row-solve chase (csrc/rowsolve.h) holds the plan
        self.rowsolve = False
        #: why this variant answers (see ``variant``)
        self.variant_reason = ""
        if rowsolve or (rowsolve is None and not rowchase):
            self.plan, self.transposed = rowsolve_plan(board)
            self.rowsolve = self.plan is not None
            if self.plan is None and rowsolve:
                raise ValueError("rowsolve=True needs " + ROWSOLVE_NEEDS)
            self.variant_reason = (
                "its pattern ends in a pair of unit taps: the row-solve "
                "chase has the fewest symbols"
            )
            if (
                self.plan is not None
                and rowsolve is None
                and (
                    self._hw <= ROWSOLVE_COMPARE_TILES
                    or int(self.plan.nsym) > _light_symbols_bound(board)
                )
            ):
                # a short, wide board (or a small one, where offsets fall off the board
                # and the bound does not hold): the light chase may need fewer symbols
                light, lt = self._light_plan(board)
                if int(light.nsym) < int(self.plan.nsym):
                    self.plan, self.transposed, self.rowsolve = light, lt, False
                del light
        if self.rowsolve:
            self.nsym, self.nres = int(self.plan.nsym), int(self.plan.nres)
            self.residual_rows = self.nres
            self._row = None
            self._res = self._residual_engine(self.nres, threads)
            return
        if self.plan is None:
            self.plan, self.transposed = self._light_plan(board)
        self.nsym, self.nres = int(self.plan.nsym), int(self.plan.nres)
        #: residual equations in the system solved: all, or a prefix that leaves no
        #: kernel (the replay checks the others)
        self.residual_rows = self.nres
        #: the row chase (modlights.engines.chase.rowchase) instead of a residual matrix:
        #: many holes (rowchase=None), or as forced (True / False); rings by valuation,
        #: composite n by CRT
        self._row = None
        holes = board.any_holes or board.any_locked
        if use_rowchase(self.plan, n, rowchase, holes=holes):
            self._row = RowChaseSystem(self.plan, MAX_RESIDUAL_BYTES, MAX_RESIDUAL_WORK)
            self._res = None
            self.variant_reason = (
                "forced"
                if rowchase
                else f"more than {ROWCHASE_MIN_RATIO} symbols a column (holes or locks)"
            )
            return
        self._res = None if variant == "light" else self._prefix_residual(threads)
        if variant == "prefix" and self._res is None:
            check_residual_size(self.nres, self.nsym, n)
            self._res = self._residual_engine(self.nres, threads)
            self.variant_reason = (
                "asked for; no prefix of the residual system leaves "
                "a trivial kernel, so the whole system is eliminated"
            )
            return
        if self._res is not None:
            self.variant_reason = "a prefix of its tall residual system leaves no kernel"
            return
        if rowchase is None and use_rowchase(self.plan, n, tall=self.nres, holes=holes):
            # a tall residual system whose prefixes leave a kernel: the row chase
            self._row = RowChaseSystem(self.plan, MAX_RESIDUAL_BYTES, MAX_RESIDUAL_WORK)
            self.variant_reason = (
                "a tall residual system no prefix of which leaves a trivial kernel"
            )
            return
        check_residual_size(self.nres, self.nsym, n)
        self._res = self._residual_engine(self.nres, threads)
        self.variant_reason = "the residual system of the light chase, eliminated whole"

    @property
    def variant(self) -> str:
        """The registered name of the chase variant that answers: ``chase-rowsolve``,
        ``chase-row``, ``chase-prefix`` or ``chase-light``."""
        if self.rowsolve:
            return "chase-rowsolve"
        if self._row is not None:
            return "chase-row"
        if self.residual_rows < self.nres or self._variant == "prefix":
            return "chase-prefix"
        return "chase-light"

    @property
    def name(self) -> str:
        """The registered name of the variant that answers (see ``variant``)."""
        return self.variant

    @staticmethod
    def _light_plan(board: Board):
        """(plan, transposed): the light chase (csrc/chase.c) along the rows or, for a
        board wider than tall whose columns give fewer symbols, along the columns."""
        plan, transposed = build_plan(board), False
        rows, cols = board.shape
        if cols > rows and plan.nsym > 1:
            tplan = build_plan(transpose_board(board))
            if tplan.nsym < plan.nsym:
                plan, transposed = tplan, True
        return plan, transposed

    def _residual_engine(self, rows: int, threads: int | None):
        """The residual system of the first ``rows`` equations: GF(2) by one Four
        Russians echelon form per batch (csrc/dense/gf2.c); Z/n by the native Z/n engine
        (csrc/dense/zn.c: CRT, unit then valuation pivots, so rings are exact)."""
        from modlights.native import _core as _chase

        if self.n == 2:
            return _chase.Gf2Residual(self.plan.matrix_gf2(threads, rows=rows), self.nsym)
        from modlights.native._core import ZnEngine

        return ZnEngine(self.plan.matrix_zn(threads, rows=rows, packed=self.packed), self.n)

    def _prefix_residual(self, threads: int | None):
        """The engine of a prefix of a tall residual system (PREFIX_RATIO) that leaves no
        kernel, or None (not tall, or no short prefix has a trivial kernel). Then ker M
        is trivial too (a subset of the prefix's), so the prefix's solution is the only
        candidate and the replay decides whether it solves every equation."""
        rows = int(PREFIX_RATIO * self.nsym)
        if not self.nsym or rows > self.nres // 2:
            return None
        # a symbol made past every equation of a prefix (a hole or lock deep in the
        # board) leaves that prefix a kernel: such prefixes are not tried. Without wrap
        # a tap affects only tiles less than (pattern span + 1) rows after it.
        last_symbol = int(self.plan.symbols()[-1])  # symbols are in tile order
        tiles = self.plan.residual_tiles()
        udr, udc, _, _ = _tables(self.board)
        reach = (max(np.abs(udr).max(initial=0), np.abs(udc).max(initial=0)) + 1) * self.plan.w
        while rows <= self.nres // 2:
            if not self.board.wrap and last_symbol > int(tiles[:rows].max()) + reach:
                rows = int(rows * PREFIX_GROWTH)
                continue
            check_residual_size(rows, self.nsym, self.n)
            res = self._residual_engine(rows, threads)
            if int(res.rank) == self.nsym if self.n == 2 else int(res.kernel_size) == 1:
                self.residual_rows = rows
                return res
            del res
            rows = int(rows * PREFIX_GROWTH)
        return None

    # ---------------------------------------------------------------- helpers
    def _b_grid(self, rhs: np.ndarray) -> np.ndarray:
        """Right-hand sides over the cells -> a byte a tile in the plan's layout."""
        if self._all_cells:
            b = np.ascontiguousarray(rhs, dtype=np.uint8)
        else:
            b = np.zeros(self._hw, dtype=np.uint8)
            b[self.board.cell_mask()] = rhs  # a byte a tile, no index array
        if self.transposed:
            b = transpose_bytes(b.reshape(self.board.shape)).reshape(-1)
        return b

    def _tap_vec(self, x: np.ndarray) -> np.ndarray:
        """Taps of a replay (a byte a tile in the plan's layout) -> over the board's taps."""
        if self.transposed:
            rows, cols = self.board.shape
            x = transpose_bytes(x.reshape(cols, rows)).reshape(-1)
        return x if self._all_taps else x[self.board.tap_mask()]

    def _solve_one(self, rhs: np.ndarray) -> np.ndarray | None:
        """Taps (over the board's taps) for one right-hand side, None when unsolvable."""
        b = self._b_grid(rhs)
        x, rho = self.plan.numeric(b)
        if self.nres:
            if not rho.any():
                z, good = None, True
            else:
                z, good = self._res_solve(rho)
            if not good:
                return None
            if z is not None:  # x(0) is not needed any more
                x, rho = self.plan.numeric(b, z, out=x)
                if not self._replay_solves(rho):
                    return None
        return self._tap_vec(x)

    def _replay_solves(self, rho: np.ndarray) -> bool:
        """Whether a replay with the residual system's solution solves every equation
        (always, unless only a prefix of the system was solved)."""
        return self.residual_rows == self.nres or not rho.any()

    def _res_solve_many(self, rhos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(Z, ok) for M z = rho over the rows of rhos (one elimination for them all)."""
        if self.residual_rows < self.nres:
            rhos = np.ascontiguousarray(rhos[:, : self.residual_rows])
        if self.n == 2:
            return self._res.solve_many(rhos)
        return self._res.solve(rhos)

    def _res_solve(self, rho: np.ndarray) -> tuple[np.ndarray, bool]:
        Z, ok = self._res_solve_many(rho[None, :])
        return Z[0], bool(ok[0])

    # ---------------------------------------------------------------- interface
    @property
    def residual_shape(self) -> tuple[int, int]:
        """(equations, symbols) of the residual system."""
        return self.nres, self.nsym

    @property
    def kernel_size(self) -> int:
        if self._row is not None:
            return self._row.kernel_size
        if self.n == 2:
            return 2 ** (self.nsym - int(self._res.rank))
        return int(self._res.kernel_size)

    @property
    def nullity(self) -> int:
        """Number of kernel generators, from the residual system alone (symbols -> taps
        is injective, so ker A and ker M have the same generators)."""
        if self._row is not None:
            return self._row.nullity
        if self.n == 2:
            return self.nsym - int(self._res.rank)
        return int(self._res.nullity)

    def _residual_generators(self) -> tuple[np.ndarray, list[int]]:
        """Generators of ker M over the symbols, with their orders."""
        if self.n == 2:
            Hs = self._res.kernel()
            return Hs, [2] * Hs.shape[0]
        G, orders = self._res.generators()
        return np.asarray(G, dtype=np.uint8).reshape(len(orders), self.nsym), list(orders)

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]:
        """Generators of ker A (pushed through the chase); limit: only the first
        ``limit`` of them."""
        if self._row is not None:
            G, orders = self._row.generators(limit)
            H = np.zeros((G.shape[0], self.r), dtype=np.uint8)
            for i in range(G.shape[0]):
                H[i] = self._tap_vec(G[i])
            return H, orders
        Hs, orders = self._residual_generators()
        if limit is not None:
            Hs, orders = Hs[: max(0, limit)], orders[: max(0, limit)]
        H = np.zeros((len(orders), self.r), dtype=np.uint8)
        zero_b = np.zeros(self._hw, dtype=np.uint8)
        for i in range(len(orders)):
            x, _ = self.plan.numeric(zero_b, Hs[i])
            H[i] = self._tap_vec(x)
        return H, list(orders)

    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        R = np.asarray(R)
        k = R.shape[0]
        if self._row is not None:
            X = np.zeros((k, self.r), dtype=np.uint8)
            ok = np.zeros(k, dtype=bool)
            for i, x in enumerate(self._row.solve([self._b_grid(R[i]) for i in range(k)])):
                if x is not None:
                    X[i] = self._tap_vec(x)
                    ok[i] = True
            return X, ok
        if k == 1:  # the common case: the replay's array, no copy
            x = self._solve_one(R[0])
            if x is None:
                return np.zeros((1, self.r), dtype=np.uint8), np.zeros(1, dtype=bool)
            return x.reshape(1, self.r), np.ones(1, dtype=bool)
        X = np.zeros((k, self.r), dtype=np.uint8)
        ok = np.zeros(k, dtype=bool)
        # first replays (z = 0): residuals; then the residual systems (GF(2): one
        # elimination for the whole batch); then replays with the symbols found
        pending = []
        for i in range(k):
            b = self._b_grid(R[i])
            x, rho = self.plan.numeric(b)
            if self.nres and rho.any():
                pending.append((i, b, rho))
            else:
                X[i] = self._tap_vec(x)
                ok[i] = True
            del x
        if not pending:
            return X, ok
        Z, good = self._res_solve_many(np.stack([p[2] for p in pending]))
        sols = [(Z[j], bool(good[j])) for j in range(len(pending))]
        for (i, b, _), (z, solved) in zip(pending, sols):
            if not solved:
                continue
            x, rho = self.plan.numeric(b, z)
            if not self._replay_solves(rho):
                continue
            X[i] = self._tap_vec(x)
            ok[i] = True
        return X, ok
