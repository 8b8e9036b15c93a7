"""The C API's registry and plans (csrc/api/registry.c, plan.c, bound as
modlights.native._core.capi_*) give what modlights.engines.registry gives: the same
engines in the same order with the same names, families, descriptions, answers,
backends and auto flags; on random boards (every named pattern, random offsets, mixed
maps, locks, holes, wrap, odd and even sides, n 2..9 and 16, 101, 255, graph boards,
giant boards past 2^27 tiles) each engine's covers (the reason, character for
character) and cost (the same double); and ml_plan_choose = registry.choose for every
method (auto, each family, each name) and both backends: engine, family, reason,
variant, cost, the rejected engines in order with their whys, explain() and to_dict()
as JSON, or the same ValueError.

Python's reference engine is not the C library's own (it registers through the seam):
the plans are compared with Python's registry once without it, and once with it
registered in C through the seam (ml_engine_register, callbacks calling Python's own
covers and cost) and moved to the end of Python's registry, where the seam puts it.
Deterministic (seeded NumPy generators)."""

from __future__ import annotations

import contextlib
import json

import numpy as np
import pytest

import modlights as ml
from modlights.engines import registry
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


@contextlib.contextmanager
def _python_without_reference():
    saved = dict(registry._REGISTRY)
    registry._REGISTRY.pop("reference", None)
    try:
        yield
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(saved)


_CURRENT: list = []


@contextlib.contextmanager
def _reference_through_the_seam():
    """Python's reference engine registered in C through the seam, last; Python's
    registry with it moved last too."""
    ref = registry.entries()["reference"]
    saved = dict(registry._REGISTRY)
    _core.capi_register(
        "reference",
        lambda cb: ref.covers(_CURRENT[-1]),
        lambda cb: ref.cost(_CURRENT[-1]),
        description=ref.description,
        family=ref.family,
        answers=tuple(ref.answers),
        backends=ref.backends,
        auto=ref.auto,
    )
    registry._REGISTRY.pop("reference")
    registry._REGISTRY["reference"] = ref
    try:
        yield
    finally:
        _core.capi_unregister("reference")
        registry._REGISTRY.clear()
        registry._REGISTRY.update(saved)


def _compare_engines(pb, cb):
    names = [e["name"] for e in _core.capi_engines()]
    for i, name in enumerate(names):
        entry = registry.entries()[name]
        assert _core.capi_engine_covers(i, cb) == entry.covers(pb), (name, pb)
        got, want = _core.capi_engine_cost(i, cb), float(entry.cost(pb))
        assert got.hex() == want.hex(), (name, got, want)


def _compare_plan(pb, cb, method, backend):
    try:
        want = registry.choose(pb, method, backend)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            _core.capi_plan(cb, method, backend)
        assert str(got.value) == str(e)
        return
    got = _core.capi_plan(cb, method, backend)
    assert (got["engine"], got["family"], got["variant"]) == (
        want.engine,
        want.family,
        want.variant,
    )
    assert (got["method"], got["backend"]) == (want.method, want.backend)
    assert got["reason"] == want.reason
    assert got["cost"].hex() == float(want.cost).hex()
    assert list(got["rejected"].items()) == list(want.rejected.items())
    assert got["explain"] == want.explain()
    assert got["json"] == json.dumps(want.to_dict(), separators=(",", ":"))


def _methods():
    return ["auto", *FAMILIES, *registry.entries()]


def _compare_all(boards, backends=("native",)):
    for pb, cb in boards:
        _CURRENT.append(pb)
        try:
            _compare_engines(pb, cb)
            for backend in backends:
                for method in _methods():
                    _compare_plan(pb, cb, method, backend)
        finally:
            _CURRENT.pop()


def test_the_engines_are_pythons():
    with _python_without_reference():
        got = _core.capi_engines()
        assert [e["name"] for e in got] == list(registry.entries())
        for e in got:
            want = registry.entries()[e["name"]]
            assert (e["family"], e["description"], e["answers"], e["backends"], e["auto"]) == (
                want.family,
                want.description,
                want.answers,
                want.backends,
                want.auto,
            )
            assert _core.capi_engine_index(e["name"]) == list(registry.entries()).index(e["name"])
    assert _core.capi_engine_index("reference") == -1


def test_random_boards_plan_as_python():
    with _python_without_reference():
        _compare_all(_boards(33, 300))


def test_named_and_giant_boards_plan_as_python():
    with _python_without_reference():
        _compare_all(_special_boards()[::7] + _special_boards()[-14:])


def test_with_the_reference_engine_through_the_seam():
    with _reference_through_the_seam():
        assert [e["name"] for e in _core.capi_engines()] == list(registry.entries())
        _compare_all(_boards(34, 40), backends=("native", "reference"))
        _compare_all(_special_boards()[-6:], backends=("native", "reference"))
    assert _core.capi_engine_index("reference") == -1


@pytest.mark.matrix
def test_many_boards_plan_as_python():
    with _python_without_reference():
        _compare_all(_boards(35, 4000))
        _compare_all(_special_boards())
    with _reference_through_the_seam():
        _compare_all(_boards(36, 400), backends=("native", "reference"))


def test_unknown_method_and_backend_messages():
    pb, cb = ml.Board.grid(3, 3), CBoard.grid(3, 3)
    with _python_without_reference():
        for method, backend in (("nope", "native"), ("auto", "gpu"), ("it's", "native")):
            _compare_plan(pb, cb, method, backend)


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


@pytest.mark.parametrize("cost", [float("nan"), float("inf"), float("-inf"), -1.0, -2.5e-300])
def test_a_cost_that_is_not_a_finite_number_is_refused_as_python_refuses_it(cost):
    """The same engine registered in Python and in C (through the seam) with an odd
    cost: both refuse the plan with the same ValueError (ML_M_ENGINE_COST)."""
    pb, cb = ml.Board.grid(3, 3), CBoard.grid(3, 3)
    registry.register(
        "odd-cost",
        description="odd",
        covers=lambda b: None,
        cost=lambda b: cost,
        build=lambda *a: None,
    )
    _core.capi_register("odd-cost", lambda b: None, lambda b: cost, description="odd")
    try:
        with pytest.raises(ValueError) as py:
            registry.choose(pb)
        with pytest.raises(ValueError) as c:
            _core.capi_plan(cb)
        assert str(c.value) == str(py.value)
        assert _core.capi_errmsg_name() == "ML_M_ENGINE_COST"
        with pytest.raises(ValueError) as c:
            _core.capi_engine_cost(_core.capi_engine_index("odd-cost"), cb)
        assert str(c.value) == str(py.value)
    finally:
        registry.unregister("odd-cost")
        _core.capi_unregister("odd-cost")


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


def test_rare_refusals_as_python():
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
    with _python_without_reference():
        _compare_all(boards)
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
