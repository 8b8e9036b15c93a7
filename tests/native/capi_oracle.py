"""What the tests of the C API's solver (test_capi_solver.py, test_capi_chase.py,
test_capi_algebraic.py, test_capi_minimal.py) share: the C board of a Python board,
random grids, and the comparison of a C solver (``_core.CSolver``) with
``modlights.Solver`` on one board: its structure and canonical kernel, and solves of
random states (applied and checked), or the same Unsolvable message."""

from __future__ import annotations

import json

import numpy as np
import pytest

import modlights as ml
from modlights.model.patterns import PATTERNS
from modlights.native import _core

CBoard = _core.CBoard
NAMES = list(PATTERNS)


def c_board(board: ml.Board) -> CBoard:
    """The C board built as the Python one is: a from_matrix board from its dense matrix
    (the engines then read it densely on both sides; its JSON would make an effects
    board, whose Z/n elimination may pick another of the many generalised inverses),
    others from their JSON."""
    if board._dense is not None:
        return CBoard.from_matrix(board.matrix(), board.states)
    return CBoard.from_json(json.dumps(board.to_dict()))


def random_pattern(rng):
    """A named pattern (60 %) or 1..6 random offsets within 2 tiles."""
    if rng.random() < 0.6:
        return NAMES[rng.integers(len(NAMES))]
    k = int(rng.integers(1, 7))
    return [(int(rng.integers(-2, 3)), int(rng.integers(-2, 3))) for _ in range(k)]


def random_grid(rng, n: int, max_side: int, wrap: float, locks: float) -> ml.Board:
    """A rows x cols grid (1..max_side) with n states: a torus with probability ``wrap``,
    a mixed map of two patterns (15 %) or one pattern, and with probability ``locks``
    about 1/8 of the tiles locked and 1/8 holes (never every tile a hole)."""
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    kw: dict = {"states": n, "wrap": bool(rng.random() < wrap)}
    if rng.random() < 0.15:
        pal = [random_pattern(rng) for _ in range(2)]
        index = rng.integers(0, 2, size=(rows, cols))
        kw["pattern"] = [[pal[i] for i in row] for row in index.tolist()]
    else:
        kw["pattern"] = random_pattern(rng)
    if rng.random() < locks:
        kind = rng.integers(0, 8, size=(rows, cols))
        kw["locked"] = [(int(a), int(b)) for a, b in zip(*np.nonzero(kind == 0))]
        kw["holes"] = [(int(a), int(b)) for a, b in zip(*np.nonzero(kind == 1))]
        if len(kw["holes"]) == rows * cols:
            kw["holes"] = kw["holes"][1:]
    return ml.Board.grid(rows, cols, **kw)


def same(call_py, call_c):
    """(value, value), or both raise ValueError with one message: (None, None)."""
    try:
        want = call_py()
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            call_c()
        assert str(got.value) == str(e)
        return None, None
    return want, call_c()


def check_structure(cs, ps: ml.Solver, b: ml.Board, in_ker: int | None = None) -> None:
    """Nullity, rank, kernel size, is_unique equal; the canonical generators and orders
    exactly Solver.kernel() / kernel_orders, the first ``in_ker`` (None: all) applied
    to check that each is in ker A with its order, and the orders' product |ker A|."""
    assert cs.nullity == ps.nullity
    assert cs.rank == ps.rank
    assert cs.kernel_size == ps.kernel_size
    assert cs.is_unique == ps.is_unique
    H, orders = cs.kernel()
    K = ps.kernel()
    if ps._canonical:  # within csrc/search/canon.h's work bound: one canonical form
        assert np.array_equal(H, K)
        assert orders == ps.kernel_orders
    else:  # past it each engine's own generators: as many, every one in ker A
        assert H.shape == K.shape
        assert sorted(orders) == sorted(ps.kernel_orders)
        in_ker = None
    n = b.states
    for h, o in list(zip(H, orders))[:in_ker]:
        assert not b.apply_vector(h).any()
        assert not (h.astype(np.int64) * o % n).any()
    assert int(np.prod(orders, dtype=object)) == ps.kernel_size


def check_solves(cs, ps: ml.Solver, b: ml.Board, rng, solves: int = 3) -> None:
    """``solves`` random states (the first solvable: -A x; values up to 3n - 1) to the
    targets 0, a random integer, a random board: solvable() equal; C's solution takes
    the state to the target, counts its taps, and is proven exactly when the kernel is
    trivial (Solution(..., ks == 1)); else both raise Python's Unsolvable message."""
    n = b.states
    shape = b.shape if b.is_grid else (b.n_cells,)
    for t in range(solves):
        state = rng.integers(0, 3 * n, size=shape)
        if t == 0:  # a solvable one: -A x
            x = rng.integers(0, n, size=b.n_taps)
            state = (-b.apply(np.zeros(shape, dtype=np.int64), b.from_tap_vector(x))) % n
        target = (0, int(rng.integers(0, 300)), rng.integers(0, n, size=shape))[t % 3]
        ok = ps.solvable(state, target)
        assert cs.solvable(state, target) == ok
        if ok:
            taps, length, proven, ks = cs.solve(state, target)
            assert ks == ps.kernel_size and proven == (ks == 1)  # Solution(..., ks == 1)
            assert length == int(taps.sum())
            x = b.tap_vector(taps if not b.is_grid else taps.reshape(b.shape))
            assert np.array_equal(b.apply_vector(x), b._rhs_cells(state, target))
        else:
            with pytest.raises(ml.Unsolvable) as e:
                ps.solve(state, target, minimal=False)
            with pytest.raises(ValueError) as got:
                cs.solve(state, target)
            assert str(got.value) == str(e.value)


def oracle_solver(b: ml.Board) -> ml.Solver:
    """An engine independent of the C structured engines (algebraic, lifted, tensor) for
    comparing them: the pure-NumPy reference engine on small boards, the chase (light
    chasing, another algorithm and C module) on larger grids it covers, else the dense
    engine."""
    from modlights.engines.reference import reference_reason

    if b.n_cells * b.n_taps <= 200 * 200 and not reference_reason(b.n_cells, b.n_taps, b.states):
        return ml.Solver(b, backend="reference")
    try:
        return ml.Solver(b, method="chase")
    except ValueError:
        return ml.Solver(b, method="dense")
