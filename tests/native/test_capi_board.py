"""The C API's boards (csrc/api/board.c, grid.c, board_play.c, pattern.c, factored.c,
bound as modlights.native._core.CBoard) give what modlights.Board gives: on random grids
(every named pattern, random offsets, mixed maps, locks, holes, wrap, odd and even
sides, n 2..9 and large n, some large boards) and graph boards, the same shape, counts,
tap matrix, apply, press, indices, positions, effects, masks, patterns, equality, and the
same message for every refusal. Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import json
import math
import pathlib
from functools import partial

import numpy as np
import pytest

import modlights as ml
from modlights.model.patterns import PATTERNS
from modlights.native import _core

CBoard = _core.CBoard
NAMES = list(PATTERNS)


def _raises_same(py, c):
    """Both calls raise ValueError with one message; returns it."""
    with pytest.raises(ValueError) as want:
        py()
    with pytest.raises(ValueError) as got:
        c()
    assert str(got.value) == str(want.value)
    return str(want.value)


def _random_pattern(rng):
    if rng.random() < 0.5:
        return NAMES[rng.integers(len(NAMES))]
    k = int(rng.integers(0, 10))
    return [(int(rng.integers(-3, 4)), int(rng.integers(-3, 4))) for _ in range(k)]


def _random_grid(rng, rows=None, cols=None):
    """(Python kwargs, C kwargs) of one random grid description."""
    rows = rows or int(rng.integers(1, 10))
    cols = cols or int(rng.integers(1, 10))
    n = int(rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 16, 97, 255]))
    wrap = bool(rng.random() < 0.3)
    pk = {"states": n, "wrap": wrap}
    ck = {"states": n, "wrap": wrap}
    if rng.random() < 0.3:
        pal = [_random_pattern(rng) for _ in range(int(rng.integers(1, 4)))]
        index = rng.integers(0, len(pal), size=(rows, cols))
        pk["pattern"] = [[pal[i] for i in row] for row in index.tolist()]
        ck["palette"], ck["index"] = pal, index
    else:
        p = _random_pattern(rng)
        pk["pattern"] = ck["pattern"] = p
    if rng.random() < 0.5:
        kind = rng.integers(0, 6, size=(rows, cols))
        locked = [(r, c) for r, c in zip(*np.nonzero(kind == 0))]
        holes = [(r, c) for r, c in zip(*np.nonzero(kind == 1))]
        locked = [(int(r), int(c)) for r, c in locked]
        holes = [(int(r), int(c)) for r, c in holes]
        if rng.random() < 0.5:  # as masks on the C side
            ck["locked"], ck["holes"] = kind == 0, kind == 1
        else:
            ck["locked"], ck["holes"] = locked, holes
        pk["locked"], pk["holes"] = locked, holes
    return rows, cols, pk, ck


def _compare_grid(rng, rows, cols, pk, ck):
    pb = ml.Board.grid(rows, cols, **pk)
    cb = CBoard.grid(rows, cols, **ck)
    assert cb.kind == "grid" and cb.shape == pb.shape == (rows, cols)
    assert (cb.n_cells, cb.n_taps, cb.states) == (pb.n_cells, pb.n_taps, pb.states)
    assert cb.size == cb.taps_size == rows * cols
    assert (cb.wrap, cb.is_mixed, cb.is_giant) == (pb.wrap, pb.mixed is not None, pb.is_giant)
    assert (cb.any_locked, cb.any_holes) == (pb.any_locked, pb.any_holes)
    np.testing.assert_array_equal(cb.matrix(), pb.matrix())
    np.testing.assert_array_equal(cb.locked_mask(), pb.locked)
    np.testing.assert_array_equal(cb.holes_mask(), pb.holes)
    if pb.pattern is not None:
        assert cb.pattern() == tuple(pb.pattern)
    else:
        with pytest.raises(ValueError, match="this one is mixed"):
            cb.pattern()
    for r in range(rows):
        for c in range(cols):
            assert cb.tile_pattern(r, c) == tuple(pb.offsets_at(r, c))
    # positions and indices
    assert [cb.tap_position(j) for j in range(cb.n_taps)] == pb.taps
    assert [cb.cell_position(i) for i in range(cb.n_cells)] == pb.cells
    for r in range(rows):
        for c in range(cols):
            for py, cc in ((pb.tap_index, cb.tap_index), (pb.cell_index, cb.cell_index)):
                try:
                    want = py((r, c))
                except ValueError:
                    _raises_same(partial(py, (r, c)), partial(cc, r, c))
                else:
                    assert cc(r, c) == want
    # effects: the cells a tap changes, as Board.affected's sorted positions
    for j, pos in enumerate(pb.taps):
        got = sorted(cb.cell_position(i) for i in cb.effect(j))
        assert got == pb.affected(pos)
    # apply and press
    state = rng.integers(0, 256, size=(rows, cols))
    taps = rng.integers(0, 256, size=(rows, cols))
    taps[pb.locked] = 0
    np.testing.assert_array_equal(cb.apply(state, taps), pb.apply(state, taps))
    for pos in pb.taps:
        times = int(rng.integers(-600, 600))
        np.testing.assert_array_equal(
            cb.press(state, pos[0], pos[1], times), pb.press(state, pos, times)
        )
    if pb.any_locked:
        taps[tuple(np.argwhere(pb.locked)[0])] = 1
        _raises_same(lambda: pb.apply(state, taps), lambda: cb.apply(state, taps))
    return pb, cb


def test_random_grids_match_python():
    rng = np.random.default_rng(20261128)
    for _ in range(300):
        rows, cols, pk, ck = _random_grid(rng)
        pb, cb = _compare_grid(rng, rows, cols, pk, ck)
        # equality: the same description is equal with the same hash; Python says when not
        cb2 = CBoard.grid(rows, cols, **ck)
        assert cb == cb2 and hash(cb) == hash(cb2)
        for key, value in (("wrap", not pk["wrap"]), ("states", pk["states"] % 254 + 2)):
            pk2, ck2 = dict(pk), dict(ck)
            pk2[key] = ck2[key] = value
            assert (CBoard.grid(rows, cols, **ck2) == cb) == (
                ml.Board.grid(rows, cols, **pk2) == pb
            )


@pytest.mark.parametrize(
    "rows, cols, pattern, n",
    [
        (200, 301, "cross", 2),
        (256, 128, "knight", 5),
        (97, 64, [(0, 0), (2, 1), (2, 1)], 255),
        (1, 1000, "horizontal", 3),
        (1000, 1, "vertical", 7),
    ],
)
def test_large_grids_match_python(rows, cols, pattern, n):
    rng = np.random.default_rng(rows * cols + n)
    pb = ml.Board.grid(rows, cols, n, pattern, wrap=rows % 2 == 0)
    cb = CBoard.grid(rows, cols, n, pattern, wrap=rows % 2 == 0)
    state = rng.integers(0, n, size=(rows, cols))
    taps = rng.integers(0, n, size=(rows, cols))
    np.testing.assert_array_equal(cb.apply(state, taps), pb.apply(state, taps))
    for _ in range(5):
        pos = (int(rng.integers(rows)), int(rng.integers(cols)))
        np.testing.assert_array_equal(cb.press(state, *pos, 3), pb.press(state, pos, 3))
        assert cb.tap_index(*pos) == pb.tap_index(pos)
    holes = [(int(rng.integers(rows)), int(rng.integers(cols))) for _ in range(50)]
    pb = ml.Board.grid(rows, cols, n, pattern, holes=holes)
    cb = CBoard.grid(rows, cols, n, pattern, holes=holes)
    assert (cb.n_cells, cb.n_taps) == (pb.n_cells, pb.n_taps)
    np.testing.assert_array_equal(cb.apply(state, taps), pb.apply(state, taps))
    for j in rng.integers(0, pb.n_taps, size=20).tolist():
        assert cb.tap_position(j) == pb.taps[j]
        assert sorted(cb.cell_position(i) for i in cb.effect(j)) == pb.affected(pb.taps[j])


def test_giant_grids_match_python():
    side = 1 << 20
    pb = ml.Board.grid(side, side, 2, "cross")
    cb = CBoard.grid(side, side, 2, "cross")
    assert cb.is_giant and pb.is_giant and (cb.n_cells, cb.n_taps) == (pb.n_cells, pb.n_taps)
    assert cb.tap_index(12345, 678) == pb.tap_index((12345, 678))
    assert cb.cell_position(side * 7 + 3) == (7, 3)
    _raises_same(lambda: pb.locked, cb.locked_mask)
    _raises_same(pb.matrix, cb.matrix)
    _raises_same(lambda: pb.apply(0, 0), lambda: cb.apply([], []))
    _raises_same(
        lambda: ml.Board.grid(side, side, locked=[(0, 0)]),
        lambda: CBoard.grid(side, side, locked=[(0, 0)]),
    )


def test_graph_boards_match_python():
    rng = np.random.default_rng(33)
    for _ in range(200):
        r = int(rng.integers(0, 12))
        m = int(rng.integers(1, 12))
        n = int(rng.choice([2, 3, 4, 6, 9, 97, 255]))
        effects = [rng.integers(0, m, size=int(rng.integers(0, 6))).tolist() for _ in range(r)]
        n_cells = None if rng.random() < 0.5 else m + int(rng.integers(0, 3))
        pb = ml.Board.from_effects(effects, n, n_cells)
        cb = CBoard.from_effects(effects, n, n_cells)
        assert cb.kind == "graph" and cb.shape == pb.shape
        assert (cb.n_cells, cb.n_taps, cb.size, cb.taps_size) == (
            pb.n_cells,
            pb.n_taps,
            pb.n_cells,
            pb.n_taps,
        )
        A = pb.matrix()
        np.testing.assert_array_equal(cb.matrix(), A)
        state = rng.integers(0, 256, size=pb.n_cells)
        taps = rng.integers(0, 256, size=pb.n_taps)
        np.testing.assert_array_equal(cb.apply(state, taps), pb.apply(state, taps))
        for j in range(pb.n_taps):
            np.testing.assert_array_equal(cb.press(state, j, 0, 5), pb.press(state, j, 5))
            assert sorted(cb.effect(j)) == sorted(effects[j])
        cm = CBoard.from_matrix(A, n)
        pm = ml.Board.from_matrix(A, n)
        assert (cm == cb) == (pm == pb) is True
        assert hash(cm) == hash(cb)
        np.testing.assert_array_equal(cm.apply(state, taps), pm.apply(state, taps))
        if A.size:
            A2 = A.copy()
            A2.flat[int(rng.integers(A.size))] += 1
            assert (CBoard.from_matrix(A2, n) == cb) == (ml.Board.from_matrix(A2, n) == pb)
        if pb.n_taps:
            _raises_same(partial(pb.tap_index, r), partial(cb.tap_index, r))
        _raises_same(partial(pb.cell_index, pb.n_cells), partial(cb.cell_index, pb.n_cells))


def test_refusals_have_pythons_messages():
    g = ml.Board.grid
    cases = [
        (lambda: g(2, 2, states=256), lambda: CBoard.grid(2, 2, 256)),
        (lambda: g(2, 2, states=1), lambda: CBoard.grid(2, 2, 1)),
        (lambda: g(0, 2), lambda: CBoard.grid(0, 2)),
        (lambda: g(2, (1 << 20) + 1), lambda: CBoard.grid(2, (1 << 20) + 1)),
        (lambda: g(2, 2, pattern="nope"), lambda: CBoard.grid(2, 2, 2, "nope")),
        (lambda: g(2, 2, pattern="it's"), lambda: CBoard.grid(2, 2, 2, "it's")),
        (lambda: g(2, 2, pattern="a\"b'c\n"), lambda: CBoard.grid(2, 2, 2, "a\"b'c\n")),
        (
            lambda: g(2, 2, pattern=[(0, 0), (1025, 0)]),
            lambda: CBoard.grid(2, 2, 2, [(0, 0), (1025, 0)]),
        ),
        (lambda: g(2, 2, pattern=[(0, 0)] * 4097), lambda: CBoard.grid(2, 2, 2, [(0, 0)] * 4097)),
        (lambda: g(3, 3, locked=[(3, 0)]), lambda: CBoard.grid(3, 3, locked=[(3, 0)])),
        (lambda: g(3, 3, holes=[(0, -1)]), lambda: CBoard.grid(3, 3, holes=[(0, -1)])),
        (
            lambda: g(3, 3, locked=[(1, 1)], holes=[(2, 0), (1, 1)]),
            lambda: CBoard.grid(3, 3, locked=[(1, 1)], holes=[(2, 0), (1, 1)]),
        ),
        (
            lambda: ml.Board.from_effects([[0, 5]], 2, 3),
            lambda: CBoard.from_effects([[0, 5]], 2, 3),
        ),
        (
            lambda: ml.Board.from_effects([[0, 1 << 40]], 2),
            lambda: CBoard.from_effects([[0, 1 << 40]], 2),
        ),
        (
            lambda: ml.Board.from_effects([[0, 1 << 28]], 2),
            lambda: CBoard.from_effects([[0, 1 << 28]], 2),
        ),
        (
            lambda: ml.Board.from_effects([[0]], 2, (1 << 27) + 1),
            lambda: CBoard.from_effects([[0]], 2, (1 << 27) + 1),
        ),
    ]
    for py, c in cases:
        _raises_same(py, c)
    pb = g(3, 3, 3, locked=[(0, 0)], holes=[(2, 2)])
    cb = CBoard.grid(3, 3, 3, locked=[(0, 0)], holes=[(2, 2)])
    s = np.zeros((3, 3), dtype=np.uint8)
    for pos in ((0, 0), (2, 2), (3, 0), (0, 3)):
        _raises_same(partial(pb.press, s, pos), partial(cb.press, s, *pos))
    _raises_same(lambda: pb.cell_index((2, 2)), lambda: cb.cell_index(2, 2))
    for name in NAMES:
        assert _core.capi_pattern(_core.capi_pattern_lookup(" " + name.upper() + "\t")) == (
            name,
            PATTERNS[name],
        )


def test_factored_counts():
    rng = np.random.default_rng(5)
    primes = [2, 3, 5, 7, 11, 13, 251]
    for _ in range(200):
        ps = sorted(set(rng.choice(primes, size=int(rng.integers(0, 5))).tolist()))
        es = [int(rng.integers(0, 300)) for _ in ps]
        value = math.prod(p**e for p, e in zip(ps, es))
        u64, log2, text = _core.capi_factored(ps, es)
        assert text == str(value)
        assert u64 == (value if value < 1 << 64 else None)
        assert log2 == pytest.approx(math.log2(value), rel=1e-12, abs=1e-12)
    with pytest.raises(ValueError, match="not a factored count"):
        _core.capi_factored([4], [1])


GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "js" / "test" / "golden" / "boards.json"


def _cboard_of_dict(d):
    """The CBoard a board dict (Board.to_dict) describes."""
    if "effects" in d:
        return CBoard.from_effects(d["effects"], d["states"], d.get("n_cells"))
    rows, cols, pattern = d["rows"], d["cols"], d["pattern"]
    kw = {"locked": [tuple(p) for p in d["locked"]], "holes": [tuple(p) for p in d["holes"]]}
    if (
        isinstance(pattern, list)
        and len(pattern) == rows
        and pattern
        and (
            isinstance(pattern[0], list)
            and len(pattern[0]) == cols
            and (
                isinstance(pattern[0][0], str)
                or pattern[0][0] == []
                or isinstance(pattern[0][0], list)
                and isinstance(pattern[0][0][0], list)
            )
        )
    ):
        pal = []
        for row in pattern:
            for e in row:
                if e not in pal:
                    pal.append(e)
        index = [[pal.index(e) for e in row] for row in pattern]
        return CBoard.grid(rows, cols, d["states"], palette=pal, index=index, wrap=d["wrap"], **kw)
    return CBoard.grid(rows, cols, d["states"], pattern, wrap=d["wrap"], **kw)


@pytest.mark.skipif(not GOLDEN.exists(), reason="no js/test/golden in this tree")
def test_golden_boards():
    """js/test/golden/boards.json (written from Python by tests/js/js_golden.py): the
    C boards give its shapes, counts, cells, taps, matrices, presses and applies."""
    golden = json.loads(GOLDEN.read_text())
    for entry in golden["grids"] + golden["graphs"]:
        cb = _cboard_of_dict(entry["dict"])
        n = entry["states"]
        assert list(cb.shape) == entry["shape"] and cb.states == n
        assert (cb.n_cells, cb.n_taps) == (entry["n_cells"], entry["n_taps"])
        grid = cb.kind == "grid"
        pos = (lambda p: list(p)) if grid else (lambda p: p[0])
        assert [pos(cb.cell_position(i)) for i in range(cb.n_cells)] == entry["cells"]
        assert [pos(cb.tap_position(j)) for j in range(cb.n_taps)] == entry["taps"]
        np.testing.assert_array_equal(
            cb.matrix(), np.array(entry["matrix"]).reshape(cb.n_cells, cb.n_taps)
        )
        for p in entry["press"]:
            state = np.mod(np.array(p["state"]), n)
            r, c = (p["pos"], 0) if not grid else p["pos"]
            np.testing.assert_array_equal(cb.press(state, r, c, p["times"]), p["result"])
        for a in entry["apply"]:
            state, taps = np.mod(np.array(a["state"]), n), np.mod(np.array(a["taps"]), n)
            np.testing.assert_array_equal(cb.apply(state, taps), a["result"])


def test_random_states_are_splitmix_draws():
    """ml_board_random_state: SplitMix64(seed).randbelow(n) a tap in order, then -A x
    (solvable), or a draw a cell (not solvable); Python's SplitMix64 and Board give the
    same states."""
    from modlights.play.prng import SplitMix64

    rng = np.random.default_rng(7)
    for _ in range(100):
        rows, cols, pk, ck = _random_grid(rng)
        pb = ml.Board.grid(rows, cols, **pk)
        cb = CBoard.grid(rows, cols, **ck)
        seed = int(rng.integers(0, 1 << 62)) * 3
        g = SplitMix64(seed)
        x = np.zeros(pb.shape, dtype=np.int64)
        for r, c in pb.taps:
            x[r, c] = g.randbelow(pb.states)
        want = (-pb.apply(np.zeros(pb.shape, dtype=np.int64), x).astype(np.int64)) % pb.states
        want[pb.holes] = 0
        np.testing.assert_array_equal(cb.random_state(seed), want)
        g = SplitMix64(seed)
        want = np.zeros(pb.shape, dtype=np.int64)
        for r, c in pb.cells:
            want[r, c] = g.randbelow(pb.states)
        np.testing.assert_array_equal(cb.random_state(seed, solvable=False), want)
