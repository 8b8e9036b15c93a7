"""The lifted engine (engines/lifted.py: p-adic lifting and CRT over the GF(p) algebraic
engines) against the reference and chase engines, every answer checked by Board.apply."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import modlights as ml
from modlights.engines.native import NativeEngine, covers
from oracle import group_closure_size


def lifted_reason(b):
    """None when the C lifted engine covers b, else its reason."""
    return covers("lifted", b)


#: the algebraic engine's pattern kinds (cyclic, mirrored, diagonal, transposed)
COVERED = [
    "cross",
    "vertical",
    "horizontal",
    [(-1, 0), (1, 0), (0, -1), (0, 1)],
    [(0, 0), (-1, 0), (0, 1)],
    [(0, 0), (-1, 0), (0, -1)],
    [(0, -1), (0, 1), (1, 0)],
    [(-1, 0), (0, 1), (0, 1), (0, 1), (0, -1)],
]
COMPOSITE = [4, 6, 8, 9, 10, 12]


@st.composite
def lifted_boards(draw, max_side=8):
    n = draw(st.sampled_from(COMPOSITE))
    pattern = draw(st.sampled_from(COVERED))
    b = ml.Board.grid(
        draw(st.integers(1, max_side)), draw(st.integers(1, max_side)), states=n, pattern=pattern
    )
    assume(lifted_reason(b) is None)
    return b, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lifted_boards(), st.integers(0, 2))
def test_lifted_equals_reference(case, tkind):
    b, seed = case
    n = b.states
    rng = np.random.default_rng(seed)
    lift = ml.Solver(b, method="lifted")
    ref = ml.Solver(b, backend="reference")
    assert lift.engine == "lifted"
    assert lift.kernel_size == ref.kernel_size == NativeEngine(b, "chase").kernel_size
    assert lift.nullity == ref.nullity
    assert lift.det() == ml.Solver(b, method="dense").det()
    H = lift.kernel()
    orders = lift.kernel_orders
    assert H.shape == (lift.nullity, b.n_taps) and len(orders) == lift.nullity
    for h, o in zip(H, orders):
        assert not b.apply_vector(h).any()
        assert not b.apply_vector((h.astype(np.int64) * o % n).astype(np.uint8)).any()
    assert int(np.prod(orders)) == lift.kernel_size
    if lift.kernel_size <= 5000:
        assert group_closure_size(H, n) == lift.kernel_size
    # solvable and unsolvable starts, three kinds of target
    for solvable in (True, False):
        s = b.random_state(rng=rng, solvable=solvable)
        target = [0, 1, rng.integers(0, n, size=b.shape).astype(np.uint8)][tkind]
        assert lift.solvable(s, target) == ref.solvable(s, target)
        if not ref.solvable(s, target):
            with pytest.raises(ml.Unsolvable):
                lift.solve(s, target, minimal=False)
            continue
        sol = lift.solve(s, target, minimal=False)
        assert np.array_equal(b.apply(s, sol.taps), b.coerce_target(target))


@pytest.mark.parametrize("n", [4, 8, 16, 9, 27, 25, 6, 10, 12, 15, 36])
@pytest.mark.parametrize("shape", [(6, 6), (7, 11), (13, 5), (1, 9), (9, 1), (30, 30)])
def test_lift_path_rectangles(n, shape):
    """The digit-by-digit lift on its own (A invertible mod every p) and mixed with the
    GF(p) / chase parts, on rectangles."""
    b = ml.Board.grid(*shape, states=n)
    if lifted_reason(b) is not None:
        return
    eng = NativeEngine(b, "lifted")
    rng = np.random.default_rng(n * 1000 + shape[0])
    s = b.random_state(rng=rng)
    X, ok = eng.solve(
        np.stack([(-b.cell_vector(s).astype(np.int64)) % n, np.zeros(b.n_cells, np.int64)]).astype(
            np.uint8
        )
    )
    assert ok.all()
    assert not b.apply(s, b.from_tap_vector(X[0])).any()
    if eng.kernel_size == 1:
        assert not X[1].any()
    assert eng.kernel_size == NativeEngine(b, "chase").kernel_size


def test_routing_and_refusals():
    from modlights.engines.registry import CROSSOVER_TILES

    assert ml.Solver(ml.Board.grid(128, 128, states=4)).method == "lifted"
    assert ml.Solver(ml.Board.grid(200, 100, states=6)).method == "lifted"
    # around its crossovers (squarefree n: "lifted", a factor p^k: "lifted-zq"): below,
    # the chase or the dense engine; above it and the chase's, lifted
    for row, n in (("lifted", 6), ("lifted-zq", 4)):
        small = math.isqrt(CROSSOVER_TILES[row] - 1)
        if small:
            assert ml.Solver(ml.Board.grid(small, small, states=n)).method in ("chase", "dense")
        big = math.isqrt(max(CROSSOVER_TILES[row], CROSSOVER_TILES["chase"])) + 1
        assert ml.Solver(ml.Board.grid(big, big, states=n)).method == "lifted"
    # tori: the torus's engine over GF(2), lifted (the cross torus of side 130 is
    # invertible mod 2)
    assert ml.Solver(ml.Board.grid(130, 130, states=4, wrap=True)).method == "lifted"
    # square is a product pattern: the tensor engine, invertible mod 4 at side 130 or
    # singular mod 2 at side 131 (a ring part over Z/4)
    assert ml.Solver(ml.Board.grid(130, 130, states=4, pattern="square")).method == "tensor"
    assert ml.Solver(ml.Board.grid(131, 131, states=4, pattern="square")).method == "tensor"
    assert ml.Solver(ml.Board.grid(30, 30, states=3)).method == "algebraic"
    assert ml.Solver(ml.Board.grid(5, 5, states=4)).method == "dense"
    cases = [
        (ml.Board.grid(6, 6, states=3), "composite"),
        (ml.Board.grid(6, 6, states=4, pattern=[(0, 0), (2, 0), (0, 1)]), "offsets"),
        (ml.Board.grid(6, 6, states=4, locked=[(1, 1)]), "locked"),
        (ml.Board.grid(6, 6, states=4, holes=[(1, 1)]), "holes"),
        (ml.Board.grid(6, 6, states=4, pattern="knight", wrap=True), "factor of n = 4"),
        (ml.Board.grid(6, 6, states=6, pattern=[(0, 0), (1, 0), (0, 1)]), "unit"),
        (ml.Board.grid(6, 6, states=4, pattern=[(-1, 0)] * 2 + [(0, -1)] * 2), "unit"),
        (ml.Board.from_effects([[0]], 4), "grid"),
    ]
    for board, word in cases:
        with pytest.raises(ValueError, match=word):
            ml.Solver(board, method="lifted")
        with pytest.raises(ValueError, match="does not cover"):
            NativeEngine(board, "lifted")
    with pytest.raises(ValueError, match="native"):
        ml.Solver(ml.Board.grid(6, 6, states=4), backend="reference", method="lifted")


def test_large_board_inverse_refused_and_pickles():
    import pickle

    b = ml.Board.grid(3000, 3000, states=4)
    s = ml.Solver(b)
    assert s.method == "lifted" and s.kernel_size == 1
    with pytest.raises(ValueError, match="too large|large"):
        s.inverse()
    s2 = pickle.loads(pickle.dumps(ml.Solver(ml.Board.grid(30, 30, states=6), method="lifted")))
    st_ = s2.board.random_state(rng=1)
    assert not s2.board.apply(st_, s2.solve(st_, minimal=False).taps).any()


@pytest.mark.heavy  # 2 CPU s: a bench table (the CLI's bench has its test in tests/cli)
def test_bench_method_option(capsys, monkeypatch):
    """``modlights bench --method`` times the chosen Solver method (every answer checked
    inside bench_large); a method that does not cover the board exits 2 with one line."""
    from modlights.cli import main, workloads
    from modlights.solver_native import NativeSolver

    seen = []
    real = NativeSolver._cask

    def spy(self, question, *args):  # the C solver's solves, by the plan's engine
        if question.startswith("solve") and self.plan.engine == "lifted":
            seen.append(self.n)
        return real(self, question, *args)

    monkeypatch.setattr(NativeSolver, "_cask", spy)
    assert (
        main(
            [
                "bench",
                "--sizes",
                "130",
                "--states",
                "4,6",
                "--repeats",
                "1",
                "--quiet",
                "--method",
                "lifted",
                "--json",
            ]
        )
        == 0
    )
    rows = __import__("json").loads(capsys.readouterr().out)
    assert [(r["board"], r["n"]) for r in rows] == [("130x130", 4), ("130x130", 6)]
    assert seen == [4, 6]  # the lifted engine answered each board
    row = workloads.bench_large([20], n=4, repeats=1, method="auto")[0]
    assert row[:3] == ("20x20", 4, "cross")
    assert (
        main(
            [
                "bench",
                "--sizes",
                "20",
                "--states",
                "3",
                "--repeats",
                "1",
                "--quiet",
                "--method",
                "lifted",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "composite" in err and len(err.strip().splitlines()) == 1
