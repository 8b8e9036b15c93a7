"""The registry's dense Z/n engine (``dense-zn``: the C solver's dense engine through
modlights.engines.native's adapter) against the engine it replaced, ZnEngine built as
engines/dense.py built it (the same elimination of csrc/dense/zn.c, bound on its own):
on random boards (every named pattern and random offsets, n 3..9, 16 and 251, locks,
holes, wrap, odd and even sides, graph boards with repeated cells, from_matrix boards)
the same nullity, kernel size, generators and orders, det, inverse and
pseudo-inverse (or the same ValueError), and solves of random right-hand sides with the
same solvability and the same taps; and the registry builds it for "dense-zn" and as
the fallback of the structured engines. Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from modlights.engines import registry
from modlights.engines.native import NativeEngine
from modlights.model.patterns import PATTERNS
from modlights.native._core import ZnEngine

NAMES = list(PATTERNS)


def _zn(board):
    """ZnEngine as engines/dense.py built it (the matrix as given, else coordinates)."""
    if board._dense is not None:
        return ZnEngine(board.matrix(), board.states)
    ci, tj = board.coo()
    return ZnEngine.from_coo(board.n_cells, board.n_taps, ci, tj, board.states)


def _boards(seed, count):
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = int(rng.choice([3, 4, 5, 6, 7, 8, 9, 16, 251]))
        if i % 7 == 6:  # a graph board: repeated cells, empty taps
            taps = int(rng.integers(1, 12))
            cells = int(rng.integers(1, 12))
            eff = [rng.integers(0, cells, int(rng.integers(0, 5))).tolist() for _ in range(taps)]
            yield ml.Board.from_effects(eff, states=n, n_cells=cells)
            continue
        if i % 7 == 5:
            m, r = (int(v) for v in rng.integers(1, 10, 2))
            yield ml.Board.from_matrix(rng.integers(0, 1000, (m, r)), n)
            continue
        rows, cols = (int(v) for v in rng.integers(1, 9, 2))
        u = rng.random((rows, cols))
        kind = i % 4
        pattern = (
            NAMES[i % len(NAMES)]
            if i % 3
            else [(int(rng.integers(-2, 3)), int(rng.integers(-2, 3))) for _ in range(4)]
        )
        yield ml.Board.grid(
            rows,
            cols,
            states=n,
            pattern=pattern,
            locked=u < 0.15 if kind == 1 else None,
            holes=u > 0.85 if kind == 2 else None,
            wrap=kind == 3,
        )


def _same_answer(f, g):
    """f() and g() give equal arrays / ints, or raise ValueError with one message."""
    try:
        want = f()
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            g()
        assert str(got.value) == str(e)
        return
    got = g()
    assert np.array_equal(np.asarray(got), np.asarray(want))


def _compare(board, rng):
    ours, old = NativeEngine(board, "dense-zn"), _zn(board)
    assert (ours.nullity, ours.kernel_size) == (old.nullity, old.kernel_size)
    H, orders = ours.generators()
    H2, orders2 = old.generators()
    assert list(orders) == list(orders2) and np.array_equal(H, H2)
    for limit in (0, 1):
        assert np.array_equal(ours.generators(limit)[0], old.generators(limit)[0])
    if board.n_cells == board.n_taps:
        _same_answer(old.det, ours.det)
    _same_answer(old.inverse, ours.inverse)
    _same_answer(old.pseudo_inverse, ours.pseudo_inverse)
    n, m = board.states, board.n_cells
    R = rng.integers(0, n, (5, m)).astype(np.uint8)
    x = rng.integers(0, n, (3, board.n_taps)).astype(np.int64)
    A = board.matrix().astype(np.int64)
    R = np.concatenate([R, ((x @ A.T) % n).astype(np.uint8)])  # solvable ones too
    X, ok = ours.solve(R)
    X2, ok2 = old.solve(R)
    assert np.array_equal(ok, ok2) and ok[5:].all()
    assert np.array_equal(X[ok], X2[ok2])


def test_dense_zn_answers_as_the_zn_engine():
    rng = np.random.default_rng(5)
    for board in _boards(1, 60):
        _compare(board, rng)


@pytest.mark.matrix
def test_dense_zn_answers_as_the_zn_engine_on_many_boards():
    rng = np.random.default_rng(6)
    for board in _boards(2, 1500):
        _compare(board, rng)
    for k in (40, 61):  # larger boards, odd and even sides
        for n in (3, 4, 6, 9):
            _compare(ml.Board.grid(k, k + 1, states=n, pattern="knight"), rng)


def test_the_registry_builds_it():
    b = ml.Board.grid(4, 5, states=6)
    assert type(registry.build_named(b, "dense-zn")).__name__ == "NativeEngine"
    s = ml.Solver(ml.Board.grid(30, 30, states=3), method="chase")
    fb = registry.fallback(s.board, s.plan)
    assert isinstance(fb, NativeEngine) and fb.name == "dense-zn"
    assert type(registry.build_named(ml.Board.grid(3, 3), "dense-gf2")).__name__ == "NativeEngine"
