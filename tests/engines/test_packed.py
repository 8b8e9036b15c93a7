"""Bit-packed GF(2) solving (``solve_packed`` / ``apply_packed``, engines/packed.py) of the
symmetric 3 x 3 engine (diagonal, the ring, custom symmetric patterns; boards chased
transposed; the tensor engine's packed solves are in tests/engines/tensor), against the
unpacked byte solves of the same engines, the dense engine's solvability (csrc/gf2.c,
independent of both), the reference engine on small boards and Board.apply; the
streamed packed apply against Board.apply; the giant path never unpacking."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from modlights.engines.packed import apply_packed, odd_offsets, transpose_packed
from modlights.model.board import MAX_TILES
from modlights.native import _core as _packed
from packing import (
    check_solve_packed,
    eng_solver,
    garbage_tail,
    product_patterns,
    start_and_target,
    sym_patterns,
    unpack_bits,
)


def algebraic_reason(b):
    """None when the C algebraic engine of b's kind (a torus or not) covers b."""
    return covers("algebraic-torus" if b.is_grid and b.wrap else "algebraic-cross", b)


def sym_reason(b):
    return covers("algebraic-sym", b)


def tensor_reason(b):
    return covers("tensor", b)


def AlgebraicEngine(b):
    """The C engines through the Engine adapter (modlights.engines.native)."""
    return NativeEngine(b, "algebraic-torus" if b.wrap else "algebraic-cross")


def SymAlgebraicEngine(b):
    return NativeEngine(b, "algebraic-sym")


def TensorEngine(b):
    return NativeEngine(b, "tensor")


# ---------------------------------------------------------------- the symmetric engine
@settings(max_examples=80, deadline=None)
@given(
    pattern=sym_patterns(),
    rows=st.integers(1, 20),
    cols=st.integers(1, 140),
    seed=st.integers(0, 2**32 - 1),
    solvable=st.booleans(),
    tkind=st.integers(0, 2),
)
def test_sym_solve_packed(pattern, rows, cols, seed, solvable, tkind):
    """Random symmetric 3 x 3 boards, both orientations (a diagonal board of odd width
    and even height is chased down its columns: bit transposes on the way)."""
    b = ml.Board.grid(rows, cols, pattern=pattern)
    assume(sym_reason(b) is None)
    eng = SymAlgebraicEngine(b)
    assert eng.packs
    rng = np.random.default_rng(seed)
    s, target, ps, pt = start_and_target(b, rng, solvable, tkind)
    solver = eng_solver(eng, b)
    check_solve_packed(b, solver, s, target, ps, pt, solver)


@pytest.mark.parametrize("pattern", ["diagonal", "ring"])
@pytest.mark.parametrize(
    "shape", [(20, 64), (21, 63), (9, 65), (8, 130), (33, 128), (64, 33), (130, 9)]
)
def test_sym_wide_rows(pattern, shape):
    """Rows of several words, the last one partial or full, both orientations; auto
    picks the symmetric engine from its crossover (registry.CROSSOVER_TILES)."""
    if pattern == "ring":
        pattern = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    b = ml.Board.grid(*shape, pattern=pattern)
    if sym_reason(b) is not None:
        return
    eng = SymAlgebraicEngine(b)
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    for solvable in (True, False):
        s, target, ps, pt = start_and_target(b, rng, solvable, 0)
        check_solve_packed(b, eng_solver(eng, b), s, target, ps, pt, eng_solver(eng, b))


def test_cross_family_chased_down_columns():
    """Boards the algebraic engine chases transposed (horizontal: no (-1, 0) offset)
    now take packed states too (bit transposes around the chase)."""
    rng = np.random.default_rng(4)
    for shape in [(13, 70), (70, 13), (64, 64)]:
        b = ml.Board.grid(*shape, pattern="horizontal")
        eng = AlgebraicEngine(b)
        assert eng.transposed and eng.packs
        for solvable in (True, False):
            s, target, ps, pt = start_and_target(b, rng, solvable, 1)
            check_solve_packed(b, eng_solver(eng, b), s, target, ps, pt, eng_solver(eng, b))


# ---------------------------------------------------------------- apply_packed
@settings(max_examples=60, deadline=None)
@given(
    pattern=st.one_of(
        product_patterns(),
        sym_patterns(),
        st.sampled_from(["cross", "knight"]),
        st.lists(st.tuples(st.integers(-70, 70), st.integers(-70, 70)), max_size=5),
    ),
    rows=st.integers(1, 12),
    cols=st.integers(1, 150),
    wrap=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    tc=st.integers(0, 1),
)
def test_apply_packed_matches_board_apply(pattern, rows, cols, wrap, seed, tc):
    """s + A x streamed from the pattern's odd offsets (any pattern, tori: offsets
    landing on the same tile cancel) equals Board.apply; the count of tiles off tc."""
    b = ml.Board.grid(rows, cols, pattern=pattern, wrap=wrap)
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, size=b.shape, dtype=np.uint8)
    s = rng.integers(0, 2, size=b.shape, dtype=np.uint8)
    px, ps = (garbage_tail(np.packbits(a, axis=1), cols) for a in (x, s))
    want = b.apply(s, x)
    out, bad = apply_packed(b, px, ps, tc)
    assert np.array_equal(unpack_bits(out, cols), want)
    assert bad == int((want != tc).sum())
    none, bad2 = apply_packed(b, px, None, tc, write=False)
    assert none is None and bad2 == int((b.apply(np.zeros_like(s), x) != tc).sum())


def test_odd_offsets_and_transpose():
    """The offsets a tap flips over GF(2) (pairs cancel, tori reduce), and the packed
    transpose against NumPy on shapes across block edges."""
    # on the 3 x 5 torus (4, 6) is (1, 1) (a pair: cancels) and (0, 5) is (0, 0) (three)
    b = ml.Board.grid(3, 5, pattern=[(0, 0), (0, 0), (1, 1), (4, 6), (0, 5)], wrap=True)
    assert sorted(zip(*map(list, odd_offsets(b)))) == [(0, 0)]
    b2 = ml.Board.grid(3, 5, pattern=[(0, 0), (0, 0), (1, 1), (9, 0), (0, -1)])
    assert sorted(zip(*map(list, odd_offsets(b2)))) == [(0, -1), (1, 1)]
    rng = np.random.default_rng(0)
    for rows, cols in [(1, 1), (7, 9), (64, 64), (65, 513), (600, 70)]:
        a = rng.integers(0, 2, size=(rows, cols), dtype=np.uint8)
        t = transpose_packed(garbage_tail(np.packbits(a, axis=1), cols), rows, cols)
        assert np.array_equal(unpack_bits(t, rows), a.T)


# ---------------------------------------------------------------- errors
def test_errors():
    """Bad shapes and dtypes are ValueErrors naming np.packbits; n = 3; unsolvable
    starts raise Unsolvable (a ValueError) for every packed engine."""
    for pattern in ("square", "diagonal", "horizontal"):
        b = ml.Board.grid(6, 12, pattern=pattern)
        s = ml.Solver(b, method="tensor" if pattern == "square" else "algebraic")
        assert s._packed_engine() is not None
        for bad in (
            np.zeros((6, 12), np.uint8),
            np.zeros((6, 2), np.int64),
            [[0, 0]] * 6,
            np.zeros((5, 2), np.uint8),
            np.zeros((6, 2, 1), np.uint8),
        ):
            with pytest.raises(ValueError, match="packbits"):
                s.solve_packed(bad)
        with pytest.raises(ValueError, match="target"):
            s.solve_packed(np.zeros((6, 2), np.uint8), np.zeros((6, 12), np.uint8))
        with pytest.raises(ValueError, match="packbits"):
            apply_packed(b, np.zeros((6, 3), np.uint8))
        with pytest.raises(ValueError, match="packbits"):
            apply_packed(b, np.zeros((6, 2), np.uint8), np.zeros((7, 2), np.uint8))
        assert not s.solve_packed(np.zeros((6, 2), np.uint8)).any()
    b3 = ml.Board.grid(6, 12, states=3, pattern="square")
    with pytest.raises(ValueError, match="n = 2"):
        ml.Solver(b3).solve_packed(np.zeros((6, 2), np.uint8))
    with pytest.raises(ValueError, match="n = 2"):
        TensorEngine(b3).solve_packed(np.zeros((6, 2), np.uint8))
    with pytest.raises(ValueError, match="GF\\(2\\)"):
        apply_packed(b3, np.zeros((6, 2), np.uint8))
    # unsolvable starts (boards with a kernel) through each packed engine
    for b, method in (
        (ml.Board.grid(8, 8, pattern="square"), "tensor"),
        (ml.Board.grid(6, 6, pattern="square", wrap=True), "tensor"),
        (ml.Board.grid(4, 4, pattern="diagonal"), "algebraic"),
        (ml.Board.grid(3, 2, pattern="horizontal"), "algebraic"),
    ):
        s = ml.Solver(b, method=method)
        assert s._packed_engine() is not None and s.nullity > 0
        rng = np.random.default_rng(1)
        start = next(
            st
            for st in (rng.integers(0, 2, b.shape, np.uint8) for _ in range(99))
            if not ml.Solver(b, method="dense").solvable(st)
        )
        with pytest.raises(ml.Unsolvable):
            s.solve_packed(np.packbits(start, axis=1))


# ---------------------------------------------------------------- never unpacked
def test_packed_path_never_unpacks(monkeypatch):
    """The packed engines never unpack a state (np.unpackbits on more than one row:
    the polynomial engines' single residual row is fine): with it broken, solve_packed
    still answers, checked afterwards with the real one."""
    real = np.unpackbits

    def broken(a, *args, **kwargs):
        if np.ndim(a) > 1 and np.shape(a)[0] > 1:
            raise AssertionError("np.unpackbits called on a packed state")
        return real(a, *args, **kwargs)

    cases = [
        ("square", False),
        ("horizontal", True),
        ("vertical", False),
        ("diagonal", False),
        ("horizontal", False),
        ([(-1, -1), (-1, 1), (0, 0), (1, 0)], False),
    ]
    rng = np.random.default_rng(27)
    for pattern, wrap in cases:
        b = ml.Board.grid(150, 200, pattern=pattern, wrap=wrap)
        solver = ml.Solver(b)
        start = b.random_state(rng=rng)
        monkeypatch.setattr(np, "unpackbits", broken)
        x = solver.solve_packed(np.packbits(start, axis=1))
        monkeypatch.setattr(np, "unpackbits", real)
        assert not b.apply(start, unpack_bits(x, 200)).any(), pattern


@pytest.mark.parametrize(
    "pattern, wrap",
    [("square", False), ("diagonal", False), ("horizontal", True), ("square", True)],
)
def test_giant_board_solved_packed(pattern, wrap, monkeypatch):
    """12000 x 12000 (1.44e8 tiles, past MAX_TILES: no byte state can be made) from a
    random solvable start (A x0 for random packed taps x0): solved packed (18 MB a
    state) without np.unpackbits, checked by the streamed apply. A horizontal torus is
    algebraic under auto (no packed path for tori) and goes to the tensor engine."""
    side = 12000
    assert side * side > MAX_TILES
    b = ml.Board.grid(side, side, pattern=pattern, wrap=wrap)
    rng = np.random.default_rng(12)
    x0 = np.frombuffer(rng.bytes(side * side // 8), np.uint8).reshape(side, side // 8)
    start, _ = apply_packed(b, x0)
    real = np.unpackbits
    monkeypatch.setattr(
        np,
        "unpackbits",
        lambda a, *args, **kw: (
            real(a, *args, **kw) if np.ndim(a) < 2 else pytest.fail("a packed state unpacked")
        ),
    )
    solver = ml.Solver(b)
    x = solver.solve_packed(start)
    _, lit = apply_packed(b, x, start, write=False)
    assert lit == 0
    if solver.nullity == 0:  # then all ones is reachable too
        _, lit1 = apply_packed(b, solver.solve_packed(start, 1), start, tc=1, write=False)
        assert lit1 == 0


def test_giant_board_without_packed_engine_refused():
    """A giant board whose engine has no packed path (cross torus: the chase solves
    tori; the tensor engine does not cover cross) is refused, not unpacked."""
    b = ml.Board.grid(12000, 12000, pattern="cross", wrap=True)
    s = ml.Solver(b)
    with pytest.raises(ValueError, match="packed path"):
        s.solve_packed(np.zeros((12000, 1500), np.uint8))


def test_sym_packed_chase_interrupted():
    """Ctrl-C (the module's stop flag) stops the packed chase with KeyboardInterrupt;
    the engine solves normally afterwards."""
    from modlights.native import _core as _poly

    b = ml.Board.grid(3000, 3000, pattern="diagonal")
    eng = SymAlgebraicEngine(b)
    ps = np.packbits(b.random_state(rng=3), axis=1)
    _poly._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        eng.solve_packed(ps)
    x = eng.solve_packed(ps)
    assert apply_packed(b, x, ps, write=False)[1] == 0


@pytest.mark.parametrize("path", ["portable", "avx2"])
def test_transpose_simd_paths(path):
    """The bit transpose's portable and AVX2 builds (csrc/packed.c picks one at run
    time; MODLIGHTS_SIMD forces it) agree with NumPy (in a subprocess: the choice is
    made once a process)."""
    import subprocess
    import sys

    code = (
        "import numpy as np\n"
        "from modlights.engines.packed import transpose_packed\n"
        "rng = np.random.default_rng(1)\n"
        "for r, c in [(1, 1), (63, 65), (512, 513), (1030, 70)]:\n"
        "    a = rng.integers(0, 2, size=(r, c), dtype=np.uint8)\n"
        "    t = transpose_packed(np.packbits(a, axis=1), r, c)\n"
        "    assert np.array_equal(np.unpackbits(t, axis=1, count=r), a.T), (r, c)\n"
        "print('ok')\n"
    )
    env = dict(__import__("os").environ, MODLIGHTS_SIMD=path)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_engines_pickle_after_packed_solves():
    """The engines keep C objects (the packed row solver) only as caches: they pickle
    after a packed solve and give the same taps on the other side."""
    import pickle

    for b in (ml.Board.grid(40, 40, pattern="square"), ml.Board.grid(40, 40, pattern="diagonal")):
        eng = TensorEngine(b) if tensor_reason(b) is None else SymAlgebraicEngine(b)
        ps = np.packbits(b.random_state(rng=2), axis=1)
        x = eng.solve_packed(ps)
        assert np.array_equal(pickle.loads(pickle.dumps(eng)).solve_packed(ps), x)


# ---------------------------------------------------------------- Ctrl-C in the bit transpose
def _transpose_by_bytes(A: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The independent transpose: unpack, .T, pack."""
    return np.packbits(np.unpackbits(A, axis=1, count=cols).T, axis=1)


def test_bit_transpose_stops_on_ctrl_c():
    """The bit transpose (csrc/packed.c ml_packed_transpose, 64 x 64 blocks) polls the
    stop flag and its binding checks it: a stop requested on the flag (as the SIGINT
    hook does) makes it raise KeyboardInterrupt before every row is written; the next
    call runs and equals the transpose by bytes."""
    rng = np.random.default_rng(1)
    rows, cols = 1500, 1100  # several 512 x 512 tiles
    A = rng.integers(0, 256, (rows, (cols + 7) // 8), dtype=np.uint8)
    out = np.full((cols, (rows + 7) // 8), 0xAA, np.uint8)
    _packed._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        _packed.transpose_bits(A, cols, out)
    assert (out == 0xAA).all(axis=1).any()  # rows never written: the C loop stopped early
    _packed._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        transpose_packed(A, rows, cols)
    assert (transpose_packed(A, rows, cols) == _transpose_by_bytes(A, rows, cols)).all()


def test_packed_solve_of_a_transposed_board_stops_on_ctrl_c():
    """The same stop seen from Solver.solve_packed: a diagonal board with an even number of
    rows and an odd number of columns is chased down its columns through two bit
    transposes; a stop requested there raises KeyboardInterrupt and leaves the Solver
    usable (its next answer checked by Board.apply)."""
    b = ml.Board.grid(600, 701, pattern="diagonal")
    s = ml.Solver(b, method="algebraic")
    assert s._engine.transposed
    state = b.random_state(rng=2, solvable=True)
    packed = np.packbits(state, axis=1)
    _packed._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        s.solve_packed(packed)
    taps = np.unpackbits(s.solve_packed(packed), axis=1, count=b.shape[1])
    assert not b.apply(state, taps).any()
