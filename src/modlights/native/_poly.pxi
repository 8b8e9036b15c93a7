"""Bindings to csrc/poly/poly.c (polynomials over GF(2) and GF(p)) and csrc/structured/rowrec.c (the
row-recurrence chase of uniform boards and its polynomial isomorphism), GIL released
for the long calls.

Every argument is checked here, before any C code runs."""

import numpy as np
from libc.stdint cimport uint8_t, uint64_t


#: Primes the GF(p) code takes (one byte a coefficient, products in 32 bits).
MAX_PRIME = 251


def _first_row(z, int w, int p):
    """The chase's first row z (None: zeros) as w contiguous bytes below p."""
    if z is None:
        return None
    zz = np.ascontiguousarray(z, dtype=np.uint8).reshape(-1)
    if zz.shape[0] != w or (zz.size and int(zz.max()) >= p):
        raise ValueError(f"z must have {w} entries below {p}")
    return zz


def _poly_check(int rc, what):
    """Raise for a C return code: the pending Ctrl-C (KeyboardInterrupt) first (3: the
    charpoly, residual polynomial, gcd and xgcd stopped on it), then 2 MemoryError,
    other non-zero ValueError."""
    _check_interrupt()
    if rc == 3:
        raise KeyboardInterrupt(f"{what} was interrupted")
    if rc == 2:
        raise MemoryError(f"{what}: out of memory")
    if rc:
        raise ValueError(f"{what}: bad arguments")


def karatsuba_words():
    """The GF(2) Karatsuba threshold in 64-bit words: 16, or MODLIGHTS_KARATSUBA_WORDS (an
    integer >= 2) from the environment, read once per process (for measurements)."""
    return ml_gf2x_karatsuba_threshold()


def _is_prime(int p):
    if p < 2:
        return False
    cdef int k = 2
    while k * k <= p:
        if p % k == 0:
            return False
        k += 1
    return True


def _out_like(out, B):
    """A new array shaped like B, or out when it is a writeable C-contiguous uint8 array
    of B's shape (ValueError otherwise)."""
    if out is None:
        return np.empty_like(B)
    if out.dtype != np.uint8 or out.shape != B.shape or not out.flags.c_contiguous \
            or not out.flags.writeable:
        raise ValueError(f"out must be writeable C-contiguous uint8 {B.shape}")
    return out

cdef class Gf2Poly:
    """A polynomial over GF(2), bit-packed (csrc/poly/poly.h). ``Gf2Poly(v)``: from a Python
    int whose bit i is the coefficient of x^i; ``int(f)`` gives it back."""
    cdef ml_gf2x a

    def __cinit__(self, value=0):
        ml_gf2x_init(&self.a)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"a GF(2) polynomial is made from a non-negative int, got "
                             f"{type(value).__name__}")
        v = int(value)
        if v < 0:
            raise ValueError("a GF(2) polynomial is made from a non-negative int")
        if v:
            nw = (v.bit_length() + 63) // 64
            words = np.frombuffer(v.to_bytes(8 * nw, "little"), dtype=np.uint64).copy()
            self._set_words(words)

    def __dealloc__(self):
        ml_gf2x_clear(&self.a)

    cdef _set_words(self, words):
        cdef const uint64_t[::1] wv = np.ascontiguousarray(words, dtype=np.uint64)
        if wv.shape[0]:
            _poly_check(ml_gf2x_set(&self.a, &wv[0], wv.shape[0]), "Gf2Poly")

    @staticmethod
    def from_bits(bits):
        """From a 0/1 array: bits[i] is the coefficient of x^i."""
        b = np.ascontiguousarray(bits, dtype=np.uint8).reshape(-1)
        if b.size and int(b.max()) > 1:
            raise ValueError("bits must be 0 or 1")
        f = Gf2Poly()
        if b.size:
            nw = (b.size + 63) // 64
            packed = np.zeros(8 * nw, dtype=np.uint8)
            packed[:(b.size + 7) // 8] = np.packbits(b, bitorder="little")
            f._set_words(packed.view(np.uint64))
        return f

    def bits(self, length=None):
        """Coefficients as a 0/1 uint8 array (``length`` entries; default deg + 1)."""
        cdef long d = ml_gf2x_deg(&self.a)
        n = d + 1 if length is None else int(length)
        if n < d + 1:
            raise ValueError(f"length {n} cannot hold a polynomial of degree {d}")
        words = np.zeros(max(1, (n + 63) // 64), dtype=np.uint64)
        cdef size_t i
        for i in range(self.a.n):
            words[i] = self.a.c[i]
        return np.unpackbits(words.view(np.uint8), bitorder="little")[:n].copy()

    def words(self):
        """The coefficients as uint64 words (bit i of word k: coefficient of x^(64k+i))."""
        out = np.zeros(self.a.n, dtype=np.uint64)
        cdef uint64_t[::1] ov = out
        cdef size_t i
        for i in range(self.a.n):
            ov[i] = self.a.c[i]
        return out

    def __int__(self):
        return int.from_bytes(self.words().tobytes(), "little")

    @property
    def degree(self):
        """Degree (-1 for the zero polynomial)."""
        return ml_gf2x_deg(&self.a)

    def __eq__(self, other):
        return isinstance(other, Gf2Poly) and int(self) == int(other)

    def __hash__(self):
        return hash(int(self))

    def __repr__(self):
        return f"Gf2Poly(degree={self.degree})"

    def __reduce__(self):
        return (Gf2Poly, (int(self),))

    def mul(self, Gf2Poly other, bint karatsuba=True):
        """The product (Karatsuba above the threshold unless karatsuba=False)."""
        r = Gf2Poly()
        cdef int rc
        with nogil:
            if karatsuba:
                rc = ml_gf2x_mul(&r.a, &self.a, &other.a)
            else:
                rc = ml_gf2x_mul_basecase(&r.a, &self.a, &other.a)
        _poly_check(rc, "Gf2Poly.mul")
        return r

    def __mul__(self, other):
        if not isinstance(self, Gf2Poly) or not isinstance(other, Gf2Poly):
            return NotImplemented
        return self.mul(other)

    def __add__(self, other):
        if not isinstance(self, Gf2Poly) or not isinstance(other, Gf2Poly):
            return NotImplemented
        cdef Gf2Poly x = self, y = other
        r = Gf2Poly()
        _poly_check(ml_gf2x_copy(&r.a, &x.a), "Gf2Poly.add")
        _poly_check(ml_gf2x_addshift(&r.a, &y.a, 0), "Gf2Poly.add")
        return r

    def divmod(self, Gf2Poly other):
        """(q, r) with self = q other + r, deg r < deg other; ValueError for other = 0."""
        if other.degree < 0:
            raise ValueError("division by the zero polynomial")
        q, r = Gf2Poly(), Gf2Poly()
        cdef int rc
        with nogil:
            rc = ml_gf2x_divrem(&q.a, &r.a, &self.a, &other.a)
        _poly_check(rc, "Gf2Poly.divmod")
        return q, r

    def gcd(self, Gf2Poly other):
        g = Gf2Poly()
        cdef int rc
        with nogil:
            rc = ml_gf2x_gcd(&g.a, &self.a, &other.a)
        _poly_check(rc, "Gf2Poly.gcd")
        return g

    def xgcd(self, Gf2Poly other, bint with_t=True):
        """(g, s, t) with g = gcd = s self + t other (t is None when with_t is False)."""
        g, s = Gf2Poly(), Gf2Poly()
        t = Gf2Poly() if with_t else None
        cdef Gf2Poly tt = t if with_t else Gf2Poly()
        cdef ml_gf2x *tp = &tt.a if with_t else NULL
        cdef int rc
        with nogil:
            rc = ml_gf2x_xgcd(&g.a, &s.a, tp, &self.a, &other.a)
        _poly_check(rc, "Gf2Poly.xgcd")
        return g, s, t


cdef class GfpPoly:
    """A polynomial over GF(p), p a prime up to MAX_PRIME, one byte a coefficient.
    ``GfpPoly(coeffs, p)``: coeffs[i] is the coefficient of x^i (reduced mod p)."""
    cdef ml_gfpx a
    cdef readonly unsigned p

    def __cinit__(self, coeffs=(), p=3):
        ml_gfpx_init(&self.a)
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or \
                not 2 <= int(p) <= MAX_PRIME or not _is_prime(int(p)):
            raise ValueError(f"p must be a prime from 2 to {MAX_PRIME}, got {p!r}")
        self.p = int(p)
        c = np.asarray(coeffs)
        if c.size and c.dtype.kind not in "iu":
            raise ValueError("coefficients must be integers")
        c = np.mod(c.astype(np.int64).reshape(-1), self.p).astype(np.uint8)
        cdef const uint8_t[::1] cv = c
        if c.size:
            _poly_check(ml_gfpx_set(&self.a, &cv[0], c.size), "GfpPoly")

    def __dealloc__(self):
        ml_gfpx_clear(&self.a)

    cdef GfpPoly _new(self):
        return GfpPoly((), self.p)

    cdef _same(self, GfpPoly other):
        if other.p != self.p:
            raise ValueError(f"polynomials over different fields: GF({self.p}) and "
                             f"GF({other.p})")

    def coeffs(self, length=None):
        """Coefficients as uint8 (``length`` entries; default deg + 1)."""
        n = self.a.n if length is None else int(length)
        if n < <long>self.a.n:
            raise ValueError(f"length {n} cannot hold a polynomial of degree {self.degree}")
        out = np.zeros(n, dtype=np.uint8)
        cdef size_t i
        for i in range(self.a.n):
            out[i] = self.a.c[i]
        return out

    @property
    def degree(self):
        return ml_gfpx_deg(&self.a)

    def __eq__(self, other):
        return isinstance(other, GfpPoly) and other.p == self.p and \
            np.array_equal(self.coeffs(), other.coeffs())

    def __hash__(self):
        return hash((self.p, self.coeffs().tobytes()))

    def __repr__(self):
        return f"GfpPoly(degree={self.degree}, p={self.p})"

    def __reduce__(self):
        return (GfpPoly, (self.coeffs(), self.p))

    def mul(self, GfpPoly other):
        self._same(other)
        r = self._new()
        cdef int rc
        with nogil:
            rc = ml_gfpx_mul(&r.a, &self.a, &other.a, self.p)
        _poly_check(rc, "GfpPoly.mul")
        return r

    def __mul__(self, other):
        if not isinstance(self, GfpPoly) or not isinstance(other, GfpPoly):
            return NotImplemented
        return self.mul(other)

    def divmod(self, GfpPoly other):
        self._same(other)
        if other.degree < 0:
            raise ValueError("division by the zero polynomial")
        q, r = self._new(), self._new()
        cdef int rc
        with nogil:
            rc = ml_gfpx_divrem(&q.a, &r.a, &self.a, &other.a, self.p)
        _poly_check(rc, "GfpPoly.divmod")
        return q, r

    def gcd(self, GfpPoly other):
        """The monic gcd."""
        self._same(other)
        g = self._new()
        cdef int rc
        with nogil:
            rc = ml_gfpx_gcd(&g.a, &self.a, &other.a, self.p)
        _poly_check(rc, "GfpPoly.gcd")
        return g

    def xgcd(self, GfpPoly other, bint with_t=True):
        """(g, s, t): g the monic gcd = s self + t other (t None when with_t is False)."""
        self._same(other)
        g, s = self._new(), self._new()
        t = self._new() if with_t else None
        cdef GfpPoly tt = t if with_t else self._new()
        cdef ml_gfpx *tp = &tt.a if with_t else NULL
        cdef int rc
        with nogil:
            rc = ml_gfpx_xgcd(&g.a, &s.a, tp, &self.a, &other.a, self.p)
        _poly_check(rc, "GfpPoly.xgcd")
        return g, s, t


def _to_words(v, size_t w, what):
    """0/1 vector of w entries -> ceil(w/64) words (bit c of word c / 64)."""
    a = np.ascontiguousarray(v, dtype=np.uint8).reshape(-1)
    if a.shape[0] != w:
        raise ValueError(f"{what} must have {w} entries, got {a.shape[0]}")
    nw = (w + 63) // 64
    buf = np.zeros(8 * nw, dtype=np.uint8)
    buf[:(w + 7) // 8] = np.packbits(a & 1, bitorder="little")
    return buf.view(np.uint64)


def _from_words(words, size_t w):
    """The inverse of _to_words: w 0/1 bytes."""
    return np.unpackbits(np.asarray(words).view(np.uint8), bitorder="little")[:w].copy()


def _count(v, p, what):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise ValueError(f"{what} must be a non-negative int, got {v!r}")
    return int(v) % p


cdef class RowRec:
    """A uniform board h x w over GF(p) whose pattern uses only (0,0), (0,+1), (0,-1),
    (-1,0), (+1,0) with counts d, cr, cl, cu, cd (see csrc/structured/rowrec.h); cu must be a
    unit mod p."""
    cdef ml_rowrec P
    cdef readonly size_t h, w
    cdef readonly unsigned p

    def __cinit__(self, h, w, p, d, cr, cl, cu, cd):
        for name, v in (("h", h), ("w", w)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or \
                not 2 <= int(p) <= MAX_PRIME or not _is_prime(int(p)):
            raise ValueError(f"p must be a prime from 2 to {MAX_PRIME}, got {p!r}")
        pp = int(p)
        self.P.h, self.P.w, self.P.p = int(h), int(w), pp
        self.P.d = _count(d, pp, "d")
        self.P.cr = _count(cr, pp, "cr")
        self.P.cl = _count(cl, pp, "cl")
        self.P.cu = _count(cu, pp, "cu")
        self.P.cd = _count(cd, pp, "cd")
        if self.P.cu == 0:
            raise ValueError("the count of offset (-1, 0) must be a unit mod p (the chase "
                             "forces row r + 1 from row r)")
        self.h, self.w, self.p = self.P.h, self.P.w, pp

    @property
    def cyclic(self):
        """Whether e_0 is a cyclic vector of T (the sub-diagonal, count (0,+1), is non-zero)."""
        return self.P.cr != 0

    cdef _need_cyclic(self):
        if self.P.cr == 0:
            raise ValueError("the polynomial isomorphism needs a non-zero count of offset "
                             "(0, +1) (e_0 is then a cyclic vector of T)")

    cdef _grid(self, a, packed, what):
        """A C-contiguous uint8 (h, row bytes) view of a or ValueError."""
        arr = np.asarray(a)
        rb = (self.w + 7) // 8 if packed else self.w
        if arr.dtype != np.uint8 or arr.shape != (self.h, rb):
            raise ValueError(f"{what} must be uint8 of shape {(self.h, rb)}, got "
                             f"{arr.dtype} {arr.shape}")
        return np.ascontiguousarray(arr)

    cdef _words(self, v, what):
        return _to_words(v, self.w, what)

    cdef _unwords(self, words):
        return _from_words(words, self.w)

    def chase_gf2(self, b, bint packed=False, unsigned tc=0, z=None, out=None,
                  bint write=True):
        """GF(2) numeric chase of b_eff = tc ^ b: (taps x like b, last row X_h as 0/1 w).
        write=False: a read-only pass giving only the last row (x is None)."""
        if self.p != 2:
            raise ValueError("chase_gf2 needs p == 2")
        B = self._grid(b, packed, "b")
        if not write:
            X = np.zeros((1, 1), np.uint8)                  # not written
        elif out is None:
            X = np.empty_like(B)
        else:
            X = self._grid(out, packed, "out")
            if not X.flags.writeable:
                raise ValueError("out must be writeable")
        cdef uint8_t *xp = NULL
        zw = None if z is None else self._words(z, "z")
        last = np.zeros((self.w + 63) // 64, dtype=np.uint64)
        cdef const uint8_t[:, ::1] Bv = B
        cdef uint8_t[:, ::1] Xv = X
        cdef const uint64_t[::1] zv
        cdef const uint64_t *zp = NULL
        cdef uint64_t[::1] lv = last
        if zw is not None:
            zv = zw
            zp = &zv[0]
        cdef int rc
        cdef int pk = 1 if packed else 0
        if write:
            xp = &Xv[0, 0]
        with nogil:
            rc = ml_rowrec_chase_gf2(&self.P, pk, &Bv[0, 0], tc & 1, zp, xp, &lv[0])
        _poly_check(rc, "chase_gf2")
        return (X if write else None), self._unwords(last)

    def chase_gfp(self, b, unsigned tc=0, unsigned sb=1, z=None, out=None):
        """GF(p) numeric chase of b_eff = tc + sb b (mod p), bytes: (taps, last row X_h)."""
        B = self._grid(b, False, "b")
        if B.size and int(B.max()) >= self.p:
            raise ValueError(f"b must hold values below {self.p}")
        X = np.empty_like(B) if out is None else self._grid(out, False, "out")
        zz = _first_row(z, self.w, self.p)
        last = np.zeros(self.w, dtype=np.uint8)
        cdef const uint8_t[:, ::1] Bv = B
        cdef uint8_t[:, ::1] Xv = X
        cdef const uint8_t[::1] zv
        cdef const uint8_t *zp = NULL
        cdef uint8_t[::1] lv = last
        if zz is not None:
            zv = zz
            zp = &zv[0]
        cdef int rc
        with nogil:
            rc = ml_rowrec_chase_gfp(&self.P, &Bv[0, 0], tc % self.p, sb % self.p, zp,
                                     &Xv[0, 0], &lv[0])
        _poly_check(rc, "chase_gfp")
        return X, last

    def chase_torus_gfp(self, b, u, v, out=None):
        """GF(p) chase of the h x w torus (rows and columns wrap, h >= 3) from X_0 = u,
        X_{-1} = v (b None: zero right-hand side): (taps or None when ``out`` is None,
        X_{h-1} - v, X_h - u)."""
        if self.h < 3:
            raise ValueError(f"the torus chase needs at least 3 rows, got {self.h}")
        B = None if b is None else self._grid(b, False, "b")
        if B is not None and B.size and int(B.max()) >= self.p:
            raise ValueError(f"b must hold values below {self.p}")
        X = None if out is None else self._grid(out, False, "out")
        zero = np.zeros(self.w, dtype=np.uint8)
        uu = zero if u is None else _first_row(u, self.w, self.p)
        vv = zero if v is None else _first_row(v, self.w, self.p)
        r1 = np.zeros(self.w, dtype=np.uint8)
        r2 = np.zeros(self.w, dtype=np.uint8)
        cdef const uint8_t[:, ::1] Bv
        cdef const uint8_t *bp = NULL
        cdef uint8_t[:, ::1] Xv
        cdef uint8_t *xp = NULL
        cdef const uint8_t[::1] uv = uu
        cdef const uint8_t[::1] vv_ = vv
        cdef uint8_t[::1] r1v = r1
        cdef uint8_t[::1] r2v = r2
        if B is not None:
            Bv = B
            bp = &Bv[0, 0]
        if X is not None:
            Xv = X
            xp = &Xv[0, 0]
        cdef int rc
        with nogil:
            rc = ml_rowrec_chase_torus_gfp(&self.P, bp, &uv[0], &vv_[0], xp,
                                           &r1v[0], &r2v[0])
        _check_interrupt()
        _poly_check(rc, "chase_torus_gfp")
        return X, r1, r2

    def apply_gf2(self, x, s=None, bint packed=False, unsigned tc=0, bint write=True):
        """(s + A x over GF(2) (None unless write), tiles where it differs from tc)."""
        if self.p != 2:
            raise ValueError("apply_gf2 needs p == 2")
        X = self._grid(x, packed, "x")
        S = None if s is None else self._grid(s, packed, "s")
        out = np.empty_like(X) if write else None
        cdef const uint8_t[:, ::1] Xv = X
        cdef const uint8_t[:, ::1] Sv
        cdef uint8_t[:, ::1] Ov
        cdef const uint8_t *sp = NULL
        cdef uint8_t *op = NULL
        if S is not None:
            Sv = S
            sp = &Sv[0, 0]
        if out is not None:
            Ov = out
            op = &Ov[0, 0]
        cdef size_t bad
        cdef int pk = 1 if packed else 0
        with nogil:
            bad = ml_rowrec_apply_gf2(&self.P, pk, sp, tc & 1, &Xv[0, 0], op)
        if bad == <size_t>-1:
            raise MemoryError("apply_gf2: out of memory")
        return out, int(bad)

    def charpoly(self):
        """chi_T (monic, degree w)."""
        self._need_cyclic()
        cdef Gf2Poly f2
        cdef GfpPoly fp
        cdef int rc
        if self.p == 2:
            f2 = Gf2Poly()
            with nogil:
                rc = ml_rowrec_charpoly_gf2(&self.P, &f2.a)
            _poly_check(rc, "charpoly")
            return f2
        fp = GfpPoly((), self.p)
        with nogil:
            rc = ml_rowrec_charpoly_gfp(&self.P, &fp.a)
        _poly_check(rc, "charpoly")
        return fp

    def residual_poly(self, chi):
        """F = P_h mod chi (chi from charpoly())."""
        self._need_cyclic()
        cdef Gf2Poly c2, f2
        cdef GfpPoly cp, fp
        cdef int rc
        if chi is None or chi.degree != <long>self.w:
            raise ValueError(f"chi must be the degree-{self.w} characteristic polynomial")
        if self.p == 2:
            c2 = chi
            f2 = Gf2Poly()
            with nogil:
                rc = ml_rowrec_F_gf2(&self.P, &c2.a, &f2.a)
            _poly_check(rc, "residual_poly")
            return f2
        cp = chi
        if cp.p != self.p:
            raise ValueError("chi is over another field")
        fp = GfpPoly((), self.p)
        with nogil:
            rc = ml_rowrec_F_gfp(&self.P, &cp.a, &fp.a)
        _poly_check(rc, "residual_poly (chi must be monic)")
        return fp

    def vec_to_poly(self, v):
        """f with f(T) e_0 = v (v: w entries, values < p)."""
        self._need_cyclic()
        cdef Gf2Poly f2
        cdef GfpPoly fp
        cdef const uint64_t[::1] wv
        cdef const uint8_t[::1] bv
        cdef int rc
        if self.p == 2:
            wv = self._words(v, "v")
            f2 = Gf2Poly()
            with nogil:
                rc = ml_rowrec_vec_to_poly_gf2(&self.P, &wv[0], &f2.a)
            _poly_check(rc, "vec_to_poly")
            return f2
        a = np.ascontiguousarray(v, dtype=np.uint8).reshape(-1)
        if a.shape[0] != self.w or (a.size and int(a.max()) >= self.p):
            raise ValueError(f"v must have {self.w} entries below {self.p}")
        bv = a
        fp = GfpPoly((), self.p)
        with nogil:
            rc = ml_rowrec_vec_to_poly_gfp(&self.P, &bv[0], &fp.a)
        _poly_check(rc, "vec_to_poly")
        return fp

    def poly_to_vec(self, f):
        """v = f(T) e_0 (deg f < w) as w uint8 entries."""
        self._need_cyclic()
        cdef Gf2Poly f2
        cdef GfpPoly fp
        cdef uint64_t[::1] wv
        cdef uint8_t[::1] bv
        cdef int rc
        if f.degree >= <long>self.w:
            raise ValueError(f"f must have degree below {self.w}, got {f.degree}")
        if self.p == 2:
            f2 = f
            words = np.zeros((self.w + 63) // 64, dtype=np.uint64)
            wv = words
            with nogil:
                rc = ml_rowrec_poly_to_vec_gf2(&self.P, &f2.a, &wv[0])
            _poly_check(rc, "poly_to_vec")
            return self._unwords(words)
        fp = f
        if fp.p != self.p:
            raise ValueError("f is over another field")
        out = np.zeros(self.w, dtype=np.uint8)
        bv = out
        with nogil:
            rc = ml_rowrec_poly_to_vec_gfp(&self.P, &fp.a, &bv[0])
        _poly_check(rc, "poly_to_vec")
        return out


cdef class SymChase:
    """The light chase of a uniform h x w board over GF(p) whose pattern lies in the 3 x 3
    box and is left-right symmetric (see csrc/structured/symchase.h): a[k] I + b[k] P is the
    coefficient of X_{r-1+k} in row r (a = counts of (+1,0), (0,0), (-1,0); b = counts of
    (+1,+1), (0,+1), (-1,+1)). C_1 = a[2] I + b[2] P must be invertible mod p."""
    cdef ml_symchase P
    cdef readonly size_t h, w
    cdef readonly unsigned p

    def __cinit__(self, h, w, p, a, b):
        for name, v in (("h", h), ("w", w)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or \
                not 2 <= int(p) <= MAX_PRIME or not _is_prime(int(p)):
            raise ValueError(f"p must be a prime from 2 to {MAX_PRIME}, got {p!r}")
        pp = int(p)
        if len(a) != 3 or len(b) != 3:
            raise ValueError("a and b must hold 3 counts each (rows -1, 0, +1)")
        self.P.h, self.P.w, self.P.p = int(h), int(w), pp
        for i in range(3):
            self.P.a[i] = _count(a[i], pp, "a")
            self.P.b[i] = _count(b[i], pp, "b")
        if not ml_symchase_invertible(&self.P):
            raise ValueError("C_1 (the coefficient of the next row) is singular mod p for "
                             f"width {w}: the chase cannot force the next row")
        self.h, self.w, self.p = self.P.h, self.P.w, pp

    def chase(self, b, z=None, out=None):
        """Chase of b (uint8 h x w, values < p) from X_0 = z (None: zero):
        (taps h x w, virtual row X_h)."""
        B = np.asarray(b)
        if B.dtype != np.uint8 or B.shape != (self.h, self.w):
            raise ValueError(f"b must be uint8 of shape {(self.h, self.w)}, got "
                             f"{B.dtype} {B.shape}")
        B = np.ascontiguousarray(B)
        if B.size and int(B.max()) >= self.p:
            raise ValueError(f"b must hold values below {self.p}")
        X = _out_like(out, B)
        zz = _first_row(z, self.w, self.p)
        last = np.zeros(self.w, dtype=np.uint8)
        cdef const uint8_t[:, ::1] Bv = B
        cdef uint8_t[:, ::1] Xv = X
        cdef const uint8_t[::1] zv
        cdef const uint8_t *zp = NULL
        cdef uint8_t[::1] lv = last
        if zz is not None:
            zv = zz
            zp = &zv[0]
        cdef int rc
        with nogil:
            rc = ml_symchase_run(&self.P, &Bv[0, 0], zp, &Xv[0, 0], &lv[0])
        _poly_check(rc, "symchase")
        return X, last

    def chase_packed(self, b, unsigned tc=0, z=None, out=None, bint write=True):
        """GF(2) chase of b_eff = tc ^ b on np.packbits rows (b: uint8 h x ceil(w / 8))
        from X_0 = z (None: zero; w entries 0/1): (taps packed like b, None when not
        ``write`` (a read-only pass), the virtual row X_h as w 0/1 bytes). O(h w / 64)
        word operations (csrc/structured/symchase.c); Ctrl-C stops it."""
        if self.p != 2:
            raise ValueError("chase_packed needs p == 2")
        nb = (self.w + 7) // 8
        B = np.asarray(b)
        if B.dtype != np.uint8 or B.shape != (self.h, nb):
            raise ValueError(f"b must be uint8 of shape {(self.h, nb)}, got "
                             f"{B.dtype} {B.shape}")
        B = np.ascontiguousarray(B)
        if not write:
            X = np.zeros((1, 1), np.uint8)                  # not written
        else:
            X = _out_like(out, B)
        zw = None if z is None else _to_words(z, self.w, "z")
        last = np.zeros((self.w + 63) // 64, dtype=np.uint64)
        cdef const uint8_t[:, ::1] Bv = B
        cdef uint8_t[:, ::1] Xv = X
        cdef const uint64_t[::1] zv
        cdef const uint64_t *zp = NULL
        cdef uint64_t[::1] lv = last
        cdef uint8_t *xp = &Xv[0, 0] if write else NULL
        if zw is not None:
            zv = zw
            zp = &zv[0]
        cdef int rc
        with nogil:
            rc = ml_symchase_run_packed(&self.P, &Bv[0, 0], tc & 1, zp, xp, &lv[0])
        _check_interrupt()
        _poly_check(rc, "symchase (packed)")
        return (X if write else None), _from_words(last, self.w)

    def solve_rows_packed(self, y):
        """GF(2): every np.packbits row of y (uint8, rows x ceil(w / 8), contiguous bytes
        in each row, rows in increasing order) replaced in place by C_1^-1 times it
        (C_1 = a[2] I + b[2] P; the other counts and h unused). Returns y."""
        if self.p != 2:
            raise ValueError("solve_rows_packed needs p == 2")
        nb = (self.w + 7) // 8
        if not isinstance(y, np.ndarray) or y.dtype != np.uint8 or y.ndim != 2 \
                or y.shape[1] != nb or not y.flags.writeable:
            raise ValueError(f"y must be writeable uint8 of shape (rows, {nb})")
        if y.shape[0] == 0:
            return y
        if y.strides[1] != 1 or (y.shape[0] > 1 and y.strides[0] < nb):
            raise ValueError("y must have contiguous rows in increasing order")
        cdef uint8_t[:, :] Yv = y
        cdef size_t rows = y.shape[0], stride = y.strides[0]
        cdef int rc
        with nogil:
            rc = ml_symchase_solve_rows_packed(&self.P, &Yv[0, 0], rows, stride)
        _check_interrupt()
        _poly_check(rc, "symchase rows (packed)")
        return y
