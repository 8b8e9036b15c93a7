"""Bindings to csrc/chase/ (chase.h, rowsolve.h): generalised light chasing on grid boards (GIL released).

Every argument is checked here, before any C code runs."""

import numpy as np
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t


from libc.stdlib cimport free
from libc.string cimport memcpy


#: Plan takes active=None / tappable=None for "every tile" (no h*w mask is kept).
ACCEPTS_NONE_MASKS = True


def _rows(rows, nres):
    if rows is None:
        return nres
    if isinstance(rows, (bool, np.bool_)) or not isinstance(rows, (int, np.integer)) \
            or not 0 <= rows <= nres:
        raise ValueError(f"rows must be an int from 0 to {nres} (the residual equations), "
                         f"got {rows!r}")
    return int(rows)


def _block(block, limit):
    if block is None:
        return 0
    b = int(block)
    if not 1 <= b <= limit:
        raise ValueError(f"block must be from 1 to {limit}, got {block}")
    return b


def _replay_args(b, z, out, size_t hw, size_t nsym, int n):
    """(b, z, x) of a replay, checked: b as hw bytes < n, z None or nsym bytes < n (with
    a spare zero entry, so that even an empty z has an address), x the array to write
    the taps into (out, a writable contiguous (hw,) uint8 array not overlapping b, or a
    new one)."""
    bb = np.ascontiguousarray(b, dtype=np.uint8).reshape(-1)
    if bb.shape[0] != hw:
        raise ValueError(f"b must have {hw} entries")
    if hw and int(bb.max()) >= n:
        raise ValueError(f"b entries must be < {n}")
    zz = None
    if z is not None:
        zz = np.ascontiguousarray(z, dtype=np.uint8).reshape(-1)
        if zz.shape[0] != nsym:
            raise ValueError(f"z must have {nsym} entries")
        if nsym and int(zz.max()) >= n:
            raise ValueError(f"z entries must be < {n}")
        zz = np.concatenate([zz, np.zeros(1, np.uint8)])
    if out is None:
        x = np.empty(hw, dtype=np.uint8)
    else:
        x = out
        if (not isinstance(x, np.ndarray) or x.dtype != np.uint8 or x.ndim != 1
                or x.shape[0] != hw or not x.flags.c_contiguous or not x.flags.writeable):
            raise ValueError(f"out must be a writable contiguous ({hw},) uint8 array")
        if np.shares_memory(x, bb):
            raise ValueError("out must not overlap b")
    return bb, zz, x


cdef class Plan:
    """The chase structure of one grid board (see csrc/chase/chase.h)."""
    cdef ml_chase *p
    cdef readonly int h, w, n
    cdef readonly size_t nsym, nres, peak, pool_rows

    def __cinit__(self, h_, w_, n_, wrap, active, tappable, udr, udc, cnt, pat_of=None):
        self.p = NULL
        for what, v in (("rows", h_), ("cols", w_), ("n", n_)):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"{what} must be an int, got {v!r}")
        if h_ < 1 or w_ < 1 or h_ * w_ >= (1 << 31) - 1:
            raise ValueError(f"board must be at least 1x1 and have fewer than 2^31 tiles, "
                             f"got {h_}x{w_}")
        if not 2 <= n_ <= 255:
            raise ValueError(f"n must be from 2 to 255, got {n_}")
        cdef int h = h_, w = w_, n = n_
        cdef size_t hw = <size_t>h * <size_t>w
        if hw >= (1 << 31) - 1:
            raise ValueError(f"board too large for the chase: {h}x{w} tiles, fewer than 2^31 allowed")
        a = t = None
        if active is not None:
            a = np.ascontiguousarray(active, dtype=np.uint8).reshape(-1)
            if a.shape[0] != hw:
                raise ValueError(f"the active mask must have {hw} entries, got {a.shape[0]}")
        if tappable is not None:
            t = np.ascontiguousarray(tappable, dtype=np.uint8).reshape(-1)
            if t.shape[0] != hw:
                raise ValueError(f"the tappable mask must have {hw} entries, got {t.shape[0]}")
            if a is not None and np.any(t & ~a & 1):
                raise ValueError("a tappable tile must be active")
        elif a is not None and not a.all():
            raise ValueError("a tappable tile must be active (tappable=None means every tile, "
                             "so active must be None or all ones)")
        dr = np.ascontiguousarray(udr, dtype=np.int32).reshape(-1)
        dc = np.ascontiguousarray(udc, dtype=np.int32).reshape(-1)
        if dr.shape[0] != dc.shape[0]:
            raise ValueError("offset arrays must have the same length")
        cdef int nu = dr.shape[0]
        C = np.ascontiguousarray(cnt, dtype=np.int32)
        if C.ndim != 2 or C.shape[1] != nu or C.shape[0] < 1:
            raise ValueError(f"counts must be (npat, {nu})")
        if C.size and int(C.min()) < 0:
            raise ValueError("offset counts must be >= 0")
        if C.size and int(C.max()) > 1 << 20:
            raise ValueError("offset counts too large")
        cdef int npat = C.shape[0]
        if pat_of is None:
            if npat != 1:
                raise ValueError("pat_of is needed with more than one pattern")
            po = np.zeros(1, dtype=np.int32)
        else:
            po = np.ascontiguousarray(pat_of, dtype=np.int32).reshape(-1)
            if po.shape[0] != hw:
                raise ValueError(f"pat_of must have {hw} entries")
            if hw and (int(po.min()) < 0 or int(po.max()) >= npat):
                raise ValueError("pat_of entries out of range")
        cdef const uint8_t[::1] av
        cdef const uint8_t[::1] tv
        cdef const uint8_t *ap = NULL
        cdef const uint8_t *tp = NULL
        if a is not None:
            av = a
            ap = &av[0]
        if t is not None:
            tv = t
            tp = &tv[0]
        cdef const int32_t[::1] drv = np.concatenate([dr, np.zeros(1, np.int32)])
        cdef const int32_t[::1] dcv = np.concatenate([dc, np.zeros(1, np.int32)])
        cdef const int32_t[::1] Cv = np.concatenate([C.reshape(-1), np.zeros(1, np.int32)])
        cdef const int32_t[::1] pov = po
        cdef const int32_t *pop = &pov[0] if pat_of is not None else NULL
        cdef int err = 0
        cdef int cwrap = 1 if wrap else 0
        with nogil:
            self.p = ml_chase_plan(h, w, n, cwrap, ap, tp, nu, &drv[0], &dcv[0],
                                   npat, &Cv[0], pop, &err)
        if self.p == NULL:
            if err == 2:
                _raise_memory_error("the chase plan could not be allocated")
            raise ValueError("bad arguments to the chase plan")
        self.h, self.w, self.n = h, w, n
        self.nsym = ml_chase_nsym(self.p)
        self.nres = ml_chase_nres(self.p)
        self.peak = ml_chase_peak_live(self.p)
        self.pool_rows = ml_chase_pool_rows(self.p)

    def __dealloc__(self):
        if self.p != NULL:
            ml_chase_free(self.p)
            self.p = NULL

    @property
    def mirrored(self):
        """True when the plan is its own left-right mirror image (half the symbolic
        chase is then replaced by mirroring)."""
        return bool(ml_chase_mirrored(self.p))

    def _address(self):
        """The C plan's address (for _rowchase.RowChase, which keeps this Plan alive)."""
        return <size_t>self.p

    @property
    def stencil(self):
        """True when the plan works on the stencil (no wrap), False with tap lists."""
        return bool(ml_chase_is_stencil(self.p))

    def symbols(self):
        """Flat tile index of every symbol (the taps no tile forces)."""
        out = np.zeros(self.nsym + 1, dtype=np.int64)
        cdef int64_t[::1] o = out
        ml_chase_symbols(self.p, &o[0])
        return out[:self.nsym]

    def residual_tiles(self):
        """Flat tile index of every residual equation, in row order of the matrix."""
        out = np.zeros(self.nres + 1, dtype=np.int64)
        cdef int64_t[::1] o = out
        ml_chase_residual_tiles(self.p, &o[0])
        return out[:self.nres]

    def matrix_gf2(self, threads=None, block=None, rows=None):
        """Residual matrix over GF(2): (nres, ceil(nsym/64)) uint64, bit-packed rows.

        threads: workers (None: every CPU this process may use); block: symbols per
        pass over the board, in 64-bit words (None: 8 words = 512 symbols); rows: only
        the first ``rows`` residual equations (None: all; the pass over the board stops
        after the last tile they need)."""
        if self.n != 2:
            raise ValueError("matrix_gf2 needs n == 2")
        cdef size_t blk = _block(block, 1 << 16)
        cdef size_t nw = (self.nsym + 63) // 64
        cdef size_t nr = _rows(rows, self.nres)
        M = np.zeros((nr, nw), dtype=np.uint64)
        cdef uint64_t[:, ::1] Mv = M
        cdef int th = default_threads() if threads is None else max(1, int(threads))
        cdef int st = 0
        if nr and nw:
            with nogil:
                st = ml_chase_matrix_gf2_rows(self.p, &Mv[0, 0], nr, th, blk)
        _check_interrupt()
        if st:
            _raise_memory_error("the symbolic chase could not allocate its work space")
        return M

    def matrix_zn(self, threads=None, block=None, rows=None, packed=True):
        """Residual matrix over Z/n: (nres, nsym) uint8.

        threads and rows as for matrix_gf2; block: symbols per pass (None: 256 as bytes,
        512 bit-sliced); packed: n = 3, 4, 8 run bit-sliced (2 or 3 bit-planes, 64
        symbols a word; block rounded up to whole words), False: as bytes like every
        other n (the same matrix)."""
        cdef size_t blk = _block(block, 1 << 20)
        cdef size_t nr = _rows(rows, self.nres)
        M = np.zeros((nr, self.nsym), dtype=np.uint8)
        cdef uint8_t[:, ::1] Mv = M
        cdef int th = default_threads() if threads is None else max(1, int(threads))
        cdef int pk = 1 if packed else 0
        cdef int st = 0
        if nr and self.nsym:
            with nogil:
                st = ml_chase_matrix_zn_mode(self.p, &Mv[0, 0], nr, th, blk, pk)
        _check_interrupt()
        if st:
            _raise_memory_error("the symbolic chase could not allocate its work space")
        return M

    def numeric(self, b, z=None, out=None):
        """Replay the chase: b (h*w right-hand sides t - s, values < n), z (nsym symbol
        values, None: zeros) -> (x taps (h*w,) uint8, rho residuals (nres,) uint8).
        out: a writable C-contiguous (h*w,) uint8 array to write x into (e.g. the x of
        an earlier replay), None: a new array."""
        cdef size_t hw = <size_t>self.h * <size_t>self.w
        bb, zz, x = _replay_args(b, z, out, hw, self.nsym, self.n)
        cdef const uint8_t[::1] bv = bb
        cdef const uint8_t[::1] zv
        cdef const uint8_t *zp = NULL
        if zz is not None:
            zv = zz
            zp = &zv[0]
        rho = np.empty(self.nres + 1, dtype=np.uint8)
        cdef uint8_t[::1] xv = x
        cdef uint8_t[::1] rv = rho
        with nogil:
            ml_chase_numeric(self.p, &bv[0], zp, &xv[0], &rv[0])
        return x, rho[:self.nres]


cdef class Gf2Residual:
    """A GF(2) residual system M z = rho solved by the Four Russians echelon form of
    csrc/dense/gf2.c: each solve eliminates [M | right-hand sides] once (no factorisation
    is kept, so a single solve costs one elimination, not two); rank and kernel are
    computed on first use and cached."""
    cdef object _M
    cdef readonly size_t rows, cols
    cdef object _rank, _kernel

    def __init__(self, M, cols):
        if isinstance(cols, (bool, np.bool_)) or not isinstance(cols, (int, np.integer)) \
                or not 0 <= cols <= (1 << 40):
            raise ValueError(f"cols must be an int from 0 to 2^40, got {cols!r}")
        A = np.ascontiguousarray(M, dtype=np.uint64)
        nw = (cols + 63) // 64
        if A.ndim != 2 or A.shape[1] != nw:
            raise ValueError(f"packed matrix must be (rows, {nw})")
        self.rows, self.cols = A.shape[0], cols
        self._M = np.concatenate([A.reshape(-1), np.zeros(1, np.uint64)])
        self._rank = None
        self._kernel = None

    @property
    def rank(self):
        if self._rank is None:
            self.solve_many(np.zeros((0, self.rows), np.uint8))
        return self._rank

    def solve_many(self, R):
        """(Z (k, cols) uint8, ok (k,) bool) for M z = r over the rows r of R (k, rows)."""
        self._built()
        RR = np.ascontiguousarray(R, dtype=np.uint8)
        if RR.ndim != 2 or RR.shape[1] != self.rows:
            raise ValueError(f"right-hand sides must be (k, {self.rows})")
        if RR.size and int(RR.max()) > 1:
            raise ValueError("right-hand sides must be 0/1")
        cdef size_t k = RR.shape[0]
        Z = np.zeros(k * self.cols + 1, dtype=np.uint8)
        ok = np.zeros(k + 1, dtype=np.uint8)
        Rf = np.concatenate([RR.reshape(-1), np.zeros(1, np.uint8)])
        cdef const uint64_t[::1] Mv = self._M
        cdef const uint8_t[::1] Rv = Rf
        cdef uint8_t[::1] Zv = Z
        cdef uint8_t[::1] okv = ok
        cdef size_t rk, rows = self.rows, cols = self.cols
        with nogil:
            rk = ml_res_gf2_solve(&Mv[0], rows, cols, &Rv[0], k, &Zv[0], &okv[0])
        _check_interrupt()
        if rk == <size_t>-1:
            _raise_memory_error("the GF(2) residual elimination could not allocate")
        self._rank = int(rk)
        return Z[:k * self.cols].reshape(k, self.cols), ok[:k].astype(bool)

    def solve(self, rhs):
        """(z uint8 (cols,), ok) for M z = rhs."""
        b = np.ascontiguousarray(rhs, dtype=np.uint8).reshape(1, -1)
        Z, ok = self.solve_many(b)
        return Z[0], bool(ok[0])

    def kernel(self):
        """Basis of ker M: (cols - rank, cols) uint8."""
        if self._kernel is None:
            self._kernel = self._compute_kernel()
        return self._kernel

    def _built(self):
        if self._M is None:
            raise ValueError("this Gf2Residual was not built: use Gf2Residual(M, cols)")

    def _compute_kernel(self):
        self._built()
        cdef const uint64_t[::1] Mv = self._M
        cdef uint8_t *K = NULL
        cdef size_t null, rows = self.rows, cols = self.cols
        with nogil:
            null = ml_res_gf2_kernel(&Mv[0], rows, cols, &K)
        if _interrupted():
            free(K)
            _check_interrupt()
        if null == <size_t>-1:
            _raise_memory_error("the GF(2) residual kernel could not allocate")
        out = np.empty(null * cols + 1, dtype=np.uint8)
        cdef uint8_t[::1] ov = out
        if null * cols:
            memcpy(&ov[0], K, null * cols)
        free(K)
        self._rank = int(cols - null)
        return out[:null * cols].reshape(null, cols)


def _offsets(er, ec):
    """Validated int32 copies of the offset arrays of RowSolvePlan (plus a spare slot)."""
    r = np.asarray(er)
    c = np.asarray(ec)
    if r.ndim != 1 or c.shape != r.shape or r.dtype.kind not in "iu" or c.dtype.kind not in "iu":
        raise ValueError("er and ec must be 1-D integer arrays of the same length")
    if not 1 <= r.shape[0] <= ML_ROWSOLVE_MAX_OFFSETS:
        raise ValueError(f"between 1 and {ML_ROWSOLVE_MAX_OFFSETS} offsets, got {r.shape[0]}")
    lim = ML_ROWSOLVE_MAX_REACH
    if int(np.abs(r.astype(np.int64)).max()) > lim or int(np.abs(c.astype(np.int64)).max()) > lim:
        raise ValueError(f"offsets must be within +-{lim}")
    return (np.concatenate([r.astype(np.int32), np.zeros(1, np.int32)]),
            np.concatenate([c.astype(np.int32), np.zeros(1, np.int32)]))


def _modulus(n):
    """n as an int, ValueError unless it is from 2 to 255."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) \
            or not 2 <= n <= 255:
        raise ValueError(f"n must be an int from 2 to 255, got {n!r}")
    return int(n)


def _coefficients(cf, ne, n):
    """Validated int32 copy of the coefficients of RowSolvePlan (plus a spare slot):
    ne ints from 1 to n - 1 (an offset's multiplicity mod n), None: all 1."""
    if cf is None:
        return np.ones(ne + 1, dtype=np.int32)
    k = np.asarray(cf)
    if k.shape != (ne,) or k.dtype.kind not in "iu":
        raise ValueError(f"cf must be a 1-D integer array of {ne} coefficients (one an "
                         f"offset), got shape {k.shape}")
    if ne and (int(k.min()) < 1 or int(k.max()) >= n):
        raise ValueError(f"coefficients must be from 1 to {n - 1} (multiplicities mod {n}, "
                         f"the offsets of multiplicity 0 mod n left out)")
    return np.concatenate([k.astype(np.int32), np.zeros(1, np.int32)])


def rowsolve_eligible(h, w, er, ec, n=2, cf=None):
    """Whether RowSolvePlan takes an h x w board whose tiles are affected by the taps at
    the distinct offsets (er, ec) with coefficients cf mod n (None: all 1) (see
    csrc/chase/rowsolve.h): the taps of the last row of offsets are a pair (D, -a), (D, +a)
    whose coefficients are units mod n, w is a multiple of 2a and h > D."""
    if not (isinstance(h, (int, np.integer)) and isinstance(w, (int, np.integer))) \
            or not 1 <= h < (1 << 31) or not 1 <= w < (1 << 31):
        return False
    nn = _modulus(n)
    r, c = _offsets(er, ec)
    k = _coefficients(cf, r.shape[0] - 1, nn)
    cdef const int32_t[::1] rv = r
    cdef const int32_t[::1] cv = c
    cdef const int32_t[::1] kv = k
    return bool(ml_rowsolve_eligible_zn(h, w, nn, r.shape[0] - 1, &rv[0], &cv[0], &kv[0]))


cdef class RowSolvePlan:
    """The row-solve chase of one board over Z/n (csrc/chase/rowsolve.h): the plan interface
    of Plan (nsym, nres, symbols, residual_tiles, matrix_gf2 (n = 2), matrix_zn,
    numeric) for boards whose pattern ends in a pair of taps (the knight, the diagonal)
    with unit coefficients on a width that is a multiple of 2a: the symbols are the taps
    of the first D rows and nothing else.

    h, w: the board; er, ec: the distinct offsets (a tile (r, c) is affected by the tap
    at (r + er, c + ec)); n: the modulus (2..255); cf: each offset's coefficient (its
    multiplicity mod n, 1..n-1; None: all 1)."""
    cdef ml_rowsolve *p
    cdef readonly int h, w, n
    cdef readonly size_t nsym, nres

    def __cinit__(self, h_, w_, er, ec, n=2, cf=None):
        if not rowsolve_eligible(h_, w_, er, ec, n, cf):
            raise ValueError("the row-solve chase needs a pattern whose last row of taps is "
                             "a pair (D, -a), (D, +a) with coefficients that are units mod "
                             "n, a width that is a multiple of 2a and more than D rows")
        r, c = _offsets(er, ec)
        cdef int nn = _modulus(n)
        k = _coefficients(cf, r.shape[0] - 1, nn)
        cdef const int32_t[::1] rv = r
        cdef const int32_t[::1] cv = c
        cdef const int32_t[::1] kv = k
        cdef int err = 0
        self.h, self.w, self.n = int(h_), int(w_), nn
        self.p = ml_rowsolve_plan_zn(self.h, self.w, nn, r.shape[0] - 1, &rv[0], &cv[0],
                                     &kv[0], &err)
        if self.p == NULL:
            if err == 2:
                raise MemoryError("the row-solve plan could not allocate its tables")
            raise ValueError("bad row-solve plan arguments")
        self.nsym = self.nres = ml_rowsolve_nsym(self.p)

    def __dealloc__(self):
        if self.p != NULL:
            ml_rowsolve_free(self.p)
            self.p = NULL

    @property
    def mirrored(self):
        """True when the pattern is its own left-right mirror image, coefficients included
        (the symbolic chase then runs the symbols of half of each symbol row)."""
        return bool(ml_rowsolve_mirrored(self.p))

    @property
    def stencil(self):
        return True

    def symbols(self):
        """Flat tile index of every symbol: the taps of the first D rows."""
        return np.arange(self.nsym, dtype=np.int64)

    def residual_tiles(self):
        """Flat tile index of every residual equation: the tiles of the last D rows."""
        return np.arange(self.h * self.w - self.nres, self.h * self.w, dtype=np.int64)

    def matrix_gf2(self, threads=None, block=None, rows=None, mirror=True):
        """Residual matrix over GF(2) (n = 2 only): (rows, ceil(nsym/64)) uint64, bit-packed
        rows (rows: the first equations only, None: all). block: symbols a pass in 64-bit
        words (None: 8); mirror: use the left-right mirror image when there is one
        (False: every symbol chased, the same matrix)."""
        if self.n != 2:
            raise ValueError(f"matrix_gf2 needs n == 2, this plan is mod {self.n}; use matrix_zn")
        cdef size_t blk = _block(block, 64)
        cdef size_t nw = (self.nsym + 63) // 64
        cdef size_t nr = _rows(rows, self.nres)
        M = np.zeros((self.nres, nw), dtype=np.uint64)
        cdef uint64_t[:, ::1] Mv = M
        cdef int th = default_threads() if threads is None else max(1, int(threads))
        cdef int mi = 1 if mirror else 0
        cdef int st = 0
        with nogil:
            st = ml_rowsolve_matrix(self.p, &Mv[0, 0], th, blk, mi)
        _check_interrupt()
        if st:
            _raise_memory_error("the row-solve chase could not allocate its work space")
        return M if nr == self.nres else np.ascontiguousarray(M[:nr])

    def matrix_zn(self, threads=None, block=None, rows=None, packed=True, mirror=True):
        """Residual matrix over Z/n (any n, 2 too): (rows, nsym) uint8, entries < n (rows:
        the first equations only, None: all). block: symbols a pass (None: 256 as bytes,
        512 bit-sliced; at most ML_ROWSOLVE_MAX_BZ = 4096); mirror as for matrix_gf2;
        packed: n = 3, 4 run bit-sliced (two bit-planes, 64 symbols a word; block rounded
        up to whole words), False: as bytes like every other n (the same matrix)."""
        cdef size_t blk = _block(block, ML_ROWSOLVE_MAX_BZ)
        cdef size_t nr = _rows(rows, self.nres)
        M = np.zeros((self.nres, self.nsym), dtype=np.uint8)
        cdef uint8_t[:, ::1] Mv = M
        cdef int th = default_threads() if threads is None else max(1, int(threads))
        cdef int mi = 1 if mirror else 0
        cdef int sliced = 1 if packed and self.n in (3, 4) else 0
        cdef size_t bw = (blk + 63) // 64
        cdef int st = 0
        with nogil:
            if sliced:
                st = ml_rowsolve_matrix_sliced(self.p, &Mv[0, 0], th, bw, mi)
            else:
                st = ml_rowsolve_matrix_zn(self.p, &Mv[0, 0], th, blk, mi)
        _check_interrupt()
        if st:
            _raise_memory_error("the row-solve chase could not allocate its work space")
        return M if nr == self.nres else np.ascontiguousarray(M[:nr])

    def numeric(self, b, z=None, out=None):
        """Replay the chase: b (h*w right-hand sides t - s, values < n), z (nsym symbol
        values < n, None: zeros) -> (x taps (h*w,) uint8, rho residuals (nres,) uint8);
        out as for Plan.numeric."""
        cdef size_t hw = <size_t>self.h * <size_t>self.w
        bb, zz, x = _replay_args(b, z, out, hw, self.nsym, self.n)
        cdef const uint8_t[::1] bv = bb
        cdef const uint8_t[::1] zv
        cdef const uint8_t *zp = NULL
        if zz is not None:
            zv = zz
            zp = &zv[0]
        rho = np.empty(self.nres, dtype=np.uint8)
        cdef uint8_t[::1] xv = x
        cdef uint8_t[::1] rv = rho
        cdef int st = 0
        with nogil:
            st = ml_rowsolve_numeric(self.p, &bv[0], zp, &xv[0], &rv[0])
        _check_interrupt()
        if st:
            _raise_memory_error("the row-solve replay could not allocate its rows")
        return x, rho
