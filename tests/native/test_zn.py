"""ZnEngine (csrc/zn.c) against the reference engine and brute force, n = 3..255."""

import itertools
from math import gcd, prod

import numpy as np
import pytest

import modlights as ml
from modlights.engines.reference import ReferenceEngine
from modlights.native._core import ZnEngine
from modlights.solver import Solver

MODULI = [3, 4, 5, 6, 7, 8, 9, 12, 16, 25, 255]


def _nonunits(n):
    return [x for x in range(n) if gcd(x, n) > 1]


def random_matrix(rng, n, m, r, kind):
    """Matrices of many ranks and shapes: dense, sparse, low rank, non-unit heavy,
    with zero rows / columns."""
    if m == 0 or r == 0:
        return np.zeros((m, r), dtype=np.int64)
    if kind == "dense":
        a = rng.integers(0, n, (m, r))
    elif kind == "sparse":
        a = (rng.random((m, r)) < 0.25) * rng.integers(0, n, (m, r))
    elif kind == "lowrank":
        k = int(rng.integers(0, min(m, r) + 1))
        a = rng.integers(0, n, (m, k)) @ rng.integers(0, n, (k, r)) % n
    elif kind == "nonunit":
        a = rng.choice(_nonunits(n), (m, r))
    elif kind == "mixed":
        a = rng.integers(0, n, (m, r))
        nu = _nonunits(n)
        mask = rng.random((m, r)) < 0.7
        a[mask] = rng.choice(nu, int(mask.sum()))
    elif kind == "zerolines":
        a = rng.integers(0, n, (m, r))
        a[rng.random(m) < 0.3] = 0
        a[:, rng.random(r) < 0.3] = 0
    else:
        raise AssertionError(kind)
    return np.asarray(a, dtype=np.int64) % n


KINDS = ["dense", "sparse", "lowrank", "nonunit", "mixed", "zerolines"]


def check_against_reference(a, n, rng, eng=None):
    a = np.asarray(a, dtype=np.int64)
    m, r = a.shape
    ref = ReferenceEngine(a, n)
    z = eng if eng is not None else ZnEngine(a, n)
    assert z.kernel_size == ref.kernel_size
    H, orders = z.generators()
    _, rorders = ref.generators()
    assert H.dtype == np.uint8 and H.shape == (len(orders), r)
    assert sorted(orders) == sorted(rorders)
    assert prod(orders) == z.kernel_size
    Hi = H.astype(np.int64)
    assert not (a @ Hi.T % n).any(), "a generator is not in the kernel"
    for h, o in zip(Hi, orders):
        assert not (h * o % n).any()
        for p in {d for d in range(2, o + 1) if o % d == 0 and all(d % s for s in range(2, d))}:
            assert (h * (o // p) % n).any(), "generator order is smaller than claimed"
    # right-hand sides: half in the image, half random
    k = 6
    R = rng.integers(0, n, (k, m))
    if r:
        R[: k // 2] = (a @ rng.integers(0, n, (r, k // 2))).T % n
    X, ok = z.solve(R)
    _, rok = ref.solve(R)
    assert X.dtype == np.uint8 and X.shape == (k, r)
    assert (ok == rok).all()
    assert ok[: k // 2].all() or r == 0
    res = (a @ X.T.astype(np.int64) - R.T) % n
    assert not res[:, ok].any()
    assert not X[~ok].any()
    if m == r:
        assert z.det() == ref.det()
        try:
            rinv = ref.inverse()
        except ValueError:
            rinv = None
        if rinv is None:
            with pytest.raises(ValueError):
                z.inverse()
        else:
            inv = z.inverse().astype(np.int64)
            assert (inv == rinv).all()
            assert ((a @ inv) % n == np.eye(m, dtype=np.int64)).all()
            assert ((inv @ a) % n == np.eye(m, dtype=np.int64)).all()
    else:
        with pytest.raises(ValueError):
            z.det()
        with pytest.raises(ValueError):
            z.inverse()
    try:
        ref.pseudo_inverse()
        has = True
    except ValueError:
        has = False
    if has:
        G = z.pseudo_inverse().astype(np.int64)
        assert G.shape == (r, m)
        assert not ((a @ G @ a - a) % n).any()
    else:
        with pytest.raises(ValueError):
            z.pseudo_inverse()
    return z


@pytest.mark.parametrize("n", MODULI)
def test_random_matrices(n):
    rng = np.random.default_rng(1000 + n)
    shapes = [
        (0, 0),
        (0, 3),
        (3, 0),
        (1, 1),
        (1, 5),
        (5, 1),
        (4, 4),
        (6, 6),
        (3, 7),
        (7, 3),
        (9, 9),
        (12, 8),
        (8, 12),
        (17, 17),
    ]
    for m, r in shapes:
        for kind in KINDS:
            check_against_reference(random_matrix(rng, n, m, r, kind), n, rng)


@pytest.mark.parametrize("n", [3, 4, 6, 8, 9, 12, 16, 25, 255])
def test_larger_random_matrices(n):
    rng = np.random.default_rng(2000 + n)
    for m, r in [(40, 40), (30, 50), (50, 30)]:
        for kind in ["dense", "mixed", "lowrank"]:
            check_against_reference(random_matrix(rng, n, m, r, kind), n, rng)


def _brute(a, n):
    """Kernel elements and the image, by enumeration."""
    m, r = a.shape
    ker, image = [], set()
    for x in itertools.product(range(n), repeat=r):
        y = tuple(int(v) for v in a @ np.array(x, dtype=np.int64) % n) if r else (0,) * m
        image.add(y)
        if not any(y):
            ker.append(x)
    return ker, image


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8, 9, 12])
def test_brute_force_and_closure(n):
    rng = np.random.default_rng(3000 + n)
    for trial in range(12):
        m, r = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        if n**r > 2000:
            r = 2
        a = random_matrix(rng, n, m, r, KINDS[trial % len(KINDS)])
        z = ZnEngine(a, n)
        ker, image = _brute(a, n)
        assert z.kernel_size == len(ker)
        # closure: the generators' combinations are |ker| distinct kernel elements
        H, orders = z.generators()
        H = H.astype(np.int64)
        group = set()
        for coeffs in itertools.product(*[range(o) for o in orders]):
            x = np.zeros(r, dtype=np.int64)
            for c, h in zip(coeffs, H):
                x = x + c * h
            group.add(tuple(int(v) for v in x % n))
        assert len(group) == prod(orders) == len(ker)
        assert group == set(ker)
        # solvability of every right-hand side
        allb = np.array(list(itertools.product(range(n), repeat=m)), dtype=np.int64)
        X, ok = z.solve(allb)
        assert [tuple(b) in image for b in allb.tolist()] == ok.tolist()
        assert not ((a @ X.T.astype(np.int64) - allb.T) % n)[:, ok].any()


@pytest.mark.parametrize("n", MODULI)
def test_boards_with_locks_holes_wrap(n):
    rng = np.random.default_rng(4000 + n)
    for trial in range(6):
        rows, cols = int(rng.integers(1, 8)), int(rng.integers(1, 8))
        pattern = ["cross", "diagonal", "square", "knight", "horizontal", "vertical"][trial]
        locked = rng.random((rows, cols)) < 0.15
        holes = (rng.random((rows, cols)) < 0.15) & ~locked
        b = ml.Board.grid(rows, cols, n, pattern, locked=locked, holes=holes, wrap=bool(trial % 2))
        ci, tj = b.coo()
        z = ZnEngine.from_coo(b.n_cells, b.n_taps, ci, tj, n)
        check_against_reference(b.matrix(), n, rng, eng=z)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8, 9])
def test_cross_boards_band(n):
    """Band elimination on bigger grid boards (k x k cross) against the reference."""
    rng = np.random.default_rng(5000 + n)
    for k in (5, 9, 12):
        b = ml.Board.grid(k, k, n, "cross")
        ci, tj = b.coo()
        z = ZnEngine.from_coo(b.n_cells, b.n_taps, ci, tj, n)
        check_against_reference(b.matrix(), n, rng, eng=z)


def test_solver_routes_native():
    b = ml.Board.grid(4, 5, 3, "cross", locked=[(0, 0)], holes=[(3, 4)])
    s = Solver(b)
    assert s.engine == "dense-zn"
    assert Solver(b, backend="reference").engine == "reference"
    assert Solver(ml.Board.grid(3, 3, 2)).engine != "dense-zn"  # n = 2: the GF(2) engine
    m = ml.Board.from_matrix([[2, 0], [0, 3]], 4)
    assert Solver(m).engine == "dense-zn"
    assert Solver(m).det() == 2
    with pytest.raises(ValueError):
        Solver(ml.Board.from_matrix([[2]], 4)).pseudo_inverse()
    rng = np.random.default_rng(7)
    for n in (3, 4, 6):
        b = ml.Board.grid(5, 5, n, "cross", wrap=True)
        s, sr = Solver(b), Solver(b, backend="reference")
        assert s.kernel_size == sr.kernel_size
        assert s.nullity == sr.nullity
        states = np.stack([b.random_state(rng) for _ in range(4)])
        taps = s.solve_many(states)
        for st, t in zip(states, taps):
            assert not b.apply(st, t).any()
        assert s.solve(states[0]).length == sr.solve(states[0]).length


def test_bad_input_is_value_error():
    with pytest.raises(ValueError):
        ZnEngine(np.zeros((2, 2), np.uint8), 1)
    with pytest.raises(ValueError):
        ZnEngine(np.zeros((2, 2), np.uint8), 256)
    with pytest.raises(ValueError):
        ZnEngine(np.zeros(4, np.uint8), 3)
    with pytest.raises(ValueError):
        ZnEngine(np.zeros((2, 2), float), 3)
    with pytest.raises(ValueError):
        ZnEngine.from_coo(2, 2, [0, 2], [0, 0], 3)
    with pytest.raises(ValueError):
        ZnEngine.from_coo(2, 2, [0, -1], [0, 0], 3)
    with pytest.raises(ValueError):
        ZnEngine.from_coo(2, 2, [0, 1], [0, 5], 3)
    with pytest.raises(ValueError):
        ZnEngine.from_coo(2, 2, [0, 1], [0], 3)
    z = ZnEngine(np.eye(3, dtype=np.uint8), 5)
    with pytest.raises(ValueError):
        z.solve(np.zeros((2, 4), np.int64))
    with pytest.raises(ValueError):
        z.solve(np.zeros(3, np.int64))
    X, ok = z.solve(np.array([[-1, 7, 300]]))
    assert ok[0] and X.tolist() == [[4, 2, 0]]


def test_from_coo_repeats_add_up():
    # entry (0, 0) appears n + 1 times -> 1 mod n
    for n in (3, 4, 255):
        ci = [0] * (n + 1) + [1, 1]
        tj = [0] * (n + 1) + [1, 1]
        z = ZnEngine.from_coo(2, 2, ci, tj, n)
        assert z.det() == 2 % n


@pytest.mark.heavy  # 13 CPU s: the reference engine on a 420 x 420 matrix (t-zn-blocked
# tests the blocked panels in C in the default run)
def test_wide_dense_blocked_path():
    """Wide enough (active width > 384 columns) for the cache-blocked panels."""
    rng = np.random.default_rng(6000)
    n, N = 12, 420
    a = rng.integers(0, n, (N, N))
    mask = rng.random((N, N)) < 0.6
    a[mask] = rng.choice(_nonunits(n), int(mask.sum()))
    a[:, 5] = a[:, 7] * 2 % n  # a few dependent columns
    check_against_reference(a, n, rng)
    # the parts mod 3 and 4 of a dense matrix go bit-sliced by default: the band again
    check_against_reference(a, n, rng, eng=ZnEngine(a, n, method="band"))


@pytest.mark.parametrize("n", [4, 8, 9, 12, 16, 25])
def test_ring_boards_with_nonunit_columns(n):
    """Band boards whose columns are partly scaled by non-units: many skipped columns,
    the sparse skipped-entry path of the ring elimination."""
    rng = np.random.default_rng(7000 + n)
    nu = [x for x in range(2, n) if gcd(x, n) > 1]
    for pattern in ("cross", "horizontal", "square"):
        b = ml.Board.grid(10, 11, n, pattern, wrap=pattern == "horizontal")
        a = b.matrix().astype(np.int64)
        cols = rng.random(a.shape[1]) < 0.3
        a[:, cols] = a[:, cols] * int(rng.choice(nu)) % n
        ci, tj = np.nonzero(a)
        reps = a[ci, tj]
        z = ZnEngine.from_coo(a.shape[0], a.shape[1], np.repeat(ci, reps), np.repeat(tj, reps), n)
        check_against_reference(a, n, rng, eng=z)
