"""The row-solve chase over Z/n (csrc/chase/rowsolve*.c, the engine "chase-rowsolve"):
random eligible patterns (a last row of taps that is a pair (D, -a), (D, +a) with unit
coefficients, random extra offsets above it with random multiplicities) against the
dense engine and Board.apply, on every SIMD path; the knight and the diagonal over n on
both sides of the byte way's bound; many sources and large coefficients; the pair alone;
large boards against the light chase; boards whose pair is not a unit keep the light
chase; a stop and SIGINT stop the symbolic pass. The plan itself (the numeric replay and
the residual matrix against the tap matrix, with and without the mirror image, on one
to three threads, over every block width, bit-sliced and as bytes, on every SIMD path;
eligibility; stops) is checked in C: csrc/tests/t-rowsolve.c. test_rowsolve.py covers
GF(2)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from math import gcd

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from modlights.native import _core as _chase
from simd import simd_fixture
from test_interrupt import LATENCY

simd = simd_fixture(_chase)

N_VALUES = [2, 3, 4, 5, 6, 7, 8, 9, 12, 255]


@st.composite
def eligible_cases(draw, n_values=N_VALUES, max_extra=5):
    """(n, h, w, pattern): a board pattern (tap p affects p + o, an offset repeated k
    times has coefficient k) whose last row of taps is the pair (D, -a), (D, +a) (board
    offsets (-D, +a), (-D, -a)) with unit multiplicities mod n, the extra offsets strictly
    above that row; unit=True keeps every multiplicity 1 (the byte way of the C kernel
    for small n)."""
    n = draw(st.sampled_from(n_values))
    D = draw(st.integers(1, 3))
    a = draw(st.integers(1, 2))
    unit = draw(st.booleans())
    units = [k for k in range(1, n) if gcd(k, n) == 1]
    if unit:
        alpha = beta = 1
    else:
        alpha = draw(st.sampled_from(units))
        beta = draw(st.sampled_from(units))
    pattern = [(-D, a)] * alpha + [(-D, -a)] * beta  # er = D: ec = -a has alpha
    # distinct offsets strictly above the pair (er = -dr < D), none at all included
    # (the pair alone: no source for the chains); the first a tap, the others k = n
    # times too: no tap at all
    extra = draw(
        st.lists(
            st.tuples(st.integers(-D + 1, 2), st.integers(-3, 3)),
            min_size=0,
            max_size=max_extra,
            unique=True,
        )
    )
    for i, o in enumerate(extra):
        top = min(n, 9) if n < 255 else 254
        k = 1 if unit else draw(st.integers(1, top - 1 if i == 0 and top == n else top))
        pattern += [o] * k
    h = draw(st.integers(D + 1, D + 6))
    w = 2 * a * draw(st.integers(1, 3))
    return n, h, w, pattern


SLOW_OK = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@settings(max_examples=120, deadline=None, suppress_health_check=SLOW_OK)
@given(eligible_cases(), st.integers(0, 2**32 - 1))
def test_solver_matches_dense(simd, case, seed):
    n, h, w, pattern = case
    board = ml.Board.grid(h, w, states=n, pattern=pattern)
    # the row-solve chase by name (by default a small or short, wide board takes the
    # light chase when that has fewer symbols)
    solver = ml.Solver(board, method="chase-rowsolve")
    assert solver.plan.engine == "chase-rowsolve"
    engine = solver._engine
    dense = ml.Solver(board, method="dense")
    assert solver.kernel_size == dense.kernel_size
    rng = np.random.default_rng(seed)
    target = rng.integers(0, n, size=board.shape).astype(np.uint8)
    starts = [
        board.random_state(rng, solvable=True),
        board.random_state(rng, solvable=False),
        rng.integers(0, n, size=board.shape).astype(np.uint8),
    ]
    for start in starts:
        try:
            want = dense.solve(start, target, minimal=False)
        except ml.Unsolvable:
            want = None
        try:
            got = solver.solve(start, target, minimal=False)
        except ml.Unsolvable:
            got = None
        assert (got is None) == (want is None)
        if got is not None:
            assert (board.apply(start, got.taps) == target).all()
    # the kernel generators map to zero, and there is one unless the kernel is trivial
    G, orders = engine.generators()
    assert len(orders) == G.shape[0]
    assert (G.shape[0] == 0) == (solver.kernel_size == 1)
    zero = np.zeros(board.shape, dtype=np.uint8)
    for g, o in zip(G, orders):
        assert g.any() and 1 < o <= n and n % o == 0
        assert not board.apply(zero, board.from_tap_vector(g)).any()


@pytest.mark.parametrize("n", [3, 5, 31, 32, 33, 64, 255])
@pytest.mark.parametrize("pattern", ["knight", "diagonal"])
def test_named_patterns_byte_and_16bit_ways(simd, n, pattern):
    """The knight takes the byte way up to n = 32 ((nt + 1)(n - 1) < 256), 16-bit lanes
    past it (both against the replay, the mirror image on and off: t-rowsolve.c): the
    choosing entry takes it, with the dense engine's kernel."""
    board = ml.Board.grid(9, 12, states=n, pattern=pattern)
    engine = NativeEngine(board, "chase")
    assert engine.variant == "chase-rowsolve"
    assert (
        engine.kernel_size
        == NativeEngine(board, "chase-rowsolve").kernel_size
        == ml.Solver(board, method="dense").kernel_size
    )


@pytest.mark.parametrize("n, mult", [(7, 1), (7, 3), (255, 1), (255, 200), (255, 254)])
def test_many_sources_and_large_coefficients(simd, n, mult):
    """The general 16-bit way: more than 8 sources (no unrolled pass), and with n = 255
    coefficients whose sum overflows 16 bits (reduced on the way); the pair 2 and 4
    (units mod 7 and 255)."""
    er = [2, 2] + [1] * 5 + [0] * 5
    ec = [-1, 1] + list(range(-2, 3)) * 2
    cf = [2, 4] + [mult, 1, mult, n - 1, mult] * 2
    pattern = [(-r, -c) for r, c, k in zip(er, ec, cf) for _ in range(k)]
    board = ml.Board.grid(7, 10, states=n, pattern=pattern)
    engine = NativeEngine(board, "chase-rowsolve")
    assert engine.kernel_size == ml.Solver(board, method="dense").kernel_size


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 11, 16, 25, 27, 30, 101, 255])
@pytest.mark.parametrize(
    "D, a, rows, cols", [(1, 1, 5, 6), (1, 1, 40, 40), (2, 1, 7, 4), (1, 2, 6, 8), (3, 2, 9, 12)]
)
def test_pair_without_sources(simd, n, D, a, rows, cols):
    """The pair alone (no centre, no other offset: the chains have no sources): every
    kernel of the symbolic pass (bit-sliced, bytes, 16-bit) and the Solver agree with
    the dense engine. Such boards once read sources that do not exist (a segfault)."""
    pattern = [(-D, a), (-D, -a)]
    board = ml.Board.grid(rows, cols, states=n, pattern=pattern)
    solver, dense = ml.Solver(board, method="chase"), ml.Solver(board, method="dense")
    assert solver.kernel_size == dense.kernel_size
    start = board.random_state(np.random.default_rng(n), solvable=True)
    assert not board.apply(start, solver.solve(start, minimal=False).taps).any()


@pytest.mark.parametrize("n, rows, cols", [(3, 1100, 1100), (5, 300, 600), (4, 300, 600)])
def test_large_board_against_light_chase(n, rows, cols):
    """Boards past the small ones above (several blocks a row: 512 symbols bit-sliced for
    Z/3, 256 bytes otherwise): the same kernel and solvability as the light chase, the
    solution reaching the target; the default engine is the row-solve chase."""
    board = ml.Board.grid(rows, cols, states=n, pattern="knight")
    rs, light = NativeEngine(board, "chase-rowsolve"), NativeEngine(board, "chase-light")
    assert (rs.variant, light.variant) == ("chase-rowsolve", "chase-light")
    assert rs.kernel_size == light.kernel_size
    rng = np.random.default_rng(5)
    start = board.random_state(rng, solvable=True)
    rhs = ((-start.reshape(-1).astype(np.int64)) % n).astype(np.uint8)
    X, ok = rs.solve(rhs[None, :])
    assert ok[0] and not board.apply(start, board.from_tap_vector(X[0])).any()
    assert ml.Solver(board, method="chase").plan.engine == "chase-rowsolve"


@pytest.mark.parametrize("n, k", [(4, 2), (6, 2), (6, 3), (9, 3), (255, 5)])
def test_pair_not_a_unit_keeps_the_light_chase(n, k):
    """The knight with its last-row pair repeated k times, k not a unit mod n: no
    row-solve chase (the chains would divide by k), the light chase answers."""
    pat = list(ml.PATTERNS["knight"])
    last = min(dr for dr, _ in pat)
    pat += [o for o in pat if o[0] == last] * (k - 1)
    board = ml.Board.grid(7, 8, states=n, pattern=pat)
    assert covers("chase-rowsolve", board).startswith("the row-solve chase needs")
    with pytest.raises(ValueError, match="units mod n"):
        ml.Solver(board, method="chase-rowsolve")
    engine = NativeEngine(board, "chase")
    assert engine.variant != "chase-rowsolve"
    assert engine.kernel_size == ml.Solver(board, method="dense").kernel_size
    # the pair once more: multiplicity 3, a unit mod 4 again
    if n == 4:
        board = ml.Board.grid(7, 8, states=4, pattern=pat + [o for o in pat if o[0] == last][:2])
        assert covers("chase-rowsolve", board) is None
        assert NativeEngine(board, "chase").variant == "chase-rowsolve"


def test_requested_interrupt_stops_the_symbolic_pass_then_clears():
    """A stop requested on the flag (as the Ctrl-C hook does) makes the row-solve
    engine's build raise KeyboardInterrupt; the build after that is exact."""
    board = ml.Board.grid(12, 16, states=5, pattern="knight")
    _chase._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        _ = NativeEngine(board, "chase-rowsolve").kernel_size
    engine = NativeEngine(board, "chase-rowsolve")
    assert engine.kernel_size == ml.Solver(board, method="dense").kernel_size


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_stops_a_large_symbolic_pass():
    """SIGINT 0.5 s into the 5000^2 Z/5 knight's symbolic pass (~10 s): the process stops
    within a second (the pass polls every 8 rows)."""
    code = "\n".join(
        [
            "import modlights as ml",
            "b = ml.Board.grid(5000, 5000, states=5, pattern='knight')",
            "print('READY', flush=True)",
            "ml.Solver(b, method='chase-rowsolve').nullity",
            "print('FINISHED', flush=True)",
        ]
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert p.stdout.readline().strip() == "READY", p.stderr.read()
        time.sleep(0.5)
        assert p.poll() is None
        t0 = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        seconds = time.perf_counter() - t0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert "FINISHED" not in out and "KeyboardInterrupt" in err, err[-2000:]
    assert p.returncode != 0 and seconds < LATENCY, seconds
