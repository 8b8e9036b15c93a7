"""A ring part of the tensor engine: R (x) C over Z/q, q = p^e (e > 1), with a factor
singular mod p (:class:`_RingPart`).

Such a factor's residual matrix M may have no generalised inverse over Z/p^e, so the
part works through the chase as a change of variables: Phi(y) = ((F y)_det, y_syms) is
unimodular and F = E^-1 diag(I, M) Phi (E replaces the residual rows of b by minus the
chase's residual), so R X C^T = B becomes four independent blocks for
Y = Phi_R X Phi_C^T: Y11 = B'11, Y12 M_C^T = B'12, M_R Y21 = B'21, M_R Y22 M_C^T = B'22
(B' = E_R B E_C^T), the small ones solved over Z/p^e through the Smith forms of M_R and
M_C (M_R (x) M_C's from theirs). The cost is that of a field part (two full chases and
transposes) plus chases of s columns and rank-s updates: O(rows x cols x band +
(rows + cols) s^2). Its kernel, |ker M_C|^(rows - s_R) |ker M_R|^(cols - s_C)
|ker (M_R (x) M_C)|, is the image of the blocks' cyclic summands
(:meth:`_RingPart.generators`, with their orders).
"""

from __future__ import annotations

from math import prod

import numpy as np

from modlights.engines.tensor.band import BandFactor
from modlights.model.ring import factorize

__all__ = ["_RingPart"]


class _RingPart:
    """R (x) C over Z/q, q = p^e (e > 1), with a factor singular mod p (``ring``): M_R,
    M_C have no generalised inverse in general, so the engine works through the chase's
    change of variables. For a factor F the chase gives, for any b and symbol values z,
    y = L b + S z (L b: the chase of b with the symbols 0) with (F y)_det = b_det and
    (F y - b)_res = M z + rho(b), rho(b) the residual of L b. So with Phi(y) =
    ((F y)_det, y_syms) (unimodular, Phi^-1(u, z) = L u + S z) and E b = (b_det,
    -rho(b)), F = E^-1 diag(I, M) Phi, and R X C^T = B reads, for Y = Phi_R X Phi_C^T
    in blocks (det, sym) x (det, sym) and B' = E_R B E_C^T:
    Y11 = B'11, Y12 M_C^T = B'12, M_R Y21 = B'21, M_R Y22 M_C^T = B'22, independent
    systems with the s x s matrices M (Y22 through both Smith forms, U M V = diag(p^v):
    entry (i, j) is p^min(v_i + w_j, e) times the unknown). Solvable iff every block
    is; X = Phi_R^-1 Y Phi_C^-T; ker A = (Phi_R^-1 (x) Phi_C^-1) of the blocks'
    kernels, a direct sum of cyclic groups (:meth:`generators`).

    Everything runs in the factors' chase order (reversed axes when ``reversed``) and
    is flipped back at the end. The two full chases and transposes are those of a
    field part; the rest is chases of s columns and rank-s updates (``_add_symbols``).
    """

    def __init__(self, R: BandFactor, C: BandFactor):
        self.R, self.C, self.q = R, C, R.n
        ((self.p, self.e),) = factorize(R.n)
        # Smith forms U M V = diag(p^v) of the residual matrices (v = e: a zero invariant)
        # (a factor has its residual engine _small exactly when it has symbols, s > 0)
        self.sm_R = R._small.parts[0][2] if R._small is not None else None
        self.sm_C = C._small.parts[0][2] if C._small is not None else None
        # [(g over Z/q, order)]
        self.gens_R = self.sm_R.generators() if self.sm_R is not None else []
        self.gens_C = self.sm_C.generators() if self.sm_C is not None else []
        vr = self.sm_R.v if self.sm_R is not None else np.zeros(0, np.int64)
        vc = self.sm_C.v if self.sm_C is not None else np.zeros(0, np.int64)
        self.v22 = np.minimum(vr[:, None] + vc[None, :], self.e)  # sR x sC

    # ------------------------------------------------------------- structure
    def _counts(self) -> tuple[int, int, int]:
        """Generators of the blocks 12, 21 and 22 of ker (D_R (x) D_C)."""
        R, C = self.R, self.C
        return (
            (R.length - R.s) * len(self.gens_C),
            (C.length - C.s) * len(self.gens_R),
            int((self.v22 > 0).sum()),
        )

    @property
    def nullity(self) -> int:
        """The number of cyclic summands of ker A mod q (each block's summed)."""
        return sum(self._counts())

    @property
    def kernel_size(self) -> int:
        """|ker M_C|^(rows - s_R) |ker M_R|^(cols - s_C) |ker (M_R (x) M_C)|."""
        R, C = self.R, self.C
        kc = prod(o for _, o in self.gens_C)
        kr = prod(o for _, o in self.gens_R)
        return kc ** (R.length - R.s) * kr ** (C.length - C.s) * self.p ** int(self.v22.sum())

    def generators(self, k: int) -> tuple[np.ndarray, list[int]]:
        """The first k of: e_r (x) S_C g (r over the rows the chase of R determines, g
        over the generators of ker M_C), S_R g (x) e_c (likewise), p^(e - v) S_R V_R[:, i]
        (x) S_C V_C[:, j] (the entries of D_R (x) D_C with v = min(v_i + w_j, e) > 0),
        as (k, rows, cols) uint8 and their orders. These are the images under
        Phi_R^-1 (x) Phi_C^-1 of the cyclic summands of the blocks' kernels (the e_r span
        {y: y_syms = 0} = Phi^-1(anything, 0)), so ker A is their direct sum."""
        R, C, q = self.R, self.C, self.q
        h, w = R.length, C.length
        H = np.zeros((k, h, w), np.uint8)  # chase order on both axes
        orders: list[int] = []
        SR, SC = R.S.astype(np.int64), C.S.astype(np.int64)
        for g, o in self.gens_C:
            sg = (SC @ g % q).astype(np.uint8)
            for r in R.det_vars.tolist():
                if len(orders) == k:
                    break
                H[len(orders), r] = sg
                orders.append(o)
        for g, o in self.gens_R:
            sg = (SR @ g % q).astype(np.uint8)
            for c in C.det_vars.tolist():
                if len(orders) == k:
                    break
                H[len(orders), :, c] = sg
                orders.append(o)
        for i, j in zip(*np.nonzero(self.v22)):
            if len(orders) == k:
                break
            v = int(self.v22[i, j])
            assert self.sm_R is not None and self.sm_C is not None  # v22 is sR x sC
            u = SR @ self.sm_R.V[:, i] % q
            t = SC @ self.sm_C.V[:, j] * self.p ** (self.e - v) % q
            H[len(orders)] = np.outer(u, t) % q
            orders.append(self.p**v)
        if R.reversed:
            H = H[:, ::-1]
        if C.reversed:
            H = H[:, :, ::-1]
        return np.ascontiguousarray(H[: len(orders)]), orders

    # ------------------------------------------------------------- solving
    def _solve22(self, B22: np.ndarray) -> np.ndarray | None:
        """Y with M_R Y M_C^T = B22 (sR x sC, mod q), or None: with U M V = D for both,
        D_R W D_C = U_R B22 U_C^T entry by entry, Y = V_R W V_C^T."""
        q, p = self.q, self.p
        assert self.sm_R is not None and self.sm_C is not None  # called when sR, sC
        Cm = self.sm_R.U @ (B22 % q) @ self.sm_C.U.T % q
        pv = p**self.v22  # p^e = q: the zero entries
        if (Cm % pv).any():
            return None
        W = np.where(self.v22 < self.e, Cm // pv, 0)
        return self.sm_R.V @ W @ self.sm_C.V.T % q

    def solve(self, B: np.ndarray, out: np.ndarray) -> bool:
        """X with R X C^T = B (rows x cols uint8, values < q) into ``out``; False when
        there is none."""
        from modlights.native._core import transpose

        R, C, q = self.R, self.C, self.q
        h, w = B.shape
        sR, sC = R.s, C.s
        # T = L_R B (chase order of R down the rows), rho_R(B) (sR x cols, natural)
        Yr, res_r = R._chase(np.ascontiguousarray(B))
        Tt = np.empty((w, h), np.uint8)
        transpose(Yr[:h], Tt)
        # U^T = L_C T^T: rows of U^T in C's chase order; res_t = rho_C(rows of T)
        Yc, res_t = C._chase(Tt)
        del Tt
        res_rc = res_r[:, ::-1] if C.reversed else res_r  # columns in C's order
        # the blocks of B' = E_R B E_C^T outside B'11 (= B there, already in U):
        # B'21 = -rho_R(B) on C's determined columns; B'22 = rho_C of the rows rho_R(B);
        # B'12 = -(B K_C^T)_det with K_C^T = rho_C on rows: rho_C(rows of T) = L_R (B
        # K_C^T), and (R L_R v)_det = v_det
        Y12 = Y21 = Y22 = None
        if sC:
            assert C._small is not None
            B12 = (-R.apply_rows(res_t.T, R.det_eqs)) % q  # (h - sR) x sC
            Y12, ok = C._small.solve(B12.astype(np.uint8))  # M_C y = B'12 row
            if not ok.all():
                return False
        if sR:
            assert R._small is not None
            B21 = (-res_rc[:, C.det_eqs]) % q  # sR x (w - sC)
            Y21, ok = R._small.solve(np.ascontiguousarray(B21.T, dtype=np.uint8))
            if not ok.all():  # Y21^T
                return False
        if sR and sC:
            _, B22t = C._chase(np.ascontiguousarray(res_r.T, dtype=np.uint8))
            Y22 = self._solve22(B22t.T)
            if Y22 is None:
                return False
        # X = U + L_R(Y12 on det rows) S_C^T + S_R (L_C(Y21 on det cols) + Y22 S_C^T)
        if sC:
            assert Y12 is not None  # solved above
            pad = np.zeros((h, sC), np.uint8)
            pad[R.det_eqs] = Y12
            P1 = R._chase(np.ascontiguousarray(R.natural(pad)))[0][:h]
            C._add_symbols(Yc, np.ascontiguousarray(P1.T))  # U^T += S_C P1^T
        transpose(Yc[:w], Yr[:h])
        del Yc
        if sR:
            assert Y21 is not None  # solved above
            pad = np.zeros((w, sR), np.uint8)
            pad[C.det_eqs] = Y21
            Q = C._chase(np.ascontiguousarray(C.natural(pad)))[0][:w].T.astype(np.int64)
            if sC:
                Q += Y22 @ C.S.T.astype(np.int64)
            R._add_symbols(Yr, np.ascontiguousarray(Q % q, dtype=np.uint8))  # += S_R Q
        X = R.natural(Yr[:h])
        np.copyto(out, X[:, ::-1] if C.reversed else X)
        return True
