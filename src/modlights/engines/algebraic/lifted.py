"""Uniform row-recurrence boards over a composite n by p-adic lifting and the Chinese
remainder theorem, on top of the GF(p) algebraic engine.

Covered boards (:func:`lifted_reason` says why a board is not): grid boards over a
composite n (4, 6, 8, 9, 10, 12, ...; not tori, no locks, no holes, at most
:data:`~modlights.model.board.MAX_TILES` tiles) that the algebraic engine
(:mod:`modlights.engines.algebraic.cross`) covers over every prime p dividing n: one
pattern of the offsets (0,0), (0,+-1), (+-1,0) with a unit count on (-1,0) or (0,-1).

With n = prod q_j, q_j = p_j^k_j, Z/n = prod Z/q_j, so A x = b (mod n) is solved mod
every q_j and the parts are combined: x = sum x_j e_j with e_j = 1 mod q_j, 0 mod the
others. When A is invertible mod p (the GF(p) engine's nullity is 0) it is invertible
mod p^k, and A x = b (mod p^k) is solved digit by digit: with r_0 = b and x = 0, at
step i (r_i divisible by p^i) the GF(p) engine solves A y = r_i / p^i (mod p), x +=
p^i y and r_{i+1} = r_i - p^i A y (mod p^k), now divisible by p^(i+1). That is k chases
over GF(p) and k - 1 stencil products A y a factor: O(k h w) for an h x w board.

When A is singular mod p, a factor p (k = 1) is left to the GF(p) algebraic engine
(kernel, solvability) and a factor p^k, k > 1, to the chase engine over Z/p^k
(csrc/chase.c, ring-correct): the kernel over Z/p^k is not a lift of the GF(p) one.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod
from typing import Any

import numpy as np

from modlights.engines.base import Engine
from modlights.model.ring import crt_idempotents, factorize

__all__ = ["LiftedEngine", "lifted_reason", "lifted_supports"]


def _board_mod(board, p: int):
    """The same uniform grid board over GF(p)."""
    from modlights.model.board import Board

    rows, cols = board.shape
    return Board.grid(rows, cols, states=p, pattern=list(board.pattern))


def lifted_reason(board) -> str | None:
    """None when :class:`LiftedEngine` covers the board, else why it does not."""
    from modlights.engines.algebraic.cross import algebraic_reason
    from modlights.model.board import MAX_TILES

    if not getattr(board, "is_grid", False):
        return "it needs a grid board (Board.grid)"
    n = board.states
    factors = factorize(n)
    if len(factors) == 1 and factors[0][1] == 1:
        return f"n must be composite (n = {n} is prime: the algebraic engine takes it)"
    if board.pattern is None:
        return "it needs one pattern on every tile (this board is mixed)"
    if board._any_locked or board._any_holes:
        return "it needs a board without locked tiles or holes"
    if board.wrap:
        return "it does not take tori (wrap=True); the chase does"
    rows, cols = board.shape
    if rows * cols > MAX_TILES:
        return f"it needs at most {MAX_TILES} tiles (byte states), this board has {rows * cols}"
    for p, _ in factors:
        reason = algebraic_reason(_board_mod(board, p))
        if reason is not None:
            return f"over GF({p}) (a factor of n = {n}): {reason}"
    return None


def lifted_supports(board) -> bool:
    """Whether :class:`LiftedEngine` covers the board."""
    return lifted_reason(board) is None


class LiftedEngine:
    """The engine interface of :class:`~modlights.solver.Solver` for the composite-n
    boards :func:`lifted_reason` accepts. Each prime-power factor q = p^k of n gets:
    the lift from the GF(p) algebraic engine when A is invertible mod p; the GF(p)
    algebraic engine itself when k = 1; the chase engine over Z/q otherwise. Solutions
    and kernel generators are combined by CRT (the i-th generators of the factors add
    up to one generator whose order is the product of theirs, so ``nullity`` is the
    fewest cyclic summands of ker A, as for the other engines).

    sub: ``sub(board, name)`` gives the engine registered as ``name``
    ("algebraic-cross" or "chase") for a factor's board: the registry's
    :func:`~modlights.engines.registry.build_named` (every engine is built through the
    registry; this module does not import it, the registry imports this module).
    det, inverse and pseudo-inverse are not the lifted engine's: the registry answers
    them (:func:`modlights.engines.registry.ask`).
    """

    name = "lifted"
    packs = False

    def __init__(
        self,
        board,
        sub: Callable[[Any, str], Engine],
    ):
        reason = lifted_reason(board)
        if reason is not None:
            raise ValueError(
                f"method='lifted' does not cover this board: {reason}; use method='chase' or 'auto'"
            )
        self.board = board
        self.n = n = board.states
        self._sub = sub
        self._factors = factorize(n)
        # per factor (p, k, kind, engine): kind "lift" (A invertible mod p), "field"
        # (k = 1, the GF(p) engine) or "chase" (the chase over Z/p^k)
        # the parts' engines: "algebraic-cross" (kernel_fits declared) or "chase"
        self._parts: list[tuple[int, int, str, Any]] = []
        for p, k in self._factors:
            base = sub(_board_mod(board, p), "algebraic-cross")
            if not base.nullity:
                self._parts.append((p, k, "lift", base))
            elif k == 1:
                self._parts.append((p, k, "field", base))
            else:
                self._parts.append((p, k, "chase", sub(_board_mod(board, p**k), "chase")))
        # e_j = 1 mod q_j, 0 mod n / q_j
        self._idempotents = [idem for _, idem in crt_idempotents(n)]

    @property
    def nullity(self) -> int:
        """The fewest cyclic summands of ker A: the most over the factors."""
        return max(0 if kind == "lift" else int(e.nullity) for _, _, kind, e in self._parts)

    @property
    def kernel_size(self) -> int:
        return prod(1 if kind == "lift" else int(e.kernel_size) for _, _, kind, e in self._parts)

    def kernel_fits(self) -> bool:
        return all(kind != "field" or e.kernel_fits() for _, _, kind, e in self._parts)

    def generators(self, limit: int | None = None) -> tuple[np.ndarray, list[int]]:
        k = self.nullity if limit is None else min(self.nullity, max(0, int(limit)))
        acc = np.zeros((k, self.board.n_taps), dtype=np.uint32)
        orders = [1] * k
        for (_, _, kind, e), idem in zip(self._parts, self._idempotents):
            if kind == "lift":
                continue
            H, ords = e.generators(limit=k)
            for i, o in enumerate(ords):
                acc[i] += H[i].astype(np.uint32) * np.uint32(idem)
                orders[i] *= int(o)
        return (acc % np.uint32(self.n)).astype(np.uint8), orders

    def _solve_prime_power(self, base, p: int, k: int, rhs: np.ndarray) -> np.ndarray:
        """x (uint8, < p^k) with A x = rhs (mod p^k), A invertible mod p; rhs uint8 in
        [0, p^k). Works on r / p^i (values < m = p^(k-i)) so no product leaves uint16."""
        x = np.zeros(rhs.size, dtype=np.uint8)
        r, m, scale = rhs, p**k, 1
        for i in range(k):
            X, ok = base.solve((r if m == p else r % np.uint8(p))[None, :])
            if not ok[0]:  # never: A is invertible mod p
                raise RuntimeError(
                    "lifted engine: the GF(p) engine found no solution "
                    "of an invertible system (a bug)"
                )
            y = X[0]
            x += y * np.uint8(scale)  # digits: the sum stays below p^k <= 255
            if i + 1 < k:
                ay = self.board.apply_vector(y)  # mod n: m divides n
                if m != self.n:
                    ay %= np.uint8(m)
                if p == 2:  # uint8 wraps mod 256, a multiple of m
                    r = r - ay
                    r &= np.uint8(m - 1)
                    r >>= np.uint8(1)  # exact: r is even
                else:
                    t = r.astype(np.uint16)
                    t += np.uint16(m)
                    t -= ay  # r - A y + m, in [1, 2m)
                    np.minimum(t, t - np.uint16(m), out=t)  # t - m wraps when t < m
                    r = (t // np.uint16(p)).astype(np.uint8)  # exact: divisible by p
            m //= p
            scale *= p
        return x

    def solve(self, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        R = np.asarray(R, dtype=np.uint8)
        m = R.shape[0]
        if len(self._parts) == 1:  # n = p^k: nothing to combine
            p, k, kind, e = self._parts[0]
            if kind == "chase":
                return e.solve(R)
            return (
                np.stack([self._solve_prime_power(e, p, k, R[i]) for i in range(m)]),
                np.ones(m, dtype=bool),
            )
        acc = np.zeros((m, self.board.n_taps), dtype=np.uint32)
        ok = np.ones(m, dtype=bool)
        for (p, k, kind, e), idem in zip(self._parts, self._idempotents):
            Rq = R % np.uint8(p**k)
            if kind == "lift":
                Xq = np.stack([self._solve_prime_power(e, p, k, Rq[i]) for i in range(m)])
            else:
                Xq, okq = e.solve(Rq)
                ok &= okq
            acc += Xq.astype(np.uint32) * np.uint32(idem)
        X = (acc % np.uint32(self.n)).astype(np.uint8)
        X[~ok] = 0
        return X, ok

    def __reduce__(self):
        """Pickles as its board and sub-engine factory (the C state is rebuilt on use)."""
        return (LiftedEngine, (self.board, self._sub))
