"""ZnEngine: the native engine over Z/nZ, 2 <= n <= 255 (csrc/dense/zn.c).

n is split by CRT into prime powers q = p^e; each part is factored once in C
(unit-pivot band elimination, then a valuation-pivoted Smith-like step for rings) and
every query (solve, kernel, det, inverse, pseudo-inverse) reuses the factorisations.
Every bound is checked here before C runs; the GIL is released around C work.
"""
import numpy as np
from math import gcd, prod
from libc.stdint cimport uint8_t, int64_t



def _factorize(n):
    """[(p, e), ...] of n (the engines' factorisation, imported when first needed)."""
    from modlights.model.ring import factorize
    return factorize(n)



#: Largest m * r the dense native engine accepts (the working matrix is uint16).
MAX_ENTRIES = 1 << 28

#: How the unit-pivot phase runs (csrc/dense/zn.h): "auto" picks; "band" is the profile
#: elimination in uint16 with delayed reduction; "bitsliced" the dense bit-sliced
#: elimination on two or three bit-planes with Four Russians tables (csrc/dense/bitsliced.c;
#: q = 3, 4 or 8).
BITSLICED_Q = (3, 4, 8)
METHODS = ("auto", "band", "bitsliced")


def _check_prime_power(q):
    """q as an int when it is a prime power in 2..255; ValueError otherwise."""
    if isinstance(q, (bool, np.bool_)) or not isinstance(q, (int, np.integer)):
        raise ValueError(f"q must be an int (a prime power from 2 to 255), got {q!r}")
    q = int(q)
    if not 2 <= q <= 255 or len(_factorize(q)) != 1:
        raise ValueError(f"q must be a prime power from 2 to 255, got {q}")
    return q


cdef class _LocalLU:
    """One factorisation over Z/qZ, q = p^e (owned C object).

    Life cycle: fill (set_dense / add_coo), factor() once, then query (rank,
    kernel_size, generators, solve_t, det). Calls out of that order raise ValueError;
    so does any use after a factor() that failed or was interrupted."""
    cdef ml_zn_lu_t *lu
    cdef int stage                   # 0: filling, 1: factored, 2: broken
    cdef readonly unsigned q, p, e
    cdef readonly Py_ssize_t m, r

    def __cinit__(self, m, r, q):
        self.lu = NULL
        self.stage = 2
        for what, v in (("m", m), ("r", r)):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) \
                    or v < 0:
                raise ValueError(f"{what} must be a non-negative int, got {v!r}")
        if m * r > MAX_ENTRIES:
            raise ValueError(f"a {m}x{r} matrix is too large for the native Z/n engine "
                             f"(at most {MAX_ENTRIES} entries)")
        cdef unsigned cq = _check_prime_power(q)
        cdef size_t cm = m, cr = r
        with nogil:
            self.lu = ml_zn_lu_new(cm, cr, cq)
        if self.lu == NULL:
            _raise_memory_error(f"cannot allocate a {m}x{r} matrix mod {q}")
        self.stage = 0
        self.q = cq
        self.p = ml_zn_lu_p(self.lu)
        self.e = ml_zn_lu_e(self.lu)
        self.m = m
        self.r = r

    def __dealloc__(self):
        if self.lu != NULL:
            ml_zn_lu_free(self.lu)
            self.lu = NULL

    cdef int _at(self, int stage, what) except -1:
        if self.stage == stage:
            return 0
        if self.stage == 2:
            raise ValueError(f"{what}: this factorisation failed or was interrupted; "
                             "make a new _LocalLU")
        if stage == 0:
            raise ValueError(f"{what} must come before factor()")
        raise ValueError(f"{what} needs factor() first")

    def set_dense(self, const uint8_t[:, ::1] a):
        self._at(0, "set_dense")
        if a.shape[0] != self.m or a.shape[1] != self.r:
            raise ValueError(f"matrix shape mismatch: expected ({self.m}, {self.r}), "
                             f"got ({a.shape[0]}, {a.shape[1]})")
        if self.m and self.r and np.max(np.asarray(a)) >= self.q:
            raise ValueError(f"matrix entries must be in 0..{self.q - 1}")
        if self.m and self.r:
            with nogil:
                ml_zn_lu_set_dense(self.lu, &a[0, 0], a.shape[1])

    def add_coo(self, const int64_t[::1] ci, const int64_t[::1] tj):
        self._at(0, "add_coo")
        if ci.shape[0] != tj.shape[0]:
            raise ValueError("coo index arrays differ in length")
        if ci.shape[0]:
            lo_c, hi_c = np.min(ci), np.max(ci)
            lo_t, hi_t = np.min(tj), np.max(tj)
            if lo_c < 0 or hi_c >= self.m or lo_t < 0 or hi_t >= self.r:
                raise ValueError(f"coo indices out of range: rows 0..{self.m - 1}, "
                                 f"columns 0..{self.r - 1}")
            with nogil:
                ml_zn_lu_add_coo(self.lu, &ci[0], &tj[0], ci.shape[0])

    def factor(self):
        """Factor the matrix (once; again is a no-op). Stops on Ctrl-C."""
        if self.stage == 1:
            return
        self._at(0, "factor")
        cdef int rc
        with nogil:
            rc = ml_zn_lu_factor(self.lu)
        if rc or _interrupted():
            self.stage = 2
        _check_interrupt()
        if rc:
            _raise_memory_error("out of memory while factoring")
        self.stage = 1

    def set_method(self, method):
        """Choose how factor() runs: one of METHODS ("bitsliced" needs q = 3, 4 or 8)."""
        self._at(0, "set_method")
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
        if ml_zn_lu_set_method(self.lu, METHODS.index(method)):
            raise ValueError(f"method {method!r} needs q = 3, 4 or 8, this matrix is mod "
                             f"{self.q}")

    @property
    def method(self):
        """The method asked for; after factor() the one used ("band" or "bitsliced")."""
        return METHODS[ml_zn_lu_method(self.lu)]

    @property
    def unit_rank(self):
        self._at(1, "unit_rank")
        return ml_zn_lu_unit_rank(self.lu)

    @property
    def rank(self):
        self._at(1, "rank")
        return ml_zn_lu_rank(self.lu)

    @property
    def ngens(self):
        """Number of kernel generators (r - unit_rank)."""
        self._at(1, "ngens")
        return ml_zn_lu_ngens(self.lu)

    def kernel_size(self):
        self._at(1, "kernel_size")
        return int(self.p) ** int(ml_zn_lu_kernel_log(self.lu))

    def generators(self, limit=None):
        """(H uint8 (ngens x r), orders); limit: at most this many (the first) rows."""
        self._at(1, "generators")
        cdef Py_ssize_t ng = ml_zn_lu_ngens(self.lu)
        if limit is not None and 0 <= limit < ng:
            ng = limit
        H = np.zeros((ng, self.r), dtype=np.uint8)
        ords = np.zeros(max(ng, 1), dtype=np.uintc)
        cdef uint8_t[:, ::1] h = H
        cdef unsigned[::1] o = ords
        cdef int rc = 0
        if ng and self.r:
            with nogil:
                rc = ml_zn_lu_generators_range(self.lu, 0, ng, &h[0, 0], &o[0])
        if rc:
            _raise_memory_error("out of memory computing kernel generators")
        return H, [int(x) for x in ords[:ng]]

    def solve_t(self, const uint8_t[:, ::1] bt, bint check=True):
        """bt: m x nb (columns are right-hand sides). Returns (xt r x nb, ok nb)."""
        self._at(1, "solve_t")
        if bt.shape[0] != self.m:
            raise ValueError(f"right-hand sides must have {self.m} rows, got {bt.shape[0]}")
        if bt.shape[0] and bt.shape[1] and np.max(np.asarray(bt)) >= self.q:
            raise ValueError(f"right-hand side entries must be in 0..{self.q - 1}")
        cdef Py_ssize_t nb = bt.shape[1]
        XT = np.zeros((self.r, nb), dtype=np.uint8)
        OK = np.ones(nb, dtype=np.uint8)
        if nb == 0:
            return XT, OK.astype(bool)
        if self.r == 0:
            ok0 = ~np.asarray(bt).astype(bool).any(axis=0) if check else np.ones(nb, bool)
            return XT, ok0
        cdef uint8_t[:, ::1] xt = XT
        cdef uint8_t[::1] ok = OK
        cdef const uint8_t *bp = NULL
        cdef int rc
        cdef int chk = 1 if check else 0
        if self.m:
            bp = &bt[0, 0]
        with nogil:
            rc = ml_zn_lu_solve(self.lu, bp, nb, &xt[0, 0], &ok[0], chk)
        if rc:
            _raise_memory_error("out of memory while solving")
        return XT, OK.astype(bool)

    def det(self):
        self._at(1, "det")
        if self.m != self.r:
            raise ValueError(f"det needs a square matrix, this one is {self.m}x{self.r}")
        return int(ml_zn_lu_det(self.lu))


class ZnEngine:
    """Linear algebra of one tap matrix A (m x r) over Z/nZ in C; the engine interface
    of :class:`modlights.engines.reference.ReferenceEngine`.

    Parameters
    ----------
    a : array_like of int, shape (m, r)
        The tap matrix (reduced mod n here).
    n : int
        The modulus, 2..255; split by CRT into prime powers, one factorisation each.
    method : {"auto", "band", "bitsliced"}
        How the prime-power parts are factored (see ``METHODS``): "auto" uses the
        bit-sliced elimination for the parts mod 3, 4 and 8 when the matrix is dense
        and the band elimination otherwise; "bitsliced" forces it for those parts (the
        others still pick); "band" never uses it. Every method gives the same answers.
    """

    name = "zn-native"

    def __init__(self, a, n, *, method="auto", _coo=None):
        n = _check_n(n)
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
        if method == "bitsliced" and not any(p ** e in BITSLICED_Q for p, e in _factorize(n)):
            raise ValueError(f"method 'bitsliced' is the GF(3), Z/4 and Z/8 elimination: n "
                             f"must have a part mod 3, 4 or 8 (3 divides n and 9 does not, "
                             f"or the power of 2 in n is 4 or 8), got n = {n}")
        if _coo is None:
            arr = np.asarray(a)
            if arr.ndim != 2:
                raise ValueError(f"the tap matrix must be 2-D, got {arr.ndim}-D")
            if arr.dtype.kind not in "biu":
                raise ValueError(f"the tap matrix must hold integers, got dtype {arr.dtype}")
            m, r = arr.shape
        else:
            m, r = _coo[0], _coo[1]
        if m * r > MAX_ENTRIES:
            raise ValueError(f"the tap matrix {m}x{r} is too large for the dense native "
                             f"Z/n engine (at most {MAX_ENTRIES} entries)")
        self.n = n
        self.m = int(m)
        self.r = int(r)
        self.parts = []
        # entries already in 0..q-1 as uint8 (a board's matrix mod q): no copy per part
        top = None
        if _coo is None and arr.dtype == np.uint8 and arr.flags.c_contiguous:
            top = int(arr.max()) if arr.size else 0
        for p, e in _factorize(n):
            q = p ** e
            rest = n // q
            idem = rest * pow(rest, -1, q) % n if rest > 1 else 1
            lu = _LocalLU(self.m, self.r, q)
            # "bitsliced" applies to the parts mod 3, 4 and 8; the others pick their own way
            lu.set_method(method if q in BITSLICED_Q or method != "bitsliced" else "auto")
            if _coo is None:
                if top is not None and top < q:
                    lu.set_dense(arr)
                else:
                    lu.set_dense(np.ascontiguousarray(np.mod(arr, q), dtype=np.uint8))
            else:
                lu.add_coo(_coo[2], _coo[3])
            lu.factor()
            self.parts.append((q, idem, lu))

    @classmethod
    def from_coo(cls, m, r, ci, tj, n, *, method="auto"):
        """A from coordinates: A[ci[k], tj[k]] += 1 for every k (repeats add up)."""
        m = int(m)
        r = int(r)
        if m < 0 or r < 0:
            raise ValueError(f"matrix shape must be non-negative, got {m}x{r}")
        ci = np.ascontiguousarray(ci, dtype=np.int64).ravel()
        tj = np.ascontiguousarray(tj, dtype=np.int64).ravel()
        if ci.shape != tj.shape:
            raise ValueError(f"ci and tj must have the same length, got {ci.size} and {tj.size}")
        if ci.size:
            if ci.min() < 0 or ci.max() >= m:
                raise ValueError(f"cell indices must be in 0..{m - 1}")
            if tj.min() < 0 or tj.max() >= r:
                raise ValueError(f"tap indices must be in 0..{r - 1}")
        return cls(None, n, method=method, _coo=(m, r, ci, tj))

    @property
    def methods(self):
        """{q: method used} for each prime-power part q of n."""
        return {q: lu.method for q, _, lu in self.parts}

    # ---------------------------------------------------------------- helpers
    def _combine(self, pieces):
        if len(pieces) == 1:
            return pieces[0].astype(np.uint8)
        out = np.zeros(pieces[0].shape, dtype=np.int64)
        for (q, idem, _), x in zip(self.parts, pieces):
            out = (out + x.astype(np.int64) * idem) % self.n
        return out.astype(np.uint8)

    def _solve_t(self, BT, check):
        xs = []
        ok = np.ones(BT.shape[1], dtype=bool)
        for q, _, lu in self.parts:
            bq = np.ascontiguousarray(BT % q, dtype=np.uint8)
            X, o = lu.solve_t(bq, check)
            xs.append(X)
            ok &= o
        return self._combine(xs), ok

    # ---------------------------------------------------------------- interface
    @property
    def kernel_size(self):
        return prod(lu.kernel_size() for _, _, lu in self.parts)

    @property
    def nullity(self):
        """Number of kernel generators (the fewest cyclic summands of ker A), from the
        factorisations alone (no generator is built)."""
        return max((lu.ngens for _, _, lu in self.parts), default=0)

    def generators(self, limit=None):
        """(H uint8 (k x r), orders): generators of ker A, ker A their direct sum.
        limit: only the first ``limit`` of them (a bounded part of a huge kernel)."""
        per = []
        for q, idem, lu in self.parts:
            H, orders = lu.generators(limit)
            per.append((idem, H, orders))
        k = max((len(o) for _, _, o in per), default=0)
        if len(per) == 1:                   # n a prime power: the part's own generators
            return per[0][1], list(per[0][2])
        # CRT: sum of idem * H mod n, in uint16 (255 * 254 + 254 < 2^16): no wider copies
        Hs = np.zeros((k, self.r), dtype=np.uint16)
        orders = [1] * k
        for idem, H, o in per:
            if len(o):
                part = Hs[:len(o)]
                part += H.astype(np.uint16) * np.uint16(idem)
                part %= self.n
            for i, x in enumerate(o):
                orders[i] *= x
        return Hs.astype(np.uint8), orders

    def solve(self, R):
        R = np.asarray(R)
        if R.ndim != 2 or R.shape[1] != self.m:
            raise ValueError(f"right-hand sides must have shape (k, {self.m}), got {R.shape}")
        if R.dtype.kind not in "biu":
            raise ValueError(f"right-hand sides must be integers, got dtype {R.dtype}")
        BT = np.ascontiguousarray(np.mod(R, self.n).astype(np.uint8).T)
        XT, ok = self._solve_t(BT, True)
        X = np.ascontiguousarray(XT.T)
        X[~ok] = 0
        return X, ok

    def det(self):
        if self.m != self.r:
            raise ValueError(f"det needs a square tap matrix, this one is {self.m}x{self.r}")
        ds = [np.array([lu.det()]) for _, _, lu in self.parts]
        return int(self._combine(ds)[0])

    def inverse(self):
        if self.m != self.r:
            raise ValueError(f"inverse needs a square tap matrix, this one is {self.m}x{self.r}")
        if any(lu.unit_rank < self.m for _, _, lu in self.parts):
            d = self.det()
            raise ValueError(f"the tap matrix is not invertible mod {self.n}: det = {d}, "
                             f"which is not a unit (gcd(det, n) = {gcd(d, self.n)})")
        if self.m == 0:
            return np.zeros((0, 0), dtype=np.uint8)
        XT, _ = self._solve_t(np.eye(self.m, dtype=np.uint8), False)
        return XT

    def pseudo_inverse(self):
        for q, _, lu in self.parts:
            if lu.rank > lu.unit_rank:
                raise ValueError(
                    f"no generalised inverse (G with A G A = A) exists mod {self.n}: mod {q} "
                    f"the tap matrix has {lu.rank - lu.unit_rank} Smith invariant(s) that are "
                    "neither units nor zero; over Z/n a matrix has one only when every "
                    "invariant is a unit or zero (always true for squarefree n)")
        if self.r == 0 or self.m == 0:
            return np.zeros((self.r, self.m), dtype=np.uint8)
        XT, _ = self._solve_t(np.eye(self.m, dtype=np.uint8), False)
        return XT


def _check_n(n):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"n must be an int in 2..255, got {n!r}")
    n = int(n)
    if not 2 <= n <= 255:
        raise ValueError(f"n must be in 2..255, got {n}")
    return n
