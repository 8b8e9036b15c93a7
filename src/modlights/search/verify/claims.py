"""The certificate checker's claims: "minimal" (the coset minimum, the search tree and
its symmetries) and "hardest" (weights, the dual bound, the upper bound). Imports nothing
of modlights (see the package's docstring)."""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm, prod
from typing import Any

import numpy as np

from .algebra import (
    _check_kernel,
    _coset_min,
    _eliminate,
    _Kernel,
    _Matrix,
    _Walk,
)
from .data import (
    CHUNK_ENTRIES,
    COVER_DEN_MAX,
    LIMB,
    _field,
    _int,
    _ints,
    _prime_powers,
    _rational,
)
from .work import (
    _PY,
    _WORD,
    _cost_dual,
    _cost_walk,
    _Meter,
)


# ------------------------------------------------------------------ "minimal" claims
def _check_minimal(d: Any, what: str, A: _Matrix, kernel: _Kernel, meter: _Meter) -> str:
    """A "minimal" claim: x solves A x = b, sum(x) = L and the proof covers x + ker A.
    Returns a few words on the proof."""
    n, m, r = A.n, A.m, A.r
    b = _ints(_field(d, "rhs", what), f"{what}rhs", m, 0, n - 1)
    x = _ints(_field(d, "taps", what), f"{what}taps", r, 0, n - 1)
    L = _int(_field(d, "length", what), f"{what}length", 0)
    if int(x.sum()) != L:
        raise ValueError(f"{what}length {L} is not the sum of the taps ({int(x.sum())})")
    bad = np.flatnonzero((A.apply(x) - b) % n)
    if bad.size:
        raise ValueError(f"{what}taps do not solve the board: A x != rhs at cell {int(bad[0])}")
    proof = _field(d, "proof", what)
    method = _field(proof, "method", f"{what}proof")
    if isinstance(proof, dict) and "generators" in proof:
        # a proof may carry its own (reordered) generators: checked as a kernel
        kernel = _check_kernel(proof, A, f"{what}proof kernel", meter)
    if method == "enumeration":
        total = prod(kernel.orders)
        if L > 0:
            low = _coset_min(x, kernel.H, kernel.orders, n)
            if low < L:
                raise ValueError(
                    f"{what}enumeration: the coset has an element of length {low} < {L}"
                )
        return f"enumeration of {total} solutions"
    if method == "tree":
        return _check_tree(proof, f"{what}proof", x, b, L, A, kernel, meter)
    raise ValueError(f"{what}proof method {method!r} is unknown: use 'enumeration' or 'tree'"[:300])


def _groups(Hfree: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Taps grouped by their column over the rows of Hfree: (group id per tap, number
    of groups, id of the zero column's group or -1)."""
    r = Hfree.shape[1]
    if Hfree.shape[0] == 0:
        return np.zeros(r, dtype=np.int64), 1, 0
    keys, gid = np.unique(Hfree.T, axis=0, return_inverse=True)
    zero = np.flatnonzero(~keys.any(axis=1))
    return gid.reshape(-1).astype(np.int64), keys.shape[0], int(zero[0]) if zero.size else -1


def _classes(Hfree: np.ndarray, n: int) -> tuple[np.ndarray, int, np.ndarray]:
    """Taps grouped by their column u_j over the rows of Hfree up to a unit: with e the
    first non-zero entry of u_j, the key is e^-1 u_j and a_j = e when gcd(e, n) = 1, else
    u_j and a_j = 1; a zero column has the key 0 and a_j = 0. Returns (class id per tap,
    number of classes, a)."""
    r = Hfree.shape[1]
    if Hfree.shape[0] == 0:
        return np.zeros(r, dtype=np.int64), 1, np.zeros(r, dtype=np.int64)
    cols = Hfree.T.astype(np.int64) % n
    nz = cols != 0
    has = nz.any(axis=1)
    e = cols[np.arange(r), nz.argmax(axis=1)]
    units = [v for v in range(1, n) if gcd(v, n) == 1]
    inv = np.zeros(n, dtype=np.int64)
    for v in units:
        inv[v] = next(w for w in units if v * w % n == 1)
    unit = has & (np.gcd(e, n) == 1)
    key = np.where(unit[:, None], cols * inv[e][:, None] % n, cols)
    a = np.where(unit, e, has.astype(np.int64))
    _, gid = np.unique(key, axis=0, return_inverse=True)
    gid = gid.reshape(-1).astype(np.int64)
    return gid, int(gid.max()) + 1 if r else 1, a


def _class_bound(y: np.ndarray, gid: np.ndarray, G: int, a: np.ndarray, n: int) -> int:
    """sum over classes of min over s in 0..n-1 of sum_{j in class} ((y_j + a_j s) mod
    n): T[g, s] sums the taps of class g at shift s (entries <= r (n - 1) < 2^53, exact
    in the float64 sums of np.bincount)."""
    s = np.arange(n, dtype=np.int64)
    vals = (y.astype(np.int64)[:, None] + a[:, None] * s[None, :]) % n
    where = gid[:, None] * n + s[None, :]
    T = np.bincount(where.ravel(), weights=vals.ravel(), minlength=G * n).reshape(G, n)
    return int(T.min(axis=1).sum())


def _prefix_bound(y: np.ndarray, gid: np.ndarray, G: int, zero: int, n: int) -> int:
    """sum over groups of min over s of sum_{j in group} ((y_j + s) mod n), s = 0 for
    the zero column's group. cnt[g, v] counts taps of group g with y_j = v, and
    T[g, s] = sum_v cnt[g, v] ((v + s) mod n): entries <= r (n - 1), no overflow."""
    cnt = np.bincount(gid * n + y, minlength=G * n).reshape(G, n)
    vs = np.arange(n, dtype=np.int64)
    T = cnt @ ((vs[:, None] + vs[None, :]) % n)
    mins = T.min(axis=1)
    if zero >= 0:
        mins[zero] = T[zero, 0]
    return int(mins.sum())


def _check_tree(
    proof: dict,
    what: str,
    x: np.ndarray,
    b: np.ndarray,
    L: int,
    A: _Matrix,
    kernel: _Kernel,
    meter: _Meter,
) -> str:
    """A branch and bound proof (docs/certificates.md, method "tree").

    Coefficients are fixed from c_{k-1} down; a leaf fixes c_{k-1}..c_m (m =
    leaf_dim) and is the sub-coset y + span(h_0..h_{m-1}). Every leaf must be (a)
    under a pruned prefix whose bound, recomputed here, is >= L: every element below
    the prefix is y + (free part), and the free part adds the same value s to every
    tap of one group (taps with equal columns over the free generators), so each
    group costs at least its minimum over s; or (b) checked directly: its minimum is
    >= L; or (c) mapped by a listed symmetry onto a leaf smaller in the order
    (c_{k-1}, ..., c_m). (c) is sound by induction over that order: a least leaf
    with a minimum below L would be neither (a) nor (b), so (c) maps it to a smaller
    leaf with the same minimum, a contradiction."""
    n, k = A.n, kernel.k
    H, orders = kernel.H, kernel.orders
    m = _int(_field(proof, "leaf_dim", what), f"{what} leaf_dim", 0, k)
    depth = k - m
    pruned = proof.get("pruned", [])
    if not isinstance(pruned, list):
        raise ValueError(f"{what} pruned must be a list of prefixes")
    kind = proof.get("bound", "columns")
    if kind not in ("columns", "classes"):
        raise ValueError(f"{what} bound must be 'columns' or 'classes', got {kind!r}"[:300])
    groups: dict[int, Any] = {}  # _groups' or _classes' tuples by free count
    pset = set()
    ys: list[np.ndarray] = [x]  # x plus the previous prefix's partial sums
    last: list[int] = []  # the previous prefix's entries
    for idx, P in enumerate(pruned):
        if not isinstance(P, list) or len(P) > depth:
            raise ValueError(
                f"{what} pruned prefix {idx} must be a list of at most {depth} coefficients"
            )
        # ys[t]: x plus the first t entries of the previous prefix, kept while equal
        same = 0
        for t, c in enumerate(P):
            i = k - 1 - t
            c = _int(c, f"{what} pruned prefix {idx} entry {t}", 0, orders[i] - 1)
            if same == t and t < len(last) and last[t] == c:
                same += 1
        del ys[same + 1 :], last[same:]
        for t in range(same, len(P)):
            c = P[t]
            ys.append((ys[-1] + c * H[k - 1 - t]) % n if c else ys[-1])
            last.append(c)
        y = ys[len(P)]
        free = k - len(P)
        if free not in groups:
            groups[free] = _groups(H[:free]) if kind == "columns" else _classes(H[:free], n)
        gid, G, extra = groups[free]  # extra: the zero column's group, or the a_j
        if kind == "columns":
            bound = _prefix_bound(y, gid, G, extra, n)
        else:
            bound = _class_bound(y, gid, G, extra, n)
        if bound < L:
            raise ValueError(f"{what}: pruned prefix {P} has bound {bound} < length {L}")
        pset.add(tuple(P))
    syms = _symmetries(proof.get("symmetries", []), what, x, b, A, kernel, m)
    checked = skipped = 0
    if L == 0:  # every length is >= 0: nothing to walk
        return f"tree of {len(pset)} pruned prefixes (length 0)"
    walk = _Walk(H[:m], orders[:m], n, A.r)
    per_leaf = _cost_walk(orders[:m], n, A.r)[1]
    step = f"the leaves of a tree proof, each a walk of {prod(orders[:m])} elements"
    # depth-first over prefixes not pruned; y is x plus the fixed part
    stack: list[tuple[tuple, np.ndarray]] = [((), x)]
    while stack:
        P, y = stack.pop()
        if P in pset:
            continue
        if len(P) == depth:
            if syms and _lower_image(syms, P, orders, m):
                skipped += 1
                continue
            meter.spend(per_leaf, "tree leaves", step)
            low = walk.min(y)
            if low < L:
                raise ValueError(f"{what}: leaf {list(P)} has an element of length {low} < {L}")
            checked += 1
            continue
        i = k - 1 - len(P)
        for c in reversed(range(orders[i])):
            stack.append((P + (c,), (y + c * H[i]) % n if c else y))
    return (
        f"tree: {len(pset)} pruned prefixes, {checked} leaves checked, {skipped} "
        "mapped by symmetries"
    )


def _read_symmetry(sym: Any, w: str, A: _Matrix, base: tuple) -> tuple[np.ndarray, np.ndarray]:
    """One symmetry {"cells", "taps"} named ``w``: a pair of permutations that maps A
    (whose entries are ``base``) onto itself; its (cells, taps)."""
    cells = _ints(_field(sym, "cells", w), f"{w} cells", A.m, 0, A.m - 1)
    taps = _ints(_field(sym, "taps", w), f"{w} taps", A.r, 0, A.r - 1)
    if np.unique(cells).size != A.m or np.unique(taps).size != A.r:
        raise ValueError(f"{w} is not a pair of permutations")
    img = A.entries(cells, taps)
    if not (np.array_equal(img[0], base[0]) and np.array_equal(img[1], base[1])):
        raise ValueError(f"{w} is not an automorphism of A")
    return cells, taps


def _symmetries(
    spec: Any, what: str, x: np.ndarray, b: np.ndarray, A: _Matrix, kernel: _Kernel, m: int
) -> list[tuple]:
    """Checks each symmetry (sigma on cells, tau on taps) and returns, for each, how it
    acts on leaves: (d, T) with leaf coefficients c (i >= m) mapped to d + c T (mod o).

    With A[sigma i, tau j] = A[i, j] and b[sigma i] = b[i], the tap vector tau y
    ((tau y)[tau j] = y[j]) solves A (tau y) = b whenever A y = b, and has the same
    length: tau maps the coset onto itself. It is linear, so tau y - x = (tau x - x) +
    sum c_i tau(h_i), and with coordinates in the generators (unique, see
    :func:`_check_kernel`) the leaf of tau y is read off from those of tau x - x and of
    tau h_i (i >= m). tau maps span(h_0..h_{m-1}) into itself (the coordinates of
    tau h_i, i < m, vanish from m on), hence onto itself: the image of a leaf is a
    whole leaf. Each is returned as (d, T) (bit masks too: see :func:`_lower_image`)."""
    if not isinstance(spec, list):
        raise ValueError(f"{what} symmetries must be a list")
    n, k = A.n, kernel.k
    base = A.entries()
    out = []
    for s, sym in enumerate(spec):
        w = f"{what} symmetry {s}"
        cells, taps = _read_symmetry(sym, w, A, base)
        if not np.array_equal(b[cells], b):
            raise ValueError(f"{w} does not preserve the rhs")

        def move(v: np.ndarray, taps: np.ndarray = taps) -> np.ndarray:
            out_v = np.empty_like(v)
            out_v[taps] = v
            return out_v

        Z = np.stack([(move(x) - x) % n] + [move(h) for h in kernel.H], axis=1)
        try:
            C = kernel.coords(Z)
        except ValueError:
            raise ValueError(f"{w} does not map the coset onto itself") from None
        if k and C[1 : m + 1, m:].any():
            raise ValueError(f"{w} does not map span(h_0..h_{m - 1}) into itself")
        d, T = C[0, m:], C[m + 1 :, m:]
        # the same as bit masks (bit j - m for coefficient j), used when all orders are 2
        mask = lambda row: sum(int(v & 1) << j for j, v in enumerate(row))  # noqa: E731
        out.append((mask(d), [mask(row) for row in T], (d, T)))
    return out


def _lower_image(syms: list, P: tuple, orders: list[int], m: int) -> bool:
    """Whether a symmetry maps leaf P = (c_{k-1}, ..., c_m) to a smaller leaf.

    A leaf maps to d + c T (mod the orders), c = (c_m, ..., c_{k-1}). When every order
    is 2 the leaf is read as the integer with bit i - m = c_i (its order is the
    lexicographic one) and the image is d xor the rows of T where c has a bit."""
    if all(o == 2 for o in orders[m:]):
        c = 0
        for v in P:
            c = (c << 1) | v
        for d, rows, _ in syms:
            img, bits, i = d, c, 0
            while bits:
                if bits & 1:
                    img ^= rows[i]
                bits >>= 1
                i += 1
            if img < c:
                return True
        return False
    cs = np.array(P[::-1], dtype=np.int64)  # c_m .. c_{k-1}
    mods = np.array(orders[m:], dtype=np.int64)
    for _, _, (d, T) in syms:
        img = (d + cs @ T) % mods  # k terms < 2^16
        if tuple(int(v) for v in img[::-1]) < P:
            return True
    return False


# ------------------------------------------------------------------ "bounds" claims
def _check_bounds(cert: Any, A: _Matrix, meter: _Meter) -> str:
    """A "bounds" claim: x solves A x = b with sum(x) = U, and covering weights prove
    every solution has at least L taps. Returns the summary line.

    The covering bound: every cell i with b_i != 0 is changed by some tap j with y_j != 0
    and A_ij != 0, so for weights w_i >= 0 (0 where b_i = 0) whose sum over the cells of
    every tap's column is at most 1, sum(y) >= |supp y| >= sum_i w_i. O(nnz + m + r)."""
    n, m, r = A.n, A.m, A.r
    b = _ints(_field(cert, "rhs", "certificate"), "rhs", m, 0, n - 1)
    x = _ints(_field(cert, "taps", "certificate"), "taps", r, 0, n - 1)
    L, U = _lower_upper(cert)
    if int(x.sum()) != U:
        raise ValueError(f"upper {U} is not the sum of the taps ({int(x.sum())})")
    bad = np.flatnonzero((A.apply(x) - b) % n)
    if bad.size:
        raise ValueError(f"taps do not solve the board: A x != rhs at cell {int(bad[0])}")
    bound = _covering(cert, "", b, A, L)
    return f"the fewest taps are {_value_text(L, U)} (covering bound {bound}; the taps give {U})"


def _covering(d: Any, what: str, b: np.ndarray, A: _Matrix, L: int) -> int:
    """The covering weights of claim ``d`` ("lower_bound") for rhs b: weights in 0..D,
    0 where b_i = 0, every tap's cells weighing at most 1, and L <= their bound
    ceil(sum w / D), which it returns. ``what`` prefixes the messages ("" or
    "witness "). O(nnz + m + r)."""
    m, r = A.m, A.r
    lb = _field(d, "lower_bound", what.strip() or "certificate")
    where = f"{what}lower_bound"
    method = _field(lb, "method", where)
    if method != "covering":
        raise ValueError(f"{where} method {method!r} is unknown: use 'covering'"[:300])
    D = _int(_field(lb, "denominator", where), f"{where} denominator", 1, COVER_DEN_MAX)
    w = _ints(_field(lb, "weights", where), f"{where} weights", m, 0, D)
    idle = np.flatnonzero((w != 0) & (b == 0))
    if idle.size:
        raise ValueError(
            f"{where}: cell {int(idle[0])} has weight {int(w[idle[0]])} but needs no change"
        )
    keys, _ = A.entries()
    col = np.zeros(r, dtype=np.int64)  # at most 2^31 x (entries of a column): no overflow
    np.add.at(col, keys % max(1, r), w[keys // max(1, r)])
    over = np.flatnonzero(col > D)
    if over.size:
        j = int(over[0])
        raise ValueError(
            f"{where}: the cells of tap {j} weigh {Fraction(int(col[j]), D)} > 1"[:300]
        )
    total = int(w.sum())  # at most 2^31 x m: no overflow
    bound = -(-total // D)
    if L > bound:
        raise ValueError(
            f"lower {L} exceeds the {what}covering bound {bound} (weights {total}/{D})"
        )
    return bound


def _check_covering_witness(d: Any, L: int, A: _Matrix) -> str:
    """A hardest certificate's witness given by covering weights instead of a minimal
    claim: its taps solve A x = rhs (so rhs is a board) and every solution of that board
    has at least L taps (:func:`_covering`), so the hardest value is >= L."""
    n, m, r = A.n, A.m, A.r
    b = _ints(_field(d, "rhs", "witness"), "witness rhs", m, 0, n - 1)
    x = _ints(_field(d, "taps", "witness"), "witness taps", r, 0, n - 1)
    bad = np.flatnonzero((A.apply(x) - b) % n)
    if bad.size:
        raise ValueError(f"witness taps do not solve the board: A x != rhs at cell {int(bad[0])}")
    bound = _covering(d, "witness ", b, A, L)
    return f"a board of covering bound {bound}"


def _lower_upper(cert: Any) -> tuple[int, int]:
    """The "lower" and "upper" fields: integers >= 0 with lower <= upper."""
    lower = _int(_field(cert, "lower", "certificate"), "lower", 0)
    upper = _int(_field(cert, "upper", "certificate"), "upper", 0)
    if lower > upper:
        raise ValueError(f"lower {lower} > upper {upper}")
    return lower, upper


def _value_text(lower: int, upper: int) -> str:
    """ "exactly L" or "between L and U"."""
    return f"exactly {lower}" if lower == upper else f"between {lower} and {upper}"


# ------------------------------------------------------------------ "hardest" claims
def _weights(spec: Any, what: str, count: int, meter: _Meter) -> tuple[int, dict[int, int]]:
    """Weights w_i >= 0 summing to 1, as a list (one per element) or {"i": w}:
    (D, {i: D w_i}) with D the least common denominator (so D w_i are integers)."""
    if isinstance(spec, list):
        if len(spec) != count:
            raise ValueError(f"{what} has {len(spec)} weights for {count} elements")
        items = list(enumerate(spec))
    elif isinstance(spec, dict):
        items = []
        for key, v in spec.items():
            if not (isinstance(key, str) and key.isdigit() and key.isascii()) or int(key) >= count:
                raise ValueError(f"{what}: {key!r} is not an element index (0..{count - 1})"[:300])
            items.append((int(key), v))
    else:
        raise ValueError(f"{what} must be a list or an object of weights")
    pairs = {}
    for i, v in items:
        num, den = _rational(v, f"{what} weight {i}")
        if num < 0:
            raise ValueError(f"{what}: weight {i} is negative ({v})"[:300])
        pairs[i] = (num, den)
    dens = {den for _, den in pairs.values()}
    bits = sum(den.bit_length() for den in dens)  # the lcm has at most these bits
    meter.spend(3 * (bits // 64 + 1) ** 2 * _WORD, "lp", "the LP weights' common denominator")
    D = lcm(*dens) if pairs else 1
    W = {i: num * (D // den) for i, (num, den) in pairs.items() if num}
    if sum(W.values()) != D:
        raise ValueError(f"{what}: the weights sum to {Fraction(sum(W.values()), D)}, not 1"[:300])
    return D, W


def _dual_bound(
    values: np.ndarray,
    weights: tuple[int, dict[int, int]],
    n: int,
    fixed: dict[int, int],
    meter: _Meter,
    counts: dict[tuple, tuple[int, int]] | None = None,
) -> Fraction:
    """sum over fixed taps j of sum_c w_c ((v_j + c_j) mod n) + sum over the other
    taps of max_v sum_c w_c ((v + c_j) mod n), exactly; ``values`` (E x r) holds the
    kernel elements c, ``weights`` is (D, {c: D w_c}) from :func:`_weights`. The taps
    of each ``counts`` key (a tuple of free taps, with an interval (lo, hi)) count
    together: their term is the largest sum of their per-tap sums over the values
    x_T with lo <= sum x_T <= hi (:func:`_count_max`) instead of their free maxima.

    The integers W_c = D w_c are split into 30-bit limbs so that S[j, t] = sum over
    c with c_j = t of W_c is summed in int64 (fewer than 2^32 elements of a limb
    < 2^30 each), then joined as Python ints."""
    D, Wd = weights
    idx = sorted(Wd)
    W = [Wd[i] for i in idx]
    r = values.shape[1]
    bits = max(W, default=1).bit_length()
    limbs = max(1, -(-bits // LIMB))
    meter.spend(_cost_dual(len(W), r, n, limbs, bits), "lp", "the LP bounds of big weights")
    V = values[idx]  # (E', r) entries 0..n-1
    S = [[0] * n for _ in range(r)]
    step = max(1, CHUNK_ENTRIES // max(1, r))
    for lb in range(limbs):
        w = np.array([(x >> (LIMB * lb)) & ((1 << LIMB) - 1) for x in W], dtype=np.int64)
        for t in range(n):
            col = np.zeros(r, dtype=np.int64)
            for s in range(0, len(idx), step):
                col += w[s : s + step] @ (V[s : s + step] == t).astype(np.int64)
            for j in range(r):
                S[j][t] += int(col[j]) << (LIMB * lb)
    counted: set[int] = set()
    total = 0
    for key, (lo, hi) in (counts or {}).items():
        meter.spend(_cost_count(len(key), n, bits), "lp", "the group counts of an LP tree")
        per = [[sum(S[j][t] * ((v + t) % n) for t in range(n)) for v in range(n)] for j in key]
        total += _count_max(per, n, lo, hi)
        counted.update(key)
    for j in range(r):
        if j in counted:
            continue
        sums = [sum(S[j][t] * ((v + t) % n) for t in range(n)) for v in range(n)]
        total += sums[fixed[j]] if j in fixed else max(sums)
    return Fraction(total, D)


def _cost_count(size: int, n: int, bits: int) -> int:
    """Work of :func:`_count_max` over ``size`` taps: the table of sums times n values."""
    return size * ((n - 1) * size + 1) * n * (_WORD + bits // 64 * _WORD)


def _count_max(per: list[list[int]], n: int, lo: int, hi: int) -> int:
    """max over x in (Z/n)^T with lo <= sum(x) <= hi of sum_j per[j][x_j] (per[j] the
    n sums of tap j): a table best[s] over the sums s = 0..(n-1)|T|, one tap at a
    time. O(|T|^2 n^2); lo..hi meets 0..(n-1)|T| (the checker's intervals do)."""
    best: list[int | None] = [0]
    for sums in per:
        nxt: list[int | None] = [None] * (len(best) + n - 1)
        for s, b in enumerate(best):
            if b is None:
                continue
            for v in range(n):
                c = b + sums[v]
                if nxt[s + v] is None or c > nxt[s + v]:  # type: ignore[operator]
                    nxt[s + v] = c
        best = nxt
    return max(b for b in best[lo : hi + 1] if b is not None)


def _elements(spec: Any, what: str, kernel: _Kernel) -> np.ndarray:
    """Kernel elements given by their coefficients: (E, r) uint8 of sum a_i h_i mod n.

    The products a H are taken in float64 (BLAS): every entry is a sum of k products
    of integers below 256, so below k 2^16 < 2^53, and float64 represents and adds
    such integers exactly."""
    k = kernel.k
    if not isinstance(spec, list) or not spec:
        raise ValueError(f"{what} elements must be a non-empty list of coefficient lists")
    for e_, row in enumerate(spec):
        if type(row) is not list or len(row) != k or not all(type(c) is int for c in row):
            raise ValueError(f"{what} element {e_} must be a list of {k} integers")
    a = np.array(spec, dtype=object).reshape(len(spec), k)
    hi = np.array([o - 1 for o in kernel.orders], dtype=object)
    bad = (a < 0) | (a > hi[None, :]) if k else np.zeros((len(spec), 0), bool)
    if bad.any():
        e_, i = (int(v) for v in np.argwhere(bad)[0])
        raise ValueError(
            f"{what} element {e_}: coefficient {i} is not in 0..{hi[i]} (below its order)"
        )
    a = a.astype(np.float64)
    r = kernel.H.shape[1]
    V = np.zeros((len(spec), r), dtype=np.uint8)
    Hf = kernel.H.astype(np.float64)
    step = max(1, CHUNK_ENTRIES // max(1, r))
    for s in range(0, len(spec), step):
        V[s : s + step] = (a[s : s + step] @ Hf).astype(np.int64) % kernel.n
    return V


def _check_upper(ub: Any, U: int, A: _Matrix, kernel: _Kernel, meter: _Meter) -> str:
    """The "upper_bound" of a hardest certificate: floor(bound) <= U.

    The hardest value is max_x min_c sum(x + c); for weights w_c >= 0 summing to 1,
    min_c sum(x + c) <= sum_c w_c sum(x + c) = sum_j sum_c w_c ((x_j + c_j) mod n),
    at most the bound of :func:`_dual_bound`; the value is an integer, so at most its
    floor. With "lp-tree", x ranges over the vectors with x_j = 0 on the pinned taps
    (every coset has such an element when ker A maps onto (Z/n)^pinned: the image is
    a submodule whose reduction mod each prime p of n is everything, hence everything
    by Nakayama's lemma, so rank mod p of the generators on those taps is enough), and
    the branching over taps covers every such x; each closed leaf bounds its x. A
    ``branch-group`` node (:func:`_branch_group`) splits the range of sum(x_T) of a set
    of taps T into intervals, one child each; a leaf then bounds those taps together
    by the largest sum of their per-tap terms within the interval (:func:`_count_max`),
    which is at least the term of every x of the leaf."""
    what = "upper_bound"
    n, r = A.n, A.r
    method = _field(ub, "method", what)
    V = _elements(_field(ub, "elements", what), what, kernel)
    if method == "lp-dual":
        w = _weights(_field(ub, "weights", what), "lp-dual", len(V), meter)
        B = _dual_bound(V, w, n, {}, meter)
        if B.numerator // B.denominator > U:
            raise ValueError(f"lp-dual: floor(bound) {B.numerator // B.denominator} > upper {U}")
        return (
            f"LP dual over {len(V)} kernel elements, bound {B} "
            f"(floor {B.numerator // B.denominator})"
        )
    if method != "lp-tree":
        raise ValueError(f"{what} method {method!r} is unknown: use 'lp-dual' or 'lp-tree'"[:300])
    pinned = _ints(_field(ub, "pinned", what), f"{what} pinned", None, 0, r - 1).tolist()
    if len(set(pinned)) != len(pinned):
        raise ValueError(f"{what}: pinned lists a tap twice")
    for p, _ in _prime_powers(n):
        rank = len(_eliminate(kernel.H[:, pinned] % p, p, 1)[0]) if pinned else 0
        if rank != len(pinned):
            raise ValueError(
                f"{what}: ker A does not map onto the pinned taps (rank "
                f"{rank} < {len(pinned)} mod {p})"
            )
    nodes = _field(ub, "nodes", what)
    if not isinstance(nodes, list):
        raise ValueError(f"{what} nodes must be a list")
    syms = _tree_symmetries(ub.get("symmetries", []), what, A, meter)
    # the nodes symmetry nodes name: their boxes are kept when met
    targets = {
        nd["to"]
        for nd in nodes
        if isinstance(nd, dict) and "symmetry" in nd and type(nd.get("to")) is int
    }
    boxes: dict[int, tuple[dict, dict]] = {}
    closed: set[int] = set()  # nodes whose subtree has ended
    fixed = {j: 0 for j in pinned}
    count_of: dict[int, tuple] = {}  # tap -> the key (sorted taps) of its group count
    counts: dict[tuple, tuple[int, int]] = {}  # key -> its interval (lo, hi)
    # along the path: ["tap", j, value] or ["group", key, intervals, i, interval before]
    stack: list[list] = []
    starts: list[int] = []  # the node number of each stack frame
    pos = leaves = mapped = 0
    worst = None
    while True:
        if pos >= len(nodes):
            raise ValueError(f"{what}: the tree ends early (after {pos} nodes)")
        node = nodes[pos]
        pos += 1
        if pos - 1 in targets:
            meter.spend((len(fixed) + len(counts)) * _PY, "lp", "the symmetry nodes of an LP tree")
            boxes[pos - 1] = (dict(fixed), dict(counts))
        if isinstance(node, dict) and "branch" in node:
            j = _int(node["branch"], f"{what} node {pos - 1} branch", 0, r - 1)
            if j in fixed:
                raise ValueError(f"{what} node {pos - 1} branches on tap {j}, already fixed")
            if j in count_of:
                raise ValueError(f"{what} node {pos - 1} branches on tap {j}, in a group count")
            stack.append(["tap", j, 0])
            starts.append(pos - 1)
            fixed[j] = 0
            continue
        if isinstance(node, dict) and "branch-group" in node:
            stack.append(
                _branch_group(node, f"{what} node {pos - 1}", r, n, fixed, count_of, counts)
            )
            starts.append(pos - 1)
            continue
        if isinstance(node, dict) and "symmetry" in node:
            _symmetry_node(
                node, f"{what} node {pos - 1}", syms, boxes, closed, fixed, counts, count_of, n
            )
            meter.spend(r * 4 * _PY, "lp", "the symmetry nodes of an LP tree")
            mapped += 1
        else:
            w = _weights(
                _field(node, "weights", f"{what} node {pos - 1}"),
                f"{what} node {pos - 1}",
                len(V),
                meter,
            )
            B = _dual_bound(V, w, n, fixed, meter, counts)
            fl = B.numerator // B.denominator
            if fl > U:
                raise ValueError(f"lp-tree: node {pos - 1} has floor(bound) {fl} > upper {U}")
            worst = fl if worst is None else max(worst, fl)
            leaves += 1
        closed.add(pos - 1)
        while stack:
            top = stack[-1]
            if top[0] == "tap" and top[2] < n - 1:
                top[2] += 1
                fixed[top[1]] = top[2]
                break
            if top[0] == "group" and top[3] < len(top[2]) - 1:
                top[3] += 1
                counts[top[1]] = top[2][top[3]]
                break
            stack.pop()
            closed.add(starts.pop())
            if top[0] == "tap":
                del fixed[top[1]]
            elif top[4] is None:
                del counts[top[1]]
                for j in top[1]:
                    del count_of[j]
            else:
                counts[top[1]] = top[4]
        if not stack:
            break
    if pos != len(nodes):
        raise ValueError(f"{what}: {len(nodes) - pos} nodes after the end of the tree")
    more = f", {mapped} mapped by symmetries" if mapped else ""
    return f"LP tree of {leaves} closed leaves, largest bound {worst}{more}"


def _tree_symmetries(spec: Any, what: str, A: _Matrix, meter: _Meter) -> list[np.ndarray]:
    """The ``symmetries`` of an lp-tree: pairs (sigma on cells, tau on taps) of
    permutations with A[sigma i, tau j] = A[i, j] (the board's symmetries; no rhs: the
    hardest value is over every board). Returns each tau's inverse."""
    if not isinstance(spec, list):
        raise ValueError(f"{what} symmetries must be a list")
    base = A.entries()
    out = []
    for s, sym in enumerate(spec):
        w = f"{what} symmetry {s}"
        meter.spend((A.m + A.r) * _PY, "lp", "the symmetries of an LP tree")
        cells, taps = _read_symmetry(sym, w, A, base)
        inv = np.empty(A.r, dtype=np.int64)
        inv[taps] = np.arange(A.r, dtype=np.int64)
        out.append(inv)
    return out


def _symmetry_node(
    node: dict,
    what: str,
    syms: list[np.ndarray],
    boxes: dict[int, tuple[dict, dict]],
    closed: set[int],
    fixed: dict[int, int],
    counts: dict[tuple, tuple[int, int]],
    count_of: dict[int, tuple],
    n: int,
) -> None:
    """A ``symmetry`` node of an lp-tree: ``{"symmetry": s, "to": t}``. Symmetry s
    (tau) maps this node's box into node t's, whose subtree has ended before it: every x
    here has f(x) = f(tau x) <= the bound proved for t's subtree (f, the fewest taps,
    is kept by tau). The box of a node is its fixed taps (the pinned ones and the
    branches) and its counts (taps T with sum(x_T) in an interval); tau x lies in t's
    box when every tap fixed there is tau of a tap fixed to the same value here, and
    for every count (T', [lo', hi']) of t the taps tau^-1(T') are fixed, free or whole
    counts here with sums in lo'..hi' (free taps 0..n-1)."""
    if not syms:
        raise ValueError(f"{what} uses a symmetry but the tree lists none")
    s = _int(_field(node, "symmetry", what), f"{what} symmetry", 0, len(syms) - 1)
    t = _int(_field(node, "to", what), f"{what} to", 0, None)
    if t not in closed:
        raise ValueError(f"{what} maps to node {t}, whose subtree does not end before it")
    inv = syms[s]
    t_fixed, t_counts = boxes[t]
    ok = all(fixed.get(int(inv[j])) == v for j, v in t_fixed.items())
    for key, (lo, hi) in t_counts.items():
        if not ok:
            break
        pre = {int(inv[j]) for j in key}
        low = high = 0
        seen: set[tuple] = set()
        for j in pre:
            if j in fixed:
                low += fixed[j]
                high += fixed[j]
            elif j in count_of:
                c = count_of[j]
                if c in seen:
                    continue
                if not pre.issuperset(c):
                    ok = False
                    break
                seen.add(c)
                low += counts[c][0]
                high += counts[c][1]
            else:
                high += n - 1
        ok = ok and lo <= low and high <= hi
    if not ok:
        raise ValueError(f"{what}: symmetry {s} does not map it into node {t}")


def _branch_group(
    node: dict,
    what: str,
    r: int,
    n: int,
    fixed: dict[int, int],
    count_of: dict[int, tuple],
    counts: dict[tuple, tuple[int, int]],
) -> list:
    """A ``branch-group`` node of an lp-tree: its taps T (free, not fixed) count
    together, sum(x_T) in an interval; the ``splits`` s_1 < ... < s_t cut that interval
    (0..(n-1)|T|, or the one T's count already has: the taps must then be exactly that
    group's) into t + 1 children [lo, s_1 - 1], [s_1, s_2 - 1], ..., [s_t, hi], in
    order. Enters the first child and returns the path frame."""
    T = _ints(node["branch-group"], f"{what} branch-group", None, 0, r - 1).tolist()
    if not T:
        raise ValueError(f"{what} branch-group must list at least one tap")
    if len(set(T)) != len(T):
        raise ValueError(f"{what} branch-group lists a tap twice")
    for j in T:
        if j in fixed:
            raise ValueError(f"{what} branches on tap {j}, already fixed")
    key = tuple(sorted(T))
    keys = {count_of.get(j) for j in T}
    if keys == {None}:
        before = None
        lo, hi = 0, (n - 1) * len(T)
    elif keys == {key}:
        before = counts[key]
        lo, hi = before
    else:
        raise ValueError(f"{what} branch-group is not a group count or free taps")
    cuts = _ints(_field(node, "splits", what), f"{what} splits", None, lo + 1, hi).tolist()
    if not cuts or any(a >= b for a, b in zip(cuts, cuts[1:])):
        raise ValueError(f"{what} splits must be a non-empty increasing list")
    edges = [lo] + cuts + [hi + 1]
    intervals = [(edges[i], edges[i + 1] - 1) for i in range(len(edges) - 1)]
    for j in key:
        count_of[j] = key
    counts[key] = intervals[0]
    return ["group", key, intervals, 0, before]
