"""algebraic-sym-odd (csrc/engines/algebraic_odd.c, algebraic_fit.c): the symmetric 3 x 3
recurrence on odd widths where the next row's coefficient C_1 = b P is singular (the
diagonal on odd x odd boards), rows split as ker P^e (+) im P^e (e the multiplicity of
the root 0 of chi_P: 1 unless p divides (w + 1) / 2). Against the dense engine (and the
reference engine's rank): nullity, kernel size, generators in ker A and independent,
solvable and solutions reaching the target, on the diagonal and random symmetric
patterns with no tap (-1, 0), n in {2, 3, 5, 7, 11} (spot checks 101, 251), odd x odd
and odd x even sides, and the widths where p divides (w + 1) / 2 (the diagonal and
random patterns with a unit centre); its covers checked against an independent
condition (the rank of P and P^2: 0 a simple root of chi_P exactly when p does not
divide (w + 1) / 2; otherwise a unit centre); the plan chooses it on large odd boards
and says why algebraic-sym does not cover them; lifted over it on composite n."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from oracle import group_closure_size

NAME = "algebraic-sym-odd"
NS = [2, 3, 5, 7, 11]


def _rank_mod_p(M: np.ndarray, p: int) -> int:
    """Rank over GF(p) by plain Gaussian elimination (independent of the engines)."""
    M = np.array(M, dtype=np.int64) % p
    rank = 0
    for c in range(M.shape[1]):
        piv = next((r for r in range(rank, M.shape[0]) if M[r, c]), None)
        if piv is None:
            continue
        M[[rank, piv]] = M[[piv, rank]]
        M[rank] = M[rank] * pow(int(M[rank, c]), p - 2, p) % p
        for r in range(M.shape[0]):
            if r != rank and M[r, c]:
                M[r] = (M[r] - M[r, c] * M[rank]) % p
        rank += 1
    return rank


def _counts(pattern) -> dict:
    c: dict = {}
    for o in pattern:
        c[o] = c.get(o, 0) + 1
    return c


def _qualifies(c: dict, w: int, p: int) -> bool:
    """One orientation's condition, decided independently: counts left-right symmetric
    mod p, no (-1, 0) mod p, (-1, +1) a unit, and 0 a simple eigenvalue of P_w (rank P
    = rank P^2 = w - 1, which holds for odd w exactly when p does not divide (w+1)/2)
    or, on odd w, a unit centre (0, 0)."""
    if any(c.get((dr, 1), 0) % p != c.get((dr, -1), 0) % p for dr in (-1, 0, 1)):
        return False
    if c.get((-1, 0), 0) % p or not c.get((-1, 1), 0) % p:
        return False
    if w % 2 and c.get((0, 0), 0) % p:
        return True
    P = np.eye(w, k=1, dtype=np.int64) + np.eye(w, k=-1, dtype=np.int64)
    return _rank_mod_p(P, p) == w - 1 and _rank_mod_p(P @ P, p) == w - 1


def _random_pattern(rng, up_down: bool):
    out = []
    for dr in (-1, 0, 1):
        if dr != -1:
            out += [(dr, 0)] * int(rng.integers(0, 3))
        k = int(rng.integers(1 if dr == -1 else 0, 3))
        out += [(dr, -1)] * k + [(dr, 1)] * k
    if up_down:
        out = [(dc, dr) for dr, dc in out]
    return out


def _check(b: ml.Board, rng, states: int = 4):
    """Everything the engine answers against the dense engine and Board.apply."""
    rows, cols = b.shape
    p = b.states
    eng = NativeEngine(b, NAME)
    dense = ml.Solver(b, method="dense")
    assert eng.kernel_size == dense.kernel_size
    assert eng.nullity == rows * cols - dense.rank
    H, orders = eng.generators()
    assert H.shape == (eng.nullity, rows * cols) and orders == [p] * eng.nullity
    zero = np.zeros((rows, cols), np.uint8)
    for h in H:
        assert not b.apply(zero, h.reshape(rows, cols)).any()
    assert _rank_mod_p(H, p) == eng.nullity if len(H) else True
    if eng.kernel_size <= 5000:
        assert group_closure_size(H, p) == eng.kernel_size
    for i in range(states):
        if i % 2:
            s = b.apply(zero, rng.integers(0, p, (rows, cols), dtype=np.uint8))
        else:
            s = rng.integers(0, p, (rows, cols), dtype=np.uint8)
        R = ((p - s.reshape(1, -1).astype(np.int64)) % p).astype(np.uint8)
        X, ok = eng.solve(R)
        assert bool(ok[0]) == dense.solvable(s)
        assert ok[0] or i % 2 == 0
        if ok[0]:
            assert not b.apply(s, X[0].reshape(rows, cols)).any()
        else:
            assert not X.any()
    return eng


@pytest.mark.parametrize("p", NS)
def test_diagonal_against_dense(p):
    rng = np.random.default_rng(p)
    seen = 0
    for rows in range(1, 10):
        for cols in (1, 3, 5, 7, 9, 11):
            b = ml.Board.grid(rows, cols, p, pattern="diagonal")
            c = _counts(b.pattern)
            want = _qualifies(c, cols, p) or _qualifies(
                {(dc, dr): k for (dr, dc), k in c.items()}, rows, p
            )
            assert (covers(NAME, b) is None) == want, (rows, cols)
            if want:
                _check(b, rng)
                seen += 1
    assert seen >= 20


def _sweep(seed: int, count: int, ns, max_side: int):
    rng = np.random.default_rng(seed)
    seen = 0
    for _ in range(count):
        p = int(rng.choice(ns))
        up = bool(rng.random() < 0.5)
        pat = _random_pattern(rng, up)
        rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
        b = ml.Board.grid(rows, cols, p, pattern=pat)
        c = _counts(pat)
        want = _qualifies(c, cols, p) or _qualifies(
            {(dc, dr): k for (dr, dc), k in c.items()}, rows, p
        )
        reason = covers(NAME, b)
        assert (reason is None) == want, (pat, rows, cols, p, reason)
        if want:
            _check(b, rng, states=2)
            seen += 1
    return seen


def test_random_symmetric_patterns_against_dense():
    assert _sweep(7, 120, NS, 9) >= 40


@pytest.mark.matrix
def test_random_symmetric_patterns_sweep():
    assert _sweep(8, 1500, NS + [101, 251], 13) >= 500


def test_spot_checks_large_n():
    rng = np.random.default_rng(3)
    for p, (rows, cols) in ((101, (6, 7)), (251, (7, 9)), (101, (9, 9)), (251, (4, 13))):
        for pat in ("diagonal", [(-1, -1), (-1, 1), (1, 0), (1, 0), (0, 0)]):
            b = ml.Board.grid(rows, cols, p, pattern=pat)
            assert covers(NAME, b) is None
            _check(b, rng)


def test_kernel_and_unsolvable_states():
    # a pattern with a[0] = a[1] = 0 (taps (+-1, +-1) only, no centre): component 0 has
    # nullity h; the 5 x 5 board over GF(5) has a kernel (9) and unsolvable states
    rng = np.random.default_rng(1)
    b = ml.Board.grid(5, 5, 5, pattern=[(-1, -1), (-1, 1), (1, -1), (1, 1)])
    eng = _check(b, rng, states=6)
    assert eng.nullity == 9
    s = ml.Solver(b, method=NAME)
    assert s.engine == NAME and s.nullity == eng.nullity
    zero = np.zeros((5, 5), np.uint8)
    u = next(
        x
        for x in (rng.integers(0, 5, (5, 5), dtype=np.uint8) for _ in range(50))
        if not ml.Solver(b, method="dense").solvable(x)
    )
    assert not s.solvable(u)
    with pytest.raises(ml.Unsolvable):
        s.solve(u, minimal=False)
    t = b.apply(zero, rng.integers(0, 5, (5, 5), dtype=np.uint8))
    assert not b.apply(t, s.solve(t, minimal=False).taps).any()


CORNERS = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def test_refuses_p_dividing_half_width_plus_one_without_a_centre():
    for rows, cols, p in ((5, 5, 3), (7, 7, 2), (9, 9, 5), (3, 3, 2), (13, 13, 7)):
        b = ml.Board.grid(rows, cols, p, pattern=CORNERS)
        why = covers(NAME, b)
        assert why is not None and "(w + 1) / 2" in why
        assert covers(NAME, ml.Board.grid(rows, cols, p, pattern="diagonal")) is None
    # the cross has a tap (-1, 0); tori are not taken
    assert "(-1, 0)" in covers(NAME, ml.Board.grid(5, 5, 3, pattern="cross"))
    assert "tori" in covers(NAME, ml.Board.grid(5, 5, 3, pattern="diagonal", wrap=True))
    assert "prime" in covers(NAME, ml.Board.grid(5, 5, 9, pattern="diagonal"))


def test_odd_by_even_sides_and_the_plan():
    rng = np.random.default_rng(2)
    for p in (2, 3, 5, 7):
        # odd x even: algebraic-sym works on the transpose (cheaper); this engine too
        w = 7 if p == 3 else 5  # p not dividing (w + 1) / 2
        b = ml.Board.grid(6, w, p, pattern="diagonal")
        assert covers("algebraic-sym", b) is None and covers(NAME, b) is None
        _check(b, rng)
        _check(ml.Board.grid(w, 6, p, pattern="diagonal"), rng)  # worked on transposed
    # large odd x odd boards: chosen over the chase, algebraic-sym's refusal explained
    for p, k in ((3, 301), (2, 301), (7, 303)):
        b = ml.Board.grid(k, k, p, pattern="diagonal")
        s = ml.Solver(b)
        assert s.plan.engine == NAME, s.plan
        assert "invertible" in s.plan.rejected["algebraic-sym"]
        chase = NativeEngine(b, "chase")
        assert s.kernel_size == chase.kernel_size
        t = b.apply(np.zeros((k, k), np.uint8), rng.integers(0, p, (k, k), dtype=np.uint8))
        assert not b.apply(t, s.solve(t, minimal=False).taps).any()
        u = rng.integers(0, p, (k, k), dtype=np.uint8)
        R = ((p - u.reshape(1, -1).astype(np.int64)) % p).astype(np.uint8)
        assert s.solvable(u) == bool(chase.solve(R)[1][0])
    # even x even stays algebraic-sym's; odd x even too (its cost is lower)
    assert ml.Solver(ml.Board.grid(200, 200, 3, pattern="diagonal")).plan.engine == "algebraic-sym"
    assert ml.Solver(ml.Board.grid(201, 200, 3, pattern="diagonal")).plan.engine == "algebraic-sym"


def _lifted_as_reference(b: ml.Board, rng) -> None:
    """lifted on b against the reference engine: |ker A|, four starts (two of them
    A x0) solvable as the reference says and solved, every generator in ker A."""
    n, shape = b.states, b.shape
    e = NativeEngine(b, "lifted")
    ref = ml.Solver(b, backend="reference")
    assert e.kernel_size == ref.kernel_size
    zero = np.zeros(shape, np.uint8)
    for i in range(4):
        s = rng.integers(0, n, shape, dtype=np.uint8)
        if i % 2:
            s = b.apply(zero, s)
        R = ((n - s.reshape(1, -1).astype(np.int64)) % n).astype(np.uint8)
        X, ok = e.solve(R)
        assert bool(ok[0]) == ref.solvable(s)
        if ok[0]:
            assert not b.apply(s, X[0].reshape(shape)).any()
    H, _ = e.generators()
    for h in H:
        assert not b.apply(zero, h.reshape(shape)).any()


def test_lifted_over_it_on_composite_n():
    """lifted runs algebraic-sym-odd over each prime of n (ml__field_engine): odd x odd
    diagonals of composite n against the reference engine."""
    rng = np.random.default_rng(4)
    seen = 0
    for n, k in ((4, 5), (4, 9), (6, 9), (9, 7), (10, 5), (15, 13), (21, 9), (25, 7)):
        b = ml.Board.grid(k, k, n, pattern="diagonal")
        assert covers(NAME, b) is not None and covers("lifted", b) is None, (n, k)
        _lifted_as_reference(b, rng)
        seen += 1
    assert seen == 8


# Widths w where p divides (w + 1) / 2: e = 3, 7, 15 (GF(2)), 3, 9 (GF(3)), 5, 25 (GF(5)).
FIT_WIDTHS = {2: (3, 7, 15, 11), 3: (5, 17, 53), 5: (9, 19, 49), 7: (13,)}


def _fit_sweep(seed: int, count: int, max_h: int) -> int:
    """Random patterns with a unit centre on the widths of FIT_WIDTHS (either orientation)."""
    rng = np.random.default_rng(seed)
    seen = 0
    for _ in range(count):
        p = int(rng.choice(list(FIT_WIDTHS)))
        w = int(rng.choice(FIT_WIDTHS[p]))
        up = bool(rng.random() < 0.5)
        pat = [q for q in _random_pattern(rng, False) if q != (0, 0)] + [(0, 0)]
        if up:
            pat = [(dc, dr) for dr, dc in pat]
        h = int(rng.integers(1, max_h + 1))
        b = ml.Board.grid(w, h, p, pattern=pat) if up else ml.Board.grid(h, w, p, pattern=pat)
        c = _counts(pat)
        rows, cols = b.shape
        want = _qualifies(c, cols, p) or _qualifies(
            {(dc, dr): k for (dr, dc), k in c.items()}, rows, p
        )
        assert (covers(NAME, b) is None) == want, (pat, rows, cols, p)
        if want:
            _check(b, rng, states=2)
            seen += 1
    return seen


def test_multiple_root_diagonal_against_dense():
    """p | (w + 1) / 2: the diagonal on odd x odd and odd x even boards."""
    rng = np.random.default_rng(11)
    cases = [(2, 7, 7), (2, 15, 6), (2, 3, 9), (3, 5, 5), (3, 17, 4), (5, 9, 9), (5, 19, 3)]
    for p, w, h in cases + [(7, 13, 2)]:
        b = ml.Board.grid(h, w, p, pattern="diagonal")
        assert covers(NAME, b) is None
        _check(b, rng)
    # the plan takes it on a large board where the chase did
    b = ml.Board.grid(199, 199, 5, pattern="diagonal")
    s = ml.Solver(b)
    assert s.plan.engine == NAME, s.plan
    t = b.apply(np.zeros((199, 199), np.uint8), rng.integers(0, 5, (199, 199), dtype=np.uint8))
    assert not b.apply(t, s.solve(t, minimal=False).taps).any()
    assert s.kernel_size == NativeEngine(b, "chase").kernel_size


def test_multiple_root_random_patterns():
    assert _fit_sweep(12, 40, 9) >= 25


@pytest.mark.matrix
def test_multiple_root_sweep():
    assert _fit_sweep(13, 600, 13) >= 400


def test_lifted_multiple_root_composite_n():
    """lifted over it where a prime of n divides (w + 1) / 2: Z/6 on 11 (2 and 3 divide
    6), Z/10 on 19, Z/15 on 29, Z/6 on 3 x 5, against the reference engine."""
    rng = np.random.default_rng(14)
    for n, h, w in ((6, 11, 11), (10, 7, 19), (15, 5, 29), (6, 5, 3)):
        b = ml.Board.grid(h, w, n, pattern="diagonal")
        assert covers("lifted", b) is None, (n, h, w)
        _lifted_as_reference(b, rng)
