"""The engine seam (modlights.engines.registry): choose() is pure and explains itself,
every registered engine agrees with the reference engine on the boards it claims,
method= takes every registered name, a new engine is one registration, and "auto"
chooses what the size thresholds chose before the seam."""

from __future__ import annotations

import itertools
from math import prod

import numpy as np
import pytest

import modlights as ml
from modlights.engines import registry
from modlights.engines.base import (
    CORE,
    FALLBACK,
    DenseEngine,
    Engine,
    dense_fallback,
    missing_questions,
)
from modlights.native import _core
from suite_groups import sample


# ----------------------------------------------------------------- board families
def _masks(rows, cols, seed, locks, holes):
    rng = np.random.default_rng(seed)
    u = rng.random((rows, cols))
    lk = (u < locks) if locks else None
    hl = ((u >= locks) & (u < locks + holes)) if holes else None
    return lk, hl


def _families():
    """(id, board) for every family an engine may claim: n in 2..9 and a large n,
    locks, holes, wrap, odd and even sides, small boards, product, symmetric and
    asymmetric patterns, a graph board."""
    out = []
    shapes = ((1, 1), (2, 3), (4, 4), (5, 6), (7, 5), (6, 8))
    for n, pattern, shape, cells in itertools.product(
        (2, 3, 4, 5, 6, 7, 8, 9, 251),
        ("cross", "square", "diagonal", "knight", "vertical"),
        shapes,
        ("none", "locks", "holes", "wrap"),
    ):
        # a sample of the product: every n with every pattern and every cells kind,
        # the shapes cycled so each (n, shape) pair appears
        k = (n * 7 + len(pattern) * 3 + len(cells)) % len(shapes)
        if shape != shapes[k]:
            continue
        rows, cols = shape
        lk, hl = _masks(
            rows, cols, n + rows, 0.2 if cells == "locks" else 0, 0.2 if cells == "holes" else 0
        )
        b = ml.Board.grid(
            rows, cols, states=n, pattern=pattern, locked=lk, holes=hl, wrap=cells == "wrap"
        )
        out.append((f"{pattern}-n{n}-{rows}x{cols}-{cells}", b))
    out.append(("knight-n5-4x4", ml.Board.grid(4, 4, states=5, pattern="knight")))
    out.append(("diagonal-n3-6x6", ml.Board.grid(6, 6, states=3, pattern="diagonal")))
    out.append(("cross-n4-5x6", ml.Board.grid(5, 6, states=4)))
    out.append(("cross-n6-4x5", ml.Board.grid(4, 5, states=6)))
    out.append(("cross-n3-6x6-wrap", ml.Board.grid(6, 6, states=3, wrap=True)))
    out.append(("graph-n3", ml.Board.from_effects([[0, 1], [1, 2], [2, 0], [0]], 3)))
    lk, hl = _masks(8, 8, 1, 0.3, 0.0)
    out.append(("cross-n2-8x8-many-locks", ml.Board.grid(8, 8, locked=lk)))
    return out


FAMILIES = _families()


def _check_against_reference(board: ml.Board, method: str, seed: int) -> str:
    """Solver(method=) against Solver(backend="reference"): kernel size, nullity,
    rank, solvability and a solution (Board.apply), det for square A. Returns the
    registered name of the engine that answered."""
    s = ml.Solver(board, method=method)
    ref = ml.Solver(board, backend="reference")
    assert s.kernel_size == ref.kernel_size, (method, "kernel_size")
    assert s.nullity == ref.nullity, (method, "nullity")
    assert s.rank == ref.rank
    rng = np.random.default_rng(seed)
    for solvable in (True, False):
        state = board.random_state(rng=rng, solvable=solvable)
        assert s.solvable(state) == ref.solvable(state)
        if ref.solvable(state):
            sol = s.solve(state, minimal=False)
            assert not board.apply(state, sol.taps).any(), (method, "solve")
    H = s.kernel()
    assert H.shape[0] == s.nullity
    for h in H:
        assert not board.apply(np.zeros(board.shape, np.uint8), board.from_tap_vector(h)).any()
    if board.n_cells == board.n_taps and board.n_taps:
        assert s.det() == ref.det(), (method, "det")
    return s.engine


# ----------------------------------------------------------------- choose()
def test_choose_is_pure_and_explains_every_rejection():
    for _, board in FAMILIES[::7]:
        before = dict(board.__dict__)
        p1 = registry.choose(board)
        p2 = registry.choose(board)
        assert p1 == p2
        assert set(board.__dict__) == set(before)  # nothing built, nothing kept
        names = set(registry.entries())
        assert set(p1.rejected) | {p1.engine} == names
        assert p1.engine not in p1.rejected
        assert all(isinstance(why, str) and why for why in p1.rejected.values())
        assert registry.entries()[p1.engine].covers(board) is None
        assert p1.reason and p1.engine in p1.explain()
        for name in p1.rejected:  # each rejection names its engine
            assert f"not {name}:" in p1.explain()


def test_choose_takes_the_cheapest_covering_engine():
    for _, board in FAMILIES[::5]:
        plan = registry.choose(board)
        covering = {
            name: e.cost(board)
            for name, e in registry.entries().items()
            if e.auto and "native" in e.backends and e.covers(board) is None
        }
        assert plan.engine in covering
        assert plan.cost == min(covering.values())


def test_choose_refuses_with_the_reasons_and_the_names():
    b = ml.Board.grid(4, 4, states=4, pattern="knight")
    with pytest.raises(ValueError, match="method='algebraic-cross' does not cover") as e:
        registry.choose(b, "algebraic-cross")
    assert "prime" in str(e.value) and "dense-zn" in str(e.value)
    with pytest.raises(ValueError, match="unknown method 'fast'") as e:
        registry.choose(b, "fast")
    assert all(name in str(e.value) for name in registry.entries())
    with pytest.raises(ValueError, match="unknown backend"):
        registry.choose(b, "auto", "gpu")
    with pytest.raises(ValueError, match="does not cover"):
        ml.Solver(ml.Board.from_effects([[0]], 2), method="tensor")


def test_engines_lists_every_registered_name_with_a_line():
    listed = ml.engines()
    assert list(listed) == list(registry.entries())
    for name in (
        "dense-gf2",
        "dense-zn",
        "reference",
        "chase",
        "chase-light",
        "chase-prefix",
        "chase-row",
        "chase-rowsolve",
        "algebraic-cross",
        "algebraic-torus",
        "algebraic-torus2",
        "algebraic-sym",
        "algebraic-sym-odd",
        "lifted",
        "tensor",
    ):
        assert name in listed
        assert listed[name] and "\n" not in listed[name]


# ----------------------------------------------------------------- every engine
#: Most family boards an engine is checked on here (spread evenly over those it
#: covers; tests/engines/test_engine_matrix.py runs the general engines far wider).
MAX_CLAIMS = 24


def _claims():
    """(name, family id, board) for every registered engine and the family boards it
    covers (generated from the registry: an engine registered later is in here), at
    most MAX_CLAIMS an engine, spread evenly over its families."""
    out = []
    for name, e in registry.entries().items():
        if "native" not in e.backends:
            continue
        mine = [(fid, board) for fid, board in FAMILIES if e.covers(board) is None]
        step = max(1, -(-len(mine) // MAX_CLAIMS))
        out += [(name, fid, board) for fid, board in mine[::step]]
    return out


CLAIMS = _claims()


def test_every_engine_claims_some_family():
    claimed = {name for name, _, _ in CLAIMS}
    assert claimed == {n for n, e in registry.entries().items() if "native" in e.backends}


@pytest.mark.parametrize(
    "name,fid,board",
    sample(CLAIMS, 40, ids=[f"{n}-{f}" for n, f, _ in CLAIMS], unpack=True),
)
def test_engine_against_reference(name, fid, board):
    got = _check_against_reference(board, name, seed=len(fid))
    assert got == name or got.startswith(name + "-"), (name, got)


def test_large_boards_against_the_native_dense_engine():
    """A large n and boards past the crossovers: every engine that covers them against
    the native dense engine (the reference takes seconds there)."""
    boards = [
        ml.Board.grid(26, 24, states=251),
        ml.Board.grid(49, 49, states=3, pattern="square"),
        ml.Board.grid(40, 41, states=2, pattern="diagonal"),
        ml.Board.grid(30, 30, states=6),
        ml.Board.grid(40, 40, states=5, wrap=True),
    ]
    for board in boards:
        dense = ml.Solver(board, method="dense")
        state = board.random_state(rng=3)
        for name, e in registry.entries().items():
            if "native" not in e.backends or e.covers(board) is not None or name == "reference":
                continue
            s = ml.Solver(board, method=name)
            assert s.kernel_size == dense.kernel_size, name
            assert not board.apply(state, s.solve(state, minimal=False).taps).any(), name


def test_method_takes_every_registered_name():
    for name, e in registry.entries().items():
        board = next(b for n, _, b in CLAIMS if n == name)
        s = ml.Solver(board, method=name)
        assert s.engine == name or s.engine.startswith(name + "-")
        assert s.method == e.family
        assert s.plan.engine == s.engine
        other = next((b for _, b in FAMILIES if e.covers(b) is not None), None)
        if other is not None:
            with pytest.raises(ValueError, match=f"method='{name}' (does not cover|needs)"):
                ml.Solver(other, method=name)


def test_old_method_names_keep_working():
    b = ml.Board.grid(30, 30, states=3)
    assert ml.Solver(b, method="algebraic").engine == "algebraic-cross"
    assert ml.Solver(b, method="dense").engine == "dense-zn"
    assert ml.Solver(b, method="chase").engine.startswith("chase-")
    small = ml.Board.grid(6, 6, states=3)
    assert ml.Solver(small, method="reference").engine == "reference"
    assert ml.Solver(small, backend="reference").engine == "reference"
    assert ml.Solver(ml.Board.grid(30, 30, states=4), method="lifted").engine == "lifted"
    assert ml.Solver(ml.Board.grid(9, 9, 2, "square"), method="tensor").engine == "tensor"
    assert (
        ml.Solver(ml.Board.grid(8, 8, 3, "diagonal"), method="algebraic").engine == "algebraic-sym"
    )
    assert (
        ml.Solver(ml.Board.grid(9, 9, 3, wrap=True), method="algebraic").engine == "algebraic-torus"
    )


def test_plan_explains_the_solver():
    s = ml.Solver(ml.Board.grid(30, 30, pattern="knight"))
    assert s.plan.engine == s.engine == "chase-rowsolve"
    assert "row-solve" in s.plan.reason
    assert "algebraic-cross" in s.plan.rejected and "dense-gf2" in s.plan.rejected
    d = s.plan.to_dict()
    assert d["engine"] == "chase-rowsolve" and d["rejected"] == dict(s.plan.rejected)


# ----------------------------------------------------------------- a thirteenth engine
class BruteForceEngine:
    """A toy engine: every tap vector tried (n^taps <= 4096, prime n). It answers
    solve and kernel_size itself and the other questions through the dense
    fallback the registry hands it."""

    def __init__(self, board, dense=None):
        self.board, self.n = board, board.states
        self._dense_factory, self._dense = dense, None
        A = board.matrix().astype(np.int64)
        X = np.array(
            list(itertools.product(range(self.n), repeat=board.n_taps)), dtype=np.int64
        ).reshape(-1, board.n_taps)
        images = (X @ A.T) % self.n
        self._by_image = {}
        for x, y in zip(X, images):
            self._by_image.setdefault(y.tobytes(), x.astype(np.uint8))
        self._kernel = int(np.count_nonzero(~images.any(axis=1)))

    @property
    def kernel_size(self):
        return self._kernel

    @property
    def nullity(self):
        return dense_fallback(self, "toy").nullity

    def solve(self, R):
        R = np.asarray(R, dtype=np.int64)
        X = np.zeros((len(R), self.board.n_taps), np.uint8)
        ok = np.zeros(len(R), bool)
        for i, r in enumerate(R):
            x = self._by_image.get(r.tobytes())
            if x is not None:
                X[i], ok[i] = x, True
        return X, ok

    def generators(self, limit=None):
        return dense_fallback(self, "toy").generators(limit)

    def det(self):
        return dense_fallback(self, "toy").det()

    def inverse(self):
        return dense_fallback(self, "toy").inverse()

    def pseudo_inverse(self):
        return dense_fallback(self, "toy").pseudo_inverse()


def _toy_covers(board):
    from modlights.model.ring import is_prime

    if not is_prime(board.states):
        return "prime n only"
    if board.states**board.n_taps > 4096:
        return f"n^taps = {board.states}^{board.n_taps} > 4096 tap vectors to try"
    return None


@pytest.fixture
def toy():
    entry = registry.register(
        "toy-brute",
        description="every tap vector tried (n^taps <= 4096, prime n)",
        covers=_toy_covers,
        cost=lambda b: 1.0,
        build=lambda board, backend, dense: BruteForceEngine(board, dense),
    )
    try:
        yield entry
    finally:
        registry.unregister("toy-brute")


def test_a_toy_engine_registers_answers_and_goes(toy):
    assert missing_questions(BruteForceEngine(ml.Board.grid(2, 2))) == []
    assert "toy-brute" in ml.engines()
    for board in (
        ml.Board.grid(3, 3),
        ml.Board.grid(2, 3, states=3),
        ml.Board.grid(3, 4, pattern="knight"),
    ):
        assert registry.choose(board).engine != "toy-brute"  # costs more
        got = _check_against_reference(board, "toy-brute", seed=1)
        assert got == "toy-brute"
        s = ml.Solver(board, method="toy-brute")
        assert s.plan.engine == "toy-brute" and s.method == "toy-brute"
        assert "asked for by name" in s.plan.reason
        assert "dense-gf2" in s.plan.rejected or "dense-zn" in s.plan.rejected
    big = ml.Board.grid(5, 5)
    assert "toy-brute" in registry.choose(big).rejected
    with pytest.raises(ValueError, match="4096"):
        ml.Solver(big, method="toy-brute")
    with pytest.raises(ValueError, match="registered already"):
        registry.register(
            "toy-brute", description="", covers=_toy_covers, cost=lambda b: 0, build=lambda *a: None
        )


def test_auto_takes_a_cheaper_new_engine():
    registry.register(
        "toy-free",
        description="free",
        covers=_toy_covers,
        cost=lambda b: 0.0,
        build=lambda board, backend, dense: BruteForceEngine(board, dense),
    )
    try:
        s = ml.Solver(ml.Board.grid(3, 3))
        assert s.engine == "toy-free"
        assert s.solvable(np.ones((3, 3), np.uint8))
    finally:
        registry.unregister("toy-free")
    assert "toy-free" not in ml.engines()
    assert ml.Solver(ml.Board.grid(3, 3)).engine == "dense-gf2"


def test_register_refuses_bad_entries():
    kw = dict(description="x", covers=lambda b: None, cost=lambda b: 0.0, build=lambda *a: None)
    for name in ("auto", "dense", "algebraic", "", "chase"):
        with pytest.raises(ValueError):
            registry.register(name, **kw)
    with pytest.raises(ValueError, match="unknown questions"):
        registry.register("x-1", answers=("telepathy",), **kw)
    with pytest.raises(ValueError, match="backends"):
        registry.register("x-2", backends=("gpu",), **kw)
    with pytest.raises(ValueError, match="no engine 'x-3'"):
        registry.unregister("x-3")
    assert "x-1" not in registry.entries() and "x-2" not in registry.entries()


@pytest.mark.parametrize(
    "cost, shown",
    [(float("nan"), "nan"), (float("inf"), "inf"), (float("-inf"), "-inf"), (-1, "-1.0")],
)
def test_a_cost_that_is_not_a_finite_number_of_seconds_is_refused(cost, shown):
    """A NaN would make the order of costs (and the choice) arbitrary: choose, the
    fallback's answerer and the packed answerer refuse it (the C registry's
    ML_M_ENGINE_COST message); 0 is a cost."""
    registry.register(
        "toy-odd",
        description="an odd cost",
        covers=lambda b: None,
        cost=lambda b: cost,
        build=lambda board, backend, dense: BruteForceEngine(board, dense),
    )
    want = (
        f"the engine toy-odd estimated a cost of {shown} s for this board; "
        "a cost must be a finite number of seconds >= 0"
    )
    board = ml.Board.grid(3, 3)
    try:
        with pytest.raises(ValueError) as got:
            registry.choose(board)
        assert str(got.value) == want
        with pytest.raises(ValueError, match="a cost must be a finite number"):
            registry.choose(board, "toy-odd")
        with pytest.raises(ValueError, match="a cost must be a finite number"):
            registry.answerer(board, questions=registry.CORE)
        assert registry.choose(board, "dense-gf2").engine == "dense-gf2"  # not asked
    finally:
        registry.unregister("toy-odd")


def test_core_questions_are_the_protocol():
    assert set(CORE) <= set(dir(Engine))
    assert set(CORE + FALLBACK) <= set(dir(DenseEngine))
    for _, board in FAMILIES[:20]:
        s = ml.Solver(board)
        eng = s._engine
        assert isinstance(eng, Engine), type(eng).__name__
        declared = registry.answers(s.plan.engine)
        assert missing_questions(eng, declared) == [], type(eng).__name__
    # the dense questions each engine answers itself; the registry's fallback the others
    entries = registry.entries().items()
    own = {(name, q) for name, e in entries for q in FALLBACK if q in e.answers}
    dense = {(name, q) for name, e in entries if e.family == "dense" for q in FALLBACK}
    assert own == dense | {("algebraic-cross", "det"), ("tensor", "det")}


def test_the_registry_routes_the_dense_questions():
    """det / inverse / pseudo_inverse of an engine that does not declare them come from
    the registry's fallback (the dense engine), det from the kernel where it decides."""
    b = ml.Board.grid(3, 3, states=3)  # chase: no dense questions of its own
    s = ml.Solver(b, method="chase")
    built = []

    def dense():
        built.append(registry.fallback(b, s.plan))
        return built[-1]

    ref = ml.Solver(b, backend="reference")
    assert registry.ask(b, s.plan, s._engine, "det", dense) == ref.det()
    assert np.array_equal(registry.ask(b, s.plan, s._engine, "inverse", dense), ref.inverse())
    assert len(built) == 2 and all(getattr(e, "name", None) == "dense-zn" for e in built)
    singular = ml.Board.grid(4, 4, states=5)
    s = ml.Solver(singular, method="chase")
    assert s.kernel_size > 1
    assert registry.ask(singular, s.plan, s._engine, "det", lambda: 1 / 0) == 0
    with pytest.raises(ValueError, match="unknown question 'solve'"):
        registry.ask(b, s.plan, s._engine, "solve", dense)
    with pytest.raises(ValueError, match="square tap matrix, this one is 16x15"):
        ml.Solver(ml.Board.grid(4, 4, 3, locked=[(0, 0)]), method="chase").det()


# ----------------------------------------------------------------- the cost table
def _table_cost(name, board):
    """The cost line of an engine of the C library from the table (registry.PER_TILE,
    CROSSOVER_TILES, DENSE_PER_ENTRY: csrc/api/registry_costs.h), computed here: dense
    DENSE_PER_ENTRY x tiles^2 (grids), the chase and the structured engines meeting the
    chase's line at their crossover less 1e-12 s; algebraic-torus2 just above
    algebraic-torus on the boards that engine covers; lifted by its row "lifted-zq"
    when n has a factor p^k, k > 1."""
    from modlights.engines.native import covers

    tiles = prod(board.shape)
    per, cross, dense = registry.PER_TILE, registry.CROSSOVER_TILES, registry.DENSE_PER_ENTRY
    t = cross["chase"]
    chase_setup = dense * t * t - per["chase"] * t - 1e-12
    if name in ("dense-gf2", "dense-zn"):
        return dense * tiles**2
    if name == "chase":
        return chase_setup + per["chase"] * tiles
    if name == "algebraic-torus2" and board.wrap and covers("algebraic-torus", board) is None:
        return _table_cost("algebraic-torus", board) + 1e-9
    if name == "lifted" and any(board.states % (p * p) == 0 for p in range(2, 16)):
        name = "lifted-zq"  # a factor p^k, k > 1, of n: its own line
    t = cross[name]
    return chase_setup + (per["chase"] - per[name]) * t - 1e-12 + per[name] * tiles


def test_auto_takes_the_cheapest_engine_by_the_table():
    """Around every crossover of the table, every named pattern, n and boundary: "auto"
    takes the cheapest engine that covers the board by the table's lines (ties to the
    earlier in the registry's order), the reference engine never on the native
    backend."""
    from modlights.engines.native import covers

    names = [e["name"] for e in _core.capi_engines() if e["auto"] and e["name"] != "reference"]
    sides = sorted(
        {
            k
            for t in registry.CROSSOVER_TILES.values()
            for k in (int(t**0.5) - 1, int(t**0.5), int(t**0.5) + 1)
            if k > 0
        }
        | {5, 64, 129}
    )
    checked = 0
    for k, pattern, n, wrap in itertools.product(
        sides,
        ("cross", "square", "diagonal", "knight", "vertical", "horizontal"),
        (2, 3, 4, 5, 6, 9),
        (False, True),
    ):
        for rows, cols in ((k, k), (k, k + 1)):
            board = ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap)
            ok = [m for m in names if covers(m, board) is None]
            want = min(ok, key=lambda m: (_table_cost(m, board), names.index(m)))
            got = registry.choose(board).engine
            assert got == want or _table_cost(got, board) == _table_cost(want, board), (
                rows,
                cols,
                pattern,
                n,
                wrap,
                got,
                want,
            )
            checked += 1
    for locks, holes in ((0.02, 0), (0, 0.02), (0.01, 0.01)):
        for k in (11, 12, 13, 48, 129):
            lk, hl = _masks(k, k, k, locks, holes)
            for n in (2, 3, 4):
                board = ml.Board.grid(k, k, states=n, locked=lk, holes=hl)
                ok = [m for m in names if covers(m, board) is None]
                assert registry.choose(board).engine == min(
                    ok, key=lambda m: (_table_cost(m, board), names.index(m))
                )
                checked += 1
    b = ml.Board.grid(20, 20)  # the reference engine takes boards up to REFERENCE_MAX_WORK
    assert registry.choose(b, backend="reference").engine == "reference"
    with pytest.raises(ValueError, match="backend='native'"):  # 30 x 30 is past it
        registry.choose(ml.Board.grid(30, 30), backend="reference")
    assert checked > 1000
