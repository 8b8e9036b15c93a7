"""The chase on boards with many locked tiles and holes: every lock or hole adds a
residual equation, and a prefix of the residual system that leaves no kernel is used
in place of the whole (the replay checks the rest). Checked against the reference
engine and by direct application."""

from __future__ import annotations

import numpy as np
import pytest
from chase_oracle import light_plan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_chase import NAMES, _check_against_reference

import modlights as ml
from modlights.engines.native import NativeEngine
from modlights.engines.reference import ReferenceEngine
from strategies import random_masks
from suite_groups import sample

N_VALUES = [2, 3, 4, 5, 6, 8]


@st.composite
def locked_boards(draw, max_side=16):
    """Grid boards with 1% .. 30% locked tiles and some holes (tall residual systems)."""
    n = draw(st.sampled_from(N_VALUES))
    rows = draw(st.integers(2, max_side))
    cols = draw(st.integers(2, max_side))
    pattern = draw(st.sampled_from(NAMES))
    wrap = draw(st.booleans())
    p_lock = draw(st.sampled_from([0.01, 0.05, 0.1, 0.2, 0.3]))
    p_hole = draw(st.sampled_from([0.0, 0.0, 0.05, 0.1]))
    seed = draw(st.integers(0, 2**32 - 1))
    locked, holes = random_masks(np.random.default_rng(seed), (rows, cols), p_lock, p_hole)
    return ml.Board.grid(
        rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap
    ), seed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(locked_boards())
def test_locked_boards_equal_reference(case):
    """Kernel size, generators, solvability of solvable and unsolvable starts, and
    solutions checked by application, against the reference engine."""
    b, seed = case
    chase = NativeEngine(b, "chase")
    # the row-solve chase takes no board with locked tiles or holes (a draw may have none)
    masked = b._any_locked or b._any_holes
    assert chase.variant in ("chase-light", "chase-prefix", "chase-row") or (
        not masked and chase.variant == "chase-rowsolve"
    )
    _check_against_reference(b, chase, np.random.default_rng(seed))


def _prefix_board(n, side=16, p_lock=0.2, seed=0, wrap=False, pattern="cross"):
    """A board whose chase uses a prefix of its residual system (the first seed from
    `seed` on that gives one). Locks only: a hole deep in the board makes a symbol
    there, which only the equations after it can fix, so with holes the prefix rarely
    leaves no kernel."""
    for s in range(seed, seed + 50):
        locked = np.random.default_rng(s).random((side, side)) < p_lock
        b = ml.Board.grid(side, side, states=n, pattern=pattern, locked=locked, wrap=wrap)
        chase = NativeEngine(b, "chase")
        if chase.variant_reason == "a prefix of its tall residual system leaves no kernel":
            assert chase.variant == "chase-prefix"
            return b, chase
    raise AssertionError("no board in 50 seeds used a prefix")


@pytest.mark.parametrize(
    "wrap,n", sample([(w, n) for w in (False, True) for n in N_VALUES], 3, unpack=True)
)
def test_prefix_used_and_equal_reference(n, wrap):
    b, chase = _prefix_board(n, wrap=wrap, seed=n)
    assert chase.kernel_size == 1 and chase.nullity == 0
    _check_against_reference(b, chase, np.random.default_rng(n))


@pytest.mark.parametrize("n", sample(N_VALUES, 2))
def test_equation_past_the_prefix_decides(n):
    """A right-hand side that satisfies the prefix but not an equation after it: the
    replay must report it unsolvable (as the reference engine does), in one solve and
    in a batch."""
    b, chase = _prefix_board(n, seed=10 + n)
    rng = np.random.default_rng(n)
    x = rng.integers(0, n, size=b.n_taps)
    A = b.matrix().astype(np.int64)
    rhs = (A @ x) % n
    # a prefix is at most half the residual system: its last equation is past it (the
    # residual equations from the tap matrix: chase_oracle.py)
    tiles = light_plan(b).residual_tiles
    assert b.n_cells == b.shape[0] * b.shape[1]  # no holes: cell = tile
    bad = rhs.copy()
    c = tiles[-1]
    bad[c] = (bad[c] + 1) % n
    dense = ReferenceEngine(b.matrix(), n)
    assert not dense.solve(bad[None, :])[1][0]
    X, ok = chase.solve(bad[None, :])
    assert not ok[0] and not X.any()
    X, ok = chase.solve(np.stack([rhs, bad, rhs]))
    assert ok.tolist() == [True, False, True]
    assert not ((A @ X[0].astype(np.int64) - rhs) % n).any()


@pytest.mark.parametrize("n", N_VALUES)
def test_large_locked_board_verified_by_application(n):
    """400 x 400 with 1% locked tiles: the residual system has 1600 locks' equations
    over ~400 symbols, and a prefix of ~800 is used; the answer from a solvable start
    solves the board."""
    rng = np.random.default_rng(n)
    locked = rng.random((400, 400)) < 0.01
    b = ml.Board.grid(400, 400, states=n, pattern="cross", locked=locked)
    x = rng.integers(0, n, size=(400, 400)).astype(np.uint8)
    x[locked] = 0
    start = b.apply(np.zeros((400, 400), np.uint8), x)
    s = ml.Solver(b, method="chase")
    sol = s.solve(start, minimal=False)
    assert not b.apply(start, sol.taps).any()
    assert s.plan.engine == "chase-prefix"
    assert s.plan.reason.endswith("a prefix of its tall residual system leaves no kernel")


# ---- the fixed-delta fast paths on uniform boards with locked tiles and holes: the
# plan, the symbolic chase and the numeric replay read the taps of an interior tile at
# fixed flat offsets, with zeros kept at locked tiles and holes

offsets = st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=6)


@st.composite
def interior_locked_boards(draw, max_side=26):
    """Uniform boards (named or custom pattern) with an interior, n in 2..8, and locked
    tiles and holes scattered through it; wrap or not."""
    n = draw(st.integers(2, 8))
    rows = draw(st.integers(6, max_side))
    cols = draw(st.integers(6, max_side))
    pattern = draw(st.one_of(st.sampled_from(NAMES), offsets))
    p_lock = draw(st.sampled_from([0.0, 0.01, 0.03, 0.1, 0.3]))
    p_hole = draw(st.sampled_from([0.0, 0.0, 0.02, 0.1]))
    seed = draw(st.integers(0, 2**32 - 1))
    locked, holes = random_masks(np.random.default_rng(seed), (rows, cols), p_lock, p_hole)
    return ml.Board.grid(
        rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=draw(st.booleans())
    ), seed


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(interior_locked_boards(max_side=18))
def test_interior_locked_boards_equal_reference(case):
    """Kernel size, generators, solvability and solutions (checked by application)
    against the reference engine (the replay and the residual matrix on such boards
    against the tap matrix: csrc/tests/t-numeric.c, t-runner.c)."""
    b, seed = case
    chase = NativeEngine(b, "chase")
    _check_against_reference(b, chase, np.random.default_rng(seed))
