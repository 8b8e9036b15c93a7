"""The C lifted engine (csrc/engines/lifted.c over the GF(p) algebraic engine: "lifted"),
through the C API's solver (modlights.native._core.CSolver), answers as
``modlights.Solver(board, method="lifted")`` with Python's engine
(src/modlights/engines/algebraic/lifted.py's LiftedEngine): on random uniform grid boards
of the cross family over composite n (4, 6, 8, 9, 10, 12, 16, 18, 25, 27, 36, 100, 245,
...) that lifted_reason accepts, odd and even sides, the parts "lift" (A invertible mod
p, solved digit by digit) and "field" (k = 1, the GF(p) engine), the same plan engine,
nullity, rank, kernel size, canonical generators and orders, solvable flags, the same
particular solutions (solve_many without the minimal search) and minimal solutions.
and "chase" (a factor p^k, k > 1, singular mod p: on the cross family without wrap the
algebra over Z/p^k, one polynomial equation, for the symmetric 3 x 3 patterns too
(csrc/engines/lifted_cross.c,
lifted_alg.c), else the choosing chase engine over Z/p^k, every variant of which is in
C). Deterministic
(seeded NumPy generators); the big sweep and large boards are in the matrix group."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest

import modlights as ml
from capi_oracle import c_board, check_solves, check_structure, oracle_solver
from modlights.engines.native import covers
from modlights.model.ring import factorize
from modlights.native import _core

CSolver = _core.CSolver
METHOD = "lifted"
ROW = [(0, 0), (0, 1), (0, -1), (-1, 0), (1, 0)]
NS = [4, 6, 8, 9, 10, 12, 16, 18, 25, 27, 36, 100, 245]


def _pattern(rng):
    """A pattern of the cross family: a named one or random counts of ROW's offsets."""
    if rng.random() < 0.4:
        return str(rng.choice(["cross", "vertical", "horizontal"]))
    out = []
    for o in ROW:
        out += [o] * int(rng.integers(0, 4))
    return out or [(0, 0), (-1, 0)]


def _grid(rng, ns, max_side=12):
    n = int(rng.choice(ns))
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    return ml.Board.grid(rows, cols, states=n, pattern=_pattern(rng))


def _needs_chase(b: ml.Board) -> bool:
    """Whether a factor p^k, k > 1, of n is singular mod p (Python's "chase" part)."""
    for p, k in factorize(b.states):
        if k > 1:
            bp = ml.Board.grid(*b.shape, states=p, pattern=list(b.pattern), wrap=b.wrap)
            if ml.Solver(bp, method="dense").nullity:
                return True
    return False


def _compare(b: ml.Board, rng, solves: int = 3, minimal: bool = True) -> str:
    """C against an independent engine on b: "no" when lifted does not cover b, "chase"
    (with a chase part) or "yes" when every answer matched."""
    if covers("lifted", b) is not None:
        return "no"
    cs = CSolver(c_board(b), METHOD)
    ps = oracle_solver(b)
    assert cs.plan["engine"] == METHOD
    check_structure(cs, ps, b, in_ker=4)
    check_solves(cs, ps, b, rng, solves)
    n = b.states
    # the particular solutions: solve_many without the minimal search, row by row
    states = rng.integers(0, n, size=(4, *b.shape)).astype(np.uint8)
    x = rng.integers(0, n, size=(2, b.n_taps))
    for i in range(2):
        ax = b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x[i]))
        states[i] = (-ax.astype(np.int64)) % n
    ok = np.asarray(ps.solvable_many(states), dtype=bool)
    assert np.array_equal(np.asarray(cs.solvable_many(states), dtype=bool), ok)
    assert ok[:2].all()
    # the engine's particular solutions reach Python unchanged through the adapter
    # (modlights.engines.native), and solve
    pn = ml.Solver(b, method=METHOD)
    want = np.asarray(pn.solve_many(states[ok], minimal=False))
    taps, okc = cs.solve_many(states[ok], minimal=False)
    assert np.asarray(okc).all()
    assert np.array_equal(np.asarray(taps), want.reshape(np.asarray(taps).shape))
    for st_, x_ in zip(states[ok], want):
        assert not b.apply(st_, x_).any()
    if minimal and ps.kernel_size <= 1 << 10:
        got = cs.solve_result(states[0], budget=None)
        sol = pn.solve(states[0], minimal=True, budget=None)
        assert np.array_equal(np.asarray(got.taps).reshape(-1), np.asarray(sol.taps).reshape(-1))
        ref = ps.solve(states[0], minimal=True, budget=None)  # the independent length
        if ref.proven_minimal and got.proven_minimal:
            assert got.length == ref.length
        assert got.length == sol.length and got.proven_minimal == sol.proven_minimal
    return "chase" if _needs_chase(b) else "yes"


def test_random_lifted_boards_as_python():
    rng = np.random.default_rng(41)
    seen = {"yes": 0, "chase": 0, "no": 0}
    for _ in range(90):
        seen[_compare(_grid(rng, NS), rng)] += 1
    assert seen["yes"] >= 30 and seen["chase"] >= 10, seen


def test_parts_and_sides_as_python():
    """Every n of the list on the cross (odd and even sides): lift parts only (4, 9,
    ...), a field part with a kernel (6 on 4 x 4: GF(2) singular), combined by CRT."""
    rng = np.random.default_rng(42)
    kinds = set()
    for n in NS:
        for rows, cols in ((4, 4), (5, 5), (3, 7), (6, 1), (1, 6)):
            b = ml.Board.grid(rows, cols, states=n, pattern="cross")
            kinds.add(_compare(b, rng, solves=2))
    assert kinds == {"yes", "chase"}


def test_auto_plan_big_board():
    """200 x 200 over n = 4 (the cross: invertible mod 2): "auto" plans "lifted" as
    Python does and the C engine builds and solves it."""
    b = ml.Board.grid(200, 200, states=4, pattern="cross")
    ps = ml.Solver(b)
    cs = CSolver(c_board(b), "auto")
    assert cs.plan["engine"] == METHOD
    assert cs.nullity == ps.nullity == 0
    rng = np.random.default_rng(43)
    state = rng.integers(0, 4, size=b.shape).astype(np.uint8)
    taps, length, proven, ks = cs.solve(state, minimal=False)
    want = ps.solve(state, minimal=False)
    assert np.array_equal(np.asarray(taps).reshape(-1), np.asarray(want.taps).reshape(-1))
    assert length == want.length and ks == 1 and proven


def _torus_or_symmetric(rng, ns, max_side=10):
    """A torus of the cross family, or a left-right symmetric 3 x 3 pattern (diagonal,
    ring, square's corners with the centre) without wrap: the parts over GF(p) are the
    torus's and the symmetric patterns' engines."""
    n = int(rng.choice(ns))
    rows, cols = int(rng.integers(1, max_side + 1)), int(rng.integers(1, max_side + 1))
    if rng.random() < 0.5:
        pat = str(rng.choice(["knight", "diagonal"])) if rng.random() < 0.3 else _pattern(rng)
        return ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
    sym = ["diagonal", [(0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (0, -1)]]
    pat = sym[int(rng.integers(0, 2))]
    return ml.Board.grid(rows, cols, states=n, pattern=pat)


def test_tori_and_symmetric_patterns_as_the_reference():
    """The parts over GF(p) of tori (algebraic-torus) and of symmetric 3 x 3 patterns
    (algebraic-sym): every answer as the reference engine's, lift, field and chase parts
    all met."""
    rng = np.random.default_rng(44)
    seen = {"yes": 0, "chase": 0, "no": 0}
    tori = 0
    for _ in range(60):
        b = _torus_or_symmetric(rng, [4, 6, 8, 9, 10, 12, 25])
        got = _compare(b, rng, solves=2)
        seen[got] += 1
        tori += got != "no" and b.wrap
    assert seen["yes"] >= 15 and seen["chase"] >= 5 and tori >= 10, (seen, tori)
    # lift parts (A invertible mod p, k > 1) of tori whose pattern is not symmetric: the
    # digit steps' products A y wrap in the pattern's own direction
    for n, rows, cols, pat in (
        (4, 5, 7, [(0, 0), (0, 1), (-1, 0)]),
        (9, 4, 5, [(0, 0), (0, -1), (0, -1), (1, 0)]),
        (8, 5, 5, [(0, 0), (0, -1), (-1, 0), (-1, 0), (-1, 0)]),
        (8, 7, 5, [(0, 0), (0, 1), (-1, 0)]),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
        assert _compare(b, rng, solves=3) == "yes", (n, rows, cols, pat)


def test_the_plan_of_composite_tori_and_diagonals_is_lifted():
    """Large enough boards the chase used to take or refuse: a Z/6 cross torus, Z/4 and
    Z/6 knight tori (algebraic-torus2 over each prime) and a Z/4 diagonal (even side)
    plan "lifted"; a torus no engine over GF(2) takes is refused with the torus2
    engine's reason over that factor."""
    for b in (
        ml.Board.grid(200, 200, states=6, pattern="cross", wrap=True),
        ml.Board.grid(200, 200, states=4, pattern="knight", wrap=True),
        ml.Board.grid(200, 200, states=6, pattern="knight", wrap=True),
        ml.Board.grid(200, 200, states=4, pattern="diagonal"),
    ):
        assert CSolver(c_board(b), "auto").plan["engine"] == METHOD
    # the knight on a torus of side 6: every orientation's span reaches the side
    b = ml.Board.grid(6, 6, states=4, pattern="knight", wrap=True)
    why = covers(METHOD, b)
    assert why is not None and why.startswith("over GF(2) (a factor of n = 4): no orientation")


@pytest.mark.matrix
def test_many_lifted_tori_and_symmetric_boards_as_the_reference():
    rng = np.random.default_rng(344)
    seen = {"yes": 0, "chase": 0, "no": 0}
    for _ in range(300):
        b = _torus_or_symmetric(rng, NS + [14, 15, 20, 21, 27, 49, 121], max_side=24)
        seen[_compare(b, rng, minimal=False)] += 1
    assert seen["yes"] >= 80 and seen["chase"] >= 30, seen


ZQ_NS = [4, 8, 9, 12, 16, 18, 25, 27]


@pytest.fixture
def algebra_parts(monkeypatch):
    """The algebra over Z/p^k for every part it takes (MODLIGHTS_LIFTED_PARTS=algebra):
    the tests of the algebra on small boards, where the table's rank rule would give
    many parts to the chase (test_part_choice_follows_the_table checks the rule)."""
    monkeypatch.setenv("MODLIGHTS_LIFTED_PARTS", "algebra")


def test_parts_over_prime_powers_singular_mod_p_as_the_reference(algebra_parts):
    """Cross-family grids and diagonals without wrap singular mod p over n = p^k (k > 1)
    and composites (the algebra over Z/p^k, one polynomial equation): odd and even sides,
    solvable and
    unsolvable right-hand sides, kernel size, canonical generators and orders as the
    reference engine's."""
    rng = np.random.default_rng(45)
    sides = set()
    for rows, cols, n in (
        (5, 5, 4),
        (4, 4, 8),
        (5, 5, 16),
        (9, 9, 4),
        (4, 4, 27),
        (3, 8, 9),
        (16, 16, 4),
        (17, 17, 12),
        (11, 11, 18),
        (14, 14, 8),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern="cross")
        assert _compare(b, rng, solves=3) == "chase", (rows, cols, n)
        sides.add(rows % 2)
    assert sides == {0, 1}
    seen = 0
    for _ in range(25):
        b = ml.Board.grid(
            *rng.integers(1, 13, size=2), states=int(rng.choice(ZQ_NS)), pattern=_pattern(rng)
        )
        seen += _compare(b, rng, solves=2) == "chase"
    assert seen >= 5, seen
    # the diagonal (the symmetric patterns' chase over Z/p^k): even and odd sides
    for rows, cols, n in (
        (4, 4, 4),
        (5, 5, 8),
        (8, 8, 9),
        (7, 7, 27),
        (12, 13, 9),
        (11, 11, 25),
        (9, 9, 16),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern="diagonal")
        assert _compare(b, rng, solves=2) == "chase", (rows, cols, n)


@pytest.mark.matrix
def test_many_parts_over_prime_powers_as_the_reference(algebra_parts):
    rng = np.random.default_rng(345)
    seen = {"yes": 0, "chase": 0, "no": 0}
    for i in range(300):
        sym = ["diagonal", [(0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (0, -1)]]
        pat = sym[i % 2] if i % 3 == 2 else _pattern(rng)
        b = ml.Board.grid(*rng.integers(1, 33, size=2), states=int(rng.choice(ZQ_NS)), pattern=pat)
        seen[_compare(b, rng, solves=2, minimal=False)] += 1
    assert seen["chase"] >= 60, seen


@pytest.mark.matrix
def test_many_lifted_boards_as_python():
    rng = np.random.default_rng(341)
    ns = NS + [14, 15, 20, 21, 22, 24, 28, 32, 45, 49, 50, 64, 81, 121, 125, 243, 250]
    seen = {"yes": 0, "chase": 0, "no": 0}
    for _ in range(400):
        seen[_compare(_grid(rng, ns, max_side=40), rng, minimal=False)] += 1
    assert seen["yes"] >= 100 and seen["chase"] >= 50, seen


@pytest.mark.matrix
@pytest.mark.parametrize(
    "rows, cols, n, pat",
    [
        (200, 200, 4, "cross"),
        (101, 99, 6, "cross"),
        (64, 80, 12, "vertical"),
        (40, 41, 245, "cross"),
    ],
)
def test_large_lifted_boards_as_python(rows, cols, n, pat):
    b = ml.Board.grid(rows, cols, states=n, pattern=pat)
    assert _compare(b, np.random.default_rng(rows), solves=2, minimal=False) in ("yes", "chase")


def test_kernel_basis_limit_as_python():
    # the vertical pair (-1, 0), (1, 0) on 5 rows over n = 6: the path's adjacency is
    # singular mod 2 and mod 3 (two field parts of nullity = cols); 8192 generators of
    # 40960 taps pass the solver's 1 GiB but not the GF(2) part's 256 MiB
    b = ml.Board.grid(5, 1 << 13, states=6, pattern=[(-1, 0), (1, 0)])
    ps = ml.Solver(b, method=METHOD)  # Python's refusal: the engine's, through the adapter
    cs = CSolver(c_board(b), METHOD)
    assert cs.nullity == ps.nullity == 1 << 13
    assert cs.kernel_size == ps.kernel_size
    with pytest.raises(ValueError) as e:
        ps.kernel()
    with pytest.raises(ValueError) as got:
        cs.kernel()
    assert str(got.value) == str(e.value)
    assert "256 MiB allowed" in str(e.value)


#: left-right symmetric 3 x 3 patterns with no tap (-1, 0) and a unit centre: on odd widths
#: C_1 = b P is singular (algebraic-sym-odd over GF(p); lifted_odd.c over Z/p^k)
ODD_SYM = [
    "diagonal",
    [(0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1), (0, -1)],
    [(0, 0), (-1, 1), (-1, -1), (1, 0)],
    [(0, 0)] * 3 + [(-1, 1), (-1, -1)] * 2 + [(1, 1), (1, -1)],
]


def _odd_symmetric(rng, ns, max_w=41, max_h=16) -> ml.Board:
    """An odd-width board of an ODD_SYM pattern over n in ns, transposed half the time."""
    n = int(rng.choice(ns))
    w, h = 2 * int(rng.integers(1, max_w // 2 + 1)) + 1, int(rng.integers(1, max_h + 1))
    pat = ODD_SYM[int(rng.integers(0, len(ODD_SYM)))]
    if rng.random() < 0.5:
        offs = [(0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)] if pat == "diagonal" else pat
        return ml.Board.grid(w, h, states=n, pattern=[(c, r) for r, c in offs])
    return ml.Board.grid(h, w, states=n, pattern=pat)


def test_odd_width_symmetric_parts_over_prime_powers_as_the_reference(algebra_parts):
    """algebraic-sym-odd's boards singular mod p over n = p^k and composites (lifted_odd.c:
    the rows split by the fold into a nilpotent part solved by a series and im A0(P) where
    the chase and one polynomial equation over Z/q[x] / (chi / A0) run): kernel size,
    canonical generators and orders, solvable flags, particular and minimal solutions as
    the reference engine's; even and odd heights, both orientations."""
    rng = np.random.default_rng(46)
    for rows, cols, n in (
        (5, 5, 4),
        (8, 11, 8),
        (9, 9, 16),
        (7, 7, 27),
        (3, 11, 9),
        (5, 7, 25),
        (11, 11, 12),
        (7, 9, 18),
        (14, 9, 4),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern="diagonal")
        assert _compare(b, rng, solves=2) == "chase", (rows, cols, n)
    seen = 0
    for _ in range(16):
        seen += _compare(_odd_symmetric(rng, ZQ_NS, max_w=21, max_h=10), rng, solves=2) == "chase"
    assert seen >= 3, seen


@pytest.mark.matrix
def test_many_odd_width_symmetric_boards_as_the_reference(algebra_parts):
    rng = np.random.default_rng(346)
    seen = {"yes": 0, "chase": 0, "no": 0}
    for _ in range(300):
        b = _odd_symmetric(rng, ZQ_NS + [36, 100])  # 36, 100: two parts over Z/p^k
        seen[_compare(b, rng, solves=2, minimal=False)] += 1
    assert seen["chase"] >= 60 and seen["yes"] >= 60, seen


#: custom patterns of reach 2 and 3 (no symmetry: the torus algebra's sheared chase)
REACH2 = [(0, 0), (-2, 1), (1, 1), (0, -1)]
REACH3 = [(0, 0), (-3, 1), (1, 2), (2, -1), (0, 1)]


def test_tori_over_prime_powers_singular_mod_p_as_the_reference():
    """Tori whose factor p^k (k > 1) is singular mod p (the torus algebra over Z/p^k,
    csrc/engines/lifted_torus.c: the span x span system over Z/q[s] / (s^w - 1) split by
    Hensel into a part solved digit by digit and a Smith form over Z/q): the cross, the
    diagonal, the knight and patterns of reach 2 and 3 over n = 4, 8, 9, 16, 25, 27 and
    12, 36 (a CRT with a lift part); odd and even sides; kernel size, canonical
    generators and orders, solvable and unsolvable right-hand sides, particular and
    minimal solutions as the reference engine's (the chase on the larger tori)."""
    rng = np.random.default_rng(46)
    sides = set()
    for rows, cols, n, pat in (
        (6, 6, 4, "cross"),
        (9, 9, 16, "cross"),
        (6, 7, 8, "cross"),
        (4, 4, 27, "cross"),
        (3, 4, 25, "cross"),
        (6, 6, 4, "diagonal"),
        (10, 10, 8, "diagonal"),
        (8, 8, 9, "diagonal"),
        (7, 7, 25, "diagonal"),
        (9, 9, 12, "diagonal"),
        (15, 15, 4, "knight"),
        (12, 12, 9, "knight"),
        (13, 13, 25, "knight"),
        (4, 5, 16, REACH2),
        (6, 6, 9, REACH2),
        (7, 8, 4, REACH3),
        (5, 5, 25, REACH3),
        (8, 8, 36, REACH2),
    ):
        b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
        assert _compare(b, rng, solves=2, minimal=rows * cols <= 100) == "chase", (rows, cols, n)
        sides.add(cols % 2)
    assert sides == {0, 1}


@pytest.mark.matrix
def test_many_tori_over_prime_powers_as_the_reference():
    rng = np.random.default_rng(346)
    pats = ["cross", "diagonal", "knight", REACH2, REACH3]
    seen = {"yes": 0, "chase": 0, "no": 0}
    for i in range(300):
        pat = pats[i % 5]
        rows = int(rng.integers(3, 21))
        cols = rows if pat in ("diagonal", "knight") else int(rng.integers(3, 21))
        n = int(rng.choice(ZQ_NS + [36, 100]))
        b = ml.Board.grid(rows, cols, states=n, pattern=pat, wrap=True)
        seen[_compare(b, rng, solves=2, minimal=False)] += 1
    assert seen["chase"] >= 60, seen


@pytest.mark.matrix
@pytest.mark.parametrize("n, pat", [(4, "cross"), (16, "diagonal"), (4, "knight"), (9, "knight")])
def test_large_tori_over_prime_powers_as_the_chase(n, pat):
    """120 x 120 tori singular mod p: "auto" plans lifted, answers as the chase's."""
    b = ml.Board.grid(120, 120, states=n, pattern=pat, wrap=True)
    assert CSolver(c_board(b), "auto").plan["engine"] == METHOD
    assert _compare(b, np.random.default_rng(n), solves=2, minimal=False) == "chase"


# ----------------------------------------------------------------- the part strategies
def _reason(b: ml.Board, monkeypatch, force: str | None = None) -> str:
    """The C solver's plan reason for b with method "lifted" (its "; parts: ..."), with
    MODLIGHTS_LIFTED_PARTS=force when given."""
    if force:
        monkeypatch.setenv("MODLIGHTS_LIFTED_PARTS", force)
    try:
        return CSolver(c_board(b), METHOD).plan["reason"]
    finally:
        monkeypatch.delenv("MODLIGHTS_LIFTED_PARTS", raising=False)


def test_part_choice_follows_the_table(monkeypatch):
    """lifted's strategy for each part over Z/p^k follows the cost table as _core reads
    it (csrc/api/registry_costs.h, written by bench engine-costs): a part singular mod
    p of the cross family (of the symmetric patterns) is the algebra's when its rank m
    <= LIFTED_ZQ_RHO["cross"] (["sym"]) w, the chase's above; a torus part invertible
    mod p the torus algebra's when span + 3 <= LIFTED_TORUS_RATIO[2 or 3] k, digit by
    digit's above. m and w as the plan names them with the algebra forced, the span as
    it names it; boards on both sides of each rule."""
    rho, ratio = _core.LIFTED_ZQ_RHO, _core.LIFTED_TORUS_RATIO
    seen = set()
    for n, pattern, side in (
        (4, "cross", 64),  # m / w 0.44
        (4, "cross", 341),  # 0.23
        (9, "cross", 200),  # 0.005
        (27, "cross", 64),  # 0.125
        (4, "diagonal", 64),
        (9, "diagonal", 128),
    ):
        b = ml.Board.grid(side, side, states=n, pattern=pattern)
        forced = re.search(r"rank m (\d+), w (\d+)", _reason(b, monkeypatch, "algebra"))
        m, w = int(forced[1]), int(forced[2])
        cls = "cross" if pattern == "cross" else "sym"
        algebra = m <= rho[cls] * w
        part = "lifted-zq-cross" if algebra else "chase"
        assert f"Z/{n} {part} (singular mod" in _reason(b, monkeypatch), (n, pattern, side)
        seen.add((cls, algebra))
    assert {("cross", True), ("cross", False), ("sym", True)} <= seen, seen
    seen = set()
    for n, pattern, side in (
        (4, "cross", 41),  # (span + 3) / k 2.5
        (16, "cross", 41),  # 1.25
        (4, "knight", 41),  # 6.5
        (9, "cross", 43),  # 2.5
        (9, "diagonal", 43),  # 3.5
    ):
        b = ml.Board.grid(side, side, states=n, pattern=pattern, wrap=True)
        why = re.search(
            r"Z/(\d+) (lift|\S+)(?: over \S+)? \(invertible mod (\d+): ([a-z ]+) \(span (\d+) \+ 3",
            _reason(b, monkeypatch),
        )
        assert why, (n, pattern)
        p, span = int(why[3]), int(why[5])
        k = round(np.log(n) / np.log(p))
        algebra = span + 3 <= ratio[2 if p == 2 else 3] * k
        assert (why[2], why[4]) == (
            ("lifted-zq-torus", "the torus algebra") if algebra else ("lift", "digit by digit")
        ), (n, pattern)
        seen.add((p == 2, algebra))
    assert seen == {(True, True), (True, False), (False, True), (False, False)}, seen


def test_forced_part_strategies_answer_alike(monkeypatch):
    """MODLIGHTS_LIFTED_PARTS (bench engine-costs times both strategies with it):
    "algebra" and "plain" name their strategy for a singular part and an invertible
    torus part, and the answers (kernel size, a particular solution) are the same."""
    rng = np.random.default_rng(7)
    for b, alg, plain in (
        (ml.Board.grid(16, 16, states=4), "lifted-zq-cross", "chase"),
        (ml.Board.grid(43, 43, states=9, pattern="cross", wrap=True), "lifted-zq-torus", "lift"),
    ):
        x = rng.integers(0, b.states, size=b.shape).astype(np.uint8)
        start = b.apply(np.zeros(b.shape, np.uint8), x)
        got = {}
        for force, name in (("algebra", alg), ("plain", plain)):
            monkeypatch.setenv("MODLIGHTS_LIFTED_PARTS", force)
            s = ml.Solver(b, method=METHOD)
            assert f"Z/{b.states} {name} " in s.plan.reason, (force, s.plan.reason)
            assert "MODLIGHTS_LIFTED_PARTS" in s.plan.reason
            taps = s.solve(start, minimal=False).taps
            assert not b.apply(start, taps).any()
            got[force] = s.kernel_size
        monkeypatch.delenv("MODLIGHTS_LIFTED_PARTS")
        assert got["algebra"] == got["plain"]


def test_the_plan_names_the_parts():
    """Solver.plan's reason (and explain) names every part's strategy and why, once,
    also after a pickle round trip; "auto" and by name alike."""
    b = ml.Board.grid(64, 64, states=12)
    for method in ("auto", METHOD):
        s = ml.Solver(b, method=method)
        assert s.plan.engine == METHOD
        reason = s.plan.reason
        assert "; parts: Z/4 " in reason and ", Z/3 algebraic-cross (singular mod 3" in reason
        assert reason in s.plan.explain()
        again = pickle.loads(pickle.dumps(s))
        assert again.nullity == s.nullity  # the C solver made again
        assert again.plan.reason.count("; parts: ") == 1
