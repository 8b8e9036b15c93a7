"""The row-solve chase over GF(2) (csrc/chase/rowsolve.c, the engine "chase-rowsolve").

Boards whose pattern ends in a pair of taps (the knight, the diagonal, random offset sets
built that way) on a width that is a multiple of 2a: checked against the dense engine
(kernel size, solvability, solutions applied, kernel generators), against the light chase
(csrc/chase/), and against brute force for minimal solutions; the choosing entry's
choice between them from the symbols of both plans (tests/engines/chase/chase_oracle.py).
The plan itself (the numeric replay, the residual matrix with and without the mirror
image on every thread count, block width and SIMD path, eligibility) is checked in C
against the tap matrix: csrc/tests/t-rowsolve.c."""

from __future__ import annotations

import numpy as np
import pytest
from chase_oracle import light_plan, rowsolve_symbols, rowsolve_symbols_along
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers


@st.composite
def pair_patterns(draw):
    """A pattern (offsets, tap -> affected tile) whose last row of affecting taps is the
    pair (D, -a), (D, +a): the pattern's first row is (-D, +-a); the other offsets lie
    in rows -D + 1 .. 2, some repeated (even repeats cancel over GF(2))."""
    D = draw(st.integers(1, 3))
    a = draw(st.integers(1, 2))
    pattern = [(-D, -a), (-D, a)]
    extra = draw(st.lists(st.tuples(st.integers(-D + 1, 2), st.integers(-3, 3)), max_size=7))
    pattern += extra
    pattern += draw(st.lists(st.sampled_from(extra), max_size=2)) if extra else []
    return pattern, D, a


def _check_against_dense(board, eng, rng, targets=4):
    dense = ml.Solver(board, method="dense")
    assert eng.kernel_size == dense.kernel_size
    m = board.n_cells
    A = board.matrix().astype(np.int64)
    R = rng.integers(0, 2, size=(targets, m)).astype(np.uint8)
    # half the targets solvable for sure: images of random taps
    R[: targets // 2] = rng.integers(0, 2, size=(targets // 2, board.n_taps)) @ A.T % 2
    X, ok = eng.solve(R)
    for i in range(targets):
        want = dense.solvable(R[i].reshape(board.shape))
        assert bool(ok[i]) == bool(want)
        if ok[i]:
            assert np.array_equal(A @ X[i] % 2, R[i])
    H, orders = eng.generators()
    assert len(orders) == dense.nullity
    for g in H:
        assert g.any() and not (A @ g % 2).any()
    assert _rank_gf2(H) == len(H)  # independent


def _rank_gf2(H):
    H = np.array(H, dtype=np.uint8) & 1
    rank = 0
    for col in range(H.shape[1] if H.ndim == 2 else 0):
        piv = np.nonzero(H[rank:, col])[0]
        if not len(piv):
            continue
        p = rank + piv[0]
        H[[rank, p]] = H[[p, rank]]
        rows = np.nonzero(H[:, col])[0]
        rows = rows[rows != rank]
        H[rows] ^= H[rank]
        rank += 1
        if rank == H.shape[0]:
            break
    return rank


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pat=pair_patterns(),
    k=st.integers(1, 4),
    extra_rows=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_pair_patterns_against_dense(pat, k, extra_rows, seed):
    pattern, D, a = pat
    rows, cols = D + extra_rows, 2 * a * k
    board = ml.Board.grid(rows, cols, states=2, pattern=pattern)
    eng = NativeEngine(board, "chase-rowsolve")
    assert eng.variant == "chase-rowsolve"
    assert rowsolve_symbols_along(board) == D * cols  # along the rows
    _check_against_dense(board, eng, np.random.default_rng(seed))


@pytest.mark.parametrize("pattern", ["knight", "diagonal"])
@pytest.mark.parametrize(
    "shape", [(3, 2), (5, 4), (6, 6), (9, 10), (12, 8), (16, 16), (7, 22), (5, 30)]
)
def test_named_patterns_against_dense_and_light_chase(pattern, shape):
    board = ml.Board.grid(*shape, states=2, pattern=pattern)
    eng = NativeEngine(board, "chase-rowsolve")
    light = NativeEngine(board, "chase-light")
    assert (eng.variant, light.variant) == ("chase-rowsolve", "chase-light")
    # the automatic choice: the fewer symbols (the light chase along the columns of a
    # short, wide board), the row-solve chase on a tie (symbols from the tap matrix:
    # chase_oracle.py)
    auto = NativeEngine(board, "chase")
    rs, lt = rowsolve_symbols(board), light_plan(board).nsym
    assert auto.variant == ("chase-rowsolve" if rs <= lt else "chase-light")
    if min(shape) >= 4 and shape[1] <= 2 * shape[0]:
        assert auto.variant == "chase-rowsolve"
    assert eng.kernel_size == light.kernel_size
    _check_against_dense(board, eng, np.random.default_rng(sum(shape)))


@pytest.mark.parametrize("shape", [(6, 7), (10, 5), (4, 9)])
def test_odd_width_takes_the_columns(shape):
    """An odd width and an even height: the plan runs on the transposed board."""
    board = ml.Board.grid(*shape, states=2, pattern="knight")
    eng = NativeEngine(board, "chase-rowsolve")
    assert eng.variant == "chase-rowsolve"
    assert rowsolve_symbols_along(board) is None  # not along the rows
    assert rowsolve_symbols_along(board, transposed=True) == 2 * shape[0]
    _check_against_dense(board, eng, np.random.default_rng(shape[1]))


@pytest.mark.parametrize("shape", [(5, 7), (9, 9)])
def test_odd_sides_keep_the_light_chase(shape):
    board = ml.Board.grid(*shape, states=2, pattern="knight")
    assert NativeEngine(board, "chase").variant == "chase-light"
    with pytest.raises(ValueError, match="the row-solve chase needs"):
        NativeEngine(board, "chase-rowsolve")


@pytest.mark.parametrize(
    "kw",
    [dict(wrap=True), dict(locked=np.eye(6, dtype=bool)), dict(holes=np.eye(6, dtype=bool)[::-1])],
)
def test_boards_it_does_not_take(kw):
    board = ml.Board.grid(6, 6, pattern="knight", **kw)
    assert covers("chase-rowsolve", board).startswith("the row-solve chase needs one pattern")
    assert NativeEngine(board, "chase").variant != "chase-rowsolve"
    with pytest.raises(ValueError, match="the row-solve chase needs"):
        ml.Solver(board, method="chase-rowsolve")


def test_mixed_patterns_and_patterns_without_a_pair_are_not_taken():
    mixed = ml.Board.grid(4, 4, pattern=[["knight"] * 4 for _ in range(4)])
    needs = "the row-solve chase needs one pattern"
    assert covers("chase-rowsolve", mixed).startswith(needs)
    for pattern in ["cross", "square", [(0, 0), (-1, 0), (-1, 2)], [(-1, -1), (-1, 1), (-1, 3)]]:
        assert covers("chase-rowsolve", ml.Board.grid(6, 6, pattern=pattern)).startswith(needs)
    assert covers("chase-rowsolve", ml.Board.grid(6, 6, pattern="knight")) is None


def test_the_row_chase_on_a_row_solve_board():
    """chase-row is its own variant on a board the row-solve chase takes."""
    board = ml.Board.grid(6, 6, pattern="knight")
    eng = NativeEngine(board, "chase-row")
    assert eng.variant == "chase-row"
    _check_against_dense(board, eng, np.random.default_rng(6))


def test_minimal_solutions_against_brute_force():
    """4 x 4 knight (16 taps): the minimal solution of every solver route is the brute
    force minimum over all 2^16 tap sets."""
    board = ml.Board.grid(4, 4, states=2, pattern="knight")
    A = board.matrix().astype(np.int64)
    allx = ((np.arange(1 << 16)[:, None] >> np.arange(16)) & 1).astype(np.int64)
    images = allx @ A.T % 2
    weight = allx.sum(1)
    keys = images @ (1 << np.arange(16))
    best: dict = {}
    for key, wgt in zip(keys.tolist(), weight.tolist()):
        if key not in best or wgt < best[key]:
            best[key] = wgt
    s = ml.Solver(board, method="chase")
    assert s.plan.engine == "chase-rowsolve"
    rng = np.random.default_rng(5)
    for _ in range(12):
        state = rng.integers(0, 2, size=(4, 4)).astype(np.uint8)
        key = int(((-state.reshape(-1)) % 2) @ (1 << np.arange(16)))
        if key not in best:
            assert not s.solvable(state)
            with pytest.raises(ml.Unsolvable):
                s.solve(state)
            continue
        sol = s.solve(state)
        assert sol.proven_minimal
        assert sol.length == best[key]
        assert not board.apply(state, sol.taps).any()


def test_solver_routes_and_pickles():
    import pickle

    board = ml.Board.grid(30, 30, states=2, pattern="knight")
    s = ml.Solver(board, method="chase")
    assert s.plan.engine == "chase-rowsolve"
    state = board.random_state(rng=4)
    sol = s.solve(state, minimal=False)
    assert not board.apply(state, sol.taps).any()
    s2 = pickle.loads(pickle.dumps(s))
    assert s2.plan.engine == "chase-rowsolve"
    sol2 = s2.solve(state, minimal=False)
    assert np.array_equal(sol2.taps, sol.taps)


@pytest.mark.skipif(__import__("sys").platform == "win32", reason="POSIX signals")
def test_sigint_stops_the_symbolic_pass():
    from test_interrupt import _assert_stopped, _interrupt_subprocess

    _assert_stopped(
        *_interrupt_subprocess(
            "b = ml.Board.grid(11000, 11000, pattern='knight')",
            "ml.Solver(b, method='chase').nullity",
            delay=0.8,
        )
    )
