"""The Solver facade: targets, budgets, backends and methods, progress callbacks, the
solution's dict; every answer checked with Board.apply or against the reference engine."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import assume, given, settings

import modlights as ml
from jsonsafe import json_types_only, via_json
from modlights.model.validation import MAX_BUDGET, check_budget
from modlights.native import _core
from strategies import board_and_state
from suite_groups import sample


# ---------------------------------------------------------------- targets
def test_zero_d_array_targets_are_scalars():
    """A 0-d array target is its scalar (solve_packed refused it while an int worked)."""
    b = ml.Board.grid(6, 6, states=2, pattern="diagonal")
    s = ml.Solver(b)
    rng = np.random.default_rng(3)
    state = b.random_state(rng=rng, solvable=True)
    for t in (1, np.int64(1), np.array(1), np.array(1, dtype=np.uint8)):
        sol = s.solve(state, t, minimal=False)
        assert (b.apply(state, sol.taps) == 1).all()
        packed = s.solve_packed(np.packbits(state, axis=1), t)
        taps = np.unpackbits(packed, axis=1, count=6)
        assert (b.apply(state, taps) == 1).all()
    with pytest.raises(ValueError, match="bool"):
        s.solve(state, np.array(True), minimal=False)


# ---------------------------------------------------------------- budgets
@pytest.mark.parametrize("budget", [2**64, 2**200, np.uint64(2**64 - 1)])
def test_huge_budgets_mean_no_limit(budget):
    b = ml.Board.grid(5, 5)  # |ker A| = 4: the C search runs
    s = ml.Solver(b)
    state = b.random_state(rng=3)
    sol = s.solve(state, budget=budget)
    ref = ml.Solver(b, backend="reference").solve(state)
    assert sol.proven_minimal and sol.length == ref.length
    lengths, proven = s.min_taps_many(state[None], budget=budget)
    assert lengths[0] == ref.length and proven[0]
    assert check_budget(budget, 1) == (MAX_BUDGET, None)


def test_bad_budgets_are_value_errors():
    s = ml.Solver(ml.Board.grid(3, 3))
    for bad in (-1, -(2**70), float("nan"), -0.5, True, "10", [1]):
        with pytest.raises(ValueError, match="budget"):
            s.solve(np.zeros((3, 3), int), budget=bad)


def _roomy_default(monkeypatch) -> None:
    """DEFAULT_SECONDS made 60: the searches below take about 0.5 s alone, but a test
    must not depend on the machine's load (the figure is measured, not tested)."""
    import modlights.solver as solver_module

    monkeypatch.setattr(solver_module, "DEFAULT_SECONDS", 60.0)


def test_the_default_proves_the_39x39_all_on_board(monkeypatch):
    """Issue 32: the default budget counted coset elements (2^24 here) and answered an
    unproved 625 taps on the all-on 39 x 39 board (|ker A| = 2^32), which the
    transform search proves in about half a second; the default is now time."""
    _roomy_default(monkeypatch)
    b = ml.Board.grid(39, 39)
    s = ml.Solver(b)
    assert s.kernel_size > s._default_count  # past the default's whole-coset count
    ones = np.ones((39, 39), int)
    sol = s.solve(ones)
    ref = s.solve(ones, budget=2**33)  # an explicit count that covers the coset
    assert ref.proven_minimal
    assert sol.proven_minimal and sol.length == ref.length
    assert not b.apply(ones, sol.taps).any()


def test_the_default_batch_gets_seconds_a_board_past_the_count(monkeypatch):
    """min_taps_many / solve_many: a coset past the default's count gets
    DEFAULT_SECONDS a board, and these (|ker A| = 2^27) are proved within it."""
    _roomy_default(monkeypatch)
    b = ml.Board.grid(27, 35)
    s = ml.Solver(b)
    assert s.kernel_size > s._default_count
    states = np.stack([np.ones((27, 35), int), b.random_state(rng=2)])
    lengths, proven = s.min_taps_many(states)
    exact = [s.solve(st, budget=2**33) for st in states]
    assert all(e.proven_minimal for e in exact)
    assert proven.all() and lengths.tolist() == [e.length for e in exact]
    taps = s.solve_many(states, minimal=True)
    assert [int(t.sum()) for t in taps] == lengths.tolist()


def test_the_default_is_a_deadline_on_cosets_it_cannot_prove(monkeypatch):
    """Past its whole-coset count the default searches until DEFAULT_SECONDS (a
    deadline, counted from the search's start) and answers the best found, unproved."""
    import time

    import modlights.solver as solver_module

    b = ml.Board.grid(24, 24, states=5, wrap=True)  # |ker A| = 5^21: never covered
    s = ml.Solver(b)
    state = b.random_state(rng=1)
    s.solve(state, budget=0)  # factored
    monkeypatch.setattr(solver_module, "DEFAULT_SECONDS", 0.5)
    t = time.perf_counter()
    sol = s.solve(state)
    took = time.perf_counter() - t
    assert not sol.proven_minimal and not b.apply(state, sol.taps).any()
    assert 0.5 <= took < 0.5 + 2.5  # the stated tolerance is +0.25 s; a loaded machine
    assert sol.length <= s.solve(state, budget=0).length  # at least the greedy answer


def test_a_set_default_seconds_is_handed_to_c(monkeypatch):
    """DEFAULT_SECONDS set away from the C library's value is what the native Solver's
    default budget gives C (solve, min_taps_many, solve_many): 0.05 s a board, not C's
    1.0 s; the answers unproved and solutions."""
    import time

    import modlights.solver as solver_module

    b = ml.Board.grid(24, 24, states=5, wrap=True)  # |ker A| = 5^21: never covered
    s = ml.Solver(b)
    states = np.stack([b.random_state(rng=i) for i in range(3)])
    s.solve(states[0], budget=0)  # factored
    assert solver_module.DEFAULT_SECONDS == _core.SEARCH_LIMITS["DEFAULT_SECONDS"]
    monkeypatch.setattr(solver_module, "DEFAULT_SECONDS", 0.05)
    t = time.perf_counter()
    sol = s.solve(states[0])
    lengths, proven = s.min_taps_many(states)
    taps = s.solve_many(states, minimal=True)
    took = time.perf_counter() - t
    assert took < 1.0  # C's own default: 1 s + 3 s + 3 s
    assert not sol.proven_minimal and not proven.any()
    assert not b.apply(states[0], sol.taps).any()
    assert all(not b.apply(st, x).any() for st, x in zip(states, taps))


def test_the_default_searches_small_cosets_whole_by_count():
    """A coset within the default's count is searched whole, exactly as that count
    budget does (the same taps on every machine), also across a batch."""
    b = ml.Board.grid(17, 17, states=3)  # |ker A| = 3^12
    s = ml.Solver(b)
    assert 1 < s.kernel_size <= s._default_count
    states = np.stack([b.random_state(rng=i) for i in range(4)])
    for st in states:
        a, c = s.solve(st), s.solve(st, budget=s._default_count)
        assert a.proven_minimal and np.array_equal(a.taps, c.taps)
    many = s.solve_many(states, minimal=True)
    assert np.array_equal(many, s.solve_many(states, minimal=True, budget=s._default_count))


# ---------------------------------------------------------------- backends and methods
def test_reference_backend_refuses_the_chase_method():
    b = ml.Board.grid(30, 30)
    with pytest.raises(ValueError, match="chase.*reference|reference.*chase"):
        ml.Solver(b, backend="reference", method="chase")
    assert ml.Solver(ml.Board.grid(6, 6), backend="reference").engine == "reference"


# ---------------------------------------------------------------- progress callbacks
class _Stop(Exception):
    pass


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_progress_reports_the_minimal_search(backend):
    b = ml.Board.grid(4, 4, 4)  # |ker A| = 256 over Z/4
    s = ml.Solver(b, backend=backend)
    calls = []
    state = b.random_state(rng=5)
    sol = s.solve(state, progress=lambda done, total: calls.append((done, total)))
    total = s.kernel_size
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert all(t == total for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert (
        sol == ml.Solver(b, backend="reference").solve(state)
        or sol.length == ml.Solver(b, backend="reference").solve(state).length
    )


def test_progress_can_stop_a_python_search_and_the_solver_stays_usable():
    b = ml.Board.grid(8, 8, 3)  # |ker A| = 81
    s = ml.Solver(b, backend="reference")
    assert s.kernel_size > 1
    state = b.random_state(rng=2)
    seen = []

    def stop(done, total):
        seen.append(done)
        if done > 0:
            raise _Stop

    with pytest.raises(_Stop):
        s.solve(state, progress=stop)
    sol = s.solve(state)
    assert not b.apply(state, sol.taps).any() and sol.proven_minimal


def test_progress_of_min_taps_many_and_bad_callbacks():
    b = ml.Board.grid(4, 4)  # |ker A| = 16
    s = ml.Solver(b)
    states = np.stack([b.random_state(rng=i) for i in range(5)])
    calls = []
    s.min_taps_many(states, progress=lambda d, t: calls.append((d, t)))
    # one C call for the batch (the coset fits the budget): told once, at the end
    assert calls == [(5, 5)]
    calls.clear()
    s.min_taps_many(states, budget=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(i, 5) for i in range(1, 6)]  # a partial search: board by board
    with pytest.raises(ValueError, match="progress"):
        s.solve(states[0], progress=3)


# ---------------------------------------------------------------- Solution.to_dict
@settings(max_examples=60, deadline=None)
@given(board_and_state(solvable=True))
def test_solution_dict_matches_the_solution(bst):
    b, state, target = bst
    assume(ml.Solver(b, backend="reference").solvable(state, target))
    sol = ml.Solver(b).solve(state, target)
    d = sol.to_dict()
    assert json_types_only(d) and via_json(d) == d
    assert list(d) == ["taps", "length", "proven_minimal", "moves", "kernel_size"]
    taps = np.array(d["taps"], dtype=np.int64)
    assert taps.shape == (b.shape if b.is_grid else (b.n_taps,))
    assert np.array_equal(taps, sol.taps.astype(np.int64))
    assert d["length"] == int(sol.taps.sum()) == len(d["moves"])
    assert d["proven_minimal"] is sol.proven_minimal
    assert d["kernel_size"] == ml.Solver(b, backend="reference").kernel_size
    # replaying the moves one tap at a time reaches the target
    s = b.coerce_state(state)
    for m in d["moves"]:
        s = b.press(s, tuple(m) if b.is_grid else m)
    assert np.array_equal(s, b.coerce_target(target))
    if b.is_grid:
        assert all(isinstance(m, list) and len(m) == 2 for m in d["moves"])
    else:
        assert all(type(m) is int for m in d["moves"])


def _answers(s: ml.Solver, b: ml.Board, searched: bool = True) -> list:
    """What a Solver answers on a few states: structure, kernel, solves with three
    budgets (Solution, proven flag, examined + pruned, certificate), solvable,
    solutions, batches. ``searched=False``: of the searches with budgets None and 1
    only the length and proven flag (their taps checked to solve: a Python engine's
    Solver searches by the NumPy enumeration, which walks the coset in another order
    than C's and may find another least element) and no coset counts; budget 0 (the C
    descent from the canonical representative) and every other answer whole."""
    out: list = [s.plan, s.nullity, s.kernel_size, s.kernel_orders, s.kernel().tolist()]
    states = np.stack([b.random_state(rng=i) for i in range(4)])
    for st in states:
        for budget in (None, 1, 0):
            sol = s.solve(st, budget=budget)
            if budget != 0 and not searched:
                assert not b.apply(st, sol.taps).any()
                out += [sol.length if budget is None else None, sol.proven_minimal]
                continue
            cert = sol.certificate() if sol.proven_minimal else None
            counted = sol.examined + sol.pruned if searched else None
            out += [sol, sol.proven_minimal, counted, cert, s.solvable(st)]
    out.append([x.tolist() for x in s.solutions(states[0])])
    out += [x.tolist() for x in s.min_taps_many(states)]
    many = s.solve_many(states, minimal=True)
    assert all(not b.apply(st, x).any() for st, x in zip(states, many))
    out.append(many.sum(axis=tuple(range(1, many.ndim))).tolist())
    return out


class _ToyEngine:
    """An engine of Python code (the reference engine's answers under another name):
    the C solver builds it through the seam."""

    def __init__(self, board):
        from modlights.engines.reference import ReferenceEngine

        self._r = ReferenceEngine(board.matrix(), board.states)

    nullity = property(lambda self: self._r.nullity)
    kernel_size = property(lambda self: self._r.kernel_size)

    def solve(self, R):
        return self._r.solve(R)

    def generators(self, limit=None):
        return self._r.generators(limit)


@pytest.fixture
def toy_engine():
    from modlights.engines import registry

    registry.register(
        "toy-solver",
        description="the reference engine's answers (n^cells x taps small)",
        covers=lambda b: None if b.n_cells * b.n_taps <= 4096 else "too large",
        cost=lambda b: 1.0,
        build=lambda board, backend, dense: _ToyEngine(board),
        auto=False,
    )
    try:
        yield
    finally:
        registry.unregister("toy-solver")


_LOCKS = {"locked": [(0, 0), (2, 1)], "holes": [(1, 1)]}


@pytest.mark.parametrize(
    "args, kw, method",
    [
        ((6, 6, 3), {}, "chase"),
        ((9, 9, 2), {}, "algebraic"),
        ((7, 5, 4), {}, "chase"),
        ((8, 8, 2, "square"), {}, "tensor"),
        ((5, 5, 2), {}, "chase"),
        ((5, 5, 2), {}, "dense-gf2"),
        ((6, 7, 2, "knight"), _LOCKS, "dense-gf2"),
        ((16, 16, 2), {"wrap": True}, "dense-gf2"),
        ((4, 4, 6), {}, "dense-zn"),
        ((5, 6, 4), _LOCKS, "dense-zn"),
        ((4, 5, 3), {}, "reference"),
        ((4, 4, 4), _LOCKS, "reference"),
        ((4, 4, 2), {}, "toy-solver"),
        ((3, 5, 3), _LOCKS, "toy-solver"),
    ],
)
def test_the_c_solver_answers_as_the_python_engine(monkeypatch, toy_engine, args, kw, method):
    """A Solver over the C solver (solver_native.c_solves) answers as one over the
    registry's Python engine (C_ENGINES emptied, C_SEAM off): the C library's engines,
    dense and structured, and engines of Python code (the reference engine by name, an
    engine registered from Python) that the C solver builds through the seam."""
    from modlights import solver_native

    b = ml.Board.grid(*args, **kw)
    c = ml.Solver(b, method=method)
    assert c._on_c and c._eng is None
    got = _answers(c, b, searched=False)
    assert c._eng is None  # every answer above came from the C solver
    # the C solver's own plan for the method (ml_plan_choose) is Solver.plan, the
    # reference engine (registered through the seam) included
    cp = _core.CSolver(solver_native.c_board(b), method).plan
    assert (cp["engine"], cp["reason"]) == (c.plan.engine, c.plan.reason)
    assert json.loads(cp["json"])["rejected"] == c.plan.rejected
    if b.n_cells == b.n_taps:
        got += _structure(c)
    monkeypatch.setattr(solver_native, "C_ENGINES", ())
    monkeypatch.setattr(solver_native, "C_SEAM", False)
    p = ml.Solver(b, method=method)
    assert not p._on_c
    want = _answers(p, b, searched=False) + (_structure(p) if b.n_cells == b.n_taps else [])
    assert p._c is None  # every answer above came from the Python engine
    assert got == want


def _structure(s: ml.Solver) -> list:
    """det, inverse (or its message), pseudo-inverse (or its message)."""
    out: list = [s.det()]
    for q in (s.inverse, s.pseudo_inverse):
        try:
            out.append(q().tolist())
        except ValueError as e:
            out.append(str(e))
    return out


def test_the_reference_backend_stays_the_python_oracle():
    """backend="reference" answers from the registry's Python engine and the NumPy
    search (exact counts, independent of C), never the C solver."""
    s = ml.Solver(ml.Board.grid(4, 4), backend="reference")
    assert not s._on_c
    s.solve(ml.Board.grid(4, 4).random_state(rng=1))
    assert s._c is None and s._eng is not None


@pytest.mark.parametrize("n, kw", [(2, {}), (3, {}), (4, {}), (2, _LOCKS), (5, _LOCKS)])
def test_a_batch_reads_unreduced_bytes_and_targets_as_one_at_a_time(n, kw):
    """solve_many / solvable_many over the C solver (bytes past n reduced, a fill or a
    board-shaped target; the batch's right-hand sides made in one pass where the cells
    are the tiles) answer as the single solves do."""
    b = ml.Board.grid(5, 6, states=n, **kw)
    s = ml.Solver(b)
    assert s._on_c
    rng = np.random.default_rng(n)
    X = rng.integers(0, n, (40, b.n_taps), dtype=np.uint8)
    S = np.stack([b.apply(np.zeros(b.shape, np.uint8), b.from_tap_vector(x)) for x in X])
    S = (S + n * rng.integers(0, 256 // n, S.shape)).astype(np.uint8)  # unreduced bytes
    for target in (0, 1, b.random_state(rng=3)):
        T = b.coerce_target(target)
        want = np.stack([s.solvable(st, target) for st in S])
        assert s.solvable_many(S, target).tolist() == want.tolist()
        good = S[want]
        if len(good):
            got = s.solve_many(good, target, minimal=False)
            for st, x in zip(good, got):
                assert np.array_equal(b.apply(st, x), T)
                assert np.array_equal(x, s.solve(st, target, minimal=False).taps)


def test_an_engine_of_python_code_raises_through_the_c_solver(monkeypatch, toy_engine):
    """What an engine registered from Python raises inside the C solver reaches the
    caller as it was raised (solver_native.seamed), and the Solver stays usable."""

    class Refused(ArithmeticError):
        pass

    def refuse(self, R):
        raise Refused("no solves today")

    b = ml.Board.grid(4, 4)
    s = ml.Solver(b, method="toy-solver")
    assert s._on_c
    monkeypatch.setattr(_ToyEngine, "solve", refuse)
    with pytest.raises(Refused, match="no solves today"):
        s.solve(b.random_state(rng=1), minimal=False)
    monkeypatch.undo()
    assert s.nullity == 4


# ------------------------------------------------------------ budgets: counts and deadlines
def test_zero_second_budget_and_huge_kernels_return_fast():
    import time

    rng = np.random.default_rng(0)
    A = rng.integers(0, 2, (20, 80))
    s = ml.Solver(ml.Board.from_matrix(A, 2))
    st = rng.integers(0, 2, 20)
    t = time.perf_counter()
    sol = s.solve(st, budget=0.0)
    assert time.perf_counter() - t < 2 and not sol.proven_minimal
    assert not ml.Board.from_matrix(A, 2).apply(st, sol.taps).any()
    # 69 kernel generators: 2^69 solutions, more than any enumeration covers
    b = ml.Board.from_effects([[0]] * 70, 2, n_cells=1)
    t = time.perf_counter()
    sol = ml.Solver(b).solve(np.ones(1, np.uint8), budget=1 << 16)
    assert time.perf_counter() - t < 5
    assert sol.length == 1 and sol.proven_minimal is not None


# ------------------------------------------------------------ seconds are deadlines
#: Allowed past a deadline on a loaded 2-core CI box (the docstrings promise +10% or
#: +0.25 s on an idle machine).
DEADLINE_SLACK = 1.0


def _wide_board():
    """1024 taps on one cell over Z/255: ker A has 255^1023 elements, so every minimal
    search is partial and the greedy clean-up has 1023 generators of 254 multiples."""
    b = ml.Board.from_effects([[0]] * 1024, 255, n_cells=1024)
    st = np.zeros(1024, np.uint8)
    st[0] = 7
    return b, ml.Solver(b), st


# 1.5: a search that runs to its deadline (10 s of wall time under load)
@pytest.mark.parametrize("budget", sample([0.3, 1.5], 1, mark=pytest.mark.heavy))
def test_seconds_budget_is_a_deadline_for_solve_and_the_batches(budget):
    import time

    b, s, st = _wide_board()
    s.solve(st, budget=0.0)  # factored outside the measured calls
    many = np.stack([st, (st * 2) % 255, st, (st * 3) % 255])
    for call in (
        lambda: [s.solve(st, budget=budget)],
        lambda: s.min_taps_many(many, budget=budget)[0],
        lambda: s.solve_many(many, minimal=True, budget=budget),
    ):
        t = time.perf_counter()
        out = call()
        took = time.perf_counter() - t
        assert took < budget + DEADLINE_SLACK, f"{took:.2f} s for a {budget} s budget"
        assert len(out)
    # the answers are still solutions (Board.apply) and no worse than the greedy one
    sol = s.solve(st, budget=budget)
    assert not b.apply(st, sol.taps).any() and not sol.proven_minimal
    X = s.solve_many(many, minimal=True, budget=budget)
    lengths, proven = s.min_taps_many(many, budget=budget)
    for state, taps, length in zip(many, X, lengths):
        assert not b.apply(state, taps).any()
        assert length <= int(s.solve(state, minimal=False).taps.sum())
    assert not proven.any()


@pytest.mark.heavy  # 9 CPU s: two searches of 2^10 coset elements on a wide board
def test_int_budgets_stay_counts_and_zero_seconds_returns_at_once():
    """An int budget is a count of coset elements (no deadline: the clean-up finishes,
    the same answer every time); 0.0 seconds is a deadline: no search, only the greedy
    clean-up's MIN_DESCENT_SECONDS."""
    import time

    b, s, st = _wide_board()
    a, a2 = s.solve(st, budget=1 << 10), s.solve(st, budget=1 << 10)
    assert a == a2 and not b.apply(st, a.taps).any()
    t = time.perf_counter()
    z = s.solve(st, budget=0.0)
    assert time.perf_counter() - t < DEADLINE_SLACK
    assert not b.apply(st, z.taps).any() and not z.proven_minimal


def test_zero_seconds_still_gets_the_greedy_clean_up():
    """budget=0.0 searches nothing but keeps the clean-up (bounded by
    MIN_DESCENT_SECONDS): on a small board its answer is budget=0's, the greedy one."""
    for n, seed in [(3, 1), (5, 2), (4, 3)]:
        b = ml.Board.grid(9, 9, states=n)
        s = ml.Solver(b)
        st = b.random_state(rng=seed)
        greedy, zero = s.solve(st, budget=0), s.solve(st, budget=0.0)
        assert zero.length == greedy.length and not b.apply(st, zero.taps).any()
        assert zero.length <= s.solve(st, minimal=False).length
