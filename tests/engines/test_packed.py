"""Bit-packed GF(2) solving (``solve_packed`` / ``apply_packed``) of the tensor engine
(square, horizontal, vertical, custom products, tori) and the symmetric 3 x 3 engine
(diagonal, the ring, custom symmetric patterns; boards chased transposed), against the
unpacked byte solves of the same engines, the dense engine's solvability (csrc/gf2.c,
independent of both), the reference engine on small boards and Board.apply; the
streamed packed apply against Board.apply; the giant path never unpacking."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import modlights as ml
import modlights.engines.tensor.engine as tensor_mod
from modlights.model.board import MAX_TILES
from modlights.engines.algebraic.cross import AlgebraicEngine, algebraic_reason
from modlights.engines.algebraic.sym import SymAlgebraicEngine, sym_reason
from modlights.engines.packed import apply_packed, odd_offsets, transpose_packed
from modlights.engines.tensor.band import BandFactor
from modlights.engines.tensor.engine import TensorEngine, tensor_reason


# ---------------------------------------------------------------- helpers
def _garbage_tail(a: np.ndarray, cols: int) -> np.ndarray:
    """a with the bits past the last column set (they must be ignored)."""
    a = a.copy()
    if cols % 8:
        a[:, -1] |= np.uint8((1 << (8 - cols % 8)) - 1)
    return a


def _unpack(a: np.ndarray, cols: int) -> np.ndarray:
    bits = np.unpackbits(a, axis=1)
    assert not bits[:, cols:].any(), "bits past the last column must be 0"
    return bits[:, :cols]


def _start_and_target(b, rng, solvable: bool, tkind: int):
    """(state, target, packed state with a garbage tail, packed target or int)."""
    s = b.random_state(rng=rng, solvable=solvable)
    target = [0, 1, rng.integers(0, 2, size=b.shape).astype(np.uint8)][tkind]
    pt = target if tkind < 2 else _garbage_tail(np.packbits(target, axis=1), b.shape[1])
    return s, target, _garbage_tail(np.packbits(s, axis=1), b.shape[1]), pt


def _check_solve_packed(b, solver, s, target, ps, pt, byte_solver):
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
    taps = _unpack(x, cols)
    assert np.array_equal(b.apply(s, taps), b.coerce_target(target))
    assert np.array_equal(taps, byte_solver.solve(s, target, minimal=False).taps)
    if b.n_taps <= 12:                              # brute-force-sized: the reference
        assert ml.Solver(b, backend="reference").solvable(s, target)
    return True


def eng_solver(eng, b):
    """A Solver whose engine is ``eng`` (the symmetric engine also on boards the cross
    family's engine would take under method='algebraic')."""
    s = ml.Solver(b, method="tensor" if isinstance(eng, TensorEngine) else "algebraic")
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


# ---------------------------------------------------------------- the tensor engine
@pytest.mark.parametrize("column_path", ["auto", "strips"])
@settings(max_examples=60, deadline=None)
@given(pattern=product_patterns(), rows=st.integers(1, 24), cols=st.integers(1, 140),
       wrap=st.booleans(), seed=st.integers(0, 2**32 - 1), solvable=st.booleans(),
       tkind=st.integers(0, 2))
def test_tensor_solve_packed(column_path, pattern, rows, cols, wrap, seed, solvable, tkind):
    """Random product boards (tori too), sizes across word and byte boundaries, with
    and without a kernel; the column direction by the in-place row solve where it
    applies ("auto") and forced through transposed strips of 8 rows ("strips", many
    strips, a partial last one)."""
    b = ml.Board.grid(rows, cols, pattern=pattern, wrap=wrap)
    assume(tensor_reason(b) is None)
    rng = np.random.default_rng(seed)
    s, target, ps, pt = _start_and_target(b, rng, solvable, tkind)
    eng = TensorEngine(b)
    assert eng.packs
    byte = ml.Solver(b, method="tensor")
    with pytest.MonkeyPatch.context() as mp:
        if column_path == "strips":
            mp.setattr(tensor_mod, "STRIP_ROWS", 8)
            mp.setattr(BandFactor, "packed_row_solver", lambda self: None)
        _check_solve_packed(b, eng_solver(eng, b), s, target, ps, pt, byte)


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
            s, target, ps, pt = _start_and_target(b, rng, solvable, int(rng.integers(0, 3)))
            seen.add(_check_solve_packed(b, solver, s, target, ps, pt, solver))
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
            assert (kind != "NoneType") == (invertible and not (wrap and cols % 3 == 0)), \
                (cols, wrap, kind)
            kinds.add(kind)
            s = b.random_state(rng=rng)
            x = eng.solve_packed(np.packbits(s, axis=1))
            assert np.array_equal(_unpack(x, cols),
                                  ml.Solver(b, method="tensor").solve(s, minimal=False).taps)
    assert kinds == {"SymChase", "_CirculantRows", "NoneType"}


# ---------------------------------------------------------------- the symmetric engine
@settings(max_examples=80, deadline=None)
@given(pattern=sym_patterns(), rows=st.integers(1, 20), cols=st.integers(1, 140),
       seed=st.integers(0, 2**32 - 1), solvable=st.booleans(), tkind=st.integers(0, 2))
def test_sym_solve_packed(pattern, rows, cols, seed, solvable, tkind):
    """Random symmetric 3 x 3 boards, both orientations (a diagonal board of odd width
    and even height is chased down its columns: bit transposes on the way)."""
    b = ml.Board.grid(rows, cols, pattern=pattern)
    assume(sym_reason(b) is None)
    eng = SymAlgebraicEngine(b)
    assert eng.packs
    rng = np.random.default_rng(seed)
    s, target, ps, pt = _start_and_target(b, rng, solvable, tkind)
    solver = eng_solver(eng, b)
    _check_solve_packed(b, solver, s, target, ps, pt, solver)


@pytest.mark.parametrize("pattern", ["diagonal", "ring"])
@pytest.mark.parametrize("shape", [(20, 64), (21, 63), (9, 65), (8, 130), (33, 128),
                                   (64, 33), (130, 9)])
def test_sym_wide_rows(pattern, shape):
    """Rows of several words, the last one partial or full, both orientations; auto
    picks the symmetric engine from SYM_ALGEBRAIC_MIN_TILES tiles."""
    if pattern == "ring":
        pattern = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    b = ml.Board.grid(*shape, pattern=pattern)
    if sym_reason(b) is not None:
        return
    eng = SymAlgebraicEngine(b)
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    for solvable in (True, False):
        s, target, ps, pt = _start_and_target(b, rng, solvable, 0)
        _check_solve_packed(b, eng_solver(eng, b), s, target, ps, pt, eng_solver(eng, b))


def test_cross_family_chased_down_columns():
    """Boards the algebraic engine chases transposed (horizontal: no (-1, 0) offset)
    now take packed states too (bit transposes around the chase)."""
    rng = np.random.default_rng(4)
    for shape in [(13, 70), (70, 13), (64, 64)]:
        b = ml.Board.grid(*shape, pattern="horizontal")
        eng = AlgebraicEngine(b)
        assert eng.transposed and eng.packs
        for solvable in (True, False):
            s, target, ps, pt = _start_and_target(b, rng, solvable, 1)
            _check_solve_packed(b, eng_solver(eng, b), s, target, ps, pt, eng_solver(eng, b))


# ---------------------------------------------------------------- apply_packed
@settings(max_examples=60, deadline=None)
@given(pattern=st.one_of(product_patterns(), sym_patterns(),
                         st.sampled_from(["cross", "knight"]),
                         st.lists(st.tuples(st.integers(-70, 70), st.integers(-70, 70)),
                                  max_size=5)),
       rows=st.integers(1, 12), cols=st.integers(1, 150), wrap=st.booleans(),
       seed=st.integers(0, 2**32 - 1), tc=st.integers(0, 1))
def test_apply_packed_matches_board_apply(pattern, rows, cols, wrap, seed, tc):
    """s + A x streamed from the pattern's odd offsets (any pattern, tori: offsets
    landing on the same tile cancel) equals Board.apply; the count of tiles off tc."""
    b = ml.Board.grid(rows, cols, pattern=pattern, wrap=wrap)
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 2, size=b.shape, dtype=np.uint8)
    s = rng.integers(0, 2, size=b.shape, dtype=np.uint8)
    px, ps = (_garbage_tail(np.packbits(a, axis=1), cols) for a in (x, s))
    want = b.apply(s, x)
    out, bad = apply_packed(b, px, ps, tc)
    assert np.array_equal(_unpack(out, cols), want)
    assert bad == int((want != tc).sum())
    none, bad2 = apply_packed(b, px, None, tc, write=False)
    assert none is None and bad2 == int((b.apply(np.zeros_like(s), x) != tc).sum())
    for eng in (TensorEngine, SymAlgebraicEngine, AlgebraicEngine):
        reason = {TensorEngine: tensor_reason, SymAlgebraicEngine: sym_reason,
                  AlgebraicEngine: algebraic_reason}[eng](b)
        if reason is None:
            got, n = eng(b).apply_packed(px, ps, tc)
            assert np.array_equal(_unpack(got, cols), want) and n == bad


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
        t = transpose_packed(_garbage_tail(np.packbits(a, axis=1), cols), rows, cols)
        assert np.array_equal(_unpack(t, rows), a.T)


# ---------------------------------------------------------------- errors
def test_errors():
    """Bad shapes and dtypes are ValueErrors naming np.packbits; n = 3; unsolvable
    starts raise Unsolvable (a ValueError) for every packed engine."""
    for pattern in ("square", "diagonal", "horizontal"):
        b = ml.Board.grid(6, 12, pattern=pattern)
        s = ml.Solver(b, method="tensor" if pattern == "square" else "algebraic")
        assert s._packed_engine() is not None
        for bad in (np.zeros((6, 12), np.uint8), np.zeros((6, 2), np.int64), [[0, 0]] * 6,
                    np.zeros((5, 2), np.uint8), np.zeros((6, 2, 1), np.uint8)):
            with pytest.raises(ValueError, match="packbits"):
                s.solve_packed(bad)
        with pytest.raises(ValueError, match="target"):
            s.solve_packed(np.zeros((6, 2), np.uint8), np.zeros((6, 12), np.uint8))
        eng = s._packed_engine()
        with pytest.raises(ValueError, match="packbits"):
            eng.apply_packed(np.zeros((6, 3), np.uint8))
        with pytest.raises(ValueError, match="packbits"):
            eng.apply_packed(np.zeros((6, 2), np.uint8), np.zeros((7, 2), np.uint8))
        assert not s.solve_packed(np.zeros((6, 2), np.uint8)).any()
    b3 = ml.Board.grid(6, 12, states=3, pattern="square")
    with pytest.raises(ValueError, match="n = 2"):
        ml.Solver(b3).solve_packed(np.zeros((6, 2), np.uint8))
    with pytest.raises(ValueError, match="n = 2"):
        TensorEngine(b3).solve_packed(np.zeros((6, 2), np.uint8))
    with pytest.raises(ValueError, match="GF\\(2\\)"):
        apply_packed(b3, np.zeros((6, 2), np.uint8))
    # unsolvable starts (boards with a kernel) through each packed engine
    for b, method in ((ml.Board.grid(8, 8, pattern="square"), "tensor"),
                      (ml.Board.grid(6, 6, pattern="square", wrap=True), "tensor"),
                      (ml.Board.grid(4, 4, pattern="diagonal"), "algebraic"),
                      (ml.Board.grid(3, 2, pattern="horizontal"), "algebraic")):
        s = ml.Solver(b, method=method)
        assert s._packed_engine() is not None and s.nullity > 0
        rng = np.random.default_rng(1)
        start = next(st for st in (rng.integers(0, 2, b.shape, np.uint8) for _ in range(99))
                     if not ml.Solver(b, method="dense").solvable(st))
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

    cases = [("square", False), ("horizontal", True), ("vertical", False), ("diagonal", False),
             ("horizontal", False), ([(-1, -1), (-1, 1), (0, 0), (1, 0)], False)]
    rng = np.random.default_rng(27)
    for pattern, wrap in cases:
        b = ml.Board.grid(150, 200, pattern=pattern, wrap=wrap)
        solver = ml.Solver(b)
        start = b.random_state(rng=rng)
        monkeypatch.setattr(np, "unpackbits", broken)
        x = solver.solve_packed(np.packbits(start, axis=1))
        monkeypatch.setattr(np, "unpackbits", real)
        assert not b.apply(start, _unpack(x, 200)).any(), pattern


@pytest.mark.parametrize("pattern, wrap", [("square", False), ("diagonal", False),
                                           ("horizontal", True), ("square", True)])
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
    monkeypatch.setattr(np, "unpackbits", lambda a, *args, **kw: real(a, *args, **kw)
                        if np.ndim(a) < 2 else pytest.fail("a packed state unpacked"))
    solver = ml.Solver(b)
    x = solver.solve_packed(start)
    _, lit = apply_packed(b, x, start, write=False)
    assert lit == 0
    if solver.nullity == 0:                            # then all ones is reachable too
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
    from modlights import _poly
    b = ml.Board.grid(3000, 3000, pattern="diagonal")
    eng = SymAlgebraicEngine(b)
    ps = np.packbits(b.random_state(rng=3), axis=1)
    _poly._request_interrupt()
    with pytest.raises(KeyboardInterrupt):
        eng.solve_packed(ps)
    x = eng.solve_packed(ps)
    assert eng.apply_packed(x, ps, write=False)[1] == 0


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
        "print('ok')\n")
    env = dict(__import__("os").environ, MODLIGHTS_SIMD=path)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
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
