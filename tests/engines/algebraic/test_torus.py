"""Tori of the cross family by polynomial algebra (csrc/engines/torus.c, through the
Engine adapter modlights.engines.native) against the reference engine, the chase, the
independent nullity of the oracle torus_oracle.torus_nullity (invariant factors over
GF(p)[s]) and Board.apply."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import modlights as ml
from engines.algebraic.torus_oracle import torus_nullity as _torus_nullity
from modlights.engines.native import NativeEngine, covers


def algebraic_reason(b):
    """None when the C algebraic engine of b's kind (a torus or not) covers b."""
    return covers("algebraic-torus" if b.is_grid and b.wrap else "algebraic-cross", b)


def AlgebraicEngine(b):
    """The C algebraic engine of b's kind through the Engine adapter."""
    return NativeEngine(b, "algebraic-torus" if b.wrap else "algebraic-cross")


PRIMES = [2, 3, 5, 7]
#: (0,0), (0,+1), (0,-1), (-1,0), (+1,0): the order of AlgebraicEngine._offset_counts
OFFSETS = [(0, 0), (0, 1), (0, -1), (-1, 0), (1, 0)]


def _pattern(counts) -> list:
    return [o for o, k in zip(OFFSETS, counts) for _ in range(k)]


def _rank_mod(H: np.ndarray, p: int) -> int:
    """Rank of the rows of H over GF(p) by plain elimination (k rows, k small)."""
    A = H.astype(np.int64) % p
    rank = 0
    for col in range(A.shape[1]):
        if rank == A.shape[0]:
            break
        piv = np.flatnonzero(A[rank:, col])
        if piv.size == 0:
            continue
        i = rank + piv[0]
        A[[rank, i]] = A[[i, rank]]
        A[rank] = A[rank] * pow(int(A[rank, col]), p - 2, p) % p
        below = A[:, col].copy()
        below[rank] = 0
        A = (A - np.outer(below, A[rank])) % p
        rank += 1
    return rank


@st.composite
def tori(draw, min_side=3, max_side=12):
    """A covered torus: p in 2..7, any counts 0..3 of the five offsets."""
    p = draw(st.sampled_from(PRIMES))
    counts = draw(st.lists(st.integers(0, 3), min_size=5, max_size=5))
    rows = draw(st.integers(min_side, max_side))
    cols = draw(st.integers(min_side, max_side))
    b = ml.Board.grid(rows, cols, states=p, pattern=_pattern(counts), wrap=True)
    assume(algebraic_reason(b) is None)
    return b, draw(st.integers(0, 2**32 - 1))


def _oracle_nullity(b: ml.Board) -> int:
    """dim ker A of the torus b by the oracle, in the chase's orientation: transposed
    when (-1, 0) has no unit count or the torus has fewer than 3 rows."""
    p, (rows, cols) = b.states, b.shape
    counts: dict = {}
    for o in b.pattern:
        counts[tuple(o)] = counts.get(tuple(o), 0) + 1
    if counts.get((-1, 0), 0) % p == 0 or rows < 3:
        counts = {(dc, dr): k for (dr, dc), k in counts.items()}
        rows, cols = cols, rows
    c = [counts.get(o, 0) for o in ((0, 0), (0, 1), (0, -1), (-1, 0), (1, 0))]
    return _torus_nullity(rows, cols, p, *c)


def _check_against_reference(b: ml.Board, seed: int) -> AlgebraicEngine:
    """Every answer of the algebraic engine on the torus b against the reference engine,
    the chase and _torus_nullity; returns the engine."""
    n = b.states
    rng = np.random.default_rng(seed)
    eng = AlgebraicEngine(b)
    assert eng.name == "algebraic-torus"
    ref = ml.Solver(b, backend="reference")
    chase = NativeEngine(b, "chase")
    nt = _oracle_nullity(b)
    assert eng.nullity == ref.nullity == chase.nullity == nt
    assert eng.kernel_size == ref.kernel_size
    H, orders = eng.generators()
    assert H.shape == (eng.nullity, b.n_taps) and orders == [n] * eng.nullity
    for x in H:
        assert not b.apply_vector(x).any()
    assert _rank_mod(H, n) == eng.nullity  # independent: they span ker A
    states = [b.random_state(rng=rng, solvable=bool(i % 2)) for i in range(4)]
    R = np.stack([b._rhs_cells(s, 0) for s in states])
    X, ok = eng.solve(R)
    Xc, okc = chase.solve(R)
    assert np.array_equal(ok, okc)
    for s, x, good in zip(states, X, ok):
        assert good == ref.solvable(s)
        if good:
            assert not b.apply(s, x.reshape(b.shape)).any()
        else:
            assert not x.any()
    # one at a time too (the k == 1 path)
    for s, good in zip(states, ok):
        x1, ok1 = eng.solve(b._rhs_cells(s, 0)[None, :])
        assert ok1[0] == good
        if good:
            assert not b.apply(s, x1[0].reshape(b.shape)).any()
    return eng


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tori())
@example((ml.Board.grid(6, 8, states=2, pattern="cross", wrap=True), 1))  # s^8 - 1 = (s+1)^8
@example((ml.Board.grid(5, 9, states=3, pattern="cross", wrap=True), 2))  # (s-1)^9 over GF(3)
@example((ml.Board.grid(10, 10, states=5, pattern="cross", wrap=True), 3))
@example((ml.Board.grid(7, 7, states=7, pattern=[(0, 0), (-1, 0), (-1, 0), (1, 0)], wrap=True), 4))
def test_torus_equals_reference_and_chase(case):
    b, seed = case
    _check_against_reference(b, seed)


# widths where s^w - 1 has repeated factors (w divisible by p) and where it does not
REPEATED = [
    (2, 3, 4),
    (2, 4, 12),
    (2, 5, 6),
    (3, 4, 3),
    (3, 6, 9),
    (3, 12, 6),
    (5, 5, 10),
    (7, 3, 7),
    (2, 7, 7),
    (3, 5, 8),
    (5, 4, 4),
    (7, 9, 11),
]


@pytest.mark.parametrize("p,rows,cols", REPEATED)
@pytest.mark.parametrize(
    "counts", [(1, 1, 1, 1, 1), (0, 1, 1, 1, 1), (2, 1, 0, 1, 3), (1, 0, 0, 1, 1), (0, 3, 1, 2, 0)]
)
def test_repeated_factor_widths(p, rows, cols, counts):
    b = ml.Board.grid(rows, cols, states=p, pattern=_pattern(counts), wrap=True)
    if algebraic_reason(b) is not None:
        pytest.skip("not covered (no unit count along either direction)")
    _check_against_reference(b, p * rows * cols)


@settings(max_examples=40, deadline=None)
@given(tori(min_side=3, max_side=8), st.integers(0, 2**32 - 1))
def test_target_and_solve_many_through_solver(case, seed2):
    b, seed = case
    rng = np.random.default_rng(seed ^ seed2)
    alg = ml.Solver(b, method="algebraic")
    ref = ml.Solver(b, backend="reference")
    assert alg.engine.startswith("algebraic-")
    target = rng.integers(0, b.states, size=b.shape)
    states = np.stack([b.random_state(rng=rng, solvable=bool(i % 2)) for i in range(5)])
    ok = ref.solvable_many(states, target)
    assert np.array_equal(alg.solvable_many(states, target), ok)
    for s, good in zip(states, ok):
        if good:
            sol = alg.solve(s, target)
            assert np.array_equal(b.apply(s, sol.taps), b.coerce_target(target))
            if sol.proven_minimal:
                rsol = ref.solve(s, target)
                if rsol.proven_minimal:
                    assert sol.length == rsol.length
        else:
            with pytest.raises(ml.Unsolvable):
                alg.solve(s, target)


@pytest.mark.parametrize(
    "p,rows,cols",
    [(2, 64, 60), (3, 64, 60), (5, 30, 45)]
    # 1-4 CPU s each: the chase of 40000 tiles
    + [pytest.param(p, 200, 200, marks=pytest.mark.matrix) for p in (2, 3)]
    + [(2, 96, 90), (7, 49, 56)],
)
def test_larger_tori_against_chase(p, rows, cols):
    b = ml.Board.grid(rows, cols, states=p, pattern="cross", wrap=True)
    rng = np.random.default_rng(rows * cols + p)
    eng = AlgebraicEngine(b)
    chase = NativeEngine(b, "chase")
    assert eng.nullity == chase.nullity == _oracle_nullity(b)
    states = [b.random_state(rng=rng, solvable=True), b.random_state(rng=rng, solvable=False)]
    R = np.stack([b._rhs_cells(s, 0) for s in states])
    X, ok = eng.solve(R)
    _, okc = chase.solve(R)
    assert np.array_equal(ok, okc) and ok[0]
    for s, x, good in zip(states, X, ok):
        if good:
            assert not b.apply(s, x.reshape(b.shape)).any()
    H, _ = eng.generators()
    for x in H:
        assert not b.apply_vector(x).any()
    assert _rank_mod(H, p) == eng.nullity


def test_singular_torus_kernel_and_unsolvable():
    """64 x 60 over GF(2) has a large kernel; a start off the image is refused."""
    b = ml.Board.grid(64, 60, states=2, pattern="cross", wrap=True)
    s = ml.Solver(b, method="algebraic")
    assert s.nullity > 0
    ref = ml.Solver(b, method="dense")
    assert s.nullity == ref.nullity
    rng = np.random.default_rng(3)
    t = b.random_state(rng=rng, solvable=False)
    assert not ref.solvable(t) and not s.solvable(t)
    with pytest.raises(ml.Unsolvable):
        s.solve(t, minimal=False)


def test_transposed_torus():
    """No unit count on (-1, 0) (or fewer than 3 rows): the torus is chased down its
    columns."""
    for rows, cols, pattern in [
        (5, 7, [(0, 0), (0, -1), (0, 1), (1, 0)]),
        (2, 6, "cross"),
        (1, 5, "cross"),
        (6, 4, "horizontal"),
    ]:
        b = ml.Board.grid(rows, cols, states=3, pattern=pattern, wrap=True)
        assert algebraic_reason(b) is None
        _check_against_reference(b, rows + cols)


def test_auto_picks_algebraic_for_large_tori():
    from modlights.engines.registry import CROSSOVER_TILES

    TORUS_ALGEBRAIC_MIN_TILES = CROSSOVER_TILES["algebraic-torus"]
    k = int(TORUS_ALGEBRAIC_MIN_TILES**0.5) + 1
    b = ml.Board.grid(k, k, states=3, pattern="cross", wrap=True)
    assert ml.Solver(b).method == "algebraic"
    assert ml.Solver(ml.Board.grid(k - 2, k - 2, states=3, wrap=True)).method == "chase"
    assert ml.Solver(ml.Board.grid(5, 5, pattern="cross", wrap=True)).method != "algebraic"


def test_pickle_after_use():
    import copy
    import pickle

    b = ml.Board.grid(12, 10, states=5, pattern="cross", wrap=True)
    s = ml.Solver(b, method="algebraic")
    st0 = b.random_state(rng=2)
    x = s.solve(st0, minimal=False).taps
    for s2 in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert np.array_equal(s2.solve(st0, minimal=False).taps, x)


@pytest.mark.parametrize("p,side", [(2, 20000), (3, 3000), (5, 2048)])
def test_large_torus_nullity_without_taps(p, side):
    """Only the nullity: the chases keep O(w) rows (no h x w taps), and agree with the
    invariant factors of _torus_nullity."""
    b = ml.Board.grid(side, side, states=p, wrap=True)
    s = ml.Solver(b)
    assert s.method == "algebraic"
    assert s.nullity == _torus_nullity(side, side, p, 1, 1, 1, 1, 1)


def test_large_torus_det_names_the_method_asked_for():
    """det of a torus over p > 2 with a trivial kernel is the registry's dense fallback
    (not the torus algebra's): past DENSE_FALLBACK entries it is refused naming the
    method the Solver was given, as inverse is (it named the chase before)."""
    s = ml.Solver(ml.Board.grid(131, 131, states=3, wrap=True))
    assert s.plan.engine == "algebraic-torus" and s.nullity == 0
    for question in (s.det, s.inverse, s.pseudo_inverse):
        with pytest.raises(ValueError, match=r"not available with method='algebraic' on a board"):
            question()
