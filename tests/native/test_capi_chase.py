"""The C API's solver over the light chase (csrc/engines/chase.c, the registry entry
"chase-light", bound as modlights.native._core.CSolver) answers as
``modlights.Solver(board, method="chase-light")`` (engines/chase/engine.py's
ChaseEngine(variant="light")): on random grid boards (every named pattern and random
offsets, mixed maps, locks, holes, wrap, odd and even sides, boards wider than tall that
the chase runs transposed, n 2..9 and 16, 101, 255) the same plan engine, nullity, rank,
kernel size; the same canonical kernel generators and orders, each in ker A; solvable()
the same, and every solution the C solver gives takes the state to the target, or the
same Unsolvable message; a residual system past limits.py's limits refused with the same
message. The same for "chase-rowsolve" on knight and diagonal boards (refusals of the
ineligible ones with the same message) and for "chase-prefix"
(ChaseEngine(variant="prefix")) on boards with locks or holes, tall locked boards taking
a prefix of their residual system. The choosing entry "chase" (ChaseEngine(variant=None))
takes Python's variant, names it in the plan with Python's reason, and answers as it.
The row chase "chase-row" (csrc/engines/chase_row.c, ChaseEngine(variant="row"), and the
choosing entry where Python takes it: boards with many holes, n 2..9, composite 6, 12,
36 and large n) answers as Python with the same particular solutions (solve_many without
the minimal search) and minimal solutions, and refuses boards too large for it with
rowchase.py's messages. Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import NAMES, c_board, check_solves, check_structure, random_grid
from capi_oracle import random_pattern
from modlights.native import _core

CSolver = _core.CSolver


def _random_grid(rng, ns, max_side=9) -> ml.Board:
    return random_grid(rng, int(rng.choice(ns)), max_side, wrap=0.2, locks=0.35)


def _compare(b: ml.Board, rng, method: str = "chase-light") -> None:
    ps = ml.Solver(b, method=method)
    cs = CSolver(c_board(b), method)
    assert cs.plan["engine"] == ps.plan.engine == method
    assert cs.plan["family"] == ps.plan.family == "chase"
    check_structure(cs, ps, b)
    check_solves(cs, ps, b, rng)


@pytest.mark.parametrize("seed", range(4))
def test_random_grids_solve_as_python(seed):
    rng = np.random.default_rng(3300 + seed)
    for _ in range(25):
        _compare(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9]), rng)


def test_every_pattern_large_n_and_wide_boards_as_python():
    rng = np.random.default_rng(33)
    for i, name in enumerate(NAMES):
        n = (2, 3, 4, 6)[i % 4]
        rows, cols = (5, 8) if i % 2 else (6, 6)  # wider than tall: the transposed chase
        _compare(ml.Board.grid(rows, cols, states=n, pattern=name), rng)
    for n in (16, 101, 255):
        for _ in range(4):
            _compare(_random_grid(rng, [n]), rng)
    for rows, cols, n in ((2, 17, 2), (3, 20, 5), (16, 16, 2), (9, 9, 3)):
        _compare(ml.Board.grid(rows, cols, states=n, pattern="knight"), rng)


@pytest.mark.matrix
def test_many_grids_solve_as_python():
    rng = np.random.default_rng(333)
    for _ in range(1200):
        b = _random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 101, 255], 14)
        _compare(b, rng)
        if b.any_locked or b.any_holes:
            _compare(b, rng, "chase-prefix")
    for _ in range(300):
        _compare(_tall_locked(rng), rng, "chase-prefix")


def _tall_locked(rng) -> ml.Board:
    """A tall narrow board with about a third of its tiles locked: a tall residual
    system, a prefix of which usually leaves no kernel."""
    rows, cols = int(rng.integers(12, 31)), int(rng.integers(2, 7))
    locked = [(int(a), int(b)) for a, b in zip(*np.nonzero(rng.random((rows, cols)) < 1 / 3))]
    n = int(rng.choice([2, 3, 4, 5, 6, 9, 16]))
    return ml.Board.grid(rows, cols, states=n, locked=locked, wrap=bool(rng.random() < 0.2))


def test_prefix_variant_as_python():
    from modlights.engines.chase.engine import ChaseEngine

    rng = np.random.default_rng(3306)
    taken = 0
    for _ in range(30):
        b = _tall_locked(rng)
        eng = ChaseEngine(b, variant="prefix")
        taken += eng.residual_rows < eng.nres
        _compare(b, rng, "chase-prefix")
    assert taken >= 15  # the prefix path itself, not only the whole system
    for _ in range(30):  # locks or holes on any grid: the whole system or a prefix
        b = _random_grid(rng, [2, 3, 4, 5, 7, 8])
        if b.any_locked or b.any_holes:
            _compare(b, rng, "chase-prefix")


def test_rowsolve_variant_as_python():
    rng = np.random.default_rng(3307)
    taken = 0
    for i in range(40):
        rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
        n = int(rng.choice([2, 3, 4, 5, 6, 7, 9, 16, 101, 255]))
        b = ml.Board.grid(rows, cols, states=n, pattern=("knight", "diagonal")[i % 2])
        try:
            ps = ml.Solver(b, method="chase-rowsolve")
        except ValueError as e:  # not eligible: the same refusal
            with pytest.raises(ValueError) as got:
                CSolver(c_board(b), "chase-rowsolve")
            # but for Python's reference engine, which C has only if registered (seam)
            assert str(got.value) == str(e).replace(" 'reference',", "")
            continue
        del ps
        taken += 1
        _compare(b, rng, "chase-rowsolve")
    assert taken >= 15


def test_residual_too_large_refused_as_python():
    for rows, cols, n in ((255, 255, 2), (200, 200, 6)):
        b = ml.Board.grid(rows, cols, states=n, pattern=[])
        with pytest.raises(ValueError) as e:
            _ = ml.Solver(b, method="chase-light").nullity
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), "chase-light")
        assert str(got.value) == str(e.value)
        assert "residual system" in str(got.value)


def _compare_choice(b: ml.Board, rng, particular: bool = False) -> str:
    """The choosing entry: Python's variant and plan, and its answers (``particular``:
    the particular and minimal solutions too); the variant taken."""
    try:
        ps = ml.Solver(b, method="chase")
    except ValueError as e:  # too large for the chase: the same refusal
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), "chase")
        assert str(got.value) == str(e)
        return "refused"
    cs = CSolver(c_board(b), "chase")
    for key in ("engine", "family", "variant", "reason"):
        assert cs.plan[key] == getattr(ps.plan, key), (b, key)
    check_structure(cs, ps, b)
    check_solves(cs, ps, b, rng)
    if particular:
        check_particular(cs, ps, b, rng)
    return ps.plan.engine


def test_choosing_entry_takes_pythons_variant():
    rng = np.random.default_rng(3308)
    taken = set()
    for i in range(40):
        taken.add(_compare_choice(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16]), rng))
        taken.add(_compare_choice(_tall_locked(rng), rng))
        rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
        n = int(rng.choice([2, 3, 4, 5, 6, 7, 9, 16, 101]))
        pattern = ("knight", "diagonal", "cross")[i % 3]
        taken.add(_compare_choice(ml.Board.grid(rows, cols, states=n, pattern=pattern), rng))
    for _ in range(20):  # many holes: Python's row chase
        rows, cols = int(rng.integers(8, 40)), int(rng.integers(3, 12))
        mask = rng.random((rows, cols)) < rng.choice([0.3, 0.5, 0.7])
        holes = [(int(r), int(c)) for r, c in zip(*np.nonzero(mask))]
        n = int(rng.choice([2, 3, 5]))
        taken.add(_compare_choice(ml.Board.grid(rows, cols, states=n, holes=holes), rng))
    assert {"chase-light", "chase-prefix", "chase-rowsolve", "chase-row"} <= taken, taken


@pytest.mark.matrix
def test_choosing_entry_many_boards():
    rng = np.random.default_rng(3309)
    for _ in range(600):
        _compare_choice(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 101, 255], 14), rng)
    for _ in range(150):
        _compare_choice(_tall_locked(rng), rng)


# ------------------------------------------------------------------ the row chase
def check_particular(cs, ps: ml.Solver, b: ml.Board, rng) -> None:
    """The same particular solutions (solve_many without the minimal search) of solvable
    states and unsolvable flags, and the same minimal solution when |ker A| is small."""
    n = b.states
    states = rng.integers(0, n, size=(4, *b.shape)).astype(np.uint8)
    for i in range(2):  # solvable ones: -A x
        x = rng.integers(0, n, size=b.n_taps)
        ax = b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x))
        states[i] = (-ax.astype(np.int64)) % n
    ok = np.asarray(ps.solvable_many(states), dtype=bool)
    assert np.array_equal(np.asarray(cs.solvable_many(states), dtype=bool), ok)
    assert ok[:2].all()
    want = np.asarray(ps.solve_many(states[ok], minimal=False))
    taps, okc = cs.solve_many(states[ok], minimal=False)
    assert np.asarray(okc).all()
    assert np.array_equal(np.asarray(taps), want.reshape(np.asarray(taps).shape))
    if ps.kernel_size <= 1 << 8:
        got = cs.solve_result(states[0], budget=None)
        sol = ps.solve(states[0], minimal=True, budget=None)
        assert np.array_equal(np.asarray(got.taps).reshape(-1), np.asarray(sol.taps).reshape(-1))
        assert got.length == sol.length and got.proven_minimal == sol.proven_minimal


def _multiple_pattern(rng) -> list:
    """Offsets of the 3 x 3 window repeated 0..4 times: over Z/p^e many coefficients are
    non-units, so the row chase keeps equations pending (a system over the free symbols
    whose kernel generators may have orders below p^e)."""
    pat = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            pat += [(dr, dc)] * int(rng.choice([0, 0, 1, 2, 3, 4]))
    return pat or [(0, 0), (-1, 0)]


def _pending_board(rng, n: int) -> ml.Board:
    """A board with a few holes and a _multiple_pattern: pending equations over Z/p^e."""
    rows, cols = int(rng.integers(6, 26)), int(rng.integers(2, 9))
    mask = rng.random((rows, cols)) < rng.uniform(0.05, 0.3)
    holes = [(int(a), int(c)) for a, c in zip(*np.nonzero(mask))][: rows * cols - 1]
    wrap = bool(rng.random() < 0.2)
    return ml.Board.grid(rows, cols, states=n, pattern=_multiple_pattern(rng), holes=holes, wrap=wrap)


def _holey(rng, ns, holes=(0.2, 0.45), max_rows=50) -> ml.Board:
    """A tall board with many holes (the row chase's boards: more than
    ROWCHASE_MIN_RATIO symbols a column), a named or random pattern (15 %: a mixed map of
    two), sometimes locked tiles and wrap."""
    rows, cols = int(rng.integers(12, max_rows + 1)), int(rng.integers(2, 10))
    n = int(rng.choice(ns))
    kw: dict = {"states": n, "wrap": bool(rng.random() < 0.2)}
    if rng.random() < 0.15:
        pal = [random_pattern(rng) for _ in range(2)]
        index = rng.integers(0, 2, size=(rows, cols))
        kw["pattern"] = [[pal[i] for i in row] for row in index.tolist()]
    elif rng.random() < 0.4:
        kw["pattern"] = random_pattern(rng)
    elif rng.random() < 0.6:
        kw["pattern"] = _multiple_pattern(rng)
    kind = rng.random((rows, cols))
    p = float(rng.uniform(*holes))
    kw["holes"] = [(int(a), int(c)) for a, c in zip(*np.nonzero(kind < p))]
    if len(kw["holes"]) == rows * cols:
        kw["holes"] = kw["holes"][1:]
    if rng.random() < 0.4:
        kw["locked"] = [(int(a), int(c)) for a, c in zip(*np.nonzero((kind >= p) & (kind < p + 0.1)))]
    return ml.Board.grid(rows, cols, **kw)


def _compare_row(b: ml.Board, rng) -> None:
    """method="chase-row" (the row chase forced) against Python, particular and minimal
    solutions included."""
    _compare(b, rng, "chase-row")
    check_particular(CSolver(c_board(b), "chase-row"), ml.Solver(b, method="chase-row"), b, rng)


ROW_NS = [2, 3, 4, 5, 6, 7, 8, 9, 12, 36, 101, 255]


def test_row_variant_as_python():
    rng = np.random.default_rng(3310)
    for i in range(14):  # the row chase's boards, every n of ROW_NS
        _compare_row(_holey(rng, [ROW_NS[i % len(ROW_NS)]]), rng)
    for _ in range(10):  # forced on any grid: locks, holes, wrap, mixed maps
        _compare_row(_random_grid(rng, [2, 3, 4, 6, 8, 9, 12]), rng)
    for n in (4, 8, 9, 12, 25, 27, 36):  # pending systems over Z/p^e
        _compare_row(_pending_board(rng, n), rng)


def test_choosing_entry_takes_the_row_chase_as_python():
    rng = np.random.default_rng(3311)
    taken = 0
    for _ in range(12):
        taken += _compare_choice(_holey(rng, ROW_NS), rng, particular=True) == "chase-row"
    assert taken >= 6, taken


def test_row_chase_too_large_refused_as_python():
    """rowchase.py's two limits: the elimination records (an empty pattern forces
    nothing: every tap a symbol, every tile an equation) and the live rows (taps 30 rows
    up: the first 30 rows of taps are symbols, live until their equations 30 rows on)."""
    cases = [
        ml.Board.grid(1320, 1320, states=5, pattern=[], holes=[(0, 0)]),
        ml.Board.grid(40, 1700, states=5, pattern=[(0, 0), (-30, 0)], holes=[(0, 0)]),
    ]
    for b in cases:
        with pytest.raises(ValueError) as e:
            _ = ml.Solver(b, method="chase-row").nullity
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), "chase-row")
        assert str(got.value) == str(e.value)
        assert "too large for the row chase" in str(got.value)


@pytest.mark.heavy  # about 5 s (mostly Python's answers and checks on 540,000 tiles)
def test_choosing_entry_tall_system_takes_the_row_chase_as_python():
    """A tall residual system none of whose prefixes leaves no kernel, past
    ROWCHASE_TALL_ENTRIES: 450 x 1200 over Z/4, 12 % locked tiles and 0.8 % holes, a
    pattern reaching 3 columns (so the chase runs along the rows)."""
    rng = np.random.default_rng(3313)
    r = rng.random((450, 1200))
    holes = [(int(a), int(c)) for a, c in zip(*np.nonzero(r < 0.008))]
    locked = [(int(a), int(c)) for a, c in zip(*np.nonzero((r >= 0.008) & (r < 0.128)))]
    pattern = [(0, 0), (1, 0), (-1, 0), (0, -3), (0, 3)]
    b = ml.Board.grid(450, 1200, states=4, pattern=pattern, holes=holes, locked=locked)
    assert _compare_choice(b, rng, particular=True) == "chase-row"
    cs = CSolver(c_board(b), "chase")
    assert cs.plan["reason"].endswith("no prefix of which leaves a trivial kernel")


@pytest.mark.matrix
def test_row_chase_many_boards_as_python():
    rng = np.random.default_rng(3312)
    taken = 0
    for _ in range(300):
        taken += _compare_choice(_holey(rng, ROW_NS + [10, 16, 18, 100]), rng, True) == "chase-row"
    assert taken >= 150, taken
    for _ in range(150):
        _compare_row(_holey(rng, ROW_NS + [10, 16, 18, 100], holes=(0.05, 0.6)), rng)
    for _ in range(150):
        _compare_row(_random_grid(rng, ROW_NS), rng)
    for _ in range(150):
        _compare_row(_pending_board(rng, int(rng.choice([4, 8, 9, 12, 16, 18, 25, 27, 36]))), rng)
