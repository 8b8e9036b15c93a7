"""The certificate checker's work bound: MAX_WORK, WorkLimitError, the meter that
charges each step, and what each step costs, computed from sizes only. Imports nothing of
modlights (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Callable
from math import prod
from typing import TYPE_CHECKING, Any

import numpy as np

from .data import (
    CHUNK_ENTRIES,
    WHT_DIM,
    _Board,
    _prime_powers,
)

if TYPE_CHECKING:
    from .algebra import (
        _Matrix,
    )


# ------------------------------------------------------------------ the work bound
#: Work units a check may take unless told otherwise (``max_work``): about a second of
#: one core (see "The work bound" in the module docstring).
MAX_WORK = 10**9

# The cost of each step in work units, from the sizes it handles. A unit is about a
# nanosecond of one core of the machine the constants were measured on: each constant
# is the measured cost of its step per element, rounded up (bench/workloads/bounds.py,
# workload "verify-costs", times checks of every kind and prints seconds per unit).
_BASE = 300_000  # the steps of every check (a few hundred small calls)
_PY = 150  # a Python-level step: a JSON number read and checked, a loop over ints
_CALL = 3000  # a loop iteration that makes a few NumPy calls
_ENTRY = 2  # an int64 entry through one NumPy operation (add, mod, compare, ...)
_ADD_AT = 12  # an entry of np.add.at (A x) or of np.unique (the entries of A)
_COL = 6000  # a column of an elimination (its candidate scan), plus 3 _ENTRY a row
_ROWS = 60  # a row gathered and stored by a row update of an elimination
_ROW = 24  # an entry of such a row mod p^e (gather, scale, subtract, reduce, store)
_WORD = 16  # a 64-bit word of such a row over GF(2) (bit-packed, one XOR)
_FLOP = 1  # a float64 multiply-add of BLAS (kernel elements from coefficients)


class WorkLimitError(ValueError):
    """The check needs more work than ``max_work`` allows. Not a verdict on the
    certificate: checked with a larger ``max_work`` it may hold or not.

    ``need`` is the work the check needs (an estimate made from the sizes the
    certificate declares, or, for work that shows only as it is done, the work done so
    far: ``more`` is then True), ``max_work`` the bound, ``step`` the step that needs
    the most."""

    def __init__(self, need: int, max_work: int, step: str, *, more: bool = False):
        self.need, self.max_work, self.step, self.more = need, max_work, step, more
        super().__init__(
            self.explain(
                "max_work",
                "check it with a larger bound: ml.verify(cert, max_work=...) or "
                "'modlights verify FILE --max-work N'",
            )
        )

    def explain(self, bound: str, advice: str) -> str:
        """The message, the bound named ``bound`` (e.g. "--max-work") and ending
        with ``advice``."""
        about = "more than" if self.more else "about"
        return (
            f"the check needs {about} {_units(self.need)} work units (most of it: "
            f"{self.step}), past {bound} = {_units(self.max_work)} (10^9 units are about "
            f"a second); {advice}"
        )


def _units(u: int) -> str:
    """A count of units: plain below 10^6, else "4.65e15"."""
    if u < 10**6:
        return str(u)
    mant, exp = f"{u:.2e}".split("e")
    return f"{mant.rstrip('0').rstrip('.')}e{int(exp)}"


def _check_max_work(max_work: Any) -> int | None:
    """``max_work`` as an int (None: no bound); ValueError saying what is allowed."""
    if max_work is None:
        return None
    if isinstance(max_work, float) and max_work == max_work and max_work >= 0:
        return int(min(max_work, 2.0**62)) if max_work != float("inf") else None
    if isinstance(max_work, np.integer):
        max_work = int(max_work)
    if type(max_work) is not int or max_work < 0:
        raise ValueError(
            "max_work must be a number of work units >= 0 (10^9 is about a second) or "
            f"None for no bound, got {max_work!r}"[:200]
        )
    return max_work


class _Meter:
    """The work bound of one check. ``plan`` adds up the estimates of the steps to come,
    made from the sizes the certificate declares before the first expensive one, and
    refuses (WorkLimitError) past the bound; ``spend`` counts work whose amount shows
    only as it is done (the leaves a tree proof walks, the limbs of LP weights) against
    the estimate made for it under the same key, and what goes past that estimate
    against the bound."""

    def __init__(self, max_work: int | None):
        self.max = max_work
        self.need = 0
        self.left: dict[str, int] = {}

    def _over(self) -> bool:
        return self.max is not None and self.need > self.max

    def plan(self, items: list[tuple[int, str, str]]) -> None:
        """items: (units, key, description of the step)."""
        for units, key, _ in items:
            self.need += units
            self.left[key] = self.left.get(key, 0) + units
        if self._over():
            units, _, step = max(items, key=lambda t: t[0])
            assert self.max is not None
            raise WorkLimitError(self.need, self.max, step)

    def spender(self, key: str, step: str) -> Callable[[int], None]:
        """``spend`` for one key and step, as the eliminations take it."""
        return lambda units: self.spend(units, key, step)

    def spend(self, units: int, key: str, step: str) -> None:
        left = self.left.get(key, 0)
        if units <= left:
            self.left[key] = left - units
            return
        self.left[key] = 0
        self.need += units - left
        if self._over():
            assert self.max is not None
            raise WorkLimitError(self.need, self.max, step, more=True)


# --- what each step costs (next to nothing of the check itself: sizes only)
def _parts(n: int) -> list[tuple[int, int]]:
    return _prime_powers(n) if type(n) is int and 2 <= n <= 255 else []


def _cost_eliminate(a: int, b: int, e: int, t: int = 0) -> int:
    """:func:`_eliminate` of a dense a x b matrix mod p^e (and Z of t columns): a
    candidate scan per column and level, a row update per row and pivot."""
    return e * b * (_COL + 3 * a * _ENTRY) + min(a, b) * a * (_ROWS + (b + t) * _ROW)


def _cost_updates_of_A(A: _Matrix, k: int, p: int, e: int) -> int:
    """Eliminating A mod p^e (:func:`_log_kernel`), estimated from A's profile: after
    the columns before j, the rows still left are zero there (row operations only add
    rows that are), so the rows a pivot in column j updates have their first nonzero
    entry at j or before: F(j) of them, less the pivots before j, which are at least
    j - k when the k declared generators are all of ker A (the columns without a pivot
    at level 0 number dim ker(A mod p), at most k). Levels past 0 update at most the
    m - r + k rows without a level-0 pivot. Dense when A is not given. The elimination
    is metered: work past this estimate counts as it is done."""
    m, r = A.m, A.r
    if m == 0 or r == 0:
        return 0
    F = A.profile()
    j = np.arange(r, dtype=np.int64)
    rows = np.clip(F - np.maximum(0, j - k) - 1, 0, m)
    if p**e == 2:
        words = -(-r // 512) * 8  # 64-bit words of a packed row (whole bytes, padded)
        return int((rows * (_ROWS + (words - j // 64) * _WORD)).sum())
    later = k * min(m, max(0, m - r + k))  # rows updated at levels past 0
    return (int(rows.sum()) + later) * (_ROWS + r * _ROW)


def _cost_kernel(k: int, m: int, r: int, nnz: int, n: int) -> int:
    """:func:`_check_kernel` of k generators: reading them, A h_i and the order of each,
    the sizes of ker A and of their span mod every prime power of n; of eliminating A,
    the column scans and building the dense matrix (its row updates, which depend on
    A, are :func:`_cost_updates_of_A`)."""
    parts = _parts(n)
    units = k * r * _PY + k * (nnz * _ADD_AT + 4 * _CALL + r * _ENTRY * (4 + 2 * len(parts)))
    for _, e in parts:
        units += e * r * (_COL + 3 * m * _ENTRY) + 3 * m * r * _ENTRY  # A: scans, dense
        units += _cost_eliminate(k, r, e)
    return units


def _walk_shape(orders: list[int], n: int, r: int) -> tuple[int, int]:
    """(d, size): the generators :class:`_Walk` takes at once and the elements they
    span, as it chooses them."""
    k = len(orders)
    if n == 2:
        d = min(k, WHT_DIM)
        return d, 1 << d
    d, size = 0, 1
    while d < k and size * orders[d] * max(1, r) <= CHUNK_ENTRIES:
        size *= orders[d]
        d += 1
    return d, size


def _cost_walk(orders: list[int], n: int, r: int) -> tuple[int, int]:
    """(set-up, one ``min``) of :class:`_Walk`: for every choice of the outer
    generators, y shifted (r entries a generator) and the inner block read at once
    (a Walsh-Hadamard transform of 2^d entries when n = 2, else size x r entries)."""
    if r == 0:
        return 0, _PY
    k = len(orders)
    d, size = _walk_shape(orders, n, r)
    outer = prod(orders[d:])
    shift = (k - d) * r * 3 * _ENTRY
    if n == 2:
        setup = (d + 2) * r * _ENTRY + size * _ENTRY
        block = (6 + 4 * d) * _CALL + 2 * r * _ENTRY + 3 * (d + 4) * size * _ENTRY // 4
    else:
        setup = 2 * size * r * 3 * _ENTRY
        block = 2 * _CALL + size * r * 9 * _ENTRY
    return setup, outer * (shift + block)


def _orders_of(kd: Any, n: int) -> list[int] | None:
    """The orders a kernel (or proof) declares when they are ints in 1..n, else None
    (the check itself then stops on them before any work they would cost)."""
    orders = kd.get("orders") if isinstance(kd, dict) else None
    if not isinstance(orders, list) or not all(type(o) is int and 1 <= o <= n for o in orders):
        return None
    return orders


def _count(v: Any) -> int:
    return len(v) if isinstance(v, (list, dict)) else 0


def _cost_board(bd: Any) -> int:
    """Building the board from its dict: O(tiles), or O(effect entries)."""
    if not isinstance(bd, dict):
        return 0
    units = _PY * (_count(bd.get("locked")) + _count(bd.get("holes")))
    effects = bd.get("effects")
    if isinstance(effects, list):
        return units + _PY * (len(effects) + sum(_count(e) for e in effects))
    rows, cols = bd.get("rows"), bd.get("cols")
    if type(rows) is int and type(cols) is int and rows > 0 and cols > 0:
        per_tile = _PY if isinstance(bd.get("pattern"), list) else 8 * _ENTRY
        units += rows * cols * per_tile
    return units


def _leaves_left(pruned: Any, orders: list[int], m: int) -> tuple[int, int]:
    """(leaves of a tree proof under no pruned prefix, pruned prefixes read) for the
    prefixes that are lists of ints of at most k - m entries (others stop the check
    before its walk)."""
    k = len(orders)
    depth = k - m
    total = prod(orders[m:])
    if not isinstance(pruned, list):
        return total, 0
    ok = sorted(
        tuple(P)
        for P in pruned
        if isinstance(P, list) and len(P) <= depth and all(type(c) is int for c in P)
    )
    covered, top = 0, None
    for P in ok:  # sorted: a prefix comes before everything under it
        if top is not None and P[: len(top)] == top:
            continue
        top = P
        covered += prod(orders[m : k - len(P)])
    return max(0, total - covered), len(ok)


def _cost_tree(
    proof: dict, orders: list[int], L: int, board: _Board, nnz: int
) -> list[tuple[int, str, str]]:
    """The steps of :func:`_check_tree`: the pruned prefixes (each shifts y by the
    coefficients it does not share with the prefix before it and bounds the groups of
    taps), the symmetries (each an automorphism
    check and the coordinates of k + 1 vectors), the leaves walked. Leaves mapped by a
    symmetry are not walked: the estimate takes one leaf in (symmetries + 1) as walked
    and the walk is metered."""
    n, m_cells, r = board.n, board.m, board.r
    k = len(orders)
    m = proof.get("leaf_dim")
    if type(m) is not int or not 0 <= m <= k:
        return []
    pruned = proof.get("pruned", [])
    left, n_pruned = _leaves_left(pruned, orders, m)
    fixed = 0  # entries applied: each prefix past what it shares with the one before
    prev: list = []
    for P in pruned if isinstance(pruned, list) else []:
        P = P if isinstance(P, list) else []
        same = 0
        while same < min(len(P), len(prev)) and P[same] == prev[same]:
            same += 1
        fixed += len(P) - same + 1
        prev = P
    frees = {k - _count(P) for P in pruned} if isinstance(pruned, list) else set()
    free = max(frees, default=0)
    groups = r if free * n.bit_length() > 62 else min(r, n**free)
    if proof.get("bound") == "classes":  # r x n shifted values summed by np.add.at
        per_prefix = 8 * _CALL + r * n * (3 * _ENTRY + _ADD_AT) + groups * n * _ENTRY
    else:
        per_prefix = 6 * _CALL + r * 2 * _ENTRY + groups * n * n * _ENTRY
    units = fixed * (4 * _CALL + r * 3 * _ENTRY) + n_pruned * per_prefix
    units += sum(r * f * _ENTRY * (r.bit_length() + 1) for f in frees)
    items = [(units, "tree prefixes", f"{n_pruned} pruned prefixes of a tree proof")]
    syms = proof.get("symmetries", [])
    n_syms = _count(syms)
    cost_sym = 30 * _CALL + (m_cells + r) * _PY + 2 * nnz * _ADD_AT
    cost_sym += sum(
        _cost_eliminate(r, k, e, k + 1) + r * (k + 1) * k * 4 * _ENTRY for _, e in _parts(n)
    )
    cost_sym += (k + 1) * k * len(_parts(n)) * 4 * _PY
    items.append((n_syms * cost_sym, "tree symmetries", f"{n_syms} symmetries of a tree proof"))
    if L == 0 or not left:
        return items
    setup, per_leaf = _cost_walk(orders[:m], n, r)
    walked = left if not n_syms else -(-left // (n_syms + 1))
    bits = all(o == 2 for o in orders[m:])  # _lower_image on bit masks, else arrays
    lower = n_syms * ((k - m) * _PY if bits else _CALL // 2)
    nodes = 2 * left * (_PY * (k - m) + 2 * _CALL + r * 3 * _ENTRY)
    items.append(
        (
            setup + walked * per_leaf + left * lower + nodes,
            "tree leaves",
            f"{left} leaves of a tree proof, each a walk of {prod(orders[:m])} "
            f"elements of {r} taps",
        )
    )
    return items


def _cost_minimal(
    d: Any, what: str, board: _Board, nnz: int, orders: list[int] | None
) -> list[tuple[int, str, str]]:
    """The steps of :func:`_check_minimal` for claim ``d`` over a kernel of ``orders``."""
    n, m, r = board.n, board.m, board.r
    items = [((m + r) * _PY + 2 * nnz * _ADD_AT, "claim", f"the {what}claim's vectors")]
    proof = d.get("proof") if isinstance(d, dict) else None
    L = d.get("length") if isinstance(d, dict) else None
    if not isinstance(proof, dict) or type(L) is not int:
        return items
    if "generators" in proof:
        orders = _orders_of(proof, n)
        k = _count(proof.get("generators"))
        items.append((_cost_kernel(k, m, r, nnz, n), "kernel", f"the {what}proof's kernel"))
    if orders is None:
        return items
    if proof.get("method") == "enumeration" and L > 0:
        setup, walk = _cost_walk(orders, n, r)
        size = prod(orders)
        items.append(
            (
                setup + walk,
                "enumeration",
                f"an enumeration of {_size(size)} coset elements of {r} taps",
            )
        )
    elif proof.get("method") == "tree":
        items += _cost_tree(proof, orders, L, board, nnz)
    return items


def _size(v: int) -> str:
    """A count, as a power of two when it is one (2^45) or in short form."""
    if v > 1 << 20 and v & (v - 1) == 0:
        return f"2^{v.bit_length() - 1}"
    return _units(v)


def _cost_weights(spec: Any) -> tuple[int, int]:
    """(units, count) of :func:`_weights`: each weight parsed (its digits), the common
    denominator (bounded by the digits of the denominators)."""
    vals = spec if isinstance(spec, list) else list(spec.values()) if isinstance(spec, dict) else []
    digits = sum(len(v) for v in vals if isinstance(v, str))
    return len(vals) * 12 * _PY + digits * _PY, len(vals)


def _cost_dual(E: int, r: int, n: int, limbs: int, bits: int) -> int:
    """:func:`_dual_bound` over E weighted elements: per limb, n passes over E x r
    entries and a Python loop over r x n sums; then r x n^2 products of big ints."""
    big = bits // 64 + 1
    units = E * r * _ENTRY
    units += limbs * (E * (_PY + big) + n * (E * r * 3 * _ENTRY + r * 3 * _PY))
    return units + r * n * n * (2 * _PY + big * _ENTRY)


def _cost_upper(ub: Any, k: int, board: _Board) -> list[tuple[int, str, str]]:
    """The steps of :func:`_check_upper`: the kernel elements from their coefficients,
    the dual bound of each weighted leaf (one limb of weights in the estimate; the
    limbs and the group counts' tables are metered), the taps and splits of each
    branch-group node, the symmetries and the boxes of the symmetry nodes."""
    if not isinstance(ub, dict):
        return []
    n, r = board.n, board.r
    E = _count(ub.get("elements"))
    units = E * k * 14 * _PY + E * k * r * _FLOP + E * r * 3 * _ENTRY
    items = [(units, "elements", f"{E} kernel elements of the upper bound")]
    if ub.get("method") == "lp-dual":
        w, count = _cost_weights(ub.get("weights"))
        items.append((w + _cost_dual(count, r, n, 1, 0), "lp", "the LP dual bound"))
    elif ub.get("method") == "lp-tree":
        pinned = _count(ub.get("pinned"))
        units = sum(_cost_eliminate(k, pinned, 1) for _ in _parts(n))
        nodes = ub.get("nodes")
        leaves = 0
        for node in nodes if isinstance(nodes, list) else []:
            units += _PY * 4
            if isinstance(node, dict) and isinstance(node.get("branch-group"), list):
                units += _PY * (len(node["branch-group"]) + _count(node.get("splits")))
            if isinstance(node, dict) and "weights" in node:
                w, count = _cost_weights(node["weights"])
                units += w + _cost_dual(count, r, n, 1, 0)
                leaves += 1
            elif isinstance(node, dict) and "symmetry" in node:  # a box kept and compared
                units += r * 5 * _PY
        syms = _count(ub.get("symmetries"))  # each read and checked against A
        units += syms * ((board.m + r) * _PY + 2 * board.nnz * _ADD_AT)
        items.append((units, "lp", f"the LP bounds of {leaves} leaves of an LP tree"))
    return items


def _plan(cert: dict, board: _Board) -> list[tuple[int, str, str]]:
    """Every step of the check of ``cert`` with its estimated units, from the sizes
    the certificate declares (read leniently: a field the check will reject costs
    nothing past that point), but the row updates of eliminating A
    (:func:`_plan_updates`, which reads A)."""
    n, m, r = board.n, board.m, board.r
    nnz = board.nnz
    if cert.get("kind") == "bounds":  # no kernel: A x, the weights' column sums
        return [
            (_BASE, "base", "the check's fixed steps"),
            (nnz * (6 * _ADD_AT) + (m + r) * _ENTRY, "matrix", "the matrix A"),
            ((m + r) * _PY + 4 * nnz * _ADD_AT, "claim", "the claim's vectors and weights"),
        ]
    kd = cert.get("kernel")
    k = _count(kd.get("generators")) if isinstance(kd, dict) else 0
    orders = _orders_of(kd, n)
    what = f"the kernel checks ({k} generators, a {m} x {r} matrix mod {n})"
    items = [
        (_BASE, "base", "the check's fixed steps"),
        # the coordinate form and its sorted entries (A's profile)
        (nnz * (6 * _ADD_AT) + (m + r) * _ENTRY, "matrix", "the matrix A"),
        (_cost_kernel(k, m, r, nnz, n), "kernel", what),
    ]
    if cert.get("kind") == "minimal":
        return items + _cost_minimal(cert, "", board, nnz, orders)
    items += _cost_minimal(cert.get("witness"), "witness ", board, nnz, orders)
    return items + _cost_upper(cert.get("upper_bound"), k, board)


def _plan_updates(cert: dict, A: _Matrix) -> list[tuple[int, str, str]]:
    """The row updates of eliminating A for the kernel checks (the certificate's, and a
    proof's own), estimated from A's profile (:func:`_cost_updates_of_A`)."""
    if cert.get("kind") == "bounds":
        return []
    claim = cert.get("witness") if cert.get("kind") == "hardest" else cert
    proof = claim.get("proof") if isinstance(claim, dict) else None
    kernels = [cert.get("kernel")]
    if isinstance(proof, dict) and "generators" in proof:
        kernels.append(proof)
    units = 0
    for kd in kernels:
        k = _count(kd.get("generators")) if isinstance(kd, dict) else 0
        units += sum(_cost_updates_of_A(A, k, p, e) for p, e in _parts(A.n))
    what = f"eliminating the {A.m} x {A.r} matrix A mod {A.n}"
    return [(units, "kernel", what)]
