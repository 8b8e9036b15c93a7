"""Second review of the session's new code (tensor engine, csrc/band.c, bit-sliced Z/q,
chase fast paths): the C band chase against a NumPy model of its formula, the tensor
engine against the reference engine on the moduli and sides the first tests leave out,
its memory on composite n, and giant boards refused where they need byte states."""
from __future__ import annotations

import pickle
import threading
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.native._core import band_chase
from modlights.engines.tensor.engine import TensorEngine, tensor_reason


# ---------------------------------------------------------------- csrc/band.c
def _chase_model(B, Y, brow, yrow, refs, coefs, n, inv):
    """The formula of csrc/band.h, one step after another, in Python integers."""
    Y = Y.astype(np.int64)
    for t in range(len(brow)):
        row = inv * B[brow[t]].astype(np.int64)
        for r, c in zip(refs[t], coefs[t]):
            if r >= 0:
                row = row + int(c) * Y[r]
        Y[yrow[t]] = row % n
    return Y.astype(np.uint8)


@st.composite
def chase_programs(draw):
    """A random step program: any n (GF(2) with coefficients 0 and inverse 0 too), rows
    reading earlier or later rows of Y but never the row they write, any lut length."""
    n = draw(st.sampled_from([2, 2, 3, 4, 5, 7, 8, 16, 255]))
    rows = draw(st.integers(1, 6))
    k = draw(st.integers(0, 19))
    m = draw(st.integers(1, 4))
    nsteps = draw(st.integers(0, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    B = rng.integers(0, n, (rows, k)).astype(np.uint8)
    Y = rng.integers(0, n, (rows, k)).astype(np.uint8)
    brow = rng.integers(0, rows, nsteps).astype(np.int64)
    yrow = rng.integers(0, rows, nsteps).astype(np.int64)
    refs = rng.integers(-2, rows, (nsteps, m)).astype(np.int64)
    refs[refs == yrow[:, None]] = -1
    coefs = rng.integers(0, n, (nsteps, m)).astype(np.uint32)
    inv = draw(st.integers(0, n - 1))
    lutlen = draw(st.sampled_from([0, 1, 7, (n - 1) ** 2 * (m + 1) + 1]))
    lut = (np.arange(lutlen) % n).astype(np.uint8)
    return B, Y, brow, yrow, refs, coefs, n, inv, lut


@settings(max_examples=300, deadline=None)
@given(chase_programs())
def test_band_chase_equals_its_formula(prog):
    """Every step program gives the values of the formula (GF(2) included: zero
    coefficients and a zero inverse are not XORs; a lut shorter than the sums falls
    back to %)."""
    B, Y, brow, yrow, refs, coefs, n, inv, lut = prog
    want = _chase_model(B, Y, brow, yrow, refs, coefs, n, inv)
    band_chase(B, Y, brow, yrow, refs, coefs, n, inv, 0, len(brow), lut)
    assert np.array_equal(Y, want)


def test_band_chase_refuses_what_it_cannot_do():
    """A step reading its own row, a wrong lut, and sums past 32 bits: ValueError
    before any C runs (nothing written)."""
    B = np.ones((3, 4), np.uint8)
    Y = np.zeros((3, 4), np.uint8)
    one = np.array([1], np.int64)
    empty = np.zeros(0, np.uint8)
    with pytest.raises(ValueError, match="reads the row 1 it writes"):
        band_chase(B, Y, one, one, np.array([[1]], np.int64), np.ones((1, 1), np.uint32),
                   3, 1, 0, 1, empty)
    with pytest.raises(ValueError, match=r"lut\[2\] = 0, not 2 mod 5"):
        band_chase(B, Y, one, one, np.array([[0]], np.int64), np.ones((1, 1), np.uint32),
                   5, 1, 0, 1, np.array([0, 1, 0], np.uint8))
    m = 70000
    with pytest.raises(ValueError, match="32 bits"):
        band_chase(B, Y, one, one, np.zeros((1, m), np.int64),
                   np.full((1, m), 254, np.uint32), 255, 1, 0, 1, empty)
    assert not Y.any()


# ---------------------------------------------------------------- the tensor engine
@st.composite
def tensor_boards(draw):
    """Product-pattern boards the tensor engine covers: composite n with several prime
    powers (9, 10, 12, 25, 255), tiny sides on tori, repeated offsets (counts > 1)."""
    n = draw(st.sampled_from([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 25, 255]))
    if draw(st.booleans()):
        pattern = draw(st.sampled_from(["square", "horizontal", "vertical"]))
    else:
        a = draw(st.dictionaries(st.integers(-3, 3), st.integers(1, 3), min_size=1,
                                 max_size=3))
        b = draw(st.dictionaries(st.integers(-3, 3), st.integers(1, 2), min_size=1,
                                 max_size=3))
        pattern = [(dr, dc) for dr, ca in a.items() for dc, cb in b.items()
                   for _ in range(ca * cb)]
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    wrap = draw(st.booleans())
    board = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap)
    return board, draw(st.integers(0, 2**32 - 1))


def _at_target(board, state, taps, target):
    end = board.apply(state, taps)
    return np.array_equal(end % board.states,
                          np.broadcast_to(np.asarray(target) % board.states, board.shape))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(tensor_boards())
def test_tensor_equals_reference(case):
    """Kernel size, nullity, rank, det, inverse, pseudo-inverse, solvability, solutions
    (checked by Board.apply),
    the least length and its proved flag, the set of every solution, and a pickled
    copy: the tensor engine against the reference engine."""
    board, seed = case
    if tensor_reason(board) is not None:
        return
    rng = np.random.default_rng(seed)
    t = ml.Solver(board, method="tensor")
    ref = ml.Solver(board, backend="reference")
    for name in ("kernel_size", "nullity", "rank", "is_invertible", "is_unique"):
        assert getattr(t, name) == getattr(ref, name), name
    n = board.states
    A = board.matrix().astype(np.int64)
    assert t.det() == ref.det()                       # a product board's A is square
    if ref.is_invertible:
        inv = t.inverse().astype(np.int64)
        assert np.array_equal(A @ inv % n, np.eye(len(A), dtype=np.int64))
    else:
        with pytest.raises(ValueError):
            t.inverse()
    try:
        G = t.pseudo_inverse().astype(np.int64)
    except ValueError:
        with pytest.raises(ValueError):
            ref.pseudo_inverse()
    else:
        assert np.array_equal(A @ G % n @ A % n, A % n)
    K = t.kernel().astype(np.int64)
    assert not (A @ K.T % n).any()
    copy = pickle.loads(pickle.dumps(t))
    for solvable in (True, False):
        state = board.random_state(rng=rng, solvable=solvable)
        target = rng.integers(0, n, board.shape) if rng.random() < 0.5 else 1
        assert t.solvable(state, target) == ref.solvable(state, target)
        if not ref.solvable(state, target):
            with pytest.raises(ml.Unsolvable):
                t.solve(state, target)
            continue
        sol = t.solve(state, target, minimal=False)
        assert _at_target(board, state, sol.taps, target)
        assert np.array_equal(copy.solve(state, target, minimal=False).taps, sol.taps)
        if ref.kernel_size <= 4096:
            mt, mr = t.solve(state, target), ref.solve(state, target)
            assert (mt.length, mt.proven_minimal) == (mr.length, mr.proven_minimal)
            assert _at_target(board, state, mt.taps, target)
        if ref.kernel_size <= 512:
            got = sorted(x.tobytes() for x in t.solutions(state, target))
            want = sorted(x.tobytes() for x in ref.solutions(state, target))
            assert got == want


def test_tensor_composite_generators_in_bytes():
    """Kernel generators over a composite n (CRT over the parts) are built in bytes:
    the peak stays a small multiple of the basis (k x taps bytes), not 8 bytes an
    entry; and they generate the kernel (orders multiply to kernel_size)."""
    side = 161                                  # 2 mod 3: singular mod 2, nullity 321
    board = ml.Board.grid(side, side, states=6, pattern="square")
    engine = TensorEngine(board)
    basis = engine.nullity * side * side
    tracemalloc.start()
    try:
        H, orders = engine.generators()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert H.dtype == np.uint8 and H.shape == (engine.nullity, side * side)
    assert peak < 3 * basis + (8 << 20), (peak, basis)
    assert np.prod([int(o) for o in orders], dtype=object) == engine.kernel_size
    for h in H[[0, -1]]:
        assert not board.apply(np.zeros(board.shape, np.uint8), h.reshape(side, side)).any()
    small = ml.Board.grid(5, 5, states=6, pattern="square")
    ref = ml.Solver(small, backend="reference")
    Hs, orders_s = TensorEngine(small).generators()
    assert np.prod(orders_s) == ref.kernel_size
    for h in Hs:
        assert not small.apply(np.zeros((5, 5), np.uint8), h.reshape(5, 5)).any()


def test_hardest_refuses_giant_boards():
    """hardest() on a board past MAX_TILES (analysed by the tensor or the algebraic
    engine) is a ValueError, not a 75 GiB allocation."""
    for pattern in ("square", "cross"):
        s = ml.Solver(ml.Board.grid(100000, 100000, states=2, pattern=pattern))
        with pytest.raises(ValueError, match="hardest on a board of more than"):
            s.hardest(budget=0.1)


def test_tensor_engines_from_threads():
    """Tensor solvers built and used from several threads at once (the web service's
    thread pool): more boards than the factor cache keeps, so threads evict each
    other's entries; every answer checked by Board.apply."""
    from concurrent.futures import ThreadPoolExecutor

    def work(i):
        n = (2, 3, 5, 6, 7)[i % 5]
        board = ml.Board.grid(48 + i % 7, 49 + i % 11, states=n, pattern="square",
                              wrap=bool(i % 2))
        solver = ml.Solver(board)
        assert solver.method == "tensor"
        rng = np.random.default_rng(i)
        state = board.random_state(rng=rng)
        sol = solver.solve(state, minimal=False)
        return _at_target(board, state, sol.taps, 0)

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, range(48)))


def test_cli_png_scale_needs_png(capsys):
    """--png-scale without --png was ignored without a word: now exit 2, one line."""
    from modlights.cli import main
    rc = main(["solve", "--grid", "3x3", "--seed", "1", "--png-scale", "4"])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "--png FILE" in err
    assert main(["solve", "--grid", "3x3", "--seed", "1", "--png-scale", "1"]) == 0


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signals reach the main thread only")
def test_interrupted_tensor_solve_stops_and_answers_afterwards():
    """Ctrl-C during tensor solves (the band chase runs in chunks, GIL released) stops
    within a second, and the same Solver (its factors shared through the cache) then
    gives right answers."""
    from test_interrupt import LATENCY, _interrupt_main_after
    board = ml.Board.grid(1500, 1500, states=3, pattern="square")
    solver = ml.Solver(board, method="tensor")
    state = board.random_state(rng=np.random.default_rng(6))
    timer = _interrupt_main_after(0.3)
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        for _ in range(1000):                   # minutes: outlasts the timer
            solver.solve(state, minimal=False)
    assert time.perf_counter() - t0 < 0.3 + LATENCY
    timer.join()
    sol = solver.solve(state, minimal=False)
    assert not board.apply(state, sol.taps).any()
