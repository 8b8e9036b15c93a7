"""The chase engines on Z/3, Z/4, Z/8 (their symbolic chase bit-sliced, 2 or 3
bit-planes: csrc/chase/symbolic.c, csrc/base/bitslice.h) and on n = 5, 9 (bytes, delayed
reduction) against the reference engine and Board.apply, on every SIMD path this CPU
supports (the binding's runtime setter, and MODLIGHTS_SIMD in a subprocess), wide
boards whose symbolic chase runs many blocks included. The residual matrices themselves
(bit-sliced against bytes and the numeric replay, every block width, thread count and
SIMD path, the mirror, prefixes of the rows) are checked in C: csrc/tests/t-symbolic.c,
t-runner.c."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine
from modlights.engines.reference import ReferenceEngine
from modlights.native import _core as _chase
from oracle import group_closure_size
from simd import simd_fixture
from strategies import chase_boards, random_masks

NAMES = sorted(ml.PATTERNS)
PATHS = _chase.simd_paths()
simd = simd_fixture(_chase)


def packed_boards(max_side=10, n_values=(3, 4, 8, 3, 4, 8, 5, 9)):
    return chase_boards(max_side=max_side, n_values=n_values, p_locks=(0.0, 0.05, 0.2))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(packed_boards(max_side=8), st.integers(0, 2))
def test_packed_chase_equals_reference(simd, case, tkind):
    b, seed = case
    n = b.states
    rng = np.random.default_rng(seed)
    A = b.matrix().astype(np.int64)
    ref = ReferenceEngine(b.matrix(), n)
    chase = NativeEngine(b, "chase")
    assert chase.kernel_size == ref.kernel_size
    H, orders = chase.generators()
    assert not (A @ H.T.astype(np.int64) % n).any()  # in the kernel
    if ref.kernel_size <= 20000:  # and spanning it
        assert group_closure_size(H, n) == ref.kernel_size
    for solvable in (True, False):
        state = b.random_state(rng=rng, solvable=solvable)
        target = 0 if tkind == 0 else (1 if tkind == 1 else rng.integers(0, n, size=b.shape))
        t = b.coerce_target(target)
        rhs = (b.cell_vector(t).astype(np.int64) - b.cell_vector(b.coerce_state(state))) % n
        X, ok = chase.solve(rhs[None, :])
        _, ok_ref = ref.solve(rhs[None, :])
        assert bool(ok[0]) == bool(ok_ref[0])
        if ok[0]:
            assert (b.apply(state, b.from_tap_vector(X[0])) == t).all()


WIDE = [  # (rows, cols, pattern, locked fraction, holes fraction, wrap): > 512 symbols
    (4, 700, "cross", 0.0, 0.0, False),  # mirrored: half the blocks run
    (5, 600, "cross", 0.02, 0.0, False),
    (6, 530, "square", 0.0, 0.01, False),
    (5, 520, "knight", 0.01, 0.0, False),
    (4, 540, "diagonal", 0.0, 0.0, True),
    (4, 600, [(0, 0), (1, 0), (1, 2), (-2, -1)], 0.0, 0.0, False),
]


@pytest.mark.parametrize("n", [3, 4, 8])
@pytest.mark.parametrize("case", WIDE)
def test_wide_boards_many_blocks(simd, n, case):
    """Boards past 512 symbols (several blocks of the symbolic chase: every block width,
    thread count and the mirror in csrc/tests/t-runner.c): answers by Board.apply."""
    rows, cols, pattern, pl, ph, wrap = case
    rng = np.random.default_rng(rows * cols + n)
    locked, holes = random_masks(rng, (rows, cols), pl, ph)
    b = ml.Board.grid(rows, cols, states=n, pattern=pattern, locked=locked, holes=holes, wrap=wrap)
    s = ml.Solver(b, method="chase")
    state = b.random_state(rng=rng, solvable=True)
    assert not b.apply(state, s.solve(state, minimal=False).taps).any()


def test_set_simd_rejects_bad_names():
    before = _chase.get_simd()
    with pytest.raises(ValueError, match="unknown SIMD path"):
        _chase.set_simd("sse9")
    with pytest.raises(ValueError, match="unknown SIMD path"):
        _chase.set_simd(3)
    assert _chase.get_simd() == before
    assert "portable" in PATHS and before in PATHS


_SUBPROCESS = f"""
import sys
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
import numpy as np, modlights as ml
from modlights.native import _core as _chase
print(_chase.get_simd())
for n in (3, 4, 8, 2):
    b = ml.Board.grid(9, 300, states=n, pattern="square", locked=[(3, 7), (5, 200)])
    s = b.random_state(rng=n, solvable=True)
    assert not b.apply(s, ml.Solver(b, method="chase").solve(s, minimal=False).taps).any()
print("ok")
"""


@pytest.mark.parametrize("path", PATHS)
def test_modlights_simd_environment(path):
    env = dict(os.environ, MODLIGHTS_SIMD=path)
    out = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [path, "ok"]


@pytest.mark.parametrize("n", [3, 4, 8, 9])
def test_engine_on_a_masked_board(n):
    """The light chase on a board with locks and holes (its symbolic chase bit-sliced for
    n = 3, 4, 8: the same matrix as bytes, csrc/tests/t-runner.c): the engine's answers
    solve the board, its generators lie in the kernel."""
    rng = np.random.default_rng(n)
    locked, holes = random_masks(rng, (40, 70), 0.03, 0.01)
    b = ml.Board.grid(40, 70, states=n, pattern="square", locked=locked, holes=holes)
    state = b.random_state(rng=rng, solvable=True)
    e = NativeEngine(b, "chase-light")
    H, orders = e.generators()
    assert not (b.matrix().astype(np.int64) @ H.T.astype(np.int64) % n).any()
    rhs = (-b.cell_vector(b.coerce_state(state)).astype(np.int64)) % n
    X, ok = e.solve(rhs[None, :])
    assert ok[0] and not b.apply(state, b.from_tap_vector(X[0])).any()
