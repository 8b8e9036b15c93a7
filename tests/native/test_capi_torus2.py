"""The C engine of tori of any pattern (csrc/engines/torus2.c over polymatn.c:
"algebraic-torus2"), through the C API's solver (modlights.native._core.CSolver),
against an independent engine (capi_oracle.oracle_solver: the reference engine on small
boards, the chase or the dense engine past them), the dense engine's nullity and kernel
size, and brute force on the smallest tori:
every named pattern (cross, diagonal, square, horizontal, vertical, knight) and custom
ones, n = 2, 3, 5, 7 (composite n refused with the registry's reason), square and
non-square sides, odd and even, sides p divides, boards whose lead needs a shear or a
transposition: the plan's engine, nullity, rank, kernel size, the canonical kernel
generators (each in ker A), solvable, and solutions that reach the target (or Python's
Unsolvable message). Deterministic (seeded NumPy generators); the sweeps are in the
matrix group."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import modlights as ml
from capi_oracle import c_board, check_solves, check_structure, oracle_solver
from modlights.native import _core

CSolver = _core.CSolver
METHOD = "algebraic-torus2"
NAMED = ["cross", "diagonal", "square", "horizontal", "vertical", "knight"]
CUSTOM = [
    [(0, 0), (1, 2), (-1, 1)],
    [(0, 0), (0, 0), (1, 1), (-2, 0)],
    [(1, 1), (-1, -1), (0, 0), (0, 0), (0, 0)],  # (0,0) 3 times: 0 mod 3
    [(0, 1), (0, -1), (2, 0)],
]
# square and not, odd and even, sides 2, 3, 5 and 7 divide
SIDES = ((5, 5), (6, 6), (4, 8), (6, 9), (7, 7), (9, 6), (10, 5), (6, 3), (7, 14))


def _compare(b: ml.Board, rng, solves: int = 3) -> bool:
    """C against the oracle on b; False (with the same reason from Python's Solver and
    C's) when the engine does not cover b."""
    try:
        ml.Solver(b, method=METHOD)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), METHOD)
        assert str(got.value) == str(e)
        return False
    ps = oracle_solver(b)
    cs = CSolver(c_board(b), METHOD)
    assert cs.plan["engine"] == METHOD
    check_structure(cs, ps, b, in_ker=4)
    check_solves(cs, ps, b, rng, solves)
    dense = ml.Solver(b, method="dense")  # the dense engine too, whatever the oracle
    assert (cs.nullity, cs.kernel_size) == (dense.nullity, dense.kernel_size)
    return True


def _brute_nullity(b: ml.Board) -> int:
    """log_n |ker A| by trying every tap vector (n^taps <= 2^16) against A."""
    n, t = b.states, b.n_taps
    X = np.array(list(itertools.product(range(n), repeat=t)), dtype=np.int64)
    A = np.asarray(b.matrix(), dtype=np.int64)
    zeros = int((~((X @ A.T) % n).any(axis=1)).sum())
    return round(np.log(zeros) / np.log(n))


@pytest.mark.parametrize("pattern", NAMED + [str(i) for i in range(len(CUSTOM))])
def test_every_pattern_small_tori(pattern):
    pat = CUSTOM[int(pattern)] if pattern.isdigit() else pattern
    rng = np.random.default_rng(len(pattern) * 31 + ord(pattern[0]))
    sides = SIDES if pattern != "knight" else ((11, 11), (12, 12), (12, 6), (6, 12))
    covered = 0
    for n in (2, 3, 5, 7):
        for rows, cols in sides:
            b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
            covered += _compare(b, rng, solves=2)
    assert covered >= 8


def test_knight_and_diagonal_need_a_shear():
    """The knight's and the diagonal's extreme rows are pairs: covered through a shear
    (square sides) with the kernel and solves of the oracle."""
    rng = np.random.default_rng(5)
    for pat, n, side in (
        ("knight", 2, 12),
        ("knight", 3, 11),
        ("diagonal", 2, 8),
        ("diagonal", 5, 10),
        ("knight", 7, 11),
    ):
        b = ml.Board.grid(side, side, states=n, pattern=pat, wrap=True)
        assert _compare(b, rng, solves=3)


def test_brute_force_smallest_tori():
    covered = 0
    for pat, n, rows, cols in (
        ("cross", 3, 2, 4),  # 2 rows: worked on transposed
        ("cross", 2, 3, 5),
        ("horizontal", 2, 4, 4),  # sheared a = 1 (or transposed)
        ("vertical", 2, 3, 5),
        ([(0, 0), (1, 1), (-1, 2)], 2, 4, 4),
        ([(1, 1), (-1, -1)], 2, 3, 5),
        ([(0, 0), (1, 1)], 3, 2, 5),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
        cs = CSolver(c_board(b), METHOD)
        assert cs.nullity == _brute_nullity(b), (pat, n, rows, cols)
        covered += 1
    assert covered == 7


def test_composite_n_and_non_tori_refused():
    for n in (4, 6, 9):
        b = ml.Board.grid(6, 6, states=n, pattern="knight", wrap=True)
        with pytest.raises(ValueError, match="n must be a prime"):
            CSolver(c_board(b), METHOD)
    with pytest.raises(ValueError, match="tori only"):
        CSolver(c_board(ml.Board.grid(6, 6, states=2, pattern="knight")), METHOD)
    # a lead only along the long side (w = 2^20 - 1): the diagonal form's O(w^2) steps
    # are past the limit over Z/3, within it over GF(2) (words)
    pat = [(-1, 0), (0, 1), (1, 1), (0, -1), (1, -1)]
    with pytest.raises(ValueError, match=r"at most 2\^37 steps"):
        CSolver(c_board(ml.Board.grid(3, 2**20 - 1, states=3, pattern=pat, wrap=True)), METHOD)
    wide = ml.Board.grid(3, 2**20 - 1, states=2, pattern=pat, wrap=True)
    assert _core.capi_engine_covers(_core.capi_engine_index(METHOD), c_board(wide)) is None


def test_auto_chooses_it_on_large_tori():
    b = ml.Board.grid(200, 200, states=3, pattern="diagonal", wrap=True)
    assert ml.Solver(b).plan.engine == METHOD
    b = ml.Board.grid(200, 200, states=3, pattern="cross", wrap=True)
    assert ml.Solver(b).plan.engine == "algebraic-torus"


@pytest.mark.matrix
def test_many_tori():
    rng = np.random.default_rng(3377)
    for _ in range(300):
        n = int(rng.choice([2, 3, 5, 7, 11]))
        rows, cols = int(rng.integers(1, 15)), int(rng.integers(1, 15))
        if rng.random() < 0.5:
            pat = NAMED[int(rng.integers(len(NAMED)))]
        else:
            k = int(rng.integers(1, 6))
            pat = [(int(rng.integers(-3, 4)), int(rng.integers(-3, 4))) for _ in range(k)]
        if rng.random() < 0.4:
            cols = rows
        _compare(ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True), rng, 2)
