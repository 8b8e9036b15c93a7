"""Bit-packed GF(2) solves (``solve_packed``) of the tensor engine: square, horizontal,
vertical and custom product patterns, tori, sizes across word and byte boundaries,
against the unpacked byte solve of the same engine, the dense engine's solvability, the
reference engine on small boards and Board.apply; the column solve each side gets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import modlights as ml
import modlights.engines.tensor.engine as tensor_mod
from modlights.engines.tensor.engine import BandFactor, TensorEngine, tensor_reason
from packing import check_solve_packed, eng_solver, product_patterns, start_and_target, unpack_bits


@pytest.mark.parametrize("column_path", ["auto", "strips"])
@settings(max_examples=60, deadline=None)
@given(
    pattern=product_patterns(),
    rows=st.integers(1, 24),
    cols=st.integers(1, 140),
    wrap=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    solvable=st.booleans(),
    tkind=st.integers(0, 2),
)
def test_tensor_solve_packed(column_path, pattern, rows, cols, wrap, seed, solvable, tkind):
    """Random product boards (tori too), sizes across word and byte boundaries, with
    and without a kernel; the column direction by the in-place row solve where it
    applies ("auto") and forced through transposed strips of 8 rows ("strips", many
    strips, a partial last one)."""
    b = ml.Board.grid(rows, cols, pattern=pattern, wrap=wrap)
    assume(tensor_reason(b) is None)
    rng = np.random.default_rng(seed)
    s, target, ps, pt = start_and_target(b, rng, solvable, tkind)
    eng = TensorEngine(b)
    assert eng.packs
    byte = ml.Solver(b, method="tensor")
    with pytest.MonkeyPatch.context() as mp:
        if column_path == "strips":
            mp.setattr(tensor_mod, "STRIP_ROWS", 8)
            mp.setattr(BandFactor, "packed_row_solver", lambda self: None)
        check_solve_packed(b, eng_solver(eng, b, "tensor"), s, target, ps, pt, byte)


def test_tensor_square_sizes_with_and_without_kernel():
    """Square boards whose factors are singular (side 2 mod 3: a kernel, the strips) or
    not (the row solve), wide rows of several words, random solvable and unsolvable
    starts through Solver.solve_packed (auto picks the tensor engine)."""
    rng = np.random.default_rng(15)
    seen = set()
    for rows, cols in [(30, 200), (29, 200), (31, 197), (64, 128), (65, 131), (40, 514)]:
        b = ml.Board.grid(rows, cols, pattern="square")
        solver = ml.Solver(b)
        assert solver.method == "tensor"
        for solvable in (True, False):
            s, target, ps, pt = start_and_target(b, rng, solvable, int(rng.integers(0, 3)))
            seen.add(check_solve_packed(b, solver, s, target, ps, pt, solver))
        seen.add(("kernel", solver.nullity > 0))
    assert seen >= {True, False, ("kernel", True), ("kernel", False)}


def test_tensor_row_solvers_by_side():
    """Which column solve each side gets (the path I + P is singular for cols = 2 mod 3;
    its circulant on a torus also for cols = 0 mod 3; the strips then) and that each
    gives the byte solve's taps, tori included."""
    rng = np.random.default_rng(8)
    kinds = set()
    for cols in range(1, 40):
        for wrap in (False, True):
            b = ml.Board.grid(7, cols, pattern="square", wrap=wrap)
            eng = TensorEngine(b)
            C = eng._parts[0][3]
            kind = type(C.packed_row_solver()).__name__
            invertible = C.nullity == 0 and cols >= 3 and cols % 3 != 2
            assert (kind != "NoneType") == (invertible and not (wrap and cols % 3 == 0)), (
                cols,
                wrap,
                kind,
            )
            kinds.add(kind)
            s = b.random_state(rng=rng)
            x = eng.solve_packed(np.packbits(s, axis=1))
            assert np.array_equal(
                unpack_bits(x, cols), ml.Solver(b, method="tensor").solve(s, minimal=False).taps
            )
    assert kinds == {"SymChase", "_CirculantRows", "NoneType"}
