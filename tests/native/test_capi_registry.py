"""The one registry: the C table of engines (csrc/api/registry.c, registry_plan.c,
bound as modlights.native._core.capi_*) is what modlights.engines.registry shows and
chooses from. Checked against rules written here: the table's engines in their order
(Python's reference engine through the seam after the dense engines) with their
families, answers, backends and auto flags; each engine's cost, the same double as the
cost lines computed here from the registry's constants; and on random boards (every
named pattern, random offsets, mixed maps, locks, holes, wrap, odd and even sides, n
2..9 and 16, 101, 255, graph boards, giant boards past 2^27 tiles) the plan of every
method (auto, each family, each name) and both backends, from registry.choose and from
ml_plan_choose of a C board made independently, equal to a choice evaluated here from
the engines' covers and those costs: engine, family, reason, cost, the rejected engines
in order with their whys, explain() and to_dict() as JSON, or the same ValueError.
Then the seam itself (engines of Python code registered in C). Deterministic (seeded
NumPy generators)."""

from __future__ import annotations

import contextlib
import json

import numpy as np
import pytest

import modlights as ml
from modlights.engines import native, registry
from modlights.engines.base import QUESTIONS
from modlights.model.patterns import PATTERNS
from modlights.native import _core

CBoard = _core.CBoard
NAMES = list(PATTERNS)
FAMILIES = ["dense", "chase", "algebraic", "lifted", "tensor"]


def _random_pattern(rng):
    if rng.random() < 0.5:
        return NAMES[rng.integers(len(NAMES))]
    k = int(rng.integers(0, 10))
    return [(int(rng.integers(-3, 4)), int(rng.integers(-3, 4))) for _ in range(k)]


def _random_grid(rng, rows=None, cols=None, n=None, plain=False):
    """(Python board, C board) of one random grid description."""
    rows = rows or int(rng.integers(2, 10))
    cols = cols or int(rng.integers(2, 10))
    n = n or int(rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 101, 255]))
    wrap = bool(rng.random() < 0.3)
    pk = {"states": n, "wrap": wrap}
    ck = {"states": n, "wrap": wrap}
    if not plain and rng.random() < 0.2:
        pal = [_random_pattern(rng) for _ in range(int(rng.integers(1, 4)))]
        index = rng.integers(0, len(pal), size=(rows, cols))
        pk["pattern"] = [[pal[i] for i in row] for row in index.tolist()]
        ck["palette"], ck["index"] = pal, index
    else:
        p = _random_pattern(rng)
        pk["pattern"] = ck["pattern"] = p
    if not plain and rng.random() < 0.25:
        kind = rng.integers(0, 8, size=(rows, cols))
        locked = [(int(r), int(c)) for r, c in zip(*np.nonzero(kind == 0))]
        holes = [(int(r), int(c)) for r, c in zip(*np.nonzero(kind == 1))]
        pk["locked"] = ck["locked"] = locked
        pk["holes"] = ck["holes"] = holes
    return ml.Board.grid(rows, cols, **pk), CBoard.grid(rows, cols, **ck)


def _graph(rng):
    n = int(rng.choice([2, 3, 5, 6]))
    taps = int(rng.integers(1, 8))
    effects = [
        [int(c) for c in rng.integers(0, 6, size=int(rng.integers(0, 4)))] for _ in range(taps)
    ]
    cells = max([c for e in effects for c in e] + [0]) + 1
    return (
        ml.Board.from_effects(effects, states=n, n_cells=cells),
        CBoard.from_effects(effects, n, cells),
    )


def _boards(seed, count):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        if i % 10 == 9:
            out.append(_graph(rng))
        elif i % 5 == 4:
            out.append(_random_grid(rng, plain=True))
        else:
            out.append(_random_grid(rng))
    return out


def _special_boards():
    """Named patterns on every n of interest, large and giant boards."""
    out = []
    for name in NAMES:
        for n in (2, 3, 4, 5, 6, 7, 8, 9, 16, 101, 255):
            for rows, cols, wrap in ((5, 5, False), (4, 6, True), (6, 7, False), (2, 9, False)):
                out.append(
                    (
                        ml.Board.grid(rows, cols, states=n, pattern=name, wrap=wrap),
                        CBoard.grid(rows, cols, states=n, pattern=name, wrap=wrap),
                    )
                )
    for rows, cols, name, n, wrap in (
        (200, 200, "cross", 2, False),
        (96, 96, "cross", 3, True),
        (300, 301, "diagonal", 2, False),
        (64, 128, "knight", 2, False),
        (100, 100, "knight", 3, False),
        (160, 160, "diagonal", 5, False),
        (128, 128, "cross", 4, False),
        (500, 500, "square", 6, True),
        (256, 256, "square", 10, False),
        (20000, 10000, "cross", 2, False),
        (16384, 16385, "square", 2, True),
        (12000, 12000, "diagonal", 3, False),
        (1 << 20, 256, "horizontal", 6, False),
        (20000, 10000, "knight", 2, False),
    ):
        out.append(
            (
                ml.Board.grid(rows, cols, states=n, pattern=name, wrap=wrap),
                CBoard.grid(rows, cols, states=n, pattern=name, wrap=wrap),
            )
        )
    return out


#: the C table's engines, in its order (the reference engine is Python's, through the seam)
TABLE = [
    # name, family, answers, backends, auto
    ("dense-gf2", "dense", "det inverse pseudo_inverse", "native", True),
    ("dense-zn", "dense", "det inverse pseudo_inverse", "native", True),
    ("reference", "dense", "det inverse pseudo_inverse", "native reference", True),
    ("chase", "chase", "", "native", True),
    ("chase-light", "chase", "", "native", False),
    ("chase-prefix", "chase", "", "native", False),
    ("chase-row", "chase", "", "native", False),
    ("chase-rowsolve", "chase", "", "native", False),
    ("algebraic-cross", "algebraic", "det kernel_fits solve_packed", "native reference", True),
    ("algebraic-torus", "algebraic", "kernel_fits solve_packed", "native reference", True),
    ("algebraic-torus2", "algebraic", "kernel_fits", "native", True),
    ("algebraic-sym", "algebraic", "kernel_fits solve_packed", "native reference", True),
    ("algebraic-sym-odd", "algebraic", "kernel_fits", "native reference", True),
    ("lifted", "lifted", "", "native", True),
    ("tensor", "tensor", "det kernel_fits solve_packed", "native", True),
]


def _rule_cost(name, pb):
    """The cost line of a package engine, from the registry's constants: dense
    DENSE_PER_ENTRY x (tiles^2 for grids, cells x taps for graph boards), the reference
    REFERENCE_PER_ENTRY x cells x taps, the chase and the structured engines SETUP +
    PER_TILE x tiles with SETUP placed so each line meets the chase's at its crossover
    (less 1e-12 s, so the newer engine wins there); lifted by the row "lifted-zq" when
    n has a factor p^k, k > 1."""
    tie, dense = 1e-12, registry.DENSE_PER_ENTRY
    tiles = int(np.prod(pb.shape))
    if name.startswith("toy-"):  # this file's engines of Python code: free
        return 0.0
    if name in ("dense-gf2", "dense-zn"):
        return dense * (tiles**2 if pb.is_grid else pb.n_cells * pb.n_taps)
    if name == "reference":
        return registry.REFERENCE_PER_ENTRY * pb.n_cells * pb.n_taps
    per, cross = registry.PER_TILE, registry.CROSSOVER_TILES
    t = cross["chase"]
    chase_setup = dense * t * t - per["chase"] * t - tie
    if name.startswith("chase"):
        return chase_setup + per["chase"] * tiles
    if name == "algebraic-torus2" and pb.is_grid and pb.wrap:
        from modlights.engines.native import covers

        if covers("algebraic-torus", pb) is None:  # just above it on its boards
            return _rule_cost("algebraic-torus", pb) + 1e-9
    if name == "lifted" and any(pb.states % (p * p) == 0 for p in range(2, 16)):
        name = "lifted-zq"  # n with a factor p^k, k > 1: its own line
    t = cross[name]
    return chase_setup + (per["chase"] - per[name]) * t - tie + per[name] * tiles


def _covers(cb, name):
    return _core.capi_engine_covers(_core.capi_engine_index(name), cb)


def _brute_plan(pb, cb, method, backend):
    """The choice, evaluated here: the candidates of the method (with the rule that
    backend "reference" turns "auto" and "dense" into the reference engine), those
    without the backend passed over first, the others by (cost, table index), each
    cheaper than the choice passed over with its covers' reason, the dearer ones for
    their cost, then every other engine (not asked for / a variant). The plan as
    (engine, family, reason, rejected, cost, method), or the ValueError's message."""
    table = _core.capi_engines()
    names = [e["name"] for e in table]
    methods = ("auto", *FAMILIES, *[n for n in names if n not in FAMILIES])
    if backend not in ("native", "reference"):
        return f"unknown backend {backend!r}: use one of ('native', 'reference')"
    if method not in methods:
        return f"unknown method {method!r}: use one of {methods}"
    if backend == "reference" and method in ("auto", "dense"):
        method = "reference"
    if method == "auto":
        cands = [e for e in table if e["auto"]]
    elif method in FAMILIES:
        cands = [e for e in table if e["family"] == method and e["auto"]]
    else:
        cands = [e for e in table if e["name"] == method]
    rejected, priced = {}, []
    for i, e in enumerate(cands):
        if backend not in e["backends"]:
            rejected[e["name"]] = f"backend must be {' or '.join(e['backends'])}, not {backend!r}"
        else:
            priced.append((_rule_cost(e["name"], pb), i, e))
    priced.sort(key=lambda t: t[:2])
    best = None
    for c, _, e in priced:
        if best is not None:
            rejected[e["name"]] = (
                f"costs more ({c:.4g} s against {best[0]:.4g} s for {best[1]['name']}, estimated)"
            )
            continue
        why = _covers(cb, e["name"])
        if why is None:
            best = (c, e)
        else:
            rejected[e["name"]] = why
    if best is None:
        detail = "; ".join(f"{k}: {v}" for k, v in rejected.items())
        return (
            f"method={method!r} does not cover this board: {detail}; "
            f"use method='auto' or another of {methods}"
        )
    cost, e = best
    if len(cands) == 1:
        reason = "asked for by name; it covers the board"
    elif rejected:
        reason = f"the cheapest engine that covers the board ({cost:.4g} s estimated)"
    else:
        reason = "the only engine that covers the board"
    for o in table:
        if o["name"] not in rejected and o is not e and o not in cands:
            rejected[o["name"]] = (
                f"not asked for (method={method!r})"
                if o["auto"]
                else "a variant, chosen only by its name"
            )
    return (e["name"], e["family"], reason, rejected, cost, method)


def _compare_plan(pb, cb, method, backend):
    """registry.choose(pb), ml_plan_choose of the independent C board cb, and the
    choice evaluated here (on the C board the registry reads) agree."""
    want = _brute_plan(pb, native.plan_board(pb), method, backend)
    if isinstance(want, str):
        with pytest.raises(ValueError) as got:
            registry.choose(pb, method, backend)
        assert str(got.value) == want
        with pytest.raises(ValueError) as got:
            _core.capi_plan(cb, method, backend)
        assert str(got.value) == want
        return
    plan = registry.choose(pb, method, backend)
    engine, family, reason, rejected, cost, rmethod = want
    assert (plan.engine, plan.family, plan.variant) == (engine, family, None)
    assert (plan.method, plan.backend) == (rmethod, backend)
    assert plan.reason == reason
    assert plan.cost.hex() == float(cost).hex()
    assert list(plan.rejected.items()) == list(rejected.items())
    got = _core.capi_plan(cb, method, backend)
    assert got["explain"] == plan.explain()
    assert got["json"] == json.dumps(plan.to_dict(), separators=(",", ":"))


def _compare_costs(pb, cb):
    for i, e in enumerate(_core.capi_engines()):
        want = _rule_cost(e["name"], pb)
        got = _core.capi_engine_cost(i, cb)
        assert got.hex() == float(want).hex(), (e["name"], got, want)
        assert registry.entries()[e["name"]].cost(pb) == want


def _methods():
    return ["auto", *FAMILIES, *registry.entries()]


def _compare_all(boards, backends=("native", "reference")):
    for pb, cb in boards:
        _compare_costs(pb, cb)
        for backend in backends:
            for method in _methods():
                _compare_plan(pb, cb, method, backend)


def test_the_table_and_its_views():
    got = _core.capi_engines()
    assert [
        (
            e["name"],
            e["family"],
            " ".join(q for q in QUESTIONS if q in e["answers"]),
            " ".join(e["backends"]),
            e["auto"],
        )
        for e in got
    ] == TABLE
    assert list(registry.entries()) == list(ml.engines()) == [t[0] for t in TABLE]
    for i, e in enumerate(got):
        entry = registry.entries()[e["name"]]
        assert (entry.family, entry.description, entry.answers, entry.backends, entry.auto) == (
            e["family"],
            e["description"],
            e["answers"],
            e["backends"],
            e["auto"],
        )
        assert _core.capi_engine_index(e["name"]) == i
        assert registry.answers(e["name"]) == e["answers"]
    assert registry.methods() == ("auto", *FAMILIES, *[t[0] for t in TABLE if t[0] not in FAMILIES])


def test_random_boards_plan_by_the_rules():
    _compare_all(_boards(33, 120), backends=("native",))
    _compare_all(_boards(34, 30))


def test_named_and_giant_boards_plan_by_the_rules():
    _compare_all(_special_boards()[::9] + _special_boards()[-14:])


@pytest.mark.matrix
def test_many_boards_plan_by_the_rules():
    _compare_all(_boards(35, 3000))
    _compare_all(_special_boards())


def test_a_graph_board_is_planned_on_its_shape():
    """The registry plans a graph board on a C graph board of its shape alone
    (plan_board): every plan, cost and reason equals the one of the whole C board,
    and an engine of Python code is asked about the Board itself."""
    rng = np.random.default_rng(7)
    seen = []
    registry.register(
        "toy-graph",
        description="sees the board",
        covers=lambda b: seen.append(b) or "never",
        cost=lambda b: 0.0,
        build=lambda *a: None,
    )
    try:
        for _ in range(6):
            pb, cb = _graph(rng)
            _compare_all([(pb, cb)])
            mat = ml.Board.from_matrix(pb.matrix(), pb.states)
            _compare_all([(mat, CBoard.from_matrix(pb.matrix(), pb.states))])
            assert registry.choose(pb).rejected["toy-graph"] == "never"
            assert seen[-1] is pb
    finally:
        registry.unregister("toy-graph")


def test_unknown_method_and_backend_messages():
    pb, cb = ml.Board.grid(3, 3), CBoard.grid(3, 3)
    for method, backend in (("nope", "native"), ("auto", "gpu"), ("it's", "native")):
        _compare_plan(pb, cb, method, backend)
    for method, backend in ((None, "native"), ("a\0b", "native"), ("auto", 3)):
        with pytest.raises(ValueError, match="unknown (method|backend)"):
            registry.choose(pb, method, backend)


def test_the_seam_registers_and_unregisters():
    calls = []

    def covers(cb):
        calls.append(cb.shape)
        return None if cb.shape[0] <= 3 else "three rows at most"

    _core.capi_register("toy", covers, lambda cb: 1e-12, description="a toy")
    try:
        with pytest.raises(ValueError, match="engine 'toy' is registered already"):
            _core.capi_register("toy", covers, lambda cb: 1.0)
        plan = _core.capi_plan(CBoard.grid(3, 3), "auto", "native")
        assert plan["engine"] == "toy" and calls == [(3, 3)]
        plan = _core.capi_plan(CBoard.grid(5, 5), "auto", "native")
        assert plan["rejected"]["toy"] == "three rows at most"
        with pytest.raises(ValueError, match="method='toy' does not cover this board: toy: three"):
            _core.capi_plan(CBoard.grid(5, 5), "toy", "native")
    finally:
        _core.capi_unregister("toy")
    with pytest.raises(ValueError, match="no engine 'toy' is registered: dense-gf2, dense-zn"):
        _core.capi_unregister("toy")
    for bad in ("auto", "dense", ""):
        with pytest.raises(ValueError, match="an engine name must be a new non-empty string"):
            _core.capi_register(bad, covers, lambda cb: 1.0)


def test_a_failing_callback_is_reported():
    def boom(cb):
        raise RuntimeError("no covers today")

    _core.capi_register("boom", boom, lambda cb: 0.0)
    try:
        with pytest.raises(RuntimeError, match="no covers today"):
            _core.capi_plan(CBoard.grid(3, 3))
        assert [type(e) for e in _core.capi_seam_errors()] == [RuntimeError]
    finally:
        _core.capi_unregister("boom")


@pytest.mark.parametrize(
    "cost, shown",
    [
        (float("nan"), "nan"),
        (float("inf"), "inf"),
        (float("-inf"), "-inf"),
        (-1.0, "-1.0"),
        (-2.5e-300, "-2.5e-300"),
    ],
)
def test_a_cost_that_is_not_a_finite_number_is_refused(cost, shown):
    """An engine of Python code with an odd cost: the C table refuses the plan with
    ML_M_ENGINE_COST's message, from registry.choose, ml_plan_choose and
    ml_engine_cost alike."""
    pb, cb = ml.Board.grid(3, 3), CBoard.grid(3, 3)
    want = (
        f"the engine odd-cost estimated a cost of {shown} s for this board; "
        "a cost must be a finite number of seconds >= 0"
    )
    registry.register(
        "odd-cost",
        description="odd",
        covers=lambda b: None,
        cost=lambda b: cost,
        build=lambda *a: None,
    )
    try:
        with pytest.raises(ValueError) as py:
            registry.choose(pb)
        assert str(py.value) == want
        with pytest.raises(ValueError) as c:
            _core.capi_plan(cb)
        assert str(c.value) == want
        assert _core.capi_errmsg_name() == "ML_M_ENGINE_COST"
        with pytest.raises(ValueError) as c:
            _core.capi_engine_cost(_core.capi_engine_index("odd-cost"), cb)
        assert str(c.value) == want
    finally:
        registry.unregister("odd-cost")


def test_a_python_engines_exceptions_reach_the_caller():
    """A covers or cost of Python code that raises: registry.choose raises that very
    exception (type and message), the C call a RuntimeError with its text."""

    class Odd(Exception):
        pass

    def covers(b):
        raise Odd("no covers today")

    registry.register(
        "boom", description="x", covers=covers, cost=lambda b: 0.0, build=lambda *a: None
    )
    try:
        with pytest.raises(Odd, match="^no covers today$"):
            registry.choose(ml.Board.grid(3, 3))
        with pytest.raises(RuntimeError, match="no covers today"):
            _core.capi_plan(CBoard.grid(3, 3))
        assert [type(e) for e in _core.capi_seam_errors()] == [Odd]
    finally:
        registry.unregister("boom")
    registry.register(
        "boom", description="x", covers=lambda b: None, cost=lambda b: 1 / 0, build=lambda *a: 0
    )
    try:
        with pytest.raises(ZeroDivisionError):
            registry.choose(ml.Board.grid(3, 3))
    finally:
        registry.unregister("boom")


@pytest.mark.parametrize("size", [1023, 4095, 4096, 5000, 70000])
def test_a_long_seam_reason_is_kept_whole(size):
    """A seam engine's reason is whole in the plan, its explain() and JSON, and from
    capi_engine_covers, however long (it was cut at 1,023 bytes)."""
    why = "".join(chr(ord("a") + i % 26) for i in range(size - 1)) + "\u00e9"
    _core.capi_register("long-why", lambda b: why, lambda b: 1e-15, description="long")
    try:
        cb = CBoard.grid(3, 3)
        plan = _core.capi_plan(cb)
        assert plan["rejected"]["long-why"] == why
        assert f"\n  not long-why: {why}" in plan["explain"]
        assert json.loads(plan["json"])["rejected"]["long-why"] == why
        assert _core.capi_engine_covers(_core.capi_engine_index("long-why"), cb) == why
    finally:
        _core.capi_unregister("long-why")


def _pair(rows, cols, n, pattern=None, wrap=False, palette=None, index=None):
    if palette is not None:
        pk = [[palette[i] for i in row] for row in index]
        return (
            ml.Board.grid(rows, cols, states=n, pattern=pk, wrap=wrap),
            CBoard.grid(rows, cols, states=n, palette=palette, index=index, wrap=wrap),
        )
    return (
        ml.Board.grid(rows, cols, states=n, pattern=pattern, wrap=wrap),
        CBoard.grid(rows, cols, states=n, pattern=pattern, wrap=wrap),
    )


def test_rare_refusals_by_the_rules():
    """The refusals random boards seldom reach: more than 4096 distinct offsets over a
    mixed board's patterns, a row-solve residual system past its limits, a band of more
    than 64 symbols, and the tensor engine's split of n = 6 into 2 and 3 when a 1-D
    factor's residual matrix is singular mod 6 (then Z/2's band needs 70 symbols) or
    not (covered)."""
    boards = []
    a = [(dr, dc) for dr in range(-32, 32) for dc in range(0, 64)]
    b = [(dr, dc) for dr in range(-32, 32) for dc in range(-64, 0)]
    boards.append(_pair(2, 2, 2, palette=[a, b], index=[[0, 1], [1, 0]]))
    boards.append(_pair(2, 2, 3, palette=[a, a], index=[[0, 1], [1, 0]]))
    boards.append(_pair(3, 14000, 2, "knight"))
    boards.append(_pair(3, 9000, 3, "knight"))
    boards.append(_pair(4, 8, 2, "knight"))
    boards.append(_pair(100, 7, 5, [(0, 0), (-70, 0)]))
    for k in range(6):
        for cols in (71, 75, 100, 137):
            for wrap in (False, True):
                pattern = [(0, -70)] * 3 + [(0, 0)] * k + [(0, 1)]
                boards.append(_pair(3, cols, 6, pattern, wrap=wrap))
                boards.append(_pair(cols, 2, 10, [(dc, dr) for dr, dc in pattern], wrap=wrap))
    for rows in range(1, 5):  # the algebraic engines' edge: tori under 3 tiles a side
        for cols in range(1, 5):
            for name in ("cross", "vertical", "horizontal", "diagonal"):
                for n in (2, 3, 4):
                    boards.append(_pair(rows, cols, n, name, wrap=True))
    _compare_all(boards, backends=("native",))
    reasons = {_core.capi_engine_covers(_core.capi_engine_index("tensor"), cb) for _, cb in boards}
    assert any(r and r.startswith("over Z/2 (a factor of n = 6): the band -70..1") for r in reasons)
    assert None in reasons
    chase = {_core.capi_engine_covers(_core.capi_engine_index("chase"), cb) for _, cb in boards}
    assert "its patterns use more than 4096 distinct offsets" in chase
    rs = {
        _core.capi_engine_covers(_core.capi_engine_index("chase-rowsolve"), cb) for _, cb in boards
    }
    assert any(r and r.startswith("this board is too large for its pattern") for r in rs)


# ---------------------------------------------------------------- engines through the seam
@contextlib.contextmanager
def _python_engine(name, build, answers=("det",)):
    """An engine of Python code registered in C with ``build`` (the whole seam), covering
    every board; unregistered after."""
    _core.capi_register(
        name, lambda cb: None, lambda cb: 1.0, answers=answers, auto=False, build=build
    )
    try:
        yield
    finally:
        _core.capi_unregister(name)
        _core.capi_seam_errors()


def _reference_of(cb):
    from modlights.engines.reference import ReferenceEngine

    return ReferenceEngine(cb.matrix().astype(np.int64), cb.states)


def _seam_boards(seed, count):
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = [2, 3, 4, 5, 6, 7, 8, 9, 16][i % 9]
        rows, cols = (int(v) for v in rng.integers(1, 7, 2))
        marks = {
            w: [(int(r), int(c)) for r, c in zip(*np.nonzero(rng.random((rows, cols)) < 0.15))]
            for w in ("locked", "holes")
        }
        marks["locked"] = [p for p in marks["locked"] if p not in marks["holes"]]
        yield CBoard.grid(
            rows,
            cols,
            states=n,
            pattern=NAMES[i % len(NAMES)] if i % 3 else _random_pattern(rng),
            wrap=bool(i % 4 == 1),
            **marks,
        )
    yield CBoard.from_effects([[0, 1, 1], [2], [], [0, 2, 2, 2]], 6, 4)


@pytest.mark.parametrize("seed", range(3))
def test_a_python_engine_answers_a_c_solver_as_the_dense_engine_does(seed):
    """Python's reference engine registered with build: a C solver of it (ml_solver_new)
    gives the dense engine's nullity, kernel size, canonical kernel, det, solvability
    and minimal solutions (every pattern, random offsets, n 2..9 and 16, locks, holes,
    wrap, a graph board with repeated cells)."""
    rng = np.random.default_rng(100 + seed)
    with _python_engine("py-ref", _reference_of):
        for cb in _seam_boards(seed, 30):
            ours, dense = _core.CSolver(cb, "py-ref"), _core.CSolver(cb, "dense")
            assert ours.plan["engine"] == "py-ref"
            assert (ours.nullity, ours.kernel_size) == (dense.nullity, dense.kernel_size)
            H, orders = ours.kernel()
            H2, orders2 = dense.kernel()
            assert orders == orders2 and np.array_equal(H, H2)
            if cb.n_cells == cb.n_taps:
                assert ours.det() == dense.det()
            taps = rng.integers(0, cb.states, cb.taps_size).astype(np.uint8)
            if len(cb.shape) == 2:  # no taps at locked tiles and holes
                taps[(cb.locked_mask() | cb.holes_mask()).reshape(-1)] = 0
            state = cb.apply(np.zeros(cb.size, np.uint8), taps)
            x = ours.solve(state)[0]  # a particular solution (each engine its own)
            assert not np.asarray(cb.apply(state, x)).any()
            a, b = ours.solve(state, minimal=True), dense.solve(state, minimal=True)
            assert a[1:] == b[1:] and np.array_equal(a[0], b[0])
            assert ours.solvable(state) and ours.solvable(state, 1) == dense.solvable(state, 1)


def test_a_python_engine_freed_with_its_solver():
    import gc
    import weakref

    made = []

    def build(cb):
        made.append(_reference_of(cb))
        return made[-1]

    with _python_engine("py-ref", build):
        s = _core.CSolver(CBoard.grid(3, 3), "py-ref")
        ref = weakref.ref(made.pop())
        assert ref() is not None and s.nullity == 0
        del s
        gc.collect()
        assert ref() is None


class _Wrong:
    """The reference engine with one answer made wrong."""

    def __init__(self, cb, how):
        self._e, self._how = _reference_of(cb), how

    def __getattr__(self, name):
        return getattr(self._e, name)

    @property
    def nullity(self):
        return -1 if self._how == "nullity" else self._e.nullity

    @property
    def kernel_size(self):
        return 7 * self._e.kernel_size if self._how == "kernel_size" else self._e.kernel_size

    def solve(self, R):
        X, ok = self._e.solve(R)
        if self._how == "shape":
            return X[:, :-1], ok
        if self._how == "float":
            return X.astype(float), ok
        if self._how == "big":
            return X.astype(np.int64) + 3 * 5 * 7, ok  # reduced mod n = 3: the same taps
        if self._how == "interrupt":
            raise KeyboardInterrupt
        return X, ok

    def generators(self, limit=None):
        H, orders = self._e.generators()
        if self._how == "orders":
            return H, [3] * len(orders)
        return H, orders


@pytest.mark.parametrize(
    ("how", "error", "words"),
    [
        ("nullity", RuntimeError, "nullity -1 is not in 0..16"),
        ("kernel_size", RuntimeError, "not a product of powers of the primes of n = 2"),
        ("shape", RuntimeError, "solve's X has shape (1, 15), expected (1, 16)"),
        ("float", RuntimeError, "solve's X must be integers, got dtype float64"),
        ("orders", RuntimeError, "generator orders [3, 3, 3, 3] must divide n = 2"),
        ("interrupt", KeyboardInterrupt, ""),
        ("big", None, ""),
    ],
)
def test_a_python_engine_answer_is_checked_before_c_reads_it(how, error, words):
    """A wrong answer (out of range, wrong shape, not integers, orders not dividing n) or
    an exception fails the question with its message; Ctrl-C is KeyboardInterrupt; an
    answer that is right mod n is taken reduced."""
    cb = CBoard.grid(4, 4)
    state = cb.apply(np.zeros(16, np.uint8), np.eye(1, 16, 5, dtype=np.uint8)[0])
    with _python_engine("py-wrong", lambda b: _Wrong(b, how)):
        s = _core.CSolver(cb, "py-wrong")

        def ask():
            return s.nullity, s.kernel_size, s.kernel(), s.solve(state, minimal=True)

        if error is None:  # n = 3 here: answers past n taken mod n
            cb = CBoard.grid(4, 4, states=3)
            state = cb.apply(np.zeros(16, np.uint8), np.arange(16, dtype=np.uint8) % 3)
            s, d = _core.CSolver(cb, "py-wrong"), _core.CSolver(cb, "dense")
            taps = s.solve(state)[0]
            assert taps.max() < 3 and not np.asarray(cb.apply(state, taps)).any()
            (null, ks, (H, _), (taps, length, proven, _)) = ask()
            assert (null, ks) == (d.nullity, d.kernel_size) and np.array_equal(H, d.kernel()[0])
            assert (length, proven) == d.solve(state, minimal=True)[1:3] and proven
            return
        with pytest.raises(error, match=None if not words else __import__("re").escape(words)):
            ask()
