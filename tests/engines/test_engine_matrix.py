"""The engine matrix: every engine against the reference engine.

Factors of a case:

- pattern family (``FAMILIES``): every named pattern; custom offsets with and without
  the centre (0, 0); one-sided; asymmetric; repeated offsets; reach up to +-3 with and
  without the centre; no offsets at all; mixed per-tile maps with and without uncentred
  entries;
- n (``NS``): 2..9, 11, 16, 25, 27, 30, 101, 255;
- cells (``CELLS``): none, locks, holes, both, wrap, wrap+locks;
- shape (``SHAPES``): 1 x 1, 1 x k, k x 1, odd and even squares, non-square boards with
  an odd and an even side.

Every case runs every engine (``METHODS``): ``Solver(method=...)`` for each method the
Solver takes (``"auto"`` and the family names of ``registry.METHOD_FAMILIES``) and the
chase's variants by their registered names (``chase-rowsolve``, ``chase-row``,
``chase-light``: the residual matrix eliminated whole, ``chase-prefix``). The full
product of the factors is too large for the default suite, so it runs:

- ``test_matrix``: a covering design generated here, deterministically: every pair of
  factor values (pattern x n, pattern x cells, ..., shape x cells) appears in at least
  one case, each case with every method (so every method meets every pair);
- ``test_matrix_smallest``: the full product pattern x n x cells on 2 x 2, 3 x 4 and
  4 x 4 boards, every method in one test a case;
- ``test_matrix_large``: boards of 576 tiles and more (24 x 24, 25 x 24, 24 x 25: where
  "auto" takes the chase or the algebraic engine), every pair of pattern, n, cells and
  shape, against the native dense engine (the reference engine takes seconds there;
  ``-m slow`` compares the two on a sample);
- ``test_reference_is_brute_force``: the oracle itself against brute force (tests/oracle.py)
  on the cases whose n^taps is small;
- ``test_matrix_explore`` (marked ``explore``, excluded by default): random cases of the
  full product with a fresh seed per run (printed; ``MODLIGHTS_MATRIX_SEED`` replays).

The four sweeps (``test_matrix``, ``test_matrix_smallest``, ``test_matrix_large``,
``test_reference_is_brute_force``) keep a few cases each in the default run, spread over
their lists; the rest are marked ``matrix`` (tests/suite_groups.py), which CI runs
(``python -m pytest -m matrix``). ``test_every_method_answers_a_board_it_covers`` runs
every method on a board it covers in the default run too.

A method either refuses the board with a ValueError (allowed for methods that do not
cover it; never for "auto" or "dense", which cover every board) or answers, and every
answer is compared with ``Solver(board, backend="reference")``: kernel_size, nullity,
rank; solvable() and solvable_many() for a random state (target 0 and 1) and for a state
made solvable (A applied to random taps, by Board.apply); solutions (solve, and for n = 2
solve_packed) checked by Board.apply; kernel()
generators in the kernel (A g = 0 mod n), of exactly the orders given, generating a group of
kernel_size elements (small kernels, enumerated); det and is_invertible for square tap
matrices, ValueError from det otherwise; solve(minimal=True) of proven minimal length
equal to the reference's (kernels of at most MINIMAL_MAX elements). Anything else
(another exception, a wrong answer) fails with the case id, e.g.
``knight-n5-4x4-locks-chase-rowsolve``.

``MODLIGHTS_MATRIX_ISOLATE=1`` runs each engine's checks in a forked child, so a crash
(SIGSEGV) fails that one test with its id instead of killing pytest.
"""

from __future__ import annotations

import itertools
import os
import signal
import traceback
import zlib
from dataclasses import dataclass
from math import prod

import numpy as np
import pytest

import modlights as ml
from modlights.engines import registry
from modlights.engines.reference import ReferenceEngine
from oracle import BruteForce
from suite_groups import sample, spread

# ----------------------------------------------------------------------------- factors
_MIXED_POOL = ("cross", "knight", ((0, 0), (1, 1), (-1, 0), (0, 2)))
_MIXED_NC_POOL = ("vertical", ((1, 0), (0, 1)), ((-1, 1), (-1, -1)), ())

#: pattern families: a name, a tuple of offsets, or ("mixed", pool) for a per-tile map
#: whose tile (r, c) takes pool[(2r + c) mod len(pool)]
FAMILIES: dict[str, object] = {
    "cross": "cross",
    "diagonal": "diagonal",
    "square": "square",
    "horizontal": "horizontal",
    "vertical": "vertical",
    "knight": "knight",
    "centred": ((0, 0), (1, 1), (-1, 0), (0, 2)),
    "nocentre": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "onesided": ((1, 0), (0, 1)),
    "asym": ((-1, 1), (-1, -1)),
    "asym2": ((1, -2), (-1, -2)),
    "repeated": ((0, 0), (0, 0), (1, 0), (1, 0), (0, 1), (0, -1), (0, -1)),
    "reach3": ((0, 0), (3, -3), (-3, 1), (2, 3), (0, -3)),
    "reach3nc": ((3, 0), (-3, 2), (1, -3), (0, 1)),
    "empty": (),
    "mixed": ("mixed", _MIXED_POOL),
    "mixednc": ("mixed", _MIXED_NC_POOL),
}
NS = (2, 3, 4, 5, 6, 7, 8, 9, 11, 16, 25, 27, 30, 101, 255)
CELLS = ("none", "locks", "holes", "both", "wrap", "wrap+locks")
SHAPES = ((1, 1), (1, 6), (7, 1), (3, 3), (4, 4), (5, 6), (6, 5), (7, 7), (2, 9))

#: engines: id -> ("solver", method): the methods and the chase's variants
METHODS: dict[str, tuple[str, object]] = {
    m: ("solver", m)
    for m in (
        "auto",
        *registry.METHOD_FAMILIES,
        "chase-rowsolve",
        "chase-row",
        "chase-light",
        "chase-prefix",
    )
}
#: methods that cover every board: a ValueError from them is a failure
MUST_ANSWER = ("auto", "dense")

#: boards of this many tiles or more: the "auto" method routes them to the structured
#: engines (registry.CROSSOVER_TILES); their oracle is the native dense
#: engine (the reference engine takes seconds there)
LARGE_TILES = 576
#: the shapes of the large cases: an even square, an odd x even board and its transpose
LARGE_SHAPES = ((24, 24), (25, 24), (24, 25))
#: kernels up to this size get solve(minimal=True) compared with the reference's
MINIMAL_MAX = 1024
#: brute force (n^taps vectors) up to this many
BRUTE_MAX = 4096


@dataclass(frozen=True)
class Case:
    family: str
    n: int
    shape: tuple[int, int]
    cells: str

    @property
    def id(self) -> str:
        return f"{self.family}-n{self.n}-{self.shape[0]}x{self.shape[1]}-{self.cells}"

    @property
    def seed(self) -> int:
        return zlib.crc32(self.id.encode())

    @property
    def large(self) -> bool:
        return prod(self.shape) >= LARGE_TILES


def _pattern(family: str, rows: int, cols: int):
    """The ``pattern=`` argument of Board.grid for a family on a rows x cols board."""
    p = FAMILIES[family]
    if isinstance(p, tuple) and p and p[0] == "mixed":
        pool = p[1]

        def entry(r: int, c: int):
            e = pool[(2 * r + c) % len(pool)]
            return e if isinstance(e, str) else list(e)

        return [[entry(r, c) for c in range(cols)] for r in range(rows)]
    return p if isinstance(p, str) else list(p)


def _masks(cells: str, rows: int, cols: int):
    """(locked, holes) boolean masks, fixed by the shape: about one tile in five locked,
    one in six a hole, at least one of each on boards of two tiles or more (a 1 x 1
    board gets its lock but no hole: the board would be empty)."""
    r, c = np.indices((rows, cols))
    hole = (5 * r + 2 * c) % 6 == 4
    lock = ((3 * r + 5 * c) % 7 == 2) & ~hole
    if rows * cols >= 2:
        if not hole.any():
            hole[0, 0] = True
            lock[0, 0] = False
        if not lock.any():
            lock.flat[int(np.flatnonzero(~hole.ravel())[-1])] = True
    else:
        lock[:] = True
        hole[:] = False
    want_lock = cells in ("locks", "both", "wrap+locks")
    want_hole = cells in ("holes", "both")
    return (lock if want_lock else None), (hole if want_hole else None)


def make_board(case: Case) -> ml.Board:
    rows, cols = case.shape
    locked, holes = _masks(case.cells, rows, cols)
    return ml.Board.grid(
        rows,
        cols,
        states=case.n,
        pattern=_pattern(case.family, rows, cols),
        locked=locked,
        holes=holes,
        wrap=case.cells.startswith("wrap"),
    )


# ----------------------------------------------------------------------------- designs
def covering_design(factors: list[tuple]) -> list[tuple]:
    """Rows (one value a factor) in which every pair of values of two factors appears
    at least once: every combination of the two largest factors, the other factors
    chosen greedily (most pairs not yet covered; ties to the value used least, then the
    first), then rows for any pair left. Deterministic: the same rows on every run."""
    k = len(factors)
    order = sorted(range(k), key=lambda i: -len(factors[i]))
    a, b = order[0], order[1]
    rest = order[2:]
    uncovered = {
        (i, x, j, y)
        for i, j in itertools.combinations(range(k), 2)
        for x in range(len(factors[i]))
        for y in range(len(factors[j]))
    }
    used = [[0] * len(f) for f in factors]

    def pairs(row):
        return {(i, row[i], j, row[j]) for i, j in itertools.combinations(range(k), 2)}

    rows = []
    for x, y in itertools.product(range(len(factors[a])), range(len(factors[b]))):
        row = [None] * k
        row[a], row[b] = x, y
        for f in rest:
            best = None
            for v in range(len(factors[f])):
                row[f] = v
                gain = sum(
                    1
                    for i in range(k)
                    if row[i] is not None
                    and i != f
                    and ((min(i, f), row[min(i, f)], max(i, f), row[max(i, f)]) in uncovered)
                )
                key = (-gain, used[f][v], v)
                if best is None or key < best[0]:
                    best = (key, v)
            row[f] = best[1]
        rows.append(tuple(row))
        uncovered -= pairs(row)
        for i in range(k):
            used[i][row[i]] += 1
    while uncovered:  # a pair the greedy rows missed: its own row
        i, x, j, y = min(uncovered)
        row = [0] * k
        row[i], row[j] = x, y
        rows.append(tuple(row))
        uncovered -= pairs(row)
    return [tuple(factors[i][v] for i, v in enumerate(row)) for row in rows]


def _covering_cases() -> list[Case]:
    rows = covering_design([tuple(FAMILIES), NS, SHAPES, CELLS])
    return [Case(f, n, s, c) for f, n, s, c in rows]


COVERING = _covering_cases()
#: the boards of the full product: 2 x 2; 3 x 4 (an odd and an even side, the width a
#: multiple of 2 and 4, as the row-solve chase wants along the rows); 4 x 4 (both sides
#: even: the row-solve chase along the columns too, e.g. the pair (1, -2), (-1, -2))
SMALLEST_SHAPES = ((2, 2), (3, 4), (4, 4))
SMALLEST = [
    Case(f, n, shape, c) for shape in SMALLEST_SHAPES for f in FAMILIES for n in NS for c in CELLS
]
LARGE = [
    Case(f, n, s, c) for f, n, c, s in covering_design([tuple(FAMILIES), NS, CELLS, LARGE_SHAPES])
]


# ----------------------------------------------------------------------------- checks
class Reference:
    """The oracle's answers for one case: the reference engine
    (``Solver(board, backend="reference")``); for boards of LARGE_TILES tiles or more,
    where it takes seconds, the native dense engine (``method="dense"``, checked against
    the reference engine on every smaller case)."""

    def __init__(self, case: Case):
        self.case = case
        self.board = b = make_board(case)
        self.oracle = "dense" if case.large else "reference"
        self.solver = s = (
            ml.Solver(b, method="dense") if case.large else ml.Solver(b, backend="reference")
        )
        n = case.n
        rng = np.random.default_rng(case.seed)
        self.zero = np.zeros(b.shape, dtype=np.uint8)
        self.random_state = rng.integers(0, n, size=b.shape).astype(np.uint8)
        self.random_state[b.holes] = 0
        taps = rng.integers(0, n, size=b.shape).astype(np.uint8)
        taps[~self.tappable()] = 0
        self.solvable_state = b.apply(self.zero, taps)
        self.kernel_size = s.kernel_size
        self.nullity = s.nullity
        self.rank = s.rank
        self.solvable = {t: s.solvable(self.random_state, t) for t in (0, 1)}
        self.square = b.n_cells == b.n_taps
        self.det = s.det() if self.square else None
        self.is_invertible = s.is_invertible
        self.minimal = None
        if self.kernel_size <= MINIMAL_MAX:
            sol = s.solve(self.solvable_state, minimal=True)
            if sol.proven_minimal:
                self.minimal = sol.length

    def tappable(self) -> np.ndarray:
        b = self.board
        return ~b.locked & ~b.holes


def _primes(k: int) -> list[int]:
    """The primes dividing k."""
    out, p = [], 2
    while p * p <= k:
        if k % p == 0:
            out.append(p)
            while k % p == 0:
                k //= p
        p += 1
    return out + ([k] if k > 1 else [])


def _group_size(H: np.ndarray, n: int) -> int:
    """|<rows of H>| mod n, by the reference engine: the image of x -> x H over
    (Z/n)^k has n^k / |ker H^T| elements."""
    k = H.shape[0]
    if k == 0:
        return 1
    return n**k // ReferenceEngine(np.ascontiguousarray(H.T), n).kernel_size


def build(ref: Reference, method: str):
    """The Solver for ``method`` on the case's board, or the ValueError refusing it."""
    _, arg = METHODS[method]
    b = ref.board
    try:
        s = ml.Solver(b, method=arg)
        _ = s.kernel_size  # the factorisation happens here
    except ValueError as e:
        return e
    return s


def check_method(ref: Reference, method: str) -> str:
    """Every comparison of one method with the reference; returns "refused: ..." or
    "answered" (an AssertionError for a wrong answer, anything else propagates)."""
    b, n = ref.board, ref.case.n
    s = build(ref, method)
    if isinstance(s, ValueError):
        assert method not in MUST_ANSWER, f"{method} refused a board it covers: {s}"
        assert str(s), "a refusal must say why"
        return f"refused: {s}"
    assert s.kernel_size == ref.kernel_size, ("kernel_size", s.kernel_size, ref.kernel_size)
    assert s.nullity == ref.nullity, ("nullity", s.nullity, ref.nullity)
    assert s.rank == ref.rank, ("rank", s.rank, ref.rank)
    for t in (0, 1):
        got = s.solvable(ref.random_state, t)
        assert got == ref.solvable[t], (f"solvable(random state, target={t})", got)
        if got:
            sol = s.solve(ref.random_state, t, minimal=False)
            after = b.apply(ref.random_state, sol.taps)
            assert np.all(after[~b.holes] == t % n), (
                "solve(random state) does not reach the target",
                t,
                sol.taps.tolist(),
            )
        else:
            with pytest.raises(ml.Unsolvable):
                s.solve(ref.random_state, t, minimal=False)
    assert s.solvable(ref.solvable_state), "a state made by taps is reported unsolvable"
    sol = s.solve(ref.solvable_state, minimal=False)
    assert not b.apply(ref.solvable_state, sol.taps).any(), ("solve() is wrong", sol.taps.tolist())
    both = np.stack([ref.random_state, ref.solvable_state])
    got = s.solvable_many(both).tolist()
    assert got == [ref.solvable[0], True], ("solvable_many", got)
    if n == 2:  # the bit-packed path (solve_packed)
        packed = s.solve_packed(np.packbits(ref.solvable_state, axis=1))
        taps = np.unpackbits(packed, axis=1, count=b.shape[1])
        assert not b.apply(ref.solvable_state, taps).any(), ("solve_packed is wrong", taps.tolist())
    # kernel generators
    if ref.kernel_size <= 1 << 16:
        H = s.kernel()
        orders = s.kernel_orders
        assert H.shape == (len(orders), b.n_taps), ("kernel shape", H.shape, len(orders))
        assert len(orders) == ref.nullity, ("generators", len(orders), ref.nullity)
        assert prod(orders) == ref.kernel_size, ("orders", orders, ref.kernel_size)
        for g, o in zip(H, orders):
            taps = b.from_tap_vector(g)
            assert not b.apply(ref.zero, taps).any(), ("kernel() row not in ker A", g.tolist())
            gi = g.astype(np.int64)
            assert not ((gi * o) % n).any(), ("order", o, g.tolist())
            for q in _primes(o):  # o is the exact order, not a multiple
                assert ((gi * (o // q)) % n).any(), ("order not exact", o, g.tolist())
        size = _group_size(H, n)
        assert size == ref.kernel_size, ("kernel() generates", size, ref.kernel_size)
    # det / is_invertible
    if ref.square:
        assert s.det() == ref.det, ("det", s.det(), ref.det)
        assert s.is_invertible == ref.is_invertible, ("is_invertible", s.is_invertible)
    else:
        assert not s.is_invertible
        with pytest.raises(ValueError):
            s.det()
    # minimal
    if ref.minimal is not None:
        sol = s.solve(ref.solvable_state, minimal=True)
        assert not b.apply(ref.solvable_state, sol.taps).any(), (
            "minimal solve is wrong",
            sol.taps.tolist(),
        )
        assert sol.proven_minimal, "minimal=True not proven on a small kernel"
        assert sol.length == ref.minimal, ("minimal length", sol.length, ref.minimal)
    return "answered"


def _isolated(fn, *args) -> str:
    """fn(*args) in a forked child: its result, or an AssertionError carrying the
    child's traceback or the signal that killed it."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(rd)
        try:
            msg = "OK" + fn(*args)
        except BaseException:  # noqa: BLE001 - reported to the parent
            msg = "EX" + traceback.format_exc()
        with os.fdopen(wr, "w") as f:
            f.write(msg)
        os._exit(0)
    os.close(wr)
    with os.fdopen(rd) as f:
        msg = f.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = signal.Signals(os.WTERMSIG(status)).name
        raise AssertionError(f"the engine crashed: {sig}")
    if msg.startswith("OK"):
        return msg[2:]
    raise AssertionError(msg[2:])


ISOLATE = os.environ.get("MODLIGHTS_MATRIX_ISOLATE", "") not in ("", "0")

_REF: dict[str, Reference] = {}


def reference(case: Case) -> Reference:
    """The reference answers of ``case`` (the last case's kept: tests of one case run
    one after another)."""
    ref = _REF.get(case.id)
    if ref is None:
        _REF.clear()
        ref = _REF[case.id] = Reference(case)
    return ref


def run_case(case: Case, method: str) -> str:
    ref = reference(case)
    try:
        return _isolated(check_method, ref, method) if ISOLATE else check_method(ref, method)
    except AssertionError as e:
        raise AssertionError(f"{case.id}-{method}: {e}") from None


def run_methods(case: Case) -> None:
    """Every method on ``case``; one AssertionError listing every method that failed."""
    failures = []
    for method in METHODS:
        try:
            run_case(case, method)
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n".join(failures)


# ----------------------------------------------------------------------------- tests
def test_covering_design_covers_every_pair():
    factors = [tuple(FAMILIES), NS, SHAPES, CELLS]
    rows = [(c.family, c.n, c.shape, c.cells) for c in COVERING]
    for i, j in itertools.combinations(range(len(factors)), 2):
        have = {(r[i], r[j]) for r in rows}
        want = set(itertools.product(factors[i], factors[j]))
        assert want <= have, (i, j, sorted(want - have, key=str)[:5])
    assert len(set(rows)) == len(rows)
    assert COVERING == _covering_cases()  # the same cases every time


#: a board each method covers: the matrix is not vacuous (a method that came to refuse
#: every board would pass every case)
COVERED = {
    "auto": Case("knight", 6, (24, 24), "none"),
    "dense": Case("cross", 2, (3, 4), "both"),
    "chase": Case("reach3nc", 30, (5, 6), "wrap+locks"),
    "algebraic": Case("cross", 5, (4, 4), "none"),
    "lifted": Case("cross", 9, (5, 6), "none"),
    "tensor": Case("square", 6, (4, 4), "wrap"),
    "chase-rowsolve": Case("knight", 5, (4, 4), "none"),
    "chase-row": Case("cross", 4, (5, 6), "holes"),
    "chase-light": Case("asym2", 27, (6, 5), "locks"),
    "chase-prefix": Case("cross", 3, (7, 7), "locks"),
}


def test_every_method_answers_a_board_it_covers():
    assert set(COVERED) == set(METHODS)
    for method, case in COVERED.items():
        assert run_case(case, method) == "answered", (method, case.id)


def test_auto_takes_the_structured_engines_on_large_boards():
    """The large cases reach what "auto" picks past the chase's and the algebraic engine's
    crossovers."""
    picked = {ml.Solver(make_board(c)).method for c in LARGE}
    assert {"algebraic", "chase"} <= picked, picked


#: the covering cases the default run keeps (every method on each); the others: -m matrix
COVERING_KEPT = {COVERING[i] for i in spread(len(COVERING), 6)}


@pytest.mark.parametrize(
    "case,method",
    [
        pytest.param(c, m, marks=() if c in COVERING_KEPT else pytest.mark.matrix)
        for c in COVERING
        for m in METHODS
    ],
    ids=[f"{c.id}-{m}" for c in COVERING for m in METHODS],
)
def test_matrix(case, method):
    run_case(case, method)


@pytest.mark.parametrize("case", sample(SMALLEST, 12, ids=[c.id for c in SMALLEST]))
def test_matrix_smallest(case):
    run_methods(case)


@pytest.mark.parametrize("case", sample(LARGE, 3, ids=[c.id for c in LARGE]))
def test_matrix_large(case):
    """Boards of LARGE_TILES tiles and more ("auto" takes the chase or the algebraic
    engine there), every method against the native dense engine."""
    run_methods(case)


LARGE_SAMPLE = LARGE[::16]


@pytest.mark.slow
@pytest.mark.parametrize("case", LARGE_SAMPLE, ids=[c.id for c in LARGE_SAMPLE])
def test_large_oracle_is_reference(case, monkeypatch):
    """The large cases' oracle (native dense) against the reference engine (seconds a
    board: past the backend's REFERENCE_MAX_WORK, which this slow run lifts)."""
    import modlights.engines.reference as reference_engine

    monkeypatch.setattr(reference_engine, "REFERENCE_MAX_WORK", 1 << 40)
    ref = reference(case)
    s = ml.Solver(ref.board, backend="reference")
    assert s.kernel_size == ref.kernel_size and s.nullity == ref.nullity
    assert {t: s.solvable(ref.random_state, t) for t in (0, 1)} == ref.solvable
    if ref.square:
        assert s.det() == ref.det


def _brute_cases():
    return [
        c for c in COVERING + SMALLEST if c.n ** prod(c.shape) <= BRUTE_MAX and c.family != "empty"
    ]


@pytest.mark.parametrize("case", sample(_brute_cases(), 12, ids=[c.id for c in _brute_cases()]))
def test_reference_is_brute_force(case):
    """The oracle checked: kernel_size, solvability and minimal length by enumerating
    every tap vector."""
    ref = reference(case)
    b = ref.board
    bf = BruteForce(b.matrix(), case.n)
    assert ref.kernel_size == bf.kernel_size()
    cells = ref.board._cell_mask()
    for t in (0, 1):
        rhs = (t - ref.random_state.astype(np.int64)).reshape(-1)
        if cells is not None:
            rhs = rhs[cells]
        assert ref.solvable[t] == bf.solvable(rhs % case.n)
    if ref.minimal is not None:
        rhs = (-ref.solvable_state.astype(np.int64)).reshape(-1)
        if cells is not None:
            rhs = rhs[cells]
        assert ref.minimal == bf.min_length(rhs % case.n)


@pytest.mark.explore
def test_matrix_explore():
    """Random cases of the full product (fresh seed each run, printed; replay with
    MODLIGHTS_MATRIX_SEED=<seed>), every method."""
    seed = int(
        os.environ.get("MODLIGHTS_MATRIX_SEED") or np.random.SeedSequence().entropy % (1 << 63)
    )
    count = int(os.environ.get("MODLIGHTS_MATRIX_EXPLORE", "200"))
    print(f"\nengine matrix explore: MODLIGHTS_MATRIX_SEED={seed}")
    rng = np.random.default_rng(seed)
    shapes = SHAPES + tuple((int(r), int(c)) for r, c in rng.integers(1, 11, size=(20, 2)))
    failures = []
    for _ in range(count):
        case = Case(
            list(FAMILIES)[rng.integers(len(FAMILIES))],
            int(rng.choice(NS)),
            shapes[rng.integers(len(shapes))],
            CELLS[rng.integers(len(CELLS))],
        )
        for method in METHODS:
            try:
                run_case(case, method)
            except AssertionError as e:
                failures.append(str(e).splitlines()[0])
    assert not failures, f"seed {seed}:\n" + "\n".join(failures)
