"""Upper bounds on the hardest value from linear programs over kernel elements, made
exact: the ``lp-dual`` and ``lp-tree`` bounds of docs/certificates.md.

The hardest value is ``max over x of min over c in ker A of weight(x + c)`` (entries of
x + c read in 0..n-1). For weights lambda_c >= 0 over a finite set E of kernel elements
with sum lambda_c = 1, and taps F fixed to values v_F (the rest free),

    max over x with x_F = v_F of min_c weight(x + c)
        <= sum_{j in F} sum_c lambda_c ((v_j + c_j) mod n)
           + sum_{j free} max_v sum_c lambda_c ((v + c_j) mod n)          (*)

(the minimum is at most the lambda-average, and the average splits by taps). The best
lambda is the dual of the linear program ``max t s.t. t <= weight(x + c) for c in E``
over fractional x (group counts, see below). HiGHS solves that program in floating
point; its duals are rounded to integers over a common denominator, and (*) is then
evaluated exactly with integers (:func:`exact_bound`): any non-negative weights summing
to 1 give a valid bound, so rounding costs only a little and never validity.

Taps with the same column of the kernel generator matrix take the same value in every
kernel element (a *group*); the program's variables are a_{g,v} = how many free taps of
group g have value v.

Entry points:

- :class:`KernelElements`: kernel elements as coefficient vectors over the generators
  and their values on the taps (the whole kernel when it is small enough to enumerate,
  else a subgroup and samples);
- :func:`exact_bound`: (*) in exact arithmetic, as a ``Fraction``;
- :func:`lp_bound`: the linear program at a node (taps fixed), by constraint
  generation over a KernelElements set; returns the exact bound and its weights;
- :func:`root_bound`: the ``lp-dual`` bound of a board (the branch and bound over taps
  of the ``lp-tree`` certificate is :func:`modlights.search.hardest_certificate.lp_tree`).

Complexity: one pricing round of :func:`lp_bound` is O(|E| x groups); the program has
groups x n columns and at most a few hundred element rows per round.
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import prod
from typing import Any

import numpy as np

from modlights.model.ring import is_prime

__all__ = [
    "DENOMINATOR",
    "ENUMERATE_MAX",
    "KernelElements",
    "TapGroups",
    "exact_bound",
    "lp_bound",
    "rationalise",
    "root_bound",
    "uniform_value",
]

#: Kernels of at most this many elements x taps (bytes of their value table) are
#: enumerated whole: the linear program is then over every kernel element.
ENUMERATE_MAX = 1 << 26
#: Float weights are rounded to integers over about this denominator.
DENOMINATOR = 1 << 40
#: Rows added to the program per pricing round at most.
ROWS_PER_ROUND = 128


class TapGroups:
    """Taps grouped by their column of the kernel generator matrix H (k x r).

    ``members[g]`` lists the taps of group g (those with the same non-zero column);
    ``fixed`` the taps of the zero column; ``rep[g]`` one tap of group g, where a
    kernel vector's value on the whole group is read."""

    def __init__(self, H: np.ndarray, n_taps: int):
        cols = np.ascontiguousarray(H.T)  # r x k
        zero = ~cols.any(axis=1) if cols.shape[1] else np.ones(n_taps, dtype=bool)
        self.fixed = np.flatnonzero(zero)
        live = np.flatnonzero(~zero)
        if live.size:
            _, first, inverse = np.unique(
                cols[live], axis=0, return_index=True, return_inverse=True
            )
            inverse = inverse.reshape(-1)
            order = np.argsort(inverse, kind="stable")
            bounds = np.searchsorted(inverse[order], np.arange(len(first) + 1))
            self.members = [live[order[bounds[g] : bounds[g + 1]]] for g in range(len(first))]
        else:
            self.members = []
        self.rep = np.array([m[0] for m in self.members], dtype=np.int64)
        self.sizes = np.array([len(m) for m in self.members], dtype=np.int64)

    def __len__(self) -> int:
        return len(self.members)

    def realise(self, counts: np.ndarray, n: int, n_taps: int) -> np.ndarray:
        """A tap vector with counts[g, v] taps of group g set to v (zero column: n-1)."""
        x = np.zeros(n_taps, dtype=np.uint8)
        x[self.fixed] = n - 1
        for g, taps in enumerate(self.members):
            x[taps] = np.repeat(np.arange(n, dtype=np.uint8), counts[g])
        return x


def _all_coefficients(orders: list[int]) -> np.ndarray:
    """Every coefficient vector (prod(orders) x k, int64), the first generator fastest."""
    k = len(orders)
    total = prod(orders)
    idx = np.arange(total, dtype=np.int64)
    C = np.empty((total, k), dtype=np.int64)
    for i, o in enumerate(orders):
        C[:, i] = idx % o
        idx //= o
    return C


class KernelElements:
    """A finite set E of kernel elements: ``coeffs`` (m x k, over the generators H of
    orders ``orders``) and ``values`` (m x r, uint8: the element's taps mod n).

    ``complete`` is True when E is all of ker A (then the program over E is the program
    over the kernel). Built by :meth:`build`: the whole kernel when |ker A| x r is at
    most ``ENUMERATE_MAX``; else the subgroup spanned by generators chosen greedily to
    touch every tap the kernel touches (at most ``span_max`` elements), plus ``samples``
    random elements (seeded)."""

    def __init__(
        self, H: np.ndarray, orders: list[int], n: int, r: int, coeffs: np.ndarray, complete: bool
    ):
        self.orders = [int(o) for o in orders]
        self.H = np.asarray(H, dtype=np.int64).reshape(len(self.orders), r) % n
        self.n = int(n)
        self.coeffs = np.asarray(coeffs, dtype=np.int64).reshape(len(coeffs), len(self.orders))
        self.complete = bool(complete)
        self.values = self.values_of(self.coeffs)

    def values_of(self, coeffs: np.ndarray) -> np.ndarray:
        """The tap values (uint8, m x r) of the elements with these coefficients."""
        coeffs = np.asarray(coeffs, dtype=np.int64).reshape(len(coeffs), len(self.orders))
        out = np.zeros((len(coeffs), self.H.shape[1]), dtype=np.uint8)
        for a in range(0, len(coeffs), 4096):
            out[a : a + 4096] = (coeffs[a : a + 4096] @ self.H) % self.n
        return out

    def __len__(self) -> int:
        return len(self.coeffs)

    @classmethod
    def build(
        cls,
        H: np.ndarray,
        orders: list[int],
        n: int,
        r: int,
        *,
        span_max: int = 1 << 16,
        samples: int = 0,
        seed: int = 0,
    ) -> KernelElements:
        """The whole kernel when |ker A| x r <= ``ENUMERATE_MAX``, else
        :meth:`cover` plus ``samples`` random elements (seeded)."""
        orders = [int(o) for o in orders]
        if prod(orders) * max(1, r) <= ENUMERATE_MAX:
            return cls(H, orders, n, r, _all_coefficients(orders), True)
        E = cls.cover(H, orders, n, r, span_max=span_max)
        if not samples:
            return E
        rng = np.random.default_rng(seed)
        R = np.stack([rng.integers(0, o, samples) for o in orders], axis=1)
        return cls(H, orders, n, r, np.unique(np.concatenate([E.coeffs, R]), axis=0), False)

    @classmethod
    def cover(
        cls,
        H: np.ndarray,
        orders: list[int],
        n: int,
        r: int,
        *,
        span_max: int = 1 << 16,
        seed: int = 0,
    ) -> KernelElements:
        """The subgroup spanned by elements chosen greedily (most new taps first: the
        generators, and random elements when n is prime, seeded) until it touches
        every tap the kernel touches, or until it would exceed ``span_max`` elements.
        ``complete`` only when it is spanned by all the generators."""
        orders = [int(o) for o in orders]
        H = np.asarray(H, dtype=np.int64).reshape(len(orders), r) % n
        k = len(orders)
        touched = (H != 0).any(axis=0)
        # candidates: the generators, and for a prime n random elements too (each
        # touches about (n-1)/n of the touched taps; the span of m chosen ones has
        # n^m elements, every one of its taps uniform over Z/n)
        pool = np.eye(k, dtype=np.int64)
        if k and is_prime(n):
            rng = np.random.default_rng(seed)
            pool = np.concatenate([pool, rng.integers(0, n, (256, k))])
        pool_vals = (pool @ H) % n != 0
        covered = np.zeros(r, dtype=bool)
        chosen: list[int] = []
        span = 1
        while not covered[touched].all():
            gain = (pool_vals & ~covered[None, :]).sum(axis=1)
            gain[chosen] = -1
            i = int(np.argmax(gain))
            o = orders[i] if i < k else n
            if gain[i] <= 0 or span * o > span_max:
                break
            chosen.append(i)
            span *= o
            covered |= pool_vals[i]
        sub = _all_coefficients([orders[i] if i < k else n for i in chosen])
        C = (sub @ pool[chosen]) if chosen else np.zeros((1, k), dtype=np.int64)
        C = C % np.array(orders, dtype=np.int64)[None, :] if k else C
        every = sorted(chosen) == list(range(k))
        return cls(H, orders, n, r, C, every)

    def subset(self, idx: np.ndarray) -> KernelElements:
        """The elements ``idx`` of this set (``complete`` False unless all of them)."""
        idx = np.asarray(idx, dtype=np.int64)
        out = KernelElements.__new__(KernelElements)
        out.orders, out.H, out.n = self.orders, self.H, self.n
        out.coeffs, out.values = self.coeffs[idx], self.values[idx]
        out.complete = self.complete and len(np.unique(idx)) == len(self)
        return out


def exact_bound(values: np.ndarray, q: np.ndarray, n: int, fixed: dict[int, int]) -> Fraction:
    """(*) of the module docstring, exactly: weights q (non-negative ints, sum > 0;
    lambda = q / sum(q)) on the elements whose tap values are the rows of ``values``
    (m x r, entries 0..n-1), taps ``fixed`` {tap: value}, every other tap free.

    Integer arithmetic throughout: the per-tap sums S_j(v) = sum_c q_c ((v + c_j) mod n)
    are at most (n - 1) sum(q) and are accumulated in int64 when that is below 2^62
    (else in Python ints). O(m x r x n)."""
    qs = [int(v) for v in np.asarray(q, dtype=object).reshape(-1)]
    if len(qs) != len(values):
        raise ValueError("one weight per element")
    Q = sum(qs)
    if Q <= 0 or any(v < 0 for v in qs):
        raise ValueError("weights must be non-negative with a positive sum")
    r = values.shape[1]
    support = [i for i, v in enumerate(qs) if v > 0]
    wide = Q * max(1, n - 1) >= 1 << 62
    S = np.zeros((n, r), dtype=object if wide else np.int64)
    for a in range(0, len(support), 2048):
        part = support[a : a + 2048]
        V = values[part].astype(np.int64)
        qv = np.array([qs[i] for i in part], dtype=object if wide else np.int64)
        for v in range(n):
            M = (V + v) % n
            S[v] += (M.astype(object) if wide else M).T.dot(qv)
    total = 0
    free = np.ones(r, dtype=bool)
    for j, v in fixed.items():
        total += int(S[int(v) % n, int(j)])
        free[int(j)] = False
    if r:
        total += sum(int(b) for b in S[:, free].max(axis=0))
    return Fraction(total, Q)


def rationalise(lam: np.ndarray, denominator: int = DENOMINATOR) -> np.ndarray:
    """Float weights -> non-negative integers (object array) of about ``denominator``
    in sum, at least one positive (the largest weight wins when all round to 0)."""
    lam = np.clip(np.asarray(lam, dtype=float), 0.0, None)
    total = lam.sum()
    if not total > 0:
        q = np.zeros(len(lam), dtype=object)
        q[0] = 1
        return q
    q = np.array([int(round(v / total * denominator)) for v in lam], dtype=object)
    if not any(q):
        q[int(np.argmax(lam))] = 1
    return q


def _new_lp() -> Any:
    """A silent HiGHS instance for linear programs (no banner on stdout)."""
    import highspy

    h = highspy._core._Highs() if hasattr(highspy, "_core") else highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    return h


class _Node:
    """Taps fixed at a node, and the per-element constant and free group counts."""

    def __init__(self, groups: Any, fixed: dict[int, int], r: int):
        self.fixed = fixed
        self.free_count = np.array(
            [int(sum(1 for j in m if int(j) not in fixed)) for m in groups.members], dtype=np.int64
        )


def lp_bound(
    E: KernelElements,
    groups: Any,
    fixed: dict[int, int],
    n: int,
    *,
    deadline: float | None = None,
    price: bool = True,
    warm: np.ndarray | None = None,
) -> tuple[Fraction, np.ndarray, np.ndarray, float]:
    """The linear program at a node with taps ``fixed`` ({tap: value}), over the
    elements E (by constraint generation: rows enter while the program's fractional
    answer breaks one, found by a pass over all of E), then made exact.

    ``groups`` are the tap groups (``members``, ``rep``, ``fixed``: their taps have
    identical columns; ``fixed`` the taps no kernel element touches).
    Returns (exact bound B as a Fraction, element indices into E, their integer
    weights, the float optimum). ``deadline`` (a perf_counter value) stops the rounds
    early: the bound is then that of the last program's duals (still exact and valid).
    ``warm``: element indices whose rows start in the program (a parent node's).
    """
    import highspy

    inf = highspy.kHighsInf
    vals = E.values
    m = len(E)
    node = _Node(groups, fixed, vals.shape[1])
    G = len(groups.members)
    fixed_taps = np.array(sorted(fixed), dtype=np.int64)
    fixed_vals = np.array([fixed[j] for j in sorted(fixed)], dtype=np.int64)
    # constant part of every row: the fixed taps' weight in x + c
    if fixed_taps.size:
        K = ((vals[:, fixed_taps].astype(np.int64) + fixed_vals[None, :]) % n).sum(axis=1)
    else:
        K = np.zeros(m, dtype=np.int64)
    W = vals[:, groups.rep] if G else np.zeros((m, 0), dtype=np.uint8)
    cnt = node.free_count
    constant_free = (n - 1) * sum(1 for j in groups.fixed if int(j) not in fixed)
    live = np.flatnonzero(cnt > 0)
    h = _new_lp()
    ncols = len(live) * n
    h.addVars(ncols + 1, np.zeros(ncols + 1), np.append(np.repeat(cnt[live], n).astype(float), inf))
    h.changeColCost(ncols, 1.0)
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    for a, g in enumerate(live):
        h.addRow(
            float(cnt[g]), float(cnt[g]), n, np.arange(a * n, a * n + n, dtype=np.int32), np.ones(n)
        )
    rows: list[int] = []  # element index of every element row, in order
    in_rows = np.zeros(m, dtype=bool)

    def add(candidates: np.ndarray) -> None:
        idx = [int(i) for i in candidates if not in_rows[i]]
        if not idx:
            return
        starts: list[int] = []
        cols: list[int] = []
        coefs: list[float] = []
        for i in idx:
            starts.append(len(cols))
            coef = (np.arange(n)[None, :] + W[i, live].astype(np.int64)[:, None]) % n
            nz = np.flatnonzero(coef)
            cols.extend(nz.tolist())
            coefs.extend((-coef.reshape(-1)[nz]).tolist())
            cols.append(ncols)
            coefs.append(1.0)
            in_rows[i] = True
            rows.append(i)
        h.addRows(
            len(idx),
            np.full(len(idx), -inf),
            K[idx].astype(float) + constant_free,
            len(cols),
            np.array(starts, dtype=np.int32),
            np.array(cols, dtype=np.int32),
            np.array(coefs, dtype=float),
        )

    # start: the lightest rows of the all-(n-1) answer and a few spread ones
    start = np.argsort(K + ((W.astype(np.int64) + (n - 1)) % n) @ cnt, kind="stable")[
        :ROWS_PER_ROUND
    ]
    if warm is not None:
        start = np.union1d(start, np.asarray(warm, dtype=np.int64))
    add(np.union1d(start, np.linspace(0, m - 1, min(m, 16)).astype(np.int64)))
    obj = None
    while True:
        _run(h, deadline)
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            break
        sol = h.getSolution()
        obj = h.getInfo().objective_function_value
        if not price or (deadline is not None and time.perf_counter() >= deadline):
            break
        alloc = np.asarray(sol.col_value[:ncols]).reshape(len(live), n)
        value = K + constant_free + _row_values(alloc, W, live, n)
        value[in_rows] = np.inf
        cand = np.argpartition(value, min(len(value) - 1, ROWS_PER_ROUND))[:ROWS_PER_ROUND]
        worst = [
            int(i) for i in cand[np.argsort(value[cand], kind="stable")] if np.isfinite(value[i])
        ]
        if not worst or value[worst[0]] >= obj - 1e-7:
            break
        add(np.array(worst))
    sol = h.getSolution()
    duals = np.asarray(sol.row_dual)[len(live) :]
    idx = np.array(rows, dtype=np.int64)
    q = rationalise(np.abs(duals) if len(duals) else np.ones(1))
    keep = np.array([int(v) > 0 for v in q], dtype=bool)
    idx, q = idx[keep], q[keep]
    bound = exact_bound(vals[idx], q, n, fixed)
    return bound, idx, q, (obj if obj is not None else float("nan"))


def _run(h: Any, deadline: float | None) -> None:
    """h.run() on a thread, stopped through HiGHS's interrupt callbacks at ``deadline``
    or on Ctrl-C (re-raised here within a fraction of a second)."""
    from highspy import cb

    stop = [False]

    def interrupt(ctype, message, data_out, data_in, user_data):
        if stop[0] or (deadline is not None and time.perf_counter() >= deadline):
            data_in.user_interrupt = True

    h.setCallback(interrupt, None)
    for kind in ("kCallbackSimplexInterrupt", "kCallbackIpmInterrupt"):
        if hasattr(cb.HighsCallbackType, kind):
            h.startCallback(getattr(cb.HighsCallbackType, kind))
    from modlights.search import _highs_worker as hw

    hw.run_on_thread(h, lambda: stop.__setitem__(0, True))


def _row_values(a: np.ndarray, W: np.ndarray, live: np.ndarray, n: int) -> np.ndarray:
    """sum over live groups g of sum_v a[g, v] ((v + W[c, g]) mod n), for every row c
    of W: the rows' values at the fractional answer a (len(live) x n). One matrix
    product per value u of W (the rows where W = u), in blocks of rows."""
    m = len(W)
    out = np.zeros(m)
    if not len(live):
        return out
    # T[g, u] = sum_v a_{g,v} ((v + u) mod n): a row's value on group g when w_g = u
    T = np.stack([a @ ((np.arange(n) + u) % n) for u in range(n)], axis=1)  # live x n
    base = T[:, 0].sum()
    for lo in range(0, m, 8192):
        block = W[lo : lo + 8192][:, live]
        acc = np.full(len(block), base)
        for u in range(1, n):
            acc += (block == u).astype(np.float64) @ (T[:, u] - T[:, 0])
        out[lo : lo + 8192] = acc
    return out


def uniform_value(groups: Any, n: int, fixed: dict[int, int] | None = None) -> Fraction:
    """The program's value at the answer a_{g,v} = (free taps of g) / n (every row
    equal: each touched free tap averages (n - 1) / 2), untouched free taps at n - 1,
    plus nothing for fixed taps: a lower bound on the program's optimum over any set
    of elements when no tap is fixed."""
    fixed = fixed or {}
    touched = sum(1 for m in groups.members for j in m if int(j) not in fixed)
    untouched = sum(1 for j in groups.fixed if int(j) not in fixed)
    return Fraction((n - 1) * touched, 2) + (n - 1) * untouched


def root_bound(
    E: KernelElements | None,
    cover: KernelElements,
    groups: Any,
    n: int,
    *,
    deadline: float | None = None,
) -> tuple[Fraction, KernelElements, np.ndarray, np.ndarray]:
    """The ``lp-dual`` bound (no tap fixed): (exact bound, the element set, element
    indices into it, integer weights). First the uniform weights over ``cover`` (a
    subgroup touching the taps the kernel touches): for a prime n they meet
    :func:`uniform_value`, the program's optimum, and nothing more is solved. Else the
    program over E (the whole kernel, by constraint generation) when given, and the
    better of the two is returned."""
    uniform = exact_bound(cover.values, np.ones(len(cover), dtype=object), n, {})
    best = (
        uniform,
        cover,
        np.arange(len(cover), dtype=np.int64),
        np.ones(len(cover), dtype=object),
    )
    if uniform <= uniform_value(groups, n) or E is None or not len(groups.members):
        return best
    b, idx, q, _ = lp_bound(E, groups, {}, n, deadline=deadline)
    if b < best[0]:
        best = (b, E, idx, q)
    return best
