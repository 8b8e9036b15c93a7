"""modlights.engines.native: the C library's structured engines through the Engine
adapter. The covers of a large masked grid (answered from a 3 x 3 proxy with one locked
tile, so no C board of the large grid is made) equal the C registry's covers of the
board itself; the C board of a grid (the grid builder, masks as bytes) equals the one
made from its JSON; the engine pickles as its board and name and refuses a board it
does not cover with the C reason."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

import modlights as ml
from modlights.engines.native import NATIVE_ENGINES, NativeEngine, c_board, covers
from modlights.native._core import CBoard, capi_engine_covers, capi_engine_index


def _full_covers(name: str, b: ml.Board):
    return capi_engine_covers(capi_engine_index(name), CBoard.from_json(json.dumps(b.to_dict())))


def test_masked_large_boards_covers_as_the_board_itself():
    rng = np.random.default_rng(21)
    pats = ["cross", "square", "diagonal", "horizontal", "knight", [(0, 0), (-1, 0)]]
    for _ in range(25):
        n = int(rng.choice([2, 3, 4, 5, 6, 9, 12]))
        side = int(rng.integers(65, 90))  # past the proxy's 4096 tiles
        u = rng.random((side, side))
        kw = {"locked": u < 0.01} if rng.random() < 0.5 else {"holes": u < 0.01}
        pat = pats[int(rng.integers(len(pats)))]
        b = ml.Board.grid(side, side, states=n, pattern=pat, wrap=bool(rng.random() < 0.3), **kw)
        for name in NATIVE_ENGINES:
            assert covers(name, b) == _full_covers(name, b), (name, b)


def test_every_engine_of_the_c_library_has_the_adapter():
    """Each engine the C library registers itself (not from Python) is built through
    NativeEngine: registry.build must never meet one without a Python build."""
    from modlights.engines.registry import PER_TILE
    from modlights.native._core import capi_engines

    own = {e["name"] for e in capi_engines()} - {"reference"}
    assert own <= set(NATIVE_ENGINES), own - set(NATIVE_ENGINES)
    # the table's rows: an engine each, and lifted's second line ("lifted-zq": n with a
    # factor p^k, k > 1)
    assert set(PER_TILE) - {"lifted-zq"} <= set(NATIVE_ENGINES)
    assert "lifted-zq" in PER_TILE and "lifted" in NATIVE_ENGINES
    b = ml.Board.grid(31, 32, states=3, pattern="diagonal")
    eng = NativeEngine(b, "algebraic-sym-odd")
    assert eng.nullity == ml.Solver(b, method="dense").nullity


def test_c_board_as_its_json():
    rng = np.random.default_rng(22)
    for _ in range(40):
        rows, cols = (int(x) for x in rng.integers(1, 9, size=2))
        u = rng.random((rows, cols))
        b = ml.Board.grid(
            rows,
            cols,
            states=int(rng.integers(2, 10)),
            pattern=["cross", "square", [(1, 2), (0, 0), (0, 0)]][int(rng.integers(3))],
            locked=u < 0.2,
            holes=(u > 0.9) & (u < 0.95),
            wrap=bool(rng.random() < 0.5),
        )
        assert c_board(b).to_json() == CBoard.from_json(json.dumps(b.to_dict())).to_json()
        assert c_board(b) is c_board(b)  # made once per board


def test_engine_pickles_and_refuses():
    b = ml.Board.grid(30, 30, states=5)
    eng = NativeEngine(b, "algebraic-cross")
    R = b._rhs_cells(b.random_state(rng=3), 0)[None, :]
    x = eng.solve(R)[0]
    e2 = pickle.loads(pickle.dumps(eng))
    assert e2.name == "algebraic-cross" and np.array_equal(e2.solve(R)[0], x)
    with pytest.raises(ValueError, match="method='tensor' does not cover this board: "):
        NativeEngine(b, "tensor")
    with pytest.raises(ValueError, match="R must"):
        eng.solve(np.full((1, b.n_cells), 5, np.uint8))  # values < n
