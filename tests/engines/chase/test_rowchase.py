"""The row-state chase (csrc/chase/rowchase.c, the engine "chase-row":
csrc/engines/chase_row.c): light chasing with online elimination for boards with many
holes and locked tiles. Forced on small boards (method="chase-row", NativeEngine(b,
"chase-row")) and checked against the reference engine, the dense engine, brute-force
kernel closure and Board.apply; rings Z/p^e by valuation (pending equations), composite
n by CRT. The run itself (its counts, retired and pending rows, GF(3) rows bit-sliced
and as bytes, its memory budget and stop) is checked in C against the tap matrix:
csrc/tests/t-rowchase.c; the engine's limits in t-engines-chase.c and
tests/native/test_capi_chase.py."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from chase_oracle import light_plan_along
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine
from modlights.native import _core as _rowchase
from oracle import group_closure_size
from simd import simd_fixture
from strategies import grid_boards, random_masks
from suite_groups import sample

NAMES = sorted(ml.PATTERNS)
PATHS = _rowchase.simd_paths()
simd = simd_fixture(_rowchase)


@st.composite
def holey_boards(draw, max_side=14, n_values=(2, 3, 4, 5, 6, 7, 8, 9, 12)):
    """Grid boards with 0-30% holes and 0-20% locked tiles, any named or custom pattern,
    n in n_values (default 2..9 or 12), with or without wrap."""
    n = draw(st.sampled_from(n_values))
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    pattern = draw(
        st.one_of(
            st.sampled_from(NAMES),
            st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=0, max_size=5),
        )
    )
    wrap = draw(st.booleans())
    p_hole = draw(st.sampled_from([0.0, 0.02, 0.1, 0.2, 0.3]))
    p_lock = draw(st.sampled_from([0.0, 0.0, 0.05, 0.2]))
    seed = draw(st.integers(0, 2**32 - 1))
    locked, holes = random_masks(np.random.default_rng(seed), (rows, cols), p_lock, p_hole)
    return ml.Board.grid(
        rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap
    ), seed


def _engine(b):
    """The row chase, forced (any n)."""
    eng = NativeEngine(b, "chase-row")
    assert eng.variant == "chase-row"
    return eng


def _rhs(b, state):
    return (-b.cell_vector(b.coerce_state(state)).astype(np.int64)) % b.states


def _check(b, eng, rng, closure=True):
    """kernel_size and nullity against the reference and dense engines; generators in
    the kernel and generating all of it; solvability of solvable and random starts and
    solutions checked by Board.apply."""
    n = b.states
    ref = ml.Solver(b, backend="reference")
    dense = ml.Solver(b, method="dense")
    assert eng.kernel_size == ref.kernel_size == dense.kernel_size
    H, orders = eng.generators()
    assert H.shape == (len(orders), b.n_taps)
    A = b.matrix().astype(np.int64)
    assert not (A @ H.T.astype(np.int64) % n).any()
    assert eng.nullity == ref.nullity == len(orders)
    assert int(np.prod(orders, dtype=object)) == ref.kernel_size  # a direct sum
    if closure and ref.kernel_size <= 4096:
        assert group_closure_size(H, n) == ref.kernel_size
    states = [
        b.random_state(rng=rng, solvable=True),
        b.random_state(rng=rng, solvable=False),
        rng.integers(0, n, b.shape),
    ]
    R = np.stack([_rhs(b, s) for s in states])
    X, ok = eng.solve(R)
    for s, x, good in zip(states, X, ok):
        assert bool(good) == ref.solvable(s) == dense.solvable(s)
        if good:
            assert not b.apply(s, b.from_tap_vector(x)).any()
    # one at a time too (the engine's single-solve path)
    X1, ok1 = eng.solve(R[:1])
    assert ok1[0] and not b.apply(states[0], b.from_tap_vector(X1[0])).any()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(holey_boards())
def test_random_boards_with_holes_and_locks(case):
    b, seed = case
    _check(b, _engine(b), np.random.default_rng(seed))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_boards(max_brute=5000), st.integers(0, 2**32 - 1))
def test_small_boards_mixed_patterns(b, seed):
    """Mixed patterns (a pattern a tile) and the tiny boards of the shared strategy."""
    _check(b, _engine(b), np.random.default_rng(seed))


#: (wrap, n, pattern) of test_every_pattern_with_holes: 8 of them in the default run
HOLES_CASES = [(w, n, p) for w in (False, True) for n in range(2, 10) for p in NAMES]


@pytest.mark.parametrize(
    "wrap,n,pattern", sample(HOLES_CASES, 8, ids=lambda c: "-".join(map(str, c)), unpack=True)
)
def test_every_pattern_with_holes(pattern, n, wrap):
    rng = np.random.default_rng(n * 31 + len(pattern) + wrap)
    locked, holes = random_masks(rng, (17, 13), 0.05, 0.15)
    b = ml.Board.grid(17, 13, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap)
    eng = NativeEngine(b, "chase-row")
    _check(b, eng, rng, closure=False)


@pytest.mark.parametrize("n", sample([2, 3, 5, 4, 6, 9], 2))
def test_transposed_plan(n):
    """A board wider than tall is chased along its columns (the transposed plan)."""
    rng = np.random.default_rng(n)
    locked, holes = random_masks(rng, (6, 40), 0.03, 0.1)
    b = ml.Board.grid(6, 40, states=n, locked=locked, holes=holes)
    eng = NativeEngine(b, "chase-row")
    # (that the plan is the transposed one: csrc/tests/t-engines-chase.c, wider-than-tall
    # boards through ml__chase_row_ops)
    assert light_plan_along(b, transposed=True).nsym < light_plan_along(b).nsym
    _check(b, eng, rng, closure=False)


@pytest.mark.heavy  # 5 CPU s: the reference engine factorises six 18 x 18 boards
def test_solver_minimal_through_the_row_chase():
    """The Solver on the row chase (method="chase-row"): minimal solutions and
    their proofs equal the reference engine's."""
    rng = np.random.default_rng(5)
    for n in (2, 3):
        for seed in range(3):
            locked, holes = random_masks(np.random.default_rng(seed), (18, 18), 0.05, 0.1)
            b = ml.Board.grid(18, 18, states=n, locked=locked, holes=holes)
            s = ml.Solver(b, method="chase-row")
            assert s.plan.engine == "chase-row"
            ref = ml.Solver(b, backend="reference")
            assert s.kernel_size == ref.kernel_size and s.nullity == ref.nullity
            state = b.random_state(rng=rng)
            sol, rsol = s.solve(state), ref.solve(state)
            assert not b.apply(state, sol.taps).any()
            if sol.proven_minimal and rsol.proven_minimal:
                assert sol.length == rsol.length
            many = s.solve_many(np.stack([state, b.random_state(rng=rng)]))
            for st_, x in zip([state], many[:1]):
                assert not b.apply(st_, x).any()


def test_auto_picks_the_row_chase_for_many_holes_only():
    rng = np.random.default_rng(0)
    locked, holes = random_masks(rng, (80, 80), 0.0, 0.1)
    for n in (2, 3, 5, 4, 6, 8, 9):  # rings too (by valuation)
        b = ml.Board.grid(80, 80, states=n, holes=holes)
        s = ml.Solver(b, method="chase")
        assert s.plan.engine == "chase-row"
        assert s.plan.reason.endswith("more than 5 symbols a column (holes or locks)")
    assert ml.Solver(ml.Board.grid(80, 80, states=2), method="chase").plan.engine != "chase-row"
    locked, _ = random_masks(rng, (80, 80), 0.05, 0.0)  # locks: the prefix
    b = ml.Board.grid(80, 80, states=2, locked=locked)
    assert ml.Solver(b, method="chase").plan.engine == "chase-prefix"


@pytest.mark.parametrize("n", sample([2, 3, 4, 6, 9], 2))
def test_larger_board_equals_the_matrix_path(n):
    """300 x 300 with 3% holes and 1% locks: same kernel as the residual-matrix path,
    solutions checked by application, unsolvable starts refused by both."""
    rng = np.random.default_rng(n)
    locked, holes = random_masks(rng, (300, 300), 0.01, 0.03)
    b = ml.Board.grid(300, 300, states=n, locked=locked, holes=holes)
    row, mat = NativeEngine(b, "chase-row"), NativeEngine(b, "chase-light")
    assert row.kernel_size == mat.kernel_size
    H, _ = row.generators()
    assert H.shape[0] == row.nullity
    for h in H:
        assert not b.apply(np.zeros(b.shape, np.uint8), b.from_tap_vector(h)).any()
    states = [
        b.apply(np.zeros(b.shape, np.uint8), rng.integers(0, n, b.shape) * ~(locked | holes))
        for _ in range(3)
    ] + [rng.integers(0, n, b.shape) for _ in range(2)]
    R = np.stack([_rhs(b, s) for s in states])
    X, ok = row.solve(R)
    _, ok_mat = mat.solve(R)
    assert list(ok) == list(ok_mat) and ok[:3].all()
    for s, x, good in zip(states, X, ok):
        if good:
            assert not b.apply(s, b.from_tap_vector(x)).any()


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_many_right_hand_sides_in_batches(n):
    """More right-hand sides than one run takes (GF(2), GF(3): 64 a run, bytes: 16)."""
    rng = np.random.default_rng(3)
    locked, holes = random_masks(rng, (12, 12), 0.05, 0.2)
    b = ml.Board.grid(12, 12, states=n, locked=locked, holes=holes)
    eng = NativeEngine(b, "chase-row")
    ref = ml.Solver(b, backend="reference")
    states = [rng.integers(0, n, b.shape) for _ in range(150)] + [
        b.random_state(rng=rng, solvable=True) for _ in range(10)
    ]
    X, ok = eng.solve(np.stack([_rhs(b, s) for s in states]))
    for s, x, good in zip(states, X, ok):
        assert bool(good) == ref.solvable(s)
        if good:
            assert not b.apply(s, b.from_tap_vector(x)).any()


def test_interrupt_stops_the_build_and_leaves_the_board_usable():
    """A stop requested before the row chase's kernel run (as the Ctrl-C hook does):
    KeyboardInterrupt; the next build answers as the dense engine."""
    locked, holes = random_masks(np.random.default_rng(1), (60, 60), 0.0, 0.1)
    b = ml.Board.grid(60, 60, states=2, holes=holes)
    _rowchase._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        _ = NativeEngine(b, "chase-row").kernel_size
    eng = NativeEngine(b, "chase-row")
    assert eng.kernel_size == ml.Solver(b, method="dense").kernel_size


# the records' estimate checked before the run: csrc/tests/t-engines-chase.c (the row
# chase's two limits) and tests/native/test_capi_chase.py::test_row_chase_too_large_refused


def test_solver_on_the_row_chase_pickles():
    import copy
    import pickle

    locked, holes = random_masks(np.random.default_rng(4), (30, 30), 0.02, 0.1)
    b = ml.Board.grid(30, 30, states=5, locked=locked, holes=holes)
    s = ml.Solver(b, method="chase-row")
    state = b.random_state(rng=4)
    sol = s.solve(state, minimal=False)
    for t in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert t.plan.engine == "chase-row" and t.kernel_size == s.kernel_size
        assert not b.apply(state, t.solve(state, minimal=False).taps).any()
    assert not b.apply(state, sol.taps).any()


@pytest.mark.matrix  # 4-7 CPU s a case: 400-row boards, two engines each
@pytest.mark.parametrize("n", [2, 3, 7, 4, 9])
@pytest.mark.parametrize("wrap", [False, True])
def test_free_symbols_retired(n, wrap):
    """Rows that each leave a free symbol (horizontal pattern, singular rows): the
    columns no readable tap holds are retired and reused, the kernel stays exact."""
    rng = np.random.default_rng(n + 10 * wrap)
    # singular rows: the 8-tile path (det d_k = d_{k-1} - d_{k-2}: 1, 0, -1, -1, 0, ..)
    # and the 6-tile cycle (1 + x + 1/x has a cube root of unity as root mod 2, 3, 7)
    cols = 6 if wrap else 8
    locked, holes = random_masks(rng, (400, cols), 0.0, 0.02)
    b = ml.Board.grid(400, cols, states=n, pattern="horizontal", holes=holes, wrap=wrap)
    eng = NativeEngine(b, "chase-row")
    mat = NativeEngine(b, "chase-light")
    # (that such columns retire: csrc/tests/t-rowchase.c)
    assert eng.nullity > 100
    assert eng.kernel_size == mat.kernel_size and eng.nullity == mat.nullity
    H, _ = eng.generators()
    assert not (b.matrix().astype(np.int64) @ H.T.astype(np.int64) % n).any()
    states = [
        b.apply(np.zeros(b.shape, np.uint8), rng.integers(0, n, b.shape) * ~holes),
        rng.integers(0, n, b.shape),
    ]
    X, ok = eng.solve(np.stack([_rhs(b, s) for s in states]))
    _, ok_mat = mat.solve(np.stack([_rhs(b, s) for s in states]))
    assert list(ok) == list(ok_mat) and ok[0]
    for s, x, good in zip(states, X, ok):
        if good:
            assert not b.apply(s, b.from_tap_vector(x)).any()


@st.composite
def non_unit_boards(draw, max_side=9):
    """Boards over Z/4, Z/8, Z/9 (and Z/12, Z/18) whose pattern lists some offsets p
    times (p = 2 or 3, the prime of the ring): their taps' coefficients there are
    non-units, so many residual equations have no unit coefficient (pending)."""
    n = draw(st.sampled_from([4, 8, 9, 12, 18]))
    p = 3 if n % 9 == 0 else 2
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    offs = draw(
        st.lists(
            st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=4, unique=True
        )
    )
    many = draw(st.lists(st.booleans(), min_size=len(offs), max_size=len(offs)))
    pattern = [o for o, m in zip(offs, many) for _ in range(p if m else 1)]
    wrap = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    locked, holes = random_masks(
        np.random.default_rng(seed),
        (rows, cols),
        draw(st.sampled_from([0.0, 0.1])),
        draw(st.sampled_from([0.0, 0.1, 0.3])),
    )
    return ml.Board.grid(
        rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap
    ), seed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(non_unit_boards())
def test_rings_with_non_unit_coefficients(case):
    """The pending equations of Z/p^e: kernel (size, generators' subgroup), solvability
    and solutions against the reference and dense engines."""
    b, seed = case
    _check(b, _engine(b), np.random.default_rng(seed))


@pytest.mark.parametrize(
    "n, pattern",
    [
        (4, [(0, 0), (0, 0), (1, 0), (1, 0), (0, 1), (0, 1)]),  # every coefficient 2
        (8, [(0, 0), (1, 0), (1, 0), (0, 1), (0, -1), (0, -1), (-1, 0)]),
        (9, [(0, 0), (0, 0), (0, 0), (1, 0), (0, 1), (0, 1), (0, 1)]),
        (12, [(0, 0), (0, 0), (1, 0), (1, 0), (0, 1), (0, 1)]),
    ],
)
@pytest.mark.parametrize("wrap", [False, True])
def test_pending_equations_are_used(n, pattern, wrap):
    """Boards whose equations have no unit coefficient mod p^e keep them pending (that
    they do: csrc/tests/t-rowchase.c, these patterns): the pending system is left to the
    Z/q engine, and the answers are exact."""
    rng = np.random.default_rng(n + wrap)
    locked, holes = random_masks(rng, (7, 8), 0.05, 0.1)
    b = ml.Board.grid(7, 8, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap)
    _check(b, _engine(b), rng, closure=False)


@pytest.mark.parametrize("n", [4, 6, 8, 9, 12])
def test_rings_against_the_matrix_path_on_a_larger_board(n):
    """120 x 120 cross with 5% holes and 1% locks over rings and composite n: the row
    chase (auto) and the residual matrix give the same kernel and solvability."""
    rng = np.random.default_rng(n)
    locked, holes = random_masks(rng, (120, 120), 0.01, 0.05)
    b = ml.Board.grid(120, 120, states=n, locked=locked, holes=holes)
    row, mat = NativeEngine(b, "chase"), NativeEngine(b, "chase-light")
    assert row.variant == "chase-row"
    assert row.kernel_size == mat.kernel_size and row.nullity == mat.nullity
    H, orders = row.generators()
    assert int(np.prod(orders, dtype=object)) == row.kernel_size
    for h in H:
        assert not b.apply(np.zeros(b.shape, np.uint8), b.from_tap_vector(h)).any()
    states = [
        b.apply(np.zeros(b.shape, np.uint8), rng.integers(0, n, b.shape) * ~(locked | holes)),
        rng.integers(0, n, b.shape),
    ]
    R = np.stack([_rhs(b, s) for s in states])
    X, ok = row.solve(R)
    assert list(ok) == list(mat.solve(R)[1]) and ok[0]
    for s, x, good in zip(states, X, ok):
        if good:
            assert not b.apply(s, b.from_tap_vector(x)).any()


# ---- every SIMD path (csrc/cpu.h): GF(2), GF(3) bit-sliced, Z/4 and Z/9 byte rows
SIMD_N = (2, 3, 4, 9)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(holey_boards(max_side=12, n_values=SIMD_N))
def test_random_boards_on_every_simd_path(simd, case):
    b, seed = case
    assert _rowchase.get_simd() == simd
    _check(b, _engine(b), np.random.default_rng(seed))


def _wide_run(b, rng):
    """Generators and solutions of 70 right-hand sides (rows of several vectors: live
    symbols past 256 on a 280 x 280 board, constants over more than one word)."""
    eng = _engine(b)
    H, orders = eng.generators()
    states = [b.random_state(rng=rng, solvable=True) for _ in range(66)] + [
        rng.integers(0, b.states, b.shape) for _ in range(4)
    ]
    X, ok = eng.solve(np.stack([_rhs(b, s) for s in states]))
    return eng, H, orders, states, X, ok


@pytest.mark.matrix  # 3-6 CPU s a case (280 x 280 on every path); the default run has
# test_random_boards_on_every_simd_path
@pytest.mark.parametrize("n", SIMD_N)
def test_wide_rows_same_on_every_simd_path(n):
    """A board whose rows span many vectors: every path gives the same generators and
    solutions, equal in kernel and solvability to the residual-matrix path, each
    solution checked by Board.apply."""
    rng = np.random.default_rng(n)
    locked, holes = random_masks(rng, (280, 280), 0.02, 0.05)
    b = ml.Board.grid(280, 280, states=n, locked=locked, holes=holes)
    mat = NativeEngine(b, "chase-light")
    before = _rowchase.get_simd()
    got = []
    try:
        for path in PATHS:
            _rowchase.set_simd(path)
            eng, H, orders, states, X, ok = _wide_run(b, np.random.default_rng(7))
            assert eng.kernel_size == mat.kernel_size
            A_ok = mat.solve(np.stack([_rhs(b, s) for s in states]))[1]
            assert list(ok) == list(A_ok) and ok[:66].all()
            for s, x, good in zip(states, X, ok):
                if good:
                    assert not b.apply(s, b.from_tap_vector(x)).any()
            got.append((H.tobytes(), list(orders), X.tobytes(), ok.tobytes()))
    finally:
        _rowchase.set_simd(before)
    assert all(g == got[0] for g in got[1:])


@pytest.mark.heavy  # 13 CPU s: a fresh process solving 280 x 280 boards on the portable path
def test_simd_environment_variable_selects_the_portable_path():
    """MODLIGHTS_SIMD=portable in a fresh process: the row chase runs its portable
    kernels and agrees with the reference engine (GF(2), GF(3), Z/4, Z/9) and, on a
    280 x 280 board (rows of many vectors), with the matrix path and Board.apply."""
    code = (
        "import numpy as np, modlights as ml\n"
        "from modlights.native import _core as _rowchase\n"
        "from modlights.engines.native import NativeEngine\n"
        "assert _rowchase.get_simd() == 'portable', _rowchase.get_simd()\n"
        "for n in (2, 3, 4, 9):\n"
        "    rng = np.random.default_rng(n)\n"
        "    holes = rng.random((22, 24)) < 0.25\n"
        "    locked = (rng.random((22, 24)) < 0.05) & ~holes\n"
        "    b = ml.Board.grid(22, 24, states=n, locked=locked, holes=holes)\n"
        "    eng = NativeEngine(b, 'chase-row')\n"
        "    ref = ml.Solver(b, backend='reference')\n"
        "    assert eng.kernel_size == ref.kernel_size\n"
        "    states = [b.random_state(rng=rng, solvable=True) for _ in range(3)] + \\\n"
        "        [rng.integers(0, n, b.shape) for _ in range(3)]\n"
        "    R = np.stack([(-b.cell_vector(b.coerce_state(s)).astype(np.int64)) % n\n"
        "                  for s in states])\n"
        "    X, ok = eng.solve(R)\n"
        "    for s, x, good in zip(states, X, ok):\n"
        "        assert bool(good) == ref.solvable(s)\n"
        "        if good:\n"
        "            assert not b.apply(s, b.from_tap_vector(x)).any()\n"
        "for n in (2, 9):                     # rows of many vectors, against the matrix path\n"
        "    rng = np.random.default_rng(n)\n"
        "    holes = rng.random((280, 280)) < 0.05\n"
        "    b = ml.Board.grid(280, 280, states=n, holes=holes)\n"
        "    row, mat = NativeEngine(b, 'chase-row'), NativeEngine(b, 'chase-light')\n"
        "    assert row.kernel_size == mat.kernel_size\n"
        "    states = [b.random_state(rng=rng, solvable=True) for _ in range(20)]\n"
        "    R = np.stack([(-b.cell_vector(b.coerce_state(s)).astype(np.int64)) % n\n"
        "                  for s in states])\n"
        "    X, ok = row.solve(R)\n"
        "    assert ok.all()\n"
        "    for s, x in zip(states, X):\n"
        "        assert not b.apply(s, b.from_tap_vector(x)).any()\n"
        "print('ok')\n"
    )
    env = dict(os.environ, MODLIGHTS_SIMD="portable")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_set_simd_refuses_unknown_paths():
    before = _rowchase.get_simd()
    with pytest.raises(ValueError, match="unknown SIMD path"):
        _rowchase.set_simd("sse9")
    with pytest.raises(ValueError, match="unknown SIMD path"):
        _rowchase.set_simd(2)
    assert _rowchase.get_simd() == before
    assert PATHS[0] == "portable" and before in PATHS
