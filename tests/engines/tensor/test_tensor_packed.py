"""Bit-packed GF(2) solves (``solve_packed``) of the tensor engine: square, horizontal,
vertical and custom product patterns, tori, sizes across word and byte boundaries,
against the unpacked byte solve of the same engine, the dense engine's solvability, the
reference engine on small boards and Board.apply; the column solve each side gets."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from packing import check_solve_packed, eng_solver, product_patterns, start_and_target


def tensor_reason(b):
    """None when the C tensor engine covers b, else its reason."""
    return covers("tensor", b)


def TensorEngine(b):
    """The C tensor engine through the Engine adapter."""
    return NativeEngine(b, "tensor")


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
def test_tensor_solve_packed(pattern, rows, cols, wrap, seed, solvable, tkind):
    """Random product boards (tori too), sizes across word and byte boundaries, with
    and without a kernel (the C engine's column direction: transposed strips of
    STRIP_ROWS rows; t-engines-tensor checks the strips' boundaries)."""
    b = ml.Board.grid(rows, cols, pattern=pattern, wrap=wrap)
    assume(tensor_reason(b) is None)
    rng = np.random.default_rng(seed)
    s, target, ps, pt = start_and_target(b, rng, solvable, tkind)
    eng = TensorEngine(b)
    assert eng.packs
    byte = ml.Solver(b, method="tensor")
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
