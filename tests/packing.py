"""Helpers of the bit-packed GF(2) solve tests: packed states with garbage past the last
column, unpacking, and the check of one packed solve against the byte solve, the dense
engine and Board.apply; hypothesis strategies for product and symmetric patterns."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

import modlights as ml


def garbage_tail(a: np.ndarray, cols: int) -> np.ndarray:
    """a with the bits past the last column set (they must be ignored)."""
    a = a.copy()
    if cols % 8:
        a[:, -1] |= np.uint8((1 << (8 - cols % 8)) - 1)
    return a


def unpack_bits(a: np.ndarray, cols: int) -> np.ndarray:
    bits = np.unpackbits(a, axis=1)
    assert not bits[:, cols:].any(), "bits past the last column must be 0"
    return bits[:, :cols]


def start_and_target(b, rng, solvable: bool, tkind: int):
    """(state, target, packed state with a garbage tail, packed target or int)."""
    s = b.random_state(rng=rng, solvable=solvable)
    target = [0, 1, rng.integers(0, 2, size=b.shape).astype(np.uint8)][tkind]
    pt = target if tkind < 2 else garbage_tail(np.packbits(target, axis=1), b.shape[1])
    return s, target, garbage_tail(np.packbits(s, axis=1), b.shape[1]), pt


def check_solve_packed(b, solver, s, target, ps, pt, byte_solver):
    """solve_packed raises Unsolvable exactly when the dense engine says unsolvable;
    otherwise its taps solve the board (Board.apply) and equal the unpacked solve of
    the same engine (the same generalised inverse, bit for bit)."""
    rows, cols = b.shape
    dense = ml.Solver(b, method="dense")
    if not dense.solvable(s, target):
        with pytest.raises(ml.Unsolvable):
            solver.solve_packed(ps, pt)
        return False
    x = solver.solve_packed(ps, pt)
    assert x.dtype == np.uint8 and x.shape == (rows, (cols + 7) // 8)
    taps = unpack_bits(x, cols)
    assert np.array_equal(b.apply(s, taps), b.coerce_target(target))
    assert np.array_equal(taps, byte_solver.solve(s, target, minimal=False).taps)
    if b.n_taps <= 12:  # brute-force-sized: the reference
        assert ml.Solver(b, backend="reference").solvable(s, target)
    return True


def eng_solver(eng, b, method="algebraic"):
    """A Solver whose engine is ``eng`` (the symmetric engine also on boards the cross
    family's engine would take under method='algebraic')."""
    s = ml.Solver(b, method=method)
    s._eng = eng
    return s


@st.composite
def product_patterns(draw):
    """Offset multisets whose counts factor, cnt(dr, dc) = a(dr) b(dc): a named one or
    a random row set times a random column set (counts up to 3 and 2)."""
    kind = draw(st.sampled_from(["square", "horizontal", "vertical", "custom", "custom"]))
    if kind != "custom":
        return kind
    a = draw(st.dictionaries(st.integers(-2, 2), st.integers(1, 3), min_size=1, max_size=3))
    c = draw(st.dictionaries(st.integers(-2, 2), st.integers(1, 2), min_size=1, max_size=3))
    pat = [(dr, dc) for dr, ka in a.items() for dc, kc in c.items() for _ in range(ka * kc)]
    return draw(st.permutations(pat))


@st.composite
def sym_patterns(draw):
    """Left-right symmetric patterns in the 3 x 3 box (diagonal, the ring and custom
    ones): per row offset a count of (dr, 0) and of the pair (dr, -1), (dr, +1)."""
    kind = draw(st.sampled_from(["diagonal", "ring", "custom", "custom"]))
    if kind == "diagonal":
        return "diagonal"
    if kind == "ring":
        return [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    pat = []
    for dr in (-1, 0, 1):
        pat += [(dr, 0)] * draw(st.integers(0, 2))
        pat += [(dr, -1), (dr, 1)] * draw(st.integers(0, 2))
    return draw(st.permutations(pat or [(0, 0)]))
