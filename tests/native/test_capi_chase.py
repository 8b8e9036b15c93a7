"""The C API's solver over the chase (csrc/engines/chase.c, chase_layout.c,
chase_row.c: the registry entries "chase", "chase-light", "chase-prefix", "chase-row",
"chase-rowsolve", bound as modlights.native._core.CSolver) against independent oracles:
the pure-NumPy reference engine on small boards and the dense engine (Four Russians /
Z/n elimination, another algorithm and C module) beyond. On random grid boards (every
named pattern and random offsets, mixed maps, locks, holes, wrap, odd and even sides,
boards wider than tall that the chase runs transposed, n 2..9 and 16, 101, 255): the
plan names the engine; nullity, rank, kernel size, the canonical kernel generators and
orders equal the oracle's, each generator in ker A; solvable() the same, and every
solution the C solver gives takes the state to the target, or the oracle's Unsolvable
message. The same for "chase-rowsolve" on knight and diagonal boards (eligible exactly
on an even side longer than the pattern's reach: refused otherwise with the registry's
reason) and for "chase-prefix" on boards with locks or holes, tall locked boards taking
a prefix of their residual system. The choosing entry "chase" takes the variant the
plans' symbol counts decide (its rules written out here, _expected_variants, over the
plans tests/engines/chase/chase_oracle.py computes from the tap matrix), names it in
the plan with its reason, and answers as that variant
does. The row chase "chase-row" (boards with many holes, n 2..9, composite 6, 12, 36
and large n, pending systems over Z/p^e) answers as the oracle, with minimal solutions
of the oracle's length; residual systems and row chases past the limits are refused
with the golden messages. Python's Solver (modlights.engines.native's adapter over the
same C engines) gives the C solver's particular solutions unchanged. Deterministic
(seeded NumPy generators)."""

from __future__ import annotations

import numpy as np
import pytest

import modlights as ml
from capi_oracle import NAMES, c_board, check_solves, check_structure, random_grid, random_pattern
from engines.chase.chase_oracle import light_plan, rowsolve_symbols
from modlights.engines.reference import reference_reason
from modlights.native import _core
from modlights.search import canon

CSolver = _core.CSolver


def _random_grid(rng, ns, max_side=9) -> ml.Board:
    return random_grid(rng, int(rng.choice(ns)), max_side, wrap=0.2, locks=0.35)


def oracle(b: ml.Board) -> ml.Solver:
    """An engine independent of the chase: the reference engine on small boards whose
    kernel its Solver makes canonical (canon.fits without the native module), the
    dense engine beyond."""
    small = b.n_cells * b.n_taps <= 200 * 200
    if small and not reference_reason(b.n_cells, b.n_taps, b.states):
        ref = ml.Solver(b, backend="reference")
        if canon.fits(ref.nullity, b.n_taps, b.states, native=False):
            return ref
    return ml.Solver(b, method="dense")


def _compare(b: ml.Board, rng, method: str = "chase-light"):
    """The C solver of ``method`` against the oracle; the C solver returned."""
    cs = CSolver(c_board(b), method)
    assert cs.plan["engine"] == method and cs.plan["family"] == "chase"
    ps = oracle(b)
    check_structure(cs, ps, b)
    check_solves(cs, ps, b, rng)
    return cs


@pytest.mark.parametrize("seed", range(4))
def test_random_grids_solve_as_the_oracle(seed):
    rng = np.random.default_rng(3300 + seed)
    for _ in range(25):
        _compare(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9]), rng)


def test_every_pattern_large_n_and_wide_boards_as_the_oracle():
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
def test_many_grids_solve_as_the_oracle():
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


PREFIX_REASON = "a prefix of its tall residual system leaves no kernel"


def test_prefix_variant_as_the_oracle():
    rng = np.random.default_rng(3306)
    taken = 0
    for _ in range(30):
        b = _tall_locked(rng)
        _compare(b, rng, "chase-prefix")
        taken += CSolver(c_board(b), "chase").plan["reason"].endswith(PREFIX_REASON)
    assert taken >= 15  # the prefix path itself, not only the whole system
    for _ in range(30):  # locks or holes on any grid: the whole system or a prefix
        b = _random_grid(rng, [2, 3, 4, 5, 7, 8])
        if b.any_locked or b.any_holes:
            _compare(b, rng, "chase-prefix")


ROWSOLVE_NEEDS = (
    "the row-solve chase needs one pattern, no wrap, locks or holes, and a pattern whose "
    "last row of taps is a pair (D, -a), (D, +a) with coefficients that are units mod n, "
    "on a width (or height) that is a multiple of 2a"
)


def test_rowsolve_variant_as_the_oracle():
    """The knight (last row of taps (2, -1), (2, 1)) and the diagonal ((1, -1), (1, 1)),
    unit coefficients: eligible exactly with an even side whose other side is longer
    than the reach D (along the rows: an even width and more than D rows; or the
    columns), refused otherwise with the registry's reason, by C and by Python's
    Solver alike."""
    rng = np.random.default_rng(3307)
    taken = 0
    for i in range(40):
        rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
        n = int(rng.choice([2, 3, 4, 5, 6, 7, 9, 16, 101, 255]))
        name = ("knight", "diagonal")[i % 2]
        b = ml.Board.grid(rows, cols, states=n, pattern=name)
        D = 2 if name == "knight" else 1
        if not ((cols % 2 == 0 and rows > D) or (rows % 2 == 0 and cols > D)):
            want = "method='chase-rowsolve' does not cover this board: chase-rowsolve: "
            with pytest.raises(ValueError) as got:
                CSolver(c_board(b), "chase-rowsolve")
            assert str(got.value).startswith(want + ROWSOLVE_NEEDS)
            with pytest.raises(ValueError) as got:
                ml.Solver(b, method="chase-rowsolve")
            assert str(got.value).startswith(want + ROWSOLVE_NEEDS)
            continue
        taken += 1
        _compare(b, rng, "chase-rowsolve")
    assert taken >= 15


def test_rowsolve_knight_kernels_as_the_light_chase():
    """The knight's row-solve residual past the sizes of the oracle's boards: the
    bit-sliced pass (n = 3, 4), the byte pass's knight kernel and table (n <= 16), the
    16-bit lanes (n = 101), and 2w >= 500 unknowns (odd heights: the rows are chased),
    so dense-zn's cache-blocked panels, their byte pairs (fields q <= 89) and their
    threads run; the light chase (another symbolic pass and residual) as the oracle,
    the solutions applied."""
    rng = np.random.default_rng(3309)
    for n, (rows, cols) in zip((3, 4, 5, 7, 11, 16, 101), [(27, 256), (41, 250)] * 4):
        b = ml.Board.grid(rows, cols, states=n, pattern="knight")
        cs = CSolver(c_board(b), "chase-rowsolve")
        check_structure(cs, ml.Solver(b, method="chase-light"), b, in_ker=4)
        check_solves(cs, ml.Solver(b, method="chase-light"), b, rng, solves=2)


def test_residual_too_large_refused():
    """An empty pattern forces nothing: every tap a symbol, every tile an equation. The
    residual system's bytes (GF(2): three copies of nres x ceil(nsym / 64) words; Z/n:
    nres x nsym x (1 + 3 x prime-power parts)) and work (nres x nsym x side / 64 or
    / 16) past the limits (1024 MiB, 2^38): refused before it is built, by C and by
    Python's Solver, with the message of the limits."""
    for rows, cols, n, mib, log2 in ((255, 255, 2, 1514, 41), (200, 200, 6, 10681, 41)):
        t = rows * cols
        nbytes = 3 * t * ((t + 63) // 64) * 8 if n == 2 else t * t * 7
        work = t**3 // (64 if n == 2 else 16)
        assert round(nbytes / 2**20) == mib and work.bit_length() - 1 == log2
        want = (
            f"this board is too large for its pattern: the chase leaves a residual system "
            f"of {t} equations x {t} unknowns mod {n} ({mib} MiB, about 2^{log2} operations "
            f"to eliminate; at most 1024 MiB and 2^38); the pattern forces too few taps "
            f"(use a smaller board or a pattern that reaches the next row)"
        )
        b = ml.Board.grid(rows, cols, states=n, pattern=[])
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), "chase-light")
        assert str(got.value) == want
        with pytest.raises(ValueError) as got:
            ml.Solver(b, method="chase-light")
        assert str(got.value) == want


#: the reason the choosing entry gives for each variant (Solver.plan.reason's tail)
REASONS = {
    "chase-rowsolve": (
        "its pattern ends in a pair of unit taps: the row-solve chase has the fewest symbols",
    ),
    "chase-row": (
        "more than 5 symbols a column (holes or locks)",
        "a tall residual system no prefix of which leaves a trivial kernel",
    ),
    "chase-prefix": (PREFIX_REASON,),
    "chase-light": ("the residual system of the light chase, eliminated whole",),
}


def _expected_variants(b: ml.Board) -> set:
    """The variants the choosing entry may take, from the plans' symbol counts: the
    row-solve chase when eligible with no more symbols than the light chase; on a
    board with locks or holes the row chase past 5 symbols a column of the light
    chase, else a prefix or the whole residual system (the row chase too when no prefix
    leaves a trivial kernel on a tall system: past 2^28 entries, not on these boards);
    the light chase otherwise."""
    plan = light_plan(b)
    rs = rowsolve_symbols(b)
    if rs is not None and rs <= plan.nsym:
        return {"chase-rowsolve"}
    if not (b.any_locked or b.any_holes):
        return {"chase-light"}
    if plan.nsym > 5 * max(1, plan.width):
        return {"chase-row"}
    return {"chase-prefix", "chase-light"}


def _compare_choice(b: ml.Board, rng, particular: bool = False) -> str:
    """The choosing entry: the variant _expected_variants allows, named in the plan with
    its reason; the oracle's answers; the same answers as the variant asked by name
    (``particular``: the particular and minimal solutions too); the variant taken."""
    try:
        cs = CSolver(c_board(b), "chase")
    except ValueError as e:  # too large for the chase: Python's Solver refuses alike
        with pytest.raises(ValueError) as got:
            ml.Solver(b, method="chase")
        assert str(got.value) == str(e) and "too large" in str(e)
        return "refused"
    plan = cs.plan
    v = plan["engine"]
    assert v in _expected_variants(b), (b, v)
    assert plan["variant"] == v and plan["family"] == "chase"
    assert any(
        plan["reason"] == f"asked for by name; it covers the board; variant {v}: {why}"
        for why in REASONS[v]
    ), plan["reason"]
    ps = ml.Solver(b, method="chase")  # Python's plan: the same variant and reason
    assert (ps.plan.engine, ps.plan.variant, ps.plan.reason) == (v, v, plan["reason"])
    check_structure(cs, oracle(b), b)
    check_solves(cs, oracle(b), b, rng)
    named = CSolver(c_board(b), v)
    H, orders = cs.kernel()
    assert np.array_equal(H, named.kernel()[0]) and orders == named.kernel()[1]
    if particular:
        check_particular(cs, b, rng, named)
    return v


def test_choosing_entry_takes_the_variant_of_the_plans():
    rng = np.random.default_rng(3308)
    taken = set()
    for i in range(40):
        taken.add(_compare_choice(_random_grid(rng, [2, 3, 4, 5, 6, 7, 8, 9, 16]), rng))
        taken.add(_compare_choice(_tall_locked(rng), rng))
        rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
        n = int(rng.choice([2, 3, 4, 5, 6, 7, 9, 16, 101]))
        pattern = ("knight", "diagonal", "cross")[i % 3]
        taken.add(_compare_choice(ml.Board.grid(rows, cols, states=n, pattern=pattern), rng))
    for _ in range(20):  # many holes: the row chase
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
def check_particular(cs, b: ml.Board, rng, named=None) -> None:
    """The C solver's particular solutions (solve_many without the minimal search) of
    solvable states take them to 0 and are Python's Solver's over the adapter unchanged
    (``named``: and the C solver of that name's), its unsolvable flags the oracle's; its
    minimal solution, when |ker A| is small, of the oracle's length and proof."""
    n = b.states
    method = cs.plan["method"]
    ps, orc = ml.Solver(b, method=method), oracle(b)
    states = rng.integers(0, n, size=(4, *b.shape)).astype(np.uint8)
    for i in range(2):  # solvable ones: -A x
        x = rng.integers(0, n, size=b.n_taps)
        ax = b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x))
        states[i] = (-ax.astype(np.int64)) % n
    ok = np.asarray(orc.solvable_many(states), dtype=bool)
    assert np.array_equal(np.asarray(cs.solvable_many(states), dtype=bool), ok)
    assert ok[:2].all()
    taps, okc = cs.solve_many(states[ok], minimal=False)
    taps = np.asarray(taps)
    assert np.asarray(okc).all()
    for st_, t in zip(states[ok], taps):
        assert not b.apply(st_, t.reshape(b.shape)).any()
    want = np.asarray(ps.solve_many(states[ok], minimal=False))
    assert np.array_equal(taps, want.reshape(taps.shape))
    if named is not None:
        assert np.array_equal(taps, np.asarray(named.solve_many(states[ok], minimal=False)[0]))
    if orc.kernel_size <= 1 << 8:
        got = cs.solve_result(states[0], budget=None)
        sol = orc.solve(states[0], minimal=True, budget=None)
        assert not b.apply(states[0], np.asarray(got.taps).reshape(b.shape)).any()
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
    holes = [(int(a), int(c)) for a, c in zip(*np.nonzero(mask))]
    holes = holes[: rows * cols - 1]
    wrap = bool(rng.random() < 0.2)
    return ml.Board.grid(
        rows, cols, states=n, pattern=_multiple_pattern(rng), holes=holes, wrap=wrap
    )


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
    kw["holes"] = [(int(a), int(c)) for a, c in np.argwhere(kind < p)]
    if len(kw["holes"]) == rows * cols:
        kw["holes"] = kw["holes"][1:]
    if rng.random() < 0.4:
        kw["locked"] = [
            (int(a), int(c)) for a, c in zip(*np.nonzero((kind >= p) & (kind < p + 0.1)))
        ]
    return ml.Board.grid(rows, cols, **kw)


def _compare_row(b: ml.Board, rng) -> None:
    """method="chase-row" (the row chase forced) against the oracle, particular and
    minimal solutions included."""
    check_particular(_compare(b, rng, "chase-row"), b, rng)


ROW_NS = [2, 3, 4, 5, 6, 7, 8, 9, 12, 36, 101, 255]


def test_row_variant_as_the_oracle():
    rng = np.random.default_rng(3310)
    for i in range(14):  # the row chase's boards, every n of ROW_NS
        _compare_row(_holey(rng, [ROW_NS[i % len(ROW_NS)]]), rng)
    for _ in range(10):  # forced on any grid: locks, holes, wrap, mixed maps
        _compare_row(_random_grid(rng, [2, 3, 4, 6, 8, 9, 12]), rng)
    for n in (4, 8, 9, 12, 25, 27, 36):  # pending systems over Z/p^e
        _compare_row(_pending_board(rng, n), rng)


def test_choosing_entry_takes_the_row_chase():
    rng = np.random.default_rng(3311)
    taken = 0
    for _ in range(12):
        taken += _compare_choice(_holey(rng, ROW_NS), rng, particular=True) == "chase-row"
    assert taken >= 6, taken


def test_row_chase_too_large_refused():
    """The row chase's two limits: the elimination records (an empty pattern forces
    nothing: every tap a symbol, every tile an equation; 1742399 eliminations of half
    a row of 1320 bytes) and the live rows (taps 30 rows up: the first 30 rows of taps
    are symbols, live until their equations 30 rows on), refused with their golden
    messages by C and by Python's Solver."""
    cases = [
        (
            ml.Board.grid(1320, 1320, states=5, pattern=[], holes=[(0, 0)]),
            "this board is too large for the row chase: about 1097 MiB of elimination "
            "records (1742399 eliminations of rows of at least 1320 symbols mod 5; at most "
            "1024 MiB); use a smaller board or fewer holes",
        ),
        (
            ml.Board.grid(40, 1700, states=5, pattern=[(0, 0), (-30, 0)], holes=[(0, 0)]),
            "this board is too large for the row chase: at least 16999 symbols are live at "
            "once (65536 rows of them: 1062 MiB, about 2^26 operations; at most 1024 MiB "
            "and 2^38); the pattern forces too few taps (use a smaller board or a pattern "
            "that reaches the next row)",
        ),
    ]
    assert round(1742399 * 1320 // 2 / 2**20) == 1097
    for b, want in cases:
        with pytest.raises(ValueError) as got:
            CSolver(c_board(b), "chase-row")
        assert str(got.value) == want
        with pytest.raises(ValueError) as got:
            ml.Solver(b, method="chase-row")
        assert str(got.value) == want


@pytest.mark.heavy  # about 5 s (the checks by application on 540,000 tiles)
def test_choosing_entry_tall_system_takes_the_row_chase():
    """A tall residual system none of whose prefixes leaves no kernel, past
    ROWCHASE_TALL_ENTRIES: 450 x 1200 over Z/4, 12 % locked tiles and 0.8 % holes, a
    pattern reaching 3 columns (so the chase runs along the rows)."""
    rng = np.random.default_rng(3313)
    r = rng.random((450, 1200))
    holes = [(int(a), int(c)) for a, c in zip(*np.nonzero(r < 0.008))]
    locked = [(int(a), int(c)) for a, c in zip(*np.nonzero((r >= 0.008) & (r < 0.128)))]
    pattern = [(0, 0), (1, 0), (-1, 0), (0, -3), (0, 3)]
    b = ml.Board.grid(450, 1200, states=4, pattern=pattern, holes=holes, locked=locked)
    cs = CSolver(c_board(b), "chase")
    assert cs.plan["engine"] == "chase-row"
    assert cs.plan["reason"].endswith("no prefix of which leaves a trivial kernel")
    # too large for the oracles: the kernel and solutions checked by application
    H, orders = cs.kernel()
    assert int(np.prod(orders, dtype=object)) == cs.kernel_size
    for h in H[:3]:
        assert not b.apply_vector(h).any()
    x = rng.integers(0, 4, size=b.n_taps)
    state = (-b.apply(np.zeros(b.shape, dtype=np.int64), b.from_tap_vector(x))) % 4
    taps, okc = cs.solve_many(state[None], minimal=False)
    assert np.asarray(okc).all()
    assert not b.apply(state, np.asarray(taps)[0].reshape(b.shape)).any()


@pytest.mark.matrix
def test_row_chase_many_boards_as_the_oracle():
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
