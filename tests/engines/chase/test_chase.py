"""The chase (generalised light chasing: the C library's engines through
modlights.engines.native) against the dense reference engine; its solve path (uint8
states read in place, no masks built, no wide temporaries). The C plan itself (symbolic
chase, residual matrices, numeric replay, the mirror, the rows of forcing codes kept) is
checked in C against the tap matrix: csrc/tests/t-plan.c, t-numeric.c, t-symbolic.c,
t-runner.c."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from chase_oracle import light_plan_along
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.cli.workloads import bench_large
from modlights.engines.native import NativeEngine, covers
from modlights.engines.reference import ReferenceEngine
from strategies import chase_boards
from suite_groups import sample

NAMES = sorted(ml.PATTERNS)


def _stored_masks(b):
    """The names of the masks a board has built (lazily, on first use)."""
    return sorted(k for k in vars(b) if k.startswith("_mask_"))


def _target(b, rng, kind):
    if kind == 0:
        return 0
    if kind == 1:
        return 1
    return rng.integers(0, b.states, size=b.shape)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chase_boards(), st.integers(0, 2))
def test_chase_equals_dense(case, tkind):
    b, seed = case
    n = b.states
    rng = np.random.default_rng(seed)
    A = b.matrix().astype(np.int64)
    dense = ReferenceEngine(b.matrix(), n)
    chase = NativeEngine(b, "chase")
    # structure: same |ker A|, same number of generators, generators in the kernel
    assert chase.kernel_size == dense.kernel_size
    H, orders = chase.generators()
    Hd, orders_d = dense.generators()
    assert sorted(orders) == sorted(orders_d)
    assert H.shape == (len(orders), b.n_taps)
    assert not (A @ H.T.astype(np.int64) % n).any()
    for h, o in zip(H.astype(np.int64), orders):
        assert not (h * o % n).any()  # order divides o
        if o > 1:
            for d in range(1, o):
                if o % d == 0 and d < o:
                    assert (h * d % n).any()  # exact order o
    # solving: same solvability, valid solutions (checked by direct application)
    for solvable in (True, False, True):
        state = b.random_state(rng=rng, solvable=solvable)
        target = _target(b, rng, tkind)
        t = b.coerce_target(target)
        rhs = (b.cell_vector(t).astype(np.int64) - b.cell_vector(b.coerce_state(state))) % n
        X, ok = chase.solve(rhs[None, :])
        _, ok_d = dense.solve(rhs[None, :])
        assert bool(ok[0]) == bool(ok_d[0])
        if ok[0]:
            taps = b.from_tap_vector(X[0])
            assert (b.apply(state, taps) == t).all()


@settings(max_examples=40, deadline=None)
@given(chase_boards(max_side=8), st.integers(0, 2))
def test_solver_method_chase_matches_dense(case, tkind):
    b, seed = case
    rng = np.random.default_rng(seed)
    sc = ml.Solver(b, method="chase")
    sd = ml.Solver(b, backend="reference")
    assert sc.engine.startswith("chase-") and sd.engine == "reference"
    assert sc.kernel_size == sd.kernel_size
    assert sc.nullity == sd.nullity
    state = b.random_state(rng=rng, solvable=True)
    target = _target(b, rng, tkind)
    t = b.coerce_target(target)
    assert sc.solvable(state, target) == sd.solvable(state, target)
    if sd.solvable(state, target):
        xc = sc.solve(state, target, minimal=True, budget=1 << 14)
        xd = sd.solve(state, target, minimal=True, budget=1 << 14)
        assert (b.apply(state, xc.taps) == t).all()
        if xc.proven_minimal and xd.proven_minimal:
            assert xc.length == xd.length


def test_classic_nullities_by_chase():
    assert ml.Solver(ml.Board.grid(5, 5), method="chase").nullity == 2
    assert ml.Solver(ml.Board.grid(4, 4), method="chase").nullity == 4
    assert (
        ml.Solver(ml.Board.grid(5, 5, wrap=True), method="chase").kernel_size
        == ml.Solver(ml.Board.grid(5, 5, wrap=True), method="dense").kernel_size
    )


def test_300x300_gf2_cross_verified_by_application():
    b = ml.Board.grid(300, 300)
    state = b.random_state(rng=7)
    s = ml.Solver(b, method="chase")
    sol = s.solve(state, minimal=False)
    assert not b.apply(state, sol.taps).any()


def test_large_z3_z4_verified_by_application():
    for n in (3, 4):
        b = ml.Board.grid(120, 90, states=n, locked=[(5, 5), (60, 3)], holes=[(7, 7)])
        state = b.random_state(rng=n)
        sol = ml.Solver(b, method="chase").solve(state, minimal=False)
        assert not b.apply(state, sol.taps).any()


def test_auto_routing():
    from modlights.engines.registry import CROSSOVER_TILES

    # (knight: the structured engines take the cross family, the symmetric and the
    # product patterns on zero boundaries; the knight is the chase's)
    small = ml.Board.grid(3, 3, pattern="knight")
    big = ml.Board.grid(30, 30, pattern="knight")
    assert ml.Solver(small).method == "dense"
    assert ml.Solver(big).method == "chase"
    # the reference backend routes every board it takes to its dense engine
    assert ml.Solver(ml.Board.grid(12, 12, pattern="square"), backend="reference").method == "dense"
    side = int(CROSSOVER_TILES["chase"] ** 0.5)  # the chase's crossover with dense
    for n in (3, 4, 6):  # fields and rings cross over at the same size
        above = ml.Board.grid(side + 1, side + 1, states=n, pattern="knight")
        below = ml.Board.grid(side - 1, side - 1, states=n, pattern="knight")
        assert ml.Solver(above).method == "chase"
        assert ml.Solver(below).method == "dense"
    g = ml.Board.from_effects([[0, 1], [1]], 2)
    assert ml.Solver(g).method == "dense"


def test_bad_method():
    b = ml.Board.grid(3, 3)
    with pytest.raises(ValueError, match="method"):
        ml.Solver(b, method="fast")
    with pytest.raises(ValueError, match="grid"):
        ml.Solver(ml.Board.from_effects([[0]], 2), method="chase")


def test_dense_only_queries_on_chase():
    b = ml.Board.grid(3, 3, states=3)
    sc, sd = ml.Solver(b, method="chase"), ml.Solver(b, method="dense")
    assert sc.det() == sd.det()
    assert (sc.inverse() == sd.inverse()).all()
    huge = ml.Solver(ml.Board.grid(400, 400), method="chase")
    with pytest.raises(ValueError, match="method='dense'"):
        huge.inverse()


@pytest.mark.heavy  # 1.5 CPU s: a bench table of 16 x 16 and 8 x 12 boards
def test_bench_large_rows():
    rows = bench_large([16, (8, 12)], n=3, repeats=1)
    assert [r[0] for r in rows] == ["16x16", "8x12"]
    assert all(r[1] == 3 and r[2] == "cross" and r[3] > 0 for r in rows)


@pytest.mark.parametrize(
    "n,pattern",
    sample(
        [
            (n, p)
            for n in (2, 3, 4, 6)
            for p in NAMES + [[(0, 0), (2, 1), (-1, -2)], [(1, 0), (0, 1)]]
        ],
        3,
        unpack=True,
    ),
)
def test_medium_uniform_boards_equal_dense(pattern, n):
    """Boards large enough for the interior fast paths of the chase."""
    rng = np.random.default_rng(n)
    b = ml.Board.grid(14, 17, states=n, pattern=pattern)
    _check_against_reference(b, NativeEngine(b, "chase"), rng)


def _check_against_reference(b, chase, rng):
    """Same |ker A| as the reference engine, generators in the kernel, same
    solvability, and solutions that solve the board when applied."""
    n = b.states
    dense = ReferenceEngine(b.matrix(), n)
    assert chase.kernel_size == dense.kernel_size
    H, _ = chase.generators()
    assert not (b.matrix().astype(np.int64) @ H.T.astype(np.int64) % n).any()
    for solvable in (True, False):
        state = b.random_state(rng=rng, solvable=solvable)
        rhs = (-b.cell_vector(b.coerce_state(state)).astype(np.int64)) % n
        X, ok = chase.solve(rhs[None, :])
        assert bool(ok[0]) == bool(dense.solve(rhs[None, :])[1][0])
        if ok[0]:
            assert not b.apply(state, b.from_tap_vector(X[0])).any()


@pytest.mark.parametrize("pattern", NAMES)
@pytest.mark.parametrize("n", [2, 3, 5])
def test_large_boards_verified_by_application(pattern, n):
    b = ml.Board.grid(150, 130, states=n, pattern=pattern)
    state = b.random_state(rng=1)
    sol = ml.Solver(b, method="chase").solve(state, minimal=False)
    assert not b.apply(state, sol.taps).any()


def test_auto_falls_back_when_the_chase_cannot_take_the_board():
    MAX_CHASE_OFFSETS = 4096  # the chase's cap on distinct offsets (csrc/api/registry_own.c)
    big1 = [(dr, dc) for dr in range(-40, 40) for dc in range(-40, 40)][:MAX_CHASE_OFFSETS]
    big2 = [(dr, dc) for dr in range(-40, 40) for dc in range(40, 120)][:MAX_CHASE_OFFSETS]
    pattern = [["cross"] * 8 for _ in range(8)]
    pattern[0][0], pattern[7][7] = big1, big2
    b = ml.Board.grid(8, 8, states=2, pattern=pattern)
    assert covers("chase", b) == f"its patterns use more than {MAX_CHASE_OFFSETS} distinct offsets"
    assert ml.Solver(b).method == "dense"
    with pytest.raises(ValueError, match="dense"):
        ml.Solver(b, method="chase")


@pytest.mark.slow
@pytest.mark.parametrize("side,n", [(1000, 2), (2000, 2), (1000, 3), (1000, 4)])
def test_target_boards_verified_by_application(side, n):
    rows = bench_large([side], n=n, repeats=1)  # checks by Board.apply itself
    assert rows[0][0] == f"{side}x{side}"


@pytest.mark.parametrize(
    "pattern,n",
    sample(
        [
            (p, n)
            for p in ("cross", "knight", "square", [(0, 0), (0, 1), (1, -1)])
            for n in (2, 3, 4)
        ],
        3,
        unpack=True,
    ),
)
def test_wide_boards_chase_along_columns(n, pattern):
    rng = np.random.default_rng(n)
    locked = rng.random((4, 60)) < 0.05
    b = ml.Board.grid(4, 60, states=n, pattern=pattern, locked=locked)
    # the chase runs along the columns when they give fewer symbols (which it takes:
    # csrc/tests/t-engines-chase.c, wider-than-tall boards; the choice of the variant:
    # tests/native/test_capi_chase.py); here its answers
    if pattern == "cross":
        assert light_plan_along(b, transposed=True).nsym < 10 < light_plan_along(b).nsym
    _check_against_reference(b, NativeEngine(b, "chase"), rng)


# ---------------------------------------------------------------- the solve path
def test_chase_solve_builds_no_masks():
    b = ml.Board.grid(120, 90, states=3)
    start = b.random_state(rng=3)
    sol = ml.Solver(b, method="chase").solve(start, minimal=False)
    assert _stored_masks(b) == []
    assert not b.apply(start, sol.taps).any()


@pytest.mark.parametrize("n", [2, 3, 4, 131])
@pytest.mark.parametrize("kind", ["plain", "locks", "holes", "both"])
def test_chase_solve_same_taps_for_every_input_form(n, kind):
    rows, cols = 23, 17
    rng = np.random.default_rng(n)
    u = rng.random((rows, cols))
    holes = (u < 0.1) if kind in ("holes", "both") else None
    locked = (u > 0.9) if kind in ("locks", "both") else None
    b = ml.Board.grid(rows, cols, states=n, locked=locked, holes=holes)
    s = ml.Solver(b, method="chase")
    dense = ml.Solver(b, method="dense")
    for target in (0, 1, rng.integers(0, n, size=(rows, cols))):
        start = b.random_state(rng=rng)
        t = b.coerce_target(target)
        start = b.coerce_state(start.astype(np.int64) + t)  # solvable to target
        forms = [
            start,
            start.astype(np.int64),
            start.astype(np.int64) - 5 * n,
            start.astype(np.uint16) + n,
            start.tolist(),
        ]
        if n <= 127:
            forms.append((start + n).astype(np.uint8))  # uint8 out of range
        if holes is not None:
            junk = start.copy()
            junk[holes] = 1  # ignored at holes
            forms.append(junk)
        sols = [s.solve(f, target, minimal=False) for f in forms]
        for sol in sols:
            assert sol.taps.dtype == np.uint8 and sol.taps.shape == (rows, cols)
            assert np.array_equal(b.apply(start, sol.taps), t)
            assert np.array_equal(sol.taps, sols[0].taps)
            assert sol.length == int(sol.taps.astype(np.int64).sum())
        d = dense.solve(start, target, minimal=False)
        assert np.array_equal(b.apply(start, d.taps), t)
        if locked is not None:
            assert not sols[0].taps[locked].any()
        if holes is not None:
            assert not sols[0].taps[holes].any()


@pytest.mark.parametrize("n", [2, 3])
def test_chase_solve_leaves_the_state_alone_and_owns_its_taps(n):
    b = ml.Board.grid(30, 30, states=n)
    start = b.random_state(rng=1)
    keep = start.copy()
    s = ml.Solver(b, method="chase")
    sol = s.solve(start, minimal=False)
    assert np.array_equal(start, keep) and start.flags.writeable
    assert not np.shares_memory(sol.taps, start)
    sol.taps[0, 0] ^= 1  # the caller may write to its taps
    assert np.array_equal(s.solve(start, minimal=False).taps[1:], sol.taps[1:])
    # the right-hand side over GF(2) with target 0 is the state itself, read-only
    rhs = s._rhs(start, 0)
    if n == 2:
        assert np.shares_memory(rhs, start) and not rhs.flags.writeable
    assert np.array_equal(rhs, (-start.astype(np.int64)).reshape(-1) % n)


def test_chase_solve_many_and_solvable_many_take_any_integer_dtype():
    b = ml.Board.grid(12, 12, states=3, locked=[(0, 0)], holes=[(5, 5)])
    s = ml.Solver(b, method="chase")
    rng = np.random.default_rng(9)
    S = np.stack([b.random_state(rng=rng) for _ in range(4)])
    for target in (0, 2, rng.integers(0, 3, size=(12, 12))):
        t = b.coerce_target(target)
        S2 = np.stack([b.coerce_state(x.astype(np.int64) + t) for x in S])
        for form in (S2, S2.astype(np.int64) + 3, S2.astype(np.int8) - 3):
            X = s.solve_many(form, target)
            for st_, x in zip(S2, X):
                assert np.array_equal(b.apply(st_, x), t)
            assert s.solvable_many(form, target).all()


def test_chase_solve_errors_name_the_bad_argument():
    b = ml.Board.grid(30, 30, states=3)
    s = ml.Solver(b, method="chase")
    with pytest.raises(ValueError, match=r"state has shape \(30, 29\)"):
        s.solve(np.zeros((30, 29), np.uint8))
    with pytest.raises(ValueError, match="must be an array of integers"):
        s.solve(np.full((30, 30), "a"))
    with pytest.raises(ValueError, match="non-integral"):
        s.solve(np.full((30, 30), 0.5))
    with pytest.raises(ValueError, match="got a bool"):
        s.solve(np.zeros((30, 30), np.uint8), True)
    with pytest.raises(ValueError, match=r"target has shape \(2,\)"):
        s.solve(np.zeros((30, 30), np.uint8), np.zeros(2, np.uint8))


@pytest.mark.parametrize("n", [2, 3])
def test_chase_solve_path_has_no_wide_temporaries(n):
    """Python-side memory of solve(minimal=False): the uint8 replays and at most one
    uint8 right-hand side (n > 2); an int64 or uint16 copy of the board would not fit."""
    rows = cols = 400
    hw = rows * cols
    b = ml.Board.grid(rows, cols, states=n)
    s = ml.Solver(b, method="chase")
    start = b.random_state(rng=2)
    s.solve(start, minimal=False)  # warm up
    tracemalloc.start()
    try:
        sol = s.solve(start, minimal=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not b.apply(start, sol.taps).any()
    # numeric replay x (hw) kept as the taps, its second replay (hw), rhs (hw, n > 2)
    assert peak < (2.5 if n == 2 else 3.5) * hw, peak / hw


def test_chase_solution_length_is_the_tap_sum():
    for n in (2, 3, 255):
        b = ml.Board.grid(9, 9, states=n)
        sol = ml.Solver(b, method="chase").solve(b.random_state(rng=n), minimal=False)
        assert sol.length == int(sol.taps.astype(np.int64).sum())


# ---------------------------------------------------------------- the C plan of a board
# (the masks of the plan are the C engine's own: csrc/engines/chase.c builds it from the
# C board; public behaviour below)
def test_plan_of_a_masked_board_solves_it():
    b = ml.Board.grid(40, 30, states=2, locked=[(3, 3)], holes=[(7, 7), (0, 29)])
    for board in (b, ml.Board.grid(40, 30, states=2)):
        start = board.random_state(rng=8)
        sol = ml.Solver(board, method="chase").solve(start, minimal=False)
        assert not board.apply(start, sol.taps).any()


def test_gf2_det_by_the_chase_equals_dense():
    for k in range(24, 30):
        b = ml.Board.grid(k, k)
        assert ml.Solver(b, method="chase").det() == ml.Solver(b, method="dense").det()
