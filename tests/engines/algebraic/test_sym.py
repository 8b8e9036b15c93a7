"""The algebraic engine's symmetric 3 x 3 case (engines/algebraic_sym.py) against the
dense reference engine, the chase, Board.apply, the group spanned by its kernel and an
independent invertibility check of the next-row coefficient a I + b P."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from modlights.native._core import SymChase
from oracle import group_closure_size


def algebraic_supports(b):
    """Whether the C algebraic-cross engine covers b."""
    return covers("algebraic-cross", b) is None


def sym_reason(b):
    """None when the C algebraic-sym engine covers b, else its reason."""
    return covers("algebraic-sym", b)


def SymAlgebraicEngine(b):
    """The C algebraic-sym engine through the Engine adapter."""
    return NativeEngine(b, "algebraic-sym")


PRIMES = [2, 3, 5, 7]
RING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


@st.composite
def sym_patterns(draw):
    """Left-right symmetric patterns in the 3 x 3 box: per row offset dr, a count of
    (dr, 0) and a count of the pair (dr, -1), (dr, +1)."""
    pat = []
    for dr in (-1, 0, 1):
        pat += [(dr, 0)] * draw(st.integers(0, 2))
        pat += [(dr, -1), (dr, 1)] * draw(st.integers(0, 2))
    if not pat:
        pat = [(0, 0)]
    return draw(st.permutations(pat))


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


def _c1_invertible(counts: dict, w: int, p: int) -> bool:
    """Whether count(-1,0) I + count(-1,+1) P is invertible (w x w, GF(p))."""
    a, b = counts.get((-1, 0), 0), counts.get((-1, 1), 0)
    C = a * np.eye(w, dtype=np.int64) + b * (
        np.eye(w, k=1, dtype=np.int64) + np.eye(w, k=-1, dtype=np.int64)
    )
    return _rank_mod_p(C, p) == w


def _counts(pattern) -> dict:
    c: dict = {}
    for o in pattern:
        c[o] = c.get(o, 0) + 1
    return c


def _check_board(b: ml.Board, rng, states: int = 4):
    """Everything the engine answers, against the reference engine and Board.apply."""
    rows, cols = b.shape
    p = b.states
    eng = SymAlgebraicEngine(b)
    ref = ml.Solver(b, backend="reference")
    assert eng.kernel_size == ref.kernel_size
    assert rows * cols - eng.nullity == ref.rank
    sol = ml.Solver(b, method="algebraic")
    # cross-type patterns ((0,0), (0,+-1), (+-1,0) only) keep the algebraic engine proper
    # from its crossover (below it the cost lines of the two may cross: either answers)
    from modlights.engines.registry import CROSSOVER_TILES

    if not algebraic_supports(b):
        assert sol.engine == "algebraic-sym"
    elif rows * cols >= CROSSOVER_TILES["algebraic-cross"]:
        assert sol.engine == "algebraic-cross"
    assert sol.rank == ref.rank
    for i in range(states):
        if i % 2:  # solvable: the image of random taps
            s = b.apply(
                np.zeros((rows, cols), np.uint8), rng.integers(0, p, (rows, cols), dtype=np.uint8)
            )
        else:
            s = rng.integers(0, p, (rows, cols), dtype=np.uint8)
        R = ((p - s.reshape(1, -1).astype(np.int64)) % p).astype(np.uint8)
        X, ok = eng.solve(R)
        assert bool(ok[0]) == ref.solvable(s)
        if ok[0]:
            assert not b.apply(s, X[0].reshape(rows, cols)).any()
        else:
            assert not X.any()
    H, orders = eng.generators()
    assert H.shape == (eng.nullity, rows * cols) and orders == [p] * eng.nullity
    zero = np.zeros((rows, cols), np.uint8)
    for h in H:
        assert not b.apply(zero, h.reshape(rows, cols)).any()
    if eng.kernel_size <= 5000:
        assert group_closure_size(H, p) == eng.kernel_size
    return eng


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pattern=sym_patterns(),
    p=st.sampled_from(PRIMES),
    rows=st.integers(1, 7),
    cols=st.integers(1, 7),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_symmetric_patterns_against_reference(pattern, p, rows, cols, seed):
    b = ml.Board.grid(rows, cols, p, pattern=pattern)
    c = _counts(pattern)
    rows_ok = _c1_invertible(c, cols, p)
    cols_ok = _c1_invertible({(dc, dr): k for (dr, dc), k in c.items()}, rows, p)
    reason = sym_reason(b)
    # symmetric left-right by construction; transposed only when up-down symmetric too
    up_down = all(c.get((1, dc), 0) % p == c.get((-1, dc), 0) % p for dc in (-1, 0, 1))
    assert (reason is None) == (rows_ok or (cols_ok and up_down))
    if reason is not None:
        assert "invertible" in reason
        if covers("algebraic-sym-odd", b) is None:  # odd widths, C_1 = b P (test_sym_odd)
            assert ml.Solver(b, method="algebraic").engine in (
                "algebraic-cross",
                "algebraic-sym-odd",
            )
        elif not algebraic_supports(b):
            with pytest.raises(ValueError, match="symmetric 3 x 3 patterns"):
                ml.Solver(b, method="algebraic")
        return
    eng = _check_board(b, np.random.default_rng(seed))
    assert eng.transposed == (p == 2 and not rows_ok)  # the packed solve's (GF(2) only)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pattern=st.sampled_from(["diagonal", RING]),
    p=st.sampled_from(PRIMES),
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
)
def test_diagonal_and_ring(pattern, p, rows, cols, seed):
    b = ml.Board.grid(rows, cols, p, pattern=pattern)
    if sym_reason(b) is not None:
        # diagonal: C_1 = P, singular exactly for odd widths; both sides odd: refused
        if pattern == "diagonal":
            assert rows % 2 and cols % 2
        return
    _check_board(b, np.random.default_rng(seed))


def test_diagonal_odd_width_is_transposed():
    rng = np.random.default_rng(5)
    for p in PRIMES:
        b = ml.Board.grid(6, 5, p, pattern="diagonal")
        eng = _check_board(b, rng)
        assert eng.transposed == (p == 2)  # the packed solve's transposes (GF(2) only)
        assert not SymAlgebraicEngine(ml.Board.grid(5, 6, p, pattern="diagonal")).transposed


def test_refusals_say_why():
    cases = [
        # the diagonal's corners: C_1 singular, and 2 | (7 + 1) / 2 without a centre
        (ml.Board.grid(7, 7, 2, pattern=[(-1, -1), (-1, 1), (1, -1), (1, 1)]), "invertible"),
        (ml.Board.grid(6, 6, 4, pattern="diagonal"), "prime"),
        (ml.Board.grid(6, 6, 2, pattern="diagonal", wrap=True), "tori"),
        (ml.Board.grid(6, 6, 2, pattern="knight"), "3 x 3 box"),
        (ml.Board.grid(6, 6, 2, pattern=[(0, 0), (-1, 1), (1, 1)]), "symmetric"),
    ]
    for b, why in cases:
        assert why in sym_reason(b)
        if b.wrap:  # tori of any pattern are algebraic-torus2's
            assert ml.Solver(b, method="algebraic").plan.engine == "algebraic-torus2"
            continue
        with pytest.raises(ValueError, match="method='algebraic' does not cover"):
            ml.Solver(b, method="algebraic")
    assert "locked" in sym_reason(ml.Board.grid(6, 6, 2, pattern="diagonal", locked=[(0, 0)]))
    assert "holes" in sym_reason(ml.Board.grid(6, 6, 2, pattern="diagonal", holes=[(1, 1)]))


def test_against_chase_and_auto_on_larger_boards():
    rng = np.random.default_rng(11)
    for p, k in ((2, 160), (3, 160), (5, 162), (7, 164)):
        b = ml.Board.grid(k, k, p, pattern="diagonal")
        auto = ml.Solver(b)
        assert auto.plan.engine == "algebraic-sym"
        chase = NativeEngine(b, "chase")
        assert auto.kernel_size == chase.kernel_size
        s = b.apply(np.zeros((k, k), np.uint8), rng.integers(0, p, (k, k), dtype=np.uint8))
        x = auto.solve(s, minimal=False)
        assert not b.apply(s, x.taps).any()
        R = ((p - s.reshape(1, -1).astype(np.int64)) % p).astype(np.uint8)
        assert chase.solve(R)[1][0]
        u = rng.integers(0, p, (k, k), dtype=np.uint8)
        assert auto.solvable(u) == bool(
            chase.solve(((p - u.reshape(1, -1).astype(np.int64)) % p).astype(np.uint8))[1][0]
        )


@pytest.mark.parametrize("k, p, null", [(778, 3, 40), (782, 3, 26), (774, 5, 324), (780, 5, 400)])
def test_diagonal_past_the_fast_thresholds(k, p, null):
    """Boards wide enough for GF(p)'s fast paths (csrc/poly/poly.h, structured/rowrec.h:
    chi by doubling, Newton division, the half-gcd): the kernel size as the chase's, and
    a solution of a solvable start."""
    b = ml.Board.grid(k, k, p, pattern="diagonal")
    auto = ml.Solver(b)
    assert auto.plan.engine == "algebraic-sym"
    assert auto.nullity == null
    assert auto.kernel_size == NativeEngine(b, "chase").kernel_size == p**null
    rng = np.random.default_rng(k)
    s = b.random_state(rng=rng, solvable=True)
    assert not b.apply(s, auto.solve(s, minimal=False).taps).any()


def test_det_pickle_and_small_boards_keep_dense():
    for p in (2, 3, 5):
        b = ml.Board.grid(6, 4, p, pattern=RING)
        if sym_reason(b) is None:
            s = ml.Solver(b, method="algebraic")
            assert s.det() == ml.Solver(b, backend="reference").det()
            eng = pickle.loads(pickle.dumps(s._engine))
            assert eng.kernel_size == s.kernel_size
    from modlights.engines.registry import CROSSOVER_TILES

    side = int(CROSSOVER_TILES["chase"] ** 0.5) - 1  # below the chase's: the dense engine
    assert ml.Solver(ml.Board.grid(side, side, 2, pattern="diagonal")).method == "dense"


def test_symchase_binding_checks_arguments():
    SymChase(3, 4, 2, [0, 1, 0], [1, 0, 1])
    with pytest.raises(ValueError, match="singular"):
        SymChase(3, 5, 2, [0, 1, 0], [1, 0, 1])
    with pytest.raises(ValueError, match="prime"):
        SymChase(3, 4, 4, [0, 1, 0], [1, 0, 1])
    with pytest.raises(ValueError, match="3 counts"):
        SymChase(3, 4, 2, [0, 1], [1, 0, 1])
    c = SymChase(3, 4, 3, [0, 1, 0], [1, 0, 1])
    with pytest.raises(ValueError, match="shape"):
        c.chase(np.zeros((4, 3), np.uint8))
    with pytest.raises(ValueError, match="below 3"):
        c.chase(np.full((3, 4), 3, np.uint8))
    with pytest.raises(ValueError, match="entries"):
        c.chase(np.zeros((3, 4), np.uint8), z=np.zeros(3, np.uint8))
