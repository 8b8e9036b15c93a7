"""The C tensor engine (csrc/engines/tensor.c over csrc/engines/band.c), through the C
API's solver (modlights.native._core.CSolver), answers as
``modlights.Solver(board, method="tensor")`` with Python's engine
(src/modlights/engines/tensor/): on random product-pattern boards (square, horizontal,
vertical, cross refused, random products of a row and a column offset set), n = 2..9, 12,
16, 101, 255, odd and even sides, rectangles and tori: the same plan engine, nullity,
rank, kernel size, the same canonical kernel generators and orders (each in ker A), det,
solvable, and solutions that reach the target; the same Unsolvable message; boards the
engine does not cover refused with Python's reason; the kernel basis limit with
Python's message; a giant board's structure from its factors alone. Ring parts (q = p^k,
a factor singular mod p: csrc/engines/ring.c) are counted apart so that the tests show
they are reached. Deterministic (seeded NumPy generators); the big sweep is in the matrix
group."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import CBoard, c_board, check_solves, check_structure, oracle_solver, same
from modlights.model.ring import factorize
from modlights.native import _core

CSolver = _core.CSolver
NS = [2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 101, 255]


def _pattern(rng):
    """A named pattern (half the time) or a product of random row and column offsets."""
    if rng.random() < 0.5:
        return str(rng.choice(["square", "horizontal", "vertical", "cross"]))
    rows = {int(d): int(rng.integers(1, 3)) for d in rng.integers(-2, 3, size=2)}
    cols = {int(d): int(rng.integers(1, 3)) for d in rng.integers(-2, 3, size=2)}
    return [(dr, dc) for dr, a in rows.items() for dc, b in cols.items() for _ in range(a * b)]


def _board(rng, ns, max_side=9, wrap=0.3):
    n = int(rng.choice(ns))
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    return ml.Board.grid(
        rows, cols, states=n, pattern=_pattern(rng), wrap=bool(rng.random() < wrap)
    )


def _compare(b: ml.Board, rng, solves: int = 3) -> str:
    """C against an independent engine on b: "refused" (Python's registry and C's, one
    message), "ring" (a ring part answered) or "same"."""
    try:
        ml.Solver(b, method="tensor")
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), "tensor")
        assert str(got.value) == str(e)
        return "refused"
    ps = oracle_solver(b)
    cs = CSolver(c_board(b), "tensor")
    assert cs.plan["engine"] == "tensor"
    check_structure(cs, ps, b, in_ker=4)
    try:
        ps.det()
        refused = False
    except ValueError as e:  # the oracle's dense fallback may refuse a board this large
        refused = "tap matrix, more than" in str(e)
    if not refused:
        d_py, d_c = same(ps.det, cs.det)
        assert d_py == d_c
    check_solves(cs, ps, b, rng, solves)
    # a prime power p^k, k > 1, with a kernel the field parts do not explain: the C
    # engine's ring parts (csrc/engines/ring.c) answered (an outside view of them)
    f = factorize(b.states)
    return "ring" if len(f) == 1 and f[0][1] > 1 and ps.kernel_size > 1 else "same"


def test_random_boards_as_python():
    rng = np.random.default_rng(9)
    got = {"same": 0, "refused": 0, "ring": 0}
    for _ in range(120):
        got[_compare(_board(rng, NS), rng)] += 1
    assert got["same"] >= 50 and got["refused"] >= 5 and got["ring"] >= 10, got


def test_sides_and_tori_as_python():
    rng = np.random.default_rng(10)
    kinds = []
    for rows, cols, n, pat, wrap in (
        (16, 16, 2, "square", False),
        (17, 16, 2, "square", True),
        (15, 9, 3, "horizontal", True),
        (9, 14, 5, "vertical", False),
        (12, 12, 101, "square", False),
        (10, 11, 255, "square", False),
        (8, 8, 6, "square", True),
        (30, 30, 2, "square", True),
        (5, 5, 4, "square", False),
        (8, 11, 8, "square", True),
        (14, 14, 9, "horizontal", False),
        (16, 16, 16, "square", False),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=wrap)
        kinds.append(_compare(b, rng, solves=2))
    assert "refused" not in kinds and kinds.count("ring") >= 2, kinds


def test_kernel_basis_limit_as_python():
    # square over GF(2) on 2 rows: R = [[1, 1], [1, 1]] has a kernel of dimension 1, so
    # ker R (x) F^cols alone gives 2^14 generators of 2^15 taps (past 256 MiB)
    b = ml.Board.grid(2, 1 << 14, states=2, pattern="square")
    ps = ml.Solver(b, method="tensor")  # Python's refusal: the engine's, through the adapter
    cs = CSolver(c_board(b), "tensor")
    assert cs.nullity == ps.nullity == 1 << 14
    with pytest.raises(ValueError) as e:
        ps.kernel()
    with pytest.raises(ValueError) as got:
        cs.kernel()
    assert str(got.value) == str(e.value)
    assert "256 MiB allowed" in str(e.value)


def test_giant_board_structure_as_python():
    # past MAX_TILES: nullity, kernel size and det from the two factors (no h x w memory)
    for n, pat, wrap in ((2, "square", False), (3, "square", True), (5, "horizontal", False)):
        b = ml.Board.grid(20000, 10007, states=n, pattern=pat, wrap=wrap)
        ps = ml.Solver(b, method="tensor")
        cs = CSolver(CBoard.grid(20000, 10007, states=n, pattern=pat, wrap=wrap), "tensor")
        assert cs.nullity == ps.nullity
        assert cs.kernel_size == ps.kernel_size
        assert cs.det() == ps.det()


@pytest.mark.matrix
def test_many_boards_as_python():
    rng = np.random.default_rng(333)
    got = {"same": 0, "refused": 0, "ring": 0}
    for _ in range(800):
        got[_compare(_board(rng, NS, max_side=16), rng)] += 1
    assert got["same"] >= 300 and got["ring"] >= 50, got


def test_corpus_boards_as_python():
    """The fuzz corpus's tensor and torus grid boards: refused alike or the same answers."""
    import json
    from pathlib import Path

    corpus = Path(__file__).resolve().parents[1] / "fuzz_corpus"
    seen = []
    for f in sorted(corpus.glob("*.json")):
        d = json.loads(f.read_text())
        if "tensor" not in f.name and "torus" not in f.name and d.get("method") != "tensor":
            continue
        board = dict(d["board"])
        if board.pop("kind", "grid") != "grid":
            continue
        b = ml.Board.grid(**board)
        seen.append(_compare(b, np.random.default_rng(d.get("seed", 0))))
    assert len(seen) >= 4 and "same" in seen and "refused" in seen, seen


@pytest.mark.matrix
@pytest.mark.parametrize(
    "side, n, pat, wrap",
    [
        (200, 2, "square", False),
        (201, 3, "square", True),
        (120, 4, "square", False),
        (150, 255, "horizontal", False),
        (101, 16, "square", True),
    ],
)
def test_large_boards_as_python(side, n, pat, wrap):
    b = ml.Board.grid(side, side + 1, states=n, pattern=pat, wrap=wrap)
    assert _compare(b, np.random.default_rng(side), solves=2) in ("same", "ring")
